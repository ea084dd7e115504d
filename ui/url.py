"""Page state <-> URL query string, so a teacher can share exactly what is on screen.

Widget keys double as parameter names. Values in the URL are language-neutral codes (a link
made in the Chinese UI opens the same view in English), parsed and checked here: a nonsense
value falls back to the default and the page says so once, never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import streamlit as st

MAX_PROMPT_CHARS = 10_000  # longer URL text is cut; the model truncates far earlier anyway
# Every other text box's bound (issue 21: a client can send any length through the websocket; a box's
# max_chars cuts it on the server too). One place per value: the box and its URL parameter both use it.
# The translation boxes (source, typed, the Explorer's target) are prompts and take MAX_PROMPT_CHARS.
MAX_WORD_CHARS = 64  # the Masks page's replacement word: only its first token is used
MAX_SENTENCES_CHARS = 6_000  # Similarity reads 6 sentences, MiniLM ~1,000 characters (256 tokens) of each
# A text parameter written to the address bar is cut to this many bytes once percent-encoded: a whole
# 1 MB prompt made a 1,000,038-character URL, and reloading or sharing it failed (the server's and a
# proxy's request-line limits are 64 KB and 16 KB). 6,000 bytes is 6,000 ASCII characters or ~660
# Chinese ones, far more than a toy model reads (256 tokens); the page says when the link is cut.
MAX_URL_TEXT_BYTES = 6_000


@dataclass(frozen=True)
class Param:
    default: Any
    parse: Callable[[str], Any]  # raises ValueError on nonsense
    dump: Callable[[Any], str] = str


def choice(*options: str) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        if raw not in options:
            raise ValueError(raw)
        return raw

    return parse


def int_in(low: int, high: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        value = int(raw)
        if not low <= value <= high:
            raise ValueError(raw)
        return value

    return parse


def boolean(raw: str) -> bool:
    if raw not in ("0", "1"):
        raise ValueError(raw)
    return raw == "1"


def text(max_chars: int = MAX_PROMPT_CHARS) -> dict[str, Callable[[str], str]]:
    """A text parameter whose box has this max_chars: a longer value is cut when read from the URL (a value
    put in session state is not cut by the box) and when written to it."""
    return {"parse": lambda raw: raw[:max_chars], "dump": lambda value: url_text(value, max_chars)}


def url_text(value: str, max_chars: int = MAX_PROMPT_CHARS) -> str:
    """The longest prefix of `value` that fits in MAX_URL_TEXT_BYTES of URL (a shared link always reopens)."""
    value = str(value)[:max_chars]
    if len(quote(value, safe="")) <= MAX_URL_TEXT_BYTES:
        return value
    low, high = 0, len(value)  # the encoded length grows with the prefix: bisect on it
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if len(quote(value[:mid], safe="")) <= MAX_URL_TEXT_BYTES else (low, mid - 1)
    return value[:low]


TEXT = text()


BOOL = {"parse": boolean, "dump": lambda v: "1" if v else "0"}


def restore_once(params: dict[str, Param], aliases: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """On a session's first run, copy valid URL parameters into widget state. A renamed parameter's
    old name (aliases: old -> new) still works, so links already shared open the same view; the new
    name wins when a URL has both.

    Returns (name, raw value) of every parameter that was ignored, for one notice."""
    if st.session_state.get("_url_restored"):
        return []
    st.session_state["_url_restored"] = True
    aliases = aliases or {}
    ignored = []
    query = st.query_params.to_dict()
    for name, raw in query.items():
        new = aliases.get(name, name)
        if new != name and new in query:
            continue
        param = params.get(new)
        if param is None:
            ignored.append((name, raw))
            continue
        try:
            st.session_state[new] = param.parse(raw)
        except (ValueError, TypeError):
            ignored.append((name, raw))
    return ignored


def sync(params: dict[str, Param], names: list[str], defaults: dict[str, Any] | None = None) -> None:
    """Mirror the current widget values of `names` to the URL; defaults are left out (`defaults` overrides a
    parameter's: the prompt's depends on the language)."""
    wanted = {}
    for name in names:
        param = params[name]
        default = (defaults or {}).get(name, param.default)
        value = st.session_state.get(name, default)
        if value != default and value is not None:
            wanted[name] = param.dump(value)
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)
