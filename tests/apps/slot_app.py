"""A one-page app for tests/test_fragment_slots.py, run by a real server (in a folder of its own: the
script's folder comes first on sys.path, and tests/models would hide models/): a full run holds a run slot as
app.py's does (slots.run_slot), for `hold` seconds when the URL asks; a slots.fragment inside it, on a timer
(so the server announces its id), says when its own reruns run. With `heavy=1` in the URL every run takes
the published models' lane instead (slots.heavy_run), whose waiting runs show their place in the queue."""

import time

import streamlit as st

from ui import slots

slots.heavy_run = lambda: st.query_params.get("heavy") == "1"  # a run the URL calls heavy takes that lane

with slots.run_slot(st.empty()):
    st.markdown(f"full run, slots {slots.RUN_SLOTS}")
    time.sleep(float(st.query_params.get("hold", "0")))

    @slots.fragment(run_every=600)
    def beat() -> None:
        st.markdown(f"fragment ran at {time.monotonic():.3f}")

    beat()
