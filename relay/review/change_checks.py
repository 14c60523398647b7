"""What each rule of ``relay.review.rules`` looks for in the shape and place of a change, not its lines.

A file deleted, a symlink, a binary or submodule, an executable bit set; a path outside the task's, a file the
worker's report does not name, a write outside the workspace or where code runs next; a file's size, and agy's own
configuration carried by the repository. Each check is read as those of ``relay.review.checks`` are: nothing (no
match), True, or a short detail that fills the rule's reason.
"""

from __future__ import annotations

import posixpath
import re

from relay.core.path_globs import matches_any
from relay.review.agent_instructions import agent_reads
from relay.review.checks import Detail, lines
from relay.review.facts import FileFacts, RiskContext
from relay.review.file_kinds import is_test_path

__all__ = [
    "agy_config", "binary", "deleted_file", "escapes_workspace", "git_dir_plant", "huge", "large_hunk", "mode_change", "not_mentioned", "not_observed", "outside_paths", "seen_beyond_git", "submodule", "symlink", "symlink_escapes", "type_change"
]


def deleted_file(f: FileFacts, ctx: RiskContext) -> Detail:
    if is_test_path(f.path):
        return None
    return lines(f.change.deletions) if f.change.deletions else True


# ----- links, bits, binaries


def symlink_escapes(f: FileFacts, ctx: RiskContext) -> Detail:
    c = f.change
    if not c.symlink or not c.added_lines:
        return None
    target = c.added_lines[0]
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(c.path), target))
    if target.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", target) or joined == ".." or joined.startswith("../"):
        return target[:60]
    return None


def symlink(f: FileFacts, ctx: RiskContext) -> Detail:
    return f.change.symlink


def binary(f: FileFacts, ctx: RiskContext) -> Detail:
    return f.change.binary and not f.change.submodule


def submodule(f: FileFacts, ctx: RiskContext) -> Detail:
    return f.change.submodule


def mode_change(f: FileFacts, ctx: RiskContext) -> Detail:
    # Only the executable bit of a regular file, and only when it is set: a file that can now be run
    # is worth a look, one that no longer can is not (fastjson 1.2.69 cleared it on 900 files, and
    # the fixed file fell out of the targets behind them). A file <-> symlink swap is a type change.
    c = f.change
    if c.mode_before in ("100644", "100664") and c.mode_after == "100755":
        return f"{c.mode_before} → {c.mode_after}"
    return None


def type_change(f: FileFacts, ctx: RiskContext) -> Detail:
    return True


# ----- the call: the task's paths, the worker's report, what git could not see


def outside_paths(f: FileFacts, ctx: RiskContext) -> Detail:
    # The rules the enforcement after the run uses (relay.core.path_globs), so a flag and a refusal agree.
    c = f.change
    fold = ctx.fold_case
    if not ctx.paths or matches_any(c.path, ctx.paths, fold_case=fold) or (
            c.old_path and matches_any(c.old_path, ctx.paths, fold_case=fold)):
        return None
    return ", ".join(p[:30] for p in ctx.paths[:2]) + (" …" if len(ctx.paths) > 2 else "")


def not_mentioned(f: FileFacts, ctx: RiskContext) -> Detail:
    if ctx.claimed is None:
        return False
    c = f.change
    return c.path not in ctx.claimed and not (c.old_path and c.old_path in ctx.claimed)


def escapes_workspace(f: FileFacts, ctx: RiskContext) -> Detail:
    if f.path in ctx.escapes or f.path in ctx.above:  # through a symlink, or beside a sub-folder workspace
        return ctx.above.get(f.path) or ctx.outside.get(f.path) or f"written through the symlink {ctx.escapes[f.path]}, outside the workspace"
    if ctx.workspace_gone and f.path == ".":
        return "the worker deleted the whole workspace"
    return None


def not_observed(f: FileFacts, ctx: RiskContext) -> Detail:
    return ctx.unobserved.get(f.path)


def git_dir_plant(f: FileFacts, ctx: RiskContext) -> Detail:  # in the git dir, or where code runs in an ignored folder
    return ctx.git_dir.get(f.path) or ctx.runs_next.get(f.path)


def seen_beyond_git(f: FileFacts, ctx: RiskContext) -> Detail:
    return ctx.outside.get(f.path)


# ----- size


def huge(f: FileFacts, ctx: RiskContext) -> Detail:
    if f.kind == "test" and (f.change.deletions < ctx.large_hunk or not f.is_code):
        # Thousands of new test lines (a fixture table) are more tests, and a regenerated data file (a fuzz
        # corpus, a snapshot) is data; removed test code is caught below.
        return None
    return f"{f.size:,} lines"


def large_hunk(f: FileFacts, ctx: RiskContext) -> Detail:
    # Many new test lines are more tests, not a risk; many removed ones are caught below.
    if f.largest_hunk >= ctx.large_hunk and not (f.kind == "test" and f.change.deletions < ctx.large_hunk):
        return f"{f.largest_hunk:,} lines in one hunk"
    if f.change.kind != "deleted" and f.change.deletions >= ctx.large_hunk:
        return f"removes {f.change.deletions:,} lines"
    return None


# ----- agy's own configuration, carried by the repository (agy-protocol.md §8.4)

_AGY_PROGRAMS = frozenset({"mcp_config.json", "hooks.json"})
_AGY_RULES = frozenset({"agents.md", "gemini.md"})


def agy_config(f: FileFacts, ctx: RiskContext) -> Detail:
    """A file agy loads from the workspace into every later worker run: MCP servers and hooks it starts (no trust
    gate in print mode), or rules it reads into the worker's instructions. Names which, with the path."""
    parts = f.path.lower().split("/")
    if ".agents" in parts[:-1]:
        what = "MCP servers or hooks agy starts" if parts[-1] in _AGY_PROGRAMS else "agy loads it"
    elif parts[-1] in _AGY_RULES:
        what = "rules agy reads into the worker's instructions"
    else:
        # The leader's own client reads the same checkout (round 124): what the worker writes there, the leader obeys or runs.
        leader = agent_reads(f.path)
        return f"the leader's agent configuration ({leader})" if leader else None
    return f"agy configuration ({f.path}: {what})"

