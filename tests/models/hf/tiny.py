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
QUARTER_ROTARY = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}  # Pythia's


def redraw(model: torch.nn.Module, seed: int) -> None:
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "embed_positions" in name and not p.requires_grad:
                continue  # Marian's sinusoidal table: a formula, not a weight (never saved)
            # every norm's gain (GPT-NeoX's input_layernorm, final_layer_norm, Qwen3's q_norm/k_norm too) ~ 1 ± 0.2
            if p.dim() == 1 and ("norm" in name.lower() or "ln_" in name):
                if name.endswith("weight"):
                    p.copy_(1 + 0.2 * torch.randn(p.shape, generator=g))
                else:
                    p.copy_(0.1 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(SPREAD * torch.randn(p.shape, generator=g))


def save_eager(model, folder: Path) -> None:
    """Tie where the config says so, then save as published; the in-memory oracle runs eager attention so its
    attention weights exist (output_attentions)."""
    if getattr(model.config, "tie_word_embeddings", False):
        model.tie_weights()
    model.eval()
    model.config._attn_implementation = "eager"
    model.save_pretrained(folder)


def byte_bpe_tokenizer(folder: Path, bos: bool) -> None:
    """The app's own byte-level BPE (2048 tokens) as the tiny models' tokenizer.json; [BOS] first if bos
    (as Llama's tokenizer adds <|begin_of_text|>), nothing added otherwise (as GPT-2's and Qwen's)."""
    tok = Tokenizer.from_file(str(tokenizer_path()))
    if bos:
        tok.post_processor = TemplateProcessing(single="[BOS] $A", special_tokens=[("[BOS]", 1)])
    tok.save(str(folder / "tokenizer.json"))


def wordpiece_tokenizer(folder: Path) -> None:
    from models.published.pretrained import model_dir

    shutil.copy(model_dir() / "tokenizer.json", folder / "tokenizer.json")


def marian_tokenizer(folder: Path, vocab_size: int) -> None:
    """source.spm and target.spm trained on the app's own corpus (English and Chinese), one vocab.json
    as Marian's: </s> = 0, <unk> = 1, the pieces, <pad> last (its decoder_start_token_id)."""
    import sentencepiece as spm

    from models import data

    text = folder / "corpus.txt"
    text.write_text("\n".join(data.corpus(400, 3)), encoding="utf-8")
    for side in ("source", "target"):
        spm.SentencePieceTrainer.train(input=str(text), model_prefix=str(folder / side), vocab_size=250,
                                       character_coverage=1.0, minloglevel=2)  # fmt: skip
        (folder / f"{side}.model").rename(folder / f"{side}.spm")
        (folder / f"{side}.vocab").unlink()
    text.unlink()
    pieces = [p for side in ("source", "target") for p in _pieces(folder / f"{side}.spm")]
    vocab = {"</s>": 0, "<unk>": 1}
    for p in pieces:
        if p not in vocab and len(vocab) < vocab_size - 1:
            vocab[p] = len(vocab)
    vocab["<pad>"] = vocab_size - 1
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")


def _pieces(model: Path) -> list[str]:
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(model))
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not sp.is_control(i) and not sp.is_unknown(i)]


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
    """Save a tiny random `kind` model (gpt2, llama, qwen2, mistral, qwen3, gpt_neox, bert, roberta, marian) to
    folder; returns it."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    if kind == "gpt2":
        cfg = tf.GPT2Config(**{**dict(vocab_size=2048, n_positions=64, n_embd=32, n_layer=2, n_head=4), **over})
        model = tf.GPT2LMHeadModel(cfg)
    elif kind in ("llama", "qwen2", "mistral"):
        base = dict(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)  # fmt: skip
        base.update(over)
        cls = {"llama": (tf.LlamaConfig, tf.LlamaForCausalLM), "qwen2": (tf.Qwen2Config, tf.Qwen2ForCausalLM),
               "mistral": (tf.MistralConfig, tf.MistralForCausalLM)}[kind]  # fmt: skip
        cfg = cls[0](**base)
        model = cls[1](cfg)
    elif kind == "qwen3":  # head_dim 16 on a 32-wide stream of 4 heads: q, k, v are 64 wide, not 32
        base = dict(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
                    num_key_value_heads=2, head_dim=16, max_position_embeddings=128)  # fmt: skip
        model = tf.Qwen3ForCausalLM(tf.Qwen3Config(**{**base, **over}))
    elif kind == "gpt_neox":  # Pythia: head_dim 16, RoPE on its first quarter (4 dims), parallel residual
        base = dict(vocab_size=2048, hidden_size=64, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
                    max_position_embeddings=128, hidden_act="gelu", rope_parameters=QUARTER_ROTARY)  # fmt: skip
        model = tf.GPTNeoXForCausalLM(tf.GPTNeoXConfig(**{**base, **over}))
    elif kind in ("bert", "roberta"):
        base = dict(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=48, max_position_embeddings=64)  # fmt: skip
        base.update(over)
        if kind == "bert":
            cfg, model_cls = tf.BertConfig(**base), tf.BertForMaskedLM
        else:
            cfg, model_cls = tf.RobertaConfig(**{**base, "max_position_embeddings": 66}), tf.RobertaForMaskedLM
        model = model_cls(cfg)
    elif kind == "marian":
        base = dict(vocab_size=600, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                    decoder_attention_heads=4, encoder_ffn_dim=48, decoder_ffn_dim=48, max_position_embeddings=64,
                    pad_token_id=599, decoder_start_token_id=599, eos_token_id=0, activation_function="swish",
                    scale_embedding=True)  # fmt: skip
        base.update(over)
        model = tf.MarianMTModel(tf.MarianConfig(**base))
    else:
        raise ValueError(kind)
    redraw(model, seed)
    save_eager(model, folder)
    if kind in ("bert", "roberta"):
        wordpiece_tokenizer(folder)
    elif kind == "marian":
        marian_tokenizer(folder, model.config.vocab_size)
    else:
        byte_bpe_tokenizer(folder, bos=kind == "llama")
    return model
