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
import base64
import contextlib
import functools
import hashlib
import io
import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import data
from .config import ModelConfig
from .core.transformer import Transformer
from .inspection.probes import HELD_OUT_SEED
from .loading import shipped_tokenizer, tokenizer_path
from .tokenizer import BPETokenizer
from .training import snapshots
from .training.jobs import ChildJobs, MakeWay, lower_priority, report
from .training.training import Sentences, batch_loss, fit
from .training.variant_files import CorruptEntry, checkpoint, load, save, unwritable
from .training.variant_locks import claim, held, try_claim

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
WATCH_S = 3.0  # how often a server looks for variants that other replicas saved in a shared cache folder
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
    snapshots: dict = field(default_factory=dict)  # models.training.snapshots.scores: steps and per-head scores
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
          recipe: str = "default", pause=None):  # fmt: skip
    """Train a fresh Transformer(cfg) for `steps` steps (the recipe's by default), keeping snapshots
    (models.training.snapshots) and their scores in the History. report(dict) is called every few steps;
    should_stop() ends training early (then None is returned); pause() is called before every step (the
    child's jobs.MakeWay: it waits while the server is busy). Returns (net, History)."""
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
        if pause is not None:
            pause()
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
    unsaved: str = ""  # why the trained weights could not be saved in the cache (then Jobs.kept holds them)
    elsewhere: bool = False  # another process (another replica on a shared cache) trains it: this one waits
    reused: bool = False  # the entry another process saved meanwhile was used: this job trained nothing

    @property
    def progress(self) -> float:
        return self.history.step[-1] / self.steps if self.history.step else 0.0


class Jobs(ChildJobs[Job]):
    """Training jobs of one server, shared by every session: at most one runs at a time (two
    cores: one trains, one serves). Progress arrives on the child's stdout and is kept in memory,
    so a page polls the job without touching the disk (models/training/jobs.py)."""

    def __init__(self, root: Path | None = None):
        super().__init__()
        self.root = root or cache_root()
        self.jobs: dict[str, Job] = {}
        self.trained: set[str] = set()
        self.kept: dict[str, bytes] = {}  # key -> checkpoint bytes of variants that could not be saved
        self.unfinished: set[str] = set()  # variants whose last run, before this server started, did not finish
        self.unwritable = unwritable(self.root)  # why the cache cannot be written (None: it can); see start
        if self.root.is_dir():  # one scan at start-up; then the watcher keeps the set up to date
            for p in self.root.glob("*.tmp*"):
                if not held(lock_path(p.name.split(".", 1)[0], self.root)):  # not another replica's, mid-write
                    p.unlink(missing_ok=True)  # left by a process killed while saving
            for p in self.root.glob(f"*{snapshots.SUFFIX}"):
                if not p.with_suffix(SUFFIX).exists() and not held(lock_path(p.stem, self.root)):
                    p.unlink(missing_ok=True)  # killed between the snapshots and the entry
            self.trained = self._scan()
            # a lock without its entry: a run began and never finished (stopped, killed, or the server restarted)
            self.unfinished = {p.stem for p in self.root.glob("*.lock") if p.stem not in self.trained}
        threading.Thread(target=self._watch, daemon=True, name="variant-cache-watcher").start()

    def _scan(self) -> set[str]:
        try:
            return {p.name[: -len(SUFFIX)] for p in self.root.glob(f"*{SUFFIX}")}
        except OSError:
            return set()

    def _watch(self) -> None:
        """Variants another replica trains into a shared cache folder are used here too, within WATCH_S
        (a directory listing off the rerun path: a page only reads the set)."""
        while True:
            time.sleep(WATCH_S)
            found = self._scan()
            if found - self.trained:
                with self.lock:
                    self.trained |= found

    def running(self) -> Job | None:
        return next((j for j in self.jobs.values() if j.state == "running"), None)

    def start(self, cfg: ModelConfig, seed: int, steps: int | None = None, recipe: str = "default") -> Job:
        """Start training cfg; returns the running job (another one, if one is already running)."""
        steps = steps or recipe_of(cfg, recipe)["steps"]
        key = variant_key(cfg, seed, steps, recipe)
        self.unwritable = unwritable(self.root)  # checked again: a folder fixed meanwhile is used
        args = ["-m", "models.variants", json.dumps(cfg.to_dict()), "--seed", str(seed), "--steps", str(steps),
                "--recipe", recipe, "--root", str(self.root)]  # fmt: skip
        job = Job(key, cfg, seed, steps, recipe=recipe, unsaved=self.unwritable or "")
        if self.unwritable:  # the child sends the weights back instead of failing to write them
            args.append("--keep-in-memory")
            return self._launch(job, args)
        # The variant's lock is taken here, when the student clicks, not when the child gets going (importing
        # torch takes seconds on a loaded machine): of two replicas asked at once, the first click trains and
        # the second says at once that it waits, whichever child starts first (bench/faults.py shared_cache).
        lock, job.elsewhere = try_claim(lock_path(key, self.root))
        if lock is None:
            return self._launch(job, args)
        try:
            return self._launch(job, [*args, "--lock-fd", str(lock.fileno())], pass_fds=(lock.fileno(),))
        finally:
            lock.close()  # the child holds its own copy of the locked file; without a child the lock goes

    def _add(self, job: Job) -> None:
        self.jobs[job.key] = job
        self.unfinished.discard(job.key)

    def _message(self, job: Job, msg: dict) -> None:
        h = job.history
        if "step" in msg:
            h.step.append(msg["step"])
            h.loss.append(msg["loss"])
            if not h.val_step or h.val_step[-1] != msg["val_step"]:
                h.val_step.append(msg["val_step"])
                h.val.append(msg["val"])
            h.seconds = msg["seconds"]
        elif "elsewhere" in msg:  # another replica holds the variant's lock: this child waits for its entry
            job.elsewhere = True
        elif "kept" in msg:  # the cache could not take it: the weights, base64, on one line
            with self.lock:
                self.kept[job.key] = base64.b64decode(msg["kept"])
            job.unsaved = msg.get("unsaved") or job.unsaved
        elif "done" in msg:
            job.history = History(**msg["history"])
            job.reused = bool(msg.get("reused"))
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


