"""Figures stay readable when the system is dark (issue 39): Streamlit follows the browser's colour scheme and
its Plotly theme writes near-white text colours into each figure's template, on the figures' white paper
(tick labels at 1.2:1 before viz/any_theme.py pinned them). Checked in Chromium with color_scheme="dark"
(and once light, in Chinese): every figure's tick labels, title, axis titles, legend and colour-bar text
reach WCAG's 4.5:1 against what is drawn behind them (the paper, or the page where the paper is clear).
Annotations are left out: a few are muted on purpose (a reference line's label)."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Page

FIRST_DRAW_MS = 120_000
WCAG_AA = 4.5
# One page per kind of figure: token heatmap, heads grid (shared colour axis), mask heatmaps with a legend,
# line charts with legends, contours and a treemap, signed heatmaps.
PAGES = {
    "explorer": ("/explorer", 1),
    "heads grid": ("/explorer?view=grid", 1),
    "masks": ("/masks", 3),
    "scaling": ("/scaling", 3),
    "positional": ("/positional", 4),
}
PARTS = {
    "tick": ".xtick text, .ytick text",
    "title": ".gtitle",
    "axis title": ".g-xtitle text, .g-ytitle text",
    "legend": ".legendtext",
    "colour bar": ".colorbar text, .cbaxis text",
}
DRAWN_JS = """n => document.querySelectorAll('.js-plotly-plot .main-svg').length >= n
    && [...document.querySelectorAll('.js-plotly-plot .main-svg')].some(s => s.getBoundingClientRect().height > 50)
    && !document.querySelector('[data-testid=stStatusWidget]')"""
# WCAG 2 relative luminance and contrast ratio; the background is the first opaque one from the figure up.
CONTRAST_JS = """parts => {
  const rgb = s => { const m = (s || '').match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const v = m[1].split(',').map(Number); return {c: v.slice(0, 3), a: v.length > 3 ? v[3] : 1}; };
  const lum = c => c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; })
    .reduce((s, x, i) => s + [0.2126, 0.7152, 0.0722][i] * x, 0);
  const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05); };
  const behind = el => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0.5) return c.c; } return [255, 255, 255]; };
  const page = behind(document.querySelector('[data-testid=stApp]'));
  return [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
    const svg = gd.querySelector('.main-svg');
    if (!svg || svg.getBoundingClientRect().height < 50) return null;
    const bg = behind(svg), found = {};
    for (const [name, sel] of Object.entries(parts)) {
      const rs = [...gd.querySelectorAll(sel)].filter(t => t.textContent.trim())
        .map(t => ({r: ratio(rgb(getComputedStyle(t).fill).c, bg), text: t.textContent.trim().slice(0, 30)}));
      if (rs.length) found[name] = rs.reduce((w, x) => (x.r < w.r ? x : w));
    }
    return {found, paper: bg, page};
  }).filter(Boolean);
}"""


@contextlib.contextmanager
def themed_page(browser, app_url: str, scheme: str):
    """A fresh session in a 1366x768 window whose system colour scheme is `scheme` (Streamlit follows it)."""
    context = browser.new_context(base_url=app_url, viewport={"width": 1366, "height": 768}, color_scheme=scheme)
    context.set_default_timeout(20_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def measure(page: Page, path: str, n_plots: int) -> list[dict]:
    page.goto(path)
    page.wait_for_function(DRAWN_JS, arg=n_plots, polling=100, timeout=FIRST_DRAW_MS)
    page.wait_for_timeout(500)  # the last figures of the run finish drawing
    return page.evaluate(CONTRAST_JS, PARTS)


def check(figures: list[dict], where: str, dark: bool) -> None:
    assert figures, f"{where}: no figure drawn"
    page_lum = sum(figures[0]["page"]) / 3
    assert (page_lum < 100) == dark, f"{where}: the app is not {'dark' if dark else 'light'} ({figures[0]['page']})"
    assert any("tick" in f["found"] for f in figures), f"{where}: no tick label measured"
    for i, fig in enumerate(figures):
        for part, worst in fig["found"].items():
            print(f"{where} figure {i} {part}: {worst['r']:.2f}:1 ({worst['text']!r})")  # -s shows them
            assert worst["r"] >= WCAG_AA, f"{where}, figure {i}: {part} {worst['text']!r} at {worst['r']:.2f}:1"


@pytest.mark.parametrize("name", list(PAGES))
def test_figures_read_on_a_dark_system(browser, app_url: str, name: str) -> None:
    path, n_plots = PAGES[name]
    with themed_page(browser, app_url, "dark") as page:
        check(measure(page, path, n_plots), f"{name} (dark)", dark=True)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_figures_read_in_chinese_on_either_theme(browser, app_url: str, scheme: str) -> None:
    with themed_page(browser, app_url, scheme) as page:
        check(measure(page, "/masks?lang=zh", 3), f"masks zh ({scheme})", dark=scheme == "dark")
