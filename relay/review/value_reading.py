"""A value edited in place to let more through, read by what the value means rather than by its key's words.

``relay.review.condition_reading`` pairs a removed line with the added line written in its place; this module reads
such a pair for the shapes its key-and-literal readers miss (round 6 of issue 36):

- a check's result turned from failure to success (``None => return false`` → ``return true``, ``return
  Result.CreateError(…)`` → ``return Result.Success``);
- a value that no longer passes through the call that checked or escaped it (``val = unsign(raw, key)`` →
  ``val = raw``, ``escapeHtml(user)`` → ``user``);
- a listening address widened from the loopback to every interface (``127.0.0.1`` → ``0.0.0.0``);
- a named value (an assignment, a constant, a keyword argument, a field's default) whose name says what it
  bounds or allows, set the permissive way: a bound to None/MAX/0/-1, a leeway or clock skew raised to an hour or
  more, a minimum divided or lowered, a flag named like ``unsecured``/``insecure`` turned on, one named like
  ``validate``/``secure`` turned off;
- an expiry or verification keyword argument dropped from a call (``decode(c, ttl=max_age)`` → ``decode(c)``).

The party guarded against is the worker that slips such an edit into an ordinary change: the line keeps its words,
only its value moved. Each reader answers ("how: …", whether it is about access) or None.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from relay.review.line_shapes import squeezed

__all__ = ["unwrapped_anywhere", "widened"]

# ----- a result turned from failure to success
_RETURNS_RE = re.compile(r"\breturn\b|=>|->|\byield\b")
_HASH_KEY_RE = re.compile(r"^\s*(?:[:'\"$@]|[\w.$\[\]'\"]+\s*=>\s*(?!return\b)(?:true|false|True|False|\d)\b)")
_FAILS_RE = re.compile(r"(?i)\bfalse\b|error|\berr\b|fail|deny|denied|reject|invalid|unauthori[sz]ed|forbidden")
_SUCCEEDS_RE = re.compile(r"(?i)\btrue\b|success|\bok\b|\bvalid\b|allow|accept|\bpass(?:ed)?\b")


def _to_success(old: str, new: str) -> bool:
    if not (_RETURNS_RE.search(old) and _RETURNS_RE.search(new)) or _HASH_KEY_RE.match(old):
        return False  # a hash's key and value (":strict => true") is a setting, read by the setting readers
    # The part after "return" (or the arm's arrow): what the line hands back.
    tail_old = re.split(r"\breturn\b|=>|->", old, maxsplit=1)[-1]
    tail_new = re.split(r"\breturn\b|=>|->", new, maxsplit=1)[-1]
    head_old, head_new = old[: len(old) - len(tail_old)], new[: len(new) - len(tail_new)]
    return (squeezed(head_old) == squeezed(head_new) and _FAILS_RE.search(tail_old) is not None and _FAILS_RE.search(tail_new) is None
            and _SUCCEEDS_RE.search(tail_new) is not None and _SUCCEEDS_RE.search(tail_old) is None
            and _outside_calls(tail_old, _FAILS_RE) and _outside_calls(tail_new, _SUCCEEDS_RE))


# A refusal made to answer yes when nothing is there (round 101, blind 166: micronaut-security's signature validator, its
# last ``return false;`` after every configuration failed made ``return signatureConfigurations.isEmpty();``: a token is
# accepted unsigned when no signature is configured). The old line refuses outright; the new one answers with an
# emptiness or absence test.
_REFUSES_RE = re.compile(r"^\s*return\s+(?:false|False|FALSE|NO|0)\s*;?\s*$")
_ABSENT_RE = re.compile(r"^\s*return\s+(?:[\w$.()]+\.(?:isEmpty|is_empty|empty|IsEmpty|none\?|empty\?|blank\?|nil\?)\s*(?:\(\s*\))?|"
                        r"len\([\w$.]+\)\s*==\s*0|[\w$.]+\.(?:length|size\(\)|Count|count\(\))\s*===?\s*0|!\s*[\w$.]+|not\s+[\w$.]+|"
                        r"[\w$.]+\s*(?:===?\s*(?:null|nil|undefined)|is\s+None))\s*;?\s*$")


def _to_absence(old: str, new: str) -> bool:
    return _REFUSES_RE.match(old) is not None and _ABSENT_RE.match(new) is not None


_ANSWERS_RE = re.compile(r"(?i)(?:^|[^\w$.])(?:done|cb|callback|next|resolve|respond|reply|send|json)\s*$")


def _outside_calls(text: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` matches ``text`` outside every call's parentheses, or as an argument of a callback that answers
    (``return done(null, false)``): what is handed back, not an argument of the call that computes it (round 80: ``return
    await subtle.importKey(…, false, …)`` → ``…, true, …`` is a key made exportable, not a failure made success)."""
    depth, at, opened = 0, [], []
    for i, ch in enumerate(text):
        at.append((depth, opened[-1] if opened else -1))
        if ch == "(":
            depth, opened = depth + 1, [*opened, i]
        elif ch == ")" and opened:
            depth, opened = depth - 1, opened[:-1]
    return any(at[m.start()][0] == 0 or (at[m.start()][0] == 1 and _ANSWERS_RE.search(text[:at[m.start()][1]]))
               for m in pattern.finditer(text))


