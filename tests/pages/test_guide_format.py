"""The lesson format's new step kinds (ui/guide_format.py): predict, goal, hints and free parse into their
dataclasses; every refusal (HTML, script links, unknown checks, bad check args, a bad predict) names the
line it is on; a file without them loads as before; a predict's answer is judged as the spec says."""

from pathlib import Path

import pytest

from ui import goal_checks, guide_format, guides
from ui.pages import LESSONS

PAGES = {lesson.name for lesson in LESSONS}
FULL = """title = { en = "Checked", zh = "检查" }
[[steps]]
page = "explorer"
params = { model = "decoder", layer = 1, head = 2 }
title = { en = "One", zh = "一" }
text = { en = "Look.", zh = "看。" }
hints = [ { en = "First.", zh = "第一。" }, { en = "Second.", zh = "第二。" } ]

[steps.predict]
question = { en = "Which?", zh = "哪个？" }
choices = [ { en = "A", zh = "甲" }, { en = "B", zh = "乙" }, { en = "C", zh = "丙" } ]
answer = 2
why = { en = "Because.", zh = "因为。" }
reveal = "teacher"

[steps.goal]
check = "head_role"
args = { role = "previous_token", min = 0.5 }
task = { en = "Find one.", zh = "找一个。" }
done = { en = "Found.", zh = "找到了。" }

[steps.free]
question = { en = "Why?", zh = "为什么？" }

[[steps]]
page = "rank"
title = { en = "Two" }
text = { en = "A number." }

[steps.predict]
question = { en = "How many?" }
answer = 7.5
tolerance = 0.5
"""


def test_the_new_step_kinds_parse_into_their_dataclasses():
    guide = guide_format.parse(FULL, "checked.toml", PAGES)
    one, two = guide.steps
    assert one.hints == ({"en": "First.", "zh": "第一。"}, {"en": "Second.", "zh": "第二。"})
    assert one.predict == guide_format.Predict(
        {"en": "Which?", "zh": "哪个？"},
        ({"en": "A", "zh": "甲"}, {"en": "B", "zh": "乙"}, {"en": "C", "zh": "丙"}),
        1,  # 0-based: the file counts from 1
        0.0,
        {"en": "Because.", "zh": "因为。"},
        "teacher",
    )
    assert one.goal == guide_format.Goal(
        "head_role", {"role": "previous_token", "min": 0.5}, {"en": "Find one.", "zh": "找一个。"},
        {"en": "Found.", "zh": "找到了。"},
    )  # fmt: skip
    assert one.free == guide_format.Free({"en": "Why?", "zh": "为什么？"})
    assert (two.predict.answer, two.predict.tolerance, two.predict.reveal, two.predict.choices) == (
        7.5,
        0.5,
        "answer",
        (),
    )
    assert two.goal is None and two.free is None and two.hints == ()
    assert guides.Predict is guide_format.Predict and guides.parse is guide_format.parse  # old imports


def test_a_predict_judges_choices_by_index_and_numbers_within_the_tolerance():
    one, two = guide_format.parse(FULL, "checked.toml", PAGES).steps
    assert one.predict.is_right("1") and not one.predict.is_right("2") and not one.predict.is_right("B")
    assert [two.predict.is_right(v) for v in ("7.5", "7", "8", " 7.9 ", "8.01", "6.99", "nan", "inf", "")] == [
        True, True, True, True, False, False, False, False, False]  # fmt: skip


def test_an_old_style_file_loads_as_before():
    old = FULL.split("\n\n[steps.predict]")[0].replace("hints = [", "question = { en = 'Think.' }\n# hints = [")
    step = guide_format.parse(old, "old.toml", PAGES).steps[0]
    assert step.question == {"en": "Think."} and step.predict is None and step.goal is None and step.hints == ()


def test_the_documented_examples_parse():
    plain, checked, closing = guides.examples()
    guide = guide_format.parse(plain + "\n\n" + checked + "\n\n" + closing, "example.toml", PAGES)
    assert guide.steps[1].predict.answer == 1 and guide.steps[1].goal.check == "head_role" and guide.steps[1].free
    assert guide.steps[1].predict.reveal == "teacher" and len(guide.steps[1].hints) == 2
    end = guide.steps[2]  # no page: it stays on the step before's page and state
    assert end.closing.next == "02-qkv-soft-lookup" and len(end.closing.learnt) == 2 and len(end.closing.readings) == 1
    assert (end.page, end.params) == (guide.steps[1].page, guide.steps[1].params) and end.text == {}


def test_every_shipped_guide_loads():
    found, problems = guides.load_all([guides.SHIPPED_DIR], PAGES)
    assert not problems, [str(p) for p in problems]
    assert len(found) >= 8


def _line(text: str, needle: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if needle in line)


