"""Concurrency figures: N relay processes x M concurrent calls each against one fake agy.

Every call goes through `gravity-relay serve` over stdio. The fake agy records the start and end
of every print-mode launch, so the script can check that no two workers ever overlapped (one agy
per machine, across processes) and print the order in which calls were served.

    python bench/bench_concurrency.py                 # 3 processes x 4 calls, the issue's figure
    python bench/bench_concurrency.py --processes 2 --calls 2 --sleep 0.3
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from concurrency_harness import run_concurrency  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--calls", type=int, default=4)
    parser.add_argument("--sleep", type=float, default=0.5, help="seconds each fake agy run takes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = anyio.run(lambda: run_concurrency(Path(tmp), processes=args.processes, calls=args.calls,
                                                    sleep=args.sleep))
    print(f"relay processes x calls : {args.processes} x {args.calls} = {figures['calls']}")
    print(f"successes               : {figures['successes']}")
    print(f"agy launches            : {figures['launches']}")
    print(f"overlapping runs        : {figures['overlaps']}")
    print(f"wall time               : {figures['wall_seconds']} s (agy busy {figures['busy_seconds']} s)")
    print(f"order of service        : {' '.join(figures['order'])}")


if __name__ == "__main__":
    main()
