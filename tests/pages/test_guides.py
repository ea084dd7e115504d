"""Guided lessons: the shipped TOML files load in both languages, a broken file is reported with its
file and line while the others still load, a teacher's folder is read, and Next / Back / End walk
the app through the steps' preset pages."""

from pathlib import Path

import pytest

from tests.pages.apptest import figures, open_app
from ui import guides
from ui.pages import LESSONS
from ui.params import PARAMS

PAGES = {lesson.name for lesson in LESSONS}
GOOD = """title = { en = "Mine", zh = "我的" }
[[steps]]
page = "explorer"
params = { model = "encoder", layer = 2 }
title = { en = "One" }
text = { en = "Look." }
"""


def test_shipped_guides_load_in_both_languages():
    found, problems = guides.load_all([guides.SHIPPED_DIR], PAGES)
    assert not problems, [str(p) for p in problems]
    assert len(found) >= 1
    for guide in found.values():
        assert guide.title.get("zh"), guide.id
        for n, step in enumerate(guide.steps):
            for words in (step.title, step.text, step.question):
                assert not words or words.get("zh"), (guide.id, n)
            for name, value in step.params.items():
                assert PARAMS[name].parse(PARAMS[name].dump(value)) == value  # round-trips through a URL


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (GOOD.replace('page = "explorer"', 'page = "nowhere"'), 3, "page"),
        (GOOD.replace("layer = 2", "layer = 99"), 4, "layer"),
        (GOOD.replace("layer = 2", "colour = 2"), 4, "colour"),
        (GOOD.replace('title = { en = "One" }', "title = { en = "), 5, ""),  # TOML syntax
        (GOOD.replace('text = { en = "Look." }', ""), 2, "text"),
        (GOOD.replace("[[steps]]", "[step]"), None, "[[steps]]"),
    ],
)
def test_a_broken_file_names_its_line_and_the_others_still_load(tmp_path: Path, text, line, words):
    (tmp_path / "a-good.toml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b-broken.toml").write_text(text, encoding="utf-8")
    found, problems = guides.load_all([tmp_path], PAGES)
    assert list(found) == ["a-good"]
    assert len(problems) == 1
    problem = problems[0]
    assert problem.source.endswith("b-broken.toml") and words in problem.message
    assert problem.line == line, str(problem)
    assert str(problem).startswith(str(tmp_path / "b-broken.toml"))


def test_a_teachers_folder_is_read(tmp_path: Path, monkeypatch):
    (tmp_path / "mine.toml").write_text(GOOD, encoding="utf-8")
    monkeypatch.setenv(guides.GUIDES_ENV, str(tmp_path))
    found, problems = guides.load_all(guides.folders(), PAGES)
    assert "mine" in found and not problems
    assert found["mine"].steps[0].params == {"model": "encoder", "layer": 1}  # 1-based in files, as in URLs


def test_an_old_lab_parameter_name_in_a_lesson_file_sets_the_same_state():
    """Lesson files written before the lab's fields took ModelConfig's names (b_kv, b_tie, a_d) still load."""
    lab = GOOD.replace('page = "explorer"', 'page = "lab"')
    old = lab.replace('model = "encoder", layer = 2', "b_kv = 2, b_tie = false, a_d = 128")
    new = lab.replace('model = "encoder", layer = 2', "b_n_kv_heads = 2, b_tie_embeddings = false, a_d_model = 128")
    parsed = [guides.parse(text, "mine.toml", PAGES).steps[0].params for text in (old, new)]
    assert parsed[0] == parsed[1] == {"b_n_kv_heads": 2, "b_tie_embeddings": False, "a_d_model": 128}
    with pytest.raises(guides.GuideError, match="b_kv = 3"):  # checked, and named as written
        guides.parse(old.replace("b_kv = 2", "b_kv = 3"), "mine.toml", PAGES)


def answer(at, page: str):
    """Answer the step's prediction (its first choice, or 0), so the page's figures are drawn. AppTest reruns
    the page it opened last, not the one st.switch_page went to (a browser keeps the page): say which."""
    at.switch_page(f"lessons/{page}.py")
    if any(r.key == "gp_choice" for r in at.radio):
        at.radio(key="gp_choice").set_value(at.radio(key="gp_choice").options[0])
    elif any(n.key == "gp_number" for n in at.number_input):
        at.number_input(key="gp_number").set_value(0)
    else:
        return at
    at.button(key="gp_send").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def bar_caption(at) -> str:
    return next((c.value for c in at.caption if c.value.startswith("Guided lesson")), "")


def test_next_back_and_end_walk_through_the_steps():
    guide = guides.load_all([guides.SHIPPED_DIR], PAGES)[0]["01-three-architectures"]
    at = open_app("guides")
    at.button(key=f"start_{guide.id}").click().run()
    assert not at.exception
    for index, step in enumerate(guide.steps):
        assert at.session_state["gstep"] == index
        assert f"step {index + 1} of {len(guide.steps)}" in bar_caption(at)
        assert at.title[0].value == open_app(step.page).title[0].value  # the step's page is open
        for name, value in step.params.items():
            assert at.session_state[name] == value
        assert at.query_params.get("guide") == [guide.id] or at.query_params.get("guide") == guide.id
        if index + 1 < len(guide.steps):
            at.button(key="guide_next").click().run()
            assert not at.exception
    assert "guide_next" not in [b.key for b in at.button]  # the last step
    at.button(key="guide_back").click().run()
    assert at.session_state["gstep"] == len(guide.steps) - 2
    at.button(key="guide_end").click().run()
    assert at.session_state["guide"] is None and not bar_caption(at)


