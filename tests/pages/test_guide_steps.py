"""The checked parts of a step in the app, on one's own: a predict hides the page's figure until it is answered,
then says right or wrong with the answer and why; a number is right within its tolerance; hints open one at a
time and are counted; a free answer is recorded; a goal turns reached when the state changes. The lessons are
written here into a temporary folder ($ATTENTION_LAB_GUIDES), not taken from the shipped ones."""

from pathlib import Path

import pytest

import models
from tests.pages.apptest import open_app
from ui import guides
from ui.params import DEFAULT_PROMPT

LESSON = """title = { en = "Checked", zh = "检查" }
[[steps]]
page = "explorer"
params = { model = "decoder", layer = 1, head = 1 }
title = { en = "Choose", zh = "选择" }
text = { en = "Look.", zh = "看。" }
hints = [ { en = "Hint one.", zh = "提示一。" }, { en = "Hint two.", zh = "提示二。" },
          { en = "Hint three.", zh = "提示三。" } ]

[steps.predict]
question = { en = "Which mask?", zh = "哪种掩码？" }
choices = [ { en = "None", zh = "无" }, { en = "Causal", zh = "因果" } ]
answer = 2
why = { en = "It is a decoder.", zh = "它是解码器。" }
REVEAL

[steps.free]
question = { en = "Why?", zh = "为什么？" }

[[steps]]
page = "explorer"
params = { model = "decoder" }
title = { en = "Count", zh = "数" }
text = { en = "Count.", zh = "数一数。" }

[steps.predict]
question = { en = "How many tokens?", zh = "多少个词元？" }
answer = 10
tolerance = 1

[[steps]]
page = "explorer"
params = { model = "decoder", layer = 1, head = 1 }
title = { en = "Go", zh = "去" }
text = { en = "Pick layer 2.", zh = "选第 2 层。" }

[steps.goal]
check = "param_is"
args = { name = "layer", value = 2 }
task = { en = "Select layer 2.", zh = "选择第 2 层。" }
done = { en = "Well done.", zh = "做得好。" }
"""


@pytest.fixture
def lesson(tmp_path: Path, monkeypatch):
    def write(reveal: str = "") -> str:
        (tmp_path / "checked.toml").write_text(LESSON.replace("REVEAL", reveal), encoding="utf-8")
        monkeypatch.setenv(guides.GUIDES_ENV, str(tmp_path))
        guides.available.clear()
        return "checked"

    yield write
    guides.available.clear()


def start(lang: str = "en", step: int = 0):
    at = open_app("guides", lang=lang)
    at.button(key="start_checked").click().run()
    for _ in range(step):
        at.button(key="guide_next").click().run()
    at.switch_page("lessons/explorer.py").run()  # AppTest reruns the page it opened, not the one switched to
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at, kind: str) -> list[str]:
    return [el.value for el in getattr(at, kind)]


def test_a_predict_hides_the_figure_until_answered_then_says_right_and_why(lesson):
    lesson()
    at = start()
    assert not at.get("plotly_chart")  # the figure would give the answer away
    assert any("Answer the question above" in v for v in texts(at, "info"))
    at.button(key="gp_send").click().run()  # nothing chosen: still hidden, and recorded nothing
    assert not at.get("plotly_chart")
    assert at.session_state["_answers"].get(("checked", 0, "predict")) is None
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert not at.exception
    assert any(v.startswith("Right: Causal") for v in texts(at, "success"))
    assert any("It is a decoder." in v for v in texts(at, "success"))  # the why, in the verdict's box
    assert at.get("plotly_chart")  # revealed
    assert at.session_state["_answers"][("checked", 0, "predict")][0] | {"at": 0} == {
        "value": "1", "correct": True, "at": 0}  # fmt: skip


def test_a_wrong_answer_shows_the_right_one_and_can_be_changed(lesson):
    lesson()
    at = start()
    at.radio(key="gp_choice").set_value(0).run()
    at.button(key="gp_send").click().run()
    assert any("you answered None; the answer is Causal" in v for v in texts(at, "error"))
    assert at.get("plotly_chart")
    at.button(key="gp_again").click().run()  # a revote: the form again, the figure stays
    assert at.get("plotly_chart") and at.radio(key="gp_choice")
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert any(v.startswith("Right:") for v in texts(at, "success"))
    assert [e["value"] for e in at.session_state["_answers"][("checked", 0, "predict")]] == ["0", "1"]


def test_reveal_teacher_on_ones_own_is_shown_after_answering_with_a_note(lesson):
    lesson('reveal = "teacher"')
    at = start()
    assert not at.get("plotly_chart")
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert any(v.startswith("Right:") for v in texts(at, "success")) and at.get("plotly_chart")
    assert any("the teacher reveals this answer" in v for v in texts(at, "caption"))


