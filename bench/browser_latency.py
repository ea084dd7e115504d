"""Prompt -> figure latency in a real browser, cold start, and server memory. Prints tables; not a test.

Starts `streamlit run app.py` on a free port and drives Debian's Chromium (/usr/bin/chromium) with
Playwright. For prompts of about 16, 64 and 256 tokens (the decoder reads at most 256, so the last
one is truncated with a notice) it changes the prompt 20 times and times, in the page
(performance.now()), from the input event to the first animation frame where the heatmap's y tick
labels show the new prompt. The prompt box is `st.text_input(live=True)`: the app reruns 250 ms
after the last change, and that fixed pause is part of what a user waits for.

Two runs per size:
  alternating  two prompts of the same length (ending "… alice" / "… bob"), as a user toggling;
               after the first pair the trace comes from st.cache_data, so the model does not run
  fresh        a new prompt every change (another name or adjective): the model runs every time

Then Enter -> redrawn heatmap, Explorer against a bare page (BARE_APP: one heatmap of the same size from
the same live text input, weights from the same tiny decoder, cached per prompt; served with the app's
config, BARE_FLAGS), so what the Explorer adds over Streamlit + Plotly shows as a ratio. Both measures
fill() the whole prompt and press Enter: "cached" alternates two prompts in one browser, timed from the
keydown; "fresh" (issue 31) opens a fresh browser a round and enters new prompts (the model runs), timed
from fill() (Python) and from the keydown. Rounds interleave the pages, so the machine's drifting load hits
both alike: on a loaded machine the per-round ratio Explorer/bare is what counts.

Usage: .venv/bin/python bench/browser_latency.py [--repeat 20] [--rounds 6] [--fresh-rounds 4] [--only all|cold|enter]
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip
DEBOUNCE_MS = 250  # st.text_input(live=True)
MAX_LEN = 256  # the decoder's max_len, special tokens included
SIZES = {16: 15, 64: 63, 256: 280}  # nominal tokens -> words typed ([BOS] + one token per word)
NAMES = ["alice", "bob", "carol", "dave", "emma", "frank", "grace", "henry", "ivy", "jack"]
ADJECTIVES = ["happy", "tired", "hungry"]
DEFAULT_WORDS = ["the", "cats", "that", "the", "dog", "sees", "are", "happy", "."]  # the app's default prompt
TICKS = ".js-plotly-plot .ytick text"

# In the page: remember when the prompt box last received input.
INSTALL_JS = """() => {
    window.__bench = {t0: null};
    document.addEventListener('input', e => {
        if (e.target.getAttribute('aria-label') === 'Prompt') window.__bench.t0 = performance.now();
    }, true);
}"""
# Polled every animation frame: true once every shown y tick belongs to the new prompt and at least
# one could not belong to the previous one; returns ms since the input event.
SHOWN_JS = """([sel, expected, previous]) => {
    const shown = [...document.querySelectorAll(sel)].map(e => e.textContent);
    if (!shown.length || window.__bench.t0 === null) return false;
    const exp = new Set(expected), prev = new Set(previous);
    if (!shown.every(s => exp.has(s)) || !shown.some(s => !prev.has(s))) return false;
    return Math.max(performance.now() - window.__bench.t0, 1e-3);
}"""
# Enter in the prompt box: the moment the user commits the text (fill() fires input first, then Enter).
INSTALL_ENTER_JS = """() => {
    window.__bench = {t0: null};
    document.addEventListener('keydown', e => {
        const prompt = e.target.getAttribute('aria-label') === 'Prompt';
        if (e.key === 'Enter' && prompt) window.__bench.t0 = performance.now();
    }, true);
}"""
IDLE_JS = "() => document.querySelector('.stApp')?.getAttribute('data-test-script-state') === 'notRunning'"


# The bare page: one heatmap of the same size and axes as the Explorer's one-head view, from a text
# input labelled like the app's prompt box, and nothing else. Its attention comes from the same tiny
# 2-layer decoder, cached per prompt as the Explorer's trace is, so a new prompt runs a model on both.
BARE_APP = """
import plotly.graph_objects as go
import streamlit as st
import models
from viz.axes import grid_height

model = st.cache_resource(models.load, show_spinner=False)

@st.cache_data(max_entries=64, show_spinner=False)
def attention(text):
    return model("decoder").run(text).attention["decoder.self"][0, 0]

