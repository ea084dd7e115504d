"""A class in real Chromium: one teacher and three students (four browser contexts, so four sessions) on one
server with a SQLite file. The teacher starts a class, the students join with the student link and a name,
answer a predict step (two right, one wrong), the teacher's view counts them on its own (the 3-second
fragment), brings everyone to the goal step, the students follow the offer in their step bar and reach the
goal, and the teacher's view counts that too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import IDLE_JS, new_page, serve

LESSON = """title = { en = "Class test", zh = "课堂测试" }
[[steps]]
page = "explorer"
params = { model = "decoder" }
title = { en = "Guess first", zh = "先猜" }
text = { en = "Before the figure: guess.", zh = "先猜，再看图。" }
[steps.predict]
question = { en = "Which token does a previous-token head look at?", zh = "前一词元头看哪个词元？" }
choices = [ { en = "itself", zh = "自己" }, { en = "the one before", zh = "前一个" } ]
answer = 2
why = { en = "That is its name.", zh = "名字就是这么来的。" }

[[steps]]
page = "explorer"
params = { model = "decoder" }
title = { en = "A longer prompt", zh = "更长的输入" }
text = { en = "Type a prompt of at least 12 tokens.", zh = "输入至少 12 个词元的提示。" }
[steps.goal]
check = "prompt_tokens"
args = { min = 12 }
task = { en = "A prompt of 12 tokens or more.", zh = "12 个或更多词元的输入。" }
"""
LONG_PROMPT = "the cats that the dog sees are happy . the dog that the cats see is tired ."
REFRESH_MS = 15_000  # the teacher's fragment refreshes every 3 s; a slow, shared machine gets more


def _key(page: Page, key: str):
    return page.locator(f".st-key-{key}")


def _metric(page: Page, label: str):
    return page.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


@pytest.fixture(scope="module")
def class_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("class")  # the lessons, the database and the server's log


@pytest.fixture(scope="module")
def class_server(chromium_path: str, class_root: Path):
    root = class_root
    (root / "lessons").mkdir()
    (root / "lessons" / "class-test.toml").write_text(LESSON, encoding="utf-8")
    env = {"ATTENTION_LAB_DB": f"sqlite:///{root / 'classes.sqlite3'}", "ATTENTION_LAB_GUIDES": str(root / "lessons")}
    with serve(root, env) as base:
        yield base


def test_a_teacher_and_three_students(browser, class_server: str, tmp_path: Path) -> None:
    with new_page(browser, class_server, 1366, 768) as teacher:
        teacher.goto("/guides")
        _key(teacher, "cs_start_class-test").locator("button").click()
        link = teacher.get_by_text(re.compile(r"/guides\?join=[A-Z0-9]{8}"))
        expect(link).to_be_visible()
        code = re.search(r"join=([A-Z0-9]{8})", link.inner_text()).group(1)
        expect(teacher.get_by_role("heading", name=f"{code[:4]}-{code[4:]}")).to_be_visible()
        contexts = [new_page(browser, class_server, 1366, 768) for _ in range(3)]
        students = [ctx.__enter__() for ctx in contexts]
        try:
            for name, student in zip(("Ann", "Bob", "<b>Cy</b>"), students, strict=True):
                student.goto(f"/guides?join={code}")
                expect(_key(student, "cj_code").locator("input")).to_have_value(f"{code[:4]}-{code[4:]}")
                _key(student, "cj_name").locator("input").fill(name)
                _key(student, "cj_go").locator("button").click()
                expect(student.get_by_text(f"Class {code[:4]}-{code[4:]} · {name}")).to_be_visible()
            for choice, student in zip(("the one before", "the one before", "itself"), students, strict=True):
                _key(student, "gp_choice").get_by_text(choice).click()
                _key(student, "gp_send").locator("button").click()
                expect(student.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=60_000)
            expect(_metric(teacher, "Answered")).to_have_text("3 / 3", timeout=REFRESH_MS)
            expect(_metric(teacher, "Correct")).to_have_text("67%", timeout=REFRESH_MS)
            expect(teacher.get_by_text("itself — 1")).to_be_visible()
            picker = _key(teacher, "ct_step").locator("input")
            picker.click()
            picker.fill("Step 2")
            picker.press("Enter")
            expect(picker).to_have_value(re.compile("^Step 2"))
            # The fragment's rerun draws step 2, which has no wrong answers: its button moves up, and until the
            # run ends step 1's button is still there too (two buttons under a loaded machine's slow run).
            expect(teacher.get_by_text("itself — 1")).to_have_count(0)
            teacher.wait_for_function(IDLE_JS, polling=100)
            bring = _key(teacher, "ct_bring").locator("button")
            expect(bring).to_have_count(1)
            bring.click()
            for student in students:  # the offer appears on its own (the step line refreshes every few seconds)
                offer = _key(student, "cl_goto_teacher").locator("button")
                expect(offer).to_have_text(re.compile("The teacher is on step 2"), timeout=REFRESH_MS)
                offer.click()
                expect(student.get_by_text("step 2 of 2")).to_be_visible()
                box = _key(student, "prompt").locator("input")
                box.fill(LONG_PROMPT)
                box.press("Enter")
            expect(_metric(teacher, "Goal reached")).to_have_text("3", timeout=REFRESH_MS)
            expect(_metric(teacher, "Answered")).to_have_text("3 / 3")
            for page in (teacher, *students):
                expect(page.get_by_test_id("stException")).to_have_count(0)
        finally:
            for ctx in contexts:
                ctx.__exit__(None, None, None)


def test_the_teacher_link_leaves_the_address_bar_and_never_reaches_the_log(browser, class_server, class_root) -> None:
    """The secret token travels once, in the teacher link: opened on another device it is read, removed from
    the address bar (so a projected or shared screen does not show it) and written to no log."""
    with new_page(browser, class_server, 1366, 768) as first:
        first.goto("/guides")
        _key(first, "cs_start_class-test").locator("button").click()
        link = first.get_by_text(re.compile(r"/guides\?teach=[A-Za-z0-9_-]{40,}")).first
        expect(link).to_be_visible(timeout=30_000)
        teach_url = re.search(r"\S*/guides\?teach=[A-Za-z0-9_-]{40,}", link.inner_text())[0]
    token = teach_url.split("teach=")[1]
    with new_page(browser, class_server, 1366, 768) as second:
        second.goto(teach_url.removeprefix(class_server))
        expect(_key(second, "ct_close")).to_be_visible(timeout=30_000)  # the teacher's view of that class
        second.wait_for_function("() => !location.search.includes('teach=')", timeout=15_000)
        assert token not in second.url and token not in second.content()
    log = (class_root / "server.log").read_text(errors="replace")
    assert log and token not in log
