"""Benchmark: what isolation costs a run on a big repository (issue 10, "Done when").

Not a test. Run from the repository root:

    python bench/bench_worktree.py                    # 20,000 files, in a temp dir (says which filesystem)
    python bench/bench_worktree.py --files 20000 --runs 7 --dir /some/disk/folder

It builds a repository of ``--files`` committed files (one ``git fast-import`` and one checkout), then
prints, each the median of several samples:

* ``git worktree add`` alone (plain git, a new worktree each time): the checkout every run would pay
  without a pool;
* a first run's isolation overhead: the relay's lease (which creates the pool's worktree), recording a
  three-file change on the run's branch, and applying it to the user's tree;
* a later run's: the lease reusing the pooled worktree (reset to the new base and cleaned), recording, applying;
* ``git status`` of the user's repository (the yardstick of the second goal).

Goals: first run <= 1.1 x worktree add; later runs <= max(150 ms, 3 x git status).
The worker's own edits are not timed; neither is undoing the apply between samples.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from relay.isolate.merge import three_way_apply  # noqa: E402
from relay.isolate.pool import lease_worktree, record_change  # noqa: E402
from relay.observe.git import git_env  # noqa: E402
from relay.runs.store import new_run_id  # noqa: E402

__all__ = ["main"]


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=git_env(), encoding="utf-8").stdout


def _build(root: Path, files: int) -> None:
    root.mkdir(parents=True)
    _git(root, "-c", "init.defaultBranch=main", "init", "-q")
    stream = bytearray()
    paths = [f"pkg{i % 200:03d}/mod_{i:05d}.py" for i in range(files)]
    for mark, _ in enumerate(paths, 1):
        data = b"".join(b"value_%d = %d\n" % (mark, n) for n in range(12))
        stream += b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data)
    stream += b"commit refs/heads/main\ncommitter Bench <bench@example.com> 0 +0000\ndata 7\ninitial\n"
    for mark, rel in enumerate(paths, 1):
        stream += b"M 100644 :%d %s\n" % (mark, rel.encode())
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, env=git_env(), input=bytes(stream), check=True)
    _git(root, "checkout", "-q", "-f", "main")


def _work(workdir: Path, n: int) -> None:
    """The stand-in worker: edit two files, add one."""
    for rel in ("pkg000/mod_00000.py", "pkg001/mod_00001.py"):
        target = workdir / rel
        target.write_text(target.read_text(encoding="utf-8") + f"edited_{n} = True\n", encoding="utf-8")
    (workdir / f"new_{n}.py").write_text("print('new')\n", encoding="utf-8")


def _undo(repo: Path) -> None:
    _git(repo, "checkout", "-q", "-f", "HEAD")
    _git(repo, "clean", "-q", "-fd")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def _filesystem(path: Path) -> str:
    out = subprocess.run(["df", "-T", str(path)], capture_output=True, text=True, encoding="utf-8").stdout.splitlines()
    return " ".join(out[-1].split()[:2]) if len(out) > 1 else "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5, help="samples per figure (median shown)")
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="bench-worktree-", dir=args.dir))
    try:
        repo = base / "repo"
        t0 = time.perf_counter()
        _build(repo, args.files)
        print(f"repository: {args.files} files in {repo} ({_filesystem(base)}), built in {time.perf_counter() - t0:.1f}s")

        status = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            _git(repo, "status", "--porcelain")
            status.append(time.perf_counter() - t0)

        plain: list[float] = []

        def plain_add(i: int) -> None:
            # Timed beside each first run (same disk state), each after a sync: on a plain disk the writeback of
            # the previous 20,000-file checkout otherwise lands on whichever checkout comes next.
            path = base / f"plain-{i}"
            os.sync()
            t0 = time.perf_counter()
            _git(repo, "worktree", "add", "-q", "--detach", str(path), "HEAD")
            plain.append(time.perf_counter() - t0)
            _git(repo, "worktree", "remove", "--force", str(path))

        first, later = [], []
        parts_first: list[tuple[float, float, float]] = []
        for i in range(args.runs):
            data = base / f"data-{i}"  # a new data dir: an empty pool, so this lease creates the worktree
            samples = [(first, True)] + [(later, False)] * 2
            plain_add(i)
            for n, (bucket, is_first) in enumerate(samples):
                os.sync()
                t0 = time.perf_counter()
                lease = lease_worktree(data, repo, new_run_id())
                t1 = time.perf_counter()
                assert lease.created is is_first
                _work(lease.workdir, n)
                t2 = time.perf_counter()
                tip = record_change(lease, "bench")
                lease.release()
                t3 = time.perf_counter()
                applied = three_way_apply(repo, lease.base, tip)
                t4 = time.perf_counter()
                assert len(applied.written) == 3, applied
                bucket.append((t1 - t0) + (t4 - t2))
                if is_first:
                    parts_first.append((t1 - t0, t3 - t2, t4 - t3))
                _undo(repo)
            shutil.rmtree(data)
            _git(repo, "worktree", "prune")

        add_ms = statistics.median(plain)
        first_ms = statistics.median(first)
        later_ms = statistics.median(later)
        status_ms = statistics.median(status)
        lease_s, record_s, apply_s = (statistics.median(p[k] for p in parts_first) for k in range(3))
        print(f"git status                      {_ms(status_ms)}")
        print(f"git worktree add alone          {_ms(add_ms)}")
        print(f"first run (create + record + apply) {_ms(first_ms)}   "
              f"[lease {_ms(lease_s).strip()}, record {_ms(record_s).strip()}, apply {_ms(apply_s).strip()}]")
        print(f"later runs (reuse + record + apply) {_ms(later_ms)}")
        goal_first = 1.1 * add_ms
        goal_later = max(0.150, 3 * status_ms)
        print(f"goal: first <= 1.1 x add = {_ms(goal_first).strip()}: {'met' if first_ms <= goal_first else 'NOT met'} "
              f"({first_ms / add_ms:.2f} x)")
        print(f"goal: later <= max(150 ms, 3 x status) = {_ms(goal_later).strip()}: "
              f"{'met' if later_ms <= goal_later else 'NOT met'}")
        return 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
