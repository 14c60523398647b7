"""Apply: bring a worktree run's change into the user's tree (``antigravity_continue(run_id, apply=true)``,
``gravity-relay runs apply RUN_ID``: both call ``apply_run``, so the same answer).

Why a field of continue rather than a fifth tool: every tool's schema is paid by every session, and
applying is the natural next step after reading a packet, like a follow-up; the packet of a worktree
run says how. ``feedback`` may be left out (it is ignored when ``apply`` is set).

The change applied is exactly the one observed and checked (issue 23): the diff of the run's before and
after trees (``relay.isolate.trees``), as its policy left it — nothing outside the run's workspace, none of
the files a policy revert put back, nothing a verification command wrote after observation. For a
continue, the whole chain since the first run's before tree (or since the last applied run of the chain),
so applying the last run of a chain brings everything. Files the trees do not hold (larger than the
trees' size limit) come from the run's commit, recorded at the same moment; a run from before the trees
were kept applies its commits as it always did. Paths are named relative to the workspace, as the packet
names them.

Refused, with nothing changed: a run still running, a run in place (its change is already in the
tree), a run whose policy violation stands (POLICY_VIOLATION kept, or a revert that could not put every
file back), and any conflict (APPLY_CONFLICT, naming each file and why).
"""

from __future__ import annotations

import logging
import os

from relay.call.kept import refuse_kept
from relay.core.contracts import Changes, ErrorInfo, Packet, Status
from relay.core.errors import WAIT_FOR_IT as _WAIT_FOR_IT, Busy, InvalidInput, RelayError, as_relay_error
from relay.core.contracts import RunRecord
from relay.core.settings import Settings, load_settings
from relay.core.workspace import recorded_workspace
from relay.isolate.apply_temps import sweep as sweep_temps
from relay.isolate.merge import ApplyConflicts, Entry, changed_entries, three_way_apply
from relay.isolate.repo import RepoFacts, repo_facts
from relay.core.files import write_atomic
from relay.isolate.trees import RunTrees, chain_patch, run_trees
from relay.observe.git import GitError
from relay.observe.patch import split_patch
from relay.runs.store import RunStore, check_run_id, now_iso

__all__ = ["apply_run"]

log = logging.getLogger("relay.call.apply_run")

_LISTED_CONFLICTS = 20
_MAX_CHAIN = 200  # continues followed back to the chain's first run


def _fit(packet: Packet) -> Packet:
    """``relay.review.packet.fit_packet``, imported at the first packet, not when the server starts (relay.call.orchestrate)."""
    from relay.review.packet import fit_packet

    return fit_packet(packet)


def _refusal(run_id: str, exc: BaseException, *, branch: str | None = None, worktree: str | None = None) -> Packet:
    error = as_relay_error(exc, f"apply of run {run_id}")
    return _fit(Packet(run_id=run_id, status=error.status, error=error.info(), branch=branch,
                             worktree=worktree))


def _named(path: str, prefix: str) -> str:
    """A repository path as the packet names it: relative to the workspace ("../x" outside it)."""
    if not prefix or path.startswith(prefix):
        return path[len(prefix):]
    return os.path.relpath(path, prefix)


def _violation_stands(record: RunRecord) -> bool:
    """Does the run's policy violation still hold in what it left? Not when the policy's revert put every
    violating file back (the worktree then holds the kept change only, as a run in place leaves its tree)."""
    violation = record.outcome.violation
    # Compared by value: the policy check (another part) owns that status.
    said = record.outcome.status is not None and record.outcome.status.value == "POLICY_VIOLATION"
    if violation is None:
        return said
    return violation.on_violation != "revert" or bool(violation.not_restored) or \
        set(violation.restored) != set(violation.files)


def _chain_start(store: RunStore, record: RunRecord) -> RunRecord:
    """The first run of ``record``'s chain of continues whose change is not applied yet (``record`` itself when
    it is no continue): the chain's change is measured from that run's before tree."""
    run = record
    for _ in range(_MAX_CHAIN):
        parent_id = run.request.parent_run_id
        if not parent_id:
            break
        try:
            parent = store.read(parent_id)
        except RelayError:
            break
        if parent.isolation.applied_at or parent.isolation.base_commit != record.isolation.base_commit:
            break
        run = parent
    return run


