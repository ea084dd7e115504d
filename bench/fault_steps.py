"""The single-server fault steps of bench/faults.py: each starts real servers, drives them with protocol
clients (bench/st_client.py) as a browser would, injects one fault, and returns (survived, what happened)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import bench.browser_latency as bl
from bench.server_proc import PYTHON, ROOT
from bench.st_client import Session

# A small lab variant: it trains in seconds, so each step takes well under a minute.
LAB = {"a_n_layers": "1", "a_d_model": "32", "a_d_ff": "64", "a_n_heads": "2"}
BIG = {"a_d_model": "256", "a_n_layers": "4", "a_d_ff": "1024"}  # a run long enough to interrupt
TIMEOUT_S = 180


@contextlib.contextmanager
def server(tmp: Path, name: str, **env: str):
    """`streamlit run app.py` on a free port with env added; yields (port, process); stops its group."""
    port, log = bl.free_port(), open(tmp / f"{name}.log", "wb")  # noqa: SIM115  (closed below)
    full = dict(os.environ, MALLOC_ARENA_MAX="2", **env)
    cmd = [PYTHON, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address",
           "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        bl.wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
        yield port, proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.close()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT_S))


async def page(port: int, name: str, **query: str) -> Session:
    s = Session(port, name, urlencode(query))
    _, errors = await s.open()
    if errors:
        raise RuntimeError(f"{name}: {errors[0]}")
    return s


async def click(s: Session, key: str) -> list[str]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    _, errors = await s.rerun((WidgetState(id=s.widgets[key][1].id, trigger_value=True),))
    return errors


def text(s: Session) -> str:
    return " ".join(s.texts)


async def until(s: Session, done, seconds: float = TIMEOUT_S, every: float = 1.0) -> list[str]:
    """Reruns the page (as its polling fragment would) until done(s); returns every text seen on the way."""
    seen, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        _, errors = await s.rerun()
        if errors:
            raise RuntimeError(errors[0])
        seen.append(text(s))
        if done(s):
            return seen
        await asyncio.sleep(every)
    raise TimeoutError(f"{s.page}: still waiting after {seconds:.0f} s")


def trained(s: Session) -> bool:
    """The lab's side A shows trained weights: neither Train nor Stop is offered for it."""
    return "a_train" not in s.widgets and "a_stop" not in s.widgets


def training(s: Session) -> bool:
    return "a_stop" in s.widgets


def stepping(s: Session) -> bool:
    """Training has reached its first steps (the child is past its start-up and holds the variant's lock)."""
    return training(s) and any(re.match(r"Step [1-9]\d* of \d+ · training loss", t) for t in s.texts)


# ----------------------------------------------------------------- the steps


