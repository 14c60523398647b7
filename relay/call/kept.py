"""A worktree run whose change could not be recorded (``relay.isolate.pool``: ``wN.kept``): what a continue or an
apply of it says.

Its change is not on its branch: the repository's git config defined a hook git 2.54+ runs when the relay recorded
it, and it is kept as the worker left it in the run's worktree, which the pool hands to no other run. A continue
was refused for want of a conversation (the record holds none: the refusal came before the worker's answer was
read), apply said there was nothing to apply, and neither said where the change is; a continue that resumed the
conversation (by its id) started from the run's base, without it. Both are refused naming the worktree and how to
get the change out of it. Not continued in that worktree: the change was never recorded, so the relay cannot say
what the next turn would build on (what a process the worker left, or the user, wrote there since counts the same),
and every git step there would read the config whose hook stopped the record: a person looks at both first.

That stays so after the hook is removed (the same two reasons hold). What the refusal gives instead is the way on
with the worker's context: the run's agy conversation is recorded whatever ended the run after the worker answered
(``relay.call.orchestrate``), and the refusal names it, with the continue by ``conversation_id`` that resumes it in
the workspace once the person has brought in the part of the change they want.
"""

from __future__ import annotations

from pathlib import Path

from relay.core.contracts import RunRecord, Status
from relay.core.errors import RelayError
from relay.isolate.pool import change_kept

__all__ = ["refuse_kept"]


def refuse_kept(data_dir: Path, record: RunRecord, doing: str) -> None:
    """CONFLICTING_OPTIONS when ``record``'s change is kept unrecorded in its worktree; ``doing``: what was not done
    (``"the continue was not started: it would begin without that change"``)."""
    isolation = record.isolation
    if not isolation.branch or not change_kept(data_dir, isolation.worktree, record.run_id):
        return
    worktree = isolation.worktree
    raise RelayError(
        Status.CONFLICTING_OPTIONS,
        f"run {record.run_id}'s change was never recorded on branch {isolation.branch} (the repository's git config "
        f"defined a hook that git 2.54+ would run as the relay recorded it): it is kept as the worker left it in "
        f"worktree {worktree}; {doing}",
        f"First remove the [hook] section(s) from the repository's git config (`git config --show-origin "
        f"--get-regexp '^hook\\.'` lists them: git would run them in that worktree too); then look at the change "
        f"(`git -C {worktree} status`, `git -C {worktree} diff`), copy the files you want into "
        f"{record.plan.workspace} (or commit them in that worktree yourself), and {_next_turn(record)}. The worktree "
        f"goes when retention removes run {record.run_id}.")


def _next_turn(record: RunRecord) -> str:
    """How the work goes on from the workspace: the run's conversation resumed when the record names one."""
    cid = record.outcome.conversation_id
    if not cid:
        return "start a new antigravity_execute for what is left to do"
    return (f"resume the worker's conversation there with antigravity_continue(conversation_id=\"{cid}\", "
            f"workspace=\"{record.plan.workspace}\", feedback=\"...\") (a new antigravity_execute starts without "
            f"that context)")
