"""One edited line that flips an outcome where no reader named it (issue 36, round 24 part B).

The blind pair 29/30 quoted these lines as "an edit apart from the change", or let another reason of the file lead:

- ``error_made_success``: an error arm that returned the error now returns success (``Err(err) => Err(…)`` →
  ``Err(_) => Ok(trust_anchor)``, ``{:error, r} -> {:error, r}`` → ``{:error, _} -> {:ok, x}``, ``case Failure(e) =>
  Failure(e)`` → ``Success(x)``, ``.catch(err => reject(err))`` → ``.catch(() => resolve(x))``, a one-line ``catch``/
  ``except`` made to answer with a value (a bare ``true`` is value_reading's "returns success where it failed")): what
  the check rejected is accepted (high);
- ``line_break_anchored``: a line-break check anchored or narrowed to the start (``/[\\n\\r]/`` → ``/^[\\n\\r]/``,
  ``includes("\\n")`` → ``startsWith("\\n")``, ``strings.ContainsAny(s, "\\r\\n")`` → ``strings.HasPrefix``): a line break
  later in the value passes (high: a command or header separator);
- ``presence_only``: a check that asked a predicate about a value replaced by a test that the value is present
  (``guard originalScheme.supportsRedirects(to: url.scheme)`` → ``guard url.scheme != nil``): any scheme, host or
  origin passes; the reason names what was checked. Round 25 part C: high when the value is a scheme, host, origin,
  certificate, signature or token (classic), the predicate's name read in camelCase too, and a presence test too unlike
  its old check to pair by closeness among the commit's own edits read against every removed check of the same value;
- ``default_flipped``: an option tested against ``false`` made a truthiness test (``opt === false ? 'read' : 'incr'``
  → ``opt ? 'incr' : 'read'``): when the option is not given (undefined), the other branch runs, so the default flipped.

The party guarded against is the worker that slips one such line into an ordinary change. Each reader pairs a removed
line with an added one (relay.review.bound_turns' pairing: linear, bounded).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.bound_turns import _pairs
from relay.review.small_edits import paired as _pair

__all__ = ["flipped"]

_LONGEST = 400

# ----- an error arm made success
# The arm's head: Rust/Scala/Swift/Elixir/Erlang/OCaml patterns, a promise's catch, a one-line catch/except/rescue.
_ARM_RE = re.compile(r"(?P<head>\bErr\s*\(\s*(?:ref\s+)?\w*\s*\)\s*=>|\bcase\s+(?:\.failure|Failure|Left|\.error)\b[^:=]*(?:=>|:)|\{\s*:error\s*,[^}]*\}\s*->|"
                     r"\|\s*(?:Error|Err)\b[^-]*->|\.catch\s*\(\s*(?:\(?\s*\w*\s*\)?\s*=>|function\s*\(\s*\w*\s*\))\s*\{?|"
                     r"\bcatch\s*(?:\([^)]*\))?\s*\{|\bexcept\b[^:]*:|\brescue\b[^=]*?(?:=>\s*\w+\s*)?(?:;|then)|\bonFailure\s*\{|\bif\s+err\s*!=\s*nil\s*\{)")
_FAILS_RE = re.compile(r"^\s*(?:return\s+|return\s*\(\s*|break\s+)?(?:Err\b|Failure\b|Left\b|\.failure\b|\{\s*:error\b|Error\b|reject\b|"
                       r"(?:completion|callback|cb|done|handler)\s*\(\s*(?:\.failure|err|error|e\b)|throw\b|raise\b|false\b|False\b|nil\s*,\s*err|err\b|"
                       r"Promise\.reject\b|ControlFlow::Break)")
_SUCCEEDS_RE = re.compile(r"^\s*(?:return\s+|return\s*\(\s*|break\s+)?(?P<ok>Ok\b|Success\b|Right\b|\.success\b|\{\s*:ok\b|resolve\b|"
                          r"(?:completion|callback|cb|done|handler)\s*\(\s*(?:\.success|null|nil|None|undefined)\b|nil\s*[;}]?\s*$|"
                          r"\w+\s*,\s*nil\b|Promise\.resolve\b)")


def _tail(line: str, m: re.Match[str]) -> str:
    return re.sub(r"^\{(?!\s*:)\s*", "", line[m.end():].strip())  # a block's brace, not an Elixir tuple's


def _error_made_success(old: str, new: str) -> str | None:
    a, b = _ARM_RE.search(old), _ARM_RE.search(new)
    if a is None or b is None or re.match(r"\W*(\w+)", a.group(0)).group(1) != re.match(r"\W*(\w+)", b.group(0)).group(1):  # type: ignore[union-attr]
        return None  # no arm, or another kind of arm (the binding's name may change: `err` → `_`)
    was, now = _tail(old, a), _tail(new, b)
    if not was or not now or not _FAILS_RE.match(was) or (ok := _SUCCEEDS_RE.match(now)) is None:
        return None
    return (f"makes an error success (the error arm now answers {ok.group('ok').strip()}: a rejection is discarded, "
            f"what the check refused is accepted): {_pair(old, new)}")


# ----- a line-break check anchored or narrowed to the start
_BREAK = r"(?:\\r|\\n|\\u000[aAdD]|\\x0[aAdD])"
_BREAK_CLASS_RE = re.compile(rf"(?:\[\^?(?:[^\]]*?{_BREAK}[^\]]*)\]|{_BREAK}(?:\\r|\\n)?)")
_TO_START = {("includes", "startsWith"), ("contains", "startsWith"), ("Contains", "StartsWith"), ("contains", "hasPrefix"), ("Contains", "HasPrefix"),
             ("ContainsAny", "HasPrefix"), ("ContainsRune", "HasPrefix"), ("include?", "start_with?"), ("indexOf", "startsWith"), ("contains", "starts_with"),
             ("in", "startswith"), ("search", "match"), ("IndexAny", "HasPrefix"), ("find", "startswith"), ("strpbrk", "str_starts_with"),
             ("str_contains", "str_starts_with"), ("includes", "endsWith"), ("contains", "endsWith"), ("Contains", "HasSuffix")}


def _line_break_anchored(old: str, new: str) -> str | None:
    if not (re.search(_BREAK, old) or "\\n" in old) or len(old) > _LONGEST:
        return None
    squeeze = lambda s: re.sub(r"\s+", "", s)  # noqa: E731 - a one-line normaliser
    for m in _BREAK_CLASS_RE.finditer(old):
        cls = m.group(0)
        for anchored in ("^" + cls, cls + "$", "\\A" + cls, cls + "\\z", cls + "\\Z"):
            if squeeze(old[:m.start()] + anchored + old[m.end():]) == squeeze(new) and anchored not in old:
                return (f"anchors a line-break check ({cls} → {anchored}: only a value that starts or ends with a newline is refused, "
                        f"a line break inside it passes): {_pair(old, new)}")
    for was, now in _TO_START:
        if re.search(rf"(?<![\w$]){re.escape(was)}(?![\w?])", old) and re.search(rf"(?<![\w$]){re.escape(now)}(?![\w?])", new) and now not in old:
            if squeeze(old.replace(was, now, 1)) == squeeze(new) or (was == "in" and "startswith" in new and re.search(_BREAK, new)):
                return (f"narrows a line-break check to the start ({was} → {now}: a line break later in the value passes): {_pair(old, new)}")
    return None


# ----- a predicate check replaced by a presence test
_PRESENT_RE = re.compile(r"^\s*(?:\}?\s*else\s*)?(?:guard|if|elif|elsif|unless|while|assert|require|check|precondition)\b\s*\(?\s*(?:let\s+\w+\s*=\s*)?"
                         r"(?P<v>[\w$@.?>\[\]\"'-]+?)\s*(?:!=|!==|<>)\s*(?:nil|null|NULL|None|undefined)\s*\)?\s*(?:else\b|\{|:|then\b|,|$)|"
                         r"^\s*(?:\}?\s*else\s*)?(?:if|elif|assert)\s+(?P<w>[\w.]+?)\s+is\s+not\s+None\s*:")
# (round 25 part C: the words in camelCase too, ``isSameOrigin(…)``, ``IsAllowed(…)``)
_PREDICATE_RE = re.compile(r"(?P<call>[\w$.?]*?(?i:support|allow|accept|permit|valid|verif|trust|safe|match|same|check|is_?(?:secure|https|allowed|trusted|safe))\w*)\s*\(")
_SUBJECT_RE = re.compile(r"(?i)scheme|protocol|https|host|domain|origin|port|redirect|url|uri|location|cert|signature|token")


def _about_trust(new: str) -> bool:
    """A presence test standing where a check of a scheme, host, origin, certificate or signature stood is classic (high,
    round 25 part C): any redirect target, any origin passes; another value's check made a presence test is worth a look."""
    m = _PRESENT_RE.match(new)
    return bool(m and _SUBJECT_RE.search(m.group("v") or m.group("w") or ""))


