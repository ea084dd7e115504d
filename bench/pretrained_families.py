"""The newer families for bench/pretrained_speed.py: published hyper-parameters, folders in the published layout
(random bfloat16 weights in the real shapes, written by transformers' own class), and transformers' side of the
same work (eager attention, every attention, every hidden state; Granite's router logits too).

Hyper-parameters as in each model's published config.json: google-t5/t5-small, albert-base-v2,
google/electra-small-discriminator, google/gemma-3-270m, ibm-granite/granite-3.1-1b-a400m-base, Qwen/Qwen3.5-0.8B
(Qwen3_5ForConditionalGeneration: the text model's settings under text_config, weights under model.language_model.*).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import load_file

SLIDING_5_1 = ["full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(18)]
LINEAR_3_1 = ["full_attention" if (i + 1) % 4 == 0 else "linear_attention" for i in range(24)]
QWEN35_TEXT = {"model_type": "qwen3_5_text", "vocab_size": 248320, "hidden_size": 1024, "intermediate_size": 3584,
               "num_hidden_layers": 24, "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 256,
               "hidden_act": "silu", "attention_bias": False, "attn_output_gate": True, "rms_norm_eps": 1e-6,
               "max_position_embeddings": 262144, "layer_types": LINEAR_3_1, "full_attention_interval": 4,
               "linear_conv_kernel_dim": 4, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
               "linear_num_key_heads": 16, "linear_num_value_heads": 16, "eos_token_id": 248044,
               "rope_parameters": {"rope_type": "default", "rope_theta": 10000000.0, "partial_rotary_factor": 0.25,
                                   "mrope_section": [11, 11, 10], "mrope_interleaved": True}}  # fmt: skip
PUBLISHED = {
    "t5-small": {"model_type": "t5", "architectures": ["T5ForConditionalGeneration"], "vocab_size": 32128,
                 "d_model": 512, "d_kv": 64, "d_ff": 2048, "num_layers": 6, "num_heads": 8,
                 "relative_attention_num_buckets": 32, "n_positions": 512, "layer_norm_epsilon": 1e-6,
                 "dropout_rate": 0.1, "initializer_factor": 1.0, "is_encoder_decoder": True, "pad_token_id": 0,
                 "eos_token_id": 1, "decoder_start_token_id": 0},
    "albert-base-v2": {"model_type": "albert", "architectures": ["AlbertForMaskedLM"], "vocab_size": 30000,
                       "embedding_size": 128, "hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                       "num_attention_heads": 12, "num_hidden_groups": 1, "inner_group_num": 1,
                       "hidden_act": "gelu_new", "max_position_embeddings": 512, "type_vocab_size": 2,
                       "layer_norm_eps": 1e-12, "attention_probs_dropout_prob": 0, "hidden_dropout_prob": 0,
                       "classifier_dropout_prob": 0.1, "position_embedding_type": "absolute", "pad_token_id": 0,
                       "bos_token_id": 2, "eos_token_id": 3},
    "electra-small": {"model_type": "electra", "architectures": ["ElectraForPreTraining"], "vocab_size": 30522,
                      "embedding_size": 128, "hidden_size": 256, "intermediate_size": 1024, "num_hidden_layers": 12,
                      "num_attention_heads": 4, "hidden_act": "gelu", "max_position_embeddings": 512,
                      "type_vocab_size": 2, "layer_norm_eps": 1e-12, "attention_probs_dropout_prob": 0.1,
                      "hidden_dropout_prob": 0.1, "pad_token_id": 0},
    "gemma-3-270m": {"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"], "vocab_size": 262144,
                     "hidden_size": 640, "intermediate_size": 2048, "num_hidden_layers": 18, "num_attention_heads": 4,
                     "num_key_value_heads": 1, "head_dim": 256, "query_pre_attn_scalar": 256, "sliding_window": 512,
                     "layer_types": SLIDING_5_1, "_sliding_window_pattern": 6, "max_position_embeddings": 32768,
                     "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
                     "rope_scaling": None, "hidden_activation": "gelu_pytorch_tanh", "attn_logit_softcapping": None,
                     "final_logit_softcapping": None, "attention_bias": False, "use_bidirectional_attention": False,
                     "bos_token_id": 2, "eos_token_id": 1, "pad_token_id": 0},
    "granite-3.1-1b-a400m": {"model_type": "granitemoe", "architectures": ["GraniteMoeForCausalLM"],
                             "vocab_size": 49155, "hidden_size": 1024, "intermediate_size": 512,
                             "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 8,
                             "num_local_experts": 32, "num_experts_per_tok": 8, "max_position_embeddings": 4096,
                             "rope_theta": 10000000.0, "tie_word_embeddings": True, "hidden_act": "silu",
                             "embedding_multiplier": 12.0, "residual_multiplier": 0.22,
                             "attention_multiplier": 0.015625, "logits_scaling": 6.0, "rms_norm_eps": 1e-6,
                             "router_aux_loss_coef": 0.001, "attention_bias": False, "bos_token_id": 0,
                             "eos_token_id": 0, "pad_token_id": 0},
    "qwen3.5-0.8b": {"model_type": "qwen3_5", "architectures": ["Qwen3_5ForConditionalGeneration"],
                     "text_config": QWEN35_TEXT, "vision_config": {"model_type": "qwen3_5_vision", "depth": 1},
                     "tie_word_embeddings": True},
}  # fmt: skip
# bench rows -> (folder, whether ours also reads every Gated DeltaNet layer's implied matrix: transformers has none)
ROWS = {**{name: (name, False) for name in PUBLISHED}, "qwen3.5-0.8b+implied": ("qwen3.5-0.8b", True)}


def _classes(name: str):
    """(transformers' config class, model class) of a row's published architecture (Qwen3.5: its text model)."""
    import transformers as tf

    return {"t5-small": (tf.T5Config, tf.T5ForConditionalGeneration),
            "albert-base-v2": (tf.AlbertConfig, tf.AlbertForMaskedLM),
            "electra-small": (tf.ElectraConfig, tf.ElectraForPreTraining),
            "gemma-3-270m": (tf.Gemma3TextConfig, tf.Gemma3ForCausalLM),
            "granite-3.1-1b-a400m": (tf.GraniteMoeConfig, tf.GraniteMoeForCausalLM),
            "qwen3.5-0.8b": (tf.Qwen3_5TextConfig, tf.Qwen3_5ForCausalLM)}[name]  # fmt: skip


def make_folder(name: str, out: Path) -> Path:
    """Write the model once: transformers' own class in bfloat16 (its random init), saved, then config.json
    rewritten as published (T5: no tie flag; Qwen3.5: nested) and a tokenizer our loader reads."""
    from tests.models.hf.tiny import byte_bpe_tokenizer, wordpiece_tokenizer
    from tests.models.hf.tiny_qwen35 import nest
    from tests.models.hf.tiny_t5 import t5_tokenizer

    folder = out / name
    if (folder / "model.safetensors").is_file():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    c = PUBLISHED[name]
    conf_cls, model_cls = _classes(name)
    text = c.get("text_config", c)
    cfg = conf_cls(**{k: v for k, v in text.items() if k not in ("model_type", "architectures")})
    torch.manual_seed(0)
    model = model_cls._from_config(cfg, dtype=torch.bfloat16).eval()
    model.save_pretrained(folder)
    del model
    if name == "qwen3.5-0.8b":
        nest(folder)  # the published wrapper's layout (and stand-in vision / mtp tensors the loader skips)
    (folder / "config.json").write_text(json.dumps({**c, "torch_dtype": "bfloat16"}, indent=2))
    if name == "t5-small":
        t5_tokenizer(folder)
    elif name == "electra-small":
        wordpiece_tokenizer(folder)  # 30522 WordPiece tokens = its vocabulary
    else:
        byte_bpe_tokenizer(folder, bos=name == "gemma-3-270m")  # ALBERT's 30000: the 2048-token BPE fits under it
    return folder


def reference(name: str, folder: Path, dtype: torch.dtype) -> torch.nn.Module:
    """transformers' model on the same weights (eager attention, dtype); Qwen3.5: its text model (ForCausalLM)
    from the nested file's model.language_model.* tensors."""
    conf_cls, model_cls = _classes(name)
    if name != "qwen3.5-0.8b":
        return model_cls.from_pretrained(folder, dtype=dtype, attn_implementation="eager").eval()
    text = PUBLISHED[name]["text_config"]
    cfg = conf_cls(**{k: v for k, v in text.items() if k != "model_type"}, tie_word_embeddings=True)
    cfg._attn_implementation = "eager"
    model = model_cls._from_config(cfg, dtype=dtype)
    prefix = "model.language_model."
    # tied, as published: a stored lm_head.weight is not read (nor by ours); the head is the embedding
    weights = {"model." + k[len(prefix) :]: v.to(dtype)
               for k, v in load_file(str(folder / "model.safetensors")).items() if k.startswith(prefix)}  # fmt: skip
    missing, unexpected = model.load_state_dict(weights, strict=False)
    if unexpected or set(missing) - {"lm_head.weight"}:
        raise RuntimeError(f"Qwen3.5 reference: missing {missing}, unexpected {unexpected}")
    model.tie_weights()
    return model.eval()


def target_ids(name: str, ids: list[int]) -> list[int] | None:
    """T5's decoder input, the same on both sides: its start token (pad, 0), then the source ids but its last."""
    return [0, *ids[:-1]] if name == "t5-small" else None


def reference_call(name: str, ref: torch.nn.Module, ids: list[int], implied: bool = False):
    """transformers' forward doing our trace's work: every attention and hidden state (+ Granite's router logits);
    implied (the qwen3.5-0.8b+implied row): then every Gated DeltaNet layer's implied matrix, as `with_implied`."""
    kw = dict(output_attentions=True, output_hidden_states=True)
    src = torch.tensor([ids])
    if name == "t5-small":
        kw["decoder_input_ids"] = torch.tensor([target_ids(name, ids)])
    if name == "granite-3.1-1b-a400m":  # ours computes every token's router probabilities
        kw["output_router_logits"] = True
    if implied:
        return lambda: with_implied(lambda: ref(src, **kw))
    return lambda: ref(src, **kw)


def with_implied(forward):
    """The implied row's same work on transformers' side, which has no implied matrix: its forward, with the q, k,
    g, β it hands its chunked delta rule captured there, then each layer's Ã by the issue's formula written plainly
    (float64, one triangular solve from the right), as float32 numpy stacked [L, Hv, T, T] as ours returns it."""
    from transformers.models.qwen3_5 import modeling_qwen3_5 as m

    seen, rule = [], m.torch_chunk_gated_delta_rule

    def capture(query, key, value, g=None, beta=None, **kw):
        seen.append((query[0], key[0], g[0], beta[0]))  # batch item 0: [T, H, ·]
        return rule(query, key, value, g=g, beta=beta, **kw)

    m.torch_chunk_gated_delta_rule = capture
    try:
        out = forward()
    finally:
        m.torch_chunk_gated_delta_rule = rule
    np.stack([plain_implied(*x).float().numpy() for x in seen])
    return out


def plain_implied(q, k, g, beta) -> torch.Tensor:
    """Ã = (QKᵀ ⊙ Γ ⊙ M)·(I + tril(diag(β)(KKᵀ ⊙ Γ), −1))⁻¹·diag(β) per value head, from transformers' own tensors
    (q, k [T, Hk, dk] before its L2 norm; g, β [T, Hv]), in float64 throughout."""
    q, k, g, beta = (x.transpose(0, 1).double() for x in (q, k, g, beta))
    group = g.shape[0] // q.shape[0]
    q, k = q.repeat_interleave(group, 0), k.repeat_interleave(group, 0)
    q = q / (q.square().sum(-1, keepdim=True) + 1e-6).sqrt() / q.shape[-1] ** 0.5  # transformers' l2norm, / √d_k
    k = k / (k.square().sum(-1, keepdim=True) + 1e-6).sqrt()
    t = q.shape[1]
    cum = g.cumsum(-1)
    below = torch.ones(t, t, dtype=torch.bool).tril()
    gamma = (cum[:, :, None] - cum[:, None, :]).masked_fill(~below, float("-inf")).exp()
    strict = (beta[:, :, None] * (k @ k.transpose(1, 2)) * gamma).tril(-1)
    x = torch.linalg.solve_triangular(strict + torch.eye(t, dtype=torch.float64), (q @ k.transpose(1, 2)) * gamma,
                                      upper=False, left=False)  # fmt: skip
    return x * beta[:, None, :]
