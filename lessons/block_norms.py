"""The block page's first section: the prompt in a padded batch, normalised by BatchNorm, LayerNorm and RMSNorm."""

import numpy as np
import streamlit as st

import viz
from models.teaching import norms
from ui import charts, shell
from ui.block_loaders import norm_comparison
from ui.i18n import t
from ui.state import Settings
from viz import Series


def _pct(x: float) -> str:
    return f"{x:.0%}" if x >= 0.01 or x == 0 else f"{x:.1e}"


def norms_section(settings: Settings) -> None:
    decoder = shell.model_or_stop(settings, "decoder")  # the toy decoder's embeddings, whatever the sidebar shows
    text = shell.prompt_or_stop(settings, decoder)
    c = norm_comparison(text)
    scale, d, n = settings.figure_scale, c.d_model, len(c.tokens)
    st.subheader(t("block.norms_title"))
    # The two figures first, what they are made of under them: on a 1366x768 projector the page opens on them
    # (issue 39).
    x = np.arange(n)
    kinds = {k: t(f"block.kind.{k}") for k in norms.KINDS}
    cols = st.columns(2)
    panels = ((cols[0], 0, "block.mean_title", "block.y_mean"), (cols[1], 1, "block.std_title", "block.y_std"))
    for where, stat, title, y_title in panels:
        series = [Series(t("block.input"), c.before[stat], color="#7f7f7f", dash="dot")]
        series += [Series(name, c.after[k][stat]) for k, name in kinds.items()]
        fig = viz.lines(x, series, x_title=t("block.x_position"), y_title=t(y_title), title=t(title, d=d), scale=scale)
        charts.plot(where, fig, key=f"norm_stat_{stat}")
    st.caption(
        t(
            "block.stats_caption",
            rms_mean=f"{np.abs(c.after['rmsnorm'][0]).max():.3f}",
            in_mean=f"{np.abs(c.before[0]).max():.3f}",
        )
    )

    st.markdown(t("block.norms_explain", n=len(norms.OTHERS_A), d=d))

    la, lb = c.lengths["A"], c.lengths["B"]
    sentences = [t("block.your_prompt"), *norms.OTHERS_A, t("block.your_prompt"), *norms.OTHERS_B]
    st.dataframe(
        {
            t("block.col.batch"): ["A"] * len(la) + ["B"] * len(lb),
            t("block.col.sentence"): sentences,
            t("block.col.tokens"): la + lb,
            t("block.col.pad"): [max(la) - x for x in la] + [max(lb) - x for x in lb],
        },
        hide_index=True,
    )
    st.caption(
        t(
            "block.batches",
            na=max(la),
            pa=_pct(c.pad_share["A"]),
            nb=max(lb),
            pb=_pct(c.pad_share["B"]),
            extra=norms.EXTRA_PAD,
            pp=_pct(c.pad_share["A+pad"]),
        )
    )

    extra = norms.EXTRA_PAD
    bn = kinds["batchnorm"]
    series = [
        Series(t("block.series_others", kind=bn), c.change_others["batchnorm"]),
        Series(t("block.series_padding", kind=bn, extra=extra), c.change_padding["batchnorm"], dash="dash"),
    ]
    for k in ("layernorm", "rmsnorm"):
        both = np.maximum(c.change_others[k], c.change_padding[k])
        series.append(Series(t("block.series_both", kind=kinds[k]), both, dash="dot"))
    fig = viz.lines(
        x,
        series,
        x_title=t("block.x_position"),
        y_title=t("block.y_change"),
        title=t("block.change_title"),
        scale=scale,
    )
    charts.plot(st, fig, key="norm_change")
    st.markdown(
        t(
            "block.change_readout",
            bn_o=_pct(c.change_others["batchnorm"].max()),
            bn_p=_pct(c.change_padding["batchnorm"].max()),
            ln=f"{max(c.change_others['layernorm'].max(), c.change_padding['layernorm'].max()):g}",
            rms=f"{max(c.change_others['rmsnorm'].max(), c.change_padding['rmsnorm'].max()):g}",
        )
    )
