"""Encoder-decoder: translate a number step by step (cross-attention filling in), then teacher forcing."""

from dataclasses import replace

import numpy as np
import streamlit as st

import viz
from lessons.translate_prefill import PREFILL_TOKENS, WIDE_ROWS, prefill, real_source
from lessons.translate_t5 import t5_source
from models.inspection.experiments import top_probs
from ui import charts, controls, shell, state, url
from ui.i18n import t, tokens_line, viz_labels
from ui.loaders import alignment_heads, forced, translation
from ui.params import PARAMS

settings = state.current()
# A published encoder-decoder picked in the sidebar (Marian, opus-mt) translates real text; otherwise the toy.
name = shell.published_or(settings, "encoder-decoder", "encoder-decoder")
model = shell.model_or_stop(settings, name, always="translate.always_encdec")
cfg = model.config
labels = viz_labels()
# The source box beside the intro, the steps beside the layer and head: on a 1366x768 projector the figures start on
# the first screen (issue 39).
intro, box = st.columns([3, 1], vertical_alignment="center")
intro.markdown(t("translate.intro") if name == "encoder-decoder" else t("translate.intro_real"))

state.ensure("source")
real = name != "encoder-decoder"
if real:
    real_source(st.session_state, PARAMS["source"].default)
box.text_input(
    t("translate.source_real" if real else "translate.source"),
    key="source",
    live=True,
    max_chars=url.MAX_PROMPT_CHARS,
    help=None if real else t("translate.source_help"),
)
shell.track("source")
source = shell.prompt_or_stop(settings, model, st.session_state["source"] or "")
source = t5_source(cfg, source)  # a published T5: its task prefix first
steps = translation(settings.weights, source, name=name)
# Quoted, so a digit token reads apart from its position on the axis ("2 “3”", not "2 3").
src_tokens = [f"“{tok}”" for tok in model.tokenizer.token_strs(model.source_ids(source)[0])]

# ---------------------------------------------------------------- step by step
st.header(t("translate.step_title"))
nav, which = st.columns([3, 2], vertical_alignment="bottom")
with nav:
    n = controls.stepper("tr_step", len(steps))
with which:
    layer, head = controls.layer_head(cfg)
step = steps[n - 1]
out = [s.token for s in steps[:n]]
st.markdown(t("translate.so_far", n=n, total=len(steps)) + " " + tokens_line(out))
c1, c2 = st.columns(2)
row = step.attention["decoder.cross"][layer]  # [H, source]
charts.plot(
    c1,
    viz.head_rows(
        row,
        src_tokens,
        title=t("translate.row_title", token=out[-1], layer=layer + 1),
        labels=replace(viz_labels(), key=t("translate.source_tokens")),
        scale=settings.figure_scale,
    ),
    key="tr_row",
)
matrix = np.stack([s.attention["decoder.cross"][layer, head] for s in steps[:n]])  # [steps so far, source]
# Row i: the decoder reads token i and predicts token i+1; both figures on this page label it "read → written".
reads = [*model.tokenizer.token_strs(model.start_ids), *out[:-1]]
read_written = [f"{a} → {b}" for a, b in zip(reads, out, strict=True)]
shell.plot(
    viz.heatmap(
        matrix,
        read_written,
        src_tokens,
        title=t("translate.matrix_title", layer=layer + 1, head=head + 1),
        scale=settings.figure_scale,
        labels=labels,
    ),
    "tr_matrix",
    matrix,
    read_written,
    src_tokens,
    where=c2,
)
if name == "encoder-decoder":  # the alignment probe uses the toy's number pairs
    share, chance = alignment_heads(settings.weights)
    best = np.unravel_index(int(share.argmax()), share.shape)
    st.caption(
        t(
            "translate.step_caption",
            layer=best[0] + 1,
            head=best[1] + 1,
            share=f"{share.max():.0%}",
            chance=f"{chance:.0%}",
            this=f"{share[layer, head]:.0%}",
        )
    )
