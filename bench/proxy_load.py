"""A lecture hall through HAProxy (issue 21), run by `bench/load.py --via-proxy`: N replicas and the proxy
started here (deploy/replicas.py; nothing is installed), then S protocol sessions drive the Explorer, Masks
and Softmax pages through the proxy as browsers do: the page over HTTP first (the stickiness cookie arrives
then), two static files, health and host config, then the websocket with the cookie; reruns with think time;
now and then a download (the Explorer's media URL, held in one replica's memory: 404 anywhere else) or a
websocket reconnect (a fresh session on the same replica, the URL's state restoring the view).

Every response names its replica (HAProxy's X-Attention-Lab-Replica header on HTTP, the About text of each
script run: app.py). A sticky violation is a session whose responses name two replicas.

--pin: replica k runs on core k-1 only (taskset), for the scaling measurement: one replica on one core vs two
on two (the client and HAProxy are not pinned and share the machine).

Prints its table, then as the last line one JSON object: errors, p95_ms, replicas_seen, sticky_violations,
and more, so a script can check it.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import websockets

import bench.browser_latency as bl
from bench.server_proc import cpu_s, rss_mb
from bench.st_client import Session
from deploy.replicas import COOKIE, Replicas

PAGES = ["explorer", "explorer", "explorer", "masks", "softmax"]  # as bench/load.py
TIMEOUT_S = 60
RECONNECT_P = 0.03  # per action: the websocket closed and reopened (a laptop's wifi, a reload)
DOWNLOAD_P = 0.05  # per action on a page with download buttons: one is clicked
PROXY_THINK_S = 3.0  # a lecture: students read between actions (bench/class_load.py)


async def warm(port: int, names: list[str]) -> None:
    """Each page once on each replica (its cookie set by hand), so the run measures serving, not a cold start."""
    for name in names:
        for page in dict.fromkeys(PAGES):
            s = Session(port, page, proxy=True)
            s.cookies[COOKIE] = name
            _, errs = await asyncio.wait_for(s.open(), 120)
            await s.ws.close()
            if errs or set(s.served) != {name} or s.script_replica != name:
                raise RuntimeError(f"warming {name} {page}: {errs}, served by {set(s.served)} {s.script_replica}")


async def drive(args, port: int) -> dict:
    reruns: list[float] = []  # ms, after the warm-up
    opens: list[float] = []  # a reconnect's page load, websocket and first run, ms, after the warm-up
    errors: list[str] = []  # the warm-up too
    sessions: list[Session] = []
    counts = collections.Counter()
    t_measure = time.monotonic() + args.warmup
    t_end = t_measure + args.seconds

    async def user(i: int) -> None:
        await asyncio.sleep(i * 0.1)  # a class arrives over a few seconds
        s = Session(port, PAGES[i % len(PAGES)], seed=i, proxy=True)
        sessions.append(s)
        try:
            _, errs = await asyncio.wait_for(s.open(), TIMEOUT_S)
            errors.extend(f"{s.page} open: {e}" for e in errs)
            while time.monotonic() < t_end:
                await asyncio.sleep(args.think * s.rng.uniform(0.5, 1.5))
                roll = s.rng.random()
                if roll < RECONNECT_P:
                    counts["reconnects"] += 1
                    ms, errs = await asyncio.wait_for(s.reconnect(), TIMEOUT_S)
                    errors.extend(f"{s.page} reconnect: {e}" for e in errs)
                    opens.extend([ms] if time.monotonic() >= t_measure else [])
                    continue
                elif roll < RECONNECT_P + DOWNLOAD_P and s.media:
                    counts["downloads"] += 1
                    errors.extend(await asyncio.wait_for(s.download(), TIMEOUT_S))
                    continue
                else:
                    _, ms, errs = await asyncio.wait_for(s.act(), TIMEOUT_S)
                errors.extend(f"{s.page}: {e}" for e in errs)
                if time.monotonic() >= t_measure:
                    reruns.append(ms)
        except (TimeoutError, websockets.ConnectionClosed, OSError) as e:
            errors.append(f"{s.page} session {i} ended: {type(e).__name__} {e}")
        finally:
            if s.ws is not None:
                await s.ws.close()

    users = asyncio.gather(*(user(i) for i in range(args.sessions)))
    await asyncio.sleep(max(0.0, t_measure - time.monotonic()))
    return dict(reruns=reruns, opens=opens, errors=errors, sessions=sessions, counts=counts, t0=time.monotonic(),
                users=users)  # fmt: skip


def run(args) -> dict:
    with tempfile.TemporaryDirectory(prefix="attention-lab-proxy-") as tmp:
        env = dict(os.environ, ATTENTION_LAB_CACHE=f"{tmp}/cache", ATTENTION_LAB_MODELS="",
                   ATTENTION_LAB_DB=f"sqlite:///{tmp}/classes.sqlite3")  # fmt: skip
        cpus = [str(k % os.cpu_count()) for k in range(args.replicas)] if args.pin else None
        with Replicas(args.replicas, log_dir=Path(tmp) / "logs", env=env, cpus=cpus) as r:
            asyncio.run(warm(r.port, list(r.servers)))

            async def measured() -> dict:
                d = await drive(args, r.port)
                cpu0 = {n: cpu_s(p.pid) for n, p in r.procs.items()}
                proxy0 = cpu_s(r.haproxy.pid)
                client0, load0 = time.process_time(), os.getloadavg()[0]
                await d["users"]
                wall = time.monotonic() - d["t0"]
                d["cores"] = {n: (cpu_s(p.pid) - cpu0[n]) / wall for n, p in r.procs.items()}
                d["client_cores"] = (time.process_time() - client0) / wall
                d["haproxy_cores"] = (cpu_s(r.haproxy.pid) - proxy0) / wall
                d["rss"] = {n: rss_mb(p.pid) for n, p in r.procs.items()}
                d["loadavg"], d["wall"] = (load0, os.getloadavg()[0]), wall
                return d

            d = asyncio.run(measured())
            log = (Path(tmp) / "logs" / "haproxy.log").read_text(errors="replace")
            d["log_lines"] = sum(" replicas/r" in line for line in log.splitlines())
    return d


def pct(xs: list[float]) -> tuple[float, float, float]:
    if len(xs) < 2:
        return float("nan"), float("nan"), float("nan")
    return statistics.median(xs), bl.p95(xs), max(xs)


def report(args, d: dict) -> dict:
    sessions, errors = d["sessions"], d["errors"]
    first = collections.Counter(s.served[0] for s in sessions if s.served)
    violations = sum(len(set(s.served)) > 1 for s in sessions)
    seen = sorted({name for s in sessions for name in s.served})
    http = [ms for s in sessions for _, _, ms in s.http]
    med, p95, top = pct(d["reruns"])
    hmed, hp95, _ = pct(http)
    op95 = pct(d["opens"])[1]
    rate = len(d["reruns"]) / d["wall"]
    pin = ", each replica pinned to one core (taskset)" if args.pin else ""
    print(f"\n{args.sessions} protocol sessions through HAProxy to {args.replicas} replica(s){pin}, think "
          f"{args.think:g} s ±50%, {args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up (errors counted "
          f"from the start); pages {', '.join(dict.fromkeys(PAGES))}\n")  # fmt: skip
    print("| replicas | sessions | think s | duration s | runs | errors | runs/s | median ms | p95 ms | max ms "
          "| HTTP requests | HTTP p95 ms | reconnects | downloads | replicas seen | sticky violations |\n|"
          + " ---: |" * 16)  # fmt: skip
    print(f"| {args.replicas} | {args.sessions} | {args.think:g} | {d['wall']:.0f} | {len(d['reruns'])} "
          f"| {len(errors)} | {rate:.1f} | {med:.0f} | {p95:.0f} | {top:.0f} | {len(http)} | {hp95:.0f} "
          f"| {d['counts']['reconnects']} (p95 {op95:.0f} ms) | {d['counts']['downloads']} | {len(seen)} "
          f"| {violations} |")  # fmt: skip
    cores = sum(d["cores"].values())
    print("\n| replica | sessions | CPU cores | RSS MB |\n| --- | ---: | ---: | ---: |")
    for name in sorted(d["cores"]):
        print(f"| {name} | {first[name]} | {d['cores'][name]:.2f} | {d['rss'][name]:.0f} |")
    print(f"\nReplicas: {cores:.2f} cores in all, {len(d['reruns']) / d['wall'] / cores:.1f} runs per replica CPU "
          f"second. HAProxy: {d['haproxy_cores']:.3f} cores. This client: {d['client_cores']:.2f} cores (of "
          f"{os.cpu_count()}); load average (1 min) at the start "
          f"and end of the measured time: {d['loadavg'][0]:.2f}, {d['loadavg'][1]:.2f}; HAProxy log lines naming "
          f"a replica: {d['log_lines']}.")  # fmt: skip
    targets = {"0 errors": not errors, "0 sticky violations": violations == 0, "p95 <= 400 ms": p95 <= 400,
               "every replica used": len(seen) == args.replicas}  # fmt: skip
    print("Targets: " + "; ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in targets.items()))
    for e in sorted(set(errors), key=errors.count, reverse=True)[:8]:
        print(f"error ({errors.count(e)}x): {e}")
    return {"errors": len(errors), "p95_ms": round(p95, 1), "median_ms": round(med, 1), "max_ms": round(top, 1),
            "runs": len(d["reruns"]), "runs_per_s": round(rate, 2), "http_requests": len(http),
            "http_p95_ms": round(hp95, 1), "http_median_ms": round(hmed, 1),
            "reconnects": d["counts"]["reconnects"], "reconnect_p95_ms": round(op95, 1),
            "downloads": d["counts"]["downloads"],
            "replicas": args.replicas, "replicas_seen": len(seen), "replica_names": seen,
            "sessions_per_replica": dict(sorted(first.items())), "sticky_violations": violations,
            "replica_cores": round(cores, 2), "haproxy_cores": round(d["haproxy_cores"], 3),
            "sessions": args.sessions, "pinned": bool(args.pin), "targets_met": all(targets.values())}  # fmt: skip


def main(args) -> None:
    args.think = PROXY_THINK_S if args.think is None else args.think
    result = report(args, run(args))
    print(json.dumps(result))
