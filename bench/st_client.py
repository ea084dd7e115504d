"""One browser tab as a protocol-level Streamlit client (bench/load.py explains the protocol): opens a
page, reruns it with changed widgets, and times each round trip. Split from bench/load.py so the
load driver, the proxy run (issue 21) and this client stay readable on their own.

Through a proxy (`proxy=True`, bench/proxy_load.py) it is a browser behind HAProxy: it loads the page over
HTTP first (the proxy's stickiness cookie arrives then), then opens the websocket with that Cookie header,
and keeps every cookie for its later requests (health, host config, static files, downloads) and its
reconnects. `served` lists the replica each response names: HAProxy's X-Attention-Lab-Replica header on
HTTP responses, the About text of the page config each script run sends (app.py: $ATTENTION_LAB_REPLICA)."""

from __future__ import annotations

import asyncio
import random
import re
import socket
import sys
import time
import uuid
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import bench.browser_latency as bl  # noqa: E402

ACTIONS = {  # page -> (widget key, weight): what a student does there
    "explorer": [("prompt", 0.7), ("head", 0.15), ("layer", 0.15)],
    "masks": [("prompt", 0.5), ("prefix", 0.25), ("pad", 0.25)],
    "softmax": [("prompt", 0.4), ("dk", 0.2), ("sm_log2s", 0.2), ("live_c", 0.2)],
}
FINISHED_OK = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
QUICKACK = getattr(socket, "TCP_QUICKACK", None)  # Linux; see Session.open
REPLICA_HEADER = "x-attention-lab-replica"  # deploy/haproxy.cfg
ABOUT = re.compile(r"^Attention Lab · (\S+)$")  # app.py's About text behind the proxy
STATIC = re.compile(r'(?:src|href)="\./(static/[^"]+)"')  # the files index.html makes a browser fetch
QUEUED = re.compile(r"^Queued for .*: number (\d+)\.")  # ui/strings/shell.py "shell.queue", English


def widget_state(kind: str, el) -> WidgetState | None:
    """What a browser holds, and sends with every rerun, for a widget element it was sent; None when
    the element carries no value (the browser keeps the one it had: Session.states)."""
    s = WidgetState(id=el.id)
    if kind in ("text_input", "text_area") and el.HasField("value"):
        s.string_value = el.value
    elif kind == "checkbox":
        s.bool_value = el.value
    elif kind == "number_input" and el.set_value:
        if el.data_type == NumberInput.INT:
            s.int_value = int(el.value)
        else:
            s.double_value = el.value
    elif kind in ("selectbox", "radio") and el.HasField("raw_value"):
        s.string_value = el.raw_value
    elif kind == "button_group" and not el.set_value:  # a later run: the value stays the browser's
        return None
    elif kind in ("button_group", "multiselect"):
        s.string_array_value.data.extend(el.raw_values)
    elif kind == "slider":
        select = el.type == Slider.SELECT_SLIDER
        (s.string_array_value if select else s.double_array_value).data.extend(el.raw_value if select else el.value)
    else:
        return None
    return s


