"""Workspace path patterns: one meaning for a profile's ``paths`` and ``protected`` (issue 10).

The enforcement after a run (relay.call.enforce) and the "outside the task's paths" review
flag (relay.review.risk) both match with these rules, so a flag and a refusal never disagree:

* a pattern is relative to the workspace root (a leading ``./`` is dropped); folders are separated by
  ``/`` (on Windows ``\\`` too; elsewhere a backslash is refused: git reads it as an escape, a name may hold it);
  ``.`` (or an empty pattern) covers everything;
* a folder covers everything under it: ``src`` and ``src/`` match ``src/a/b.py``;
* ``*`` and ``?`` stay within one folder, ``**`` crosses folders, ``[...]`` is a class;
* a glob with no ``/`` (``*.lock``, ``.env*``) matches a file name at any depth, as in
  .gitignore; every other pattern is anchored at the root (``**/package-lock.json`` for
  a literal name at any depth).

The review's file tables (which files are CI, lockfiles, tests…) use the same pattern language
through ``names_file``: every row matches at any depth, and names files, never folders.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from relay.core.places import on_windows

__all__ = ["clean_pattern", "path_matches", "matches_any", "pattern_within", "pattern_problem", "names_file"]

_WILD = frozenset("*?[")


def clean_pattern(raw: str) -> str:
    """The pattern as it is matched: trimmed, without leading ``./`` or ``/`` (``.`` becomes ""); on Windows a
    backslash is a folder separator (no file name holds one there), elsewhere ``pattern_problem`` refuses it."""
    pattern = raw.strip().replace("\\", "/") if on_windows() else raw.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.lstrip("/")
    return "" if pattern in (".", "") else pattern


def _is_glob(pattern: str) -> bool:
    return any(ch in _WILD for ch in pattern)


# Past this many runs of ``*`` a pattern is matched by ``_Glob``, not by a regex: Python's regex backtracks, and the
# call's own patterns (the leader's model writes them) with ``**/`` or ``*`` fourteen times over took hours on one
# path that did not match, so the run's enforcement never ended. Two keep a regex's backtracking within n squared.
_REGEX_STARS = 2


# The regex of each of ``_tokens``' kinds but "char" (escaped) and "class" (its own compiled class).
_REGEX_OF = {"one": "[^/]", "star": "[^/]*", "any": ".*", "folders": "(?:.*/)?"}


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str, folders: bool = True) -> re.Pattern[str] | _Glob:
    """The pattern as a matcher of the whole path (``match``, truthy on a match); ``folders``: a match also covers
    what is under it."""
    source = _source(pattern, folders)
    return _Glob(_tokens(pattern), folders) if source is None else re.compile(source, re.DOTALL)


def _source(pattern: str, folders: bool) -> str | None:
    """``_compiled``'s regex, as text (None: a ``_Glob`` matches it)."""
    if len(re.findall(r"\*+", pattern)) > _REGEX_STARS:
        return None
    out = [re.escape(arg) if kind == "char" else arg.pattern if kind == "class" else _REGEX_OF[kind]
           for kind, arg in _tokens(pattern)]
    # A matching folder covers what is under it (a policy's patterns); a file table's names only files.
    return "".join(out) + (r"(?:/.*)?\Z" if folders else r"\Z")


class _Glob:
    """A glob matched without backtracking: the set of path positions reachable after each token is one int (a bit
    per position), so a match costs a few int operations per token whatever the pattern and the path. The same
    tokens as ``_compiled``'s regex, so the same language."""

    def __init__(self, tokens: list[tuple[str, object]], folders: bool) -> None:
        self.folders, self.tokens = folders, tokens

    def match(self, path: str) -> bool:
        n = len(path)
        full = (1 << (n + 1)) - 1
        chars, slash = _positions(path)
        inside = ((1 << n) - 1) & ~slash  # the positions of characters that are not "/"
        reach = 1  # position 0
        for kind, arg in self.tokens:
            if kind == "char":
                reach = (reach & chars.get(arg, 0)) << 1
            elif kind == "one":  # ?
                reach = (reach & inside) << 1
            elif kind == "class":
                reach = (reach & sum(bits for ch, bits in chars.items() if arg.fullmatch(ch))) << 1
            elif kind == "star":  # *: on through the characters of this folder (a carry runs through each run)
                reach = (reach | (((reach & inside) + inside) ^ inside)) & full
            else:
                lowest = reach & -reach
                if kind == "any":  # ** not before "/": any text
                    reach = full & ~(lowest - 1)
                else:  # "**/": zero or more folders, each ending at a "/"
                    reach |= (slash & ~(lowest - 1)) << 1
            if not reach:
                return False
        return bool(reach >> n & 1 or (self.folders and reach & slash))

    fullmatch = match


