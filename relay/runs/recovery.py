"""Recovery: runs left "running" by a relay process that no longer exists.

Their worker's process group may still be alive (the relay was SIGKILLed, the
machine slept). Such a run is finished INTERRUPTED, its group killed — but only
once identity checks prove the group is that run's worker (core/platform.py):
a pgid read from disk may belong to someone else by now, and on doubt nothing is
killed. A record whose relay pid was reused by an unrelated process counts as
dead, not as running forever.

Called at start-up and, with the queue lock held, before every worker starts
(coordinator.py): an orphan agy of a crashed relay must not run beside a new one.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from relay.core.contracts import Changes, FileChange, Packet, PolicyViolation, RunRecord, Status
from relay.core.errors import RelayError
from relay.observe.changes import observe_changes
from relay.observe.git import GitError, filter_overrides, run_git, z_records
from relay.observe.run_patch import write_run_patch
from relay.observe.snapshot import load_snapshot
from relay.core.policy_rules import check_policy
from relay.core.identity import Identity, owner_alive
from relay.core.platform import kill_worker_now, verify_worker
from relay.isolate.pool import salvage_worktree, worktree_is_own
from relay.isolate.trees import keep_or_drop_after_tree
from relay.runs.results import interrupted_error
from relay.runs.store import RunStore, now_iso

__all__ = ["recover_interrupted", "recover_run", "git_visible_changes"]

log = logging.getLogger("relay.runs.recovery")

SecretRule = Callable[[str], bool]

_MAX_LISTED = 500
_RECOVERY_NOTE = ("observed at recovery from git status: the pre-run snapshot died with the relay, so edits "
                  "that were already there before the run may be included")
_DIRTY_NOTE = "observed at recovery: this path was already changed before the run; the diff may include those edits"
_SINCE_NOTE = "observed at recovery: changed since the run started (git, against the run's starting HEAD)"
_TREES_NOTE = "observed at recovery against the run's before trees: the worker's change only"
_SECRET_NOTE = "secret or environment file"  # the live review's words for such a path
_HIJACKED = ("its worktree is no longer its own (the worker repointed its .git file, or it is gone): not observed, "
             "so the relay's git never read your repository through it")


def _paths(out: bytes, *, name_status: bool) -> list[tuple[str, str, str | None]]:
    """(status letters, path, old path) from ``git status --porcelain=v1 -z`` or ``git diff --name-status -z``."""
    found = []
    if name_status:  # a code, then its path (a copy or rename: the old path, then the new one)
        for code, paths in z_records(out, lambda rec: 2 if rec[:1] in (b"R", b"C") else 1):
            names = [os.fsdecode(p) for p in paths] + ["", ""]
            letter = code.decode("ascii", "replace")[:1]
            found.append((letter, names[1], names[0]) if letter in ("R", "C") else (letter, names[0], None))
        return found
    # "XY path", a copy or rename followed by its old path; shorter records are not entries
    for rec, old in z_records(out, lambda rec: 1 if len(rec) >= 4 and (b"R" in rec[:2] or b"C" in rec[:2]) else 0):
        if len(rec) >= 4:
            found.append((rec[:2].decode("ascii", "replace"), os.fsdecode(rec[3:]), os.fsdecode(old[0]) if old else None))
    return found


def _kind(code: str) -> str:
    if code == "??" or "A" in code:
        return "added"
    if "D" in code:
        return "deleted"
    return "renamed" if "R" in code else "modified"


def git_visible_changes(workspace: str | None, *, before_head: str | None = None,
                        before_dirty: list[str] | None = None) -> tuple[list[FileChange], str | None]:
    """What git shows as changed in ``workspace`` now, against the run's starting HEAD when it was recorded
    (bounded); (changes, why not) when it cannot tell. Paths already changed before the run are marked."""
    if not workspace:
        return [], "no workspace recorded"
    ws = Path(workspace)
    try:
        prefix = run_git(ws, "rev-parse", ["--show-prefix"], timeout=10).decode("utf-8", "surrogateescape").strip()
        # The repository's own git dir and config (no snapshot to give a private one): the filters it defines now,
        # the worker's included, are read right before and switched off (status hashes a file through them).
        filters = filter_overrides(ws)
        entries = _paths(run_git(ws, "status", ["--porcelain=v1", "-z", "--untracked-files=all"], config=filters,
                                 timeout=20), name_status=False)
        if before_head:
            # Also what the worker committed: the working tree against the HEAD the run started from.
            entries += _paths(run_git(ws, "diff", ["--name-status", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"],
                                      values=[before_head], paths=["."], config=filters, timeout=20), name_status=True)
    except (GitError, OSError, ValueError) as exc:
        return [], f"changes not observed: {exc}"
    dirty = set(before_dirty or [])
    seen: dict[str, FileChange] = {}
    for code, path, old in entries:
        if not path.startswith(prefix) or len(seen) >= _MAX_LISTED:
            continue
        rel = path[len(prefix):]
        if rel in seen:
            continue
        if before_head is not None or before_dirty:
            note = _DIRTY_NOTE if rel in dirty else _SINCE_NOTE
        else:
            note = _RECOVERY_NOTE
        seen[rel] = FileChange(path=rel, kind=_kind(code), old_path=old[len(prefix):] if old else None, reasons=[note])
    return sorted(seen.values(), key=lambda c: c.path), None


def recover_run(store: RunStore, run_id: str, *, wait: float = 5.0, secret_path: SecretRule | None = None) -> bool:
    """Finish one run whose relay is gone; True if it was recovered (False: still owned, or not running).

    ``secret_path(path)``: the review's rule for a file that holds secrets by its name (``relay.review`` sits
    beside this part, so its callers hand it in): a new git-ignored file it names is listed, as a live run
    lists it, and every path it names carries the review's words for it."""
    try:
        record = store.read(run_id)
    except RelayError as exc:
        # Not recovered, and said: a FIFO, a symbolic link or a folder named like the record is refused
        # (never followed, never waited on), so start-up neither hangs nor acts on another file.
        log.warning("run %s left running is not recovered: %s", run_id, exc.message)
        store.clear_active(run_id)
        return False
    if record.state != "running":
        store.clear_active(run_id)
        return False
    if owner_alive(record.process.relay_pid, record.process.relay_stamp):
        return False  # a live relay (maybe this one) owns it
    notes = []
    if record.process.pgid:
        verdict, worker = verify_worker(record.process.pgid, record.process.worker_stamp, run_id)
        if verdict is Identity.SAME and worker is not None:
            if kill_worker_now(worker, wait):
                log.warning("killed leftover worker group %s of run %s", record.process.pgid, run_id)
                notes.append(f"its worker group {record.process.pgid} was still running and was killed")
            else:
                notes.append(f"its worker group {record.process.pgid} could not be killed")
        elif verdict is not Identity.GONE:
            # Someone else's processes now, or we cannot tell: never kill on doubt.
            log.warning("run %s: process group %s is alive but not provably its worker (%s); left alone",
                        run_id, record.process.pgid, verdict.value)
            notes.append(f"process group {record.process.pgid} was left alone: it could not be verified as this run's worker")
    # A worktree run (issue 10) changed its worktree, not the workspace: observed there, then its state is
    # recorded on the run's branch and the worktree goes back to the pool (or is removed when broken).
    if record.isolation.worktree and not worktree_is_own(store.runs_dir.parent, record.isolation.worktree):
        changes, why_not = [], _HIJACKED  # as the live path: no git command in a worktree the worker repointed
    else:
        changes, why_not = _observed(store, record, secret_path)
    if why_not:
        notes.append(why_not)
    if record.isolation.worktree and record.isolation.branch:
        record.isolation.tip_commit, done = salvage_worktree(store.runs_dir.parent, record.isolation.worktree, record.isolation.branch, run_id)
        notes.append(done)
    record.outcome.violation = _violation(record, changes)
    if record.outcome.violation is not None:
        notes.append("its change so far broke the run's policy: " + "; ".join(record.outcome.violation.limits))
    error = interrupted_error(record.process.relay_pid, notes, recovered=True)
    record.state = "interrupted"
    record.outcome.status = Status.INTERRUPTED
    record.outcome.error = error
    record.outcome.finished_at = now_iso()
    record.observation.changes = changes
    files = [c.path for c in changes]
    flags = [changes[0].reasons[0] if len(changes) == 1 else _recovery_flag(changes)] if files else []
    secrets = [c.path for c in changes if _SECRET_NOTE in c.reasons]
    if secrets:  # the live packet ranks these high for the same reason
        flags.append(f"{_SECRET_NOTE} changed: " + ", ".join(secrets[:8]) + (f" and {len(secrets) - 8} more"
                                                                             if len(secrets) > 8 else ""))
    if record.outcome.violation is not None:
        flags.insert(0, "policy violation before the run ended: " + "; ".join(record.outcome.violation.limits)[:240])
    record.outcome.packet = Packet(run_id=run_id, status=Status.INTERRUPTED, error=error,
                           branch=record.isolation.branch, worktree=record.isolation.worktree,
                           changes=Changes(count=len(files), files=files, source="git" if files else None), flags=flags)
    record.process.pgid = None
    store.write(record)
    store.clear_active(run_id)
    return True


