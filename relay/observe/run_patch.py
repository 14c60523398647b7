"""Every run's patch: the worker's change, written beside the run record as a git patch.

Why it exists: the record lists which files a run changed, not their content; once the
leader moves on, the change itself was gone. The patch keeps it, so the leader can read the
risky hunks (``detail="diff"``) and the user can undo a run (``gravity-relay runs revert``,
which is ``git apply -R``).

Only the worker's change, never the user's earlier edits: the before side of a file is what
the pre-run snapshot kept (files dirty, untracked or ignored before the run) or HEAD's blob
(files clean before: read in one ``ls-tree`` + one ``cat-file --batch`` per repository);
the after side is the file now. The patch is written in Python, in git's own format
(``--full-index --binary``): renames, deletions, mode changes, symlinks, and binary files as
git binary patches carrying both directions (literal forward and reverse), so ``git apply
-R`` restores them byte for byte, in a repository or not. Nothing is written to the user's
repository. Outside git (tree snapshot) the same format is used; the diff view shows a
binary file as "binary, N bytes".

What the patch cannot carry exactly is named in its header (``# not in this patch: ...``):
files whose before-content the snapshot did not keep, files seen by timestamp only,
submodule commit moves, folders. The whole patch is bounded (``max_bytes``); files past the
bound are left out and the cut is stated (``# cut: ...``). A revert refuses a patch with
either line: it would not restore the whole run.

``split_patch`` reads a patch back into its header and per-file sections of hunks, for the
diff view and the revert.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import posixpath
import re
import stat as stat_mod
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from relay.core.contracts import FileChange
from relay.core.files import write_atomic
from relay.observe.changes import ChangeSet
from relay.observe.diff import is_binary, opcodes
from relay.observe.git import GitError, run_git
from relay.observe.snapshot import ABSENT, RepoState, Snapshot, read_bytes

__all__ = ["PATCH_MAX_BYTES", "PatchWritten", "Section", "build_run_patch", "write_run_patch", "split_patch",
           "quote_path", "unquote_path", "NOT_IN_PATCH", "CUT"]

log = logging.getLogger("relay.observe.run_patch")

# Default bound of one run's patch (GRAVITY_RELAY_PATCH_MAX_SIZE; Settings.patch_max_bytes).
PATCH_MAX_BYTES = 8 * 1024 * 1024
# Header lines a revert refuses (the patch does not hold the whole run) and the view repeats.
NOT_IN_PATCH = b"# not in this patch: "
CUT = b"# cut: "
_CONTEXT = 3
_NAMES_IN_HEADER = 20
_NAMES_BYTES = 1024
# Room kept for the header: two lines, one per reason a file was left out, the cut; names bounded above.
_HEADER_ROOM = 16 * 1024
# Up to this many paths HEAD's entries are listed by pathspec (one git call); past it, by their folders' trees.
_PATHSPEC_MAX = 32
# git's binary patch: deflated data in lines of at most 52 bytes, base85, led by a length letter.
_BINARY_LINE = 52


@dataclass(slots=True)
class _Side:
    kind: str  # "absent", "file", "link", "other"
    mode: str | None = None
    data: bytes | None = None  # None: not known (a budget, a read failure)
    over_budget: bool = False  # not read: the patch's bound was reached before it


_ABSENT = _Side("absent", data=b"")


@dataclass(slots=True)
class PatchWritten:
    """What ``write_run_patch`` wrote: how many file sections, how many bytes, what was left out."""

    path: Path
    files: int
    bytes: int
    left_out: list[str] = field(default_factory=list)
    elapsed_ms: int = 0


# --------------------------------------------------------------------------- names


def quote_path(name: bytes) -> bytes:
    """A path as git writes it (``core.quotepath=off``): C-quoted only when it holds a quote, a
    backslash or a control character; bytes past ASCII stay as they are."""
    if not any(c < 0x20 or c in (0x22, 0x5C, 0x7F) for c in name):
        return name
    out = bytearray(b'"')
    escapes = {0x07: b"\\a", 0x08: b"\\b", 0x09: b"\\t", 0x0A: b"\\n", 0x0B: b"\\v", 0x0C: b"\\f", 0x0D: b"\\r",
               0x22: b'\\"', 0x5C: b"\\\\"}
    for c in name:
        if c in escapes:
            out += escapes[c]
        elif c < 0x20 or c == 0x7F:
            out += b"\\%03o" % c
        else:
            out.append(c)
    out += b'"'
    return bytes(out)


def unquote_path(text: bytes) -> bytes:
    """The inverse of ``quote_path`` (and of git's own quoting, octal escapes included)."""
    if not (text.startswith(b'"') and text.endswith(b'"') and len(text) >= 2):
        return text
    body = text[1:-1]
    simple = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13,
              ord('"'): 0x22, ord("\\"): 0x5C}
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == 0x5C and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in simple:
                out.append(simple[nxt])
                i += 2
                continue
            if 0x30 <= nxt <= 0x37 and i + 3 < len(body) + 1:
                out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
                i += 4
                continue
        out.append(c)
        i += 1
    return bytes(out)


