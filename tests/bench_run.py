"""Run a bench/ script as a reader of its output would: its table, then one JSON object on the last line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def run_bench(args: list[str], home: Path | None = None, timeout: int = 300) -> tuple[dict, list[str]]:
    """(the last line's JSON object, every line) of `python bench/<args>` run from the project's folder; with
    `home`, in a bare environment (PATH and HOME only), as a fresh shell would start it. Fails on a non-zero exit."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)} if home is not None else None
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    return json.loads(lines[-1]), lines
