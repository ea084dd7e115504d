"""User-visible words arrive as a Labels (pages pass a translated one), and token text is escaped.

Plotly renders a subset of HTML in tick labels, hover text and annotations: a token such as
"<b>" or "<br>" would change the picture instead of showing up. Every token we draw goes through
escape(), so what the model saw is exactly what the student sees.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Labels:
    """Words the figures show (axis titles, hover, legends). English defaults; pages pass a translation."""

    query: str = "query"
    key: str = "key"
    weight: str = "weight"
    layer: str = "layer"
    head: str = "head"
    allowed: str = "may attend"
    blocked: str = "masked"
    position: str = "position"
    change: str = "max |Δ hidden|"
    unchanged: str = "unchanged"
    changed: str = "changed"


ENGLISH = Labels()  # the default for every figure (a frozen instance, safe to share)


def escape(text: str) -> str:
    """Make text show literally in Plotly: '&' -> '&amp;', '<' -> '&lt;', '>' -> '&gt;'."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def axis_labels(tokens: list[str]) -> list[str]:
    """Unique category-axis labels "i token".

    A category axis merges equal labels, and prompts repeat tokens ("the ... the"); the position
    prefix keeps every row apart and also reminds the student that position is part of the input.
    """
    return [f"{i} {escape(tok)}" for i, tok in enumerate(tokens)]
