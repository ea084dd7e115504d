"""Masks: the mask matrices beside the attention they produce, and what changing one token changes."""

import numpy as np
import streamlit as st

import viz
from ui import body, charts, controls, shell, state, url
from ui.i18n import md, t, viz_labels
from ui.loaders import trace, trace_ids
from ui.params import MAX_PAD

MASKS = ("causal", "sliding", "bidirectional", "prefix", "padding")
# The mask whose slider sits in its section: (session key, label, help, the slider's maximum given n tokens)
SLIDERS = {
    "prefix": ("prefix", "masks.prefix_len", "masks.prefix_help", lambda n: max(n, 2)),
    "sliding": ("window", "masks.window", "masks.window_help", lambda n: max(n, 2)),
    "padding": ("pad", "masks.pad", "masks.pad_help", lambda n: MAX_PAD),
}


def _own(kind: str, default: str) -> dict:
    """The trace keywords of a mask without a slider: none for the model's own mask, so that its section and the
    page's base trace are one cached run, not two of the same forward (issue 40)."""
    return {} if kind == default else {"mask": kind}


def _slider(kind: str, n: int, default: str) -> dict:
    """The section's own slider, if it has one; the trace's keywords for it."""
    if kind not in SLIDERS:
        return _own(kind, default)
    name, label, help_key, top = SLIDERS[kind]
    state.ensure(name)
    st.session_state[name] = min(st.session_state[name], top(n))  # a shorter prompt than the last one
    st.slider(t(label), 1, top(n), key=name, help=t(help_key))
    shell.track(name)
    value = st.session_state[name]
    return {"prefix": {"mask": kind, "prefix_len": value}, "sliding": {"mask": kind, "window": value},
            "padding": {"pad": value}}[kind]  # fmt: skip


@body.page_part
def mask_section(kind: str, settings, text: str, layer: int, head: int, self_key: str, n: int, default: str) -> None:
    """One mask: its matrix beside the attention it gives the chosen head, then what it is."""
    st.subheader(t(f"mask.{kind}"))
    tr = trace(settings.model, settings.weights, text, **_slider(kind, n, default))
    labels = viz_labels()
    left, right = st.columns(2)
    mask = tr.masks[self_key]
    fig = viz.mask_heatmap(mask, tr.tokens, tr.tokens, scale=settings.figure_scale, labels=labels)
    charts.plot(left, fig, key=f"m_{kind}")
    weights = tr.attention[self_key][layer, head]
    title = t("masks.attention_title", layer=layer + 1, head=head + 1)
    fig = viz.heatmap(weights, tr.tokens, tr.tokens, title=title, scale=settings.figure_scale, labels=labels)
    shell.plot(fig, f"a_{kind}", weights, tr.tokens, tr.tokens, where=right)
    st.markdown(t(f"mask.{kind}.explain"))  # under its figures: the figures come first


@body.page_part
def perturb(settings, model, text: str, base, stream: str) -> None:
    """Change one token: how far each position's output moves under the causal and the bidirectional mask."""
    n = len(base.tokens)
    st.header(t("masks.perturb_title"))
    st.markdown(t("masks.perturb_intro"))
    for name in ("pos", "word"):
        state.ensure(name)
    st.session_state["pos"] = min(st.session_state["pos"], n - 1)
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
    labels = viz_labels()
    for col, kind in zip(st.columns(2), ("causal", "bidirectional"), strict=True):
        # the prompt as it is under this mask: the trace its section above drew (the same forward as a run of
        # base.ids, not run again)
        before = trace(settings.model, settings.weights, text, **_own(kind, model.config.default_mask)).hidden[stream][
            -1
        ]
        after = trace_ids(settings.model, settings.weights, tuple(changed), kind).hidden[stream][-1]
        delta = np.abs(after - before).max(axis=-1)  # [T]: largest change of each position's output
        col.subheader(t(f"mask.{kind}"))
        charts.plot(col, viz.change_bars(delta, base.tokens, changed_position=pos, scale=settings.figure_scale,
                                         labels=labels),
                         key=f"d_{kind}")  # fmt: skip
        col.caption(t("masks.changed_count", before=int((delta[:pos] > 1e-6).sum()), n=pos))


settings = state.current()
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
cfg = model.config
self_key, stream = ("decoder.self", "decoder") if cfg.arch == "decoder" else ("encoder.self", "encoder")
st.markdown(t("masks.intro"))
if cfg.arch == "encoder-decoder":
    st.caption(t("masks.encdec_note"))

base = trace(settings.model, settings.weights, text)
n = len(base.tokens)
with st.columns(2)[0]:  # half the width, as beside the sliders before
    layer, head = controls.layer_head(cfg)
# Each mask's section is a part of its own (ui/body.page_part) with its own slider: moving the prefix, the window
# or the padding reruns that section's two figures, not the page's twelve (issue 40).
for kind in MASKS:
    mask_section(kind, settings, text, layer, head, self_key, n, cfg.default_mask)
perturb(settings, model, text, base, stream)