def _tokens(pattern: str) -> list[tuple[str, object]]:
    """The pattern read once, for both matchers (``_compiled``'s regex and ``_Glob``): ``*`` "star", ``**`` "any",
    ``**/`` "folders", ``?`` "one", ``[…]`` "class" (a ``[`` that opens no class is a literal), any other "char"."""
    out: list[tuple[str, object]] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    out.append(("folders", None))
                    i += 1
                else:
                    out.append(("any", None))
                continue
            out.append(("star", None))
        elif ch == "?":
            out.append(("one", None))
        elif ch == "[" and (end := pattern.find("]", i + 2 if pattern.startswith(("[!", "[]"), i) else i + 1)) >= 0:
            body = pattern[i + 1 : end].replace("\\", "\\\\").replace("[", "\\[")
            try:
                out.append(("class", re.compile("[" + ("^" + body[1:] if body.startswith("!") else body) + "]",
                                                 re.DOTALL)))
                i = end
            except re.error:
                out.append(("char", ch))  # no class after all: a literal [
        else:
            out.append(("char", ch))
        i += 1
    return out


@functools.lru_cache(maxsize=1024)
def _positions(path: str) -> tuple[dict[str, int], int]:
    """Each character of ``path`` -> the bits of its positions; and the bits of its "/"s."""
    chars: dict[str, int] = {}
    for i, ch in enumerate(path):
        chars[ch] = chars.get(ch, 0) | (1 << i)
    return chars, chars.get("/", 0)


@functools.lru_cache(maxsize=4096)
def _matcher(raw_pattern: str):
    """One compiled test per pattern: the rules are applied once, not per path."""
    pattern = clean_pattern(raw_pattern)
    if not pattern:
        return lambda path: True
    if not _is_glob(pattern):
        bare = pattern.rstrip("/")
        prefix = bare + "/"
        return lambda path: path == bare or path.startswith(prefix)
    rx = _compiled(pattern.rstrip("/"))
    if "/" not in pattern.rstrip("/"):
        # A name glob: any component of the path (a folder named so covers its contents).
        return lambda path: any(rx.match(part) for part in path.split("/"))
    return lambda path: bool(rx.match(path))


def _normal(path: str) -> str:
    path = path.lstrip("/")
    while path.startswith("./"):
        path = path[2:]
    return path


def path_matches(path: str, raw_pattern: str) -> bool:
    """Whether the workspace-relative ``path`` is covered by the pattern (rules in the module docstring)."""
    return _matcher(raw_pattern)(_normal(path))


def matches_any(path: str, patterns: Iterable[str], *, fold_case: bool = False) -> bool:
    """``fold_case``: compare as a case-insensitive filesystem does (``.ENV`` is ``.env`` on NTFS and APFS)."""
    path = _normal(path)
    if fold_case:
        path, patterns = path.lower(), [p.lower() for p in patterns]
    return any(_matcher(p)(path) for p in patterns)


def names_file(path: str, patterns: Iterable[str]) -> bool:
    """Whether ``path`` is a file one of ``patterns`` names, as the review's file tables use them
    (``relay.review.file_kinds``): a pattern without "/" matches the file's name, one with "/" the path's
    tail from any folder down ("sub/.github/workflows/x.yml" in a monorepo too); ``*``, ``?``, ``[...]``
    and ``**`` as above. Unlike a policy's pattern it names files only: no folder covers what is under it."""
    path = _normal(path)
    name = path.rsplit("/", 1)[-1]
    names, paths, globs = _table(patterns if isinstance(patterns, tuple) else tuple(patterns))
    if names.match(name) or paths.match(path):
        return True
    return any(glob.match(path if on_path else name) for glob, on_path in globs)


_NOTHING = re.compile(r"(?!)")


@functools.lru_cache(maxsize=256)
def _table(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str], tuple[tuple[_Glob, bool], ...]]:
    """A file table's patterns as two regexes, one of the names' and one of the paths' patterns, each their rows'
    regexes as alternatives (every one ends at ``\\Z``: a match of either is a match of one row), and the rows matched
    by ``_Glob``: one C-level match a file a table instead of one a row (tables of dozens of rows, read for every file
    of every review)."""
    rows = [("**/" + p if "/" in p else p, "/" in p) for p in patterns]
    sources = [(_source(row, False), on_path) for row, on_path in rows]

    def joined(on_path: bool) -> re.Pattern[str]:
        alternatives = [f"(?:{source})" for source, where in sources if where is on_path and source is not None]
        return re.compile("|".join(alternatives), re.DOTALL) if alternatives else _NOTHING

    globs = tuple((_Glob(_tokens(row), False), on_path) for (row, on_path), (source, _) in zip(rows, sources) if source is None)
    return joined(False), joined(True), globs


