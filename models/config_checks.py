"""The checks of the published families' ModelConfig options (models/config.py's __post_init__ calls them).

Kept apart so config.py stays the one readable list of fields; each check raises ValueError with a message a
student (or a config.json's author) can act on. Each takes the ModelConfig being built (`cfg`) and reads only its
fields: this module imports nothing of config.py, so the two make no import circle.
"""

from __future__ import annotations

import math

QK_NORM_SCOPES = ("head", "all")  # qk_norm over each head's d_head (Qwen3) or the whole projection (OLMo 2)
# per-layer attention kinds (config.layer_types): Gemma 2/3's full and sliding layers; Qwen3.5's Gated DeltaNet layers
# (models/core/linear_attention.py)
LAYER_TYPES = ("full_attention", "sliding_attention", "linear_attention")


def _check_decoder_family_options(cfg) -> None:
    """shared_block_norm (Phi), nope_layers (SmolLM3), qk_norm_scope (OLMo 2): each with what it needs."""
    for name in ("shared_block_norm",):
        if not isinstance(getattr(cfg, name), bool):
            raise ValueError(f"{name} must be True or False, got {getattr(cfg, name)!r}")
    if cfg.shared_block_norm and not cfg.parallel_residual:
        raise ValueError(
            "shared_block_norm makes attention and FFN read one norm of the same x (Phi): it needs "
            "parallel_residual=True"
        )
    if cfg.nope_layers is not None:
        layers = cfg.nope_layers
        if cfg.positional != "rope":
            raise ValueError(f"nope_layers={layers!r} switches RoPE off in some layers: it needs positional='rope'")
        if not isinstance(layers, tuple) or any(not isinstance(i, int) or isinstance(i, bool) for i in layers):
            raise ValueError(f"nope_layers must be a tuple of layer indices (or None), got {layers!r}")
        if list(layers) != sorted(set(layers)) or any(not 0 <= i < cfg.n_layers for i in layers):
            raise ValueError(
                f"nope_layers={layers!r} must list distinct layer indices 0..{cfg.n_layers - 1} in increasing order"
            )
    if cfg.qk_norm_scope not in QK_NORM_SCOPES:
        raise ValueError(f"qk_norm_scope={cfg.qk_norm_scope!r} is not one of {', '.join(QK_NORM_SCOPES)}")
    if cfg.qk_norm_scope != "head" and not cfg.qk_norm:
        raise ValueError(f"qk_norm_scope={cfg.qk_norm_scope!r} says how q and k are normalised: it needs qk_norm=True")


def _check_encoder_family_options(cfg) -> None:
    """embedding_size, shared_layers (ALBERT), mlm_activation, detector_head (ELECTRA): each with what it needs."""
    for name in ("shared_layers", "detector_head"):
        if not isinstance(getattr(cfg, name), bool):
            raise ValueError(f"{name} must be True or False, got {getattr(cfg, name)!r}")
    e = cfg.embedding_size
    if e is not None and (not isinstance(e, int) or isinstance(e, bool) or e < 1):
        raise ValueError(f"embedding_size must be a positive whole number or None (d_model wide), got {e!r}")
    if cfg.mlm_activation is not None and cfg.mlm_activation not in ("relu", "gelu", "gelu_tanh", "silu"):
        raise ValueError(f"mlm_activation={cfg.mlm_activation!r} is not one of relu, gelu, gelu_tanh, silu (or None)")
    if cfg.mlm_activation is not None and not cfg.mlm_head:
        raise ValueError("mlm_activation is the activation inside the MLM transform: it needs mlm_head=True")
    if cfg.detector_head and (cfg.mlm_head or cfg.tie_embeddings or cfg.activation == "swiglu"):
        raise ValueError(
            "detector_head (ELECTRA's discriminator) replaces the vocabulary head by dense -> activation -> one logit: "
            "it needs mlm_head=False, tie_embeddings=False and a single activation (not swiglu)"
        )
    if e is not None and cfg.positional == "sinusoidal":
        raise ValueError("embedding_size with sinusoidal PE is not supported (a d_model-wide table): use 'learned'")
    if cfg.shared_layers and cfg.nope_layers is not None:
        raise ValueError("shared_layers runs one block in every layer, so nope_layers cannot differ by layer")
    if e is not None and e != cfg.d_model and cfg.tie_embeddings and not cfg.mlm_head:
        raise ValueError(
            f"embedding_size={e} differs from d_model={cfg.d_model}: a tied output matrix is [V, {e}], so it needs "
            "mlm_head=True (the MLM transform maps d -> embedding_size) or tie_embeddings=False"
        )


