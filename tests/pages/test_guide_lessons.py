"""The 16 shipped lessons hold together (issue 39, item 6): every control, option or section a step names in
**bold** is written on its page as the page writes it (in both languages), a control named with an option
offers that option, every preset parameter is one its page reads, a page made for one model gets that model
from its step (not the sidebar's last choice), no question repeats the prefix the step box adds, and every
lesson ends on a closing step, in both languages, that leads to the next lesson in file order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui import guides
from ui.i18n import STRINGS
from ui.pages import LESSONS
from ui.params import AGGREGATES, KV_DTYPES, PARAMS, QK_COLORS, SHARED, VIEWS, WEIGHTINGS, lab_params

ROOT = Path(__file__).parents[2]
PAGES = {lesson.name for lesson in LESSONS}
GUIDES = guides.load_all([guides.SHIPPED_DIR], PAGES)[0]
LANGS = ("en", "zh")
# String tables every page draws from (the sidebar, shared controls and labels); the rest are a page's own.
SHARED_TABLES = ("attn", "common", "ctl", "lbl", "mask", "model", "nav", "part", "prompt", "shell", "step", "weights")
# Controls whose options a lesson names: (the control's label key, its options' key prefix or None: shown as is)
CONTROLS = {
    "ctl.view": ("explorer.view", VIEWS),
    "ctl.agg": ("explorer.agg", AGGREGATES),
    "explorer.weighting": ("explorer.weighting", WEIGHTINGS),
    "heads.qk_color": ("heads.qk_color", QK_COLORS),
    "scaling.kv_dtype": (None, KV_DTYPES),
}
NAMED_WITH = {"en": r" (?:to|set to|switched to|on) ", "zh": r"(?:切换到|切换为|设为|设置为|已设为)"}


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[*_`:：.。…]", "", text)).strip().lower()


def page_names(page: str, lang: str) -> set[str]:
    """Everything the page can show as a name: its strings, their bold parts, and their parts before a colon or
    a bracket ("Colour shows" of "Colour shows: …")."""
    names = set()
    for key, entry in STRINGS.items():
        table = key.split(".")[0]
        if table in SHARED_TABLES or table.startswith(page):
            text = entry.get(lang, entry["en"])
            names |= {_plain(text), *(_plain(b) for b in re.findall(r"\*\*(.+?)\*\*", text))}
            names |= {_plain(part) for part in re.split(r"[:：(（]", text)}
    return names


def step_texts(step: guides.Step) -> list[tuple[str, dict]]:
    """The texts of a step the class reads, by what they are."""
    texts = [("text", step.text), ("question", step.question), *(("hint", h) for h in step.hints)]
    if step.predict:
        texts += [("predict", step.predict.question), ("why", step.predict.why)]
    if step.goal:
        texts += [("task", step.goal.task), ("done", step.goal.done)]
    if step.free:
        texts.append(("free", step.free.question))
    return texts


def every_step():
    for guide in GUIDES.values():
        for n, step in enumerate(guide.steps):
            yield f"{guide.id} step {n + 1}", step


def unknown_names(page: str, text: str, lang: str) -> list[str]:
    known = page_names(page, lang)
    return [b for b in re.findall(r"\*\*(.+?)\*\*", text) if _plain(b) not in known]


def wrong_options(text: str, lang: str) -> list[tuple[str, str]]:
    """(control, option) pairs such as “switch **View** to **grid**” whose option the control does not offer."""
    labels = {_plain(STRINGS[key][lang]): key for key in CONTROLS}
    wrong = []
    for control, option in re.findall(rf"\*\*([^*]+)\*\*{NAMED_WITH[lang]}\*\*([^*]+)\*\*", text):
        key = labels.get(_plain(control))
        if key is None:
            continue
        prefix, values = CONTROLS[key]
        offered = {_plain(STRINGS[f"{prefix}.{v}"][lang]) if prefix else _plain(str(v)) for v in values}
        if _plain(option) not in offered:
            wrong.append((control, option))
    return wrong


def test_there_are_sixteen_lessons():
    assert len(GUIDES) == 16, sorted(GUIDES)


def test_the_checks_catch_what_the_teacher_found():
    """The checks below would have refused lesson 01's old hint, and accept the page's real option."""
    assert unknown_names("explorer", "Switch **View** to **grid**", "en") == ["grid"]
    assert wrong_options("Switch **View** to **grid**", "en") == [("View", "grid")]
    assert wrong_options("把**视图**切换到**网格**", "zh") == [("视图", "网格")]
    assert not wrong_options("Switch **View** to **all heads**", "en")
    assert not unknown_names("explorer", "**all heads**", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_bold_name_is_on_its_page(lang):
    """**Bold** names what is on the page (a control, an option, a section, a button), as the page writes it;
    emphasis is written in *italics*."""
    missing = [
        (where, what, name)
        for where, step in every_step()
        for what, words in step_texts(step)
        for name in unknown_names(step.page, words.get(lang, ""), lang)
    ]
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_control_named_with_an_option_offers_it(lang):
    pairs, wrong = 0, []
    for where, step in every_step():
        for what, words in step_texts(step):
            text = words.get(lang, "")
            pairs += len(re.findall(rf"\*\*([^*]+)\*\*{NAMED_WITH[lang]}\*\*([^*]+)\*\*", text))
            wrong += [(where, what, *pair) for pair in wrong_options(text, lang)]
    assert wrong == []
    assert pairs >= 5  # the pattern does find the lessons' "switch **View** to **one head**"


def _page_source(page: str) -> str:
    files = [ROOT / "lessons" / f"{page}.py", *sorted((ROOT / "lessons").glob(f"{page}_*.py"))]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def test_every_preset_is_valid_and_read_by_its_page():
    """A step's parameters parse as the app parses URLs, and each one that is not shared by every page (the
    model, the prompt, ...) is read by the step's page: a preset the page ignores shows nothing."""
    lab = set(lab_params())
    ignored = []
    for where, step in every_step():
        source = _page_source(step.page)
        for name, value in step.params.items():
            assert PARAMS[name].parse(PARAMS[name].dump(value)) == value, (where, name)
            if name in SHARED or (step.page == "lab" and name in lab):
                continue
            if name in ("layer", "head") and "layer_head(" in source:
                continue
            if f'"{name}"' not in source:
                ignored.append((where, step.page, name))
        if step.params.get("agg", "head") != "head":  # the aggregate is a control of the one-head view only
            assert step.params.get("view", "heatmap") == "heatmap", where
    assert ignored == []


