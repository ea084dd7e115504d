"""Softmax and the 1/√d_k scale: why scores are divided, what the scale does to a row, and to a
trained model; and why q·k is not a cosine similarity."""

import numpy as np
import streamlit as st

import viz
from models import analysis
from ui import controls, shell, state
from ui.i18n import t, viz_labels
from ui.loaders import scaled_run
from ui.params import DKS, LIVE_FACTORS, LOG2_SCALE, SIGMAS
from viz.plots import Arrow, Series

ROW_KEYS = 8  # keys in the one-row demo
SAMPLES = 20000  # per d_k: the variance is measured to about 1-2%

settings = state.current()
scale = settings.scale
st.markdown(t("softmax.intro"))


@st.cache_data(show_spinner=False)
def dot_table() -> np.ndarray:
    """q·k at σ = 1 for every d_k of the slider from one draw (about 0.4 s, once per server)."""
    return analysis.nested_dot_products(DKS, SAMPLES)


# ---------------------------------------------------------------- the variance argument
st.header(t("softmax.var_title"))
st.latex(r"q,k\sim\mathcal N(0,\sigma^2 I_{d_k})\;\Rightarrow")
st.latex(r"\operatorname{Var}(q\cdot k)=\sum_{i=1}^{d_k}\operatorname{Var}(q_ik_i)")
st.latex(r"=\sum_{i=1}^{d_k}\mathbb E[q_i^2]\,\mathbb E[k_i^2]=d_k\,\sigma^4")
st.latex(r"\operatorname{Var}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big)=\sigma^4")
st.caption(t("softmax.var_source"))
for name in ("sigma", "dk"):
    state.ensure(name)
c1, c2 = st.columns(2)
c1.select_slider("σ", SIGMAS, key="sigma", help=t("softmax.sigma_help"))
c2.select_slider("d_k", DKS, key="dk", on_change=lambda: st.session_state.update(sm_log2s=None))  # new d_k: own 1/sqrt
shell.track("sigma", "dk")
sigma, d_k = st.session_state["sigma"], st.session_state["dk"]
table = dot_table() * sigma**2  # q·k scales with σ·σ
x = table[:, DKS.index(d_k)]
raw_var, scaled_var, theory = float(np.var(x)), float(np.var(x / np.sqrt(d_k))), d_k * sigma**4
c1, c2 = st.columns(2)
hist = viz.plots.histograms(
    {t("softmax.raw", var=f"{raw_var:.3g}"): x, t("softmax.scaled", var=f"{scaled_var:.3g}"): x / np.sqrt(d_k)},
    x_title="q·k",
    y_title=t("softmax.density"),
    title=t("softmax.hist_title", d_k=d_k, sigma=sigma, n=f"{SAMPLES:,}"),
    bins=80,
    colors=[viz.HEAD_COLORS[3], viz.HEAD_COLORS[0]],
    scale=scale,
)
c1.plotly_chart(hist, key="sm_hist")
curve = table.var(axis=0)
fig = viz.plots.lines(
    np.array(DKS),
    [
        Series(t("softmax.empirical"), curve, color=viz.HEAD_COLORS[3], markers=False),
        Series(t("softmax.theory"), np.array(DKS) * sigma**4, color=viz.HEAD_COLORS[7], dash="dash", markers=False),
        Series(t("softmax.empirical_scaled"), curve / np.array(DKS), color=viz.HEAD_COLORS[0]),
    ],
    x_title="d_k",
    y_title=t("softmax.var_axis"),
    title=t("softmax.curve_title", n=f"{SAMPLES:,}"),
    log_x=True,
    log_y=True,
    current=d_k,
    scale=scale,
)
c2.plotly_chart(fig, key="sm_curve")
st.markdown(
    t(
        "softmax.var_numbers",
        d_k=d_k,
        sigma=sigma,
        raw=f"{raw_var:.4g}",
        theory=f"{theory:.4g}",
        err=f"{abs(raw_var / theory - 1):.1%}",
        scaled=f"{scaled_var:.4g}",
        s4=f"{sigma**4:.4g}",
        sd=f"{np.sqrt(raw_var):.3g}",
    )
)

# ---------------------------------------------------------------- one row under a scale
st.header(t("softmax.row_title"))
st.markdown(t("softmax.row_intro", n=ROW_KEYS, d_k=d_k, sigma=sigma))
rng = np.random.default_rng(0)
row = rng.normal(0, sigma, d_k) @ rng.normal(0, sigma, (d_k, ROW_KEYS))  # raw q·k_j
default = -0.5 * np.log2(d_k)  # log2(1/sqrt(d_k))
if st.session_state.get("sm_log2s") is None:  # first load, or the student moved d_k (its on_change)
    st.session_state["sm_log2s"] = default  # starts at this d_k's own 1/sqrt(d_k)
