"""The sidebar's "Add a model…": a Hub id (and revision), its size check, then the download with a progress bar.

Both steps run `python -m models.fetch` (the command the README gives) in a child process: the check waits for
it; the download runs in the background, writes its progress to a JSON file this panel reads twice a second,
and Cancel ends the child's process group (huggingface_hub has no cancel API, and its threads must never call
st.*). A download is the server's, not the session's: the registry is a cache_resource, so a second click or
a second teacher watches the same child instead of starting another. On success the model list is scanned
again and the new model is selected.

Downloads are on for a browser on the server's own machine (the teacher's laptop) and off for everyone else
(students reaching a class server over the network, or through any proxy: a request carrying X-Forwarded-For
or Forwarded is off whatever address the server listens on), unless ATTENTION_LAB_DOWNLOADS=1 (on for all) or
=0 (off for all): a student must not fill the class server's disk.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from models.fetch import mib
from models.published import checkpoints, hub

from . import params
from .i18n import md, t
from .slots import fragment

DOWNLOADS_ENV = "ATTENTION_LAB_DOWNLOADS"
PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")  # a request a proxy passed on (case-insensitive)
ROOT = Path(__file__).resolve().parents[1]
REVISION = re.compile(r"^[\w./-]{1,128}$")
CHECK_TIMEOUT_S = 120
MIRROR = "https://hf-mirror.com"  # a Hub mirror commonly used in China, named as the example
PENDING = "fetch_select"  # the model to select on the next full run (the picker's key cannot change mid-run)


@dataclass
class Job:
    name: str
    proc: subprocess.Popen
    status: Path
    started: float = field(default_factory=time.monotonic)
    cancelled: bool = False


@st.cache_resource(show_spinner=False)
def _jobs() -> dict[str, Job]:
    return {}


def downloads_allowed() -> bool:
    """This session's answer to allowed(), from the flag, Streamlit's address and the websocket's request."""
    return allowed(os.environ.get(DOWNLOADS_ENV, ""), st.get_option("server.address"), st.context.headers or {},
                   st.context.ip_address)  # fmt: skip


def allowed(flag: str, address: str | None, headers, ip: str | None) -> bool:
    """The flag wins; then a proxy's header means off, before anything else: behind HAProxy (`option forwardfor`)
    or an ingress every replica listens on loopback and every client connects from the proxy's local address."""
    if flag.strip() in ("0", "1"):
        return flag.strip() == "1"
    if any(name in headers for name in PROXY_HEADERS):
        return False
    return (address or "") in ("localhost", "127.0.0.1", "::1") or is_loopback(ip)


def is_loopback(ip: str | None) -> bool:
    """None is Streamlit's word for localhost; a dual-stack server reports 127.0.0.1 as ::ffff:127.0.0.1."""
    if ip is None:
        return True
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return False
    addr = getattr(addr, "ipv4_mapped", None) or addr
    return addr.is_loopback


def _command(repo: str, revision: str, status: Path, check: bool) -> list[str]:
    cmd = [sys.executable, "-m", "models.fetch", repo, "--status", str(status)]
    return cmd + (["--revision", revision] if revision else []) + (["--check"] if check else [])


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def check(repo: str, revision: str) -> dict:
    """The child's size check: {"state": "checked", "plan": {...}} or {"state": "error", "message": ...}."""
    with tempfile.TemporaryDirectory() as tmp:
        status = Path(tmp) / "status.json"
        try:
            subprocess.run(_command(repo, revision, status, check=True), cwd=ROOT, capture_output=True,
                           timeout=CHECK_TIMEOUT_S, env=os.environ.copy())  # fmt: skip
        except subprocess.TimeoutExpired:  # no answer in time: as unreachable, for the teacher
            why = f"TimeoutExpired ({CHECK_TIMEOUT_S} s)"
            return {"state": "error", "kind": "network", "detail": {"endpoint": endpoint(), "why": why}}
        return _read(status) or {"state": "error", "message": t("fetch.check_failed")}


def endpoint() -> str:
    """The Hub the child asks: the server's HF_ENDPOINT, read when the server started (models/fetch.py)."""
    return os.environ.get("HF_ENDPOINT") or "https://huggingface.co"


def error(result: dict) -> None:
    """A failed check or download. Unreachable Hub: what the teacher asks for first, then the administrator's
    details; the child's other messages are its own paragraph."""
    detail = result.get("detail") or {}
    if result.get("kind") != "network" or not detail:
        st.error(md(result.get("message") or t("fetch.check_failed")))
        return
    st.error(t("fetch.network", mirror=MIRROR))
    st.caption(t("fetch.network_detail", endpoint=md(detail.get("endpoint", endpoint())),
                 why=md(detail.get("why", "?"))))  # fmt: skip


def start(plan: dict) -> str:
    name = plan["name"]
    job = _jobs().get(name)
    if job is None or job.proc.poll() is not None:
        _forget(name)  # a finished job nobody read: its status folder goes too
        status = Path(tempfile.mkdtemp(prefix="attention-lab-fetch-")) / "status.json"
        revision = "" if plan["revision"] == "main" else plan["revision"]
        proc = subprocess.Popen(_command(plan["repo"], revision, status, check=False), cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                env=os.environ.copy())  # fmt: skip
        _jobs()[name] = Job(name, proc, status)
    return name


