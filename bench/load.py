"""A whole class on one server (issue 8): N concurrent sessions edit prompts and move sliders for a
fixed time; rerun round trips, errors, throughput and server memory. Prints tables; not a test.

Why protocol clients: on 2 cores twenty headless Chromiums saturate the CPU by themselves, so the
load comes from clients that speak Streamlit's own websocket protocol as the browser's JavaScript
does, and a small real-browser run (5 Playwright contexts) checks that picture.

The protocol (streamlit 1.67, ws://127.0.0.1:PORT/_stcore/stream, subprotocol "streamlit", binary
protobuf frames): the client sends a BackMsg `rerun_script` (a ClientState: query string, page
name on the first run and the page's script hash (from the `navigation` message) after it, the value of every widget on screen,
the hashes of the messages it has cached, browser context). The server answers with ForwardMsgs:
`new_session` (carries the page hash), `delta`s (elements; a widget's proto holds its id and value;
an `exception` element is an error), `page_info_changed` (the new URL query string), and ends with
`script_finished` (status: successfully / compile error / early for a rerun). A large element may
come as `ref_hash`, a reference to one sent before. A round trip is BackMsg sent -> script_finished.
To edit the prompt a client sends the text_input's new string_value under the id the server gave it;
segmented controls send string_array_value (the shown labels), sliders double_array_value,
select sliders string_array_value -- what the browser sends.

The browser adds the 250 ms live-input debounce and drawing on top (the Chromium run includes both).
Usage: .venv/bin/python bench/load.py [--sessions 40] [--think 1.0] [--seconds 300] [--warmup 30]
       [--browser-seconds 30] [--no-browser] [--torch-threads N (OMP_NUM_THREADS for the server)]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.browser_latency import (  # noqa: E402
    ADJECTIVES, CHROMIUM, CHROMIUM_ARGS, DEFAULT_WORDS, IDLE_JS, INSTALL_JS, NAMES, SHOWN_JS, TICKS, free_port,
    labels, p95, wait_healthy, words,
)  # fmt: skip

FIXED_PROMPT = "alice met bob at the park . then alice gave bob a"  # the browser comparison
PAGES = ["explorer", "explorer", "explorer", "masks", "softmax"]  # session i opens PAGES[i % 5]
ACTIONS = {  # page -> (widget key, probability): what a student does there
    "explorer": [("prompt", 0.7), ("head", 0.15), ("layer", 0.15)],
    "masks": [("prompt", 0.5), ("prefix", 0.25), ("pad", 0.25)],
    "softmax": [("prompt", 0.4), ("dk", 0.2), ("sm_log2s", 0.2), ("live_c", 0.2)],
}
TIMEOUT_S = 60  # a round trip longer than this counts as an error and ends that session
BROWSER_THINK_S = 1.0
ADJ = ADJECTIVES + ["sad", "big"]


# ----------------------------------------------------------------- one session, spoken at the protocol level


def widget_state(kind: str, el) -> WidgetState | None:
    """The state a browser holds (and sends with every rerun) for a widget element, from its proto."""
    s = WidgetState(id=el.id)
    if kind in ("text_input", "text_area") and el.HasField("value"):
        s.string_value = el.value
    elif kind == "checkbox":
        s.bool_value = el.value
    elif kind in ("selectbox", "radio") and el.HasField("raw_value"):
        s.string_value = el.raw_value
    elif kind in ("button_group", "multiselect"):
        s.string_array_value.data.extend(el.raw_values)
    elif kind == "slider" and el.type == Slider.SELECT_SLIDER:
        s.string_array_value.data.extend(el.raw_value)
    elif kind == "slider":
        s.double_array_value.data.extend(el.value)
    elif kind == "number_input" and el.HasField("value"):
        s.double_value = el.value
    else:
        return None
    return s


class Session:
    """One browser tab: its widgets and charts from the last run, its URL, its message cache."""

    def __init__(self, port: int, page: str, query: str = "", seed: int = 0):
        self.port, self.page, self.query, self.rng = port, page, query, random.Random(seed)
        self.page_hash = ""  # "" until the server names the page (first run: by page_name)
        self.widgets: dict[str, tuple[str, object]] = {}  # widget key -> (element kind, proto)
        self.charts: dict[str, str] = {}  # chart key -> Plotly spec (JSON)
        self.cache: dict[str, tuple[ForwardMsg, int]] = {}  # hash -> (message, run it was last used)
        self.runs, self.typed, self.target = 0, [], []
        self.ws = None

    async def open(self) -> tuple[float, list[str]]:
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream", subprotocols=["streamlit"],
            origin=f"http://127.0.0.1:{self.port}", max_size=None, ping_interval=None,
        )  # fmt: skip
        return await self.rerun()

    async def rerun(self, changes: tuple[WidgetState, ...] = ()) -> tuple[float, list[str]]:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string, cs.page_script_hash = self.query, self.page_hash
        if not self.page_hash:
            cs.page_name = self.page
        cs.context_info.timezone, cs.context_info.locale = "UTC", "en-US"
        cs.context_info.url = f"http://127.0.0.1:{self.port}/{self.page}"
        states = {s.id: s for kind, el in self.widgets.values() if (s := widget_state(kind, el))}
        states |= {s.id: s for s in changes}
        cs.widget_states.widgets.extend(states.values())
        cs.cached_message_hashes.extend(self.cache)
        self.runs += 1
        widgets, charts, errors = {}, {}, []
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(await self.ws.recv())
            if fm.HasField("ref_hash"):  # an element the client has cached
                if fm.ref_hash not in self.cache:
                    errors.append("ref_hash to a message never received")
                    continue
                fm = self.cache[fm.ref_hash][0]
            if fm.metadata.cacheable or fm.hash in self.cache:
                self.cache[fm.hash] = (fm, self.runs)
            kind = fm.WhichOneof("type")
            if kind == "navigation":  # st.navigation names the page that runs
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = fm.page_info_changed.query_string
            elif kind == "page_not_found":
                errors.append(f"page not found: {self.page}")
            elif kind == "session_event" and fm.session_event.HasField("script_compilation_exception"):
                errors.append(f"compile error: {fm.session_event.script_compilation_exception.message}")
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el_kind = fm.delta.new_element.WhichOneof("type")
                el = getattr(fm.delta.new_element, el_kind)
                key = getattr(el, "id", "").split("-", 2)[-1]  # "$$ID-<hash>-<key>"
                if el_kind == "exception":
                    errors.append(f"{el.type}: {el.message} at {' / '.join(el.stack_trace[-2:])}")
                elif el_kind == "plotly_chart":
                    charts[key] = el.spec
                elif key:
                    widgets[key] = (el_kind, el)
            elif kind == "script_finished":
                if fm.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:  # the app called st.rerun()
                    continue
                if fm.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                    errors.append(ForwardMsg.ScriptFinishedStatus.Name(fm.script_finished))
                break
        ms = (time.perf_counter() - t0) * 1000
        self.widgets, self.charts = widgets, charts
        self.cache = {h: (m, run) for h, (m, run) in self.cache.items() if run >= self.runs - 1}  # as the browser ages them
        return ms, errors

    def type_more(self) -> str:
        """The prompt after the next pause in typing: one to three more words of a sentence."""
        if len(self.typed) >= len(self.target):
            choice = self.rng.choice
            self.target = []
            for _ in range(self.rng.randint(1, 4)):
                self.target += f"{choice(NAMES)} knows the cats that the dog sees are {choice(ADJ)} .".split()
                self.target += f"then {choice(NAMES)} gave {choice(NAMES)} a book .".split()
            self.target = self.target[: self.rng.randint(6, 40)]
            self.typed = []
        self.typed = self.target[: len(self.typed) + self.rng.randint(1, 3)]
        return " ".join(self.typed)

    def move(self, key: str) -> WidgetState:
        """A new value for one widget, as a user's click, drag or typing gives it."""
        kind, el = self.widgets[key]
        s = WidgetState(id=el.id)
        if key == "prompt":
            s.string_value = self.type_more()
        elif kind == "button_group":
            s.string_array_value.data.append(self.rng.choice([o.content for o in el.options if o.content not in el.raw_values]))
        elif el.type == Slider.SELECT_SLIDER:
            s.string_array_value.data.append(self.rng.choice([o for o in el.options if o not in el.raw_value]))
        else:  # a numeric slider: a position on its grid
            grid = [el.min + i * el.step for i in range(round((el.max - el.min) / el.step) + 1)]
            s.double_array_value.data.append(self.rng.choice([v for v in grid if v not in el.value]))
        return s

    async def act(self) -> tuple[str, float, list[str]]:
        keys, weights = zip(*ACTIONS[self.page], strict=True)
        key = self.rng.choices(keys, weights)[0]
        return key, *await self.rerun((self.move(key),))


