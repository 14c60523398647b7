"""A default or a bind set to its unsafe member, named by the key and what it now allows (issue 36, round 25 part B).

A key, a parameter or an option whose NAME says it guards — ``required``, ``verify``, ``strict``, ``secure``,
``limit(s)``, ``max…``, ``check…``, ``enforce…``, ``allow…``, ``trust…``, a ``host``/``bind``/``listen``/``address`` —
keeps its name when its value is turned the permissive way, and a worker that slips such a turn into an ordinary change
leaves a one-token edit the other readers quote as "true into false" or "an edit (+1/-1)". The first runs of held-out
31/32 left four: a test server's ``server_host = nil`` made ``'0.0.0.0'`` (in a 22-file commit, no target), a file
source's ``limits: Limit = .default`` made ``[]``, a JWT middleware's ``credentialsRequired`` default ``true`` made
``false`` (named only "turns true into false"), and a rate limiter's always-run ``store.incr`` made opt-in behind an
option that is off when not given.

``guard_default_turned`` pairs each edited line with its closest old one (relay.review.bound_turns' pairing: linear,
bounded) and reads the one stretch of tokens where they differ: it must stand after the key's assignment (``=``, ``:``,
``=>``, a parameter's ``name: Type =``), the nearest guard-named identifier before it is the key, and the new value
must be the key's permissive member:

- a host, bind, listen or address key made ``0.0.0.0``, ``::``, ``*`` or empty where a narrower value stood: "binds on
  every interface" (high, as the loopback-to-any reader's);
- a requiring or checking key (``required``, ``verify``, ``validate``, ``check…``, ``enforce…``, ``strict``, ``secure``)
  made ``false``/``0``/``off`` where ``true`` stood: "… no longer required/checked";
- an allowing or trusting key (``allow…``, ``trust…``, ``insecure``, ``skip…``) made ``true`` or ``*``;
- a limit (``limit(s)``, ``max…``) emptied (``[]``, ``{}``, ``""``, ``nil``/``None``/``null``; ``0`` for a limit) or
  raised to a number of ten digits or a MAX constant.

``action_made_opt_in``: a call the old code always made (``store.incr(key, …)``) now chosen by an optional option's
truthiness (``const m = callOptions?.increment ? 'incr' : 'read'`` … ``store[m](key, …)``): when the option is not
given, the other action runs, so the default no longer does what it always did.

Quiet: tests (the rule reads no test body), a default made stricter (``false`` → ``true`` on a ``required`` key, a
narrower host), a rename (the differing stretch is the key, not its value), a value changed within its kind
(``'127.0.0.1'`` → ``'localhost'``, ``limit: 10`` → ``20``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.bound_turns import _pairs
from relay.review.small_edits import common_ends, paired as _pair

__all__ = ["action_made_opt_in", "guard_default_turned", "guard_turn"]

_LONGEST = 400
_TOKEN_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|===|!==|==|!=|<=|>=|=>|:=|->|::|\|\||&&|\?\?|[\w$@]+(?:\.\d+)*|\S")
_ASSIGN = {"=", ":=", ":", "=>", ","}
# Identifier words that guard, by what their permissive member is.
_BIND_WORDS = {"host", "hostname", "bind", "listen", "address", "addr", "interface", "ip"}
_REQUIRE_WORDS = {"required", "require", "requires", "verify", "verified", "validate", "validation", "strict", "secure", "check",
                  "checks", "checked", "enforce", "enforced", "enforcing", "authenticate", "authenticated", "mandatory"}
_OPEN_WORDS = {"allow", "allowed", "allows", "trust", "trusted", "insecure", "skip", "permit", "permissive", "bypass"}
_LIMIT_WORDS = {"limit", "limits", "max", "maximum", "quota", "cap"}
# A switch of a form's or an editor's behaviour (``validateOnBlur``, ``checkSpelling``, ``strictTypes``): not a guard.
# A lifetime's name (``max_age``, ``max_ttl``): made endless, it is relay.review.edit_direction's lifetime reader's.
_TIME_WORDS = {"age", "ttl", "timeout", "expiry", "expires", "lifetime", "duration", "seconds", "secs", "ms", "minutes", "hours", "days"}
_UI_WORDS = {"on", "blur", "change", "submit", "mount", "focus", "ui", "form", "input", "type", "types", "spelling", "lint", "format", "mode"}
_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_ANY_HOST = {"0.0.0.0", "::", "[::]", "*", ""}
_FALSE = {"false", "False", "FALSE", "0", "off", "no", ":off", "'false'", "\"false\"", "'off'", "\"off\""}
_TRUE = {"true", "True", "TRUE", "1", "on", "yes"}
_EMPTY = {"[]", "{}", "\"\"", "''", "nil", "None", "null", "NULL", "undefined", "[:]", "()", "Set()", "[].freeze"}
_HUGE_RE = re.compile(r"^(?:\d{10,}|\d+e\d{2,}|Infinity|(?:Long|Integer|Int|Int64|UInt64|Number)\.MAX(?:_VALUE|_SAFE_INTEGER)?|[iu](?:32|64|size)::MAX|"
                      r"math\.MaxInt\d*|sys\.maxsize|float\(['\"]inf['\"]\)|math\.inf)$")


def _words(name: str) -> set[str]:
    return {w.lower() for w in _WORD_RE.findall(name)}


def _unquoted(token: str) -> str:
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"" else token


def _key(prefix: list[str]) -> tuple[str, set[str]] | None:
    """The guard-named key the differing stretch is assigned to: the nearest guard-named identifier before it, with an
    assignment between (a parameter's type annotation, ``limits: Limit =``, is skipped for the name before it)."""
    seen_assign = False
    for i in range(len(prefix) - 1, -1, -1):
        tok = prefix[i]
        if tok in _ASSIGN or tok == "?":
            seen_assign = True
            continue
        if not re.match(r"^[\w$@]+$", tok) or not seen_assign:
            continue
        if tok[:1].isupper() and i > 0 and prefix[i - 1] == ":":
            continue  # ``name: Type =``: the type, not the key
        words = _words(tok.lstrip("$@"))
        if words & (_BIND_WORDS | _REQUIRE_WORDS | _OPEN_WORDS | _LIMIT_WORDS) and not words & _UI_WORDS:
            return tok.lstrip("$@"), words
    return None


def _stretch(old: str, new: str) -> tuple[list[str], str, str] | None:
    """The tokens before the one stretch where the lines differ, and the two stretches (the new one at most three tokens,
    the old one at most eight: ``16 * 1024 * 1024`` → ``None``)."""
    a, b = _TOKEN_RE.findall(old), _TOKEN_RE.findall(new)
    start, end = common_ends(a, b)
    was, now = a[start:len(a) - end], b[start:len(b) - end]
    if not now or len(was) > 8 or len(now) > 3:
        return None
    return a[:start], "".join(was), "".join(now)


def _turn(old: str, new: str) -> tuple[str, bool] | None:
    found = _stretch(old, new)
    if found is None:
        return None
    prefix, was, now = found
    key = _key(prefix)
    if key is None:
        return None
    name, words = key
    bare_was, bare_now = _unquoted(was.strip("[]")), _unquoted(now.strip("[]"))  # ``['*']``: the list's one member
    if words & _BIND_WORDS and bare_now in _ANY_HOST and (now != "" and bare_was not in _ANY_HOST):
        return (f"binds on every interface ({name} {was or 'unset'} → {now})", True)
    if words & _REQUIRE_WORDS and now in _FALSE and was in _TRUE | {"'true'", "\"true\""}:
        what = "no longer required" if words & {"required", "require", "requires", "mandatory"} else "no longer checked"
        return f"turns {name} off ({was} → {now}, {what})", False
    if words & _OPEN_WORDS and not words & _REQUIRE_WORDS and (now in _TRUE and was in _FALSE or bare_now == "*" and now != "*" and was and bare_was != "*"):  # a quoted ``'*'``, not Go's ``*p``
        return f"turns {name} open ({was} → {now})", False
    if words & _LIMIT_WORDS and was and not words & _TIME_WORDS:
        if was not in _EMPTY and (now in _EMPTY or now == "0" and words & {"limit", "limits", "quota", "cap"}):
            return f"empties {name} ({was} → {now}, nothing limited)", False
        if _HUGE_RE.match(now.replace("_", "")) and not _HUGE_RE.match(was.replace("_", "")) and (was.replace("_", "").isdigit() or was.startswith(".")):
            return f"raises {name} to no end ({was} → {now})", False
    return None


def _turned_pair(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool, str, str] | None:
    if not added or not removed:
        return None
    (close,) = _pairs(added, removed, ((None, 0.5),))
    for old, new in close:
        if len(old) <= _LONGEST and len(new) <= _LONGEST and (found := _turn(old.strip(), new.strip())):
            return found[0], found[1], old, new
    return None


def guard_default_turned(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """A guard-named key's value turned to its permissive member (see the module's doc) with the pair quoted, and whether
    it is classic (high: a bind widened to every interface), or None."""
    found = _turned_pair(added, removed)
    return None if found is None else (f"{found[0]}: {_pair(found[2], found[3])}", found[1])


def guard_turn(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What a run read alone turns, quoted (relay.review.apart_edits' runs; relay.review.edit_scopes says its scope)."""
    found = guard_default_turned(added, removed)
    return None if found is None else found[0]


# ----- an always-run call made opt-in behind an option that is off when not given
_CHOICE_RE = re.compile(r"(?P<var>[\w$]+)\s*(?::\s*\w+\s*)?=\s*\(?\s*(?P<opt>[\w$.]*\?\.[\w$]+|[\w$.]*\b(?:options|opts|config|settings|params)\??\.[\w$]+)\s*\)?\s*"
                        r"\?\s*['\"](?P<a>\w+)['\"]\s*:\s*['\"](?P<b>\w+)['\"]")


def action_made_opt_in(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"makes an always-run call opt-in …" when a new line picks a method by an optional option's truthiness, the old
    code always called the truthy branch's method, and the call is now made through the pick (``store[m](…)``)."""
    for line in added[:200]:
        m = _CHOICE_RE.search(line) if len(line) <= _LONGEST else None
        if m is None:
            continue
        a, b, var = m.group("a"), m.group("b"), m.group("var")
        called = re.compile(rf"[.\s]{re.escape(a)}\s*\(")
        old = next((o for o in removed[:200] if len(o) <= _LONGEST and called.search(o)), None)
        if old is None or any(re.search(rf"[.\s]{re.escape(b)}\s*\(", o) for o in removed[:200]):
            continue
        new = next((n for n in added[:200] if re.search(rf"\[\s*{re.escape(var)}\s*\]\s*\(", n)), None)
        if new is None:
            continue
        return (f"makes an always-run call opt-in ({m.group('opt')} not given → '{b}', the default no longer calls {a}): "
                f"{_pair(old, new)}; {line.strip()[:70]}")
    return None
