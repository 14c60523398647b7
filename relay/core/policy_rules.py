"""The enforced policy's rules (issue 10), as a pure check of an observed change against a run's limits.

paths      every changed file (both sides of a rename) lies within the allowed paths;
protected  no changed file matches a protected pattern;
max_files  at most this many changed files (a rename counts once);
max_lines  at most this many lines added + removed over the whole change (binary: 0).

In core, below every part that observes a change: a finished or stopped run is checked (and
reverted) by relay.call.enforce, a run whose relay died by recovery (relay.call.recovery), with
the limits its record keeps. Pattern rules: relay.core.path_globs.
"""

from __future__ import annotations

from typing import Protocol

from relay.core.contracts import FileChange, PolicyViolation
from relay.core.path_globs import matches_any
from relay.core.places import folds_case

__all__ = ["PolicyLimits", "check_policy", "name_files"]

_SHOWN = 8  # files named per rule in the message


class PolicyLimits(Protocol):
    """What the check reads: a run's plan, its limits, or its record (on_violation None reads as "keep")."""

    paths: list[str]
    protected: list[str]
    max_files: int | None
    max_lines: int | None
    on_violation: str | None
    workspace: str


def _sides(change: FileChange) -> list[str]:
    return [change.path] + ([change.old_path] if change.old_path else [])


def name_files(paths: list[str]) -> str:
    shown = ", ".join(paths[:_SHOWN])
    return shown + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")


def check_policy(limits: PolicyLimits, files: list[FileChange]) -> PolicyViolation | None:
    """Which rules ``files`` break, with the offending files; None when the change is within the limits."""
    rules: list[str] = []
    lines: list[str] = []
    offending: dict[str, None] = {}
    # Names compared as the workspace's filesystem compares them: on NTFS or APFS a worker's `.ENV` or
    # `.GitHub/workflows/x.yml` is the protected `.env` / `.github/` for every program that opens it.
    fold = folds_case(getattr(limits, "workspace", None)) if limits.paths or limits.protected else False
    # A rename breaking a rule is undone whole: both its sides are offending, the message names the side that broke it.
    if limits.paths:
        outside = [p for c in files for p in _sides(c) if not matches_any(p, limits.paths, fold_case=fold)]
        if outside:
            rules.append("paths")
            bad = set(outside)
            lines.append(f"paths ({', '.join(limits.paths)}): {len(outside)} file(s) outside: {name_files(outside)}")
            offending.update(dict.fromkeys(p for c in files if not set(_sides(c)).isdisjoint(bad) for p in _sides(c)))
    if limits.protected:
        touched = [p for c in files for p in _sides(c) if matches_any(p, limits.protected, fold_case=fold)]
        if touched:
            rules.append("protected")
            bad = set(touched)
            lines.append(f"protected ({', '.join(limits.protected)}): {len(touched)} file(s) touched: {name_files(touched)}")
            offending.update(dict.fromkeys(p for c in files if not set(_sides(c)).isdisjoint(bad) for p in _sides(c)))
    whole = [p for c in files for p in _sides(c)]
    if limits.max_files is not None and len(files) > limits.max_files:
        rules.append("max_files")
        lines.append(f"max_files {limits.max_files}: {len(files)} files changed")
        offending.update(dict.fromkeys(whole))
    total = sum(c.additions + c.deletions for c in files)
    if limits.max_lines is not None and total > limits.max_lines:
        rules.append("max_lines")
        lines.append(f"max_lines {limits.max_lines}: {total} lines changed (added + removed)")
        offending.update(dict.fromkeys(whole))
    if not rules:
        return None
    return PolicyViolation(rules=rules, limits=lines, files=list(offending),
                           on_violation="revert" if limits.on_violation == "revert" else "keep")