# ----- a value no longer passed through the call that checked or escaped it
_PROTECT_CALL_RE = re.compile(
    r"(?P<call>(?:::)?(?:[\w$]+(?:\.|::|->))*(?P<name>\w*(?i:escape|saniti[sz]e|unsign|verify|validate|clean|purify|quote|encode_?html|"
    r"html_?encode|strip_?tags|check_?sig|authenticat|decrypt)|(?<![\w$])h(?=\s*\())\w*)\s*\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)")
# The bare value as a language writes it made text (round 109, blind 209: erubi's ``self << ::Erubi.h(v)`` → ``self << v.to_s``;
# Ruby's and Rails' ``h()`` is HTML escaping).
_AS_TEXT = ("{}", "{}.to_s", "{}.toString()", "str({})", "String({})", "strval({})", "{}.to_string()")


def _bare_forms(old: str) -> Iterator[tuple[str, str, str]]:
    """(the line with a protecting call's argument standing bare, squeezed; the argument; the call) for each such call."""
    for m in _PROTECT_CALL_RE.finditer(old):
        args = [a.strip() for a in m.group("args").split(",") if a.strip()]
        for arg in args[:2]:
            for text in _AS_TEXT:
                yield squeezed(old[: m.start()] + text.format(arg) + old[m.end():]), arg, m.group("call")


def _unwrapped(old: str, new: str) -> str | None:
    bare = squeezed(new)
    return next((f"no longer passes {arg[:20]} through {call[-24:]}()" for form, arg, call in _bare_forms(old) if form == bare), None)


# A file name's sanitiser dropped from a path, whatever now stands in its place (round 109, blind 217: busboy's README
# ``path.join(os.tmpdir(), path.basename(fieldname))`` made ``path.join(os.tmpdir(), filename)``: the sender's name, ``../``
# and all, decides where the file lands).
_SANITISER_RE = re.compile(r"(?:\b(?:path|os\.path|posixpath|File|filepath)\.)?\b(?:basename|Base|secure_filename|sanitize_filename|sanitize_file_name|"
                           r"sanitizeFilename|filenamify)\s*\((?P<arg>[^()]*(?:\([^()]*\)[^()]*)*)\)")
_BARE_NAME_RE = re.compile(r"[\w$.]+(?:\[['\"]?\w+['\"]?\])?")


