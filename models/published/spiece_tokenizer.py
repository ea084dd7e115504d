"""ALBERT's and T5's own tokenizer from spiece.model (SentencePiece), for repos that publish no tokenizer.json.

As transformers' AlbertTokenizer / T5Tokenizer: special tokens typed in the text ([MASK], <extra_id_0>) are
cut out first and kept whole; each piece of text between them is normalised and cut into pieces by
sentencepiece. ALBERT normalises as its tokenizer_config.json says (remove_space: collapse runs of spaces;
`` and '' become "; keep_accents false: NFKD and drop combining marks; do_lower_case: lower-case) and wraps a
text as [CLS] text [SEP]; T5 appends </s>, and its sentinels <extra_id_0..N-1> are the last N ids
(<extra_id_0> the very last). Ids are sentencepiece's own: spiece.model is a protobuf, nothing is unpickled.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import sentencepiece as spm

from .hf_tokenizer import _visible

ALBERT_SPECIALS = ("[CLS]", "[SEP]", "[MASK]", "<pad>", "<unk>")
T5_SPECIALS = ("<pad>", "</s>", "<unk>")


def _config(folder: Path) -> dict:
    path = folder / "tokenizer_config.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


class SpieceTokenizer:
    kind = "sentencepiece"  # the Explorer says how it cuts text (▁, shown as ␣, starts a word)
    pretrained = True  # the model may have more embedding rows than spiece.model has pieces

    def __init__(self, folder: Path, model_type: str, vocab_size: int, eos_ids=(), start_ids=()):
        folder = Path(folder)
        self.sp = spm.SentencePieceProcessor(model_file=str(folder / "spiece.model"))
        conf = _config(folder)
        self.albert = model_type == "albert"
        n = self.sp.get_piece_size()
        self.pieces = {i: self.sp.id_to_piece(i) for i in range(n)}
        self.vocab = {p: i for i, p in self.pieces.items()}
        names = ALBERT_SPECIALS if self.albert else T5_SPECIALS
        if not self.albert:  # T5's sentinels follow the pieces, in reverse: <extra_id_0> is the last id
            extra = int(conf.get("extra_ids", 100) or 0)
            for k in range(extra):
                self.vocab[f"<extra_id_{k}>"] = n + extra - 1 - k
            self.pieces.update({i: p for p, i in self.vocab.items() if i >= n})
            names += tuple(f"<extra_id_{k}>" for k in range(extra))
        self.vocab_size = vocab_size
        self.lower = self.albert and bool(conf.get("do_lower_case", True))
        self.keep_accents = not self.albert or bool(conf.get("keep_accents", False))
        self.remove_space = self.albert and bool(conf.get("remove_space", True))
        present = sorted((s for s in names if s in self.vocab), key=len, reverse=True)
        self.split = re.compile("(" + "|".join(map(re.escape, present)) + ")") if present else None
        self.unk_id = self.vocab.get("<unk>", self.sp.unk_id())
        self.pad_id = self.vocab.get("<pad>")
        self.cls_id, self.sep_id = self.vocab.get("[CLS]"), self.vocab.get("[SEP]")
        self.mask_id = self.vocab.get("[MASK]")
        eos = self.sep_id if self.albert else self.vocab.get("</s>")
        self.special_ids = frozenset(self.vocab[s] for s in present)
        self.eos_ids = frozenset(eos_ids) or frozenset({eos} - {None})
        self.start_ids = list(start_ids) or ([] if self.albert else [self.pad_id])
        self.template = ([self.cls_id], [self.sep_id]) if self.albert else ([], [eos])
        if None in self.template[0] + self.template[1]:
            raise ValueError(f"spiece.model lacks {'[CLS] or [SEP]' if self.albert else '</s>'}")

    def _normalise(self, text: str) -> str:
        """ALBERT's preprocess_text (transformers' AlbertTokenizer)."""
        if self.remove_space:
            text = " ".join(text.strip().split())
        if self.albert:
            text = text.replace("``", '"').replace("''", '"')
        if not self.keep_accents:
            text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
        return text.lower() if self.lower else text

    def _pieces(self, text: str) -> list[int]:
        text = self._normalise(text)
        return [self.vocab.get(p, self.unk_id) for p in self.sp.encode(text, out_type=str)] if text.strip() else []

    def encode(self, text: str) -> list[int]:
        text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)  # no lone surrogates
        parts = self.split.split(text) if self.split else [text]
        ids: list[int] = []
        for k, part in enumerate(parts):
            ids += [self.vocab[part]] if k % 2 else self._pieces(part)
        return ids

    def decode(self, ids) -> str:
        out, run = [], []
        for i in (int(i) for i in ids):
            if i in self.special_ids or i >= self.sp.get_piece_size():
                out += [self.sp.decode(run)] if run else []
                out.append(self.pieces.get(i, ""))
                run = []
            else:
                run.append(i)
        out += [self.sp.decode(run)] if run else []
        return " ".join(s for s in out if s)

    def token_str(self, i: int) -> str:
        return _visible(self.pieces.get(int(i), "<unused>").replace("▁", " "))

    def token_strs(self, ids) -> list[str]:
        return [self.token_str(i) for i in ids]
