"""Workspace path patterns: one meaning for a profile's ``paths`` and ``protected`` (issue 10).

The enforcement after a run (relay.call.enforce) and the "outside the task's paths" review
flag (relay.review.risk) both match with these rules, so a flag and a refusal never disagree:

* a pattern is relative to the workspace root (a leading ``./`` is dropped);
  ``.`` (or an empty pattern) covers everything;
* a folder covers everything under it: ``src`` and ``src/`` match ``src/a/b.py``;
* ``*`` and ``?`` stay within one folder, ``**`` crosses folders, ``[...]`` is a class;
* a glob with no ``/`` (``*.lock``, ``.env*``) matches a file name at any depth, as in
  .gitignore; every other pattern is anchored at the root (``**/package-lock.json`` for
  a literal name at any depth).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

__all__ = ["clean_pattern", "path_matches", "matches_any", "pattern_within", "pattern_problem"]

_WILD = frozenset("*?[")


def clean_pattern(raw: str) -> str:
    """The pattern as it is matched: trimmed, without leading ``./`` or ``/`` (``.`` becomes "")."""
    pattern = raw.strip().replace("\\", "/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.lstrip("/")
    return "" if pattern in (".", "") else pattern


def _is_glob(pattern: str) -> bool:
    return any(ch in _WILD for ch in pattern)


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    out.append("(?:.*/)?")  # "**/": zero or more folders
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = pattern.find("]", i + 2 if pattern.startswith("[!", i) or pattern.startswith("[]", i) else i + 1)
            if end < 0:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out) + r"(?:/.*)?\Z", re.DOTALL)  # a matching folder covers what is under it


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
    return lambda path: rx.match(path) is not None


def _normal(path: str) -> str:
    path = path.lstrip("/")
    while path.startswith("./"):
        path = path[2:]
    return path


def path_matches(path: str, raw_pattern: str) -> bool:
    """Whether the workspace-relative ``path`` is covered by the pattern (rules in the module docstring)."""
    return _matcher(raw_pattern)(_normal(path))


def matches_any(path: str, patterns: Iterable[str]) -> bool:
    path = _normal(path)
    return any(_matcher(p)(path) for p in patterns)


def pattern_within(narrow: str, bounds: Iterable[str]) -> bool:
    """Whether everything ``narrow`` can match is covered by one of ``bounds`` (conservative: may say no).

    A literal path is within a bound it matches; a glob is within a bound that covers its
    literal head (``src/api/*.py`` within ``src``), or that matches its text as a path
    (``src/**/test_*.py`` within ``src/**/*.py``).
    """
    pattern = clean_pattern(narrow)
    bounds = [clean_pattern(b) for b in bounds]
    if any(not b for b in bounds):
        return True
    if not pattern:
        return False
    if pattern in bounds:
        return True
    if not _is_glob(pattern):
        return matches_any(pattern.rstrip("/"), bounds)
    if "/" not in pattern.rstrip("/"):
        return False  # a name glob reaches every folder: only "everything" covers it
    head = pattern[: min(pattern.index(c) for c in _WILD if c in pattern)]
    head = head[: head.rfind("/")] if "/" in head else ""
    return bool(head and matches_any(head, bounds)) or any(_is_glob(b) and path_matches(pattern, b) for b in bounds)


def pattern_problem(raw: str) -> str | None:
    """Why a pattern cannot be used (it leaves the workspace, or is blank), or None."""
    if not isinstance(raw, str) or not raw.strip():
        return "is blank"
    if "\0" in raw:
        return "contains a NUL byte"
    pattern = clean_pattern(raw)
    if ".." in pattern.split("/"):
        return "leads out of the workspace (..)"
    if raw.strip().startswith(("/", "~")) or re.match(r"^[A-Za-z]:", raw.strip()):
        return "is absolute; patterns are relative to the workspace (write src/, not /home/me/app/src/)"
    return None