def _check_relative_options(cfg) -> None:
    """rel_buckets, rel_max_distance (positional='relative', T5) and head_rescale."""
    for name in ("rel_buckets", "rel_max_distance"):
        value = getattr(cfg, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 4:
            raise ValueError(f"{name} must be a whole number >= 4, got {value!r}")
    if cfg.positional == "relative" and cfg.rel_max_distance <= cfg.rel_buckets // 2:
        raise ValueError(
            f"rel_max_distance={cfg.rel_max_distance} must exceed rel_buckets/2 = {cfg.rel_buckets // 2} (a decoder's "
            "exact range): the buckets beyond the exact range are log-spaced up to rel_max_distance"
        )
    if not isinstance(cfg.head_rescale, bool):
        raise ValueError(f"head_rescale must be True or False, got {cfg.head_rescale!r}")


def _check_gemma_options(cfg) -> None:
    """layer_types, rope_local_base, attn_softcap, final_softcap (Gemma 2/3): each with what it needs."""
    if cfg.norm_position == "sandwich" and cfg.parallel_residual:
        raise ValueError("norm_position='sandwich' puts a norm before and after each sublayer in turn: it needs "
                         "parallel_residual=False")  # fmt: skip
    if cfg.layer_types is not None:
        kinds = cfg.layer_types
        if not isinstance(kinds, tuple) or len(kinds) != cfg.n_layers or any(k not in LAYER_TYPES for k in kinds):
            raise ValueError(
                f"layer_types must be a tuple of n_layers={cfg.n_layers} entries, each one of "
                f"{', '.join(LAYER_TYPES)}; got {kinds!r}"
            )
        if cfg.arch != "decoder":
            raise ValueError(f"layer_types (sliding and full layers) needs arch='decoder', not {cfg.arch!r}")
        if "sliding_attention" in kinds and cfg.sliding_window is None:
            raise ValueError("layer_types names sliding_attention layers: set sliding_window (their window)")
    if cfg.rope_local_base is not None:
        if not (isinstance(cfg.rope_local_base, (int, float)) and math.isfinite(cfg.rope_local_base)
                and cfg.rope_local_base > 1):  # fmt: skip
            raise ValueError(f"rope_local_base must be a number > 1 or None, got {cfg.rope_local_base!r}")
        if cfg.positional != "rope" or cfg.layer_types is None:
            raise ValueError("rope_local_base is the RoPE θ of sliding layers: it needs positional='rope', layer_types")
    for name in ("attn_softcap", "final_softcap"):
        cap = getattr(cfg, name)
        if cap is not None and not (isinstance(cap, (int, float)) and math.isfinite(cap) and cap > 0):
            raise ValueError(f"{name} must be a positive number (cap·tanh(x/cap)) or None, got {cap!r}")


def _check_granite_options(cfg) -> None:
    """embed_multiplier, residual_scale, logits_divisor (Granite MoE): each a positive number or None."""
    what = {"embed_multiplier": "token embeddings × it", "residual_scale": "each sublayer's output × it",
            "logits_divisor": "logits / it"}  # fmt: skip
    for name, does in what.items():
        value = getattr(cfg, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not math.isfinite(value) or value <= 0):  # fmt: skip
            raise ValueError(f"{name} must be a positive number ({does}) or None, got {value!r}")
    if cfg.logits_divisor is not None and (cfg.mlm_head or cfg.head_bias or cfg.detector_head):
        raise ValueError("logits_divisor divides what a plain linear head reads (head(h / s) = head(h) / s): it needs "
                         "mlm_head=False, head_bias=False and detector_head=False")  # fmt: skip
    if cfg.residual_scale is not None and (cfg.norm_position != "pre" or cfg.parallel_residual):
        raise ValueError("residual_scale scales each sublayer's output in x + s·f(norm(x)): it needs "
                         "norm_position='pre' and parallel_residual=False")  # fmt: skip


def _check_linear_options(cfg) -> None:
    """attn_output_gate and the Gated DeltaNet sizes (Qwen3.5): set together with "linear_attention" layers."""
    if not isinstance(cfg.attn_output_gate, bool):
        raise ValueError(f"attn_output_gate must be True or False, got {cfg.attn_output_gate!r}")
    sizes = ("linear_key_heads", "linear_value_heads", "linear_key_dim", "linear_value_dim")
    linear = cfg.layer_types is not None and "linear_attention" in cfg.layer_types
    for name in (*sizes, "linear_conv_kernel"):
        value = getattr(cfg, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if linear and (min(getattr(cfg, n) for n in sizes) < 1 or cfg.linear_conv_kernel < 1):
        raise ValueError(f"layer_types names linear_attention layers: set {', '.join(sizes)} (each >= 1) and "
                         "linear_conv_kernel >= 1")  # fmt: skip
    if not linear and any(getattr(cfg, n) for n in sizes):
        raise ValueError(f"{', '.join(sizes)} size Gated DeltaNet layers: they need layer_types with linear_attention")
    if linear and cfg.linear_value_heads % cfg.linear_key_heads:
        raise ValueError(f"linear_value_heads={cfg.linear_value_heads} must be a multiple of linear_key_heads="
                         f"{cfg.linear_key_heads}: each query/key head serves a group of value heads")  # fmt: skip
