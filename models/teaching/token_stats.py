"""Counting what tokenizers do: vocabulary size against sequence length, tokens per character, words per token.

The sweep retrains the shipped tokenizer's recipe (models/tokenizer.build_tokenizer on
data.tokenizer_corpus, exactly what models/train.py ran) at several vocabulary sizes. BPE stops
early when no pair is left to merge: every pre-token of the corpus is already one token, so the
vocabulary reached can be below the one asked for. Lengths are measured on held-out sentences of the
toy language (sentences that are not in the training corpus).

Counting rules, the same everywhere on the page: a *word* is a whitespace-separated piece containing
at least one letter or digit (so "." alone is not a word; Chinese, written without spaces, is measured
per character instead); a *character* is a Unicode code point, spaces included (the unit of OpenAI's
"1 token ≈ 4 characters").
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from tokenizers import Tokenizer

from .. import data
from ..published.hf_tokenizer import HFTokenizer
from ..tokenizer import SPECIALS, build_tokenizer

BYTE_MIN = 256 + len(SPECIALS)  # every byte plus the special tokens: the smallest byte-level vocabulary
SIZES = (BYTE_MIN, 300, 400, 600, 1000, 2048, 4096)  # 2048 is the shipped size; 4096 is more than the corpus has
HELD_OUT_SEED = 2024
WORD = re.compile(r"\S+")


def word_count(text: str) -> int:
    return sum(1 for w in WORD.findall(text) if any(c.isalnum() for c in w))


def char_count(text: str) -> int:
    return len(text)


@dataclass(frozen=True)
class Counts:
    tokens: int
    words: int
    chars: int
    unknown: int = 0  # tokens that are the tokenizer's [UNK] (WordPiece has no byte fallback)

    @property
    def per_char(self) -> float:
        return self.tokens / self.chars if self.chars else float("nan")

    @property
    def words_per_token(self) -> float:
        return self.words / self.tokens if self.tokens else float("nan")

    @property
    def chars_per_token(self) -> float:
        return self.chars / self.tokens if self.tokens else float("nan")


def count(tokenizer, text: str) -> Counts:
    """Tokens of text (no special tokens added), its words and characters as defined in the module doc."""
    ids = tokenizer.encode(text)
    unk = getattr(tokenizer, "unk_id", None)
    return Counts(len(ids), word_count(text), char_count(text), ids.count(unk) if unk is not None else 0)


def non_word_tokens(tokenizer, text: str) -> dict[str, int]:
    """The tokens of text that hold no letter or digit (" .", the line break, ...), counted by the text each
    decodes to: where a text's tokens outnumber its words once every word is a single token."""
    out: dict[str, int] = {}
    for i in tokenizer.encode(text):
        piece = tokenizer.decode([i])
        if not any(c.isalnum() for c in piece):
            out[piece] = out.get(piece, 0) + 1
    return out


def held_out(n: int = 300, seed: int = HELD_OUT_SEED) -> tuple[list[str], list[str]]:
    """English and Chinese sentences of the toy language that the tokenizer corpus does not contain."""
    seen = set(data.tokenizer_corpus())
    rng = random.Random(seed)
    en = [s for s in (data.agreement_sentence(rng)[0] if i % 2 else data.name_sentence(rng) for i in range(n))]
    zh = [data.chinese_sentence(rng) for _ in range(n)]
    return [s for s in en if s not in seen], [s for s in zh if s not in seen]


@dataclass(frozen=True)
class SweepRow:
    requested: int
    reached: int  # the vocabulary the trainer actually produced (≤ requested)
    merges: int
    en: Counts  # on the held-out English sentences
    zh: Counts  # on the held-out Chinese sentences
    seconds: float  # training time of this size
    en_non_word: dict[str, int] = field(default_factory=dict)  # non_word_tokens of the held-out English text


def sweep(sizes=SIZES, seed: int = 0, texts: tuple[list[str], list[str]] | None = None) -> list[SweepRow]:
    """Train one tokenizer per size on the shipped recipe; a few seconds in all (call it once per process)."""
    corpus = data.tokenizer_corpus(seed)
    en, zh = held_out() if texts is None else texts
    en_text, zh_text = "\n".join(en), "".join(zh)
    rows = []
    for size in sizes:
        t0 = time.perf_counter()
        tok = build_tokenizer(corpus, size)
        seconds = time.perf_counter() - t0
        reached = tok.vocab_size
        en_counts, zh_counts, extra = count(tok, en_text), count(tok, zh_text), non_word_tokens(tok, en_text)
        rows.append(SweepRow(size, reached, reached - BYTE_MIN, en_counts, zh_counts, seconds, extra))
    return rows


def folder_tokenizer(folder: Path) -> HFTokenizer | None:
    """A published model's tokenizer.json alone (no weights read); None when the folder has none (Marian)."""
    path = Path(folder) / "tokenizer.json"
    if not path.is_file():
        return None
    tok = Tokenizer.from_file(str(path))
    return HFTokenizer(tok, tok.get_vocab_size())
