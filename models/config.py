"""One frozen, validated configuration for every Transformer in the app.

A page that toggles an option builds a new ModelConfig; __post_init__ rejects impossible
combinations with a message a student can act on (TransformerLens does the same).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields

ARCHS = ("encoder", "decoder", "encoder-decoder")
NORM_POSITIONS = ("pre", "post")
NORMS = ("layernorm", "rmsnorm")
ACTIVATIONS = ("relu", "gelu", "swiglu")  # what the Architecture lab offers
# What published checkpoints also need: GPT-2's GELU in its tanh form ("gelu_new", Hendrycks & Gimpel 2016,
# eq. 2) and Marian's plain SiLU ("swish") in a two-matrix FFN.
ALL_ACTIVATIONS = (*ACTIVATIONS, "gelu_tanh", "silu")
POSITIONALS = ("sinusoidal", "learned", "rope", "none")
PE_LAYOUTS = ("interleaved", "half")  # sinusoidal: sin/cos alternating (Vaswani) or sin half, cos half (Marian)
MASKS = ("causal", "bidirectional", "prefix", "sliding")

MOE_FIELDS = ("n_experts", "experts_top_k", "moe_aux_weight")
# Fields added for later published families (Qwen3, GPT-NeoX/Pythia), with the value that changes nothing: to_dict
# leaves each out while it holds this value, so older configs (and their hashes) serialise as before.
QUIET_DEFAULTS = {"head_dim": None, "qk_norm": False, "rotary_dim": None, "parallel_residual": False}

# The vocabulary size of the shipped byte-level BPE tokenizer (models/weights/tokenizer.json);
# a config built for the shipped tokenizer needs at least this many embedding rows.
DEFAULT_VOCAB_SIZE = 2048


@dataclass(frozen=True)
class ModelConfig:
    arch: str = "decoder"  # "encoder" (bidirectional, MLM head) | "decoder" (causal, LM head) | "encoder-decoder"
    vocab_size: int = DEFAULT_VOCAB_SIZE  # rows of the token embedding and columns of the output head
    n_layers: int = 2  # blocks per stack (an encoder-decoder has n_layers encoder + n_layers decoder blocks)
    d_model: int = 64  # width of the residual stream
    n_heads: int = 4  # query heads; d_head = d_model // n_heads (unless head_dim sets it)
    n_kv_heads: int | None = None  # None: MHA (= n_heads); 1: MQA; else GQA, query heads share K/V in groups
    d_ff: int = 256  # hidden width of the feed-forward network (for SwiGLU: of each of its two branches)
    norm_position: str = "pre"  # "pre": x + f(norm(x)) (GPT-2, Llama); "post": norm(x + f(x)) (Vaswani, BERT)
    norm: str = "layernorm"  # "layernorm" (centre and scale) | "rmsnorm" (scale only, Zhang & Sennrich 2019)
    activation: str = "gelu"  # "relu" (Vaswani) | "gelu" (BERT, GPT) | "swiglu" (Shazeer 2020, Llama)
    positional: str = "sinusoidal"  # "sinusoidal" (Vaswani) | "learned" (BERT, GPT-2) | "rope" (Su et al.) | "none"
    attn_scale: float | None = None  # factor on q·k; None means 1/sqrt(d_head) (Vaswani et al. 2017, §3.2.1)
    max_len: int = 256  # longest sequence the model accepts; longer input is truncated
    tie_embeddings: bool = True  # output head shares the token-embedding matrix (Press & Wolf 2017)
    seed: int = 0  # random initialisation is deterministic from this
    # What a pretrained BERT needs (Devlin et al. 2019); the defaults leave the toy models unchanged.
    bias: bool = False  # biases in the attention and FFN projections (BERT, GPT-2 have them; Llama not)
    qkv_bias: bool = False  # biases on the q, k, v projections only (Qwen2); implied by bias=True
    norm_eps: float | None = None  # epsilon of every norm; None: 1e-5 (LayerNorm), 1e-6 (RMSNorm). BERT: 1e-12
    embed_scale: bool = True  # token embeddings · sqrt(d_model) (Vaswani §3.4); BERT adds them unscaled
    embed_norm: bool = False  # a LayerNorm right after the embeddings (BERT)
    type_vocab_size: int = 0  # BERT's segment (token-type) embeddings; this app gives every token type 0
    # What other published checkpoints need (models/families/); again the defaults change nothing.
    rope_base: float = 10000.0  # RoPE's θ base (Su et al. 2021); Llama 3: 500000, Qwen2: 1000000
    rope_llama3: tuple[float, float, float, int] | None = None  # Llama 3.1 scaling: factor, low, high, original ctx
    sliding_window: int | None = None  # Mistral: a query sees only its last `sliding_window` positions
    pe_layout: str = "interleaved"  # sinusoidal table layout, see PE_LAYOUTS
    position_offset: int = 0  # learned positions start at this row (RoBERTa: padding_idx + 1 = 2)
    mlm_head: bool = False  # BERT/RoBERTa: dense -> GELU -> LayerNorm before the (tied) output matrix
    head_bias: bool = False  # a bias on the output logits (BERT's MLM decoder, Marian's final_logits_bias)
    # Mixture of experts (models/moe.py): each block's FFN becomes n_experts FFNs and a router that sends every
    # token to experts_top_k of them (Fedus et al. 2021, Switch: k = 1; Jiang et al. 2024, Mixtral: 8 experts,
    # k = 2). 0 experts is the dense FFN; to_dict leaves these fields out then, so dense configs (the shipped
    # checkpoints, the lab's cache keys) serialise exactly as before.
    n_experts: int = 0
    experts_top_k: int = 2
    moe_aux_weight: float = 0.01  # weight of the load-balancing loss in training (Switch's α = 10⁻²)
    # Qwen3 and GPT-NeoX (Pythia); the defaults change nothing, and to_dict leaves them out then (QUIET_DEFAULTS).
    head_dim: int | None = None  # explicit d_head (Qwen3-0.6B: 16 heads x 128 on a 1024-wide stream); None: d / heads
    qk_norm: bool = False  # Qwen3: each head's q and k normalised over d_head (the model's norm kind), before RoPE
    rotary_dim: int | None = None  # RoPE on the first rotary_dim dims of each head only (Pythia: d_head / 4); None: all
    parallel_residual: bool = False  # GPT-J/NeoX: x + attn(norm_self(x)) + ffn(norm_ffn(x)), both norms read x

    def __post_init__(self) -> None:
        def choice(name: str, allowed: tuple[str, ...]) -> None:
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name}={value!r} is not one of {', '.join(allowed)}")

        choice("arch", ARCHS)
        choice("norm_position", NORM_POSITIONS)
        choice("norm", NORMS)
        choice("activation", ALL_ACTIVATIONS)
        choice("positional", POSITIONALS)
        choice("pe_layout", PE_LAYOUTS)
        for name in ("vocab_size", "n_layers", "d_model", "n_heads", "d_ff", "max_len"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive whole number, got {value!r}")
        if self.head_dim is not None and (not isinstance(self.head_dim, int) or self.head_dim < 1):
            raise ValueError(f"head_dim must be a positive whole number or None (d / heads), got {self.head_dim!r}")
        if self.head_dim is None and self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}: "
                "each head gets d_model / n_heads dimensions (or set head_dim explicitly)"
            )
        kv = self.kv_heads
        if not isinstance(kv, int) or kv < 1 or self.n_heads % kv:
            raise ValueError(
                f"n_heads={self.n_heads} is not divisible by n_kv_heads={self.n_kv_heads}: "
                "in GQA every group of query heads shares one key/value head"
            )
        if self.positional == "rope" and self.rotary_dim is None and self.d_head % 2:
            if self.head_dim is None:
                how = f"d_head = d_model / n_heads = {self.d_model} / {self.n_heads} = {self.d_head}"
            else:
                how = f"head_dim = {self.head_dim}"
            raise ValueError(f"RoPE rotates pairs of dimensions: {how} must be even")
        if self.rotary_dim is not None:
            if self.positional != "rope":
                raise ValueError(f"rotary_dim={self.rotary_dim} needs positional='rope', not {self.positional!r}")
            if not isinstance(self.rotary_dim, int) or self.rotary_dim < 2 or self.rotary_dim % 2:
                raise ValueError(f"rotary_dim must be an even number >= 2 (RoPE turns pairs), got {self.rotary_dim!r}")
            if self.rotary_dim > self.d_head:
                raise ValueError(
                    f"rotary_dim={self.rotary_dim} is more than d_head={self.d_head}: RoPE rotates part of each head, "
                    "at most all of it"
                )
        if self.parallel_residual and (self.norm_position != "pre" or self.arch == "encoder-decoder"):
            raise ValueError(
                "parallel_residual adds attention and FFN, each on its own norm of the same x, to x: it needs "
                "norm_position='pre' and no cross-attention (arch 'decoder' or 'encoder')"
            )
        for name in ("qk_norm", "parallel_residual"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.positional == "sinusoidal" and self.d_model % 2:
            raise ValueError(f"sinusoidal PE pairs sin and cos: d_model={self.d_model} must be even")
        if self.norm_eps is not None and not (math.isfinite(self.norm_eps) and self.norm_eps > 0):
            raise ValueError(f"norm_eps must be a positive number or None, got {self.norm_eps!r}")
        if not isinstance(self.type_vocab_size, int) or self.type_vocab_size < 0:
            raise ValueError(f"type_vocab_size must be a whole number >= 0, got {self.type_vocab_size!r}")
        if self.sliding_window is not None and (not isinstance(self.sliding_window, int) or self.sliding_window < 1):
            raise ValueError(f"sliding_window must be a positive whole number or None, got {self.sliding_window!r}")
        if not isinstance(self.n_experts, int) or self.n_experts < 0:
            raise ValueError(f"n_experts must be a whole number >= 0 (0: a dense FFN), got {self.n_experts!r}")
        if not isinstance(self.experts_top_k, int) or self.experts_top_k < 1:
            raise ValueError(f"experts_top_k must be a positive whole number, got {self.experts_top_k!r}")
        if self.n_experts and self.experts_top_k > self.n_experts:
            raise ValueError(
                f"experts_top_k={self.experts_top_k} is more than n_experts={self.n_experts}: "
                "the router picks k of the n experts for each token"
            )
        if not (isinstance(self.moe_aux_weight, (int, float)) and math.isfinite(self.moe_aux_weight)
                and self.moe_aux_weight >= 0):  # fmt: skip
            raise ValueError(f"moe_aux_weight must be a number >= 0, got {self.moe_aux_weight!r}")
        if self.attn_scale is not None and not (math.isfinite(self.attn_scale) and self.attn_scale > 0):
            raise ValueError(f"attn_scale must be a positive number or None, got {self.attn_scale!r}")

    @property
    def d_head(self) -> int:
        """Width of one head: head_dim when set (q, k, v are n_heads·d_head wide, not d_model), else d / heads."""
        return self.d_model // self.n_heads if self.head_dim is None else self.head_dim

    @property
    def rope_dims(self) -> int:
        """How many leading dimensions of each head RoPE rotates (all of them unless rotary_dim says fewer)."""
        return self.d_head if self.rotary_dim is None else self.rotary_dim

    @property
    def kv_heads(self) -> int:
        return self.n_heads if self.n_kv_heads is None else self.n_kv_heads

    @property
    def scale(self) -> float:
        """The factor on q·k actually used: 1/sqrt(d_head) unless overridden."""
        return 1.0 / math.sqrt(self.d_head) if self.attn_scale is None else float(self.attn_scale)

    @property
    def default_mask(self) -> str:
        """Decoders are causal (Mistral: causal within its window); encoders see both sides."""
        if self.arch != "decoder":
            return "bidirectional"
        return "causal" if self.sliding_window is None else "sliding"

    def to_dict(self) -> dict:
        """All fields, except the MoE ones of a dense model (n_experts = 0) and those of QUIET_DEFAULTS that hold
        their default: a dense config's dict, and so its hash (models.variants.variant_key) and saved
        checkpoints, are what they were before MoE (and head_dim, qk_norm, ...) existed."""
        out = asdict(self)
        if not self.n_experts:
            for name in MOE_FIELDS:
                del out[name]
        for name, default in QUIET_DEFAULTS.items():
            if out[name] == default:
                del out[name]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> ModelConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown ModelConfig fields: {', '.join(sorted(unknown))}")
        if isinstance(data.get("rope_llama3"), list):  # JSON has no tuples
            data = {**data, "rope_llama3": tuple(data["rope_llama3"])}
        return cls(**data)
