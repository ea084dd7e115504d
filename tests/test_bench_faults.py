"""bench/faults.py keeps its output contract (issue 21): a table, then one JSON object on the last line,
{"faults": N, "survived": M, ...}, and a non-zero exit when a fault was not survived. One real, short step."""

import subprocess
import sys
from pathlib import Path

from tests.bench_run import run_bench

ROOT = Path(__file__).parents[1]


def test_one_fault_step_prints_its_row_and_the_json_line():
    result, lines = run_bench(["bench/faults.py", "--only", "model_folder"])
    assert result == {"faults": 1, "survived": 1, "results": {"model_folder": True}}
    assert any(line.startswith("| model_folder | survived |") for line in lines)


def test_every_step_is_listed_and_an_unknown_one_is_refused():
    listed = subprocess.run([sys.executable, "bench/faults.py", "--list"], cwd=ROOT, capture_output=True, text=True)
    names = {line.split(":")[0] for line in listed.stdout.splitlines()}
    assert {"shared_cache", "cache_read_only", "cache_full", "child_killed_and_restart", "model_folder",
            "class_db_restart"} <= names  # fmt: skip
    bad = subprocess.run([sys.executable, "bench/faults.py", "--only", "nope"], cwd=ROOT, capture_output=True,
                         text=True)  # fmt: skip
    assert bad.returncode != 0 and "unknown steps: nope" in bad.stderr
