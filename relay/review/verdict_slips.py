"""A verdict read from the wrong thing, or not read at all (issue 36, round 82: blind 115/116's misses).

- ``missing_and_wrong`` (new lines): Go's ``if v, ok := m[k]; !ok && v != want {`` refuses only a value that is both
  missing and wrong, which a missing value never is (blind 115's ssh3: a JWT without the conversation's ``jti`` passes,
  one with another's passes too); high when the value is a token's claim, a nonce, a signature or a state;
- ``lengths_only`` (new lines): two values compared by their lengths alone where the change compares them no other way
  (``if len(actualData) != len(expectedData) {``: blind 116's goldie, a golden file of the same size but other bytes
  matches);
- ``listener_kept`` (new lines): ``removeEventListener('scroll', () => update())`` removes a function made on the spot,
  never the one added: the listener stays (blind 115's floating-ui);
- ``verdict_ignored`` (pairs): a match on a check's answer widened from ``Ok(true)`` to ``Ok(_)`` (blind 116's vapid:
  a signature that verifies false is accepted);
- ``empty_made_true`` (pairs): a list of the values read as "yes" given the empty string (``case "1", "true", "t":`` →
  ``…, "":``: blind 116's goldie, an unset variable turns updating on);
- ``handler_swallows`` (new lines): a handler that swallows its error, answering ``None`` (or passes) beside a sibling that raises the
  library's error for the same call (blind 115's httpx-oauth: a revocation the server refused reads as done);
- ``error_left_out`` (pairs): the error a line handed on left out of it, the rest kept (``errors: [error,
  ...(result.errors || [])]`` → ``errors: result.errors || []``: blind 115's dotenvx, a decryption that failed reports
  nothing);
- ``error_unread`` (new lines): a new function given the error that never reads it (dotenvx's ``function
  failedKeyAccessFallback (result, error) { return {...result, errors: result.errors || []} }``);
- ``check_made_presence`` (pairs): a condition's predicate call dropped, its receiver kept (``if
  (cacheSource.endsWith(sourceHash))`` → ``if (cacheSource)``: blind 116's jiti, a stale cache entry runs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import edited_sides
from relay.review.overridden_turns import cut_quote, paired_quote

__all__ = ["check_made_presence", "empty_made_true", "error_left_out", "error_unread", "handler_swallows", "lengths_only", "listener_kept", "missing_and_wrong",
           "verdict_ignored", "verdict_slip"]

_LONG = 300  # a line past this is data, not a statement
_NEW = 4000  # new lines read
_CLASSIC_RE = re.compile(r"(?i)jti|\baud|\biss|\bsub\b|nonce|token|signature|\bsig\b|state|csrf|hmac|digest|session|secret|claim|origin|role|scope")


def _squeezed(line: str) -> str:
    return "".join(line.split())


# ----- a value refused only when missing and wrong
_MISSING_AND_RE = re.compile(r"\bif\s+(?P<v>\w+)\s*,\s*(?P<ok>\w+)\s*:?=[^;{]+;\s*!\s*(?P=ok)\s*&&\s*(?P<rest>[^{]*\b(?P=v)\b[^{]*)\{")


def missing_and_wrong(added: Sequence[str]) -> tuple[str, bool] | None:
    """("refuses only a missing value that is also wrong (!ok && …) …", classic)."""
    for line in added[:_NEW]:
        if "&&" in line and len(line) <= _LONG and (m := _MISSING_AND_RE.search(line)):
            return (f"refuses only a missing {m.group('v')} that is also wrong (!{m.group('ok')} && …: a present wrong value passes; || meant?): "
                    f"{cut_quote(line.strip())}", bool(_CLASSIC_RE.search(line)))
    return None


# ----- two values compared by their lengths alone
_LENGTHS_RE = re.compile(r"\b(?:if|return|assert\w*)\b[^=!<>]*?\blen\(\s*(?P<a>[\w.]+)\s*\)\s*(?:!=|==)\s*len\(\s*(?P<b>[\w.]+)\s*\)|"
                         r"\b(?:if|return|assert\w*)\b[^=!<>]*?(?P<a2>[\w.]+)\.length\s*(?:!==?|===?)\s*(?P<b2>[\w.]+)\.length\b")


_NEAR = 15


def lengths_only(added: Sequence[str]) -> str | None:
    """"compares only the lengths of a and b (their contents are never compared) …" where no other added line compares
    the two within a few lines (an equality, ``bytes.Equal``, ``reflect.DeepEqual``, ``cmp``, ``assert_eq``…)."""
    lines = [line for line in added[:_NEW] if len(line) <= _LONG]
    for i, line in enumerate(lines):
        if "len" not in line or (m := _LENGTHS_RE.search(line)) is None:
            continue
        a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("a2"), m.group("b2"))
        if a == b:
            continue
        other = re.compile(rf"\b{re.escape(a)}\b(?!\.length|\s*\))[^;]*\b{re.escape(b)}\b|\b{re.escape(b)}\b(?!\.length|\s*\))[^;]*\b{re.escape(a)}\b")
        near = lines[max(0, i - _NEAR):i] + lines[i + 1:i + _NEAR]  # the same function's lines, not another's of the same names
        if not any(other.search(x.replace(f"len({a})", "").replace(f"len({b})", "")) for x in near):
            return f"compares only the lengths of {a} and {b} (their contents are never compared): {cut_quote(line.strip())}"
    return None


# ----- a listener removed by a function made on the spot
_REMOVE_NEW_FN_RE = re.compile(r"\b(?:removeEventListener|removeListener|off|unsubscribe)\s*\(\s*['\"][\w:.-]+['\"]\s*,\s*(?:\([^()]*\)\s*=>|\w+\s*=>|function\b)")


def listener_kept(added: Sequence[str]) -> str | None:
    """"removes a listener it never added (a function made on the spot: the one added stays) …"."""
    for line in added[:_NEW]:
        if "=>" in line or "function" in line:
            if len(line) <= _LONG and _REMOVE_NEW_FN_RE.search(line):
                return f"removes a listener it never added (a function made on the spot: the one added stays, a leak): {cut_quote(line.strip())}"
    return None


# ----- a check's answer matched whatever it is
_VERDICT_ARM_RE = re.compile(r"\b(?P<wrap>Ok|Some|Just|Right)\s*\(\s*(?P<v>true|false|_)\s*\)\s*(?P<arrow>=>|->)")


def verdict_ignored(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"accepts any answer of a check (Ok(true) → Ok(_): a false verdict passes) …"."""
    new, old = edited_sides(added, removed)
    olds = {_squeezed(_VERDICT_ARM_RE.sub(lambda m: f"{m.group('wrap')}(_){m.group('arrow')}", line)): line
            for line in old if (m := _VERDICT_ARM_RE.search(line)) and m.group("v") == "true"}
    for line in new if olds else ():
        if (m := _VERDICT_ARM_RE.search(line)) and m.group("v") == "_" and (was := olds.get(_squeezed(line))) is not None:
            return f"accepts any answer of a check ({m.group('wrap')}(true) → {m.group('wrap')}(_): a false verdict passes): {paired_quote(was, line)}"
    return None


