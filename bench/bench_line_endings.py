"""Benchmark: what giving back a user's exact line endings costs (issue 37, W11).

A real repository of FILES tracked text files, checked out twice: LF with no conversion (git on Linux), and CRLF
under ``core.autocrlf=true`` (git for Windows' default). Before a run the user has DIRTY files edited and as
many untracked; a simulated worker rewrites RESTORED tracked files, and a policy revert (``max_files`` below the
change) puts every changed file back. Per checkout it prints the snapshot (where the CRLF one also hashes the dirty
and untracked files' bytes on disk), the pre-run pass (``pre_run_files``: one lstat per file, taken for converting
repositories as for revert runs), and the revert (``restore_paths``: git's checkout of the clean files, by size).
Asserts only that every byte came back.

    python bench/bench_line_endings.py [FILES] [DIRTY] [RESTORED]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers

from conftest import git, make_repo  # noqa: E402
from relay.observe.permissions import pre_run_files  # noqa: E402
from relay.observe.restore import restore_paths  # noqa: E402
from relay.observe.snapshot import take_snapshot  # noqa: E402

ROUNDS = 5


def _checkout(root: Path, files: dict[str, str], crlf: bool, dirty: int) -> Path:
    ws = make_repo(root, files)
    if crlf:
        with (ws / ".git" / "config").open("a", encoding="utf-8") as fh:
            fh.write("[core]\n\tautocrlf = true\n")
        for name in files:
            (ws / name).unlink()
        git(ws, "-c", "core.autocrlf=true", "checkout", "--", ".")
    end = b"\r\n" if crlf else b"\n"
    for i in range(dirty):
        (ws / f"pkg{i % 50}/mod{i}.py").write_bytes(b"user edit" + end + b"mixed\n")
        (ws / f"untracked/u{i}.txt").parent.mkdir(exist_ok=True)
        (ws / f"untracked/u{i}.txt").write_bytes(b"mine" + end)
    return ws


def _round(ws: Path, restored: int, dirty: int, trees: Path) -> tuple[float, float, float]:
    on_disk = {p: (ws / p).read_bytes() for p in (f"pkg{i % 50}/mod{i}.py" for i in range(restored + dirty))}
    t0 = time.perf_counter()
    snap = take_snapshot(ws, trees)
    t1 = time.perf_counter()
    pre = pre_run_files(ws, snap)
    t2 = time.perf_counter()
    for path in on_disk:
        (ws / path).write_bytes(b"the worker's\n")
    t3 = time.perf_counter()
    done, refused = restore_paths(snap, list(on_disk), pre)
    t4 = time.perf_counter()
    assert not refused and all((ws / p).read_bytes() == data for p, data in on_disk.items()), refused
    return (t1 - t0) * 1000, (t2 - t1) * 1000, (t4 - t3) * 1000


def main(files: int = 10_000, dirty: int = 50, restored: int = 200) -> None:
    content = {f"pkg{i % 50}/mod{i}.py": "line\n" * 20 for i in range(files)}
    print(f"{files:,} tracked files, {dirty} dirty + {dirty} untracked before the run, {restored + dirty} reverted; "
          f"median of {ROUNDS} rounds, ms")
    print(f"{'checkout':<26}{'snapshot':>10}{'pre-run pass':>14}{'revert':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for crlf in (False, True):
            ws = _checkout(Path(tmp) / ("crlf" if crlf else "lf"), content, crlf, dirty)
            rows = [_round(ws, restored, dirty, Path(tmp) / f"trees-{crlf}-{n}") for n in range(ROUNDS)]
            snap, pre, revert = (statistics.median(col) for col in zip(*rows))
            name = "CRLF, core.autocrlf=true" if crlf else "LF, no conversion"
            print(f"{name:<26}{snap:>10.0f}{pre:>14.0f}{revert:>10.0f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
