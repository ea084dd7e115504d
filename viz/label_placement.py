"""Where scaling_contours puts its text: iso-compute labels at the ends of their lines, and each
model's number on a short leader line, clear of every marker and of each other.

Plotly draws text in px at a fixed size, while the page decides the width, so a label that clears
its neighbours on a wide screen can sit on them on a phone. Boxes are estimated here (a browser
would measure) and placed to fit several assumed plot sizes at once.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass

# Plot areas (width, height at scale 1) in px at figure widths 420 (a phone), 700 and 1400 with the
# legend below: labels are placed to fit all three, as the page, not the figure, sets the width.
PLOT_AREAS_PX = ((340, 285), (620, 375), (1320, 405))

NUMBER_RADII_PX = (20, 30, 42, 56)  # a model's number, this far from its dot (at scale 1)

NUMBER_ANGLES = (45, 135, -45, -135, 90, -90, 0, 180)  # degrees counter-clockwise from "right", preferred first

NUMBER_PAD_PX = 3  # inside a number's box, border included

LABEL_PAD_PX = 2  # inside an iso-compute label's box

LABEL_GAP_PX = 3  # between an iso-compute line and its label

LABEL_STEPS = (0.0, 0.08, 0.16, 0.24)  # an iso-compute label's anchor, this far in from an end of its line

LINE_HEIGHT = 1.3  # a line of text, in font sizes

CHAR_WIDTH = 0.6  # an average Latin glyph, in font sizes; label boxes are estimated, a browser would measure

CJK_START = 0x2E80  # from here on (CJK, kana, hangul, fullwidth forms) a glyph is a full em wide


Box = tuple[float, float, float, float]  # left, top, right, bottom in px


@dataclass(frozen=True)
class View:
    """The plot area at one assumed size in px, y pointing down.

    Plotly draws text in px at a fixed size, while the page decides the width, so a label that
    clears its neighbours on a wide screen can sit on them on a phone. Labels are placed so that
    they fit every view in PLOT_AREAS_PX."""

    width: float
    height: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    def px(self, x: float, y: float) -> tuple[float, float]:
        (x0, x1), (y0, y1) = self.x_range, self.y_range
        return (x - x0) / (x1 - x0) * self.width, (y1 - y) / (y1 - y0) * self.height

    def inside(self, box: Box) -> bool:
        return box[0] >= 0 and box[1] >= 0 and box[2] <= self.width and box[3] <= self.height


def boxes_overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def square_box(x: float, y: float, half: float) -> Box:
    return (x - half, y - half, x + half, y + half)


def _crosses(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Segments pq and rs cross (touching ends do not count)."""

    def side(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def text_px(text: str, size: float) -> float:
    """Estimated width of one line of label text in px: Latin glyphs average CHAR_WIDTH of the font
    size, CJK ones a full em. Tags and entities of the escaped text count as what they show."""
    plain = html.unescape(re.sub(r"<[^>]*>", "", text))
    return size * sum(1.0 if ord(ch) >= CJK_START else CHAR_WIDTH for ch in plain)


def line_label_spots(intercept: float, x0: float, x1: float, x_range: list[float]) -> list[dict]:
    """Where an iso-compute label may go, best first: at the upper-left end of the line (where it
    enters the plot at the left or top edge), at its lower-right end, then a little way in from
    either end (LABEL_STEPS of the visible part); never in the middle, where the models and the
    compute-optimal line are.

    A line of slope -1 leaves free the quadrant above-right and the one below-left of each of its
    points, so a label anchored there by its corner touches the line at that corner and the line
    never runs through its text, whatever the plot's aspect ratio. At the left or bottom edge only
    above-right lies inside the plot, at the top or right edge only below-left; inside, both."""
    spots = []
    for t in LABEL_STEPS:
        for x, low_end in ((x0 + t * (x1 - x0), False), (x1 - t * (x1 - x0), True)):
            on_side_edge = math.isclose(x0 if not low_end else x1, x_range[1] if low_end else x_range[0])
            inner = on_side_edge != low_end  # above-right at the left edge or the bottom edge
            for above_right in (inner,) if t == 0 else (inner, not inner):
                gap = LABEL_GAP_PX if above_right else -LABEL_GAP_PX
                spots.append(
                    dict(
                        x=x,
                        y=intercept - x,
                        xanchor="left" if above_right else "right",
                        yanchor="bottom" if above_right else "top",
                        xshift=gap,
                        yshift=gap,
                    )
                )
    return spots


def anchored_box(view: View, spot: dict, w: float, h: float, scale: float) -> Box:
    """The px box of an annotation anchored at one corner (xanchor/yanchor) with xshift/yshift."""
    x, y = view.px(spot["x"], spot["y"])
    x += spot["xshift"] * scale
    y -= spot["yshift"] * scale  # Plotly's yshift points up
    left = x if spot["xanchor"] == "left" else x - w
    top = y - h if spot["yanchor"] == "bottom" else y
    return (left, top, left + w, top + h)


def place_line_labels(
    lines: list[tuple[str, float, float, float]],
    views: list[View],
    markers: list[list[Box]],
    size: float,
    scale: float,
) -> tuple[list[dict], list[list[Box]]]:
    """One spot per iso-compute line (text, intercept, x0, x1), in order, and each view's label boxes.

    Of the spots that fit inside the plot in every view, the first that covers no marker and no
    earlier label wins, else the first that fits, else the first."""
    spots: list[dict] = []
    boxes: list[list[Box]] = [[] for _ in views]
    for text, intercept, x0, x1 in lines:
        w = text_px(text, size) + 2 * LABEL_PAD_PX * scale
        h = LINE_HEIGHT * size + 2 * LABEL_PAD_PX * scale
        options = line_label_spots(intercept, x0, x1, views[0].x_range)
        placed = [[anchored_box(v, o, w, h, scale) for v in views] for o in options]
        fits = [k for k, per_view in enumerate(placed) if all(map(View.inside, views, per_view))]
        free = [
            k
            for k in fits
            if not any(
                boxes_overlap(box, b)
                for box, taken, marks in zip(placed[k], boxes, markers, strict=True)
                for b in taken + marks
            )
        ]
        best = (free or fits or [0])[0]
        spots.append(options[best])
        for taken, box in zip(boxes, placed[best], strict=True):
            taken.append(box)
    return spots, boxes


def _number_cost(
    i: int,
    box: tuple[float, float],
    off: tuple[float, float],
    views: list[View],
    centres: list[list[tuple[float, float]]],
    markers: list[list[Box]],
    labels: list[list[Box]],
    placed: list[list[tuple[Box, tuple[float, float], tuple[float, float]]]],
) -> float:
    """Cost of point i's number at px offset off, box = (half width, half height), summed over the views."""
    total = 0.0
    for v, c, marks, texts, done in zip(views, centres, markers, labels, placed, strict=True):
        p = c[i]
        q = (p[0] + off[0], p[1] + off[1])
        rect = (q[0] - box[0], q[1] - box[1], q[0] + box[0], q[1] + box[1])
        total += 0 if v.inside(rect) else 100
        total += 10 * sum(boxes_overlap(rect, b) for b in [*marks, *texts, *(b for b, _, _ in done)])
        total += 3 * sum(_crosses(p, q, a, b) for _, a, b in done)
        along = [(p[0] + (q[0] - p[0]) * k / 8, p[1] + (q[1] - p[1]) * k / 8) for k in range(2, 8)]
        total += 2 * sum(
            any(m[0] <= a[0] <= m[2] and m[1] <= a[1] <= m[3] for a in along) for j, m in enumerate(marks) if j != i
        )
    return total


def number_offsets(
    xy: list[tuple[float, float]],
    tags: list[str],
    views: list[View],
    markers: list[list[Box]],
    labels: list[list[Box]],
    size: float,
    scale: float,
) -> list[tuple[float, float]]:
    """Pixel offset (ax, ay; ay down) of each point's number from its point, tied to it by a line.

    Greedy, most crowded point first: of the candidates (NUMBER_RADII_PX x NUMBER_ANGLES) the one with
    the lowest cost summed over the views, where a box outside the plot costs most, then a box on a
    marker, an iso-compute label or an earlier number, then a leader line across an earlier one or
    through a marker; ties go to the nearer radius and the earlier-listed direction. markers[v] are
    the boxes of the points (in order) and any other markers, labels[v] the iso-compute labels."""
    candidates = [
        (r * scale * math.cos(math.radians(a)), -r * scale * math.sin(math.radians(a)))
        for r in NUMBER_RADII_PX
        for a in NUMBER_ANGLES
    ]
    centres = [[v.px(x, y) for x, y in xy] for v in views]
    reach = NUMBER_RADII_PX[-1] * scale
    crowd = [sum(math.dist(c[i], q) < reach for c in centres for q in c) for i in range(len(xy))]
    placed: list[list[tuple[Box, tuple[float, float], tuple[float, float]]]] = [[] for _ in views]  # box, leader
    chosen: dict[int, tuple[float, float]] = {}
    for i in sorted(range(len(xy)), key=lambda k: -crowd[k]):
        half = (text_px(tags[i], size) / 2 + NUMBER_PAD_PX * scale, LINE_HEIGHT * size / 2 + NUMBER_PAD_PX * scale)
        costs = [_number_cost(i, half, off, views, centres, markers, labels, placed) for off in candidates]
        off = candidates[costs.index(min(costs))]  # the first of equal costs
        chosen[i] = off
        for c, done in zip(centres, placed, strict=True):
            p = c[i]
            q = (p[0] + off[0], p[1] + off[1])
            done.append(((q[0] - half[0], q[1] - half[1], q[0] + half[0], q[1] + half[1]), p, q))
    return [chosen[i] for i in range(len(xy))]
