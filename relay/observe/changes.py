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

Why it exists: the observer is the one place that decides which path changed and how it is
compared; one file's diff is ``relay.observe.diff``, git's patches ``relay.observe.patch``,
the worker's own list ``relay.observe.reported``.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import msgspec

from relay.core.contracts import FileChange
from relay.observe.diff import ABSENT_SIDE, Side, compare_sides, is_binary, split_lines
from relay.observe.git import GitError, run_git
from relay.observe.patch import git_patches, patch_change
from relay.observe.reported import normalize_reported, report_changes
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

# normalize_reported is re-exported: callers knew it from here.
__all__ = ["ChangeSet", "observe_changes", "workspace_changed", "normalize_reported"]

# Files larger than this are not diffed in Python; git handles tracked ones of any size.
_DIFF_READ_LIMIT = 32 * 1024 * 1024
# Rename pairing compares contents pairwise, so both sides are capped.
_RENAME_MAX_SIDE = 200
_RENAME_MAX_BYTES = 1024 * 1024
_RENAME_MIN_SIMILARITY = 0.5
# Files read in Python for one observation (new files, files dirty before); past it, the
# rest are listed without line counts.
_MAX_FILE_READS = 5_000
_NOTE_CHARS = 600


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


# --------------------------------------------------------------------------- git comparison


def _changed(before: Entry, now: Entry, abspath: str) -> Entry | None:
    """The entry now when it differs from ``before``, None when it is the same: kind, mode and
    stat decide when they can, else the content hash (read only then)."""
    if before.kind != now.kind or before.executable != now.executable:
        return now
    if before.kind in ("absent", "dir"):
        return None
    if before.kind == "link":
        return None if before.digest == now.digest else now
    if before.stat is not None and before.stat == now.stat:
        return None
    if before.kind == "special" or before.digest is None:
        return now
    now = read_entry(abspath, want_digest=True)
    return None if now.digest == before.digest else now


