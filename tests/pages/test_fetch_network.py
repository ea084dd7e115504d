"""Issue 39 §8-9: who may download from "Add a model…", and what it says when the server cannot reach the Hub.

allowed() is checked over the setups docs/deploy.md names (a proxy's header means off, whatever the server
listens on; the flag wins); then the real check runs `python -m models.fetch` in its child against a closed
port, and the page tells a teacher, in their language, what to ask for (a restart through a mirror), with
the administrator's details below it."""

from __future__ import annotations

import re

import pytest
from streamlit.runtime.context import StreamlitHeaders

from ui.fetch_panel import MIRROR, allowed
from ui.i18n import STRINGS

from .apptest import open_app

XFF = StreamlitHeaders([("x-forwarded-for", "127.0.0.1")])  # as HAProxy's `option forwardfor` adds it
NONE = StreamlitHeaders([])
CLOSED = "http://127.0.0.1:9"  # the discard port: nothing listens, the connection is refused at once
# Three Latin words in a row outside code spans: an English sentence (or half of one) in the Chinese text.
ENGLISH = re.compile(r"[A-Za-z]+(?:[\s,.'’-]+[A-Za-z]+){2,}")


@pytest.mark.parametrize(
    ("flag", "address", "headers", "ip", "expected"),
    [
        ("", "localhost", NONE, None, True),  # `make run`: the teacher's own browser
        ("", "127.0.0.1", XFF, "127.0.0.1", False),  # a replica behind HAProxy (`make replicas`)
        ("", "localhost", StreamlitHeaders([("Forwarded", "for=10.0.0.7")]), None, False),
        ("", "0.0.0.0", XFF, "10.1.0.5", False),  # a pod behind the ingress
        ("", "0.0.0.0", NONE, "10.1.2.3", False),  # a student straight on the class server
        ("", "0.0.0.0", NONE, "::ffff:127.0.0.1", True),  # the server's own browser, dual-stack
        ("1", "127.0.0.1", XFF, "127.0.0.1", True),  # the flag wins: a lab where each student has a server
        ("0", "localhost", NONE, None, False),  # the flag wins: deploy/k8s/deployment.yaml sets it
    ],
)
def test_a_proxy_header_turns_downloads_off_and_the_flag_wins(flag, address, headers, ip, expected):
    assert allowed(flag, address, headers, ip) is expected


def _prose(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)  # commands and variables stay as typed


def test_the_chinese_network_message_is_chinese_and_names_the_mirror():
    for key in ("fetch.network", "fetch.network_detail"):
        zh = STRINGS[key]["zh"].format(mirror=MIRROR, endpoint="https://huggingface.co", why="ConnectError")
        assert ENGLISH.findall(_prose(zh)) == [], (key, ENGLISH.findall(_prose(zh)))
    for lang in ("en", "zh"):
        text = STRINGS["fetch.network"][lang].format(mirror=MIRROR)
        assert "hf-mirror.com" in text and "HF_ENDPOINT=https://<" in text and "make run" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unreachable_hub_tells_the_teacher_what_to_ask_for(lang, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_DOWNLOADS", "1")
    monkeypatch.setenv("HF_ENDPOINT", CLOSED)  # the child inherits the server's environment
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    at = open_app(lang=lang)
    at.text_input(key="fetch_repo").input("Qwen/Qwen3-0.6B")
    at.button(key="fetch_check").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = [e.value for e in at.error]
    assert error == STRINGS["fetch.network"][lang].format(mirror=MIRROR)
    assert "`HF_ENDPOINT=https://hf-mirror.com make run`" in error
    detail = next(c.value for c in at.caption if c.value.startswith(("For the administrator", "给管理员")))
    plain = detail.replace("\\", "")  # md() escaped the endpoint and the class name
    assert CLOSED in plain and "ConnectError" in plain
    if lang == "zh":
        assert ENGLISH.findall(_prose(error)) == [] and ENGLISH.findall(_prose(plain.replace(CLOSED, ""))) == []
        assert "(ConnectError)" not in error and "HF_ENDPOINT" not in _prose(error)
