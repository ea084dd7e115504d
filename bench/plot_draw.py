"""How long Plotly takes to draw the Explorer's heatmap, with the margins viz/margins.py fits and with the 10 px
margins every figure started from (Plotly's automargin then grows them: a second layout and draw). Prints a table;
not a test.

Starts the app, opens the Explorer in Chromium for a few prompts, and reads the heatmap's figure as the page drew it
(Streamlit's theme applied). Then, in a blank page with the plotly.js that the `plotly` package ships (a standalone
copy: Streamlit bundles its own), times Plotly.newPlot up to the next animation frame, median of --repeat draws,
for the figure as drawn and for the same figure with the old margins; and says whether automargin had to grow the
fitted margins (it should not).

Usage: .venv/bin/python bench/plot_draw.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import copy
import sys
import urllib.parse
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402

PLOTLY_JS = Path(__import__("plotly").__file__).parent / "package_data" / "plotly.min.js"
PROMPTS = {
    "16 tokens": "alice knows the cats that the dog sees are happy . alice knows the bob",
    "6 tokens": "the cats are happy .",
    "Chinese": "小明说小红喜欢苹果。小明说小红喜欢",
    "64 tokens": " ".join(["alice knows the cats that the dog sees are happy ."] * 6),
}
READ_JS = """() => { const gd = document.querySelector('.js-plotly-plot');
    const strip = o => JSON.parse(JSON.stringify(o, (k, v) => k.startsWith('_') ? undefined : v));
    return {data: strip(gd.data), layout: strip(gd.layout)}; }"""
DRAW_JS = """async ([data, layout, n]) => { const g = document.getElementById('g'); const ts = [];
    for (let i = 0; i < n; i++) { Plotly.purge(g); const t0 = performance.now();
        await Plotly.newPlot(g, data, layout); await new Promise(r => requestAnimationFrame(() => r()));
        ts.push(performance.now() - t0); }
    ts.sort((a, b) => a - b); const m = g.layout.margin, s = g._fullLayout._size;
    return {ms: ts[Math.floor(n / 2)], grown: s.l > m.l + 0.5 || s.r > m.r + 0.5 || s.b > m.b + 0.5}; }"""


def old_margins(figure: dict) -> dict:
    """The figure as drawn before viz/margins.py: 10 px sides, the colour bar at Plotly's default place."""
    old = copy.deepcopy(figure)
    old["layout"]["margin"].update(l=10, r=10, b=10)
    for trace in old["data"]:
        trace.get("colorbar", {}).pop("x", None)
    return old


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    port = bl.free_port()
    python = ROOT / ".venv" / "bin" / "python"
    cmd = [str(python if python.exists() else sys.executable), "-m", "streamlit", "run", "app.py",
           "--server.port", str(port), "--server.headless", "true"]  # fmt: skip
    proc = bl.start_server(cmd, ROOT)
    rows = []
    try:
        bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=bl.CHROMIUM, args=bl.CHROMIUM_ARGS)
            figures = {}
            for name, prompt in PROMPTS.items():
                page = browser.new_page(viewport={"width": 1366, "height": 768})
                page.goto(f"http://127.0.0.1:{port}/explorer?prompt={urllib.parse.quote(prompt)}")
                page.locator(bl.TICKS).first.wait_for(state="visible", timeout=60_000)
                page.wait_for_function(bl.IDLE_JS, timeout=60_000)
                figures[name] = page.evaluate(READ_JS)
                page.close()
            blank = browser.new_page(viewport={"width": 1366, "height": 768})
            blank.set_content("<div id=g style='width:820px'></div>")  # the Explorer's figure width at 1366 px
            blank.add_script_tag(path=str(PLOTLY_JS))
            for name, fig in figures.items():
                fitted = blank.evaluate(DRAW_JS, [fig["data"], fig["layout"], args.repeat])
                old = old_margins(fig)
                grown = blank.evaluate(DRAW_JS, [old["data"], old["layout"], args.repeat])
                rows.append((name, grown["ms"], fitted["ms"], fitted["grown"]))
    finally:
        bl.stop_server(proc)
    print(f"Plotly.newPlot of the Explorer's heatmap, median of {args.repeat} draws (ms to next frame), 820 px wide")
    print("| prompt | 10 px margins (automargin grows them) | fitted margins | automargin grew the fitted ones |")
    print("| --- | ---: | ---: | --- |")
    for name, old_ms, new_ms, grew in rows:
        print(f"| {name} | {old_ms:.1f} | {new_ms:.1f} | {'yes' if grew else 'no'} |")


if __name__ == "__main__":
    main()
