"""git's own patches: asked for in as few ``git diff -U0`` calls as fit, parsed into changes.

Why it exists: a path clean before the run has HEAD as its before-content, which git diffs far
faster than Python; its output (C-quoted paths, mode lines, binary markers, a type change as two
patches) becomes the same ``FileChange`` and line sample ``relay.observe.diff`` gives the rest.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from relay.core.contracts import FileChange
from relay.observe.diff import HUNK_LINES, LineSample, fill_counts, mark_mode_only
from relay.observe.git import run_git
from relay.observe.snapshot import RepoState

__all__ = ["git_patches", "parse_patch", "patch_change"]

# Past this many paths one unrestricted diff beats pathspec matching (see git_patches).
_PATHSPEC_MAX = 48
# Argument lists stay well under every platform's limit.
_ARGV_CHUNK_BYTES = 64 * 1024

_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13, ord('"'): 34, ord("\\"): 92}


def _unquote(quoted: bytes) -> tuple[bytes, int]:
    """Decode one C-quoted git path starting at quoted[0] == '"'; returns (bytes, end index)."""
    out = bytearray()
    i = 1
    while i < len(quoted):
        ch = quoted[i]
        if ch == 0x22:
            return bytes(out), i + 1
        if ch == 0x5C and i + 1 < len(quoted):
            nxt = quoted[i + 1]
            if 0x30 <= nxt <= 0x37:
                out.append(int(quoted[i + 1 : i + 4], 8) & 0xFF)
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return bytes(out), i


def _header_path(rest: bytes) -> str:
    """The path of ``diff --git a/P b/P`` (renames are off, so both names are the same P)."""
    if rest.startswith(b'"'):
        raw, _ = _unquote(rest)
        return os.fsdecode(raw[2:])
    length = (len(rest) - 5) // 2
    return os.fsdecode(rest[2 : 2 + length])


@dataclass(slots=True)
class _Patch:
    path: str
    acc: LineSample
    kind: str = "modified"
    mode_before: str | None = None
    mode_after: str | None = None
    binary: bool = False


def parse_patch(out: bytes, wanted: set[str] | None = None) -> dict[str, list[_Patch]]:
    """Split ``git diff -U0`` output into per-path patches (a type change gives two).

    With ``wanted``, patches of other paths are stepped over without being sampled.
    """
    patches: dict[str, list[_Patch]] = {}
    cur: _Patch | None = None
    skip = False
    old_left = new_left = 0
    for line in out.split(b"\n"):
        if old_left or new_left:
            # Inside a hunk the counts decide, so a removed line reading "--- a/x" or
            # "diff --git" is content, never a header.
            if line.startswith(b"-") and old_left:
                old_left -= 1
                if not skip:
                    cur.acc.line("-", line[1:])  # type: ignore[union-attr]
            elif line.startswith(b"+") and new_left:
                new_left -= 1
                if not skip:
                    cur.acc.line("+", line[1:])  # type: ignore[union-attr]
            continue
        if line.startswith(b"diff --git "):
            path = _header_path(line[len(b"diff --git ") :])
            skip = wanted is not None and path not in wanted
            cur = _Patch(path, LineSample(path))
            if not skip:
                patches.setdefault(cur.path, []).append(cur)
        elif cur is None or line.startswith(b"\\"):
            continue
        elif line.startswith(b"@@ "):
            old_part, new_part = line.split(b" ", 3)[1:3]
            old_count = int(old_part.split(b",")[1]) if b"," in old_part else 1
            new_start, _, new_count_raw = new_part[1:].partition(b",")
            new_count = int(new_count_raw) if new_count_raw else 1
            cur.acc.hunk(int(new_start), old_count, new_count)
            old_left, new_left = old_count, new_count
        elif line.startswith(b"new file mode "):
            cur.kind, cur.mode_after = "added", line[14:].decode()
        elif line.startswith(b"deleted file mode "):
            cur.kind, cur.mode_before = "deleted", line[18:].decode()
        elif line.startswith(b"old mode "):
            cur.mode_before = line[9:].decode()
        elif line.startswith(b"new mode "):
            cur.mode_after = line[9:].decode()
        elif line.startswith(b"index ") and b" " in line[6:]:
            mode = line.rsplit(b" ", 1)[1].decode()
            cur.mode_before = cur.mode_before or mode
            cur.mode_after = cur.mode_after or mode
        elif line.startswith(b"Binary files "):
            cur.binary = True
    return patches


def patch_change(out_path: str, parts: list[_Patch]) -> FileChange:
    first, last = parts[0], parts[-1]
    modes = {m for p in parts for m in (p.mode_before, p.mode_after) if m}
    change = FileChange(path=out_path, kind=first.kind)  # type: ignore[arg-type]
    if len(parts) > 1:
        change.kind = "type"  # git writes a file <-> symlink swap as a deletion plus an addition
    change.symlink = "120000" in modes
    change.submodule = "160000" in modes
    change.binary = any(p.binary for p in parts)
    mode_b = first.mode_before
    mode_a = last.mode_after
    if mode_b and mode_a and mode_b != mode_a:
        change.mode_before, change.mode_after = mode_b, mode_a
    acc = LineSample(out_path)
    for p in parts:
        acc.additions += p.acc.additions
        acc.deletions += p.acc.deletions
        acc.ranges += p.acc.ranges
        acc.added += p.acc.added
        acc.removed += p.acc.removed
    acc.added, acc.removed = acc.added[:HUNK_LINES], acc.removed[:HUNK_LINES]
    fill_counts(change, acc)
    if change.kind == "deleted":
        change.ranges = []  # a deleted file has no new lines
    return mark_mode_only(change, not change.binary and not change.additions and not change.deletions)


def _chunks(paths: Sequence[str]) -> Iterable[list[str]]:
    chunk: list[str] = []
    size = 0
    for path in paths:
        if chunk and size + len(path) > _ARGV_CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
        chunk.append(path)
        size += len(path) + 1
    if chunk:
        yield chunk


_DIFF_OPTS = ("--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "--ignore-submodules=dirty", "-U0",
              "--inter-hunk-context=0", "--src-prefix=a/", "--dst-prefix=b/", "--diff-algorithm=myers", "--no-indent-heuristic")


def git_patches(state: RepoState, base: str, paths: list[str]) -> dict[str, list[_Patch]]:
    """The patches of ``paths`` (repository-relative) between ``base`` and the work tree."""
    if len(paths) > _PATHSPEC_MAX:
        # git matches every pathspec against every index entry, so past a few dozen
        # paths one diff of the whole workspace (unchanged files cost a stat) is faster;
        # the patches of paths not asked for are stepped over.
        out = run_git(Path(state.root), "diff", _DIFF_OPTS, values=[base], paths=[state.prefix.rstrip("/") or "."], config=state.config)
        return parse_patch(out, wanted=set(paths))
    parsed: dict[str, list[_Patch]] = {}
    for chunk in _chunks(paths):
        out = run_git(Path(state.root), "diff", _DIFF_OPTS, values=[base], paths=chunk, config=state.config)
        parsed.update(parse_patch(out))
    return parsed
