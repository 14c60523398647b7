"""A bound an edited pair drops, read in every ecosystem where the kind of line exists (issue 36, round 14):

- a read's size limit removed: the body read whole where it was read through a limit (Go's ``io.LimitReader`` and
  ``http.MaxBytesReader``, Rust's ``.take(n)`` before a ``read_to_end``, Python's ``.read(n)``, a Node body parser's
  ``limit``): a hostile or broken peer can exhaust the memory;
- a container made to run as root: a Dockerfile's ``USER`` of another user removed with none added, or its last ``USER``
  root where its lines make a user of their own (round 37: a new Dockerfile's ``USER appuser`` written ``USER root``), or a compose or
  Kubernetes file's user set to root (``user: root``, ``runAsUser: 0``); a service too (round 35): a systemd unit's
  ``User=`` or a supervisord program's ``user=`` made root where it named another user;
- a signed token's expiry dropped or made endless: ``max_age``/``maxAge``/``expiresIn`` removed from the call that
  signs or verifies it, or set to ``:infinity``/``None``/``nil``/``Infinity``;
- (round 25 part C) an index's bound made to include the length: ``if i < len(path)`` → ``if i <= len(path)``,
  ``idx < buf.length`` → ``idx <= buf.length``, ``n >= s.size()`` → ``n > s.size()``, the rest of the line the same: the
  index may now equal the length, one past the last element (a read out of range, a panic, an overflow).

The party guarded against is the worker that slips one such edit into an ordinary change: each is one line that reads as
tidying (a shorter call, a line removed) and no word on it says what was lost. Each reader needs the pair: the removed
line with the bound and an added line doing the same without it, so a new file or a line only added is never read (but
a new Dockerfile's user).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed

__all__ = ["CONTAINER_USER_RE", "bound_dropped"]

_SHOWN = 70

# A read through a limit, and the read it wraps (what the added line must still do, without the limit).
_LIMITED_READ_RE = re.compile(
    r"\bio\.LimitReader\(|\bhttp\.MaxBytesReader\(|\.take\(\s*[\w:.]+\s*\)\s*\.read_to_(?:end|string)\("
    r"|\.read\(\s*(?:[A-Z_][A-Z0-9_]*|\d[\d_]*|\d+\s*[*<]+\s*\d+)\s*\)"
    r"|\b(?:express|bodyParser)\.(?:json|urlencoded|text|raw)\(\s*\{[^}]*\blimit\s*:")
_READ_RE = re.compile(r"\b(?:io\.ReadAll|ioutil\.ReadAll|read_to_end|read_to_string)\(|\.read\(\s*\)"
                      r"|\b(?:express|bodyParser)\.(?:json|urlencoded|text|raw)\(")
_WRAPS_RE = re.compile(r"^\s*[\w.]+\s*:?=\s*(?:io\.LimitReader|http\.MaxBytesReader)\(")
_STILL_LIMITED_RE = re.compile(r"LimitReader|MaxBytesReader|\.take\(|\blimit\s*:|\.read\(\s*[^)\s]")

# A container's user: a Dockerfile's USER line, a compose or Kubernetes key.
_DOCKERFILE_RE = re.compile(r"(?i)(?:^|/)(?:docker|container)file(?:\.[\w.-]+)?$|\.(?:docker|container)file$")
_USER_LINE_RE = re.compile(r"^\s*USER\s+(?P<who>\S+)", re.IGNORECASE)
_USER_KEY_RE = re.compile(r"^\s*(?:-\s*)?(?P<key>user|runAsUser)\s*:\s*[\"']?(?P<who>[^\"'\s#]+)")
_ROOT = frozenset({"root", "0", "0:0", "root:root"})
_MAKES_USER_RE = re.compile(r"\b(?:adduser|useradd)\b")
# The lines a settings or build file keeps for the rules (relay.review.file_kinds): the user a container runs as.
CONTAINER_USER_RE = re.compile(r"^\s*USER\s+\S|^\s*(?:-\s*)?(?:user|runAsUser)\s*:\s*\S|^\s*user\s*=\s*\S|" + _MAKES_USER_RE.pattern, re.IGNORECASE)
# A service's user in an INI-shaped unit: systemd's ``User=``, supervisord's ``user=``, a template of one (``.service.erb``).
_UNIT_USER_RE = re.compile(r"^\s*(?P<key>User|user)\s*=\s*[\"']?(?P<who>[^\"'\s#;]+)")

# A signed token's expiry: the keyword that bounds it, and what makes it endless.
_EXPIRY_RE = re.compile(r"\b(?P<key>max_age|maxAge|expiresIn|expires_in|max_age_seconds)\s*(?::|=>|=)\s*(?P<value>[^,)\s}]+)")
_SIGNED_RE = re.compile(r"(?i)token|sign|verify|loads|jwt")
_ENDLESS = frozenset({":infinity", "none", "nil", "infinity", "float('inf')", 'float("inf")', "math.inf", "number.max_safe_integer"})


def _call_name(line: str) -> str:
    """The first called name on a line (``Phoenix.Token.verify`` of ``… <- Phoenix.Token.verify(conn, …``)."""
    m = re.search(r"([A-Za-z_][\w.:]*)\s*\(", line)
    return m.group(1) if m else ""


def _read_limit(added: Sequence[str], removed: Sequence[str]) -> str | None:
    limited = any(_STILL_LIMITED_RE.search(new) for new in added)
    for old in removed:
        if not _LIMITED_READ_RE.search(old):
            continue
        if _WRAPS_RE.match(old) and not limited:
            # The body wrapped in a limit by a statement of its own (``r.Body = http.MaxBytesReader(w, r.Body, n)``), removed.
            return f"removes a read's size limit: removed: {old.strip()[:_SHOWN]}"
        for new in added:
            if _READ_RE.search(new) and not _STILL_LIMITED_RE.search(new) and squeezed(new) != squeezed(old):
                return f"removes a read's size limit: {old.strip()[:_SHOWN]} → {new.strip()[:_SHOWN]}"
    return None


def _container_root(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if _DOCKERFILE_RE.search(path):
        gone = [m.group("who") for line in removed if (m := _USER_LINE_RE.match(line))]
        now = [m.group("who") for line in added if (m := _USER_LINE_RE.match(line))]
        if any(who.lower() not in _ROOT for who in gone) and all(who.lower() in _ROOT for who in now):
            said = f"USER {now[-1]}" if now else f"removed: USER {gone[-1]}"
            return f"runs the container as root ({said})"
        # A file that makes its own user (``adduser``/``useradd``) and then runs as root (a new Dockerfile's last USER):
        # the user made for it is never used.
        made = next((line for line in added if _MAKES_USER_RE.search(line)), None)
        if made is not None and now and now[-1].lower() in _ROOT:
            return f"runs the container as root (USER {now[-1]}) though it makes a user: {made.strip()[:_SHOWN]}"
        return None
    if not path.endswith((".yml", ".yaml")):
        # A systemd unit's or supervisord program's user made root, where it ran as another user: the service runs as root.
        before = {m.group("key"): line.split("=", 1)[1].strip() for line in removed if (m := _UNIT_USER_RE.match(line))}
        for line in added:
            m = _UNIT_USER_RE.match(line)
            if m and m.group("who").lower() in _ROOT and before.get(m.group("key"), "root").lower() not in _ROOT:
                return f"runs the service as root: {line.strip()[:_SHOWN]} (was {before[m.group('key')][:_SHOWN]})"
        return None
    before = {m.group("key"): m.group("who") for line in removed if (m := _USER_KEY_RE.match(line))}
    for line in added:
        m = _USER_KEY_RE.match(line)
        if m and m.group("who").lower() in _ROOT and before.get(m.group("key"), "root").lower() not in _ROOT:
            return f"runs the container as root: {line.strip()[:_SHOWN]} (was {before[m.group('key')]})"
    return None


def _expiry_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old in removed:
        m = _EXPIRY_RE.search(old)
        if not m or not _SIGNED_RE.search(old) or m.group("value").lower() in _ENDLESS:
            continue
        call = _call_name(old)
        for new in added:
            if not call or call != _call_name(new) or squeezed(new) == squeezed(old):
                continue
            kept = _EXPIRY_RE.search(new)
            if kept is None:
                return f"drops a signed token's expiry ({m.group('key')}): {new.strip()[:_SHOWN]}"
            if kept.group("value").lower() in _ENDLESS:
                return f"makes a signed token's expiry endless ({m.group('value')} → {kept.group('value')}): {new.strip()[:_SHOWN]}"
    return None


def bound_dropped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What bound an edited pair of lines drops (a read's size limit, the container's non-root user, a signed token's
    expiry), quoted; None when it drops none."""
    if not removed:
        # A new Dockerfile is read for its user only: every other bound needs the line it was dropped from.
        return _container_root(path, added, removed) if _DOCKERFILE_RE.search(path) else None
    return (_read_limit(added, removed) or _container_root(path, added, removed) or _expiry_dropped(added, removed)
            or _bound_inclusive(added, removed))


# An index compared with a length: Go's len(x), C's strlen/sizeof, x.length, x.size(), x.count, count($x), x.len().
_LENGTH = r"(?:\blen\s*\([^()]*\)|\bstrlen\s*\([^()]*\)|\bsizeof\s*\(?[^()]*\)?|\bcount\s*\(\s*\$[^()]*\)|[\w$\]).]+\.(?:length|size|count|len)\b(?:\s*\(\s*\))?)"
_INCLUSIVE_RE = re.compile(r"(?P<i>[\w$.\[\]]+)\s*<=\s*(?P<n>" + _LENGTH + r")(?!\s*[-+]\s*\w)|(?P<n2>" + _LENGTH + r")\s*>=\s*(?P<i2>[\w$.\[\]]+)")


def _bound_inclusive(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"lets an index reach the length (off by one): …" when a compare of an index with a length keeps its line but
    gains the equals (``<`` → ``<=``, ``>`` → ``>=``)."""
    before = {squeezed(line) for line in removed[:400] if "<" in line or ">" in line}
    for line in added[:400]:
        if "=" not in line or len(line) > 300:
            continue
        m = _INCLUSIVE_RE.search(line)
        if m is None:
            continue
        op_at = line.index("=", m.start() + len(m.group("i") or m.group("n2")))
        was = line[:op_at] + line[op_at + 1:]
        if squeezed(was) in before:
            return f"lets an index reach the length (off by one: one past the last element is read): {' '.join(line.split())[:_SHOWN]}"
    return None
