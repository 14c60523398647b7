"""A run's change, looked at from the relay's side: at the run's end, and after a stop (bounded in time).

``Live`` is what one run is doing right now (its stage, its before-snapshot, its worktree lease, what its looks
found); ``RunLook`` (one per Relay) observes a run's workspace, writes the run's patch beside its record and has
the change judged against its policy (judge.py): ``judge`` at the run's end, ``after_stop`` for a run stopped
before its end (cancelled, its client gone, a failure inside the relay), whose look may hang and is then answered
without. The path of one call, which calls these, is orchestrate.py.
"""

from __future__ import annotations

import logging
import threading
from functools import partial
from pathlib import Path

from relay.agy.stream import StreamReader
from relay.call.enforce import HIJACKED
from relay.call.intake import CallPlan
from relay.call.judge import Judged, judge_change, judged_within
from relay.core.contracts import Changes, RunRecord, Status
from relay.core.errors import RelayError
from relay.core.redact import redact
from relay.core.settings import Settings
from relay.isolate.pool import Lease, changed_outside, record_change, still_own
from relay.isolate.trees import keep_or_drop_after_tree
from relay.observe.changes import ChangeSet, observe_changes
from relay.observe.git import GitError
from relay.observe.permissions import PreRun, keep_sizes
from relay.observe.run_patch import write_run_patch
from relay.observe.snapshot import Snapshot
from relay.runs.store import RunStore

__all__ = ["Live", "RunLook", "branch_message"]

log = logging.getLogger("relay")

# How long a stopped run's look may take before its answer and record go out saying the change was not observed.
STOPPED_LOOK_SECONDS = 30.0


class _Abandoned(Exception):
    """A stopped run's look that ended after its answer went out: it writes nothing (no patch, no policy)."""


class Live:
    """What one run is doing right now: read by the progress ticker and by the cancel path."""

    def __init__(self) -> None:
        self.stage = "starting"
        self.reader = StreamReader()
        self.before: Snapshot | None = None
        self.workspace: str | None = None  # where the worker runs, when not the plan's (its worktree)
        self.lease: Lease | None = None  # the worktree held by a run that ended early (settled at the end)
        self.violation = ""  # a stopped run's broken policy, said in its message (enforce.apply_policy)
        self.notes: list[str] = []  # what the packet says about agy's output (agy.worker)
        self.outside: list[str] = []  # a worktree run's change outside its workspace (issue 22, D1)
        self.pre_run: dict[str, PreRun] | None = None  # files' bits and sizes before the run, when it may revert
        self.unobserved = ""  # a stopped run whose look did not end in time: said in its message and flags