def _change(store: RunStore, record: RunRecord, start: RunRecord, facts: RepoFacts
            ) -> tuple[list[Entry], RunTrees | None]:
    """(the change to apply, the kept trees it comes from): the diff of the chain's kept trees (from ``start``,
    ``_chain_start``), or of the run's commits for a run from before they were kept."""
    isolation = record.isolation
    assert isolation.base_commit and isolation.tip_commit
    trees = run_trees(store.trees_path(start.run_id), store.trees_path(record.run_id), facts.common_dir / "objects")
    if trees is None:
        return changed_entries(facts.toplevel, isolation.base_commit, isolation.tip_commit), None
    entries = changed_entries(facts.toplevel, trees.before, trees.after, env=trees.env, under=facts.prefix)
    big = sorted(facts.prefix + p for p, why in trees.left_out.items() if why.startswith("larger than"))
    if big:  # kept out of the trees by size: their content is in the commit recorded at the same moment
        entries += changed_entries(facts.toplevel, isolation.base_commit, isolation.tip_commit, env=trees.env,
                                   paths=big)
    return entries, trees


def _keep_chain_patch(store: RunStore, record: RunRecord, start: RunRecord, facts: RepoFacts,
                      trees: RunTrees | None) -> None:
    """An apply of a chain wrote more than this run's own patch holds: keep what it wrote for `runs revert`."""
    if start.run_id == record.run_id:
        return
    isolation = record.isolation
    assert isolation.base_commit and isolation.tip_commit
    try:
        data = chain_patch(facts.toplevel, trees, isolation.base_commit, isolation.tip_commit, facts.prefix,
                           runs=f"{start.run_id}..{record.run_id}", workspace=record.plan.workspace)
        write_atomic(store.applied_patch_path(record.run_id), data)
        isolation.applied_from = start.run_id
    except (GitError, OSError) as exc:  # the apply is done: say what revert will lack, never undo the apply
        log.warning("run %s applied, but what it wrote was not kept for revert: %s", record.run_id, exc)
    _mark_applied_with(store, record, start)


def _mark_applied_with(store: RunStore, record: RunRecord, start: RunRecord) -> None:
    """The earlier runs of the chain ``record``'s apply brought (``start`` up to its parent) name it: a later
    `runs revert` or apply of one of them alone would undo or repeat part of what that apply wrote."""
    run, seen = record, 0
    while run.run_id != start.run_id and run.request.parent_run_id and seen < _MAX_CHAIN:
        try:
            run = store.read(run.request.parent_run_id)
            run.isolation.applied_with = record.run_id
            store.write(run)
        except (RelayError, OSError) as exc:  # the apply is done; revert of that run alone is then not refused
            log.warning("run %s applied its chain, but run %s could not be marked: %s", record.run_id,
                        run.request.parent_run_id, exc)
            return
        seen += 1


def _not_applied(store: RunStore, record: RunRecord, applied: set[str]) -> str:
    """The files the run's packet listed that apply did not write, and why (said, never silently dropped): put
    back by the policy, or listed without content (by timestamp). A file the run's patch holds is in the trees:
    when it is not applied, a later run of the chain undid it, and there is nothing to say."""
    violation = record.outcome.violation
    put_back = set(violation.restored) if violation is not None else set()
    try:
        patch = store.read_patch(record.run_id)
    except RelayError:
        patch = None
    in_patch = {p for s in split_patch(patch)[1] for p in (s.path, s.old_path)} if patch is not None else None
    left: dict[str, list[str]] = {}
    for change in record.observation.changes:
        if change.path in applied or change.path == ".":
            continue
        if change.path in put_back:
            why = "put back by the run's policy"
        elif in_patch is not None and change.path not in in_patch:
            why = "its content was not kept (seen by its timestamp only)"
        else:
            continue
        left.setdefault(why, []).append(change.path)
    return "".join(f"; not applied, {why}: {', '.join(paths[:5])}" + (f" and {len(paths) - 5} more" if len(paths) > 5
                                                                        else "")
                   for why, paths in sorted(left.items()))


