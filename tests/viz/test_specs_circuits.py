"""The circuits figures (viz/circuits.py) skip Plotly's validation: each must equal the figure a validating go.Figure
holds; the composition map is blank where no wire can run, and the part names are numbered from 1."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz.circuits import composition_grid, composition_map, head_labels, part_name

ROLES = np.array([["previous_token", ""], ["induction", "<b>"]], dtype=object)
NAMES = {"previous_token": "previous token", "induction": "归纳", "<b>": "<b>"}
SCORES = np.random.default_rng(0).uniform(0, 0.3, (2, 2, 2, 2))

CASES = {
    "composition_map": lambda: composition_map(
        SCORES,
        head_labels(ROLES, NAMES),
        title="K",
        sender="s",
        receiver="r",
        value_name="score",
        baseline=0.089,
        baseline_name="random",
    ),
    "composition_map zeros, 1.5": lambda: composition_map(
        np.zeros((3, 2, 3, 2)),
        [f"h{i}" for i in range(6)],
        title="",
        sender="发送",
        receiver="接收",
        value_name="<i>",
        baseline=0.1,
        baseline_name="b",
        scale=1.5,
    ),
    "composition_map one layer": lambda: composition_map(
        np.zeros((1, 2, 1, 2)),
        ["a", "b"],
        title="t",
        sender="s",
        receiver="r",
        value_name="v",
        baseline=0.1,
        baseline_name="b",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_labels_grid_and_hover():
    labels = head_labels(ROLES, NAMES)
    assert labels == ["L1H1 · previous token", "L1H2", "L2H1 · 归纳", "L2H2 · <b>"]
    grid = composition_grid(SCORES)
    assert grid.shape == (4, 4)
    assert np.isnan(grid[:2, :2]).all() and np.isnan(grid[2:, :]).all()  # same layer, or a later sender: blank
    np.testing.assert_array_equal(grid[:2, 2:], SCORES[0, :, 1, :])
    (tr,) = CASES["composition_map"]().data
    assert "L2H2 · &lt;b&gt;" in tr["y"] and "random: 0.089" in tr["hovertemplate"]


def test_part_names_are_numbered_from_one_and_translated():
    words = {"embedding": "词元嵌入", "biases": "偏置", "MLP": "MLP", "block": "块"}
    assert [part_name(x, words) for x in ("embedding", "L0H1", "L2 MLP", "L1 block", "biases", "odd")] == [
        "词元嵌入", "L1H2", "L3 MLP", "L2 块", "偏置", "odd"]  # fmt: skip