def shared_cache() -> tuple[bool, str]:
    """Three replicas share one variant cache: two asked at once train the variant once; the third uses it."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cache = str(tmp / "cache")
        with server(tmp, "a", ATTENTION_LAB_CACHE=cache) as (pa, _), server(tmp, "b", ATTENTION_LAB_CACHE=cache) as (
            pb, _), server(tmp, "c", ATTENTION_LAB_CACHE=cache) as (pc, _):  # fmt: skip

            async def go():
                a, b = await page(pa, "lab", **LAB), await page(pb, "lab", **LAB)
                await click(a, "a_train")
                await click(b, "a_train")
                _, seen_b = await asyncio.gather(until(a, trained), until(b, trained))
                saved = time.monotonic()
                c = await page(pc, "lab", **LAB)
                await until(c, trained, seconds=15)
                return seen_b, time.monotonic() - saved

            seen_b, c_after = run(go())
            files = sorted(p.name for p in (tmp / "cache").glob("*.pt"))
        waited = any("Another server sharing this cache folder" in t for t in seen_b)
        b_did = "said another server was training it, then used its file" if waited else "did NOT wait"
        return len(files) == 1 and waited, (f"{len(files)} file saved; replica B {b_did}; replica C used it "
                                            f"{c_after:.1f} s after it was saved")  # fmt: skip


@contextlib.contextmanager
def mounted(options: list[str], source: str = "tmpfs", target: Path | None = None):
    subprocess.run(["mount", *options, source, str(target)], check=True, capture_output=True)
    try:
        yield target
    finally:
        subprocess.run(["umount", str(target)], check=False, capture_output=True)


def _cache_fault(tmp: Path, cache: Path, how: str) -> tuple[bool, str]:
    """Train on a server whose cache cannot take the variant: the lab says why and uses it from memory."""
    with server(tmp, how, ATTENTION_LAB_CACHE=str(cache)) as (port, _):

        async def go():
            s = await page(port, "lab", **LAB)
            before = text(s)
            await click(s, "a_train")
            seen = await until(s, trained)
            return before, seen[-1], bool(s.charts)

        before, after, drawn = run(go())
    left = sorted(p.name for p in cache.iterdir()) if cache.is_dir() else []
    warned = "cannot be saved in the cache folder" in before
    kept = "could not be saved in" in after and "memory" in after
    half = [n for n in left if ".tmp" in n or n.endswith(".pt") or n.endswith(".snapshots")]
    used = "trained model used from memory" if kept else "trained model NOT used"
    return (kept and drawn and not half and (warned or how == "full")), (
        f"{'warned before training; ' if warned else ''}{used}, figures {'drawn' if drawn else 'MISSING'}; "
        f"files left in the cache: {left or 'none'}")  # fmt: skip


def cache_read_only() -> tuple[bool, str]:
    """The variant cache is read-only (a read-only bind mount: EROFS, which root cannot bypass either)."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "src").mkdir()
        (tmp / "cache").mkdir()
        with mounted(["--bind"], str(tmp / "src"), tmp / "cache"):
            subprocess.run(["mount", "-o", "remount,bind,ro", str(tmp / "cache")], check=True)
            ok, detail = _cache_fault(tmp, tmp / "cache", "read-only")
        return ok, "read-only bind mount: " + detail


def cache_full() -> tuple[bool, str]:
    """The variant cache is full (a 64 KB tmpfs: the folder check passes, the save then meets ENOSPC)."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "cache").mkdir()
        with mounted(["-t", "tmpfs", "-o", "size=64k"], "tmpfs", tmp / "cache"):
            ok, detail = _cache_fault(tmp, tmp / "cache", "full")
        return ok, "a 64 KB tmpfs: " + detail


def child_killed_and_restart() -> tuple[bool, str]:
    """The training child SIGKILLed, then the server restarted during a run: said so, and a new run starts."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp, notes = Path(tmp_name), []
        cache = str(tmp / "cache")
        with server(tmp, "first", ATTENTION_LAB_CACHE=cache) as (port, proc):

            async def kill_child():
                s = await page(port, "lab", **(LAB | BIG))  # long enough to kill
                await click(s, "a_train")
                await until(s, stepping, every=0.3)
                child = subprocess.run(["pgrep", "-f", "-P", str(proc.pid), "models.variants"], capture_output=True,
                                       text=True).stdout.split()  # fmt: skip
                os.kill(int(child[0]), signal.SIGKILL)
                seen = await until(s, lambda s: "a_train" in s.widgets)
                notes.append("killed child: page says 'Training failed'" if "Training failed" in seen[-1] else
                             "killed child: NO failure notice")  # fmt: skip
                await click(s, "a_train")  # no stale lock: it starts again at once
                await until(s, stepping, seconds=30, every=0.3)
                notes.append("a new run started at once")

            run(kill_child())
        with server(tmp, "second", ATTENTION_LAB_CACHE=cache) as (port, _):  # the first was stopped mid-run

            async def after_restart():
                s = await page(port, "lab", **(LAB | BIG))
                said = "did not finish" in text(s)
                await click(s, "a_train")
                await until(s, training, seconds=20, every=0.3)
                return said

            said = run(after_restart())
        notes.append(f"after the restart the page {'says the run did not finish' if said else 'says NOTHING'} and a "
                     "new run starts at once")  # fmt: skip
        return all("NO" not in n and "NOTHING" not in n for n in notes), "; ".join(notes)


STEPS = {
    "shared_cache": shared_cache,
    "cache_read_only": cache_read_only,
    "cache_full": cache_full,
    "child_killed_and_restart": child_killed_and_restart,
}


