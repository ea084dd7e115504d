"""One misbehaving client among a class (issue 21, point 3): does it make the others wait?

39 well-behaved protocol sessions (as bench/load.py's: the same pages and actions, think 1 s ±50%) run
the whole time on one server. The time is cut into windows: for each misbehaviour a window without it
(the baseline, measured just before, so the machine's other load is alike) and a window with it. A
case is within when the well-behaved sessions' p95 with it is at most 1.5x the p95 of its baseline.

The misbehaviours (one client each; it shares this machine's two cores with the server, like the 39):
- flood:  one session fires reruns of the Explorer with a new prompt without waiting for any answer;
- prompt: one session sends a 1 MB prompt through the websocket (not the URL) on every rerun;
- connections: one client opens 100 websocket sessions at once (each opens a page) and holds them;
- train:  one session clicks the Architecture lab's Train button 1,000 times without waiting.

Prints a table, then as the last line one JSON object {"cases", "within", "baseline_p95_ms", ...};
exits 1 when a case is not within.

Usage: .venv/bin/python bench/abuse.py [--sessions 39] [--think 1] [--seconds 40] [--warmup 20]
       [--cases flood,prompt,connections,train] [--flood-pause 0]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402
from bench.server_proc import start_server  # noqa: E402
from bench.st_client import Session  # noqa: E402

PAGES = ["explorer", "explorer", "explorer", "masks", "softmax"]  # as bench/load.py
CASES = ["flood", "prompt", "connections", "train"]  # train last: its one job keeps a core busy a while
LIMIT = 1.5  # the well-behaved p95 with the misbehaviour, at most this times the baseline
TIMEOUT_S = 60
BIG_PROMPT = ("the cats that the dog sees are happy . " * 26_000)[:1_000_000]  # 1 MB of ASCII
CONNECTIONS = 100
CLICKS = 1_000


def backmsg(s: Session, changes: list[WidgetState]) -> bytes:
    """The rerun a browser would send for s with these changes (as Session.rerun builds it), not sent."""
    msg = BackMsg()
    cs = msg.rerun_script
    cs.query_string, cs.page_script_hash, cs.page_name = s.query, s.page_hash, ""
    cs.context_info.timezone, cs.context_info.locale = "UTC", "en-US"
    cs.context_info.url = f"http://127.0.0.1:{s.port}/{s.page}"
    cs.widget_states.widgets.extend((s.states | {c.id: c for c in changes}).values())
    return msg.SerializeToString()


async def drain(s: Session) -> None:
    """Read (and drop) what the server sends, as a browser's socket would: a client that stops
    reading is a different fault (the server's send buffer), not the one measured here."""
    with contextlib.suppress(websockets.ConnectionClosed):
        while True:
            await s.ws.recv()


# ----------------------------------------------------------------- the misbehaving clients


async def flood(port: int, until: float, args) -> str:
    s = Session(port, "explorer", seed=999)
    await s.open()
    reader, sent = asyncio.create_task(drain(s)), 0
    while time.monotonic() < until:
        await s.ws.send(backmsg(s, [s.move("prompt")]))
        sent += 1
        await asyncio.sleep(args.flood_pause)
    reader.cancel()
    await s.ws.close()
    return f"{sent} reruns sent in {args.seconds:.0f} s ({sent / args.seconds:.0f}/s), none waited for an answer"


async def big_prompt(port: int, until: float, args) -> str:
    s = Session(port, "explorer", seed=998)
    await s.open()
    times, errors, shown = [], [], set()
    while time.monotonic() < until:
        change = WidgetState(id=s.widgets["prompt"][1].id, string_value=BIG_PROMPT)
        ms, errs = await asyncio.wait_for(s.rerun((change,)), TIMEOUT_S)
        times.append(ms)
        errors += errs
        shown.update(x[:60] for x in s.texts if "character" in x or "token" in x)
        await asyncio.sleep(0.2)
    await s.ws.close()
    answer = "; ".join(sorted(shown))[:160] or "no notice"
    return f"{len(times)} reruns with 1 MB each, answered in median {sorted(times)[len(times) // 2]:.0f} ms, " \
           f"{len(errors)} errors; the page said: {answer}"  # fmt: skip


async def connections(port: int, until: float, args) -> str:
    sessions = [Session(port, "explorer", seed=2000 + i) for i in range(CONNECTIONS)]
    t0 = time.monotonic()
    opened = await asyncio.gather(*(asyncio.wait_for(s.open(), TIMEOUT_S) for s in sessions), return_exceptions=True)
    took = time.monotonic() - t0
    failed = [o for o in opened if isinstance(o, BaseException)]
    errors = sum(len(o[1]) for o in opened if not isinstance(o, BaseException))
    places = max(s.place for s in sessions)
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    for s in sessions:
        if s.ws is not None:
            await s.ws.close()
    return f"{CONNECTIONS} sessions opened at once: all answered after {took:.1f} s, {len(failed)} failed, " \
           f"{errors} page errors, highest queue place shown {places}; held open until the window ended"  # fmt: skip


def training_children(pid: int) -> set[int]:
    """The server's training children (python -m models.variants ...), from /proc."""
    found = set()
    for p in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError):
            ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == pid and b"models.variants" in (p / "cmdline").read_bytes():
                found.add(int(p.name))
    return found