@pytest.mark.parametrize(("given", "right"), [(10.0, True), (11.0, True), (8.9, False), (11.5, False)])
def test_a_number_is_right_within_its_tolerance(lesson, given, right):
    lesson()
    at = start(step=1)
    assert not at.get("plotly_chart")
    at.number_input(key="gp_number").set_value(given).run()
    at.button(key="gp_send").click().run()
    if right:
        assert any(v == "Right: 10 (± 1 counts as right)" for v in texts(at, "success")), texts(at, "success")
    else:
        assert any(f"you answered {given:g}; the answer is 10 (± 1" in v for v in texts(at, "error"))
    assert at.get("plotly_chart")


def test_hints_open_one_at_a_time_and_are_counted(lesson):
    lesson()
    at = start()
    for k in (1, 2, 3):
        assert at.button(key="gh_more").label == f"Show a hint ({k} of 3)"
        at.button(key="gh_more").click().run()
        assert any(f"Hint {k}:" in v for v in texts(at, "markdown"))
        assert not any(f"Hint {k + 1}:" in v for v in texts(at, "markdown"))
    assert "gh_more" not in [b.key for b in at.button]  # the ladder's end
    assert len(at.session_state["_answers"][("checked", 0, "hint")]) == 3


def test_a_free_answer_is_recorded_and_shown_as_text(lesson):
    lesson()
    at = start()
    at.button(key="gf_send").click().run()
    assert any("Write a few words first" in v for v in texts(at, "caption"))
    at.text_area(key="gf_text").input("**because** <script>x</script> it is causal").run()
    at.button(key="gf_send").click().run()
    assert [e["value"] for e in at.session_state["_answers"][("checked", 0, "free")]] == [
        "**because** <script>x</script> it is causal"]  # fmt: skip
    sent = next(v for v in texts(at, "caption") if v.startswith("Sent:"))
    assert "\\*\\*because\\*\\*" in sent  # Markdown escaped: shown as typed


def test_a_goal_is_reached_when_the_state_changes_and_recorded_once(lesson):
    lesson()
    at = start(step=2)
    assert at.get("plotly_chart")  # no predict: the page is drawn
    assert any("Not yet: 1 now; the goal is 2." in v for v in texts(at, "caption")), texts(at, "caption")
    assert at.session_state["_answers"].get(("checked", 2, "goal")) is None
    at.session_state["layer"] = 1
    at.run()
    assert any(v == "Reached: 2 now; the goal is 2." for v in texts(at, "success"))
    assert any("Well done." in v for v in texts(at, "markdown"))
    at.run()
    assert len(at.session_state["_answers"][("checked", 2, "goal")]) == 1


def test_the_step_box_in_chinese(lesson):
    lesson()
    at = start("zh")
    assert any("先回答上面的问题" in v for v in texts(at, "info"))
    at.radio(key="gp_choice").set_value(1).run()
    at.button(key="gp_send").click().run()
    assert any(v.startswith("答对了：因果") for v in texts(at, "success"))


MASKS_LESSON = """title = { en = "Masks" }
[[steps]]
page = "masks"
params = { model = "decoder", pos = 4 }
title = { en = "Change" }
text = { en = "Change a word." }

[steps.goal]
check = "prompt_changes_position"
args = { mask = "bidirectional", min_before = 4 }
task = { en = "Change a word so that every earlier output moves without a mask." }
"""


def test_a_goal_follows_the_masks_pages_own_count(tmp_path: Path, monkeypatch):
    (tmp_path / "checked.toml").write_text(MASKS_LESSON, encoding="utf-8")
    monkeypatch.setenv(guides.GUIDES_ENV, str(tmp_path))
    guides.available.clear()
    try:
        at = open_app("guides")
        at.button(key="start_checked").click().run()
        at.switch_page("lessons/masks.py").run()
        tokens = models.load("decoder").run(DEFAULT_PROMPT).tokens
        at.text_input(key="word").input(tokens[4].lstrip("␣")).run()  # the same word: nothing changed
        assert any("Type a different word for position 4" in v for v in texts(at, "caption")), texts(at, "caption")
        at.text_input(key="word").input("happy" if tokens[4] != "␣happy" else "dog").run()
        assert not at.exception
        causal, bidirectional = [v for v in texts(at, "caption") if v.startswith("Positions before the change")]
        assert causal.endswith("0 of 4.") and bidirectional.endswith("4 of 4.")  # the page's own count
        assert any(
            v == "Reached: Bidirectional mask: you changed the token at position 4; 4 of the 4 positions before "
            "it changed their output (the goal: at least 4)."
            for v in texts(at, "success")
        ), texts(at, "success")
    finally:
        guides.available.clear()