def _swap(old: str, new: str) -> str:
    assert old in FULL
    return FULL.replace(old, new, 1)


REFUSALS = [
    # (the file, the text on the refused line, words the message has)
    (_swap('text = { en = "Look."', 'text = { en = "Look <script>alert(1)</script>"'), "Look <script>", "HTML"),
    (_swap('zh = "看。"', 'zh = "<img src=x onerror=alert(1)>"'), "<img", "(zh)"),
    (_swap('{ en = "Second."', '{ en = "Second <!-- x -->"'), "<!--", "HTML"),
    (_swap('{ en = "Because."', '{ en = "[see](javascript:alert(1))"'), "javascript:", "script link"),
    (_swap('{ en = "Found."', '{ en = "[x](VBScript:msgbox)"'), "VBScript", "script link"),
    (_swap('{ en = "Why?"', '{ en = "[x](data:text/html;base64,PHNjcmlwdD4=)"'), "data:text", "script link"),
    (_swap('{ en = "B", zh = "乙" }', '{ en = "<b>B</b>" }'), "<b>B", "choice 2"),
    (_swap('check = "head_role"', 'check = "run_python"'), "run_python", "not one of"),
    (_swap('role = "previous_token", min = 0.5', 'role = "lookahead"'), "lookahead", "role"),
    (_swap("min = 0.5", "min = 5"), "min = 5", "between"),
    (_swap("min = 0.5", "min = 0.5, shell = 1"), "shell = 1", "no argument shell"),
    (_swap("answer = 2", "answer = 4"), "answer = 4", "1 to 3"),
    (_swap("answer = 2", "answer = 0"), "answer = 0", "1 to 3"),
    (_swap("answer = 7.5", 'answer = "seven"'), "seven", "must be a number"),
    (_swap("answer = 2\n", ""), "[steps.predict]", "needs an answer"),
    (_swap('question = { en = "Which?", zh = "哪个？" }\n', ""), "[steps.predict]", "needs a question"),
    (_swap('reveal = "teacher"', 'reveal = "never"'), "never", "reveal"),
    (_swap("answer = 2\n", "answer = 2\ntolerance = 1\n"), "tolerance = 1", "numeric"),
    (_swap('{ en = "A", zh = "甲" }, { en = "B", zh = "乙" }, ', ""), "choices", "2 to 8"),
    (_swap('done = { en = "Found.", zh = "找到了。" }', 'colour = "red"'), "[steps.goal]", "colour"),
    (_swap('question = { en = "Why?", zh = "为什么？" }', 'question = ""'), 'question = ""', "English"),
    (
        _swap('params = { model = "decoder"', 'params = { prompt = "<script>x</script>", model = "decoder"'),
        "params",
        "HTML",
    ),
]


@pytest.mark.parametrize(("text", "needle", "words"), REFUSALS, ids=[r[2] + str(i) for i, r in enumerate(REFUSALS)])
def test_a_refused_file_names_the_line(tmp_path: Path, text, needle, words):
    (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
    (tmp_path / "good.toml").write_text(FULL, encoding="utf-8")
    found, problems = guides.load_all([tmp_path], PAGES)
    assert list(found) == ["good"]  # the others still load
    (problem,) = problems
    assert words in problem.message, problem.message
    assert problem.line == _line(text, needle), str(problem)


@pytest.mark.parametrize(
    "words",
    ["bytes like <e5> <b0>", "sentinels <X>, <Y>", "`<s>` and `</s>`", "a < b and c > d", "the training data: 10",
     "i<j"],
)  # fmt: skip
def test_text_that_only_looks_like_markup_is_allowed(words):
    assert guide_format.unsafe(words) is None


def test_check_args_get_their_defaults_and_values_parse_as_the_app_does():
    assert goal_checks.validate("head_role", {"role": "induction"})["min"] == 0.3  # the role's own threshold
    assert goal_checks.validate("param_is", {"name": "layer", "value": 2}) == {"name": "layer", "value": 1}
    assert goal_checks.validate("param_is", {"name": "b_kv", "value": 2})["name"] == "b_n_kv_heads"  # old names
    assert goal_checks.validate("prompt_changes_position", {"mask": "causal"}) == {
        "mask": "causal", "min_before": 0, "max_before": None, "min_pos": 1}  # fmt: skip
    assert goal_checks.validate("rank_below_n", {"precision": "float32"})["mask"] == "causal"
    for name, args in [
        ("param_is", {"name": "lang", "value": "zh"}),  # the viewer's own choice
        ("param_is", {"name": "layer", "value": "x"}),
        ("prompt_tokens", {"min": 5, "max": 2}),
        ("prompt_changes_position", {"mask": "prefix"}),
        ("rank_below_n", {}),
        ("nothing", {}),
    ]:
        with pytest.raises(ValueError):
            goal_checks.validate(name, args)
