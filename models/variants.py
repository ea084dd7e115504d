"""Train a variant configuration briefly on the project's own generated data, and keep it on disk.

    python -m models.variants '{"arch": "decoder", "d_model": 64}' --seed 0   # one JSON line per report

The Architecture lab runs this module as a child process: training then never holds the server's
interpreter (other sessions stay responsive), it runs at low priority on one core, and Stop is a
plain terminate. A finished model is written to a temporary file and renamed into place, so an
entry on disk is either complete or absent; one that fails to load is deleted and retrained.
Entries live in the user's cache directory, keyed by everything that determines the weights
(config, seed, steps, training recipe, tokenizer), so they survive restarts and never go stale.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import data, snapshots
from .config import ModelConfig
from .jobs import ChildJobs, lower_priority, report
from .live import LiveModel
from .loading import shipped_tokenizer, tokenizer_path
from .probes import HELD_OUT_SEED
from .tokenizer import BPETokenizer
from .training import Sentences, batch_loss, fit
from .transformer import Transformer

# The same short recipe for every variant, so two variants' loss curves compare like with like:
# same batches (from the seed), same steps, same schedule. About 30 s for the default 2-layer,
# d_model 64 decoder on one core of this 2-core machine; bigger variants take longer.
RECIPE = {"steps": 1000, "batch": 16, "seq_len": 64, "lr": 2e-3, "warmup": 50}
# The default recipe forms no induction head (the lab's default A, 1000 steps, 38 s: best induction score
# 0.06). The shipped decoder needed repeat-only steps first; this preset starts with them too, at a higher
# peak learning rate. Measured on this machine (1000 steps, seed 0, best induction score at the end):
# A's settings with tied embeddings (the lab's "Induction head forms" preset) 0.83, every layer-2 head
# >= 0.73, crossing 0.5 between steps 600 and 700 (41 s); the same with learned positions 0.05; untied A
# 0.04; B (learned positions, tied) 0.07. So both RoPE and tying matter here. Why untying hurts, as far as
# measured: on the repeat-only batches (random tokens, so only copying lowers the loss) the untied model's
# training loss stays near ln 2048 = 7.62 (7.66 at step 100, 7.46 at step 795), where the tied one falls
# from 7.33 to 2.28. Encoders and the encoder-decoder train by the default recipe.
RECIPES = {
    "default": RECIPE,
    "induction": {**RECIPE, "lr": 5e-3, "repeat_steps": 800},
}
RECIPE_VERSION = 2  # bump when the recipe's code changes: old entries then no longer match (2: snapshots)
EVAL_EVERY = 50  # steps between held-out loss measurements
EVAL_BATCHES = 4  # the same held-out batches at every measurement
REPORT_EVERY = 5  # steps between progress lines
POOL_SENTENCES = 4000
CACHE_ENV = "ATTENTION_LAB_CACHE"  # overrides the cache directory (tests use a temporary one)
SUFFIX = ".pt"


def cache_root() -> Path:
    """$ATTENTION_LAB_CACHE, else the platform's per-user cache directory + attention-lab/variants."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "attention-lab" / "variants"


@functools.cache
def _tokenizer_digest() -> str:
    return hashlib.sha256(tokenizer_path().read_bytes()).hexdigest()[:16]


def recipe_of(cfg: ModelConfig, name: str = "default") -> dict:
    """The recipe a variant trains by: the induction preset only changes decoders."""
    return RECIPES[name if cfg.arch == "decoder" else "default"]


def variant_key(cfg: ModelConfig, seed: int, steps: int | None = None, recipe: str = "default") -> str:
    """A name for the weights this training would produce."""
    rec = recipe_of(cfg, recipe)
    what = {"config": cfg.to_dict(), "seed": seed, "steps": steps or rec["steps"], "recipe": rec,
            "version": RECIPE_VERSION, "tokenizer": _tokenizer_digest()}  # fmt: skip
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:20]


def entry_path(key: str, root: Path | None = None) -> Path:
    return (root or cache_root()) / f"{key}{SUFFIX}"


# ----------------------------------------------------------------- training


@dataclass
class History:
    step: list[int] = field(default_factory=list)  # training loss (smoothed, EMA 0.9) at these steps
    loss: list[float] = field(default_factory=list)
    val_step: list[int] = field(default_factory=list)  # held-out loss at these steps
    val: list[float] = field(default_factory=list)
    seconds: float = 0.0
    snapshots: dict = field(default_factory=dict)  # models.snapshots.scores: steps and per-head scores
    states: list = field(default_factory=list, repr=False)  # (step, weights) of each snapshot, not sent

    def to_dict(self) -> dict:
        return {"step": self.step, "loss": self.loss, "val_step": self.val_step, "val": self.val,
                "seconds": self.seconds, "snapshots": self.snapshots}  # fmt: skip


