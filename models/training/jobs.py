"""Training in a child process, followed from the server: what the Architecture lab's variants
(models/variants.py) and the post-training demo (models/posttrain_run.py) share.

The server starts `python -m <module> ...`: training then never holds the server's interpreter (other
sessions stay responsive), the child runs at low priority on one core, and Stop is a plain terminate.
The child reports on stdout, one JSON object per line; a daemon thread reads them into the job kept in
memory, so a page polls the job without touching the disk. A child that fails says why on its last
stderr line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Generic, Protocol, TypeVar

import torch

ROOT = Path(__file__).parents[2]  # the project root: the child imports the project's packages from here
ERROR_CHARS = 300  # a failed job's message: the last stderr line, cut to this length


class ChildJob(Protocol):
    key: str
    proc: subprocess.Popen | None
    state: str  # running | done | cancelled | failed
    error: str


J = TypeVar("J", bound=ChildJob)


class ChildJobs(Generic[J]):
    """The training jobs of one server, shared by every session (one instance, e.g. behind
    st.cache_resource): at most one child runs at a time (two cores: one trains, one serves), and
    one lock guards starting it and every job's state, as the follower thread and the sessions'
    reruns touch them at once. Subclasses say which job is running, what a progress line changes,
    and whether a child that exited 0 left a complete entry."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def running(self) -> J | None:
        raise NotImplementedError

    def _add(self, job: J) -> None:
        """Keep a job that has just started (called with the lock held)."""
        raise NotImplementedError

    def _message(self, job: J, msg: dict) -> None:
        """One JSON line of the child's stdout (called without the lock)."""

    def _complete(self, job: J) -> bool:
        """Whether a child that exited with code 0 left its entry (called with the lock held)."""
        return True

    def _launch(self, job: J, args: list[str], pass_fds: tuple[int, ...] = ()) -> J:
        """Run `python *args` (["-m", module, ...]) for job and follow it; returns the running job
        (another one, if one is already running: then job is dropped). pass_fds: descriptors the child inherits
        (a variant's lock, taken here before the child starts)."""
        with self.lock:
            busy = self.running()
            if busy is not None:
                return busy
            job.proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, cwd=ROOT, pass_fds=pass_fds)  # fmt: skip
            self._add(job)
        threading.Thread(target=self._follow, args=(job,), daemon=True).start()
        return job

    def _follow(self, job: J) -> None:
        assert job.proc is not None and job.proc.stdout is not None
        for line in job.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict):  # a stray JSON value (e.g. a library printing "3") is not progress
                self._message(job, msg)
        err = job.proc.stderr.read() if job.proc.stderr else ""
        code = job.proc.wait()
        with self.lock:
            if job.state == "running":
                job.state = "done" if code == 0 and self._complete(job) else "failed"
                if job.state == "failed":
                    job.error = (err.strip().splitlines() or [f"exit code {code}"])[-1][:ERROR_CHARS]

    def _stop(self, job: J | None, folder: Path) -> bool:
        """Cancel a running job: terminate its child and delete what it was writing (folder/key.*tmp*).
        False if there was nothing to stop."""
        if job is None or job.state != "running" or job.proc is None:
            return False
        with self.lock:
            job.state = "cancelled"
        job.proc.terminate()
        job.proc.wait()
        for p in folder.glob(f"{job.key}.*tmp*"):
            p.unlink(missing_ok=True)
        return True


# ----------------------------------------------------------------- the child's side


def lower_priority() -> None:
    """One torch thread, run only when the server does not want the CPU: Linux's SCHED_IDLE (weight 3
    against a normal thread's 1024, nice 10's 110). On this 2-vCPU machine a training run still raised a
    class's p95 1.7-2.0x either way (bench/abuse.py, docs/deploy.md): what is left is not the scheduler's
    share. Elsewhere, or where it is refused, nice 19."""
    torch.set_num_threads(1)
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        if hasattr(os, "nice"):
            os.nice(19)


# The share of the time a training child computes while the server is busy (ATTENTION_LAB_TRAIN_SHARE):
# at 1/2 a training run raised a class's p95 1.48-1.53x (bench/abuse.py, 39 sessions, 3 s think), at 1/3
# within 1.5x; training then takes 3x as long, and full speed whenever the server is idle.
TRAIN_SHARE = min(1.0, max(0.05, float(os.environ.get("ATTENTION_LAB_TRAIN_SHARE", "0.33"))))


class MakeWay:
    """Called before each training step in the child: while the server (its parent) is busy, wait so that
    the steps take at most `share` of the time, and none when the server is idle. A scheduling class
    cannot do this here: at SCHED_IDLE a training run still raised a class's p95 1.7-2.0x (bench/abuse.py)
    on this 2-vCPU machine: the steps' memory traffic slows the server, not their CPU priority."""

    def __init__(self, share: float = TRAIN_SHARE, busy_cores: float = 0.05, clock=time.monotonic, sleep=time.sleep,
                 parent_cpu=None):  # fmt: skip
        self.wait, self.busy, self.clock, self.sleep = 1 / share - 1, busy_cores, clock, sleep
        self.parent_cpu = parent_cpu or (lambda: process_cpu_s(os.getppid()))
        self.t, self.cpu, self.slept = clock(), self.parent_cpu(), 0.0

    def __call__(self, *_) -> bool:
        now, cpu = self.clock(), self.parent_cpu()
        window = now - self.t
        step = window - self.slept  # the last step's own time
        if window > 0 and (cpu - self.cpu) / window > self.busy and step > 0:
            self.slept = step * self.wait
            self.sleep(self.slept)
        else:
            self.slept = 0.0
        self.t, self.cpu = now, cpu
        return True


def process_cpu_s(pid: int) -> float:
    """utime + stime of a process, from /proc (0 where there is none: no pausing then)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(msg: dict) -> None:
    """One progress line on stdout, flushed at once so the server's follower sees it now."""
    print(json.dumps(msg), flush=True)
