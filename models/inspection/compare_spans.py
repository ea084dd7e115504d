"""Where each token of a run sits in the text, and the character spans two tokenizations share (issue 44).

Two models with different tokenizers cannot be compared token by token; they can be compared over the pieces of text
both cut the same way. Offsets come from the tokenizer library itself (tokenizers' Encoding.offsets, sentencepiece's
begin/end) and are checked against the ids LiveModel actually runs; when they do not line up, the span of each token is
found from the decoded text instead.
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass

import numpy as np

Span = tuple[int, int]


@dataclass(frozen=True)
class Shared:
    """The character spans both tokenizations cut the same way, and which positions of each run fall in each."""

    spans: list[Span]  # in order; consecutive spans touch: together they cover the shared text
    last_a: list[int]  # per span, the position (in A's run) of A's last token inside it
    last_b: list[int]
    members_a: list[list[int]]  # A's positions inside each span
    members_b: list[list[int]]


def _clean(text: str) -> str:
    """As every tokenizer here does before encoding: a lone surrogate becomes U+FFFD (same length)."""
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def _subsequence(ids: list[int], ref: list[int], spans: list[Span | None]) -> list[Span | None] | None:
    """The spans of `ids` as an in-order subsequence of `ref` (LiveModel drops a space before [MASK] and cuts at
    max_len: token_spans has checked that this is all that differs); None when ids are not one."""
    out, j = [], 0
    for i in ids:
        while j < len(ref) and ref[j] != i:
            j += 1
        if j == len(ref):
            return None
        out.append(spans[j])
        j += 1
    return out


def _hf_offsets(tok, text: str) -> tuple[list[int], list[Span]] | None:
    """tokenizers' own ids and character offsets (the toy BPETokenizer and published tokenizer.json files)."""
    enc_text = _clean(text)
    mask = getattr(tok, "mask_token", None)
    if mask not in (None, "[MASK]"):
        enc_text = enc_text.replace("[MASK]", mask)  # as HFTokenizer.encode (RoBERTa's <mask>)
    if len(enc_text) != len(text):
        return None  # offsets would not index `text`
    enc = tok.tok.encode(enc_text, add_special_tokens=False)
    return list(enc.ids), [tuple(o) for o in enc.offsets]


def _sp_pieces(sp, text: str, base: int, lookup, ranges: list[Span] | None = None) -> tuple[list[int], list[Span]]:
    """sentencepiece's pieces of text with their character spans (its begin/end count UTF-8 bytes). ranges: where
    each character of `text` came from in the prompt, when `text` is the tokenizer's normalised form of it."""
    ids, spans = [], []
    if not text.strip():
        return ids, spans
    ranges = ranges if ranges is not None else [(k, k + 1) for k in range(len(text))]
    char_at = [k for k, c in enumerate(text) for _ in c.encode("utf-8")] + [len(text)]
    try:
        proto = sp.encode(text, return_type="proto")  # sentencepiece 0.2.1+: immutable_proto is gone
    except (TypeError, ValueError):
        proto = sp.encode(text, out_type="immutable_proto")
    for p in proto.pieces:
        ids.append(lookup(p.piece))
        begin, end = char_at[p.begin], char_at[p.end]
        end = end + 1 if p.end and char_at[p.end - 1] == end else end  # a cut inside a character takes all of it
        lo = ranges[begin][0] if begin < len(ranges) else (ranges[-1][1] if ranges else 0)
        hi = ranges[end - 1][1] if end > begin else lo
        spans.append((base + lo, base + max(lo, hi)))
    return ids, spans


