"""The numbers the lessons compute live, under one name for the pages: `analysis.X`.

They live by concern: softmax and q·k arithmetic in numerics.py, rank in rank_stats.py, attention
statistics (entropy, rollout, sinks) in attention_stats.py; parameter counts here.
"""

from __future__ import annotations

from .config import ModelConfig
from .core.linear_attention import parameter_count as linear_parameter_count
from .inspection.attention_stats import (
    SINK_GROUPS,
    SINK_THRESHOLD,
    attention_rollout,
    attention_sinks,
    is_special,
    row_entropy,
    sink_shares,
    value_weighted,
)
from .inspection.rank_stats import (
    RankReport,
    condition_number,
    default_tolerance,
    effective_rank,
    effective_rank_of,
    log_abs_det,
    numerical_rank,
    rank_report,
    singular_values,
)
from .numerics import (
    cosine,
    cosine_matrix,
    dot_products,
    log_softmax,
    mean_by_offset,
    nested_dot_products,
    qk_variance,
    scale_sweep,
    score_row,
    softmax,
    softmax_jacobian_norm,
)

__all__ = [
    "SINK_GROUPS", "SINK_THRESHOLD", "RankReport", "attention_rollout", "attention_sinks", "condition_number",
    "cosine", "cosine_matrix", "default_tolerance", "dot_products", "effective_rank", "effective_rank_of",
    "is_special", "log_abs_det", "log_softmax", "mean_by_offset", "nested_dot_products", "numerical_rank",
    "parameter_counts", "qk_variance", "rank_report", "row_entropy", "scale_sweep", "score_row", "singular_values",
    "sink_shares", "softmax",
    "softmax_jacobian_norm", "value_weighted",
]  # fmt: skip


def parameter_counts(cfg: ModelConfig, active: bool = False) -> dict[str, int]:
    """Parameters per component, from the config alone (tests check it against the built module).
    A mixture of experts (n_experts > 0) counts its n expert FFNs and the router (d_model × n) under "ffn";
    active=True counts only what one token uses: the router and its experts_top_k experts."""
    d, v, h = cfg.d_model, cfg.vocab_size, cfg.d_head
    layers = 1 if cfg.shared_layers else cfg.n_layers  # ALBERT: one block's weights serve every layer
    n_enc = layers if cfg.arch in ("encoder", "encoder-decoder") else 0
    n_dec = layers if cfg.arch in ("decoder", "encoder-decoder") else 0
    e = cfg.embedding_size or d  # ALBERT, ELECTRA: embeddings (and the MLM transform's output) E wide
    out = 1 if cfg.detector_head else v  # ELECTRA's discriminator: one replaced-token logit
    n_cross = n_dec if cfg.arch == "encoder-decoder" else 0
    n_attn = n_enc + n_dec + n_cross  # attention modules
    n_linear = sum(cfg.is_linear(i) for i in range(cfg.n_layers))  # Qwen3.5: Gated DeltaNet layers instead
    n_attn -= n_linear
    norm = 2 * d if cfg.norm == "layernorm" else d  # LayerNorm has a gain and a bias; RMSNorm a gain
    final_norms = (int(n_enc > 0) + int(n_dec > 0)) if cfg.norm_position in ("pre", "post_sub", "sandwich") else 0
    block_norms = 1 if cfg.shared_block_norm else 2  # Phi: one norm feeds attention and FFN
    qk_widths = (cfg.n_heads + cfg.kv_heads) * h if cfg.qk_norm_scope == "all" else 2 * h  # OLMo 2: whole q, k
    ffn_mats = 3 if cfg.activation in ("swiglu", "geglu") else 2  # gated FFNs have W3
    b = int(cfg.bias)  # one bias per output unit of each projection
    bqkv = int(cfg.bias or cfg.qkv_bias)  # Qwen2: biases on q, k, v only
    ffn_bias = (ffn_mats - 1) * cfg.d_ff + d  # W1 (and W3) biases of width d_ff, W2's of width d
    experts = 1 if not cfg.n_experts else cfg.experts_top_k if active else cfg.n_experts
    return {
        "embeddings": v * e
        + ((cfg.max_len + cfg.position_offset) * e if cfg.positional == "learned" else 0)
        # T5: a relative position bias table [buckets, heads] per stack
        + ((int(n_enc > 0) + int(n_dec > 0)) * cfg.rel_buckets * cfg.n_heads if cfg.positional == "relative" else 0)
        + cfg.type_vocab_size * e
        + (norm // d * e if cfg.embed_norm else 0)
        + ((e + 1) * d if cfg.embedding_size is not None else 0),  # the projection E -> d and its bias
        "attention.q": n_attn * (d + bqkv) * cfg.n_heads * h * (2 if cfg.attn_output_gate else 1),  # Qwen3.5: gate
        "attention.k": n_attn * (d + bqkv) * cfg.kv_heads * h,
        "attention.v": n_attn * (d + bqkv) * cfg.kv_heads * h,
        "attention.o": n_attn * (cfg.n_heads * h + b) * d,
        **({"attention.linear": n_linear * linear_parameter_count(cfg)} if n_linear else {}),
        "ffn": (n_enc + n_dec) * (experts * (ffn_mats * d * cfg.d_ff + b * ffn_bias) + d * cfg.n_experts),
        # per block: before attention and before the FFN (a parallel block too), one more before cross-attention;
        # Qwen3's qk_norm adds a q and a k norm over d_head in every attention module
        "norms": ((n_enc + n_dec) * block_norms + n_cross + final_norms) * norm
        + (n_attn * (norm // d) * qk_widths if cfg.qk_norm else 0)
        + (((n_enc + n_dec) * 2 + n_cross) * norm if cfg.norm_position == "sandwich" else 0),  # Gemma: post norms
        # the output head; BERT's MLM transform (dense d×d + bias, LayerNorm) and a logits bias belong to it
        # (ALBERT, ELECTRA's generator: dense d×E, LayerNorm over E); ELECTRA's detector: dense d×d + bias, then [1, d]
        "head": (0 if cfg.tie_embeddings else (e if cfg.mlm_head else d) * out)
        + (d * e + 3 * e if cfg.mlm_head else 0)
        + (d * d + d if cfg.detector_head else 0)
        + (out if cfg.head_bias else 0),
    }
