"""Time of models.head_scores (the heads page's field guide, computed once per model and cached) and of one
query/key map, per model. Prints a table; not a test.

Target (issue 17): head_scores <= 2 s for MiniLM on the 2-core dev machine; reasonable for a 0.5B model.
Usage: python bench/head_scores_speed.py [--model FOLDER ...] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch

import models
from models.inspection import heads, qk_map

torch.set_num_threads(1)  # as the app (ui/loaders.py)


def median_s(fn, repeat: int) -> float:
    fn()  # warm
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", action="append", default=[], help="a published model's folder (repeatable)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'model':24} {'seqs x span':>11} {'head_scores s':>14} {'probe batch s':>14} {'q/k map ms':>11}")
    for name in [*models.SHIPPED, "minilm", *args.model]:
        m = models.load(name)
        n, span = heads.probe_size(m)
        hs = median_s(lambda m=m: heads.head_scores(m), args.repeat)
        pb = median_s(lambda m=m: qk_map.probe_batch(m), args.repeat)
        batch, tr = qk_map.probe_batch(m), m.run("the cats that the dog sees are happy .")
        qk = median_s(lambda m=m, tr=tr, batch=batch: qk_map.qk_map(m, tr, 0, 0, batch), args.repeat) * 1000
        print(f"{Path(str(name)).name:24} {f'{n} x {span}':>11} {hs:14.2f} {pb:14.2f} {qk:11.1f}")


if __name__ == "__main__":
    main()