def test_a_step_resets_what_an_earlier_step_set():
    guide = guides.load_all([guides.SHIPPED_DIR], PAGES)[0]["01-three-architectures"]
    guides_page = open_app("guides")
    guides_page.session_state["view"] = "grid"
    guides_page.button(key=f"start_{guide.id}").click().run()
    assert guides_page.session_state["view"] == "heatmap"  # back to its default


def test_a_shared_link_opens_the_step_and_an_unknown_guide_is_a_notice():
    at = open_app("translate", guide="01-three-architectures", gstep="3", source="1234")
    assert "step 3 of" in bar_caption(at)
    at = open_app("explorer", guide="no-such-lesson")
    assert any("was not found" in w.value for w in at.warning)
    assert not at.exception


def test_leaving_the_steps_page_offers_a_way_back():
    at = open_app("masks", guide="01-three-architectures", gstep="1")  # step 1 is on the explorer
    assert "you left step 1" in bar_caption(at)
    at.button(key="guide_resume").click().run()
    assert at.title[0].value == "Attention Explorer"


def test_the_viewers_language_and_settings_survive_the_steps():
    """st.switch_page reruns without the browser's widget values: the step's state is applied at the
    start of its page's run, so the language, tables and presentation switches stay as they were."""
    at = open_app("guides", lang="zh", tables="1", present="1")
    at.button(key="start_01-three-architectures").click().run()
    at.button(key="guide_next").click().run()
    answer(at, "explorer")
    assert at.session_state["lang"] == "zh" and at.session_state["tables"] and at.session_state["present"]
    assert at.session_state["model"] == "encoder" and at.title[0].value == "注意力浏览器"
    assert at.table  # the tables switch is still on


def test_the_sinks_guide_opens_every_step_with_both_shares():
    """09-attention-sinks: each step's page draws, on the model and view it names; the sinks notice gives the
    weight share and the value-weighted share its text asks the class to compare."""
    guide = guides.load_all([guides.SHIPPED_DIR], PAGES)[0]["09-attention-sinks"]
    assert len(guide.steps) == 6  # five on the sinks, then the closing step on the last one's page
    at = open_app("guides")
    at.button(key=f"start_{guide.id}").click().run()
    for index, step in enumerate(guide.steps):
        assert not at.exception
        assert f"step {index + 1} of 6" in bar_caption(at)
        answer(at, step.page)
        assert at.session_state["weighting"] == step.params["weighting"]
        assert at.session_state["model"] == step.params["model"]
        assert at.get("plotly_chart")
        assert any("of its output norm" in i.value for i in at.info)
        if index + 1 < len(guide.steps):
            at.button(key="guide_next").click().run()


def test_the_modern_block_guide_opens_the_lab_with_experts_and_mixtral_on_the_size_page():
    guide = guides.load_all([guides.SHIPPED_DIR], PAGES)[0]["08-modern-block"]
    at = open_app("guides")
    at.button(key=f"start_{guide.id}").click().run()
    seen = set()
    for index, step in enumerate(guide.steps):
        assert not at.exception
        answer(at, step.page)
        if step.params.get("b_n_experts") == 8:
            assert at.session_state["b_n_experts"] == 8 and at.session_state["b_experts_top_k"] == 2
            assert any(str(f["layout"].get("title", {}).get("text", "")).startswith("B: experts chosen per token")
                       for f in figures(at))  # fmt: skip
            seen.add("lab")
        if step.params.get("moe_n") == 8:
            assert any("46.7B" in m.value and "12.9B" in m.value for m in at.markdown)
            seen.add("scaling")
        if index + 1 < len(guide.steps):
            at.button(key="guide_next").click().run()
    assert seen == {"lab", "scaling"}


@pytest.mark.parametrize("guide_id", sorted(guides.load_all([guides.SHIPPED_DIR], PAGES)[0]))
def test_every_step_of_every_shipped_lesson_takes_an_answer_and_draws(guide_id):
    """Each step of each shipped lesson, opened from its link, takes an answer to its prediction, then draws the
    page and its goal's live check without an exception (the checks run on the step's real state). Opened by
    link: AppTest would send the previous page's widget values after a Next, which no browser does."""
    guide = guides.load_all([guides.SHIPPED_DIR], PAGES)[0][guide_id]
    for index, step in enumerate(guide.steps):
        at = open_app(step.page, guide=guide.id, gstep=str(index + 1))
        assert f"step {index + 1} of {len(guide.steps)}" in bar_caption(at)
        answer(at, step.page)
        assert not at.exception, (guide_id, index, [e.value for e in at.exception])
        if step.goal is not None:
            assert any(m.value.startswith("**Goal:**") for m in at.markdown), (guide_id, index)
