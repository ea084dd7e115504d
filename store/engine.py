"""Engines with short timeouts, and the cool-down that keeps reruns from waiting on a dead server.

SQLite: WAL (readers never wait for a writer), synchronous=FULL (a commit is on disk when it
returns: an acknowledged answer survives a crash), a 2 s busy timeout, and BEGIN IMMEDIATE for
write transactions, so two writers queue on the lock instead of one failing when it upgrades from
read to write. PostgreSQL (psycopg 3): connect timeout 3 s, statement timeout 5 s, a pre-ping so a
restarted server costs one reconnect instead of an error.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url

from .types import StoreUnavailable

COOL_DOWN_S = 15.0


def normalize_url(url: str) -> str:
    """postgresql:// and postgres:// mean psycopg 3 here (SQLAlchemy's default driver is psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def safe_url(url: URL | str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL: say nothing of it
        return "(unparsable URL)"


def make_engine(url: str) -> Engine:
    u = make_url(normalize_url(url))
    backend = u.get_backend_name()
    if backend == "sqlite":
        if u.database and u.database != ":memory:":
            try:
                Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreUnavailable(f"cannot create the folder of {safe_url(u)}: {e.strerror}") from e
        engine = create_engine(u, connect_args={"timeout": 2.0}, pool_size=10, max_overflow=40, pool_timeout=3)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if backend == "postgresql":
        if u.get_driver_name() != "psycopg":
            u = u.set(drivername="postgresql+psycopg")
        args = {"connect_timeout": 3, "options": "-c statement_timeout=5000 -c lock_timeout=3000"}
        return create_engine(u, connect_args=args, pool_pre_ping=True, pool_size=10, max_overflow=30, pool_timeout=3)
    raise StoreUnavailable(f"unsupported class database {safe_url(u)}: use sqlite:/// or postgresql://")


def _sqlite_connect(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (_sqlite_begin)
    cur = dbapi_conn.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=2000"):
        cur.execute(f"PRAGMA {pragma}")
    cur.close()


def _sqlite_begin(conn) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")


class CoolDown:
    """After a connection failure, refuse at once for COOL_DOWN_S instead of retrying on every rerun."""

    def __init__(self, seconds: float = COOL_DOWN_S):
        self.seconds = seconds
        self._until = 0.0
        self._why = ""
        self._lock = threading.Lock()

    def check(self) -> None:
        with self._lock:
            left = self._until - time.monotonic()
            if left > 0:
                raise StoreUnavailable(f"{self._why} (next try in {left:.0f} s)")

    def trip(self, why: str) -> None:
        with self._lock:
            self._until, self._why = time.monotonic() + self.seconds, why

    def reset(self) -> None:
        with self._lock:
            self._until = 0.0
