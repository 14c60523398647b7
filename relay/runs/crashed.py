"""What a dead relay left behind: its run's leftover worker (killed only once proven to be that run's),
and what the run changed, observed without the relay that ran it.

A run left "running" by a relay process that no longer exists may still have its worker's process
group alive (the relay was SIGKILLed, the machine slept): ``stop_leftover`` kills it — but only once
identity checks prove the group is that run's worker (core/identity.py): a pgid read from disk may belong
to someone else by now, and on doubt nothing is killed. ``observe_crashed`` says what the run changed:
exactly, from the before trees it saved at its start; else from what git shows now. Recovery
(``relay.call.recovery``) judges that change and ends the run through the same finish as every run.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from relay.core.contracts import FileChange, RunRecord
from relay.core.identity import Identity
from relay.core.platform import kill_worker_now, marked_worker, verify_worker
from relay.isolate.trees import keep_or_drop_after_tree
from relay.observe.changes import ChangeSet, observe_changes
from relay.observe.configless import configless
from relay.observe.fifos import FifoRelease
from relay.observe.git import GitError, filter_overrides, run_git, z_records
from relay.observe.run_patch import write_run_patch
from relay.observe.snapshot import load_snapshot
from relay.runs.store import RunStore, iso_time

__all__ = ["Seen", "stop_leftover", "observe_crashed", "git_visible_changes", "SECRET_NOTE"]

log = logging.getLogger("relay.runs.crashed")

SecretRule = Callable[[str], bool]

_MAX_LISTED = 500
_RECOVERY_NOTE = ("observed at recovery from git status: the pre-run snapshot died with the relay, so edits "
                  "that were already there before the run may be included")
_DIRTY_NOTE = "observed at recovery: this path was already changed before the run; the diff may include those edits"
_SINCE_NOTE = "observed at recovery: changed since the run started (git, against the run's starting HEAD)"
_TREES_NOTE = "observed at recovery against the run's before trees: the worker's change only"
SECRET_NOTE = "secret or environment file"  # the live review's words for such a path


@dataclass
class Seen:
    """What a dead relay's run changed, and how the relay knows: against the run's before ``trees``, with git
    ``since`` the HEAD it started from (``earlier``: paths already changed before it), or git ``status`` alone."""

    files: list[FileChange]
    how: Literal["trees", "since", "status"]
    earlier: frozenset[str] = frozenset()
    secrets: list[str] = field(default_factory=list)
    planted: list[str] = field(default_factory=list)  # what it planted in the git dir (relay.observe.git_dir)
    why_not: str | None = None  # what could not be observed

    @property
    def own(self) -> set[str]:
        """The paths provably the run's: its policy is checked on these (git status alone proves none)."""
        if self.how == "status":
            return set()
        return {c.path for c in self.files if c.path not in self.earlier}

    def flags(self) -> list[str]:
        files = self.files
        if not files:
            return []
        if len(files) == 1:
            flags = [files[0].reasons[0]]
        elif self.how == "trees":
            flags = [f"observed at recovery against the run's before trees: {len(files)} path(s) changed by the run"]
        elif self.how == "status":
            flags = [_RECOVERY_NOTE]
        else:
            earlier = sum(1 for c in files if c.path in self.earlier)
            flags = [f"observed at recovery with git: {len(files) - earlier} path(s) changed since the run started"
                     + (f", {earlier} already changed before it (their diffs may include earlier edits)" if earlier else "")]
        flags[:0] = self.planted[:3]  # the live packet ranks these high, first
        if self.secrets:  # the live packet ranks these high for the same reason
            flags.append(f"{SECRET_NOTE} changed: " + ", ".join(self.secrets[:8])
                         + (f" and {len(self.secrets) - 8} more" if len(self.secrets) > 8 else ""))
        return flags


def stop_leftover(record: RunRecord, wait: float) -> list[str]:
    """Kill the run's worker group if it is still alive and provably its worker; what was done, as notes."""
    pgid, run_id = record.process.pgid, record.run_id
    if not pgid:
        return _stop_unrecorded(record, wait)
    verdict, worker = verify_worker(pgid, record.process.worker_stamp, run_id)
    if verdict is Identity.SAME and worker is not None:
        if kill_worker_now(worker, wait):
            log.warning("killed leftover worker group %s of run %s", pgid, run_id)
            return [f"its worker group {pgid} was still running and was killed"]
        return [f"its worker group {pgid} could not be killed"]
    if verdict is not Identity.GONE:
        # Someone else's processes now, or we cannot tell: never kill on doubt.
        log.warning("run %s: process group %s is alive but not provably its worker (%s); left alone",
                    run_id, pgid, verdict.value)
        return [f"process group {pgid} was left alone: it could not be verified as this run's worker"]
    return []


