"""The sidebar's "Add a model…": a Hub id (and revision), its size check, then the download with a progress bar.

Both steps run `python -m models.fetch` (the command the README gives) in a child process: the check waits for
it; the download runs in the background, writes its progress to a JSON file this panel reads twice a second,
and Cancel ends the child's process group (huggingface_hub has no cancel API, and its threads must never call
st.*). A download is the server's, not the session's: the registry is a cache_resource, so a second click or
a second teacher watches the same child instead of starting another. On success the model list is scanned
again and the new model is selected.

Downloads are on for a browser on the server's own machine (the teacher's laptop) and off for everyone else
(students reaching a class server over the network, or through a proxy), unless ATTENTION_LAB_DOWNLOADS=1
(on for all) or =0 (off for all): a student must not fill the class server's disk.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from models import checkpoints, hub
from models.fetch import mib

from . import params
from .i18n import md, t
from .slots import fragment

DOWNLOADS_ENV = "ATTENTION_LAB_DOWNLOADS"
ROOT = Path(__file__).resolve().parents[1]
REVISION = re.compile(r"^[\w./-]{1,128}$")
CHECK_TIMEOUT_S = 120
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
    flag = os.environ.get(DOWNLOADS_ENV, "").strip()
    if flag in ("0", "1"):
        return flag == "1"
    if (st.get_option("server.address") or "") in ("localhost", "127.0.0.1", "::1"):
        return True
    headers = st.context.headers or {}
    if headers.get("X-Forwarded-For") or headers.get("Forwarded"):
        return False  # behind a proxy every client looks local: not the teacher's own browser
    return is_loopback(st.context.ip_address)


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
        except subprocess.TimeoutExpired:
            return {"state": "error", "message": t("fetch.check_timeout", s=CHECK_TIMEOUT_S)}
        return _read(status) or {"state": "error", "message": t("fetch.check_failed")}


def start(plan: dict) -> str:
    name = plan["name"]
    job = _jobs().get(name)
    if job is None or job.proc.poll() is not None:
        status = Path(tempfile.mkdtemp(prefix="attention-lab-fetch-")) / "status.json"
        revision = "" if plan["revision"] == "main" else plan["revision"]
        proc = subprocess.Popen(_command(plan["repo"], revision, status, check=False), cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                env=os.environ.copy())  # fmt: skip
        _jobs()[name] = Job(name, proc, status)
    return name


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
        st.error(md(result.get("message") or t("fetch.check_failed")))
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
            _jobs().pop(name, None)
            st.rerun(scope="app")
        return
    st.session_state.pop("fetch_job", None)
    _jobs().pop(name, None)
    if job.cancelled:
        st.rerun(scope="app")
    if s.get("state") == "ready":
        params.refresh_models()
        st.session_state[PENDING] = name
        st.toast(t("fetch.ready", name=md(name)))
    else:
        st.session_state["fetch_plan"] = {"state": "error", "message": s.get("message") or t("fetch.check_failed")}
    st.rerun(scope="app")
