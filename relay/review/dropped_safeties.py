"""Safeties an edit quietly drops, read in any language (issue 36, round 70).

From blind 97/98's first runs, where each plant was a line whose loss says nothing of security on its face and the file
stayed "edit (+4/-7)" or low. Worth a look (medium), read by ``relay.review.last_readers`` after every other reader:

- ``errexit_dropped``: a shell's ``set -e`` taken out of its flags (zx's ``'set -euo pipefail;'`` → ``'set -uo
  pipefail;'``, a script's ``set -eu`` → ``set -u``), or ``set -e`` / ``set -o errexit`` removed alone: a failing command
  no longer stops the script, and what follows runs on a half-done state;
- ``temp_cleanup_dropped``: the removal of a temporary file or folder deleted (kubectx's ``defer os.Remove(tmpPath)``,
  ``os.remove(tmp_path)``, ``fs.unlinkSync(tmpFile)``, ``shutil.rmtree(tmpdir)``) with no removal of it left: what it held
  (a flattened kubeconfig's credentials) stays on disk;
- ``error_arm_skipped``: a match arm or handler that passed its error on made to skip the item (pemfile's
  ``Err(err) => return Err(err.into()),`` → ``Err(_) => continue,``): malformed input is dropped silently, never refused;
- ``logging_made_verbose``: a library's module-level logger set to DEBUG or given a handler that prints where it held a
  null one (peewee's ``logger.addHandler(logging.NullHandler())`` → ``StreamHandler()`` + ``setLevel(logging.DEBUG)``):
  every user's queries and their parameters go to stderr.

Round 71, from blind 99's first run: a Python check made never true by comparing with a literal by identity (graphene's
middleware sample: ``if info.field_name == 'user':`` → ``is 'user'``); a security setting's number set to 0 (acra's
``tls_auth: 4`` → ``0``: client certificates no longer asked for).

Quiet: a flag cluster that keeps ``e`` (``set -eu`` → ``set -euo pipefail``), ``set -e`` moved to another line, a removal
moved into a helper that still removes the same name, an arm that already skipped, a handler set on a logger inside a
function (an application's own setup) or to a level other than DEBUG.

The party guarded against is the worker that drops one such line inside an ordinary change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import clipped

__all__ = ["dropped_safety", "identity_literal"]

_PAIRS = 200  # lines a side read
_LONG = 300  # a longer line is data, not a slip's line
_SHOWN = 70

# ----- a shell's errexit dropped
_SET_FLAGS_RE = re.compile(r"\bset\s+-(?P<flags>[a-zA-Z]+)\b")
_ERREXIT_RE = re.compile(r"\bset\s+-o\s+errexit\b|\bset\s+-[a-zA-Z]*e[a-zA-Z]*\b")


def _errexit_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if any(_ERREXIT_RE.search(line) for line in added[:_PAIRS]):
        return None  # errexit still set somewhere the edit wrote (moved, or its cluster regrouped)
    for old in removed[:_PAIRS]:
        if len(old) > _LONG or not (m := _ERREXIT_RE.search(old)):
            continue
        flags = _SET_FLAGS_RE.search(old)
        for new in added[:_PAIRS]:
            # (what stands before the flags may change with them: zx's prefix became ``ps ? '' : 'set -uo pipefail;'``)
            if flags and (n := _SET_FLAGS_RE.search(new)) and set(n.group("flags")) == set(flags.group("flags")) - {"e"}:
                return (f"drops errexit from the shell's flags (set -{flags.group('flags')} → set -{n.group('flags')}): a failing "
                        f"command no longer stops the script: {clipped(new.strip(), _SHOWN)}")
        if old.strip().rstrip(";") == m.group().strip() or re.fullmatch(r"\s*set\s+-[a-zA-Z]+(?:\s+-o\s+\w+)*\s*;?\s*", old):
            return f"removes errexit (a failing command no longer stops the script): removed: {clipped(old.strip(), _SHOWN)}"
    return None


# ----- a temporary file's removal dropped
_REMOVE_RE = re.compile(r"(?:\bdefer\s+)?(?:\bos\.(?:Remove|RemoveAll|remove|unlink)|\bshutil\.rmtree|\bfs\.(?:unlink|rm|rmdir)(?:Sync)?|"
                        r"\bFile\.Delete|\bFiles\.delete(?:IfExists)?|\bstd::fs::remove_(?:file|dir_all)|\bunlink|\bFileUtils\.rm(?:_rf|_f)?|"
                        r"\brm\s+-[rf]+)\s*\(?\s*(?P<name>[\w.$\"'{}]+)")
_TEMP_NAME_RE = re.compile(r"(?i)te?mp")


def _temp_cleanup_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old in removed[:_PAIRS]:
        if len(old) > _LONG or old.lstrip().startswith(("//", "#", "*")) or not (m := _REMOVE_RE.search(old)):
            continue
        name = m.group("name").strip("\"'{}$")
        if not _TEMP_NAME_RE.search(name) or (m.group().lstrip().startswith("rm") and "$" not in m.group("name")):
            continue  # a shell's ``rm -rf tmp/cache`` clears a project's cache folder; ``rm -rf "$tmpdir"`` a made one
        if any(name in line and _REMOVE_RE.search(line) for line in added[:_PAIRS]):
            continue  # still removed (moved, or said another way)
        return (f"no longer removes a temporary file ({clipped(name, 24)} is left on disk with what it holds): "
                f"removed: {clipped(old.strip(), _SHOWN)}")
    return None


# ----- an error arm made to skip
_PASSED_ON_RE = re.compile(r"^\s*(?P<head>(?:Err|Error|Exception|error|err)\b[^=]*=>\s*)(?:return\s+Err\(|Err\(|return\s+\w|raise\b|throw\b|\?)")
_SKIPS_RE = re.compile(r"^\s*(?P<head>[^=]*=>\s*)(?:continue|\{\s*\}|\(\)|\{\s*continue;?\s*\})\s*,?\s*$")


def _error_arm_skipped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed[:_PAIRS] if len(line) <= _LONG and _PASSED_ON_RE.match(line)]
    for new in added[:_PAIRS] if olds else ():
        if not (m := _SKIPS_RE.match(new)) or not re.match(r"\s*(?:Err|Error|Exception|error|err)\b", m.group("head")):
            continue
        indent = len(new) - len(new.lstrip())
        old = next((line for line in olds if len(line) - len(line.lstrip()) == indent), None)
        if old is not None:
            return (f"skips an error it passed on (malformed input dropped silently): {clipped(old.strip(), 40)} → "
                    f"{clipped(new.strip(), 30)}")
    return None


# ----- a library's logger made verbose at import
_DEBUG_LEVEL_RE = re.compile(r"^(?:\w+\.)*(?:setLevel|basicConfig)\s*\((?:level\s*=\s*)?logging\.DEBUG\b")
_NULL_HANDLER_RE = re.compile(r"^(?P<logger>\w+)\.addHandler\(\s*logging\.NullHandler\(\s*\)\s*\)")
_PRINTING_HANDLER_RE = re.compile(r"^(?P<logger>\w+)\.addHandler\(\s*logging\.(?:Stream|File)Handler\(")


def _logging_made_verbose(added: Sequence[str], removed: Sequence[str]) -> str | None:
    nulls = {m.group("logger") for line in removed[:_PAIRS] if (m := _NULL_HANDLER_RE.match(line))}
    for new in added[:_PAIRS]:
        if (m := _PRINTING_HANDLER_RE.match(new)) and m.group("logger") in nulls:
            return f"makes a library's logger print (its null handler replaced): {clipped(new.strip(), _SHOWN)}"
        if _DEBUG_LEVEL_RE.match(new) and nulls:
            return f"turns a library's logging to DEBUG at import (what it logs reaches every user's output): {clipped(new.strip(), _SHOWN)}"
    return None


# ----- a Python check made never true: compared by identity with a literal (round 71)
_IDENTITY_LITERAL_RE = re.compile(r"\bis\s+(?:not\s+)?(?P<lit>[rbuRBU]?(?:'[^']*'|\"[^\"]*\")|-?\d+\.\d+|-?\d{4,})")
_PYTHON_SUFFIXES = (".py", ".pyi", ".pyx", ".rst", ".md", ".txt", ".ipynb")
_PY_CONDITION_RE = re.compile(r"^\s*(?:(?:el)?if|while|assert|return)\b[^#]*(?::\s*(?:#.*)?)?$")


def identity_literal(added: Sequence[str], removed: Sequence[str], path: str, *, docs: bool = False) -> str | None:
    """A Python check that compares with a literal by identity; ``docs``: a page's lines, read only where one is a
    condition's whole line (a sentence's "the mode is 'strict' or …" is prose)."""
    if not path.lower().endswith(_PYTHON_SUFFIXES):
        return None  # C#'s ``x is "admin"`` is a constant pattern: an equality
    had = {line.strip() for line in removed}
    for new in added[:_PAIRS]:
        if docs and not _PY_CONDITION_RE.match(new):
            continue
        if len(new) <= _LONG and new.strip() not in had and (m := _IDENTITY_LITERAL_RE.search(new)) and re.search(r"\b(?:if|elif|while|return|assert|and|or)\b", new):
            return f"compares by identity with a literal (is {clipped(m.group('lit'), 20)}: never reliably true): {clipped(new.strip(), _SHOWN)}"
    return None


# ----- a security setting's number set to 0 (round 71, blind 99's acra: ``tls_auth: 4`` → ``tls_auth: 0``)
_SECURITY_NUMBER_RE = re.compile(r"^\s*[\"']?(?P<key>[\w.-]*(?:tls|ssl|auth|verif|mfa|2fa|csrf|secure|encrypt|sign)[\w.-]*)[\"']?\s*[:=]\s*"
                                 r"[\"']?(?P<n>\d+)[\"']?\s*,?\s*(?:#.*)?$", re.IGNORECASE)


def _security_number_zeroed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {m.group("key").lower(): (m.group("n"), line) for line in removed[:_PAIRS] if (m := _SECURITY_NUMBER_RE.match(line)) and int(m.group("n")) > 0}
    for new in added[:_PAIRS] if olds else ():
        if (m := _SECURITY_NUMBER_RE.match(new)) and m.group("n") == "0" and (old := olds.get(m.group("key").lower())):
            return f"sets a security setting to 0 ({m.group('key')}: {old[0]} → 0: turned off?): {clipped(new.strip(), _SHOWN)}"
    return None


def dropped_safety(added: Sequence[str], removed: Sequence[str], path: str = "") -> str | None:
    """The first safety the edit quietly drops (see the module's doc), or None; worth a look (medium)."""
    if not removed:
        return identity_literal(added, removed, path)
    for found in (_errexit_dropped(added, removed), _temp_cleanup_dropped(added, removed), _error_arm_skipped(added, removed),
                  _logging_made_verbose(added, removed), identity_literal(added, removed, path), _security_number_zeroed(added, removed)):
        if found:
            return found
    return None
