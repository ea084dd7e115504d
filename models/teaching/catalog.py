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

from .. import analysis
from ..config import ModelConfig
from ..core.transformer import Transformer


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
# Mixtral 8×7B (Jiang et al. 2024, Table 1; the released config.json): Mistral 7B's block with each FFN
# replaced by 8 SwiGLU experts, 2 of them per token, 32 768 tokens of context, an untied output layer.
MIXTRAL = Published(
    "Mixtral 8×7B",
    dataclasses.replace(_llama(32000, 32, 4096, 32, 8, 14336, norm_eps=1e-5, rope_base=1e6, n_experts=8,
                               experts_top_k=2, moe_aux_weight=0.02), max_len=32768),
    46.7e9,
    "Mistral AI, Mixtral announcement, Dec 2023 (46.7B total, 12.9B active); Jiang et al. 2024, Table 1",
)  # fmt: skip
MIXTRAL_ACTIVE = 12.9e9  # active per token, Mistral AI's announcement (Dec 2023); the paper rounds to 13B
MOE_MODELS: tuple[Published, ...] = (MIXTRAL,)

BYTES = {"float32": 4, "bfloat16": 2, "float16": 2, "int8": 1}  # bytes per stored K or V value


def counts(p: Published) -> dict[str, int]:
    """Parameters per component, the parts outside the stack (BERT's pooler) included."""
    return {**analysis.parameter_counts(p.config), **p.extra}


def total(p: Published) -> int:
    return sum(counts(p).values())


def active_total(p: Published) -> int:
    """Parameters one token passes through: a mixture of experts counts its top-k experts, not all n."""
    return sum({**analysis.parameter_counts(p.config, active=True), **p.extra}.values())


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


# ----------------------------------------------------------------- the timeline
# Each model as its paper or model card publishes it. The parameter count is computed from the
# architecture (as above); vocabulary, context, norm, activation, positions and attention are read off
# the ModelConfig, so one table cannot disagree with another. None means "not published": a rumour is
# not a number.

ATTENTION_KINDS = ("MHA", "GQA", "MQA")


def _gpt3(layers: int, d: int, heads: int) -> ModelConfig:
    """GPT-3 (Brown et al. 2020, §2.1, Table 2.1): GPT-2's block and tokenizer, 2048 tokens of context,
    d_ff = 4·d, dense and locally banded sparse attention layers alternating (the count is the same)."""
    return dataclasses.replace(_gpt2(layers, d, heads), max_len=2048)


def _llama1(layers: int, d: int, heads: int, d_ff: int) -> ModelConfig:
    """LLaMA (Touvron et al. 2023a, §2.2, Table 2): pre-norm RMSNorm, SwiGLU, RoPE, MHA, a SentencePiece
    BPE vocabulary of 32 000 tokens, 2048 tokens of context."""
    return dataclasses.replace(_llama(32000, layers, d, heads, None, d_ff, norm_eps=1e-6), max_len=2048)


def _llama2(layers: int, d: int, heads: int, kv: int | None, d_ff: int) -> ModelConfig:
    """Llama 2 (Touvron et al. 2023b, §2.2, Table 1): LLaMA's block and tokenizer, 4096 tokens of
    context, GQA for the 34B and 70B models only."""
    return dataclasses.replace(_llama(32000, layers, d, heads, kv, d_ff, norm_eps=1e-5), max_len=4096)


def _llama3(layers: int, d: int, heads: int, d_ff: int, context: int) -> ModelConfig:
    """Llama 3 and 3.1 (Dubey et al. 2024, Table 3): 128 256 tokens, 8 KV heads at every size, RoPE θ = 500 000."""
    return dataclasses.replace(_llama(128256, layers, d, heads, 8, d_ff, norm_eps=1e-5, rope_base=500000.0),
                               max_len=context)  # fmt: skip


@dataclass(frozen=True)
class Release:
    """One model on the timeline. model None: the architecture and size are not published."""

    family: str
    date: str  # "YYYY-MM", first publication of the paper or model
    model: Published | None
    tokens: float | None  # pre-training tokens the source states; None: not stated
    source: str  # paper (or model card) and table/section of the architecture and the tokens
    name: str = ""  # only when model is None
    based_on: str = ""  # the pre-trained model it was fine-tuned from
    note: str = ""  # i18n key of a remark

    @property
    def title(self) -> str:
        return self.model.name if self.model else self.name

    @property
    def config(self) -> ModelConfig | None:
        return self.model.config if self.model else None


def attention_kind(cfg: ModelConfig) -> str:
    """MHA (a K/V head per query head), MQA (one K/V head for all, Shazeer 2019) or GQA (groups)."""
    return "MHA" if cfg.kv_heads == cfg.n_heads else "MQA" if cfg.kv_heads == 1 else "GQA"


