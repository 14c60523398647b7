"""What a run changed, and whether it kept its policy: one function for every way a run ends.

A run that finished, one stopped before its end (cancelled, its client gone, a failure inside the relay)
and one whose relay died (recovery) are all observed and judged by ``judge_change``: observe; check the
policy, restoring the violating files when the plan says revert and the relay may; observe again when
files were restored (the run's patch is then what is left in the tree); a worktree run's change outside
its workspace (issue 22, D1). Only what the ending says differs: a finished run becomes
POLICY_VIOLATION (``Judged.verdict``), a stopped one keeps its status and names the violation in its
message (``Judged.said``), and recovery checks without restoring (the files may have been edited since).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

import anyio

from relay.agy.classify import Verdict
from relay.call.enforce import (above_violation, apply_policy, git_dir_violation, outside_violation, policy_verdict,
                                runs_next_violation, unobserved_violation)
from relay.call.policy import RunPlan
from relay.core.contracts import PolicyViolation, RecordPlan
from relay.observe.changes import ChangeSet
from relay.observe.permissions import PreRun
from relay.observe.snapshot import Snapshot

__all__ = ["Judged", "judge_change", "judged_within"]

# A worktree run: (its paths outside the workspace, the workspace's folder in the repository); None for other runs.
Outside = Callable[[], "tuple[list[str], str] | None"]


@dataclass
class Judged:
    """A run's observed change and the policy it broke (None: kept), with the sentences that say so."""

    changeset: ChangeSet
    violation: PolicyViolation | None = None
    broke: str = ""  # the limits it broke and what was restored ("" when none)
    outside: str = ""  # what it changed outside its workspace, or that it could not be observed ("" when neither)
    ms: int = 0  # how long the first look took (the record's observation.ms)

    def verdict(self, verdict: Verdict) -> Verdict:
        """A finished run's verdict: POLICY_VIOLATION when it broke its policy (its own outcome kept in the message)."""
        return policy_verdict(verdict, self.broke, self.outside)

    @property
    def said(self) -> str:
        """What a stopped run's message adds: the policy it broke, before it was stopped."""
        return "; ".join(filter(None, [self.broke, self.outside]))


def judge_change(observe: Callable[[bool], ChangeSet], limits: RunPlan | RecordPlan, *, before: Snapshot | None,
                 pre_run: dict[str, PreRun] | None = None, outside: Outside | None = None,
                 checked: Collection[str] | None = None, unrestored: str | None = None,
                 data_dir: Path | None = None) -> Judged:
    """Observe the run's change and judge it against ``limits`` (see the module's docstring). In a worker thread.

    ``observe(again)`` looks at the workspace and writes the run's patch (``again``: after a restore, for the
    patch only); ``checked``: the paths provably the run's (None: every observed path); ``unrestored``: why
    nothing is restored, when the relay must not (recovery); ``data_dir``: where a revert ledgers its temp files."""
    started = time.monotonic()
    changeset = observe(False)
    ms = int((time.monotonic() - started) * 1000)
    files = changeset.files if checked is None else [c for c in changeset.files if c.path in checked]
    # In no tree: judged, and put back, below; outside an in-place workspace (relay.observe.above): judged below too.
    files = [c for c in files if c.path not in changeset.git_dir and c.path not in changeset.above
             and c.path not in changeset.runs_next]  # in no tree either: judged below, never put back
    violation, broke = apply_policy(limits, files, before, pre_run, unrestored=unrestored, data_dir=data_dir)
    if violation is not None and violation.restored:
        # The packet keeps listing what the worker did; the patch is what is left in the tree, so `runs revert`
        # undoes the rest instead of refusing over the files already restored.
        observe(True)
    line = ""
    beyond = outside() if outside is not None else None
    if beyond is not None:
        violation, line = outside_violation(violation, *beyond, limits.on_violation or "keep")
    violation, planted = git_dir_violation(violation, changeset.git_dir, limits, before, unrestored)
    violation, above = above_violation(violation, list(changeset.above), limits)
    violation, runs = runs_next_violation(violation, list(changeset.runs_next), limits)
    line = "; ".join(filter(None, [line, planted, above, runs]))
    if changeset.source == "report" and before is not None and before.source != "report":  # the look after failed
        violation, blind = unobserved_violation(violation, limits, changeset.note)
        line = "; ".join(filter(None, [line, blind]))
    return Judged(changeset=changeset, violation=violation, broke=broke, outside=line, ms=ms)


async def judged_within(seconds: float, judge: Callable[[threading.Event], Judged], name: str) -> Judged | None:
    """``judge(abandoned)`` (a stopped run's look) in a thread of its own, waited for ``seconds`` at most: its Judged
    (its exception raised), or None past the bound. Then ``abandoned`` is set (the look writes nothing when it ends)
    and the thread is left to end on its own: a daemon, so a relay that is leaving never waits for a look that hangs."""
    abandoned, done = threading.Event(), threading.Event()
    out: list[Judged | BaseException] = []

    def look() -> None:
        try:
            out.append(judge(abandoned))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, or dropped with an abandoned look
            out.append(exc)
        finally:
            done.set()

    threading.Thread(target=look, name=name, daemon=True).start()
    try:
        ended = await anyio.to_thread.run_sync(done.wait, seconds, abandon_on_cancel=True)
    finally:
        if not done.is_set():
            abandoned.set()
    if not ended:
        return None
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]
