"""Which lines of a JSON manifest sit in fields nothing is installed from: package.json's repository, bugs, author….

The dependency readers (``relay.review.checks``: a dependency added, one taken from git, a source fetched over plain
http) read a manifest's changed lines one by one, and a line alone does not say which object it sits in: package.json's
``"repository": {"url": "git+https://github.com/o/p.git"}`` read as "adds a dependency: url" taken from a git repository
(session 33: three ordinary package.json edits of 2,988 made high for their own repository's or issue tracker's address).
The post-change file says: a line whose top-level field is one npm (or Composer, or Bower) never installs from is
metadata. Only that is left out, so a real dependency cannot hide behind the reading:

- the field names are those of the manifest's own documentation that hold people and links, never an install source
  (Composer's ``repositories`` is one, so it is not among them; nor is npm's ``publishConfig``);
- a line is metadata only when every top-level field it touches is (a minified line that also opens ``dependencies``
  is not), and only when no other line of the file with the same text sits elsewhere (the worker cannot copy a
  dependency line into ``repository`` to quiet its twin in ``dependencies``);
- a file that cannot be read, or is not well-formed enough to follow, gives nothing: every line is read as before.

A manifest written on one line (minified) holds every field on the line the readers read one dependency from, and was
read as no dependency at all (``minified``): it is read as its indented form, lines added and removed between the two.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from relay.core.records import FileChange

__all__ = ["manifest_metadata", "metadata_lines", "minified"]

# Per manifest name: the top-level fields that hold people, links and text, never a package to install.
_METADATA: dict[str, frozenset[str]] = {
    "package.json": frozenset({"repository", "bugs", "homepage", "author", "contributors", "maintainers", "funding"}),
    "bower.json": frozenset({"repository", "homepage", "authors"}),
    "composer.json": frozenset({"support", "authors", "homepage", "funding"}),
}
_MAX_CHARS = 1_000_000


def metadata_lines(path: str, text: str) -> frozenset[str]:
    """The stripped texts of ``text``'s lines that sit wholly in metadata fields (see above); empty when ``path`` is
    not such a manifest or ``text`` cannot be followed."""
    fields = _METADATA.get(posixpath.basename(path).lower())
    if not fields or len(text) > _MAX_CHARS:
        return frozenset()
    touched = _top_keys_by_line(text)
    if touched is None:
        return frozenset()
    quiet: set[str] = set()
    loud: set[str] = set()
    for line, keys in zip(text.split("\n"), touched):
        stripped = line.strip()
        if stripped:
            (quiet if keys and keys <= fields else loud).add(stripped)
    return frozenset(quiet - loud)


def _top_keys_by_line(text: str) -> list[set[str]] | None:
    """For each line, the top-level fields whose key or value it touches; None for text that is not one JSON object
    (an unclosed string or bracket, a close without an open)."""
    lines: list[set[str]] = [set()]
    depth = 0
    key: str | None = None  # the top-level field in force
    string_at: int | None = None  # where the open string began (its first character)
    last: tuple[str, int] | None = None  # the last string closed, and the depth it stood at
    escaped = False
    for i, ch in enumerate(text):
        if ch == "\n":
            lines.append({key} if key is not None and string_at is None else set())
            continue
        if string_at is not None:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                last, string_at = (text[string_at:i], depth), None
            continue
        if ch == '"':
            string_at = i + 1
            continue
        if ch.isspace():
            continue
        if ch == ":" and depth == 1 and last is not None and last[1] == 1:
            key = last[0]
            lines[-1].add(key)
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 1:
            key = None
        last = None if ch != ":" else last
    if string_at is not None or depth != 0:
        return None
    return lines


def manifest_metadata(changes: Iterable[FileChange], read: Callable[[str], str | None]) -> dict[str, frozenset[str]]:
    """path -> the stripped added lines of each changed JSON manifest that sit in its metadata fields, read from the
    post-change file by ``read`` (None: not readable, nothing is left out)."""
    out: dict[str, frozenset[str]] = {}
    for change in changes:
        if change.kind == "deleted" or posixpath.basename(change.path).lower() not in _METADATA or not change.added_lines:
            continue
        text = read(change.path)
        if text is None:
            continue
        quiet = metadata_lines(change.path, text) & {line.strip() for line in change.added_lines}
        if quiet:
            out[change.path] = quiet
    return out


def minified(path: str, added: Sequence[str], removed: Sequence[str]) -> tuple[list[str], list[str], frozenset[str]] | None:
    """(added, removed, metadata lines) of a JSON manifest written on one line, read as its indented form: the lines of
    each side that the other does not hold. None when ``path`` is not such a manifest or its new text is not one line
    of a JSON object of two fields or more."""
    lines = [line for line in added if line.strip()]
    if posixpath.basename(path).lower() not in _METADATA or len(lines) != 1 or len(lines[0]) > _MAX_CHARS:
        return None
    new = _object(lines[0])
    if new is None or len(new) < 2:
        return None
    old = _object("\n".join(removed)) if removed else {}
    new_text = json.dumps(new, indent=2, ensure_ascii=False)
    new_lines = new_text.split("\n")
    old_lines = json.dumps(old, indent=2, ensure_ascii=False).split("\n") if old is not None else list(removed)
    kept = Counter(new_lines) & Counter(old_lines)
    return (list((Counter(new_lines) - kept).elements()), list((Counter(old_lines) - kept).elements()),
            metadata_lines(path, new_text))


def _object(text: str) -> dict | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# A Python manifest's one-line list of requirements (an extra in pyproject.toml: ``pyOpenSSL = ['pyOpenSSL >= 23.0.0']``,
# setup.py's ``install_requires=['a>=1', 'b']``): the dependency readers read a requirement on a line of its own.
_PY_MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg", "pipfile")
_QUOTED = r"""(?:'[^'\[\]]+'|"[^"\[\]]+")"""  # an item in either quote, the other inside it (``'tzdata; platform_system=="Windows"'``)
_ONE_LINE_LIST_RE = re.compile(rf"""^\s*[\w.\-"']+\s*[=:]\s*\[(?P<items>\s*{_QUOTED}\s*(?:,\s*{_QUOTED}\s*)*,?\s*)\]\s*,?\s*$""")
_ITEM_RE = re.compile(_QUOTED)
_REQUIREMENT_RE = re.compile(r"""^(?P<q>["'])[A-Za-z][\w.\-]*(?:\[[^\]]*\])?\s*(?:[<>=!~;](?:(?!(?P=q))[^:/])*)?(?P=q)$""")


def listed_items(path: str, lines: Sequence[str]) -> list[str]:
    """``lines`` with each one-line list of a Python manifest written as its items, one a line (blind 88's asyncssh: an
    extra's floor lowered from 23.0.0 to 0.13 on such a line had read as "build configuration")."""
    if posixpath.basename(path).lower() not in _PY_MANIFESTS or not any("[" in line for line in lines):
        return list(lines)
    out: list[str] = []
    for line in lines:
        m = _ONE_LINE_LIST_RE.match(line) if len(line) <= 400 and "[" in line else None
        items = _ITEM_RE.findall(m.group("items")) if m else []
        # The line stays (an index's URL list is read as written); its requirements follow it, one a line.
        out.extend([line, *(f"    {item}," for item in items)] if items and all(_REQUIREMENT_RE.match(i) for i in items) else [line])
    return out