def _unspaced(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _sanitiser_dropped(old: str, new: str) -> str | None:
    sq = _unspaced(new)  # (not squeezed: its brackets tell ``basename(other)`` from a bare ``other``)
    for m in _SANITISER_RE.finditer(old):
        head, tail = _unspaced(old[:m.start()]), _unspaced(old[m.end():])
        if head and sq.startswith(head) and sq.endswith(tail) and len(sq) > len(head) + len(tail) \
                and _BARE_NAME_RE.fullmatch(sq[len(head):len(sq) - len(tail)]) and ("join" in head.lower() or "/" in head or "+" in head):
            return f"drops the file name's sanitising ({m.group(0).split('(')[0]}(): a name like ../../x now leaves the folder)"
    return None


def unwrapped_anywhere(added: Sequence[str], removed: Sequence[str], most: int = 200) -> tuple[str, str] | None:
    """(how, the new line) for a removed line whose protecting call the change took off, the line written again bare
    anywhere in the change: a pair too unalike to be paired by likeness (``self << ::Erubi.h(v)`` → ``self << v.to_s``)."""
    olds = [line.strip() for line in removed[:most] if "(" in line and len(line) <= 200 and _PROTECT_CALL_RE.search(line)]
    news = {squeezed(line.strip()): line.strip() for line in added[:most]} if olds else {}
    for old in olds:
        if (hit := next(((arg, call, news[form]) for form, arg, call in _bare_forms(old) if form in news), None)) is not None:
            return f"no longer passes {hit[0][:20]} through {hit[1][-24:]}()", hit[2]
    return None


# ----- the loopback widened to every interface
# Spelled as a language's named address too: Rust's Ipv4Addr::LOCALHOST/UNSPECIFIED, .NET's IPAddress.Loopback/Any, Go's
# net.IPv4zero/IPv6unspecified, the sockets API's INADDR_LOOPBACK/INADDR_ANY, Java's getLoopbackAddress()/anyLocalAddress.
_LOOPBACK_RE = re.compile(r"127\.0\.0\.1|\blocalhost\b|['\"]::1['\"]|\bIpv[46]Addr::LOCALHOST\b|\bIPAddress\.(?:IPv6)?Loopback\b|"
                          r"\bnet\.IPv(?:4|6)loopback\b|\bINADDR_LOOPBACK\b|\bgetLoopbackAddress\(\)")
_EVERY_RE = re.compile(r"0\.0\.0\.0|['\"]::['\"]|['\"]\*['\"]|\bIpv[46]Addr::UNSPECIFIED\b|\bIPAddress\.(?:IPv6)?Any\b|"
                       r"\bnet\.IPv(?:4zero|6zero|6unspecified)\b|\bINADDR_ANY\b|\banyLocalAddress\(\)")


def _binds_every(old: str, new: str) -> bool:
    return (_LOOPBACK_RE.search(old) is not None and _EVERY_RE.search(new) is not None and _EVERY_RE.search(old) is None
            and squeezed(_LOOPBACK_RE.sub("H", old)) == squeezed(_EVERY_RE.sub("H", new)))


# ----- named values: "name = value", "name: value", "name=value" in a call, "Type name = value;", "Name { get; set; } = value"
_NAMED_RE = re.compile(r"(?P<name>[A-Za-z_$][\w$]*)['\"]?\s*(?:\{\s*get;\s*(?:private\s+)?set;\s*\}\s*)?(?::\s*[\w:<>\[\]&' ]+?\s*)?"
                       r"(?<![=!<>:])(?:=|:)(?![=:])\s*(?P<value>[^,;)}\]]+)")
_BOUND_RE = re.compile(r"(?i)max|limit|size|parts|depth|bound|timeout|quota|capacity|ttl|upper")
_EXTREME_RE = re.compile(r"^(?:None|null|nil|undefined|0|-1|Infinity|u(?:size|64|32|16|8)::MAX|i(?:64|32)::MAX|(?:Integer|Long)\.MAX_VALUE|"
                         r"sys\.maxsize|math\.inf|float\(['\"]inf['\"]\)|Number\.(?:MAX_SAFE_INTEGER|POSITIVE_INFINITY)|math\.MaxInt\d*|"
                         r"int\.MaxValue|long\.MaxValue|(?:u)?int\d*\.MaxValue|S?SIZE_MAX|U?INT\d*_MAX|U?LL?ONG_MAX|UINT_MAX)$")
_TOLERANCE_RE = re.compile(r"(?i)leeway|skew|toleran|grace|clock_?drift|allowed_?drift")
_OPENS_RE = re.compile(r"(?i)unsecur|insecur|unsafe|unsign|unverif|unchecked|no_?verify|skip_?verif|allow_?(?:any|all|none|unsigned|insecure)|"
                       r"trust_?all|permissive|lax\b|disable_?(?:verif|valid|check|auth|csrf)")
_CHECKS_RE = re.compile(r"(?i)^(?:validate|verify|require|enforce|check)|(?:validat|verif|secure|signed|strict|https_?only|required)\w*$")
_FALSE_RE = re.compile(r"^(?:false|False|FALSE|0|off|no)$")
_TRUE_RE = re.compile(r"^(?:true|True|TRUE|1|on|yes)$")
_NUM_RE = re.compile(r"^(\d[\d_]*)(?:\s*\*\s*(\d[\d_]*))*$")


def _number(text: str) -> int | None:
    text = text.strip()
    if not _NUM_RE.match(text):
        return None
    out = 1
    for part in text.split("*"):
        out *= int(part.strip().replace("_", ""))
    return out


# A whole line that assigns: its value is the rest of the line (calls and all).
_ASSIGN_RE = re.compile(r"^\s*(?:[\w<>\[\],?]+\s+)*(?:[\w$@]+\.)*(?P<name>[\w$@]+)\s*(?::\s*[\w<>\[\]?]+\s*)?=(?!=)\s*(?P<value>.+?)\s*;?\s*$")


def _named(line: str) -> dict[str, str]:
    out: dict[str, str] = {}
    whole = _ASSIGN_RE.match(line)
    if whole:
        out[whole.group("name").lstrip("@$")] = re.split(r"\|\||\?\?|\bor\b", whole.group("value"))[-1].strip()
    for m in _NAMED_RE.finditer(line):
        value = m.group("value").strip().rstrip(",;")
        # "a || 0", "a ?? 0", "a or 0": the value is the fallback.
        value = re.split(r"\|\||\?\?|\bor\b", value)[-1].strip()
        out.setdefault(m.group("name"), value)
    return out


def _named_value(old: str, new: str) -> tuple[str, bool] | None:
    before, after = _named(old), _named(new)
    for name, now in after.items():
        was = before.get(name)
        if was is None or squeezed(was) == squeezed(now):
            continue
        if _BOUND_RE.search(name) and _EXTREME_RE.match(now) and not _EXTREME_RE.match(was) \
                and squeezed(old.replace(was, now, 1)) == squeezed(new):
            return f"sets the bound {name[:32]} to {now}", False
        if _TOLERANCE_RE.search(name):
            a, b = _number(was), _number(now)
            if a is not None and b is not None and b >= 3600 and b >= 10 * max(a, 1):
                return f"widens the tolerance {name[:32]} to {now}", True
        if _FALSE_RE.match(was) and _TRUE_RE.match(now) and _OPENS_RE.search(name):
            return f"turns {name[:32]} on", True
        if _TRUE_RE.match(was) and _FALSE_RE.match(now) and _CHECKS_RE.search(name) and not _OPENS_RE.search(name):
            return f"turns {name[:32]} off", True
    return None


# ----- a minimum divided or lowered in place ("< this.minKeyBitLength" → "< this.minKeyBitLength / 2")
_MIN_RE = re.compile(r"(?i)(?P<name>[\w.$>-]*(?:min|least|bits|key_?len|keylength)\w*)(?P<op>\s*(?:/|>>|-)\s*\d+)")


def _lowered_minimum(old: str, new: str) -> str | None:
    for m in _MIN_RE.finditer(new):
        if squeezed(new[: m.end("name")] + new[m.end():]) == squeezed(old):
            return f"lowers the minimum {m.group('name')[-28:]}{' '.join(m.group('op').split())}"
    return None


# ----- an expiry or verification keyword argument dropped from a call
_KEEPS_RE = re.compile(r",\s*(?P<arg>(?i:ttl|max_?age|expir\w*|lifetime|not_?after|verify\w*|validate\w*|check\w*|audience|issuer|leeway)\s*[=:]\s*[^,()]+)")


def _dropped_argument(old: str, new: str) -> str | None:
    for m in _KEEPS_RE.finditer(old):
        if squeezed(old[: m.start()] + old[m.end():]) == squeezed(new):
            return f"drops the argument {' '.join(m.group('arg').split())[:28]}"
    return None


def widened(old: str, new: str) -> tuple[str, bool] | None:
    """How the new line lets more through than the old one it replaced, and whether it is about access; None when
    it does not read so."""
    if _to_success(old, new):
        return "returns success where it failed", True
    if _to_absence(old, new):
        return "answers yes when nothing is there, where it refused", True
    found = _unwrapped(old, new) or _sanitiser_dropped(old, new)
    if found:
        return found, True
    if _binds_every(old, new):
        return "listens on every interface (was the loopback)", True
    named = _named_value(old, new)
    if named:
        return named
    found = _lowered_minimum(old, new) or _dropped_argument(old, new)
    if found:
        return found, True
    return None


# ----- lines read alone (a new file, a line the change adds with no old line in its place)
# A limit-named keyword argument given "no limit" in a call (not a parameter's default: a call's line reads an
# attribute or calls something before it).
_UNBOUNDED_ARG_RE = re.compile(r"(?<![\w.])(?P<name>\w*(?i:max|limit)\w*)\s*=\s*(?:None|nil|null)\b(?!\s*[.(\[])")
_CALL_LINE_RE = re.compile(r"[\w)\]]\.[A-Za-z_]|\w\(")
_DEF_RE = re.compile(r"^\s*(?:async\s+)?(?:def|fn|func|function|pub\s+fn|public|private|protected)\b")
# A checking callback whose whole body accepts: "func(origin string) bool {" then "return true" then "}".
_CHECKER_OPEN_RE = re.compile(r"(?i)(?:origin|verif|validat|check|allow|trust|authori[sz]|permi)\w*.*(?:\{|:|=>)\s*$")
# A branch's head is no callback's: ``if (verified) {`` answers yes only when verified (round 101: micronaut-security's own
# validator, blind 166, and a vendored YAML emitter's ``if allow_duplicates {`` read as callbacks that accept everything).
_BRANCH_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|else\s+if|elsif|unless|while|for|switch|case|when|match)\b")
# After a loop that answered yes on a match, the fallback answers with an emptiness test: nothing configured, all accepted.
_CLOSES_RE = re.compile(r"^\s*[})\]]+;?\s*$")
_ACCEPT_RE = re.compile(r"^\s*return\s+(?:true|True|Ok\(\s*true\s*\)|Ok\(\s*\(\s*\)\s*\))\s*;?\s*$")
# A branch on a missing value that answers success: "None => return true", "if (x == null) return true;".
_MISSING_ACCEPTS_RE = re.compile(r"^\s*(?:None|null|nil|_)\s*=>\s*(?:return\s+)?(?:true|Ok\(\s*true\s*\))\s*,?\s*$|"
                                 r"^\s*if\s*\(?\s*(?:[\w.]+\s*===?\s*(?:null|nil|None|undefined)|[\w.]+\s+is\s+(?:None|null)|(?:string\.)?IsNullOr\w+\s*\([^()]*\))"
                                 r"\s*\)?\s*:?\s*\{?\s*return\s+(?:true|True|(?:\w+\.)*(?:\w*Success\w*|Valid|Ok))\b(?!\.)")


