"""Where Enter -> redrawn heatmap time goes, from a Chromium trace. Prints a table and a JSON line; not a test.

bench/browser_latency.py measures the wall time of Enter -> heatmap on the Explorer and on a bare
one-heatmap Streamlit page; this script records a Chromium trace of each such Enter (V8's CPU
profiler included) plus the websocket frames (CDP Network events, decoded as Streamlit's
ForwardMsg/BackMsg protobufs) and splits the round's wall time, from the keydown to the animation
frame where the new tick labels show (performance.mark at both ends), into:

  timeline   Enter -> BackMsg sent (client), -> first ForwardMsg back (server; loopback network),
             -> last delta received (deltas streaming), -> heatmap shown (client finishing)
  main thread (the page's renderer main thread, over the same window), by what it was doing:
             style/layout/paint (the trace's UpdateLayoutTree, Layout, Paint, ... events), GC, and
             JavaScript by the script chunk of the nearest stack frame with a URL (Streamlit's
             frontend ships Plotly, KaTeX, protobuf, React DOM and markdown as separately named
             chunks of static/js), then other native work, and idle (the rest of the window).

Tracing with the CPU profiler slows the page a little; the wall times here are for the traced runs.
Usage: nice .venv/bin/python bench/browser_profile.py [--rounds 8] [--per-round 1] [--keep-trace DIR]
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.browser_latency import (  # noqa: E402
    BARE_APP,
    BARE_FLAGS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DEFAULT_WORDS,
    ENTER_WORDS,
    IDLE_JS,
    SHOWN_JS,
    TICKS,
    free_port,
    labels,
    start_server,
    stop_server,
    wait_healthy,
    words,
)

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "toplevel",
              "blink.user_timing", "disabled-by-default-v8.cpu_profiler", "disabled-by-default-v8.gc"]  # fmt: skip
# Main-thread trace events that are the browser's own rendering work, whoever triggered them (a forced
# layout inside Plotly's JavaScript counts here, not as Plotly).
RENDER_EVENTS = {"UpdateLayoutTree", "Layout", "RecalculateStyles", "Paint", "PrePaint", "Layerize", "UpdateLayer",
                 "UpdateLayerTree", "Commit", "PaintImage", "HitTest", "ParseAuthorStyleSheet"}  # fmt: skip
GC_EVENTS = {"MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "V8.GCIncrementalMarking",
             "BlinkGC.AtomicPhase", "V8.GCCompactor", "ThreadState::performIdleLazySweep"}  # fmt: skip
# Script chunks of Streamlit's frontend (static/js/<Name>.<hash>.js) -> component.
REACT = "js: react + emotion"
CHUNKS = {"PlotlyChart": "js: plotly", "katex": "js: katex", "rehype-katex": "js: katex", "protobuf": "js: protobuf",
          "react-dom": REACT, "emotion-react": REACT, "emotion-styled": REACT, "emotion-is-prop-valid": REACT,
          "StreamlitMarkdown": "js: markdown", "rehype-raw": "js: markdown",
          "index": "js: streamlit (index)"}  # fmt: skip
COMPONENTS = ["js: plotly", "js: katex", "js: markdown", "js: protobuf", "js: react + emotion", "js: streamlit (index)",
              "js: other chunks", "style/layout/paint", "gc", "other native", "idle"]  # fmt: skip
TIMELINE = ["client: Enter -> BackMsg sent", "server: BackMsg -> first ForwardMsg",
            "server: first ForwardMsg -> heatmap's delta", "client: heatmap's delta -> shown"]  # fmt: skip
COUNTS = ["deltas", "delta KB", "deltas after the heatmap's", "page_info_changed (URL pushState)", "plots",
          "plot divs mounted anew"]  # fmt: skip

INSTALL_JS = """() => {
    window.__bench = {t0: null, plots: 0};
    document.addEventListener('keydown', e => {
        if (e.key === 'Enter' && e.target.getAttribute('aria-label') === 'Prompt') {
            window.__bench.t0 = performance.now(); performance.mark('bench:enter');
        }
    }, true);
}"""
# Plotly figure divs the rerun mounted anew (a new div is a full Plotly.newPlot, not a Plotly.react update).
SEEN_PLOTS_JS = """() => { window.__bench.seen = window.__bench.seen || new WeakSet();
    const divs = [...document.querySelectorAll('.js-plotly-plot')];
    const fresh = divs.filter(d => !window.__bench.seen.has(d)).length;
    divs.forEach(d => window.__bench.seen.add(d));
    return [divs.length, fresh]; }"""
SHOWN_MARK_JS = f"(args) => {{ const r = ({SHOWN_JS})(args); if (r) performance.mark('bench:shown'); return r; }}"


def chunk_of(url: str) -> str:
    """The component a script URL belongs to: static/js/<Name>.<hash>.js -> CHUNKS[Name], else other."""
    return CHUNKS.get(url.rsplit("/", 1)[-1].split(".")[0], "js: other chunks")


def main_thread(events: list[dict]) -> tuple[int, int]:
    """(pid, tid) of the renderer main thread that recorded the bench:enter mark."""
    mark = next(e for e in events if e.get("name") == "bench:enter")
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    if names.get((mark["pid"], mark["tid"])) == "CrRendererMain":
        return mark["pid"], mark["tid"]
    return next(k for k, v in names.items() if k[0] == mark["pid"] and v == "CrRendererMain")


def mark_ts(events: list[dict], name: str) -> float:
    """Trace time (µs) of a performance.mark (the last one with that name)."""
    return max(e["ts"] for e in events if e.get("name") == name and e.get("ph") in ("R", "I", "n", "b", "X"))


def intervals(events: list[dict], pid: int, tid: int, names: set[str], lo: float, hi: float) -> list[tuple]:
    """Merged [start, end] µs of complete ('X') or begin/end events with these names on one thread, clipped."""
    spans, open_ = [], {}
    for e in sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("name") in names),
                    key=lambda e: e["ts"]):  # fmt: skip
        if e["ph"] == "X":
            spans.append((e["ts"], e["ts"] + e.get("dur", 0)))
        elif e["ph"] == "B":
            open_[e["name"]] = e["ts"]
        elif e["ph"] == "E" and e["name"] in open_:
            spans.append((open_.pop(e["name"]), e["ts"]))
    merged: list[list[float]] = []
    for a, b in sorted((max(a, lo), min(b, hi)) for a, b in spans if b > lo and a < hi):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [tuple(m) for m in merged]


def samples(events: list[dict], pid: int, tid: int) -> list[tuple[float, str]]:
    """CPU profile samples of one thread as (trace µs, component), from the Profile/ProfileChunk events.

    A sample's component is that of the nearest frame on its stack with a script URL; V8's pseudo
    frames "(garbage collector)", "(idle)", "(program)" map to gc, idle, other native."""
    nodes: dict[int, dict] = {}
    out: list[tuple[float, str]] = []
    ids = {e["id"] for e in events if e.get("name") == "Profile" and e.get("pid") == pid and e.get("tid") == tid}
    start = {e["id"]: e["args"]["data"]["startTime"] for e in events if e.get("name") == "Profile" and e["id"] in ids}
    chunks = [e for e in events if e.get("name") == "ProfileChunk" and e.get("id") in ids]
    t = None
    for e in sorted(chunks, key=lambda e: e["ts"]):
        data, profile = e["args"]["data"], e["args"]["data"].get("cpuProfile", {})
        for n in profile.get("nodes", []):
            nodes[n["id"]] = n
        t = start[e["id"]] if t is None else t
        for node_id, delta in zip(profile.get("samples", []), data.get("timeDeltas", []), strict=True):
            t += delta
            out.append((t, node_id))
    memo: dict[int, str] = {}

    def component(node_id: int) -> str:
        if node_id in memo:
            return memo[node_id]
        n, c = nodes.get(node_id), None
        while n is not None:
            frame = n.get("callFrame", {})
            fn, url = frame.get("functionName", ""), frame.get("url", "")
            if url:
                c = chunk_of(url)
                break
            if fn in ("(garbage collector)", "(idle)", "(program)", "(root)"):
                c = {"(garbage collector)": "gc", "(idle)": "idle"}.get(fn, "other native")
                break
            n = nodes.get(n.get("parent"))
        memo[node_id] = c or "other native"
        return memo[node_id]

    return [(ts, component(nid)) for ts, nid in out]


def inside(t: float, spans: list[tuple]) -> bool:
    return any(a <= t < b for a, b in spans)


def breakdown(events: list[dict]) -> dict[str, float]:
    """Milliseconds of the main thread per COMPONENTS between the bench:enter and bench:shown marks.

    Each sample stands for the time until the next one (clipped to the window); a sample inside a
    rendering or GC trace event counts as that, whatever its stack. The parts sum to the window."""
    pid, tid = main_thread(events)
    lo, hi = mark_ts(events, "bench:enter"), mark_ts(events, "bench:shown")
    render = intervals(events, pid, tid, RENDER_EVENTS, lo, hi)
    gc = intervals(events, pid, tid, GC_EVENTS, lo, hi)
    out = dict.fromkeys(COMPONENTS, 0.0)
    ss = [*samples(events, pid, tid), (hi, "idle")]
    for (t, c), (t_next, _) in itertools.pairwise(ss):
        a, b = max(t, lo), min(t_next, hi)
        if b <= a:
            continue
        if inside(a, render):
            c = "style/layout/paint"
        elif inside(a, gc):
            c = "gc"
        out[c] += (b - a) / 1000
    covered = sum(out.values())
    out["idle"] += max(0.0, (hi - lo) / 1000 - covered)  # before the first sample: nothing recorded, idle
    out["wall"] = (hi - lo) / 1000
    return out


def decode_frame(payload: str, sent: bool) -> str:
    """The message type of one websocket frame (Streamlit sends binary protobuf frames); a delta that adds
    an element is named by the element, e.g. "delta:plotly_chart"."""
    from streamlit.proto import BackMsg_pb2, ForwardMsg_pb2

    msg = BackMsg_pb2.BackMsg() if sent else ForwardMsg_pb2.ForwardMsg()
    try:
        msg.ParseFromString(base64.b64decode(payload))
    except Exception:  # text frames, or a type this version does not know
        return "?"
    kind = msg.WhichOneof("type") or "?"
    if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
        return f"delta:{msg.delta.new_element.WhichOneof('type')}"
    return kind


def timeline(frames: list[dict], lo: float, hi: float) -> tuple[dict[str, float], dict]:
    """Split [lo, hi] (trace µs) at the rerun's BackMsg, its first ForwardMsg and the heatmap's delta
    (CDP timestamps are seconds on the same monotonic clock as the trace's µs), and count what came back
    during the window."""
    win = [f for f in frames if lo <= f["t"] * 1e6 <= hi]
    sent = next((f["t"] * 1e6 for f in win if f["sent"] and f["type"] == "rerun_script"), None)
    back = [f for f in win if not f["sent"] and sent is not None and f["t"] * 1e6 >= sent]
    heatmap = [f["t"] * 1e6 for f in back if f["type"] == "delta:plotly_chart"]
    if sent is None or not back or not heatmap:
        return {}, {}
    first = back[0]["t"] * 1e6
    bounds = [lo, sent, first, heatmap[-1], hi]
    parts = {k: (b - a) / 1000 for k, a, b in zip(TIMELINE, bounds, bounds[1:], strict=False)}
    deltas = [f for f in back if f["type"].startswith("delta") or f["type"] == "ref_hash"]
    counts = {"deltas": len(deltas), "delta KB": sum(f["bytes"] for f in deltas) / 1024,
              "page_info_changed (URL pushState)": sum(f["type"] == "page_info_changed" for f in back),
              "deltas after the heatmap's": sum(f["t"] * 1e6 > heatmap[-1] for f in deltas)}  # fmt: skip
    return parts, counts


def traced_enter(browser, page: Page, frames: list, ws: list[str], previous: list[str], keep: Path | None) -> dict:
    """One Enter -> heatmap under a Chromium trace: the main-thread breakdown, the timeline and the counts."""
    page.evaluate("() => { window.__bench.t0 = null; performance.clearMarks(); }")
    page.evaluate(SEEN_PLOTS_JS)
    box = page.get_by_role("textbox", name="Prompt")
    box.fill(" ".join(ws))
    frames.clear()
    browser.start_tracing(page=page, categories=CATEGORIES)
    try:
        box.press("Enter")
        handle = page.wait_for_function(SHOWN_MARK_JS, arg=[TICKS, labels(ws), labels(previous)], polling="raf",
                                        timeout=60_000)  # fmt: skip
        in_page_ms = float(handle.json_value())
        page.wait_for_function(IDLE_JS, timeout=60_000)
    finally:
        raw = browser.stop_tracing()
    trace = json.loads(raw)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    if keep:
        (keep / f"trace-{len(list(keep.iterdir()))}.json").write_bytes(raw)
    out = breakdown(events)
    parts, sizes = timeline(frames, mark_ts(events, "bench:enter"), mark_ts(events, "bench:shown"))
    n_plots, fresh = page.evaluate(SEEN_PLOTS_JS)
    return {**out, **parts, **sizes, "in_page_ms": in_page_ms, "plots": n_plots, "plot divs mounted anew": fresh}


def listen_frames(page: Page) -> list[dict]:
    """Record the page's websocket frames (CDP Network events) into a list the caller clears per Enter."""
    frames: list[dict] = []
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")

    def on(sent: bool):
        def handler(p: dict) -> None:
            data = p["response"].get("payloadData", "")
            frames.append({"t": p["timestamp"], "sent": sent, "bytes": len(data) * 3 // 4,
                           "type": decode_frame(data, sent)})  # fmt: skip

        return handler

    cdp.on("Network.webSocketFrameSent", on(True))
    cdp.on("Network.webSocketFrameReceived", on(False))
    page.__bench_cdp = cdp  # keep the session alive with the page
    return frames


def run(rounds: int, per_round: int, keep: Path | None) -> dict[str, list[dict]]:
    python = ROOT / ".venv" / "bin" / "python"
    python = str(python if python.exists() else sys.executable)
    flags = ["--server.headless", "true", "--browser.gatherUsageStats", "false"]
    out: dict[str, list[dict]] = {"explorer": [], "bare": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        (Path(tmp) / "bare.py").write_text(BARE_APP)
        ports = {"explorer": free_port(), "bare": free_port()}
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        procs = {"explorer": start_server([python, "-m", "streamlit", "run", "app.py", "--server.port",
                                           str(ports["explorer"]), *flags], ROOT),
                 "bare": start_server([python, "-m", "streamlit", "run", "bare.py", "--server.port",
                                       str(ports["bare"]), *flags, *BARE_FLAGS], Path(tmp), env)}  # fmt: skip
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pages, frames = {}, {}
            for name, path in (("explorer", "/explorer"), ("bare", "/")):
                wait_healthy(f"http://127.0.0.1:{ports[name]}/_stcore/health", procs[name])
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                frames[name] = listen_frames(page)
                page.goto(f"http://127.0.0.1:{ports[name]}{path}")
                page.locator(TICKS).first.wait_for(state="visible", timeout=120_000)
                page.wait_for_function(IDLE_JS, timeout=60_000)
                page.evaluate(INSTALL_JS)
                pages[name] = page
            pair = [words(ENTER_WORDS, "alice", "happy"), words(ENTER_WORDS, "bob", "happy")]
            previous = {name: DEFAULT_WORDS for name in pages}
            for name, page in pages.items():  # warm-up, untraced: both prompts once (the Explorer caches their traces)
                for ws in pair:
                    traced = traced_enter(browser, page, frames[name], ws, previous[name], None)
                    previous[name] = ws
            for r in range(rounds):
                for name in ("explorer", "bare") if r % 2 == 0 else ("bare", "explorer"):
                    for i in range(per_round):
                        ws = pair[(i + r * per_round) % 2]
                        traced = traced_enter(browser, pages[name], frames[name], ws, previous[name], keep)
                        out[name].append({**traced, "round": r})
                        previous[name] = ws
                print(f"round {r + 1}/{rounds}: explorer {out['explorer'][-1]['wall']:.0f} ms, "
                      f"bare {out['bare'][-1]['wall']:.0f} ms", file=sys.stderr)  # fmt: skip
        finally:
            browser.close()
            for proc in procs.values():
                stop_server(proc)
    return out


def median(rows: list[dict], key: str) -> float:
    xs = [r[key] for r in rows if key in r]
    return statistics.median(xs) if xs else float("nan")


def report(out: dict[str, list[dict]], load_before: str, load_after: str) -> dict:
    ex, bare = out["explorer"], out["bare"]
    print(f"Enter -> redrawn heatmap under a Chromium trace ({ENTER_WORDS + 1}-token prompts, two alternating, "
          f"traces cached): median ms over {len(ex)} Enters per page, interleaved.\n")  # fmt: skip
    print("| component | Explorer | bare page | Explorer − bare |")
    print("| --- | ---: | ---: | ---: |")
    keys = ["wall", "in_page_ms", *TIMELINE, *COMPONENTS]
    summary = {}
    for key in keys:
        a, b = median(ex, key), median(bare, key)
        summary[key] = {"explorer": round(a, 1), "bare": round(b, 1)}
        label = {"wall": "**wall: Enter -> shown**", "in_page_ms": "wall, in-page performance.now()"}.get(key, key)
        if key == TIMELINE[0]:
            print("| *websocket timeline* | | | |")
        if key == COMPONENTS[0]:
            print("| *main thread over the same window* | | | |")
        print(f"| {label} | {a:.1f} | {b:.1f} | {a - b:+.1f} |")
    print("| *counts per Enter* | | | |")
    for key in COUNTS:
        a, b = median(ex, key), median(bare, key)
        summary[key] = {"explorer": round(a, 1), "bare": round(b, 1)}
        print(f"| {key.replace('_', ' ')} | {a:.4g} | {b:.4g} | |")
    rounds = sorted({row["round"] for row in ex})
    ratios = [median([x for x in ex if x["round"] == r], "wall") / median([x for x in bare if x["round"] == r], "wall")
              for r in rounds]  # fmt: skip
    print(f"\nratio Explorer/bare per round (medians of each round, traced): median {statistics.median(ratios):.2f}, "
          f"range {min(ratios):.2f}-{max(ratios):.2f}")  # fmt: skip
    print(f"load average before {load_before}, after {load_after} on {os.cpu_count()} CPUs")
    return {"rounds": len(ratios), "ratio_median": round(statistics.median(ratios), 3), "median_ms": summary}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=8, help="interleaved Explorer/bare rounds (traced)")
    ap.add_argument("--per-round", type=int, default=1, help="Enter presses per page per round")
    ap.add_argument("--keep-trace", type=Path, help="write every trace here (open in chrome://tracing or DevTools)")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: install Debian's chromium (`make setup` does)")
    if args.keep_trace:
        args.keep_trace.mkdir(parents=True, exist_ok=True)
    load_before = Path("/proc/loadavg").read_text().strip()
    out = run(args.rounds, args.per_round, args.keep_trace)
    summary = report(out, load_before, Path("/proc/loadavg").read_text().strip())
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