def _observed(store: RunStore, record: RunRecord, secret_path: SecretRule | None) -> tuple[list[FileChange], str | None]:
    """What the run changed: exactly, from the before trees it saved at its start (and its patch written
    beside the record, so ``runs diff`` and ``runs revert`` work; a worktree run's after tree beside them, so
    apply writes that change); else what git shows now."""
    before = load_snapshot(store.trees_path(record.run_id))
    if before is not None and before.source in ("git", "tree"):
        changeset = observe_changes(before, Path(before.workspace), list_ignored=secret_path)
        if changeset.source != "report" and not changeset.workspace_gone:
            write_run_patch(before, changeset, Path(before.workspace), store.patch_path(record.run_id), run_id=record.run_id)
            if record.isolation.worktree:
                keep_or_drop_after_tree(before, changeset, record.run_id)
            files = changeset.files[:_MAX_LISTED]
            for change in files:
                # No ranking at recovery: the lines stay in the patch, the record keeps counts and ranges.
                change.added_lines, change.removed_lines, change.reasons = [], [], [_TREES_NOTE]
                if secret_path is not None and secret_path(change.path):
                    change.reasons.append(_SECRET_NOTE)
            return files, None
    return git_visible_changes(record.isolation.worktree or record.plan.workspace, before_head=record.observation.before_head,
                               before_dirty=record.observation.before_dirty)


