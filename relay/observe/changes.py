"""What the worker really changed: git's diff of the before and after trees of the workspace.

The snapshot (``relay.observe.snapshot``) wrote the workspace as a tree before the run; this
module brings a private after index to the work tree the same way and asks git for the difference,
once per repository: ``git diff-index --cached -p --binary --full-index -M <before tree>`` (for a few changed
paths, the work tree itself: no index rewritten). That one answer is the change set
(renames, modes, binaries, submodules, symlinks, every hunk whole, for the readers in
``relay.review``) and the run's patch (``relay.observe.run_patch`` keeps it beside the record).
Earlier edits are never blamed on the worker: they are in the before tree.

What git's view cannot show is said, never called unchanged: files kept out of the trees by
size (compared by size and times), claims inside ignored folders and nested repositories
(judged by timestamp), writes through a symlink that leads out of the workspace.
"""

from __future__ import annotations

import os
import posixpath
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import msgspec

from relay.core.contracts import FileChange
from relay.observe.git import GitError
from relay.observe.patch import MADE_REPO, Section, split_patch
from relay.observe.reported import normalize_reported, report_changes
from relay.observe.above import above_after, above_said, shown_above
from relay.observe.beyond import beyond_view
from relay.observe.blind import seen_by_time
from relay.observe.git_dir import planted
from relay.observe.ignored_beside import unread_at_top
from relay.observe.kept_lines import kept_line
from relay.observe.made_git_dirs import DeepLook, deep_git_dirs, note_made_git_dirs
from relay.observe.runs_next import list_plants
from relay.observe.private_repo import look_of
from relay.observe.snapshot import (CLOCK_SLACK_NS, PACKED, TREE_FILE_MAX, Repo, Snapshot, TooManyFiles, git_private,
                                    repo_head, stat_key, write_after)
from relay.observe.unreadable import blind_spots
from relay.observe.walk import files_under

# normalize_reported is re-exported: callers knew it from here.
__all__ = ["ChangeSet", "observe_changes", "workspace_changed", "normalize_reported", "HUNK_LINES", "HUNK_CHARS",
           "MAX_RANGES"]

# Changed lines kept per side of a file, and characters per line: whole hunks for the readers,
# bounded so a generated file cannot fill the memory.
HUNK_LINES = 4000
HUNK_CHARS = 1000
# Changed lines kept for one observation in all; past it, files are listed with their counts only.
MAX_LINES_KEPT = 400_000
MAX_RANGES = 100
_HIDDEN_MAX = 2_000  # files listed in the folders a worker's new ignore rule hides whole, at most
_NOTE_CHARS = 600

# Everything the answer's shape depends on is pinned: the user's diff settings never reach it. Myers
# without the indent heuristic keeps the line ranges the ranking was tuned on.
_DIFF_OPTS = ("-r", "-p", "--binary", "--full-index", "--find-renames", "--no-ext-diff", "--no-textconv", "--no-color",
              "--ignore-submodules=none", "--diff-algorithm=myers", "--no-indent-heuristic", "-U3",
              "--inter-hunk-context=0")
# (core.autocrlf is the repository's: a diff that reads the work tree converts it as update-index would.)
_DIFF_CONFIG = [("diff.suppressBlankEmpty", "false"), ("diff.renameLimit", "1000")]


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
    # git's patch of the two trees (every repository's, paths as in ``files``), and what it cannot hold: path -> why.
    patch: bytes = b""
    not_in_patch: dict[str, str] = {}
    # What the run planted in the repository's git dir that git would run next (relay.observe.git_dir): path -> what
    # and when. Those paths are in ``files`` too; the policy judges them apart (they are in no tree).
    git_dir: dict[str, str] = {}
    # Why the relay could not look after the run ("" when it did): the files are then the worker's report and what
    # their timestamps show (relay.observe.blind), and the review says so loudly.
    unobserved: str = ""
    # An in-place run in a sub-folder of a repository (relay.observe.above): what it changed in the repository outside
    # the workspace, as seen from it ("../setup.py") -> how it was seen. Those paths are in ``files`` too.
    above: dict[str, str] = {}
    # Inside the folders no look enters (git's ignored ones, the walk's skipped ones): what the run wrote there where
    # code runs next, and the links it made there out of the repository (relay.observe.runs_next): path -> what. Those
    # paths are in ``files`` too, not diffed.
    runs_next: dict[str, str] = {}


# --------------------------------------------------------------------------- git's answer, read


