"""Tiny ALBERT and T5 folders that ship spiece.model (SentencePiece) and no tokenizer.json, as many Hub repos do.

The spiece.model is trained here with sentencepiece's own trainer on a few sentences (English in mixed case,
Chinese, emoji, accents), with ALBERT's ids (<pad> 0, <unk> 1, [CLS] 2, [SEP] 3, [MASK] 4) or T5's
(<pad> 0, </s> 1, <unk> 2); the model is tiny_encoders' / tiny_t5's random one with a vocabulary to match.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import sentencepiece as spm

CORPUS = ["The cat sat on the mat.", "A quick brown fox jumps over the lazy dog!", "小猫坐在垫子上。",
          "我们 学习 注意力 机制", "Attention is all you need 😀", "Numbers 3,14 and 1,000 cost $5 (ok?)",
          "Café naïve résumé", "Hello World HELLO world", "The pilot is tired and the dog sleeps."]  # fmt: skip
IDS = {
    "albert": dict(pad_id=0, unk_id=1, bos_id=-1, eos_id=-1, control_symbols=["[CLS]", "[SEP]", "[MASK]"]),
    "t5": dict(pad_id=0, eos_id=1, unk_id=2, bos_id=-1),
}
EXTRA_IDS = 4  # T5's sentinels <extra_id_0..3> after the pieces (t5-small has 100)


def train_spiece(folder: Path, kind: str, vocab: int = 96) -> int:
    """Write folder/spiece.model for kind ("albert" | "t5"); returns its number of pieces."""
    folder.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(CORPUS * 10), model_writer=buf, vocab_size=vocab, model_type="unigram",
        character_coverage=1.0, hard_vocab_limit=False, minloglevel=2, **IDS[kind],
    )  # fmt: skip
    (folder / "spiece.model").write_bytes(buf.getvalue())
    return spm.SentencePieceProcessor(model_file=str(folder / "spiece.model")).get_piece_size()


def tokenizer_config(folder: Path, **conf) -> None:
    (folder / "tokenizer_config.json").write_text(json.dumps(conf))


def build_albert_spiece(folder: Path, seed: int = 0, **conf):
    """A tiny random ALBERT with spiece.model and tokenizer_config.json (conf), no tokenizer.json; returns the
    transformers model (the oracle)."""
    from .tiny_encoders import build_encoder

    n = train_spiece(folder, "albert")
    model = build_encoder("albert", folder, seed=seed, vocab_size=n, pad_token_id=0)
    (folder / "tokenizer.json").unlink()
    tokenizer_config(folder, do_lower_case=True, keep_accents=False, remove_space=True, **conf)
    return model


def build_t5_spiece(folder: Path, seed: int = 0):
    """A tiny random T5 (t5-small's layout) with spiece.model and EXTRA_IDS sentinels, no tokenizer.json; returns
    the transformers model (the oracle)."""
    from .tiny_t5 import build_t5

    n = train_spiece(folder, "t5")
    model = build_t5(folder, "t5", seed=seed, vocab_size=n + EXTRA_IDS, eos_token_id=1)
    (folder / "tokenizer.json").unlink()
    tokenizer_config(folder, extra_ids=EXTRA_IDS)
    return model
