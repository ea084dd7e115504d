"""The child-process machinery shared by the lab's variants and the post-training demo (models/training/jobs.py):
tiny `python -c` children print JSON lines; the job follows them and ends done, failed (with the last
stderr line, cut) or cancelled (child gone, its half-written files deleted), one child at a time."""

import time
from dataclasses import dataclass, field
from pathlib import Path

from models.training.jobs import ERROR_CHARS, ChildJobs, report


@dataclass
class Job:
    key: str
    proc: object = None
    state: str = "running"
    error: str = ""
    seen: list = field(default_factory=list)


class Lines(ChildJobs[Job]):
    def __init__(self, complete: bool = True):
        super().__init__()
        self.job: Job | None = None
        self.complete = complete

    def running(self) -> Job | None:
        return self.job if self.job is not None and self.job.state == "running" else None

    def start(self, code: str, key: str = "k") -> Job:
        return self._launch(Job(key), ["-c", code])

    def _add(self, job: Job) -> None:
        self.job = job

    def _message(self, job: Job, msg: dict) -> None:
        job.seen.append(msg)

    def _complete(self, job: Job) -> bool:
        return self.complete


PRINTS = "import json\nfor i in range(3): print(json.dumps({'step': i}), flush=True)\nprint('not json', flush=True)"


def wait(job: Job, seconds: float = 30) -> str:
    end = time.time() + seconds
    while job.state == "running" and time.time() < end:
        time.sleep(0.05)
    return job.state


def test_progress_lines_arrive_in_order_and_the_job_is_done():
    runner = Lines()
    job = runner.start(PRINTS)
    assert wait(job) == "done", job.error
    assert job.seen == [{"step": 0}, {"step": 1}, {"step": 2}]  # the line that is not JSON is skipped
    assert runner.running() is None


def test_exit_code_0_without_an_entry_fails():
    job = Lines(complete=False).start(PRINTS)
    assert wait(job) == "failed" and job.error == "exit code 0"


def test_a_failing_child_reports_its_last_stderr_line_cut():
    code = f"import sys\nprint('first', file=sys.stderr)\nsys.exit('x' * {ERROR_CHARS + 50})"
    job = Lines().start(code)
    assert wait(job) == "failed"
    assert job.error == "x" * ERROR_CHARS


def test_one_child_at_a_time_and_cancel_kills_it_and_deletes_its_temporary_files(tmp_path: Path):
    runner = Lines()
    job = runner.start("import json, time\nprint(json.dumps({'step': 1}), flush=True)\ntime.sleep(60)")
    assert runner.start(PRINTS) is job  # busy: the running job comes back
    end = time.time() + 30
    while not job.seen and time.time() < end:
        time.sleep(0.05)
    (tmp_path / "k.pt.tmp123").write_bytes(b"half")
    (tmp_path / "other.pt").write_bytes(b"kept")
    assert runner._stop(job, tmp_path)
    assert job.state == "cancelled" and job.proc.poll() is not None
    assert [p.name for p in tmp_path.iterdir()] == ["other.pt"]
    time.sleep(0.5)
    assert job.state == "cancelled"  # the follower, seeing the pipe close, does not overwrite it
    assert not runner._stop(job, tmp_path)  # nothing left to stop


def test_report_writes_one_flushed_json_line(capsys):
    report({"step": 1, "loss": 2.5})
    assert capsys.readouterr().out == '{"step": 1, "loss": 2.5}\n'


def test_a_training_child_makes_way_while_the_server_is_busy():
    """jobs.MakeWay, before each step: while the parent used CPU since the last step, wait so the steps take
    `share` of the time (1/3: twice the step's time); with an idle parent, no wait at all."""
    from models.training.jobs import MakeWay

    now, cpu, slept = [0.0], [0.0], []

    def sleep(s):
        slept.append(round(s, 6))
        now[0] += s

    way = MakeWay(share=1 / 3, clock=lambda: now[0], sleep=sleep, parent_cpu=lambda: cpu[0])
    for busy in (True, True, False, False, True):
        now[0] += 0.05  # a step of 50 ms
        cpu[0] += 0.02 if busy else 0.0  # the server's runs meanwhile
        assert way() is True
    assert slept == [0.1, 0.1, 0.1]