_HUNK_HEAD = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def _modes(head: bytes) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in head.split(b"\n")[1:]:
        for key in ("new file mode ", "deleted file mode ", "old mode ", "new mode "):
            if line.startswith(key.encode()):
                found[key.strip()] = line[len(key):].decode("ascii", "replace")
        if line.startswith(b"index ") and b" " in line[6:]:
            found["index"] = line.rsplit(b" ", 1)[1].decode("ascii", "replace")
    return found


def _read_hunks(section: Section, change: FileChange, ranges: list[tuple[int, int]], keep: bool) -> None:
    """Counts, ranges (1-based, in the new file; a removal is marked at the line it follows) and the lines."""
    for hunk in section.hunks:
        if hunk.startswith(b"GIT binary patch"):
            change.binary = True
            continue
        lines = hunk.split(b"\n")
        match = _HUNK_HEAD.match(lines[0])
        if match is None:
            continue
        new_line = int(match.group(1))
        block: list[int] | None = None  # [first new line, added count]
        for line in lines[1:]:
            sign = line[:1]
            if sign in (b"+", b"-"):
                if block is None:
                    block = [new_line, 0]
                side = change.added_lines if sign == b"+" else change.removed_lines
                if keep and len(side) < HUNK_LINES:
                    side.append(kept_line(line[1:], HUNK_CHARS))
                if sign == b"+":
                    change.additions += 1
                    block[1] += 1
                    new_line += 1
                else:
                    change.deletions += 1
                continue
            if sign == b"\\":
                continue
            if block is not None:
                ranges.append((block[0], block[0] + block[1] - 1) if block[1] else (max(block[0] - 1, 1),) * 2)
                block = None
            new_line += 1
        if block is not None:
            ranges.append((block[0], block[0] + block[1] - 1) if block[1] else (max(block[0] - 1, 1),) * 2)


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


def _change(parts: list[Section], keep: bool = True) -> FileChange:
    """One path's change from its section(s) of git's patch (a file <-> symlink swap is two)."""
    first = parts[0]
    modes = [_modes(p.head) for p in parts]
    seen = {m for found in modes for m in found.values()}
    change = FileChange(path=first.path)
    if len(parts) > 1:
        change.kind = "type"
    elif first.old_path != first.path:
        change.kind, change.old_path = "renamed", first.old_path
    elif "new file mode" in modes[0]:
        change.kind = "added"
    elif "deleted file mode" in modes[0]:
        change.kind = "deleted"
    change.symlink = "120000" in seen
    change.submodule = "160000" in seen
    mode_b = modes[0].get("old mode") or modes[0].get("deleted file mode") or modes[0].get("index")
    mode_a = modes[-1].get("new mode") or modes[-1].get("new file mode") or modes[-1].get("index")
    if mode_b and mode_a and mode_b != mode_a:
        change.mode_before, change.mode_after = mode_b, mode_a
    ranges: list[tuple[int, int]] = []
    for part in parts:
        _read_hunks(part, change, ranges, keep)
        change.binary = change.binary or b"\nBinary files " in b"\n" + part.head
    change.ranges = [] if change.kind == "deleted" or change.submodule else _bounded_ranges(ranges)
    if change.kind == "modified" and change.mode_before and not (change.additions or change.deletions or change.binary):
        change.kind = "mode"
    return change


def _printable(text: str) -> str:
    # A file name that is not UTF-8 arrives with surrogate escapes; the record and the packet are JSON, so such
    # bytes are shown as U+FFFD.
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _printable_change(change: FileChange) -> FileChange:
    change.path, change.old_path = _printable(change.path), change.old_path and _printable(change.old_path)
    return change


def _diff(snapshot: Snapshot, repo: Repo, *, quiet: bool = False) -> bytes:
    """git's patch of the before tree against the after index, or for a few changed paths (``Repo.changed``) the
    work tree itself (``quiet``: b"1" when they differ, else b"")."""
    if not repo.after:
        return b""
    options = [f"--src-prefix=a/{repo.out_prefix}", f"--dst-prefix=b/{repo.out_prefix}"]
    if repo.prefix:
        options.append("--relative=" + repo.prefix)
    changed = look_of(repo).changed
    if changed is not None:
        if quiet or not changed:  # status named exactly the paths whose content differs from the before tree
            return b"1" if changed else b""
        return git_private(snapshot.dir, repo, "diff-index", [*_DIFF_OPTS, *options], index="after", flush=False,
                           values=[repo.before_root], paths=changed, config=_DIFF_CONFIG)
    options.insert(0, "--cached")
    if quiet:
        try:
            git_private(snapshot.dir, repo, "diff-index", ["--quiet", *options], index="after", values=[repo.before_root])
            return b""
        except GitError:
            return b"1"
    return git_private(snapshot.dir, repo, "diff-index", [*_DIFF_OPTS, *options], index="after",
                       values=[repo.before_root], config=_DIFF_CONFIG)


