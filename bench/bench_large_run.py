"""Benchmark: one run's observation in a large repository with a very large untracked file.

Not a test. Build the repository once, then time one run per call (the relay under test is
whatever ``relay`` the interpreter imports: put another checkout first on PYTHONPATH to time it):

    python bench/bench_large_run.py --make /tmp/large          # 10,000 files + a 100 MB untracked file
    python bench/bench_large_run.py /tmp/large                 # one run: prints its figures as JSON
    python bench/bench_large_run.py /tmp/large --rounds 5 --vs /path/to/other/checkout

One run: tracked files go back to HEAD (``git checkout``) and the user's five edits are made, the snapshot is taken, the
worker edits 1,000 tracked files (one line changed, one appended), then observation and the
run's patch (when the relay under test keeps one). ``observe ms`` = snapshot + observation +
patch; the reset and the edits are outside it. Five files are dirty before the run (the user's
edits) and the 100 MB file is untracked: neither may be blamed on the worker. ``--vs`` runs this
checkout and the other in turn (A B A B ...) in fresh processes and prints the medians and the
ratio A/B pair by pair.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]

_FILES = 10_000
_EDITS = 1_000
_BIG_MB = 100
_LINES = 24


def _git(root: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")
    subprocess.run(["git", "-c", "gc.auto=0", "-c", "maintenance.auto=false", *args], cwd=root, env=env, check=True,
                   capture_output=True)


def _rel(i: int) -> str:
    return f"pkg{i // 100:04d}/module_{i:06d}.py"


def make(root: Path, files: int, big_mb: int) -> None:
    root.mkdir(parents=True)
    _git(root, "init", "-q")
    for i in range(files):
        path = root / _rel(i)
        path.parent.mkdir(exist_ok=True)
        path.write_text("".join(f"value_{i}_{n} = {n}\n" for n in range(_LINES)), encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "base")
    with open(root / "dataset.bin", "wb") as fh:  # untracked, never ignored
        for _ in range(big_mb):
            fh.write(os.urandom(1024 * 1024))
    _user_edits(root)


def _user_edits(root: Path) -> None:
    for i in range(5):  # the user's own edits, before every run
        with open(root / _rel(i * 7 + 3), "a", encoding="utf-8") as fh:
            fh.write("user_edit = True\n")


def one_run(root: Path, edits: int) -> dict[str, float | int | str]:
    # An editable install answers for any relay.* the checkout under test lacks: only PYTHONPATH's may answer.
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    try:
        from relay.observe.changes import observe_changes
        from relay.observe.snapshot import take_snapshot
    except ImportError:  # the layout before observe/ was a package (95352cd)
        from relay.changes import observe_changes  # type: ignore[no-redef]
        from relay.snapshot import take_snapshot  # type: ignore[no-redef]
    try:
        from relay.observe.run_patch import write_run_patch
    except ImportError:
        write_run_patch = None  # type: ignore[assignment]
    step = max(1, _FILES // edits)
    worker = [_rel(i * step + 1) for i in range(edits)]
    _git(root, "checkout", "-q", "--", ".")  # every tracked file back to HEAD (a run of another size left its own)
    _user_edits(root)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        snap = take_snapshot(root)
        t1 = time.perf_counter()
        for rel in worker:
            path = root / rel
            text = path.read_text(encoding="utf-8").replace(" = 3\n", " = 33\n", 1)
            path.write_text(text + "worker_line = 1\n", encoding="utf-8")
        t2 = time.perf_counter()
        changes = observe_changes(snap, root)
        t3 = time.perf_counter()
        patch_bytes = 0
        if write_run_patch is not None:
            written = write_run_patch(snap, changes, root, Path(tmp) / "run.patch", run_id="r20260101T000000-00000000")
            patch_bytes = written.bytes if written else 0
        t4 = time.perf_counter()
    blamed = sorted({c.path for c in changes.files} - set(worker))
    import relay

    return {"relay": os.path.dirname(os.path.dirname(relay.__file__)), "snapshot_ms": round((t1 - t0) * 1000), "observe_ms": round((t3 - t2) * 1000),
            "patch_ms": round((t4 - t3) * 1000), "total_ms": round((t1 - t0 + t4 - t2) * 1000),
            "files": len(changes.files), "blamed": ",".join(blamed)[:200], "patch_bytes": patch_bytes}


def _child(root: Path, edits: int, checkout: str) -> dict:
    env = {**os.environ, "PYTHONPATH": checkout}
    out = subprocess.run([sys.executable, __file__, str(root), "--edits", str(edits)], env=env, check=True,
                         capture_output=True, text=True, encoding="utf-8").stdout
    return json.loads(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=Path, nargs="?")
    parser.add_argument("--make", type=Path, help="build the repository here and exit")
    parser.add_argument("--files", type=int, default=_FILES)
    parser.add_argument("--big-mb", type=int, default=_BIG_MB)
    parser.add_argument("--edits", type=int, default=_EDITS)
    parser.add_argument("--vs", help="another checkout's root, timed in turn with this one")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if args.make:
        make(args.make, args.files, args.big_mb)
        return 0
    if args.root is None:
        parser.error("give the repository (built with --make)")
    if not args.vs:
        print(json.dumps(one_run(args.root, args.edits)))
        return 0
    here = str(Path(__file__).resolve().parents[1])
    a_runs, b_runs = [], []
    _child(args.root, args.edits, here)  # warm-up: the page cache, both sides
    _child(args.root, args.edits, args.vs)
    for _ in range(args.rounds):
        a_runs.append(_child(args.root, args.edits, here))
        b_runs.append(_child(args.root, args.edits, args.vs))
    for key in ("snapshot_ms", "observe_ms", "patch_ms", "total_ms"):
        ratios = [a[key] / b[key] for a, b in zip(a_runs, b_runs) if b[key]]
        ratio = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "-"
        print(f"{key:12} A {statistics.median(r[key] for r in a_runs):>7.0f}  B {statistics.median(r[key] for r in b_runs):>7.0f}"
              f"  A/B {ratio}")
    print(f"A = {a_runs[-1]['relay']}, B = {b_runs[-1]['relay']}")
    print(f"A files {a_runs[-1]['files']} blamed [{a_runs[-1]['blamed']}] patch {a_runs[-1]['patch_bytes']:,} B")
    print(f"B files {b_runs[-1]['files']} blamed [{b_runs[-1]['blamed']}] patch {b_runs[-1]['patch_bytes']:,} B")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
