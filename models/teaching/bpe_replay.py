"""Replay a byte-level BPE tokenizer's merges on a text, one merge at a time (Sennrich et al. 2016).

The shipped tokenizer (models/tokenizer.py) stores its merges in rank order in tokenizer.json. Encoding
splits the text into pre-tokens (special tokens, then one pre-token per CJK character, one per digit,
GPT-2's byte-level regex), writes each pre-token as bytes, and then, inside each pre-token, merges the
adjacent pair with the lowest rank until no pair of the merge list is left. Merges never cross
pre-tokens, so applying the ranks in order over the whole text gives the same result: step k of the
replay is the k-th distinct rank that fires anywhere in this text. The final step equals encode(text),
which the tests check on many texts.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from itertools import pairwise

from ..tokenizer import SPECIALS, BPETokenizer

MAX_CHARS = 10_000  # longer text is cut before the replay (a prompt box never sends more)


@dataclass(frozen=True)
class Step:
    rank: int  # position in the tokenizer's merge list (0 = learnt first)
    left: int  # token ids of the pair and of the merged token
    right: int
    merged: int
    count: int  # how many times the pair merged in this text at this step
    n_tokens: int  # length of the whole sequence after this step


@dataclass(frozen=True)
class Replay:
    start: list[int]  # the text as bytes (one id per byte), plus special tokens
    steps: list[Step]
    final: list[int]  # equals tokenizer.encode(text)
    _words: list[list[tuple[int, list[int]]]]  # per pre-token: (rank, symbols after that merge), rank-ordered

    def at(self, k: int) -> list[int]:
        """The sequence after the first k steps (k = 0: bytes; k = len(steps): the tokenizer's output)."""
        if k <= 0:
            return list(self.start)
        if k >= len(self.steps):
            return list(self.final)
        rank = self.steps[k - 1].rank
        out: list[int] = []
        for history in self._words:
            i = bisect.bisect_right([r for r, _ in history], rank) - 1
            out.extend(history[i][1])
        return out


def merge_ranks(tokenizer: BPETokenizer) -> dict[tuple[int, int], tuple[int, int]]:
    """(left id, right id) -> (rank, merged id), read from the tokenizer's own saved merge list."""
    model = json.loads(tokenizer.tok.to_str())["model"]
    vocab = model["vocab"]
    out = {}
    for rank, m in enumerate(model["merges"]):
        a, b = m if isinstance(m, list) else m.split(" ", 1)  # newer files store pairs, older "a b"
        out[(vocab[a], vocab[b])] = (rank, vocab[a + b])
    return out


def _bpe(symbols: list[int], ranks: dict) -> list[tuple[int, list[int], list[int]]]:
    """Merge the lowest-rank pair (every non-overlapping occurrence, left to right) until none is left.
    Returns (rank, pair positions merged, symbols after) per merge."""
    history = []
    while len(symbols) > 1:
        best = min((ranks[p] for p in pairwise(symbols) if p in ranks), default=None)
        if best is None:
            break
        rank, merged = best
        pair = next(p for p in pairwise(symbols) if ranks.get(p) == best)
        out, i, count = [], 0, 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
                out.append(merged)
                i += 2
                count += 1
            else:
                out.append(symbols[i])
                i += 1
        symbols = out
        history.append((rank, pair, count, list(symbols)))
    return history


def pieces(tokenizer: BPETokenizer, text: str) -> list[list[int]]:
    """The pre-tokens of text, each as the ids of its bytes (a special token stays one id)."""
    text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    vocab = tokenizer.tok.get_vocab()
    out = []
    for part in re.split("(" + "|".join(re.escape(s) for s in SPECIALS) + ")", text):
        if part in SPECIALS:
            out.append([vocab[part]])
        elif part:
            out += [[vocab[c] for c in piece] for piece, _ in tokenizer.tok.pre_tokenizer.pre_tokenize_str(part)]
    return out


def replay(tokenizer: BPETokenizer, text: str, ranks: dict | None = None) -> Replay:
    """Every merge that fires on text, in rank order, with the sequence after each (see the module doc)."""
    ranks = merge_ranks(tokenizer) if ranks is None else ranks
    words = pieces(tokenizer, text[:MAX_CHARS])
    cache: dict[tuple[int, ...], list] = {}
    fired: dict[int, list] = {}  # rank -> [left, right, merged, count]
    histories = []
    for w in words:
        key = tuple(w)
        if key not in cache:
            cache[key] = _bpe(list(w), ranks) if len(w) > 1 else []
        history = cache[key]
        histories.append([(-1, list(w))] + [(r, syms) for r, _, _, syms in history])
        for r, pair, count, _ in history:
            entry = fired.setdefault(r, [pair[0], pair[1], ranks[pair][1], 0])
            entry[3] += count
    start = [i for w in words for i in w]
    n, steps = len(start), []
    for r in sorted(fired):
        left, right, merged, count = fired[r]
        n -= count
        steps.append(Step(r, left, right, merged, count, n))
    final = [h[-1][1] for h in histories]
    return Replay(start, steps, [i for f in final for i in f], histories)
