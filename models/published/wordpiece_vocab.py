"""A BERT WordPiece tokenizer built from a plain vocab.txt (one token a line, its line number its id).

Many BERT-family repos (older BERT, DistilBERT, ELECTRA uploads) publish only vocab.txt and tokenizer_config.json,
no tokenizer.json. The `tokenizers` library builds the same tokenizer transformers' BertTokenizer is: BERT's
normaliser (clean text, spaces around CJK characters, lowercase and strip accents when do_lower_case says so),
BERT's pre-tokeniser (split on whitespace and punctuation), WordPiece with "##" continuations and at most 100
characters a word, and the [CLS] text [SEP] template. Both files are text (JSON); nothing is unpickled.
"""

from __future__ import annotations

import json
from pathlib import Path

from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers, processors
from tokenizers.models import WordPiece

SPECIALS = ("unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
DEFAULTS = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
            "mask_token": "[MASK]"}  # fmt: skip


def _token(value) -> str | None:
    """A tokenizer_config.json special token: a string, or an AddedToken dict {"content": ...}."""
    return value.get("content") if isinstance(value, dict) else value


def wordpiece_from_vocab(folder: Path) -> Tokenizer:
    """The tokenizer of vocab.txt (and tokenizer_config.json, if present) in folder. Raises OSError, ValueError."""
    folder = Path(folder)
    lines = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    vocab = {}
    for i, token in enumerate(lines):
        vocab[token] = i  # as BertTokenizer's load_vocab: a repeated line keeps its last id
    conf_path = folder / "tokenizer_config.json"
    conf = json.loads(conf_path.read_text(encoding="utf-8")) if conf_path.is_file() else {}
    names = {k: _token(conf.get(k)) or DEFAULTS[k] for k in SPECIALS}
    if names["unk_token"] not in vocab:
        raise ValueError(f"vocab.txt has no unknown token {names['unk_token']!r}")
    lower = bool(conf.get("do_lower_case", True))
    strip = conf.get("strip_accents")  # None: strip when lowercasing (BERT's rule)
    tok = Tokenizer(WordPiece(vocab, unk_token=names["unk_token"], max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=bool(conf.get("tokenize_chinese_chars", True)),
        strip_accents=strip, lowercase=lower,
    )  # fmt: skip
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece(prefix="##")
    present = [names[k] for k in SPECIALS if names[k] in vocab]
    tok.add_special_tokens(present)  # kept whole ("[MASK]" in a text is the mask token) and never lowercased
    cls, sep = names["cls_token"], names["sep_token"]
    if cls in vocab and sep in vocab:
        tok.post_processor = processors.TemplateProcessing(
            single=f"{cls} $A {sep}", pair=f"{cls} $A {sep} $B:1 {sep}:1",
            special_tokens=[(cls, vocab[cls]), (sep, vocab[sep])],
        )  # fmt: skip
    return tok