# ----- the empty string read as "yes"
_TRUTHY_RE = re.compile(r"""(?i)(['"])(?:1|true|t|yes|y|on)\1""")
_EMPTY_ITEM_RE = re.compile(r"""\s*,\s*(?:""|'')|(?:""|'')\s*,\s*""")


def _empty_among_yes(line: str) -> bool:
    """Whether ``""`` is an item of the same list as two values read as yes: a ``case``'s labels, or one bracketed group
    (pydantic-settings' ``os.environ.get(VAR, '').lower() in ('1', 'true', …)``: the ``''`` is the lookup's default)."""
    groups = [line.split("case", 1)[1].rsplit(":", 1)[0]] if re.match(r"\s*case\b", line) else re.findall(r"[(\[{]([^()\[\]{}]*)[)\]}]", line)
    for group in groups:
        items = [item.strip() for item in group.split(",")]
        if any(item in ('""', "''") for item in items) and sum(1 for item in items if _TRUTHY_RE.fullmatch(item)) >= 2:
            return True
    return False


def empty_made_true(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"reads an empty (unset) value as yes …" where a list of the values read as "yes" comes back with ``""`` in it, or
    a new one (a switch's case, a membership test) holds it."""
    new, old = edited_sides(added, removed)
    olds = {_squeezed(line): line for line in old if len(_TRUTHY_RE.findall(line)) >= 2}
    for line in new if not olds else ():  # a new list of "yes" values: a switch's case or a membership test that holds ""
        if ('""' in line or "''" in line) and _empty_among_yes(line) and re.match(r"\s*case\b|.*\b(?:in|includes|contains|has)\b\s*[\[({(]", line):
            return f"reads an empty (unset) value as yes (\"\" among the true values): {cut_quote(line.strip())}"
    for line in new if olds else ():
        if ('""' in line or "''" in line) and _empty_among_yes(line):
            for m in _EMPTY_ITEM_RE.finditer(line):
                if (was := olds.get(_squeezed(line[:m.start()] + line[m.end():]))) is not None:
                    return f"reads an empty (unset) value as yes (\"\" among the true values): {paired_quote(was, line)}"
    return None


# ----- a handler that answers nothing beside one that raises
_HANDLER_AS_RE = re.compile(r"^(?P<at>\s*)except\s+(?P<what>[\w.]+(?:\s*,\s*[\w.]+)*|\([^)]*\))\s+as\s+\w+\s*:\s*$")
_NOTHING_RE = re.compile(r"^\s*(?:return(?:\s+None)?|pass)\s*(?:#.*)?$")


def handler_swallows(added: Sequence[str]) -> str | None:
    """"answers an error with nothing (return None) where the handler beside it raises …" in new lines."""
    lines = list(added[:_NEW])
    for i, line in enumerate(lines[:-3]):
        m = _HANDLER_AS_RE.match(line)
        if m is None or not _NOTHING_RE.match(lines[i + 1]):
            continue
        sibling = re.compile(rf"^{m.group('at')}except\b")
        for j in (i - 2, i + 2):
            if 0 <= j < len(lines) - 1 and sibling.match(lines[j]) and re.match(r"^\s*raise\s+\w", lines[j + 1]):
                nothing = lines[i + 1].split("#", 1)[0].strip()
                return f"swallows an error the handler beside it raises ({nothing}): {cut_quote(line.strip())}"
    return None


# ----- a condition's predicate dropped, its receiver kept
_PREDICATE_CALL_RE = re.compile(r"\.(?P<m>(?:starts?_?with|ends?_?with|startsWith|endsWith|includes|contains|matches|match|test|equals\w*|has\w*|"
                                r"is[A-Z_]\w*|verify\w*|valid\w*|check\w*|compare\w*))\s*\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)")
_CONDITION_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|elif|while|unless)\b")


def check_made_presence(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"checks only that x is present (its .endsWith(sourceHash) dropped) …"."""
    new, old = edited_sides(added, removed)
    olds: dict[str, tuple[str, str]] = {}
    for line in old:
        if _CONDITION_RE.match(line):
            for m in _PREDICATE_CALL_RE.finditer(line):
                if m.group("args").strip():
                    olds.setdefault(_squeezed(line[:m.start()] + line[m.end():]), (line, f".{m.group('m')}({m.group('args').strip()[:30]})"))
    for line in new if olds else ():
        if _CONDITION_RE.match(line) and (was := olds.get(_squeezed(line))) is not None:
            return f"checks only that a value is present (its {was[1]} dropped): {paired_quote(was[0], line)}"
    return None


# ----- the error a line handed on left out of it
_TOKEN_RE = re.compile(r"[\w$]+|\.\.\.|\S")
_ERROR_NAME_RE = re.compile(r"^(?:err|error|exc|exception|\w+Error|\w+_error|\w+Err)$")  # (not ``e``: C's ENGINE *e, a loop's element)


def _bracketed(line: str, name: str) -> bool:
    """Whether ``name`` stands as an item inside brackets (an array's element, a call's argument): not in a bare ``return
    nil, err`` (a signature changed with it) nor as a type (``) error {``)."""
    for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\b", line):
        head = line[:m.start()]
        depth = head.count("(") + head.count("[") - head.count(")") - head.count("]")
        if depth > 0 and head.rstrip()[-1:] in ("(", "[", ","):
            return True
    return False
_WRAPPING = frozenset("[ ] ( ) , ... ;".split())


def error_left_out(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"leaves the error out of what it hands on (error dropped) …" where a line comes back less an error's name and the
    brackets or spread that held it, nothing else changed."""
    new, old = edited_sides(added, removed)
    olds = [(line, _TOKEN_RE.findall(line)) for line in old if re.search(r"\b(?:err|error|e|ex|exc|\w+Error)\b", line)]
    for line in new if olds else ():
        tokens = _TOKEN_RE.findall(line)
        for was, before in olds:
            if len(before) - len(tokens) > 8 or len(before) <= len(tokens):
                continue
            rest = list(before)
            try:
                for token in tokens:
                    rest.remove(token)
            except ValueError:
                continue
            names = [t for t in rest if t not in _WRAPPING]
            if len(names) == 1 and _ERROR_NAME_RE.match(names[0]) and names[0] not in tokens and _bracketed(was, names[0]):
                return f"leaves the error out of what it hands on ({names[0]} dropped: the failure goes unreported): {paired_quote(was, line)}"
    return None


_ERROR_PARAM_DEF_RE = re.compile(r"^(?P<at>\s*)(?:(?:export\s+)?(?:async\s+)?function\s*\*?\s*(?P<js>[\w$]+)\s*\(|(?:async\s+)?def\s+(?P<py>\w+)\s*\(|"
                                 r"func\s+(?:\([^)]*\)\s*)?(?P<go>\w+)\s*\()(?P<params>(?:[^)]*?,)?)\s*(?P<err>err|error|exc|exception)\b"
                                 # the last parameter, by its name: a TypeScript or Python annotation, or Go's type after it
                                 # (``err error``: the name is err; ``target error`` is no error's name)
                                 r"(?:\s*:\s*[\w.|]+|\s+\*?[\w.]+)?\s*\)")
_BODY = 15  # a new function's lines read for its error


def error_unread(added: Sequence[str]) -> str | None:
    """"takes an error it never reads (error in name: what failed goes unreported) …" for a short new function."""
    lines = list(added[:_NEW])
    for i, line in enumerate(lines):
        if ("err" not in line and "exc" not in line) or (m := _ERROR_PARAM_DEF_RE.match(line)) is None:
            continue
        name, err, at = m.group("js") or m.group("py") or m.group("go"), m.group("err"), m.group("at")
        if re.match(r"\s*func\s*\(", line) or re.match(r"(?:On|on|handle|Handle)[A-Z_]|noop", name):
            continue  # a method that meets an interface, or a callback, may ignore the error it is handed (go-spiffe's OnWITSVIDsWatchError)
        body: list[str] = []
        for nxt in lines[i + 1:i + 1 + _BODY]:
            if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= len(at) and not nxt.strip().startswith((")", "]")):
                if nxt.strip() in ("}", "};"):
                    body.append(nxt)
                break
            body.append(nxt)
        else:
            continue  # longer than a few lines, or its end not among the new lines: not read
        word = re.compile(rf"(?<![\w$.]){err}\b")
        if body and not any(word.search(x) for x in body) and not name.startswith("_"):
            return f"takes an error it never reads ({err} in {name}: what failed goes unreported): {cut_quote(line.strip())}"
    return None


def verdict_slip(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first of these slips the edit makes (see the module's doc), with whether it is classic (high)."""
    if (found := missing_and_wrong(added)) is not None:
        return found
    for said in (verdict_ignored(added, removed), check_made_presence(added, removed), lengths_only(added), listener_kept(added),
                 empty_made_true(added, removed), handler_swallows(added), error_left_out(added, removed), error_unread(added)):
        if said:
            return said, False
    return None
