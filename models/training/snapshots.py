"""Snapshots of a lab variant while it trains, so a student can replay how its heads formed.

A snapshot is the weights after a given number of optimiser steps, in float16, without the output
head (attention never reads it). The steps are log-spaced at first (1, 3, 10, 30, ...: the first
steps change the weights most) and then every tenth of the run (an induction head forms late, in
a phase change, Olsson et al. 2022). The induction and previous-token scores of every snapshot are
measured once, in the training process, and stored with the entry's history; the weights go to a
file beside the entry and are read only when a page replays a snapshot's attention.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch

from .. import data
from ..config import ModelConfig
from ..core.transformer import Transformer
from ..inspection import probes
from ..live import LiveModel
from ..tokenizer import BPETokenizer

SUFFIX = ".snapshots"  # beside <key>.pt; never matches the registry's *.pt scan
BUDGET_BYTES = 24 * 2**20  # at most this much per entry: a big variant keeps fewer snapshots
FEWEST = 4
SCORE_TEXTS = 20  # held-out sentences for the previous-token score
SKIPPED = ("head.", "mlm.")  # after the last attention layer: not needed to replay attention


def schedule(steps: int) -> list[int]:
    """0, 1, 3, 10, 30, 100, ... below a tenth of the run, then every tenth of it, up to `steps`."""
    early = [int(m * 10**e) for e in range(7) for m in (1, 3)]
    tenth = max(1, steps // 10)
    return sorted({0, steps, *(s for s in early if s < tenth), *range(tenth, steps, tenth)})


def capture(net: Transformer) -> dict[str, torch.Tensor]:
    """The weights that decide attention, as float16 copies (training goes on with the originals)."""
    state = net.state_dict().items()
    return {k: v.detach().to(torch.float16, copy=True) for k, v in state if not k.startswith(SKIPPED)}


def nbytes(state: dict[str, torch.Tensor]) -> int:
    return sum(v.numel() * v.element_size() for v in state.values())


def thin(snaps: list[tuple[int, dict]], budget: int = BUDGET_BYTES) -> list[tuple[int, dict]]:
    """Keep evenly chosen snapshots (always the first and the last) so their size fits the budget."""
    if not snaps:
        return snaps
    keep = max(FEWEST, budget // max(1, nbytes(snaps[0][1])))
    if len(snaps) <= keep:
        return snaps
    idx = sorted({round(i) for i in np.linspace(0, len(snaps) - 1, keep)})
    return [snaps[i] for i in idx]


def replay(cfg: ModelConfig, tok: BPETokenizer, state: dict[str, torch.Tensor]) -> LiveModel:
    """A model with a snapshot's weights, for its attention (its output head is zeros: no logits)."""
    net = Transformer(cfg, init=False)
    full = {k: v.float() for k, v in state.items()}
    if cfg.tie_embeddings:  # one matrix under two names: zeros under one would zero both
        full["head.weight"] = full["tok_emb.weight"]
    for k, v in net.state_dict().items():
        full.setdefault(k, torch.zeros_like(v))
    net.load_state_dict(full)
    return LiveModel(net, tok)


def scores(cfg: ModelConfig, tok: BPETokenizer, snaps: list[tuple[int, dict]]) -> dict[str, list]:
    """{"step": [S], "induction": [S][L][H], "previous_token": [S][L][H]} of every snapshot, rounded.
    Induction needs a decoder (it copies the continuation); the encoder-decoder has neither score."""
    out: dict[str, list] = {"step": [s for s, _ in snaps]}
    if cfg.arch == "encoder-decoder":
        return out
    texts = data.corpus(SCORE_TEXTS, probes.HELD_OUT_SEED)
    models = [replay(cfg, tok, state) for _, state in snaps]
    if cfg.arch == "decoder":
        out["induction"] = [np.round(probes.induction_scores(m), 4).tolist() for m in models]
    out["previous_token"] = [np.round(probes.previous_token_scores(m, texts), 4).tolist() for m in models]
    return out


def path_of(entry: Path) -> Path:
    return entry.with_suffix(SUFFIX)


def save(snaps: list[tuple[int, dict]], entry: Path) -> Path:
    """Beside the entry, written to a temporary name and renamed (before the entry itself is)."""
    path = path_of(entry)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    torch.save({"steps": [s for s, _ in snaps], "states": [st for _, st in snaps]}, tmp)
    os.replace(tmp, path)
    return path


def load(entry: Path) -> list[tuple[int, dict]]:
    """The snapshots stored beside an entry; [] when there are none or they cannot be read."""
    try:
        ckpt = torch.load(path_of(entry), map_location="cpu", weights_only=True)
        return list(zip(ckpt["steps"], ckpt["states"], strict=True))
    except Exception:  # missing (an entry of an older version), truncated, garbage: nothing to replay
        return []


def best(per_head: list) -> list[float]:
    """The best head's score at every snapshot: [S][L][H] -> [S]."""
    return [float(np.max(s)) for s in per_head]


def forming_step(steps: list[int], per_head: list, threshold: float = 0.5) -> int | None:
    """The first snapshot step at which some head scores at least `threshold` (None: never)."""
    return next((s for s, b in zip(steps, best(per_head), strict=True) if b >= threshold), None)


def steepest_drop(
    step: list[int], loss: list[float], window: int = 100, until: int | None = None
) -> tuple[int, int] | None:
    """(start, end) of the `window` steps over which the smoothed training loss fell the most, up to
    step `until` (a recipe's repeat-only phase: its loss is not comparable with the text after it)."""
    keep = [i for i, x in enumerate(step) if until is None or x <= until]
    if len(keep) < 2:
        return None
    s, y = np.asarray(step, float)[keep], np.asarray(loss, float)[keep]
    ends = np.interp(s + window, s, y, right=np.nan)
    fall = np.where(np.isfinite(ends), y - ends, -np.inf)
    i = int(np.argmax(fall))
    return (int(s[i]), int(min(s[i] + window, s[-1]))) if fall[i] > 0 else None
