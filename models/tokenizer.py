"""Byte-level BPE tokenizer (the `tokenizers` library), trained on the project's own corpus.

Byte-level means every string has an encoding, so any text round-trips exactly. Each CJK
character is its own pre-token, so Chinese the corpus knows shows as whole characters; digits
are split one by one (as in Llama) so "1234" aligns digit by digit with its words.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
from tokenizers.pre_tokenizers import ByteLevel

SPECIALS = ("[PAD]", "[BOS]", "[EOS]", "[MASK]", "[CLS]", "[SEP]")
PAD, BOS, EOS, MASK, CLS, SEP = range(len(SPECIALS))
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
CJK = r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible byte -> printable-character table (Radford et al. 2019, encoder.py)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs, strict=True)}


CHAR_TO_BYTE = {c: b for b, c in _bytes_to_unicode().items()}
# How invisible characters are shown inside a token chip.
VISIBLE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}


class BPETokenizer:
    """Thin wrapper: ids without specials in encode(); readable strings for display."""

    # The special tokens LiveModel adds around a text (a pretrained tokenizer has its own ids).
    pad_id, mask_id, cls_id, sep_id = PAD, MASK, CLS, SEP
    special_ids = frozenset(range(len(SPECIALS)))
    kind = "bpe"

    def __init__(self, tok: Tokenizer):
        self.tok = tok
        self.vocab_size = tok.get_vocab_size()
        self._pieces = [self._piece_bytes(i) for i in range(self.vocab_size)]

    def _piece_bytes(self, i: int) -> bytes:
        s = self.tok.id_to_token(i)
        if i < len(SPECIALS):
            return s.encode()
        return bytes(CHAR_TO_BYTE[c] for c in s)

    def encode(self, text: str) -> list[int]:
        """Text -> ids. Special-token names in the text (e.g. "[MASK]") become those tokens.
        A lone surrogate (not valid Unicode; no browser sends one) becomes U+FFFD."""
        try:
            return self.tok.encode(text, add_special_tokens=False).ids
        except TypeError:
            text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
            return self.tok.encode(text, add_special_tokens=False).ids

    def piece(self, i: int) -> bytes:
        """The bytes token i stands for (a special token: its name)."""
        return self._pieces[i]

    def decode(self, ids: Iterable[int]) -> str:
        """Concatenate the tokens' bytes; exact inverse of encode() for any text."""
        return b"".join(self._pieces[i] for i in ids).decode("utf-8", errors="replace")

    def token_str(self, i: int) -> str:
        """A readable label: spaces shown as ␣, a lone byte of a longer character as <e4>."""
        if i < len(SPECIALS):
            return SPECIALS[i]
        # surrogateescape turns each byte that is not a whole UTF-8 character into U+DC80..U+DCFF
        raw = self._pieces[i].decode("utf-8", errors="surrogateescape")
        out = []
        for ch in raw:
            if ch in VISIBLE:
                out.append(VISIBLE[ch])
            elif 0xDC80 <= ord(ch) <= 0xDCFF:
                out.append(f"<{ord(ch) - 0xDC00:02x}>")
            elif ord(ch) < 32 or ord(ch) == 127:
                out.append(f"<{ord(ch):02x}>")
            else:
                out.append(ch)
        return "".join(out)

    def token_strs(self, ids: Iterable[int]) -> list[str]:
        """Labels, one per token; the byte tokens of one character are labelled with it and a subscript
        (桌₁ 桌₂ 桌₃, not <e6> <a1> <8c>), as a published model's tokenizer labels them
        (models/published/hf_tokenizer.py)."""
        ids = [int(i) for i in ids]
        out = [self.token_str(i) for i in ids]
        pieces = [self._pieces[i] if i >= len(SPECIALS) else b"" for i in ids]
        for start, end, char in char_runs(pieces):
            out[start:end] = [
                f"{VISIBLE.get(char, char)}{str(j + 1).translate(SUBSCRIPTS)}" for j in range(end - start)
            ]
        return out

    def save(self, path: Path) -> None:
        self.tok.save(str(path))


def build_tokenizer(corpus: Iterable[str], vocab_size: int) -> BPETokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(CJK), behavior="isolated"),  # one pre-token per CJK character
            pre_tokenizers.Digits(individual_digits=True),
            ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIALS),
        initial_alphabet=ByteLevel.alphabet(),  # all 256 bytes: nothing is ever unknown
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer)
    return BPETokenizer(tok)


@lru_cache(maxsize=4)
def load_tokenizer(path: Path) -> BPETokenizer:
    return BPETokenizer(Tokenizer.from_file(str(path)))


def whole(piece: bytes) -> bool:
    """Whether a token's bytes are whole UTF-8 characters (False for a lone byte of a longer character)."""
    try:
        piece.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def cut_inside(buf: bytes) -> bool:
    """Whether buf ends inside a character: the only way more bytes can make it decode."""
    try:
        buf.decode("utf-8")
        return False
    except UnicodeDecodeError as e:
        return e.reason == "unexpected end of data"


def char_runs(pieces: list[bytes]) -> list[tuple[int, int, str]]:
    """(start, end, character) of each run of two or more tokens whose bytes together are exactly one printable
    character (桌 = <e6> <a1> <8c>); bytes that make no whole character are left out (they stay bytes)."""
    runs = []
    i = 0
    while i < len(pieces):
        if whole(pieces[i]):
            i += 1
            continue
        end, buf = i + 1, pieces[i]
        while end < len(pieces) and cut_inside(buf) and not whole(pieces[end]):
            buf, end = buf + pieces[end], end + 1
        text = buf.decode("utf-8") if whole(buf) else ""
        if end - i > 1 and len(text) == 1 and unicodedata.category(text)[0] in "LNPS":
            runs.append((i, end, text))
            i = end
        else:
            i += 1
    return runs
