"""Model size and scaling laws: published models counted from their hyper-parameters, GQA and the
KV cache, ALBERT's factorised embedding, Kaplan's and Chinchilla's laws with their published constants."""

import dataclasses

import numpy as np
import streamlit as st

import viz
from lessons.scaling_albert import albert_section
from lessons.scaling_moe import moe_section
from lessons.scaling_timeline import timeline_section
from models import analysis
from models.teaching import catalog, scaling
from ui import charts, shell, state
from ui.i18n import part_names, t
from ui.params import BUDGETS, KV_DTYPES

GIB = 2**30
N_RANGE = (1e7, 1e13)  # the contour plot's axes: parameters ...
D_RANGE = (1e8, 1e15)  # ... and training tokens
GRID_POINTS = 121
ISO_COMPUTE = (1e20, 1e22, 1e24, 1e26)  # FLOPs: the dashed lines of constant 6·N·D

settings = state.current()
scale = settings.figure_scale
for name in ("cat", "kv_ctx", "kv_dtype", "albert_v", "albert_h", "albert_e", "budget"):
    state.ensure(name)
shell.track("cat", "kv_ctx", "kv_dtype", "albert_v", "albert_h", "albert_e", "budget")

# ----------------------------------------------------------------- published models
st.markdown(t("scaling.intro"))
st.header(t("scaling.catalog_title"))
# One model's parameters first (its picker above them, what a block holds beside them), the whole table under them: on
# a 1366x768 projector the page opens on its first figure (issue 39).
c1, c2 = st.columns([3, 2], gap="large")
c1.selectbox(t("scaling.pick"), [p.name for p in catalog.CATALOG], key="cat")
picked = catalog.BY_NAME[st.session_state["cat"]]
cfg = picked.config
counts = catalog.counts(picked)
charts.plot(c1, viz.param_treemap(counts, part_names(), title=t("scaling.treemap_fig", model=picked.name), scale=scale),
                key="sc_treemap")  # fmt: skip
with c2:
    if picked.note:
        small = f"{catalog.total(catalog.BY_NAME['GPT-2 small']):,}"
        computed, published = viz.short_count(catalog.total(picked)), viz.short_count(int(picked.published))
        st.info(t(picked.note, computed=computed, published=published, small=small))
    per_layer = analysis.parameter_counts(dataclasses.replace(cfg, n_layers=1))
    attn = sum(v for k, v in per_layer.items() if k.startswith("attention"))
    st.markdown(t("scaling.block", model=picked.name, attn=f"{attn:,}", ffn=f"{per_layer['ffn']:,}",
                  layers=cfg.n_layers, emb=f"{counts['embeddings']:,}",
                  emb_share=f"{counts['embeddings'] / sum(counts.values()):.1%}",
                  ffn_mats=3 if cfg.activation == "swiglu" else 2))  # fmt: skip
    if st.toggle(t("scaling.tree_toggle"), key="sc_tree", help=t("scaling.tree_help")):
        st.code(catalog.module_tree(cfg), language="text")
rows = []
for p in catalog.CATALOG:
    c = p.config
    rows.append({
        t("scaling.col.model"): p.name, t("scaling.col.computed"): f"{catalog.total(p):,}",
        t("scaling.col.published"): viz.short_count(int(p.published)),
        t("scaling.col.diff"): f"{catalog.relative_error(p):+.1%}",
        t("scaling.col.arch"): t(f"common.arch.{c.arch}"), t("scaling.col.layers"): c.n_layers, "d_model": c.d_model,
        t("scaling.col.heads"): f"{c.n_heads} / {c.kv_heads}", "d_ff": c.d_ff,
        t("scaling.col.vocab"): f"{c.vocab_size:,}",
        t("scaling.col.source"): p.source,
    })  # fmt: skip
st.table(rows)
st.markdown(t("scaling.catalog_explain"))

# ----------------------------------------------------------------- GQA and the KV cache
st.header(t("scaling.kv_title"))
st.markdown(t("scaling.kv_intro"))
if cfg.arch != "decoder":
    st.info(t("scaling.kv_encoder", model=picked.name))
