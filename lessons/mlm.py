"""Encoder-only: predict masked tokens from both sides; BERT's masking recipe; encoder vs decoder."""

import random

import numpy as np
import streamlit as st

import viz
from models import mlm
from models.experiments import attention_sides, mask_positions
from ui import charts, controls, shell, state
from ui.i18n import names, t, viz_labels
from ui.loaders import left_context, masked_run, recipe_counts
from ui.params import RECIPE_RULES
from viz import Series

DRAWS = 10_000
OUTCOME_COLORS = {"mask": viz.HEAD_COLORS[3], "random": viz.HEAD_COLORS[1], "keep": viz.HEAD_COLORS[2]}

settings = state.current()
model_name = shell.published_or(settings, "encoder", "encoder")  # a published BERT/RoBERTa if picked
model = shell.model_or_stop(settings, model_name, always="mlm.always_encoder")
toy = model_name == "encoder"
if not toy and not model.config.mlm_head:
    st.warning(t("mlm.no_head"))  # a sentence encoder (MiniLM-like) ships without the MLM head
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
    run = masked_run(settings.weights, tuple(masked_ids), name=model_name)
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
        c1.caption(t("mlm.original", token=shell.code_span(original)))
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
st.header(t("mlm.recipe_title"))
st.markdown(t("mlm.recipe_intro"))
state.ensure("recipe_seed")
state.ensure("recipe_rule")
c1, c2 = st.columns([1, 2])
c1.number_input(t("mlm.recipe_seed"), 0, 9999, key="recipe_seed", help=t("mlm.recipe_seed_help"))
c2.segmented_control(t("mlm.recipe_rule"), RECIPE_RULES, format_func=names("mlm.rule"), key="recipe_rule",
                     required=True, help=t("mlm.recipe_rule_help"))  # fmt: skip
shell.track("recipe_seed", "recipe_rule")
if not maskable:
    st.info(t("mlm.recipe_nothing"))
    shell.stop()
exact = st.session_state["recipe_rule"] == "exact"
rng = random.Random(st.session_state["recipe_seed"])
inp, outcome = mlm.bert_recipe(ids, rng, cfg.vocab_size, mask_id, model.tokenizer.special_ids, exact=exact)
colors = {i: OUTCOME_COLORS[o] for i, o in enumerate(outcome) if o}
st.caption(t("mlm.recipe_before"))
STRIP_PX = 380  # fits a phone; wider screens get the same compact block
charts.plot(
    st,
    viz.token_strip(tokens, colors=colors, scale=settings.figure_scale, width_px=STRIP_PX),
    key="recipe_before",
    width="content",
)
st.caption(t("mlm.recipe_after"))
charts.plot(
    st,
    viz.token_strip(model.tokenizer.token_strs(inp), colors=colors, scale=settings.figure_scale, width_px=STRIP_PX),
    key="recipe_after",
    width="content",
)
chosen = [o for o in outcome if o]
if not chosen:
    st.info(t("mlm.recipe_empty", n=len(maskable), p=f"{(1 - mlm.MLM_CHOOSE) ** len(maskable):.0%}"))
st.markdown(
    t(
        "mlm.recipe_draw",
        n=len(maskable),
        k=len(chosen),
        **{o: sum(c == o for c in chosen) for o in mlm.OUTCOMES},
        legend=" · ".join(f"{names('mlm.outcome')(o)}" for o in mlm.OUTCOMES),
    )
)
m = len(maskable)
k_bert = mlm.bert_count(len(ids), m)
st.markdown(t("mlm.rule_compare", n=len(ids), m=m, k=k_bert, mean=f"{mlm.MLM_CHOOSE * m:.2f}",
              p0=f"{(1 - mlm.MLM_CHOOSE) ** m:.1%}"))  # fmt: skip
counts = recipe_counts(tuple(ids), DRAWS, st.session_state["recipe_seed"], model_name, exact)
draws = np.arange(1, DRAWS + 1)
keep = np.unique(np.round(np.geomspace(1, DRAWS, 120)).astype(int)) - 1  # log-spaced points: 120, not 10 000
shares = mlm.recipe_shares(counts)  # running shares per draw: chosen of eligible, each outcome of chosen
series = [
    Series(names("mlm.outcome")(o), shares[o][keep], color=OUTCOME_COLORS[o], markers=False) for o in mlm.OUTCOMES
]
series.append(
    Series(t("mlm.chosen_share_exact", k=k_bert, m=m) if exact
           else t("mlm.chosen_share"), shares["chosen"][keep], color=viz.HEAD_COLORS[7], dash="dot", markers=False)
)  # fmt: skip
charts.plot(
    st,
    viz.lines(
        draws[keep],
        series,
        x_title=t("mlm.draws"),
        y_title=t("mlm.share"),
        title=t("mlm.converge_title_exact" if exact else "mlm.converge_title", n=f"{DRAWS:,}"),
        log_x=True,
        hlines=[(0.8, "80%"), (0.1, "10%")],  # 15% is the dotted line's target (in the title)
        y_range=(0, 1),
        scale=settings.figure_scale,
    ),
    key="recipe_converge",
)
st.markdown(t("mlm.recipe_final", n=f"{DRAWS:,}", **{k: f"{v[-1]:.2%}" for k, v in shares.items()}))
