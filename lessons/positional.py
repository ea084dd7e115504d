"""Positional encodings: sinusoidal waves, the shift-as-rotation property, RoPE, learned tables,
and what attention does with no positional information at all."""

import numpy as np
import streamlit as st

import viz
from lessons.positional_layers import rope_by_layer
from lessons.positional_sections import learned, no_positional, relative_bias, rope
from models.core.positional import pair_frequencies, shift_matrix, sinusoidal_table
from ui import charts, shell, state
from ui.i18n import t
from ui.params import PE_BASES, PE_DIMS
from viz import Arrow, Series
from viz.labels import plain_number as number

settings = state.current()
fig_scale = settings.figure_scale  # figure and font size, not an attention scale
st.markdown(t("positional.intro"))


def dim_name(i: int, omega: np.ndarray) -> str:
    fn = "sin" if i % 2 == 0 else "cos"
    return t("positional.dim_series", i=i, fn=fn, period=number(2 * np.pi / omega[i // 2]))


# ---------------------------------------------------------------- sinusoidal
def sinusoidal() -> tuple[int, int, int, np.ndarray]:
    """Vaswani's sine and cosine table: its waves, the table itself, PE·PE, and one cell worked out.
    Returns (d_model, base, positions, the pairs' frequencies) for the shift section."""
    st.header(t("positional.sin_title"))
    for name in ("pe_d", "pe_base", "pe_n", "pe_dims"):
        state.ensure(name)
    c1, c2, c3, c4 = st.columns([1, 1, 1, 2])  # one row of controls: the waves start higher
    c1.select_slider("d_model", PE_DIMS, key="pe_d")
    c2.select_slider(t("positional.base"), PE_BASES, key="pe_base", help=t("positional.base_help"))
    c3.slider(t("positional.positions"), 16, 512, key="pe_n", step=16)
    d, base, n_pos = st.session_state["pe_d"], st.session_state["pe_base"], st.session_state["pe_n"]
    kept = [i for i in st.session_state["pe_dims"] if i < d] or [0]
    if kept != st.session_state["pe_dims"]:
        st.session_state["pe_dims"] = kept
    c4.multiselect(
        t("positional.dims"), list(range(d)), key="pe_dims", max_selections=8, help=t("positional.dims_help")
    )
    shell.track("pe_d", "pe_base", "pe_n", "pe_dims")
    dims = st.session_state["pe_dims"] or [0]
    pe = sinusoidal_table(n_pos, d, base)  # [P, d]
    omega = pair_frequencies(d, base)

    waves = viz.lines(
        np.arange(n_pos),
        [Series(dim_name(i, omega), pe[:, i], markers=False) for i in dims],
        x_title=t("positional.pos"),
        y_title="PE(pos, i)",
        title=t("positional.waves_title"),
        y_range=(-1.1, 1.1),
        scale=fig_scale,
    )
    charts.plot(st, waves, key="pe_waves")
    # The formulas under the waves they draw: on a 1366x768 projector the waves start on the first screen (issue 39).
    left, right = st.columns([3, 1], vertical_alignment="center")  # one row; a phone stacks them
    left.latex(
        r"PE_{(pos,\,2i)}=\sin\!\big(pos\cdot\omega_i\big),\quad PE_{(pos,\,2i+1)}=\cos\!\big(pos\cdot\omega_i\big)"
    )
    right.latex(r"\omega_i=\mathrm{base}^{-2i/d_{\mathrm{model}}}")
    st.caption(t("positional.sin_source"))
    st.markdown(t("positional.waves_explain", fast=f"{2 * np.pi:.2f}", slow=number(2 * np.pi / omega[-1])))
    c1, c2 = st.columns(2)
    charts.plot(
        c1,
        viz.signed_map(
            pe,
            t("positional.table_title", n=n_pos, d=d),
            t("positional.dim"),
            t("positional.pos"),
            "PE",
            limit=1,
            square=False,
            scale=fig_scale,
        ),
        key="pe_table",
    )
    sim = pe @ pe.T
    charts.plot(
        c2,
        viz.signed_map(sim, t("positional.sim_title"), "pos′", "pos", "PE·PE", scale=fig_scale),
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
    return d, base, n_pos, omega


# ---------------------------------------------------------------- shift = rotation
def shift(d: int, base: int, n_pos: int, omega: np.ndarray) -> None:
    """Moving k positions rotates each (sin, cos) pair by k·ω_i: one matrix for every position."""
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
    charts.plot(
        c1,
        viz.plane_vectors(
            arrows,
            title=t("positional.shift_fig", pair=pair, d0=2 * pair, d1=2 * pair + 1),
            x_title=f"PE(pos, {2 * pair}) = sin",
            y_title=f"PE(pos, {2 * pair + 1}) = cos",
            circle=1.0,
            scale=fig_scale,
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


d, base, n_pos, omega = sinusoidal()
shift(d, base, n_pos, omega)
rope(fig_scale)
rope_by_layer(settings)  # only when the sidebar holds a published SmolLM3 (NoPE layers) or Gemma 3
learned(settings, fig_scale)
relative_bias(settings, fig_scale)  # only when the sidebar holds a published T5
no_positional(settings, fig_scale)
