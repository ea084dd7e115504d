"""A per-connection message rate before Streamlit acts on a message (issue 21: one client must not make
the others wait). Streamlit handles every message a browser sends on its one event loop: a rerun request
is folded into the session's next run, about 0.7 ms of the interpreter each, so a client firing 1,300
reruns a second took most of the GIL and 39 other sessions starved (docs/deploy.md, "A misbehaving
client"). Here each session may send BURST messages at once and RATE a second after that; above it, a
message waits, and a newer one of the same kind replaces it (a rerun request carries the whole widget
state, so the newest is the one that counts). A student (a few messages a second, a rerun each time a
widget changes) never reaches it. Per session, never per address: a class behind one NAT is not one client.

Streamlit has no hook for this, so `install` wraps `Runtime.handle_backmsg` (called on the event loop for
every parsed message), `Runtime.disconnect_session` and Starlette's `WebSocket.receive_bytes` (Streamlit's
one websocket reads its messages with it) once per process."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field

from starlette.websockets import WebSocket
from streamlit.runtime.runtime import Runtime, RuntimeStoppedError

# Messages a second after the burst. Each may be a rerun (~30 ms of CPU on a toy page): a client held to
# 10 a second still did the work of 30 students thinking 3 s, and raised their p95 1.46x; at 5, 1.29x.
RATE = float(os.environ.get("ATTENTION_LAB_MSG_RATE", "5"))
BURST = float(os.environ.get("ATTENTION_LAB_MSG_BURST", "20"))  # a double-click, a burst of typing
# Reading itself (uvicorn's frame parsing, Streamlit's protobuf parse: ~27 us a message) is bounded too:
# a connection is read at most READ_RATE (50) messages a second. Not read, a message stays in the socket:
# uvicorn stops reading a connection until its last message is taken, so TCP slows the sender down.
READ_RATE = 10 * RATE
# ... and at most READ_BYTES a second after a burst of READ_BURST_BYTES (one message of the largest size
# Streamlit accepts, server.maxWidgetStateSize = 2 MB): a browser sends a few KB a rerun (a 10,000-character
# prompt, 10 KB); a client sending a 1 MB prompt 3 times a second raised a class's p95 1.78x.
READ_BYTES = float(os.environ.get("ATTENTION_LAB_READ_KB_PER_S", "256")) * 1024
READ_BURST_BYTES = 2 * 2**20


@dataclass
class Bucket:
    """A token bucket (messages, or bytes) and, for a session's messages, those waiting for a token."""

    rate: float
    burst: float
    tokens: float = 0.0
    at: float | None = None  # None: full at the first call
    waiting: dict = field(default_factory=dict)  # kind -> (message, client), in order of first arrival
    timer: object | None = None

    def refill(self, now: float) -> None:
        self.tokens = self.burst if self.at is None else min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self, now: float) -> bool:
        """Spend a token if there is one (refilled at `rate` since the last call, up to `burst`)."""
        self.refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def charge(self, now: float, n: float) -> None:
        """Spend n tokens, into debt if need be (the bytes of a message already read)."""
        self.refill(now)
        self.tokens -= n

    def wait_s(self, need: float = 1.0) -> float:
        """How long until `need` tokens are there."""
        return max(0.0, (need - self.tokens) / self.rate)


def kind(msg) -> tuple:
    """What a newer message replaces: a rerun of the same fragment (or the whole page), or the same type;
    never another request for a file (a download waits for the answer to its own request)."""
    which = msg.WhichOneof("type")
    if which == "rerun_script":
        return which, msg.rerun_script.fragment_id
    if which == "backend_operation_request":
        return which, msg.backend_operation_request.request_id
    return (which,)


_buckets: dict[str, Bucket] = {}
_original: dict[str, object] = {}


def install(rate: float = RATE, burst: float = BURST, clock=time.monotonic) -> None:
    """Wrap the runtime's message handling once per process (app.py calls this on every run)."""
    if "handle_backmsg" in _original or rate <= 0:
        return
    _original["handle_backmsg"] = handle = Runtime.handle_backmsg
    _original["disconnect_session"] = disconnect = Runtime.disconnect_session

    def handle_backmsg(self, session_id, msg, *, client=None):
        bucket = _buckets.setdefault(session_id, Bucket(rate, burst))
        if not bucket.waiting and bucket.take(clock()):
            return handle(self, session_id, msg, client=client)
        key = kind(msg)
        bucket.waiting.pop(key, None)  # the newer one goes last: kept in the order they were asked
        bucket.waiting[key] = (msg, client)
        if bucket.timer is None:
            bucket.timer = asyncio.get_running_loop().call_later(bucket.wait_s(), release, self, session_id)

    def release(runtime, session_id) -> None:
        """Hand the waiting messages to Streamlit as tokens allow, then come back for the rest."""
        bucket = _buckets.get(session_id)
        if bucket is None:
            return
        bucket.timer = None
        while bucket.waiting and bucket.take(clock()):
            key = next(iter(bucket.waiting))
            msg, client = bucket.waiting.pop(key)
            try:
                handle(runtime, session_id, msg, client=client)
            except RuntimeStoppedError:  # the server stopping: nothing to hand it to
                bucket.waiting.clear()
                return
        if bucket.waiting:
            bucket.timer = asyncio.get_running_loop().call_later(bucket.wait_s(), release, runtime, session_id)

    def disconnect_session(self, session_id, *, client=None):
        bucket = _buckets.pop(session_id, None)
        if bucket is not None and bucket.timer is not None:
            bucket.timer.cancel()
        return disconnect(self, session_id, client=client)

    async def receive_bytes(self) -> bytes:
        reads = self.scope.setdefault("attention_lab.read", Bucket(READ_RATE, READ_RATE))  # one connection's
        size = self.scope.setdefault("attention_lab.bytes", Bucket(READ_BYTES, READ_BURST_BYTES))
        while not reads.take(clock()):
            await asyncio.sleep(reads.wait_s())
        size.refill(clock())
        if size.tokens < 0:  # the last messages' bytes are paid off first
            await asyncio.sleep(size.wait_s(0.0))
        data = await read(self)
        size.charge(clock(), len(data))
        return data

    read = WebSocket.receive_bytes
    Runtime.handle_backmsg = handle_backmsg
    Runtime.disconnect_session = disconnect_session
    WebSocket.receive_bytes = receive_bytes
