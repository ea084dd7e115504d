"""The measured parts of "What differs" (lessons/explorer_differs.py): CKA between the two residual streams, heads
matched across the models, the field guide's roles of both and both logit lenses (A above B, each at full width).
Split from the section's entry to keep each file readable; every part reads cached results only
(ui/differs_loaders.py, ui/head_loaders.py)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import streamlit as st

import models
import viz
from models.inspection import compare
from models.inspection.heads import ROLE_THRESHOLDS, ROLES, label_heads
from ui import charts
from ui.differs_loaders import comparison, lens_tail
from ui.differs_text import best_pairs, cka_reading, has_linear_layers, head_kind, head_names, layer_names, role_summary
from ui.head_loaders import head_roles
from ui.i18n import md, t, viz_labels
from ui.loaders import with_status
from viz.compare import layer_max, partner_grid, unit_map

HEADS_MAX = 64  # up to 64 heads a model, the head × head similarity map is drawn; more: layer × layer best pairs
BEST_PAIRS = 5  # the best matched pairs named in words
LENS_WINDOW = 12  # the last positions of each logit lens (each drawn at the page's full width)


@dataclass(frozen=True)
class Pair:
    """The two models of the section and what every part needs to draw them."""

    name_a: str
    weights_a: str
    name_b: str
    weights_b: str
    text: str
    scale: float
    who_a: str
    who_b: str
    model_a: models.LiveModel
    model_b: models.LiveModel

    def by_side(self) -> tuple[tuple[str, str], tuple[str, str], tuple[str, str]]:
        """(names, weights, labels), each (A's, B's): zip them with st.columns(2), or draw A above B."""
        return (self.name_a, self.name_b), (self.weights_a, self.weights_b), (self.who_a, self.who_b)

    def model(self, side: str) -> models.LiveModel:
        return self.model_a if side == "a" else self.model_b


def comparison_or_message(pair: Pair):
    """compare.compare of the two cached traces, or None after a message saying why it cannot be computed."""
    args = (pair.name_a, pair.weights_a, pair.name_b, pair.weights_b, pair.text)
    try:
        return with_status(t("explorer_differs.computing"), comparison, *args)
    except ValueError as e:
        st.warning(t("explorer_differs.failed", error=md(e)))
        return None


def cka_part(pair: Pair, cmp) -> None:
    """Linear CKA of every layer of A against every layer of B over the shared spans, with its shuffled baseline."""
    st.markdown(f"#### {t('explorer_differs.cka_title')}")
    cka, base, n = cmp.cka, float(cmp.cka_baseline), len(cmp.shared.spans)
    left, right = st.columns([3, 1])
    fig = unit_map(
        cka,
        layer_names(cka.shape[0]),
        layer_names(cka.shape[1]),
        title=t("explorer_differs.cka_fig"),
        x_title=pair.who_b,
        y_title=pair.who_a,
        value_name="CKA",
        note=t("explorer_differs.baseline_note", base=f"{base:.3f}"),
        scale=pair.scale,
    )
    charts.plot(left, fig, key="differs_cka")
    if cmp.n_shared > n:  # a long prompt: its last spans (compare.MAX_SPANS), said once, over the CKA map and the heads
        st.caption(t("explorer_differs.spans_cut", n=n, total=cmp.n_shared))
    right.metric(t("explorer_differs.baseline"), f"{base:.3f}")
    right.markdown(t("explorer_differs.cka_read", n=n, base=f"{base:.3f}", **cka_reading(cka, base)))
    shuffles = inspect.signature(compare.cka_baseline).parameters["n_perm"].default
    st.caption(t("explorer_differs.cka_caption", n=n, shuffles=shuffles))
    if "encoder-decoder" in (pair.model_a.config.arch, pair.model_b.config.arch):
        st.caption(t("explorer_differs.encoder_side"))


def heads_part(pair: Pair, cmp) -> None:
    """A's heads coloured by their Hungarian partner's similarity, the best pairs in words, the similarity map."""
    st.markdown(f"#### {t('explorer_differs.heads_title')}")
    match = cmp.heads
    z, partner_names = match.partner_grid()
    fig = partner_grid(
        z,
        partner_names,
        title=t("explorer_differs.partners_fig", a=pair.who_a, b=pair.who_b),
        value_name=t("explorer_differs.similarity"),
        partner_name="B",
        none_name=t("explorer_differs.no_partner"),
        layers=match.layers_a,
        labels=viz_labels(),
        scale=pair.scale,
    )
    charts.plot(st, fig, key="differs_partners")
    words = best_pairs(match.pairs, BEST_PAIRS)
    n_a, n_b = (r * h for r, h in (match.shape_a, match.shape_b))
    st.markdown(t("explorer_differs.best_pairs", pairs=words, matched=len(match.pairs), n_a=n_a, n_b=n_b))
    if n_a != n_b:
        st.markdown(
            t("explorer_differs.unequal", n_a=n_a, n_b=n_b, left=abs(n_a - n_b), side="A" if n_a > n_b else "B")
        )
    sim = match.similarity
    axes = dict(x_title=pair.who_b, y_title=pair.who_a, value_name=t("explorer_differs.similarity"), signed=True)
    if n_a <= HEADS_MAX and n_b <= HEADS_MAX:
        names_a, names_b = head_names(match.layers_a, match.shape_a[1]), head_names(match.layers_b, match.shape_b[1])
        fig = unit_map(sim, names_a, names_b, title=t("explorer_differs.sim_fig"), scale=pair.scale, **axes)
        note = ""
    else:
        rows = [f"L{layer + 1}" for layer in match.layers_a]
        cols = [f"L{layer + 1}" for layer in match.layers_b]
        best_of = layer_max(sim, match.shape_a, match.shape_b)
        fig = unit_map(best_of, rows, cols, title=t("explorer_differs.sim_layers_fig"), scale=pair.scale, **axes)
        note = t(
            "explorer_differs.sim_aggregated",
            n_a=n_a,
            n_b=n_b,
            la=len(rows),
            lb=len(cols),
            most=HEADS_MAX,
        )
    charts.plot(st, fig, key="differs_head_sim")
    st.caption(t("explorer_differs.heads_caption", n=len(cmp.shared.spans)) + (" " + note if note else ""))
    if has_linear_layers(pair.model_a) or has_linear_layers(pair.model_b):
        st.caption(t("explorer_differs.heads_linear"))


def roles_part(pair: Pair) -> None:
    """The field guide's role of every head of both models, A's grid above B's (each at the page's full width: a
    12-head grid in half a column overlaps its labels), with who has induction heads and where."""
    st.markdown(f"#### {t('explorer_differs.roles_title')}")
    role_names = {r: t(f"heads.role.{r}") for r in ROLES}
    for side, name, weights, label in zip("ab", *pair.by_side(), strict=True):
        st.markdown(f"##### {md(label)}")
        if has_linear_layers(pair.model(side)):
            st.info(t("explorer_differs.roles_linear"))
            continue
        scores = with_status(t("heads.computing", name=md(name)), head_roles, name, weights)
        roles = label_heads(scores)
        n_induction = int((roles == "induction").sum())
        st.markdown(t("explorer_differs.induction", n=n_induction) + " " + role_summary(roles, role_names))
        grid = viz.role_grid(
            roles,
            scores,
            role_names,
            none_name=t("heads.none"),
            title=t("heads.grid_title"),
            scale=pair.scale,
            labels=viz_labels(),
        )
        charts.plot(st, grid, key=f"differs_roles_{side}")
    st.caption(t("explorer_differs.roles_caption", threshold=f"{ROLE_THRESHOLDS['induction']:.2f}"))


def lens_part(pair: Pair) -> None:
    """Both models' logit lens over the prompt's last positions, A's table above B's (each at the page's full width, so
    its cells can carry their tokens); an encoder or encoder-decoder: why there is none."""
    st.markdown(f"#### {t('explorer_differs.lens_title')}")
    for side, name, weights, label in zip("ab", *pair.by_side(), strict=True):
        st.markdown(f"##### {md(label)}")
        kind = head_kind(pair.model(side))
        if kind != "decoder":
            st.info(t(f"explorer_differs.lens_no.{kind}"))
            continue
        lens = with_status(
            t("explorer_differs.running", name=md(label)), lens_tail, name, weights, pair.text, LENS_WINDOW
        )
        start = lens["start"]
        fig = viz.lens_table(
            lens["top"],
            lens["top_prob"],
            lens["tokens"],
            first_position=start,
            embedding=t("lens.embedding"),
            top_name=t("lens.top_name"),
            prob_name=t("lens.prob_name"),
            title=t("lens.table_title", start=start, end=start + len(lens["tokens"]) - 1),
            labels=viz_labels(),
            scale=pair.scale,
        )
        charts.plot(st, fig, key=f"differs_lens_{side}")
    st.caption(t("explorer_differs.lens_caption", n=LENS_WINDOW) + " " + t("lens.table_caption"))
