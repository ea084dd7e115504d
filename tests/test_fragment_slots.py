"""A fragment's reruns of its own hold a run slot (ui/slots.fragment), on a real server with one run slot:
Streamlit runs only the fragment's function then, not app.py's run_slot, so before this a client firing
fragment reruns ran beside every queue. The app is tests/apps/slot_app.py, driven by protocol clients."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bench.browser_latency as bl
from bench.st_client import Session
from tests import aio
from tests.servers import running

ROOT = Path(__file__).resolve().parents[1]
HOLD_S = 2.0


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    port = bl.free_port()
    env = dict(os.environ, ATTENTION_LAB_RUN_SLOTS="1", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "streamlit", "run", "tests/apps/slot_app.py", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false"]  # fmt: skip
    with open(tmp_path_factory.mktemp("slots") / "server.log", "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    with running(proc, port):
        yield port


async def opened(port: int) -> Session:
    s = Session(port, "")
    _, errors = await s.open()
    assert not errors and "full run, slots 1" in s.texts and len(s.fragments) == 1
    return s


def test_a_fragment_rerun_waits_for_the_slot_another_sessions_run_holds(port):
    async def go():
        holder, student = await opened(port), await opened(port)
        (fragment,) = student.fragments
        alone, errors = await student.rerun(fragment=fragment)  # nobody holds the slot: at once
        assert not errors and any(text.startswith("fragment ran") for text in student.texts)
        holder.query = f"hold={HOLD_S}"
        held = asyncio.create_task(holder.rerun())  # a full run holding the one slot for HOLD_S
        await asyncio.sleep(0.5)
        waited, errors = await student.rerun(fragment=fragment)
        held_ms, held_errors = await held  # and its own fragment, inside the held slot, did not deadlock
        for s in (holder, student):
            await s.ws.close()
        return alone, waited, held_ms, errors + held_errors

    alone, waited, held_ms, errors = aio.run(go())
    assert not errors
    assert alone < 1000
    assert waited > (HOLD_S - 0.5) * 1000 - 300, f"the fragment rerun took {waited:.0f} ms: it did not wait"
    assert held_ms >= HOLD_S * 1000


def test_a_fragment_rerun_waiting_for_the_published_models_lane_shows_its_place(port):
    """The page is a fragment (ui/body.py): a student's keystroke on a published model's page is a
    fragment rerun, and while another run holds the model's lane it says "Queued ... number 1" at the
    fragment's top, as a full run does at the page's; the notice is gone once it runs."""

    async def go():
        holder, student = await opened(port), await opened(port)
        (fragment,) = student.fragments
        holder.query, student.query = f"heavy=1&hold={HOLD_S}", "heavy=1"
        held = asyncio.create_task(holder.rerun())
        await asyncio.sleep(0.5)
        waited, errors = await student.rerun(fragment=fragment)
        _, held_errors = await held
        for s in (holder, student):
            await s.ws.close()
        return waited, student.place, errors + held_errors

    waited, place, errors = aio.run(go())
    assert not errors and waited > (HOLD_S - 0.5) * 1000 - 300
    assert place == 1  # the notice was sent while it waited (bench/st_client.py reads "Queued ...: number 1.")
