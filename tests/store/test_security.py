"""Issue 19, point 6, on both databases: codes that cannot be guessed, a token never stored in
clear, failed joins limited per address and per server (generously), names kept as text."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from store import ALPHABET, CODE_BITS, CODE_LEN, JoinRefused, Store, display_code, normalize_code
from store.security import FailedJoins, csv_cell, new_code

ROOT = Path(__file__).resolve().parents[2]


def test_join_codes():
    codes = [new_code() for _ in range(10_000)]
    assert len(set(codes)) == len(codes)  # p(any collision) ≈ 10,000² / 2 / 31⁸ ≈ 6e-5
    assert all(len(c) == CODE_LEN == 8 and set(c) <= set(ALPHABET) for c in codes)
    assert not set("ILO01") & set(ALPHABET) and len(ALPHABET) == 31
    assert math.isclose(CODE_BITS, 8 * math.log2(31)) and CODE_BITS > 39.6  # 31⁸ ≈ 8.5e11 codes
    # every character is used, about evenly (80,000 draws: 2,581 expected each)
    counts = [sum(c.count(ch) for c in codes) for ch in ALPHABET]
    assert min(counts) > 2200 and max(counts) < 3000
    assert display_code("ABCDEFGH") == "ABCD-EFGH" and normalize_code(" abcd–efgh ") == "ABCDEFGH"


def test_teacher_token_is_long_and_only_its_hash_is_stored(store, db_url, request, tmp_path):
    info, token = store.start_class("g", 2)
    assert len(token) >= 43  # token_urlsafe(32): 256 random bits
    assert store.class_for_teacher(token) == info
    assert store.class_for_teacher(token[:-1]) is None and store.class_for_teacher("") is None
    store.dispose()
    if db_url.startswith("sqlite"):
        files = list(tmp_path.iterdir())
    else:
        pg = request.getfixturevalue("pg")
        pg.psql("CHECKPOINT")  # the table's pages on disk, besides the write-ahead log
        oid = pg.psql(f"SELECT oid FROM pg_database WHERE datname = '{db_url.rsplit('/', 1)[1]}'").strip()
        files = [p for d in (pg.data / "base" / oid, pg.data / "pg_wal") for p in d.rglob("*") if p.is_file()]
    blob = b"".join(p.read_bytes() for p in files)
    assert token.encode() not in blob
    import hashlib

    assert hashlib.sha256(token.encode()).hexdigest().encode() in blob  # the lookup key is there


def test_failed_joins_are_limited_per_address_and_per_server(store):
    info, _ = store.start_class("g", 2)
    # a class of 40 behind one NAT address, each mistyping the code once, then all joining: fine
    for i in range(40):
        with pytest.raises(JoinRefused):
            store.join("WRONG-CODE", f"s{i}", address="10.0.0.1")
        store.join(info.code, f"s{i}", address="10.0.0.1")
    # someone trying codes from one address: blocked after 60 failures, even with the right code
    for _ in range(20):
        with pytest.raises(JoinRefused) as e:
            store.join(new_code(), "x", address="10.0.0.1")
        assert e.value.reason == "unknown"
    with pytest.raises(JoinRefused) as e:
        store.join(info.code, "late", address="10.0.0.1")
    assert e.value.reason == "rate_limited"
    assert store.join(info.code, "late", address="10.0.0.2").name == "late"  # another address is not


def test_server_wide_limit_and_window():
    lim = FailedJoins(per_address=5, per_server=12, window_s=60)
    for i in range(12):
        assert not lim.blocked(f"a{i}", now=100.0)
        lim.fail(f"a{i}", now=100.0)
    assert lim.blocked("someone-new", now=100.0)  # guessing from many addresses hits the server cap
    assert not lim.blocked("someone-new", now=161.0)  # the window slides
    for _ in range(5):
        lim.fail("b", now=200.0)
    assert lim.blocked("b", now=200.0) and not lim.blocked("c", now=200.0)


def test_a_script_name_is_stored_as_text(store):
    info, _ = store.start_class("g", 1)
    name = '<script>alert("x")</script>'
    s = store.join(info.code, name)
    assert s.name == name and store.summary(info.id).students[0].name == name


def test_csv_cells():
    assert csv_cell(3) == 3 and csv_cell(-0.5) == -0.5 and csv_cell("-0.5") == "-0.5" and csv_cell("12") == "12"
    assert csv_cell("1e-3") == "1e-3"
    for bad in ("=1+1", "+1", "-x", "@A1", "\tx", "\rx", "-1+1"):
        assert csv_cell(bad) == "'" + bad
    assert csv_cell("<b>") == "<b>" and csv_cell(None) is None


def test_errors_never_show_the_password():
    s = Store("postgresql://teacher:s3cret-pw@127.0.0.1:1/x")  # nothing listens on port 1
    with pytest.raises(Exception) as e:
        s.class_for_code("ABCDEFGH")
    assert "s3cret-pw" not in str(e.value) and "***" in str(e.value)
    assert "s3cret-pw" not in repr(s)


def test_store_never_imports_streamlit():
    code = "import sys, store; bad = {'streamlit', 'ui', 'lessons', 'viz', 'torch'} & set(sys.modules); print(bad)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "set()"