c1, c2 = st.columns(2)
c1.number_input(t("scaling.kv_ctx"), 1, 1_000_000, key="kv_ctx", step=1024)
c2.segmented_control(t("scaling.kv_dtype"), KV_DTYPES, key="kv_dtype", required=True)
ctx, dtype = int(st.session_state["kv_ctx"]), st.session_state["kv_dtype"]
per_token = catalog.kv_cache_bytes_per_token(cfg, dtype)
mha_token = catalog.kv_cache_bytes_per_token(cfg, dtype, kv_heads=cfg.n_heads)
m1, m2, m3 = st.columns(3)
formula = t("scaling.kv_formula", layers=cfg.n_layers, kv=cfg.kv_heads, d_head=cfg.d_head, bytes=catalog.BYTES[dtype],
             total=f"{per_token:,}")  # fmt: skip
m1.metric(t("scaling.kv_per_token", model=picked.name), f"{per_token / 1024:,.0f} KiB", help=formula)
mha_delta = t("scaling.kv_vs_mha", mha=f"{mha_token * ctx / GIB:,.2f}") if mha_token != per_token else None
m2.metric(t("scaling.kv_context", ctx=f"{ctx:,}"), f"{per_token * ctx / GIB:,.2f} GiB", delta=mha_delta,
          delta_color="off", delta_arrow="off")  # fmt: skip
m3.metric(t("scaling.kv_saved"), f"{catalog.kv_projection_saving(cfg):,}",
          help=t("scaling.kv_saved_help", heads=cfg.n_heads, kv=cfg.kv_heads))  # fmt: skip
if cfg.kv_heads == cfg.n_heads:
    st.caption(t("scaling.kv_mha_note", model=picked.name))
names_ = [p.name for p in catalog.CATALOG if p.config.arch == "decoder"]
charts.plot(st,
    viz.bars(np.array([catalog.kv_cache_bytes_per_token(catalog.BY_NAME[n].config, dtype) / 1024 for n in names_]),
             names_, reference=np.array([catalog.kv_cache_bytes_per_token(catalog.BY_NAME[n].config, dtype,
                                         kv_heads=catalog.BY_NAME[n].config.n_heads) / 1024 for n in names_]),
             names_shown=(t("scaling.kv_actual"), t("scaling.kv_if_mha")), x_title="",
             y_title=t("scaling.kv_axis", dtype=dtype),
             title=t("scaling.kv_fig"), text_fmt=".0f", scale=scale),
    key="sc_kv",
)  # fmt: skip

# ----------------------------------------------------------------- ALBERT
albert_section(scale)

# ----------------------------------------------------------------- Kaplan
st.header(t("scaling.kaplan_title"))
st.markdown(t("scaling.kaplan_intro"))
st.latex(r"L(N) = \left(\frac{N_c}{N}\right)^{\alpha_N},\qquad L(D) = \left(\frac{D_c}{D}\right)^{\alpha_D}")
st.latex(
         r"L(N, D) = \left[\left(\frac{N_c}{N}\right)^{\alpha_N/\alpha_D}"
         r" + \frac{D_c}{D}\right]^{\alpha_D}")  # fmt: skip
st.markdown(t("scaling.kaplan_constants", nc=f"{scaling.KAPLAN_NC:.1e}", an=scaling.KAPLAN_ALPHA_N,
              dc=f"{scaling.KAPLAN_DC:.1e}", ad=scaling.KAPLAN_ALPHA_D))  # fmt: skip
c1, c2 = st.columns(2)
ns, ds = np.geomspace(1e6, 1e12, 61), np.geomspace(1e7, 1e13, 61)
charts.plot(c1, viz.lines(ns, [viz.Series("L(N)", scaling.kaplan_loss_n(ns), markers=False)], x_title="N",
                          y_title=t("scaling.loss"), log_x=True, title=t("scaling.kaplan_n_fig"), scale=scale),
                key="sc_kaplan_n")  # fmt: skip
charts.plot(c2, viz.lines(ds, [viz.Series("L(D)", scaling.kaplan_loss_d(ds), markers=False)], x_title="D",
                          y_title=t("scaling.loss"), log_x=True, title=t("scaling.kaplan_d_fig"), scale=scale),
                key="sc_kaplan_d")  # fmt: skip

