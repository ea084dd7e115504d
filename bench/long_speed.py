"""Issue 30's whole-paragraph and loading targets, on real published shapes with random weights: a table, then JSON.

    .venv/bin/python bench/long_speed.py                       # Qwen3-0.6B at 2,048 tokens, bfloat16 and float32
    .venv/bin/python bench/long_speed.py --precision bfloat16 --rounds 1

Rows, per precision (transformers runs in the same dtype, eager attention, same run, interleaved round by round):
- ours: `run_ids` of a 2,048-token prompt (a long trace: the residual stream per layer, attention computed when read)
  plus two layers' attention read (the first and the last: what a page showing one layer, then another, costs);
- transformers: its own eager forward of the same ids, `logits_to_keep=1` (the next-token logits only: our long trace
  computes no logits until a page reads them, so neither side pays for 2,048 × 151,936 logits);
- the trace's arrays after the two layers were read (long_trace's stream, layer cache and the rest).
Then loading Qwen2.5-0.5B's bfloat16 folder in a fresh process: seconds, and the process's resident memory after it.
The last line is one JSON object with every row.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import models
from bench.pretrained_speed import make_folder, rss_mb, timed, trace_bytes

LOAD_SNIPPET = """
import sys, time, json
sys.path.insert(0, {root!r})
import torch, models
from bench.pretrained_speed import rss_mb
before = rss_mb()
t0 = time.perf_counter()
m = models.load({folder!r}, precision="bfloat16")
s = time.perf_counter() - t0
print(json.dumps({{"load_s": round(s, 2), "rss_mb": round(rss_mb()), "rss_before_mb": round(before),
                  "precision": m.meta["precision"], "params": m.meta["params"]}}))
"""


def long_rows(args) -> list[dict]:
    import transformers as tf

    folder = make_folder(args.model)
    torch.set_num_threads(args.threads)
    rows = []
    for precision in args.precision.split(","):
        gc.collect()
        ours = models.load(folder, precision=precision)
        dtype = torch.bfloat16 if ours.meta["precision"] == "bfloat16" else torch.float32
        ref = tf.AutoModelForCausalLM.from_pretrained(folder, dtype=dtype, attn_implementation="eager").eval()
        rng = np.random.default_rng(0)
        o, r, held = [], [], 0
        for i in range(args.rounds + 1):  # round 0 warms up both
            ids = rng.integers(10, 2000, args.tokens).tolist()

            def mine(ids=ids, ours=ours):
                nonlocal held
                tr = ours.run_ids(ids)
                att = tr.attention["decoder.self"]
                first, last = att[0], att[len(att) - 1]  # two layers' [H, T, T], computed when read
                assert first.shape[-1] == last.shape[-1] == len(ids)
                held = trace_bytes(tr)

            def theirs(ids=ids, ref=ref):
                with torch.inference_mode():
                    ref(torch.tensor([ids]), logits_to_keep=1)

            a, b = timed(mine), timed(theirs)
            if i:
                o.append(a)
                r.append(b)
            step = {"precision": precision, "round": i, "ours_ms": round(a), "hf_ms": round(b)}
            print(json.dumps(step), file=sys.stderr)
        rows.append({"model": args.model, "tokens": args.tokens, "threads": args.threads,
                     "precision": ours.meta["precision"], "ours_ms": round(statistics.median(o)),
                     "transformers_ms": round(statistics.median(r)),
                     "ratio": round(statistics.median(a / b for a, b in zip(o, r, strict=True)), 3),
                     "trace_mb": round(held / 2**20, 1), "rss_mb": round(rss_mb())})  # fmt: skip
        del ours, ref
    return rows


def load_row(name: str) -> dict:
    """A fresh process loads the folder (the page cache warm from writing it: what a second start of the app sees)."""
    folder = make_folder(name)
    code = LOAD_SNIPPET.format(root=str(Path(__file__).resolve().parents[1]), folder=str(folder))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {"model": name, **json.loads(out.strip().splitlines()[-1])}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="qwen3-0.6b")
    ap.add_argument("--tokens", type=int, default=2048)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--precision", default="bfloat16,float32")
    ap.add_argument("--load-model", default="qwen2.5-0.5b")
    ap.add_argument("--skip-long", action="store_true")
    args = ap.parse_args(argv)
    rows = [] if args.skip_long else long_rows(args)
    load = load_row(args.load_model)
    print("\n| model | tokens | threads | precision | ours: forward + 2 layers ms | transformers eager ms | ratio "
          "| trace MB |\n| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")  # fmt: skip
    for x in rows:
        print(f"| {x['model']} | {x['tokens']} | {x['threads']} | {x['precision']} | {x['ours_ms']} | "
              f"{x['transformers_ms']} | {x['ratio']:.2f} | {x['trace_mb']} |")  # fmt: skip
    what = f"{load['model']} ({load['precision']}, {load['params'] / 1e6:.0f}M)"
    print(f"\nload {what}: {load['load_s']} s, resident {load['rss_mb']} MB (the interpreter with torch and the app's "
          f"modules: {load['rss_before_mb']} MB)")  # fmt: skip
    print(json.dumps({"long": rows, "load": load}))


if __name__ == "__main__":
    main()
