"""Masks: the mask matrices beside the attention they produce, and what changing one token changes."""

import numpy as np
import streamlit as st

import viz
from ui import charts, controls, shell, state, url
from ui.i18n import md, t, viz_labels
from ui.loaders import trace, trace_ids
from ui.params import MAX_PAD

MASKS = ("causal", "sliding", "bidirectional", "prefix", "padding")

settings = state.current()
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
labels = viz_labels()
cfg = model.config
self_key, stream = ("decoder.self", "decoder") if cfg.arch == "decoder" else ("encoder.self", "encoder")
st.markdown(t("masks.intro"))
if cfg.arch == "encoder-decoder":
    st.caption(t("masks.encdec_note"))

base = trace(settings.model, settings.weights, text)
n = len(base.tokens)
# Layer, head and the two sliders in one row, so the first pair of figures starts high on a laptop screen.
which, sliders = st.columns(2)
with which:
    layer, head = controls.layer_head(cfg)
for name in ("prefix", "pad", "window", "pos", "word"):
    state.ensure(name)
st.session_state["prefix"] = min(st.session_state["prefix"], n)
st.session_state["window"] = min(st.session_state["window"], max(n, 2))
st.session_state["pos"] = min(st.session_state["pos"], n - 1)
with sliders:
    c1, c2, c3 = st.columns(3)
    c1.slider(t("masks.prefix_len"), 1, max(n, 2), key="prefix", help=t("masks.prefix_help"))
    c2.slider(t("masks.window"), 1, max(n, 2), key="window", help=t("masks.window_help"))
    c3.slider(t("masks.pad"), 1, MAX_PAD, key="pad", help=t("masks.pad_help"))
shell.track("prefix", "pad", "window")
prefix_len, pad, window = st.session_state["prefix"], st.session_state["pad"], st.session_state["window"]

for kind in MASKS:
    if kind == "padding":
        tr = trace(settings.model, settings.weights, text, pad=pad)
    elif kind == "sliding":
        tr = trace(settings.model, settings.weights, text, mask=kind, window=window)
    else:
        tr = trace(settings.model, settings.weights, text, mask=kind, prefix_len=prefix_len)
    st.subheader(t(f"mask.{kind}"))
    left, right = st.columns(2)
    mask = tr.masks[self_key]
    fig = viz.mask_heatmap(mask, tr.tokens, tr.tokens, scale=settings.figure_scale, labels=labels)
    charts.plot(left, fig, key=f"m_{kind}")
    weights = tr.attention[self_key][layer, head]
    title = t("masks.attention_title", layer=layer + 1, head=head + 1)
    fig = viz.heatmap(weights, tr.tokens, tr.tokens, title=title, scale=settings.figure_scale, labels=labels)
    shell.plot(fig, f"a_{kind}", weights, tr.tokens, tr.tokens, where=right)
    st.markdown(t(f"mask.{kind}.explain"))  # under its figures: the figures come first

st.header(t("masks.perturb_title"))
st.markdown(t("masks.perturb_intro"))
c1, c2 = st.columns(2)
c1.selectbox(t("masks.position"), list(range(n)), format_func=lambda i: f"{i} {base.tokens[i]}", key="pos")
c2.text_input(t("masks.word"), key="word", max_chars=url.MAX_WORD_CHARS)
shell.track("pos", "word")
pos, word = st.session_state["pos"], st.session_state["word"] or ""
new = model.tokenizer.encode((" " if base.tokens[pos].startswith("␣") else "") + word.strip())
if not word.strip() or not new:
    st.info(t("masks.word_empty"))
    shell.stop()
changed = list(base.ids)
changed[pos] = new[0]
st.caption(t("masks.replaced", pos=pos, old=md(base.tokens[pos]), new=md(model.tokenizer.token_str(new[0]))))
cols = st.columns(2)
for col, kind in zip(cols, ("causal", "bidirectional"), strict=True):
    before = trace_ids(settings.model, settings.weights, tuple(base.ids), kind).hidden[stream][-1]
    after = trace_ids(settings.model, settings.weights, tuple(changed), kind).hidden[stream][-1]
    delta = np.abs(after - before).max(axis=-1)  # [T]: largest change of each position's output
    col.subheader(t(f"mask.{kind}"))
    charts.plot(col, viz.change_bars(delta, base.tokens, changed_position=pos, scale=settings.figure_scale,
                                     labels=labels),
                     key=f"d_{kind}")  # fmt: skip
    col.caption(t("masks.changed_count", before=int((delta[:pos] > 1e-6).sum()), n=pos))
