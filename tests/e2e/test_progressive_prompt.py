"""A long prompt's first heatmap before its forward is done (issue 30 §3, ui/long_runs.py), in a real Chromium: a
2,015-token English text in a tiny random Qwen3 of 64 layers and 8 heads (its forward takes seconds here, its first
layer a fraction of one). The picture arrives with the "computing layers k/L" line and without the downloads (they
need the whole trace); then the line goes, the downloads and the sinks come, and the picture is the same bytes (the
partial layer is the finished trace's bit for bit)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from bench.browser_latency import IDLE_JS
from tests.long_prompts import ENGLISH, MAX_TOKENS

from .conftest import new_page, serve
from .test_real_models import chips, no_traceback

NAME = "tiny-qwen3-deep"
FIRST_DRAW_MS = 240_000  # the server loads torch and the model (a loaded 2-core machine)
FINISH_MS = 240_000
LAYERS = 64
# what the page shows of this run: elements of an earlier run are kept, marked stale, until the new one replaces them
FIRST_SEEN_JS = """() => {
    const fresh = e => e.closest('[data-testid="stElementContainer"]')?.getAttribute('data-stale') !== 'true';
    const plot = [...document.querySelectorAll('.js-plotly-plot')].filter(fresh)[0];  // the picture: the first figure
    const images = plot ? [...plot.querySelectorAll('image')] : [];
    const image = images.find(i => (i.getAttribute('href') || '').length > 400);
    if (!image) return null;  // (Plotly may first put a 1-pixel placeholder)
    const progress = [...document.querySelectorAll('[data-testid="stProgress"]')].filter(fresh)[0];
    const downloads = [...document.querySelectorAll('[data-testid="stDownloadButton"]')].filter(fresh).length;
    // the progress line is redrawn every second (a fragment: marked stale while it reruns), and a finished run's
    // downloads come after its picture: wait for a state that says which run drew the picture
    if (!progress && !downloads) return null;
    return {href: image.getAttribute('href'), progress: progress ? progress.innerText : null, downloads};
}"""


@pytest.fixture(scope="module")
def deep_url(chromium_path: str, tmp_path_factory: pytest.TempPathFactory):
    from tests.models.hf.tiny import build

    root = tmp_path_factory.mktemp("models")
    build("qwen3", root / NAME, num_hidden_layers=LAYERS, hidden_size=128, intermediate_size=512, num_attention_heads=8,
          head_dim=32, max_position_embeddings=MAX_TOKENS)  # fmt: skip
    env = {"ATTENTION_LAB_MODELS": str(root), "ATTENTION_LAB_MAX_TOKENS": str(MAX_TOKENS),
           "ATTENTION_LAB_PROGRESSIVE_GFLOP": "0"}  # fmt: skip
    with serve(tmp_path_factory.mktemp("streamlit"), env) as base:
        yield base


def test_the_first_layer_is_drawn_while_the_other_layers_are_computed(browser, deep_url: str) -> None:
    with new_page(browser, deep_url, 1366, 768) as page:
        page.goto(f"/explorer?{urlencode({'model': NAME, 'lang': 'en', 'prompt': ENGLISH})}")
        first = page.wait_for_function(FIRST_SEEN_JS, timeout=FIRST_DRAW_MS).json_value()
        assert first["progress"] is not None and "Computing the layers" in first["progress"], first
        k = int(first["progress"].split(": ", 1)[1].split(" of ")[0])
        # drawn in a run that found the trace unfinished (k may have reached L meanwhile on a loaded machine: the
        # line is redrawn every second, the logits and the trace's parts come after the last block)
        assert 0 <= k <= LAYERS and f"of {LAYERS} done" in first["progress"], first["progress"]
        assert first["downloads"] == 0 and first["href"].startswith("data:image/png;base64,")
        no_traceback(page)

        downloads = page.get_by_test_id("stDownloadButton")
        expect(downloads.first).to_be_visible(timeout=FINISH_MS)  # the whole trace: the page reran once
        expect(page.get_by_test_id("stProgress")).to_have_count(0)
        expect(page.get_by_text("looked for in the layer shown only")).to_be_visible()
        page.wait_for_function(IDLE_JS, polling=100, timeout=FINISH_MS)
        assert 1800 < len(chips(page)) <= MAX_TOKENS
        after = page.evaluate(FIRST_SEEN_JS)["href"]
        assert after == first["href"]  # layer 1, head 1 drawn from the partial and from the whole trace: same PNG
        no_traceback(page)


def test_a_layer_not_reached_yet_says_so_then_draws(browser, deep_url: str) -> None:
    text = ENGLISH.replace("mole", "vole")  # another prompt: nothing cached
    with new_page(browser, deep_url, 1366, 768) as page:
        page.goto(f"/explorer?{urlencode({'model': NAME, 'lang': 'zh', 'prompt': text, 'layer': LAYERS})}")
        expect(page.get_by_text(f"前向传播到达第 {LAYERS} 层时就会画出该层")).to_be_visible(timeout=FIRST_DRAW_MS)
        expect(page.locator(".js-plotly-plot image").first).to_be_visible(timeout=FINISH_MS)
        expect(page.get_by_text(f"前向传播到达第 {LAYERS} 层时")).to_have_count(0)
        no_traceback(page)
