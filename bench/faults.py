"""Faults a lecture-hall deployment must survive (issue 21), each an automated step against real server
processes: a table of what happened, then as the last line one JSON object {"faults": N, "survived": M,
"results": {...}}; the exit code is non-zero when any fault was not survived.

The steps (bench/fault_steps.py, bench/proxy_faults.py): a variant cache shared by replicas (trained once,
used by all); the cache read-only (the server run as an unprivileged user) and full (a small tmpfs);
the training child SIGKILLed and the server restarted during a run; a published model's folder deleted
and truncated while the server runs; the class database stopped and restarted during a lesson; and,
behind HAProxy, a replica SIGKILLed mid-class and the proxy restarted.

Usage: .venv/bin/python bench/faults.py [--only name,name] [--list]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import fault_steps  # noqa: E402

STEPS = dict(fault_steps.STEPS)
try:  # the replica and proxy faults need the HAProxy launcher (issue 21, part 1)
    from bench import proxy_faults

    STEPS |= proxy_faults.STEPS
except ImportError:
    proxy_faults = None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", type=lambda s: s.split(","), default=None, help="run only these steps")
    ap.add_argument("--list", action="store_true", help="list the steps and exit")
    args = ap.parse_args()
    if args.list:
        for name, step in STEPS.items():
            print(f"{name}: {(step.__doc__ or '').strip().splitlines()[0]}")
        return 0
    names = args.only or list(STEPS)
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        ap.error(f"unknown steps: {', '.join(unknown)} (see --list)")
    rows = []
    for name in names:
        t0 = time.monotonic()
        try:
            survived, detail = STEPS[name]()
        except Exception as e:  # a step that crashed is a fault not survived, with its reason
            survived, detail = False, f"the step itself failed: {type(e).__name__}: {e}"
        rows.append((name, survived, detail, time.monotonic() - t0))
        print(f"{'survived' if survived else 'NOT SURVIVED'}: {name} ({rows[-1][3]:.0f} s) - {detail}", flush=True)
    print("\n| fault | outcome | what happened | s |\n| --- | --- | --- | ---: |")
    for name, survived, detail, seconds in rows:
        print(f"| {name} | {'survived' if survived else '**not survived**'} | {detail} | {seconds:.0f} |")
    survived = sum(ok for _, ok, _, _ in rows)
    print(json.dumps({"faults": len(rows), "survived": survived,
                      "results": {name: ok for name, ok, _, _ in rows}}))  # fmt: skip
    return 0 if survived == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