def _albert_text(tok, part: str) -> tuple[str, list[Span]] | None:
    """ALBERT's normalised text built character by character, with the prompt range each character came from; None
    when that does not give what SpieceTokenizer._normalise gives (then the decoded fallback is used)."""
    chars: list[tuple[str, Span]] = []
    for k, c in enumerate(part):
        if tok.remove_space and c.isspace():
            if chars and chars[-1][0] != " ":
                chars.append((" ", (k, k + 1)))
            continue
        chars.append((c, (k, k + 1)))
    if tok.remove_space and chars and chars[-1][0] == " ":
        chars.pop()
    if tok.albert:  # `` and '' become "
        merged: list[tuple[str, Span]] = []
        for c, r in chars:
            if merged and c in "`'" and merged[-1][0] == c and merged[-1][1][1] == r[0]:
                merged[-1] = ('"', (merged[-1][1][0], r[1]))
            else:
                merged.append((c, r))
        chars = merged
    out, ranges = [], []
    for c, r in chars:
        n = (
            c
            if tok.keep_accents
            else "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))
        )
        n = n.lower() if tok.lower else n
        out.append(n)
        ranges += [r] * len(n)
    text = "".join(out)
    return (text, ranges) if text == tok._normalise(part) else None


def _spiece_offsets(tok, text: str) -> tuple[list[int], list[Span]] | None:
    """ALBERT/T5 (SpieceTokenizer) and Marian: sentencepiece's offsets, mapped back through ALBERT's normalisation."""
    text = _clean(text)
    if hasattr(tok, "sp"):  # SpieceTokenizer: typed specials are cut out first; each part is normalised
        parts = tok.split.split(text) if tok.split else [text]
        ids, spans, at = [], [], 0
        for k, part in enumerate(parts):
            if k % 2:
                ids.append(tok.vocab[part])
                spans.append((at, at + len(part)))
            elif part.strip():
                norm = _albert_text(tok, part)
                if norm is None:
                    return None
                i, s = _sp_pieces(tok.sp, norm[0], at, lambda p: tok.vocab.get(p, tok.unk_id), norm[1])
                ids, spans = ids + i, spans + s
            at += len(part)
        return ids, spans
    from ..published.marian_tokenizer import LANGUAGE_CODE

    code = LANGUAGE_CODE.match(text)
    head = code.group(0).strip() if code else ""
    ids, spans = ([tok.vocab.get(head, tok.unk_id)], [(0, len(head))]) if code else ([], [])
    i, s = _sp_pieces(
        tok.source,
        text[code.end() :] if code else text,
        code.end() if code else 0,
        lambda p: tok.vocab.get(p, tok.unk_id),
    )
    return ids + i, spans + s


def _key(s: str) -> str:
    """What decoding keeps of a character: no spaces, no accents, no case (ALBERT's normalisation), no ▁."""
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return "".join(c for c in s.casefold() if not c.isspace() and c != "▁")


def _decoded_spans(tok, ids: list[int], text: str) -> list[Span]:
    """The fallback: each token covers what it adds to the decoded text of the ids before it, found in `text` on
    what decoding keeps (_key). A token whose decoding ends inside a character (U+FFFD) covers that whole character;
    an unknown token ([UNK], ⁇) covers the text up to where the next known token is found."""
    keys = [(k, i) for i, c in enumerate(text) for k in _key(c)]
    line, owner = "".join(k for k, _ in keys), [i for _, i in keys] + [len(text)]
    unk = getattr(tok, "unk_id", None)
    out: list[Span] = []
    known: list[int] = []
    pending: list[int] = []  # unknown tokens waiting for the next known one
    waiting: list[int] = []  # tokens that add nothing visible, after a pending one
    n, done, start = 0, 0, 0  # key characters matched, key length decoded so far, where the next token begins

    def place(upto: int) -> None:
        """The pending unknown tokens share key characters [n, upto): one each, the last the rest."""
        nonlocal n, start
        for j, k in enumerate(pending):
            stop = upto if j == len(pending) - 1 else min(upto, n + 1)
            end = owner[stop - 1] + 1 if stop > n else start
            out[k] = (start, max(start, end))
            n, start = stop, max(start, end)
        pending.clear()

    for k, i in enumerate(ids):
        out.append((start, start))
        if unk is not None and i == unk:
            pending.append(k)
            continue
        known.append(i)
        dec = tok.decode(known)
        cut = dec.endswith("\ufffd") and not text.endswith("\ufffd")
        full = _key(dec.rstrip("\ufffd") if cut else dec)
        chunk, done = full[done:], len(full)
        if not chunk and not cut and pending:  # a space after an unknown token: it waits for that one's extent
            waiting.append(k)
            continue
        at = line.find(chunk, min(n + len(pending), len(line))) if chunk else -1
        at = at if at >= 0 else min(n + len(pending), len(line))
        place(at)
        for w in waiting:
            out[w] = (start, start)
        waiting.clear()
        stop = min(len(line), n + len(chunk))
        if cut and stop < len(line):  # part of the next character: all of it, which the next token shares
            out[k], start = (start, owner[stop] + 1), owner[stop]
        else:
            end = owner[stop - 1] + 1 if stop > n else min(owner[stop], len(text))  # nothing visible: the spaces
            out[k], start = (start, max(start, end)), max(start, end)
        n = stop
    place(len(line))
    for w in waiting:
        out[w] = (start, start)
    return out


