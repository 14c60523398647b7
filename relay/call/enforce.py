"""Enforced policy (issue 10): after the run is observed, check its change against the run's limits.

Rules (``relay.core.policy_rules``), checked on what the relay observed (never on the worker's claims):

paths      every changed file (both sides of a rename) lies within the allowed paths;
protected  no changed file matches a protected pattern;
max_files  at most this many changed files (a rename counts once);
max_lines  at most this many lines added + removed over the whole change (binary: 0).

A violation turns the run's status into POLICY_VIOLATION, whatever the worker's own
outcome (it is kept in the message): the change broke the owner's bound, and a later
apply step must refuse it. The packet still lists the changes. With ``on_violation:
"revert"`` the violating files are put back from the pre-run snapshot
(``relay.observe.restore``): for paths / protected, exactly the files that broke them;
for max_files / max_lines, every file the run changed — the limit is about the whole
change, and keeping an arbitrary part of it would leave a half-made change behind.
Files whose pre-run content the relay does not hold are left as they are, and named.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

from relay.agy.classify import Verdict
from relay.agy.prompt import limit_lines
from relay.call.policy import RunPlan
from relay.core.contracts import FileChange, PolicyViolation, RecordPlan, Status
from relay.core.policy_rules import check_policy, name_files
from relay.isolate.apply_temps import ledgered_temps
from relay.observe.git_dir import put_back
from relay.observe.permissions import PreRun
from relay.observe.snapshot import Snapshot
from relay.observe.restore import restore_paths

__all__ = ["VIOLATION_HINT", "apply_policy", "check_policy", "enforce_policy", "policy_verdict", "prompt_limits",
           "outside_violation", "HIJACKED", "git_dir_violation", "above_violation",
           "runs_next_violation"]

_KEPT = 2000  # files the record keeps per list; the message has the full counts
_BROKE = "the run's change broke its policy: "

VIOLATION_HINT = ("Review the listed changes (detail=\"full\" has the violation and what was restored). Continue "
                  "with feedback that keeps within the limits, or revert the run; the profile's owner sets the limits.")


def prompt_limits(plan: RunPlan) -> list[str]:
    """The prompt's limits section for this plan (empty when nothing is enforced)."""
    return limit_lines(paths=plan.paths, protected=plan.protected, max_files=plan.max_files,
                       max_lines=plan.max_lines, revert=plan.on_violation == "revert")


def apply_policy(limits: RunPlan | RecordPlan, files: list[FileChange], before: Snapshot | None,
                 pre_run: dict[str, PreRun] | None = None, *, unrestored: str | None = None,
                 data_dir: Path | None = None) -> tuple[PolicyViolation | None, str]:
    """Check the observed change and revert when asked: the violation and the sentence saying it ("" if none).

    Every way a run ends calls it, through ``relay.call.judge``: a finished run, a stopped one (cancelled, the
    client gone, the relay stopping), which keeps its own status and carries the violation, and one whose
    relay died (``unrestored``: why nothing is restored). Runs in a worker thread (the revert writes files);
    ``before`` is the run's pre-run snapshot; ``data_dir``: where the revert's temp files are ledgered (a relay
    killed mid-revert leaves none that cleanup cannot find: relay.isolate.apply_temps).
    """
    violation = check_policy(limits, files)
    if violation is None:
        return None, ""
    message = _BROKE + "; ".join(violation.limits)
    if violation.on_violation == "revert":
        if unrestored is not None:
            violation.not_restored = {p: unrestored for p in violation.files}
        elif before is None:
            violation.not_restored = {p: "the relay took no snapshot before the run" for p in violation.files}
        else:
            violation.restored, violation.not_restored = restore_paths(
                before, violation.files, pre_run, temps=partial(ledgered_temps, data_dir))
        message += f". Restored {len(violation.restored)} file(s) to their pre-run content"
        if violation.not_restored:
            first, why = next(iter(violation.not_restored.items()))
            message += (f"; could not restore {len(violation.not_restored)}: {name_files(list(violation.not_restored))} "
                        f"({first}: {why})")
    else:
        message += ". The changes were left in place (on_violation: keep)"
    # The record keeps bounded lists; the message has the full counts.
    violation.files = violation.files[:_KEPT]
    violation.restored = violation.restored[:_KEPT]
    violation.not_restored = dict(list(violation.not_restored.items())[:_KEPT])
    return violation, message


