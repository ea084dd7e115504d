"""The two-model figures (viz/compare.py) skip Plotly's validation: each must equal the figure a validating go.Figure
holds; token boxes span the characters they cover, the 0…1 maps keep their numbers, a partner grid names partners."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz.compare import layer_max, partner_grid, token_rows, unit_map

TEXT = "the cat <b>"
ROWS = [
    ("A", ["the", " cat", " <", "b>"], [(0, 3), (3, 7), (7, 9), (9, 11)]),
    ("B", ["[BOS]", "the", " ", "cat", " <b>"], [None, (0, 3), (3, 4), (4, 7), (7, 11)]),
]
WHO = ["A · GPT-2", "B · toy <i>"]
SIM = np.random.default_rng(0).uniform(0, 1, (3, 4))

CASES = {
    "token_rows": lambda: token_rows(ROWS, TEXT, cuts=[0, 3, 7, 11], title="t", x_title="字符", hover_names=WHO),
    "token_rows 70 characters": lambda: token_rows(
        [("A", ["x"] * 70, [(i, i + 1) for i in range(70)])], "x" * 70, hover_names=["A · x"]
    ),
    "token_rows long, 1.5": lambda: token_rows(
        [("a", ["x"] * 200, [(i, i + 1) for i in range(200)])], "x" * 200, scale=1.5
    ),
    "unit_map": lambda: unit_map(
        SIM,
        ["emb", "L1", "<L2>"],
        list("abcd"),
        title="CKA",
        x_title="B",
        y_title="A",
        value_name="CKA",
        note="shuffled: 0.31",
    ),
    "unit_map big negative": lambda: unit_map(
        np.linspace(-0.2, 1, 400).reshape(20, 20),
        [str(i) for i in range(20)],
        [str(i) for i in range(20)],
        title="",
        x_title="",
        y_title="",
        value_name="v",
        scale=1.5,
    ),
    "partner_grid": lambda: partner_grid(
        SIM, [["L1H1", "L2H2", "", "L1H3"]] * 3, title="heads", value_name="sim", partner_name="B", none_name="—"
    ),
    "unit_map signed": lambda: unit_map(
        SIM * 2 - 1, ["a", "b", "c"], list("wxyz"), title="", x_title="B", y_title="A", value_name="r", signed=True
    ),
    "partner_grid wide": lambda: partner_grid(
        np.full((2, 14), np.nan),
        [["L1H1"] * 14] * 2,
        title="",
        value_name="s",
        partner_name="B",
        none_name="无",
        layers=[3, 7],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_token_boxes_cover_their_characters_and_escape():
    spec = token_rows(ROWS, TEXT, cuts=[3, 7], hover_names=WHO)
    gpt2, toy = spec.data[:2]
    assert gpt2["base"] == [0, 3, 7, 9] and gpt2["x"] == [3, 4, 2, 2]
    assert toy["base"] == [0, 3, 4, 7] and len(toy["y"]) == 4  # [BOS] covers no character: not drawn
    assert gpt2["y"] == ["A"] * 4 and toy["y"] == ["B"] * 4  # short tick labels; the full names in the hover
    assert " &lt;b&gt;" in toy["text"] and toy["customdata"][0][4] == "B · toy &lt;i&gt;"
    assert spec.layout["xaxis"]["ticktext"][3] == "␣"
    assert [s["x0"] for s in spec.layout["shapes"]] == [3, 7]
    long = token_rows([("A", ["x"] * 70, [(i, i + 1) for i in range(70)])], "x" * 70)
    assert "ticktext" not in long.layout["xaxis"] and long.data[0]["customdata"][0][4] == "A"  # character numbers
    with pytest.raises(ValueError):
        token_rows([("a", ["x"], [])], "x")
    with pytest.raises(ValueError):
        token_rows(ROWS, TEXT, hover_names=["A"])


def test_maps_keep_the_numbers_and_name_the_partner():
    spec = unit_map(SIM, ["a", "b", "c"], list("wxyz"), title="", x_title="B", y_title="A", value_name="CKA",
                    note="baseline 0.2")  # fmt: skip
    np.testing.assert_array_equal(spec.data[0]["z"], SIM)
    assert spec.data[0]["zmin"] == 0.0 and spec.data[0]["zmax"] == 1.0
    assert "baseline 0.2" in spec.data[0]["customdata"][0][0]
    grid = partner_grid(SIM, [["L2H1", "", "x", "y"]] * 3, title="", value_name="s", partner_name="B", none_name="—")
    assert grid.data[0]["text"][0][0].startswith("L2H1<br>") and grid.data[0]["text"][0][1].startswith("—")
    assert (grid.data[0]["zmin"], grid.data[0]["zmax"]) == (-1.0, 1.0)  # a correlation: the signed scale
    signed = unit_map(SIM, ["a", "b", "c"], list("wxyz"), title="", x_title="", y_title="", value_name="r",
                      signed=True)  # fmt: skip
    assert (signed.data[0]["zmin"], signed.data[0]["zmax"]) == (-1.0, 1.0)
    assert signed.data[0]["colorscale"] == grid.data[0]["colorscale"] != spec.data[0]["colorscale"]
    assert "B L2H1" in grid.data[0]["customdata"][0][0]
    hybrid = partner_grid(
        SIM, [["a"] * 4] * 3, title="", value_name="s", partner_name="B", none_name="", layers=[3, 7, 11]
    )
    assert hybrid.data[0]["y"][1] == "layer 8" and hybrid.data[0]["customdata"][1][0].startswith("L8H1")
    with pytest.raises(ValueError):
        unit_map(SIM, ["a"], ["b"], title="", x_title="", y_title="", value_name="")


def test_no_negative_zero():
    z = np.array([[-0.0004, -0.004, 0.5, -0.25]])
    grid = partner_grid(z, [["a"] * 4], title="", value_name="s", partner_name="B", none_name="")
    assert [t.split("<br>")[1] for t in grid.data[0]["text"][0]] == ["0.00", "0.00", "0.50", "-0.25"]
    full = unit_map(z, ["a"], list("wxyz"), title="", x_title="", y_title="", value_name="r", signed=True)
    assert full.data[0]["text"][0] == ["0.00", "0.00", "0.50", "-0.25"]
    assert full.data[0]["customdata"][0][0].endswith("r: 0.000") and full.data[0]["customdata"][0][1].endswith("-0.004")


def test_layer_max_is_the_best_pair_of_each_two_layers():
    sim = np.arange(2 * 3 * 4 * 2, dtype=float).reshape(6, 8)  # A: 2 layers × 3 heads, B: 4 layers × 2 heads
    out = layer_max(sim, (2, 3), (4, 2))
    assert out.shape == (2, 4)
    assert out[0, 0] == sim[:3, :2].max() and out[1, 3] == sim[3:, 6:].max()
