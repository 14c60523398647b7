"""What the worker really changed: the second look, compared with the snapshot taken before.

Cost: one more status pass (per repository), then work only for the paths that pass
or the snapshot names:

* a path that was clean before and is dirty now: its before-content is HEAD, so one
  ``git diff -U0 <HEAD before> -- <paths>`` for all of them gives hunks and counts (past a
  few dozen paths, one diff of the workspace, whose other patches are skipped: git's
  pathspec matching costs more than the stat pass);
* a path that was already dirty, untracked or ignored before: compared by stat, then by
  content hash; only if it really differs is it diffed, in Python, against the bytes the
  snapshot kept, so the earlier edits are never blamed on the worker;
* a path that vanished and one that appeared with similar content are paired as a rename
  (git only sees renames it was told about with ``git mv``).

Only a bounded sample of changed lines is kept per file: the lines the risk rules read
(``relay.observe.file_kinds.sample_filter``), at most ``SAMPLE_LINES`` of each side, each cut to
``SAMPLE_CHARS``. Ranges are 1-based inclusive line numbers in the new file; a hunk that
only removes lines is marked at the line it was removed after.
"""

from __future__ import annotations

import bisect
import difflib
import os
import posixpath
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import msgspec

from relay.core.contracts import FileChange
from relay.observe.git import GitError, run_git
from relay.observe.file_kinds import is_secret_path, sample_filter
from relay.observe.snapshot import (
    ABSENT,
    SKIP_DIRS,
    Entry,
    RepoState,
    Snapshot,
    TooManyFiles,
    read_bytes,
    read_entry,
    scan_repo,
    walk_tree,
)

__all__ = ["ChangeSet", "observe_changes", "workspace_changed", "normalize_reported", "SAMPLE_LINES", "SAMPLE_CHARS", "MAX_RANGES"]

SAMPLE_LINES = 40
SAMPLE_CHARS = 200
MAX_RANGES = 100
# Files larger than this are not diffed in Python; git handles tracked ones of any size.
_DIFF_READ_LIMIT = 32 * 1024 * 1024
# Rename pairing compares contents pairwise, so both sides are capped.
_RENAME_MAX_SIDE = 200
_RENAME_MAX_BYTES = 1024 * 1024
_RENAME_MIN_SIMILARITY = 0.5
# difflib on the part between common prefix and suffix; above this many line pairs it can be
# slow, so the middle is split on lines that occur once on both sides first (patience diff).
_DIFFLIB_MAX_PRODUCT = 4_000_000
# Files read in Python for one observation (new files, files dirty before); past it, the
# rest are listed without line counts.
_MAX_FILE_READS = 5_000
# Past this many paths one unrestricted diff beats pathspec matching (see _git_batch).
_PATHSPEC_MAX = 48
# Argument lists stay well under every platform's limit.
_ARGV_CHUNK_BYTES = 64 * 1024
_NOTE_CHARS = 600
# Appended to a last line without a newline, so "x" and "x\n" differ as they do in git.
_NO_EOL = b"\0no-newline-at-end"