def _sub_change(path: str, kind: str, old: str | None, new: str | None) -> FileChange:
    return FileChange(path=path, kind=kind, submodule=True,  # type: ignore[arg-type]
                      removed_lines=[f"Subproject commit {old}"] if old else [], deletions=1 if old else 0,
                      added_lines=[f"Subproject commit {new}"] if new else [], additions=1 if new else 0)


class _Look:
    """One look after the run: every repository's diff, read into changes."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.changes: list[FileChange] = []
        self.patch: list[bytes] = []
        self.not_in_patch: dict[str, str] = {}
        self.notes: list[str] = []
        self.lines_left = MAX_LINES_KEPT
        self.unread = 0
        self.above: dict[str, str] = {}

    def repo(self, repo: Repo, list_ignored: Callable[[str], bool] | None) -> None:
        # A folder the run made unreadable fails the look (GitError); one unreadable before and untouched is named.
        if kept := blind_spots(repo.root, repo.unreadable, look_of(repo).unreadable,
                               self.snapshot.started_ns - CLOCK_SLACK_NS, repo.out):
            self.notes.append(f"not looked at (unreadable before the run, untouched since): {', '.join(kept[:5])}")
        if look_of(repo).fifos:  # git waited on them: opened for it, read as empty (relay.observe.fifos)
            self.notes.append(f"a FIFO (named pipe) in place of git's ignore or attributes file, read as empty: "
                              f"{', '.join(look_of(repo).fifos[:5])}")
        if repo.depth and not repo.after:
            self.changes.append(_sub_change(repo.out_prefix.rstrip("/"), "deleted", repo.head, None))
            return
        out = _diff(self.snapshot, repo)
        header, sections = split_patch(out)
        if (repo.new_ignored or repo.new_folded) and any(posixpath.basename(p) == ".gitignore" for p in
                                                         [*(s.path for s in sections), *repo.new_ignored]):
            # The worker changed the ignore rules (a .gitignore that ignores itself too): files they now hide are
            # listed after all, those of the folders they hide whole included (bounded: past it the look fails).
            self.notes.append("ignore rules changed: new ignored files are listed")
            hidden = [*repo.new_ignored, *files_under(repo.root, repo.new_folded, limit=_HIDDEN_MAX)]
            paths = [p for p in hidden if (k := stat_key(os.path.join(repo.root, p))) and k[0] <= TREE_FILE_MAX]
            for path in sorted(set(hidden) - set(paths) - repo.big.keys()):  # past the trees' bound: by size only
                if stat_key(os.path.join(repo.root, path)):
                    self.changes.append(FileChange(path=repo.out(path), kind="added"))
                    self.not_in_patch[repo.out(path)] = (f"larger than {TREE_FILE_MAX // (1024 * 1024)} MB, hidden by an "
                                                         "ignore rule the run changed (compared by size and time only)")
            git_private(self.snapshot.dir, repo, "update-index", ["--add", "-z", "--stdin"], index="after",
                        input=b"".join(os.fsencode(p) + b"\0" for p in paths), config=PACKED)
            if look_of(repo).changed is not None:
                look_of(repo).changed += paths
            out = _diff(self.snapshot, repo)
            header, sections = split_patch(out)
        elif (repo.new_ignored or repo.new_folded) and (unread := unread_at_top(self.snapshot.dir, repo)):
            self.notes.append(unread)  # a run's output most often; a module required from tracked code can hide there
        by_path: dict[str, list[Section]] = {}
        explained = self._committed(repo) if repo.depth else set()
        for section in sections:
            if section.path not in explained:
                by_path.setdefault(section.path, []).append(section)
        for parts in by_path.values():
            change = _change(parts, keep=self.lines_left > 0 or any(b" 120000" in p.head for p in parts))
            if self.lines_left <= 0 and not change.symlink:
                self.unread += 1
            self.lines_left -= len(change.added_lines) + len(change.removed_lines)
            self.changes.append(change)
            if change.submodule:
                self.not_in_patch[change.path] = "submodule commit moved"
            else:
                self.patch.extend(p.data for p in parts)
        self._big(repo)
        self._nested(repo)
        for path, kind in above_after(self.snapshot.dir, repo, self.snapshot.started_ns - CLOCK_SLACK_NS).items():
            shown = _printable(shown_above(repo, path))  # as _printable_change shows it: the review matches it
            self.changes.append(FileChange(path=shown, kind=kind))  # type: ignore[arg-type]
            self.above[shown] = above_said(repo, path)
            self.not_in_patch[shown] = "outside the workspace, in its repository (not diffed)"
        if look_of(repo).above_blind:
            self.notes.append(f"not looked at (unreadable before the run, untouched since): "
                              f"{', '.join(look_of(repo).above_blind[:5])}")

    def _committed(self, repo: Repo) -> set[str]:
        """In a submodule whose commit moved: the paths that commit explains (clean before and clean
        now), left to the pointer's change rather than listed again file by file."""
        now = repo_head(repo)
        if not now or not repo.head or now == repo.head:
            return set()

        def names(command: str, *values: str) -> set[str]:
            options = ["-r", "-z", "--name-only", "--no-renames"] + (["--cached"] if command == "diff-index" else [])
            out = git_private(self.snapshot.dir, repo, command, options, index="after", values=list(values))
            return {repo.out_prefix + os.fsdecode(p) for p in out.split(b"\0") if p}

        try:
            return (names("diff-tree", repo.head, now) - names("diff-tree", repo.head, repo.before)
                    - names("diff-index", now))
        except GitError:
            return set()

    def _big(self, repo: Repo) -> None:
        for folder in look_of(repo).new_skipped:  # outside git: a folder the walk skips now (relay.observe.outside_git)
            self.changes.append(FileChange(path=repo.out(folder.rstrip("/")), kind="added"))
            self.not_in_patch[repo.out(folder.rstrip("/"))] = "a new dependency, build or virtualenv folder: not walked"
        for path in sorted(repo.big.keys() | repo.after_big.keys()):
            before, now = repo.big.get(path), repo.after_big.get(path)
            if before == now:
                continue
            out = repo.out(path)
            kind = "added" if before is None else "deleted" if now is None else "modified"
            self.changes.append(FileChange(path=out, kind=kind))  # type: ignore[arg-type]
            if repo.no_git:
                self.not_in_patch[out] = "git is not installed (compared by size and time only)"
                continue
            self.not_in_patch[out] = f"larger than {TREE_FILE_MAX // (1024 * 1024)} MB (compared by size and time only)"
            self.notes.append(f"{out}: not diffed (larger than {TREE_FILE_MAX // (1024 * 1024)} MB)")

    def _nested(self, repo: Repo) -> None:
        """Untracked nested repositories: the parent's tree does not hold their commit, so a move is said here."""
        for path in repo.nested:
            sub = repo.subs.get(path)
            if sub is None or not sub.after:
                continue
            now = repo_head(sub)
            if now != sub.head:
                self.changes.append(_sub_change(repo.out(path), "modified", sub.head, now))
                self.not_in_patch[repo.out(path)] = "submodule commit moved"
        for path in repo.new_nested:
            head = repo_head(Repo(root=os.path.join(repo.root, path), config=repo.config))
            self.changes.append(_sub_change(repo.out(path), "added", None, head))
            self.not_in_patch[repo.out(path)] = MADE_REPO


