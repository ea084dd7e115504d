"""A class answering a lesson at once (issue 19), run by `bench/load.py --class`: N protocol students join
one class with its code and a name, answer a 5-step lesson of predict questions (each answer is a rerun
whose round trip is timed, and counts as acknowledged only when the page says it was saved), then the
database is read: every acknowledged answer must be stored. Then the teacher's view is timed with
--teacher-students students' answers stored: its timer-driven fragment run, as the browser sends it.

The database: $ATTENTION_LAB_DB, else a new SQLite file; with --replicas 2 (or more) and no
$ATTENTION_LAB_DB, a throwaway PostgreSQL cluster (bench/pg_cluster.py) that the replicas share, each
student connecting straight to replica i % N (the proxy comes with issue 21).

Prints its table, then as the last line one JSON object: answers_sent, answers_acked, answers_stored,
errors, p95_ms (and more), so a script can check it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import sqlalchemy as sa
import websockets
from streamlit.proto.WidgetStates_pb2 import WidgetState

import bench.browser_latency as bl
from bench.server_proc import start_server
from bench.st_client import Session
from store import Store
from store.engine import normalize_url
from store.schema import events

STEPS = 5
PAGES = ("explorer", "masks", "softmax", "explorer", "masks")  # light pages: the lesson's figures are cheap
TIMEOUT_S = 60
# Between a student's actions: reading a question and choosing takes seconds (the toy load's 1 s is a
# student dragging a slider). 40 students at 1 s offer ~40 runs/s, beyond what 2 cores serve (~27/s).
CLASS_THINK_S = 3.0
# An answer is acknowledged when the page shows its verdict (ui/strings/guides.py, English), which the app
# draws only after the database committed it, and not the notice that it could not be saved.
ACKS = ("Right:", "Not quite:", "Your answer is in")
NOT_SAVED = "could not be saved"


def lesson_toml() -> str:
    """A 5-step lesson of multiple-choice predictions on the toy decoder."""
    steps = []
    for k, page in enumerate(PAGES, 1):
        steps.append(f"""
[[steps]]
page = "{page}"
params = {{ model = "decoder" }}
title = {{ en = "Step {k}", zh = "第 {k} 步" }}
text = {{ en = "A bench step.", zh = "基准测试的一步。" }}

