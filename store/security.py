"""Join codes, teacher tokens, display names and the failed-join limits (issue 19, point 6).

A join code is 8 characters from a 31-letter alphabet without look-alikes (no I, L, O, 0, 1):
31**8 ≈ 8.5e11 codes, log2 = 39.6 bits. With the per-server limit below (1,000 failed joins per
10 minutes) and 100 open classes, guessing one takes on average 8.5e11 / 100 / 1,000 windows of
10 minutes, about 160,000 years. The teacher token is `secrets.token_urlsafe(32)` (256 bits); only
its sha256 is stored, so a copy of the database cannot open a teacher view.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
import unicodedata
from collections import deque

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LEN = 8
CODE_BITS = CODE_LEN * 4.954196310386876  # log2(31) per character
NAME_MAX = 40


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def normalize_code(code: str) -> str:
    """What the student typed -> the stored form: upper case, spaces and dashes dropped."""
    return re.sub(r"[\s\-–—_]+", "", str(code or "")).upper()


def display_code(code: str) -> str:
    """ABCDEFGH -> ABCD-EFGH, easier to read off a projector."""
    return f"{code[:4]}-{code[4:]}" if len(code) == CODE_LEN else code


def new_token() -> tuple[str, str]:
    """(token shown once to the teacher, its sha256 to store)."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(str(token or "").encode()).hexdigest()


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def clean_name(name: str) -> str | None:
    """A display name as shown: NFC, spaces collapsed, 1-40 characters, no control characters.

    Anything else (HTML included) is kept as text: views escape it, the CSV export quotes it.
    """
    text = " ".join(unicodedata.normalize("NFC", str(name or "")).split())
    if not text or len(text) > NAME_MAX or any(unicodedata.category(c).startswith("C") for c in text):
        return None
    return text


def name_key(name: str) -> str:
    """Rejoining as "ana" finds "Ana": a student who retypes their name differs only in case."""
    return name.casefold()


class FailedJoins:
    """Failed joins in a sliding window, per address and per server, in this process's memory.

    Generous per address because a whole class shares one NAT address and mistypes codes; the
    server-wide cap bounds guessing from many addresses. While over a limit every join from that
    address (or every join, for the server cap) is refused, so a right guess gets no through.
    """

    def __init__(self, per_address: int = 60, per_server: int = 1000, window_s: float = 600.0):
        self.per_address, self.per_server, self.window_s = per_address, per_server, window_s
        self._all: deque[float] = deque()
        self._by: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _trim(self, q: deque[float], now: float) -> deque[float]:
        while q and q[0] <= now - self.window_s:
            q.popleft()
        return q

    def blocked(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._trim(self._all, now)) >= self.per_server:
                return True
            q = self._by.get(address)
            return q is not None and len(self._trim(q, now)) >= self.per_address

    def fail(self, address: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            self._trim(self._all, now).append(now)
            q = self._trim(self._by.setdefault(address, deque()), now)
            q.append(now)
            if len(self._by) > 10_000:  # forget idle addresses so memory stays bounded
                for key in [k for k, v in self._by.items() if not self._trim(v, now)]:
                    del self._by[key]


_NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: text starting with = + - @ tab or CR gets a leading '.

    Numbers (ints, floats, and text that is exactly a number such as "-0.5") are left as numbers.
    """
    if value is None or isinstance(value, bool | int | float):
        return value
    text = str(value)
    if _NUMBER.fullmatch(text):
        return text
    return "'" + text if text.startswith(_FORMULA) else text
