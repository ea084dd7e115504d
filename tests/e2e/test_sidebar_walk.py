"""A class's walk through the sidebar in Chromium (issue 39): from the Explorer to every page and back, down the
sidebar's order and back up, in English and Chinese, after Layer, Head and the prompt were changed. Any exception
box fails it. The AppTest twin (tests/pages/test_page_walk.py) covers every ordered pair; this one clicks the real
links, so what the browser keeps between pages (widget values, the address bar) takes part."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import IDLE_JS, drawn, new_page, sidebar_at_rest
from ui.pages import LESSONS
from ui.strings import TABLES

FIRST_DRAW_MS = 120_000
NAV_MODEL = next(table["model.decoder"] for table in TABLES.values() if "model.decoder" in table)
NAV = {key: entry for table in TABLES.values() for key, entry in table.items() if key.startswith("nav.")}


def title(name: str, lang: str) -> str:
    return NAV[f"nav.{name}"][lang]


def settle(page: Page) -> None:
    page.wait_for_timeout(150)  # the rerun starts a moment after the click
    page.wait_for_function(IDLE_JS, polling=100, timeout=FIRST_DRAW_MS)


def no_exception(page: Page, where: str) -> None:
    errors = page.get_by_test_id("stException")
    if errors.count():
        print(where, errors.all_inner_texts())  # the traceback, in the test's output
    expect(errors, f"{where}: " + " | ".join(errors.all_inner_texts())[:1500]).to_have_count(0)


def go(page: Page, name: str, lang: str) -> None:
    """Click the page's link in the sidebar, opening its group first when it is folded."""
    sidebar = page.get_by_test_id("stSidebar")
    link = sidebar.locator(f"a[href='{name}']")
    group = sidebar.get_by_test_id("stExpander").filter(has=page.locator(f"a[href='{name}']"))
    sidebar_at_rest(page)  # the last page change folded the group it left and unfolded the one it went to
    for _ in range(3):  # folded (its links inert): open it; a click during the page's first paint may be lost
        if link.evaluate("a => !a.closest('[inert]')"):
            break
        group.locator("summary").click()
        sidebar_at_rest(page)  # unfolded: its links are no longer inert at once, but still moving and clipped
        with contextlib.suppress(PlaywrightTimeout):
            link.wait_for(state="attached", timeout=100)
            page.wait_for_function(f"() => !document.querySelector(\"[data-testid=stSidebar] a[href='{name}']\")"
                                   ".closest('[inert]')", timeout=3000)  # fmt: skip
    expect(link).to_contain_text(title(name, lang))
    link.click()
    # Waited for by the browser's history event, not by an expect: Playwright's expect reads the whole page's
    # accessibility tree at every poll that misses (for its error message), on a page of a dozen figures.
    try:
        page.wait_for_url(re.compile(rf"/{name}(\?|$)"), timeout=30_000)
    except PlaywrightTimeout:
        page.screenshot(path="/tmp/walk_fail.png", full_page=True)
        raise
    drawn(page, title(name, lang), FIRST_DRAW_MS)  # no fixed pause first: the old title rules out the last page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sidebar_from_the_explorer_to_every_page_and_back_down_and_up(browser, app_url: str, lang: str) -> None:
    names = [lesson.name for lesson in LESSONS if lesson.name != "explorer"]
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto(f"/explorer?lang={lang}")
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        settle(page)
        for label in ("Layer", "Head") if lang == "en" else ("层", "头"):  # layer 2, head 2: not the defaults
            group = page.get_by_test_id("stMain").get_by_role("radiogroup", name=label, exact=True)
            group.get_by_role("radio", name="2", exact=True).click()
            settle(page)
        box = page.get_by_test_id("stMain").get_by_role("textbox").first
        box.fill("the cat sat on the mat")
        box.press("Enter")
        settle(page)
        no_exception(page, "explorer")
        walk = [step for name in names for step in (name, "explorer")] if lang == "en" else []
        walk += names + names[::-1][1:] + ["explorer"]  # down the sidebar's order and back up
        for before, after in zip(["explorer", *walk], walk, strict=False):
            go(page, after, lang)
            no_exception(page, f"{before} -> {after}")
        expect(page.get_by_test_id("stMain").get_by_role("textbox").first).to_have_value("the cat sat on the mat")


def test_the_model_picker_follows_a_language_switch_without_a_reload(browser, app_url: str) -> None:
    """The picker's shown value is its option's label, which the browser keeps: it read "Decoder-only (GPT-style)"
    in the Chinese interface until a reload (state.follow_language sends the value again)."""
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto("/masks")
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        settle(page)
        pickers = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox")
        shown = pickers.nth(1).locator("input").first
        expect(shown).to_have_value(NAV_MODEL["en"])
        pickers.first.click()
        page.get_by_role("option", name="简体中文").click()
        settle(page)
        expect(shown).to_have_value(NAV_MODEL["zh"])