def pattern_within(narrow: str, bounds: Iterable[str]) -> bool:
    """Whether every path ``narrow`` can match is matched by one of ``bounds`` (sound, conservative: when
    that cannot be shown it says no, and the call's pattern is refused).

    Decided on what the patterns match, never on their text (issue 22, D3: ``src/**.py`` read as a path
    matched ``src/*.py``, so a call widened its profile to every folder under ``src``). The patterns are
    compared folder by folder: a literal folder equals a literal folder; a one-folder glob (``*``, ``?``,
    ``[...]``) is within another only when the other is ``*``, or shares its literal head and tail
    (``test_*.py`` within ``*.py``), or equals it; ``**`` in a bound absorbs any run of folders; ``**`` in the
    call's pattern, or inside a name (``**.py``, which crosses folders), is covered only by a bound's ``**``.
    """
    pattern = clean_pattern(narrow).rstrip("/")
    cleaned = [clean_pattern(b).rstrip("/") for b in bounds]
    if any(not b for b in cleaned):
        return True
    if not pattern:
        return False
    if not _is_glob(pattern):
        return matches_any(pattern, cleaned)  # one path (and what is under it): matched, or not
    mine = _segments(pattern)
    for bound in cleaned:
        if _is_glob(bound) and "/" not in bound:
            # A name glob in a bound matches a path having such a component anywhere: the call's pattern is
            # within it when one of its own folders always is such a component.
            if "/" in pattern and any(_one_folder(seg) and _segment_within(seg, bound) for seg in mine):
                return True
            if "/" not in pattern and _segment_within(pattern, bound):
                return True
            continue
        if "/" not in pattern:
            continue  # a name glob reaches every folder: only "everything" or a name glob covers it
        if _within(tuple(mine), tuple(_segments(bound))):
            return True
    return False


def _segments(pattern: str) -> list[str]:
    """Folders of an anchored pattern; a trailing ``**`` (one or more folders) reads as ``**/*``."""
    parts = pattern.split("/")
    if parts[-1] == "**":
        parts.append("*")
    return parts


def _one_folder(segment: str) -> bool:
    return "**" not in segment


def _segment_within(mine: str, bound: str) -> bool:
    """Whether every folder name ``mine`` matches is matched by ``bound`` (both within one folder)."""
    if mine == bound or bound == "*":
        return True
    if not _is_glob(mine):
        return bool(_compiled(bound).fullmatch(mine)) if _is_glob(bound) else False
    if not _is_glob(bound) or bound.count("*") != 1 or "?" in bound or "[" in bound or "[" in mine:
        return False
    head, tail = bound.split("*")
    # mine's matches all start with bound's head and end with its tail (plain text in mine, not overlapping)
    return mine.startswith(head) and mine.endswith(tail) and len(head) + len(tail) <= len(mine)


@functools.lru_cache(maxsize=4096)
def _within(mine: tuple[str, ...], bound: tuple[str, ...]) -> bool:
    """Every folder sequence matching ``mine`` exactly has a prefix matching ``bound`` exactly."""
    if not bound:
        return True  # a matching folder covers what is under it
    if not mine:
        return False
    first, rest = bound[0], bound[1:]
    if first == "**":
        if rest == ("*",):
            return True  # "x/**" covers every path under x, and what is left of mine matches at least one folder
        # the bound's "**/" absorbs zero folders, or whatever the call's first folder (or "**") matches
        return _within(mine, rest) or _within(mine[1:], bound)
    if "**" in first:
        return mine == bound  # a name crossing folders in a bound: only the same text is shown to be within
    if mine[0] == "**" and first == "*":
        # mine's "**/" is zero folders, or a first folder (any name: the bound's "*" takes it) and "**/" again
        return _within(mine[1:], bound) and _within(mine, rest)
    if not _one_folder(mine[0]):
        return False  # the call's "**" (or "x**y") may match several folders: one folder of the bound cannot
    return _segment_within(mine[0], first) and _within(mine[1:], rest)


def pattern_problem(raw: str) -> str | None:
    """Why a pattern cannot be used (it leaves the workspace, or is blank), or None."""
    if not isinstance(raw, str) or not raw.strip():
        return "is blank"
    if "\0" in raw:
        return "contains a NUL byte"
    pattern = clean_pattern(raw)
    if ".." in pattern.split("/"):
        return "leads out of the workspace (..)"
    if "\\" in raw and not on_windows():
        # git reads it as an escape (.gitignore, and pathspecs here), a Windows habit as a separator, a file name
        # here may hold one: each silent guess leaves what another reading meant unprotected.
        return ("contains a backslash, which this system's file names may hold and git reads as an escape: write "
                "folders with / (config/*.json), and a literal *, ? or [ as [*], [?], [[] (docs/[[]draft].md)")
    if raw.strip().startswith(("/", "~")) or re.match(r"^[A-Za-z]:", raw.strip()):
        return "is absolute; patterns are relative to the workspace (write src/, not /home/me/app/src/)"
    return None