class ChangeSet(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Every change the relay observed, and how it knows (``source``).

    ``elapsed_ms`` is the whole cost of observation: the snapshot before plus the look
    after. ``note`` says what could not be observed exactly (budgets, fallbacks).
    """

    source: Literal["git", "tree", "report"]
    files: list[FileChange] = []
    elapsed_ms: int = 0
    note: str | None = None
    # Beyond git's (or the walk's) view, path -> why: changes seen by timestamp only
    # (``outside``, also in ``files``), and claims the relay could not confirm (``unseen``).
    outside: dict[str, str] = {}
    unseen: dict[str, str] = {}
    # Writes through a symlink that leads out of the workspace: path -> "link → target".
    escapes: dict[str, str] = {}
    # The workspace itself no longer exists after the run.
    workspace_gone: bool = False


class _Found(Exception):
    """Raised by a comparison asked only whether anything changed."""


# --------------------------------------------------------------------------- one file's hunks


class _Acc:
    """Counts, ranges and the bounded line sample for one file, fed hunk by hunk."""

    __slots__ = ("additions", "deletions", "ranges", "added", "removed", "_keep")

    def __init__(self, path: str) -> None:
        self.additions = 0
        self.deletions = 0
        self.ranges: list[tuple[int, int]] = []
        self.added: list[str] = []
        self.removed: list[str] = []
        self._keep = sample_filter(path)

    def hunk(self, new_start: int, old_count: int, new_count: int) -> None:
        self.additions += new_count
        self.deletions += old_count
        if new_count:
            self.ranges.append((new_start, new_start + new_count - 1))
        else:
            at = max(new_start, 1)
            self.ranges.append((at, at))

    def line(self, sign: str, raw: bytes) -> None:
        side = self.added if sign == "+" else self.removed
        if len(side) >= SAMPLE_LINES:
            return
        text = raw.replace(_NO_EOL, b"").decode("utf-8", "replace")
        if self._keep(text):
            side.append(text[:SAMPLE_CHARS])


def _bounded_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge adjacent hunks, then coarser and coarser, until at most MAX_RANGES remain."""
    gap = 1
    out = sorted(ranges)
    while True:
        merged: list[tuple[int, int]] = []
        for start, end in out:
            if merged and start - merged[-1][1] <= gap:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        if len(merged) <= MAX_RANGES:
            return merged
        out, gap = merged, gap * 4


def _split_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    elif lines:
        # A missing final newline is a difference of its own, as in git.
        lines[-1] += _NO_EOL
    return lines


def _is_binary(data: bytes) -> bool:
    # git's own test: a NUL byte in the first 8000 bytes.
    return b"\0" in data[:8000]


def _opcodes(a: Sequence[bytes], b: Sequence[bytes], a0: int = 0, b0: int = 0) -> list[tuple[int, int, int, int]]:
    """Changed blocks (i1, i2, j1, j2), 0-based half-open, between line lists a and b."""
    lo, n = 0, min(len(a), len(b))
    while lo < n and a[lo] == b[lo]:
        lo += 1
    ha, hb = len(a), len(b)
    while ha > lo and hb > lo and a[ha - 1] == b[hb - 1]:
        ha -= 1
        hb -= 1
    if lo == ha and lo == hb:
        return []
    if lo == ha or lo == hb:
        return [(a0 + lo, a0 + ha, b0 + lo, b0 + hb)]
    mid_a, mid_b = a[lo:ha], b[lo:hb]
    if len(mid_a) * len(mid_b) > _DIFFLIB_MAX_PRODUCT:
        anchors = _unique_anchors(mid_a, mid_b)
        if anchors:
            out: list[tuple[int, int, int, int]] = []
            pi = pj = 0
            for ai, bj in anchors:
                out += _opcodes(mid_a[pi:ai], mid_b[pj:bj], a0 + lo + pi, b0 + lo + pj)
                pi, pj = ai + 1, bj + 1
            out += _opcodes(mid_a[pi:], mid_b[pj:], a0 + lo + pi, b0 + lo + pj)
            return out
        # Nothing in common to anchor on: honest as one replaced block.
        return [(a0 + lo, a0 + ha, b0 + lo, b0 + hb)]
    matcher = difflib.SequenceMatcher(None, mid_a, mid_b, autojunk=True)
    return [
        (a0 + lo + i1, a0 + lo + i2, b0 + lo + j1, b0 + lo + j2)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _unique_anchors(a: Sequence[bytes], b: Sequence[bytes]) -> list[tuple[int, int]]:
    """Lines that occur exactly once in a and once in b, kept in an order both agree on
    (the longest increasing subsequence): the anchors of a patience diff."""
    count_a = Counter(a)
    count_b = Counter(b)
    where_b = {line: j for j, line in enumerate(b) if count_b[line] == 1}
    pairs = [(i, where_b[line]) for i, line in enumerate(a) if count_a[line] == 1 and line in where_b]
    if not pairs:
        return []
    # Longest increasing subsequence on j (patience sorting), O(n log n).
    tails: list[int] = []
    tails_idx: list[int] = []
    prev = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tails_idx.append(k)
        else:
            tails[pos] = j
            tails_idx[pos] = k
        prev[k] = tails_idx[pos - 1] if pos else -1
    out = []
    k = tails_idx[-1]
    while k != -1:
        out.append(pairs[k])
        k = prev[k]
    return out[::-1]


@dataclass(slots=True)
class _Side:
    """One side of a comparison: what kind of thing, its mode and its bytes (None: unknown)."""

    kind: str
    executable: bool = False
    data: bytes | None = None


_ABSENT_SIDE = _Side("absent", data=b"")


def _mode(side: _Side) -> str | None:
    if side.kind == "file":
        return "100755" if side.executable else "100644"
    if side.kind == "link":
        return "120000"
    return None


def _make_change(path: str, before: _Side, after: _Side, *, old_path: str | None = None, notes: list[str] | None = None) -> FileChange | None:
    """Compare two sides of one path in Python (the paths git cannot diff for us)."""
    if before.kind == "absent" and after.kind == "absent":
        return None
    if old_path is not None:
        kind = "renamed"
    elif before.kind == "absent":
        kind = "added"
    elif after.kind == "absent":
        kind = "deleted"
    elif before.kind != after.kind:
        kind = "type"
    else:
        kind = "modified"
    change = FileChange(path=path, kind=kind, old_path=old_path)  # type: ignore[arg-type]
    change.symlink = "link" in (before.kind, after.kind)
    if before.kind not in ("file", "link") and after.kind not in ("file", "link"):
        return change  # a folded folder (nested repository), a FIFO: presence is all there is
    mode_b, mode_a = _mode(before), _mode(after)
    if mode_b and mode_a and mode_b != mode_a:
        change.mode_before, change.mode_after = mode_b, mode_a
    a_data = before.data if before.kind in ("file", "link") else b""
    b_data = after.data if after.kind in ("file", "link") else b""
    if b_data is None and after.kind == "file":
        if notes is not None:
            notes.append(f"{path}: not diffed (too large)")
        return change
    acc = _Acc(path)
    if a_data is None:
        # Before-content was not kept (over the budget): the whole file is shown as the
        # worker's, and the note says why.
        if notes is not None:
            notes.append(f"{path}: before-content not kept, whole file shown")
        a_data = b""
    if _is_binary(a_data) or _is_binary(b_data or b""):
        change.binary = True
        if kind == "modified" and a_data == b_data:
            change.kind = "mode"
        return change
    a_lines, b_lines = _split_lines(a_data), _split_lines(b_data or b"")
    for i1, i2, j1, j2 in _opcodes(a_lines, b_lines):
        acc.hunk(j1 + 1 if j2 > j1 else j1, i2 - i1, j2 - j1)
        for line in a_lines[i1:i2]:
            acc.line("-", line)
        for line in b_lines[j1:j2]:
            acc.line("+", line)
    _fill(change, acc)
    if change.symlink and after.kind == "link" and b_data is not None:
        # The rules judge a symlink by its target, which no sample filter would keep.
        change.added_lines = [os.fsdecode(b_data)[:SAMPLE_CHARS]]
    if kind == "modified" and not acc.additions and not acc.deletions and change.mode_before:
        change.kind = "mode"
    return change


def _fill(change: FileChange, acc: _Acc) -> None:
    change.additions, change.deletions = acc.additions, acc.deletions
    change.ranges = _bounded_ranges(acc.ranges)
    change.added_lines, change.removed_lines = acc.added, acc.removed


# --------------------------------------------------------------------------- git patches


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


class _Patch:
    __slots__ = ("path", "acc", "kind", "mode_before", "mode_after", "binary")

    def __init__(self, path: str) -> None:
        self.path = path
        self.acc = _Acc(path)
        self.kind = "modified"
        self.mode_before: str | None = None
        self.mode_after: str | None = None
        self.binary = False


def _parse_patch(out: bytes, wanted: set[str] | None = None) -> dict[str, list[_Patch]]:
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
            cur = _Patch(path)
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


def _patch_change(out_path: str, parts: list[_Patch]) -> FileChange:
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
    acc = _Acc(out_path)
    for p in parts:
        acc.additions += p.acc.additions
        acc.deletions += p.acc.deletions
        acc.ranges += p.acc.ranges
        acc.added += p.acc.added
        acc.removed += p.acc.removed
    acc.added, acc.removed = acc.added[:SAMPLE_LINES], acc.removed[:SAMPLE_LINES]
    _fill(change, acc)
    if change.kind == "deleted":
        change.ranges = []  # a deleted file has no new lines
    elif change.kind == "modified" and not change.additions and not change.deletions and change.mode_before and not change.binary:
        change.kind = "mode"
    return change


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


_DIFF_OPTS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-renames",
    "--ignore-submodules=dirty",
    "-U0",
    "--inter-hunk-context=0",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--diff-algorithm=myers",
    "--no-indent-heuristic",
)


# --------------------------------------------------------------------------- git comparison


def _same(before: Entry, now: Entry) -> bool | None:
    """True/False when decided; None when only a content hash can tell."""
    if before.kind != now.kind or before.executable != now.executable:
        return False
    if before.kind in ("absent", "dir"):
        return True
    if before.kind == "link":
        return before.digest == now.digest
    if before.stat is not None and before.stat == now.stat:
        return True
    if before.kind == "special" or before.digest is None:
        return False
    return None


class _Observer:
    """Compares before and after states; with ``diff=False`` stops at the first difference."""

    def __init__(self, snapshot: Snapshot, *, diff: bool) -> None:
        self.snapshot = snapshot
        self.store = snapshot.store
        self.diff = diff
        self.changes: list[FileChange] = []
        self.notes: list[str] = []
        # out path -> where its before-content lives (for rename pairing)
        self.origin: dict[str, tuple[RepoState, str, Entry | None]] = {}
        self.reads_left = _MAX_FILE_READS
        self.unread = 0

    def found(self) -> None:
        if not self.diff:
            raise _Found

    # -- git

    def compare_repo(self, before: RepoState, after: RepoState, *, follow_head: bool) -> None:
        subs = set(before.subs) | set(after.subs)
        base = before.head if follow_head else after.head
        candidates: dict[str, Entry | None] = {p: e for p, e in before.entries.items() if p not in subs}
        new_ignored: list[str] = []
        for path, code in after.status.items():
            if path in subs or path in candidates:
                continue
            if code == "ignored" and not is_secret_path(path):
                # New ignored files are build output by the repository's own word; a new
                # secret-looking file is listed anyway, the rest only if ignore rules changed.
                new_ignored.append(path)
                continue
            candidates[path] = None
        if follow_head and before.head != after.head:
            self.found()
            for path in self._head_moves(before, after):
                if path not in subs:
                    candidates.setdefault(path, None)

        batch = self._compare_entries(before, after, candidates, base)
        if batch:
            self._git_batch(before, after, batch, base)
        if new_ignored and any(posixpath.basename(c.path) == ".gitignore" for c in self.changes):
            self.notes.append("ignore rules changed: new ignored files are listed, files in newly ignored folders are not")
            self._git_batch(before, after, [], base, added=new_ignored)
        for sub in sorted(subs):
            self._compare_sub(before, after, sub)

    def _compare_entries(self, before: RepoState, after: RepoState, candidates: dict[str, Entry | None], base: str | None) -> list[str]:
        batch: list[str] = []
        for path, entry in candidates.items():
            abspath = os.path.join(after.root, path)
            out_path = after.out(path)
            if entry is None:
                if base is None or after.status.get(path) in ("untracked", "ignored"):
                    now = read_entry(abspath, want_digest=False)
                    if now.kind == "absent":
                        continue
                    self.found()
                    self._add(self._change(out_path, _ABSENT_SIDE, abspath, now), before, path, None)
                else:
                    self.found()
                    batch.append(path)
                continue
            now = read_entry(abspath, want_digest=False)
            same = _same(entry, now)
            if same is None:
                now = read_entry(abspath, want_digest=True)
                same = now.digest == entry.digest
            if same:
                continue
            self.found()
            data = self.store.content(abspath)
            if entry.kind == "file" and data is None and before.status.get(path) == "tracked" and base is not None:
                # Before-content was over the budget; HEAD is the best before we have.
                self.notes.append(f"{out_path}: before-content not kept, diff is against HEAD")
                batch.append(path)
                continue
            before_side = _Side(entry.kind, entry.executable, data if entry.kind in ("file", "link") else b"")
            self._add(self._change(out_path, before_side, abspath, now), before, path, entry)
        return batch

    def _change(self, out_path: str, before_side: _Side, abspath: str, now: Entry) -> FileChange | None:
        unread = self.unread
        after_side = self._side_now(abspath, now)
        return _make_change(out_path, before_side, after_side, notes=self.notes if self.unread == unread else None)

    def _side_now(self, abspath: str, now: Entry) -> _Side:
        if now.kind == "file":
            if self.reads_left <= 0:
                # A worker that generated tens of thousands of files (an install without a
                # .gitignore) gets them listed, not read; one note says how many.
                self.unread += 1
                return _Side("file", now.executable, None)
            self.reads_left -= 1
            data = read_bytes(abspath, limit=_DIFF_READ_LIMIT + 1)
            if data is None:
                return _ABSENT_SIDE  # gone (or unreadable) since the status pass
            return _Side("file", now.executable, data if len(data) <= _DIFF_READ_LIMIT else None)
        if now.kind == "link":
            try:
                return _Side("link", False, os.fsencode(os.readlink(abspath)))
            except OSError:
                return _ABSENT_SIDE
        return _Side(now.kind, data=b"")

    def _add(self, change: FileChange | None, before: RepoState, path: str, entry: Entry | None) -> None:
        if change is None:
            return
        self.changes.append(change)
        self.origin[change.path] = (before, path, entry)

    def _head_moves(self, before: RepoState, after: RepoState) -> list[str]:
        """Paths whose committed content moved during the run (the worker committed, reset...)."""
        scope = [after.prefix.rstrip("/") or "."]
        if after.head is None:
            return []
        if before.head is None:
            out = run_git(Path(after.root), "ls-tree", ["-r", "-z", "--name-only"], values=[after.head], paths=scope, config=after.config)
        else:
            out = run_git(
                Path(after.root), "diff", ["--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"],
                values=[before.head, after.head], paths=scope, config=after.config,
            )
        return [os.fsdecode(p) for p in out.split(b"\0") if p]

    def _git_batch(self, before: RepoState, after: RepoState, paths: list[str], base: str | None, *, added: Sequence[str] = ()) -> None:
        for path in added:
            abspath = os.path.join(after.root, path)
            now = read_entry(abspath, want_digest=False)
            self._add(self._change(after.out(path), _ABSENT_SIDE, abspath, now), before, path, None)
        if not paths or base is None:
            return
        if len(paths) > _PATHSPEC_MAX:
            # git matches every pathspec against every index entry, so past a few dozen
            # paths one diff of the whole workspace (unchanged files cost a stat) is faster;
            # the patches of paths not asked for are stepped over.
            out = run_git(Path(after.root), "diff", _DIFF_OPTS, values=[base], paths=[after.prefix.rstrip("/") or "."], config=after.config)
            parsed = _parse_patch(out, wanted=set(paths))
        else:
            parsed = {}
            for chunk in _chunks(paths):
                out = run_git(Path(after.root), "diff", _DIFF_OPTS, values=[base], paths=chunk, config=after.config)
                parsed.update(_parse_patch(out))
        for path, parts in parsed.items():
            self._add(_patch_change(after.out(path), parts), before, path, None)

    def _compare_sub(self, before: RepoState, after: RepoState, sub: str) -> None:
        had = sub in before.subs
        b_state, a_state = before.subs.get(sub), after.subs.get(sub)
        out_path = after.out(sub)
        b_head = b_state.head if b_state else None
        a_head = a_state.head if a_state else None
        if b_state and a_state:
            if b_head != a_head:
                self.found()
                self.changes.append(_sub_change(out_path, "modified", b_head, a_head))
            self.compare_repo(b_state, a_state, follow_head=False)
        elif a_state:
            self.found()
            self.changes.append(_sub_change(out_path, "added" if not had else "modified", None, a_head))
        elif b_state:
            self.found()
            gone = not os.path.lexists(os.path.join(after.root, sub))
            self.changes.append(_sub_change(out_path, "deleted" if gone else "modified", b_head, None))

    # -- tree

    def compare_tree(self, before: dict[str, Entry], after: dict[str, Entry]) -> None:
        root = str(self.snapshot.workspace)
        for path in sorted(before.keys() | after.keys()):
            entry = before.get(path, ABSENT)
            abspath = os.path.join(root, path)
            now = after.get(path, ABSENT)
            same = _same(entry, now)
            if same is None:
                now = read_entry(abspath, want_digest=True)
                same = now.digest == entry.digest
            if same:
                continue
            self.found()
            data = self.store.content(abspath) if entry.kind in ("file", "link") else b""
            before_side = _Side(entry.kind, entry.executable, data)
            change = self._change(path, before_side, abspath, now)
            if change is not None:
                self.changes.append(change)
                self.origin[change.path] = (None, path, entry)  # type: ignore[assignment]

    # -- renames

    def pair_renames(self) -> None:
        deleted = [c for c in self.changes if c.kind == "deleted" and not c.submodule and not c.symlink]
        added = [c for c in self.changes if c.kind == "added" and not c.submodule and not c.symlink]
        if not deleted or not added or len(deleted) > _RENAME_MAX_SIDE or len(added) > _RENAME_MAX_SIDE:
            return
        old = self._before_contents(deleted)
        root = str(self.snapshot.workspace)
        new: dict[str, bytes] = {}
        for c in added:
            data = read_bytes(os.path.join(root, c.path), limit=_RENAME_MAX_BYTES + 1)
            if data is not None and len(data) <= _RENAME_MAX_BYTES:
                new[c.path] = data
        scored: list[tuple[float, str, str]] = []
        line_sets = {p: Counter(_split_lines(d)) for p, d in old.items() if not _is_binary(d)}
        for a_path, a_data in new.items():
            a_lines = None if _is_binary(a_data) else Counter(_split_lines(a_data))
            for d_path, d_data in old.items():
                if a_data == d_data:
                    scored.append((1.0, a_path, d_path))
                elif a_lines is not None and d_path in line_sets:
                    d_lines = line_sets[d_path]
                    total = sum(a_lines.values()) + sum(d_lines.values())
                    if total:
                        score = 2 * sum((a_lines & d_lines).values()) / total
                        if score >= _RENAME_MIN_SIMILARITY:
                            scored.append((score, a_path, d_path))
        used_a: set[str] = set()
        used_d: set[str] = set()
        renamed: list[FileChange] = []
        for _, a_path, d_path in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
            if a_path in used_a or d_path in used_d:
                continue
            used_a.add(a_path)
            used_d.add(d_path)
            change = _make_change(a_path, _Side("file", data=old[d_path]), _Side("file", data=new[a_path]), old_path=d_path)
            if change is not None:
                renamed.append(change)
        if renamed:
            self.changes = [c for c in self.changes if c.path not in used_a and c.path not in used_d] + renamed

    def _before_contents(self, deleted: list[FileChange]) -> dict[str, bytes]:
        """Before-content of deleted files: kept by the snapshot, or read from HEAD in one batch."""
        out: dict[str, bytes] = {}
        wanted: dict[str, tuple[RepoState, list[tuple[str, str]]]] = {}
        root = str(self.snapshot.workspace)
        for c in deleted:
            state, path, entry = self.origin.get(c.path, (None, c.path, None))
            if entry is not None or state is None:
                data = self.store.content(os.path.join(state.root if state else root, path))
                if data is not None and len(data) <= _RENAME_MAX_BYTES:
                    out[c.path] = data
            elif state.head and "\n" not in path:
                wanted.setdefault(state.root, (state, []))[1].append((c.path, path))
        for state, items in wanted.values():
            request = b"".join(f"{state.head}:{path}\n".encode("utf-8", "surrogateescape") for _, path in items)
            try:
                blob = run_git(Path(state.root), "cat-file", ["--batch"], config=state.config, input=request)
            except GitError:
                continue
            pos = 0
            for out_path, _ in items:
                header_end = blob.find(b"\n", pos)
                if header_end < 0:
                    break
                header = blob[pos:header_end].split(b" ")
                pos = header_end + 1
                if len(header) == 3 and header[1] == b"blob":
                    size = int(header[2])
                    if size <= _RENAME_MAX_BYTES:
                        out[out_path] = blob[pos : pos + size]
                    pos += size + 1
        return out


def _printable(text: str) -> str:
    # A file name that is not UTF-8 arrives with surrogate escapes (so it could be opened);
    # the record and the packet are JSON, so such bytes are shown as U+FFFD.
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _printable_change(change: FileChange) -> FileChange:
    change.path = _printable(change.path)
    if change.old_path is not None:
        change.old_path = _printable(change.old_path)
    if change.symlink:
        change.added_lines = [_printable(line) for line in change.added_lines]
    return change


def _sub_change(path: str, kind: str, old: str | None, new: str | None) -> FileChange:
    change = FileChange(path=path, kind=kind, submodule=True)  # type: ignore[arg-type]
    if old:
        change.removed_lines = [f"Subproject commit {old}"]
        change.deletions = 1
    if new:
        change.added_lines = [f"Subproject commit {new}"]
        change.additions = 1
    return change


# --------------------------------------------------------------------------- entry points


def normalize_reported(reported: Iterable[str], workspace: Path | None = None) -> list[str]:
    """The worker's paths as workspace-relative POSIX paths; ones outside the workspace are dropped."""
    ws = str(workspace).replace("\\", "/").rstrip("/") + "/" if workspace else None
    out: list[str] = []
    for raw in reported:
        path = str(raw).strip().replace("\\", "/")
        if not path:
            continue
        if ws and path.startswith(ws):
            path = path[len(ws) :]
        elif path.startswith("/") and ws:
            continue
        path = posixpath.normpath(path).lstrip("/")
        if path in (".", "") or path == ".." or path.startswith("../"):
            continue
        if path not in out:
            out.append(path)
    return out


def _report_changes(workspace: Path, reported: Iterable[str]) -> list[FileChange]:
    out = []
    for path in normalize_reported(reported, workspace):
        exists = os.path.lexists(workspace / path)
        out.append(FileChange(path=path, kind="modified" if exists else "deleted", reasons=["from the worker's report"]))
    return out


def _join_notes(*parts: str | None) -> str | None:
    seen = list(dict.fromkeys(p for p in parts if p))
    if not seen:
        return None
    text = "; ".join(seen)
    return text if len(text) <= _NOTE_CHARS else text[: _NOTE_CHARS - 1] + "…"


def _rescan(before: Snapshot) -> RepoState:
    assert before.repo is not None
    root, prefix = before.repo.root, before.repo.prefix
    if not os.path.isdir(root):
        raise GitError("the repository is gone")
    return scan_repo(root, prefix, store=None)


def observe_changes(before: Snapshot, workspace: Path, *, reported: Sequence[str] = ()) -> ChangeSet:
    """Everything that changed in ``workspace`` since ``before`` was taken, by the relay's own eyes."""
    started = time.perf_counter()
    ws = Path(os.path.abspath(workspace))
    if not ws.is_dir():
        # The worker deleted the workspace itself: one change, said loudly (see _gone).
        return _gone(before, ws, started)
    ws = ws.resolve()
    observer = _Observer(before, diff=True)
    source = before.source
    fallback_note = None
    after: RepoState | None = None
    try:
        if before.source == "git":
            after = _rescan(before)
            observer.compare_repo(before.repo, after, follow_head=True)  # type: ignore[arg-type]
        elif before.source == "tree":
            observer.compare_tree(before.tree or {}, walk_tree(str(ws), store=None))
    except (GitError, TooManyFiles, OSError) as exc:
        fallback_note = f"could not observe the workspace after the run ({exc}); files are the worker's report"
        source = "report"
    if source == "report":
        files = _report_changes(ws, reported)
    else:
        observer.pair_renames()
        files = sorted((_printable_change(c) for c in observer.changes), key=lambda c: c.path)
    notes = observer.notes
    if observer.unread:
        notes.insert(0, f"{observer.unread:,} files listed without line counts (past {_MAX_FILE_READS:,} files read)")
    budget_notes = "; ".join(notes[:3]) + (f" (+{len(notes) - 3} more)" if len(notes) > 3 else "") if notes else None
    result = ChangeSet(source=source, files=files, note=_join_notes(before.note, fallback_note, budget_notes))
    if source != "report":
        _beyond_view(result, before, after, ws, reported)
    result.elapsed_ms = before.elapsed_ms + int((time.perf_counter() - started) * 1000)
    return result


# --------------------------------------------------------------------------- beyond the view

# Timestamps are compared with the snapshot's start less this slack: the kernel stamps files
# with a coarse clock that may lag time.time_ns() by a tick or two.
_CLOCK_SLACK_NS = 100_000_000
_MAX_BEYOND_CHECKS = 2_000


def _gone(before: Snapshot, ws: Path, started: float) -> ChangeSet:
    change = FileChange(path=".", kind="deleted", reasons=["the whole workspace was deleted"])
    elapsed = before.elapsed_ms + int((time.perf_counter() - started) * 1000)
    return ChangeSet(source=before.source, files=[change], elapsed_ms=elapsed, workspace_gone=True,
                     note=f"the workspace {ws} no longer exists after the run")


def _changed_during(path: str, started_ns: int) -> bool | None:
    """True if the file's timestamps are newer than the snapshot; None if it is not there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return max(st.st_mtime_ns, st.st_ctime_ns) >= started_ns - _CLOCK_SLACK_NS


def _link_escape(ws: Path, path: str) -> tuple[str, str] | None:
    """(the symlink, its target) when ``path`` leads out of the workspace through a symlink."""
    real = os.path.realpath(ws / path)
    root = str(ws)
    if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
        return None
    where = ws
    for part in Path(path).parts:
        where = where / part
        if where.is_symlink():
            try:
                return str(where.relative_to(ws)), os.readlink(where)
            except OSError:
                return str(where.relative_to(ws)), real
    return None


def _folded_reason(before: Snapshot, after: RepoState | None, path: str) -> str | None:
    """Why git (or the walk) cannot see ``path``, or None when it can."""
    if before.source == "tree":
        for part in Path(path).parts[:-1]:
            if part in SKIP_DIRS:
                return f"inside {part}/, which the relay does not walk"
        return None
    states = [s for s in (before.repo, after) if s is not None]
    for state in states:
        stack = [state]
        while stack:
            repo = stack.pop()
            for folder in repo.folded:
                out = repo.out(folder) if folder.startswith(repo.prefix) else None
                if out and path.startswith(out):
                    kind = "nested repository" if folder.rstrip("/") in repo.subs or folder.rstrip("/") in repo.nested \
                        else "ignored folder"
                    return f"inside the {kind} {out}, which git does not show"
            stack.extend(sub for sub in repo.subs.values() if sub is not None)
            if path.startswith(repo.out_prefix) and repo.status.get(repo.prefix + path[len(repo.out_prefix):]) == "ignored":
                return "an ignored file, which git does not show"
    if after is not None:
        for sub, sub_state in after.subs.items():
            out = after.out(sub) + "/"
            if path.startswith(out) and before.repo is not None and sub not in before.repo.subs:
                return f"inside the nested repository {out}, new in this run"
    return None


def _beyond_view(result: ChangeSet, before: Snapshot, after: RepoState | None, ws: Path, reported: Sequence[str]) -> None:
    """What git's status and the tree walk cannot show: claims inside ignored folders or nested
    repositories, and writes through symlinks that lead out of the workspace.

    Never a verdict of "unchanged" on what was not looked at: a path there is listed as
    changed when its timestamps are newer than the snapshot, else named as not confirmed.
    """
    seen = {c.path for c in result.files} | {c.old_path for c in result.files if c.old_path}
    claims = normalize_reported(reported, ws)
    # Symlinks the snapshot knows (dirty, untracked or walked) are checked even when unclaimed.
    links = []
    if before.repo is not None:
        links = [before.repo.out(p) for p, e in before.repo.entries.items() if e.kind == "link"]
    elif before.tree is not None:
        links = [p for p, e in before.tree.items() if e.kind == "link"]
    candidates = list(dict.fromkeys([*claims, *links]))[:_MAX_BEYOND_CHECKS]
    claimed = set(claims)
    for path in candidates:
        escape = _link_escape(ws, path)
        if escape is not None:
            link, target = escape
            changed = _changed_during(str(ws / path), before.started_ns)
            if changed or path in claimed:
                result.escapes[path] = f"{link} → {target}"
            if changed:
                if path not in seen:
                    result.files.append(FileChange(path=path, kind="modified", symlink=True))
                result.outside[path] = f"written through the symlink {link} → {target}, outside the workspace"
            continue
        if path in seen or path not in claimed:
            continue
        why = _folded_reason(before, after, path)
        if why is None:
            continue  # git sees this path: "claimed but unchanged" is the truth
        changed = _changed_during(str(ws / path), before.started_ns)
        if changed:
            result.files.append(FileChange(path=path, kind="modified"))
            result.outside[path] = f"{why}: changed during the run by its timestamp (not diffed)"
        else:
            state = "not there" if changed is None else "its timestamps predate the run"
            result.unseen[path] = f"{why}; {state}"
    result.files.sort(key=lambda c: c.path)


def workspace_changed(before: Snapshot, workspace: Path) -> bool:
    """Whether anything changed since ``before``; stops at the first difference.

    Used by the retry guard, so when it cannot tell (no snapshot worth the name, git
    failing) it answers True: a run that may have touched files is never retried.
    """
    observer = _Observer(before, diff=False)
    try:
        if before.source == "git":
            observer.compare_repo(before.repo, _rescan(before), follow_head=True)  # type: ignore[arg-type]
        elif before.source == "tree":
            observer.compare_tree(before.tree or {}, walk_tree(str(Path(workspace).resolve()), store=None))
        else:
            return True
    except _Found:
        return True
    except (GitError, TooManyFiles, OSError):
        return True
    return False
