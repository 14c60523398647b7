"""Benchmark: the review's CPU on a change to a minified bundle — a few lines of tens of thousands of characters each.

Not a test. Observation keeps each changed line within HUNK_CHARS characters for the readers (relay.observe.kept_lines),
and every reader is bounded per line of that size. Two readers read the change's own patch instead: the apart and odd
edits (``relay.review.apart_edits.runs_of_patch``) and the parts the packet names first (``relay.review.telling``). Until
session 32 they got the patch's lines whole: a real commit that rebuilt jsrsasign's bundles (lines of 16,000–48,000
characters, 7,000–20,000 tokens) cost ~28 s of CPU, difflib's token matching (quadratic in a line's tokens) in the
odd-edit sweep and in the factor-dropped pair reader; a synthetic bundle spent the whole 20 s budget before the rule
readers began, and a slipped ``eval`` beside it was said "not read line by line". This script builds such a change (a
bundle of ``--lines`` lines of ``--chars`` characters, ``--changed`` of them edited, and one slipped line in another
file), reviews it as the relay does, and prints ``build_review``'s CPU and what it said of each file.

    python bench/bench_long_lines.py                           # 12 lines of ~35,000 characters, 6 edited
    python bench/bench_long_lines.py --chars 50000 --changed 12
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_ROOT))
sys.path.insert(0, str(_ROOT / "tests"))

from git_repos import make_repo  # noqa: E402
from relay.core.contracts import WorkerReport  # noqa: E402
from relay.observe.changes import HUNK_CHARS, observe_changes  # noqa: E402
from relay.observe.snapshot import take_snapshot  # noqa: E402
from relay.review.packet import build_review  # noqa: E402


def bundle_line(n: int, chars: int, salt: str = "") -> str:
    """One minified line of about ``chars`` characters: functions that multiply by a rate (the factor reader's screen),
    ``salt`` written into every 97th of them (an edit spread along the line, as a rebuilt bundle's)."""
    out, j = [], 0
    while sum(map(len, out)) < chars:
        out.append(f"var r{n}_{j}=function(q){{return q*rate{j}+limit(q{salt if j % 97 == n % 97 else ''})}};")
        j += 1
    return "".join(out)


def bundle_change(lines: int, chars: int, changed: int) -> tuple[dict[str, str], dict[str, str]]:
    """(before, after): the bundle with ``changed`` of its lines edited (every other one), and an ``eval`` slipped into
    a small file beside it."""
    old = [bundle_line(i, chars) for i in range(lines)]
    new = [bundle_line(i, chars, "+1") if i % 2 and i // 2 < changed else line for i, line in enumerate(old)]
    before = {"lib/bundle-min.js": "\n".join(old) + "\n", "lib/app.js": "x = 1\n"}
    after = {"lib/bundle-min.js": "\n".join(new) + "\n", "lib/app.js": "x = 1\neval(req.query.q)\n"}
    return before, after


def review_cpu(root: Path, before: dict[str, str], after: dict[str, str]) -> tuple[float, dict[str, tuple[str, str]]]:
    """(build_review's CPU seconds on this thread, each file's risk and first reason)."""
    repo = make_repo(root / "project", before)
    snap = take_snapshot(repo)
    for path, text in after.items():
        (repo / path).write_text(text, encoding="utf-8")
    changeset = observe_changes(snap, repo)
    began = time.thread_time()
    _, _, assessed = build_review(changeset, report=WorkerReport(summary="s", files_changed=list(after)), workspace=repo, task="rebuild")
    return time.thread_time() - began, {c.path: (c.risk, c.reasons[0] if c.reasons else "") for c in assessed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=12, help="lines of the bundle")
    parser.add_argument("--chars", type=int, default=35_000, help="characters a line")
    parser.add_argument("--changed", type=int, default=6, help="lines edited")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="relay-long-lines-") as tmp:
        # The first review of a process compiles the readers' patterns: done before the one measured.
        review_cpu(Path(tmp) / "warm", {"w.py": "y = 1\n"}, {"w.py": "y = 2\n"})
        before, after = bundle_change(args.lines, args.chars, args.changed)
        spent, found = review_cpu(Path(tmp) / "bundle", before, after)
    print(f"bundle of {args.lines} lines of ~{args.chars:,} characters, {args.changed} edited (observation keeps {HUNK_CHARS:,} a line)")
    print(f"build_review CPU: {spent * 1000:,.0f} ms")
    for path, (risk, reason) in sorted(found.items()):
        print(f"  {path}: {risk} — {reason[:110]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