_, top_names, top_p = top_probs(model, step.probs, 10)
charts.plot(
    st,
    viz.bars(
        top_p,
        top_names,
        x_title=t("common.next_token"),
        y_title=t("common.prob"),
        title=t("translate.probs_title", n=n),
        highlight=0,
        text_fmt=".2g",
        log_y=True,
        scale=settings.figure_scale,
    ),
    key="tr_probs",
)

# ---------------------------------------------------------------- teacher forcing
st.header(t("translate.forced_title"))
st.markdown(t("translate.forced_intro"))
greedy_text, notes = prefill(model, steps, st.session_state["source"] or "")  # readable (translate_prefill.py)
if st.session_state.get("typed") is None or st.session_state.get("_typed_for") not in (None, source):
    st.session_state["typed"] = greedy_text  # pre-filled with the model's own translation of this source
st.session_state["_typed_for"] = source
typed_label = t("translate.typed" if name == "encoder-decoder" else "translate.typed_real")
st.text_input(typed_label, key="typed", live=True, max_chars=url.MAX_PROMPT_CHARS, help=t("translate.typed_help"))
for note in notes if st.session_state["typed"] == greedy_text else []:
    st.caption(t(note, steps=len(steps), n=PREFILL_TOKENS))
shell.track("typed")
typed = st.session_state["typed"] or ""
if model.target_ids(typed)[1]:
    st.warning(t("translate.typed_long", max_len=cfg.max_len))
res = forced(settings.weights, source, typed, name=name)
disagree = [i for i, (a, b) in enumerate(zip(res["tokens"], res["best"], strict=True)) if a != b]
charts.plot(
    st,
    viz.bars(
        res["probs"],
        res["tokens"],
        x_title=t("translate.typed_tokens"),
        y_title=t("common.prob"),
        title=t("translate.forced_probs_title"),
        highlight=disagree or None,
        text_fmt=".2g",
        log_y=True,  # a wrong word gets 1e-7: only a log axis shows its (red) bar
        scale=settings.figure_scale,
    ),
    key="tr_forced",
)
if disagree:
    first = disagree[0]
    st.warning(
        t(
            "translate.disagree",
            k=len(disagree),
            pos=first + 1,
            typed=shell.code_span(res["tokens"][first]),
            p=f"{res['probs'][first]:.2g}",
            best=shell.code_span(res["best"][first]),
            q=f"{res['best_probs'][first]:.3f}",
        )
    )
else:
    st.success(t("translate.agree", logp=f"{np.log(res['probs']).sum() + 0.0:.3f}"))  # + 0.0: no "-0.000"
tr = res["trace"]
forced_rows = [f"{a} → {b}" for a, b in zip(tr.target_tokens, res["tokens"], strict=True)]
forced_src = [f"“{tok}”" for tok in tr.tokens]
c1, c2 = st.columns(2) if len(forced_rows) <= WIDE_ROWS else (st.container(), st.container())  # long: full width
shell.plot(
    viz.heatmap(
        tr.attention["decoder.self"][layer, head],
        forced_rows,
        tr.target_tokens,
        title=t("translate.self_title", layer=layer + 1, head=head + 1),
        scale=settings.figure_scale,
        labels=labels,
    ),
    "tr_self",
    tr.attention["decoder.self"][layer, head],
    forced_rows,
    tr.target_tokens,
    where=c1,
)
shell.plot(
    viz.heatmap(
        tr.attention["decoder.cross"][layer, head],
        forced_rows,
        forced_src,
        title=t("translate.cross_title", layer=layer + 1, head=head + 1),
        scale=settings.figure_scale,
        labels=labels,
    ),
    "tr_cross",
    tr.attention["decoder.cross"][layer, head],
    forced_rows,
    forced_src,
    where=c2,
)
st.markdown(t("translate.forced_explain"))
