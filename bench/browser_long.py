"""A 2,048-token prompt on a Qwen3-0.6B-shaped model in a real browser (issue 30 §3/§4). Prints a table; not a test.

Starts `streamlit run app.py` with one published folder, bench/pretrained_speed.py's qwen3-0.6b (random bfloat16
weights in the real shapes, the app's tokenizer; written once to bench/out/models/), and drives Debian's Chromium.
Each round opens a fresh browser on the Explorer, lets the default prompt draw, fills a new ~2,048-token English
prompt (another each round, so nothing is cached) and presses Enter, then times, from the keydown (Python's clock):
  first    the first heatmap picture (layer 1, head 1) visible: ui/long_runs.py draws it while the forward runs
  full     the whole trace: the progress line gone and the downloads shown
  layer    then one layer up (the layer slider's arrow key) until the picture changes
  head     then one head up, the same way
Targets (issue 30 §4, on the 2-core machine): first <= 4 s, layer and head <= 400 ms (median of the rounds).

Usage: .venv/bin/python bench/browser_long.py [--rounds 3] [--threads 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.browser_latency import (
    CHROMIUM,
    CHROMIUM_ARGS,
    IDLE_JS,
    free_port,
    rss_mb,
    start_server,
    stop_server,
    wait_healthy,
)
from bench.pretrained_speed import OUT, make_folder
from tests.long_prompts import EN_PARAGRAPH

ROOT = Path(__file__).resolve().parents[1]
MODEL = "qwen3-0.6b"
FIRST_S, SWITCH_S = 4.0, 0.4  # the targets
# the long matrix's picture (viz/long_heatmap.py: an image trace; a short prompt's heatmap is a heatmap trace)
SOURCE_JS = """() => { const gd = [...document.querySelectorAll('.js-plotly-plot')]
    .find(g => g.data && g.data[0] && g.data[0].type === 'image' && g.querySelector('image'));
    return gd ? gd.data[0].source : null; }"""
FULL_JS = """() => !document.querySelector('[data-testid="stProgress"]')
    && !!document.querySelector('[data-testid="stDownloadButton"]')"""  # the whole trace drawn (ui/long_runs.py)
CHANGED_JS = f"(old) => {{ const s = ({SOURCE_JS})(); return s !== null && s !== old; }}"
WORDS = ["fox", "owl", "hare", "wren", "stoat", "otter", "badger", "heron"]


def prompt(round_: int) -> str:
    """About 2,048 tokens of the app's byte-level BPE, different every round (the mole becomes another animal)."""
    animal = f"{WORDS[round_ % len(WORDS)]} number {round_}"
    return (EN_PARAGRAPH.replace("mole", animal) * 31)[:9_000]


def slider_step(page: Page, index: int) -> float:
    """Press ArrowRight on the index-th slider of the controls (0: layer, 1: head); seconds until the picture
    changes, then waits for the run to end."""
    old = page.evaluate(SOURCE_JS)
    thumb = page.get_by_test_id("stSlider").nth(index).get_by_role("slider")
    thumb.focus()
    t0 = time.perf_counter()
    thumb.press("ArrowRight")
    page.wait_for_function(CHANGED_JS, arg=old, polling="raf", timeout=120_000)
    took = time.perf_counter() - t0
    page.wait_for_function(IDLE_JS, timeout=120_000)
    return took


def one_round(browser, url: str, round_: int) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(f"{url}/explorer?model={MODEL}&lang=en")
        page.locator(".js-plotly-plot").first.wait_for(state="visible", timeout=300_000)  # the default prompt
        page.wait_for_function(IDLE_JS, timeout=120_000)
        box = page.get_by_role("textbox", name="Prompt")
        box.fill(prompt(round_))
        t0 = time.perf_counter()
        box.press("Enter")
        page.wait_for_function(CHANGED_JS, arg=None, polling="raf", timeout=300_000)
        first = time.perf_counter() - t0
        page.wait_for_function(IDLE_JS, timeout=120_000)  # the partial run over: its progress line shown
        page.wait_for_function(FULL_JS, timeout=600_000)
        page.wait_for_function(IDLE_JS, timeout=120_000)
        full = time.perf_counter() - t0
        return {"first": first, "full": full, "layer": slider_step(page, 0), "head": slider_step(page, 1)}
    finally:
        context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    folder = make_folder(MODEL)
    models_dir = Path(tempfile.mkdtemp(prefix="browser_long_", dir=OUT.parent))
    (models_dir / MODEL).symlink_to(folder)  # $ATTENTION_LAB_MODELS holds this one folder
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.headless", "true",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]  # fmt: skip
    proc = start_server(cmd, ROOT, {**os.environ, "ATTENTION_LAB_MODELS": str(models_dir)})
    url = f"http://127.0.0.1:{port}"
    rows = []
    try:
        wait_healthy(f"{url}/_stcore/health", proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for r in range(args.rounds):
                rows.append(one_round(browser, url, r))
                print(f"round {r + 1}: " + "  ".join(f"{k} {v:.2f} s" for k, v in rows[-1].items()), flush=True)
            browser.close()
        rss = rss_mb(proc.pid)
    finally:
        stop_server(proc)
        shutil.rmtree(models_dir)  # the link only
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"\n{MODEL}, ~2,048 tokens, {args.rounds} rounds, server RSS at the end {rss:.0f} MB")
    print(f"{'':8}{'median':>10}{'min':>10}{'max':>10}")
    for k in med:
        xs = [r[k] for r in rows]
        print(f"{k:8}{med[k]:>9.2f}s{min(xs):>9.2f}s{max(xs):>9.2f}s")
    verdict = lambda ok: "PASS" if ok else "FAIL"  # noqa: E731
    print(f"{verdict(med['first'] <= FIRST_S)}: prompt -> first heatmap {med['first']:.2f} s <= {FIRST_S} s")
    for k in ("layer", "head"):
        print(f"{verdict(med[k] <= SWITCH_S)}: another {k} {med[k] * 1000:.0f} ms <= {SWITCH_S * 1000:.0f} ms")


if __name__ == "__main__":
    main()
