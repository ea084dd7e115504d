"""A trained variant's lock in a cache folder that several servers may share (a volume under replicas).

flock, not a marker file: the kernel releases it when the holder exits, even killed with SIGKILL, so no stale
lock ever blocks a run. The server takes it when a student clicks Train (try_claim) and hands it to the
training child, so of two replicas asked at once the first click trains and the other waits, whichever child
process gets going first.
"""

from __future__ import annotations

import fcntl
from pathlib import Path

from .jobs import report


def held(path: Path) -> bool:
    """Whether a training child (of any process sharing the folder) holds this variant's lock now."""
    try:
        with open(path, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:  # no such folder, read-only: nobody can be writing there
        return False
    return False


def try_claim(path: Path):
    """(the variant's lock as an open file, False) when this process could take it now; (None, True) when another
    process holds it; (None, False) when the folder cannot hold a lock (the child then decides, as before)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path, "a")  # noqa: SIM115  (handed to the child, which keeps it open)
    except OSError:
        return None, False
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        return None, True
    except OSError:
        f.close()
        return None, False
    return f, False


def claim(path: Path):
    """The variant's lock for this training child, an open file (flock: released by the kernel when the
    child exits, even killed with SIGKILL, so no stale lock ever blocks a run). When another process holds
    it, report "elsewhere" and wait for it. None when the folder cannot hold a lock (unwritable cache)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path, "a")  # noqa: SIM115  (kept open: the lock lives as long as the file)
    except OSError:
        return None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        report({"elsewhere": True})
        fcntl.flock(f, fcntl.LOCK_EX)
    return f
