"""Prompt pairs for the "What a head causes" page (lessons/patch.py): the templates, the corruption the page proposes
for a typed prompt, and the batch of pairs drawn from a template. No Streamlit: the tests call it directly.

A corruption must keep the token count (patching moves position t's activation to position t), so each proposal is
checked with the model's own tokenizer (`count`), and a replacement word is chosen among those of the same length.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from models import data

TEMPLATES = ("repeat", "names_en", "names_zh")
SPAN = 6  # words in the repeated span: the toy decoder saw random spans of this kind in training (models/data.py)
BATCH = 8  # pairs in a batch: one prompt is an anecdote
BATCH_SEED = 0  # the batch's names and spans are drawn with this seed, so every class sees the same eight

# The famous indirect-object sentence (Wang et al. 2022) for a published model; the toy decoder reads only its own
# small vocabulary (models/data.py), so it gets the same sentence in words it knows.
NAMES_EN = {
    "real": ("When {a} and {b} went to the store, {b} gave a drink to", ("Mary", "John")),
    "toy": ("when {a} and {b} went to the park , {b} gave a ball to", ("alice", "bob")),
}
NAMES_ZH = ("{a}和{b}去了商店，{b}把饮料给了", ("小明", "小红"))
REAL_NAMES = ["Mary", "John", "Alice", "Bob", "Sarah", "Tom", "Anna", "James", "Emma", "David", "Lucy", "Mark"]
# Words of a repeated span: one token each to the toy tokenizer (the toy language's own), and common English words for
# a published model's tokenizer; no names, so a span is never taken for two names to swap.
TOY_WORDS = [*data.THINGS, *data.ADJECTIVES, "river", "park", "school", "market", "garden", "beach"]
REAL_WORDS = ["apple", "river", "green", "table", "music", "window", "happy", "stone", "paper", "light", "garden",
              "silver", "doctor", "orange", "winter", "castle", "pencil", "yellow", "forest", "bridge"]  # fmt: skip
KNOWN_NAMES = [*data.NAMES, *data.ZH_NAMES, *REAL_NAMES]


@dataclass(frozen=True)
class Pair:
    clean: str
    corrupted: str
    answer: str  # the word the clean prompt should be continued with
    wrong: str  # the word the corrupted prompt points to instead
    kind: str  # names | repeat | none


Count = Callable[[str], int]


def template(kind: str, toy: bool, seed: int = 0) -> Pair:
    """The template's first pair (seed 0: Mary and John; a fixed span), or one drawn with another seed (the batch)."""
    rng = random.Random(seed)
    if kind == "repeat":
        span = rng.sample(TOY_WORDS if toy else REAL_WORDS, SPAN + 1)
        spare, span = span[-1], span[:-1]
        # "the" first: a first word without a space before it is spelt in pieces by the toy tokenizer (y ou ng)
        clean = " ".join(["the", *span, "the", *span[:-1]])
        corrupted = " ".join(["the", *span[:-1], spare, "the", *span[:-1]])  # the answer's first copy replaced
        return Pair(clean, corrupted, span[-1], spare, "repeat")
    if kind == "names_en":
        text, (a, b) = NAMES_EN["toy" if toy else "real"]
        if seed:
            a, b = rng.sample(data.NAMES if toy else REAL_NAMES, 2)
    elif kind == "names_zh":
        text, (a, b) = NAMES_ZH
        if seed:
            a, b = rng.sample(data.ZH_NAMES, 2)
    else:
        raise ValueError(f"unknown template {kind!r}: one of {TEMPLATES}")
    return Pair(text.format(a=a, b=b), text.format(a=b, b=a), a, b, "names")


def batch(kind: str, toy: bool, count: Count, n: int = BATCH) -> list[Pair]:
    """n pairs of the template whose two prompts have the same token count (names of unequal lengths are skipped)."""
    out, seed = [], 0
    while len(out) < n and seed < 20 * n:
        pair = template(kind, toy, seed)
        if count(pair.clean) == count(pair.corrupted) and pair not in out:
            out.append(pair)
        seed += 1
    return out


def propose(text: str, count: Count, toy: bool) -> Pair | None:
    """The corruption the page proposes for a typed clean prompt: two names swapped (the one named once is the
    answer), or, for a repeated word, the word that followed its first occurrence replaced by one of the same token
    count (that word is the answer). None: the page asks the student to type a corrupted prompt."""
    return _swap_names(text, count) or _repeat(text, count, toy)


def _swap_names(text: str, count: Count) -> Pair | None:
    found = []
    for name in KNOWN_NAMES:
        pattern = re.escape(name) if re.match(r"[\u3400-\u9fff]", name) else rf"\b{re.escape(name)}\b"
        hits = [m.start() for m in re.finditer(pattern, text, flags=0 if name[0].isupper() else re.IGNORECASE)]
        if hits and all(name.lower() != f.lower() for f, _, _ in found):
            found.append((name, hits[0], len(hits)))
    if len(found) < 2:
        return None
    (a, _, na), (b, _, nb) = sorted(found, key=lambda f: f[1])[:2]
    a, b = (_as_written(text, a), _as_written(text, b))
    swapped = re.sub(f"{re.escape(a)}|{re.escape(b)}", lambda m: b if m.group(0) == a else a, text)
    answer, wrong = (b, a) if nb < na else (a, b)  # the name said once is the indirect object: the answer
    return Pair(text, swapped, answer, wrong, "names")


def _as_written(text: str, name: str) -> str:
    m = re.search(re.escape(name), text, flags=re.IGNORECASE)
    return m.group(0) if m else name


def _repeat(text: str, count: Count, toy: bool) -> Pair | None:
    words = list(re.finditer(r"\S+", text))
    if len(words) < 3:
        return None
    last = words[-1].group(0)
    earlier = [i for i in range(len(words) - 2) if words[i].group(0) == last]
    if not earlier:
        return None
    target = words[earlier[-1] + 1]
    used = {w.group(0) for w in words}
    n = count(text)
    for word in TOY_WORDS if toy else REAL_WORDS:
        if word in used:
            continue
        corrupted = text[: target.start()] + word + text[target.end() :]
        if count(corrupted) == n:
            return Pair(text, corrupted, target.group(0), word, "repeat")
    return None


def continuation(encode: Callable[[str], list[int]], prompt: str, word: str) -> list[int]:
    """The ids `word` has right after `prompt`: with the space a Latin word takes after a Latin prompt, none after
    Chinese; read off the encoding of prompt + word, so a merge across the join is the tokenizer's own."""
    word = word.strip()
    if not word:
        return []
    cjk = re.match(r"[\u3000-\u9fff\uff00-\uffef]", word) is not None
    sep = "" if cjk or not prompt or prompt[-1].isspace() else " "
    base, full = encode(prompt), encode(prompt + sep + word)
    return full[len(base) :] if full[: len(base)] == base else encode(sep + word)
