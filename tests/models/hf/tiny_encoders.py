"""Tiny random ALBERT, DistilBERT and ELECTRA checkpoints, built with transformers' own classes (no download).

Weights re-drawn with tiny.py's wide spread; the tokenizer is the BERT WordPiece tokenizer.json the other
encoders' tiny folders use (the published ALBERT ships a SentencePiece model instead: not needed here).
"""

from __future__ import annotations

from pathlib import Path

import torch

from .tiny import redraw, save_eager, wordpiece_tokenizer

VOCAB = 30522  # the WordPiece tokenizer's
SMALL = dict(vocab_size=VOCAB, hidden_size=32, num_attention_heads=4, intermediate_size=48, max_position_embeddings=64)


def build_encoder(kind: str, folder: Path, seed: int = 0, **over) -> torch.nn.Module:
    """Save a tiny random `kind` model (albert, distilbert, electra-discriminator, electra-generator) to folder;
    returns it (eager attention, eval mode)."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    if kind == "albert":  # E = 16 under a 32-wide stream, one layer's weights used 3 times
        model = tf.AlbertForMaskedLM(tf.AlbertConfig(**{**SMALL, "embedding_size": 16, "num_hidden_layers": 3, **over}))
    elif kind == "distilbert":
        base = dict(vocab_size=VOCAB, dim=32, n_layers=2, n_heads=4, hidden_dim=48, max_position_embeddings=64)
        model = tf.DistilBertForMaskedLM(tf.DistilBertConfig(**{**base, **over}))
    elif kind in ("electra-discriminator", "electra-generator"):
        cfg = tf.ElectraConfig(**{**SMALL, "embedding_size": 16, "num_hidden_layers": 2, **over})
        model = (tf.ElectraForPreTraining if kind == "electra-discriminator" else tf.ElectraForMaskedLM)(cfg)
    else:
        raise ValueError(kind)
    redraw(model, seed)
    save_eager(model, folder)
    wordpiece_tokenizer(folder)
    return model
