"""The Positional lesson's later sections: RoPE, a learned table, and no positional encoding at all
(the shuffle test); and the helpers the whole page draws with."""

import functools

import numpy as np
import streamlit as st

import models
import viz
from models.core.positional import exact_offsets, learned_vs_sinusoidal, relative_bias_by_offset, rope_example
from ui import charts, precision_keys, shell, state
from ui.i18n import t
from ui.loaders import learned_positions, shuffle_deltas
from ui.state import Settings
from viz import Arrow, Series, signed_map

ROUNDING = 1e-6  # the shuffle bars start here: smaller output differences are float32 rounding


# ---------------------------------------------------------------- RoPE
def rope(fig_scale: float) -> None:
    """RoPE rotates q and k by their positions, so q·k depends only on the offset n − m."""
    st.header(t("positional.rope_title"))
    st.markdown(t("positional.rope_intro"))
    st.latex(r"\langle R_{m}\,q,\;R_{n}\,k\rangle=q^{\top}R_{m}^{\top}R_{n}\,k=q^{\top}R_{n-m}\,k")
    st.latex(
        r"R_{m}=\bigoplus_i\begin{pmatrix}\cos m\theta_i&-\sin m\theta_i\\ \sin m\theta_i&\cos m\theta_i\end{pmatrix}"
    )
    for name in ("rope_m", "rope_n"):
        state.ensure(name)
    c1, c2 = st.columns(2)
    c1.slider(t("positional.rope_m"), 0, 64, key="rope_m")
    c2.slider(t("positional.rope_n"), 0, 64, key="rope_n")
    shell.track("rope_m", "rope_n")
    qm, kn = st.session_state["rope_m"], st.session_state["rope_n"]
    pair = rope_example(qm, kn)  # models/core/positional.py: one fixed q and k
    q, kv, rq, rk = pair["q"], pair["k"], pair["rq"], pair["rk"]
    arrows = [
        Arrow(q[0], q[1], "q", viz.HEAD_COLORS[0], dash="dot"),
        Arrow(rq[0], rq[1], f"q, m={qm}", viz.HEAD_COLORS[0]),
        Arrow(kv[0], kv[1], "k", viz.HEAD_COLORS[1], dash="dot"),
        Arrow(rk[0], rk[1], f"k, n={kn}", viz.HEAD_COLORS[1]),
    ]
    c1, c2 = st.columns(2)
    charts.plot(
        c1,
        viz.plane_vectors(
            arrows,
            title=t("positional.rope_fig", theta=f"{pair['theta0']:.3g}"),
            x_title=t("positional.pair_x"),
            y_title=t("positional.pair_y"),
            scale=fig_scale,
        ),
        key="rope_plane",
    )
    axes = t("positional.key_pos"), t("positional.query_pos")
    charts.plot(c2, signed_map(pair["grid"], t("positional.rope_grid"), *axes, "q·k", scale=fig_scale), key="rope_grid")
    st.markdown(
        t(
            "positional.rope_numbers",
            m=qm,
            n=kn,
            dot=f"{pair['dot']:.6f}",
            m2=qm + 10,
            n2=kn + 10,
            dot2=f"{pair['moved']:.6f}",
            plain=f"{pair['plain']:.6f}",
            norm_q=f"{pair['norm_q']:.6f}",
            norm_rq=f"{pair['norm_rq']:.6f}",
            spread=f"{pair['spread']:.1e}",
            d=len(q),
        )
    )


# ---------------------------------------------------------------- learned
def learned(settings: Settings, fig_scale: float) -> None:
    """A trained model's learned position table: near positions look alike, like the sinusoidal ones."""
    source = "encoder"  # the shipped encoder, or the selected model when it has a learned table (MiniLM)
    try:
        trained = precision_keys.trained(settings.model)  # the session's precision: no second copy loaded
        if settings.model != source and shell.load(settings.model, trained).config.positional == "learned":
            source = settings.model
    except models.WeightsError:
        pass  # the shuffle section below says what is missing
    st.header(t("positional.learned_title", model=shell.model_labels()(source)))
    table = learned_positions(source, precision_keys.trained(source))
    sims = learned_vs_sinusoidal(table, 32)  # models/core/positional.py
    c1, c2 = st.columns(2)
    title = t("positional.learned_fig", n=table.shape[0], d=table.shape[1])
    charts.plot(c1, signed_map(sims["cos"], title, "pos′", "pos", "cos", limit=1, scale=fig_scale), key="learned_sim")
    series = [
        Series(t("positional.learned_series"), sims["learned"]),
        Series(t("positional.sin_series"), sims["sinusoidal"]),
    ]
    fig = viz.lines(np.arange(33), series, x_title=t("positional.offset"), y_title=t("positional.mean_cos"),
                    title=t("positional.by_offset"), scale=fig_scale)  # fmt: skip
    charts.plot(c2, fig, key="learned_offset")
    near, far = sims["learned"][[1, 32]]
    st.markdown(t("positional.learned_explain", near=f"{near:.2f}", far=f"{far:.2f}"))


