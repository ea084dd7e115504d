"""Two of the Softmax lesson's sections: why q·k is not a cosine similarity, and the scale on the live model (with the
prompt box: lessons/softmax.py trained_model)."""

import numpy as np
import streamlit as st

import viz
from models import analysis
from ui import charts, controls, score_scale, shell, state
from ui.i18n import t, viz_labels
from ui.loaders import mean_entropies, scaled_run
from ui.params import LIVE_FACTORS
from ui.state import Settings
from viz import Arrow, Series


# ---------------------------------------------------------------- the live model
def live_model(settings: Settings, fig_scale: float) -> None:
    """The shipped model with its attention scale times a factor: one head, every head's entropy, the next token.
    The prompt box is here, under the section's heading: the sections above do not read the prompt (issue 40)."""
    st.header(t("softmax.live_title"))
    model = shell.model_or_stop(settings)
    cfg = model.config
    st.markdown(t("softmax.live_intro", scale=score_scale.scale_text(cfg)))
    shell.prompt_box(settings)
    shell.track("prompt")
    text = shell.prompt_or_stop(settings, model)
    state.ensure("live_c")
    st.select_slider(
        t("softmax.live_factor"),
        LIVE_FACTORS,
        key="live_c",
        format_func=lambda c: f"×{c:g}",
        help=t("softmax.live_help"),
    )
    shell.track("live_c")
    c = st.session_state["live_c"]
    layer, head = controls.layer_head(cfg)
    run = scaled_run(settings.model, settings.weights, text, c * cfg.scale)
    tokens = run["tokens"]
    c1, c2 = st.columns(2)
    shell.plot(
        viz.heatmap(
            run["attention"][layer, head],
            tokens,
            tokens,
            scale=fig_scale,
            labels=viz_labels(),
            title=t("softmax.live_heatmap", layer=layer + 1, head=head + 1, c=f"{c:g}"),
        ),
        "sm_live_heatmap",
        run["attention"][layer, head],
        tokens,
        tokens,
        where=c1,
    )
    heads = [str(h + 1) for h in range(cfg.n_heads)]
    wide = st.container() if cfg.n_heads > 8 else c2  # MiniLM's 6 x 12 table needs the full width to read
    charts.plot(
        wide,
        viz.value_heatmap(
            run["entropy"],
            [str(li + 1) for li in range(cfg.n_layers)],
            heads,
            index_labels=False,
            title=t("softmax.entropy_fig"),
            x_title=t("lbl.head"),
            y_title=t("lbl.layer"),
            hover_name=t("softmax.entropy"),
            zmin=0,
            zmax=float(np.log(len(tokens))),
            text_fmt=".2f",
            scale=fig_scale,
        ),
        key="sm_entropy",
    )
    means = mean_entropies(settings.model, settings.weights, text, tuple(f * cfg.scale for f in LIVE_FACTORS))
    charts.plot(
        st,
        viz.lines(
            np.array(LIVE_FACTORS),
            [Series(t("softmax.mean_entropy"), np.array(means))],
            log_x=True,
            x_title=t("softmax.live_factor"),
            y_title=t("softmax.entropy"),
            title=t("softmax.entropy_curve"),
            current=c,
            vlines=[(1.0, t("softmax.trained_scale"))],
            scale=fig_scale,
        ),
        key="sm_entropy_curve",
    )
    if "next" in run:
        names_, probs = run["next"]
        charts.plot(
            st,
            viz.bars(
                probs,
                names_,
                x_title=t("softmax.next_token"),
                y_title=t("common.prob"),
                title=t("softmax.next_title", c=f"{c:g}"),
                highlight=0,
                text_fmt=".2g",
                log_y=True,  # a confident model puts 0.99 on one token: the others show only on a log axis
                scale=fig_scale,
            ),
            key="sm_next",
        )
        st.caption(t("softmax.next_caption"))
    else:
        st.caption(t("softmax.next_decoder_only"))


# ---------------------------------------------------------------- dot product vs cosine
def dot_vs_cosine(d_k: int, fig_scale: float) -> None:
    """Five keys in d_k dimensions at chosen angles and lengths to one query (the most similar in direction is not
    the one attention prefers), then two vectors in the plane to try it. The table first: lesson 02's question
    is about it, and a reveal scrolls to the first figure or table under the section's heading."""
    st.header(t("softmax.cos_title"))
    st.markdown(t("softmax.cos_intro"))
    st.latex(r"q\cdot k=\|q\|\,\|k\|\cos\theta")
    st.latex(r"\cos\theta=\frac{q\cdot k}{\|q\|\,\|k\|}")
    angles, lengths = np.radians([10, 40, 60, 80, 120]), np.array([0.5, 2.0, 3.0, 1.0, 2.5])
    rng = np.random.default_rng(3)
    dim = max(d_k, 2)
    q = rng.normal(size=dim)
    qhat = q / np.linalg.norm(q)
    keys = []
    for a, n in zip(angles, lengths, strict=True):
        u = rng.normal(size=dim)
        u -= (u @ qhat) * qhat  # a direction orthogonal to q
        keys.append(n * np.sqrt(dim) * (np.cos(a) * qhat + np.sin(a) * u / np.linalg.norm(u)))
    dots = np.array([q @ k for k in keys])
    weights = analysis.softmax(dots / np.sqrt(dim))
    cosines = [analysis.cosine(q, k) for k in keys]
    st.table(
        {
            t("softmax.col.key"): [f"k{j + 1}" for j in range(len(keys))],
            "‖k‖": [f"{np.linalg.norm(k):.2f}" for k in keys],
            "cos θ": [f"{v:.3f}" for v in cosines],
            "q·k": [f"{v:.2f}" for v in dots],
            t("softmax.col.weight", d=dim): [f"{w:.3f}" for w in weights],
        },
        hide_index=True,
        width="stretch",
    )
    st.markdown(
        t(
            "softmax.cos_table",
            best_cos=int(np.argmax(cosines)) + 1,
            best_dot=int(np.argmax(dots)) + 1,
            qn=f"{np.linalg.norm(q):.2f}",
            d=dim,
        )
    )
    for name in ("q_norm", "k_norm", "qk_angle"):
        state.ensure(name)
    c1, c2, c3 = st.columns(3)
    c1.slider("‖q‖", 0.1, 4.0, step=0.1, key="q_norm")
    c2.slider("‖k‖", 0.1, 4.0, step=0.1, key="k_norm")
    c3.slider(t("softmax.angle"), 0, 180, key="qk_angle")
    shell.track("q_norm", "k_norm", "qk_angle")
    qn, kn, deg = st.session_state["q_norm"], st.session_state["k_norm"], st.session_state["qk_angle"]
    qv, kv = np.array([qn, 0.0]), kn * np.array([np.cos(np.radians(deg)), np.sin(np.radians(deg))])
    c1, c2 = st.columns([3, 2])
    charts.plot(
        c1,
        viz.plane_vectors(
            [Arrow(*qv, "q"), Arrow(*kv, "k")], angle=(0, 1), scale=fig_scale, title=t("softmax.plane_title")
        ),
        key="sm_plane",
    )
    c2.markdown(
        t(
            "softmax.cos_numbers",
            dot=f"{qv @ kv:.3f}",
            cos=f"{analysis.cosine(qv, kv):.3f}",
            qn=f"{qn:.1f}",
            kn=f"{kn:.1f}",
        )
    )
