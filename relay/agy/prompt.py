"""The worker's prompt: the leader's task plus what the server always adds.

Constraints from the profile and GRAVITY_RELAY_FIXED_CONSTRAINTS are appended
here, server-side, so the leader never spends tokens repeating them. A prompt
too large for argv is written to a file the worker is told to read.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from relay.core.files import own_folder, write_own

__all__ = ["NO_DELEGATION", "compose_prompt", "compose_feedback", "limit_lines", "argv_safe_prompt", "prompt_fits",
           "ARGV_PROMPT_LIMIT", "COMMAND_LINE_LIMIT"]

# agy-protocol.md §1: prompts travel in argv. Windows caps a command line at 32,767 characters, its terminating NUL
# included, and counts it *after* quoting: list2cmdline writes each `"` as `\"` and doubles the backslashes before
# one, so a prompt of code or JSON grows by a third. What is measured is the whole quoted line, the same on every
# platform (a run moves between machines unchanged); the margin covers what differs between attempts (the attempt
# number in the log file's name). ARGV_PROMPT_LIMIT still caps the prompt's own length.
ARGV_PROMPT_LIMIT = 30_000
COMMAND_LINE_LIMIT = 32_766
_MARGIN = 64

# agy's print mode ends the turn while a subagent still runs, and the worker's answer is then only its narration
# (agy-protocol.md §8.2, §8.6 item 2): the worker is told to do the work itself.
NO_DELEGATION = (
    "Do the work yourself, in this conversation: do not delegate to subagents (invoke_subagent). This run is "
    "headless and ends with your turn, so a subagent's result would be lost."
)
_REPORT_RULES = (
    "When you finish, your final answer is the structured report requested by the JSON schema: "
    "a short summary, every file you created, edited or deleted (workspace-relative), and test counts. "
    "Set tests_run to true only if you actually executed tests; never claim tests you did not run."
)


def _bullets(items: str | list[str] | None) -> list[str]:
    if items is None:
        return []
    if isinstance(items, str):
        items = [line for line in items.splitlines()]
    return [f"- {item.strip().removeprefix('- ')}" for item in items if item.strip()]


def limit_lines(*, paths: list[str] = (), protected: list[str] = (), max_files: int | None = None,
                max_lines: int | None = None, revert: bool = False) -> list[str]:
    """The enforced limits (issue 10), told to the worker up front: the relay checks them after the run."""
    lines = []
    if paths:
        lines.append("- Change only files under: " + ", ".join(paths))
    if protected:
        lines.append("- Never create, edit, delete or rename files matching: " + ", ".join(protected))
    if max_files is not None:
        lines.append(f"- Change at most {max_files} files in total.")
    if max_lines is not None:
        lines.append(f"- Change at most {max_lines} lines in total (added + removed).")
    if not lines:
        return []
    after = " and the violating files are restored to their earlier content" if revert else ""
    return ["# Limits (enforced: the relay checks your change when you finish)", *lines,
            f"A change past these limits fails the run{after}. If the task needs more, stop and say so in your report."]


def compose_prompt(
    *,
    task: str,
    workspace: str,
    constraints: list[str],
    plan: str | None = None,
    acceptance_criteria: str | list[str] | None = None,
    paths: list[str] | None = None,
    limits: list[str] = (),
) -> str:
    parts = [f"You are working in the project at {workspace}. Make the changes there.", "", "# Task", task.strip()]
    if plan and plan.strip():
        parts += ["", "# Plan", plan.strip()]
    criteria = _bullets(acceptance_criteria)
    if criteria:
        parts += ["", "# Acceptance criteria", *criteria]
    if paths and not limits:  # the limits name the paths themselves
        parts += ["", "# Scope", "Change only files under: " + ", ".join(paths)]
    rules = _bullets(constraints)
    if rules:
        parts += ["", "# Constraints (from the project's owner; always apply)", *rules]
    if limits:
        parts += ["", *limits]
    parts += ["", "# Working", NO_DELEGATION, "", "# Report", _REPORT_RULES]
    return "\n".join(parts)


def compose_feedback(*, feedback: str, constraints: list[str], limits: list[str] = ()) -> str:
    parts = ["# Follow-up from the reviewer", feedback.strip()]
    rules = _bullets(constraints)
    if rules:
        parts += ["", "# Constraints (still apply)", *rules]
    if limits:
        parts += ["", *limits]
    parts += ["", "# Working", NO_DELEGATION, "", "# Report", _REPORT_RULES]
    return "\n".join(parts)


def prompt_fits(prompt: str, argv_before: Sequence[str] = ()) -> bool:
    """Can ``prompt`` go on the command line after ``argv_before`` (agy's argv up to its ``--print=``)?"""
    if len(prompt) > ARGV_PROMPT_LIMIT:
        return False
    return len(subprocess.list2cmdline([*argv_before, f"--print={prompt}"])) + _MARGIN <= COMMAND_LINE_LIMIT


def argv_safe_prompt(prompt: str, spill_dir: Path, run_id: str, argv_before: Sequence[str] = ()
                     ) -> tuple[str, str | None]:
    """Return the prompt to put in argv and, when it does not fit (``prompt_fits``), the folder holding the full text.

    The caller must add that folder with ``--add-dir`` so the worker may read it.
    """
    if prompt_fits(prompt, argv_before):
        return prompt, None
    # The folder and the file in the data dir are the relay's own: a link planted in place of either is replaced,
    # never written through (relay.core.files).
    folder = own_folder(spill_dir / f"{run_id}.prompt")
    path = folder / "TASK.md"
    write_own(path, prompt.encode("utf-8"))
    short = (
        f"Your full task is too long for the command line. Read it first from {path} "
        "and follow it exactly; it ends with how to report."
    )
    return short, str(folder)
