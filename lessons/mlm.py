"""Encoder-only: predict masked tokens from both sides; BERT's masking recipe; encoder vs decoder."""

import streamlit as st

import viz
from lessons.mlm_recipe import recipe_section
from models.inspection.experiments import attention_sides, mask_positions
from ui import charts, controls, shell, state
from ui.i18n import t, viz_labels
from ui.loaders import left_context, masked_run

settings = state.current()
model_name = shell.published_or(settings, "encoder", "encoder")  # a published BERT/RoBERTa if picked
model = shell.model_or_stop(settings, model_name, always="mlm.always_encoder")
toy = model_name == "encoder"
if not toy and not model.config.mlm_head:
    st.warning(t("mlm.no_head_detector" if model.config.detector_head else "mlm.no_head"))  # MiniLM; ELECTRA disc.
    shell.stop()
text = shell.prompt_or_stop(settings, model)
cfg = model.config
st.markdown(t("mlm.intro"))

# ---------------------------------------------------------------- choose what to mask
ids, _ = model.source_ids(text)
tokens = model.tokenizer.token_strs(ids)
maskable = [i for i, tok_id in enumerate(ids) if tok_id not in model.tokenizer.special_ids]
state.ensure("picked")
st.session_state["picked"] = [p for p in st.session_state["picked"] if p in maskable]
st.pills(
    t("mlm.pick"),
    maskable,
    selection_mode="multi",
    format_func=lambda i: tokens[i],
    key="picked",
    help=t("mlm.pick_help"),
)
shell.track("picked")
mask_id = model.tokenizer.mask_id
masked_ids = [mask_id if i in st.session_state["picked"] else tok_id for i, tok_id in enumerate(ids)]
positions = mask_positions(masked_ids, mask_id)
if not positions:
    st.info(t("mlm.no_mask"))
else:
    run = masked_run(settings.weights, tuple(masked_ids), name=model_name, hidden=tuple(ids))
    shell.token_chips(run["tokens"])
    state.ensure("focus_mask")
    if st.session_state["focus_mask"] not in positions:
        st.session_state["focus_mask"] = positions[0]
    if len(positions) > 1:
        st.segmented_control(
            t("mlm.focus"),
            positions,
            format_func=lambda p: f"{p} [MASK]",
            key="focus_mask",
            required=True,
        )
    shell.track("focus_mask")
    pos = st.session_state["focus_mask"]
    guess, probs = run["top"][pos]
    original = tokens[pos] if ids[pos] != mask_id else None
    c1, c2 = st.columns(2)
    charts.plot(
        c1,
        viz.bars(
            probs,
            guess,
            x_title=t("mlm.predicted"),
            y_title=t("common.prob"),
            title=t("mlm.top_title", pos=pos),
            highlight=[i for i, g in enumerate(guess) if g == original] or None,
            text_fmt=".2f",
            scale=settings.figure_scale,
        ),
        key="mlm_top",
    )
    if original is not None:
        rank, p_hidden = run["hidden"][pos]
        c1.caption(t("mlm.original", token=shell.code_span(original), rank=rank, p=f"{p_hidden:.3f}"))
    with c2:
        layer, _ = controls.layer_head(cfg, with_head=False)
    rows = run["attention"][layer, :, pos]  # [H, T]
    charts.plot(
        c2,
        viz.head_rows(
            rows,
            run["tokens"],
            title=t("mlm.row_title", pos=pos, layer=layer + 1),
            labels=viz_labels(),
            scale=settings.figure_scale,
        ),
        key="mlm_row",
    )
    sides = attention_sides(model, masked_ids, rows.mean(0), pos)  # averaged over heads
    c2.caption(t("mlm.sides", **{k: f"{v:.0%}" for k, v in sides.items()}))


if positions and not toy:  # the comparison needs the toy decoder, which reads the toy encoder's vocabulary
    st.caption(t("mlm.versus_toy_only"))
elif positions:
    # ------------------------------------------------------------ encoder vs decoder
    st.header(t("mlm.versus_title"))
    st.markdown(t("mlm.versus_intro"))
    dec_tokens, dec_probs = left_context(settings.weights, tuple(masked_ids), pos)
    c1, c2 = st.columns(2)
    for col, (who, toks, ps) in zip(
        (c1, c2),
        (("decoder", dec_tokens, dec_probs), ("encoder", guess[:5], probs[:5])),
        strict=True,
    ):
        charts.plot(
            col,
            viz.bars(
                ps,
                toks,
                x_title=t("common.next_token" if who == "decoder" else "mlm.predicted"),
                y_title=t("common.prob"),
                title=t(f"mlm.versus.{who}", pos=pos),
                text_fmt=".2f",
                scale=settings.figure_scale,
            ),
            key=f"mlm_vs_{who}",
        )
    st.markdown(t("mlm.versus_explain"))

# ---------------------------------------------------------------- BERT's recipe
recipe_section(settings, model, model_name, ids, maskable)
