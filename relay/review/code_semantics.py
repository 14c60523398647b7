"""What a changed line does, read by the code's structure in any language: a check made toothless (issue 36, round 9).

The first runs of unseen planted sets kept missing one kind of plant: a line whose words say nothing risky, whose harm is
in what the code now does. Each reader here is a family, read by the shape the code takes in every ecosystem, not by one
project's names:

- a check's result no longer checked: the call that decided stays, its ``if``/``unless``/``assert`` goes (Go's
  ``if err := verifyMac(…); err != nil`` → ``verifyMac(…)``, Python's ``if not verify(x): raise`` → ``verify(x)``, Ruby's
  ``unless valid?(…)``), or a validation result's test deleted (``if (result.hasErrors())``);
- a guard weakened without security words: a refusal (``raise``/``throw``/``return Err``) turned into a return, a print or
  a value; an early return added when the checked value is missing; a lookup that falls back to the value it is compared
  with; an exact comparison made a suffix/substring match; only the first of several items checked; a falsy refusal
  narrowed to one value (``!x`` → ``x === false``); a check around a value dropped or reduced to a presence test;
- a flag or option dropped from a set, a default widened (a timeout off, retries widened to POST, a secret's file
  readable by others, a client's file name on disk): ``relay.review.dropped_options``, called from here.

The party guarded against is the worker that slips such an edit into an ordinary change. Each reader answers "what it
does: the line" (the new line, or the removed one where nothing took its place) or None; the safe direction of every
edit (a flag added, a check made exact, a refusal added) stays quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review import dropped_options
from relay.review.condition_reading import pairs
from relay.review.line_shapes import squeezed, window

__all__ = ["weakened_code"]

_QUOTE = 60


def _q(line: str, at: int = 0, end: int = 0) -> str:
    text = line.strip()
    return window(text, at, max(end, at + 1), _QUOTE)


def _fresh(lines: Sequence[str], other: Sequence[str]) -> list[str]:
    before = {squeezed(line.strip()) for line in other}
    return [line for line in lines if line.strip() and squeezed(line.strip()) not in before]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _alike(a: str, b: str, ratio: float = 0.6) -> bool:
    return SequenceMatcher(None, a.strip(), b.strip(), autojunk=False).ratio() >= ratio


# ----- family 1: a check's result no longer checked
_CHECK_NAME = r"\w*(?i:verif|validat|valid\b|check|authori[sz]|authenticat|compare|equal|permi|allowed|signature|csrf|nonce|hmac|mac\b)\w*[?!]?"
# A condition (or an assertion) holding a call named for checking: "if err := verifyMac(h, b); err != nil {", "unless valid?(x)".
_DECIDES_CALL_RE = re.compile(
    r"(?:^|[\s;(])(?:if|unless|elif|elsif|guard|assert|require|ensure!?|when)\b[^\n]*?(?<![\w.$])(?P<call>(?:[\w$@]+(?:\.|::|->))*"
    + _CHECK_NAME + r")\s*\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)")
# What may stand before the call when the result is thrown away: "_ = ", "_, _ = ", "let _ = ", "try ", "await ".
_DISCARD_RE = re.compile(r"^\s*(?:(?:let\s+)?_\s*(?:,\s*_\s*)*(?::=|=)\s*|try!?\s+|await\s+)*(?P<rest>.+?)\s*;?\s*$")
# A validation result tested and the branch deleted: "if (result.hasErrors()) {", "if not form.is_valid():", "unless @user.valid?".
_RESULT_TEST_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*)?(?:if|unless|elif|elsif)\b.*?(?P<test>[\w$.]*(?:\bhas_?[Ee]rrors\b|\berrors\.(?:any\?|present\?|empty\?)|"
                             r"\.(?:is_?[Vv]alid|valid\?|invalid\?)\b|\bis_?[Ii]nvalid\b))")


def _result_unchecked(added: list[str], removed: list[str]) -> str | None:
    for old in removed:
        m = _DECIDES_CALL_RE.search(old)
        if m is None:
            continue
        call = squeezed(m.group("call") + "(" + m.group("args") + ")")
        for new in added:
            rest = _DISCARD_RE.match(new)
            if rest and squeezed(rest.group("rest")) == call and not _DECIDES_CALL_RE.search(new):
                name = m.group("call").split(".")[-1].split("::")[-1]
                return f"ignores a check's result (unchecked {name}()): {_q(new)} (was {_q(old)[:40]})"
    for old in removed:
        test = _RESULT_TEST_RE.match(old)
        if test and test.group("test") not in "\n".join(added) and not any(_alike(old, new) for new in added[:40]):
            return f"drops the test of a validation result (errors ignored): {_q(old)}"
    return None


# ----- family 2: a guard weakened without security words
# A refusal: an exception raised (Ruby's ``fail`` is its raise), an error returned.
_REFUSAL_RE = re.compile(r"^\s*(?:raise\b|throw\b|fail\s+[A-Z:\"']|return\s+(?:[\w.&{}\[\]]+\s*,\s*)*(?:Err\s*\(|errors\.New\b|fmt\.Errorf\b|Err[A-Z]\w*|"
                         r"\w*(?:Error|Exception)\s*\(|new\s+\w*(?:Error|Exception)\b|\{\s*:error\b)|(?:abort|halt)\s*\(?\s*4\d\d|"
                         # a refusal answered over HTTP: a 401/403 response returned
                         r"return\s+.*(?:\b40[13]\b|\b(?:HttpResponse)?Forbidden\b|\bUnauthori[sz]ed\b|\bPermissionDenied\b))")
# What took its place: a plain return, a value handed back, a print or a log line, a pass.
_SOFT_RE = re.compile(r"^\s*(?:return\b(?!\s+(?:Err\s*\(|errors\.New|fmt\.Errorf|Err[A-Z]|false\b|False\b))|pass\b|continue\b|next\b|"
                      r"(?:print|println|printf|puts|warn|console\.\w+|log\w*\.\w+|logger\.\w+|logging\.\w+|debug|NSLog)\s*[(!]?|"
                      # a value handed back as a tail expression (Rust's "PathBuf::from(name)", "Some(x)"), not any call statement
                      r"(?:[A-Z]\w*(?:::\w+)*|Ok|Some)\s*\((?!.*;\s*$))"
                      r"(?!.*(?:[{(\[,:|]|=>)\s*$)(?!.*(?:\berr\b|Err|Error|Exception))")
# The refusal is about a check: its error's name or message says what failed.
_NOT_A_CHECK_RE = re.compile(r"(?i)syntax|pars(?:e|ing)|format|usage|argument|unsupported|not ?implemented|type ?mismatch|typeerror|overflow|encoding")
_REFUSES_CHECK_RE = re.compile(r"(?i)auth|state|nonce|token|signature|verif|valid|mismatch|forbid|denied|permission|unauthori|csrf|xsrf|"
                               r"expired|tamper|untrust|refus|reject|not_?found|notfound|missing|chain|cert|integrity|unsafe|insecure|"
                               r"illegal|scheme|origin|access")


def _same_refusal(old: str, new: str) -> bool:
    a, b = squeezed(old.strip()), squeezed(new.strip())
    return a.startswith(b) or b.startswith(a) or _alike(old, new, 0.8)


_OPENS_BRANCH_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else|unless|guard|match|when|case|switch)\b.*(?:\{|:|then)\s*$")


def _refusal_softened(added: list[str], removed: list[str], every_removed: Sequence[str], written: frozenset[str]) -> str | None:
    refusals = [old for old in removed if _REFUSAL_RE.match(old) and _REFUSES_CHECK_RE.search(old) and not _NOT_A_CHECK_RE.search(old)]
    if len(refusals) > 2:
        return None  # many refusals gone at once: a function rewritten or moved, not one check softened
    for old in refusals:
        if squeezed(old.strip()) in written:
            continue  # written again in another file: moved, not softened
        at = every_removed.index(old)
        if at > 0 and _OPENS_BRANCH_RE.match(every_removed[at - 1]) and _indent(every_removed[at - 1]) < _indent(old) \
                and not any(_alike(every_removed[at - 1], new) for new in added[:200] if _OPENS_BRANCH_RE.match(new)):
            continue  # its condition went with it (not rewritten in place): a guard deleted (guard_reading's), or a function rewritten
        if any(_REFUSAL_RE.match(new) and _indent(new) == _indent(old) and _same_refusal(old, new) for new in added):
            continue  # the refusal written again (re-wrapped, reworded): not softened
        for new in added:
            if _indent(new) == _indent(old) and _SOFT_RE.match(new) and not _REFUSAL_RE.match(new):
                return f"no longer refuses (an error no longer raised): {_q(new)} (was {_q(old)[:48]})"
    return None


# An early return added when the value a check needs is missing: "if not session.get('state'): return".
# The value a check needs, named so or read from the request or the session (a component's "state" or a PDF's "signature" is none).
_CHECKED_VALUE = (r"[\w.$@\[\]'\"()]*?(?:(?i:session|params|request|req|query|args|cookies?|headers?)[\w.$@\[\]'\"()]*?(?i:state|nonce|signature|csrf|xsrf)|"
                  r"(?i:oauth_?state|csrf|xsrf|nonce|hmac|code_?verifier|pkce))[\w.$@\[\]'\"()]*")
_MISSING_SKIPS_RE = re.compile(
    r"^\s*(?:if\s*\(?\s*(?:not\s+|!\s*)" + _CHECKED_VALUE + r"|if\s*\(?\s*" + _CHECKED_VALUE
    + r"\s*(?:is\s+None|===?\s*(?:null|nil|undefined|None|\"\")|\.nil\?|\.blank\?|\.empty\?)|unless\s+" + _CHECKED_VALUE + r")"
    r"\s*\)?\s*(?::|\{|then)?\s*(?:return\b(?!\s+(?:Err\b|errors\.|fmt\.|false\b|False\b|\w*(?:Error|Exception)))|next\b|pass\b)")


_MISSING_HEAD_RE = re.compile(_MISSING_SKIPS_RE.pattern.split(r"\s*\)?\s*(?::|\{|then)?")[0] + r"\s*\)?\s*(?::|\{|then)\s*$")
_BARE_RETURN_RE = re.compile(r"^\s*(?:return(?:\s+(?:nil|None|null|true|True|undefined|next\(\)|Ok\(\(\)\)))?|next|pass)\s*;?\s*$")


def _missing_skips(added: list[str]) -> str | None:
    for i, new in enumerate(added):
        m = _MISSING_SKIPS_RE.match(new)
        if m or (_MISSING_HEAD_RE.match(new) and i + 1 < len(added) and _BARE_RETURN_RE.match(added[i + 1])):
            return f"skips the check when the value is missing: {_q(new)}{'' if m else ' ' + added[i + 1].strip()}"
    return None


# A lookup that falls back to the very value it is compared with: "params.get('state', state) != state".
_SELF_DEFAULT_RE = re.compile(r"(?:\.get|\.fetch|\.get_or|\.getOrDefault|\.GetValueOrDefault)\s*\(\s*[:'\"]?\w+['\"]?\s*,\s*(?P<d>[\w.$@]+)\s*\)\s*"
                              r"(?:!==?|===?)\s*(?P=d)\b")


def _self_default(old: str, new: str) -> str | None:
    m = _SELF_DEFAULT_RE.search(new)
    if m and not _SELF_DEFAULT_RE.search(old):
        return f"compares a missing value with itself (the lookup defaults to it): {_q(new, m.start(), m.end())}"
    return None


# An exact comparison made a suffix, substring or pattern match: "netloc in hosts" → "netloc.endswith(tuple(hosts))".
_LOOSE_MATCH_RE = re.compile(r"(?P<s>[\w$]+)\s*(?:\(\s*\))?\s*\.\s*(?:endswith|endsWith|end_with\?|EndsWith|ends_with|starts_with|hasSuffix|hasPrefix|"
                             r"includes|include\?|contains|Contains|indexOf|match|matches)\s*\(|"
                             r"\b(?:strings\.(?:HasSuffix|Contains)|str_(?:ends_with|starts_with|contains)|stri?pos|fnmatch(?:\.fnmatch)?)\s*\(\s*\$?(?:[\w.]*(?:\.|->))?(?P<g>\w+)\s*,|"
                             r"(?P<r>[\w$]+)\s*=~")
_SECURITY_NAME_RE = re.compile(r"(?i)host|netloc|origin|domain|refer|redirect|url|uri|path|issuer|audience|owner|user|tenant|account|email|"
                               r"token|signature|digest|mac\b|scope|role|client|cert|subject|sub\b|dest")


def _loose_match(old: str, new: str) -> str | None:
    for m in _LOOSE_MATCH_RE.finditer(new):
        subject = m.group("s") or m.group("g") or m.group("r")
        if not _SECURITY_NAME_RE.search(subject):
            continue
        exact = re.compile(rf"\b{re.escape(subject)}\s*(?:===?|\s+in\s|\.(?:Equals|equals|eql\?)\s*\()|(?:===?)\s*\$?(?:[\w.]*(?:\.|->))?{re.escape(subject)}\b|"
                           rf"\b(?:hash_equals|strcmp|Equals|equals)\s*\([^)]*\b{re.escape(subject)}\b")
        if exact.search(old) and not exact.search(new) and not _LOOSE_MATCH_RE.search(old):
            kind = ("suffix" if re.search(r"(?i)ends?_?with|suffix", m.group(0))
                    else "prefix" if re.search(r"(?i)starts?_?with|prefix", m.group(0)) else "substring or pattern")
            return f"weakens an exact match to a {kind} match ({subject}): {_q(new, m.start(), m.end())}"
    return None


# Only the first of several checked: ".each do" → ".first(1).each do", "for x in xs" → "for x in xs[:1]" (every → some is
# line_edits' short called name swapped).
_NARROWED_RE = re.compile(r"\.first\s*\(\s*1\s*\)|\.first\b(?!\()|\[\s*0\s*\]|\[\s*:\s*1\s*\]|\.take\s*\(\s*1\s*\)|\.Take\s*\(\s*1\s*\)|\.get\s*\(\s*0\s*\)|"
                          r"\.slice\s*\(\s*0\s*,\s*1\s*\)|\.limit\s*\(\s*1\s*\)|\.head\b")
_ITERATES_RE = re.compile(r"\.each\b|\bfor\b|\.forEach\b|\.map\b|\.all\b|\.every\b|\.iter\(\)|\.select\b|\.filter\b|\bEnum\.\w+|\ball\s*\(")
_CHECKING_RE = re.compile(r"(?i)valid|verif|check|claim|allow|permi|role|scope|auth|sign|issuer|audience|trust")


def _first_only(old: str, new: str) -> str | None:
    for m in _NARROWED_RE.finditer(new):
        if squeezed(new[: m.start()] + new[m.end():]) == squeezed(old) and _ITERATES_RE.search(new) \
                and (_CHECKING_RE.search(new) or _SECURITY_NAME_RE.search(new)):
            return f"checks only the first item (was every one): {_q(new, m.start(), m.end())}"
    return None


# A falsy refusal narrowed to one value: "if (!includeFile)" → "if (includeFile === false)" (undefined, null, 0 now pass).
_NEGATED_RE = re.compile(r"(?:!\s*|\bnot\s+|\bunless\s+)(?P<x>[\w$@.]+(?:\(\s*\))?)(?![\w$.(\[])")


def _falsy_narrowed(old: str, new: str) -> str | None:
    for m in _NEGATED_RE.finditer(old):
        x = re.escape(m.group("x"))
        one = re.search(rf"(?<![\w$.]){x}\s*(?:===?\s*(?:false|False)|===\s*(?:null|undefined)|\s+is\s+False)\b", new)
        if one and squeezed(old[: m.start()] + new[one.start():one.end()] + old[m.end():]).replace("unless", "if") \
                == squeezed(new).replace("unless", "if"):
            return f"narrows a refusal to one value (undefined, null or 0 now pass): {_q(new, one.start(), one.end())} (was {_q(old)[:36]})"
    return None


# A check around a value dropped ("cond ? value : null" → "value") or reduced to a presence test.
_CHECK_COND_RE = re.compile(r"(?i)contains|include\?|includes|\bin\b|allowed|allowlist|whitelist|permit|is_?valid|valid\?|verif|\bsafe\w*\(")
_HEAD_RE = re.compile(r"^(?P<head>(?:.*?(?:\breturn\b|:=|=>|(?<![=!<>])=(?![=>]))\s*)?)(?P<cond>.+)$")
_PRESENCE_RE = re.compile(r"\.present\?|\.any\?|\.blank\?|!=\s*(?:nil|null|None)|\bis\s+not\s+None|!!\s*\w|\.length\b|\.nonEmpty|\.isPresent")


_PY_COND_RE = re.compile(r"^(?P<head>(?:.*?(?:\breturn\b|(?<![=!<>])=(?![=>]))\s*)?)(?P<yes>\S.*?)\s+if\s+(?P<cond>.+?)\s+else\s+(?P<no>.+)$")


def _ternary(line: str) -> tuple[str, str, str, str] | None:
    """(what stands before the condition, the condition, the value when it holds, the value otherwise) of a line's ternary
    (``c ? a : b``, Python's ``a if c else b``)."""
    py = _PY_COND_RE.match(line) if " if " in line and " else " in line else None
    if py:
        return py.group("head"), py.group("cond"), py.group("yes"), py.group("no")
    at = line.find(" ? ")
    if at < 0 or " : " not in line[at:]:
        return None
    yes, no = line[at + 3:].split(" : ", 1)
    m = _HEAD_RE.match(line[:at])
    return (m.group("head"), m.group("cond"), yes, no) if m else None


def _check_dropped(old: str, new: str) -> str | None:
    was = _ternary(old)
    if was is None or not _CHECK_COND_RE.search(was[1]):
        return None
    if squeezed(was[0] + was[2]) == squeezed(new):
        return f"drops the check around a value: {_q(new)} (was {_q(old)[:40]})"
    now = _ternary(new)
    if now and _PRESENCE_RE.search(now[1]) and not _CHECK_COND_RE.search(now[1]) \
            and [squeezed(x) for x in (now[0], now[2], now[3])] == [squeezed(x) for x in (was[0], was[2], was[3])]:
        return f"replaces an allow-list check with a presence test: {_q(new)}"
    return None


def _ternary_unwrapped(added: list[str], removed: list[str]) -> str | None:
    # A line much shorter than the one it replaced is no pair by likeness: look for the checked value written alone.
    for old in removed:
        was = _ternary(old.strip())
        if was is None or not _CHECK_COND_RE.search(was[1]):
            continue
        target = squeezed(was[0] + was[2])
        for new in added:
            if squeezed(new.strip()) == target:
                return f"drops the check around a value: {_q(new)} (was {_q(old)[:40]})"
    return None


# A value clamped by a bound written without it: "d = timeout.map(t -> Math.min(delay, t)).orElse(delay)" → "d = delay".
_MIN_BOUND_RE = re.compile(r"\b(?:Math\.|std::cmp::|math\.|cmp::)?min\s*\((?P<args>[^()]*(?i:timeout|deadline|limit|max|remaining|bound|cap)[^()]*)\)")
_TARGET_RE = re.compile(r"^\s*(?:[\w<>\[\]?]+\s+)*(?P<name>[\w$.]+)\s*(?::=|=(?!=))")


def _bound_dropped(added: list[str], removed: list[str]) -> str | None:
    for old in removed:
        m = _MIN_BOUND_RE.search(old)
        t = _TARGET_RE.match(old) if m else None
        if t is None:
            continue
        for new in added:
            n = _TARGET_RE.match(new)
            if n and n.group("name") == t.group("name") and "min" not in new.lower() and len(new.strip()) < len(old.strip()):
                # The bound is the argument the new line no longer writes ("min(capacity, fill + n)" → "fill + n"), else the last.
                args = [a.strip() for a in m.group("args").split(",")]
                gone = [a for a in args if a and squeezed(a) not in squeezed(new)]
                return f"drops a bound (min with {(gone[0] if len(gone) == 1 else args[-1])[:24]}): {_q(new)}"
    return None


# A client's request header made enough to skip the checks: "return @app.call(env) if … || env['HTTP_X_INTERNAL_REQUEST']".
_HEADER_READ_RE = re.compile(r"\bHTTP_X_\w+|\b(?:req|request|ctx|c|r)\.(?:headers?\b|get_?[Hh]eader\s*\(|Header\.Get\s*\()|\bgetHeader\s*\(|"
                             r"\bheaders\.get\s*\(|\brequest\.META\[")
_SKIPS_RE = re.compile(r"^\s*(?:return\b.*\b(?:if|unless)\b|(?:if|unless)\b.*(?:return|next\s*\(|skip|bypass|pass\b)|.*\bskip\w*\s*[:=(].*\b(?:if|unless)\b)")


def _header_skips(old: str, new: str) -> str | None:
    m = _HEADER_READ_RE.search(new)
    if m and _SKIPS_RE.match(new) and not _HEADER_READ_RE.search(old):
        return f"lets a client's request header skip the checks: {_q(new, m.start(), m.end())}"
    return None


_NAME_RE = re.compile(r"[A-Za-z_$][\w$]{2,}")
# Past this many changed lines a side condition_reading pairs nothing; lines are then paired here by the names they share.
_PAIR_MOST = 400


def _paired(added: list[str], removed: list[str]) -> list[tuple[str, str]]:
    """(old, new): each removed line with the added line most like it (ratio ≥ 0.6), looked for only among the added
    lines that share two of its names: the pairing of a large edit, where ``condition_reading.pairs`` stops."""
    index: dict[str, list[int]] = {}
    for i, line in enumerate(added[:_PAIR_MOST]):
        for name in set(_NAME_RE.findall(line)):
            index.setdefault(name, []).append(i)
    out: list[tuple[str, str]] = []
    for old in removed[:_PAIR_MOST]:
        names = set(_NAME_RE.findall(old))
        if len(names) < 2 or len(old) > 200:
            continue
        counts: dict[int, int] = {}
        for name in names:
            hits = index.get(name, ())
            if len(hits) > 12:
                continue  # a name on many lines (self, params, err) tells no pair
            for i in hits:
                counts[i] = counts.get(i, 0) + 1
        best, score = None, 0.6
        # The few added lines sharing the most names: a pair shares most of its names.
        for i in sorted((i for i, n in counts.items() if n >= 2), key=lambda i: -counts[i])[:4]:
            m = SequenceMatcher(None, old.strip(), added[i].strip(), autojunk=False)
            if m.quick_ratio() >= score and (r := m.ratio()) >= score:
                best, score = added[i], r
        if best is not None:
            out.append((old.strip(), best.strip()))
    return out


# An error no longer propagated: Rust's "verify(&sig)?" → "let _ = verify(&sig)" / ".ok()", Ruby's "verify!(x)" → "verify(x)",
# JavaScript's "await verify(x)" → "verify(x).catch(() => {})".
_PROPAGATES_RE = re.compile(r"(?P<call>(?:[\w$@]+(?:\.|::|->))*" + _CHECK_NAME.replace("[?!]?", "") + r")(?P<bang>!?)\s*\([^;]*?\)(?P<q>\?)?")
_SWALLOWS_RE = re.compile(r"^\s*(?:let\s+_\s*=\s*|_\s*=\s*)|\.ok\(\)\s*;?\s*$|\.unwrap_or(?:_default)?\([^)]*\)\s*;?\s*$|"
                          r"\.catch\s*\(\s*(?:\(\s*\w*\s*\)|\w+)?\s*(?:=>\s*(?:\{\s*\}|null|undefined|false|true)\s*)?\)\s*;?\s*$")


def _propagation_dropped(old: str, new: str) -> str | None:
    m = _PROPAGATES_RE.search(old)
    awaited = m is not None and re.search(r"\bawait\s+[\w$.]*$", old[: m.start()]) is not None
    if m is None or not (m.group("q") or m.group("bang") or awaited):
        return None
    core = squeezed(_SWALLOWS_RE.sub("", new)).replace("await", "")
    plain = squeezed(old[: m.start()] + old[m.start():m.end()].replace("!(", "(").rstrip("?") + old[m.end():]).replace("await", "")
    if core == plain and (m.group("q") or _SWALLOWS_RE.search(new) or re.match(r"^\s*[\w$@.:]+\s*\(", new)):
        return f"ignores a check's error (no longer propagated from {m.group('call').split('.')[-1].split('::')[-1]}()): {_q(new)} (was {_q(old)[:40]})"
    return None


_KEYED_RE = re.compile(r"^\s*['\"]?(?P<key>[\w$.-]+)['\"]?\s*(?::|=(?!=)|=>)")


def _same_key(added: list[str], removed: list[str], paired: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(old, new) for a setting written again under the same key with a value too different to pair by likeness
    ("Timeout: 30 * time.Second," → "Timeout: 0,"): one line a side with that key."""
    done = {old for old, _ in paired}
    keyed: dict[str, list[str]] = {}
    for line in added[:_PAIR_MOST]:
        if (m := _KEYED_RE.match(line)):
            keyed.setdefault(m.group("key"), []).append(line.strip())
    out = []
    for line in removed[:_PAIR_MOST]:
        m = _KEYED_RE.match(line)
        if m and line.strip() not in done and len(keyed.get(m.group("key"), ())) == 1:
            out.append((line.strip(), keyed[m.group("key")][0]))
    return out


# A two-sided window made one-sided: "abs(now - ts) > lifetime" → "now - ts > lifetime" (a timestamp from the future passes).
_ABS_RE = re.compile(r"\b(?:Math\.|math\.|std::)?f?abs\s*(?=\()|\.abs\(\)")
_COMPARES_RE = re.compile(r"(?<![=!<>-])(?:<=?|>=?)(?![=>])")


def _abs_dropped(old: str, new: str) -> str | None:
    if _ABS_RE.search(old) and not _ABS_RE.search(new) and _COMPARES_RE.search(new) \
            and squeezed(_ABS_RE.sub("", old)) == squeezed(new):
        return f"makes a two-sided bound one-sided (abs dropped): {_q(new)} (was {_q(old)[:40]})"
    return None


# A key no longer normalised before it is compared or counted: "params['email'].to_s.downcase.strip" → ".to_s".
_NORMALIZES_RE = re.compile(r"\.(?:downcase|upcase|lower|upper|casefold|toLowerCase|toUpperCase|ToLower\w*|ToUpper\w*|to_lowercase|to_ascii_lowercase|"
                            r"strip|trim|squish|gsub|unicode_normalize|normalize|NFKC|nfkc)\b(?:\s*\([^()]*\))?")
_IDENTIFIES_RE = re.compile(r"(?i)email|user|login|account|host|domain|discriminator|ident|origin")
_FOLDS_RE = re.compile(r"(?i)case|lower|upper")


def _normalization_dropped(old: str, new: str) -> str | None:
    gone = [m.group(0) for m in _NORMALIZES_RE.finditer(old)]
    if gone and any(_FOLDS_RE.search(g) for g in gone) and not _NORMALIZES_RE.search(new) and _IDENTIFIES_RE.search(new) and squeezed(_NORMALIZES_RE.sub("", old)) == squeezed(new):
        return f"no longer normalises a key ({', '.join(g.lstrip('.').split('(')[0] for g in gone[:2])} dropped): {_q(new)}"
    return None


_PAIR_READERS = (_propagation_dropped, _abs_dropped, _normalization_dropped, _header_skips, _falsy_narrowed, _self_default, _loose_match, _first_only, _check_dropped,
                 dropped_options.bound_off, dropped_options.retries_widened, dropped_options.mode_widened)


# Where code's own logic lives (a docs file's code samples included); CI and build files are the other readers'.
READ_KINDS = frozenset({"source", "example", "generated", "docs"})


def weakened_code(added: Sequence[str], removed: Sequence[str], written: frozenset[str] = frozenset(), *, kind: str = "source") -> str | None:
    """"what the code now does: the line" for the first edit that makes a check toothless (a result unchecked, a refusal
    softened, a flag dropped, a default widened), read by structure in any language; None when there is none.
    ``written``: the squeezed lines the whole change adds (a removed line found there was moved, not dropped); ``kind``:
    the file's (only ``READ_KINDS`` are read)."""
    if kind not in READ_KINDS:
        return None
    new, gone = _fresh(added, removed), _fresh(removed, added)
    if not new and not gone:
        return None
    # A docs file's large rewrite is prose moved around its samples: paired only where condition_reading pairs.
    large = max(len(new), len(gone)) > 40 and kind != "docs"
    paired = (pairs(added, removed) or (_paired(new, gone) if large else [])) if new and gone else []
    alone = gone if kind != "docs" else []  # a docs file's removed line with nothing in its place is more often prose rewritten
    paired = paired + _same_key(new, gone, paired) if new and gone else paired
    found = _result_unchecked(new, gone) if gone else None
    if found is None and gone and new:
        found = _refusal_softened(new, gone, removed, written)
    if found is None:
        for old, line in paired:
            found = next((f for reader in _PAIR_READERS if (f := reader(old, line))), None)
            if found:
                break
    if found is None and gone:
        found = (dropped_options.member_dropped(new, alone, paired) or dropped_options.metachars_dropped(new, gone, paired)
                 or (_ternary_unwrapped(new, gone) or _bound_dropped(new, gone) if new else None))
    if found is None and new:
        found = _missing_skips(new) or dropped_options.client_name_on_disk(new) or dropped_options.secret_mode(new)
    return found
