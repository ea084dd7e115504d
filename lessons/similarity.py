"""Sentence similarity with a real pretrained encoder (MiniLM): mean-pooled embeddings vs [CLS]."""

import numpy as np
import streamlit as st

import viz
from ui import charts, shell, state, url
from ui.i18n import t
from ui.loaders import sentence_embeddings

MAX_SENTENCES = 6

settings = state.current()
model = shell.model_or_stop(settings, "minilm", always="similarity.always_minilm")
st.markdown(t("similarity.intro"))
state.ensure("sentences")
# The sentences beside their numbered list (the figures' S1, S2, ...), so that the figures start on a 1366x768
# projector's first screen (issue 39).
box, listed = st.columns(2)
box.text_area(
    t("similarity.sentences"),
    key="sentences",
    height=170,
    max_chars=url.MAX_SENTENCES_CHARS,
    help=t("similarity.sentences_help"),
)
shell.track("sentences")
lines = [s.strip() for s in (st.session_state["sentences"] or "").splitlines() if s.strip()]
if len(lines) < 2:
    listed.info(t("similarity.too_few"))
    shell.stop()
if len(lines) > MAX_SENTENCES:
    box.warning(t("similarity.too_many", n=len(lines), most=MAX_SENTENCES))
    lines = lines[:MAX_SENTENCES]
for s in lines:
    if model.source_ids(s)[1]:
        box.warning(t("prompt.truncated", n=len(model.tokenizer.encode(s)), max_len=model.config.max_len))
        break
emb = sentence_embeddings(tuple(lines))
names = [f"S{i + 1}" for i in range(len(lines))]
listed.markdown("\n".join(f"{i + 1}. {shell.code_span(s[:120])}" for i, s in enumerate(lines)))
c1, c2 = st.columns(2)
for col, kind in zip((c1, c2), ("mean", "cls"), strict=True):
    sim = emb[kind] @ emb[kind].T
    charts.plot(
        col,
        viz.value_heatmap(
            sim,
            names,
            names,
            index_labels=False,
            title=t(f"similarity.title.{kind}"),
            hover_name="cos",
            colorscale="diverging",
            zmin=-1,
            zmax=1,
            text_fmt=".2f",
            scale=settings.figure_scale,
        ),
        key=f"sim_{kind}",
    )
off = ~np.eye(len(lines), dtype=bool)
cos = {k: (emb[k] @ emb[k].T)[off] for k in ("mean", "cls")}
span = {k: t("similarity.range", low=f"{v.min():.2f}", high=f"{v.max():.2f}") for k, v in cos.items()}
st.markdown(t("similarity.explain", mean=span["mean"], cls=span["cls"]))
st.latex(r"\bar h=\frac1T\sum_{t=1}^{T}h_t,\qquad e=\frac{\bar h}{\|\bar h\|}")
st.latex(r"\cos(e_i,e_j)=e_i\cdot e_j")
st.caption(t("similarity.source", source=model.meta.get("source", "")))
