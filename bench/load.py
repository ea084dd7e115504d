"""A whole class on one server (issue 8): N sessions edit prompts and move sliders at once for a
fixed time; rerun round trips, errors, throughput and server memory. Prints tables; not a test.

Why protocol clients: on 2 cores twenty headless Chromiums saturate the CPU by themselves, so the
load comes from clients that speak Streamlit's websocket protocol as the browser's JavaScript does;
a Chromium session checks that they receive the same figure, and 5 real browsers check the latency.

The protocol (streamlit 1.67; ws://HOST/_stcore/stream, subprotocol "streamlit", binary protobuf):
the client sends a BackMsg `rerun_script`, a ClientState with the query string, the page (by name
on the first run, then by the script hash the `navigation` message gave), the value of every
widget on screen, the hashes of the messages it has cached, and browser context. The server
streams ForwardMsgs: `new_session`, `navigation`, `delta`s (elements; a widget's proto carries its
id and value; an `exception` element is an error), `page_info_changed` (the new URL query), a
`ref_hash` in place of a large element sent before, and last `script_finished` with a status
(successfully / with a compile error / early for a rerun). Round trip: BackMsg sent ->
script_finished. Changing a widget is sending its new value under the id the server gave it:
string_value for the prompt, string_array_value (the shown labels) for segmented controls and
select sliders, double_array_value for sliders. The browser adds the 250 ms live-input debounce.

A class with a published model (issue 16): --model FOLDER (or a name bench/pretrained_speed.py builds,
e.g. qwen2.5-0.5b) starts the server with $ATTENTION_LAB_MODELS = the folder's parent and adds
--model-sessions sessions on the Explorer with ?model=<folder name>. The main table is still the toy
sessions alone (compare it with a run without --model); the model sessions get their own line: reruns,
how many showed a queue notice (ui/shell.run_slot) and the highest place, timeouts.
With --tokens N (issue 30 §5, bench/long_prompts.py) the model sessions type new ≈N-token texts, the toy sessions
are first measured alone on a fresh server, and a PASS/FAIL line compares the toy p95 with and without the model.

Usage: .venv/bin/python bench/load.py [--sessions 40] [--think 1.0] [--seconds 300] [--warmup 30]
       [--browser-seconds 30] [--no-browser] [--pages explorer,masks] [--torch-threads N]
       [--model FOLDER|qwen2.5-0.5b] [--model-sessions 10] [--tokens 2048 [--alone-seconds S]]
       .venv/bin/python bench/load.py --class [--students 40] [--seconds 300] [--think 1] [--replicas 1]
       [--teacher-students 200] [--refreshes 20]   (bench/class_load.py; ends with one JSON line)
       .venv/bin/python bench/load.py --via-proxy [--replicas 3] [--sessions 120] [--think 3] [--seconds 300]
       [--warmup 30] [--pin]   (bench/proxy_load.py: replicas behind HAProxy; ends with one JSON line)
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402
from bench import long_prompts as lp  # noqa: E402
from bench.server_proc import cpu_s, rss_mb, start_server, status_field, torch_threads_in  # noqa: E402
from bench.st_client import ACTIONS, Session  # noqa: E402

PAGES = ["explorer", "explorer", "explorer", "masks", "softmax"]  # session i opens PAGES[i % 5]
FIXED_PROMPT = "alice met bob at the park . then alice gave bob a"  # the browser comparison
TIMEOUT_S = 60  # a longer round trip is an error and ends that session
BROWSER_THINK_S = 1.0


# ----------------------------------------------------------------- the load


async def load(args, port: int, pid: int) -> dict:
    measured: list[tuple[str, str, float]] = []  # (page, action, ms), after the warm-up
    errors: list[str] = []  # during the warm-up too
    heavy: list[tuple[str, float, int]] = []  # the model sessions' (action, ms, queue place), after the warm-up
    heavy_errors: list[str] = []
    samples: list[tuple[float, int]] = []  # (RSS MB, server threads) every 2 s
    t_measure = time.monotonic() + args.warmup
    t_end = t_measure + args.seconds

    async def user(i: int) -> None:
        await asyncio.sleep(i * 0.1)  # a class arrives over a few seconds
        on_model = i >= args.sessions  # the last --model-sessions: the Explorer with the published model
        s = lp.model_session(args, port, urlencode({"model": args.model.name}), i, t_end) if on_model else \
            Session(port, args.pages[i % len(args.pages)], seed=i)  # fmt: skip
        errs_to = heavy_errors if on_model else errors
        try:
            _, errs = await asyncio.wait_for(s.open(), TIMEOUT_S)
            errs_to.extend(f"{s.page} open: {e}" for e in errs)
            while time.monotonic() < t_end:
                action, ms, errs = await asyncio.wait_for(s.act(), getattr(s, "timeout", TIMEOUT_S))
                errs_to.extend(f"{s.page} {action}: {e}" for e in errs)
                if time.monotonic() >= t_measure:
                    heavy.append((action, ms, s.place)) if on_model else measured.append((s.page, action, ms))
                await asyncio.sleep(args.think * s.rng.uniform(0.5, 1.5))
        except (TimeoutError, websockets.ConnectionClosed, OSError) as e:
            errs_to.append(f"{s.page} session {i} ended: {type(e).__name__} {e}")
        finally:
            if s.ws is not None:
                await s.ws.close()

    async def sampler() -> None:
        while time.monotonic() < t_end:
            samples.append((rss_mb(pid), status_field(pid, "Threads")))
            await asyncio.sleep(2)

    threads_idle = status_field(pid, "Threads")
    users = asyncio.gather(*(user(i) for i in range(args.sessions + (args.model_sessions if args.model else 0))))
    sampling = asyncio.create_task(sampler())
    await asyncio.sleep(t_measure - time.monotonic())
    rss_warm, cpu0, client0, load0 = rss_mb(pid), cpu_s(pid), time.process_time(), os.getloadavg()[0]
    await asyncio.sleep(args.seconds / 2)
    rss_mid = rss_mb(pid)  # growth in the second half tells a leak from caches filling up
    await users
    wall = time.monotonic() - t_measure
    rss_end, cpu1, client1, load1 = rss_mb(pid), cpu_s(pid), time.process_time(), os.getloadavg()[0]
    await sampling
    return dict(measured=measured, errors=errors, samples=samples, wall=wall, rss=(rss_warm, rss_mid, rss_end),
                heavy=heavy, heavy_errors=heavy_errors, loadavg=(load0, load1), t_measure=t_measure,
                cores=((cpu1 - cpu0) / wall, (client1 - client0) / wall),
                threads=(threads_idle, max(t for _, t in samples)))  # fmt: skip


# ----------------------------------------------------------------- the real browser: the same figure, 5 users

READ_FIGURE_JS = """() => { const g = document.querySelector('.js-plotly-plot'), d = g._fullData[0];
    return {x: Array.from(g.data[0].x), y: Array.from(g.data[0].y), z: Array.from(d.z, r => Array.from(r)),
            ticks: [...g.querySelectorAll('.ytick text')].map(e => e.textContent)}; }"""


def decoded(z) -> np.ndarray:
    """Plotly's JSON carries a numpy array as {dtype, bdata (base64), shape}."""
    if isinstance(z, dict) and "bdata" in z:
        shape = [int(n) for n in str(z.get("shape", "-1")).strip("[]").split(",")]
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
    return np.asarray(z)


