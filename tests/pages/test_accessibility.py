"""Accessibility: every attention heatmap can also be read as a table of exact numbers (a screen
reader cannot read a Plotly picture), and the palettes carry their meaning in lightness, so they hold
for colour-vision deficiencies and in greyscale."""

from itertools import pairwise

import numpy as np
import pytest

from tests.pages.apptest import array, heatmaps, open_app, table
from viz import palette


def test_tables_switch_adds_the_exact_weights_under_the_heatmap():
    at = open_app("explorer", tables="1", prompt="the cats are happy .")
    rows = table(at)
    heat = heatmaps(at)[0]
    z = array(heat["z"])
    header = "query ↓ key →"
    assert rows[header] == [f"{i} {tok}" for i, tok in enumerate(["[BOS]", "the", "␣cats", "␣are", "␣happy", "␣."])]
    numbers = np.array([[float(rows[c][i]) for c in list(rows)[1:]] for i in range(len(rows[header]))])
    np.testing.assert_allclose(numbers, np.nan_to_num(z), atol=5e-4)  # the same weights, 3 decimals
    np.testing.assert_allclose(numbers.sum(1), 1, atol=5e-3)  # rows of attention sum to 1
    assert not open_app("explorer", prompt="the cats are happy .").table  # off by default


@pytest.mark.parametrize("page", ["masks", "softmax", "translate", "lab"])
def test_other_attention_heatmaps_have_tables_too(page):
    assert open_app(page, tables="1").table


def _lightness(hex_colour: str) -> float:
    """CIELAB L* of an sRGB colour: the lightness a reader perceives whatever their colour vision."""
    rgb = np.array([int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)])
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    y = lin @ np.array([0.2126, 0.7152, 0.0722])
    return 116 * np.cbrt(y) - 16 if y > 216 / 24389 else 24389 / 27 * y


def test_the_attention_scale_gets_darker_at_every_step():
    """Sequential and single-hue: more weight is always darker (ColorBrewer Blues)."""
    lightness = [_lightness(c) for _, c in palette.ATTENTION_COLORSCALE]
    assert all(a > b for a, b in pairwise(lightness)), lightness
    assert lightness[0] == pytest.approx(100) and lightness[-1] < 25


def test_the_diverging_scale_is_white_at_zero_and_darker_towards_both_ends():
    lightness = [_lightness(c) for _, c in palette.DIVERGING_COLORSCALE]
    middle = len(lightness) // 2
    assert lightness[middle] == pytest.approx(100)
    assert all(a < b for a, b in pairwise(lightness[: middle + 1]))
    assert all(a > b for a, b in pairwise(lightness[middle:]))
