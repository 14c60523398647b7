"""Benchmark: what the look inside the ignored folders costs after a run (relay.observe.made_git_dirs.deep_git_dirs).

Not a test. Run from the repository root:

    python bench/bench_deep_git_walk.py                          # 10k, 50k, 200k, 500k folders
    python bench/bench_deep_git_walk.py --folders 10000,50000 --files 4 --rounds 5

For each size it builds a repository whose ignored ``node_modules/`` holds that many folders (packages of nested
folders, ``--files`` files each, a ``package.json`` and a ``bin`` file here and there), takes the snapshot the relay
takes before a run, makes the run's edit (one tracked file and one new ``.git`` deep in ``node_modules``), and prints:

- ``listing cpu``: the CPU ms of the listing of the ignored folders taken beside the run (relay.observe.ignored_walk;
  a thread that runs while the worker does: it costs the run no wall time unless the run ends first), "-" on a
  checkout without it;
- ``after cpu`` and ``after wall``: ``deep_git_dirs`` after the run (what every run's look waits for), the median of
  ``--rounds``; CPU ms (user + system of this process) is the figure to read on a loaded machine;
- whether the deep ``.git`` was found, or ``NOT OBSERVED`` when the look failed past its bound.
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

from relay.observe import made_git_dirs  # noqa: E402
from relay.observe.snapshot import TooManyFiles, take_snapshot  # noqa: E402

try:
    from relay.observe import ignored_walk  # noqa: E402
except ImportError:  # a checkout before the listing
    ignored_walk = None  # type: ignore[assignment]

__all__ = ["main"]


def _git(root: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _build(root: Path, folders: int, files: int) -> None:
    """A repository with ``folders`` folders under its ignored node_modules: packages 4 levels deep, 8 wide."""
    root.mkdir(parents=True)
    (root / ".gitignore").write_text("node_modules/\n", encoding="utf-8")
    (root / "a.txt").write_text("a\n", encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "init")
    made, pkg = 0, 0
    nm = root / "node_modules"
    nm.mkdir()
    while made < folders:
        top = nm / f"pkg{pkg}"
        queue = [top]
        os.mkdir(top)
        made += 1
        (top / "package.json").write_text('{"name": "p", "scripts": {"test": "x"}}\n', encoding="utf-8")
        while queue and made < folders:
            folder = queue.pop(0)
            for i in range(files):
                with open(folder / f"f{i}.js", "w", encoding="utf-8") as fh:
                    fh.write("x\n")
            if folder.relative_to(top).parts.__len__() < 4:
                for j in range(8):
                    if made >= folders:
                        break
                    child = folder / f"d{j}"
                    os.mkdir(child)
                    made += 1
                    queue.append(child)
        pkg += 1
    (nm / ".bin").mkdir()
    (nm / ".bin/tool").write_text("#!/bin/sh\n", encoding="utf-8")
    time.sleep(0.2)  # all of it older than the run (the relay's clock slack is 0.1 s)


def _one(root: Path, rounds: int) -> tuple[str, float, float, str]:
    before = take_snapshot(root)
    listing = "-"
    if ignored_walk is not None:
        done = ignored_walk.wait_listing(before, 3600.0)
        listing = f"{done.ms:,.0f}" if done else "cut"
    (root / "a.txt").write_text("b\n", encoding="utf-8")
    deep = root / "node_modules/pkg0/d0/d1/.git"
    deep.mkdir(parents=True, exist_ok=True)
    (deep / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    times, cpus, said = [], [], ""
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            found = made_git_dirs.deep_git_dirs(before)
            git = found.git if hasattr(found, "git") else found
            said = "found" if any(f.endswith("pkg0/d0/d1") for f in git) else "MISSED"
        except TooManyFiles:
            said = "NOT OBSERVED"
        times.append((time.perf_counter() - t0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
    shutil.rmtree(deep)
    return listing, statistics.median(cpus), statistics.median(times), said


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folders", default="10000,50000,200000,500000")
    ap.add_argument("--files", type=int, default=2, help="files per folder")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tmp", default=None, help="where to build the repositories (default: the system's temp)")
    args = ap.parse_args(argv)
    print(f"{'folders':>9} {'listing cpu':>12} {'after cpu':>10} {'after wall':>11}  deep .git")
    for n in (int(x) for x in args.folders.split(",")):
        with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
            root = Path(tmp) / "repo"
            _build(root, n, args.files)
            listing, cpu, wall, said = _one(root, args.rounds)
            print(f"{n:>9,} {listing:>12} {cpu:>10,.0f} {wall:>11,.0f}  {said}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
