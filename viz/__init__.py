"""viz: pure figure functions, numpy arrays + labels -> plotly Figure. No streamlit, no torch.

Every figure takes scale (1.0 on screen, about 1.5 on a projector) and a Labels with the words
it shows, so pages choose the language and size; every token drawn is HTML-escaped.
"""

# Plotly checks for pandas lazily, through sys.modules: when the first sessions of a fresh server
# built figures in parallel, one thread saw another's half-imported pandas and raised
# "partially initialized module 'pandas' has no attribute 'Series'" (bench/load.py, 40 sessions).
# Importing it here, before any figure, makes every thread wait for the finished module.
import pandas  # noqa: F401  (isort: keep first)

from viz.anatomy import ScalingLabels, param_treemap, scaling_contours, short_count
from viz.attention import heads_grid, heatmap, mask_heatmap
from viz.change import change_bars
from viz.check import check_attention
from viz.export import attention_csv, attention_json
from viz.generation import kv_cache
from viz.head_view import head_view
from viz.labels import ENGLISH, Labels, axis_labels, escape
from viz.palette import (
    ATTENTION_COLORSCALE,
    BAR,
    CHANGED,
    DIVERGING_COLORSCALE,
    HEAD_COLORS,
    HIGHLIGHT,
    MASK_COLORS,
    MASK_KIND_COLORS,
    UNCHANGED,
    WEIGHT_DASH,
    base_layout,
    font_size,
    head_color,
)
from viz.plots import Arrow, Series, bars, histograms, lines, plane_vectors, value_heatmap
from viz.tokens import token_strip

__all__ = [
    "ATTENTION_COLORSCALE",
    "BAR",
    "CHANGED",
    "DIVERGING_COLORSCALE",
    "ENGLISH",
    "HEAD_COLORS",
    "HIGHLIGHT",
    "MASK_COLORS",
    "MASK_KIND_COLORS",
    "UNCHANGED",
    "WEIGHT_DASH",
    "Arrow",
    "Labels",
    "ScalingLabels",
    "Series",
    "attention_csv",
    "attention_json",
    "axis_labels",
    "bars",
    "base_layout",
    "change_bars",
    "check_attention",
    "escape",
    "font_size",
    "head_color",
    "head_view",
    "heads_grid",
    "heatmap",
    "histograms",
    "kv_cache",
    "lines",
    "mask_heatmap",
    "param_treemap",
    "plane_vectors",
    "scaling_contours",
    "short_count",
    "token_strip",
    "value_heatmap",
]