st.slider(
    t("softmax.scale_slider"), *LOG2_SCALE, step=0.25, key="sm_log2s", help=t("softmax.scale_help"), format="%.2f"
)
shell.track("sm_log2s")
s = 2.0 ** st.session_state["sm_log2s"]
p = analysis.softmax(s * row)
marks = [(1.0, t("softmax.mark.unscaled")), (2.0**default, "1/√d_k"), (2.0 ** (default - 1), "1/(2√d_k)")]
c1, c2 = st.columns(2)
c1.plotly_chart(
    viz.plots.bars(
        p,
        [f"k{j + 1}" for j in range(ROW_KEYS)],
        x_title=t("softmax.keys"),
        y_title=t("lbl.weight"),
        title=t("softmax.row_fig", s=f"{s:.4g}"),
        highlight=int(p.argmax()),
        y_range=(0, 1.05),
        scale=scale,
    ),
    key="sm_row",
)
grid = 2.0 ** np.arange(LOG2_SCALE[0], LOG2_SCALE[1] + 1e-9, 0.125)
ps = [analysis.softmax(g * row) for g in grid]
curves = [
    Series(
        t("softmax.entropy"), np.array([analysis.row_entropy(q) for q in ps]), color=viz.HEAD_COLORS[0], markers=False
    ),
    Series(t("softmax.max_weight"), np.array([q.max() for q in ps]), color=viz.HEAD_COLORS[3], markers=False),
    Series(
        t("softmax.jacobian"),
        np.array([analysis.softmax_jacobian_norm(q) for q in ps]),
        color=viz.HEAD_COLORS[2],
        markers=False,
    ),
]
c2.plotly_chart(
    viz.plots.lines(
        grid,
        curves,
        x_title=t("softmax.scale_axis"),
        y_title="",
        title=t("softmax.curves_title"),
        log_x=True,
        vlines=marks,
        current=s,
        scale=scale,
    ),
    key="sm_curves",
)
entropy, jac = float(analysis.row_entropy(p)), analysis.softmax_jacobian_norm(p)
st.markdown(
    t(
        "softmax.row_numbers",
        s=f"{s:.4g}",
        h=f"{entropy:.3f}",
        hmax=f"{np.log(ROW_KEYS):.3f}",
        pmax=f"{p.max():.3f}",
        jac=f"{jac:.3g}",
        uniform=f"{1 / ROW_KEYS:.3f}",
    )
)
st.latex(r"\frac{\partial\,\mathrm{softmax}(s)_i}{\partial s_j}=p_i(\delta_{ij}-p_j)")
st.latex(r"J=\operatorname{diag}(p)-pp^{\top},\qquad 0\le\|J\|_2\le\tfrac12")
st.markdown(t("softmax.row_explain"))

# ---------------------------------------------------------------- the live model
st.header(t("softmax.live_title"))
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
cfg = model.config
st.markdown(t("softmax.live_intro", d=cfg.d_head, s=f"{cfg.scale:.4f}"))
state.ensure("live_c")
st.select_slider(
    t("softmax.live_factor"), LIVE_FACTORS, key="live_c", format_func=lambda c: f"×{c:g}", help=t("softmax.live_help")
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
        scale=scale,
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
wide.plotly_chart(
    viz.plots.value_heatmap(
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
        scale=scale,
    ),
    key="sm_entropy",
)
means = [
    float(scaled_run(settings.model, settings.weights, text, f * cfg.scale)["entropy"].mean()) for f in LIVE_FACTORS
]
st.plotly_chart(
    viz.plots.lines(
        np.array(LIVE_FACTORS),
        [Series(t("softmax.mean_entropy"), np.array(means))],
        log_x=True,
        x_title=t("softmax.live_factor"),
        y_title=t("softmax.entropy"),
        title=t("softmax.entropy_curve"),
        current=c,
        vlines=[(1.0, t("softmax.trained_scale"))],
        scale=scale,
    ),
    key="sm_entropy_curve",
)
if "next" in run:
    names_, probs = run["next"]
    st.plotly_chart(
        viz.plots.bars(
            probs,
            names_,
            x_title=t("softmax.next_token"),
            y_title=t("common.prob"),
            title=t("softmax.next_title", c=f"{c:g}"),
            highlight=0,
            text_fmt=".2g",
            log_y=True,  # a confident model puts 0.99 on one token: the others show only on a log axis
            scale=scale,
        ),
        key="sm_next",
    )
    st.caption(t("softmax.next_caption"))
else:
    st.caption(t("softmax.next_decoder_only"))

# ---------------------------------------------------------------- dot product vs cosine
st.header(t("softmax.cos_title"))
st.markdown(t("softmax.cos_intro"))
st.latex(r"q\cdot k=\|q\|\,\|k\|\cos\theta")
st.latex(r"\cos\theta=\frac{q\cdot k}{\|q\|\,\|k\|}")
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
c1.plotly_chart(
    viz.plots.plane_vectors(
        [Arrow(*qv, "q"), Arrow(*kv, "k")], angle=(0, 1), scale=scale, title=t("softmax.plane_title")
    ),
    key="sm_plane",
)
c2.markdown(
    t("softmax.cos_numbers", dot=f"{qv @ kv:.3f}", cos=f"{analysis.cosine(qv, kv):.3f}", qn=f"{qn:.1f}", kn=f"{kn:.1f}")
)

# Five keys in d_k dimensions at chosen angles and lengths to one query: the most similar in
# direction is not the one attention prefers.
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