[steps.predict]
question = {{ en = "Which one?", zh = "哪一个？" }}
choices = [ {{ en = "one", zh = "一" }}, {{ en = "two", zh = "二" }}, {{ en = "three", zh = "三" }} ]
answer = 2
why = {{ en = "Because.", zh = "因为。" }}
""")
    return 'title = { en = "Bench class", zh = "基准课堂" }\n' + "".join(steps)


def a_class(tmp: Path, url: str):
    """The bench lesson written to tmp/guides and a class started for it in the database at url: (the
    class, the teacher's token, the environment a server needs to serve it)."""
    (tmp / "guides").mkdir(exist_ok=True)
    (tmp / "guides" / "bench-class.toml").write_text(lesson_toml(), encoding="utf-8")
    info, token = Store(url).start_class("bench-class", STEPS)
    return info, token, {"ATTENTION_LAB_DB": url, "ATTENTION_LAB_GUIDES": str(tmp / "guides")}


def trigger(session: Session, key: str) -> WidgetState:
    return WidgetState(id=session.widgets[key][1].id, trigger_value=True)


def text_value(session: Session, key: str, value: str) -> WidgetState:
    return WidgetState(id=session.widgets[key][1].id, string_value=value)


async def student(i: int, port: int, code: str, think: float, out: dict) -> None:
    """Joins, then answers every step (a random choice), pausing `think` s ±50% between actions."""
    s, rng = Session(port, "guides", urlencode({"join": code}), seed=i), random.Random(i)
    await asyncio.sleep(i * 0.05)  # a class arrives over a couple of seconds
    try:
        _, errs = await asyncio.wait_for(s.open(), TIMEOUT_S)
        out["errors"] += [f"open: {e}" for e in errs]
        changes = (text_value(s, "cj_code", code), text_value(s, "cj_name", f"student {i:03d}"), trigger(s, "cj_go"))
        _, errs = await asyncio.wait_for(s.rerun(changes), TIMEOUT_S)
        out["errors"] += [f"join: {e}" for e in errs]
        for step in range(STEPS):
            if "gp_choice" not in s.widgets:
                out["errors"].append(f"student {i}, step {step + 1}: no question on the page")
                return
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            radio = s.widgets["gp_choice"][1]
            pick = WidgetState(id=radio.id, string_value=rng.choice(list(radio.options)))
            ms, errs = await asyncio.wait_for(s.rerun((pick, trigger(s, "gp_send"))), TIMEOUT_S)
            out["sent"] += 1
            out["ms"].append(ms)
            out["errors"] += [f"answer: {e}" for e in errs]
            verdict = any(body.startswith(ACKS) for body in s.texts)
            out["acked"] += verdict and not any(NOT_SAVED in body for body in s.texts)
            if step + 1 < STEPS:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                _, errs = await asyncio.wait_for(s.rerun((trigger(s, "guide_next"),)), TIMEOUT_S)
                out["errors"] += [f"next: {e}" for e in errs]
    except (TimeoutError, KeyError, websockets.ConnectionClosed, OSError) as e:
        out["errors"].append(f"student {i} ended: {type(e).__name__} {e}")
    finally:
        if s.ws is not None:
            await s.ws.close()


def fill(store: Store, code: str, n: int) -> None:
    """n students' answers to every step, written through the store as the app writes them."""
    for i in range(n):
        pupil = store.join(code, f"pupil {i:03d}", address="bench")
        for step in range(STEPS):
            store.record(pupil, step, "predict", str(i % 3), i % 3 == 1)


async def warm(port: int) -> None:
    """Each page of the lesson once, as the server has it after a first class: the models loaded and the
    figures' caches filled, so the table measures answering, not a cold start (measured separately)."""
    for page in dict.fromkeys(PAGES):
        s = Session(port, page, urlencode({"model": "decoder"}))
        await asyncio.wait_for(s.open(), TIMEOUT_S)
        await s.ws.close()


async def teacher_view(port: int, token: str, refreshes: int) -> tuple[list[float], list[str], float, list[str]]:
    """The teacher link's page (its first run), then its fragment's timer-driven runs, one after another."""
    s = Session(port, "guides", urlencode({"teach": token}))
    errors, times = [], []
    try:
        first, errs = await asyncio.wait_for(s.open(), TIMEOUT_S)
        errors += errs
        shown = list(s.texts)
        if not s.fragments:
            return [], [*errors, "the teacher's page has no self-refreshing fragment"], first, shown
        fragment = next(iter(s.fragments))
        for _ in range(refreshes):
            ms, errs = await asyncio.wait_for(s.rerun(fragment=fragment), TIMEOUT_S)
            times.append(ms)
            errors += errs
    finally:
        if s.ws is not None:
            await s.ws.close()
    return times, errors, first, shown


def stored_answers(url: str, class_id: int) -> int:
    """Rows in the database after the run, read with a connection of our own (not the app's)."""
    with sa.create_engine(normalize_url(url)).connect() as conn:
        query = sa.select(sa.func.count()).select_from(events).where(events.c.class_id == class_id)
        return conn.execute(query.where(events.c.kind == "predict")).scalar_one()


@contextlib.contextmanager
def database(replicas: int, tmp: Path):
    """$ATTENTION_LAB_DB, else SQLite in tmp (one replica) or a throwaway PostgreSQL (several)."""
    if os.environ.get("ATTENTION_LAB_DB"):
        yield os.environ["ATTENTION_LAB_DB"], "ATTENTION_LAB_DB"
    elif replicas == 1:
        yield f"sqlite:///{tmp / 'classes.sqlite3'}", "SQLite (embedded, a new file)"
    else:
        from bench.pg_cluster import cluster

        with cluster() as pg:
            yield pg.url, "PostgreSQL (a throwaway cluster)"


def pct95(xs: list[float]) -> float:
    return bl.p95(xs) if len(xs) > 1 else float("nan")


def run(args) -> dict:
    with tempfile.TemporaryDirectory(prefix="attention-lab-class-") as tmp_name:
        tmp = Path(tmp_name)
        with database(args.replicas, tmp) as (url, db_label):
            info, _, env = a_class(tmp, url)
            other, token, _ = a_class(tmp, url)  # the teacher view's class
            fill(Store(url), other.code, args.teacher_students)
            os.environ.update(env)
            servers, ports = [], [bl.free_port() for _ in range(args.replicas)]
            try:
                for k, port in enumerate(ports):
                    log = open(tmp / f"server{k}.log", "wb")  # noqa: SIM115  (closed with the process)
                    servers.append(start_server(port, str(tmp / "cache"), log, args.torch_threads)[0])
                for port, proc in zip(ports, servers, strict=True):
                    bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
                    asyncio.run(warm(port))
                out = {"sent": 0, "acked": 0, "ms": [], "errors": []}
                t0 = time.monotonic()

                async def everyone():
                    await asyncio.gather(*(student(i, ports[i % len(ports)], info.code, args.think, out)
                                           for i in range(args.students)))  # fmt: skip

                asyncio.run(asyncio.wait_for(everyone(), args.seconds))
                wall = time.monotonic() - t0
                view_ms, view_errors, view_first, view_texts = asyncio.run(teacher_view(ports[0], token,
                                                                                        args.refreshes))  # fmt: skip
            finally:
                for proc in servers:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=30)
            stored = stored_answers(url, info.id)
    return dict(out, wall=wall, stored=stored, db=db_label, view_ms=view_ms, view_errors=view_errors,
                view_first=view_first, view_texts=view_texts)  # fmt: skip


