"""A number put into a line that changes what a value measures (issue 36, round 59: blind 83/84).

Edits of one token run, read as shapes (no security word need be on the line):

- ``count_floor_raised``: a count's comparison with zero or one moved up by one (``total_users() > 0`` → ``> 1``,
  ``len(keys) >= 1`` → ``>= 2``): a check that held for a single item now needs two (blind 84's shadowsocks: an HTTP
  proxy with one Basic-auth user stopped asking for a password);
- ``scaled``: a unit's factor put into an expression (``i / self.interval`` → ``i / (self.interval * 60)``, ``ttl`` →
  ``ttl * 1000``): what was seconds is now minutes or milliseconds (blind 84's pyotp: a 30-second code valid for half an
  hour);
- ``narrowed``: a 64-bit time, size or count cut to 32 bits by a cast put in (``return (int) toMillisLong(…)``), in a
  language whose ``int`` is 32 bits (PHP's ``(int)`` is no narrowing: cron-expression's own index cast);
- ``unit_swapped``: a duration's number changed by exactly a thousandfold (``ALERT_POLL_MS = 15_000`` → ``15``: seconds
  written as milliseconds, or back; blind 85's dozzle, a poll every 15 ms);
- ``duration_doubled`` (Go): a Duration field multiplied by a unit (``cfg.Timeout`` → ``cfg.Timeout * time.Second``);
- ``made_signed`` (Go, Rust; round 91, blind 138's decimal): a value the new code declares ``uint64``/``u64`` converted to
  ``int64``/``i64`` (``big.NewInt(int64(value))``): past 2^63 it wraps negative.

Each is worth a look (medium). Quiet: a limit's value raised a thousandfold (``limit: options.limit * 1024``: "raises a
limit 1,024-fold", high, is relay.review.turned_lines'; said here it was said once, at medium: blind 85's body-parser), a factor changed
(``* 60`` → ``* 3600``: a literal edited, the readers of bounds say it), a minute made an hour (``ttl = 60`` → ``3600``:
a tuning as often), a factor taken out, a comparison's bound scaled (the bound readers'), a number compared with no count on the line,
a count's floor lowered or a floor above one raised (``> 1`` → ``> 2``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.overridden_turns import COMPARISON_RE, closing_bracket, cut_quote, one_replace, paired_quote, unbracketed
from relay.review.turned_lines import limit_multiplied

__all__ = ["scaled_turned"]

_PAIRS = 40
_LONG = 400
_COUNT_RE = re.compile(r"(?i)count|\blen\b|length|size|total|\bnum|number|\bn_|users|items|entries|(?<!\w)\w+s\(\)")
_FLOORS = {"0": "1", "1": "2"}


def _count_floor_raised(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if _COUNT_RE.search(line) and re.search(r"(?:[<>]=?|[!=]=)\s*[01]\b", line)][:_PAIRS]
    for new in [line for line in added if re.search(r"(?:[<>]=?|[!=]=)\s*[12]\b", line)][:_PAIRS] if olds else ():
        for old in olds:
            found = one_replace(old, new)
            if not found or len(found[1]) != 1 or _FLOORS.get(found[1][0]) != "".join(found[2]):
                continue
            before = "".join(found[0][-2:])
            op = before if before in (">=", "<=", "!=", "==") else found[0][-1] if found[0][-1:] in ([">"], ["<"]) else None
            if (op, found[1][0]) in ((">", "0"), (">=", "1")):  # one item's floor (``> 1`` → ``> 2``, ``< 1`` → ``< 2``, ``!= 0`` → ``!= 1``: quiet)
                return f"needs one more before a check holds ({op} {found[1][0]} → {op} {found[2][0]}: a single one no longer counts): {paired_quote(old, new)}"
    return None


# The factors a unit change puts in: seconds ↔ minutes ↔ hours ↔ days, milliseconds, kibibytes.
_FACTORS = ("60", "1000", "3600", "24", "1024", "86400", "60000", "1e3", "1_000", "1e6", "1000000")
_FACTOR_RE = re.compile(r"[*/]\s*(?:" + "|".join(re.escape(f) for f in _FACTORS) + r")\b(?![.\w])")


def _scaled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if limit_multiplied(added, removed):
        return None  # a limit raised a thousandfold is relay.review.turned_lines' (high): this would say it, and lower it
    olds: dict[str, str] = {}
    for line in removed[:_PAIRS * 5]:
        if len(line) <= _LONG:
            olds.setdefault(unbracketed(line), line)
    # A comparison's bound scaled is the bound readers' (relay.review.decision_turns, loosened_lines: "scales a limit up in place").
    for new in [line for line in added if len(line) <= _LONG and _FACTOR_RE.search(line) and not COMPARISON_RE.search(line)][:_PAIRS] if olds else ():
        key = unbracketed(new)
        for m in _FACTOR_RE.finditer(key):
            cut = (key[:m.start()].rstrip() + " " + key[m.end():].lstrip()).strip()
            old = olds.get(cut) or olds.get(key[:m.start()].rstrip())
            if old is not None and not _FACTOR_RE.search(old):
                how = "multiplies" if m.group().startswith("*") else "divides"
                return f"{how} a value by {m.group()[1:].strip()} (its unit changed?): {paired_quote(old, new)}"
    return None


# ``return DurationUtils.toMillisLong(…);`` → ``return (int) DurationUtils.toMillisLong(…);`` (blind 69's commons-lang): a
# 64-bit time, size or count cut to 32 bits wraps past 24 days of milliseconds or 2 GiB.
_NARROWING_RE = re.compile(r"\(\s*(?:int|short|byte|char|int32_t|int16_t|uint32_t|int32|Int32)\s*\)\s*|\b(?:int32|int16|uint32|Int32)\(")
_WIDE_VALUE_RE = re.compile(r"(?i)long|\blen\(|millis|nanos|micros|size|length|count|time|duration|bytes|offset|epoch")


# Where ``int`` is 32 bits (PHP's and Python's are not: a cast there changes nothing's width).
_NARROW_EXTS = frozenset(("java", "cs", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "m", "mm", "go", "scala"))


def _narrowed(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    if path.rsplit(".", 1)[-1].lower() not in _NARROW_EXTS:
        return None
    olds = {" ".join(line.split()): line for line in removed[:_PAIRS * 5] if len(line) <= _LONG and _WIDE_VALUE_RE.search(line)}
    for new in [line for line in added if len(line) <= _LONG and _NARROWING_RE.search(line)][:_PAIRS] if olds else ():
        m = _NARROWING_RE.search(new)
        cut = new[:m.start()] + new[m.end():]
        if m.group().endswith("("):  # Go's ``int32(x)``: its closing bracket goes too
            close = closing_bracket(new, m.end() - 1) or len(new) + 1
            cut = new[:m.start()] + new[m.end():close - 1] + new[close:]
        if (old := olds.get(" ".join(cut.split()))) is not None:
            return f"cuts a value to a narrower integer ({m.group().strip().rstrip('(')}: a large one wraps): {paired_quote(old, new)}"
    # New code that casts what a 64-bit call answers (round 87: the same commons-lang line inside the commit's own rewrite).
    for new in added[:_PAIRS * 5]:
        if len(new) <= _LONG and (m := _NARROWED_CALL_RE.search(new)):
            return f"cuts a value to a narrower integer ({m.group('cast').strip()} of {m.group('call')}…: a large one wraps): {cut_quote(new.strip())}"
    return None


# A value declared unsigned 64-bit, made signed in the new code (blind 138's shopspring/decimal: ``NewFromUint64(value
# uint64)`` building ``big.NewInt(int64(value))``: past 2^63 the decimal is negative). Go's and Rust's spellings.
_UNSIGNED_RE = re.compile(r"\b(?P<go>[a-z_]\w*)\s+uint64\b|\b(?P<rs>[a-z_]\w*)\s*:\s*u64\b")


def _made_signed(added: Sequence[str], path: str) -> str | None:
    if not path.endswith((".go", ".rs")):
        return None
    lines = [line for line in added[:_PAIRS * 5] if len(line) <= _LONG]
    if any("MaxInt64" in line or "i64::MAX" in line or "try_from" in line for line in lines):
        return None  # the range checked on the change's lines
    names = {m.group("go") or m.group("rs") for line in lines for m in _UNSIGNED_RE.finditer(line)}
    for name in sorted(names)[:_PAIRS]:
        cast = re.compile(rf"\bint64\(\s*{re.escape(name)}\s*\)|(?<![\w.]){re.escape(name)}\s+as\s+i64\b")
        if (hit := next((line for line in lines if cast.search(line)), None)) is not None:
            return f"makes an unsigned 64-bit value signed ({name}: past 2^63 it wraps negative): {cut_quote(hit.strip())}"
    return None


_NARROWED_CALL_RE = re.compile(r"(?P<cast>\(\s*(?:int|short|int32_t|int32)\s*\))\s*(?P<call>[\w.]*(?:Long|AsLong|currentTimeMillis|nanoTime|toEpochMilli|"
                               r"toNanos|toMillis)\s*\()")


# ``ALERT_POLL_MS = 15_000`` → ``= 15`` (blind 85's dozzle: a poll every 15 ms): a duration's number changed by exactly a
# thousandfold, on a line named for a duration: the value read in another unit.
_DURATION_NAME_RE = re.compile(r"(?:_ms|_MS|Ms|(?<![A-Za-z])ms)(?![a-z])|(?i:millis|seconds|minutes|hours|interval|timeout|delay|ttl|poll|expir|"
                               r"lifetime|duration|period|_secs?\b|_min\b)")
_NUMBER_RE = re.compile(r"(?<![\w.])\d[\d_]*(?![\w.])")
_UNIT_FACTORS = (1000, 1000000)  # milli- and micro-: a minute's 60 is a tuning as often (``ttl = 60`` → ``3600``)


def _unit_swapped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed[:_PAIRS * 5] if len(line) <= _LONG and _DURATION_NAME_RE.search(line) and _NUMBER_RE.search(line)]
    for new in [line for line in added if len(line) <= _LONG and _DURATION_NAME_RE.search(line)][:_PAIRS] if olds else ():
        for old in olds:
            found = one_replace(old, new)
            if not found or len(found[1]) != 1 or len(found[2]) != 1 or not (_NUMBER_RE.fullmatch(found[1][0]) and _NUMBER_RE.fullmatch(found[2][0])):
                continue
            if found[0][-1:] not in (["="], [":"]) or not _DURATION_NAME_RE.search(" ".join(found[0][-3:-1])):
                continue  # not a duration's name given the number (``limit = 100`` beside ``windowMs``; ``milliseconds(10000)``: its unit is written)
            a, b = int(found[1][0].replace("_", "")), int(found[2][0].replace("_", ""))
            if a and b and (max(a, b) % min(a, b) == 0) and max(a, b) // min(a, b) in _UNIT_FACTORS:
                return f"changes a duration by a unit's factor ({found[1][0]} → {found[2][0]}: read in another unit?): {paired_quote(old, new)}"
    return None


# Go's ``Timeout: cfg.Timeout`` → ``cfg.Timeout * time.Second`` (round 88: blind 127's koanf): a field times a unit compiles
# only if the field is a Duration already, so the product is nanoseconds times a second (a timeout of decades).
_DURATION_TIMES_RE = re.compile(r"(?P<field>\b[A-Za-z_]\w*(?:\.\w+)+)(?P<unit>\s*\*\s*time\.(?:Second|Millisecond|Minute|Hour|Microsecond))\b")


def _duration_doubled(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    if not path.endswith(".go"):
        return None
    olds = {"".join(line.split()): line for line in removed[:_PAIRS * 5] if len(line) <= _LONG and "time." not in line}
    for new in [line for line in added[:_PAIRS * 5] if len(line) <= _LONG and ("* time." in line or "*time." in line)] if olds else ():
        for m in _DURATION_TIMES_RE.finditer(new):
            if (old := olds.get("".join((new[:m.end("field")] + new[m.end("unit"):]).split()))) is not None:
                return (f"multiplies a duration by a unit again ({m.group('field')} already counts time: the product is years): "
                        f"{paired_quote(old, new)}")
    return None


def scaled_turned(added: Sequence[str], removed: Sequence[str], path: str = "") -> str | None:
    """The first of these turns the edit makes (each worth a look); ``path``: the file's, for a cast's width."""
    return (_count_floor_raised(added, removed) or _scaled(added, removed) or _narrowed(added, removed, path) or _unit_swapped(added, removed)
            or _duration_doubled(added, removed, path) or _made_signed(added, path))
