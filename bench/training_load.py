"""Does training a variant (the lab's Train button) slow other sessions down? Server time of an
Explorer rerun with a new 64-token prompt, idle and while a variant trains in its child process.

Not a test; prints a table. Uses a throwaway cache directory, so nothing is kept.
Usage: python bench/training_load.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["ATTENTION_LAB_CACHE"] = tempfile.mkdtemp(prefix="attention-lab-bench-")

from bench.rerun_speed import open_page, prompt_of  # noqa: E402
from models import ModelConfig, variants  # noqa: E402


def reruns(at, repeat: int, salt: str) -> list[float]:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        at.text_input(key="prompt").input(prompt_of(64, f"{salt}{i}")).run()
        times.append((time.perf_counter() - t0) * 1000)
        assert not at.exception, at.exception
    return times


def row(name: str, times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return f"{name:28} {len(times):5} {statistics.median(times):10.1f} {p95:8.1f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    at = open_page("explorer", {}, prompt_of(64, "warm"))
    reruns(at, 3, "w")
    idle = reruns(at, args.repeat, "idle")
    jobs = variants.Jobs()
    cfg = ModelConfig(arch="decoder", n_layers=2, d_model=64, n_heads=4, n_kv_heads=2, d_ff=256, norm="rmsnorm",
                      activation="swiglu", positional="rope", max_len=128)  # fmt: skip
    job = jobs.start(cfg, seed=0)
    while not job.history.step and job.state == "running":  # past the child's start-up
        time.sleep(0.2)
    busy = reruns(at, args.repeat, "busy")
    progress = job.progress
    jobs.cancel(job.key)
    print(f"{'explorer rerun, 64 tokens':28} {'runs':>5} {'median ms':>10} {'p95 ms':>8}")
    print(row("idle", idle))
    print(row(f"while training ({progress:.0%} done)", busy))


if __name__ == "__main__":
    main()
