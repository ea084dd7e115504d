"""The prompt follows the student from page to page in Chromium, to and from the Explorer, whose prompt box is drawn
in a fragment of its own (lessons/explorer_view.py) while the other pages' is app.py's: a page change from the
Explorer once opened the next page on the default prompt (ui/state.keep_prompt)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import new_page

FIRST_DRAW_MS = 120_000
IDLE_JS = "() => !document.querySelector('[data-testid=stStatusWidget]')"


def enter(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Prompt")
    box.fill(text)
    box.press("Enter")
    expect(page.locator(".js-plotly-plot .ytick text", has_text="bob").first).to_be_visible(timeout=FIRST_DRAW_MS)
    page.wait_for_function(IDLE_JS, timeout=FIRST_DRAW_MS)


def go_to(page: Page, title: str) -> None:
    page.get_by_role("link", name=title).first.click()  # both pages are in the open "Attention" group
    page.wait_for_function(IDLE_JS, timeout=FIRST_DRAW_MS)


def test_a_prompt_typed_on_the_explorer_is_on_the_next_page_and_back(browser, app_url: str) -> None:
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto("/explorer")
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        enter(page, "alice met bob")
        go_to(page, "Masks")
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("alice met bob", timeout=FIRST_DRAW_MS)
        # the address bar follows the page change (url sync is its own message): waited for, not read at once
        expect(page).to_have_url(re.compile(r"prompt=alice\+met\+bob"), timeout=FIRST_DRAW_MS)
        enter(page, "then alice gave bob")
        go_to(page, "Attention Explorer")
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("then alice gave bob", timeout=FIRST_DRAW_MS)
        expect(page.locator(".js-plotly-plot .ytick text", has_text="gave").first).to_be_visible(timeout=FIRST_DRAW_MS)
