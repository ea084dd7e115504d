"""A published model's own tokenizer (tokenizer.json, read by `tokenizers`) behind LiveModel's interface.

The prompt gets exactly the special tokens the tokenizer's own post-processor adds (Llama: BOS; GPT-2
and Qwen base: none; BERT: [CLS] ... [SEP]), found once by encoding a probe text with and without
them. Labels are made readable for a class: byte-level pieces (Ġ for a space) are turned back into
text, a space shows as ␣, SentencePiece's ▁ too, and the pieces of one Chinese character that
byte-level BPE splits are labelled with the whole character and a subscript (小₁ 小₂ 小₃), never
mojibake: one chip per token, because attention is per token.
"""

from __future__ import annotations

from collections.abc import Iterable

from tokenizers import Tokenizer

from ..tokenizer import CHAR_TO_BYTE, VISIBLE

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
NAMES = {  # the spellings of each special token across families, first match wins
    "pad": ("[PAD]", "<pad>", "<|endoftext|>"),
    "mask": ("[MASK]", "<mask>"),
    "cls": ("[CLS]", "<s>"),
    "sep": ("[SEP]", "</s>"),
    "unk": ("[UNK]", "<unk>"),
}


class HFTokenizer:
    kind = "pretrained"
    pretrained = True  # LiveModel: the model may have more embedding rows than the tokenizer has tokens

    def __init__(self, tok: Tokenizer, vocab_size: int, eos_ids: Iterable[int] = (), start_ids: Iterable[int] = ()):
        tok.no_padding()  # MiniLM's file pads and cuts every input to 128 tokens; LiveModel cuts at max_len
        tok.no_truncation()
        self.tok = tok
        self.kind = "wordpiece" if type(tok.model).__name__ == "WordPiece" else "pretrained"
        self.vocab_size = vocab_size  # rows of the model's embedding (Qwen pads its table past the tokenizer)
        vocab = tok.get_vocab()
        found = {role: next((vocab[n] for n in names if n in vocab), None) for role, names in NAMES.items()}
        self.pad_id, self.mask_id, self.cls_id, self.sep_id, self.unk_id = (
            found[r] for r in ("pad", "mask", "cls", "sep", "unk")
        )
        self.special_ids = frozenset(i for i, t in tok.get_added_tokens_decoder().items() if t.special)
        self.eos_ids = frozenset(eos_ids)
        self.start_ids = list(start_ids)
        self.mask_token = tok.id_to_token(self.mask_id) if self.mask_id is not None else None
        self.byte_level = any(t.startswith("Ġ") for t in list(vocab)[:5000])
        self.template = self._template()

    def _template(self) -> tuple[list[int], list[int]]:
        plain = self.tok.encode("a", add_special_tokens=False).ids
        full = self.tok.encode("a", add_special_tokens=True).ids
        for i in range(len(full) - len(plain) + 1):
            if full[i : i + len(plain)] == plain:
                return full[:i], full[i + len(plain) :]
        return [], []

    def encode(self, text: str) -> list[int]:
        text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)  # no lone surrogates
        if self.mask_token not in (None, "[MASK]"):
            text = text.replace("[MASK]", self.mask_token)  # the app's examples say [MASK]; RoBERTa writes <mask>
        return self.tok.encode(text, add_special_tokens=False).ids

    def decode(self, ids) -> str:
        return self.tok.decode([int(i) for i in ids], skip_special_tokens=False)

    def _bytes(self, i: int) -> bytes | None:
        """The raw bytes of a byte-level piece (None for special tokens and other vocabularies)."""
        piece = self.tok.id_to_token(int(i))
        if piece is None or int(i) in self.special_ids or not self.byte_level:
            return None
        try:
            return bytes(CHAR_TO_BYTE[c] for c in piece)
        except KeyError:
            return None

    def token_str(self, i: int) -> str:
        return self.token_strs([i])[0]

    def token_strs(self, ids) -> list[str]:
        ids = [int(i) for i in ids]
        out: list[str] = []
        k = 0
        while k < len(ids):
            raw = self._bytes(ids[k])
            if raw is None:
                piece = self.tok.id_to_token(ids[k])
                out.append(_visible(piece.replace("▁", " ")) if piece is not None else "<unused>")
                k += 1
                continue
            # extend over the following pieces until the bytes decode as whole characters
            end, buf = k + 1, raw
            while end < len(ids) and _cut(buf):  # a bad byte inside buf stays bad: no later piece mends it
                nxt = self._bytes(ids[end])
                if nxt is None:
                    break
                buf, end = buf + nxt, end + 1
            if end - k == 1 or not _whole(buf):
                out.append(_visible(raw.decode("utf-8", errors="replace")))
                k += 1
                continue
            text = _visible(buf.decode("utf-8"))
            out.extend(f"{text}{str(j + 1).translate(SUBSCRIPTS)}" for j in range(end - k))
            k = end
        return out


def _cut(b: bytes) -> bool:
    """Whether b ends inside a character, the only way more bytes can make it decode (random ids: without this stop,
    each stray byte scanned to the end of the input, 40 ms of T5-small's 256-token trace)."""
    try:
        b.decode("utf-8")
        return False
    except UnicodeDecodeError as e:
        return e.reason == "unexpected end of data"


def _whole(b: bytes) -> bool:
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _visible(s: str) -> str:
    return "".join(VISIBLE.get(c, c) for c in s)
