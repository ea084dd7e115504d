"""On a 1366x768 projector a lesson opens on its first figure, not on a screen of text (issue 31 §3).

The top of each page's first Plotly figure, as Chromium lays it out before any scrolling, must be
at most 600 px from the top of the window, in English and in Chinese (whose lines wrap differently).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import new_page

WIDTH, HEIGHT = 1366, 768
MAX_TOP_PX = 600
FIRST_DRAW_MS = 120_000  # torch and the model load; the rank page runs its sweep once per server
PAGES = ("softmax", "rank", "explorer", "masks")


def first_figure_top(page: Page, path: str) -> float:
    """y of the first figure's top edge, in CSS px from the top of the viewport, once it has drawn."""
    page.goto(path)
    # Wait for a real figure (app.py first draws a 10 px blank one to warm plotly.js up, then removes it),
    # for the whole script to have run (the sidebar and the formulas above the figure are placeholders
    # until then), and for fonts and KaTeX to settle.
    page.wait_for_function(
        """() => {
            const svg = document.querySelector('.js-plotly-plot .main-svg');
            return svg && svg.getBoundingClientRect().height > 50
                && !document.querySelector('[data-testid=stStatusWidget]');
        }""",
        timeout=FIRST_DRAW_MS,
    )
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    figure = page.locator(".js-plotly-plot").first
    box = figure.bounding_box()
    assert box is not None, f"{path}: the first figure has no box"
    return box["y"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", PAGES)
def test_first_figure_within_a_projector_screen(browser, app_url: str, lesson: str, lang: str) -> None:
    path = f"/{lesson}" + ("?lang=zh" if lang == "zh" else "")
    with new_page(browser, app_url, WIDTH, HEIGHT) as page:
        top = first_figure_top(page, path)
    print(f"{lesson} {lang}: first figure at {top:.0f} px")  # -s shows the numbers
    assert top <= MAX_TOP_PX, f"{path}: the first figure starts at {top:.0f} px (> {MAX_TOP_PX}) at {WIDTH}x{HEIGHT}"
