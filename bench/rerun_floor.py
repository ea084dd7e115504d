"""What a rerun costs the server in Streamlit itself, with no app around it (issue 40): the floor under
bench/rerun_cpu.py's numbers.

Bare apps, written to a temporary folder and served as the app is (no file watcher, no post-run GC), each driven by one
protocol client (bench/st_client.py) that types a new prompt into its text box --reruns times: server CPU seconds per
rerun from /proc, as bench/rerun_cpu.py reads them. The apps step towards the Explorer's prompt rerun: a text box
alone; the box in a fragment (the Explorer's prompt box is in a page part, ui/body.page_part); 17 Markdown elements
under it (the Explorer's prompt rerun sends 17 elements); 200 session-state keys and 30 sidebar widgets beside it. The
last row is the Explorer's own prompt rerun in the app, for comparison.

Usage: .venv/bin/python bench/rerun_floor.py [--reruns 200]    (prints a table; the last line is one JSON object)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402
from bench.server_proc import PYTHON, cpu_s, start_server  # noqa: E402
from bench.st_client import Session  # noqa: E402

APP = """import os
import streamlit as st

for i in range(int(os.environ["KEYS"])):
    st.session_state.setdefault(f"k{i}", i)
for i in range(int(os.environ["SIDEBAR"])):
    st.sidebar.toggle(f"w{i}", key=f"w{i}")


def body():
    p = st.text_input("prompt", key="prompt")
    for i in range(int(os.environ["ELEMENTS"])):
        st.markdown(f"paragraph {i} about {p}")


st.fragment(body)() if os.environ["FRAGMENT"] == "1" else body()
"""
# (what it is, fragment, elements, session-state keys, sidebar widgets)
STEPS = [
    ("a text box", 0, 0, 0, 0),
    ("the box in a fragment", 1, 0, 0, 0),
    ("+ 17 Markdown elements", 1, 17, 0, 0),
    ("+ 200 session-state keys, 30 sidebar widgets", 1, 17, 200, 30),
    ("the same, not in a fragment (the whole script reruns)", 0, 17, 200, 30),
]


@contextlib.contextmanager
def serving(port: int, proc: subprocess.Popen):
    """The server started as proc, once it answers; stopped with its process group afterwards."""
    try:
        bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


async def typing(port: int, page: str, reruns: int, pid: int) -> float:
    s = Session(port, page, seed=1)
    await s.open()
    for _ in range(3):
        await s.rerun((s.move("prompt"),))
    c0 = cpu_s(pid)
    for _ in range(reruns):
        _, errors = await s.rerun((s.move("prompt"),))
        assert not errors, errors
    await s.ws.close()
    return (cpu_s(pid) - c0) / reruns * 1000


def bare(folder: Path, step: tuple, reruns: int) -> float:
    _, fragment, elements, keys, sidebar = step
    port = bl.free_port()
    env = dict(os.environ, FRAGMENT=str(fragment), ELEMENTS=str(elements), KEYS=str(keys), SIDEBAR=str(sidebar))
    cmd = [PYTHON, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.headless", "true", "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false",
           "--runner.postScriptGC", "false"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    with serving(port, proc):
        return asyncio.run(typing(port, "app", reruns, proc.pid))


def explorer(reruns: int) -> float:
    port = bl.free_port()
    with tempfile.TemporaryDirectory(prefix="attention-lab-floor-") as tmp, open(Path(tmp) / "log", "wb") as log:
        proc, _ = start_server(port, str(Path(tmp) / "cache"), log, None)
        with serving(port, proc):
            return asyncio.run(typing(port, "explorer", reruns, proc.pid))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reruns", type=int, default=200)
    args = ap.parse_args()
    import torch

    rows = {}
    with tempfile.TemporaryDirectory(prefix="attention-lab-bare-") as tmp:
        (Path(tmp) / "app.py").write_text(APP)
        for step in STEPS:
            rows[step[0]] = bare(Path(tmp), step, args.reruns)
    rows["the Explorer: a new prompt (bench/rerun_cpu.py's explorer prompt)"] = explorer(args.reruns // 2)
    caps = torch.backends.cpu.get_cpu_capability()
    print(f"\nStreamlit's own cost of a rerun: one session typing, {args.reruns} reruns per row; "
          f"CPU capability {caps}, {os.cpu_count()} cores.\n")  # fmt: skip
    print("| app | server CPU ms per rerun |\n| --- | ---: |")
    for name, ms in rows.items():
        print(f"| {name} | {ms:.2f} |")
    print(json.dumps(dict(cpu_capability=caps, cpu_ms=rows)))


if __name__ == "__main__":
    main()