def report(args, r: dict) -> dict:
    ms, view = r["ms"], r["view_ms"]
    print(f"\n{args.students} protocol students, a {STEPS}-step lesson of predictions, think {args.think:g} s ±50%, "
          f"{args.replicas} replica(s), database: {r['db']}\n")  # fmt: skip
    print("| students | replicas | answers sent | acknowledged | stored | lost | errors | median ms | p95 ms "
          "| max ms | wall s |\n|" + " ---: |" * 11)  # fmt: skip
    lost = r["acked"] - r["stored"] if r["stored"] < r["acked"] else 0
    mid = sorted(ms)[len(ms) // 2] if ms else float("nan")
    print(f"| {args.students} | {args.replicas} | {r['sent']} | {r['acked']} | {r['stored']} | {lost} "
          f"| {len(r['errors'])} | {mid:.0f} | {pct95(ms):.0f} | {max(ms, default=float('nan')):.0f} "
          f"| {r['wall']:.0f} |")  # fmt: skip
    view_mid = sorted(view)[len(view) // 2] if view else float("nan")
    counted = f"{args.teacher_students} students joined" in " ".join(r["view_texts"])  # ui/strings/classroom.py
    print(f"\nTeacher's view with {args.teacher_students} students' answers stored ({args.teacher_students * STEPS} "
          f"answers; the view {'shows' if counted else 'does NOT show'} all {args.teacher_students}): first run "
          f"{r['view_first']:.0f} ms; {len(view)} fragment refreshes, median {view_mid:.0f} ms, "
          f"p95 {pct95(view):.0f} ms, max {max(view, default=float('nan')):.0f} ms.")  # fmt: skip
    view_ok = pct95(view) <= 500 and r["view_first"] <= 500 and counted
    targets = {"0 errors": not r["errors"] and not r["view_errors"], "0 lost": lost == 0 and r["stored"] == r["sent"],
               "answer p95 <= 300 ms": pct95(ms) <= 300, "teacher view <= 500 ms": view_ok}  # fmt: skip
    print("\nTargets: " + "; ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in targets.items()))
    errors = r["errors"] + r["view_errors"]
    for e in sorted(set(errors), key=errors.count, reverse=True)[:8]:
        print(f"error ({errors.count(e)}x): {e}")
    return {"answers_sent": r["sent"], "answers_acked": r["acked"], "answers_stored": r["stored"],
            "errors": len(errors), "p95_ms": round(pct95(ms), 1), "median_ms": round(mid, 1),
            "teacher_view_p95_ms": round(pct95(view), 1), "students": args.students, "replicas": args.replicas,
            "database": r["db"], "targets_met": all(targets.values())}  # fmt: skip


def main(args) -> None:
    args.think = CLASS_THINK_S if args.think is None else args.think
    result = report(args, run(args))
    print(json.dumps(result))
