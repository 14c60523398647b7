"""Benchmark: the review's CPU on changed lines built to be expensive — the worst the worker (or the repository) can write.

Not a test. The review reads every changed line of every file with a few hundred patterns and pair readers; observation
keeps up to HUNK_LINES lines a side of a file, HUNK_CHARS characters a line (relay.observe.changes). A reader that
compares every added line with every removed one, or searches a line once per match in it, is quadratic in what the
worker writes: round 15's bind, option-rename and signature readers each took 17–42 s of CPU on a few hundred such
lines before they were bounded. This script builds families of such lines (each trips the screens of some readers and
matches nothing), writes them as one file's change of each kind of path, and prints ``build_review``'s CPU per case.
A case that passes the ``--budget`` (seconds) is marked SLOW: that is a reader to bound.

    python bench/bench_review_worst.py                 # every family x every path, 2,000 lines a side
    python bench/bench_review_worst.py --lines 4000    # observation's own bound
    python bench/bench_review_worst.py --family verify --path src/app.js
"""

from __future__ import annotations

import argparse
import random
import resource
import signal
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from relay.core.records import FileChange  # noqa: E402
from relay.observe.changes import HUNK_CHARS, ChangeSet  # noqa: E402
from relay.observe.kept_lines import kept_line  # noqa: E402
from relay.review.packet import build_review  # noqa: E402

_R = random.Random(36)


def _word(n: int) -> str:
    return "".join(_R.choice(string.ascii_lowercase) for _ in range(n))


def _fill(parts: list[str], sep: str = " ") -> str:
    """As many of ``parts`` as fit in one observed line."""
    line, out = "", []
    for part in parts:
        if len(line) + len(part) + len(sep) > HUNK_CHARS:
            break
        out.append(part)
        line = sep.join(out)
    return line


# Each family: (removed line i, added line i). Alike in shape, different in every name: the pair readers try them all.
FAMILIES = {
    "spaces": (lambda i: " " * (HUNK_CHARS - 12) + f"limit --{i}!", lambda i: " " * (HUNK_CHARS - 12) + f"x = {i} !"),
    # Blanks in runs as long as observation keeps them (relay.observe.kept_lines folds longer ones).
    "blank runs": (lambda i: _fill([f"limit{i}" + " " * 31 for _ in range(40)], "-"), lambda i: _fill([f"x{i}" + " " * 31 for _ in range(40)], "=")),
    # round 17's subtle readers (relay.review.subtle_turns): a refusal turned to a return, a loopback bind widened.
    "rejects and binds": (lambda i: f"    raise Unauthorized{i}() # {_word(300)}" if i % 2 else f"  ip: {{127, 0, 0, 1}}, a{i}: {_word(300)}",
                          lambda i: f"    return None{i} # {_word(300)}" if i % 2 else f"  ip: {{0, 0, 0, 0}}, b{i}: {_word(300)}"),
    "nested calls": (lambda i: "verify(" * 70 + f"x{i}" + ")" * 70, lambda i: "decode(" * 70 + f"y{i}" + ")" * 70),
    "chained verifies": (lambda i: "t = " + _fill([f"verify(p{i}_{j})." for j in range(200)], ""),
                         lambda i: "t = " + _fill([f"verify(b{i}_{j})." for j in range(200)], "")),
    "options": (lambda i: _fill([f":max_r{i}_{j}" for j in range(200)]), lambda i: _fill([f":limit_a{i}_{j}" for j in range(200)])),
    "cache keys": (lambda i: "cache_key = [" + _fill([f"user_{i}_{j}," for j in range(200)]) + "]",
                   lambda i: "cache.write(" + _fill([f"entry_{i}_{j}," for j in range(200)]) + ")"),
    "binds": (lambda i: f'    {_word(30)} = "127.0.0.1:{9000 + i % 999}"  # {_word(60)}',
              lambda i: f'    {_word(30)} = "0.0.0.0:{8000 + i % 999}"  # {_word(60)}'),
    "returns": (lambda i: f"    return next(new Error('denied {_word(20)}'))", lambda i: f"    next(new Error('denied {_word(20)}'))"),
    "sources": (lambda i: f'gem "{_word(12)}", git: "https://{_word(8)}.example/{i}"', lambda i: f'gem "{_word(12)}", git: "http://{_word(8)}.example/{i}"'),
    # One word as long as observation keeps a line (a minified name, a base64 blob without padding): a pattern that
    # may start at any letter and scan to the line's end is quadratic in the line (session 46: 150 such lines of a .py,
    # 4.9 s of review CPU, before two reader patterns were made to start only at a name's start).
    "one word": (lambda i: _word(HUNK_CHARS - 1), lambda i: _word(HUNK_CHARS - 1)),
    "words": (lambda i: _fill(_R.choices(["verify", "token", "secret", "password", "escape", "shell=True", "eval(", "http://",
                                           "0.0.0.0", "localhost", "permissions:", "chmod", "0777", "sudo", "curl", "|", "sh",
                                           "return", "raise", "if", "not", "auth", "admin", "HS256", "RS256", "cache", "user",
                                           "max_size", "limit", "(", ")", "=", ":", "'", '"'], k=400)),
              lambda i: _fill(_R.choices(["decode", "value", "key", "name", "unescape", "shell=False", "exec(", "https://",
                                           "127.0.0.1", "::1", "contents:", "chown", "0755", "su", "wget", "&&", "bash",
                                           "yield", "throw", "unless", "!", "user", "guest", "ES256", "PS256", "memo", "owner",
                                           "size", "max", "[", "]", "==", "::", "`", "'"], k=400))),
}
PATHS = ["src/app.py", "src/app.js", "lib/app.rb", "internal/app.go", "src/app.rs", "README.md", ".github/workflows/ci.yml",
         "Dockerfile", "package.json", "config/settings.yaml"]


class _Over(Exception):
    pass


def _on_alarm(signum, frame):  # noqa: ANN001
    raise _Over


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_case(family: str, path: str, lines: int, stop: int) -> float | None:
    old, new = FAMILIES[family]
    change = FileChange(path=path, additions=lines, deletions=lines, ranges=[(1, lines)],
                        removed_lines=[kept_line(old(i).encode(), HUNK_CHARS) for i in range(lines)],
                        added_lines=[kept_line(new(i).encode(), HUNK_CHARS) for i in range(lines)])
    signal.alarm(stop)
    began = _cpu()
    try:
        build_review(ChangeSet(source="git", files=[change]), report=None, task="refactor")
    except _Over:
        return None
    finally:
        signal.alarm(0)
    return _cpu() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=2000, help="changed lines a side (observation keeps up to 4,000)")
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these families")
    parser.add_argument("--path", action="append", help="only these paths")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds past which a case is marked SLOW")
    parser.add_argument("--stop", type=int, default=60, help="wall seconds after which a case is abandoned (marked OVER)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _on_alarm)
    worst = 0.0
    print(f"build_review CPU, one file of {args.lines:,} removed and {args.lines:,} added lines (≤ {HUNK_CHARS:,} characters each)")
    for family in args.family or FAMILIES:
        cells = []
        for path in args.path or PATHS:
            spent = run_case(family, path, args.lines, args.stop)
            if spent is None:
                cells.append(f"{path} OVER {args.stop}s")
                worst = float("inf")
                continue
            worst = max(worst, spent)
            cells.append(f"{path} {spent:.2f}s" + (" SLOW" if spent > args.budget else ""))
        print(f"{family:17} " + "; ".join(cells), flush=True)
    print(f"worst case: {'over ' + str(args.stop) + ' s' if worst == float('inf') else f'{worst:.2f} s'} of CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
