"""bench/browser_profile.py's trace parsing on a small synthetic Chromium trace: every millisecond of the
Enter -> shown window goes to exactly one component, JavaScript by its script chunk (a native call such
as getBoundingClientRect counts for the chunk that made it), rendering and GC events win over the stack,
and the websocket timeline splits the same window."""

import pytest

from bench.browser_profile import COMPONENTS, TIMELINE, breakdown, chunk_of, timeline

PID, TID = 7, 1
JS = "http://127.0.0.1:8501/static/js/"


def frame(node_id, fn, url="", parent=None):
    node = {"id": node_id, "callFrame": {"functionName": fn, "url": url}}
    return node | ({"parent": parent} if parent else {})


def trace():
    nodes = [frame(1, "(root)"), frame(2, "(program)", parent=1), frame(3, "L", JS + "PlotlyChart.D9Z0_fxz.js", 1),
             frame(4, "getBoundingClientRect", parent=3), frame(5, "buildTree", JS + "katex.B_JcIwqj.js", 1),
             frame(6, "(garbage collector)", parent=1), frame(7, "(idle)", parent=1),
             frame(8, "He", JS + "emotion-styled.browser.esm.DdOkyKg_.js", 1)]  # fmt: skip
    # samples at 2, 3, 4, 5, 6, 7, 8, 9 ms (µs on the trace clock): plotly, its native call, plotly (inside a
    # Layout event), katex, gc, idle, program, emotion; the window is 1..11 ms
    samples, deltas = [3, 4, 3, 5, 6, 7, 2, 8], [2000] + [1000] * 7
    return [
        {"name": "thread_name", "ph": "M", "pid": PID, "tid": TID, "args": {"name": "CrRendererMain"}},
        {"name": "thread_name", "ph": "M", "pid": PID, "tid": 9, "args": {"name": "Compositor"}},
        {"name": "bench:enter", "ph": "R", "pid": PID, "tid": TID, "ts": 1000},
        {"name": "bench:shown", "ph": "R", "pid": PID, "tid": TID, "ts": 11000},
        {"name": "Layout", "ph": "X", "pid": PID, "tid": TID, "ts": 4000, "dur": 1000},
        {"name": "Layout", "ph": "X", "pid": PID, "tid": 9, "ts": 2000, "dur": 5000},  # another thread: ignored
        {"name": "Profile", "ph": "P", "pid": PID, "tid": TID, "id": "0x1", "ts": 0,
         "args": {"data": {"startTime": 0}}},
        {"name": "ProfileChunk", "ph": "P", "pid": PID, "tid": TID, "id": "0x1", "ts": 5,
         "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": samples}, "timeDeltas": deltas}}},
    ]  # fmt: skip


def test_every_ms_of_the_window_goes_to_one_component():
    out = breakdown(trace())
    assert out["wall"] == pytest.approx(10.0)
    assert sum(out[c] for c in COMPONENTS) == pytest.approx(out["wall"])
    expected = {"js: plotly": 2.0, "style/layout/paint": 1.0, "js: katex": 1.0, "gc": 1.0, "other native": 1.0,
                "js: react + emotion": 2.0, "idle": 2.0}  # fmt: skip
    assert {c: v for c, v in out.items() if v and c != "wall"} == pytest.approx(expected)


def test_chunks_are_named_by_their_file_stem():
    assert chunk_of(JS + "rehype-katex.YTWa9hPp.js") == chunk_of(JS + "katex.B_JcIwqj.js") == "js: katex"
    assert chunk_of(JS + "index.DormvYxC.js") == "js: streamlit (index)"
    assert chunk_of(JS + "Slider.WU6er_Bo.js") == "js: other chunks"


def test_the_websocket_timeline_splits_the_window():
    def f(ms, sent, kind, size=100):
        return {"t": ms / 1000, "sent": sent, "type": kind, "bytes": size}

    frames = [f(0.5, False, "delta:markdown"),  # before the Enter: not this rerun's
              f(3, True, "rerun_script"), f(10, False, "new_session"), f(20, False, "delta:markdown", 1024),
              f(50, False, "delta:plotly_chart", 2048), f(60, False, "delta:markdown", 1024),
              f(70, False, "page_info_changed"), f(90, False, "script_finished")]  # fmt: skip
    parts, counts = timeline(frames, lo=1000, hi=80_000)
    assert [parts[k] for k in TIMELINE] == pytest.approx([2, 7, 40, 30])
    assert sum(parts.values()) == pytest.approx(79)
    assert counts["deltas"] == 3 and counts["delta KB"] == pytest.approx(4)
    assert counts["deltas after the heatmap's"] == 1 and counts["page_info_changed (URL pushState)"] == 1
    assert timeline(frames[:3], lo=1000, hi=80_000) == ({}, {})  # no heatmap delta in the window
