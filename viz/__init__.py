"""viz: pure figure functions, numpy arrays + labels -> a Spec (a plain-dict Plotly figure). No streamlit,
no torch. Pages draw a Spec with ui.charts.plot(where, spec), the one place that hands figures to Streamlit.

Every figure takes scale (1.0 on screen, about 1.5 on a projector) and a Labels with the words
it shows, so pages choose the language and size; every token drawn is HTML-escaped.
"""

# Plotly checks for pandas lazily, through sys.modules: when the first sessions of a fresh server
# built figures in parallel, one thread saw another's half-imported pandas and raised
# "partially initialized module 'pandas' has no attribute 'Series'" (bench/load.py, 40 sessions).
# Importing it here, before any figure, makes every thread wait for the finished module.
import pandas  # noqa: F401  (isort: keep first)

from viz.attention import heads_grid, heatmap, mask_heatmap
from viz.bars import bars
from viz.change import change_bars
from viz.check import check_attention
from viz.export import attention_csv, attention_json
from viz.forming import forming_scores
from viz.generation import kv_cache
from viz.head_view import head_view
from viz.histograms import histograms
from viz.labels import ENGLISH, Labels, ScalingLabels, axis_labels, escape, short_count
from viz.lens import lens_table
from viz.lines import Series, lines
from viz.long_heatmap import (
    LONG_TOKENS,
    ZOOM_MAX,
    Region,
    box_region,
    clamp_region,
    is_long,
    long_heatmap,
    zoom_heatmap,
)
from viz.matrices import head_rows, signed_map, value_heatmap
from viz.moe import expert_load, router_choices
from viz.neuron import NeuronWords, neuron_bars
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
from viz.patching import estimate_scatter, head_names, interval_bars, signed_cells, token_cells
from viz.roles import ROLE_COLORS, qk_scatter, role_grid, role_table
from viz.scaling import scaling_contours
from viz.softcap import softcap_curve
from viz.tokens import token_strip
from viz.treemap import param_treemap
from viz.vectors import Arrow, plane_vectors

__all__ = [
    "ATTENTION_COLORSCALE",
    "BAR",
    "CHANGED",
    "DIVERGING_COLORSCALE",
    "ENGLISH",
    "HEAD_COLORS",
    "HIGHLIGHT",
    "LONG_TOKENS",
    "MASK_COLORS",
    "MASK_KIND_COLORS",
    "ROLE_COLORS",
    "UNCHANGED",
    "WEIGHT_DASH",
    "ZOOM_MAX",
    "Arrow",
    "Labels",
    "NeuronWords",
    "Region",
    "ScalingLabels",
    "Series",
    "attention_csv",
    "attention_json",
    "axis_labels",
    "bars",
    "base_layout",
    "box_region",
    "change_bars",
    "check_attention",
    "clamp_region",
    "escape",
    "estimate_scatter",
    "expert_load",
    "font_size",
    "forming_scores",
    "head_color",
    "head_names",
    "head_rows",
    "head_view",
    "heads_grid",
    "heatmap",
    "histograms",
    "interval_bars",
    "is_long",
    "kv_cache",
    "lens_table",
    "lines",
    "long_heatmap",
    "mask_heatmap",
    "neuron_bars",
    "param_treemap",
    "plane_vectors",
    "qk_scatter",
    "role_grid",
    "role_table",
    "router_choices",
    "scaling_contours",
    "short_count",
    "signed_cells",
    "signed_map",
    "softcap_curve",
    "token_cells",
    "token_strip",
    "value_heatmap",
    "zoom_heatmap",
]
