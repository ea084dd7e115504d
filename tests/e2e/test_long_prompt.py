"""Whole paragraphs in a real Chromium (issue 30): a 2,015-token English text and a 1,500-character Chinese one in a
tiny random Qwen3 folder of 2,048 positions. The matrix draws as a picture; a box dragged on it redraws that region
with the tokens at those positions; hovering a cell of the region shows its weight. At 1366x768 and 390 px wide.
With SHOTS=1 in the environment, screenshots go to /tmp/shots_long/ (never committed)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.long_prompts import CHINESE, ENGLISH, MAX_TOKENS, NAME, build_long_qwen3

from .conftest import IDLE_JS, new_page, serve
from .test_real_models import chips, no_traceback

FIRST_DRAW_MS = 240_000  # the server loads torch, then runs ~2,000 tokens (a loaded 2-core machine)
RERUN_MS = 120_000
SHOTS = Path("/tmp/shots_long")
TEXT = {"en": ENGLISH, "zh": CHINESE}
WORDS = {"en": ("query", "key", "weight"), "zh": ("查询", "键", "权重")}
PICTURE, ZOOM = 0, 1  # the page's first two Plotly figures


@pytest.fixture(scope="module")
def long_url(chromium_path: str, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("models")
    build_long_qwen3(root)
    env = {"ATTENTION_LAB_MODELS": str(root), "ATTENTION_LAB_MAX_TOKENS": str(MAX_TOKENS)}
    with serve(tmp_path_factory.mktemp("streamlit"), env) as base:
        yield base


def shot(page: Page, name: str) -> None:
    if os.environ.get("SHOTS"):
        SHOTS.mkdir(exist_ok=True)
        page.wait_for_timeout(600)  # let Plotly finish its layout
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def open_long(page: Page, lang: str) -> None:
    page.goto(f"/explorer?{urlencode({'model': NAME, 'lang': lang, 'prompt': TEXT[lang]})}")
    page.wait_for_selector(".js-plotly-plot image", timeout=FIRST_DRAW_MS)
    # and the run over: a box dragged while a run still redraws the picture can be lost with the old plot (the zoom
    # then never moved: 1 failure in the suite's runs, under load)
    page.wait_for_function(IDLE_JS, polling=100, timeout=FIRST_DRAW_MS)


def figure(page: Page, index: int, js: str):
    """Evaluate js (a function of the figure's div, gd) on the page's index-th Plotly figure."""
    return page.evaluate(f"gd => ({js})(gd)", page.locator(".js-plotly-plot").nth(index).element_handle())


def rows(page: Page) -> list[str]:
    """The zoomed heatmap's query labels ("position token", escaped as Plotly draws them)."""
    return figure(page, ZOOM, "gd => [...gd.data[0].y]")


def drag_box(page: Page, queries: tuple[int, int], keys: tuple[int, int]) -> None:
    """Drag a box on the picture from (keys[0], queries[0]) to (keys[1], queries[1]), in token positions."""
    page.locator(".js-plotly-plot").nth(PICTURE).scroll_into_view_if_needed()
    js = """gd => { const fl = gd._fullLayout, r = gd.getBoundingClientRect();
        const x = v => r.left + fl.xaxis._offset + fl.xaxis.l2p(v), y = v => r.top + fl.yaxis._offset + fl.yaxis.l2p(v);
        return [x(%d), y(%d), x(%d), y(%d)]; }"""
    x0, y0, x1, y1 = figure(page, PICTURE, js % (keys[0], queries[0], keys[1], queries[1]))
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()


def hover_cell(page: Page, i: int, j: int) -> str:
    """Move the mouse to cell (row i, column j) of the zoomed heatmap; the hover label's text."""
    zoom = page.locator(".js-plotly-plot").nth(ZOOM)
    zoom.scroll_into_view_if_needed()
    js = """gd => { const fl = gd._fullLayout, r = gd.getBoundingClientRect();
        return [r.left + fl.xaxis._offset + fl.xaxis.l2p(%d), r.top + fl.yaxis._offset + fl.yaxis.l2p(%d)]; }"""
    x, y = figure(page, ZOOM, js % (j, i))
    page.mouse.move(x, y)
    label = zoom.locator(".hoverlayer .hovertext")
    expect(label).to_have_count(1)
    return label.text_content()  # SVG text: its lines run together ("query: 1010 ␣thekey: …")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_prompt_draws_zooms_and_hovers(browser, long_url: str, lang: str) -> None:
    with new_page(browser, long_url, 1366, 768) as page:
        open_long(page, lang)
        tokens = chips(page)
        assert 1800 < len(tokens) <= MAX_TOKENS, len(tokens)
        kinds, sent = figure(page, PICTURE, "gd => [gd.data.map(t => t.type), JSON.stringify(gd.data).length]")
        assert kinds == ["image", "scatter"] and sent < 1_000_000, (kinds, sent)  # a picture, not 4M numbers
        href = page.locator(".js-plotly-plot").nth(PICTURE).locator("image").first.get_attribute("href")
        assert href.startswith("data:image/png;base64,")
        assert rows(page)[:2] == [f"0 {tokens[0]}", f"1 {tokens[1]}"]  # the zoom starts at the prompt's start
        no_traceback(page)
        page.locator(".js-plotly-plot").nth(PICTURE).scroll_into_view_if_needed()
        shot(page, f"long-picture-{lang}")

        drag_box(page, (1000, 1060), (990, 1050))
        page.wait_for_function(  # the app reruns: the zoom's rows move to the box
            "() => { try { const gd = document.querySelectorAll('.js-plotly-plot')[1];"
            " return +String(gd.data[0].y[0]).split(' ')[0] >= 990; } catch (e) { return false; } }",  # mid-redraw
            timeout=RERUN_MS,
        )
        labels = rows(page)
        first = int(labels[0].split(" ", 1)[0])
        assert 995 <= first <= 1005 and 50 <= len(labels) <= 70, (first, len(labels))
        assert labels == [f"{first + n} {tokens[first + n]}" for n in range(len(labels))]  # the right tokens
        columns = figure(page, ZOOM, "gd => [...gd.data[0].x]")
        assert 985 <= int(columns[0].split(" ", 1)[0]) <= 995

        text = hover_cell(page, 10, 5)
        query, key, weight = WORDS[lang]
        value = figure(page, ZOOM, "gd => gd.calcdata[0][0].z[10][5]")  # the drawn cell (data.z is base64)
        assert f"{query}: {labels[10]}" in text and f"{key}: {columns[5]}" in text, text
        assert re.search(rf"{weight}: {value:.3f}", text), (text, value)
        shot(page, f"long-zoom-{lang}")
        no_traceback(page)


def test_a_phone_draws_the_picture_and_the_zoom(browser, long_url: str) -> None:
    with new_page(browser, long_url, 390, 844) as page:
        open_long(page, "en")
        picture = page.locator(".js-plotly-plot").nth(PICTURE)
        picture.scroll_into_view_if_needed()
        box = picture.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # no sideways scrolling
        shot(page, "long-picture-phone")
        page.locator(".js-plotly-plot").nth(ZOOM).scroll_into_view_if_needed()
        assert len(rows(page)) == 64
        shot(page, "long-zoom-phone")
        no_traceback(page)
