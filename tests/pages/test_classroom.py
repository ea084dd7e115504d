"""A class on a real SQLite file: the teacher starts it from the Guided lessons page, students join with the
code and a name, their answers reach the teacher's counts, a student sees only their own answers and finds
them again after rejoining, the teacher's secret never stays in the address bar or on the page, a
`<script>` name stays text, and a database that does not answer leaves the lesson working with a notice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages.apptest import open_app
from ui import classroom, guides, teacher

LESSON = """title = { en = "Class test", zh = "课堂测试" }
[[steps]]
page = "explorer"
params = { model = "decoder", layer = 1, head = 1 }
title = { en = "Guess first", zh = "先猜" }
text = { en = "Which head looks back?", zh = "哪个头往回看？" }
[steps.predict]
question = { en = "Which token does this head look at?", zh = "这个头看哪个词元？" }
choices = [ { en = "itself", zh = "自己" }, { en = "the previous one", zh = "前一个" },
            { en = "the first", zh = "第一个" } ]
answer = 2
why = { en = "It is a previous-token head.", zh = "它是前一词元头。" }

[[steps]]
page = "explorer"
params = { model = "decoder" }
title = { en = "Find it", zh = "找到它" }
text = { en = "Pick layer 2.", zh = "选择第 2 层。" }
[steps.goal]
check = "param_is"
args = { name = "layer", value = 2 }
task = { en = "Select layer 2.", zh = "选择第 2 层。" }

[[steps]]
page = "explorer"
params = { model = "decoder" }
title = { en = "Vote", zh = "投票" }
text = { en = "Vote, discuss, vote again.", zh = "投票、讨论、再投票。" }
[steps.predict]
question = { en = "How many heads per layer?", zh = "每层有几个头？" }
answer = 4
why = { en = "The config says so.", zh = "配置里写着。" }
reveal = "teacher"
"""


@pytest.fixture()
def lesson(tmp_path: Path, monkeypatch) -> str:
    """A small lesson in a teacher's folder and a fresh SQLite database; the id of the lesson."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "class-test.toml").write_text(LESSON, encoding="utf-8")
    monkeypatch.setenv(guides.GUIDES_ENV, str(folder))
    monkeypatch.setenv("ATTENTION_LAB_DB", f"sqlite:///{tmp_path / 'classes.sqlite3'}")
    guides.available.clear()
    classroom._class_state.clear()
    teacher._summary.clear()
    yield "class-test"
    guides.available.clear()


def all_text(at) -> str:
    """Everything the page sent, as protobuf text (every element, every block)."""
    return "\n".join(str(getattr(node, "proto", "")) for node in at._tree)