def _presence_only(old: str, new: str) -> str | None:
    m = _PRESENT_RE.match(new)
    if m is None or len(old) > _LONGEST:
        return None
    value = m.group("v") or m.group("w")
    if value not in old or not re.match(r"\s*(?:\}?\s*else\s*)?(?:guard|if|elif|elsif|unless|while|assert|require|check|precondition)\b", old):
        return None
    p = _PREDICATE_RE.search(old)
    if p is None or value in p.group("call"):
        return None
    subject = _SUBJECT_RE.search(value.rsplit(".", 1)[-1]) or _SUBJECT_RE.search(p.group("call"))
    what = subject.group(0).lower() if subject else value
    return (f"replaces a check with a presence test ({p.group('call')}(…) → {value} present: any {what} now passes, the {what} "
            f"check is dropped): {_pair(old, new)}")


# ----- an option tested against false made a truthiness test
_AGAINST_FALSE_RE = re.compile(r"(?P<x>[\w$.?@\[\]'\"]+?)\s*(?P<op>===|==|!==|!=|\bis\s+not\b|\bis\b)\s*(?:false|False)\b")


def _default_flipped(old: str, new: str) -> str | None:
    m = _AGAINST_FALSE_RE.search(old)
    if m is None or re.search(r"(?:===|==|!==|!=|\bis\b)\s*(?:false|False|true|True|undefined|null|None)\b", new) or len(old) > _LONGEST:
        return None
    x = m.group("x")
    if x not in new:
        return None
    # The same line but for the comparison with false: the option is now tested for truthiness.
    bare = re.sub(r"[\s()!]|\bnot\b", "", new)
    if re.sub(r"[\s()!]|\bnot\b", "", old[:m.start()] + x + old[m.end():]) == bare:
        return None  # `x === false` → `!x` in a condition reads the same for a boolean: left to the other readers unless branches swapped
    t_old = re.search(r"\?\s*(?P<a>[^:]+?)\s*:\s*(?P<b>[^;,)]+)", old[m.end():])
    t_new = re.search(rf"{re.escape(x)}\s*\)?\s*\?\s*(?P<a>[^:]+?)\s*:\s*(?P<b>[^;,)]+)", new)
    if t_old is None or t_new is None or (t_old.group("a").strip(), t_old.group("b").strip()) != (t_new.group("b").strip(), t_new.group("a").strip()):
        return None
    given = t_old.group("b").strip() if m.group("op").strip() in ("===", "==", "is") else t_old.group("a").strip()
    now = t_new.group("b").strip()
    name = x.rsplit(".", 1)[-1].strip("?")
    return (f"flips an option's default ({name} compared with false → {name} tested as true: when {name} is not given "
            f"(undefined) the code now takes {now}, not {given}): {_pair(old, new)}")


def flipped(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first of these kinds a pair of the edit makes, with whether it is classic (high), or None."""
    if not added or not removed:
        return None
    (close,) = _pairs(added, removed, ((None, 0.4),))
    for old, new in close:
        if len(old) > _LONGEST or len(new) > _LONGEST:
            continue
        for found, classic in ((_error_made_success(old, new), True), (_line_break_anchored(old, new), True),
                               (_presence_only(old, new), _about_trust(new)), (_default_flipped(old, new), False)):
            if found:
                return found, classic
    # (round 25 part C) a presence test too unlike its old check to pair by closeness among the commit's own edits of
    # like lines (``guard url.scheme != nil else {`` beside ``guard self.visited.count <= config.max else {``): each new
    # presence test is read against the removed checks that tested the same value (at most 400 lines a side).
    tests = [line for line in added[:400] if len(line) <= _LONGEST and "=" in line and _PRESENT_RE.match(line)]
    for new in tests[:20]:
        for old in removed[:400]:
            if len(old) <= _LONGEST and "(" in old and (found := _presence_only(old, new)):
                return found, _about_trust(new)
    return None