class _Observer:
    """Compares before and after states; with ``diff=False`` stops at the first difference."""

    def __init__(self, snapshot: Snapshot, *, diff: bool, list_ignored: Callable[[str], bool] | None = None) -> None:
        self.snapshot = snapshot
        self.list_ignored = list_ignored or (lambda path: False)
        self.store = snapshot.store
        self.diff = diff
        self.changes: list[FileChange] = []
        self.notes: list[str] = []
        # out path -> where its before-content lives (for rename pairing)
        self.origin: dict[str, tuple[RepoState | None, str, Entry | None]] = {}
        self.reads_left = _MAX_FILE_READS
        self.unread = 0

    def found(self) -> None:
        if not self.diff:
            raise _Found

    def look(self, workspace: Path) -> RepoState | None:
        """Compare the snapshot with the workspace now, by the snapshot's own means (git status
        or the walk); the repository's state now when it is git's."""
        before = self.snapshot
        if before.source == "git":
            assert before.repo is not None
            if not os.path.isdir(before.repo.root):
                raise GitError("the repository is gone")
            after = scan_repo(before.repo.root, before.repo.prefix, store=None)
            self.compare_repo(before.repo, after, follow_head=True)
            return after
        if before.source == "tree":
            self.compare_tree(before.tree or {}, walk_tree(str(workspace), store=None))
        return None

    # -- git

    def compare_repo(self, before: RepoState, after: RepoState, *, follow_head: bool) -> None:
        subs = set(before.subs) | set(after.subs)
        base = before.head if follow_head else after.head
        candidates: dict[str, Entry | None] = {p: e for p, e in before.entries.items() if p not in subs}
        new_ignored: list[str] = []
        for path, code in after.status.items():
            if path in subs or path in candidates:
                continue
            if code == "ignored" and not self.list_ignored(path):
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
            for path in new_ignored:
                abspath = os.path.join(after.root, path)
                self._compare(after.out(path), ABSENT_SIDE, abspath, read_entry(abspath, want_digest=False), before, path, None)
        for sub in sorted(subs):
            self._compare_sub(before, after, sub)

    def _compare_entries(self, before: RepoState, after: RepoState, candidates: dict[str, Entry | None], base: str | None) -> list[str]:
        batch: list[str] = []
        for path, entry in candidates.items():
            abspath = os.path.join(after.root, path)
            out_path = after.out(path)
            if entry is None:
                if base is not None and after.status.get(path) not in ("untracked", "ignored"):
                    self.found()
                    batch.append(path)
                elif (now := read_entry(abspath, want_digest=False)).kind != "absent":
                    self.found()
                    self._compare(out_path, ABSENT_SIDE, abspath, now, before, path, None)
                continue
            now = _changed(entry, read_entry(abspath, want_digest=False), abspath)
            if now is None:
                continue
            self.found()
            data = self.store.content(abspath)
            if entry.kind == "file" and data is None and before.status.get(path) == "tracked" and base is not None:
                # Before-content was over the budget; HEAD is the best before we have.
                self.notes.append(f"{out_path}: before-content not kept, diff is against HEAD")
                batch.append(path)
                continue
            before_side = Side(entry.kind, entry.executable, data if entry.kind in ("file", "link") else b"")
            self._compare(out_path, before_side, abspath, now, before, path, entry)
        return batch

    def _compare(self, out_path: str, before_side: Side, abspath: str, now: Entry, state: RepoState | None, path: str,
                 entry: Entry | None) -> None:
        """Compare one path in Python and keep the change, with where its before-content lives."""
        unread = self.unread
        after_side = self._side_now(abspath, now)
        self._add(compare_sides(out_path, before_side, after_side, notes=self.notes if self.unread == unread else None),
                  state, path, entry)

    def _side_now(self, abspath: str, now: Entry) -> Side:
        if now.kind == "file":
            if self.reads_left <= 0:
                # A worker that generated tens of thousands of files (an install without a
                # .gitignore) gets them listed, not read; one note says how many.
                self.unread += 1
                return Side("file", now.executable, None)
            self.reads_left -= 1
            data = read_bytes(abspath, limit=_DIFF_READ_LIMIT + 1)
            if data is None:
                return ABSENT_SIDE  # gone (or unreadable) since the status pass
            return Side("file", now.executable, data if len(data) <= _DIFF_READ_LIMIT else None)
        if now.kind == "link":
            try:
                return Side("link", False, os.fsencode(os.readlink(abspath)))
            except OSError:
                return ABSENT_SIDE
        return Side(now.kind, data=b"")

    def _add(self, change: FileChange | None, before: RepoState | None, path: str, entry: Entry | None) -> None:
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

    def _git_batch(self, before: RepoState, after: RepoState, paths: list[str], base: str | None) -> None:
        if base is not None:
            for path, parts in git_patches(after, base, paths).items():
                self._add(patch_change(after.out(path), parts), before, path, None)

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
            now = _changed(entry, after.get(path, ABSENT), abspath)
            if now is None:
                continue
            self.found()
            data = self.store.content(abspath) if entry.kind in ("file", "link") else b""
            self._compare(path, Side(entry.kind, entry.executable, data), abspath, now, None, path, entry)

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
        line_sets = {p: Counter(split_lines(d)) for p, d in old.items() if not is_binary(d)}
        for a_path, a_data in new.items():
            a_lines = None if is_binary(a_data) else Counter(split_lines(a_data))
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
            change = compare_sides(a_path, Side("file", data=old[d_path]), Side("file", data=new[a_path]), old_path=d_path)
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

def _join_notes(*parts: str | None) -> str | None:
    seen = list(dict.fromkeys(p for p in parts if p))
    if not seen:
        return None
    text = "; ".join(seen)
    return text if len(text) <= _NOTE_CHARS else text[: _NOTE_CHARS - 1] + "…"


def observe_changes(before: Snapshot, workspace: Path, *, reported: Sequence[str] = (),
                    list_ignored: Callable[[str], bool] | None = None) -> ChangeSet:
    """Everything that changed in ``workspace`` since ``before`` was taken, by the relay's own eyes.

    ``list_ignored(path)`` says which new git-ignored files are worth listing (review's reader
    answers: a secret-looking one); others are build output by the repository's own word."""
    started = time.perf_counter()
    ws = Path(os.path.abspath(workspace))
    if not ws.is_dir():
        # The worker deleted the workspace itself: one change, said loudly (see _gone).
        return _gone(before, ws, started)
    ws = ws.resolve()
    observer = _Observer(before, diff=True, list_ignored=list_ignored)
    source = before.source
    fallback_note = None
    after: RepoState | None = None
    try:
        after = observer.look(ws)
    except (GitError, TooManyFiles, OSError) as exc:
        fallback_note = f"could not observe the workspace after the run ({exc}); files are the worker's report"
        source = "report"
    if source == "report":
        files = report_changes(ws, reported)
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
    if before.source not in ("git", "tree"):
        return True
    try:
        _Observer(before, diff=False).look(Path(workspace).resolve())
    except (_Found, GitError, TooManyFiles, OSError):
        return True
    return False
