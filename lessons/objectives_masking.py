"""BERT's masked LM (counted here, taught on the MLM page) and RoBERTa's dynamic masking vs the static baseline."""

import random

import streamlit as st

import viz
from models.training import mlm, objectives
from ui import charts
from ui.i18n import names, t

STRIP_PX = 380  # fits a phone; presentation mode (scale 1.5, columns stacked) widens it with the font
EPOCHS = 4  # shown
ROBERTA_EPOCHS = 40  # counted: RoBERTa's static baseline covers 40 epochs with 10 masks (§4.1)
OUTCOME_COLORS = {"mask": viz.HEAD_COLORS[3], "random": viz.HEAD_COLORS[1], "keep": viz.HEAD_COLORS[2]}


def legend() -> str:
    return " · ".join(names("mlm.outcome")(o) for o in mlm.OUTCOMES)


def strip(where, tokens: list[str], outcome: list, scale: float, key: str) -> None:
    colors = {i: OUTCOME_COLORS[o] for i, o in enumerate(outcome) if o}
    charts.plot(where, viz.token_strip(tokens, colors=colors, scale=scale, width_px=round(STRIP_PX * scale)),
                key=key, width="content")  # fmt: skip


def masking_section(model, ids: list[int], seed: int, scale: float) -> None:
    tok, cfg = model.tokenizer, model.config
    n = sum(i not in tok.special_ids for i in ids)
    st.header(t("objectives.mlm_title"))
    inp, outcome = mlm.bert_recipe(ids, random.Random(seed), cfg.vocab_size, tok.mask_id, tok.special_ids, exact=True)
    k = sum(o is not None for o in outcome)
    strip(st, tok.token_strs(inp), outcome, scale, "obj_mlm")  # the strip first, what it shows under it (issue 39)
    st.markdown(t("objectives.mlm_explain", k=k, n=n, share=f"{k / n:.0%}", legend=legend()))
    st.page_link("lessons/mlm.py", label=t("objectives.mlm_link"), icon=":material/question_mark:")

    st.header(t("objectives.dynamic_title"))
    st.markdown(t("objectives.dynamic_explain"))
    dynamic = objectives.dynamic_masks(ids, seed, ROBERTA_EPOCHS, cfg.vocab_size, tok.mask_id, tok.special_ids)
    static = objectives.static_masks(ids, seed, ROBERTA_EPOCHS, cfg.vocab_size, tok.mask_id, tok.special_ids)
    c1, c2 = st.columns(2)
    for col, kind, masks in ((c1, "dynamic", dynamic), (c2, "static", static)):
        col.markdown(f"**{t(f'objectives.{kind}_head')}**")
        for e, (inp_e, out_e) in enumerate(masks[:EPOCHS], start=1):
            col.caption(t(f"objectives.{kind}_epoch", e=e, copy=(e - 1) % objectives.STATIC_COPIES + 1))
            strip(col, tok.token_strs(inp_e), out_e, scale, f"obj_{kind}_{e}")
        distinct = len({tuple(inp_e) for inp_e, _ in masks})
        col.markdown(t("objectives.coverage", epochs=ROBERTA_EPOCHS, masks=distinct, c=objectives.coverage(masks), n=n))
    st.markdown(t("objectives.static_note"))
