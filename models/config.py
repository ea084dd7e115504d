"""One frozen, validated configuration for every Transformer in the app.

A page that toggles an option builds a new ModelConfig; __post_init__ rejects impossible
combinations with a message a student can act on (TransformerLens does the same).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields

from .config_checks import (  # the published families' option checks (and the two lists they check against)
    LAYER_TYPES,  # noqa: F401  (re-exported: config.LAYER_TYPES)
    QK_NORM_SCOPES,  # noqa: F401
    _check_decoder_family_options,
    _check_encoder_family_options,
    _check_gemma_options,
    _check_granite_options,
    _check_linear_options,
    _check_relative_options,
)

ARCHS = ("encoder", "decoder", "encoder-decoder")
NORM_POSITIONS = ("pre", "post")  # what the Architecture lab offers
# What published checkpoints also need: OLMo 2's x + norm(f(x)) (the norm on the sublayer's output inside the
# residual branch, and a final norm), and Gemma 2/3's x + post_norm(f(pre_norm(x))), a norm before AND after each
# sublayer ("sandwich"), and a final norm.
ALL_NORM_POSITIONS = (*NORM_POSITIONS, "post_sub", "sandwich")
NORMS = ("layernorm", "rmsnorm")
ACTIVATIONS = ("relu", "gelu", "swiglu")  # what the Architecture lab offers
# What published checkpoints also need: GPT-2's GELU in its tanh form ("gelu_new", Hendrycks & Gimpel 2016,
# eq. 2) and Marian's plain SiLU ("swish") in a two-matrix FFN.
ALL_ACTIVATIONS = (*ACTIVATIONS, "gelu_tanh", "silu")
ALL_ACTIVATIONS = (*ALL_ACTIVATIONS, "geglu")  # Gemma: W2·(GELU_tanh(W1·x) ⊙ W3·x), gated like SwiGLU
POSITIONALS = ("sinusoidal", "learned", "rope", "none")
# T5 (Raffel et al. 2020): a learned per-head bias on q·k by bucketed relative position; published models only
ALL_POSITIONALS = (*POSITIONALS, "relative")
PE_LAYOUTS = ("interleaved", "half")  # sinusoidal: sin/cos alternating (Vaswani) or sin half, cos half (Marian)
MASKS = ("causal", "bidirectional", "prefix", "sliding")

MOE_FIELDS = ("n_experts", "experts_top_k", "moe_aux_weight")
# Fields added for later published families (Qwen3, GPT-NeoX/Pythia), with the value that changes nothing: to_dict
# leaves each out while it holds this value, so older configs (and their hashes) serialise as before.
QUIET_DEFAULTS = {"head_dim": None, "qk_norm": False, "rotary_dim": None, "parallel_residual": False}
QUIET_DEFAULTS["moe_renormalize"] = False  # Mixtral
QUIET_DEFAULTS.update(shared_block_norm=False, nope_layers=None, qk_norm_scope="head")  # Phi, SmolLM3, OLMo 2
QUIET_DEFAULTS.update(embedding_size=None, shared_layers=False, mlm_activation=None, detector_head=False)  # ALBERT
QUIET_DEFAULTS.update(rel_buckets=32, rel_max_distance=128, head_rescale=False)  # T5
QUIET_DEFAULTS.update(layer_types=None, rope_local_base=None, attn_softcap=None, final_softcap=None)  # Gemma 2/3
QUIET_DEFAULTS.update(embed_multiplier=None, residual_scale=None, logits_divisor=None)  # Granite MoE
QUIET_DEFAULTS.update(attn_output_gate=False, linear_key_heads=0, linear_value_heads=0, linear_key_dim=0,
                      linear_value_dim=0, linear_conv_kernel=4)  # Qwen3.5  # fmt: skip

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
    # What other published checkpoints need (models/published/families/); again the defaults change nothing.
    rope_base: float = 10000.0  # RoPE's θ base (Su et al. 2021); Llama 3: 500000, Qwen2: 1000000
    rope_llama3: tuple[float, float, float, int] | None = None  # Llama 3.1 scaling: factor, low, high, original ctx
    sliding_window: int | None = None  # Mistral: a query sees only its last `sliding_window` positions
    pe_layout: str = "interleaved"  # sinusoidal table layout, see PE_LAYOUTS
    position_offset: int = 0  # learned positions start at this row (RoBERTa: padding_idx + 1 = 2)
    mlm_head: bool = False  # BERT/RoBERTa: dense -> GELU -> LayerNorm before the (tied) output matrix
    head_bias: bool = False  # a bias on the output logits (BERT's MLM decoder, Marian's final_logits_bias)
    # Mixture of experts (models/core/moe.py): each block's FFN becomes n_experts FFNs and a router that sends every
    # token to experts_top_k of them (Fedus et al. 2021, Switch: k = 1; Jiang et al. 2024, Mixtral: 8 experts,
    # k = 2). 0 experts is the dense FFN; to_dict leaves these fields out then, so dense configs (the shipped
    # checkpoints, the lab's cache keys) serialise exactly as before.
    n_experts: int = 0
    experts_top_k: int = 2
    moe_aux_weight: float = 0.01  # weight of the load-balancing loss in training (Switch's α = 10⁻²)
    # Mixtral and Granite renormalise the chosen gates at every k, so k = 1 gives a gate of 1 (the toy's k = 1 keeps
    # Switch's raw probability); quiet at its default (QUIET_DEFAULTS).
    moe_renormalize: bool = False
    # Qwen3 and GPT-NeoX (Pythia); the defaults change nothing, and to_dict leaves them out then (QUIET_DEFAULTS).
    head_dim: int | None = None  # explicit d_head (Qwen3-0.6B: 16 heads x 128 on a 1024-wide stream); None: d / heads
    qk_norm: bool = False  # Qwen3: each head's q and k normalised over d_head (the model's norm kind), before RoPE
    rotary_dim: int | None = None  # RoPE on the first rotary_dim dims of each head only (Pythia: d_head / 4); None: all
    parallel_residual: bool = False  # GPT-J/NeoX: x + attn(norm_self(x)) + ffn(norm_ffn(x)), both norms read x
    # Phi, SmolLM3 and OLMo 2 (models/published/families/phi.py, smollm3.py, olmo2.py); the defaults change nothing
    # and are quiet.
    # norm_position="post_sub" (OLMo 2) is x + norm(f(x)) with a final norm: see ALL_NORM_POSITIONS.
    shared_block_norm: bool = False  # Phi: a parallel block reads ONE norm: x + attn(norm_self(x)) + ffn(norm_self(x))
    nope_layers: tuple[int, ...] | None = None  # SmolLM3: indices of the layers without RoPE (NoPE); None: none
    qk_norm_scope: str = "head"  # qk_norm over each head ("head", Qwen3) or all heads' q (k) at once ("all", OLMo 2)
    # ALBERT, DistilBERT, ELECTRA (models/published/families/encoders.py); the defaults change nothing and are quiet.
    # embedding_size E: token, position and type embeddings and their norm are E wide, then a projection E -> d
    # (with bias; ALBERT's embedding_hidden_mapping_in, ELECTRA's embeddings_project); an MLM head maps d -> E
    # before the tied [V, E] output matrix. None: embeddings are d wide, no projection.
    embedding_size: int | None = None
    shared_layers: bool = False  # ALBERT: ONE block's weights serve all n_layers of a stack (each layer still traced)
    mlm_activation: str | None = None  # activation inside the MLM transform (ALL_ACTIVATIONS); None: exact GELU (BERT)
    detector_head: bool = False  # ELECTRA discriminator: dense d -> d, activation, dense d -> 1: a replaced-token logit
    # Gemma 2 and Gemma 3 (models/published/families/gemma.py); the defaults change nothing and are quiet
    # (QUIET_DEFAULTS).
    # norm_position="sandwich" is x + post_norm(f(pre_norm(x))); activation="geglu" is the GELU-tanh gated FFN.
    # layer_types: per layer "full_attention" (the page's mask) or "sliding_attention" (that mask AND the causal
    # window of sliding_window positions); None: every layer alike (sliding_window, if set, is the model's mask)
    layer_types: tuple[str, ...] | None = None
    rope_local_base: float | None = None  # Gemma 3: RoPE θ of the sliding layers (10⁴; full layers: rope_base, 10⁶)
    attn_softcap: float | None = None  # Gemma 2: scores = cap·tanh(scores/cap) before the mask (50.0); None: none
    final_softcap: float | None = None  # Gemma 2: logits = cap·tanh(logits/cap) (30.0); None: none
    # T5 (models/published/families/t5.py); the defaults change nothing and are quiet. positional="relative": each
    # stack has a
    # table [rel_buckets, n_heads] added to q·k by the bucket of (key position - query position): exact up to
    # rel_buckets/4 (one side), then log-spaced up to rel_max_distance (models/positional.relative_bucket); the
    # encoder buckets both sides, the decoder only the past; cross-attention has no bias.
    rel_buckets: int = 32
    rel_max_distance: int = 128
    head_rescale: bool = False  # T5: the final hidden state × d_model^-0.5 before the (tied) output head
    # Granite MoE (models/published/families/granite.py); the defaults change nothing and are quiet (QUIET_DEFAULTS).
    # Its
    # attention_multiplier is attn_scale (it replaces 1/sqrt(d_head)).
    embed_multiplier: float | None = None  # token embeddings × this (besides embed_scale's sqrt(d)); None: none
    residual_scale: float | None = None  # each sublayer's output × this before it joins the residual; None: 1
    logits_divisor: float | None = None  # logits = head(h) / this (Granite's logits_scaling); None: none
    # Qwen3.5 (models/published/families/qwen35.py, models/core/linear_attention.py); the defaults change nothing and
    # are quiet.
    # attn_output_gate: the q projection gives each head [query | gate]; its output × sigmoid(gate) before W_O.
    # layer_types may name "linear_attention" layers: Gated DeltaNet (Yang et al. 2024, arXiv 2412.06464) in place of
    # softmax attention, with linear_key_heads query/key heads of linear_key_dim dims, linear_value_heads value heads
    # of linear_value_dim dims, and a causal depthwise conv of linear_conv_kernel taps (then SiLU) on q, k and v.
    attn_output_gate: bool = False
    linear_key_heads: int = 0
    linear_value_heads: int = 0
    linear_key_dim: int = 0
    linear_value_dim: int = 0
    linear_conv_kernel: int = 4

    def __post_init__(self) -> None:
        def choice(name: str, allowed: tuple[str, ...]) -> None:
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name}={value!r} is not one of {', '.join(allowed)}")

        choice("arch", ARCHS)
        choice("norm_position", ALL_NORM_POSITIONS)
        choice("norm", NORMS)
        choice("activation", ALL_ACTIVATIONS)
        choice("positional", ALL_POSITIONALS)
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
        _check_decoder_family_options(self)  # Phi, SmolLM3, OLMo 2
        _check_encoder_family_options(self)  # ALBERT, DistilBERT, ELECTRA
        _check_gemma_options(self)  # Gemma 2, Gemma 3
        _check_relative_options(self)  # T5
        _check_granite_options(self)  # Granite MoE
        _check_linear_options(self)  # Qwen3.5

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
        # Gemma: the model's mask is causal; its sliding layers narrow it to their window (layer_window)
        return "causal" if self.sliding_window is None or self.layer_types is not None else "sliding"

    def layer_window(self, layer: int) -> int | None:
        """The window a self-attention layer narrows its mask to: sliding_window for a "sliding_attention" layer of
        layer_types (Gemma), else None (the mask as given: a Mistral window is already the model's mask)."""
        sliding = self.layer_types is not None and self.layer_types[layer] == "sliding_attention"
        return self.sliding_window if sliding else None

    def layer_rope_base(self, layer: int) -> float:
        """RoPE's θ in this layer: rope_local_base in a sliding layer when set (Gemma 3), else rope_base."""
        if self.rope_local_base is not None and self.layer_window(layer) is not None:
            return float(self.rope_local_base)
        return self.rope_base

    def is_linear(self, layer: int) -> bool:
        """Whether this layer is Gated DeltaNet linear attention (Qwen3.5's "linear_attention"), not softmax."""
        return self.layer_types is not None and self.layer_types[layer] == "linear_attention"

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
        if isinstance(data.get("nope_layers"), list):
            data = {**data, "nope_layers": tuple(data["nope_layers"])}
        if isinstance(data.get("layer_types"), list):
            data = {**data, "layer_types": tuple(data["layer_types"])}
        return cls(**data)