def start_class(lesson: str):
    at = open_app("guides")
    at.button(key=f"cs_start_{lesson}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    c = at.session_state["_class"]
    assert c["role"] == "teacher" and c["guide_id"] == lesson and len(c["code"]) == 8
    return at, c["code"], at.session_state["_teach_token"]


def join(code: str, name: str, **query):
    at = open_app("guides", **query)
    if "join" not in query:
        at.text_input(key="cj_code").input(code)
    at.text_input(key="cj_name").input(name)
    at.button(key="cj_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return on_step_page(at)


def on_step_page(at):
    """AppTest does not follow the app's st.switch_page into the runs after it (a browser does): every step
    of the test lesson is on the explorer."""
    if "guide" in at.session_state and at.session_state["guide"]:  # noqa: RUF019 (AppTest state has no .get)
        at.switch_page("lessons/explorer.py").run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def mine(at, guide_id: str, step: int, kind: str) -> list[str]:
    """What this session holds of its own answers (ui/answers.py's keeping)."""
    kept = at.session_state["_answers"] if "_answers" in at.session_state else {}  # noqa: SIM401 (no .get)
    return [entry["value"] for entry in kept.get((guide_id, step, kind), [])]


def answer(at, choice: int):
    at.radio(key="gp_choice").set_value(choice)
    at.button(key="gp_send").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_a_student_joins_and_the_teacher_counts_the_answers(lesson):
    import store

    teacher_at, code, _ = start_class(lesson)
    assert any(classroom.shown_code(code) in m.value for m in teacher_at.markdown)  # the code, big
    assert f"/guides?join={code}" in all_text(teacher_at)  # the student link
    ann = join(classroom.shown_code(code).lower(), "Ann")  # as typed from the board: lower case, a dash
    c = ann.session_state["_class"]
    assert (c["role"], c["name"], c["guide_id"]) == ("student", "Ann", lesson)
    assert ann.session_state["guide"] == lesson and ann.session_state["gstep"] == 0  # on the lesson's first step
    assert any("Ann" in cap.value and classroom.shown_code(code) in cap.value for cap in ann.caption)  # the class line
    bob = join(code, "Bob")
    answer(ann, 1)  # right
    answer(bob, 0)  # wrong
    assert mine(ann, lesson, 0, "predict") == ["1"] and ann.success  # acknowledged once committed
    db = store.open_store()
    bob_id = bob.session_state["_class"]["student_id"]
    db.record(store.Student(bob_id, c["class_id"], "Bob"), 0, "free", "It looks back", None)
    teacher_at.run()
    assert not teacher_at.exception
    assert metric(teacher_at, "Answered") == "2 / 2"
    assert metric(teacher_at, "Correct") == "50%"
    text = "\n".join(m.value for m in teacher_at.markdown)
    assert "itself — 1" in text  # Bob's wrong choice, by its text
    assert "2 students joined" in text
    free = teacher_at.dataframe[0].value
    assert list(free.iloc[0]) == ["It looks back", 1, "Bob"]


def test_the_teacher_brings_the_class_to_a_step_and_the_student_is_offered_it(lesson):
    teacher_at, code, _ = start_class(lesson)
    ann = join(code, "Ann")
    teacher_at.selectbox(key="ct_step").set_value(1).run()
    teacher_at.button(key="ct_bring").click().run()
    assert not teacher_at.exception
    classroom._class_state.clear()  # the students' 2-second cache, instead of waiting
    ann.run()
    offer = ann.button(key="cl_goto_teacher")
    assert offer.label == "The teacher is on step 2 — go there"
    offer.click().run()
    assert ann.session_state["gstep"] == 1


def test_rejoining_with_the_same_name_finds_the_same_student_and_a_student_sees_only_their_answers(lesson):
    _, code, _ = start_class(lesson)
    ann = join(code, "Ann")
    first = ann.session_state["_class"]
    answer(ann, 1)
    bob = join(code, "Bob")
    again = join(code, "Ann")  # a refresh, or another replica: a new session
    assert again.session_state["_class"]["student_id"] == first["student_id"]
    assert mine(again, lesson, 0, "predict") == ["1"]
    assert mine(bob, lesson, 0, "predict") == []
    assert not bob.radio(key="gp_choice").value  # Bob's own form, empty: Ann's answer is not his
    assert any("previous one" in s.value for s in again.success)  # Ann's answer, back after the rejoin


def test_a_teacher_reveal_step_waits_for_the_teacher(lesson):
    teacher_at, code, _ = start_class(lesson)
    ann = join(code, "Ann")
    teacher_at.selectbox(key="ct_step").set_value(2).run()
    teacher_at.button(key="ct_bring").click().run()
    classroom._class_state.clear()
    ann.run()
    on_step_page(ann.button(key="cl_goto_teacher").click().run())
    ann.number_input(key="gp_number").set_value(4).run()
    ann.button(key="gp_send").click().run()
    assert any("teacher" in i.value for i in ann.info) and not ann.success  # in, but not revealed yet
    assert not any(f.proto for f in ann.get("plotly_chart"))  # nor the figure
    teacher_at.toggle(key="ct_reveal_2").set_value(True).run()
    assert not teacher_at.exception
    classroom._class_state.clear()
    ann.run()
    assert ann.success and ann.get("plotly_chart")  # the right answer, and the figure


def test_the_teacher_link_is_read_once_and_leaves_no_trace(lesson):
    _, code, token = start_class(lesson)
    at = open_app("guides", teach=token)
    assert "teach" not in at.query_params
    assert at.session_state["_class"]["code"] == code
    assert token not in all_text(at)  # shown only right after starting, never again
    assert not at.warning or all("ignored" not in w.value for w in at.warning)
    assert metric(at, "Answered") == "0 / 0"  # the teacher's view
    bad = open_app("guides", teach="not-a-token")
    assert "_class" not in bad.session_state and "teach" not in bad.query_params
    assert any("not valid" in e.value for e in bad.error)


def test_the_join_link_prefills_the_code_without_a_notice(lesson):
    _, code, _ = start_class(lesson)
    at = open_app("guides", join=code)
    assert "join" not in at.query_params
    assert at.text_input(key="cj_code").value == classroom.shown_code(code)
    assert not at.warning


def test_a_script_name_is_text_everywhere(lesson):
    teacher_at, code, _ = start_class(lesson)
    name = "<script>alert(1)</script>"
    ann = join(code, name)
    assert ann.session_state["_class"]["name"] == name
    for at in (ann, teacher_at.run()):
        assert "<script>" not in "\n".join(m.value for m in list(at.markdown) + list(at.caption))  # escaped in Markdown
    assert name in list(teacher_at.dataframe[-1].value.iloc[:, 0])  # a dataframe cell: plain text


def test_a_wrong_code_is_refused_with_a_message(lesson):
    start_class(lesson)
    at = join("ZZZZ-ZZZZ", "Ann")
    assert "_class" not in at.session_state
    assert any("No open class" in e.value for e in at.error)


def test_closing_asks_first_then_deletes(lesson):
    teacher_at, code, _ = start_class(lesson)
    join(code, "Ann")
    teacher_at.button(key="ct_close").click().run()
    assert "_class" in teacher_at.session_state  # only a question so far
    teacher_at.button(key="ct_close_yes").click().run()
    assert "_class" not in teacher_at.session_state
    assert any("closed" in s.value for s in teacher_at.success)
    at = join(code, "Ann")
    assert "_class" not in at.session_state


def test_a_database_that_does_not_answer_leaves_the_lesson_working(lesson, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("ATTENTION_LAB_DB", f"sqlite:///{blocker / 'classes.sqlite3'}")
    at = open_app("guides")
    at.button(key=f"cs_start_{lesson}").click().run()
    assert not at.exception
    assert "_class" not in at.session_state
    assert any("unavailable" in w.value for w in at.warning)
    at.text_input(key="cj_code").input("ABCD-EFGH")
    at.text_input(key="cj_name").input("Ann")
    at.button(key="cj_go").click().run()
    assert any("unavailable" in w.value for w in at.warning)
    at.button(key=f"start_{lesson}").click().run()  # the lesson itself, solo
    assert not at.exception
    assert at.session_state["guide"] == lesson
    assert any(c.value.startswith("Guided lesson") for c in at.caption)


def test_a_database_lost_mid_lesson_shows_a_notice_and_keeps_the_answer(lesson, tmp_path, monkeypatch):
    _, code, _ = start_class(lesson)
    ann = join(code, "Ann")
    blocker = tmp_path / "gone"
    blocker.write_text("")
    monkeypatch.setenv("ATTENTION_LAB_DB", f"sqlite:///{blocker / 'classes.sqlite3'}")
    classroom._class_state.clear()
    ann.run()
    assert not ann.exception
    assert any("unavailable" in w.value for w in ann.warning)
    assert any(c.value.startswith("Guided lesson") for c in ann.caption)  # the step bar is still there


def test_the_projector_view_shows_counts_and_no_names(lesson):
    teacher_at, code, token = start_class(lesson)
    answer(join(code, "Annabelle"), 1)
    teacher_at.run()
    assert "Annabelle" in all_text(teacher_at)
    teacher_at.toggle(key="ct_projector").set_value(True).run()
    assert metric(teacher_at, "Answered") == "1 / 1"
    text = all_text(teacher_at)
    assert "Annabelle" not in text and token not in text and "teach=" not in text


def test_the_teacher_walks_the_lesson_with_a_count_and_bring_everyone_here(lesson):
    teacher_at, code, _ = start_class(lesson)
    answer(join(code, "Ann"), 1)
    teacher._summary.clear()
    on_step_page(teacher_at.button(key="ct_walk").click().run())
    assert any("You teach class" in c.value and "1 of 1 answered" in c.value for c in teacher_at.caption)
    teacher_at.button(key="ct_bring_bar").click().run()
    assert not teacher_at.exception
