"""Benchmark: what observation costs, and how much smaller the packet is than the diff.

Not a test. Run from the repository root:

    python bench/bench_observation.py                       # 10,000- and 100,000-file repos
    python bench/bench_observation.py --repo-files 10000 --sizes 1,10,100,1000,5000
    python bench/bench_observation.py --repo-files 10000 --sizes 1,10,100,1000 --vs /path/to/other/checkout --rounds 7

For each generated repository and each change-set size it prints: the packet's bytes and
approximate tokens (bytes / 4), the full ``git diff`` size, their ratio, and the relay's
observation time (take_snapshot + observe_changes, shown separately) against plain
``git status --porcelain`` + ``git diff --numstat`` on the same repository state, and what
writing the run's patch adds (``patch ms``: build_run_patch + the atomic write, issue 10).
Each "worker" edit changes one line and appends one; five files are dirty before every
run (the user's own edits) and must not be blamed.

``--vs`` times this checkout (A) and another (B) side by side on one generated repository: each
measurement is a fresh process importing its checkout's ``relay`` (PYTHONPATH), A and B in turn for
every size and round (the order flipped each round, so a loaded machine weighs on both alike); it
prints the medians of snapshot + observation + patch and the median of the per-round ratios A/B.
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

if "--child" in sys.argv:
    # A measurement of the checkout on PYTHONPATH: an editable install must not answer for any relay.* it lacks.
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
else:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from relay.observe.changes import observe_changes  # noqa: E402
from relay.observe.run_patch import PATCH_MAX_BYTES, write_run_patch  # noqa: E402
from relay.observe.snapshot import take_snapshot  # noqa: E402

__all__ = ["main"]

_LINES_PER_FILE = 24
_FILES_PER_DIR = 100


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")
    return env


def _git(root: Path, *args: str) -> bytes:
    # No background gc: it would compete with the measurements (and race the clean-up).
    argv = ["git", "-c", "gc.auto=0", "-c", "maintenance.auto=false", *args]
    return subprocess.run(argv, cwd=root, env=_env(), check=True, capture_output=True).stdout


def _rel(i: int) -> str:
    return f"pkg{i // _FILES_PER_DIR:04d}/module_{i:06d}.py"


def _body(i: int) -> str:
    return "".join(f"def f_{i}_{n}(x):\n    return x + {n}\n\n" for n in range(_LINES_PER_FILE // 3))


def _generate(root: Path, files: int) -> float:
    started = time.perf_counter()
    root.mkdir(parents=True)
    _git(root, "-c", "init.defaultBranch=main", "init", "-q")
    _git(root, "config", "user.name", "Bench")
    _git(root, "config", "user.email", "bench@example.com")
    for i in range(files):
        path = root / _rel(i)
        if i % _FILES_PER_DIR == 0:
            path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_body(i), encoding="utf-8")
    (root / ".gitignore").write_text("__pycache__/\n*.pyc\n", encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "generated")
    _git(root, "status", "--porcelain")  # refresh the index's stat data once, as any user's git would
    return time.perf_counter() - started


def _reset(root: Path) -> None:
    _git(root, "reset", "-q", "--hard")
    _git(root, "clean", "-q", "-fd")
    _git(root, "status", "--porcelain")


def _edit(root: Path, i: int, tag: str) -> None:
    path = root / _rel(i)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("return x + 1\n", f"return x + 1  # {tag}\n", 1) + f"\n# {tag} {i}\n", encoding="utf-8")


def _git_baseline(root: Path) -> float:
    """Plain ``git status`` + ``git diff --numstat``, in ms. Optional locks are off, as for the
    relay, so neither side leaves a refreshed index behind to speed up the other."""
    env = {**_env(), "GIT_OPTIONAL_LOCKS": "0"}
    started = time.perf_counter()
    subprocess.run(["git", "status", "--porcelain"], cwd=root, env=env, check=True, capture_output=True)
    subprocess.run(["git", "diff", "--numstat"], cwd=root, env=env, check=True, capture_output=True)
    return (time.perf_counter() - started) * 1000


def _timed(fn):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - started) * 1000


def _measure(root: Path, repo_files: int, changed: int, *, review: bool = True) -> dict[str, float]:
    _reset(root)
    step = max(repo_files // max(changed, 1), 1)
    targets = [k * step for k in range(changed)]
    chosen = set(targets)
    pre_dirty = [i for i in range(repo_files - 1, -1, -1) if i not in chosen][:5]  # the user's own edits
    for i in pre_dirty:
        _edit(root, i, "user")
    snap, snap_ms = _timed(lambda: take_snapshot(root))
    for i in targets:
        _edit(root, i, "worker")
    git_before_ms = _git_baseline(root)
    changeset, observe_ms = _timed(lambda: observe_changes(snap, root))
    patch_file = root.parent / "bench.patch"
    written, patch_ms = _timed(lambda: write_run_patch(snap, changeset, root, patch_file, run_id="r20250101T000000-00000000",
                                                       max_bytes=PATCH_MAX_BYTES))
    assert written is not None and written.files == changed, written
    patch_file.unlink()
    git_ms = min(git_before_ms, _git_baseline(root))
    blamed = {c.path for c in changeset.files} & {_rel(i) for i in pre_dirty}
    assert not blamed, f"pre-existing edits blamed on the worker: {sorted(blamed)[:3]}"
    assert len(changeset.files) == changed, (len(changeset.files), changed)
    if not review:
        return {"changed": changed, "snap_ms": snap_ms, "observe_ms": observe_ms, "patch_ms": patch_ms,
                "total_ms": snap_ms + observe_ms + patch_ms}
    from relay.core.contracts import Packet, Status, Tests, WorkerReport
    from relay.review.packet import build_review, fit_packet

    report = WorkerReport(summary="Applied the requested edit across the package.", files_changed=[_rel(i) for i in targets], tests_passed=12, tests_run=True)
    (changes, flags, _), review_ms = _timed(lambda: build_review(changeset, report=report))
    packet = fit_packet(Packet(ok=True, run_id="run-20250101-000000-abcdef", status=Status.SUCCESS, summary=report.summary, changes=changes, flags=flags, tests=Tests(passed=12, source="claimed")))
    packet_bytes = len(msgspec.json.encode(packet))

    diff_bytes = len(_git(root, "diff", "--no-color", "--no-ext-diff"))
    return {
        "changed": changed,
        "packet": packet_bytes,
        "tokens": packet_bytes / 4,
        "diff": diff_bytes,
        "ratio": diff_bytes / packet_bytes,
        "snap_ms": snap_ms,
        "observe_ms": observe_ms,
        "relay_ms": snap_ms + observe_ms,
        "review_ms": review_ms,
        "git_ms": git_ms,
        "patch_ms": patch_ms,
        "patch_bytes": written.bytes,
    }


def _row(r: dict[str, float]) -> str:
    return (
        f"{int(r['changed']):>7,} {int(r['packet']):>8,} {r['tokens']:>7,.0f} {int(r['diff']):>12,} {r['ratio']:>8,.1f}x"
        f" {r['snap_ms']:>8,.0f} {r['observe_ms']:>9,.0f} {r['relay_ms']:>8,.0f} {r['git_ms']:>8,.0f} {r['relay_ms'] / max(r['git_ms'], 0.001):>6,.1f}x {r['review_ms']:>7,.0f}"
        f" {r['patch_ms']:>8,.1f} {100 * r['patch_ms'] / max(r['relay_ms'], 0.001):>6,.1f}% {int(r['patch_bytes']):>11,}"
    )


def _child(root: Path, repo_files: int, changed: int, checkout: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": checkout}
    out = subprocess.run([sys.executable, __file__, "--child", str(root), "--repo-files", str(repo_files), "--sizes",
                          str(changed)], env=env, check=True, capture_output=True, text=True, encoding="utf-8").stdout
    return msgspec.json.decode(out.strip().splitlines()[-1])


def side_by_side(base: Path, repo_files: int, sizes: list[int], other: str, rounds: int) -> None:
    """This checkout (A) and ``other`` (B) in turn, fresh processes, medians and the median ratio A/B."""
    root = base / f"repo-{repo_files}"
    if root.exists():
        shutil.rmtree(root)
    _generate(root, repo_files)
    here = str(Path(__file__).resolve().parents[1])
    runs: dict[tuple[int, str], list[dict[str, float]]] = {}
    _child(root, repo_files, sizes[0], here)  # warm-up: the page cache, both sides
    _child(root, repo_files, sizes[0], other)
    for n in range(rounds):
        for changed in sizes:
            for side in (("A", here), ("B", other))[:: 1 if n % 2 == 0 else -1]:
                runs.setdefault((changed, side[0]), []).append(_child(root, repo_files, changed, side[1]))
    print(f"repository: {repo_files:,} files; {rounds} rounds; A = {here}, B = {other}; ms are medians "
          "(snapshot + observe + patch), A/B the median of the per-round ratios (min-max)")
    print(f"{'changed':>7} {'A snap':>7} {'A obs':>7} {'A patch':>7} {'A total':>8} {'B snap':>7} {'B obs':>7} {'B patch':>7}"
          f" {'B total':>8} {'A/B':>5} (range)")
    for changed in sizes:
        a, b = runs[(changed, "A")], runs[(changed, "B")]
        med = {(side, key): statistics.median(r[key] for r in rs) for side, rs in (("A", a), ("B", b))
               for key in ("snap_ms", "observe_ms", "patch_ms", "total_ms")}
        ratios = sorted(x["total_ms"] / y["total_ms"] for x, y in zip(a, b))
        print(f"{changed:>7,} " + " ".join(f"{med[(s, k)]:>{8 if k == 'total_ms' else 7}.0f}" for s in "AB"
                                            for k in ("snap_ms", "observe_ms", "patch_ms", "total_ms"))
              + f" {statistics.median(ratios):>5.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1,10,100,1000,5000", help="changed-file counts, comma-separated")
    parser.add_argument("--repo-files", default="10000,100000", help="generated repository sizes, comma-separated")
    parser.add_argument("--dir", default=None, help="where to generate (default: a temp dir, removed afterwards)")
    parser.add_argument("--vs", help="another checkout's root, timed side by side with this one")
    parser.add_argument("--rounds", type=int, default=7, help="with --vs: measurements per size and side")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    repo_sizes = [int(s) for s in args.repo_files.split(",") if s.strip()]
    if args.child:
        print(msgspec.json.encode(_measure(args.child, repo_sizes[0], sizes[0], review=False)).decode())
        return 0
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="relay-bench-"))
    if args.vs:
        try:
            for repo_files in repo_sizes:
                side_by_side(base, repo_files, sizes, args.vs, args.rounds)
        finally:
            if not args.dir:
                shutil.rmtree(base, ignore_errors=True)
        return 0
    from relay.review.packet import PACKET_BUDGET_BYTES
    print(f"packet budget {PACKET_BUDGET_BYTES:,} bytes; {os.cpu_count()} CPUs; {subprocess.run(['git', '--version'], capture_output=True, text=True, encoding='utf-8').stdout.strip()}")
    try:
        for repo_files in repo_sizes:
            root = base / f"repo-{repo_files}"
            if root.exists():
                shutil.rmtree(root)
            gen_s = _generate(root, repo_files)
            print(f"\nrepository: {repo_files:,} files (generated in {gen_s:.1f}s)")
            print(f"{'changed':>7} {'packet B':>8} {'~tokens':>7} {'git diff B':>12} {'ratio':>9} {'snap ms':>8} {'observe':>9} {'relay ms':>8} {'git ms':>8} {'rel/git':>7} {'review':>7} {'patch ms':>8} {'+patch':>7} {'patch B':>11}")
            for changed in sizes:
                if changed > repo_files - 5:
                    continue
                print(_row(_measure(root, repo_files, changed)), flush=True)
            shutil.rmtree(root, ignore_errors=True)
        print("\nrelay ms = take_snapshot + observe_changes (two status passes + diffs of changed files);")
        print("git ms   = one `git status --porcelain` + one `git diff --numstat` on the same state (best of two:")
        print("           once before the relay's observe_changes, once after).")
        print("patch ms = write_run_patch after observation (HEAD entries by ls-tree, or by their folders' trees past 32 paths;")
        print("           blobs by cat-file; the diff in Python; the atomic write); +patch = that as a share of relay ms.")
    finally:
        if not args.dir:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