class Data:
    """The batches of the architecture's task: training ones from the seed, held-out ones fixed."""

    def __init__(self, cfg: ModelConfig, tok: BPETokenizer, seed: int, recipe: dict = RECIPE):
        text = cfg.arch != "encoder-decoder"
        self.tok, self.recipe = tok, recipe
        self.pool = Sentences(tok, seed, POOL_SENTENCES) if text else None
        self.held_pool = Sentences(tok, HELD_OUT_SEED, POOL_SENTENCES // 4) if text else None
        self.numbers, self.held_numbers = data.split_numbers()

    def train_loss(self, net: Transformer, rng: random.Random, step: int = 0) -> torch.Tensor:
        r = self.recipe  # repeat-only batches ([BOS] R R R ...) for the preset's first steps
        repeat = step < r.get("repeat_steps", 0)
        return batch_loss(net, rng, self.pool, self.tok, self.numbers, r["batch"], r["seq_len"], repeat)

    @torch.no_grad()
    def held_out_loss(self, net: Transformer) -> float:
        rng = random.Random(HELD_OUT_SEED)
        net.eval()
        loss = sum(
            float(
                batch_loss(
                    net, rng, self.held_pool, self.tok, self.held_numbers, RECIPE["batch"], RECIPE["seq_len"], aux=False
                )
            )
            for _ in range(EVAL_BATCHES)
        )
        net.train()
        return loss / EVAL_BATCHES


def train(cfg: ModelConfig, tok: BPETokenizer, seed: int, steps: int | None = None, report=None, should_stop=None,
          recipe: str = "default"):  # fmt: skip
    """Train a fresh Transformer(cfg) for `steps` steps (the recipe's by default), keeping snapshots
    (models.snapshots) and their scores in the History. report(dict) is called every few steps;
    should_stop() ends training early (then None is returned). Returns (net, History)."""
    rec = recipe_of(cfg, recipe)
    steps = steps or rec["steps"]
    torch.manual_seed(seed)
    rng = random.Random(seed)
    net = Transformer(cfg).train()
    batches = Data(cfg, tok, seed, rec)
    hist, ema, t0 = History(), None, time.time()
    keep = set(snapshots.schedule(steps))

    def before(step: int) -> bool:
        if should_stop is not None and should_stop():
            return False
        if step in keep:
            hist.states.append((step, snapshots.capture(net)))
        if step % EVAL_EVERY == 0:
            hist.val_step.append(step)
            hist.val.append(round(batches.held_out_loss(net), 5))
        return True

    def after(step: int, loss: float) -> None:
        nonlocal ema
        ema = loss if ema is None else 0.9 * ema + 0.1 * loss
        if step % REPORT_EVERY == 0 or step == steps - 1:
            hist.step.append(step + 1)
            hist.loss.append(round(ema, 5))
            if report is not None:
                report({"step": step + 1, "steps": steps, "loss": hist.loss[-1], "val_step": hist.val_step[-1],
                        "val": hist.val[-1], "seconds": round(time.time() - t0, 2)})  # fmt: skip

    if not fit(net, steps, rec["lr"], lambda step: batches.train_loss(net, rng, step), rec["warmup"], before, after):
        return None
    hist.val_step.append(steps)
    hist.val.append(round(batches.held_out_loss(net), 5))
    hist.states = snapshots.thin([*hist.states, (steps, snapshots.capture(net))])
    hist.snapshots = snapshots.scores(cfg, tok, hist.states)  # once, here, not on every page rerun
    hist.seconds = round(time.time() - t0, 2)
    return net.eval(), hist


def save(net: Transformer, hist: History, seed: int, path: Path) -> Path:
    """Write to a temporary name, then rename: a reader never sees half a file. float16, as the shipped
    models: 0.8 MB for the default variant, 21 MB for the largest the lab offers. The snapshots go
    beside it first (models.snapshots: 8 MB for the default variant, at most 24 MB)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if hist.states:
        snapshots.save(hist.states, path)
    state = {k: v.half() for k, v in net.state_dict().items() if not (net.cfg.tie_embeddings and k == "head.weight")}
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    torch.save({"config": net.cfg.to_dict(), "state_dict": state, "history": hist.to_dict(), "seed": seed}, tmp)
    os.replace(tmp, path)
    return path


class CorruptEntry(RuntimeError):
    """A cache entry that cannot be loaded; it has been deleted, and training again rebuilds it.

    `kind` says why in the app's own words, not PyTorch's ("internal miniz error", "Weights only load
    failed. In PyTorch 2.6…" read like a version problem): "damaged" (cut short, or not a checkpoint at
    all) or "mismatch" (a readable checkpoint of another configuration or another version of the code)."""

    def __init__(self, path: Path, kind: str, detail: str = ""):
        super().__init__(f"{path}: {kind}" + (f" ({detail})" if detail else ""))
        self.path, self.kind = path, kind


def load(path: Path, cfg: ModelConfig, tok: BPETokenizer) -> LiveModel:
    """A trained variant from its cache entry; a damaged or mismatched entry is deleted (CorruptEntry)."""
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
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


# ----------------------------------------------------------------- jobs (the server side)


@dataclass
class Job:
    key: str
    config: ModelConfig
    seed: int
    steps: int
    proc: subprocess.Popen | None = None
    recipe: str = "default"
    state: str = "running"  # running | done | cancelled | failed
    history: History = field(default_factory=History)
    error: str = ""
    started: float = field(default_factory=time.time)

    @property
    def progress(self) -> float:
        return self.history.step[-1] / self.steps if self.history.step else 0.0


class Jobs(ChildJobs[Job]):
    """Training jobs of one server, shared by every session: at most one runs at a time (two
    cores: one trains, one serves). Progress arrives on the child's stdout and is kept in memory,
    so a page polls the job without touching the disk (models/jobs.py)."""

    def __init__(self, root: Path | None = None):
        super().__init__()
        self.root = root or cache_root()
        self.jobs: dict[str, Job] = {}
        self.trained: set[str] = set()
        if self.root.is_dir():  # one scan at start-up; afterwards the set is kept up to date
            for p in self.root.glob("*.tmp*"):
                p.unlink(missing_ok=True)  # left by a process killed while saving
            for p in self.root.glob(f"*{snapshots.SUFFIX}"):
                if not p.with_suffix(SUFFIX).exists():  # killed between the snapshots and the entry
                    p.unlink(missing_ok=True)
            self.trained = {p.name[: -len(SUFFIX)] for p in self.root.glob(f"*{SUFFIX}")}

    def running(self) -> Job | None:
        return next((j for j in self.jobs.values() if j.state == "running"), None)

    def start(self, cfg: ModelConfig, seed: int, steps: int | None = None, recipe: str = "default") -> Job:
        """Start training cfg; returns the running job (another one, if one is already running)."""
        steps = steps or recipe_of(cfg, recipe)["steps"]
        key = variant_key(cfg, seed, steps, recipe)
        args = ["-m", "models.variants", json.dumps(cfg.to_dict()), "--seed", str(seed), "--steps", str(steps),
                "--recipe", recipe, "--root", str(self.root)]  # fmt: skip
        return self._launch(Job(key, cfg, seed, steps, recipe=recipe), args)

    def _add(self, job: Job) -> None:
        self.jobs[job.key] = job

    def _message(self, job: Job, msg: dict) -> None:
        h = job.history
        if "step" in msg:
            h.step.append(msg["step"])
            h.loss.append(msg["loss"])
            if not h.val_step or h.val_step[-1] != msg["val_step"]:
                h.val_step.append(msg["val_step"])
                h.val.append(msg["val"])
            h.seconds = msg["seconds"]
        elif "done" in msg:
            job.history = History(**msg["history"])
            with self.lock:
                self.trained.add(job.key)

    def _complete(self, job: Job) -> bool:
        return job.key in self.trained

    def cancel(self, key: str) -> None:
        if not self._stop(self.jobs.get(key), self.root):
            return
        if entry_path(key, self.root).exists():  # it finished saving just before the signal: complete
            with self.lock:
                self.trained.add(key)
        else:
            snapshots.path_of(entry_path(key, self.root)).unlink(missing_ok=True)

    def forget(self, key: str) -> None:
        """Drop a corrupt entry (already deleted by load) so the variant shows as untrained."""
        with self.lock:
            self.trained.discard(key)
            self.jobs.pop(key, None)


# ----------------------------------------------------------------- the child process


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config", help="ModelConfig fields as JSON")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=None, help="default: the recipe's")
    ap.add_argument("--recipe", choices=list(RECIPES), default="default")
    ap.add_argument("--root", type=Path, default=None)
    args = ap.parse_args(argv)
    lower_priority()
    tok = shipped_tokenizer()
    cfg = ModelConfig.from_dict({**json.loads(args.config), "vocab_size": tok.vocab_size})

    net, hist = train(cfg, tok, args.seed, args.steps, report, recipe=args.recipe)
    path = save(net, hist, args.seed, entry_path(variant_key(cfg, args.seed, args.steps, args.recipe), args.root))
    report({"done": str(path), "history": hist.to_dict()})


if __name__ == "__main__":
    main()
