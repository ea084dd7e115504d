"""Cached computations of the tokenization page (lessons/tokens*.py): the vocabulary sweep trains tokenizers
once per process; a replay and the counts on a prompt are small and cached per text."""

from __future__ import annotations

import re

import streamlit as st

from models import data
from models.loading import shipped_tokenizer
from models.published.pretrained import MissingPretrained, model_dir
from models.teaching import bpe_replay, token_stats

from .loaders import _remembered
from .params import local_models, models_key

MARKUP = re.compile(r"\{[^{}]*\}|[*`#|]|:\w+\[|\]\(http[^)]*\)")  # placeholders, Markdown marks, links' targets


@st.cache_resource(show_spinner=False)
def merge_ranks() -> dict:
    return bpe_replay.merge_ranks(shipped_tokenizer())


@st.cache_data(show_spinner=False, max_entries=32)
def replay(text: str) -> bpe_replay.Replay:
    return bpe_replay.replay(shipped_tokenizer(), text, merge_ranks())


@st.cache_resource(show_spinner=False)
@_remembered
def vocab_sweep() -> list[token_stats.SweepRow]:
    """Seven BPE tokenizers trained on the toy corpus: a few seconds, once per server process."""
    return token_stats.sweep()


@st.cache_resource(show_spinner=False)
def held_out() -> tuple[list[str], list[str]]:
    """The held-out English and Chinese sentences the sweep measures on (the same call as in sweep())."""
    return token_stats.held_out()


@st.cache_resource(show_spinner=False)
def corpus_size() -> int:
    return len(data.tokenizer_corpus())


@st.cache_resource(show_spinner=False)
def lesson_text() -> dict[str, str]:
    """The app's own lesson text in each language (every string of ui/strings), Markdown marks removed:
    the same explanations in English and Chinese, written for people, not for the toy tokenizer."""
    from .strings import TABLES

    out = {}
    for lang in ("en", "zh"):
        texts = [MARKUP.sub("", s[lang]) for table in TABLES.values() for s in table.values() if lang in s]
        out[lang] = "\n".join(x.strip() for x in texts if x.strip())
    return out


def tokenizers() -> dict:
    """name -> tokenizer: the shipped BPE, MiniLM's WordPiece (if installed), each published model's own
    tokenizer.json in $ATTENTION_LAB_MODELS (the file alone; no weights are read)."""
    return _tokenizers(models_key())


@st.cache_resource(show_spinner=False)
def _tokenizers(key: str) -> dict:  # key: params.models_key(), the list local_models() gives
    out = {"bpe": shipped_tokenizer()}
    try:
        wp = token_stats.folder_tokenizer(model_dir())
        if wp is not None:
            out["minilm"] = wp
    except MissingPretrained:
        pass
    for name, entry in local_models().items():
        try:
            tok = token_stats.folder_tokenizer(entry.path)
        except Exception:  # a damaged tokenizer.json: that model is left out of the table
            tok = None
        if tok is not None:
            out[name] = tok
    return out


def counts(name: str, text: str) -> token_stats.Counts:
    return _counts(models_key(), name, text)


@st.cache_data(show_spinner=False, max_entries=64)
def _counts(key: str, name: str, text: str) -> token_stats.Counts:
    return token_stats.count(_tokenizers(key)[name], text)
