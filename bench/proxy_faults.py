"""The fault steps of bench/faults.py that need replicas behind HAProxy (deploy/replicas.py): a replica
SIGKILLed mid-class, and the proxy restarted. Clients are bench/st_client sessions through the proxy, as a
browser is: the page over HTTP first (the stickiness cookie), then the websocket with that cookie."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import websockets

from bench import class_load as cl
from bench.st_client import Session
from deploy.replicas import Replicas

PROMPT = "alice met bob at the park . then alice gave bob a"  # in each viewer's URL: what a reload restores
TIMEOUT_S = 120


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT_S))


async def viewer(port: int, i: int) -> Session:
    s = Session(port, "explorer", urlencode({"prompt": f"{PROMPT} {i}"}), seed=i, proxy=True)
    await s.open()
    return s


def restored(s: Session, i: int) -> bool:
    """The view after a reconnect is the one in its URL: the prompt, and the heatmap drawn for it."""
    held = s.widgets.get("prompt")
    return held is not None and held[1].value == f"{PROMPT} {i}" and "heatmap" in s.charts


async def rerun_or_reconnect(s: Session) -> tuple[bool, list[str]]:
    """One more action; a dropped websocket is reopened as the browser does (a fresh session, same cookie)."""
    try:
        _, errors = await s.rerun()
        return False, errors
    except (websockets.ConnectionClosed, OSError):
        _, errors = await s.reconnect()
        return True, errors


def replica_killed() -> tuple[bool, str]:
    """A replica SIGKILLed mid-class: only its sessions reconnect, to their view; its students rejoin."""
    from bench.pg_cluster import cluster

    with tempfile.TemporaryDirectory() as tmp_name, cluster() as pg:
        tmp = Path(tmp_name)
        info, _, env = cl.a_class(tmp, pg.url)
        with Replicas(3, log_dir=tmp / "logs", env={**os.environ, **env}) as r:

            async def join(i: int) -> Session:
                s = Session(r.port, "guides", urlencode({"join": info.code}), seed=100 + i, proxy=True)
                await s.open()
                await s.rerun((cl.text_value(s, "cj_code", info.code), cl.text_value(s, "cj_name", f"p{i}"),
                               cl.trigger(s, "cj_go")))  # fmt: skip
                radio = s.widgets["gp_choice"][1]
                await s.rerun((cl.WidgetState(id=radio.id, string_value=radio.options[1]), cl.trigger(s, "gp_send")))
                return s

            async def go():
                viewers = [await viewer(r.port, i) for i in range(6)]
                students = [await join(i) for i in range(6)]
                on = {id(s): s.script_replica for s in viewers + students}
                victim = next(iter(sorted({v for v in on.values() if v})))
                t0 = time.monotonic()
                r.kill(victim)
                while r.states().get(victim) == "UP" and time.monotonic() - t0 < 30:
                    await asyncio.sleep(0.1)
                out_after = time.monotonic() - t0
                report = {"viewers": [], "students": [], "others_errors": [], "victim": victim, "out": out_after}
                for i, s in enumerate(viewers):
                    moved, errors = await rerun_or_reconnect(s)
                    if on[id(s)] == victim:
                        report["viewers"].append(moved and restored(s, i) and s.script_replica != victim and not errors)
                    else:
                        report["others_errors"] += errors + (["reconnected"] if moved else [])
                for i, s in enumerate(students):
                    moved, errors = await rerun_or_reconnect(s)
                    if on[id(s)] != victim:
                        report["others_errors"] += errors + (["reconnected"] if moved else [])
                        continue
                    rejoined = Session(r.port, "guides", "", seed=200 + i, proxy=True)
                    rejoined.cookies = dict(s.cookies)  # the same browser
                    await rejoined.open()
                    again = (cl.text_value(rejoined, "cj_code", info.code), cl.text_value(rejoined, "cj_name", f"p{i}"))
                    await rejoined.rerun((*again, cl.trigger(rejoined, "cj_go")))
                    found = any(t.startswith(cl.ACKS) for t in rejoined.texts)  # their answer, shown again
                    report["students"].append(moved and found and rejoined.script_replica != victim)
                return report

            rep = run(go())
    ok = (rep["out"] < 5 and rep["viewers"] and all(rep["viewers"]) and rep["students"] and all(rep["students"])
          and not rep["others_errors"])  # fmt: skip
    return ok, (f"{rep['victim']} killed; HAProxy took it out in {rep['out']:.1f} s; its {len(rep['viewers'])} "
                f"viewer(s) reconnected to their view: {sum(rep['viewers'])}; its {len(rep['students'])} student(s) "
                f"rejoined and found their answer: {sum(rep['students'])}; the other sessions: "
                f"{len(rep['others_errors'])} errors or reconnects")  # fmt: skip


def proxy_restarted() -> tuple[bool, str]:
    """HAProxy restarted: every session reconnects, to the same replica (its cookie), its view restored."""
    with tempfile.TemporaryDirectory() as tmp_name, Replicas(2, log_dir=Path(tmp_name) / "logs") as r:

        async def go():
            viewers = [await viewer(r.port, i) for i in range(6)]
            before = [s.script_replica for s in viewers]
            cmd = r.haproxy.args
            with contextlib.suppress(ProcessLookupError):
                r.haproxy.send_signal(signal.SIGTERM)
            r.haproxy.wait(timeout=10)
            t0 = time.monotonic()
            with open(r.log_dir / "haproxy.log", "ab") as log:
                r.haproxy = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            r.wait_up(set(r.servers), timeout=30)
            back = time.monotonic() - t0
            results = []
            for i, s in enumerate(viewers):
                moved, errors = await rerun_or_reconnect(s)
                results.append((moved, restored(s, i), s.script_replica == before[i], errors))
            return back, results

        back, results = run(go())
    ok = all(m and v and same and not e for m, v, same, e in results)
    return ok, (f"proxy back in {back:.1f} s; {sum(m for m, *_ in results)}/{len(results)} sessions reconnected, "
                f"{sum(v for _, v, _, _ in results)} to their view, {sum(s for _, _, s, _ in results)} on the same "
                f"replica; {sum(len(e) for *_, e in results)} errors")  # fmt: skip


STEPS = {"replica_killed": replica_killed, "proxy_restarted": proxy_restarted}
