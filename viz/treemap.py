"""param_treemap(): where a model's parameters sit, as nested tiles with area = count.

It shows that in a small model the embeddings, not attention, hold most of the weights, and that
grouped-query attention shrinks K and V. The page counts the parameters; this only draws.
"""

from __future__ import annotations

from viz.labels import escape, short_count
from viz.palette import HEAD_COLORS, INK, base_layout, font_size
from viz.spec import Spec

TREEMAP_HEIGHT_PX = 380

ROOT_ID = "root"  # id of the total's tile, and the key of its label in `names`

ROOT_COLOR = "#f4f4f4"

CHILD_TINT = (0.2, 0.55)  # children of a component: its colour mixed with this much white, first..last child


def _hex_rgb(color: str) -> tuple[int, int, int]:
    h = color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _tint(color: str, white: float) -> str:
    """color mixed with `white` (0..1) parts of white: Q, K, V and O are shades of attention's colour."""
    r, g, b = (round(c + (255 - c) * white) for c in _hex_rgb(color))
    return f"#{r:02x}{g:02x}{b:02x}"


def _text_color(color: str) -> str:
    """Dark ink on light tiles, white on dark ones (WCAG relative luminance)."""

    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in _hex_rgb(color))
    return INK if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.3 else "white"


def _split_id(part: str) -> tuple[str, str | None]:
    """'attention.q' -> ('attention', 'q'); 'ffn' -> ('ffn', None). One level of nesting."""
    segments = part.split(".")
    if len(segments) > 2 or not all(segments):
        raise ValueError(f"part id {part!r} must be 'name' or 'parent.child' (one dot, no empty names)")
    return segments[0], (segments[1] if len(segments) == 2 else None)


def param_treemap(parts: dict[str, int], names: dict[str, str], title: str = "", scale: float = 1.0) -> Spec:
    """Parameter counts as nested tiles, area = count: which part of the model is big.

    parts maps ids to counts; "attention.q" is child "q" of "attention", whose tile is the sum of
    its children (branchvalues="total"); a root tile holds the total. Parts with 0 parameters (an
    output head tied to the embeddings) are left out, but the colours follow the order of the
    top-level ids in parts, zeros included, so a component keeps its colour from model to model.
    names gives each tile's label: the full id, else (for a child) its last segment, else the id
    itself; names["root"] labels the total. Tiles read "label, 131K, 38.1%" (of the total); hover
    gives the exact count.
    """
    top_order: list[str] = []
    children: dict[str, list[tuple[str, int]]] = {}
    leaves: dict[str, int] = {}
    for part, count in parts.items():
        if part.split(".")[0] == ROOT_ID:
            raise ValueError(f"part id {part!r}: {ROOT_ID!r} is reserved for the total")
        if int(count) < 0:
            raise ValueError(f"part {part!r} has a negative parameter count ({count})")
        parent, child = _split_id(part)
        if parent not in top_order:
            top_order.append(parent)
        if child is None:
            leaves[part] = int(count)
        else:
            children.setdefault(parent, []).append((part, int(count)))
    both = sorted(set(leaves) & set(children))
    if both:
        raise ValueError(f"{both} given both as a part and as a parent of parts: give only the children")
    total = sum(int(c) for c in parts.values())
    if total <= 0:
        raise ValueError("every part has 0 parameters: nothing to draw")

    def label(part: str) -> str:
        child = part.rsplit(".", 1)[-1]
        return escape(names.get(part, names.get(child, child) if "." in part else part))

    ids, parents, labels, values, colors = [ROOT_ID], [""], [label(ROOT_ID)], [total], [ROOT_COLOR]
    for i, top in enumerate(top_order):
        color = HEAD_COLORS[i % 10]  # the ten dark category10 colours; children get lighter shades
        kids = [(p, c) for p, c in children.get(top, []) if c > 0]
        count = leaves.get(top, sum(c for _, c in kids))
        if count == 0:
            continue
        ids.append(escape(top))  # ids are never shown, but they travel in the page's JSON
        parents.append(ROOT_ID)
        labels.append(label(top))
        values.append(count)
        colors.append(color)
        for k, (part, c) in enumerate(kids):
            lo, hi = CHILD_TINT
            ids.append(escape(part))
            parents.append(escape(top))
            labels.append(label(part))
            values.append(c)
            colors.append(_tint(color, lo + (hi - lo) * k / max(1, len(kids) - 1)))
    has_kids = set(parents)
    pct = [f"{100 * v / total:.1f}%" for v in values]
    # Plotly writes only the label in a parent's header (texttemplate is for tiles without children),
    # so a parent's label carries its numbers, on one line; a leaf's text stacks them to fit a narrow tile.
    shown = [
        f"{lab} · {short_count(v)} · {p}" if i in has_kids else lab
        for i, lab, v, p in zip(ids, labels, values, pct, strict=True)
    ]
    text = [f"{lab}<br>{short_count(v)}<br>{p}" for lab, v, p in zip(labels, values, pct, strict=True)]
    fs = font_size(scale)
    trace = dict(
        type="treemap",
        ids=ids,
        parents=parents,
        labels=shown,
        values=values,
        branchvalues="total",
        text=text,
        texttemplate="%{text}",
        textfont=dict(size=fs, color=[_text_color(c) for c in colors]),
        customdata=[[lab, f"{v:,}", p] for lab, v, p in zip(labels, values, pct, strict=True)],
        hovertemplate="<b>%{customdata[0]}</b><br>%{customdata[1]}<br>%{customdata[2]}<extra></extra>",
        marker=dict(colors=colors, line=dict(color="white", width=max(1, round(1.5 * scale)))),
        tiling=dict(pad=round(2 * scale)),
        pathbar=dict(visible=False),  # the root tile's header already says what you are in
    )
    layout = base_layout(scale)
    small = round(4 * scale)
    layout.update(
        margin=dict(l=small, r=small, b=small, t=round(40 * scale) if title else small),
        height=round(TREEMAP_HEIGHT_PX * scale),
        uniformtext=dict(minsize=max(8, round(fs * 0.7)), mode="hide"),  # no text in a tile too small to read it
    )
    if title:
        layout["title"] = {**layout["title"], "text": escape(title)}
    return Spec.of([trace], layout)