async def train(port: int, until: float, args) -> str:
    s = Session(port, "lab", seed=997)
    await s.open()
    button = next(el for key, (kind, el) in s.widgets.items() if key.endswith("_train"))
    reader = asyncio.create_task(drain(s))
    seen: set[int] = set()
    for i in range(CLICKS):
        await s.ws.send(backmsg(s, [WidgetState(id=button.id, trigger_value=True)]))
        if i % 100 == 0:
            seen |= training_children(args.server_pid)
    while time.monotonic() < until:
        seen |= training_children(args.server_pid)
        await asyncio.sleep(1)
    reader.cancel()
    await s.ws.close()
    return f"{CLICKS} clicks of Train sent at once: {len(seen)} training process(es) started"


MISBEHAVE = {"flood": flood, "prompt": big_prompt, "connections": connections, "train": train}


# ----------------------------------------------------------------- the class


async def class_with(port: int, args) -> tuple[list[tuple[str, float, float]], dict[str, str], list[str]]:
    """Run the 39 sessions for all windows; returns ((window, start, ms) of every rerun, the misbehavers'
    notes, errors)."""
    times: list[tuple[str, float, float]] = []
    errors: list[str] = []
    notes: dict[str, str] = {}
    windows: list[tuple[str, float, float]] = []  # (name, start, end)
    t = time.monotonic() + args.warmup
    for case in args.cases:
        windows += [(f"{case}:baseline", t, t + args.seconds), (case, t + args.seconds, t + 2 * args.seconds)]
        t += 2 * args.seconds + args.settle
    t_end = windows[-1][2]

    def window_of(at: float) -> str | None:
        return next((name for name, a, b in windows if a <= at < b), None)

    async def user(i: int) -> None:
        await asyncio.sleep(i * 0.1)
        s = Session(port, PAGES[i % len(PAGES)], seed=i)
        try:
            _, errs = await asyncio.wait_for(s.open(), TIMEOUT_S)
            errors.extend(errs)
            while time.monotonic() < t_end:
                start = time.monotonic()
                _, ms, errs = await asyncio.wait_for(s.act(), TIMEOUT_S)
                errors.extend(f"{s.page}: {e}" for e in errs)
                if (name := window_of(start)) is not None:
                    times.append((name, start, ms))
                await asyncio.sleep(args.think * s.rng.uniform(0.5, 1.5))
        except (TimeoutError, websockets.ConnectionClosed, OSError) as e:
            errors.append(f"{s.page} session {i} ended: {type(e).__name__} {e}")
        finally:
            if s.ws is not None:
                await s.ws.close()

    async def misbehavers() -> None:
        """Each in a process of its own (at nice 10, as if it were on another machine: its own CPU is not
        the server's to bound), so its loop never delays the well-behaved sessions' clocks here."""
        for name, start, end in windows:
            if name in MISBEHAVE:
                await asyncio.sleep(max(0.0, start - time.monotonic()))
                cmd = [sys.executable, __file__, "--misbehave", name, "--port", str(port), "--seconds",
                       str(end - time.monotonic()), "--server-pid", str(args.server_pid), "--flood-pause",
                       str(args.flood_pause)]  # fmt: skip
                child = await asyncio.create_subprocess_exec("nice", "-n", "10", *cmd, stdout=PIPE, stderr=PIPE)
                out, err = await child.communicate()
                lines = out.decode().strip().splitlines() or err.decode().strip().splitlines()[-1:] or ["?"]
                notes[name] = lines[-1]

    await asyncio.gather(misbehavers(), *(user(i) for i in range(args.sessions)))
    return times, notes, errors


