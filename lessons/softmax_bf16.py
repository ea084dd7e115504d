"""The Softmax page's bfloat16 section (issue 30): a real model's attention with float32 and with bfloat16 matmuls,
per layer and for the head that moved most, with the predicted tokens of both. The selected published model, or
MiniLM (shipped, offline) when a toy model is selected: the toy models run only float32."""

import numpy as np
import streamlit as st

import models
import viz
from models.inspection.precision_gap import BF16_EPS
from models.published import checkpoints
from ui import charts, precision_keys, shell
from ui.i18n import md, names, t
from ui.loaders import computed, get_model, with_status
from ui.params import local_models
from ui.precision_loaders import bf16_gap, keys
from ui.state import Settings
from viz.precision import precision_gaps


def _both_loaded(name: str) -> bool:
    return all(computed(get_model, name, k) for k in keys(name).values())


def _ready(name: str) -> bool:
    """Both precisions loadable now: a published model's second copy only when the student asks (it takes memory);
    MiniLM's (90 MB) at once. A load that fails (too large, missing) says why."""
    entry = local_models().get(name)
    if entry is not None and entry.error is not None:
        return False  # the sections above say why
    if entry is not None and not _both_loaded(name):
        extra = entry.params * 2  # bytes: the smaller copy is bfloat16, 2 bytes a parameter (float32: 4)
        mem = f"{extra / 2**30:.1f} GiB" if extra >= 2**29 else f"{max(extra / 2**20, 0.1):.1f} MB"
        size = checkpoints.size_text(entry.params)
        st.caption(t("softmax_bf16.second_copy", name=shell.code_span(name), size=size, mem=mem))
        if not st.toggle(t("softmax_bf16.run"), key="bf16_run"):
            return False
    elif entry is None and not st.toggle(t("softmax_bf16.compare"), key="bf16_run"):
        return False  # MiniLM: two forwards per new prompt, only for a student who asks (the toy page stays fast)
    try:
        for k in keys(name).values():
            shell.load(name, k)
    except models.WeightsError as e:
        st.warning(t("softmax_bf16.cannot", name=shell.code_span(name), error=md(e)))
        return False
    return True


def bf16_section(settings: Settings, fig_scale: float) -> None:
    """Max and mean |Δ| of the attention weights per layer, the worst head's difference, the argmax tokens."""
    name = settings.model if precision_keys.published(settings.model) else "minilm"
    st.header(t("softmax_bf16.title"))
    st.markdown(t("softmax_bf16.intro"))
    if name != settings.model:
        st.caption(t("softmax_bf16.minilm"))
    text = settings.prompt
    if not text.strip() or not _ready(name):
        return
    label = names("model")(name) if name in models.PRETRAINED else name
    res = with_status(t("softmax_bf16.loading", name=label), bf16_gap, name, text)
    layer, head = res["worst"]
    tokens = res["tokens"]
    c1, c2 = st.columns(2)
    charts.plot(
        c1,
        precision_gaps(
            res["layer_max"],
            res["layer_mean"],
            eps=BF16_EPS,
            max_name=t("softmax_bf16.max"),
            mean_name=t("softmax_bf16.mean"),
            eps_name=t("softmax_bf16.eps"),
            x_title=t("softmax_bf16.layer"),
            y_title=t("softmax_bf16.y"),
            title=t("softmax_bf16.fig_layers"),
            scale=fig_scale,
        ),
        key="bf16_layers",
    )
    shell.plot(
        viz.value_heatmap(
            res["diff"],
            tokens,
            tokens,
            colorscale="diverging",
            text_fmt=None,
            hover_name=t("softmax_bf16.delta"),
            title=t("softmax_bf16.fig_head", layer=layer + 1, head=head + 1),
            scale=fig_scale,
        ),
        "bf16_head",
        res["diff"],
        tokens,
        tokens,
        where=c2,
    )
    top = float(res["layer_max"].max())
    numbers = dict(n=len(tokens), max=f"{top:.2g}", layer=layer + 1, head=head + 1, ratio=f"{top / BF16_EPS:.2g}")
    numbers |= dict(mean=f"{float(np.mean(res['layer_mean'])):.2g}", hidden=f"{res['hidden_rel']:.2%}")
    st.markdown(t("softmax_bf16.numbers", **numbers))
    if res["predicts"]:
        same = sum(a == b for a, b in zip(res["argmax_f32"], res["argmax_bf16"], strict=True))
        a, b = shell.code_span(res["argmax_f32"][-1]), shell.code_span(res["argmax_bf16"][-1])
        st.markdown(t("softmax_bf16.agree", same=same, n=len(tokens), share=f"{res['agreement']:.0%}", a=a, b=b))
    else:
        st.markdown(t("softmax_bf16.no_head", name=label))
    st.markdown(t("softmax_bf16.explain"))
