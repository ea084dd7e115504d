"""Server-side time of one rerun of each page (prompt change -> every figure built), via AppTest.

Not a test; prints a table. The browser adds the websocket round trip and Plotly drawing on top
(bench/browser_latency.py measures that end to end).
Usage: python bench/rerun_speed.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

import models  # noqa: E402

WORDS = "the cats that the dog sees are happy . alice met bob at the park . then alice gave bob a book ."


def prompt_of(n_tokens: int, salt: str) -> str:
    tok = models.load("decoder").tokenizer
    ids = tok.encode((WORDS + " ") * 40)[: n_tokens - 2]
    return tok.decode(ids) + " " + salt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    print(f"{'page':10} {'view':8} {'tokens':>6} {'median ms':>10} {'p95 ms':>8}")
    for page, view in (("explorer", "heatmap"), ("explorer", "grid"), ("explorer", "lines"), ("masks", "-")):
        for n in (16, 64, 256):
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
            if view != "-":
                at.query_params["view"] = view
            at.run()
            at.switch_page(f"lessons/{page}.py").run()
            times = []
            for i in range(args.repeat + 2):
                text = prompt_of(n, f"x{i}")  # a new prompt every time: no cache hits
                t0 = time.perf_counter()
                at.text_input(key="prompt").input(text).run()
                times.append((time.perf_counter() - t0) * 1000)
                assert not at.exception, at.exception
            times = sorted(times[2:])
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"{page:10} {view:8} {n:6} {statistics.median(times):10.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
