"""The neuron view's figure (viz/neuron.py) skips Plotly's validation: it must be exactly what a validating
go.Figure holds; and what it draws: q, k and q ⊙ k in three panels over one dimension axis, the product red where
it adds and blue where it takes away, grey outlines before RoPE, the sum and the score in the title."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz import NeuronWords, neuron_bars
from viz.neuron import NEGATIVE, POSITIVE

Q, K = np.array([1.0, -2.0, 0.5, 0.0]), np.array([2.0, 1.0, -1.0, 3.0])
P = Q * K
CASES = {
    "neuron_bars": lambda: neuron_bars(Q, K, P, dot=P.sum(), scale_factor=0.5, score=P.sum() / 2),
    "neuron_bars RoPE, words, scale 1.5": lambda: neuron_bars(
        Q, K, P, dot=P.sum(), scale_factor=0.25, score=P.sum() / 4, q_before=K, k_before=Q, product_before=P,
        words=NeuronWords(q="q（查询）<b>", k="k（键）", title="Σ = {dot} × {scale} = {score}"), scale=1.5),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_three_panels_sign_colours_and_title():
    spec = neuron_bars(Q, K, P, dot=float(P.sum()), scale_factor=0.5, score=float(P.sum()) / 2)
    assert [tr["yaxis"] for tr in spec.data] == ["y", "y2", "y3"]
    np.testing.assert_array_equal(np.asarray(spec.data[2]["y"]), P)
    assert spec.data[2]["marker"]["color"] == [POSITIVE, NEGATIVE, NEGATIVE, POSITIVE]
    assert spec.layout["title"]["text"] == "Σ q⊙k = -0.5 × scale 0.5 = score -0.25"
    assert not spec.layout.get("showlegend")


def test_rope_adds_outlines_and_escapes_words():
    spec = CASES["neuron_bars RoPE, words, scale 1.5"]()
    assert len(spec.data) == 6 and spec.layout["barmode"] == "group"
    outlines = [tr for tr in spec.data if tr["offsetgroup"] == "before"]
    assert len(outlines) == 3 and all(tr["marker"]["color"] == "rgba(0,0,0,0)" for tr in outlines)
    assert "&lt;b&gt;" in spec.data[0]["name"] and "<b>" not in str(spec.layout["annotations"])


def test_lengths_must_agree():
    with pytest.raises(ValueError):
        neuron_bars(Q, K[:3], P, dot=0.0, scale_factor=1.0, score=0.0)
