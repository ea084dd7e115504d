"""Well-known models as ModelConfigs built from their published hyper-parameters, and what follows
from them: parameter counts, the GQA saving, KV-cache bytes, ALBERT's factorised embedding.

Every count comes from `analysis.parameter_counts` (the same formula the tests check against the
built modules), so the figures a page shows are computed, never typed in. The published totals
below are what the papers and model cards quote; the page shows both and the difference.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import torch

from . import analysis
from .config import ModelConfig
from .transformer import Transformer


@dataclass(frozen=True)
class Published:
    name: str
    config: ModelConfig
    published: float  # the total the source quotes
    source: str  # where that figure is printed
    extra: dict[str, int] = field(default_factory=dict)  # parts outside the Transformer stack
    note: str = ""  # i18n key of a remark about the comparison, "" for none


def _bert(layers: int, d: int, heads: int) -> ModelConfig:
    """BERT (Devlin et al. 2019): post-norm, GELU, biases, 512 learned positions, 2 segment types,
    a LayerNorm on the embeddings, WordPiece vocabulary of 30 522, FFN 4·d."""
    return ModelConfig(arch="encoder", vocab_size=30522, n_layers=layers, d_model=d, n_heads=heads, d_ff=4 * d,
                       norm_position="post", norm="layernorm", activation="gelu", positional="learned", max_len=512,
                       bias=True, norm_eps=1e-12, embed_scale=False, embed_norm=True, type_vocab_size=2)  # fmt: skip


def _gpt2(layers: int, d: int, heads: int) -> ModelConfig:
    """GPT-2 (Radford et al. 2019): pre-norm with a final LayerNorm, GELU, biases, 1024 learned
    positions, byte-level BPE of 50 257 tokens, head tied to the embedding. GPT-1 is the same block,
    post-norm, with 512 positions and a 40 478-token vocabulary."""
    return ModelConfig(arch="decoder", vocab_size=50257, n_layers=layers, d_model=d, n_heads=heads, d_ff=4 * d,
                       norm_position="pre", norm="layernorm", activation="gelu", positional="learned", max_len=1024,
                       bias=True, embed_scale=False)  # fmt: skip


def _llama(vocab: int, layers: int, d: int, heads: int, kv: int, d_ff: int, **extra) -> ModelConfig:
    """Llama 3 and Qwen2.5: pre-norm RMSNorm, SwiGLU, RoPE, GQA, no biases, an untied output layer."""
    return ModelConfig(arch="decoder", vocab_size=vocab, n_layers=layers, d_model=d, n_heads=heads, n_kv_heads=kv,
                       d_ff=d_ff, norm_position="pre", norm="rmsnorm", activation="swiglu", positional="rope",
                       max_len=131072, tie_embeddings=False, **extra)  # fmt: skip


def _pooler(d: int) -> dict[str, int]:
    """BERT's pooler: a d×d dense layer with bias on [CLS], part of the released BertModel."""
    return {"pooler": d * d + d}


CATALOG: tuple[Published, ...] = (
    Published("BERT-base", _bert(12, 768, 12), 110e6, "Devlin et al. 2019, §3", _pooler(768)),
    Published("BERT-large", _bert(24, 1024, 16), 340e6, "Devlin et al. 2019, §3", _pooler(1024)),
    Published(
        "GPT-1",
        dataclasses.replace(_gpt2(12, 768, 12), vocab_size=40478, max_len=512, norm_position="post"),
        117e6,
        "Radford et al. 2018; Radford et al. 2019, Table 2",
    ),
    Published("GPT-2 small", _gpt2(12, 768, 12), 117e6, "Radford et al. 2019, Table 2", note="scaling.gpt2_note"),
    Published("GPT-2 medium", _gpt2(24, 1024, 16), 345e6, "Radford et al. 2019, Table 2", note="scaling.gpt2_note"),
    Published("GPT-2 large", _gpt2(36, 1280, 20), 762e6, "Radford et al. 2019, Table 2", note="scaling.gpt2_note"),
    Published("GPT-2 XL", _gpt2(48, 1600, 25), 1542e6, "Radford et al. 2019, Table 2 (≈ 1.5B)"),
    Published("Llama-3.1-8B", _llama(128256, 32, 4096, 32, 8, 14336, norm_eps=1e-5), 8.0e9,
              "Meta, Llama 3.1 model card (8B)"),
    Published("Qwen2.5-7B", _llama(152064, 28, 3584, 28, 4, 18944, qkv_bias=True, norm_eps=1e-6), 7.61e9,
              "Qwen team, Qwen2.5-7B model card (7.61B)"),
)  # fmt: skip
BY_NAME = {p.name: p for p in CATALOG}

BYTES = {"float32": 4, "bfloat16": 2, "float16": 2, "int8": 1}  # bytes per stored K or V value


def counts(p: Published) -> dict[str, int]:
    """Parameters per component, the parts outside the stack (BERT's pooler) included."""
    return {**analysis.parameter_counts(p.config), **p.extra}


def total(p: Published) -> int:
    return sum(counts(p).values())


def relative_error(p: Published) -> float:
    """(computed − published) / published."""
    return (total(p) - p.published) / p.published


def skeleton(cfg: ModelConfig) -> Transformer:
    """The module on the meta device: shapes and names, no memory, no initialisation. Its repr is
    the module tree, and its parameter count is the built module's, for any size."""
    with torch.device("meta"):
        return Transformer(cfg, init=False)


def module_tree(cfg: ModelConfig) -> str:
    """The model printed the way PyTorch prints it (as the notes print Llama and Qwen)."""
    return repr(skeleton(cfg))


def built_count(cfg: ModelConfig) -> int:
    """Parameters of the built module (tied tensors once), counted on the meta device."""
    return sum(p.numel() for p in skeleton(cfg).parameters())


def kv_projection_saving(cfg: ModelConfig) -> int:
    """Parameters GQA saves over MHA of the same width: the K and V projections (and biases, if any)
    of the missing heads, W_k and W_v each d_model × (n_heads − n_kv_heads)·d_head per attention layer.
    Taken from the one parameter formula, so it cannot drift from the counts."""
    mha, gqa = analysis.parameter_counts(dataclasses.replace(cfg, n_kv_heads=None)), analysis.parameter_counts(cfg)
    return sum(mha[k] - gqa[k] for k in ("attention.k", "attention.v"))


def kv_cache_bytes_per_token(cfg: ModelConfig, dtype: str = "bfloat16", kv_heads: int | None = None) -> int:
    """Bytes the KV cache grows by per generated token: K and V (2) × layers × KV heads × d_head ×
    bytes per value. GQA shrinks it by n_heads / n_kv_heads (Ainslie et al. 2023)."""
    kv = cfg.kv_heads if kv_heads is None else kv_heads
    return 2 * cfg.n_layers * kv * cfg.d_head * BYTES[dtype]


def albert_embedding(vocab: int, hidden: int, e: int) -> tuple[int, int]:
    """(V×H, V×E + E×H): ALBERT's factorised embedding (Lan et al. 2020, §3.1) maps tokens to a small
    E-dimensional space, then up to the hidden size H. It saves parameters when E ≪ H."""
    return vocab * hidden, vocab * e + e * hidden


def breakeven_e(vocab: int, hidden: int) -> float:
    """The E at which the factorisation stops saving: V·E + E·H = V·H  ⇔  E = V·H / (V + H)."""
    return vocab * hidden / (vocab + hidden)
