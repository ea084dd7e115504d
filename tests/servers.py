"""A real app server for the tests that drive it with protocol clients (bench/st_client.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import bench.browser_latency as bl
from bench.server_proc import start_server


@contextlib.contextmanager
def running(proc: subprocess.Popen, port: int) -> Iterator[None]:
    """Until the block ends: the server answers its health check first; then it and its children stop."""
    try:
        bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)  # the group: the server and e.g. its training child
        proc.wait(timeout=30)


@contextlib.contextmanager
def app_server(tmp: Path) -> Iterator[tuple[int, int]]:
    """app.py with the defaults (bench/server_proc.start_server) on a free port: (port, pid)."""
    port = bl.free_port()
    with open(tmp / "server.log", "wb") as log:
        proc, _ = start_server(port, str(tmp / "cache"), log, 1)
    with running(proc, port):
        yield port, proc.pid