def model_folder() -> tuple[bool, str]:
    """A published model's folder deleted, another's weights truncated, while the server runs."""
    from tests.models.hf.tiny import build

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for name in ("gpt2-a", "gpt2-b"):
            build("gpt2", tmp / "models" / name)
        with server(tmp, "models", ATTENTION_LAB_MODELS=str(tmp / "models")) as (port, _):

            async def go():
                await page(port, "explorer", model="gpt2-a")  # loaded: its weights are copied into memory
                shutil.rmtree(tmp / "models" / "gpt2-a")
                weights = tmp / "models" / "gpt2-b" / "model.safetensors"
                weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
                a = await page(port, "explorer", model="gpt2-a")  # a new session, after the deletion
                s = Session(port, "explorer", urlencode({"model": "gpt2-b"}))
                _, errors = await s.open()
                toy = await page(port, "explorer")
                return a, s, errors, toy

            a, b, b_errors, toy = run(go())
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as r:
                healthy = r.status == 200
        said = next((t for t in b.texts if "safetensors" in t or "could not be loaded" in t), "")
        ok = bool(a.charts) and not b_errors and said and not b.charts and bool(toy.charts) and healthy
        return ok, (f"deleted folder: {'the loaded model still serves' if a.charts else 'NOT served'}; truncated "
                    f"weights: {'the page says ' + repr(said[:90]) if said else 'NO message'}"
                    f"{', a traceback' if b_errors else ''}; toy pages {'fine' if toy.charts else 'BROKEN'}"
                    f"; health {'OK' if healthy else 'FAILING'}")  # fmt: skip


def class_db_restart() -> tuple[bool, str]:
    """The class database (PostgreSQL) stopped and restarted during a lesson."""
    import sqlalchemy as sa

    from bench import class_load as cl
    from bench.pg_cluster import cluster
    from store.engine import normalize_url
    from store.schema import events

    with tempfile.TemporaryDirectory() as tmp_name, cluster() as pg:
        tmp = Path(tmp_name)
        info, _, env = cl.a_class(tmp, pg.url)
        with server(tmp, "class", **env) as (port, _):

            async def answer(s: Session) -> tuple[bool, bool, list[str]]:
                """(acknowledged, said it was not saved, errors) of one answer to the step on screen."""
                if "gp_choice" not in s.widgets and "gp_again" in s.widgets:
                    await click(s, "gp_again")
                radio = s.widgets["gp_choice"][1]
                pick = cl.WidgetState(id=radio.id, string_value=radio.options[0])
                _, errors = await s.rerun((pick, cl.trigger(s, "gp_send")))
                acked = any(t.startswith(cl.ACKS) for t in s.texts) and not any(cl.NOT_SAVED in t for t in s.texts)
                return acked, any(cl.NOT_SAVED in t for t in s.texts), errors

            async def go():
                students = []
                for i in range(3):
                    s = Session(port, "guides", urlencode({"join": info.code}))
                    await s.open()
                    await s.rerun((cl.text_value(s, "cj_code", info.code), cl.text_value(s, "cj_name", f"s{i}"),
                                   cl.trigger(s, "cj_go")))  # fmt: skip
                    students.append(s)
                before = [await answer(s) for s in students]
                for s in students:
                    await click(s, "guide_next")
                pg.stop()
                down = [await answer(s) for s in students]
                pg.start()
                await asyncio.sleep(16)  # the store's cool-down after a failure (store/engine.py: 15 s)
                after = [await answer(s) for s in students]
                return before, down, after

            before, down, after = run(go())
        with sa.create_engine(normalize_url(pg.url)).connect() as conn:
            stored = conn.execute(sa.select(sa.func.count()).select_from(events).where(
                events.c.class_id == info.id, events.c.kind == "predict")).scalar_one()  # fmt: skip
    acked = sum(a for a, _, _ in before + down + after)
    errors = [e for _, _, errs in before + down + after for e in errs]
    ok = all(a for a, _, _ in before + after) and all(n and not a for a, n, _ in down) and not errors
    ok = ok and stored == acked
    return ok, (f"before: {sum(a for a, _, _ in before)}/3 acknowledged; while down: {sum(n for _, n, _ in down)}/3 "
                f"told 'not saved', {sum(a for a, _, _ in down)} acknowledged; after the restart: "
                f"{sum(a for a, _, _ in after)}/3 acknowledged; {stored} rows stored for {acked} acknowledged; "
                f"{len(errors)} errors")  # fmt: skip


STEPS |= {"model_folder": model_folder, "class_db_restart": class_db_restart}