def _look(snapshot: Snapshot, list_ignored: Callable[[str], bool] | None) -> _Look:
    write_after(snapshot, list_ignored=list_ignored)
    look = _Look(snapshot)
    for repo in snapshot.repos():
        look.repo(repo, list_ignored)
    return look


def _gone(before: Snapshot, ws: Path, started: float) -> ChangeSet:
    change = FileChange(path=".", kind="deleted", reasons=["the whole workspace was deleted"])
    elapsed = before.elapsed_ms + int((time.perf_counter() - started) * 1000)
    return _with_git_dir(ChangeSet(source=before.source, files=[change], elapsed_ms=elapsed, workspace_gone=True,
                                   note=f"the workspace {ws} no longer exists after the run"), before)


def _seen_without_a_look(result: ChangeSet, before: Snapshot, ws: Path) -> None:
    """The look failed: besides the worker's report, the files whose timestamps say the run changed them (listed, not
    diffed; relay.observe.blind) — what the worker did not report is not lost with the look."""
    found, cut = seen_by_time(before, str(ws))
    listed = {c.path for c in result.files}
    for path, kind in found.items():
        if path not in listed:
            result.files.append(FileChange(path=path, kind=kind))  # type: ignore[arg-type]
        result.outside[path] = ("gone since the run started" if kind == "deleted" else
                                "changed during the run by its timestamp") + " (not diffed: the look failed)"
    if cut:  # said where the leader reads why the look failed, and before git's own words: a long flag is cut at its end
        result.note, result.unobserved = _join_notes(result.note, cut), f"{cut}; {result.unobserved}"
    result.files.sort(key=lambda c: c.path)