class RunLook:
    """The looks at the runs of one relay process. ``lives``: the Relay's runs in progress, by run_id (a look that
    ends after its run has ended finds none: it then neither checks nor records the run's worktree)."""

    def __init__(self, settings: Settings, store: RunStore, lives: dict[str, Live]) -> None:
        self.settings = settings
        self.store = store
        self.lives = lives

    def observe(self, record: RunRecord, before: Snapshot, workspace: Path, reported: list[str] | None = None,
                abandoned: threading.Event | None = None) -> ChangeSet:
        """What changed, and the run's patch beside its record (before verification can touch a file).

        A worktree run (issue 22, D1): its worktree is first checked to be still its own (never a git command
        in a worktree the worker repointed at the user's git dir), then its whole state is recorded on its
        branch: that commit is the observed change apply will write, and what it touches outside the
        workspace's folder is a violation (``live.outside``). Its after tree is kept beside the before tree: the
        diff of the two is what apply writes (a second look, after a policy revert, replaces it)."""
        live = self.lives.get(record.run_id)
        lease = live.lease if live is not None else None
        if lease is not None and not still_own(lease):
            raise RelayError(Status.POLICY_VIOLATION, HIJACKED,
                             "Start a new run; the relay rebuilds the worktree. Check your repository with `git status`.")
        # a new ignored file is listed when it holds secrets or an agent loads it (relay.review.agent_instructions)
        from relay.review.agent_instructions import listed_when_ignored

        changeset = observe_changes(before, workspace, reported=reported or [], list_ignored=listed_when_ignored)
        if abandoned is not None and abandoned.is_set():  # its run answered without it: nothing written now
            raise _Abandoned(record.run_id)
        if self.settings.patch_max_bytes:
            write_run_patch(before, changeset, workspace, self.store.patch_path(record.run_id),
                            run_id=record.run_id, max_bytes=self.settings.patch_max_bytes)
            if live is not None and live.pre_run and lease is None:  # for `runs revert` (issue 37, W11)
                keep_sizes(before.dir, live.pre_run, [p for c in changeset.files for p in (c.path, c.old_path) if p])
        if lease is not None:
            record.isolation.tip_commit = record_change(lease, branch_message(record))
            live.outside = changed_outside(lease, record.isolation.tip_commit)
            keep_or_drop_after_tree(before, changeset, record.run_id)  # what apply writes (issue 23)
        return changeset

    def judge(self, call: CallPlan, live: Live, workspace: Path, reported: list[str] | None = None,
              abandoned: threading.Event | None = None) -> Judged:
        """The run's change observed and judged against its policy, as every ending sees it (judge.py); ``abandoned``:
        set once nobody waits for it (a stopped run's look past its bound), it then ends writing nothing."""
        record, before = call.record, live.before
        assert before is not None

        def outside() -> tuple[list[str], str] | None:  # issue 22, D1: what the worktree changed outside the workspace
            return (live.outside, live.lease.facts.prefix) if live.lease is not None else None

        return judge_change(lambda again: self.observe(record, before, workspace, None if again else reported, abandoned),
                            call.plan, before=before, pre_run=live.pre_run, outside=outside,
                            data_dir=self.settings.data_dir)

    async def after_stop(self, call: CallPlan, live: Live) -> Changes | None:
        """Whatever the stopped worker had changed, so nothing is lost from the record (bounded in time)."""
        if live.before is None:
            return None
        record, plan = call.record, call.plan
        workspace = Path(live.workspace or plan.workspace)  # a worktree run's own tree (issue 10)
        try:
            # The policy holds on every exit that observed a change: a stopped worker may have broken it already.
            # Bounded: a look that hangs (git held by what the worker left) holds neither the answer nor the exit.
            judged = await judged_within(STOPPED_LOOK_SECONDS, partial(self.judge, call, live, workspace, None),
                                         f"relay-stopped-look-{record.run_id}")
        except (OSError, RelayError, GitError) as exc:  # a RelayError: a worktree the worker repointed (not observed)
            log.warning("could not observe changes of cancelled run %s: %s", record.run_id, exc)
            return None
        if judged is not None:
            record.outcome.violation, live.violation = judged.violation, judged.said
            from relay.review.packet import build_review

            changes, _, record.observation.changes = build_review(judged.changeset, report=None, paths=plan.paths,
                                                                  workspace=workspace, task=call.asked)
            return changes
        log.warning("run %s: the look after the stop did not end within %g s; answered without it", record.run_id,
                    STOPPED_LOOK_SECONDS)
        live.unobserved = (f"the change was not observed: the relay's look at the workspace after the stop did not end "
                           f"within {STOPPED_LOOK_SECONDS:g} s, so nothing the worker changed is listed or checked "
                           f"against the policy; it stays in {workspace} (git status shows it)")
        return None


def branch_message(record: RunRecord) -> str:
    """The message of the commit that records a worktree run's change on its branch."""
    # The branch lives in the user's repository (it may be pushed): the task's first line only, redacted.
    first = redact((record.request.task.strip().splitlines() or [""])[0][:200])
    return f"gravity-relay run {record.run_id}: {first}"