async def open_explorer(context, port: int, query: str = ""):
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{port}/explorer{query}")
    await page.locator(bl.TICKS).first.wait_for(state="visible", timeout=120_000)
    await page.wait_for_function(bl.IDLE_JS, timeout=60_000)
    return page


async def compare_with_browser(browser, port: int) -> str:
    query = "?" + urlencode({"prompt": FIXED_PROMPT})
    s = Session(port, "explorer", query=query[1:])
    _, errs = await s.open()
    await s.ws.close()
    spec = json.loads(s.charts["heatmap"])["data"][0]
    page = await open_explorer(browser, port, query)
    shown = await page.evaluate(READ_FIGURE_JS)
    await page.close()
    z = decoded(spec["z"])
    same = {
        "x labels": spec["x"] == shown["x"],
        "y labels": spec["y"] == shown["y"],
        "z values": z.shape == np.shape(shown["z"]) and np.array_equal(z, np.asarray(shown["z"], dtype=z.dtype)),
        "drawn y ticks": sorted(shown["ticks"]) == sorted(spec["y"]),
    }
    verdict = "EQUAL" if all(same.values()) and not errs else "DIFFERENT"
    detail = ", ".join(f"{k} {'equal' if v else 'DIFFER'}" for k, v in same.items())
    return f'{verdict} - Explorer heatmap of "{FIXED_PROMPT}" ({len(z)}x{len(z[0])}), protocol vs Chromium: {detail}'