text = st.text_input("Prompt", "the cats that the dog sees are happy .", live=True)
ws = text.split()
tokens = ["[BOS]", ws[0]] + ["\u2423" + w for w in ws[1:]]
labels = [f"{i} {tok}" for i, tok in enumerate(tokens)]
n = len(labels)
z = attention(text)[:n, :n]
fig = go.Figure(go.Heatmap(z=z, x=labels, y=labels, zmin=0, zmax=1, colorscale="Blues"))
fig.update_layout(height=grid_height(n, 1.0), margin=dict(l=10, r=10, t=40, b=10), title="Layer 1, head 1")
fig.update_xaxes(type="category", constrain="domain")
fig.update_yaxes(type="category", autorange="reversed", scaleanchor="x", scaleratio=1, constrain="domain")
st.plotly_chart(fig, key="heatmap")
"""
# The app's .streamlit/config.toml settings that bear on a rerun, for the bare page (its temp dir has none): no
# file watcher, no gc.collect(2) after every run. Without them the bare page was 2-4x slower (the Explorer "0.80x").
BARE_FLAGS = ["--server.fileWatcherType", "none", "--runner.postScriptGC", "false"]
ENTER_WORDS = 15  # a prompt of about 16 tokens: the Explorer's everyday size


def words(n_words: int, name: str, adjective: str) -> list[str]:
    """Toy-language words (each one token), a name in every sentence, ending with the name.

    Above about 30 rows Plotly labels only every k-th row (k = 2, 4, …); an odd sentence length
    (11) puts some name on a labelled row whatever k is, so two prompts' labels always differ."""
    sentence = f"{name} knows the cats that the dog sees are {adjective} .".split()
    return [sentence[i % len(sentence)] for i in range(n_words - 1)] + [name]


def labels(ws: list[str]) -> list[str]:
    """The heatmap's axis labels "i token" for these words: [BOS], then ␣ before every word but the first."""
    tokens = ["[BOS]", ws[0]] + ["␣" + w for w in ws[1:]]
    return [f"{i} {tok}" for i, tok in enumerate(tokens[:MAX_LEN])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"streamlit exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"{url} did not answer within {timeout} s")


def change_prompt(page: Page, ws: list[str], previous: list[str]) -> float:
    """Set the prompt; ms from the input event until the heatmap shows it. Returns once the run is over."""
    page.evaluate("() => { window.__bench.t0 = null; }")
    page.get_by_role("textbox", name="Prompt").fill(" ".join(ws))
    handle = page.wait_for_function(SHOWN_JS, arg=[TICKS, labels(ws), labels(previous)], polling="raf", timeout=60_000)
    ms = float(handle.json_value())
    page.wait_for_function(IDLE_JS, timeout=60_000)  # let the rest of the page finish before the next change
    return ms


def shown_tokens(page: Page) -> tuple[int, bool]:
    """(N of the caption "… N tokens", whether the truncation notice is shown)."""
    caption = page.get_by_text(re.compile(r"reads the prompt: \d+ tokens")).first.inner_text()
    n = int(re.search(r"(\d+) tokens", caption).group(1))
    return n, page.get_by_text("only the beginning is shown").count() > 0


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20, method="inclusive")[-1]


def enter_prompt(page: Page, ws: list[str], previous: list[str]) -> tuple[float, float]:
    """fill() the whole prompt at once and press Enter, as a test harness (or a paste, or autofill) delivers it;
    (ms from the keydown, in the page; ms from the fill() call, in Python) until the heatmap shows it."""
    page.evaluate("() => { window.__bench.t0 = null; }")
    box = page.get_by_role("textbox", name="Prompt")
    t0 = time.perf_counter()
    box.fill(" ".join(ws))
    box.press("Enter")
    handle = page.wait_for_function(SHOWN_JS, arg=[TICKS, labels(ws), labels(previous)], polling="raf", timeout=60_000)
    wall = (time.perf_counter() - t0) * 1000
    ms = float(handle.json_value())
    page.wait_for_function(IDLE_JS, timeout=60_000)
    return ms, wall


