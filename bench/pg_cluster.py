"""A throwaway PostgreSQL server for tests and bench scripts (issue 19: tests against a real server).

As root (tests here run as root, and initdb refuses root) the cluster's directory belongs to the
`postgres` user and every server command runs through `runuser -u postgres`; as another user, as
that user. It listens on 127.0.0.1 on a free port (socket in its own directory, so it never meets
the system's cluster), trusts local connections, and is stopped and deleted at the end.

    with pg_cluster.cluster() as pg:      # PostgresUnavailable when it cannot run (tests then skip)
        store = Store(pg.url)             # postgresql+psycopg://postgres@127.0.0.1:PORT/attention_lab
        pg.stop(); pg.start()             # a database that goes down and comes back

`python bench/pg_cluster.py` starts one and prints its URL until Ctrl-C (for bench/load.py runs).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """PostgreSQL is not installed or cannot run here; the message says which and how to fix it."""


def bindir() -> Path | None:
    """The newest /usr/lib/postgresql/<version>/bin holding initdb (Debian's layout), or $PG_BINDIR."""
    if os.environ.get("PG_BINDIR"):
        return Path(os.environ["PG_BINDIR"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, root: Path, bin_: Path, port: int, dbname: str, as_user: list[str]):
        self.root, self.bin, self.port, self.dbname, self._as = root, bin_, port, dbname, as_user
        self.data, self.log = root / "data", root / "server.log"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/{dbname}"

    def _run(self, *args: str, timeout: float = 60) -> str:
        cmd = [*self._as, str(self.bin / args[0]), *args[1:]]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if p.returncode:
            tail = self.log.read_text()[-800:] if self.log.exists() else ""
            raise PostgresUnavailable(f"{' '.join(args[:2])} failed: {(p.stderr or p.stdout).strip()}\n{tail}")
        return p.stdout

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30", "-o", opts, "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "30", "stop")

    def running(self) -> bool:
        cmd = [*self._as, str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]
        return subprocess.run(cmd, capture_output=True, cwd=self.root).returncode == 0

    def psql(self, sql: str, dbname: str | None = None) -> str:
        """Run SQL as the superuser (tests: create a database per test, read raw rows)."""
        return self._run("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d",
                         dbname or self.dbname, "-XAtq", "-v", "ON_ERROR_STOP=1", "-c", sql)  # fmt: skip

    def new_database(self, name: str) -> str:
        """A fresh empty database on this server; returns its URL."""
        self.psql(f'CREATE DATABASE "{name}"', dbname="postgres")
        return self.url.rsplit("/", 1)[0] + "/" + name


@contextlib.contextmanager
def cluster(dbname: str = "attention_lab") -> Iterator[Cluster]:
    bin_ = bindir()
    if bin_ is None:
        raise PostgresUnavailable(
            "PostgreSQL is not installed (Debian: apt-get install postgresql; `make test` does it)"
        )
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError as e:
            raise PostgresUnavailable("running as root and there is no `postgres` user to own the cluster") from e
        if not shutil.which("runuser"):
            raise PostgresUnavailable("running as root without `runuser` to start the server as postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="attention-lab-pg-"))
    c = Cluster(root, bin_, free_port(), dbname, as_user)
    try:
        if as_user:
            os.chown(root, owner.pw_uid, owner.pw_gid)
        os.chmod(root, 0o700)
        c._run(
            "initdb", "-D", str(c.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"
        )
        c.start()
        c.psql(f'CREATE DATABASE "{dbname}"', dbname="postgres")
        yield c
    finally:
        with contextlib.suppress(Exception):
            if c.running():
                c._run("pg_ctl", "-D", str(c.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    t0 = time.perf_counter()
    with cluster() as pg:
        print(f"PostgreSQL up in {time.perf_counter() - t0:.1f} s: ATTENTION_LAB_DB={pg.url}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    sys.exit(0)
