"""Positional encodings: sinusoidal waves, the shift-as-rotation property, RoPE, learned tables,
and what attention does with no positional information at all."""

import numpy as np
import streamlit as st

import models
import viz
from models import analysis
from models.positional import pair_frequencies, rope_rotate, rope_score_grid, shift_matrix, sinusoidal_table
from ui import shell, state
from ui.i18n import names, t
from ui.loaders import get_model, learned_positions, shuffle_deltas
from ui.params import PE_BASES, PE_DIMS
from viz.plots import Arrow, Series

ROUNDING = 1e-6  # the shuffle bars start here: smaller output differences are float32 rounding

settings = state.current()
scale = settings.scale
st.markdown(t("positional.intro"))

# ---------------------------------------------------------------- sinusoidal
st.header(t("positional.sin_title"))
st.latex(r"PE_{(pos,\,2i)}=\sin\!\big(pos\cdot\omega_i\big),\quad PE_{(pos,\,2i+1)}=\cos\!\big(pos\cdot\omega_i\big)")
st.latex(r"\omega_i=\mathrm{base}^{-2i/d_{\mathrm{model}}}")
st.caption(t("positional.sin_source"))
for name in ("pe_d", "pe_base", "pe_n", "pe_dims"):
    state.ensure(name)
c1, c2, c3 = st.columns(3)
c1.select_slider("d_model", PE_DIMS, key="pe_d")
c2.select_slider(t("positional.base"), PE_BASES, key="pe_base", help=t("positional.base_help"))
c3.slider(t("positional.positions"), 16, 512, key="pe_n", step=16)
d, base, n_pos = st.session_state["pe_d"], st.session_state["pe_base"], st.session_state["pe_n"]
kept = [i for i in st.session_state["pe_dims"] if i < d] or [0]
if kept != st.session_state["pe_dims"]:
    st.session_state["pe_dims"] = kept
st.multiselect(t("positional.dims"), list(range(d)), key="pe_dims", max_selections=8, help=t("positional.dims_help"))
shell.track("pe_d", "pe_base", "pe_n", "pe_dims")
dims = st.session_state["pe_dims"] or [0]
pe = sinusoidal_table(n_pos, d, base)  # [P, d]
omega = pair_frequencies(d, base)


def signed_map(a, title, x_title, y_title, hover, limit=None, square=True):
    """A big position table (no cell text) on the red-white-blue scale, symmetric around 0."""
    return viz.plots.value_heatmap(
        a, None, None, title=title, x_title=x_title, y_title=y_title, hover_name=hover, colorscale="diverging",
        zmin=-limit if limit else None, zmax=limit, text_fmt=None, square=square, scale=scale,
    )  # fmt: skip


def number(x: float) -> str:
    """3 significant digits, without exponent notation for the long periods (47,124, not 4.71e+04)."""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.3g}"


