"""The Model size page's mixture-of-experts section: total vs active parameters per token, Mixtral 8×7B counted
from its published configuration with the same formula as every other model, and what more experts or a larger
top-k would cost. The GPT-4 figures that circulate are rumours: the page says so."""

import dataclasses

import numpy as np
import streamlit as st

import viz
from models import analysis
from models.teaching import catalog
from ui import charts, shell, state
from ui.i18n import t
from ui.params import MOE_EXPERTS, MOE_TOP_K

DENSE = ("Llama-3.1-8B", "Qwen2.5-7B")  # dense models of the catalog beside Mixtral: total = active


def _row(p: catalog.Published, active_published: float | None = None) -> dict:
    c, total, active = p.config, catalog.total(p), catalog.active_total(p)
    published = viz.short_count(int(p.published))
    if active_published is not None:
        published += f" / {viz.short_count(int(active_published))}"
    return {
        t("scaling.col.model"): p.name,
        t("scaling_moe.col.experts"): f"{c.n_experts} / {c.experts_top_k}" if c.n_experts else "—",
        t("scaling_moe.col.total"): f"{total:,}", t("scaling_moe.col.active"): f"{active:,}",
        t("scaling_moe.col.share"): f"{active / total:.1%}", t("scaling_moe.col.published"): published,
        t("scaling.col.source"): p.source,
    }  # fmt: skip


def _breakdown(p: catalog.Published) -> None:
    """Mixtral's count term by term, from one layer of its configuration."""
    c = p.config
    one = analysis.parameter_counts(dataclasses.replace(c, n_layers=1, n_experts=1, experts_top_k=1))
    attn = sum(v for k, v in one.items() if k.startswith("attention"))
    router = c.d_model * c.n_experts
    expert = one["ffn"] - c.d_model  # one SwiGLU expert: 3 · d_model · d_ff (the 1-expert router is d_model)
    counts = analysis.parameter_counts(c)
    st.markdown(t("scaling_moe.breakdown", model=p.name, layers=c.n_layers, d=c.d_model, d_ff=f"{c.d_ff:,}",
                  heads=c.n_heads, kv=c.kv_heads, attn=f"{attn:,}", expert=f"{expert:,}", n=c.n_experts,
                  k=c.experts_top_k, router=f"{router:,}", emb=f"{counts['embeddings'] + counts['head']:,}",
                  vocab=f"{c.vocab_size:,}", total=viz.short_count(catalog.total(p)),
                  active=viz.short_count(catalog.active_total(p)), total_exact=f"{catalog.total(p):,}",
                  active_exact=f"{catalog.active_total(p):,}"))  # fmt: skip


def _what_if(p: catalog.Published, scale: float) -> None:
    """Mixtral's block with another number of experts or top-k: total grows with n, the per-token cost with k."""
    for name in ("moe_n", "moe_k"):
        state.ensure(name)
    c1, c2 = st.columns(2)
    c1.select_slider(t("scaling_moe.n"), MOE_EXPERTS, key="moe_n")
    c2.select_slider(t("scaling_moe.k"), MOE_TOP_K, key="moe_k")
    shell.track("moe_n", "moe_k")
    n, k = int(st.session_state["moe_n"]), int(st.session_state["moe_k"])
    k_used = min(k, n)
    if k_used != k:
        st.caption(t("scaling_moe.k_clamped", k=k, n=n))
    cfg = dataclasses.replace(p.config, n_experts=n, experts_top_k=k_used)
    total = sum(analysis.parameter_counts(cfg).values())
    active = sum(analysis.parameter_counts(cfg, active=True).values())
    m1, m2, m3 = st.columns(3)
    m1.metric(t("scaling_moe.col.total"), viz.short_count(total), help=f"{total:,}")
    m2.metric(t("scaling_moe.col.active"), viz.short_count(active), help=f"{active:,}")
    m3.metric(t("scaling_moe.col.share"), f"{active / total:.1%}")
    ns = np.array(MOE_EXPERTS, dtype=float)

    def count(m: float, active: bool) -> int:
        moe = dataclasses.replace(p.config, n_experts=int(m), experts_top_k=min(k_used, int(m)))
        return sum(analysis.parameter_counts(moe, active=active).values())

    charts.plot(st,
        viz.lines(ns, [viz.Series(t("scaling_moe.col.total"), np.array([count(m, False) for m in ns], dtype=float)),
                       viz.Series(t("scaling_moe.col.active"), np.array([count(m, True) for m in ns], dtype=float))],
                  x_title=t("scaling_moe.n"), y_title=t("common.params"), log_x=True, log_y=True, current=float(n),
                  title=t("scaling_moe.fig", model=p.name, k=k_used), scale=scale),
        key="sc_moe",
    )  # fmt: skip
    st.caption(t("scaling_moe.fig_caption", k=k_used))


def moe_section(scale: float) -> None:
    st.header(t("scaling_moe.title"))
    st.markdown(t("scaling_moe.intro"))
    mixtral = catalog.MIXTRAL
    st.table([_row(mixtral, catalog.MIXTRAL_ACTIVE), *(_row(catalog.BY_NAME[name]) for name in DENSE)])
    _breakdown(mixtral)
    _what_if(mixtral, scale)
    st.info(t("scaling_moe.gpt4"))