def _page_model(page: str) -> str | None:
    """The model a page always runs (model_or_stop(..., always=...)), as its source names it."""
    source = (ROOT / f"lessons/{page}.py").read_text(encoding="utf-8")
    found = re.search(r"model_or_stop\(settings, (\"?[\w-]+\"?), always=", source)
    if found is None:
        return None
    name = found.group(1)
    if name.startswith('"'):
        return name.strip('"')
    return re.search(rf"{name} = shell\.published_or\(settings, \"[\w-]+\", \"([\w-]+)\"\)", source).group(1)


def test_a_page_made_for_one_model_gets_it_from_the_step():
    """The sidebar keeps the last step's model unless a step sets it: on the Translate page after an encoder
    step it said “Encoder-only” over an encoder-decoder figure."""
    models = {page: _page_model(page) for page in PAGES}
    assert models["translate"] == "encoder-decoder" and models["mlm"] == "encoder"
    wrong = [(where, step.page, step.params.get("model")) for where, step in every_step()
             if models[step.page] and step.params.get("model") != models[step.page]]  # fmt: skip
    assert wrong == []


def _prefix(key: str, lang: str) -> str:
    return re.sub(r"\*\*|\{\w+\}", "", STRINGS[key][lang]).strip(" ：:")


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_repeats_the_prefix_the_step_box_adds(lang):
    """The step box writes “Predict first:”, “Think about it:”, ... before a question: a file must not."""
    where_key = {
        "predict": ("guides.predict.title", "guides.read.title"),
        "question": ("guides.question",),
        "free": ("guides.free.title",),
        "task": ("guides.goal.task",),
        "hint": ("guides.hint.text",),
    }
    repeated = [
        (where, what)
        for where, step in every_step()
        for what, words in step_texts(step)
        for key in where_key.get(what, ())
        if words.get(lang, "").lstrip("*").startswith(_prefix(key, lang))
    ]
    assert repeated == []
    assert _prefix("guides.predict.title", "zh") == "先预测"


def test_every_lesson_ends_on_a_closing_step_in_both_languages():
    ids = sorted(GUIDES)
    for k, guide_id in enumerate(ids):
        steps = GUIDES[guide_id].steps
        end = steps[-1].closing
        assert end is not None, f"{guide_id}: its last step is not a closing step"
        assert all(step.closing is None for step in steps[:-1]), guide_id
        assert 2 <= len(end.learnt) <= 4 and 1 <= len(end.readings) <= 2, guide_id
        for words in (steps[-1].title, *end.learnt, *end.readings):
            assert all(words.get(lang, "").strip() for lang in LANGS), (guide_id, words)
        for reading in end.readings:  # a real source: authors and a year
            assert re.search(r"\b(19|20)\d\d\b", reading["en"]) and re.search(r"(19|20)\d\d", reading["zh"]), reading
        # the next lesson, in file order; the last lesson has none
        assert end.next == (ids[k + 1] if k + 1 < len(ids) else None), guide_id
