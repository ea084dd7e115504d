"""The block page's second section: pre- vs post-norm gradient norms per layer at initialisation (Xiong et al.
2020), computed once per process."""

import numpy as np
import streamlit as st

import viz
from models.teaching import norms
from ui import charts
from ui.block_loaders import depth_gradients
from ui.i18n import t
from ui.loaders import with_status
from ui.state import Settings
from viz import Series


def depth_section(settings: Settings) -> None:
    scale = settings.figure_scale
    g, sweep = with_status(t("block.computing"), depth_gradients)
    cfg = norms.DEPTH
    L = cfg["n_layers"]
    st.subheader(t("block.depth_title"))
    st.markdown(
        t(
            "block.depth_explain",
            L=L,
            d=cfg["d_model"],
            h=cfg["n_heads"],
            ff=cfg["d_ff"],
            b=norms.GRAD_BATCH,
            t=norms.GRAD_LEN,
            seeds=", ".join(map(str, norms.GRAD_SEEDS)),
        )
    )
    layers = np.arange(1, L + 1)
    pre, post = g.pre.mean(0), g.post.mean(0)
    cols = st.columns(2)
    grad = viz.lines(
        layers,
        [
            Series(t("block.pre"), pre, low=g.pre.min(0), high=g.pre.max(0)),
            Series(t("block.post"), post, low=g.post.min(0), high=g.post.max(0)),
        ],
        x_title=t("block.x_layer"),
        y_title=t("block.y_grad"),
        title=t("block.grad_title"),
        log_y=True,
        scale=scale,
    )
    charts.plot(cols[0], grad, key="depth_grads")
    ratio = viz.lines(
        layers,
        [Series(t("block.y_ratio"), post / pre, color="#d62728")],
        x_title=t("block.x_layer"),
        y_title=t("block.y_ratio"),
        title=t("block.ratio_title"),
        hlines=[(float(np.sqrt(L)), t("block.sqrt_l", v=f"{np.sqrt(L):.2f}"))],
        scale=scale,
    )
    charts.plot(cols[1], ratio, key="depth_ratio")
    depths = np.array(sorted(sweep), dtype=float)
    charts.plot(
        st,
        viz.lines(
            depths,
            [
                Series(t("block.measured"), np.array([sweep[int(n)] for n in depths]), color="#d62728"),
                Series("√L", np.sqrt(depths), color="#7f7f7f", dash="dash", markers=False),
            ],
            x_title=t("block.x_depth"),
            y_title=t("block.y_ratio"),
            title=t("block.sweep_title"),
            height=round(300 * scale),
            scale=scale,
        ),
        key="depth_sweep",
    )
    st.markdown(
        t(
            "block.depth_readout",
            pre=f"{g.ratio(g.pre):.2f}",
            post=f"{g.ratio(g.post):.2f}",
            last=f"{post[-1] / pre[-1]:.2f}",
            first=f"{post[0] / pre[0]:.2f}",
            L=L,
            sqrt=f"{np.sqrt(L):.2f}",
        )
    )
    st.markdown(t("block.warmup"))
