"""Benchmark: what enforced policy (issue 10) costs after a run — the check, and a revert in place.

A real git repository with COMMITTED tracked files; a simulated worker then edits EDITED of them,
adds ADDED new files and deletes a few. The relay's own snapshot / observation run around it, then
``enforce_policy`` with ``max_files`` below the change (so every changed file is restored), and the
tree is compared with the pre-run state. Prints figures; asserts only correctness.

    python bench/bench_policy.py [COMMITTED] [EDITED] [ADDED]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from conftest import git, make_repo  # noqa: E402
from relay.agy.classify import Verdict  # noqa: E402
from relay.call.enforce import check_policy, enforce_policy  # noqa: E402
from relay.call.policy import RunPlan  # noqa: E402
from relay.core.contracts import Status  # noqa: E402
from relay.observe.changes import observe_changes  # noqa: E402
from relay.observe.snapshot import take_snapshot  # noqa: E402


def _plan(ws: Path, **limits) -> RunPlan:
    return RunPlan(workspace=str(ws), profile=None, execution_mode=None, sandbox=False, skip_permissions=False,
                   constraints=[], model=None, effort=None, agent=None, timeout_seconds=60, verify=[],
                   verify_timeout_seconds=60, env={}, notes=[], **limits)


def main(committed: int = 5000, edited: int = 300, added: int = 300) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files = {f"pkg{i % 50}/mod{i}.py": f"value = {i}\n" * 5 for i in range(committed)}
        ws = make_repo(Path(tmp) / "repo", files)
        (ws / "pkg0/mod0.py").write_text("user edit\n", encoding="utf-8")  # a pre-existing edit the revert must keep
        status_before = git(ws, "status", "--porcelain")
        before = take_snapshot(ws)
        for i in range(1, edited + 1):
            (ws / f"pkg{i % 50}/mod{i}.py").write_text("changed\n", encoding="utf-8")
        for i in range(added):
            (ws / f"new/f{i}.txt").parent.mkdir(exist_ok=True)
            (ws / f"new/f{i}.txt").write_text(f"{i}\n", encoding="utf-8")
        (ws / "pkg0/mod0.py").write_text("user edit\nworker line\n", encoding="utf-8")
        t0 = time.perf_counter()
        changes = observe_changes(before, ws).files
        observed = time.perf_counter() - t0
        # Patterns that all match nothing or everything allowed, so the check walks every rule for every file.
        plan = _plan(ws, max_files=50, on_violation="revert", paths=["pkg*/", "new/", "docs/**/*.md"],
                     protected=["*.lock", ".github/**", "**/migrations/", "src/secret.py"])
        t0 = time.perf_counter()
        check_policy(plan, changes)
        checked = time.perf_counter() - t0
        t0 = time.perf_counter()
        verdict, violation = enforce_policy(plan, changes, before, Verdict(status=Status.SUCCESS, message="", hint=""))
        reverted = time.perf_counter() - t0
        assert verdict.status is Status.POLICY_VIOLATION and not violation.not_restored
        assert git(ws, "status", "--porcelain") == status_before, "the tree is not back to its pre-run state"
        assert (ws / "pkg0/mod0.py").read_text(encoding="utf-8") == "user edit\n"
        gs = time.perf_counter()
        subprocess.run(["git", "status", "--porcelain"], cwd=ws, capture_output=True, check=True)
        gs = time.perf_counter() - gs
        print(f"repo: {committed:,} committed files; change: {len(changes):,} files "
              f"({edited} edited, {added} added, 1 on top of a user edit); tmp dir {tmp}")
        restored = verdict.message.split("Restored ", 1)[1].split(" ", 1)[0]  # the record's list is capped
        print(f"observe {observed * 1000:.0f} ms; policy check (3 paths, 4 protected patterns) {checked * 1000:.1f} ms; "
              f"revert of {restored} files {reverted * 1000:.0f} ms; git status {gs * 1000:.0f} ms")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
