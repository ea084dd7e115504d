"""Run the post-training demo (models/training/posttrain.py) in a child process and keep its result on disk.

    python -m models.posttrain_run --seed 0      # one JSON line per progress report

As the Architecture lab's variants (models/variants.py): the child never holds the server's
interpreter, runs at low priority on one torch thread, and writes its entry to a temporary name
that is then renamed, so an entry is complete or absent. Entries live in the same cache directory
($ATTENTION_LAB_CACHE or the user's cache), in a posttrain/ folder, keyed by everything that
determines them (seed, recipe, data sizes, base weights, tokenizer, code version).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from .core.transformer import Transformer
from .loading import WEIGHTS_DIR, file_digest, load, shipped_tokenizer
from .training import posttrain as P
from .training.jobs import ChildJobs, MakeWay, lower_priority, report
from .variants import cache_root

VERSION = 2  # bump when the demo's code changes: old entries then no longer match
SUFFIX = ".pt"


@functools.cache
def _inputs_digest() -> str:
    return file_digest(WEIGHTS_DIR / "decoder.pt") + file_digest(WEIGHTS_DIR / "tokenizer.json")


def entry_key(seed: int = P.SEED) -> str:
    what = {"seed": seed, "recipe": P.RECIPE, "sizes": [P.N_SFT, P.N_DPO, P.N_HELD], "beta": P.BETA,
            "version": VERSION, "inputs": _inputs_digest()}  # fmt: skip
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:20]


def folder(root: Path | None = None) -> Path:
    return (root or cache_root()) / "posttrain"


def entry_path(key: str, root: Path | None = None) -> Path:
    return folder(root) / f"{key}{SUFFIX}"


def writable(root: Path | None = None) -> str | None:
    """None if entries can be written under root, else the reason (shown on the page before training)."""
    where = folder(root)
    try:
        where.mkdir(parents=True, exist_ok=True)
        probe = where / f".probe{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        return f"{where}: {e.strerror or e}"
    return None


def save(nets: dict[str, Transformer], results: dict, path: Path) -> Path:
    """float32 weights of the SFT and DPO models (2.4 MB each) beside the measured results."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    torch.save({"results": results, **{k: n.state_dict() for k, n in nets.items()}}, tmp)
    os.replace(tmp, path)
    return path


class CorruptEntry(RuntimeError):
    """An entry that cannot be read; it has been deleted, and training again rebuilds it."""


def load_entry(path: Path, base: Transformer) -> tuple[dict, dict[str, Transformer]]:
    """(results, {"sft": net, "dpo": net}) from an entry; a corrupt one is deleted (CorruptEntry)."""
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
        nets = {}
        for stage in ("sft", "dpo"):
            net = Transformer(base.cfg, init=False)
            net.load_state_dict(ckpt[stage])
            nets[stage] = net.eval().requires_grad_(False)
        results = ckpt["results"]
        P.summary(results, "dpo")  # every field the page reads is there
    except Exception as e:
        path.unlink(missing_ok=True)
        raise CorruptEntry(f"{path.name}: {str(e).splitlines()[0][:160] if str(e) else type(e).__name__}") from e
    return results, nets


@dataclass
class Job:
    key: str
    proc: subprocess.Popen | None = None
    state: str = "running"  # running | done | cancelled | failed
    stage: str = "sft"
    step: int = 0
    steps: int = P.RECIPE["sft_steps"] + P.RECIPE["dpo_steps"]
    loss: float = float("nan")
    seconds: float = 0.0
    error: str = ""
    started: float = field(default_factory=time.time)

    @property
    def progress(self) -> float:
        return min(1.0, self.step / self.steps)


class Runner(ChildJobs[Job]):
    """The post-training job of one server, shared by every session: one at a time; progress arrives
    on the child's stdout and is kept in memory, so a page polls it without touching the disk
    (models/training/jobs.py)."""

    def __init__(self, root: Path | None = None):
        super().__init__()
        self.root = root or cache_root()
        self.job: Job | None = None

    def done(self, key: str) -> bool:
        return entry_path(key, self.root).is_file()

    def running(self) -> Job | None:
        return self.job if self.job is not None and self.job.state == "running" else None

    def start(self, seed: int = P.SEED) -> Job:
        args = ["-m", "models.posttrain_run", "--seed", str(seed), "--root", str(self.root)]
        return self._launch(Job(entry_key(seed)), args)

    def _add(self, job: Job) -> None:
        self.job = job

    def _message(self, job: Job, msg: dict) -> None:
        if "step" in msg:
            job.stage, job.step, job.steps = msg["stage"], msg["step"], msg["steps"]
            job.loss, job.seconds = msg["loss"], msg["seconds"]

    def _complete(self, job: Job) -> bool:
        return self.done(job.key)

    def cancel(self) -> None:
        self._stop(self.running(), folder(self.root))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=P.SEED)
    ap.add_argument("--root", type=Path, default=None)
    args = ap.parse_args(argv)
    lower_priority()
    base = load("decoder")
    tok = shipped_tokenizer()
    nets, results = P.post_train(base.net, tok, args.seed, report=report, pause=MakeWay())
    path = save(nets, results, entry_path(entry_key(args.seed), args.root))
    report({"done": str(path)})


if __name__ == "__main__":
    main()
