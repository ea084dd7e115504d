"""param_treemap and scaling_contours build plain dicts (viz/spec.py): each option's output must be the
figure a validating go.Figure would hold, or a misspelt property would reach the browser silently."""

from __future__ import annotations

import numpy as np
import pytest

import viz
from tests.viz.test_anatomy import KNOWN, PARTS, figure, page_figure
from tests.viz.test_specs import assert_valid

EVIL = "<b>bold</b> & 猫"


def _no_kids() -> dict[str, int]:
    """Only top-level parts: no parent tiles."""
    return {k: v for k, v in PARTS.items() if "." not in k}


CASES = {
    "treemap": lambda: viz.param_treemap(PARTS, {}),
    "treemap names title scale 1.5": lambda: viz.param_treemap(
        PARTS, {"root": "all", "attention": "Attention", "q": "W_q", "attention.k": EVIL}, title=EVIL, scale=1.5
    ),
    "treemap flat, tied head": lambda: viz.param_treemap(_no_kids(), {}, title="flat"),
    "treemap one part": lambda: viz.param_treemap({EVIL: 5}, {}),
    "contours": lambda: figure(),
    "contours uneven levels": lambda: figure(levels=[2.5, 1.95, 2.1]),
    "contours one level": lambda: figure(levels=[2.2]),
    "contours no frontier no lines no points": lambda: figure(frontier=None, compute_lines=[], points=[]),
    "contours point outside the grid": lambda: figure(points=[(EVIL, 1e6, 1e16)]),
    "contours frontier with zeros": lambda: figure(frontier=(np.array([0.0, 1e9, 1e10]), np.array([1e10, 0.0, 2e11]))),
    "contours translated labels scale 1.5": lambda: figure(
        labels=viz.ScalingLabels(n_axis="参数 N", d_axis=EVIL, loss="损失", frontier="最优"), scale=1.5
    ),
    "page": lambda: page_figure(),
    "page small budget, presentation": lambda: page_figure(19.5, scale=1.5),
    "page budget off the grid": lambda: page_figure(30.0),
    "page no loss function": lambda: page_figure(point_loss=None),
    "page budget only": lambda: page_figure(compute_lines=[], points=KNOWN[:1], allocations=[]),
    "page many allocations": lambda: page_figure(
        allocations=[(f"a{k}", 10 ** (9 + k / 2), 10 ** (11 + k / 3)) for k in range(6)]
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_builder_output_is_a_valid_figure(case):
    assert_valid(CASES[case]())