def report(args, times, notes, errors) -> bool:
    def p95(name: str) -> tuple[int, float]:
        xs = [ms for w, _, ms in times if w == name]
        return len(xs), (bl.p95(xs) if len(xs) > 1 else float("nan"))

    print(f"\n{args.sessions} well-behaved protocol sessions (pages {', '.join(PAGES)}, think {args.think:g} s ±50%); "
          f"each window {args.seconds:.0f} s, the baseline just before its case; limit {LIMIT}x.\n")  # fmt: skip
    print("| misbehaviour | reruns without | p95 without ms | reruns with | p95 with ms | ratio | within |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    result, baselines = {}, []
    for case in args.cases:
        (n0, base), (n1, with_) = p95(f"{case}:baseline"), p95(case)
        ratio = with_ / base
        ok = ratio <= LIMIT
        baselines.append(base)
        result[case] = {"p95_ms": round(with_), "baseline_p95_ms": round(base), "ratio": round(ratio, 2), "within": ok}
        print(f"| {case} | {n0} | {base:.0f} | {n1} | {with_:.0f} | {ratio:.2f} | {'yes' if ok else 'NO'} |")
    print()
    for case in args.cases:
        print(f"- {case}: {notes.get(case, 'did not run')}")
    print(f"\nErrors in the well-behaved sessions: {len(errors)}")
    for e in sorted(set(errors), key=errors.count, reverse=True)[:6]:
        print(f"  ({errors.count(e)}x) {e}")
    print(f"Load average (1 min) at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores.")
    within = sum(r["within"] for r in result.values())
    median_base = sorted(baselines)[len(baselines) // 2]
    summary = {"cases": len(args.cases), "within": within, "baseline_p95_ms": round(median_base), "errors": len(errors),
               **result}  # fmt: skip
    print(json.dumps(summary))
    return within == len(args.cases)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=39)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--seconds", type=float, default=40, help="each window (without, then with)")
    ap.add_argument("--warmup", type=float, default=20)
    ap.add_argument("--settle", type=float, default=5, help="unmeasured seconds after each case")
    ap.add_argument("--cases", type=lambda s: s.split(","), default=CASES)
    ap.add_argument("--flood-pause", type=float, default=0.0, help="seconds between the flood's reruns")
    ap.add_argument("--misbehave", choices=list(MISBEHAVE), help="(internal) be this client for --seconds")
    ap.add_argument("--port", type=int)
    ap.add_argument("--server-pid", type=int)
    args = ap.parse_args()
    if args.misbehave:
        try:
            note = asyncio.run(MISBEHAVE[args.misbehave](args.port, time.monotonic() + args.seconds, args))
        except Exception as e:  # the misbehaver failing is reported, not the bench
            note = f"the misbehaving client failed: {type(e).__name__} {e}"
        return print(note)
    port = bl.free_port()
    with tempfile.TemporaryDirectory(prefix="attention-lab-abuse-") as tmp, open(Path(tmp) / "server.log", "wb") as log:
        proc, _ = start_server(port, str(Path(tmp) / "cache"), log, None)
        args.server_pid = proc.pid
        try:
            bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
            times, notes, errors = asyncio.run(class_with(port, args))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    sys.exit(0 if report(args, times, notes, errors) else 1)


if __name__ == "__main__":
    main()