def _name(prefix: bytes, path: str) -> bytes:
    return quote_path(prefix + os.fsencode(path))


# --------------------------------------------------------------------------- sections


def _oid(data: bytes, algo: str) -> bytes:
    return hashlib.new(algo, b"blob %d\0" % len(data) + data).hexdigest().encode()


def _lines(data: bytes) -> list[bytes]:
    """Lines with their newline; a last line without one stays without (git's "\\ No newline")."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _emit(out: list[bytes], sign: bytes, line: bytes) -> None:
    if line.endswith(b"\n"):
        out.append(sign + line)
    else:
        out.append(sign + line + b"\n\\ No newline at end of file\n")


def _range(start: int, count: int) -> bytes:
    # git's hunk header: "-5" for one line, "-4,0" (the line before) for none.
    if count == 1:
        return b"%d" % (start + 1)
    return b"%d,%d" % (start + 1 if count else start, count)


def text_hunks(a: bytes, b: bytes) -> tuple[list[bytes], int]:
    """Unified hunks (3 lines of context) from ``a`` to ``b``, and how many lines stayed."""
    a_lines, b_lines = _lines(a), _lines(b)
    blocks = opcodes(a_lines, b_lines)
    unchanged = len(a_lines) - sum(i2 - i1 for i1, i2, _, _ in blocks)
    groups: list[list[tuple[int, int, int, int]]] = []
    for block in blocks:
        if groups and block[0] - groups[-1][-1][1] <= 2 * _CONTEXT:
            groups[-1].append(block)
        else:
            groups.append([block])
    hunks = []
    for group in groups:
        first, last = group[0], group[-1]
        a_start = max(0, first[0] - _CONTEXT)
        a_end = min(len(a_lines), last[1] + _CONTEXT)
        b_start = first[2] - (first[0] - a_start)
        b_end = last[3] + (a_end - last[1])
        body: list[bytes] = [b"@@ -" + _range(a_start, a_end - a_start) + b" +" + _range(b_start, b_end - b_start) + b" @@\n"]
        at = a_start
        for i1, i2, j1, j2 in group:
            for line in a_lines[at:i1]:
                _emit(body, b" ", line)
            for line in a_lines[i1:i2]:
                _emit(body, b"-", line)
            for line in b_lines[j1:j2]:
                _emit(body, b"+", line)
            at = i2
        for line in a_lines[at:a_end]:
            _emit(body, b" ", line)
        hunks.append(b"".join(body))
    return hunks, unchanged


def _binary_literal(data: bytes) -> bytes:
    packed = zlib.compress(data, 9)
    out = [b"literal %d\n" % len(data)]
    for i in range(0, len(packed), _BINARY_LINE):
        chunk = packed[i : i + _BINARY_LINE]
        n = len(chunk)
        out.append(bytes([ord("A") + n - 1 if n <= 26 else ord("a") + n - 27]) + base64.b85encode(chunk, pad=True) + b"\n")
    out.append(b"\n")
    return b"".join(out)


def _section(old_path: str, new_path: str, before: _Side, after: _Side, algo: str) -> bytes:
    """One file's part of the patch, as ``git diff --full-index --binary`` writes it."""
    zero = b"0" * (40 if algo == "sha1" else 64)
    a_name, b_name = _name(b"a/", old_path), _name(b"b/", new_path)
    head = [b"diff --git " + a_name + b" " + b_name + b"\n"]
    a_data = before.data if before.kind != "absent" else b""
    b_data = after.data if after.kind != "absent" else b""
    assert a_data is not None and b_data is not None
    a_oid = _oid(a_data, algo) if before.kind != "absent" else zero
    b_oid = _oid(b_data, algo) if after.kind != "absent" else zero
    same_mode = before.mode == after.mode
    renamed = old_path != new_path
    if before.kind == "absent":
        head.append(b"new file mode " + after.mode.encode() + b"\n")  # type: ignore[union-attr]
    elif after.kind == "absent":
        head.append(b"deleted file mode " + before.mode.encode() + b"\n")  # type: ignore[union-attr]
    elif not same_mode:
        head.append(b"old mode " + before.mode.encode() + b"\nnew mode " + after.mode.encode() + b"\n")  # type: ignore[union-attr]
    binary = is_binary(a_data) or is_binary(b_data)
    hunks: list[bytes] = []
    unchanged = 0
    if a_oid != b_oid and not binary:
        hunks, unchanged = text_hunks(a_data, b_data)
    if renamed:
        total = len(_lines(a_data)) + len(_lines(b_data))
        score = 100 if a_data == b_data else min(99, 200 * unchanged // total) if total else 100
        head.append(b"similarity index %d%%\nrename from " % score + quote_path(os.fsencode(old_path))
                    + b"\nrename to " + quote_path(os.fsencode(new_path)) + b"\n")
    if a_oid != b_oid:
        head.append(b"index " + a_oid + b".." + b_oid + (b" " + after.mode.encode() if same_mode and before.kind != "absent"
                                                       and after.kind != "absent" else b"") + b"\n")  # type: ignore[union-attr]
    if a_oid == b_oid:
        return b"".join(head)
    if binary:
        return b"".join(head) + b"GIT binary patch\n" + _binary_literal(b_data) + _binary_literal(a_data)
    if not hunks:
        return b"".join(head)  # an empty file created or deleted
    a_label = b"/dev/null" if before.kind == "absent" else a_name
    b_label = b"/dev/null" if after.kind == "absent" else b_name
    tab_a = b"\t" if b" " in a_label else b""
    tab_b = b"\t" if b" " in b_label else b""
    head.append(b"--- " + a_label + tab_a + b"\n+++ " + b_label + tab_b + b"\n")
    return b"".join(head) + b"".join(hunks)


def _sections(old_path: str, new_path: str, before: _Side, after: _Side, algo: str) -> list[bytes]:
    if before.kind == "absent" and after.kind == "absent":
        return []
    if before.kind != "absent" and after.kind != "absent" and (before.kind != after.kind):
        # A file <-> symlink swap: git writes a deletion and an addition of the same path.
        return [_section(old_path, old_path, before, _ABSENT, algo), _section(new_path, new_path, _ABSENT, after, algo)]
    return [_section(old_path, new_path, before, after, algo)]


# --------------------------------------------------------------------------- before and after


def _after(workspace: str, path: str, limit: int) -> _Side:
    abspath = os.path.join(workspace, path)
    try:
        st = os.lstat(abspath)
    except OSError:
        return _ABSENT
    if stat_mod.S_ISLNK(st.st_mode):
        try:
            return _Side("link", "120000", os.fsencode(os.readlink(abspath)))
        except OSError:
            return _Side("link", "120000", None)
    if not stat_mod.S_ISREG(st.st_mode):
        return _Side("other")
    mode = "100755" if st.st_mode & 0o100 else "100644"
    if st.st_size > limit:
        return _Side("file", mode, None)
    return _Side("file", mode, read_bytes(abspath))


def _repo_of(repo: RepoState, path: str) -> tuple[RepoState, str]:
    """The repository (the workspace's, or a submodule / nested one) that holds ``path``, and the
    path inside it."""
    state = repo
    while True:
        inner = next((s for s in state.subs.values() if s is not None and path.startswith(s.out_prefix)), None)
        if inner is None:
            return state, state.prefix + path[len(state.out_prefix):]
        state = inner


def _batch(state: RepoState, requests: list[bytes], option: str) -> list[tuple[bytes, bytes] | None]:
    """``git cat-file <option>`` answers, in order: (type, content or size) or None for a missing object."""
    if not requests:
        return []
    out = run_git(Path(state.root), "cat-file", [option], config=state.config, input=b"".join(r + b"\n" for r in requests))
    answers: list[tuple[bytes, bytes] | None] = []
    pos = 0
    for _ in requests:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        pos = end + 1
        if len(header) < 3 or not header[-1].isdigit():  # "<request> missing" (or ambiguous)
            answers.append(None)
            continue
        if option == "--batch-check":
            answers.append((header[1], header[2]))
            continue
        size = int(header[2])
        answers.append((header[1], out[pos : pos + size]))
        pos += size + 1
    return answers


def _tree_entries(data: bytes, hash_len: int):
    """(mode, name, raw oid) of each entry of a raw tree object ("<mode> <name>\\0<oid bytes>"), matched in C:
    each match consumes exactly one entry, so oid bytes are never read as a name."""
    return _TREE_ENTRY[hash_len].findall(data)


_TREE_ENTRY = {n: re.compile(rb"([0-7]+) ([^\0]*)\0(.{%d})" % n, re.DOTALL) for n in (20, 32)}


def _head_sides(state: RepoState, paths: list[str], limit: int, total: int) -> dict[str, _Side]:
    """HEAD's mode and bytes of ``paths`` (repository-relative).

    A few paths: one ``ls-tree -l`` names their modes, blobs and sizes. Many: git would match each
    pathspec against every entry (1,000 paths in a 10k-file repository cost more than the rest of
    the patch), so the trees of their folders are read instead and the sizes asked for, one
    ``cat-file`` each. Then the blobs, one ``cat-file``. Blobs past ``limit`` are not read; nor, in
    path order, those past ``total`` together (the patch could not hold them: memory stays bounded
    however many large files a run touched)."""
    if state.head is None or not paths:
        return {}
    sides: dict[str, _Side] = {path: _ABSENT for path in paths}
    sized = _listed(state, paths, sides) if len(paths) <= _PATHSPEC_MAX else _from_trees(state, paths, sides)
    wanted = []
    for path, mode, oid, size in sorted(sized):
        if size > limit:
            continue
        total -= size
        if total < 0:
            sides[path].over_budget = True
            continue
        wanted.append((path, mode, oid))
    for (path, mode, _), blob in zip(wanted, _batch(state, [oid.encode() for _, _, oid in wanted], "--batch")):
        if blob is not None:
            sides[path] = _Side("link" if mode == "120000" else "file", mode, blob[1])
    return sides


def _entry(sides: dict[str, _Side], path: str, mode: str) -> bool:
    """Record what HEAD has at ``path`` (its content still unread); True for a blob."""
    blob = mode in _BLOB_MODES
    sides[path] = _Side("link" if mode == "120000" else "file", mode, None) if blob else _Side("other")
    return blob


def _listed(state: RepoState, paths: list[str], sides: dict[str, _Side]) -> list[tuple[str, str, str, int]]:
    out = run_git(Path(state.root), "ls-tree", ["-r", "-z", "-l", "--full-tree"], values=[state.head or ""], paths=paths,
                  config=state.config)
    sized = []
    for rec in out.split(b"\0"):
        meta, _, name = rec.partition(b"\t")
        path = os.fsdecode(name)
        if path not in sides:  # a folder in HEAD lists its files: not asked for
            continue
        mode, _kind, oid, size = meta.decode().split()
        if _entry(sides, path, mode):
            sized.append((path, mode, oid, int(size)))
    return sized


def _from_trees(state: RepoState, paths: list[str], sides: dict[str, _Side]) -> list[tuple[str, str, str, int]]:
    by_dir: dict[str, dict[bytes, str]] = {}
    for path in paths:
        if "\n" in path:
            sides[path] = _Side("file", "100644", None)  # cannot be named in a batch request: left out, said so
            continue
        by_dir.setdefault(posixpath.dirname(path), {})[os.fsencode(posixpath.basename(path))] = path
    dirs = sorted(by_dir)
    head = state.head or ""
    trees = _batch(state, [f"{head}:{d}".encode("utf-8", "surrogateescape") if d else f"{head}^{{tree}}".encode()
                           for d in dirs], "--batch")
    found: list[tuple[str, str, str]] = []  # (path, mode, oid)
    for folder, answer in zip(dirs, trees):
        if answer is None or answer[0] != b"tree":
            continue
        names = by_dir[folder]
        for raw_mode, name, oid in _tree_entries(answer[1], len(head) // 2):
            path = names.get(name)
            if path is None:
                continue
            mode = raw_mode.decode().rjust(6, "0")
            if _entry(sides, path, mode):
                found.append((path, mode, oid.hex()))
    sizes = _batch(state, [oid.encode() for _, _, oid in found], "--batch-check")
    return [(path, mode, oid, int(size[1])) for (path, mode, oid), size in zip(found, sizes) if size is not None]


_BLOB_MODES = ("100644", "100755", "120000")


def _entry_side(snapshot: Snapshot, abspath: str, kind: str, executable: bool) -> _Side:
    if kind == "absent":
        return _ABSENT
    if kind == "file":
        return _Side("file", "100755" if executable else "100644", snapshot.store.content(abspath))
    if kind == "link":
        return _Side("link", "120000", snapshot.store.content(abspath))
    return _Side("other")


def _before_sides(snapshot: Snapshot, paths: list[str], limit: int, total: int) -> dict[str, _Side]:
    """The before side of every path: the snapshot's kept bytes, or (clean before) HEAD's blob."""
    sides: dict[str, _Side] = {}
    if snapshot.source == "tree":
        tree = snapshot.tree or {}
        for path in paths:
            entry = tree.get(path, ABSENT)
            sides[path] = _entry_side(snapshot, os.path.join(str(snapshot.workspace), path), entry.kind, entry.executable)
        return sides
    assert snapshot.repo is not None
    from_head: dict[int, tuple[RepoState, list[tuple[str, str]]]] = {}
    for path in paths:
        state, rel = _repo_of(snapshot.repo, path)
        entry = state.entries.get(rel)
        if entry is not None:
            sides[path] = _entry_side(snapshot, os.path.join(state.root, rel), entry.kind, entry.executable)
        else:
            from_head.setdefault(id(state), (state, []))[1].append((path, rel))
    for state, items in from_head.values():
        head = _head_sides(state, [rel for _, rel in items], limit, total)
        for path, rel in items:
            sides[path] = head.get(rel, _ABSENT)
    return sides


# --------------------------------------------------------------------------- the patch


def _names(paths: list[str]) -> bytes:
    shown: list[bytes] = []
    used = 0
    for path in paths[:_NAMES_IN_HEADER]:
        name = quote_path(os.fsencode(path))
        if used + len(name) > _NAMES_BYTES:
            break
        shown.append(name)
        used += len(name) + 2
    more = len(paths) - len(shown)
    return b", ".join(shown) + (b" (+%d more)" % more if more > 0 else b"")


def _left_out_reason(change: FileChange, outside: dict[str, str]) -> str | None:
    if change.path in outside:
        return "seen by timestamp only"
    if change.submodule:
        return "submodule commit moved"
    if "\ufffd" in change.path or (change.old_path and "\ufffd" in change.old_path):
        return "name is not UTF-8"
    return None


def build_run_patch(before: Snapshot, changes: ChangeSet, workspace: Path, *, run_id: str,
                    max_bytes: int = PATCH_MAX_BYTES) -> tuple[bytes, int, list[str]] | None:
    """(the patch, how many file sections, the paths left out) of a run, or None when there is none
    to write (no snapshot worth the name, nothing changed, the workspace itself gone)."""
    if before.source not in ("git", "tree") or changes.source == "report" or changes.workspace_gone or not changes.files:
        return None
    files, outside = changes.files, changes.outside
    ws = str(Path(os.path.abspath(workspace)))
    algo = "sha256" if before.repo is not None and before.repo.head and len(before.repo.head) == 64 else "sha1"
    left_out: dict[str, str] = {}
    wanted: list[FileChange] = []
    for change in files:
        why = _left_out_reason(change, outside)
        if why:
            left_out[change.path] = why
        else:
            wanted.append(change)
    budget = max_bytes - _HEADER_ROOM
    befores = _before_sides(before, sorted({c.old_path or c.path for c in wanted}), max_bytes, budget)
    kept: list[bytes] = []
    cut: list[str] = []
    size = 0
    for change in sorted(wanted, key=lambda c: c.path):
        old = change.old_path or change.path
        b_side = befores.get(old, _ABSENT)
        if size >= budget or b_side.over_budget:
            cut.append(change.path)
            continue
        a_side = _after(ws, change.path, max_bytes)
        if "other" in (b_side.kind, a_side.kind):
            left_out[change.path] = "not a file or symlink"
            continue
        if b_side.data is None:
            left_out[change.path] = "before-content not kept"
            continue
        if a_side.data is None:
            left_out[change.path] = "too large" if a_side.kind == "file" else "unreadable"
            continue
        if change.old_path is not None and a_side.kind == "absent":
            # The rename's new name is gone again: what is left to undo is the deletion.
            a_side = _ABSENT
        pieces = _sections(old, change.path, b_side, a_side, algo)
        length = sum(map(len, pieces))
        if size + length > budget:  # all of a file or none of it: a later, smaller one may still fit
            cut.append(change.path)
            continue
        kept.extend(pieces)
        size += length
    if not kept and not left_out and not cut:
        return None
    header = [b"# gravity-relay: the change of run " + run_id.encode() + b" in " + quote_path(os.fsencode(ws))
              + b" (the worker's only; earlier edits are not in it)\n",
              b"# undo it: gravity-relay runs revert " + run_id.encode() + b" (--dry-run first)\n"]
    if left_out:
        reasons = sorted(set(left_out.values()))
        for why in reasons:
            header.append(NOT_IN_PATCH + why.encode() + b": " + _names(sorted(p for p, w in left_out.items() if w == why)) + b"\n")
    if cut:
        header.append(CUT + b"the patch limit (%d bytes) was reached; left out: " % max_bytes + _names(cut) + b"\n")
    data = b"".join(header) + b"".join(kept)
    return data, len(kept), sorted([*left_out, *cut])


def write_run_patch(before: Snapshot, changes: ChangeSet, workspace: Path, dest: Path, *, run_id: str,
                    max_bytes: int = PATCH_MAX_BYTES) -> PatchWritten | None:
    """Write the run's patch to ``dest`` (atomic, 0600); None when there is nothing to write.

    Never raises for git or the file system: the run's answer matters more than its patch.
    """
    started = time.perf_counter()
    try:
        built = build_run_patch(before, changes, workspace, run_id=run_id, max_bytes=max_bytes)
        if built is None:
            return None
        data, sections, left_out = built
        write_atomic(dest, data)
    except (GitError, OSError, ValueError) as exc:
        log.warning("patch of run %s not written: %s", run_id, exc)
        return None
    except Exception:  # noqa: BLE001 - a bug here must not cost the run its answer; logged whole
        log.exception("patch of run %s not written", run_id)
        return None
    return PatchWritten(path=dest, files=sections, bytes=len(data), left_out=left_out,
                        elapsed_ms=int((time.perf_counter() - started) * 1000))


# --------------------------------------------------------------------------- reading it back


@dataclass(slots=True)
class Section:
    """One file's part of a patch: its header lines, its hunks (or binary payload), its path."""

    path: str
    old_path: str
    head: bytes
    hunks: list[bytes]
    binary: tuple[int, int] | None = None  # (bytes before, bytes after) of a binary file

    @property
    def data(self) -> bytes:
        return self.head + b"".join(self.hunks)


def _diff_names(line: bytes) -> tuple[bytes, bytes]:
    """The a/ and b/ names of a ``diff --git`` line whose two names are the same path."""
    rest = line[len(b"diff --git ") :].rstrip(b"\n")
    if rest.startswith(b'"'):
        end = 1
        while end < len(rest) and rest[end] != 0x22:
            end += 2 if rest[end] == 0x5C else 1
        a, b = rest[: end + 1], rest[end + 2 :]
        return unquote_path(a)[2:], unquote_path(b)[2:]
    half = (len(rest) - 1) // 2
    return rest[2:half], rest[half + 3 :]


def split_patch(data: bytes) -> tuple[list[bytes], list[Section]]:
    """(the header's lines, the file sections) of a patch written by ``build_run_patch``.

    Inside a section, a line starting ``@@ `` begins a hunk (content lines start with a space,
    ``+``, ``-`` or ``\\``), and ``diff --git`` at a line's start begins the next file (a
    base85 line holds no space).
    """
    header: list[bytes] = []
    sections: list[Section] = []
    cur_head: list[bytes] = []
    hunks: list[bytes] = []
    hunk: list[bytes] = []
    binary_sizes: list[int] = []
    in_binary = False

    def close() -> None:
        if not cur_head:
            return
        if hunk:
            hunks.append(b"".join(hunk))
        head = b"".join(cur_head)
        a, b = _diff_names(cur_head[0])
        old, new = a, b
        for line in cur_head[1:]:
            if line.startswith(b"rename from "):
                old = unquote_path(line[12:].rstrip(b"\n"))
            elif line.startswith(b"rename to "):
                new = unquote_path(line[10:].rstrip(b"\n"))
        binary = (binary_sizes[1], binary_sizes[0]) if len(binary_sizes) == 2 else None
        sections.append(Section(path=os.fsdecode(new), old_path=os.fsdecode(old), head=head, hunks=list(hunks), binary=binary))

    for line in _split_nl(data):
        if line.startswith(b"diff --git "):
            close()
            cur_head, hunks, hunk, binary_sizes, in_binary = [line], [], [], [], False
        elif not cur_head:
            header.append(line)
        elif in_binary:
            hunk.append(line)
            if line.startswith(b"literal ") or line.startswith(b"delta "):
                binary_sizes.append(int(line.split()[1]))
        elif line.startswith(b"@@ "):
            if hunk:
                hunks.append(b"".join(hunk))
            hunk = [line]
        elif line.startswith(b"GIT binary patch"):
            in_binary = True
            hunk = [line]
        elif hunk:
            hunk.append(line)
        else:
            cur_head.append(line)
    close()
    return header, sections


def _split_nl(data: bytes) -> list[bytes]:
    # bytes.splitlines also splits on \r, \x0b, \x0c...: content lines hold those, so split on \n only.
    return _lines(data)