def token_spans(model, text: str) -> list[Span | None]:
    """The character span [start, end) in `text` of each position of model.source_ids(text)[0] (the ids the model
    runs, specials included); None for a template token (BOS, CLS, SEP, EOS). A byte-level token that covers part of
    a multi-byte character covers that whole character (two tokens then share it: their spans overlap by it).
    A special token typed in the text ([MASK]) covers what was typed."""
    ids, _ = model.source_ids(text)
    before, after = model.template
    middle = ids[len(before) : len(ids) - len(after)]
    tok = model.tokenizer
    found = None
    try:
        if hasattr(tok, "tok"):
            found = _hf_offsets(tok, text)
        elif hasattr(tok, "sp") or hasattr(tok, "source"):
            found = _spiece_offsets(tok, text)
    except (AttributeError, KeyError, TypeError, IndexError, ValueError):
        found = None
    spans = None
    if found is not None and list(model.without_space_before_mask(found[0])[: len(middle)]) == list(middle):
        spans = _subsequence(middle, *found)  # the encodings match (up to the dropped spaces and the max_len cut)
    if spans is None:
        spans = _decoded_spans(tok, middle, text)
    return [None] * len(before) + list(spans) + [None] * len(after)


# ------------------------------------------------------------------ shared spans


def _widen(lo: int, hi: int, text: str | None) -> tuple[int, int]:
    """[lo, hi] grown over the whitespace on both sides (unchanged without the text)."""
    while text is not None and lo > 0 and text[lo - 1].isspace():
        lo -= 1
    while text is not None and hi < len(text) and text[hi].isspace():
        hi += 1
    return lo, hi


def _cuts(spans: list[Span | None]) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """Where one tokenization may be cut inside the text: [lo, hi] from a token's end to the next token's start
    (a gap where the tokenizer trims a space from its offsets); and (first start, last end)."""
    solid = [s for s in spans if s is not None and s[1] > s[0]]
    if not solid:
        return [], None
    inner = [(a[1], b[0]) for a, b in itertools.pairwise(solid) if a[1] <= b[0]]  # overlap: one character, no cut
    return inner, (solid[0][0], max(e for _, e in solid))


def _pair(cuts_a, cuts_b, meet) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple]]:
    """Walk two sorted cut lists, pairing cuts that `meet`; returns the unpaired ones of each and the pairs."""
    pairs, left_a, left_b, i, j = [], [], [], 0, 0
    while i < len(cuts_a) and j < len(cuts_b):
        a, b = cuts_a[i], cuts_b[j]
        if meet(a, b):
            pairs.append((a, b))
            i, j = i + 1, j + 1
        elif a[1] < b[1] or (a[1] == b[1] and a[0] < b[0]):
            left_a.append(a)
            i += 1
        else:
            left_b.append(b)
            j += 1
    return left_a + cuts_a[i:], left_b + cuts_b[j:], pairs


def _ends_on_cut(end: int, cuts: list[tuple[int, int]], text: str | None) -> bool:
    """Whether one run's last end meets a cut of the other run (up to whitespace when the text is known)."""
    lo, hi = _widen(end, end, text)
    return any(a <= hi and lo <= b for a, b in (_widen(*c, text) for c in cuts))