def dim_name(i: int) -> str:
    fn = "sin" if i % 2 == 0 else "cos"
    return t("positional.dim_series", i=i, fn=fn, period=number(2 * np.pi / omega[i // 2]))


waves = viz.plots.lines(
    np.arange(n_pos),
    [Series(dim_name(i), pe[:, i], markers=False) for i in dims],
    x_title=t("positional.pos"),
    y_title="PE(pos, i)",
    title=t("positional.waves_title"),
    y_range=(-1.1, 1.1),
    scale=scale,
)
st.plotly_chart(waves, key="pe_waves")
st.markdown(t("positional.waves_explain", fast=f"{2 * np.pi:.2f}", slow=number(2 * np.pi / omega[-1])))
c1, c2 = st.columns(2)
c1.plotly_chart(
    signed_map(
        pe,
        t("positional.table_title", n=n_pos, d=d),
        t("positional.dim"),
        t("positional.pos"),
        "PE",
        limit=1,
        square=False,
    ),
    key="pe_table",
)
sim = pe @ pe.T
c2.plotly_chart(
    signed_map(sim, t("positional.sim_title"), "pos′", "pos", "PE·PE"),
    key="pe_sim",
)
spread = max(float(np.ptp(np.diagonal(sim, k))) for k in range(n_pos))
st.markdown(t("positional.sim_explain", d=d, spread=f"{spread:.1e}"))

with st.expander(t("positional.cell_title"), expanded=True):
    c1, c2 = st.columns(2)
    pos = c1.number_input(t("positional.pos"), 0, n_pos - 1, value=min(5, n_pos - 1), key="pe_cell_pos")
    dim = c2.number_input(t("positional.dim"), 0, d - 1, value=min(10, d - 1), key="pe_cell_dim")
    i = dim // 2
    fn = "sin" if dim % 2 == 0 else "cos"
    angle = pos * omega[i]
    st.latex(rf"PE_{{({pos},\,{dim})}}=\{fn}\!\Big(\frac{{{pos}}}{{{base}^{{{2 * i}/{d}}}}}\Big)")
    st.latex(rf"=\{fn}({angle:.4f})={pe[pos, dim]:.6f}")

# ---------------------------------------------------------------- shift = rotation
st.header(t("positional.shift_title"))
st.markdown(t("positional.shift_intro"))
st.latex(
    r"\begin{pmatrix}PE_{(pos+k,\,2i)}\\PE_{(pos+k,\,2i+1)}\end{pmatrix}="
    r"\begin{pmatrix}\cos k\omega_i&\sin k\omega_i\\-\sin k\omega_i&\cos k\omega_i\end{pmatrix}"
    r"\begin{pmatrix}PE_{(pos,\,2i)}\\PE_{(pos,\,2i+1)}\end{pmatrix}"
)
for name in ("pe_k", "pe_pos", "pe_pair"):
    state.ensure(name)
st.session_state["pe_pair"] = min(st.session_state["pe_pair"], d // 2 - 1)
st.session_state["pe_pos"] = min(st.session_state["pe_pos"], n_pos - 1)
c1, c2, c3 = st.columns(3)
c1.slider(t("positional.pos"), 0, n_pos - 1, key="pe_pos")
c2.slider(t("positional.offset"), 0, 64, key="pe_k")
c3.slider(t("positional.pair"), 0, d // 2 - 1, key="pe_pair", help=t("positional.pair_help"))
shell.track("pe_k", "pe_pos", "pe_pair")
k, p0, pair = st.session_state["pe_k"], st.session_state["pe_pos"], st.session_state["pe_pair"]
m = shift_matrix(k, d, base)
full = sinusoidal_table(n_pos + k, d, base)
err = float(np.abs(full[:n_pos] @ m.T - full[k:]).max())
a, b = full[p0, 2 * pair : 2 * pair + 2], full[p0 + k, 2 * pair : 2 * pair + 2]
arrows = [
    Arrow(a[0], a[1], f"PE({p0})", viz.HEAD_COLORS[0]),
    Arrow(b[0], b[1], f"PE({p0 + k})", viz.HEAD_COLORS[3]),  # the same vector, two ways
]
c1, c2 = st.columns([3, 2])
c1.plotly_chart(
    viz.plots.plane_vectors(
        arrows,
        title=t("positional.shift_fig", pair=pair, d0=2 * pair, d1=2 * pair + 1),
        x_title=f"PE(pos, {2 * pair}) = sin",
        y_title=f"PE(pos, {2 * pair + 1}) = cos",
        circle=1.0,
        scale=scale,
    ),
    key="pe_shift",
)
c2.markdown(
    t(
        "positional.shift_numbers",
        k=k,
        pair=pair,
        omega=f"{omega[pair]:.4g}",
        angle=f"{np.degrees(k * omega[pair]):.2f}",
        err=f"{err:.1e}",
        n=n_pos,
        d=d,
    )
)

# ---------------------------------------------------------------- RoPE
st.header(t("positional.rope_title"))
st.markdown(t("positional.rope_intro"))
st.latex(r"\langle R_{m}\,q,\;R_{n}\,k\rangle=q^{\top}R_{m}^{\top}R_{n}\,k=q^{\top}R_{n-m}\,k")
st.latex(r"R_{m}=\bigoplus_i\begin{pmatrix}\cos m\theta_i&-\sin m\theta_i\\ \sin m\theta_i&\cos m\theta_i\end{pmatrix}")
for name in ("rope_m", "rope_n"):
    state.ensure(name)
c1, c2 = st.columns(2)
c1.slider(t("positional.rope_m"), 0, 64, key="rope_m")
c2.slider(t("positional.rope_n"), 0, 64, key="rope_n")
shell.track("rope_m", "rope_n")
qm, kn = st.session_state["rope_m"], st.session_state["rope_n"]
d_rope = 32
rng = np.random.default_rng(7)  # one fixed q and k, so moving a slider moves only the positions
q, kv = rng.normal(size=d_rope), rng.normal(size=d_rope)
theta = pair_frequencies(d_rope)
rq = rope_rotate(q[None], np.array([qm]))[0]
rk = rope_rotate(kv[None], np.array([kn]))[0]
shifted = rope_rotate(q[None], np.array([qm + 10]))[0] @ rope_rotate(kv[None], np.array([kn + 10]))[0]
arrows = [
    Arrow(q[0], q[1], "q", viz.HEAD_COLORS[0], dash="dot"),
    Arrow(rq[0], rq[1], f"q, m={qm}", viz.HEAD_COLORS[0]),
    Arrow(kv[0], kv[1], "k", viz.HEAD_COLORS[1], dash="dot"),
    Arrow(rk[0], rk[1], f"k, n={kn}", viz.HEAD_COLORS[1]),
]
c1, c2 = st.columns(2)
c1.plotly_chart(
    viz.plots.plane_vectors(
        arrows,
        title=t("positional.rope_fig", theta=f"{theta[0]:.3g}"),
        x_title=t("positional.pair_x"),
        y_title=t("positional.pair_y"),
        scale=scale,
    ),
    key="rope_plane",
)
grid = rope_score_grid(q, kv, 64)
c2.plotly_chart(
    signed_map(grid, t("positional.rope_grid"), t("positional.key_pos"), t("positional.query_pos"), "q·k"),
    key="rope_grid",
)
rope_spread = max(float(np.ptp(np.diagonal(grid, o))) for o in range(-63, 64))
st.markdown(
    t(
        "positional.rope_numbers",
        m=qm,
        n=kn,
        dot=f"{rq @ rk:.6f}",
        m2=qm + 10,
        n2=kn + 10,
        dot2=f"{shifted:.6f}",
        plain=f"{q @ kv:.6f}",
        norm_q=f"{np.linalg.norm(q):.6f}",
        norm_rq=f"{np.linalg.norm(rq):.6f}",
        spread=f"{rope_spread:.1e}",
        d=d_rope,
    )
)

# ---------------------------------------------------------------- learned
source = "encoder"  # the shipped encoder, or the selected model when it has a learned table (MiniLM)
try:
    if settings.model != source and get_model(settings.model).config.positional == "learned":
        source = settings.model
except models.WeightsError:
    pass  # the shuffle section below says what is missing
st.header(t("positional.learned_title", model=names("model")(source)))
table = learned_positions(source)
learned_cos = analysis.cosine_matrix(table)
sin_cos = analysis.cosine_matrix(sinusoidal_table(table.shape[0], table.shape[1]))
c1, c2 = st.columns(2)
c1.plotly_chart(
    signed_map(
        learned_cos, t("positional.learned_fig", n=table.shape[0], d=table.shape[1]), "pos′", "pos", "cos", limit=1
    ),
    key="learned_sim",
)
offsets = np.arange(33)
c2.plotly_chart(
    viz.plots.lines(
        offsets,
        [
            Series(t("positional.learned_series"), analysis.mean_by_offset(learned_cos, 32)),
            Series(t("positional.sin_series"), analysis.mean_by_offset(sin_cos, 32)),
        ],
        x_title=t("positional.offset"),
        y_title=t("positional.mean_cos"),
        title=t("positional.by_offset"),
        scale=scale,
    ),
    key="learned_offset",
)
near, far = analysis.mean_by_offset(learned_cos, 32)[[1, 32]]
st.markdown(t("positional.learned_explain", near=f"{near:.2f}", far=f"{far:.2f}"))

# ---------------------------------------------------------------- no positional encoding
st.header(t("positional.none_title"))
st.markdown(t("positional.none_intro"))
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
state.ensure("shuf")
st.number_input(t("positional.shuffle_seed"), 0, 999, key="shuf", help=t("positional.shuffle_seed_help"))
shell.track("shuf")
res = shuffle_deltas(settings.model, text, st.session_state["shuf"])
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
    col.plotly_chart(
        viz.plots.bars(
            delta,
            shuffled,
            x_title=t("positional.shuffled_pos"),
            y_title=t("positional.delta"),
            title=title,
            text_fmt=None,
            log_y=True,  # 1e-7 (rounding) beside 30: only a log axis shows both
            y_range=(ROUNDING, top * 2),
            scale=scale,
        ),
        key=f"shuffle_{key}",
    )
    col.caption(t("positional.max_delta", value=f"{delta.max():.1e}"))
st.markdown(
    t("positional.none_explain", bi=f"{res['none.bidirectional'].max():.1e}", causal=f"{res['none.causal'].max():.2g}")
)
