"""store: the class database (issue 19). SQLAlchemy Core on SQLite (default) or PostgreSQL.

Never imports streamlit, ui, lessons or viz: bench scripts and tests use it without a server, and the
pages call it only through ui/classroom.py, which keeps it off the rerun path's critical line.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from .core import Store
from .engine import normalize_url
from .security import ALPHABET, CODE_BITS, CODE_LEN, display_code, normalize_code
from .types import (
    KINDS,
    ClassInfo,
    ClassState,
    ClassSummary,
    Event,
    JoinRefused,
    SchemaTooNew,
    StepStats,
    StoreUnavailable,
    Student,
    StudentRow,
)

__all__ = [
    "ALPHABET", "CODE_BITS", "CODE_LEN", "KINDS", "ClassInfo", "ClassState", "ClassSummary", "Event",
    "JoinRefused", "SchemaTooNew", "StepStats", "Store", "StoreUnavailable", "Student", "StudentRow",
    "database_url", "display_code", "normalize_code", "open_store",
]  # fmt: skip


def database_url() -> str:
    """$ATTENTION_LAB_DB, else a SQLite file in the user's data directory (make run needs nothing more)."""
    url = os.environ.get("ATTENTION_LAB_DB", "").strip()
    if url:
        return normalize_url(url)
    import platformdirs

    return f"sqlite:///{Path(platformdirs.user_data_dir('attention-lab')) / 'classes.sqlite3'}"


_stores: dict[str, Store] = {}
_lock = threading.Lock()


def open_store(url: str | None = None) -> Store:
    """One Store (one connection pool, one cool-down, one failed-join counter) per URL per process."""
    key = normalize_url(url or database_url())
    with _lock:
        if key not in _stores:
            _stores[key] = Store(key)
        return _stores[key]
