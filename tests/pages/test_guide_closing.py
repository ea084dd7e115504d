"""A lesson's closing step and the question about a visible figure (ui/guide_format.py, ui/guides.py,
ui/guide_steps.py): a closing step parses (learnt, next, readings; without a page it stays where the lesson was),
a bad one names its line, and in the app it lists what was learnt, names the next lesson with a button that
starts it (or, on the last lesson, one back to the list) and the readings, in both languages; `read = true`
keeps the figure in view while the class answers; a goal's hints wait for the figure they talk about. The
lessons are written into a temporary folder ($ATTENTION_LAB_GUIDES), not taken from the shipped ones."""

from pathlib import Path

import pytest

from tests.pages.apptest import open_app
from ui import guide_format, guide_steps, guides
from ui.pages import LESSONS

PAGES = {lesson.name for lesson in LESSONS}
ROOT = Path(__file__).parents[2]

FIRST = """title = { en = "First", zh = "第一课" }
[[steps]]
page = "explorer"
params = { model = "decoder", layer = 1, head = 1 }
title = { en = "Look", zh = "看" }
text = { en = "Look.", zh = "看。" }
hints = [ { en = "Hint one.", zh = "提示一。" } ]

[steps.predict]
question = { en = "Which mask?", zh = "哪种掩码？" }
choices = [ { en = "None", zh = "无" }, { en = "Causal", zh = "因果" } ]
answer = 2
READ

[steps.goal]
check = "param_is"
args = { name = "layer", value = 2 }
task = { en = "Select layer 2.", zh = "选择第 2 层。" }

[[steps]]
title = { en = "What we saw", zh = "本课小结" }
[steps.closing]
learnt = [ { en = "Point one.", zh = "要点一。" }, { en = "Point two.", zh = "要点二。" } ]
next = "second"
readings = [ { en = "Vaswani et al. 2017, *Attention Is All You Need*", zh = "Vaswani 等，2017，*注意力*" } ]
"""
SECOND = """title = { en = "Second", zh = "第二课" }
[[steps]]
page = "masks"
params = { model = "decoder" }
title = { en = "Masks", zh = "掩码" }
text = { en = "Masks.", zh = "掩码。" }

[[steps]]
page = "explorer"
title = { en = "The end", zh = "结束" }
text = { en = "Done.", zh = "完成。" }
[steps.closing]
learnt = [ { en = "Masks matter.", zh = "掩码很重要。" }, { en = "So do heads.", zh = "头也很重要。" } ]
readings = [ { en = "Devlin et al. 2019, BERT", zh = "Devlin 等，2019，BERT" } ]
"""


@pytest.fixture
def lessons(tmp_path: Path, monkeypatch):
    def write(read: str = "", text: str = 'en = "Look.", zh = "看。"') -> None:
        first = FIRST.replace("READ", read).replace('en = "Look.", zh = "看。"', text)
        (tmp_path / "first.toml").write_text(first, encoding="utf-8")
        (tmp_path / "second.toml").write_text(SECOND, encoding="utf-8")
        monkeypatch.setenv(guides.GUIDES_ENV, str(tmp_path))
        guides.available.clear()

    yield write
    guides.available.clear()


def test_a_closing_step_parses_and_stays_on_the_page_before():
    first = guide_format.parse(FIRST.replace("READ", ""), "first.toml", PAGES)
    look, end = first.steps
    assert end.closing == guide_format.Closing(
        ({"en": "Point one.", "zh": "要点一。"}, {"en": "Point two.", "zh": "要点二。"}),
        "second",
        ({"en": "Vaswani et al. 2017, *Attention Is All You Need*", "zh": "Vaswani 等，2017，*注意力*"},),
    )
    assert (end.page, end.params, end.text) == (look.page, look.params, {})  # no page: where the lesson was
    last = guide_format.parse(SECOND, "second.toml", PAGES).steps[-1]
    assert last.page == "explorer" and last.params == {} and last.closing.next is None  # its own page, no next
    assert look.closing is None and look.predict.read is False
    assert guide_format.parse(FIRST.replace("READ", "read = true"), "first.toml", PAGES).steps[0].predict.read