def open_enter_page(browser, url: str) -> Page:
    """A new tab on url, its first heatmap drawn and the run over, with the Enter timer installed."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url)
    page.locator(TICKS).first.wait_for(state="visible", timeout=120_000)
    page.wait_for_function(IDLE_JS, timeout=60_000)
    page.evaluate(INSTALL_ENTER_JS)
    return page


def start_server(cmd: list[str], cwd: Path, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=env)  # fmt: skip


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def enter_rounds(p, browser, app_url: str, python: str, args) -> dict[str, dict[str, list]]:
    """Interleaved rounds of Enter -> redrawn heatmap on the Explorer and on the bare page (see BARE_APP):
    "cached", two prompts alternating in one browser; "fresh", new prompts and a fresh browser a round."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "bare.py").write_text(BARE_APP)
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cmd = [python, "-m", "streamlit", "run", "bare.py", "--server.port", str(port), "--server.headless", "true",
               "--browser.gatherUsageStats", "false", *BARE_FLAGS]  # fmt: skip
        proc = start_server(cmd, Path(tmp), env)
        try:
            wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
            urls = {"explorer": f"{app_url}/explorer", "bare": f"http://127.0.0.1:{port}/"}
            pages = {name: open_enter_page(browser, url) for name, url in urls.items()}
            pair = [words(ENTER_WORDS, "alice", "happy"), words(ENTER_WORDS, "bob", "happy")]
            previous = {name: DEFAULT_WORDS for name in pages}
            for name, page in pages.items():  # warm-up: both prompts once (the Explorer caches their traces)
                for ws in pair:
                    enter_prompt(page, ws, previous[name])
                    previous[name] = ws
            out = {"cached": {"explorer": [], "bare": [], "ratios": []}}
            for r in range(args.rounds):
                medians = {}
                for name in ("explorer", "bare") if r % 2 == 0 else ("bare", "explorer"):
                    times = []
                    for _ in range(args.per_round):
                        ws = pair[1] if previous[name] == pair[0] else pair[0]  # the other one, whatever per_round is
                        times.append(enter_prompt(pages[name], ws, previous[name])[0])
                        previous[name] = ws
                    out["cached"][name] += times
                    medians[name] = statistics.median(times)
                out["cached"]["ratios"].append(medians["explorer"] / medians["bare"])
            if args.fresh_rounds:
                launch = functools.partial(p.chromium.launch, executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                out.update(fresh_rounds(launch, urls, args.fresh_rounds, args.fresh_per_round))
            return out
        finally:
            stop_server(proc)


def fresh_rounds(launch, urls: dict[str, str], rounds: int, per_round: int) -> dict[str, dict[str, list]]:
    """Issue 31's way: each round a fresh browser, then on each page (alternating which goes first) per_round
    prompts neither server has seen (the model runs every time), timed from the keydown and from fill()."""
    out = {m: {"explorer": [], "bare": [], "ratios": []} for m in ("fresh, from fill()", "fresh, from keydown")}
    for r in range(rounds):
        browser = launch()
        try:
            medians = {}
            for name in ("explorer", "bare") if r % 2 == 0 else ("bare", "explorer"):
                page, previous, times = open_enter_page(browser, urls[name]), DEFAULT_WORDS, []
                for i in range(r * per_round, (r + 1) * per_round):  # the same new prompts on both pages
                    ws = words(ENTER_WORDS, NAMES[i % len(NAMES)], ADJECTIVES[(1 + i // len(NAMES)) % len(ADJECTIVES)])
                    times.append(enter_prompt(page, ws, previous))
                    previous = ws
                page.close()
                for m, ts in zip(out, ([w for _, w in times], [k for k, _ in times]), strict=True):
                    out[m][name] += ts
                    medians[m, name] = statistics.median(ts)
            for m in out:
                out[m]["ratios"].append(medians[m, "explorer"] / medians[m, "bare"])
        finally:
            browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=6, help="interleaved Explorer/bare rounds of Enter -> heatmap")
    ap.add_argument("--per-round", type=int, default=6, help="Enter presses per page per round")
    ap.add_argument("--fresh-rounds", type=int, default=4, help="rounds of new prompts, a fresh browser each")
    ap.add_argument("--fresh-per-round", type=int, default=5, help="new prompts per page per fresh round")
    only = "cold: just the cold start; enter: cold start and the Enter rounds, no size tables"
    ap.add_argument("--only", choices=["all", "cold", "enter"], default="all", help=only)
    args = ap.parse_args()
    if args.fresh_rounds * args.fresh_per_round > 2 * len(NAMES):
        ap.error(f"at most {2 * len(NAMES)} new prompts (names x 2 adjectives) in all the fresh rounds")
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: install Debian's chromium (`make setup` does)")
    python = ROOT / ".venv" / "bin" / "python"
    port = free_port()
    cmd = [str(python if python.exists() else sys.executable), "-m", "streamlit", "run", "app.py",
           "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]  # fmt: skip
    results: dict[str, dict[int, tuple[int, bool, list[float]]]] = {"alternating": {}, "fresh": {}}
    enter: dict[str, list] = {}
    load_before = os.getloadavg()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)  # not part of the cold start
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        t_start = time.perf_counter()
        proc = start_server(cmd, ROOT)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(f"{base}/_stcore/health", proc)
            page.goto(f"{base}/explorer")
            page.locator(TICKS).first.wait_for(state="visible", timeout=120_000)
            cold_s = time.perf_counter() - t_start
            page.wait_for_function(IDLE_JS, timeout=60_000)
            page.evaluate(INSTALL_JS)
            rss_warm = rss_end = rss_mb(proc.pid)
            if args.only == "all":
                rss_warm, rss_end = size_runs(page, proc, args.repeat, results)
            if args.only in ("all", "enter"):
                enter = enter_rounds(p, browser, base, cmd[0], args)
        finally:
            browser.close()
            stop_server(proc)
    load_after = os.getloadavg()
    report(args, results, enter, cold_s, rss_warm, rss_end, load_before, load_after)


def size_runs(page: Page, proc: subprocess.Popen, repeat: int, results: dict) -> tuple[float, float]:
    """The prompt-size tables (see the module docstring); returns server RSS after warm-up and at the end."""
    # Warm-up: one change per size (first traces, first figures of each size).
    previous = DEFAULT_WORDS
    for n_words in SIZES.values():
        ws = words(n_words, "carol", "happy")
        change_prompt(page, ws, previous)
        previous = ws
    rss_warm = rss_mb(proc.pid)

    for size, n_words in SIZES.items():
        # alternating: "… alice" / "… bob"; the first pair computes, the rest is cached
        pair = [words(n_words, "alice", "happy"), words(n_words, "bob", "happy")]
        for ws in pair:
            change_prompt(page, ws, previous)
            previous = ws
        n_shown, truncated = shown_tokens(page)
        times = []
        for i in range(repeat):
            ws = pair[i % 2]
            times.append(change_prompt(page, ws, previous))
            previous = ws
        results["alternating"][size] = (n_shown, truncated, times)
        # fresh: a prompt the app has not seen, every time
        times = []
        for i in range(repeat):
            ws = words(n_words, NAMES[i % len(NAMES)], ADJECTIVES[1 + (i // len(NAMES)) % 2])
            times.append(change_prompt(page, ws, previous))
            previous = ws
        results["fresh"][size] = (*shown_tokens(page), times)
    rss_end = rss_mb(proc.pid)
    return rss_warm, rss_end


def report(args, results, enter, cold_s, rss_warm, rss_end, load_before, load_after) -> None:
    if any(results.values()):
        size_tables(args, results)
    print("| cold start (process start -> first heatmap at /explorer) | server RSS after warm-up | server RSS at end |")
    print("| ---: | ---: | ---: |")
    print(f"| {cold_s:.1f} s | {rss_warm:.0f} MB | {rss_end:.0f} MB |")
    if enter:
        enter_table(enter)
    print(f"\nload average (1, 5, 15 min) before {'/'.join(f'{x:.1f}' for x in load_before)}, "
          f"after {'/'.join(f'{x:.1f}' for x in load_after)} on {os.cpu_count()} CPUs")  # fmt: skip


def size_tables(args, results) -> None:
    print(f"Prompt change -> heatmap y tick labels show the new prompt, in Chromium ({args.repeat} changes each).")
    print(f"Times include the fixed {DEBOUNCE_MS} ms live-input debounce (st.text_input(live=True));")
    print("the last two columns subtract it. Decoder model, trained weights, 'one head' heatmap view.\n")
    for mode, rows in results.items():
        note = {"alternating": "two prompts alternating (trace cached by st.cache_data after the first pair)",
                "fresh": "a new prompt every change (the model runs every time)"}[mode]  # fmt: skip
        print(f"**{mode}**: {note}\n")
        print(f"| tokens | median ms | p95 ms | median − {DEBOUNCE_MS} ms debounce | p95 − {DEBOUNCE_MS} ms |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for size, (n_shown, truncated, times) in rows.items():
            med, top = statistics.median(times), p95(times)
            shown = f"{n_shown}" + (" (truncated, notice shown)" if truncated else "")
            if n_shown != size:
                shown += f" [expected {size}]"
            print(f"| {shown} | {med:.0f} | {top:.0f} | {med - DEBOUNCE_MS:.0f} | {top - DEBOUNCE_MS:.0f} |")
        print()


def enter_table(enter: dict[str, dict[str, list]]) -> None:
    """One row per measure: each page's median and p95, and the ratio Explorer/bare of each round's medians."""
    print(f"\nEnter -> redrawn heatmap, {ENTER_WORDS + 1}-token prompts, Explorer and bare page in interleaved rounds.")
    print("cached: two prompts alternating in one browser (traces cached), timed from the keydown; fresh: each round")
    print("a fresh browser and new prompts (the model runs), timed from fill() (Python) and from the keydown.\n")
    print("| measure | rounds x Enters | Explorer median / p95 ms | bare median / p95 ms | ratio: median (range) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for measure, m in enter.items():
        ex, bare, r = m["explorer"], m["bare"], m["ratios"]
        print(f"| {measure} | {len(r)} x {len(ex) // len(r)} | {statistics.median(ex):.0f} / {p95(ex):.0f} | "
              f"{statistics.median(bare):.0f} / {p95(bare):.0f} | "
              f"{statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f}) |")  # fmt: skip


if __name__ == "__main__":
    main()
