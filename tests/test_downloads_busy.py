"""The Explorer's downloads on a busy server (issue 31 §2, ui/downloads.py). A file made on click was
referenced by no session, so two script runs ending anywhere on the server between the click's answer
and the browser's GET deleted it (404); a click sent just before the browser saw its session's newer
button found no function. Tried on a real server with the bench's protocol client (bench/st_client.py):
the click and the fetch while the same session reruns, and while another session does; then, in this
process, that what is kept is released again (the server's memory stays bounded)."""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import urllib.parse
import uuid

import numpy as np
import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from bench.st_client import Session
from tests import aio
from tests.servers import app_server
from ui import downloads

PROMPTS = ["alice knows the cats that the dog sees are happy .", "then bob gave carol a book .",
           "the dog sees the cat .", "carol knows bob ."]  # fmt: skip


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    with app_server(tmp_path_factory.mktemp("downloads_busy")) as (port, _):
        yield port


class Tee:
    """The session's websocket, keeping the answers to clicks that arrive while Session.rerun reads."""

    def __init__(self, ws):
        self.ws, self.answers = ws, {}

    def __getattr__(self, name):
        return getattr(self.ws, name)

    async def recv(self):
        data = await self.ws.recv()
        fm = ForwardMsg()
        fm.ParseFromString(data)
        if fm.WhichOneof("type") == "backend_operation_response":
            self.answers[fm.backend_operation_response.request_id] = fm.backend_operation_response
        return data


async def click(s: Session, file_id: str) -> str:
    """Send the button's click as the browser does; the request's id (its answer lands in s.ws.answers)."""
    msg = BackMsg()
    msg.backend_operation_request.request_id = request_id = uuid.uuid4().hex
    msg.backend_operation_request.session_id = s.session_id
    msg.backend_operation_request.deferred_file.file_id = file_id
    await s.ws.send(msg.SerializeToString())
    return request_id


async def answer(s: Session, request_id: str) -> str:
    while request_id not in s.ws.answers:
        await s.ws.recv()
    a = s.ws.answers[request_id]
    assert not a.error_msg, a.error_msg
    return a.deferred_file.url


def shown(s: Session) -> tuple[list[str], np.ndarray]:
    """The heatmap the student sees: its key labels ("i token") and its weights."""
    data = json.loads(s.charts["heatmap"])["data"][0]
    z = data["z"]  # Plotly's typed array (viz/spec.py): base64 of the float32 matrix
    return data["x"], np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(len(data["y"]), -1)


async def type_prompt(s: Session, text: str) -> None:
    _, errors = await s.rerun((WidgetState(id=s.widgets["prompt"][1].id, string_value=text),))
    assert not errors


def test_a_download_clicked_while_its_session_reruns_arrives_with_the_matrix_shown(port):
    async def go():
        s = Session(port, "explorer", query=f"prompt={urllib.parse.quote(PROMPTS[0])}&layer=2&head=3")
        _, errors = await s.open()
        assert not errors and len(s.media) == 2
        s.ws = Tee(s.ws)
        labels, weights = shown(s)
        json_id, _ = s.media
        # The click goes out while the student's new prompt reruns the page (both in flight at once) ...
        typing = asyncio.create_task(type_prompt(s, PROMPTS[1]))
        await asyncio.sleep(0.01)
        request_id = await click(s, json_id)
        await typing
        url = await answer(s, request_id)
        # ... and the browser's GET comes after two more runs of the session have ended on the server.
        await type_prompt(s, PROMPTS[2])
        before_last, labels_before_last = list(s.media), shown(s)[0]
        await type_prompt(s, PROMPTS[3])
        code, body = await s.get(url)
        assert code == 200, f"GET {url}: {code}"
        payload = json.loads(body)
        assert payload["what"] == "decoder.self Layer 2, head 3"
        assert payload["key_tokens"] == [label.split(" ", 1)[1] for label in labels]  # the prompt clicked on
        assert np.allclose(payload["weights"], weights, atol=1e-4)
        # A click sent just before the browser saw the newest run's buttons: the CSV of the run before.
        url = await answer(s, await click(s, before_last[1]))
        code, body = await s.get(url)
        rows = list(csv.reader(io.StringIO(body.decode())))
        assert code == 200 and rows[0][1:] == labels_before_last != shown(s)[0]  # that run's matrix, not the newest
        assert len(rows) == 1 + len(labels_before_last)  # a row per query token

    aio.run(go())


def test_a_download_fetched_while_other_sessions_run_arrives(port):
    """The load run's case (bench/proxy_load.py): forty other students' runs end between click and GET."""

    async def go():
        s = Session(port, "explorer", query=f"prompt={urllib.parse.quote(PROMPTS[1])}")
        others = [Session(port, "explorer", seed=i) for i in range(2)]
        for t in [s, *others]:
            _, errors = await t.open()
            assert not errors
        labels, _ = shown(s)
        url, errors = await s.deferred_url(s.media[1])  # the CSV
        assert not errors
        for _ in range(3):
            await asyncio.gather(*(t.act() for t in others))
        code, body = await s.get(url)
        assert code == 200, f"GET {url}: {code}"
        assert next(csv.reader(io.StringIO(body.decode())))[1:] == labels
        for t in [s, *others]:
            await t.ws.close()

    aio.run(go())


def test_what_is_kept_is_released_after_its_grace(monkeypatch):
    """In this process (no script run: Streamlit's session id is "dontcare"): a file made on click
    survives any number of collections for FILE_GRACE_S, then goes as Streamlit's own files go; at most
    MAX_FILES are kept at once, and a session's old placeholders beyond KEEP_PER_SESSION are not kept."""
    now = [0.0]
    monkeypatch.setattr(downloads, "clock", lambda: now[0])
    downloads.install()
    mgr = MediaFileManager(MemoryMediaFileStorage("/media"))
    ids = [mgr.add_deferred(lambda i=i: f"file {i}", "text/plain", "1.2", "f.txt") for i in range(6)]
    stored = mgr.execute_deferred(ids[-1]).split("/")[-1].split(".")[0]
    for _ in range(5):
        mgr.remove_orphaned_files()
    assert mgr.read_file(stored).content == b"file 5"
    assert set(mgr._deferred_callables) == set(ids[-downloads.KEEP_PER_SESSION :])  # the older two went
    mgr.clear_session_refs()  # the session's next run begins: its buttons are drawn anew
    now[0] += downloads.FILE_GRACE_S + 1
    for _ in range(2):  # Streamlit's own: marked, then deleted
        mgr.remove_orphaned_files()
    assert mgr.read_file(stored) is None and not mgr._deferred_callables
    files = [mgr.execute_deferred(mgr.add_deferred(lambda i=i: f"{i}", "text/plain", "1.2")) for i in range(70)]
    for _ in range(2):
        mgr.remove_orphaned_files()
    kept = [u for u in files if mgr.read_file(u.split("/")[-1].split(".")[0]) is not None]
    assert kept == files[-downloads.MAX_FILES :]