def apply_run(store: RunStore, run_id: str | None, settings: Settings | None = None) -> Packet:
    """Three-way apply a worktree run's change to its workspace; the answer is a packet either way. ``settings``:
    what workspaces the relay accepts (default: this process's environment's)."""
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
            raise Busy(f"run {run_id} is still running", _WAIT_FOR_IT.format(then="apply it"))
        if not record.isolation.branch or not record.isolation.base_commit:
            raise InvalidInput(f"run {run_id} ran in place: its changes are already in {record.plan.workspace}",
                               "Only runs of a profile with \"isolation\": \"worktree\" are applied.")
        # A run stopped mid-way keeps its CANCELLED status but carries the violation it made (record.outcome.violation).
        if _violation_stands(record):
            raise InvalidInput(f"run {run_id} broke its profile's policy (POLICY_VIOLATION); its change is not applied",
                               "Read its error, then continue the run to fix it and apply that run. Your tree is "
                               "unchanged.")
        refuse_kept(store.runs_dir.parent, record, "apply takes a recorded change only: your tree is unchanged")
        if record.isolation.applied_with:
            raise InvalidInput(f"run {run_id}'s change is already in {record.plan.workspace}: the apply of run "
                               f"{record.isolation.applied_with}, which continues it, brought it with its own",
                               f"Nothing was changed. `gravity-relay runs revert {record.isolation.applied_with}` "
                               "undoes that chain's change as a whole.")
        if not record.isolation.tip_commit:
            raise InvalidInput(f"run {run_id} has no recorded change on branch {record.isolation.branch}",
                               "Nothing to apply; start a new run if the work is still needed.")
        recorded_workspace(run_id, record.plan.workspace, settings or load_settings())
        facts = repo_facts(record.plan.workspace)
        top = facts.toplevel
        start = _chain_start(store, record)
        entries, trees = _change(store, record, start, facts)
        env = trees.env if trees is not None else None
        data_dir = store.runs_dir.parent
        sweep_temps(data_dir)  # what an apply killed mid-write left in a user's tree (relay.isolate.apply_temps)
        try:
            applied = three_way_apply(top, entries, env=env, within=facts.prefix, data_dir=data_dir)
        except ApplyConflicts as exc:
            exc.conflicts = [(_named(path, facts.prefix), why) for path, why in exc.conflicts]
            listed = "; ".join(f"{path} ({why})" for path, why in exc.conflicts[:_LISTED_CONFLICTS])
            more = len(exc.conflicts) - _LISTED_CONFLICTS
            message = (f"run {run_id}'s change conflicts with {top} in {len(exc.conflicts)} file(s): {listed}"
                       + (f"; and {more} more" if more > 0 else "") + ". Nothing was changed.")
            hint = (f"Keep or undo your own edits to those files, then apply again; `git diff {record.isolation.base_commit[:12]} "
                    f"{record.isolation.branch}` shows the run's change.")
            return _fit(Packet(run_id=run_id, status=Status.APPLY_CONFLICT, **where,
                                     error=ErrorInfo(code=Status.APPLY_CONFLICT, message=message[:4000], hint=hint),
                                     changes=Changes(count=len(exc.conflicts), files=[p for p, _ in exc.conflicts],
                                                     source="git")))
    except (RelayError, GitError, OSError) as exc:
        if isinstance(exc, GitError):
            exc = RelayError(Status.STORAGE_ERROR, f"git could not apply run {run_id}: {exc}",
                             "Check the workspace's repository (`git status`); nothing was changed.")
        return _refusal(run_id, exc, **where)
    record.isolation.applied_at = now_iso()
    _keep_chain_patch(store, record, start, facts, trees)
    try:
        store.write(record)
    except OSError as exc:
        log.warning("run %s applied, but its record could not be updated: %s", run_id, exc)
    files = sorted(_named(p, facts.prefix) for p in applied.written)
    summary = (f"applied run {run_id}'s change ({len(files)} file(s), branch {record.isolation.branch}) to {top}"
               if files else f"nothing to apply: {top} already holds run {run_id}'s change")
    if applied.unchanged and files:
        summary += f"; {len(applied.unchanged)} file(s) already held it"
    summary += _not_applied(store, record, {_named(p, facts.prefix) for p in [*applied.written, *applied.unchanged]})
    return _fit(Packet(run_id=run_id, status=Status.SUCCESS, summary=summary, **where,
                             changes=Changes(count=len(files), files=files, source="git" if files else None)))

