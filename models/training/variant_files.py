"""A trained variant's file in the cache: the app's one write of it (save), the check that the cache can
take it before a minute of training is spent (unwritable), and reading it back in our own words when it
is damaged (load, CorruptEntry). Split from models/variants.py, which trains and runs the jobs."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import torch

from ..config import ModelConfig
from ..core.transformer import Transformer
from ..live import LiveModel
from ..tokenizer import BPETokenizer
from . import snapshots


def checkpoint(net: Transformer, hist, seed: int) -> dict:
    """What an entry holds. float16, as the shipped models: 0.8 MB for the default variant, 21 MB for the
    largest the lab offers."""
    state = {k: v.half() for k, v in net.state_dict().items() if not (net.cfg.tie_embeddings and k == "head.weight")}
    return {"config": net.cfg.to_dict(), "state_dict": state, "history": hist.to_dict(), "seed": seed}


def save(net: Transformer, hist, seed: int, path: Path) -> Path:
    """The app's one write of a trained variant: to a temporary name, then renamed, so a reader never sees
    half a file (a failed write leaves no temporary file either). The snapshots (models.training.snapshots: 8 MB
    for the default variant, at most 24 MB) go beside it first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        if hist.states:
            snapshots.save(hist.states, path)
        torch.save(checkpoint(net, hist, seed), tmp)
        os.replace(tmp, path)
    except BaseException:  # nothing half-written stays, and no snapshots without their entry
        snaps = snapshots.path_of(path)
        for p in (tmp, snaps, *snaps.parent.glob(f"{snaps.name}.tmp*")):
            with contextlib.suppress(OSError):
                p.unlink(missing_ok=True)
        raise
    return path


def unwritable(folder: Path) -> str | None:
    """Why a trained variant cannot be saved in folder (None: it can): checked before training starts, so a
    minute of training is not spent to learn it at the end. A real write, not os.access: root passes
    access() on a read-only mount, and a full disk passes it too."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe", suffix=".tmp") as f:
            f.write(b"\0" * 4096)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        return e.strerror or type(e).__name__
    return None


class CorruptEntry(RuntimeError):
    """A cache entry that cannot be loaded; it has been deleted, and training again rebuilds it.

    `kind` says why in the app's own words, not PyTorch's ("internal miniz error", "Weights only load
    failed. In PyTorch 2.6…" read like a version problem): "damaged" (cut short, or not a checkpoint at
    all) or "mismatch" (a readable checkpoint of another configuration or another version of the code)."""

    def __init__(self, path: Path, kind: str, detail: str = ""):
        super().__init__(f"{path}: {kind}" + (f" ({detail})" if detail else ""))
        self.path, self.kind = path, kind


def load(path: Path, cfg: ModelConfig, tok: BPETokenizer, kept: bytes | None = None) -> LiveModel:
    """A trained variant from its cache entry, or from `kept` (the checkpoint's bytes, when it could not be
    saved there: Jobs.kept); a damaged or mismatched entry is deleted (CorruptEntry)."""
    try:
        ckpt = torch.load(io.BytesIO(kept) if kept is not None else path, map_location="cpu", weights_only=True)
    except Exception as e:  # truncated, random bytes, not a zip archive, an unpicklable object
        _remove(path)
        raise CorruptEntry(path, "damaged", type(e).__name__) from e
    try:
        if ModelConfig.from_dict(ckpt["config"]) != cfg:
            raise ValueError("another configuration")
        net = Transformer(cfg, init=False)
        expected = set(net.state_dict()) - ({"head.weight"} if cfg.tie_embeddings else set())
        if set(ckpt["state_dict"]) != expected:
            raise KeyError("other tensors")
        net.load_state_dict({k: v.float() for k, v in ckpt["state_dict"].items()}, strict=False)
        hist = ckpt["history"]
    except Exception as e:  # a readable file written for something else
        _remove(path)
        raise CorruptEntry(path, "mismatch", type(e).__name__) from e
    return LiveModel(net, tok, {"history": hist, "seed": ckpt.get("seed")})


def _remove(path: Path) -> None:
    for p in (path, snapshots.path_of(path)):
        with contextlib.suppress(OSError):  # a read-only cache: the message still says what was wrong
            p.unlink(missing_ok=True)
