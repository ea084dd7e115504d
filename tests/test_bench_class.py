"""bench/load.py --class keeps its output contract (issue 19): a table, then one JSON object on the last line
with answers_sent / answers_acked / answers_stored / errors / p95_ms, which scripts read. A short real run:
a server, a SQLite class database, three protocol students answering the 5-step lesson."""

from pathlib import Path

from tests.bench_run import run_bench

ROOT = Path(__file__).parents[1]


def test_class_mode_prints_its_table_then_one_json_line(tmp_path):
    result, lines = run_bench(["bench/load.py", "--class", "--students", "3", "--seconds", "120", "--think", "0.2",
                               "--teacher-students", "5", "--refreshes", "2"], home=tmp_path)  # fmt: skip
    assert {"answers_sent", "answers_acked", "answers_stored", "errors", "p95_ms"} <= set(result)
    assert result["answers_sent"] == result["answers_acked"] == result["answers_stored"] == 3 * 5
    assert result["errors"] == 0 and result["p95_ms"] > 0
    assert any(line.startswith("| students | replicas | answers sent") for line in lines)