def _fresh(lines: list[str], other: list[str]) -> list[str]:
    before = {squeezed(line.strip()) for line in other}
    return [line for line in lines if line.strip() and squeezed(line.strip()) not in before]


# A branch that logged a refusal ("debug('cookie unsigned')") now takes the value as it came: the check's failure
# path accepts.
_REFUSAL_LOG_RE = re.compile(r"(?i)\b(?:debug|log\w*|warn\w*|error|info|trace|print\w*|console\.\w+|logger\.\w+)\s*\(\s*[fr]?['\"`][^'\"`]*"
                             r"(?:unsigned|invalid|unverified|not verified|fail|reject|denied|mismatch|expired|tamper|bad sig|forged|untrusted)")
_BARE_ASSIGN_RE = re.compile(r"^\s*(?:(?:let|var|const)\s+)?[\w.$\[\]'\"]+\s*=(?!=)\s*[\w.$]+(?:\[[\w'\"]+\])?\s*;?\s*$")


def _refusal_accepted(fresh_added: list[str], fresh_removed: list[str]) -> str | None:
    for old in fresh_removed:
        if not _REFUSAL_LOG_RE.search(old):
            continue
        indent = len(old) - len(old.lstrip())
        for new in fresh_added:
            if _BARE_ASSIGN_RE.match(new) and len(new) - len(new.lstrip()) == indent:
                return f"takes the value where the check refused it: {' '.join(new.split())[:40]} (was {' '.join(old.split())[:40]})"
    return None


