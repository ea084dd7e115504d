"""The prompt follows the student from page to page in Chromium, to and from the Explorer, whose prompt box is drawn
in a fragment of its own (lessons/explorer_view.py) while the other pages' is app.py's: a page change from the
Explorer once opened the next page on the default prompt (ui/state.keep_params)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import IDLE_JS, drawn, new_page
from ui.strings.nav import STRINGS

FIRST_DRAW_MS = 120_000


def enter(page: Page, text: str, new_word: str) -> None:
    """Type a prompt and wait until the figure shows a word the page's previous prompt did not have (a word both
    share was already there: the test once changed page before the run of the new prompt had been drawn)."""
    box = page.get_by_role("textbox", name="Prompt")
    box.fill(text)
    box.press("Enter")
    tick = page.locator(".js-plotly-plot .ytick text", has_text=new_word).first
    expect(tick).to_be_visible(timeout=FIRST_DRAW_MS)
    page.wait_for_function(IDLE_JS, polling=100, timeout=FIRST_DRAW_MS)


def go_to(page: Page, title: str) -> None:
    """Click the page's link and wait until the new page is drawn (conftest.drawn)."""
    page.get_by_role("link", name=title).first.click()  # both pages are in the open "Attention" group
    drawn(page, title, FIRST_DRAW_MS)


def test_a_prompt_typed_on_the_explorer_is_on_the_next_page_and_back(browser, app_url: str) -> None:
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto("/explorer")
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        enter(page, "alice met bob", "met")
        go_to(page, "Masks")
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("alice met bob", timeout=FIRST_DRAW_MS)
        # the address bar follows the page change (url sync is its own message): waited for, not read at once
        expect(page).to_have_url(re.compile(r"/masks\?.*prompt=alice\+met\+bob"), timeout=FIRST_DRAW_MS)
        enter(page, "then alice gave bob", "gave")
        go_to(page, "Attention Explorer")
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("then alice gave bob", timeout=FIRST_DRAW_MS)
        expect(page.locator(".js-plotly-plot .ytick text", has_text="gave").first).to_be_visible(timeout=FIRST_DRAW_MS)


def checked(page: Page, label: str) -> str:
    """The number shown selected in the page's Layer or Head buttons."""
    group = page.get_by_test_id("stMain").get_by_role("radiogroup", name=label, exact=True).first
    return next(r.inner_text() for r in group.get_by_role("radio").all() if r.get_attribute("aria-checked") == "true")


def test_the_layer_and_head_clicked_on_the_explorer_stay_across_pages(browser, app_url: str) -> None:
    """Layer 2 and Head 3 clicked on the Explorer are the Masks page's too, and the Explorer's again when the student
    comes back (both came back as 1: the page change dropped the clicked values, state.keep_params)."""
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto("/explorer")
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        for label, value in (("Layer", "2"), ("Head", "3")):
            group = page.get_by_test_id("stMain").get_by_role("radiogroup", name=label, exact=True).first
            group.get_by_role("radio", name=value, exact=True).click()
            page.wait_for_timeout(150)
            page.wait_for_function(IDLE_JS, polling=100, timeout=FIRST_DRAW_MS)
        expect(page).to_have_url(re.compile(r"layer=2&head=3"), timeout=FIRST_DRAW_MS)
        go_to(page, "Masks")
        expect(page).to_have_url(re.compile(r"/masks\?layer=2&head=3"), timeout=FIRST_DRAW_MS)
        assert (checked(page, "Layer"), checked(page, "Head")) == ("2", "3")
        go_to(page, "Attention Explorer")
        expect(page).to_have_url(re.compile(r"/explorer\?layer=2&head=3"), timeout=FIRST_DRAW_MS)
        assert (checked(page, "Layer"), checked(page, "Head")) == ("2", "3")


def test_a_page_link_clicked_right_after_enter_still_carries_the_new_prompt(browser, app_url: str) -> None:
    """A student who presses Enter and clicks the next page at once. The values a page change drops were kept only
    at a run's end, which a run cut short by the click never reaches: the first test's steps with no wait after Enter
    opened the Explorer on the previous prompt 1 run in 3 (CI's failure at the last stop); state.keep_params now runs
    at each run's start as well (0 in 9). This sequence passes either way here; it guards the property."""
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto("/explorer")  # from the Explorer first: its prompt box is another widget under the same key
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        enter(page, "alice met bob", "met")
        go_to(page, "Masks")
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("alice met bob", timeout=FIRST_DRAW_MS)
        expect(page).to_have_url(re.compile(r"/masks\?.*prompt=alice\+met\+bob"), timeout=FIRST_DRAW_MS)
        box = page.get_by_role("textbox", name="Prompt")
        box.fill("then alice gave bob")
        box.press("Enter")
        go_to(page, "Attention Explorer")  # at once: the new prompt's run is cut short
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("then alice gave bob", timeout=FIRST_DRAW_MS)
        expect(page.locator(".js-plotly-plot .ytick text", has_text="gave").first).to_be_visible(timeout=FIRST_DRAW_MS)


def test_the_softmax_page_draws_the_prompt_in_its_live_section_and_hands_it_on(browser, app_url: str) -> None:
    """The Softmax page draws its prompt box in the live model's section (issue 40: a new prompt reruns only the
    sections that read it): the prompt typed on the Masks page is there, one typed there comes back to the Masks
    page, and the live heatmap shows it."""
    with new_page(browser, app_url, 1366, 900) as page:
        page.goto("/masks")
        page.locator(".js-plotly-plot").first.wait_for(timeout=FIRST_DRAW_MS)
        enter(page, "alice met bob", "met")
        go_to(page, STRINGS["nav.softmax"]["en"])
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("alice met bob", timeout=FIRST_DRAW_MS)
        enter(page, "then alice gave bob", "gave")  # the live heatmap's rows are the new prompt's tokens
        expect(page).to_have_url(re.compile(r"/softmax\?.*prompt=then\+alice\+gave\+bob"), timeout=FIRST_DRAW_MS)
        go_to(page, STRINGS["nav.masks"]["en"])
        expect(page.get_by_role("textbox", name="Prompt")).to_have_value("then alice gave bob", timeout=FIRST_DRAW_MS)
        expect(page.locator(".js-plotly-plot .ytick text", has_text="gave").first).to_be_visible(timeout=FIRST_DRAW_MS)
