"""Two published models side by side on the Explorer (issue 44): what loading the second one costs in time and memory.

One app server (bench/server_proc.py) with $ATTENTION_LAB_MODELS = bench/out/models, where bench/pretrained_speed.py
writes real-shape folders once (random bfloat16 weights in the published shapes, the app's tokenizer; no download):
Qwen2.5-0.5B and Qwen3-0.6B by default. The server runs its published models in --precision (bfloat16 by default).
Protocol clients (bench/st_client.py) open, one after the other:

1. the toy Explorer (the class's shared model): the server's baseline memory;
2. `?model=A`: A loaded and drawn;
3. `?model=A&compare=B`: B loaded beside A, both columns and the "what differs" section drawn (the first draw);
4. the same link in a new session: both cached, the page alone;
5. a new prompt in that session (both models run, the comparison computed again);
6. the toy Explorer again: the class's model still cached (its time stays that of step 1's second visit).

Server memory (RSS of the process tree) after each step, wall time of each step. Prints a table; the last line is one
JSON object.

Usage: .venv/bin/python bench/compare_memory.py [--a qwen2.5-0.5b] [--b qwen3-0.6b] [--precision bfloat16]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402
from bench.pretrained_speed import make_folder  # noqa: E402
from bench.server_proc import cpu_s, rss_mb, start_server  # noqa: E402
from bench.st_client import Session, WidgetState  # noqa: E402

PROMPT = "The capital of France is Paris. The capital of Italy is"
NEW_PROMPT = "Alice met Bob at the park. Then Alice gave Bob a"


async def step(port: int, pid: int, query: dict, change_prompt: str | None = None) -> dict:
    """Open the Explorer with this query (and, with change_prompt, then type a new prompt); time, CPU, memory."""
    s = Session(port, "explorer", urlencode(query))
    t0, c0 = time.perf_counter(), cpu_s(pid)
    _, errors = await s.open()
    row = {"open_s": time.perf_counter() - t0, "open_cpu_s": cpu_s(pid) - c0, "charts": len(s.charts)}
    if change_prompt is not None:
        widget = s.widgets.get("prompt")
        assert widget is not None, sorted(s.widgets)
        state = WidgetState()
        state.id, state.string_value = widget[1].id, change_prompt
        t0, c0 = time.perf_counter(), cpu_s(pid)
        _, errs = await s.rerun((state,))
        errors += errs
        row |= {"prompt_s": time.perf_counter() - t0, "prompt_cpu_s": cpu_s(pid) - c0}
    await s.ws.close()
    row |= {"rss_mb": rss_mb(pid), "errors": errors, "texts": [x for x in s.texts if "rror" in x][:3]}
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="qwen2.5-0.5b")
    ap.add_argument("--b", default="qwen3-0.6b")
    ap.add_argument("--precision", default="bfloat16")
    args = ap.parse_args()
    import torch

    for name in (args.a, args.b):
        make_folder(name)
    port = bl.free_port()
    env = {"ATTENTION_LAB_PRECISION": args.precision}
    models_dir = str(ROOT / "bench" / "out" / "models")
    rows = []
    with tempfile.TemporaryDirectory(prefix="attention-lab-compare-") as tmp, open(Path(tmp) / "log", "wb") as log:
        proc, _ = start_server(port, str(Path(tmp) / "cache"), log, None, models=models_dir, extra_env=env)
        try:
            bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
            base = {"prompt": PROMPT}
            steps = [
                ("toy Explorer (the class's model), first", {**base}, None),
                ("toy Explorer again", {**base}, None),
                (f"?model={args.a}: A loaded, drawn", {**base, "model": args.a}, None),
                (f"?model={args.a}&compare={args.b}: B loaded, both drawn", {**base, "model": args.a,
                                                                            "compare": args.b}, None),
                ("the same link, new session (both cached)", {**base, "model": args.a, "compare": args.b}, None),
                ("then a new prompt (both run, compared)", {**base, "model": args.a, "compare": args.b}, NEW_PROMPT),
                ("toy Explorer after both (class model kept)", {**base}, None),
            ]  # fmt: skip
            for label, query, change in steps:
                row = asyncio.run(step(port, proc.pid, query, change))
                rows.append({"step": label, **row})
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    caps = torch.backends.cpu.get_cpu_capability()
    print(f"\nCPU capability {caps}, {os.cpu_count()} cores; published models in {args.precision}.\n")
    print("| step | wall s | server CPU s | server RSS MB | charts | errors |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        wall = f"{r['open_s']:.2f}" + (f" + {r['prompt_s']:.2f}" if "prompt_s" in r else "")
        cpu = f"{r['open_cpu_s']:.2f}" + (f" + {r['prompt_cpu_s']:.2f}" if "prompt_cpu_s" in r else "")
        errs = "; ".join(r["errors"] + r["texts"])[:80] or "none"
        print(f"| {r['step']} | {wall} | {cpu} | {r['rss_mb']:.0f} | {r['charts']} | {errs} |")
    print(json.dumps({"cpu_capability": caps, "a": args.a, "b": args.b, "precision": args.precision, "rows": rows}))


if __name__ == "__main__":
    main()