def new_lines(added: list[str], removed: list[str]) -> tuple[str, bool] | None:
    """("how: the line", whether it is about access) for the first line the change writes anew that lets more through
    read alone; None when there is none."""
    fresh = _fresh(list(added), list(removed))
    refused = _refusal_accepted(fresh, _fresh(list(removed), list(added)))
    if refused:
        return refused, True
    for i, line in enumerate(fresh):
        code = " ".join(line.split())
        m = _UNBOUNDED_ARG_RE.search(line)
        if m and not _DEF_RE.match(line) and _CALL_LINE_RE.search(line[: m.start()]):
            return f"passes {m.group('name')[:32]} no limit: {code[:64]}", False
        if _ACCEPT_RE.match(line) and i > 0 and _CHECKER_OPEN_RE.search(fresh[i - 1]) and not _BRANCH_RE.match(fresh[i - 1]) \
                and (i + 1 == len(fresh) or fresh[i + 1].strip().startswith(("}", ")"))):
            return f"a checking callback that accepts everything: {' '.join(fresh[i - 1].split())[:56]} {code}", True
        if _MISSING_ACCEPTS_RE.match(line):
            return f"accepts when the value is missing: {code[:64]}", True
        if _ABSENT_RE.match(line) and _after_accepting(fresh[max(0, i - 4):i]):
            return f"answers yes when nothing is there, after every check failed: {code[:64]}", True
    return None


def _after_accepting(before: list[str]) -> bool:
    """Whether the lines before a fallback close a block that answered yes (``return true; } }``)."""
    for line in reversed(before):
        if _CLOSES_RE.match(line):
            continue
        return _ACCEPT_RE.match(line) is not None
    return False