def _forget(name: str) -> None:
    """Drop a job and the temporary folder of its status file (one folder per download was left in /tmp)."""
    job = _jobs().pop(name, None)
    if job is not None:
        shutil.rmtree(job.status.parent, ignore_errors=True)


def cancel(name: str) -> None:
    job = _jobs().get(name)
    if job is not None and job.proc.poll() is None:
        job.cancelled = True
        try:
            os.killpg(job.proc.pid, signal.SIGTERM)
            job.proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(job.proc.pid, signal.SIGKILL)


def select_pending() -> None:
    """Before the picker is drawn: a model whose download just finished becomes the selection."""
    name = st.session_state.pop(PENDING, None)
    if name is not None and name in params.local_models():
        st.session_state["model"] = name


def panel() -> None:
    """The expander under the model picker (inside `with st.sidebar`)."""
    watching = st.session_state.get("fetch_job")
    with st.expander(t("fetch.open"), expanded=watching is not None):
        if not downloads_allowed():
            st.caption(t("fetch.off", env=DOWNLOADS_ENV, cmd="python -m models.fetch org/name"))
            return
        st.caption(t("fetch.intro"))
        st.text_input(t("fetch.repo"), key="fetch_repo", placeholder="Qwen/Qwen3-0.6B", max_chars=200)
        st.text_input(t("fetch.revision"), key="fetch_rev", placeholder="main", max_chars=128,
                      help=t("fetch.revision_help"))  # fmt: skip
        if st.button(t("fetch.check"), key="fetch_check", width="stretch"):
            _on_check()
        _plan()
        if watching is not None:
            _progress(watching)
        if params.local_models():
            st.caption(t("fetch.listed", n=len(params.local_models())), help=str(hub.cache_dir()))
        if st.button(t("fetch.rescan"), key="fetch_rescan", width="stretch"):
            params.refresh_models()
            st.rerun()


def _on_check() -> None:
    repo = (st.session_state.get("fetch_repo") or "").strip()
    revision = (st.session_state.get("fetch_rev") or "").strip()
    if hub.parse(repo) is None:
        st.session_state["fetch_plan"] = {"state": "error", "message": t("fetch.bad_id")}
    elif revision and not REVISION.match(revision):
        st.session_state["fetch_plan"] = {"state": "error", "message": t("fetch.bad_revision")}
    else:
        with st.spinner(t("fetch.checking", repo=md(repo))):
            st.session_state["fetch_plan"] = check(repo, revision)


def _plan() -> None:
    result = st.session_state.get("fetch_plan")
    if not result:
        return
    if result.get("state") != "checked":
        error(result)
        return
    plan = result["plan"]
    mem, arch = plan.get("memory_free"), t(f"model.kind.{plan['arch']}")
    memory = "?" if mem is None else mib(mem)
    st.success(t("fetch.fits", name=md(plan["name"]), family=md(plan["family"]), arch=arch,
                 params=checkpoints.size_text(plan["params"]), n=len(plan["files"]), total=mib(plan["total"]),
                 todo=mib(plan["todo"]), disk=mib(plan["disk_free"]), memory=memory))  # fmt: skip
    if plan["name"] in params.local_models() and not plan["todo"]:
        st.caption(t("fetch.already"))
        return
    if st.button(t("fetch.download", size=mib(plan["todo"])), key="fetch_go", type="primary", width="stretch"):
        st.session_state["fetch_job"] = start(plan)
        st.session_state["fetch_plan"] = None
        st.rerun()


@fragment(run_every=0.5)
def _progress(name: str) -> None:
    job = _jobs().get(name)
    if job is None:
        st.session_state.pop("fetch_job", None)
        return
    s = _read(job.status)
    running = job.proc.poll() is None
    if running:
        done, total = s.get("done", 0), s.get("total", 0)
        eta = s.get("eta")
        left = "?" if eta is None else time.strftime("%M:%S", time.gmtime(min(eta, 359999)))
        text = t("fetch.progress", name=md(name), done=mib(done), total=mib(total), rate=mib(s.get("rate", 0.0)),
                 left=left) if total else t("fetch.starting", name=md(name))  # fmt: skip
        st.progress(min(done / total, 1.0) if total else 0.0, text=text)
        if st.button(t("fetch.cancel"), key="fetch_cancel", width="stretch"):
            cancel(name)
            st.session_state.pop("fetch_job", None)
            _forget(name)
            st.rerun(scope="app")
        return
    st.session_state.pop("fetch_job", None)
    _forget(name)  # its status is read (s): the folder can go
    if job.cancelled:
        st.rerun(scope="app")
    if s.get("state") == "ready":
        params.refresh_models()
        st.session_state[PENDING] = name
        st.toast(t("fetch.ready", name=md(name)))
    else:
        st.session_state["fetch_plan"] = {"state": "error", **{k: s.get(k) for k in ("message", "kind", "detail")}}
    st.rerun(scope="app")