async def browser_user(browser, port: int, seconds: float, seed: int) -> list[float]:
    """Types a new prompt, waits until the heatmap shows it (ms from the input event), thinks; again."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await open_explorer(context, port)
    await page.evaluate(bl.INSTALL_JS)
    rng, previous, times, stop = random.Random(seed), bl.DEFAULT_WORDS, [], time.monotonic() + seconds
    while time.monotonic() < stop:
        name = rng.choice([n for n in bl.NAMES if n != previous[-1]])  # so the labels change
        ws = bl.words(rng.randint(6, 20), name, rng.choice(bl.ADJECTIVES))
        await page.evaluate("() => { window.__bench.t0 = null; }")
        await page.get_by_role("textbox", name="Prompt").fill(" ".join(ws))
        arg = [bl.TICKS, bl.labels(ws), bl.labels(previous)]
        shown = await page.wait_for_function(bl.SHOWN_JS, arg=arg, polling="raf", timeout=60_000)
        times.append(float(await shown.json_value()))
        previous = ws
        await page.wait_for_function(bl.IDLE_JS, timeout=60_000)
        await asyncio.sleep(BROWSER_THINK_S * rng.uniform(0.5, 1.5))
    await context.close()
    return times


async def browser_checks(args, port: int) -> tuple[str, list[float]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=bl.CHROMIUM, args=bl.CHROMIUM_ARGS)
        try:
            verdict = await compare_with_browser(browser, port)
            runs = await asyncio.gather(*(browser_user(browser, port, args.browser_seconds, 100 + i) for i in range(5)))
        finally:
            await browser.close()
    return verdict, [ms for run in runs for ms in run]


# ----------------------------------------------------------------- report


def pct(xs: list[float]) -> str:
    return f"{statistics.median(xs):.0f} | {bl.p95(xs):.0f} | {max(xs):.0f}" if len(xs) > 1 else "– | – | –"


def report(args, r: dict, threads: str, browser: tuple[str, list[float]] | None, alone: dict | None = None) -> None:
    ms, errors, (warm, mid, end) = [m for _, _, m in r["measured"]], r["errors"], r["rss"]
    rate, growth = len(ms) / r["wall"], (end / warm - 1) * 100
    mix = ", ".join(f"{args.pages.count(p)}/{len(args.pages)} {p}" for p in ACTIONS if p in args.pages)
    think = f"think {args.think:g} s ±50%" if args.think else "no think time"
    extra = f" + {args.model_sessions} on {args.model.name} (below)" if args.model else ""
    print(f"\n{args.sessions} protocol sessions ({mix}){extra}, {think}; {args.warmup:.0f} s warm-up (errors counted)"
          "\n")  # fmt: skip
    print("| sessions | think s | duration s | reruns | errors | reruns/s | median ms | p95 ms | max ms "
          "| RSS after warm-up MB | RSS end MB | growth | growth in 2nd half |\n|" + " ---: |" * 13)  # fmt: skip
    print(f"| {args.sessions} | {args.think:g} | {r['wall']:.0f} | {len(ms)} | {len(errors)} | {rate:.1f} | {pct(ms)} "
          f"| {warm:.0f} | {end:.0f} | {growth:+.1f}% | {(end / mid - 1) * 100:+.1f}% |")  # fmt: skip
    checks = {"zero errors": not errors, "RSS growth <= 10%": growth <= 10}
    if args.think:
        checks["p95 <= 500 ms"] = len(ms) > 1 and bl.p95(ms) <= 500
    else:
        checks[">= 25 reruns/s"] = rate >= 25
    if args.model and args.tokens:  # the long-prompt section instead of the model sessions' line
        checks[f"toy p95 within {lp.ALONE_RATIO:g}x alone"] = lp.report(args, r, alone)
    elif args.model:
        checks["model sessions: no timeouts"] = report_model(args, r["heavy"], r["heavy_errors"])
    print("\nTargets: " + "; ".join(f"{name} {'met' if ok else 'MISSED'}" for name, ok in checks.items()))
    print("\n| page | action | reruns | median ms | p95 ms | max ms |\n| --- | --- | ---: | ---: | ---: | ---: |")
    for page, actions in ACTIONS.items():
        for action, _ in actions:
            xs = [m for p, a, m in r["measured"] if (p, a) == (page, action)]
            print(f"| {page} | {action} | {len(xs)} | {pct(xs)} |")
    (server, client), (idle, peak) = r["cores"], r["threads"]
    print(f"\nCPU: server {server:.2f} cores, this client {client:.2f} (of {os.cpu_count()}). Server threads: {idle} "
          f"idle, at most {peak} under load; {threads}.")  # fmt: skip
    print("Load average (1 min) at the start and end of the measured time: {:.2f}, {:.2f}.".format(*r["loadavg"]))
    print("RSS MB every 30 s from the start: " + " ".join(f"{m:.0f}" for m, _ in r["samples"][::15]))
    for e in sorted(set(errors), key=errors.count, reverse=True)[:8]:
        print(f"error ({errors.count(e)}x): {e}")
    if browser:
        verdict, times = browser
        print(f"\nBrowser check: {verdict}.\n\nChromium, 5 contexts typing new prompts in the Explorer for "
              f"{args.browser_seconds:.0f} s, think {BROWSER_THINK_S:g} s ±50%, no other load; input event -> heatmap "
              f"shows the new prompt (the 250 ms live-input debounce included):\n")  # fmt: skip
        print(f"| changes | median ms | p95 ms | max ms |\n|{' ---: |' * 4}\n| {len(times)} | {pct(times)} |")


def report_model(args, heavy: list[tuple[str, float, int]], errors: list[str]) -> bool:
    """The model sessions' line (they are not in the main table); returns whether none timed out."""
    ms, waited = [m for _, m, _ in heavy], [place for _, _, place in heavy if place]
    timeouts = sum("TimeoutError" in e for e in errors)
    slots = os.environ.get("ATTENTION_LAB_HEAVY_SLOTS", "1 (default)")
    print(f"\n{args.model_sessions} model sessions: Explorer with ?model={args.model.name} ({args.model}), same "
          f"actions and think time; ATTENTION_LAB_HEAVY_SLOTS {slots}. A queue notice: the run waited, saying its "
          "place.\n")  # fmt: skip
    print("| model sessions | reruns | median ms | p95 ms | max ms | reruns with a queue notice | highest place "
          "| timeouts | other errors |\n|" + " ---: |" * 9)  # fmt: skip
    print(f"| {args.model_sessions} | {len(ms)} | {pct(ms)} | {len(waited)} | {max(waited, default=0)} | {timeouts} "
          f"| {len(errors) - timeouts} |")  # fmt: skip
    for e in sorted(set(errors), key=errors.count, reverse=True)[:4]:
        print(f"model session error ({errors.count(e)}x): {e}")
    return timeouts == 0