_GPT3_SRC = "Brown et al. 2020, Table 2.1, §2.1"  # sizes and 300B tokens; 2048 tokens of context
_GPT3 = {  # Table 2.1: n_layers, d_model, n_heads, the parameters it prints
    "125M": (12, 768, 12, 125e6), "350M": (24, 1024, 16, 350e6), "760M": (24, 1536, 16, 760e6),
    "1.3B": (24, 2048, 16, 1.3e9),  # Table 2.1 prints 24 heads of 128: not 2048 wide; the count does not depend on it
    "2.7B": (32, 2560, 32, 2.7e9), "6.7B": (32, 4096, 32, 6.7e9),
    "13B": (40, 5120, 40, 13.0e9),  # Table 2.1 prints d_model 5140, not 40 heads × 128 = 5120
    "175B": (96, 12288, 96, 175.0e9),
}  # fmt: skip
_GPT3_NOTE = {"1.3B": "scaling.tl.note.gpt3_xl", "13B": "scaling.tl.note.gpt3_13b"}
GPT3 = {size: Published(f"GPT-3 {size}", _gpt3(*arch[:3]), arch[3], _GPT3_SRC) for size, arch in _GPT3.items()}
_INSTRUCT_SRC = "Ouyang et al. 2022, §3.2, Table 6"  # GPT-3 1.3B, 6B, 175B; the prompts of each step
_LLAMA1_SRC = "Touvron et al. 2023a, Table 2, §2.2"  # sizes and tokens; the architecture
_LLAMA2_SRC = "Touvron et al. 2023b, Table 1"  # tokens, context, which sizes use GQA
_LLAMA3_SRC = "Meta 2024, Llama 3 model card; Dubey et al. 2024, Table 3"  # 8K context, 15T+ tokens
_LLAMA31_SRC = "Dubey et al. 2024, Table 3; Llama 3.1 model card"  # ~15T tokens, 128K context

TIMELINE: tuple[Release, ...] = (
    Release("GPT-1", "2018-06", BY_NAME["GPT-1"], None,
            "Radford et al. 2018, §4.1",
            note="scaling.tl.note.gpt1"),
    *(Release("GPT-2", "2019-02", BY_NAME[f"GPT-2 {s}"], None, "Radford et al. 2019, §2, Table 2",
              note="scaling.tl.note.gpt2") for s in ("small", "medium", "large", "XL")),
    *(Release("GPT-3", "2020-05", p, 300e9, _GPT3_SRC, note=_GPT3_NOTE.get(s, "")) for s, p in GPT3.items()),
    *(Release("InstructGPT", "2022-03", dataclasses.replace(GPT3[base], name=f"InstructGPT {size}",
                                                            published=float(size[:-1]) * 1e9, source=_INSTRUCT_SRC),
              300e9, _INSTRUCT_SRC, based_on=f"GPT-3 {base}", note="scaling.tl.note.instructgpt")
      for size, base in (("1.3B", "1.3B"), ("6B", "6.7B"), ("175B", "175B"))),
    *(Release("LLaMA", "2023-02", Published(f"LLaMA-{name}", _llama1(*arch), pub, _LLAMA1_SRC), tokens, _LLAMA1_SRC,
              note="scaling.tl.note.llama33" if name == "33B" else "")
      for name, arch, pub, tokens in (("7B", (32, 4096, 32, 11008), 6.7e9, 1.0e12),
                                      ("13B", (40, 5120, 40, 13824), 13.0e9, 1.0e12),
                                      ("33B", (60, 6656, 52, 17920), 32.5e9, 1.4e12),
                                      ("65B", (80, 8192, 64, 22016), 65.2e9, 1.4e12))),
    *(Release("Llama 2", "2023-07", Published(f"Llama-2-{name}", _llama2(*arch), pub, _LLAMA2_SRC), 2.0e12,
              _LLAMA2_SRC)
      for name, arch, pub in (("7B", (32, 4096, 32, None, 11008), 7e9), ("13B", (40, 5120, 40, None, 13824), 13e9),
                              ("70B", (80, 8192, 64, 8, 28672), 70e9))),
    *(Release("Llama 3", "2024-04", Published(f"Llama-3-{name}", _llama3(*arch, 8192), pub, _LLAMA3_SRC), 15e12,
              _LLAMA3_SRC)
      for name, arch, pub in (("8B", (32, 4096, 32, 14336), 8e9), ("70B", (80, 8192, 64, 28672), 70e9))),
    Release("Llama 3.1", "2024-07", BY_NAME["Llama-3.1-8B"], 15e12, _LLAMA31_SRC, note="scaling.tl.note.llama31"),
    *(Release("Llama 3.1", "2024-07", Published(f"Llama-3.1-{name}", _llama3(*arch, 131072), pub, _LLAMA31_SRC),
              15e12, _LLAMA31_SRC, note="scaling.tl.note.llama31")
      for name, arch, pub in (("70B", (80, 8192, 64, 28672), 70e9), ("405B", (126, 16384, 128, 53248), 405e9))),
    Release("Qwen2.5", "2024-09", BY_NAME["Qwen2.5-7B"], 18e12, "Qwen team 2024, Table 1, §3.1; model card",
            note="scaling.tl.note.qwen"),
    Release("GPT-4", "2023-03", None, None, "OpenAI 2023, §2", name="GPT-4", note="scaling.tl.note.gpt4"),
)  # fmt: skip
TIMELINE_BY_NAME = {r.title: r for r in TIMELINE}


def timeline() -> list[Release]:
    """The releases by date, then by size (a model of unpublished size last in its month)."""
    return sorted(TIMELINE, key=lambda r: (r.date, total(r.model) if r.model else float("inf")))


def tokens_per_parameter(r: Release) -> float | None:
    """Published training tokens / computed parameters; None when either is not published."""
    return None if r.model is None or r.tokens is None else r.tokens / total(r.model)