def _members(spans: list[Span | None], points: list[int], text: str | None) -> list[list[int]]:
    """Positions per span [points[i], points[i+1]): a token belongs to the span that holds its last character that
    is not whitespace (so "hello␣" goes with "hello")."""
    out: list[list[int]] = [[] for _ in range(len(points) - 1)]
    for p, span in enumerate(spans):
        if span is None:
            continue
        s, e = span
        anchor = e - 1 if e > s else s
        while text is not None and anchor > s and anchor < len(text) and text[anchor].isspace():
            anchor -= 1
        k = int(np.searchsorted(points, anchor, side="right")) - 1
        if 0 <= k < len(out):
            out[k].append(p)
    return out


def shared_spans(spans_a: list[Span | None], spans_b: list[Span | None], text: str | None = None) -> Shared:
    """The character spans both tokenizations cut at the same place, covering the text both runs reached.

    A cut is the interval from a token's end to the next token's start (a gap where a tokenizer trims a space from
    its offsets: GPT-2's "␣world" against a trimmed "world" share the cut before the word). Cuts whose intervals meet
    are shared, placed at the later interval start. Then, when `text` is given, the cuts still unshared are paired
    if they differ only by whitespace ("hello|␣world" against "hello␣|world"), placed before the whitespace: the
    whitespace goes with the next word, as GPT-2 does. The spans run from the earlier first start (back over leading
    whitespace) to the later last end (on over trailing whitespace) when both runs end together there; else (a run
    cut at max_len) to the shorter run's end where the other run has a cut there, or to the last shared cut. A token
    belongs to the span holding its last non-space character; a span that holds no token of one run is merged into
    its neighbour."""
    cuts_a, ends_a = _cuts(spans_a)
    cuts_b, ends_b = _cuts(spans_b)
    if ends_a is None or ends_b is None:
        return Shared([], [], [], [], [])
    left_a, left_b, exact = _pair(cuts_a, cuts_b, lambda a, b: a[0] <= b[1] and b[0] <= a[1])
    points = {max(a[0], b[0]) for a, b in exact}
    if text is not None:
        wa, wb = ([(*_widen(*c, text), *c) for c in cuts] for cuts in (left_a, left_b))
        _, _, loose = _pair(wa, wb, lambda a, b: a[0] <= b[1] and b[0] <= a[1])
        points |= {min(a[3], b[3]) for a, b in loose}
    start = _widen(min(ends_a[0], ends_b[0]), min(ends_a[0], ends_b[0]), text)[0]
    ea, eb = _widen(ends_a[1], ends_a[1], text), _widen(ends_b[1], ends_b[1], text)
    inner = sorted(p for p in points if p > start)
    if ea[0] <= eb[1] and eb[0] <= ea[1]:  # both runs end together (up to whitespace)
        end = max(ea[1], eb[1])
        inner = [p for p in inner if p < end]
    elif _ends_on_cut(*((ends_a[1], cuts_b) if ends_a[1] < ends_b[1] else (ends_b[1], cuts_a)), text):
        end = min(ends_a[1], ends_b[1])  # the shorter run (cut at max_len) stops where the other has a cut
        inner = [p for p in inner if p < end]
    elif inner:
        end, inner = inner[-1], inner[:-1]
    else:
        return Shared([], [], [], [], [])
    points = [start, *inner, end]
    while True:
        mem_a, mem_b = _members(spans_a, points, text), _members(spans_b, points, text)
        empty = [k for k in range(len(mem_a)) if not mem_a[k] or not mem_b[k]]
        if not empty or len(points) <= 2:
            break
        k = empty[0]  # merge span k into a neighbour: drop one of its cuts, never the outer ends
        points.pop(k + 1 if k + 1 < len(points) - 1 else k)
    keep = [k for k in range(len(mem_a)) if mem_a[k] and mem_b[k]]
    return Shared(
        spans=[(points[k], points[k + 1]) for k in keep],
        last_a=[max(mem_a[k]) for k in keep],
        last_b=[max(mem_b[k]) for k in keep],
        members_a=[mem_a[k] for k in keep],
        members_b=[mem_b[k] for k in keep],
    )