def _swap(old: str, new: str) -> str:
    text = FIRST.replace("READ", "")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "needle", "words"),
    [
        (_swap('{ en = "Point two.", zh = "要点二。" }', ""), "learnt", "2 to 4"),
        (_swap('next = "second"', 'next = "../etc/passwd"'), "next =", "file name"),
        (_swap('next = "second"', "next = 2"), "next =", "file name"),
        (_swap("*Attention Is All You Need*", "<script>x</script>"), "readings", "HTML"),
        (_swap("readings = [", "# readings = ["), "# readings", "readings"),
        (_swap('next = "second"', 'next = "second"\ncolour = 1'), "[steps.closing]", "colour"),
        (_swap("answer = 2", 'answer = 2\nread = "yes"'), 'read = "yes"', "true or false"),
    ],
)
def test_a_bad_closing_step_names_its_line(text, needle, words):
    with pytest.raises(guide_format.GuideError) as refused:
        guide_format.parse(text, "first.toml", PAGES)
    assert words in str(refused.value), str(refused.value)
    line = next(i + 1 for i, row in enumerate(text.splitlines()) if needle in row)
    assert refused.value.line == line, (refused.value.line, line)


def test_a_closing_step_needs_a_page_when_it_is_the_first():
    closing = FIRST.split("[steps.closing]")[1]
    alone = 'title = { en = "T" }\n[[steps]]\ntitle = { en = "End" }\n[steps.closing]\n' + closing
    with pytest.raises(guide_format.GuideError, match="page"):
        guide_format.parse(alone, "alone.toml", PAGES)


def _start(guide: str, lang: str = "en", step: int = 0, page: str = "explorer"):
    at = open_app("guides", lang=lang)
    at.button(key=f"start_{guide}").click().run()
    for _ in range(step):
        at.button(key="guide_next").click().run()
    at.switch_page(f"lessons/{page}.py").run()  # AppTest reruns the page it opened, not the one switched to
    assert not at.exception, [e.value for e in at.exception]
    return at


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["**What you learnt**\n\n- Point one.\n- Point two.", "**Next lesson:** Second", "**To read**",
                "- Vaswani et al. 2017, *Attention Is All You Need*"]),
        ("zh", ["**本课要点**\n\n- 要点一。\n- 要点二。", "**下一课**：第二课", "**延伸阅读**",
                "- Vaswani 等，2017，*注意力*"]),
    ],
)  # fmt: skip
def test_the_closing_step_lists_what_was_learnt_the_next_lesson_and_the_readings(lessons, lang, words):
    lessons()
    at = _start("first", lang, step=1)
    assert "guide_next" not in [b.key for b in at.button]  # the last step
    shown = _markdown(at)
    assert [w for w in words if w not in shown] == [], shown
    at.button(key="guide_next_lesson").click().run()
    assert not at.exception
    assert at.session_state["guide"] == "second" and at.session_state["gstep"] == 0  # the next lesson, step 1


def test_the_last_lessons_closing_step_leads_back_to_the_lessons(lessons):
    lessons()
    at = _start("second", step=1)
    assert "This is the last lesson of the series." in _markdown(at) and "guide_next_lesson" not in [
        b.key for b in at.button]  # fmt: skip
    at.button(key="guide_all_lessons").click().run()
    assert not at.exception and at.session_state["guide"] is None


def test_a_question_about_the_figure_keeps_it_in_view(lessons):
    lessons("read = true")
    at = _start("first")
    assert at.get("plotly_chart")  # read = true: the figure is the thing to read
    assert any(m.value.startswith("**Read the figure:** Which mask?") for m in at.markdown)
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert any(v.value.startswith("Right: Causal") for v in at.success) and at.get("plotly_chart")


def test_a_goals_hints_wait_for_the_figure_they_talk_about(lessons):
    lessons()
    at = _start("first")
    assert not at.get("plotly_chart") and "gh_more" not in [b.key for b in at.button]  # the figure is hidden
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert at.get("plotly_chart") and at.button(key="gh_more").label == "Show a hint (1 of 1)"
    at.button(key="gh_more").click().run()
    assert "**Hint 1:** Hint one." in _markdown(at)


def test_lesson_text_is_never_drawn_as_html():
    """The step box draws every lesson text with Markdown, which the lesson parser has refused HTML in."""
    for path in ("ui/guides.py", "ui/guide_steps.py"):
        assert "unsafe_allow_html" not in (ROOT / path).read_text(), path


def test_a_revealed_answer_says_where_its_figure_is(lessons):
    """No anchor to scroll to: when the step's text sends the class down the page, the verdict says where."""
    lessons(text='en = "Scroll to **the grid**.", zh = "滚动到**网格**。"')
    at = _start("first")
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert any("further down the page: scroll to **the grid**." in c.value for c in at.caption), [
        c.value for c in at.caption]  # fmt: skip
    sweep = next(g for gid, g in guides.load_all([guides.SHIPPED_DIR], PAGES)[0].items() if gid.startswith("06"))
    assert [guide_steps.figure_below(sweep.steps[2], lang) for lang in ("en", "zh")] == ["**A sweep**", "**扫描实验**"]
