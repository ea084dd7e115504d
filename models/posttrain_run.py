"""Run the post-training demo (models/posttrain.py) in a child process and keep its result on disk.

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
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import posttrain as P
from .loading import WEIGHTS_DIR, file_digest, load, shipped_tokenizer
from .transformer import Transformer
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


class Runner:
    """The post-training job of one server, shared by every session: one at a time; progress arrives
    on the child's stdout and is kept in memory, so a page polls it without touching the disk."""

    def __init__(self, root: Path | None = None):
        self.root = root or cache_root()
        self.lock = threading.Lock()
        self.job: Job | None = None

    def done(self, key: str) -> bool:
        return entry_path(key, self.root).is_file()

    def running(self) -> Job | None:
        return self.job if self.job is not None and self.job.state == "running" else None

    def start(self, seed: int = P.SEED) -> Job:
        key = entry_key(seed)
        with self.lock:
            if self.running() is not None:
                return self.job
            cmd = [sys.executable, "-m", "models.posttrain_run", "--seed", str(seed), "--root", str(self.root)]
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    cwd=Path(__file__).parents[1])  # fmt: skip
            self.job = job = Job(key, proc)
        threading.Thread(target=self._follow, args=(job,), daemon=True).start()
        return job

    def _follow(self, job: Job) -> None:
        assert job.proc is not None and job.proc.stdout is not None
        for line in job.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "step" in msg:
                job.stage, job.step, job.steps = msg["stage"], msg["step"], msg["steps"]
                job.loss, job.seconds = msg["loss"], msg["seconds"]
        err = job.proc.stderr.read() if job.proc.stderr else ""
        code = job.proc.wait()
        with self.lock:
            if job.state == "running":
                job.state = "done" if code == 0 and self.done(job.key) else "failed"
                if job.state == "failed":
                    job.error = (err.strip().splitlines() or [f"exit code {code}"])[-1][:300]

    def cancel(self) -> None:
        job = self.running()
        if job is None or job.proc is None:
            return
        with self.lock:
            job.state = "cancelled"
        job.proc.terminate()
        job.proc.wait()
        for p in folder(self.root).glob(f"{job.key}.*tmp*"):
            p.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=P.SEED)
    ap.add_argument("--root", type=Path, default=None)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # leave the other core to the server
    if hasattr(os, "nice"):
        os.nice(10)
    base = load("decoder")
    tok = shipped_tokenizer()
    nets, results = P.post_train(base.net, tok, args.seed, report=lambda m: print(json.dumps(m), flush=True))
    path = save(nets, results, entry_path(entry_key(args.seed), args.root))
    print(json.dumps({"done": str(path)}), flush=True)


if __name__ == "__main__":
    main()
