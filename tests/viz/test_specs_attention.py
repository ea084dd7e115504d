"""The attention figures (mask, heads grid, change bars, token chips, head view, KV cache) skip Plotly's
validation for speed: each one's output, in every main option, must be exactly the figure a validating
go.Figure would hold."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import TOKENS, assert_valid
from viz.attention import heads_grid, heatmap, mask_heatmap
from viz.change import change_bars
from viz.generation import kv_cache
from viz.head_view import head_view
from viz.labels import Labels
from viz.tokens import token_strip

RNG = np.random.default_rng(0)
CAUSAL = np.tril(np.ones((4, 4), dtype=bool))
MANY = [f"t{i}" for i in range(70)]  # past MANY_TOKENS: sparse ticks, no cell gaps
ZH = Labels(position="位置", change="最大变化", changed="已变", unchanged="未变", layer="层", head="头")


def _softmax(shape: tuple[int, ...]) -> np.ndarray:
    a = RNG.random(shape).astype(np.float32)
    return a / a.sum(-1, keepdims=True)


GRID = _softmax((2, 3, 4, 4))  # [L, H, Tq, Tk]
HEADS = _softmax((3, 4, 5))  # [H, Tq, Tk], cross-attention shape

CASES = {
    "heatmap many tokens": lambda: heatmap(_softmax((70, 70)), MANY, MANY),
    "mask causal": lambda: mask_heatmap(CAUSAL, TOKENS, TOKENS),
    "mask many tokens, scale 1.5": lambda: mask_heatmap(np.tril(np.ones((70, 70), bool)), MANY, MANY, scale=1.5),
    "mask all allowed": lambda: mask_heatmap(np.ones((4, 4), bool), TOKENS, TOKENS),
    "heads_grid": lambda: heads_grid(GRID),
    "heads_grid selected, auto zmax, scale 1.5": lambda: heads_grid(GRID, selected=(1, 2), zmax=None, scale=1.5),
    "heads_grid one head": lambda: heads_grid(GRID[:1, :1]),
    "heads_grid 6 x 12, labels": lambda: heads_grid(_softmax((6, 12, 3, 3)), selected=(5, 11), labels=ZH),
    "change_bars": lambda: change_bars(np.array([0.0, 0.0, 0.3, 1e-9]), TOKENS, changed_position=2),
    "change_bars all changed, scale 1.5, labels": lambda: change_bars(
        np.array([1.0, 2.0, 0.3, 1.0]), TOKENS, changed_position=0, scale=1.5, labels=ZH
    ),
    "change_bars tol": lambda: change_bars(np.array([0.0, 1e-4, 0.3, 0.0]), TOKENS, changed_position=3, tol=1e-3),
    "token_strip": lambda: token_strip(TOKENS),
    "token_strip colours, wrapped, scale 1.5": lambda: token_strip(
        ["␣token"] * 120, colors={1: "#ff0000", 5: "#00ff00"}, scale=1.5, width_px=400
    ),
    "head_view": lambda: head_view(HEADS, TOKENS, [*TOKENS, "e"]),
    "head_view focus, some heads, scale 1.5": lambda: head_view(
        HEADS, TOKENS, [*TOKENS, "e"], heads=[0, 2], focus=1, min_weight=0.0, scale=1.5
    ),
    "head_view nothing above min_weight": lambda: head_view(HEADS, TOKENS, [*TOKENS, "e"], min_weight=1.0),
    "kv_cache decode step": lambda: kv_cache(TOKENS, 1, 2),
    "kv_cache labels": lambda: kv_cache(TOKENS, 2, 1, reused="已缓存", new="<new>", labels=ZH),
    "kv_cache prefill, many tokens, title, scale 1.5": lambda: kv_cache(MANY, 70, 3, title="t & u", scale=1.5),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_attention_builder_output_is_a_valid_figure(case):
    assert_valid(CASES[case]())


def test_heads_grid_without_selection_has_no_shapes_key():
    """A validated figure drops an empty shapes list; the unvalidated one must not send one."""
    assert "shapes" not in heads_grid(GRID).to_dict()["layout"]
    assert len(heads_grid(GRID, selected=(0, 0)).layout["shapes"]) == 1


def test_kv_cache_title_keeps_the_base_title_font():
    """title=dict(text=...) merges into base_layout's title font, as title_text= did."""
    fig = kv_cache(TOKENS, 1, 1, title="t", scale=1.5)
    assert fig.layout["title"]["text"] == "t" and fig.layout["title"]["font"]["size"] is not None
