"""Recovery: runs left "running" by a relay process that no longer exists, ended INTERRUPTED.

Such a run's worker may still be alive (the relay was SIGKILLed, the machine slept): it is killed only
once identity checks prove the group is that run's worker (``relay.runs.crashed``); on doubt nothing is
killed. A record whose relay pid was reused by an unrelated process counts as dead, not as running
forever. Its change is then observed and judged as every run's is (``relay.call.judge``), checked but
never restored (the pre-run content may have been edited since), and the run ends through the same
``finish`` as every run.

Called at start-up and, with the queue lock held, before every worker starts (runs/coordinator.py):
an orphan agy of a crashed relay must not run beside a new one.
"""

from __future__ import annotations

import logging

from filelock import Timeout

from relay.agy.classify import Verdict
from relay.call.finish import Ending, finish
from relay.call.judge import judge_change
from relay.core.contracts import Changes, Status
from relay.core.errors import RelayError
from relay.core.files import own_folder
from relay.core.identity import owner_alive
from relay.core.locks import own_lock
from relay.isolate.pool import salvage_worktree, worktree_is_own
from relay.observe.changes import ChangeSet
from relay.runs.crashed import Seen, observe_crashed, stop_leftover
from relay.runs.results import interrupted_error
from relay.runs.store import RunStore

__all__ = ["recover_interrupted", "recover_run"]

log = logging.getLogger("relay.call.recovery")

LOCK_WAIT = 60.0  # seconds: another process's recovery of one run (its observation of the workspace) is far shorter

_HIJACKED = ("its worktree is no longer its own (the worker repointed its .git file, or it is gone): not observed, "
             "so the relay's git never read your repository through it")
_UNRESTORED = ("not restored at recovery: the relay running it died with its pre-run snapshot, and the files may "
               "have been edited since")


def recover_run(store: RunStore, run_id: str, *, wait: float = 5.0) -> bool:
    """Finish one run whose relay is gone; True if it was recovered (False: still owned, or not running).

    Under the data dir's recovery lock (locks/recovery.lock): a relay starting, a relay about to start its worker and
    the dead relay's undertaker (relay.call.undertaker) can find the same run at once, and one of them finishes it —
    the others then read it finished. A lock held past ``LOCK_WAIT`` leaves the run to a later recovery (said)."""
    lock = own_lock(own_folder(store.runs_dir.parent / "locks") / "recovery.lock")
    try:
        lock.acquire(timeout=LOCK_WAIT)
    except Timeout:
        log.warning("run %s left running is not recovered now: another process holds %s", run_id, lock.lock_file)
        return False
    try:
        return _recover_run(store, run_id, wait=wait)
    finally:
        lock.release()


def _recover_run(store: RunStore, run_id: str, *, wait: float) -> bool:
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
    notes = stop_leftover(record, wait)
    # A worktree run (issue 10) changed its worktree, not the workspace: observed there, unless the worker
    # repointed it (as the live path: no git command in a worktree that is not the run's own).
    if record.isolation.worktree and not worktree_is_own(store.runs_dir.parent, record.isolation.worktree):
        changeset, found = ChangeSet(source="git"), Seen(files=[], how="status", why_not=_HIJACKED)
    else:
        from relay.review.file_kinds import is_secret_path  # at the first recovery, not at start (relay.call.orchestrate)

        changeset, found = observe_crashed(store, record, is_secret_path)
    # Judged as every run is; checked, never restored, on the paths provably the run's (git gives no line counts
    # without the trees, so max_lines then counts nothing).
    judged = judge_change(lambda again: changeset, record.plan, before=None, checked=found.own,
                          unrestored=_UNRESTORED)
    if found.why_not:
        notes.append(found.why_not)
    if record.isolation.worktree and record.isolation.branch:
        # Its state recorded on the run's branch; the worktree goes back to the pool (or is removed when broken).
        record.isolation.tip_commit, done = salvage_worktree(store.runs_dir.parent, record.isolation.worktree,
                                                             record.isolation.branch, run_id)
        notes.append(done)
    record.outcome.violation = judged.violation
    if judged.violation is not None:
        notes.append("its change so far broke the run's policy: " + "; ".join(judged.violation.limits))
    error = interrupted_error(record.process.relay_pid, notes, recovered=True)
    record.observation.changes = found.files
    files = [c.path for c in found.files]
    finish(store, record, Ending(verdict=Verdict(status=Status.INTERRUPTED, message=error.message, hint=error.hint),
                                 changes=Changes(count=len(files), files=files, source="git" if files else None),
                                 flags=found.flags(), state="interrupted"))
    return True


def recover_interrupted(store: RunStore, *, wait: float = 5.0) -> list[str]:
    """Finish every run of a dead relay (identity checked) and kill its verified leftover group; returns their ids."""
    recovered = []
    for run_id in store.active_ids():
        try:
            if recover_run(store, run_id, wait=wait):
                recovered.append(run_id)
        except (OSError, RelayError) as exc:
            # One unreadable record (a directory, root-owned) must not stop the others, nor the next run.
            log.warning("could not recover run %s: %s", run_id, getattr(exc, "message", exc))
    return recovered
