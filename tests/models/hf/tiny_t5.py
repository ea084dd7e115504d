"""Tiny random T5 checkpoints (t5-small's relu FFN, Flan-T5's gated-gelu), built with transformers' own classes.

Saved in the layouts the Hub publishes: t5-small's config.json has no `scale_decoder_outputs` and no tie flag
(so its tied head is rescaled by d_model^-0.5); Flan-T5's says `tie_word_embeddings: false` and its file stores
its own lm_head.weight (untied, not rescaled). transformers 5 writes neither form (it forces the tie flag and
writes `scale_decoder_outputs`), so config.json and the safetensors file are edited into them, and the oracle
is transformers' own model read back from that folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from tokenizers import Tokenizer
from tokenizers.processors import TemplateProcessing

from .tiny import SPREAD, byte_bpe_tokenizer, published_layout, redraw

EOS, PAD = 2, 0  # the byte-level BPE's [EOS] and [PAD]; T5: pad is also the decoder's start token
# relu: t5-small's default buckets (32 up to 128) and d_kv · heads = d_model; flan: few buckets over a short range
# (8 up to 16, so 20-token inputs reach the log-spaced and the last bucket) and d_kv 16 on a 32-wide stream
BASE = dict(vocab_size=2048, d_model=32, d_ff=48, num_layers=2, num_heads=4, pad_token_id=PAD, eos_token_id=EOS,
            decoder_start_token_id=PAD)  # fmt: skip
FLAN = dict(d_kv=16, feed_forward_proj="gated-gelu", relative_attention_num_buckets=8,
            relative_attention_max_distance=16, tie_word_embeddings=False)  # fmt: skip
VARIANTS = {"t5": dict(d_kv=8, feed_forward_proj="relu"), "flan": FLAN}


def t5_tokenizer(folder: Path) -> None:
    """The app's byte-level BPE, with [EOS] appended to every text as T5's post-processor appends </s>."""
    byte_bpe_tokenizer(folder, bos=False)
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.post_processor = TemplateProcessing(single="$A [EOS]", special_tokens=[("[EOS]", EOS)])
    tok.save(str(folder / "tokenizer.json"))


def build_t5(folder: Path, variant: str, seed: int = 0, layout: str = "published", **over):
    """Save a tiny random T5 (variant "t5" or "flan") to folder; returns transformers' model read back from it.

    layout="published": as the Hub has it (see the module docstring); "transformers": as save_pretrained writes."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    cfg = tf.T5Config(**{**BASE, **VARIANTS[variant], **over})
    model = tf.T5ForConditionalGeneration(cfg)
    redraw(model, seed)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("q.weight"):  # T5 has no 1/sqrt(d): keep q·k of order 1, so no head is one-hot
                p.mul_(cfg.d_kv**-0.5 / (SPREAD * cfg.d_model**0.5))
            elif "relative_attention_bias" in name:  # large enough that a wrong bucket shows in the attention
                p.copy_(1.5 * torch.randn(p.shape, generator=g))
    model.save_pretrained(folder)
    if layout == "published":
        if variant == "flan":  # its own output matrix, and the tie flag that says "untied, not rescaled"
            path = folder / "model.safetensors"
            tensors = load_file(str(path))
            tensors["lm_head.weight"] = SPREAD * torch.randn(tensors["shared.weight"].shape, generator=g)
            save_file(tensors, str(path), metadata={"format": "pt"})
            published_layout(folder, tie_word_embeddings=False, scale_decoder_outputs=None)
        else:  # t5-small: no tie flag (tied by default) and no scale_decoder_outputs
            published_layout(folder, tie_word_embeddings=None, scale_decoder_outputs=None)
    t5_tokenizer(folder)
    hf = tf.T5ForConditionalGeneration.from_pretrained(folder, attn_implementation="eager")
    return hf.eval()


def config_json(folder: Path) -> dict:
    return json.loads((folder / "config.json").read_text())
