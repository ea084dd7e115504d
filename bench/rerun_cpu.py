"""What one rerun costs the server, per page and action, and where that time goes (issue 40).

One protocol client (bench/st_client.py, as bench/load.py's sessions) per page does each of its actions
--reruns times in a row, nothing else running: server CPU seconds (utime + stime from /proc) per rerun,
and the wall time of the round trip. With py-spy installed (`pip install py-spy`; a bench tool, not a
dependency), the same sequence is sampled (every thread, 250 Hz) and each sample put in one part of a rerun:
the model run, building figures, Plotly's JSON, Streamlit's element ids and protobuf, the websocket,
the database, the rest of the script. Prints tables; the last line is one JSON object.

Before/after in one run (issue 40): `git worktree add /tmp/main <commit>`, then --before /tmp/main: the two
checkouts' servers are measured in turns, --rounds times each (the medians compared), so a machine that is
busier in one minute than the next does not decide the result.

Usage: .venv/bin/python bench/rerun_cpu.py [--reruns 30] [--pages explorer,masks,softmax] [--no-profile]
       [--before CHECKOUT [--rounds 3]]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402
from bench.load import PAGES as LOAD_PAGES  # noqa: E402
from bench.server_proc import cpu_s, start_server  # noqa: E402
from bench.st_client import ACTIONS, Session  # noqa: E402

# A sample's part: the first rule whose pattern is in its stack (innermost frames decide ties by order).
PARTS = [
    ("model run", r"LiveModel\.run|run_filled|Transformer\.|torch/"),
    ("element id (hash of the spec)", r"compute_and_register_element_id"),
    ("figure to JSON (Plotly)", r"plotly/io/_json|_plotly_utils|plotly/tools|PlotlyJSONEncoder"),
    ("figure build (viz/, Spec.to_dict)", r"\(viz/|SpecFigure|on_any_theme"),
    ("protobuf, message queue", r"_enqueue|enqueue_message|forward_msg|protobuf|SerializeToString|populate_hash"),
    ("websocket, event loop", r"tornado|websocket|uvicorn|starlette|asyncio|selector"),
    ("database", r"sqlalchemy|sqlite|psycopg|store/"),
    ("cache lookups (st.cache_*, trace cache)", r"caching/|trace_cache"),
    ("page script and widgets", r"ScriptRunner|exec_code|streamlit/elements|\((ui|lessons)/"),
]


def classify(raw: Path) -> dict[str, int]:
    """py-spy raw output ("frame;frame;... count" per line) -> samples per part."""
    parts: collections.Counter = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        name = next((p for p, rx in PARTS if re.search(rx, stack)), "other (Python, threads)")
        parts[name] += int(n)
    return dict(parts)


async def sequence(port: int, pages: list[str], reruns: int, pid: int) -> list[dict]:
    rows = []
    for page in pages:
        s = Session(port, page, seed=7)
        await s.open()
        for _ in range(3):  # warm: first imports, first model load
            await s.act()
        for key, _ in ACTIONS[page]:
            if key not in s.widgets:
                continue
            ms, cpu0, t0 = [], cpu_s(pid), time.monotonic()
            for _ in range(reruns):
                took, errs = await s.rerun((s.move(key),))
                assert not errs, errs
                ms.append(took)
            cpu = (cpu_s(pid) - cpu0) / reruns * 1000
            rows.append(dict(page=page, action=key, cpu_ms=cpu, wall_ms=sorted(ms)[len(ms) // 2],
                             seconds=time.monotonic() - t0))  # fmt: skip
        await s.ws.close()
    return rows


def hide_uvloop(root: Path) -> dict:
    """Where the checkout's requirements do not list uvloop, its server runs as it would be installed: without it
    (this venv has it; Streamlit uses it when `import uvloop` works)."""
    if "uvloop" in (root / "requirements.txt").read_text():
        return {}
    stub = Path(tempfile.mkdtemp(prefix="no-uvloop-"))
    (stub / "uvloop.py").write_text('raise ModuleNotFoundError("not in this checkout\'s requirements")\n')
    return {"PYTHONPATH": str(stub)}


def measure(root: Path, pages: list[str], reruns: int, spy: str | None) -> tuple[list[dict], dict]:
    """One fresh server of the checkout `root`: each page's actions timed, then (spy) sampled."""
    port = bl.free_port()
    with tempfile.TemporaryDirectory(prefix="attention-lab-cpu-") as tmp, open(Path(tmp) / "log", "wb") as log:
        proc, _ = start_server(port, str(Path(tmp) / "cache"), log, None, root=root, extra_env=hide_uvloop(root))
        try:
            bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
            rows = asyncio.run(sequence(port, pages, reruns, proc.pid))  # timed without the profiler
            parts = {}
            if spy:
                raw = Path(tmp) / "prof.raw"
                cmd = [spy, "record", "-p", str(proc.pid), "-r", "250", "-f", "raw", "-o", str(raw), "--nonblocking"]
                rec = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1)
                asyncio.run(sequence(port, pages, max(reruns // 2, 5), proc.pid))
                rec.send_signal(signal.SIGINT)
                rec.wait(timeout=60)
                parts = classify(raw) if raw.exists() else {}
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    return rows, parts


def mix_of(rows: list[dict], pages: list[str]) -> float:
    """CPU ms per rerun of bench/load.py's mix: its pages (3/5 Explorer) and each page's action weights."""
    share = {p: LOAD_PAGES.count(p) / sum(LOAD_PAGES.count(q) for q in pages) for p in pages}
    weights = {(p, k): w * share[p] for p in pages for k, w in ACTIONS[p]}
    return sum(r["cpu_ms"] * weights[(r["page"], r["action"])] for r in rows)


def median_rows(runs: list[list[dict]]) -> list[dict]:
    return [dict(page=rs[0]["page"], action=rs[0]["action"], cpu_ms=statistics.median(r["cpu_ms"] for r in rs),
                 wall_ms=statistics.median(r["wall_ms"] for r in rs)) for rs in zip(*runs, strict=True)]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reruns", type=int, default=30)
    ap.add_argument("--pages", default="explorer,masks,softmax")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--before", type=Path, help="another checkout (e.g. `git worktree add /tmp/main main`): "
                    "both measured in turns, --rounds times each, medians compared")  # fmt: skip
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    pages = args.pages.split(",")
    spy = None if args.no_profile else shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    spy = spy if spy and Path(spy).exists() else None
    import torch

    caps = torch.backends.cpu.get_cpu_capability()
    sides = {"before": args.before.resolve(), "after": ROOT} if args.before else {"this checkout": ROOT}
    runs: dict[str, list[list[dict]]] = {name: [] for name in sides}
    parts: dict[str, dict] = {}
    for _ in range(args.rounds if args.before else 1):
        for name, root in sides.items():
            rows, sampled = measure(root, pages, args.reruns, spy if name not in parts else None)
            runs[name].append(rows)
            parts.setdefault(name, sampled)
    print(f"\nOne session at a time, {args.reruns} reruns per action, {len(runs[next(iter(runs))])} round(s) "
          f"(medians); CPU capability {caps}, {os.cpu_count()} cores.\n")  # fmt: skip
    table = {name: median_rows(rs) for name, rs in runs.items()}
    names = list(table)
    print("| page | action | " + " | ".join(f"{n}: CPU ms per rerun | {n}: round trip ms" for n in names) + " |")
    print("| --- | --- |" + " ---: | ---: |" * len(names))
    for i, r in enumerate(table[names[0]]):
        cells = " | ".join(f"{table[n][i]['cpu_ms']:.1f} | {table[n][i]['wall_ms']:.0f}" for n in names)
        print(f"| {r['page']} | {r['action']} | {cells} |")
    mixes = {n: mix_of(table[n], pages) for n in names}
    print("\nbench/load.py's mix (its pages and actions, weighted as it picks them), CPU ms per rerun: "
          + ", ".join(f"{n} {m:.1f}" for n, m in mixes.items())
          + (f"; after/before {mixes['after'] / mixes['before']:.2f}" if args.before else ""))  # fmt: skip
    for name, sampled in parts.items():
        if not sampled:
            continue
        total = sum(sampled.values())
        print(f"\n| part of a rerun, {name} (py-spy samples, every thread) | share |\n| --- | ---: |")
        for part, n in sorted(sampled.items(), key=lambda kv: -kv[1]):
            print(f"| {part} | {n / total * 100:.1f}% |")
    print(json.dumps(dict(cpu_capability=caps, rows=table, mix_cpu_ms=mixes, parts=parts)))


if __name__ == "__main__":
    main()