# ----------------------------------------------------------------- the server and its memory


def start_server(port: int, cache: str, log, torch_threads: int | None) -> tuple[subprocess.Popen, dict]:
    env = dict(os.environ, ATTENTION_LAB_CACHE=cache)
    if torch_threads:
        env |= {"OMP_NUM_THREADS": str(torch_threads), "MKL_NUM_THREADS": str(torch_threads)}
    python = ROOT / ".venv" / "bin" / "python"
    cmd = [str(python if python.exists() else sys.executable), "-m", "streamlit", "run", "app.py",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
           "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, env


def process_tree(pid: int) -> list[int]:
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            pass
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo += parents.get(tree[-1], [])
    return tree


def status_field(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_mb(pid: int) -> float:
    """Resident memory of the server and every process it started."""
    return sum(status_field(p, "VmRSS") for p in process_tree(pid)) / 1024


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def torch_threads_in(env: dict) -> str:
    """torch's thread settings as the server sees them: same interpreter, same environment."""
    code = ("import torch; b = torch.__config__.parallel_info().split('ATen parallel backend: ')[1].split()[0]; "
            "print(torch.get_num_threads(), torch.get_num_interop_threads(), b)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    intra, inter, backend = out.stdout.split()
    return f"torch.get_num_threads() = {intra} (intra-op, {backend}), get_num_interop_threads() = {inter}"


# ----------------------------------------------------------------- the load run


async def load(args, port: int, pid: int) -> dict:
    measured: list[tuple[str, str, float]] = []  # (page, action, ms) after warm-up
    errors: list[str] = []
    counts = {"warm-up reruns": 0}
    samples: list[tuple[float, float, int]] = []  # (time, RSS MB, server threads)
    t_measure = time.monotonic() + args.warmup
    t_end = t_measure + args.seconds

    async def user(i: int) -> None:
        await asyncio.sleep(i * 0.1)  # a class arrives over a few seconds, not in one instant
        s = Session(port, PAGES[i % len(PAGES)], seed=i)
        try:
            _, errs = await asyncio.wait_for(s.open(), TIMEOUT_S)
            errors.extend(f"{s.page} open: {e}" for e in errs)
            while time.monotonic() < t_end:
                action, ms, errs = await asyncio.wait_for(s.act(), TIMEOUT_S)
                errors.extend(f"{s.page} {action}: {e}" for e in errs)
                if time.monotonic() >= t_measure:
                    measured.append((s.page, action, ms))
                else:
                    counts["warm-up reruns"] += 1
                if args.think:
                    await asyncio.sleep(args.think * s.rng.uniform(0.5, 1.5))
        except (TimeoutError, websockets.ConnectionClosed, OSError, KeyError) as e:
            errors.append(f"{s.page} session {i} ended: {type(e).__name__} {e}")
        finally:
            if s.ws is not None:
                await s.ws.close()

    async def sampler() -> None:
        while time.monotonic() < t_end + 1:
            samples.append((time.monotonic(), rss_mb(pid), status_field(pid, "Threads")))
            await asyncio.sleep(2)

    threads_idle = status_field(pid, "Threads")
    users = asyncio.gather(*(user(i) for i in range(args.sessions)))
    task = asyncio.create_task(sampler())
    await asyncio.sleep(t_measure - time.monotonic())  # the warm-up ends: note memory and CPU clocks
    rss_warm, cpu0, client0 = rss_mb(pid), cpu_s(pid), time.process_time()
    await users
    wall = time.monotonic() - t_measure
    rss_end, cpu1, client1 = rss_mb(pid), cpu_s(pid), time.process_time()
    await task
    return dict(measured=measured, errors=errors, samples=samples, wall=wall, rss_warm=rss_warm, rss_end=rss_end,
                server_cores=(cpu1 - cpu0) / wall, client_cores=(client1 - client0) / wall,
                threads_idle=threads_idle, threads_peak=max(t for _, _, t in samples), **counts)  # fmt: skip


# ----------------------------------------------------------------- the real browser: same figure, and 5 users


READ_FIGURE_JS = """() => { const g = document.querySelector('.js-plotly-plot'), d = g._fullData[0];
    return {x: Array.from(g.data[0].x), y: Array.from(g.data[0].y), z: Array.from(d.z, r => Array.from(r)),
            ticks: [...g.querySelectorAll('.ytick text')].map(e => e.textContent)}; }"""


def decoded(z) -> np.ndarray:
    """Plotly's JSON carries numpy arrays as {dtype, bdata (base64), shape}."""
    if isinstance(z, dict) and "bdata" in z:
        shape = [int(n) for n in str(z.get("shape", "-1")).replace("[", "").replace("]", "").split(",")]
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
    return np.asarray(z)


async def compare_with_browser(browser, port: int) -> str:
    query = urlencode({"prompt": FIXED_PROMPT})
    s = Session(port, "explorer", query=query)
    _, errs = await s.open()
    await s.ws.close()
    spec = json.loads(s.charts["heatmap"])["data"][0]
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(f"http://127.0.0.1:{port}/explorer?{query}")
    await page.locator(TICKS).first.wait_for(state="visible", timeout=120_000)
    await page.wait_for_function(IDLE_JS, timeout=60_000)
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
    return f'{verdict}: heatmap of "{FIXED_PROMPT}" ({z.shape[0]}x{z.shape[1]}), protocol client vs Chromium: {detail}'


async def browser_user(browser, port: int, seconds: float, seed: int) -> list[float]:
    """Types a new prompt, waits until the heatmap shows it (ms from the input event), thinks, again."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{port}/explorer")
    await page.locator(TICKS).first.wait_for(state="visible", timeout=120_000)
    await page.wait_for_function(IDLE_JS, timeout=60_000)
    await page.evaluate(INSTALL_JS)
    rng, previous, times = random.Random(seed), DEFAULT_WORDS, []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        ws = words(rng.randint(6, 20), rng.choice([n for n in NAMES if n != previous[-1]]), rng.choice(ADJECTIVES))
        await page.evaluate("() => { window.__bench.t0 = null; }")
        await page.get_by_role("textbox", name="Prompt").fill(" ".join(ws))
        shown = await page.wait_for_function(
            SHOWN_JS, arg=[TICKS, labels(ws), labels(previous)], polling="raf", timeout=60_000
        )
        times.append(float(await shown.json_value()))
        previous = ws
        await page.wait_for_function(IDLE_JS, timeout=60_000)
        await asyncio.sleep(BROWSER_THINK_S * rng.uniform(0.5, 1.5))
    await context.close()
    return times


async def browser_checks(args, port: int) -> tuple[str, list[float]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            verdict = await compare_with_browser(browser, port)
            runs = await asyncio.gather(*(browser_user(browser, port, args.browser_seconds, 100 + i) for i in range(5)))
        finally:
            await browser.close()
    return verdict, [ms for run in runs for ms in run]


# ----------------------------------------------------------------- report


def pct(xs: list[float]) -> str:
    return f"{statistics.median(xs):.0f} | {p95(xs):.0f} | {max(xs):.0f}" if len(xs) > 1 else "– | – | –"


def report(args, r: dict, threads: str, browser: tuple[str, list[float]] | None) -> None:
    ms = [m for _, _, m in r["measured"]]
    rate = len(ms) / r["wall"]
    growth = (r["rss_end"] / r["rss_warm"] - 1) * 100
    print(f"\nLoad: {args.sessions} protocol sessions ({', '.join(f'{PAGES.count(p)}/5 {p}' for p in ACTIONS)}), "
          f"think {args.think} s (±50%), {args.warmup:.0f} s warm-up not counted.\n")  # fmt: skip
    print("| sessions | think s | duration s | reruns | errors | reruns/s | median ms | p95 ms | max ms "
          "| RSS after warm-up MB | RSS end MB | growth |")  # fmt: skip
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {args.sessions} | {args.think:g} | {r['wall']:.0f} | {len(ms)} | {len(r['errors'])} | {rate:.1f} | "
          f"{pct(ms)} | {r['rss_warm']:.0f} | {r['rss_end']:.0f} | {growth:+.1f}% |")  # fmt: skip
    checks = [("zero errors", not r["errors"]), ("RSS growth <= 10% after warm-up", growth <= 10)]
    if args.think:
        checks.append(("p95 round trip <= 500 ms", len(ms) > 1 and p95(ms) <= 500))
    else:
        checks.append(("throughput >= 25 reruns/s", rate >= 25))
    print("\nTargets: " + "; ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks))
    print("\n| page | action | reruns | median ms | p95 ms | max ms |\n| --- | --- | ---: | ---: | ---: | ---: |")
    for page, actions in ACTIONS.items():
        for action, _ in actions:
            xs = [m for p, a, m in r["measured"] if (p, a) == (page, action)]
            print(f"| {page} | {action} | {len(xs)} | {pct(xs)} |")
    print(f"\nServer CPU {r['server_cores']:.2f} cores, this client {r['client_cores']:.2f} cores (of {os.cpu_count()}); "
          f"server threads {r['threads_idle']} idle, {r['threads_peak']} at most under load; {threads}.")  # fmt: skip
    print(f"RSS samples (MB, every 2 s from the start): {' '.join(f'{m:.0f}' for _, m, _ in r['samples'][::8])}")
    for e in sorted(set(r["errors"]))[:10]:
        print(f"error ({r['errors'].count(e)}x): {e}")
    if browser:
        verdict, times = browser
        print(f"\nBrowser check: {verdict}.")
        print(f"\nChromium, 5 contexts typing in the Explorer for {args.browser_seconds:.0f} s, think {BROWSER_THINK_S} s "
              "(server otherwise idle); input event -> heatmap shows the new prompt, 250 ms debounce included:\n")  # fmt: skip
        print(f"| changes | median ms | p95 ms | max ms | p95 − 250 ms debounce |\n| ---: | ---: | ---: | ---: | ---: |")
        print(f"| {len(times)} | {pct(times)} | {p95(times) - 250 if len(times) > 1 else float('nan'):.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--think", type=float, default=1.0, help="seconds between a session's actions (0: none)")
    ap.add_argument("--seconds", type=float, default=300, help="measured time, after the warm-up")
    ap.add_argument("--warmup", type=float, default=30)
    ap.add_argument("--browser-seconds", type=float, default=30)
    ap.add_argument("--no-browser", action="store_true", help="skip the Chromium comparison and run")
    ap.add_argument("--torch-threads", type=int, help="OMP_NUM_THREADS / MKL_NUM_THREADS for the server")
    args = ap.parse_args()
    if not args.no_browser and not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: install Debian's chromium or pass --no-browser")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="attention-lab-load-") as tmp, open(Path(tmp) / "server.log", "wb") as log:
        proc, env = start_server(port, str(Path(tmp) / "cache"), log, args.torch_threads)
        try:
            wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
            threads = torch_threads_in(env)
            result = asyncio.run(load(args, port, proc.pid))
            browser = None if args.no_browser else asyncio.run(browser_checks(args, port))
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        report(args, result, threads, browser)


if __name__ == "__main__":
    main()
