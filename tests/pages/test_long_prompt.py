"""The Explorer on whole paragraphs (issue 30), in the real app (AppTest) with a tiny random Qwen3 of 2,048
positions: the matrix arrives as a picture, not millions of numbers; the zoom redraws a region with its exact
weights and the tokens at those positions; the grid and the head view offer a window; a long prompt's link is cut
and the page says so."""

from __future__ import annotations

import json
from urllib.parse import quote

import numpy as np
import pytest

import viz
from tests.long_prompts import CHINESE, ENGLISH, MAX_TOKENS, NAME
from tests.pages.apptest import array, figures, open_app
from ui import url
from ui.i18n import STRINGS, t
from ui.loaders import trace

MAX_FIGURES_BYTES = 3_000_000  # all of the page's figures at ~2,000 tokens (a heatmap trace would be ~60 MB)


def explorer(text: str, **query):
    at = open_app("explorer", model=NAME, prompt=text, **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def tokens_of(text: str) -> list[str]:
    return list(trace(NAME, "trained", text).tokens)


def zoom_figure(at) -> dict:
    """The zoomed region: the one heatmap with token labels."""
    (fig,) = [f for f in figures(at) if any(tr.get("type") == "heatmap" for tr in f["data"])]
    return fig


def test_a_long_matrix_is_a_picture_and_the_zoom_holds_the_exact_weights(long_env):
    at = explorer(ENGLISH)
    tokens = tokens_of(ENGLISH)
    n = len(tokens)
    assert 2000 <= n <= MAX_TOKENS
    sent = [json.dumps(f) for f in figures(at)]
    assert sum(map(len, sent)) < MAX_FIGURES_BYTES, [len(s) for s in sent]
    picture = figures(at)[0]
    assert [tr["type"] for tr in picture["data"]] == ["image", "scatter"]
    assert picture["data"][0]["source"].startswith("data:image/png;base64,")
    assert picture["layout"]["xaxis"]["range"] == [-0.5, n - 0.5]  # positions of the whole prompt
    assert picture["layout"]["yaxis"]["ticktext"][0] == f"0 {tokens[0]}"
    zoom = zoom_figure(at)["data"][0]
    assert zoom["y"][:2] == [f"0 {tokens[0]}", f"1 {tokens[1]}"] and len(zoom["y"]) == 64  # the start, by default

    at.slider(key="zoom_q").set_value((1000, 1099)).run()
    at.slider(key="zoom_k").set_value((950, 1049)).run()
    assert not at.exception
    zoom = zoom_figure(at)["data"][0]
    assert zoom["y"] == [f"{i} {tokens[i]}" for i in range(1000, 1100)]
    assert zoom["x"] == [f"{j} {tokens[j]}" for j in range(950, 1050)]
    exact = np.asarray(trace(NAME, "trained", ENGLISH).attention["decoder.self"][0][0])[1000:1100, 950:1050]
    np.testing.assert_array_equal(array(zoom["z"]), exact)  # layer 1, head 1: the weights themselves
    shape = figures(at)[0]["layout"]["shapes"][0]  # the picture outlines the region
    assert (shape["x0"], shape["x1"], shape["y0"], shape["y1"]) == (949.5, 1049.5, 999.5, 1099.5)

    at.slider(key="zoom_q").set_value((0, 499)).run()  # longer than ZOOM_MAX: its first 128 and a note
    assert len(zoom_figure(at)["data"][0]["y"]) == viz.ZOOM_MAX
    assert t("explorer_long.zoom_cut", n=viz.ZOOM_MAX) in [c.value for c in at.caption]


@pytest.mark.parametrize("agg", ["mean", "rollout"])
def test_mean_and_rollout_of_a_long_prompt_are_pictures_too(long_env, agg):
    at = explorer(ENGLISH, agg=agg)
    assert figures(at)[0]["data"][0]["type"] == "image"
    rows = array(zoom_figure(at)["data"][0]["z"])
    if agg == "rollout":  # rollout's rows sum to 1 over all keys; the first 64 queries see only the first 64
        np.testing.assert_allclose(rows.sum(-1), 1.0, atol=1e-5)


@pytest.mark.parametrize(("view", "width"), [("grid", 128), ("lines", 128)])
def test_the_grid_and_the_head_view_offer_a_window(long_env, view, width):
    at = explorer(ENGLISH, view=view)
    tokens = tokens_of(ENGLISH)
    info = t(f"explorer_long.window.{view}", n=f"{len(tokens):,}", width=width, heads=4)
    assert info in [i.value for i in at.info]
    at.slider(key="window_start").set_value(900).run()
    assert not at.exception
    fig = figures(at)[0]
    if view == "grid":
        first = fig["data"][0]
        assert array(first["z"]).shape == (width, width) and first["x0"] == first["y0"] == 900
        assert len(fig["data"]) == 2 * 4  # every head of both layers, each the window only
    else:
        text = fig["data"][-1]["text"]  # the token columns: the window's queries, then its keys
        assert text[:2] == tokens[900:902] and len(text) == 2 * width
    caption = t("explorer_long.window_range", first=900, last=900 + width - 1, n=f"{len(tokens):,}")
    assert caption in [c.value for c in at.caption]


def test_a_long_chinese_prompt_draws_and_its_link_is_cut_with_a_note(long_env):
    at = explorer(CHINESE, lang="zh")
    tokens = tokens_of(CHINESE)
    assert len(tokens) > 1800 and figures(at)[0]["data"][0]["type"] == "image"
    linked = at.query_params["prompt"]
    linked = linked[0] if isinstance(linked, list) else linked
    assert CHINESE.startswith(linked) and len(quote(linked, safe="")) <= url.MAX_URL_TEXT_BYTES
    assert 600 <= len(linked) < 700  # ≈ 660 Chinese characters: 9 bytes each once percent-encoded
    assert STRINGS["prompt.link_cut"]["zh"].format(n=len(linked)) in [c.value for c in at.caption]
    assert zoom_figure(at)["data"][0]["y"][1] == f"1 {tokens[1]}"


def test_a_long_prompt_beside_a_second_model_has_a_zoom_of_its_own(long_env):
    """?compare= on a long prompt (issue 44): each column draws its picture and its own zoom; B's sliders (c_zoom_q,
    c_zoom_k) move B's zoom alone."""
    at = explorer(ENGLISH, compare=NAME, precision="float32")
    tokens = tokens_of(ENGLISH)
    pictures = [f for f in figures(at) if [tr["type"] for tr in f["data"]] == ["image", "scatter"]]
    assert len(pictures) == 2
    at.slider(key="c_zoom_q").set_value((1000, 1099)).run()
    assert not at.exception, [e.value for e in at.exception]
    zooms = [f["data"][0] for f in figures(at) if f["data"][0].get("type") == "heatmap" and "y" in f["data"][0]]
    assert zooms[0]["y"][:2] == [f"0 {tokens[0]}", f"1 {tokens[1]}"]  # A's zoom stays at the start
    assert zooms[1]["y"] == [f"{i} {tokens[i]}" for i in range(1000, 1100)]  # B's moved