def lock_path(key: str, root: Path | None = None) -> Path:
    return (root or cache_root()) / f"{key}.lock"


# ----------------------------------------------------------------- the child process


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config", help="ModelConfig fields as JSON")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=None, help="default: the recipe's")
    ap.add_argument("--recipe", choices=list(RECIPES), default="default")
    ap.add_argument("--root", type=Path, default=None)
    ap.add_argument("--keep-in-memory", action="store_true", help="send the weights back on stdout, do not save")
    ap.add_argument("--lock-fd", type=int, default=None, help="the variant's lock, already taken by the server")
    args = ap.parse_args(argv)
    lower_priority()
    tok = shipped_tokenizer()
    cfg = ModelConfig.from_dict({**json.loads(args.config), "vocab_size": tok.vocab_size})

    key = variant_key(cfg, args.seed, args.steps, args.recipe)
    path, why = entry_path(key, args.root), ""
    if args.lock_fd is not None:  # the server took the lock when the student clicked (Jobs.start)
        lock = os.fdopen(args.lock_fd, "a")
    else:
        lock = None if args.keep_in_memory else claim(lock_path(key, args.root))
    if lock is not None and path.exists():  # another replica trained it while this one waited: train it once
        with contextlib.suppress(CorruptEntry):
            report({"done": str(path), "history": load(path, cfg, tok).meta["history"], "reused": True})
            return
    net, hist = train(cfg, tok, args.seed, args.steps, report, recipe=args.recipe, pause=MakeWay())
    if not args.keep_in_memory:  # else the server found the folder unwritable before training (Jobs.start)
        try:
            save(net, hist, args.seed, path)
        except (OSError, RuntimeError) as e:  # torch.save reports a failed open or write as a RuntimeError
            why = getattr(e, "strerror", None) or str(e).splitlines()[-1].split(":")[-1].strip() or type(e).__name__
    if args.keep_in_memory or why:  # the minute of training is not thrown away: the server keeps the weights
        buffer = io.BytesIO()
        torch.save(checkpoint(net, hist, args.seed), buffer)
        report({"kept": base64.b64encode(buffer.getvalue()).decode(), "unsaved": why})
    report({"done": str(path), "history": hist.to_dict()})


if __name__ == "__main__":
    main()