def model_folder(arg: str) -> Path:
    """A published-model folder, or a name bench/pretrained_speed.py writes once (random weights, real shapes)."""
    if Path(arg).is_dir():
        return Path(arg).resolve()
    from bench.pretrained_speed import PUBLISHED, make_folder

    if arg not in PUBLISHED:
        sys.exit(f"--model {arg}: not a folder, nor one of {', '.join(PUBLISHED)}")
    return make_folder(arg)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--think", type=float, default=None, help="seconds between a session's actions (0: none; "
                    "default 1, with --class 3)")  # fmt: skip
    ap.add_argument("--seconds", type=float, default=300, help="measured time, after the warm-up")
    ap.add_argument("--warmup", type=float, default=30)
    ap.add_argument("--browser-seconds", type=float, default=30)
    ap.add_argument("--no-browser", action="store_true", help="skip the Chromium comparison and the 5 browsers")
    ap.add_argument("--pages", type=lambda s: s.split(","), default=PAGES, help="session i opens the i-th (cyclic)")
    ap.add_argument("--torch-threads", type=int, help="OMP_NUM_THREADS / MKL_NUM_THREADS for the server")
    ap.add_argument("--model", type=model_folder, help="a published-model folder (or qwen2.5-0.5b, gpt2, ...)")
    ap.add_argument("--model-sessions", type=int, default=10, help="sessions on --model, besides --sessions")
    ap.add_argument("--tokens", type=int, help="the model sessions type new ≈N-token texts (bench/long_prompts.py)")
    ap.add_argument("--alone-seconds", type=float, help="--tokens: the toy sessions alone first, on a fresh server, "
                    "for this long (default --seconds; 0: skip)")  # fmt: skip
    ap.add_argument("--class", dest="klass", action="store_true", help="a class answering a lesson (class_load.py)")
    ap.add_argument("--students", type=int, default=40, help="--class: students answering at once")
    ap.add_argument("--replicas", type=int, default=1, help="--class, --via-proxy: servers (sharing the database)")
    ap.add_argument("--teacher-students", type=int, default=200, help="--class: answers stored for the teacher view")
    ap.add_argument("--refreshes", type=int, default=20, help="--class: teacher-view fragment runs timed")
    ap.add_argument("--via-proxy", action="store_true", help="replicas behind HAProxy (bench/proxy_load.py)")
    ap.add_argument("--pin", action="store_true", help="--via-proxy: replica k on core k-1 only (taskset)")
    args = ap.parse_args()
    if args.via_proxy:  # default think 3 s (a lecture)
        from bench import proxy_load

        return proxy_load.main(args)
    if args.klass:  # --seconds is then the time the whole lesson may take
        from bench import class_load

        return class_load.main(args)
    args.think = 1.0 if args.think is None else args.think
    if not args.no_browser and not Path(bl.CHROMIUM).exists():
        sys.exit(f"{bl.CHROMIUM} not found: install Debian's chromium, or pass --no-browser")
    lp.prepare(args)  # --tokens: checked against the model; the toy sessions alone first, on a fresh server
    alone = serve(lp.alone_args(args), browser=False)[0] if args.tokens and args.alone_seconds else None
    report(args, *serve(args, browser=not args.no_browser), alone)


def serve(args, browser: bool) -> tuple[dict, str, tuple[str, list[float]] | None]:
    """One fresh server under the load (then the browsers): (the load's result, torch's threads, the browsers')."""
    port = bl.free_port()
    with tempfile.TemporaryDirectory(prefix="attention-lab-load-") as tmp, open(Path(tmp) / "server.log", "wb") as log:
        models = str(args.model.parent) if args.model else ""
        proc, env = start_server(port, str(Path(tmp) / "cache"), log, args.torch_threads, models)
        try:
            bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
            threads = torch_threads_in(env)
            result = asyncio.run(load(args, port, proc.pid))
            return result, threads, asyncio.run(browser_checks(args, port)) if browser else None
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)  # the group: streamlit and anything it started
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
