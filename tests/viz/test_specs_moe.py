"""The mixture-of-experts figures skip Plotly's validation: each must be exactly what a validating go.Figure
holds; and what they draw: one cell per layer and token with the chosen experts written in it, coloured by the
first choice; the load bars with the even-share line."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import TOKENS, assert_valid
from viz import expert_load, router_choices

RNG = np.random.default_rng(0)
CHOSEN = np.stack([RNG.permutation(8)[:2] for _ in range(2 * len(TOKENS))]).reshape(2, len(TOKENS), 2)
CASES = {
    "router_choices": lambda: router_choices(CHOSEN, np.full(CHOSEN.shape, 0.5), TOKENS, 8),
    "router_choices words, scale 1.5, 40 tokens": lambda: router_choices(
        np.zeros((3, 40, 1), int), np.ones((3, 40, 1)), ["t"] * 40, 4, title="路由 <i>", x_title="词元",
        y_title="层", expert_word="专家", gate_word="门控", scale=1.5),
    "expert_load": lambda: expert_load(np.array([0.5, 0.25, 0.25, 0.0])),
    "expert_load words, scale 1.5": lambda: expert_load(np.full(8, 0.125), title="负载", x_title="专家",
                                                        y_title="占比", ideal_word="均衡", scale=1.5),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_router_choices_cells_text_and_colour():
    chosen = np.array([[[0, 2], [1, 0]], [[3, 1], [2, 3]]])  # [L=2, T=2, k=2]
    gates = np.full(chosen.shape, 0.5)
    spec = router_choices(chosen, gates, ["a", "<b>"], 4, title="t")
    tr = spec.data[0]
    assert tr["text"] == [["1+3", "2+1"], ["4+2", "3+4"]]
    np.testing.assert_array_equal(np.asarray(tr["z"]), chosen[:, :, 0] + 0.5)
    assert tr["zmin"] == 0 and tr["zmax"] == 4 and "&lt;b&gt;" in tr["x"][1]
    with pytest.raises(ValueError, match="expert ids"):
        router_choices(chosen, gates, ["a", "b"], 3)


def test_expert_load_bars_and_even_line():
    spec = expert_load(np.array([0.5, 0.25, 0.25, 0.0]), ideal_word="even")
    assert list(np.asarray(spec.data[0]["y"])) == [0.5, 0.25, 0.25, 0.0]
    line = spec.data[1]
    assert list(line["y"]) == [0.25, 0.25] and line["name"] == "even = 0.250"