def enforce_policy(limits: RunPlan, files: list[FileChange], before: Snapshot | None, verdict: Verdict,
                   pre_run: dict[str, PreRun] | None = None
                   ) -> tuple[Verdict, PolicyViolation | None]:
    """A finished run: on a violation, a POLICY_VIOLATION verdict (the worker's own outcome in its message)."""
    violation, message = apply_policy(limits, files, before, pre_run)
    return policy_verdict(verdict, message, ""), violation


def policy_verdict(verdict: Verdict, broke: str, outside: str) -> Verdict:
    """A finished run's verdict: POLICY_VIOLATION when it broke its limits (``broke``: apply_policy's sentence) or
    changed files outside its workspace (``outside``: outside_violation's line), the worker's own outcome kept in
    the message; else ``verdict`` as it is."""
    if not broke and not outside:
        return verdict
    if broke and outside:
        message = broke.replace(_BROKE, f"{_BROKE}{outside}; ", 1)
    else:
        message = broke or _BROKE + outside
    if verdict.status is not Status.SUCCESS:
        message += f". The worker itself ended {verdict.status.value}: {verdict.message[:300]}"
    return Verdict(status=Status.POLICY_VIOLATION, message=message[:2000], hint=VIOLATION_HINT, retryable=False)


HIJACKED = ("the worker repointed its worktree's .git file away from the worktree's own git dir; the relay did not "
            "observe or record it (its git commands would have touched your repository's index), and nothing of this "
            "run can be applied")


def outside_violation(violation: PolicyViolation | None, outside: list[str], prefix: str, on_violation: str
                      ) -> tuple[PolicyViolation | None, str]:
    """A worktree run whose change reaches outside its workspace's folder (``outside``: repository-relative
    paths, ``prefix``: the workspace's folder in the repository) broke its policy, whatever else it did: the
    violation gains the "workspace" rule, and the line saying it ("" when nothing is outside). Those files live
    only in the run's worktree: apply refuses the run, so nothing of them reaches the user's tree (issue 22, D1)."""
    if not outside:
        return violation, ""
    shown = [os.path.relpath(p, prefix) for p in outside]  # as seen from the workspace: "../Makefile"
    line = f"workspace ({prefix}): {len(shown)} file(s) changed outside it, in the run's worktree: {name_files(shown)}"
    return _workspace_rule(violation, on_violation, line, shown,
                           "outside the run's workspace: left in the run's worktree, never applied"), line


def _workspace_rule(violation: PolicyViolation | None, on_violation: str, line: str, files: list[str],
                    why: str) -> PolicyViolation:
    """``violation`` (or a new one) with the "workspace" rule first: its ``line``, its ``files``, and on a revert
    each file named as not put back, ``why``."""
    if violation is None:
        violation = PolicyViolation(rules=[], on_violation="revert" if on_violation == "revert" else "keep")
    violation.rules = ["workspace", *violation.rules]
    violation.limits = [line, *violation.limits]
    violation.files = [*files, *violation.files][:_KEPT]
    if violation.on_violation == "revert":
        left = dict.fromkeys(files, why)
        violation.not_restored = dict(list({**left, **violation.not_restored}.items())[:_KEPT])
    return violation


def above_violation(violation: PolicyViolation | None, above: list[str], limits: RunPlan | RecordPlan
                    ) -> tuple[PolicyViolation | None, str]:
    """An in-place run with limits (any of them) in a sub-folder of a repository that changed files of the repository
    outside that folder (``above``: as seen from the workspace, ``../setup.py``; relay.observe.above) broke its policy:
    no pattern of a profile reaches them and no count holds them. The violation gains the "workspace" rule; they are
    never put back (the relay keeps no copy of what lies outside the workspace): the violation says so."""
    if not above or not (limits.paths or limits.protected or limits.max_files is not None
                         or limits.max_lines is not None):
        return violation, ""
    line = (f"workspace: {len(above)} file(s) changed outside it, in the repository around it: {name_files(above)} "
            "(not put back: check them yourself)")
    return _workspace_rule(violation, limits.on_violation, line, above,
                           "outside the run's workspace: the relay keeps no copy of it"), line


