"""Start the app as a server process and read its memory, CPU and threads from /proc (bench/load.py)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable


def start_server(
    port: int, cache: str, log, threads: int | None, models: str = "", root: Path = ROOT, extra_env: dict | None = None
) -> tuple[subprocess.Popen, dict]:
    """The app of the checkout `root` (another one: a before/after bench, bench/rerun_cpu.py --before)."""
    env = dict(os.environ, ATTENTION_LAB_CACHE=cache, ATTENTION_LAB_MODELS=models, **(extra_env or {}))
    env.setdefault("MALLOC_ARENA_MAX", "2")  # as `make run` and the Dockerfile start the app
    if threads:
        env |= {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    cmd = [PYTHON, "-m", "streamlit", "run", "app.py",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
           "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, env


def stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()  # after "pid (comm)"


def status_field(pid: int, field: str) -> int:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:  # the process has ended
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith(field + ":")), 0)


def rss_mb(pid: int) -> float:
    """Resident memory of the server and every process it started (by parent pid, from /proc)."""
    children: dict[int, list[int]] = {}
    for p in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError):  # a process that ended meanwhile
            children.setdefault(int(stat_fields(int(p.name))[1]), []).append(int(p.name))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo += children.get(tree[-1], [])
    return sum(status_field(p, "VmRSS") for p in tree) / 1024


def cpu_s(pid: int) -> float:
    return (int(stat_fields(pid)[11]) + int(stat_fields(pid)[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def torch_threads_in(env: dict) -> str:
    """torch's thread settings as the server has them: same interpreter, environment and app import
    (ui.loaders sets one intra-op thread per process)."""
    code = "import ui.loaders, torch; print(torch.get_num_threads(), torch.get_num_interop_threads())"
    out = subprocess.run([PYTHON, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True).stdout
    intra, inter = out.split()[-2:]
    return f"torch.get_num_threads() = {intra}, get_num_interop_threads() = {inter}"
