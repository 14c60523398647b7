"""Which of the review's patterns backtrack without end on a line built for it (the review's CPU budget is checked between
readers, never inside one: such a pattern holds a review for hours; round 123 found five).

Every module-level pattern of ``relay.review`` (a compiled regex bound to a name, or one in a table of rows) is searched on
lines an adversary writes to make a regex fail slowly: long runs of escapes after an opening quote or slash, of blanks, of
brackets, of separators. A child process works through the patterns and says which one it is on; a pattern still running
after ``--stall`` seconds is reported as hanging, the child killed and a new one started after it. Prints the slow
patterns (over ``--slow`` seconds on one line), the hanging ones, and how many were tried.

    python bench/bench_pattern_backtracking.py            # from a checkout: its own relay is read
"""

from __future__ import annotations

import argparse
import json
import re
import select
import subprocess
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_RUN = 28  # escapes in a run: 2^28 ways to fail is minutes; a linear pattern takes microseconds


def _lines() -> list[str]:
    esc = "\\a" * _RUN
    return [esc, "/" + esc, "'" + esc, '"' + esc, "`" + esc, " " * 120 + "x", "a" * 60 + "!", "(" * 30, "a." * 40, "a " * 60 + "(",
            "-" * 100, "1" * 60 + "x", "\t" * 80 + "=", "a_" * 40, "a-" * 40 + "(", "$" * 60, "{" * 40, "<" * 40, "%" * 60, "=" * 60,
            "a,b," * 25, "x" + "." * 60, "@" * 60, "/" * 60, "*" * 60]


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    import importlib
    import pkgutil

    import relay.review as review
    found: list[tuple[str, re.Pattern[str]]] = []
    for info in pkgutil.iter_modules(review.__path__):
        module = importlib.import_module(f"relay.review.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                found.append((f"{info.name}.{name}", value))
            elif isinstance(value, tuple):  # a table of rows: (what, words, pattern)
                found += [(f"{info.name}.{name}[{i}]", x) for i, row in enumerate(value) if isinstance(row, tuple)
                          for x in row if isinstance(x, re.Pattern)]
    return sorted(found, key=lambda item: item[0])


def _child(start: int, slow: float) -> None:
    sys.path.insert(0, str(_ROOT))
    patterns, lines = _patterns(), _lines()
    for i in range(start, len(patterns)):
        name, pattern = patterns[i]
        print(json.dumps({"at": i, "name": name}), flush=True)
        for line in lines:
            began = time.perf_counter()
            pattern.search(line)
            if (took := time.perf_counter() - began) > slow:
                print(json.dumps({"slow": name, "line": line[:16], "seconds": round(took, 2)}), flush=True)
    print(json.dumps({"done": len(patterns)}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stall", type=float, default=8.0, help="seconds on one pattern before it is called hanging")
    parser.add_argument("--slow", type=float, default=0.5, help="seconds on one line before a pattern is called slow")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        _child(args.child, args.slow)
        return 0
    start, hanging, slow, total = 0, [], [], 0
    while True:
        child = subprocess.Popen([sys.executable, __file__, "--child", str(start), "--slow", str(args.slow)], stdout=subprocess.PIPE,
                                 text=True, encoding="utf-8")
        assert child.stdout is not None
        at, since, stalled = None, time.monotonic(), False
        while True:
            ready, _, _ = select.select([child.stdout], [], [], 1.0)
            if ready:
                line = child.stdout.readline()
                if not line:
                    break  # the child has gone through the rest
                said = json.loads(line)
                if "at" in said:
                    at, since = said, time.monotonic()
                elif "slow" in said:
                    slow.append(said)
                elif "done" in said:
                    total = said["done"]
            if at is not None and time.monotonic() - since > args.stall:
                hanging.append(at["name"])
                child.kill()
                start, stalled = at["at"] + 1, True
                break
        child.wait()
        if not stalled:
            break
    for said in slow:
        print(f"slow     {said['slow']}: {said['seconds']} s on {said['line']!r}…")
    for name in hanging:
        print(f"hanging  {name}: still running after {args.stall:g} s")
    print(f"patterns tried: {total:,}; slow: {len(slow)}; hanging: {len(hanging)}")
    return 1 if hanging else 0


if __name__ == "__main__":
    sys.exit(main())