# ---------------------------------------------------------------- no positional encoding
def no_positional(settings: Settings, fig_scale: float) -> None:
    """The shuffle test: without positions, attention is blind to word order (bidirectional)."""
    st.header(t("positional.none_title"))
    st.markdown(t("positional.none_intro"))
    model = shell.model_or_stop(settings)
    text = shell.prompt_or_stop(settings, model)
    state.ensure("shuf")
    st.number_input(t("positional.shuffle_seed"), 0, 999, key="shuf", help=t("positional.shuffle_seed_help"))
    shell.track("shuf")
    res = shuffle_deltas(settings.model, text, st.session_state["shuf"], precision_keys.trained(settings.model))
    tokens, order = res["tokens"], res["order"]
    if order == list(range(len(tokens))):
        st.info(t("positional.none_too_short"))
        shell.stop()
    shuffled = [tokens[o] for o in order]
    st.caption(t("positional.original"))
    shell.token_chips(tokens)
    st.caption(t("positional.shuffled"))
    shell.token_chips(shuffled)
    cases = (
        ("none.bidirectional", t("positional.case.none_bi")),
        ("none.causal", t("positional.case.none_causal")),
        (
            "trained",
            t(
                "positional.case.trained",
                pe=t(f"positional.pe.{model.config.positional}"),
                mask=t(f"mask.{model.config.default_mask}").lower(),
            ),
        ),
    )
    top = max(float(res[key].max()) for key, _ in cases) or 1.0
    cols = st.columns(3)
    for col, (key, title) in zip(cols, cases, strict=True):
        delta = res[key]
        charts.plot(
            col,
            viz.bars(
                delta,
                shuffled,
                x_title=t("positional.shuffled_pos"),
                y_title=t("positional.delta"),
                title=title,
                text_fmt=None,
                log_y=True,  # 1e-7 (rounding) beside 30: only a log axis shows both
                y_range=(ROUNDING, top * 2),
                scale=fig_scale,
            ),
            key=f"shuffle_{key}",
        )
        col.caption(t("positional.max_delta", value=f"{delta.max():.1e}"))
    st.markdown(
        t(
            "positional.none_explain",
            bi=f"{res['none.bidirectional'].max():.1e}",
            causal=f"{res['none.causal'].max():.2g}",
        )
    )


# ---------------------------------------------------------------- T5's relative position bias
def relative_bias(settings: Settings, fig_scale: float) -> None:
    """A published T5 in the sidebar: no position vector at all, but one learned table per stack, a bias per bucket
    of (key - query) and head added to q·k in every layer; drawn as the table and as the bias at every offset."""
    name = shell.published_or(settings, "encoder-decoder", "")
    try:
        model = shell.load(name, precision_keys.trained(name)) if name else None
    except models.WeightsError:
        return
    if model is None or model.config.positional != "relative":
        return
    cfg, net = model.config, model.net
    st.header(t("positional.t5_title", model=name))
    exact = {f"{side}_exact": exact_offsets(cfg.rel_buckets, side == "enc") for side in ("enc", "dec")}
    st.markdown(t("positional.t5_intro", buckets=cfg.rel_buckets, distance=cfg.rel_max_distance, **exact))
    reach = cfg.rel_max_distance + 16  # past max_distance every offset shares the last bucket: flat from there
    for stack, table, both in (("encoder", net.enc_rel_bias, True), ("decoder", net.dec_rel_bias, False)):
        weight = table.weight.detach().numpy()  # [buckets, heads]
        offsets, bias = relative_bias_by_offset(weight, both, cfg.rel_buckets, cfg.rel_max_distance, reach)
        where = t(f"positional.t5_{stack}")
        c1, c2 = st.columns(2)
        title, value = t("positional.t5_table_fig", stack=where), t("positional.t5_bias")
        heads = [str(h + 1) for h in range(cfg.n_heads)]
        table_fig = signed_map(weight.T, title, t("positional.t5_bucket"), t("positional.t5_head"), value,
                               square=False, rows=heads, scale=fig_scale)  # fmt: skip
        charts.plot(c1, table_fig, key=f"t5_table_{stack}")
        name = functools.partial(t, "positional.t5_head_series")
        series = [Series(name(h=h + 1), bias[:, h], markers=False) for h in range(cfg.n_heads)]  # heads from 1
        title = t("positional.t5_offset_fig", stack=where)
        offset_fig = viz.lines(
            offsets, series, x_title=t("positional.t5_offset"), y_title=value, title=title, scale=fig_scale
        )
        charts.plot(c2, offset_fig, key=f"t5_offsets_{stack}")
