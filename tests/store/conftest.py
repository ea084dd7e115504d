"""The same store tests on SQLite and on a real PostgreSQL server (one throwaway cluster per session).

Every test gets an empty database of its own: a SQLite file in tmp_path, or a new database on the
session's cluster (about 40 ms). PostgreSQL tests skip, with the reason, only where the server cannot
run (not installed: `make test` installs Debian's postgresql).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from bench import pg_cluster
from store import Store
from store.engine import normalize_url

_names = itertools.count()


@pytest.fixture(scope="session")
def pg() -> Iterator[pg_cluster.Cluster]:
    cm = pg_cluster.cluster()
    try:
        cluster = cm.__enter__()
    except pg_cluster.PostgresUnavailable as e:
        pytest.skip(f"PostgreSQL cannot run here: {e}")
    try:
        yield cluster
    finally:
        cm.__exit__(None, None, None)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    return request.getfixturevalue("pg").new_database(f"t{next(_names)}")


@pytest.fixture
def store(db_url) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.dispose()


def count(url: str, sql: str) -> int:
    """Read through a second, independent engine: what another replica would see."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql)).scalar_one()
    finally:
        engine.dispose()