# ----------------------------------------------------------------- Chinchilla
st.header(t("scaling.chin_title"))
st.markdown(t("scaling.chin_intro"))
st.latex(r"L(N, D) = E + \frac{A}{N^{\alpha}} + \frac{B}{D^{\beta}},\qquad C \approx 6\,N\,D")
st.markdown(t("scaling.chin_constants", e=scaling.CHINCHILLA_E, a=scaling.CHINCHILLA_A, b=scaling.CHINCHILLA_B,
              alpha=scaling.CHINCHILLA_ALPHA, beta=scaling.CHINCHILLA_BETA))  # fmt: skip
chinchilla_c = float(scaling.compute(70e9, 1.4e12))  # Chinchilla: 70B parameters on 1.4T tokens
st.select_slider(t("scaling.budget"), BUDGETS, key="budget", format_func=lambda x: f"{10**x:.3g} FLOPs",
                 help=t("scaling.budget_help", c=f"{chinchilla_c:.3g}"))  # fmt: skip
budget = 10 ** float(st.session_state["budget"])
n_opt, d_opt = (float(x) for x in scaling.chinchilla_optimal(budget))
n_20, d_20 = (float(x) for x in scaling.rule_of_thumb(budget))
grid_n, grid_d = np.geomspace(*N_RANGE, GRID_POINTS), np.geomspace(*D_RANGE, GRID_POINTS)
loss = scaling.loss_grid(grid_n, grid_d)
cs = np.geomspace(1e18, 1e28, 41)


@st.cache_data(show_spinner=False, max_entries=64)
def contours(budget: float, words: tuple[str, ...], scale: float):
    """The iso-loss figure for one budget (about 0.2 s to build, so kept; it depends on nothing else)."""
    n_opt, d_opt = scaling.chinchilla_optimal(budget)
    n_20, d_20 = scaling.rule_of_thumb(budget)
    n_axis, d_axis, loss_word, frontier, exact, twenty = words
    return viz.scaling_contours(
        grid_n, grid_d, loss, levels=np.round(np.arange(1.8, 3.01, 0.1), 2), points=list(scaling.KNOWN_MODELS),
        frontier=scaling.chinchilla_optimal(cs), compute_lines=[(f"C = {c:.0e}", c) for c in ISO_COMPUTE],
        labels=viz.ScalingLabels(n_axis=n_axis, d_axis=d_axis, loss=loss_word, frontier=frontier), scale=scale,
        budget=(f"C = {budget:.3g}", budget), allocations=[(exact, n_opt, d_opt), (twenty, n_20, d_20)],
        point_loss=scaling.chinchilla_loss,
    )  # fmt: skip


words = tuple(
    t(k)
    for k in (
        "scaling.n_axis",
        "scaling.d_axis",
        "scaling.loss",
        "scaling.frontier",
        "scaling.rule.exact",
        "scaling.rule.twenty",
    )
)
charts.plot(st, contours(budget, words, scale), key="sc_contours")
st.caption(t("scaling.contours_caption"))
rows = [
    {t("scaling.col.rule"): t(f"scaling.rule.{kind}"), "N": viz.short_count(int(n)), "D": viz.short_count(int(d)),
     "D / N": f"{d / n:.1f}", "C = 6ND": f"{scaling.compute(n, d):.3g}",
     t("scaling.loss"): f"{float(scaling.chinchilla_loss(n, d)):.5f}"}
    for kind, n, d in (("exact", n_opt, d_opt), ("twenty", n_20, d_20))
]  # fmt: skip
st.table(rows)
st.markdown(
    t(
        "scaling.chin_explain",
        ratio=f"{d_opt / n_opt:.0f}",
        gap=f"{float(scaling.chinchilla_loss(n_20, d_20) - scaling.chinchilla_loss(n_opt, d_opt)):.4f}",
    )
)
rows = [
    {t("scaling.col.model"): name, "N": viz.short_count(int(n)), "D": viz.short_count(int(d)), "D / N": f"{d / n:.1f}",
     "C = 6ND": f"{scaling.compute(n, d):.2e}", t("scaling.loss"): f"{float(scaling.chinchilla_loss(n, d)):.3f}"}
    for name, n, d in scaling.KNOWN_MODELS
]  # fmt: skip
st.table(rows)
st.caption(t("scaling.known_caption"))

timeline_section(scale)
moe_section(scale)