def runs_next_violation(violation: PolicyViolation | None, runs_next: list[str], limits: RunPlan | RecordPlan
                        ) -> tuple[PolicyViolation | None, str]:
    """A run with limits (any of them) that wrote where code runs next inside a folder git ignores (``runs_next``:
    ``.venv/bin/activate``, a package's scripts, a ``.pth``; a link made there out of the repository;
    relay.observe.runs_next) broke its policy: no tree holds those files, so no pattern reaches them and no count
    holds them. The violation gains the "runs_next" rule; they are never put back (the relay keeps no copy)."""
    if not runs_next or not (limits.paths or limits.protected or limits.max_files is not None
                             or limits.max_lines is not None):
        return violation, ""
    line = (f"runs_next: {len(runs_next)} file(s) written where code runs next, in folders git ignores: "
            f"{name_files(runs_next)} (not put back: check them yourself)")
    if violation is None:
        violation = PolicyViolation(rules=[], on_violation="revert" if limits.on_violation == "revert" else "keep")
    violation.rules = [*violation.rules, "runs_next"]
    violation.limits = [*violation.limits, line]
    violation.files = [*violation.files, *runs_next][:_KEPT]
    if violation.on_violation == "revert":
        left = dict.fromkeys(runs_next, "in a folder git ignores: the relay keeps no copy of it")
        violation.not_restored = dict(list({**violation.not_restored, **left}.items())[:_KEPT])
    return violation, line


def unobserved_violation(violation: PolicyViolation | None, limits: RunPlan | RecordPlan, note: str | None
                         ) -> tuple[PolicyViolation | None, str]:
    """A run with limits whose change the relay could not look at after it (the look failed: the worker's report is
    all there was) broke its policy: no limit can be said to hold on the worker's word alone (a worker that made
    a ``.gitignore`` a FIFO held git until its timeout, and a protected file it wrote and did not report passed).
    The violation gains the "observed" rule, and the line saying it ("" when the run has no limits)."""
    if not (limits.paths or limits.protected or limits.max_files is not None or limits.max_lines is not None):
        return violation, ""
    line = (f"observed: the relay could not observe the workspace after the run ({note or 'no look'}), and the "
            "worker's own report proves no limit held")
    if violation is None:
        violation = PolicyViolation(rules=[], on_violation="revert" if limits.on_violation == "revert" else "keep")
    violation.rules = [*violation.rules, "observed"]
    violation.limits = [*violation.limits, line]
    return violation, line


def git_dir_violation(violation: PolicyViolation | None, git_dir: dict[str, str], limits: RunPlan | RecordPlan,
                      before: Snapshot | None, unrestored: str | None) -> tuple[PolicyViolation | None, str]:
    """A run with limits (any of them) that planted in the repository's git dir something git runs (``git_dir``:
    relay.observe.git_dir's findings, shown path -> what) broke its policy: those files lie outside every path a
    profile can allow, and a count (``max_files``, ``max_lines``) asks for a bounded change, which a program planted
    for the person's next git command never is (it is not in the counted files: git's trees hold no git dir).
    The violation gains the "git_dir" rule; with ``revert`` each file gets its bytes
    from before the run back (kept beside the snapshot; ``unrestored``: why not, at recovery)."""
    if not git_dir or not (limits.paths or limits.protected or limits.max_files is not None
                           or limits.max_lines is not None):
        return violation, ""
    shown = list(git_dir)
    line = f"git_dir: {len(shown)} file(s) of the repository's git dir now make git run a program: {name_files(shown)}"
    if violation is None:
        violation = PolicyViolation(rules=[], on_violation="revert" if limits.on_violation == "revert" else "keep")
    violation.rules = [*violation.rules, "git_dir"]
    violation.files = [*violation.files, *shown][:_KEPT]
    if violation.on_violation == "revert":
        if unrestored is not None or before is None or not before.dir:
            left = {p: unrestored or "the relay took no snapshot before the run" for p in shown}
            restored: list[str] = []
        else:
            restored, left = put_back(before.dir, shown)
        violation.restored = [*violation.restored, *restored][:_KEPT]
        violation.not_restored = dict(list({**violation.not_restored, **left}.items())[:_KEPT])
        line += f". Put back {len(restored)} to their pre-run bytes" + (
            f"; could not put back {name_files(list(left))} ({next(iter(left.values()))})" if left else "")
    violation.limits = [*violation.limits, line]
    return violation, line
