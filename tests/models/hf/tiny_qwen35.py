"""Tiny random Qwen3.5 (text) checkpoints, built with transformers' own classes (no download).

Qwen3_5ForCausalLM (the text model alone) is built and saved; `nest` then rewrites the folder into the layout
Qwen3.5 is published in (Qwen3_5ForConditionalGeneration: config under text_config, weights under
model.language_model.*, lm_head.weight at the top), with a stand-in vision tensor and mtp tensor the loader must skip.
Sizes: head_dim 16 on a 32-wide stream of 4 heads (RoPE on its first 4 dims), Gated DeltaNet with 2 key heads of 8
dims and 4 value heads of 8 dims (each key head serves 2 value heads), a 4-tap conv.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from .tiny import byte_bpe_tokenizer, redraw, save_eager

BASE = dict(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=4, num_attention_heads=4,
            num_key_value_heads=2, head_dim=16, max_position_embeddings=512, linear_num_key_heads=2,
            linear_num_value_heads=4, linear_key_head_dim=8, linear_value_head_dim=8, linear_conv_kernel_dim=4,
            rope_parameters={"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25,
                             "mrope_section": [1, 1, 0], "mrope_interleaved": True})  # fmt: skip
EXTRA = {"model.visual.patch_embed.proj.weight": torch.ones(3, 2), "mtp.fc.weight": torch.ones(2, 2)}


def build_qwen35(folder: Path, seed: int = 0, nested: bool = True, **over) -> torch.nn.Module:
    """Save a tiny random Qwen3.5 text model to folder (published nested layout unless nested=False); returns it."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    model = tf.Qwen3_5ForCausalLM(tf.Qwen3_5TextConfig(**{**BASE, **over}))
    redraw(model, seed)
    with torch.no_grad():  # the (1 + w) norms are stored zero-centred: w ~ 0 ± 0.2; linear_attn.norm keeps plain w
        for name, p in model.named_parameters():
            if p.dim() == 1 and "norm" in name and "linear_attn.norm" not in name:
                p.sub_(1.0)
    save_eager(model, folder)
    if nested:
        nest(folder)
    byte_bpe_tokenizer(folder, bos=False)  # Qwen's tokenizer adds nothing
    return model


def nest(folder: Path) -> None:
    """Rewrite a saved Qwen3_5ForCausalLM folder into the published Qwen3_5ForConditionalGeneration layout."""
    path = folder / "config.json"
    text = json.loads(path.read_text())
    tie = text.pop("tie_word_embeddings", False)
    text["model_type"] = "qwen3_5_text"
    published = {"architectures": ["Qwen3_5ForConditionalGeneration"], "model_type": "qwen3_5", "text_config": text,
                 "vision_config": {"model_type": "qwen3_5_vision", "depth": 1}, "tie_word_embeddings": tie}  # fmt: skip
    path.write_text(json.dumps(published, indent=2))
    weights = load_file(str(folder / "model.safetensors"))
    renamed = {("model.language_model." + k[len("model.") :] if k.startswith("model.") else k): v
               for k, v in weights.items()}  # fmt: skip
    save_file({**renamed, **EXTRA}, str(folder / "model.safetensors"), metadata={"format": "pt"})
