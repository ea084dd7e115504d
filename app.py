"""Attention Lab entry point: page config, shared sidebar and prompt, navigation, URL sync."""

import os

# One BLAS thread per script thread, as torch has (ui/loaders.py): numpy's OpenBLAS starts one per core, and on the
# rank page's SVDs (small matrices) the second did no useful work: the toy decoder's sweep took 0.80 s of CPU for
# 0.44 s alone, 0.42 s of CPU with one thread; beside a busy core, 1.59 s against 0.76 s. Set before numpy is first
# imported (pandas, next: Streamlit has not imported it when app.py first runs).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pandas  # noqa: F401  before any figure, the warm-up chart's included: see viz/__init__.py
import streamlit as st

from ui import downloads, inbox

inbox.install()  # once per process: each session's messages at a bounded rate (ui/inbox.py)
downloads.install()  # once per process: a download made on click outlives other sessions' runs (ui/downloads.py)

# Behind HAProxy (deploy/replicas.py) each replica is named: the About text says which one ran this script,
# so a session's websocket shows where it lives (bench/proxy_load.py checks stickiness with it).
replica = os.environ.get("ATTENTION_LAB_REPLICA", "")
about = {"menu_items": {"About": f"Attention Lab · {replica}"}} if replica else {}
st.set_page_config(page_title="Attention Lab", page_icon=":material/visibility:", layout="wide", **about)

# A browser session's first run: a tiny blank chart sent before the heavy imports below (torch alone
# is about 1.5 s) makes the browser fetch and evaluate plotly.js (4.7 MB, about 1 s) meanwhile,
# instead of after the page's first real figure arrives. Cleared once the imports are done.
early = st.empty()  # in every run, so the elements after it keep their places between runs
if "_plotly_warm" not in st.session_state:
    st.session_state["_plotly_warm"] = True
    hidden = {"visible": False}
    blank = {"xaxis": hidden, "yaxis": hidden, "height": 10, "margin": {"l": 0, "r": 0, "t": 0, "b": 0}}
    dot = {"type": "heatmap", "z": [[0]], "showscale": False}  # Plotly refuses a figure without data
    early.plotly_chart({"data": [dot], "layout": blank}, config={"staticPlot": True, "displayModeBar": False})

from ui import body, classroom, compare_picker, guides, nav, params, shell, state, url  # noqa: E402  (after the warm-up: these import torch)
from ui.i18n import t  # noqa: E402
from ui.pages import LESSONS  # noqa: E402

early.empty()

guides.apply_pending()  # a guided lesson's step, before any widget is drawn
classroom.read_link()  # ?teach= / ?join=: taken out of the address bar before the URL is restored
ignored = url.restore_once(params.PARAMS, params.ALIASES)  # first: a link's model picks the run's lane
state.carry_values()  # every parameter's value, before any widget draws it (a page change, a fragment's app rerun)
state.keep_params()  # at the start too: a run cut short by a page change clicked at once still hands its prompt on
with shell.run_slot(early):  # one of a few script runs at once per process (ui/shell.py: RUN_SLOTS, HEAVY)
    under_model = shell.sidebar()  # language and model first: a class switches models on every page
    home = st.Page("lessons/home.py", title=t("nav.home"), icon=":material/home:", default=True)
    lessons = {
        lesson.name: st.Page(lesson.path, title=t(f"nav.{lesson.name}"), icon=lesson.icon, url_path=lesson.name)
        for lesson in LESSONS
    }
    page = st.navigation([home, *lessons.values()], position="hidden")  # listed by ui/nav.py, in groups
    if page.url_path == "explorer":  # its "Compare with…" right under the model picker (issue 44)
        with under_model:
            compare_picker.draw()
    nav.draw(st.sidebar, home, lessons, page.url_path)
    goto = guides.pending_page()  # a guided lesson's Back / Next: its state is applied in the next run
    if goto in lessons:
        st.switch_page(lessons[goto]) if goto != page.url_path else st.rerun()
    shell.notice_ignored(ignored)
    body.draw(page, page.url_path in lessons)  # a fragment: a widget on the page reruns only it (ui/body.py)
shell.freeze_gc_once()  # after the first page is drawn, not before: its full collection took 0.2 s
