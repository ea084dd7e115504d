"""N Attention Lab replicas behind HAProxy on this machine (issue 21): `make replicas N=3`.

Each replica is `streamlit run app.py` on a free local port with MALLOC_ARENA_MAX=2 (as `make run`) and
ATTENTION_LAB_REPLICA=r<k>, which app.py shows in the page's About text, so a client can tell which replica
ran its script. HAProxy runs as a child with deploy/haproxy.cfg, its `bind`, `stats socket` and `server` lines
rewritten for these replicas; it inserts its own stickiness cookie and health-checks /_stcore/health. Ctrl-C
or SIGTERM stops everything. Logs (one per replica, haproxy.log) go to --log-dir.

The rest of the environment passes through: ATTENTION_LAB_DB (a class database the replicas share; by
default they share one SQLite file in the user's data directory), ATTENTION_LAB_CACHE, ATTENTION_LAB_MODELS.

Also a library: bench/proxy_load.py and tests/test_replicas.py use `Replicas` as a context manager.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "deploy" / "haproxy.cfg"
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
COOKIE = "lab_replica"  # deploy/haproxy.cfg: `cookie lab_replica insert ...`
HEADER = "X-Attention-Lab-Replica"  # deploy/haproxy.cfg: `http-response set-header ...`


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def haproxy_config(port: int, servers: dict[str, int], sock: Path, host: str = "*") -> str:
    """deploy/haproxy.cfg for these replicas: its bind, stats socket and server lines replaced."""
    text = CONFIG.read_text()
    text = re.sub(r"^(\s*)bind \S+", rf"\g<1>bind {host}:{port}", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)stats socket \S+", rf"\g<1>stats socket {sock}", text, count=1, flags=re.M)
    lines = [f"    server {name} 127.0.0.1:{p} cookie {name}" for name, p in servers.items()]
    text, n = re.subn(r"(^\s*server r\d+ .*\n)+", "\n".join(lines) + "\n", text, count=1, flags=re.M)
    assert n == 1, "deploy/haproxy.cfg has no `server r1 ...` lines to replace"
    return text


class Replicas:
    """Starts N replicas and HAProxy; `with Replicas(3) as r:` serves http://127.0.0.1:<r.port>."""

    def __init__(self, n: int, port: int | None = None, log_dir: Path | None = None, env: dict | None = None,
                 host: str = "127.0.0.1", cpus: list[str] | None = None):  # fmt: skip
        self.n, self.port, self.host = n, port or free_port(), host
        self.log_dir = Path(log_dir or tempfile.mkdtemp(prefix="attention-lab-replicas-"))
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.env = dict(os.environ if env is None else env)
        self.env.setdefault("MALLOC_ARENA_MAX", "2")  # as `make run`: see the Makefile
        self.cpus = cpus  # `taskset -c cpus[k % len]` for replica k (bench/proxy_load.py --pin)
        self.servers: dict[str, int] = {}  # replica name -> its local port
        self.procs: dict[str, subprocess.Popen] = {}
        self.haproxy: subprocess.Popen | None = None
        self.sock = self.log_dir / "haproxy.sock"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start_replica(self, name: str) -> subprocess.Popen:
        env = dict(self.env, ATTENTION_LAB_REPLICA=name)
        cmd = [PYTHON, "-m", "streamlit", "run", "app.py", "--server.port", str(self.servers[name]),
               "--server.address", "127.0.0.1", "--server.headless", "true",
               "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false",
               "--client.showErrorDetails", "none"]  # fmt: skip
        if self.cpus:
            cmd = ["taskset", "-c", self.cpus[(int(name[1:]) - 1) % len(self.cpus)], *cmd]
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115  (the child holds it)
        self.procs[name] = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)  # fmt: skip
        log.close()
        return self.procs[name]

    def start(self, timeout: float = 90) -> Replicas:
        haproxy = shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if Path(p).exists()), None)
        if not haproxy:
            raise RuntimeError("haproxy is not installed: `apt-get install haproxy` (or `make browser`, as root)")
        self.servers = {f"r{k}": free_port() for k in range(1, self.n + 1)}
        for name in self.servers:
            self.start_replica(name)
        cfg = self.log_dir / "haproxy.cfg"
        cfg.write_text(haproxy_config(self.port, self.servers, self.sock, self.host))
        log = open(self.log_dir / "haproxy.log", "ab")  # noqa: SIM115
        self.haproxy = subprocess.Popen([haproxy, "-db", "-f", str(cfg)], stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)  # fmt: skip
        log.close()
        self.wait_up(set(self.servers), timeout)
        return self

    def wait_up(self, names: set[str], timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            dead = [n for n, p in self.procs.items() if n in names and p.poll() is not None]
            if dead or (self.haproxy and self.haproxy.poll() is not None):
                raise RuntimeError(f"exited at start: {dead or 'haproxy'}; logs in {self.log_dir}")
            with contextlib.suppress(OSError):
                if all(state == "UP" for name, state in self.states(checked=True).items() if name in names):
                    return
            time.sleep(0.3)
        raise RuntimeError(f"not healthy within {timeout:.0f} s: {self.states()}; logs in {self.log_dir}")

    def states(self, checked: bool = False) -> dict[str, str]:
        """HAProxy's view of each replica (UP, DOWN, ...), from its stats socket. HAProxy lists a server UP from its
        start, before its first health check has run: `checked` counts a replica UP only once a check has passed
        (a start that waited for UP alone returned while the replicas were not listening yet, and the first browser
        got a 503: tests/test_replicas.py, issue 41)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.sock))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
        rows = [r for r in rows if r["pxname"] == "replicas" and r["svname"] in self.servers]
        unchecked = {r["svname"] for r in rows if checked and r["check_status"] != "L7OK"}
        return {r["svname"]: "UNCHECKED" if r["svname"] in unchecked else r["status"].split()[0] for r in rows}

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.procs[name].pid, sig)
        self.procs[name].wait(timeout=30)

    def stop(self) -> None:
        procs = [*self.procs.values(), *([self.haproxy] if self.haproxy else [])]
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)  # the group: streamlit and anything it started
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)

    def __enter__(self) -> Replicas:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--replicas", type=int, default=3)
    ap.add_argument("--port", type=int, default=8500, help="the proxy's port (default 8500)")
    ap.add_argument("--host", default="*", help="the proxy's address (default: every interface, for a class)")
    ap.add_argument("--log-dir", type=Path, help="default: a new directory under /tmp, kept after the exit")
    args = ap.parse_args()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    r = Replicas(args.replicas, args.port, args.log_dir, host=args.host)
    print(f"starting {args.replicas} replicas and HAProxy; logs in {r.log_dir}", flush=True)
    try:
        with r:
            ports = ", ".join(f"{n} :{p}" for n, p in r.servers.items())
            print(f"http://localhost:{r.port} -> {ports} (Ctrl-C stops everything)", flush=True)
            while not stop:
                if r.haproxy.poll() is not None:
                    sys.exit(f"haproxy exited ({r.haproxy.returncode}); see {r.log_dir}/haproxy.log")
                for name, proc in r.procs.items():
                    if proc.poll() is not None and not getattr(proc, "reported", False):
                        proc.reported = True
                        print(f"replica {name} exited ({proc.returncode}); HAProxy sends its browsers elsewhere")
                time.sleep(1)
    except KeyboardInterrupt:
        pass
    print("stopped", flush=True)


if __name__ == "__main__":
    main()
