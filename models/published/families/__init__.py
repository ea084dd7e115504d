"""Published model families onto the one Transformer: their config.json -> ModelConfig, their tensor names -> ours.

Each family is two pure functions, in one file per family group (gpt2, llama: Llama/Qwen2/Mistral/Qwen3, bert,
marian, neox: GPT-NeoX/Pythia), config mapping and weight map side by side. `config(c)` reads a config.json as
published (transformers >= 5 writes `rope_parameters`; older files have top-level `rope_theta` and
`rope_scaling`: both are read). `rename(name, tensor, cfg)` gives our names and the tensors in our layout
(an empty list to skip a buffer).

Layout changes happen there, once, at load, so the forward has one code path for every model:
- GPT-2's Conv1D stores weights as [in, out]: transposed to nn.Linear's [out, in], and its fused
  c_attn is split into q, k, v; GPT-NeoX's fused query_key_value is split head by head.
- Llama-family and GPT-NeoX RoPE pairs dimension i with i + d/2 ("rotate half"); ours pairs 2i with 2i+1
  (RoFormer's own layout). The rows of the published q and k projections (and Qwen3's per-head q/k norm
  gains) are permuted so that their dimension i lands on our 2i and i + d/2 on 2i + 1 (common.py says why
  that is exact). q·k is unchanged by applying one permutation to both q and k, so scores and attention are
  exactly the published model's, and one rotation function serves every model in the app.
"""

from __future__ import annotations

from .bert import bert_config, bert_rename
from .common import ACTIVATIONS, MAX_TOKENS, UnsupportedModel, _act, half_to_interleaved, rope_settings
from .encoders import albert_config, albert_rename, distilbert_config, distilbert_rename, electra_config, electra_rename
from .gemma import gemma_config, gemma_rename
from .gpt1 import gpt1_config, gpt1_rename
from .gpt2 import gpt2_config, gpt2_rename
from .granite import granite_moe_config, granite_moe_rename
from .llama import llama_config, llama_rename
from .marian import marian_config, marian_rename
from .mixtral import mixtral_config, mixtral_rename
from .neox import neox_config, neox_rename
from .olmo2 import olmo2_config, olmo2_rename
from .phi import phi_config, phi_rename
from .qwen35 import qwen35_config, qwen35_rename
from .smollm3 import smollm3_config
from .t5 import UNTIE_WHEN_STORED, t5_config, t5_rename

__all__ = [
    "ACTIVATIONS", "FAMILIES", "MAX_TOKENS", "UnsupportedModel", "_act", "bert_config", "bert_rename", "family_of",
    "gpt2_config", "gpt2_rename", "half_to_interleaved", "llama_config", "llama_rename", "marian_config",
    "marian_rename", "neox_config", "neox_rename", "rope_settings",
]  # fmt: skip

# model_type -> (label the picker shows, config.json -> ModelConfig, tensor renamer)
FAMILIES = {
    "gpt2": ("GPT-2", gpt2_config, gpt2_rename),
    "llama": ("Llama", llama_config, llama_rename),
    "qwen2": ("Qwen2", llama_config, llama_rename),
    "mistral": ("Mistral", llama_config, llama_rename),
    "qwen3": ("Qwen3", llama_config, llama_rename),
    "mixtral": ("Mixtral", mixtral_config, mixtral_rename),
    "gpt_neox": ("GPT-NeoX (Pythia)", neox_config, neox_rename),
    "bert": ("BERT", bert_config, bert_rename),
    "roberta": ("RoBERTa", bert_config, bert_rename),
    "albert": ("ALBERT", albert_config, albert_rename),
    "distilbert": ("DistilBERT", distilbert_config, distilbert_rename),
    "electra": ("ELECTRA", electra_config, electra_rename),
    "marian": ("Marian", marian_config, marian_rename),
}
FAMILIES["t5"] = ("T5", t5_config, t5_rename)  # t5-small, Flan-T5 (relative position bias)
__all__ += ["UNTIE_WHEN_STORED", "t5_config", "t5_rename"]
# Decoders: GPT-1 (post-norm), Phi (one norm per parallel block), SmolLM3 (NoPE layers), OLMo 2 (x + norm(f(x)))
FAMILIES["openai-gpt"] = ("GPT-1", gpt1_config, gpt1_rename)
FAMILIES["phi"] = ("Phi", phi_config, phi_rename)
FAMILIES["smollm3"] = ("SmolLM3", smollm3_config, llama_rename)
FAMILIES["olmo2"] = ("OLMo 2", olmo2_config, olmo2_rename)
__all__ += ["gpt1_config", "gpt1_rename", "olmo2_config", "olmo2_rename", "phi_config", "phi_rename", "smollm3_config"]
# Gemma 2 / Gemma 3 text: sandwich norms, GeGLU, sliding and full layers, soft-capping (2), two RoPE bases (3)
FAMILIES["gemma2"] = ("Gemma 2", gemma_config, gemma_rename)
FAMILIES["gemma3_text"] = ("Gemma 3", gemma_config, gemma_rename)
__all__ += ["gemma_config", "gemma_rename"]
# Qwen3.5 (text): Gated DeltaNet linear layers between gated softmax layers; published nested (text_config) or flat
FAMILIES["qwen3_5"] = ("Qwen3.5", qwen35_config, qwen35_rename)
FAMILIES["qwen3_5_text"] = ("Qwen3.5", qwen35_config, qwen35_rename)
__all__ += ["qwen35_config", "qwen35_rename"]
# Granite MoE: Mixtral-like experts (stacked in the file), embedding / residual / attention / logits multipliers
FAMILIES["granitemoe"] = ("Granite MoE", granite_moe_config, granite_moe_rename)
__all__ += ["granite_moe_config", "granite_moe_rename"]


def family_of(c: dict) -> str:
    kind = c.get("model_type")
    if kind not in FAMILIES:
        raise UnsupportedModel(
            f"model_type {kind!r} is not supported; supported: {', '.join(FAMILIES)}"
            if kind
            else "config.json has no model_type"
        )
    return kind
