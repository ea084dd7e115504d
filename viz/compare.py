"""Two models on one prompt (issue 44): their tokens lined up by the characters they cover, a layer × layer map of a
similarity (linear CKA on a fixed 0…1 scale, head-pattern correlation on a fixed −1…1 scale), and one model's heads
coloured by how well their matched partner in the other model agrees; pure figures from arrays.

CKA (0…1) shares the attention weights' white-to-blue scale, fixed at 0 and 1: white is "nothing in common", dark blue
"the same up to a rotation and scale". A Pearson correlation (head patterns) is signed: the diverging red-blue scale,
fixed at −1 and 1 with white at 0, for the partner grid and the full map alike, so a colour means one number in both
and two prompts stay comparable.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from viz.axes import grid_height
from viz.labels import ENGLISH, Labels, escape, number_text
from viz.palette import ATTENTION_COLORSCALE, BAR, DIVERGING_COLORSCALE, MUTED, base_layout, font_size
from viz.spec import Spec

Span = tuple[int, int]
TOKEN_FILLS = ("#c6dbef", "#9ecae1")  # neighbouring tokens alternate, so a cut between two shows
CHAR_TICKS_MAX = 60  # up to 60 characters the x axis names each one; longer prompts: character numbers (sparse)
BOX_TEXT_MAX = 60  # up to 60 tokens a row each box carries its token's text (hover: always)
CELL_TEXT_MAX = 16  # a map up to 16 × 16 writes its numbers in the cells
HEAD_TEXT_MAX = 12  # a head grid up to 12 heads wide names each partner in its cell


def _num(value: float, spec: str) -> str:
    """number_text without a negative zero: a correlation of −0.001 prints as 0.00, not -0.00."""
    text = number_text(value, spec)
    return text[1:] if text.startswith("-") and not any(d not in "0." for d in text[1:]) else text


def _char(c: str) -> str:
    """A character as the axis shows it: a space as ␣, a newline as ⏎, so the cuts between words show."""
    return {" ": "␣", "\n": "⏎", "\t": "⇥"}.get(c, escape(c))


def token_rows(
    rows: Sequence[tuple[str, Sequence[str], Sequence[Span | None]]],
    text: str,
    *,
    cuts: Sequence[int] = (),
    title: str = "",
    x_title: str = "",
    hover_names: Sequence[str] | None = None,
    scale: float = 1.0,
) -> Spec:
    """One row of boxes per model (name, tokens, spans), each box from its token's first character to past its last,
    so two tokenizers' cuts line up over the same text; `cuts` (character offsets), where the two agree, are dotted
    lines (the page's caption names them: a legend would crowd two rows). A span None (BOS, CLS, SEP) covers no
    character and is left out. name: the row's tick label, short ("A", "B": a phone's width leaves no room for a
    model's name); hover_names (default: the names): each row's full name in its boxes' hover."""
    if not rows:
        raise ValueError("token_rows needs at least one row")
    if hover_names is not None and len(hover_names) != len(rows):
        raise ValueError(f"{len(hover_names)} hover names for {len(rows)} rows")
    spec = Spec(base_layout(scale))
    names = [escape(name) for name, _, _ in rows]
    full = names if hover_names is None else [escape(name) for name in hover_names]
    for r, (name, tokens, spans) in enumerate(rows):
        if len(tokens) != len(spans):
            raise ValueError(f"row {name!r}: {len(tokens)} tokens but {len(spans)} spans")
        kept = [(p, tok, s) for p, (tok, s) in enumerate(zip(tokens, spans, strict=True)) if s is not None]
        starts = [s[0] for _, _, s in kept]
        widths = [max(s[1] - s[0], 0.3) for _, _, s in kept]  # an empty span (a trimmed space) stays visible
        trace = dict(
            type="bar", orientation="h", base=starts, x=widths, y=[names[r]] * len(kept), name=names[r], opacity=0.85,
            marker=dict(color=[TOKEN_FILLS[k % 2] for k in range(len(kept))], line=dict(color=BAR, width=1)),
            customdata=[[p, escape(tok), s[0], s[1] - 1, full[r]] for p, tok, s in kept], showlegend=False,
            hovertemplate="%{customdata[4]} · %{customdata[0]}: <b>%{customdata[1]}</b> "
            "[%{customdata[2]}–%{customdata[3]}]<extra></extra>",
        )  # fmt: skip
        if len(kept) <= BOX_TEXT_MAX:
            trace.update(text=[escape(tok) for _, tok, _ in kept], textposition="inside", insidetextanchor="middle",
                         textangle=0)  # fmt: skip
        spec.add_trace(trace)
    for x in cuts:
        spec.add_shape(type="line", x0=x, x1=x, y0=0, y1=1, yref="paper", line=dict(color=MUTED, dash="dot", width=1))
    reach = max((s[1] for _, _, spans in rows for s in spans if s is not None), default=len(text))
    shown = text[:reach]  # a prompt cut at max_len: the axis ends where the tokens do
    xaxis = dict(title=dict(text=escape(x_title)), range=[0, max(reach, 1)], showgrid=False, zeroline=False)
    if len(shown) <= CHAR_TICKS_MAX:
        ticks = [i + 0.5 for i in range(len(shown))]  # each character's name under its middle
        xaxis.update(
            tickmode="array",
            tickvals=ticks,
            ticktext=[_char(c) for c in shown],
            tickangle=0,
            tickfont=dict(size=round(font_size(scale) * 0.85)),
        )  # upright: rotated, narrow ones collide
    else:  # one label a character would smear into a line: a few character numbers
        xaxis.update(nticks=8)
    spec.update_layout(
        title=dict(text=escape(title)), barmode="overlay", bargap=0.25, xaxis=xaxis,
        yaxis=dict(type="category", autorange="reversed", showgrid=False),
        height=round((110 + 60 * len(rows)) * scale),
    )  # fmt: skip
    return spec


def _unit_trace(z: np.ndarray, x: list[str], y: list[str], hover: list[list[str]], value_name: str,
                scale: float, signed: bool) -> dict:  # fmt: skip
    """A heatmap, NaN blank, hover per cell: signed (a correlation), the diverging scale fixed at −1…1 with white at 0;
    else the fixed 0…1 scale (below 0: the scale starts at the minimum)."""
    finite = z[np.isfinite(z)]
    low = -1.0 if signed else (min(0.0, float(finite.min())) if finite.size else 0.0)
    bar = dict(title=dict(text=escape(value_name)), thickness=round(14 * scale))
    if signed:
        bar.update(tickvals=[-1.0, -0.5, 0.0, 0.5, 1.0], ticktext=["−1", "−0.5", "0", "0.5", "1"])
    trace = dict(
        type="heatmap", z=np.where(np.isfinite(z), z, np.nan), x=x, y=y, zmin=low, zmax=1.0,
        colorscale=DIVERGING_COLORSCALE if signed else ATTENTION_COLORSCALE, customdata=hover,
        hovertemplate="%{customdata}<extra></extra>", colorbar=bar, xgap=1, ygap=1,
    )  # fmt: skip
    if z.shape[0] <= CELL_TEXT_MAX and z.shape[1] <= CELL_TEXT_MAX:
        trace.update(text=[[_num(v, ".2f") for v in row] for row in z], texttemplate="%{text}",
                     textfont=dict(size=round(font_size(scale) * 0.9)))  # fmt: skip
    return trace


def unit_map(
    z: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    value_name: str,
    note: str = "",
    signed: bool = False,
    scale: float = 1.0,
) -> Spec:
    """A [rows, cols] map of a similarity (CKA between two models' layers, 0…1; signed: a correlation, −1…1, such as
    head-pattern similarity): rows are model A's (top down), columns model B's; `note` (the shuffled baseline) closes
    every hover."""
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2 or z.size == 0 or z.shape != (len(rows), len(cols)):
        raise ValueError(f"map of shape {z.shape} with {len(rows)} row and {len(cols)} column names")
    y, x = [escape(r) for r in rows], [escape(c) for c in cols]
    tail = f"<br>{escape(note)}" if note else ""
    hover = [[f"{escape(y_title)}: {y[i]} · {escape(x_title)}: {x[j]}<br>{escape(value_name)}: "
              f"{_num(z[i, j], '.3f')}{tail}" for j in range(len(x))] for i in range(len(y))]  # fmt: skip
    spec = Spec(base_layout(scale)).add_trace(_unit_trace(z, x, y, hover, value_name, scale, signed))
    spec.update_layout(
        title=dict(text=escape(title)), height=grid_height(len(y) + 4, scale),
        xaxis=dict(type="category", title=dict(text=escape(x_title)), showgrid=False, ticks=""),
        yaxis=dict(type="category", title=dict(text=escape(y_title)), showgrid=False, ticks="", autorange="reversed"),
    )  # fmt: skip
    return spec


def partner_grid(
    similarity: np.ndarray,
    partners: Sequence[Sequence[str]],
    *,
    title: str,
    value_name: str,
    partner_name: str,
    none_name: str,
    layers: Sequence[int] | None = None,
    labels: Labels = ENGLISH,
    scale: float = 1.0,
) -> Spec:
    """Model A's heads (layers down, heads across), each coloured by the similarity (a correlation: the −1…1 scale of
    unit_map(signed=True)) to the head of model B it was matched with, that partner named in the cell and the hover;
    "" partner (B has fewer heads): blank, none_name.
    layers: the model's layer number (0-based) of each row, where only some layers attend by softmax (Qwen3.5)."""
    z = np.asarray(similarity, dtype=np.float64)
    if z.ndim != 2 or z.size == 0 or len(partners) != z.shape[0] or any(len(p) != z.shape[1] for p in partners):
        raise ValueError(f"similarity of shape {z.shape} needs as many partner names")
    n_layers, n_heads = z.shape
    numbers = [i + 1 for i in (range(n_layers) if layers is None else layers)]
    if len(numbers) != n_layers:
        raise ValueError(f"{len(numbers)} layer numbers for {n_layers} rows")
    rows = [f"{escape(labels.layer)} {i}" for i in numbers]
    cols = [f"H{h + 1}" for h in range(n_heads)]
    names = [[escape(p) if p else escape(none_name) for p in row] for row in partners]
    hover = [[f"L{numbers[i]}H{h + 1} → {escape(partner_name)} {names[i][h]}<br>{escape(value_name)}: "
              f"{_num(z[i, h], '.3f')}" for h in range(n_heads)] for i in range(n_layers)]  # fmt: skip
    trace = _unit_trace(z, cols, rows, hover, value_name, scale, signed=True)
    if n_heads <= HEAD_TEXT_MAX:  # the partner's name over its similarity
        trace.update(text=[[f"{n}<br>{_num(v, '.2f')}" for n, v in zip(nr, zr, strict=True)]
                           for nr, zr in zip(names, z, strict=True)], texttemplate="%{text}")  # fmt: skip
    else:
        for key in ("text", "texttemplate", "textfont"):
            trace.pop(key, None)
    spec = Spec(base_layout(scale)).add_trace(trace)
    spec.update_layout(
        title=dict(text=escape(title)), height=grid_height(n_layers + 4, scale),
        xaxis=dict(type="category", title=dict(text=escape(labels.head)), showgrid=False, ticks=""),
        yaxis=dict(type="category", showgrid=False, ticks="", autorange="reversed"),
    )  # fmt: skip
    return spec


def layer_max(similarity: np.ndarray, shape_a: tuple[int, int], shape_b: tuple[int, int]) -> np.ndarray:
    """[La·Ha, Lb·Hb] head similarities -> [La, Lb]: the best-agreeing pair of heads of each pair of layers (a large
    model's head × head map has more cells than a screen has pixels)."""
    (la, ha), (lb, hb) = shape_a, shape_b
    return np.asarray(similarity, dtype=np.float64).reshape(la, ha, lb, hb).max(axis=(1, 3))
