"""Apply: bring a worktree run's change into the user's tree (``antigravity_continue(run_id, apply=true)``,
``gravity-relay runs apply RUN_ID``: both call ``apply_run``, so the same answer).

Why a field of continue rather than a fifth tool: every tool's schema is paid by every session, and
applying is the natural next step after reading a packet, like a follow-up; the packet of a worktree
run says how. ``feedback`` may be left out (it is ignored when ``apply`` is set).

The change applied is the run's branch from its base: for a continue, the whole chain since the first
run's base (or since the last applied run of the chain), so applying the last run of a chain brings
everything. Refused, with nothing changed: a run still running, a run in place (its change is already
in the tree), a run that broke its profile's policy (POLICY_VIOLATION), and any conflict (APPLY_CONFLICT,
naming each file and why).
"""

from __future__ import annotations

import logging

from relay.core.contracts import Changes, ErrorInfo, Packet, Status
from relay.core.errors import Busy, InvalidInput, RelayError, as_relay_error
from relay.isolate.merge import ApplyConflicts, three_way_apply
from relay.isolate.repo import repo_facts
from relay.observe.git import GitError
from relay.review.packet import fit_packet
from relay.runs.store import RunStore, check_run_id, now_iso

__all__ = ["apply_run"]

log = logging.getLogger("relay.call.apply_run")

_LISTED_CONFLICTS = 20


def _refusal(run_id: str, exc: BaseException, *, branch: str | None = None, worktree: str | None = None) -> Packet:
    error = as_relay_error(exc, f"apply of run {run_id}")
    return fit_packet(Packet(run_id=run_id, status=error.status, error=error.info(), branch=branch,
                             worktree=worktree))


def apply_run(store: RunStore, run_id: str | None) -> Packet:
    """Three-way apply a worktree run's change to its workspace; the answer is a packet either way."""
    if not run_id:
        return _refusal("", InvalidInput("apply needs the run_id of a worktree run",
                                         "Pass run_id as the packet returned it, with apply=true."))
    try:
        record = store.read(check_run_id(run_id))
    except RelayError as exc:
        return _refusal(run_id, exc)
    where = dict(branch=record.isolation.branch, worktree=record.isolation.worktree)
    try:
        if record.state == "running":
            raise Busy(f"run {run_id} is still running", "Wait for its packet, then apply it.")
        if not record.isolation.branch or not record.isolation.base_commit:
            raise InvalidInput(f"run {run_id} ran in place: its changes are already in {record.plan.workspace}",
                               "Only runs of a profile with \"isolation\": \"worktree\" are applied.")
        # Compared by value: the policy check (another part) owns that status.
        # A run stopped mid-way keeps its CANCELLED status but carries the violation it made (record.outcome.violation).
        if record.outcome.violation is not None or (record.outcome.status is not None and record.outcome.status.value == "POLICY_VIOLATION"):
            raise InvalidInput(f"run {run_id} broke its profile's policy (POLICY_VIOLATION); its change is not applied",
                               "Read its error, then continue the run to fix it and apply that run. Your tree is "
                               "unchanged.")
        if not record.isolation.tip_commit:
            raise InvalidInput(f"run {run_id} has no recorded change on branch {record.isolation.branch}",
                               "Nothing to apply; start a new run if the work is still needed.")
        facts = repo_facts(record.plan.workspace)
        top = facts.toplevel
        try:
            applied = three_way_apply(top, record.isolation.base_commit, record.isolation.tip_commit, within=facts.prefix)
        except ApplyConflicts as exc:
            listed = "; ".join(f"{path} ({why})" for path, why in exc.conflicts[:_LISTED_CONFLICTS])
            more = len(exc.conflicts) - _LISTED_CONFLICTS
            message = (f"run {run_id}'s change conflicts with {top} in {len(exc.conflicts)} file(s): {listed}"
                       + (f"; and {more} more" if more > 0 else "") + ". Nothing was changed.")
            hint = (f"Keep or undo your own edits to those files, then apply again; `git diff {record.isolation.base_commit[:12]} "
                    f"{record.isolation.branch}` shows the run's change.")
            return fit_packet(Packet(run_id=run_id, status=Status.APPLY_CONFLICT, **where,
                                     error=ErrorInfo(code=Status.APPLY_CONFLICT, message=message[:4000], hint=hint),
                                     changes=Changes(count=len(exc.conflicts), files=[p for p, _ in exc.conflicts],
                                                     source="git")))
    except (RelayError, GitError, OSError) as exc:
        if isinstance(exc, GitError):
            exc = RelayError(Status.STORAGE_ERROR, f"git could not apply run {run_id}: {exc}",
                             "Check the workspace's repository (`git status`); nothing was changed.")
        return _refusal(run_id, exc, **where)
    record.isolation.applied_at = now_iso()
    try:
        store.write(record)
    except OSError as exc:
        log.warning("run %s applied, but its record could not be updated: %s", run_id, exc)
    files = sorted(applied.written)
    summary = (f"applied run {run_id}'s change ({len(files)} file(s), branch {record.isolation.branch}) to {top}"
               if files else f"nothing to apply: {top} already holds run {run_id}'s change")
    if applied.unchanged and files:
        summary += f"; {len(applied.unchanged)} file(s) already held it"
    return fit_packet(Packet(run_id=run_id, status=Status.SUCCESS, summary=summary, **where,
                             changes=Changes(count=len(files), files=files, source="git" if files else None)))

