"""Marian's (opus-mt) tokenizer: SentencePiece models for source and target, ids from its vocab.json.

As transformers' MarianTokenizer: the source is cut into pieces by source.spm, the target by target.spm,
both looked up in one shared vocab.json (a piece it lacks is <unk>), and the source ends with </s>.
A multi-target model needs the target language first, as a token such as >>cmn_Hans<< typed in the text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import sentencepiece as spm

from .hf_tokenizer import _visible

LANGUAGE_CODE = re.compile(r"^>>.+?<<\s*")


class MarianTokenizer:
    kind = "pretrained"
    pretrained = True

    def __init__(self, folder: Path, vocab_size: int, eos_ids, start_ids):
        self.source = spm.SentencePieceProcessor(model_file=str(folder / "source.spm"))
        self.target = spm.SentencePieceProcessor(model_file=str(folder / "target.spm"))
        self.vocab: dict[str, int] = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        self.pieces = {i: p for p, i in self.vocab.items()}
        self.vocab_size = vocab_size
        self.unk_id = self.vocab.get("<unk>")
        self.pad_id = self.vocab.get("<pad>")
        self.mask_id = self.cls_id = self.sep_id = None
        eos = self.vocab.get("</s>")
        self.special_ids = frozenset(i for i in (self.unk_id, self.pad_id, eos) if i is not None)
        self.eos_ids = frozenset(eos_ids) or frozenset({eos})
        self.start_ids = list(start_ids) or [self.pad_id]
        self.template = ([], [eos])

    def _ids(self, pieces: list[str]) -> list[int]:
        return [self.vocab.get(p, self.unk_id) for p in pieces]

    def encode(self, text: str) -> list[int]:
        text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
        code = LANGUAGE_CODE.match(text)
        head = [self.vocab.get(code.group(0).strip(), self.unk_id)] if code else []
        return head + self._ids(self.source.encode(text[code.end() :] if code else text, out_type=str))

    def encode_target(self, text: str) -> list[int]:
        return self._ids(self.target.encode(text, out_type=str))

    def decode(self, ids) -> str:
        pieces = [self.pieces.get(int(i), "") for i in ids if int(i) not in self.special_ids]
        return self.target.decode_pieces(pieces)

    def token_str(self, i: int) -> str:
        return _visible(self.pieces.get(int(i), "<unused>").replace("▁", " "))

    def token_strs(self, ids) -> list[str]:
        return [self.token_str(i) for i in ids]