def _with_git_dir(result: ChangeSet, before: Snapshot, deep: list[str] | None = None) -> ChangeSet:
    """The plants in the repository's git dir (hooks, program keys of its config), listed with the change: however
    the look went, they are the relay's own finding, never the worker's word (a ``.git`` it made in a folder too)."""
    note_made_git_dirs(before, [c.path for c in result.files], deep or [])
    listed = {c.path for c in result.files}
    for plant in planted(before.dir) if before.dir else []:
        if plant.path not in result.git_dir and plant.path not in listed:
            result.files.append(FileChange(path=plant.path, kind=plant.kind))  # type: ignore[arg-type]
        result.git_dir[plant.path] = plant.said
    result.files.sort(key=lambda c: c.path)
    return result


# --------------------------------------------------------------------------- entry points


def _join_notes(*parts: str | None) -> str | None:
    text = "; ".join(dict.fromkeys(p for p in parts if p))
    return (text if len(text) <= _NOTE_CHARS else text[: _NOTE_CHARS - 1] + "…") or None


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
    source = before.source
    fallback_note = None
    why_not = before.note or "no snapshot was taken before the run"
    look, deep = None, DeepLook([], {})
    if source != "report":
        try:
            look = _look(before, list_ignored)
            deep = deep_git_dirs(before)  # a .git made deep in an ignored folder (relay.observe.made_git_dirs)
        except (GitError, TooManyFiles, OSError) as exc:
            look, fallback_note = None, f"could not observe the workspace after the run ({exc}); files are the worker's report"
            source, why_not = "report", str(exc)[:200]
    if look is None:
        result = ChangeSet(source="report", files=report_changes(ws, reported), note=_join_notes(before.note, fallback_note),
                           unobserved=why_not)
        _seen_without_a_look(result, before, ws)
    else:
        notes = look.notes
        if look.unread:
            # A worker that generated tens of thousands of files gets them listed, not read into memory.
            notes.insert(0, f"{look.unread:,} files listed without their lines (past {MAX_LINES_KEPT:,} lines kept)")
        budget_notes = "; ".join(notes[:3]) + (f" (+{len(notes) - 3} more)" if len(notes) > 3 else "") if notes else None
        result = ChangeSet(source=source, files=sorted((_printable_change(c) for c in look.changes), key=lambda c: c.path),
                           note=_join_notes(before.note, budget_notes), patch=b"".join(look.patch),
                           not_in_patch=look.not_in_patch, above=look.above)
        beyond_view(result, before, ws, reported)
        result.runs_next, more = list_plants(result.files, deep.plants)  # where code runs next (relay.observe.runs_next)
        result.not_in_patch.update(dict.fromkeys(result.runs_next, "in a folder git ignores: not diffed"))
        result.note = _join_notes(result.note, more, deep.note)
    _with_git_dir(result, before, deep.git)
    result.elapsed_ms = before.elapsed_ms + int((time.perf_counter() - started) * 1000)
    return result


def workspace_changed(before: Snapshot, workspace: Path) -> bool:
    """Whether anything changed since ``before``.

    Used by the retry guard, so when it cannot tell (no snapshot worth the name, git
    failing) it answers True: a run that may have touched files is never retried.
    """
    if before.source not in ("git", "tree"):
        return True
    try:
        write_after(before)
        look = _Look(before)
        for repo in before.repos():
            if repo.depth and not repo.after:
                return True
            look._big(repo)
            look._nested(repo)
            if above_after(before.dir, repo, before.started_ns - CLOCK_SLACK_NS):
                return True
        return bool(look.changes) or bool(planted(before.dir)) or any(_diff(before, r, quiet=True) for r in before.repos())
    except (GitError, TooManyFiles, OSError):
        return True