def _violation(record: RunRecord, changes: list[FileChange]) -> PolicyViolation | None:
    """The run's policy (its record keeps the limits), checked on the paths git shows changed since it started.

    Checked, never restored: the pre-run snapshot died with the relay, and by now the user may have edited
    those files. Paths already changed before the run are left out (not provably the worker's); git gives
    no line counts here, so max_lines is not checked.
    """
    since = [c for c in changes if _SINCE_NOTE in c.reasons or _TREES_NOTE in c.reasons]
    violation = check_policy(record.plan, since)
    if violation is not None and violation.on_violation == "revert":
        violation.not_restored = {p: "not restored at recovery: the relay running it died with its pre-run "
                                  "snapshot, and the files may have been edited since" for p in violation.files[:2000]}
    if violation is not None:
        violation.files = violation.files[:2000]
    return violation


def _recovery_flag(changes: list[FileChange]) -> str:
    if all(_TREES_NOTE in c.reasons for c in changes):
        return f"observed at recovery against the run's before trees: {len(changes)} path(s) changed by the run"
    earlier = sum(1 for c in changes if _DIRTY_NOTE in c.reasons)
    if any(_RECOVERY_NOTE in c.reasons for c in changes):
        return _RECOVERY_NOTE
    return (f"observed at recovery with git: {len(changes) - earlier} path(s) changed since the run started"
            + (f", {earlier} already changed before it (their diffs may include earlier edits)" if earlier else ""))


def recover_interrupted(store: RunStore, *, own_pid: int | None = None, wait: float = 5.0,
                        secret_path: SecretRule | None = None) -> list[str]:
    """Finish every run of a dead relay (identity checked) and kill its verified leftover group; returns their ids.
    ``secret_path``: as for ``recover_run``."""
    recovered = []
    for run_id in store.active_ids():
        try:
            if recover_run(store, run_id, wait=wait, secret_path=secret_path):
                recovered.append(run_id)
        except (OSError, RelayError) as exc:
            # One unreadable record (a directory, root-owned) must not stop the others, nor the next run.
            log.warning("could not recover run %s: %s", run_id, getattr(exc, "message", exc))
    return recovered