class Session:
    """One browser tab: the widgets and charts of its last run, its URL query, its message cache."""

    def __init__(self, port: int, page: str, query: str = "", seed: int = 0, proxy: bool = False):
        self.port, self.page, self.query, self.rng = port, page, query, random.Random(seed)
        self.proxy, self.cookies = proxy, {}  # behind a proxy: its cookies, kept as a browser keeps them
        self.served: list[str] = []  # the replica named by each response (through a proxy)
        self.script_replica = ""  # the replica that ran the last script run, as its About text says
        self.http: list[tuple[str, int, float]] = []  # (path, status, ms) of every HTTP request
        self.static: list[str] = []  # the static files the page's index.html names
        self.media: list[str] = []  # the last run's download URLs or deferred file ids (files live in one replica)
        self.media_in: dict[str, list[str]] = {}  # fragment id ("" for none) -> the media its last run drew
        self.session_id = ""  # the server's AppSession id (new_session), which a request for a deferred file names
        self.page_fragment, self.outside = "", []  # the fragment the page is drawn in; the texts outside it
        self.drawn: list[str] = []  # the keys of the widgets the last run sent
        self.homes: dict[str, str] = {}  # widget id -> the fragment it is drawn in ("" for none), as its delta says
        self.page_hash = ""  # the server names it in the first run's `navigation` message
        self.widgets: dict[str, tuple[str, object]] = {}  # widget key -> (element kind, proto)
        self.charts: dict[str, str] = {}  # chart key -> Plotly spec (JSON)
        self.cache: dict[str, tuple[ForwardMsg, int]] = {}  # hash -> (message, run that last used it)
        self.runs, self.typed, self.target, self.ws, self.sock = 0, [], [], None, None
        self.states: dict[str, WidgetState] = {}  # widget id -> the value this browser holds and sends
        self.place = 0  # the highest queue place the last run showed (0: it did not wait)
        self.waited_ms = 0.0  # how long the last run waited in that queue (set in rerun)
        self.texts: list[str] = []  # the text of the last run's markdown, alerts and captions (a class's acks)
        self.texts_in: dict[str, list[str]] = {}  # fragment id ("" for none) -> the texts its last run drew
        self.fragments: dict[str, float] = {}  # fragment id -> its run_every interval (s), from `auto_rerun`

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def get(self, path: str) -> tuple[int, bytes]:
        """One HTTP/1.1 GET with this browser's cookies; keeps the cookies it sets, notes the replica."""
        t0 = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            request = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Accept-Encoding: identity",
                    "Connection: close", *(f"Cookie: {c}" for c in [self.cookie_header()] if c)]  # fmt: skip
            writer.write(("\r\n".join(request) + "\r\n\r\n").encode())
            head, _, body = (await reader.read(-1)).partition(b"\r\n\r\n")
        finally:
            writer.close()
        status_line, *lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        for name, _, value in (line.partition(":") for line in lines):
            if name.lower() == "set-cookie":
                k, _, v = value.strip().split(";")[0].partition("=")
                self.cookies[k] = v
            elif name.lower() == REPLICA_HEADER:
                self.served.append(value.strip())
        self.http.append((path.split("?")[0], status, (time.perf_counter() - t0) * 1000))
        return status, body

    async def load_page(self) -> list[str]:
        """What a browser fetches before the websocket: the page, two of its static files, health, host config."""
        errors = []
        status, html = await self.get(f"/{self.page}" + (f"?{self.query}" if self.query else ""))
        self.static = self.static or STATIC.findall(html.decode("utf-8", "replace"))
        paths = [f"/{p}" for p in self.rng.sample(self.static, min(2, len(self.static)))]
        if status != 200 or not self.static:
            errors.append(f"GET /{self.page}: {status}" + ("" if self.static else ", no static files named"))
        for path in [*paths, "/_stcore/health", "/_stcore/host-config"]:
            code, _ = await self.get(path)
            errors += [f"GET {path}: {code}"] if code != 200 else []
        return errors

    async def download(self) -> list[str]:
        """A click on one of the page's download buttons: its media URL, from the replica that made it. A
        file made on click (st.download_button with data= a function) is asked for first, as the browser
        does: a backend_operation_request naming the file, answered with the URL to fetch."""
        if not self.media:
            return []
        path = self.rng.choice(self.media)
        if not path.startswith("/"):
            path, errors = await self.deferred_url(path)
            if errors:
                return errors
        code, body = await self.get(path)
        return [] if code == 200 and body else [f"GET {path.split('?')[0]}: {code}"]

    async def deferred_url(self, file_id: str) -> tuple[str, list[str]]:
        msg = BackMsg()
        request = msg.backend_operation_request
        request.request_id, request.session_id = uuid.uuid4().hex, self.session_id
        request.deferred_file.file_id = file_id
        await self.ws.send(msg.SerializeToString())
        while True:  # between runs: the answer, or a message this client does not wait for
            fm = ForwardMsg()
            fm.ParseFromString(await self.ws.recv())
            answer = fm.backend_operation_response
            if fm.WhichOneof("type") == "backend_operation_response" and answer.request_id == request.request_id:
                error = answer.error_msg
                return answer.deferred_file.url, [f"deferred file {file_id[:8]}: {error}"] if error else []

    async def reconnect(self) -> tuple[float, list[str]]:
        """The websocket dropped, the tab reloads: the same cookies, a fresh session, the URL's state."""
        if self.ws is not None:
            await self.ws.close()
        self.page_hash, self.widgets, self.charts, self.cache, self.states, self.runs = "", {}, {}, {}, {}, 0
        return await self.open()

    async def open(self) -> tuple[float, list[str]]:
        url, origin = f"ws://127.0.0.1:{self.port}/_stcore/stream", f"http://127.0.0.1:{self.port}"
        errors = await self.load_page() if self.proxy else []
        cookie = {"Cookie": self.cookie_header()} if self.cookies else {}
        self.ws = await websockets.connect(url, subprotocols=["streamlit"], origin=origin, max_size=None,
                                           ping_interval=None, additional_headers=cookie)  # fmt: skip
        if self.proxy and (name := self.ws.response.headers.get(REPLICA_HEADER)):
            self.served.append(name)
        # Acknowledge every segment at once, as Chromium does: the server's socket has no TCP_NODELAY,
        # so a delayed ACK here would hold its second message of every run for 40 ms.
        self.sock = self.ws.transport.get_extra_info("socket")
        ms, errs = await self.rerun()
        return ms, errors + errs

    async def rerun(self, changes: tuple[WidgetState, ...] = (), fragment: str = "") -> tuple[float, list[str]]:
        """One run (or, with `fragment`, the timer-driven run of that st.fragment alone, as the browser
        sends it every run_every seconds); returns (ms, errors)."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string, cs.page_script_hash = self.query, self.page_hash
        # A widget drawn in a fragment reruns that fragment alone (app.py draws each page in one: ui/body.py),
        # as the browser does; a timer's rerun (`fragment` given) says it is automatic.
        home = {self.homes.get(s.id, "") for s in changes}
        cs.fragment_id, cs.is_auto_rerun = fragment or (home.pop() if len(home) == 1 else ""), bool(fragment)
        cs.page_name = "" if self.page_hash else self.page
        cs.context_info.timezone, cs.context_info.locale = "UTC", "en-US"
        cs.context_info.url = f"http://127.0.0.1:{self.port}/{self.page}"
        sent = self.states | {s.id: s for s in changes}
        cs.widget_states.widgets.extend(sent.values())
        # A click (trigger) is sent with this run only, as the browser does; a kept value is sent every run.
        self.states = {
            i: s for i, s in sent.items() if s.WhichOneof("value") not in ("trigger_value", "string_trigger_value")
        }
        cs.cached_message_hashes.extend(self.cache)
        self.runs += 1
        widgets, charts, errors, self.place, texts, media = {}, {}, [], 0, [], []
        self.waited_ms = 0.0  # after a queue notice: ms until the run got its slot (-1 while still waiting)
        drawn_media: dict[str, list[str]] = {}  # this run's media by the fragment that drew them
        drawn_texts: dict[str, list[str]] = {}  # this run's texts by the fragment that drew them
        outside: list[str] = []  # texts drawn outside any fragment (the sidebar's), kept by the page's reruns
        page_fragment = "" if cs.fragment_id else None
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            if QUICKACK:
                self.sock.setsockopt(socket.IPPROTO_TCP, QUICKACK, 1)  # the kernel clears it again
            fm = ForwardMsg()
            fm.ParseFromString(await self.ws.recv())
            if fm.HasField("ref_hash"):  # an element this client has cached
                if fm.ref_hash not in self.cache:
                    errors.append("ref_hash to a message never received")
                    continue
                fm = self.cache[fm.ref_hash][0]
            if fm.metadata.cacheable or fm.hash in self.cache:
                self.cache[fm.hash] = (fm, self.runs)
            kind = fm.WhichOneof("type")
            if self.waited_ms < 0 and kind == "delta" and not QUEUED.match(fm.delta.new_element.alert.body):
                self.waited_ms = (time.perf_counter() - t0) * 1000  # the first delta after the notices: the slot
            if kind == "navigation":
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "new_session":
                self.session_id = fm.new_session.initialize.session_id
            elif kind == "page_info_changed":
                self.query = fm.page_info_changed.query_string
            elif kind == "auto_rerun":
                self.fragments[fm.auto_rerun.fragment_id] = fm.auto_rerun.interval
            elif kind == "page_config_changed":
                about = ABOUT.match(fm.page_config_changed.menu_items.about_section_md)
                self.served += [about[1]] if about else []
                self.script_replica = about[1] if about else ""
            elif kind == "page_not_found":
                errors.append(f"page not found: {self.page}")
            elif kind == "session_event" and fm.session_event.HasField("script_compilation_exception"):
                errors.append(f"compile error: {fm.session_event.script_compilation_exception.message}")
            elif kind == "delta" and fm.delta.fragment_id and page_fragment is None:
                page_fragment = fm.delta.fragment_id  # the first fragment of a full run holds the page (ui/body.py)
            if kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el_kind = fm.delta.new_element.WhichOneof("type")
                el = getattr(fm.delta.new_element, el_kind)
                key = getattr(el, "id", "").split("-", 2)[-1]  # "$$ID-<hash>-<key>"
                if el_kind == "exception":
                    where = el.stack_trace[-1].splitlines()[0].strip() if el.stack_trace else ""
                    errors.append(f"{el.type}: {el.message} ({where})")
                elif el_kind == "plotly_chart":
                    charts[key] = el.spec
                elif el_kind == "download_button" and (el.url or el.deferred_file_id):
                    media.append(el.url or el.deferred_file_id)
                    drawn_media.setdefault(fm.delta.fragment_id, []).append(media[-1])
                elif el_kind == "alert" and (queued := QUEUED.match(el.body)):
                    self.place = max(self.place, int(queued[1]))
                    self.waited_ms = self.waited_ms or -1.0
                elif el_kind in ("markdown", "alert", "text", "heading"):
                    texts.append(el.body)
                    drawn_texts.setdefault(fm.delta.fragment_id, []).append(el.body)
                    outside += [] if fm.delta.fragment_id else [el.body]
                elif el_kind == "progress":
                    texts.append(el.text)
                    drawn_texts.setdefault(fm.delta.fragment_id, []).append(el.text)
                elif key:
                    widgets[key] = (el_kind, el)
                    self.homes[el.id] = fm.delta.fragment_id
            elif kind == "script_finished" and fm.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                if fm.script_finished not in FINISHED_OK:
                    errors.append(ForwardMsg.ScriptFinishedStatus.Name(fm.script_finished))
                break
        ms = (time.perf_counter() - t0) * 1000
        self.drawn = list(widgets)  # the widget keys this run itself sent (a fragment's run: only its own)
        if not cs.fragment_id:  # a full run: what is outside the page's fragment, which its reruns keep
            self.page_fragment, self.outside = page_fragment or "", outside
        if cs.fragment_id and cs.fragment_id == self.page_fragment:  # the page again, under the same sidebar
            kept = {k: w for k, w in self.widgets.items() if not self.homes.get(w[1].id)}
            widgets, texts = kept | widgets, self.outside + texts
        elif cs.fragment_id:  # a fragment in the page redraws only its own elements: the rest stays
            kept = {f: ts for f, ts in self.texts_in.items() if f not in {cs.fragment_id, *drawn_texts}}
            widgets, charts, texts, media = (
                self.widgets | widgets,
                self.charts | charts,
                [text for ts in (kept | drawn_texts).values() for text in ts],  # its own texts replaced
                self.media + media,
            )
        self.widgets, self.charts, self.texts, self.media = widgets, charts, texts, media
        if cs.fragment_id:  # a fragment's rerun replaces what it (and fragments in it) drew, nothing else
            ran_texts = {cs.fragment_id, *drawn_texts}
            self.texts_in = {f: ts for f, ts in self.texts_in.items() if f not in ran_texts} | drawn_texts
            ran = {cs.fragment_id, *drawn_media}
            self.media_in = {f: m for f, m in self.media_in.items() if f not in ran} | drawn_media
            self.media = [m for ms in self.media_in.values() for m in ms]
        else:
            self.media_in, self.texts_in = drawn_media, drawn_texts
        ids = {el.id for _, el in widgets.values()}
        self.states = {i: s for i, s in self.states.items() if i in ids}  # widgets no longer drawn: forgotten
        # As the browser: a widget seen for the first time starts from the value its element carries; after
        # that the browser keeps its own value unless the server sets one (set_value), e.g. from the URL.
        self.states |= {
            s.id: s
            for kind, el in widgets.values()
            if (s := widget_state(kind, el)) and (s.id not in self.states or getattr(el, "set_value", True))
        }
        self.cache = {h: (m, run) for h, (m, run) in self.cache.items() if run >= self.runs - 1}  # aged out
        return ms, errors

    def type_more(self) -> str:
        """The prompt at the next pause in typing: one to three more words of a sentence."""
        if len(self.typed) >= len(self.target):
            pick, self.target, self.typed = self.rng.choice, [], []
            for _ in range(4):
                self.target += f"{pick(bl.NAMES)} knows the cats that the dog sees are {pick(bl.ADJECTIVES)} . "
                self.target += f"then {pick(bl.NAMES)} gave {pick(bl.NAMES)} a book . "
            self.target = "".join(self.target).split()[: self.rng.randint(6, 40)]
        self.typed = self.target[: len(self.typed) + self.rng.randint(1, 3)]
        return " ".join(self.typed)

    def move(self, key: str) -> WidgetState:
        """A new value for one widget, as a click, a drag or typing gives it."""
        kind, el = self.widgets[key]
        s = WidgetState(id=el.id)
        if key == "prompt":
            s.string_value = self.type_more()
        elif kind == "button_group":
            now = self.states[el.id].string_array_value.data if el.id in self.states else el.raw_values
            s.string_array_value.data.append(self.rng.choice([o.content for o in el.options if o.content not in now]))
        elif el.type == Slider.SELECT_SLIDER:
            s.string_array_value.data.append(self.rng.choice([o for o in el.options if o not in el.raw_value]))
        else:  # a numeric slider: another point of its grid
            grid = [el.min + i * el.step for i in range(round((el.max - el.min) / el.step) + 1)]
            s.double_array_value.data.append(self.rng.choice([v for v in grid if v not in el.value]))
        return s

    async def act(self) -> tuple[str, float, list[str]]:
        shown = [(key, w) for key, w in ACTIONS[self.page] if key in self.widgets]  # none if the page failed
        if not shown:
            return "rerun", *await self.rerun()
        key = self.rng.choices(*zip(*shown, strict=True))[0]
        return key, *await self.rerun((self.move(key),))
