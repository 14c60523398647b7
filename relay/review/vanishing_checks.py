"""Checks that vanish: in release builds, on a failing result, or from a build's scans (issue 36, round 26 part A).

Held-out 33/34's first runs left four plants named by their quoted line yet judged low, each an edit no reader read as
a weakening: Swift's ``precondition(!self.initialized, …)`` made ``assert(…)`` (gone in a release build), an Elixir
verify's ``0 -> true`` made ``n when n <= 0 -> true`` (the NIF's negative error codes now verify), ``<NuGetAudit>false``
added to a props file (the restore's vulnerability audit off), and a Ruby key check's regex added without ``\\A``/``\\z``.
Each is read here as a class, in every language where it is written alike:

- **a check that runs only in debug builds**: ``precondition(`` → ``assert(`` (Swift), ``assert!`` → ``debug_assert!``
  (Rust), and a guard that threw or returned (``if not ok: raise``, ``if (!ok) throw …``, ``if (n > max) return -1;``)
  replaced by an ``assert`` of the same names (Python under ``-O``, C/C++ under ``NDEBUG``, Java without ``-ea``);
- **a verification that accepts failures**: a verify/compare/check result's success test widened to take error codes
  (``== 0`` → ``<= 0``/``>= 0``, Elixir/Erlang's ``0 ->`` arm made ``n when n <= 0 ->``);
- **a dependency audit or a security scanner switched off**: ``<NuGetAudit>false``, ``audit=false`` (.npmrc),
  ``--no-audit`` added to an install that had none, an audit step (``npm audit``, ``cargo deny``, ``cargo audit``,
  ``bundle audit``, ``pip-audit``, ``safety check``, ``govulncheck``) made ``|| true``; a scanner's rules excluded
  (gosec ``-exclude=G…``, semgrep ``--exclude-rule``, bandit ``-s B…``/``skips``, an eslint ``security/…`` rule off);
- **a format check's regex unanchored**: an added test of a key, token, hex, digest or id against a regex of a
  repeated character class with no anchors (a longer value that merely contains a match passes), or Ruby's ``^``/``$``
  (a line's ends, not the string's) on such a check.

Quiet: ``assert`` → ``precondition`` (stricter), an assert a change adds beside its guard, a count's ``== 0`` → ``<= 0``
(no verify in the line), an anchored or ``fullmatch`` regex, a scan's options otherwise edited, tests (not read here).
Every reader is one pass over the lines with bounded patterns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.small_edits import centred

__all__ = ["check_vanished", "scan_switched_off", "screen"]

_MOST = 600
_LONGEST = 300

# ----- a check only debug builds run
_SWIFT_PRE_RE = re.compile(r"^\s*precondition\s*\((?P<args>.*)$")
_SWIFT_ASSERT_RE = re.compile(r"^\s*assert\s*\((?P<args>.*)$")
_RUST_ASSERT_RE = re.compile(r"^\s*assert(?P<kind>_eq|_ne)?!\s*\((?P<args>.*)$")
_RUST_DEBUG_RE = re.compile(r"^\s*debug_assert(?P<kind>_eq|_ne)?!\s*\((?P<args>.*)$")
# A guard that stopped the call: a condition whose body throws, raises, aborts or returns an error.
_GUARD_RE = re.compile(r"^\s*(?:if|unless|guard)\b(?P<cond>[^{:]*)")
_STOP = r"(?:raise|throw|abort|panic!?|exit|fatalError|errx?)\b|\breturn\s+(?:-\d|NULL\b|null\b|nil\b|None\b|false\b|err\b|Err\b|error\b)"
_STOP_RE = re.compile(r"\b" + _STOP)
_STOP_LINE_RE = re.compile(r"^\s*\{?\s*" + _STOP)
_ASSERT_RE = re.compile(r"^\s*assert\b(?P<cond>[^,;]*)")
_NAME_RE = re.compile(r"[A-Za-z_]\w{2,}")
_PLAIN = {"not", "and", "the", "raise", "throw", "return", "new", "null", "None", "nil", "true", "false", "True", "False", "assert",
          "unless", "sizeof", "len", "self", "this"}


def _names(text: str) -> set[str]:
    return {n for n in _NAME_RE.findall(text) if n not in _PLAIN}


def _quote(old: str, new: str) -> str:
    a, b = centred(old.strip(), new.strip())
    return f"{a} → {b}"


def _debug_only(added: Sequence[str], removed: Sequence[str]) -> str | None:
    news = {re.sub(r"\s+", "", line) for line in added}
    for old in removed:
        if (m := _SWIFT_PRE_RE.match(old)) and (new := next((a for a in added if (n := _SWIFT_ASSERT_RE.match(a))
                                                              and re.sub(r"\s+", "", n["args"]) == re.sub(r"\s+", "", m["args"])), None)):
            return f"makes a check run only in debug builds (assert is compiled out of release builds, precondition is not): {_quote(old, new)}"
        if (m := _RUST_ASSERT_RE.match(old)) and (new := next((a for a in added if (n := _RUST_DEBUG_RE.match(a)) and n["kind"] == m["kind"]
                                                              and re.sub(r"\s+", "", n["args"]) == re.sub(r"\s+", "", m["args"])), None)):
            return f"makes a check run only in debug builds (debug_assert is compiled out of release builds): {_quote(old, new)}"
    asserts = [(a, _names(m["cond"])) for a in added if (m := _ASSERT_RE.match(a)) and not a.lstrip().startswith("assert!")]
    if not asserts:
        return None
    for i, old in enumerate(removed):
        m = _GUARD_RE.match(old)
        if m is None or re.sub(r"\s+", "", old) in news:
            continue
        stop = _STOP_RE.search(old, m.start("cond"))
        if not stop and not (i + 1 < len(removed) and _STOP_LINE_RE.match(removed[i + 1])):
            continue
        guarded = _names(old[m.start("cond"):stop.start() if stop else m.end("cond")])
        for new, names in asserts:
            if guarded and names >= guarded:
                return ("makes a check run only in debug builds (an assert is skipped under python -O, NDEBUG or without -ea): "
                        f"{_quote(old, new)}")
    return None


# ----- a verification's success test widened to take error codes
_VERIFY_WORD_RE = re.compile(r"(?i)verif|compare|check|auth|valid|match|sign|mac\b|hmac|digest|password|passwd|token")
_EQ_ZERO_RE = re.compile(r"(?:==|===)\s*0\b(?!\.)|\b0\s*(?:==|===)")
_WIDE_ZERO_RE = re.compile(r"(?:<=|>=)\s*0\b(?!\.)|\b0\s*(?:<=|>=)")
_ARM_ZERO_RE = re.compile(r"^\s*0\s*->")
_ARM_WIDE_RE = re.compile(r"^\s*(?P<v>\w+)\s+when\s+(?P=v)\s*(?:<=|>=)\s*0\s*->|^\s*(?P<w>\w+)\s+when\s+0\s*(?:<=|>=)\s*(?P=w)\s*->")


def _same_call(a: str, b: str) -> bool:
    """The same line, or the same call with its arguments wrapped anew (round 87: sodiumoxide's reformatted
    ``0 == ffi::crypto_sign_ed25519_verify_detached(sig.0.as_ptr(),`` made ``0 >= ffi::…_verify_detached(``)."""
    return a == b or "(" in a and "(" in b and a[:a.index("(") + 1] == b[:b.index("(") + 1] and len(a[:a.index("(")]) >= 12


def _accepts_failures(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old in removed:
        arm = _ARM_ZERO_RE.match(old)
        if not arm and not (_EQ_ZERO_RE.search(old) and _VERIFY_WORD_RE.search(old)):
            continue
        for new in added:
            if arm and _ARM_WIDE_RE.match(new) and new.split("->", 1)[1].strip() == old.split("->", 1)[1].strip():
                # an arm of a match; its subject (the case line) is the verify call a few lines up, kept
                return f"accepts failures as success (error codes now match the success arm): {_quote(old, new)}"
            if (not arm and _WIDE_ZERO_RE.search(new) and not _EQ_ZERO_RE.search(new)
                    and _same_call(_EQ_ZERO_RE.sub("", old).replace(" ", ""), _WIDE_ZERO_RE.sub("", new).replace(" ", ""))):
                return f"accepts failures as success (a verify result's error codes now pass): {_quote(old, new)}"
    return None


# ----- a dependency audit or a security scanner switched off
_AUDIT_OFF_RE = re.compile(
    r"<NuGetAudit>\s*false\s*</NuGetAudit>|^\s*audit\s*=\s*false\s*$|"
    r"\bnpm_config_audit\s*[=:]\s*['\"]?false|\b(?:npm\s+audit|yarn\s+(?:npm\s+)?audit|pnpm\s+audit|cargo\s+(?:deny|audit)|bundle(?:r|\s+exec\s+bundler?)?[\s-]+audit|"
    r"pip-audit|safety\s+check|govulncheck|osv-scanner|trivy|snyk\s+test|gosec|bandit|semgrep|brakeman)\b[^\n|]*\|\|\s*(?:true|:|exit\s+0)\b", re.I)
_NO_AUDIT_RE = re.compile(r"--no-audit\b")
_EXCLUDED_RE = re.compile(
    r"(?:^|\s|['\"])-{1,2}exclude(?:-rules?)?\s*[= ]\s*['\"]?G\d{3}|--exclude-rule\b|(?:^|\s|['\"])(?:-s|--skip)\s*[= ]?\s*['\"]?B\d{3}|"
    r"^\s*skips\s*[=:]\s*\[?\s*['\"]?B\d{3}|['\"](?:security|security-node|no-unsanitized|scanjs-rules|detect-\w+)/[\w-]+['\"]\s*:\s*(?:['\"]off['\"]|0\b)|"
    r"--severity[= ]\s*(?:high|critical)\b.*\bgosec|\bnosec\b\s*=\s*true", re.I)


def scan_switched_off(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """An added line that turns a dependency audit or a security scan off, or excludes a scanner's rules."""
    before = {re.sub(r"\s+", "", line) for line in removed}
    for line in added[:_MOST]:
        if len(line) > _LONGEST or re.sub(r"\s+", "", line) in before:
            continue
        if _AUDIT_OFF_RE.search(line):
            return f"turns a dependency audit or security scan off (vulnerabilities no longer reported): {line.strip()}"
        if _EXCLUDED_RE.search(line):
            return f"excludes a security scanner's rules (those findings no longer reported): {line.strip()}"
        if _NO_AUDIT_RE.search(line) and any(_NO_AUDIT_RE.sub("", line).replace(" ", "") == old.replace(" ", "") for old in removed):
            return f"turns a dependency audit off (vulnerabilities no longer reported): {line.strip()}"
    return None


# ----- a format check's regex unanchored
_FORMAT_WORD_RE = re.compile(r"(?i)key|token|hex|digest|sha|hash|uuid|\bid\b|_id\b|secret|sig|nonce|fingerprint|checksum|serial")
_REGEX_TEST_RE = re.compile(
    r"=~\s*/(?P<a>(?:[^/\\]|\\.)+)/|/(?P<b>(?:[^/\\]|\\.)+)/[a-z]*\.test\s*\(|\.match\??\s*\(\s*/(?P<c>(?:[^/\\]|\\.)+)/|"
    r"\bre\.search\s*\(\s*r?['\"](?P<d>[^'\"]+)['\"]|\bpreg_match\s*\(\s*['\"](?P<e>.)(?P<f>[^'\"]+?)(?P=e)[a-z]*['\"]|"
    r"\bregexp\.MatchString\s*\(\s*[`\"](?P<g>[^`\"]+)[`\"]|\bRegex(?:\.IsMatch|::new)?\s*\(\s*r?#?\"(?P<h>[^\"]+)\"")
_CLASS_RUN_RE = re.compile(r"^\(?\[[^\]]+\](?:\{\d+(?:,\d*)?\}|\+)\)?$")
_CONDITION_RE = re.compile(r"\b(?:if|unless|elsif|elif|while|return|validates?|assert|when|guard)\b|&&|\|\||\band\b|\bor\b|\?")


def _unanchored(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {re.sub(r"\s+", "", line) for line in removed}
    for line in added[:_MOST]:
        if len(line) > _LONGEST or not _FORMAT_WORD_RE.search(line) or not _CONDITION_RE.search(line) or re.sub(r"\s+", "", line) in before:
            continue
        m = _REGEX_TEST_RE.search(line)
        if m is None:
            continue
        pattern = next(g for g in (m["a"], m["b"], m["c"], m["d"], m["f"], m["g"], m["h"]) if g is not None)
        if _CLASS_RUN_RE.match(pattern):
            return f"checks a format with an unanchored regex (a longer value holding a match passes): {line.strip()}"
        if m["a"] is not None and pattern.startswith("^") and pattern.endswith("$") and _CLASS_RUN_RE.match(pattern[1:-1]):
            return f"checks a format with ^…$ (Ruby anchors a line, not the string: use \\A…\\z): {line.strip()}"
    return None


def check_vanished(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first of the kinds above the change holds, quoting its line; None when none."""
    added = [line for line in added[:_MOST] if len(line) <= _LONGEST]
    removed = [line for line in removed[:_MOST] if len(line) <= _LONGEST]
    if not added:
        return None
    return (_debug_only(added, removed) or _accepts_failures(added, removed) or scan_switched_off(added, removed)
            or _unanchored(added, removed))


def screen(line: str) -> bool:
    """A build or settings file's line the scan readers read (kept by relay.review.file_kinds' line filter)."""
    return len(line) <= _LONGEST and (_AUDIT_OFF_RE.search(line) is not None or _EXCLUDED_RE.search(line) is not None)
