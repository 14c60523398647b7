"""Slips in what a call answers or checks, read from an edited pair of lines (issue 36, round 77: blind 107/108's misses).

Each is one edit a worker makes in passing, with no security word on the line:

- ``result_dropped``: a call whose result a ``return`` passed on now stands alone, a constant returned in its place
  (libseccomp's ``return _rc_filter(sys_filter_load(col, rawrc));`` → ``sys_filter_load(col, rawrc);`` and
  ``return _rc_filter(0);``): a failure to load the filter reads as success;
- ``error_made_result``: a future or promise completed with a result where it failed (``set_exception`` →
  ``set_result``, ``reject(`` → ``resolve(``): the caller sees a value, never the error;
- ``coroutine_returned``: Python's ``await call(…)`` made ``return call(…)`` inside an ``async def``: the caller gets a
  coroutine object that never runs (aiosqlite's ``set_authorizer``, no authorizer installed);
- ``loop_start_moved``: a loop over items started at 1 where it started at 0, its bound kept (reselect's argument
  comparison: the first argument never compared, a stale result served);
- ``containment_widened``: a containment check's root given as its parent (``isPathInside(file, cwd)`` →
  ``isPathInside(file, path.dirname(cwd))``, ``relative_to(root)`` → ``relative_to(root.parent)``): what lies beside
  the folder now passes (round 87: high, read by relay.review.last_readers with the classic slips: globby's home folder);
- ``made_true``: a comparison's call replaced by a constant truth on the same line (``lhs.ct_eq(&rhs)`` →
  ``Choice::from(1)``): the check passes whatever it compared;
- ``unsigned_algorithm`` (round 78, high): a token's algorithm made "none" (``signing_algorithm.to_s`` → ``"none"``,
  round 80: ``jwt.HS256`` → ``jwt.NONE``; round 90: a check that also passes ``alg == "none"``);
- ``echo_left_on`` (round 78): a terminal's echo no longer turned off where a secret is read;
- ``list_from_two`` (round 78, new lines): an allow- or deny-list consulted only when it holds two entries or more;
- ``verdict_made_presence``, ``radix_turned``, ``static_root_widened`` (round 79): a validator's answer read as
  ``!== undefined``, a number parsed in another base (round 87: high, with the classic slips of relay.review.last_readers),
  a static route's folder made the working folder.

Each reads a removed line against the added line that is the same but for the slip; a rewrite of the call moves more.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from relay.review.line_shapes import first_hit
from relay.review.overridden_turns import cut_quote, paired_quote

__all__ = ["answer_slip", "containment_widened", "list_from_two", "made_true", "radix_turned", "static_root_widened", "unsigned_algorithm"]

_PAIRS = 400  # lines read each side
_LONG = 300  # a line past this is data, not a statement


def _pairs(added: Sequence[str], removed: Sequence[str]) -> tuple[list[str], list[str]]:
    return [line for line in added[:_PAIRS] if len(line) <= _LONG], [line for line in removed[:_PAIRS] if len(line) <= _LONG]


# ----- a returned call's result dropped for a constant
_RETURNED_CALL_RE = re.compile(r"^\s*return\s+(?P<outer>[\w.:>-]+\()?\s*(?P<call>[A-Za-z_][\w.:>-]*\([^;]*?\))\s*\)?\s*;?\s*$")
_RETURNED_NAME_RE = re.compile(r"^\s*return\s+(?P<name>\$?[A-Za-z_]\w*)\s*;?\s*$")
_CONSTANT_ARG_RE = re.compile(r"^\s*return\s+(?P<outer>[\w.:>-]+\()?\s*(?:0|-?1|true|false|True|False|None|nil|null|NULL|Ok\(\(\)\))\s*\)?\s*;?\s*$")


def result_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = _pairs(added, removed)
    for line in old:
        m = _RETURNED_CALL_RE.match(line)
        if m is None:
            continue
        # The call as read (an outer wrapper and its inner call), or the whole of what is returned (``p.Parse(flags())``).
        whole = line.strip().removeprefix("return").strip().rstrip(";").strip()
        for outer, call in ((m.group("outer") or "", m.group("call")), *((("", whole),) if m.group("outer") else ())):
            # The call alone, or its result handed to Go's blank identifier (round 85: go-arg's ``_ = p.Parse(flags())``).
            if not any(re.sub(r"^_\s*=\s*", "", a.strip().rstrip(";").strip()) == call for a in new):
                continue
            constant = next((a for a in new if (c := _CONSTANT_ARG_RE.match(a)) and (c.group("outer") or "") == outer), None)
            if constant is not None:
                return f"drops the result it returned (the call now alone, a constant returned: its failure reads as success): {paired_quote(line, constant)}"
            # Its input handed back as it came (round 117, blind 368's Purifier: ``return app('purifier')->clean($dirty, …);``
            # → the call alone, then ``return $dirty;``): whatever the call cleaned or checked, the caller gets the raw value.
            given = next((a for a in new if (r := _RETURNED_NAME_RE.match(a)) and not outer
                          and re.search(rf"[(,]\s*{re.escape(r.group('name'))}\s*[,)]", call)), None)
            if given is not None:
                return f"drops the result it returned (the call now alone, its input returned as it came): {paired_quote(line, given)}"
    return None


# ----- a failure completed as a result
# (Rust's ``Err``/``Ok`` and a ``failure``/``success`` pair are every match arm's and every rewrite's: not read.)
_FAILS_AS = (("set_exception", "set_result"), ("reject", "resolve"), ("completeExceptionally", "complete"), ("setException", "set"),
             ("TrySetException", "TrySetResult"), ("SetException", "SetResult"))


def error_made_result(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = _pairs(added, removed)
    for bad, good in _FAILS_AS:
        bad_re = re.compile(rf"(?<![\w.])(?:[\w.]*\.)?{bad}\b")
        olds = [line for line in old if bad_re.search(line)]
        for line in olds:
            at = bad_re.search(line)
            head = line[:at.start()]
            if not head.strip().lstrip("$"):
                continue  # the name alone on its line or called bare: a rewrite pairs it with anything (reactphp's `$reject`)
            tail = line[at.end():]
            for a in new:
                # The same call after the name, but for its last arguments (`, future, e)` → `, future, None)`): a
                # rewrite that moves to resolve() with other arguments (keycloak's grant manager) is not this slip.
                done = re.match(rf"(?:[\w.]*\.)?{good}\b", a[len(head):]) if a.startswith(head) else None
                if done and not bad_re.search(a) and len(os.path.commonprefix([tail, a[len(head) + done.end():]]).strip()) >= 3:
                    return f"completes with a result where it failed ({bad} → {good}: the caller never sees the error): {paired_quote(line, a)}"
    return None


# ----- a coroutine returned where it was awaited
_AWAITED_RE = re.compile(r"^(?P<indent>\s*)await\s+(?P<call>[\w.]+\(.*\))\s*$")


def coroutine_returned(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    if not path.endswith(".py"):
        return None  # JavaScript's returned promise is adopted by the async caller; Python's coroutine object is not run
    new, old = _pairs(added, removed)
    for line in old:
        m = _AWAITED_RE.match(line)
        if m is None:
            continue
        for a in new:
            if a.strip() == f"return {m.group('call')}".strip():
                return f"returns a coroutine where it was awaited (the call never runs): {paired_quote(line, a)}"
    return None


# ----- a loop that starts past its first item
_LOOP_START_RE = re.compile(r"^\s*for\s*\(\s*(?:let|var|int|size_t|auto|unsigned|long|usize|i32|u32)?\s*(?P<i>[A-Za-z_]\w*)\s*=\s*(?P<start>\d+)\s*;(?P<rest>.*)$")


def loop_start_moved(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = _pairs(added, removed)
    starts = {(m.group("i"), m.group("rest").strip()): line for line in old if (m := _LOOP_START_RE.match(line)) and m.group("start") == "0"}
    for a in new if starts else ():
        m = _LOOP_START_RE.match(a)
        if m and m.group("start") == "1" and (line := starts.get((m.group("i"), m.group("rest").strip()))) is not None:
            return f"starts a loop at 1 where it started at 0 (its first item skipped): {paired_quote(line, a)}"
    return None


# ----- a containment check rooted at its parent
_CONTAINS_RE = re.compile(r"(?i)\b(?:is_?path_?inside|is_?inside|is_?within|is_?sub_?(?:dir|path)|is_relative_to|relative_to|contains_?path|"
                          r"starts_?with|has_?prefix|under_?root|in_?directory|within)\s*\(")
_PARENT_RES = (r"(?:path\.|os\.path\.|posixpath\.|filepath\.|Path\.)?(?:dirname|Dir|parent)\(\s*{x}\s*\)", r"{x}\.(?:parent|getParent\(\)|getParentFile\(\)|Parent|anchor)\b",
               r"(?:path\.|Path\.)?join\(\s*{x}\s*,\s*['\"]\.\.['\"]\s*\)", r"{x}\s*\+\s*['\"]/\.\.['\"]")


def containment_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = _pairs(added, removed)
    for line in old:
        if _CONTAINS_RE.search(line) is None:
            continue
        for a in new:
            if _CONTAINS_RE.search(a) is None or a == line:
                continue
            for x in set(re.findall(r"[A-Za-z_][\w.]*(?:\(\))?", line)):
                for shape in _PARENT_RES:
                    parent = re.compile(shape.format(x=re.escape(x)))
                    if (p := parent.search(a)) and not parent.search(line) and a[:p.start()] + x + a[p.end():] == line:
                        return f"widens a containment check to the parent folder ({x} → {p.group(0)}: what lies beside it passes): {paired_quote(line, a)}"
    return None


# ----- a comparison replaced by a constant truth
_TRUTH_RE = re.compile(r"\bChoice::from\(\s*1u?8?\s*\)|\bChoice::TRUE\b|\bsubtle::Choice::from\(\s*1\s*\)|(?<![\w.])(?:true|True)(?![\w(])")


def made_true(removed_line: str, added: Sequence[str]) -> str | None:
    """The added line that is ``removed_line`` with one call replaced by a constant truth (its text), or None."""
    for a in added[:_PAIRS]:
        m = _TRUTH_RE.search(a)
        if m is None or len(a) > _LONG:
            continue
        head, tail = a[:m.start()], a[m.end():]
        if removed_line.startswith(head) and removed_line.endswith(tail) and "(" in removed_line[len(head):len(removed_line) - len(tail)]:
            return m.group(0)
    return None


# ----- a signing algorithm made "none"
_ALG_RE = re.compile(r"(?i)\balg(?:orithm)?s?\b|signing_?alg\w*|\bjwa\b")
# "none" as a literal, a symbol or a library's constant (kataras/jwt's ``jwt.NONE``, Go's ``SigningMethodNone``)
_NONE_LITERAL_RE = re.compile(r"""(?P<q>["'])none(?P=q)|:none\b|(?<=\.)NONE\b|\bSigningMethodNone\b""", re.I)
_NAMED_ALG_RE = re.compile(r"(?:[\w$]+\.)?(?:[HRP]S|ES)(?:256|384|512)\b|(?:[\w$]+\.)?EdDSA\b|(?:[\w$]+\.)?SigningMethod\w+")


# An algorithm compared with "none" as one side of an "or": a check that lets the unsigned token through beside the
# expected one (round 90, blind 133's jose2go, in the commit's own new code: ``if expected == alg || alg == "none" {``).
# Quiet: the comparison alone or joined by "and", and an "or" that refuses (``if alg == "none" || alg == "" {`` then a
# ``return …err``, a throw or a raise, on its line or the next).
_ALG_VALUE = r"""(?:[\w$.]*alg\w*|[\w$.]*\[["']alg["']\])"""
_IS_NONE = rf"""{_ALG_VALUE}\s*===?\s*["']none["']|["']none["']\s*===?\s*{_ALG_VALUE}"""
_REFUSES_RE = re.compile(r"(?i)\breturn\b[^;\n]*\berr|\bthrow\b|\braise\b|\babort|\breject|\bpanic\b|\bdeny|\bforbid|\bunauthori[sz]ed")
_NONE_OR_RE = re.compile(rf"(?:\|\||\bor\b)\s*\(?\s*(?:{_IS_NONE})|(?:{_IS_NONE})\s*\)?\s*(?:\|\||\bor\b)", re.I)


def unsigned_algorithm(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"signs or checks a token with the algorithm "none" …" where a line naming an algorithm comes back with "none" in its
    place (doorkeeper-openid_connect's id token: ``signing_algorithm.to_s,`` → ``"none",``), or a new check that also
    passes "none" (above): a token anyone can forge."""
    was = {line.strip() for line in removed}
    fresh = [a for a in added if a.strip() not in was]
    if (hit := first_hit(fresh, _NONE_OR_RE)) is not None and not _REFUSES_RE.search(" ".join(fresh[fresh.index(hit[0]):][:2])):
        return f"accepts a token whose algorithm is \"none\" (unsigned: anyone can forge it): {cut_quote(hit[0].strip())}"
    new, old = _pairs(added, removed)
    olds = [line for line in old if (_ALG_RE.search(line) or _NAMED_ALG_RE.search(line)) and not _NONE_LITERAL_RE.search(line)]
    for a in new if olds else ():
        m = _NONE_LITERAL_RE.search(a.strip())
        if m is None:
            continue
        head, tail = a.strip()[:m.start()], a.strip()[m.end():]  # a formatter's indent moved too
        for line in olds:
            # the same line around it, or (a sample's call) a named algorithm where "none" now stands, its key dropped beside it
            if line.strip().startswith(head) and (line.strip().endswith(tail) or _NAMED_ALG_RE.match(line.strip()[len(head):])):
                return f"signs or checks a token with the algorithm \"none\" (unsigned: anyone can forge it): {paired_quote(line, a)}"
    return None


# ----- a terminal's echo left on where a secret is read
_ECHO_OFF_RE = re.compile(r"&=\s*[~!](?:\s*\(?)?\s*(?:[\w:]*::)?ECHO\b|&\^=\s*(?:[\w.]*\.)?ECHO\b|\bECHO\b[^;\n]*\bclear\b|-echo\b")


def echo_left_on(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"leaves the terminal's echo on …" where a line that turned echo off (``c_lflag &= !libc::ECHO``, ``stty -echo``)
    comes back clearing another flag (console's secure read: ``&= !libc::ICANON``): the secret typed shows on screen."""
    new, old = _pairs(added, removed)
    for line in old:
        m = _ECHO_OFF_RE.search(line)
        if m is None:
            continue
        head = line[:m.start()]
        for a in new:
            if a.startswith(head) and a != line and not _ECHO_OFF_RE.search(a) and not any(_ECHO_OFF_RE.search(x) for x in new):
                return f"leaves the terminal's echo on where it turned it off (a secret typed shows on screen): {paired_quote(line, a)}"
    return None


# ----- an allow-list consulted only from two entries
_LIST_FROM_TWO_RE = re.compile(r"(?i)\b(?:if|elif|else\s+if|unless)\b\s*\(?\s*(?:len\s*\(\s*)?(?P<list>[\w.]*(?:(?:allow|white|deny|black|block|trust|permit)_?list|"
                               r"(?:allowed|trusted|permitted|denied|blocked)_?[a-z]*s\b)\w*)"
                               r"\s*\)?(?:\.(?:length|size\(\)|count|Count|len\(\)))?\s*>\s*1\b")


def list_from_two(added: Sequence[str]) -> str | None:
    """"consults an allow-list only when it holds two entries or more …" for a new condition ``len(allowList) > 1`` (keyfunc's
    ``useWhitelist``): a list of one entry, the usual case, is never checked."""
    for line in added[:_PAIRS]:
        if len(line) <= _LONG and (m := _LIST_FROM_TWO_RE.search(line)):
            return f"consults a list ({m.group('list')}) only when it holds two entries or more (> 1: one entry is never checked): {line.strip()[:80]}"
    return None


# ----- a check's verdict read as its presence
_PRESENCE_RE = re.compile(r"\)\s*(?:!==?\s*(?:undefined|null|nil)|is\s+not\s+None|!=\s*None)")
_VERDICT_CALL_RE = re.compile(r"(?i)\b[\w$]*(?:valid|verif|check|authori[sz]|authenticat)\w*\s*\(")


def verdict_made_presence(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"reads a check's verdict as its presence …" where ``validator(x)`` (or ``validator(x) as boolean``) comes back as
    ``validator(x) !== undefined`` (tsdoc's schema validator): a false verdict is defined too, so the check always passes."""
    new, old = _pairs(added, removed)
    for a in new:
        m = _PRESENCE_RE.search(a)
        if m is None or not (call := _VERDICT_CALL_RE.search(a[:m.start() + 1])):
            continue
        head = a[:m.start() + 1]
        if any(line.startswith(head) and not _PRESENCE_RE.search(line) for line in old):
            name = call.group(0).rstrip("( ")
            return f"reads a check's verdict as its presence ({name}(…){a[m.start() + 1:m.end()]}: a false answer is defined too, the check always passes)"
    return None


# ----- a number parsed in another base
_RADIX_RE = re.compile(r"\b(?P<call>parseInt|Number\.parseInt|int|strconv\.Parse(?:Int|Uint)|Integer\.parse(?:Int|Unsigned\w*)|Long\.parse\w+|"
                       r"i64::from_str_radix|u64::from_str_radix|u32::from_str_radix|from_str_radix|strtou?ll?)\s*\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*),\s*(?P<radix>\d{1,2})\s*(?=[,)])")


def radix_turned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"parses a number in another base (10 → 16) …" where a parse call comes back with only its radix changed (tar-stream's
    pax size ``parseInt(size, 10)`` → ``16``): every size or length it reads is another number."""
    new, old = _pairs(added, removed)
    olds = {(m.group("call"), m.group("args")): (m.group("radix"), line) for line in old if (m := _RADIX_RE.search(line))}
    for a in new if olds else ():
        m = _RADIX_RE.search(a)
        if m and (was := olds.get((m.group("call"), m.group("args")))) and was[0] != m.group("radix"):
            return f"parses a number in another base ({was[0]} → {m.group('radix')}: every value it reads is another number): {paired_quote(was[1], a)}"
    return None


# ----- a static folder made the working directory
_STATIC_ROOT_RE = re.compile(r"""(?P<call>StaticFiles\s*\(\s*directory\s*=|express\.static\s*\(|serveStatic\s*\(|http\.Dir\s*\(|send_from_directory\s*\(|"""
                             r"""static_folder\s*=|serve_static\s*\(|ServeDir::new\s*\(|UseStaticFiles\s*\(|fastify-static|root\s*:)\s*(?P<dir>["'][^"']*["'])""")


def static_root_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"serves the working folder as static files …" where a static route's folder comes back as ``.``, ``./``, ``/`` or
    ``..`` (starlette's docs sample ``StaticFiles(directory='static')`` → ``directory='.'``): the app's source, its
    ``.env`` and its keys are served to anyone."""
    new, old = _pairs(added, removed)
    olds = {m.group("call"): (m.group("dir"), line) for line in old if (m := _STATIC_ROOT_RE.search(line))}
    for a in new if olds else ():
        m = _STATIC_ROOT_RE.search(a)
        if m and m.group("dir").strip("'\"") in (".", "./", "/", "..", "../") and (was := olds.get(m.group("call"))) and was[0] != m.group("dir"):
            return f"serves the working folder as static files ({was[0]} → {m.group('dir')}: its source and secrets to anyone): {paired_quote(was[1], a)}"
    return None


def answer_slip(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    """The first of these slips an edited pair shows (see the module's doc): all worth a look."""
    if not added or not removed:
        return None
    return (result_dropped(added, removed) or error_made_result(added, removed) or coroutine_returned(added, removed, path)
            or loop_start_moved(added, removed) or echo_left_on(added, removed)
            or verdict_made_presence(added, removed) or static_root_widened(added, removed))
