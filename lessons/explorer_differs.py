"""What differs, measured (issue 44): drawn under the Explorer's two columns when a second model is chosen. Two models
read the same prompt; this section puts numbers on how they differ: where their tokenizers cut, what each predicts,
how alike their layers are (CKA), which heads attend alike, which roles each has, and what each layer would predict.

Everything comes from ui/differs_loaders.py and ui/head_loaders.py (cached), so a rerun runs no model.
"""

from __future__ import annotations

import streamlit as st

import models
from lessons import explorer_differs_parts as parts
from ui import charts, precision_keys, shell
from ui.differs_loaders import TOP_K, lined_up, next_tokens
from ui.i18n import code_span, md, names, t
from ui.loaders import with_status
from viz.compare import token_rows


def who(side: str, name: str, weights: str, other_weights: str) -> str:
    """ "A · tiny-gpt2" (a shipped model by its translated name); the weights named too when the two differ."""
    label = names("model")(name) if name in models.AVAILABLE else shell.short_name(name)
    if precision_keys.base(weights) != precision_keys.base(other_weights):
        label += f" ({names('weights')(precision_keys.base(weights))})"
    return f"{side} · {label}"


def differs_section(name_a: str, weights_a: str, name_b: str, weights_b: str, text: str, scale: float) -> None:
    """The section for models A and B (names and weights keys as ui.loaders.get_model takes them) on a non-empty
    prompt; scale: the figures' (presentation mode). Every part that cannot apply says why in a message."""
    st.subheader(t("explorer_differs.title"))
    st.markdown(t("explorer_differs.intro"))
    try:
        model_a, model_b = shell.load(name_a, weights_a), shell.load(name_b, weights_b)
    except models.WeightsError as e:
        st.error(t("weights.error", error=md(e)))
        return
    pair = parts.Pair(
        name_a,
        weights_a,
        name_b,
        weights_b,
        text,
        scale,
        who("A", name_a, weights_a, weights_b),
        who("B", name_b, weights_b, weights_a),
        model_a,
        model_b,
    )
    lined = lined_up(name_a, weights_a, name_b, weights_b, text)
    tokens_part(pair, lined)
    next_token_part(pair)
    if len(lined["shared"].spans) < 2:
        st.info(t("explorer_differs.too_few_spans", n=len(lined["shared"].spans)))
    else:
        comparison = parts.comparison_or_message(pair)
        if comparison is not None:
            parts.cka_part(pair, comparison)
            parts.heads_part(pair, comparison)
    parts.roles_part(pair)
    parts.lens_part(pair)


def _reads(who: str, side: dict) -> str:
    """ "A · … reads 11 tokens: 9 from the prompt's text and the special tokens [CLS] [SEP]": every position, as the
    token chips above the column count them, split into the text's tokens and the template's (they cover no
    character)."""
    found = [code_span(tok) for tok in side["specials"]]
    form = "none" if not found else "one" if len(found) == 1 else "many"
    return t(
        f"explorer_differs.tokens_reads.{form}",
        who=md(who),
        n_all=len(side["tokens"]),
        n=side["n_text"],
        specials=" ".join(found),
    )


def tokens_part(pair: parts.Pair, lined: dict) -> None:
    """Both tokenizations over the prompt's characters, the counts, and the spans both cut alike (a table)."""
    st.markdown(f"#### {t('explorer_differs.tokens_title')}")
    a, b, shared = lined["a"], lined["b"], lined["shared"]
    st.markdown(
        _reads(pair.who_a, a)
        + " "
        + _reads(pair.who_b, b)
        + " "
        + t("explorer_differs.tokens_shared", shared=len(shared.spans))
    )
    cuts = sorted({x for span in shared.spans for x in span})
    rows = [("A", a["tokens"], a["spans"]), ("B", b["tokens"], b["spans"])]  # the sentence above names A and B
    fig = token_rows(
        rows,
        pair.text,
        cuts=cuts,
        title=t("explorer_differs.tokens_fig"),
        x_title=t("explorer_differs.characters"),
        hover_names=[pair.who_a, pair.who_b],
        scale=pair.scale,
    )
    charts.plot(st, fig, key="differs_tokens")
    st.caption(t("explorer_differs.tokens_caption"))
    if shared.spans:
        with st.expander(t("explorer_differs.spans_table", n=len(shared.spans))):
            st.dataframe(
                {
                    t("explorer_differs.col.span"): list(range(1, len(shared.spans) + 1)),
                    t("explorer_differs.col.text"): [pair.text[s:e] for s, e in shared.spans],
                    pair.who_a: [" ".join(a["tokens"][p] for p in m) for m in shared.members_a],
                    pair.who_b: [" ".join(b["tokens"][p] for p in m) for m in shared.members_b],
                },
                hide_index=True,
            )


def next_token_part(pair: parts.Pair) -> None:
    """Each decoder's most likely next tokens with their probabilities; an encoder or encoder-decoder: what it
    predicts instead."""
    st.markdown(f"#### {t('explorer_differs.next_title')}")
    for col, side, name, weights, label in zip(st.columns(2), "ab", *pair.by_side(), strict=True):
        top = with_status(t("explorer_differs.running", name=md(label)), next_tokens, name, weights, pair.text)
        col.markdown(f"**{md(label)}**")
        if top is None:
            col.info(t(f"explorer_differs.no_next.{parts.head_kind(pair.model(side))}"))
            continue
        col.markdown(t("explorer_differs.next_line", token=code_span(top["tokens"][0]), p=f"{top['probs'][0]:.3f}"))
        col.dataframe(
            {
                t("explorer_differs.col.token"): top["tokens"],
                t("explorer_differs.col.prob"): [f"{p:.4f}" for p in top["probs"]],
            },
            hide_index=True,
        )
    st.caption(t("explorer_differs.next_caption", k=TOP_K))
