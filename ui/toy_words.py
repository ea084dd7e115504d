"""What the shipped toy models know of words, told where a prompt is typed (issue 39): a "What it knows" pop-over
beside the prompt box, a warning when the prompt falls apart into single letters or bytes, the token chips with a
run of byte tokens shown as the one character it spells, and where the Generate page starts from the app's default.

The counts come from the tokenizer itself (models/teaching/known_words.py), so they stay true if the models are
retrained.
"""

from __future__ import annotations

import streamlit as st

import models
from models.teaching import known_words
from models.tokenizer import BPETokenizer

from . import params, state
from .i18n import code_span, t
from .loaders import shipped_tokenizer

MAX_WORDS = 3  # split words named in the warning


def is_toy(model_name: str) -> bool:
    return model_name in models.SHIPPED


def note() -> str:
    """The pop-over's text: the vocabulary, counted live, and where real sentences go (the sidebar's model list)."""
    v = known_words.vocabulary(shipped_tokenizer())
    return t(
        "prompt.knows_body",
        vocab=f"{v.size:,}",
        words=f"{v.words:,}",
        toy=v.toy_words,
        chars=f"{v.chars:,}",
        bytes=v.bytes,
        specials=v.specials,
        examples=t("prompt.examples"),
        minilm=t("model.minilm"),
        model=t("model.label"),
        add=t("fetch.open"),
    )


def knows(where, model_name: str) -> None:
    """The pop-over beside the prompt box (no height of its own: the figure stays where it was)."""
    if not is_toy(model_name):
        return
    try:
        text = note()
    except models.WeightsError:  # the page says so itself (shell.tokenizer_or_stop / model_or_stop)
        return
    with where.popover(t("prompt.knows")):
        st.markdown(text)


def split_warning(model_name: str, text: str) -> None:
    """One caption under the box when the prompt is mostly single letters or bytes to the toy tokenizer."""
    if not is_toy(model_name) or not text.strip():
        return
    try:
        found = known_words.split(shipped_tokenizer(), text)
    except models.WeightsError:
        return
    if not found.mostly:
        return
    words = [code_span(w) for w in found.words[:MAX_WORDS]]
    sep = "、" if state.lang() == "zh" else ", "
    shown = sep.join(words) + (" …" if len(found.words) > MAX_WORDS else "")
    st.caption(
        t(
            "prompt.split",
            share=round(100 * found.share),
            words=shown,
            examples=t("prompt.examples"),
            knows=t("prompt.knows"),
        )
    )


def chip_labels(tokenizer, ids: list[int], tokens: list[str]) -> list[str]:
    """The token chips: tokens as they are, except that a run of byte tokens spelling one character is one chip,
    the character and its byte count ("桌 (3 bytes)"), as real tokenizers are commonly shown. The figures keep one
    row per token. Only the shipped tokenizer: a published one labels its pieces itself (小₁ 小₂ 小₃)."""
    if not isinstance(tokenizer, BPETokenizer) or len(ids) != len(tokens):
        return list(tokens)
    pieces = [tokenizer.piece(i) for i in ids]
    out: list[str] = []
    at = 0
    for start, end, char in known_words.char_runs(pieces):
        out += tokens[at:start]
        n = sum(len(p) for p in pieces[start:end])
        if n == end - start:
            out.append(t("prompt.bytes_chip", char=char, n=n))
        else:
            out.append(t("prompt.bytes_chip_tokens", char=char, n=n, k=end - start))
        at = end
    return out + tokens[at:]


def generate_start(model_name: str, text: str) -> str | None:
    """The prompt the Generate page continues instead of text, or None. Only while the prompt is still the one the app
    put there (state.ensure remembers it as _auto_prompt; one typed, picked or linked is the student's) and the page
    runs a toy decoder: the English default ends a sentence, after which the toy decoder writes a lone space with
    p = 1.00 (ui/params.GENERATE_STARTS)."""
    if not is_toy(model_name) or st.session_state.get("_auto_prompt") != text:
        return None
    return params.GENERATE_STARTS.get(text)
