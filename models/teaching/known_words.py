"""What the shipped toy tokenizer knows of words (issue 39): its whole English words and Chinese characters, how
much of a text falls apart into single letters or bytes, and which runs of byte tokens spell one character.

The toy models read a 2,048-token byte-level BPE vocabulary trained on their own corpus (models/data.py: the toy
language, and models/lexicon.py: common English words and Chinese characters shown to the tokenizer only). A word
it has is one token with the space before it (" cats"); any other word is spelt in pieces, down to single letters
("The" -> T h e: the vocabulary is lower-case) or, for a character it lacks, the character's UTF-8 bytes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .. import data
from ..lexicon import COMMON_EN
from ..tokenizer import SPECIALS, BPETokenizer, whole
from ..tokenizer import char_runs as char_runs  # ui/toy_words and its tests read it here

CJK_CHAR = "\u3400-\u9fff\uf900-\ufaff"  # Chinese characters (not CJK punctuation: 。 is no word)
# A word: one Chinese character (Chinese is written without spaces), or letters with inner apostrophes ("didn't").
WORD = re.compile(rf"[{CJK_CHAR}]|[^\W\d_{CJK_CHAR}]+(?:['’][^\W\d_{CJK_CHAR}]+)*")
SPLIT_SHARE = 0.25  # a prompt whose word tokens are this share of single letters or bytes or more gets a warning


@dataclass(frozen=True)
class Vocabulary:
    size: int  # tokens in all
    specials: int  # [PAD], [BOS], ... [SEP]
    bytes: int  # the 256 single bytes every byte-level vocabulary starts from
    words: int  # lower-case English words that are one token (after a space)
    toy_words: int  # of them, the words of the toy language's own sentences
    chars: int  # Chinese characters that are one token


@functools.cache
def toy_words() -> frozenset[str]:
    """Every word of the toy language's sentences: its word lists, and the words its sentence templates add."""
    pairs = [w for pair in data.NOUNS + data.VERBS for w in pair]
    lists = [*pairs, *data.BE, *data.ADJECTIVES, *data.NAMES, *data.THINGS, *data.ONES, *data.TEENS, *data.TENS]
    lists += [w for place in data.PLACES for w in place.split()] + ["thousand", "hundred"]
    sentences = [w for s in data.corpus(2000, 0) for w in s.split()]  # the templates' own words (met, gave, ...)
    return frozenset(w for w in [*lists, *sentences] if re.fullmatch("[a-z]+", w))


@functools.cache
def vocabulary(tok: BPETokenizer) -> Vocabulary:
    """The shipped tokenizer's vocabulary, counted (cached per tokenizer: a few ms)."""
    whole = {w for w in toy_words() | set(COMMON_EN) if len(tok.encode(" " + w)) == 1}
    chars = sum(1 for i in range(len(SPECIALS), tok.vocab_size) if _one_char(tok.piece(i)))
    return Vocabulary(tok.vocab_size, len(SPECIALS), 256, len(whole), len(whole & toy_words()), chars)


def _one_char(piece: bytes) -> bool:
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return re.fullmatch(f"[{CJK_CHAR}]", text) is not None


@dataclass(frozen=True)
class Split:
    tokens: int  # tokens that spell words (part of a word of the text)
    pieces: int  # of them, single letters of a longer word, or bytes of a character
    words: tuple[str, ...]  # the words spelt with such pieces, in order, each once
    parted: tuple[str, ...]  # every word spelt in more than one token (pieces or not: "m achine")

    @property
    def share(self) -> float:
        return self.pieces / self.tokens if self.tokens else 0.0

    @property
    def mostly(self) -> bool:
        """Enough of the prompt falls apart that its attention shows little: SPLIT_SHARE of its word tokens, in two
        words or more (one character it lacks in a Chinese sentence is three bytes of eight tokens, and no warning)."""
        return len(self.words) >= 2 and self.share >= SPLIT_SHARE


def split(tok: BPETokenizer, text: str, ids: list[int] | None = None) -> Split:
    """How much of text's words the tokenizer spells in single letters or bytes (a word it lacks)."""
    ids = tok.encode(text) if ids is None else ids
    pieces = [tok.piece(i) for i in ids]
    if b"".join(pieces) != text.encode("utf-8", errors="replace"):  # a lone surrogate (no browser sends one)
        return Split(0, 0, (), ())
    starts, at = [], 0  # each character's byte offset
    for ch in text:
        starts.append(at)
        at += len(ch.encode("utf-8"))
    starts.append(at)
    words = [(starts[m.start()], starts[m.end()], m.group()) for m in WORD.finditer(text)]
    spelt = [0] * len(words)  # tokens per word
    counted = bad = 0
    broken: list[str] = []
    w, at = 0, 0
    for piece in pieces:
        lo, hi = at, at + len(piece)
        at = hi
        while w < len(words) and words[w][1] <= lo:
            w += 1
        if w == len(words) or words[w][0] >= hi:  # a space, a full stop, a digit, an emoji: no word
            continue
        counted += 1
        spelt[w] += 1
        word = words[w][2]
        letter = whole(piece) and len(core := piece.lstrip(b" ")) == 1 and chr(core[0]).isalpha() and len(word) > 1
        if letter or not whole(piece):
            bad += 1
            if word not in broken:
                broken.append(word)
    parted = tuple(dict.fromkeys(word for (_, _, word), n in zip(words, spelt, strict=True) if n > 1))
    return Split(counted, bad, tuple(broken), parted)
