"""The scaling page's timeline section: published models by date, computed from models.teaching.catalog, the notes'
errors corrected with numbers from the same catalog, and the compute-optimal exponents with a budget readout."""

import numpy as np
import streamlit as st

import viz
from models.teaching import catalog, scaling
from ui import charts, shell, state
from ui.i18n import t
from ui.params import TIMELINE_FACTORS


def _count(x: float | None) -> str:
    return t("scaling.tl.unpublished") if x is None else viz.short_count(int(x))


def _row(r: catalog.Release) -> dict:
    """One table row: what is not published says so; the rest is read off the config or computed."""
    date, model, source = t("scaling.tl.col.date"), t("scaling.col.model"), t("scaling.tl.col.source")
    if r.model is None:
        none = t("scaling.tl.unpublished")
        cols = ("params", "tokens", "ratio", "context", "vocab", "norm", "ffn", "pos", "attn")
        return {date: r.date, model: r.title, **{t(f"scaling.tl.col.{c}"): none for c in cols}, source: r.source}
    c, ratio = r.config, catalog.tokens_per_parameter(r)
    params, published = viz.short_count(catalog.total(r.model)), viz.short_count(int(r.model.published))
    tokens = _count(r.tokens)
    if r.based_on:
        tokens = t("scaling.tl.fine_tuned", tokens=tokens, base=r.based_on)
    return {
        date: r.date, model: r.title, t("scaling.tl.col.params"): f"{params} ({published})",
        t("scaling.tl.col.tokens"): tokens,
        t("scaling.tl.col.ratio"): t("scaling.tl.unpublished") if ratio is None else f"{ratio:,.1f}",
        t("scaling.tl.col.context"): f"{c.max_len:,}", t("scaling.tl.col.vocab"): f"{c.vocab_size:,}",
        t("scaling.tl.col.norm"): t(f"scaling.tl.{c.norm_position}", norm=t(f"lab.norm.{c.norm}")),
        t("scaling.tl.col.ffn"): t(f"lab.activation.{c.activation}"),
        t("scaling.tl.col.pos"): t(f"scaling.tl.pos.{c.positional}"),
        t("scaling.tl.col.attn"): catalog.attention_kind(c),
        source: r.source,
    }  # fmt: skip


def _heads(name: str) -> str:
    c = catalog.TIMELINE_BY_NAME[name].config
    return t("scaling.tl.kv", heads=c.n_heads, kv=c.kv_heads)


def _fixes() -> None:
    by = catalog.TIMELINE_BY_NAME
    llama1 = [r for r in catalog.TIMELINE if r.family == "LLaMA"]
    v1, v3 = by["LLaMA-7B"].config.vocab_size, by["Llama-3-8B"].config.vocab_size
    lo, hi = scaling.CHINCHILLA_FIT_PARAMS
    dlo, dhi = scaling.CHINCHILLA_FIT_TOKENS
    l7 = by["LLaMA-7B"]
    n20, d20 = (float(x) for x in scaling.rule_of_thumb(scaling.compute(catalog.total(l7.model), l7.tokens)))
    st.subheader(t("scaling.tl.fixes_title"))
    st.markdown(t("scaling.tl.fixes",
        sizes="/".join(r.title.removeprefix("LLaMA-").removesuffix("B") for r in llama1) + "B",
        p33=viz.short_count(catalog.total(by["LLaMA-33B"].model)),
        kv1=_heads("LLaMA-65B"), kv2=_heads("Llama-2-70B"), ratio=f"{v3 / v1:.2f}", v1=f"{v1:,}", v3=f"{v3:,}",
        t2=_count(by["Llama-2-70B"].tokens), t3=_count(by["Llama-3-70B"].tokens),
        lo=viz.short_count(int(lo)), hi=viz.short_count(int(hi)), dlo=viz.short_count(int(dlo)),
        dhi=viz.short_count(int(dhi)), beyond=f"{catalog.total(by['GPT-3 175B'].model) / hi:.0f}",
        r7=f"{catalog.tokens_per_parameter(l7):.0f}", n20=viz.short_count(int(n20)), d20=viz.short_count(int(d20)),
    ))  # fmt: skip


def _exponents(scale: float) -> None:
    st.header(t("scaling.tl.exp_title"))
    st.markdown(t("scaling.tl.exp_intro"))
    st.latex(r"N_{\mathrm{opt}} \propto C^{a},\qquad D_{\mathrm{opt}} \propto C^{b},\qquad a + b = 1")
    state.ensure("tl_factor")
    st.select_slider(t("scaling.tl.factor"), TIMELINE_FACTORS, key="tl_factor", format_func=lambda x: f"{x:g}×")
    factor = float(st.session_state["tl_factor"])
    rows = []
    for law, (a, b) in scaling.EXPONENTS.items():
        gn, gd = scaling.budget_growth(factor, law)
        rows.append({t("scaling.tl.col.law"): t(f"scaling.tl.law.{law}"), "a": f"{a:.2f}", "b": f"{b:.2f}",
                     t("scaling.tl.col.params_x"): f"{gn:.3g}", t("scaling.tl.col.tokens_x"): f"{gd:.3g}",
                     t("scaling.tl.col.ratio_x"): f"{gd / gn:.3g}"})  # fmt: skip
    st.table(rows)
    kn, kd = scaling.budget_growth(factor, "kaplan")
    cn, cd = scaling.budget_growth(factor, "chinchilla3")
    a3, b3 = scaling.approach3_exponents()
    g3 = catalog.tokens_per_parameter(catalog.TIMELINE_BY_NAME["GPT-3 175B"])
    st.markdown(t("scaling.tl.exp_explain", factor=f"{factor:g}", kn=f"{kn:.3g}", kd=f"{kd:.3g}", cn=f"{cn:.3g}",
                  cd=f"{cd:.3g}", g3=f"{g3:.1f}", alpha=scaling.CHINCHILLA_ALPHA, beta=scaling.CHINCHILLA_BETA,
                  a3=f"{a3:.3f}", b3=f"{b3:.3f}"))  # fmt: skip


def timeline_section(scale: float) -> None:
    """The timeline table, its notes, tokens per parameter against 20, the corrections, the exponents."""
    st.header(t("scaling.tl.title"))
    st.markdown(t("scaling.tl.intro"))
    releases = catalog.timeline()
    st.table([_row(r) for r in releases])
    st.caption(t("scaling.tl.caption"))
    with st.expander(t("scaling.tl.notes")):
        notes = dict.fromkeys(r.note for r in releases if r.note)
        st.markdown("\n".join(f"- {t(key)}" for key in notes))
    counted = [r for r in releases if catalog.tokens_per_parameter(r) is not None and not r.based_on]
    ratios = np.array([catalog.tokens_per_parameter(r) for r in counted])
    twenty = np.full(len(counted), float(scaling.TOKENS_PER_PARAMETER))
    charts.plot(st,
        viz.bars(ratios, [r.title for r in counted], reference=twenty,
                 names_shown=(t("scaling.tl.ratio_model"), t("scaling.tl.ratio_twenty")), x_title="",
                 y_title=t("scaling.tl.ratio_axis"), log_y=True, text_fmt=".0f", title=t("scaling.tl.ratio_fig"),
                 scale=scale),
        key="sc_timeline_ratio",
    )  # fmt: skip
    _fixes()
    _exponents(scale)
    shell.track("tl_factor")