def _stop_unrecorded(record: RunRecord, wait: float) -> list[str]:
    """The worker of an attempt that started but whose pgid never reached the record (the relay died between the
    spawn and that write): found by the run's marker, among processes started since the attempt (platform)."""
    attempts = record.process.attempts
    if not attempts or attempts[-1].ended_at:
        return []
    started = iso_time(attempts[-1].started_at)
    if started is None:
        return []  # a start we cannot read: nothing is proven, nothing killed
    worker = marked_worker(record.run_id, started.timestamp())
    if worker is None:
        return []
    if kill_worker_now(worker, wait):
        log.warning("killed the leftover worker of run %s (found by its marker: its pgid was never recorded)",
                    record.run_id)
        return ["its worker was still running (its pid never reached the record) and was killed"]
    return ["its worker (found by its marker) could not be killed"]


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


def _where(ws: Path) -> tuple[Path, str, str | None]:
    """(the repository's top level, the workspace's folder in it, its HEAD commit: None when unborn)."""
    # One rev-parse: an unborn HEAD fails only the --verify part (exit 1), the other answers printed.
    out = run_git(ws, "rev-parse", ["--show-toplevel", "--show-prefix", "-q", "--verify"], values=["HEAD^{commit}"],
                  ok_codes=(0, 1), timeout=10).decode("utf-8", "surrogateescape")
    top, prefix, head = (out.split("\n") + ["", "", ""])[:3]
    return Path(top), prefix.strip(), head.strip() or None


def git_visible_changes(workspace: str | None, *, before_head: str | None = None,
                        before_dirty: list[str] | None = None) -> tuple[list[FileChange], str | None]:
    """What git shows as changed in ``workspace`` now, against the run's starting HEAD when it was recorded
    (bounded); (changes, why not) when it cannot tell. Paths already changed before the run are marked."""
    if not workspace:
        return [], "no workspace recorded"
    ws = Path(workspace)
    try:
        top, prefix, head = _where(ws)
        # No snapshot to give a private git dir: one made now (relay.observe.configless), with a copy of the
        # repository's index and its HEAD, so no config of the repository's is read (a worker of another relay may
        # be writing it meanwhile). status asks a child git in each checked-out submodule, which reads that
        # submodule's own config: the filters those define are read right before and switched off.
        filters = filter_overrides(ws, submodules=True)
        with configless(top, head=head, index=True) as (env, settings):
            config = [*settings, *filters]
            entries = _paths(run_git(ws, "status", ["--porcelain=v1", "-z", "--untracked-files=all"], config=config,
                                     env=env, timeout=20, stalled=FifoRelease(str(top))), name_status=False)
            if before_head:
                # Also what the worker committed: the working tree against the HEAD the run started from.
                entries += _paths(run_git(ws, "diff", ["--name-status", "-z", "--no-renames", "--no-ext-diff",
                                                       "--no-textconv"], values=[before_head], paths=["."],
                                          config=config, env=env, timeout=20), name_status=True)
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



def observe_crashed(store: RunStore, record: RunRecord, secret_path: SecretRule | None = None) -> tuple[ChangeSet, Seen]:
    """What the run changed: exactly, from the before trees it saved at its start (its patch written beside the
    record, so ``runs diff`` and ``runs revert`` work; a worktree run's after tree beside them, so apply writes
    that change); else what git shows now. ``secret_path``: the review's rule for a file that holds secrets by
    its name (a new git-ignored one is listed, as a live run lists it). In a worker thread."""
    before = load_snapshot(store.trees_path(record.run_id))
    if before is not None and before.source in ("git", "tree"):
        changeset = observe_changes(before, Path(before.workspace), list_ignored=secret_path)
        if changeset.source != "report" and not changeset.workspace_gone:
            write_run_patch(before, changeset, Path(before.workspace), store.patch_path(record.run_id), run_id=record.run_id)
            if record.isolation.worktree:
                keep_or_drop_after_tree(before, changeset, record.run_id)
            files = changeset.files[:_MAX_LISTED]
            secrets = []
            for change in files:
                # No ranking at recovery: the lines stay in the patch, the record keeps counts and ranges.
                change.added_lines, change.removed_lines, change.reasons = [], [], [_TREES_NOTE]
                if secret_path is not None and secret_path(change.path):
                    change.reasons.append(SECRET_NOTE)
                    secrets.append(change.path)
                if change.path in changeset.git_dir:  # a hook or program key planted in the git dir: said as live
                    change.reasons.append(changeset.git_dir[change.path])
            return (ChangeSet(source="git", files=files, git_dir=changeset.git_dir),
                    Seen(files=files, how="trees", secrets=secrets, planted=list(changeset.git_dir.values())))
    files, why_not = git_visible_changes(record.isolation.worktree or record.plan.workspace,
                                         before_head=record.observation.before_head,
                                         before_dirty=record.observation.before_dirty)
    known = record.observation.before_head is not None or bool(record.observation.before_dirty)
    dirty = set(record.observation.before_dirty)
    earlier = frozenset(c.path for c in files if c.path in dirty)
    seen = Seen(files=files, how="since" if known else "status", earlier=earlier, why_not=why_not)
    return ChangeSet(source="git", files=files), seen
