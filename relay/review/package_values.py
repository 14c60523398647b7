"""Build and packaging values that weaken what ships (issue 36, round 28 part B).

The first runs of held-out 37 and 38 left these one-value turns low or unnamed: a snap's ``confinement: strict`` made
``devmode``, a Cargo.lock's ``source`` pointed at another registry's index, a README sample's ``visibility =
"private"`` made ``"public"``, an install script's ``error=$?`` made ``error=0``, a hook's ``exit $exitCode`` made
``exit 0``. Each reader wants the value's own shape and says what the turn lets happen:

- a sandbox loosened: snap ``confinement: strict`` → ``devmode`` / ``classic``, a Flatpak ``--filesystem=host`` /
  ``--device=all`` added, ``seccomp`` / ``apparmor`` set ``unconfined``;
- a lockfile's package taken from another registry: a ``source`` / ``resolved`` / ``remote`` / ``registry`` URL whose
  scheme, host or first path segment (a registry's owner: ``github.com/rust-lang``) is not the one it replaces (a version
  bump keeps all three);
- a thing made public: ``visibility``, ``public``, ``private``, ``acl``, ``access`` turned from private, internal,
  restricted, false (or true for ``private``) to public (a sample or a config the reader copies);
- a shell status zeroed: ``x=$?`` → ``x=0``, ``exit $status`` / ``return $?`` → ``exit 0``, ``|| true`` appended to a
  fetch (curl, wget, git fetch/clone/pull): a failure reads as success, in shell only.

The party guarded against is a worker that slips one such value into an ordinary change. Tests' own files stay quiet (the
row's scope); the same registry at another version, a thing made private, a status read into another name stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from typing import Any

from relay.core.contracts import FileChange
from relay.review.content_kinds import reading_path
from relay.review.kind_values import KIND_EXAMPLES, SCREEN_RE as _KIND_SCREEN_RE, block_off, digest_dropped, failures_ignored, git_locked, ref_unpinned, test_commented
from relay.review.line_shapes import clipped

__all__ = ["KIND_EXAMPLES", "PACKAGE_EXAMPLE", "package_check", "package_value", "screen"]

_SHOWN = 64
_MOST = 400  # lines a side read: linear, bounded (a lockfile's hunk is long)
_LONG = 300


def _quote(line: str) -> str:
    return clipped(line, _SHOWN)


# ----- a sandbox loosened
_CONFINEMENT_RE = re.compile(r"^\s*confinement\s*:\s*['\"]?(?P<v>\w+)")
_SANDBOX_ADDED_RE = re.compile(r"--(?:filesystem=(?:host|home|/)|device=all|share=network\b.*--socket=system-bus)|"
                               r"\b(?:seccomp|apparmor)[:=]\s*['\"]?unconfined\b|\bprivileged\s*:\s*true\b")


def _sandbox(added: Sequence[str], removed: Sequence[str]) -> str | None:
    strict = any((m := _CONFINEMENT_RE.match(old)) and m.group("v") == "strict" for old in removed)
    before = {ln.strip() for ln in removed}
    for new in added:
        m = _CONFINEMENT_RE.match(new)
        if m and strict and m.group("v") in ("devmode", "classic"):
            return f"takes the snap out of its sandbox (confinement: strict → {m.group('v')}): it runs unconfined on users' machines"
        if (s := _SANDBOX_ADDED_RE.search(new)) and new.strip() not in before and not any(_SANDBOX_ADDED_RE.search(o) for o in removed):
            return f"loosens the sandbox ({s.group(0).strip()}): {_quote(new)}"
    return None


# ----- a lockfile's package from another registry
_SOURCE_RE = re.compile(r"""^\s*(?:"?(?:source|resolved|remote|registry|url|index)"?\s*(?:=|:)?\s*(?:\{\s*(?:registry|url|git)\s*=\s*)?|resolved\s+)["']?(?:registry\+|git\+|sparse\+)?"""
                        r"""(?P<url>(?:https?|git|ssh)://[^"'\s#?]+)""")
_ROOT_RE = re.compile(r"^(?P<scheme>[a-z+]+)://(?P<host>[^/]+)(?:/(?P<first>[^/]*))?")


def _root(url: str) -> tuple[str, str, str] | None:
    m = _ROOT_RE.match(url)
    return (m.group("scheme"), m.group("host").lower(), (m.group("first") or "").lower()) if m else None


# A package from a git repository (``git+https://…``, ``….git``, a forge's repository) is a dependency's source the manifest
# names and its readers read; only a registry's index or tarballs are compared here.
_GIT_RE = re.compile(r"\bgit\+|\bgit://|ssh://|\.git(?:[\"'#?\s]|$)")
_FORGE_RE = re.compile(r"(?i)//(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/")


def _registry_url(line: str) -> str | None:
    m = _SOURCE_RE.match(line)
    if m is None or _GIT_RE.search(line) or (_FORGE_RE.search(m.group("url")) and "index" not in m.group("url")):
        return None
    return m.group("url")


def _registry_swapped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    roots = {r for old in removed if (url := _registry_url(old)) and (r := _root(url))}
    if not roots:
        return None
    hosts = {(s, h) for s, h, _ in roots}
    for new in added:
        if not (url := _registry_url(new)) or (r := _root(url)) is None or r in roots:
            continue
        # A registry's own packages under another first segment (npm's /<package>/-/…) share its scheme and host.
        if (r[0], r[1]) in hosts and not r[1].endswith(("github.com", "gitlab.com", "bitbucket.org")):
            continue
        was = next(iter(sorted(roots)))
        return f"takes a locked package from another registry ({was[1]}/{was[2]} → {r[1]}/{r[2]}, {r[0]}): {_quote(new)}"
    return None


# ----- a thing made public
_VISIBLE_RE = re.compile(r"""^\s*(?:[-*]\s+)?["']?(?P<key>visibility|public|is_?public|isPublic|private|acl|access|publicly_?accessible|anonymous(?:_?access)?)["']?\s*"""
                         r"""(?:=|:|=>)\s*["']?(?P<v>[\w-]+)""", re.I)
_CLOSED = {"private", "internal", "restricted", "false", "no", "off", "authenticated-read", "bucket-owner-full-control"}
_OPEN = {"public", "public-read", "public-read-write", "true", "yes", "on"}


def _made_public(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before: dict[str, str] = {}
    for old in removed:
        if m := _VISIBLE_RE.match(old):
            before.setdefault(m.group("key").lower(), m.group("v").lower())
    for new in added:
        if not (m := _VISIBLE_RE.match(new)) or (key := m.group("key").lower()) not in before:
            continue
        old_v, new_v = before[key], m.group("v").lower()
        flips = (old_v == "true" and new_v == "false") if key == "private" else (old_v in _CLOSED and new_v in _OPEN and old_v != new_v)
        if flips:
            return f"makes it public ({m.group('key')} {old_v} → {new_v}): {_quote(new)}"
    return None


# ----- a shell status zeroed
_STATUS_SET_RE = re.compile(r"^\s*(?:local\s+)?(?P<name>\w+)=(?P<v>\$\?|\"\$\?\"|0)\s*(?:[;#].*)?$")
_EXIT_RE = re.compile(r"^\s*(?P<verb>exit|return)\s+(?P<v>\"?\$\{?\w+\}?\"?|\$\?|0)\s*(?:[;#].*)?$")
_FETCH_RE = re.compile(r"\b(?:curl|wget|git\s+(?:fetch|clone|pull)|fetch)\b")
_SHELL_RE = re.compile(r"(?i)\.(?:sh|bash|zsh|ksh|bats)$|(?:^|/)(?:\.husky/|hooks/)[\w-]+$")


def _status_zeroed(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not _SHELL_RE.search(path):
        return None
    read = {m.group("name") for old in removed if (m := _STATUS_SET_RE.match(old)) and m.group("v") != "0"}
    exits = {m.group("verb") for old in removed if (m := _EXIT_RE.match(old)) and m.group("v") != "0"}
    before = {ln.strip() for ln in removed}
    for new in added:
        if (m := _STATUS_SET_RE.match(new)) and m.group("v") == "0" and m.group("name") in read:
            return f"zeroes a command's status ({m.group('name')}=$? → {m.group('name')}=0): a failure reads as success: {_quote(new)}"
        if (m := _EXIT_RE.match(new)) and m.group("v") == "0" and m.group("verb") in exits:
            return f"{m.group('verb')}s 0 whatever the status (was {m.group('verb')} with it): a failure reads as success: {_quote(new)}"
        if "|| true" in new and _FETCH_RE.search(new) and new.replace("|| true", "").strip() in before:
            return f"swallows a fetch's failure (|| true): {_quote(new)}"
    return None


# The cheap test a settings or build file's changed line passes to be kept for the rules (relay.review.file_kinds).
_SCREEN_RE = re.compile(r"(?i)\bconfinement\b|--(?:filesystem|device)=|\bunconfined\b|\b(?:visibility|public|private|acl|access)\b")


def screen(line: str) -> bool:
    return _SCREEN_RE.search(line) is not None or _KIND_SCREEN_RE.search(line) is not None


def package_value(kind: str, path: str, added: Sequence[str], removed: Sequence[str], written: frozenset[str] = frozenset()) -> str | None:
    """What a build or packaging value that weakens what ships lets happen, or None (see the module's doc)."""
    added = [ln for ln in added[:_MOST] if len(ln) <= _LONG]
    removed = [ln for ln in removed[:_MOST] if len(ln) <= _LONG]
    if kind in ("build", "manifest", "data") and (alone := digest_dropped(added, removed) or block_off(added, removed)
                                                  or failures_ignored(added, removed, path)):
        return alone  # a digest line removed alone, a block switched off around lines no screen keeps (round 33)
    if not added or not removed:
        return None
    if kind == "lockfile":
        return _registry_swapped(added, removed) or git_locked(added, removed, written)
    # A build file's, a manifest's or a data file's (a Meson wrap) line read by its value, not by the file's kind (round 33).
    built = (ref_unpinned(added, removed) or test_commented(added, removed)) if kind in ("build", "manifest", "data") else None
    return built or _sandbox(added, removed) or _made_public(added, removed) or _status_zeroed(path, added, removed)


def package_check(f: Any, ctx: Any) -> str | None:
    """The rule's check (relay.review.rules, ``weakens_package``; ``f`` a ``relay.review.facts.FileFacts``, not imported:
    relay.review.file_kinds reads this module's screen and facts reads file_kinds): a script named without a language
    is read as its head says."""
    return package_value(f.kind, reading_path(f.path), f.change.added_lines, f.change.removed_lines, ctx.written)


# The rule's example and its near miss: a snap taken out of its sandbox, and put back.
PACKAGE_EXAMPLE = (
    FileChange(path="snap/snapcraft.yaml", additions=1, deletions=1, removed_lines=["confinement: strict"], added_lines=["confinement: devmode"]),
    "takes the snap out of its sandbox (confinement: strict → devmode): it runs unconfined on users' machines",
    FileChange(path="snap/snapcraft.yaml", additions=1, deletions=1, removed_lines=["confinement: devmode"], added_lines=["confinement: strict"]),
)
