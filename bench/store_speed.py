"""How long the class database takes: one answer's commit, 40 students at once, the teacher's summary.

    .venv/bin/python bench/store_speed.py            # SQLite (a temp file) and a throwaway PostgreSQL
Prints one table row per database (issue 19: an answer's round trip p95 ≤ 300 ms, the teacher's view
≤ 500 ms per refresh with 200 students' answers stored).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import pg_cluster  # noqa: E402

from store import Store  # noqa: E402


def ms(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1e3


def measure(url: str) -> dict[str, float]:
    store = Store(url)
    info, _ = store.start_class("bench", 5)
    one = store.join(info.code, "solo")
    single = []
    for i in range(100):
        t0 = time.perf_counter()
        store.record(one, i % 5, "predict", "1", True)
        single.append(time.perf_counter() - t0)
    students = [store.join(info.code, f"student {i}") for i in range(200)]
    burst, go = [], threading.Barrier(40)

    def answer(group):
        go.wait()
        for s in group:
            for step in range(5):
                t0 = time.perf_counter()
                store.record(s, step, "predict", str(step % 3), step % 2 == 0)
                burst.append(time.perf_counter() - t0)

    threads = [threading.Thread(target=answer, args=(students[i::40],)) for i in range(40)]
    t_burst = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t_burst = time.perf_counter() - t_burst
    views = []
    for _ in range(10):
        t0 = time.perf_counter()
        store.summary(info.id)
        views.append(time.perf_counter() - t0)
    store.dispose()
    return {"record p50": ms(single, 0.5), "record p95": ms(single, 0.95), "40 at once p95": ms(burst, 0.95),
            "answers/s": len(burst) / t_burst, "summary (200×5) p50": statistics.median(views) * 1e3}  # fmt: skip


def main() -> None:
    rows = {}
    with tempfile.TemporaryDirectory() as d:
        rows["SQLite"] = measure(f"sqlite:///{d}/classes.sqlite3")
    try:
        with pg_cluster.cluster() as pg:
            rows[f"PostgreSQL ({pg.bin.parts[-2]})"] = measure(pg.url)
    except pg_cluster.PostgresUnavailable as e:
        print(f"PostgreSQL skipped: {e}")
    cols = list(next(iter(rows.values())))
    print(f"{'database':<18}" + "".join(f"{c:>22}" for c in cols))
    for name, r in rows.items():
        print(f"{name:<18}" + "".join(f"{r[c]:>19.1f} {'/s' if c == 'answers/s' else 'ms'}" for c in cols))


if __name__ == "__main__":
    main()
