"""A dependency's version moved down in a manifest: an old release brings back what later ones fixed (issue 36, round 16).

``version_downgrade`` reads a manifest's edited dependency lines (and Maven's bare ``<version>`` lines) for a version lower
than the one removed, or than the one the change set removed from another manifest (``moved_versions``: a dependency
moved by central package management or a monorepo's move is read against the version it had). Split from
``relay.review.dependencies`` (at its 500 lines) by job; the names of a line are that module's ``dep_names``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from relay.core.contracts import FileChange
from relay.review.dependencies import dep_names
from relay.review.file_kinds import is_manifest
from relay.review.name_pairs import dep_key

__all__ = ["moved_versions", "version_downgrade"]

_VERSION_RE = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+|\d+)(?![\w.]*[A-Za-z]{3})")


def _version(line: str, name: str) -> tuple[int, ...] | None:
    """The first version written after the dependency's name on its line, as numbers."""
    at = line.lower().find(name)
    m = _VERSION_RE.search(line, at + len(name)) if at >= 0 else None
    return tuple(int(part) for part in m.group(1).split(".")) if m else None


def moved_versions(changes: Iterable[FileChange]) -> dict[str, tuple[int, ...]]:
    """The highest version each dependency had on a line some manifest of the change set removes: a dependency moved to
    another manifest (central package management, a monorepo's move) is read against the version it had."""
    found: dict[str, tuple[int, ...]] = {}
    for c in changes:
        if is_manifest(c.path):
            for line in c.removed_lines[:200]:
                for name in dep_names(c.path, [line]):
                    version = _version(line, name)
                    if version and version > found.get(dep_key(name), ()):
                        found[dep_key(name)] = version
    return found


def version_downgrade(c: FileChange, moved: dict[str, tuple[int, ...]] | None = None) -> str | None:
    """"downgrades a dependency: name old → new" when a manifest's dependency line comes back with a lower version
    (jackson-databind 2.21.3 → 2.9.8), here or below the version it had where the change set removed it (``moved``);
    None when there is none."""
    if not is_manifest(c.path) or not c.added_lines or not (c.removed_lines or moved):
        return None
    before: dict[str, tuple[tuple[int, ...], str]] = {}
    for line in c.removed_lines[:200]:
        for name in dep_names(c.path, [line]):
            found = _version(line, name)
            if found:
                before.setdefault(name, (found, line))
    for line in c.added_lines[:200]:
        for name in dep_names(c.path, [line]):
            found, was = _version(line, name), before.get(name)
            if was is None and moved and dep_key(name) in moved:
                was = (moved[dep_key(name)], "")
            # "~> 2.2.4" → "~> 2.2": a range widened to the same release line, not a release moved down.
            if found and was and found < was[0] and was[0][:len(found)] != found:
                old, new = ".".join(map(str, was[0])), ".".join(map(str, found))
                return f"downgrades a dependency: {name.rsplit(':', 1)[-1][:40]} {old} → {new}"
    return _bare_version_downgrade(c.removed_lines, c.added_lines)


# A version on a line of its own (Maven's <version> under the <artifactId> the hunk does not show): one such line
# replaced by one lower is a dependency moved down, named by its versions (round 16: 2.14.0 → 2.9.8 was "build configuration").
_BARE_VERSION_RE = re.compile(r"^\s*<version>\s*v?(\d+(?:\.\d+)+)[-.\w]*\s*</version>\s*$")


def _bare_version_downgrade(removed: list[str], added: list[str]) -> str | None:
    olds = [m.group(1) for line in removed if (m := _BARE_VERSION_RE.match(line))]
    news = [m.group(1) for line in added if (m := _BARE_VERSION_RE.match(line))]
    for old, new in zip(olds, news) if len(olds) == len(news) else ():
        was, now = tuple(map(int, old.split("."))), tuple(map(int, new.split(".")))
        if now < was and was[:len(now)] != now:
            return f"downgrades a dependency version: {old} → {new}"
    return None
