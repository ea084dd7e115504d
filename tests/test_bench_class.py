"""bench/load.py --class keeps its output contract (issue 19): a table, then one JSON object on the last line
with answers_sent / answers_acked / answers_stored / errors / p95_ms, which scripts read. A short real run:
a server, a SQLite class database, three protocol students answering the 5-step lesson."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_class_mode_prints_its_table_then_one_json_line(tmp_path):
    cmd = [sys.executable, "bench/load.py", "--class", "--students", "3", "--seconds", "120", "--think", "0.2",
           "--teacher-students", "5", "--refreshes", "2"]  # fmt: skip
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    assert {"answers_sent", "answers_acked", "answers_stored", "errors", "p95_ms"} <= set(result)
    assert result["answers_sent"] == result["answers_acked"] == result["answers_stored"] == 3 * 5
    assert result["errors"] == 0 and result["p95_ms"] > 0
    assert any(line.startswith("| students | replicas | answers sent") for line in lines)
