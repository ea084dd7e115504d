"""The Explorer's heatmap is drawn in one pass (viz/margins.py): the margins the server sets already hold the tick
labels, the axis titles and the colour bar, so Plotly's automargin grows none of them (growing them is a second
layout and draw: ~4x the drawing time, bench/plot_draw.py). Checked in Chromium on the figure as drawn: the final
plot-area margins equal the ones asked for, and no label is cut (every tick label lies inside the figure), for
English, Chinese, long and short prompts, presentation mode, at 1366 px and 390 px wide."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.e2e.conftest import new_page

FIRST_DRAW_MS = 120_000
SENTENCE = "the cats that the dog sees are happy ."
LONGER = "alice knows the cats that the dog sees are happy . alice knows the bob"
CASES = {
    "16 tokens": {"prompt": LONGER},
    "6 tokens, labels turned by Plotly": {"prompt": "the cats are happy ."},
    "Chinese": {"lang": "zh", "prompt": "小明说小红喜欢苹果。小明说小红喜欢"},
    "every other label, smaller": {"prompt": " ".join([SENTENCE] * 10), "autoscale": "1"},
    "value-weighted, Chinese title": {"lang": "zh", "weighting": "norm", "prompt": SENTENCE},
    "presentation": {"present": "1", "prompt": LONGER},
    "encoder": {"model": "encoder", "prompt": SENTENCE},
}
DRAWN_JS = """() => { const gd = document.querySelector('.js-plotly-plot');
    return gd && gd._fullLayout && gd.querySelectorAll('.ytick text').length > 0
        && !document.querySelector('[data-testid=stStatusWidget]'); }"""
MARGINS_JS = """() => { const gd = document.querySelector('.js-plotly-plot');
    const m = gd.layout.margin, s = gd._fullLayout._size, box = gd.getBoundingClientRect();
    const cut = [...gd.querySelectorAll('.xtick text, .ytick text, .cbaxis text, .g-xtitle text, .g-ytitle text')]
        .map(t => t.getBoundingClientRect()).filter(r => r.width > 0)
        .filter(r => r.left < box.left - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1).length;
    return {asked: [m.l, m.r, m.b], drawn: [s.l, s.r, s.b], cut}; }"""


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.parametrize("case", list(CASES))
def test_the_heatmap_is_drawn_without_growing_its_margins(browser, app_url: str, case: str, width: int) -> None:
    with new_page(browser, app_url, width, 900) as page:
        page.goto(f"/explorer?{urlencode(CASES[case])}")
        page.wait_for_function(DRAWN_JS, polling=100, timeout=FIRST_DRAW_MS)
        got = page.evaluate(MARGINS_JS)
    grown = f"{case}: automargin grew {got['asked']} to {got['drawn']}"
    assert got["drawn"] == pytest.approx(got["asked"], abs=0.5), grown
    assert got["cut"] == 0, f"{case}: {got['cut']} labels outside the figure"
