"""Tiny random checkpoints of every published family, built with transformers' own classes (no download).

transformers is a test-only dependency: it makes the folders our loader reads, and its eager forward is
the oracle our Transformer must match. Weights are re-drawn with a larger spread than HF's 0.02 init, so
heads are not uniform and a wrong RoPE layout, mask or norm shows in the attention.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch
from tokenizers import Tokenizer
from tokenizers.processors import TemplateProcessing

from models.loading import tokenizer_path

SPREAD = 0.35  # std of re-drawn matrices; norm gains ~ 1 ± 0.2


def redraw(model: torch.nn.Module, seed: int) -> None:
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 1 and ("norm" in name.lower() or "ln_" in name):
                if name.endswith("weight"):
                    p.copy_(1 + 0.2 * torch.randn(p.shape, generator=g))
                else:
                    p.copy_(0.1 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(SPREAD * torch.randn(p.shape, generator=g))


def byte_bpe_tokenizer(folder: Path, bos: bool) -> None:
    """The app's own byte-level BPE (2048 tokens) as the tiny models' tokenizer.json; [BOS] first if bos
    (as Llama's tokenizer adds <|begin_of_text|>), nothing added otherwise (as GPT-2's and Qwen's)."""
    tok = Tokenizer.from_file(str(tokenizer_path()))
    if bos:
        tok.post_processor = TemplateProcessing(single="[BOS] $A", special_tokens=[("[BOS]", 1)])
    tok.save(str(folder / "tokenizer.json"))


def wordpiece_tokenizer(folder: Path) -> None:
    from models.pretrained import model_dir

    shutil.copy(model_dir() / "tokenizer.json", folder / "tokenizer.json")


def published_layout(folder: Path, **changes) -> None:
    """Rewrite config.json as older published files have it (e.g. top-level rope_theta / rope_scaling)."""
    path = folder / "config.json"
    c = json.loads(path.read_text())
    for k, v in changes.items():
        if v is None:
            c.pop(k, None)
        else:
            c[k] = v
    path.write_text(json.dumps(c, indent=2))


def build(kind: str, folder: Path, seed: int = 0, **over) -> torch.nn.Module:
    """Save a tiny random `kind` model (gpt2, llama, qwen2, mistral, bert, roberta) to folder; returns it."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    if kind == "gpt2":
        cfg = tf.GPT2Config(vocab_size=2048, n_positions=64, n_embd=32, n_layer=2, n_head=4, **over)
        model = tf.GPT2LMHeadModel(cfg)
    elif kind in ("llama", "qwen2", "mistral"):
        base = dict(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)  # fmt: skip
        base.update(over)
        cls = {"llama": (tf.LlamaConfig, tf.LlamaForCausalLM), "qwen2": (tf.Qwen2Config, tf.Qwen2ForCausalLM),
               "mistral": (tf.MistralConfig, tf.MistralForCausalLM)}[kind]  # fmt: skip
        cfg = cls[0](**base)
        model = cls[1](cfg)
    elif kind in ("bert", "roberta"):
        base = dict(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=48, max_position_embeddings=64)  # fmt: skip
        base.update(over)
        if kind == "bert":
            cfg, model_cls = tf.BertConfig(**base), tf.BertForMaskedLM
        else:
            cfg, model_cls = tf.RobertaConfig(**{**base, "max_position_embeddings": 66}), tf.RobertaForMaskedLM
        model = model_cls(cfg)
    else:
        raise ValueError(kind)
    redraw(model, seed)
    if getattr(model.config, "tie_word_embeddings", False):
        model.tie_weights()
    model.eval()
    model.config._attn_implementation = "eager"
    model.save_pretrained(folder)
    if kind in ("bert", "roberta"):
        wordpiece_tokenizer(folder)
    else:
        byte_bpe_tokenizer(folder, bos=kind == "llama")
    return model
