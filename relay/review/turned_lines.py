"""The one line a worker turned inside a file of many changed lines (issue 36, round 29).

The blind first runs of held-out 39 and 40 flagged most planted files high or medium, but for the file's own words ("changes
security-relevant code (credentials: …)", "security-sensitive path (crypto)", "database migration", "large change (304
lines in one hunk)"), while the line a worker turned sat unquoted in the same file, often inside a big hunk the family
readers stop reading at a few hundred lines. This module pairs each screened changed line with the line it replaced (the
most alike removed line: a small token difference) over the whole change, and says what turned when a reviewer must see
it. Each reader is general, not a pattern of one project: it reads the turn's direction, in any language.

High (the direction is clearly unsafe):
- a key's size, a hash's rounds or iterations cut (``GenerateKey(…, 4096)`` → ``1024``, ``rounds=12`` → ``4``);
- an algorithm turned weaker in place: a SHA-2/SHA-3/BLAKE2 name replaced by MD5/SHA-1/CRC32 (a table of functions that
  maps a strong name to a weak function), a secure random replaced by a plain one;
- a failure that stood where secure randomness was missing replaced by a non-crypto random (a fallback);
- a check that failed unless the result was true now fails only on nil/null (``!= true`` → ``== nil``): false passes;
- a constant-time compare given an early exit (``if (diff != 0) return false`` added);
- a quoting or escaping call removed around a value the line still prints (``quote(name)`` → ``name``);
- a value passed as its own argument now interpolated into a shell string (``["ls", p]`` → ``["sh", "-c", "ls \\(p)"]``).

Worth a look (the turn may be the safe one in some code; the reviewer judges):
- a limit counted in characters where it counted bytes (``bytesize`` → ``length``, ``len(s.encode())`` → ``len(s)``);
- a failure condition given a conjunct, so it fails less (``if expired {`` → ``if expired && other {``), or a presence
  gate moved to another value (``req.state != null &&`` → ``resp.state != null &&``: skipped when that one is absent);
- a refusal turned into a skip (``return null`` → ``continue`` in a decoder): invalid input is ignored, not refused.

Quiet: the same turns made the safe way (a size raised, a strong name for a weak one, a quote added, a conjunct dropped,
``length`` → ``bytesize``), renames (the same token changed on every side), lines too long to be slipped in, tests (the
row's scope). Each reason quotes the new line after ``what it does: `` so the view and ``lines`` put it first
(relay.review.telling).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher

from typing import TYPE_CHECKING

from relay.core.contracts import FileChange
from relay.review.line_shapes import alike, clipped, squeezed
from relay.review.turn_consequences import escapes_fewer

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["TURNED_CHECK_EXAMPLE", "TURNED_LINE_EXAMPLE", "turned_check", "turned_check_check", "turned_line", "turned_line_check"]

_MOST = 1000  # lines a side read (observation keeps fewer); only screened lines are paired, among those sharing an edge
_LONG = 240  # a longer line is a bundle's or a table's, not one a worker slips in
_QUOTE = 72
_TOKEN = re.compile(r"[A-Za-z_][\w]*|\d+|\S")


def _tokens(line: str) -> list[str]:
    return _TOKEN.findall(line)


def _code(lines: Sequence[str]) -> list[str]:
    out = []
    for ln in lines[:_MOST]:
        s = ln.strip()
        if s and len(s) <= _LONG and not s.startswith(("//", "#", "/*", "*", "--", ";")):
            out.append(ln)
    return out


_EDGE = 4  # a line edited in place keeps its opening or its ending: candidates are the lines that share one
_BUCKET = 24  # at most this many candidates a side of one edge: a bucket of ``}`` or ``return nil`` lines says nothing
_SCREENED = 200  # at most this many screened lines a reader pairs


def _edges(lines: Sequence[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for ln in lines:
        sq = squeezed(ln)
        for key in {"<" + sq[:_EDGE], ">" + sq[-_EDGE:]}:
            bucket = index.setdefault(key, [])
            if len(bucket) < _BUCKET:
                bucket.append(ln)
    return index


def _partner(new: str, index: dict[str, list[str]], least: float = 0.6) -> str | None:
    """The line ``new`` replaced (or replaces): the most alike at ``least`` or more among the lines sharing its opening or
    its ending, not the same line."""
    best, score = None, least
    sq = squeezed(new)
    for old in dict.fromkeys([*index.get("<" + sq[:_EDGE], ()), *index.get(">" + sq[-_EDGE:], ())]):
        # Either way round: SequenceMatcher's ratio depends on which side is read first.
        if squeezed(old) == sq or not (alike(old, new, least) or alike(new, old, least)):
            continue
        ratio = max(SequenceMatcher(None, squeezed(old), sq, autojunk=False).ratio(), SequenceMatcher(None, sq, squeezed(old), autojunk=False).ratio())
        if ratio >= score:
            best, score = old, ratio
    return best


def _pairs(added: Sequence[str], removed: Sequence[str], screen: re.Pattern[str], least: float = 0.6) -> Iterator[tuple[str, str]]:
    kept = set(map(squeezed, added))
    index = _edges([ln for ln in removed if squeezed(ln) not in kept])
    for new in [ln for ln in added if screen.search(ln)][:_SCREENED]:
        if (old := _partner(new, index, least)) is not None:
            yield old, new


def _pairs_from_old(added: Sequence[str], removed: Sequence[str], screen: re.Pattern[str], least: float = 0.6) -> Iterator[tuple[str, str]]:
    """As ``_pairs``, screened on the old side: where the old line's shape is the rare one, the new lines are many."""
    had = set(map(squeezed, removed))
    index = _edges([ln for ln in added if squeezed(ln) not in had])
    for old in [ln for ln in removed if screen.search(ln)][:_SCREENED]:
        if (new := _partner(old, index, least)) is not None:
            yield old, new


def _changed(old: str, new: str) -> list[tuple[str, list[str], list[str]]]:
    a, b = _tokens(old), _tokens(new)
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(tag, a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]


def _said(what: str, new: str) -> str:
    return f"{what}: {clipped(new.strip(), _QUOTE)}"


# --------------------------------------------------------------------------- high: the unsafe direction

_STRENGTH = re.compile(r"(?i)rsa|dsa|GenerateKey|generate_?key|generate_private_key|key_?size|key_?length|key_?bits|modulus|"
                       r"\bbits\b|\brounds\b|\biterations\b|pbkdf|bcrypt|scrypt|argon|\bcost\b")


def _size_cut(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, _STRENGTH, 0.7):
        if not _STRENGTH.search(old):
            continue
        turns = _changed(old, new)
        if len(turns) == 1 and turns[0][0] == "replace" and len(turns[0][1]) == len(turns[0][2]) == 1:
            a, b = turns[0][1][0], turns[0][2][0]
            if a.isdigit() and b.isdigit() and int(a) >= 8 and int(b) < int(a):
                return _said(f"cuts a key size or a hash's work ({a} → {b})", new)
    return None


_WEAK = re.compile(r"(?i)md[245]|sha-?1(?!\d)|crc32|\brc4\b|\bdes\b|\becb\b")
_STRONG = re.compile(r"(?i)sha-?(?:224|256|384|512)|sha3|blake2|\bgcm\b")
_PLAIN_RANDOM = re.compile(r"Math\.random\(|\brandom\.(?:random|randint|choice|getrandbits)\(|\bmt_rand\(|\brand\(\)|new Random\(|"
                           r"math/rand|\brand\.(?:Int\d*n?|Uint\d+|Read|Float64)\(|Random\.(?:nextInt|nextBytes)\(")
_SECURE_RANDOM = re.compile(r"(?i)securerandom|randombytes|getrandomvalues|\bsecrets\.|urandom|crypto/rand|strong_rand|random_bytes|csprng")


def _weaker_algorithm(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, re.compile(_WEAK.pattern + "|" + _PLAIN_RANDOM.pattern), 0.6):
        for tag, a, b in _changed(old, new):
            was, now = " ".join(a), " ".join(b)
            if tag == "replace" and _STRONG.search(was) and _WEAK.search(now) and not _WEAK.search(old):
                return _said(f"maps a strong hash or cipher to a weaker one ({was} → {now})", new)
            if tag == "replace" and _SECURE_RANDOM.search(was) and _PLAIN_RANDOM.search(new) and not _PLAIN_RANDOM.search(old):
                return _said("makes randomness predictable (a secure random replaced)", new)
    return None


_FAILS = re.compile(r"\b(?:throw|raise|panic|abort|fatal)\b|\bErr\(|return\s+err\b")
_ABOUT_RANDOM = re.compile(r"(?i)random|crypto|secure|entropy")


def _random_fallback(added: Sequence[str], removed: Sequence[str]) -> str | None:
    failed = [ln for ln in removed if _FAILS.search(ln) and _ABOUT_RANDOM.search(ln)]
    if not failed:
        return None
    before = {squeezed(ln) for ln in removed if _PLAIN_RANDOM.search(ln)}
    for new in added:
        if _PLAIN_RANDOM.search(new) and squeezed(new) not in before:
            return _said("falls back to a non-crypto random where it failed", new)
    return None


_NOT_TRUE = re.compile(r"([\w.\->()\[\]]+?)\s*!==?\s*(?:true|Qtrue|True|TRUE|YES)\b")
_IS_NULL = r"\s*===?\s*(?:nil|null|None|Qnil|NULL|undefined|Py_None)\b"


def _fails_only_on_null(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs_from_old(added, removed, _NOT_TRUE, 0.5):
        m = _NOT_TRUE.search(old)
        if m and re.search(re.escape(m.group(1)) + _IS_NULL, new) and not _NOT_TRUE.search(new):
            return _said("fails only when the result is nil, not when it is false", new)
    return None


_EARLY = re.compile(r"\b(?:result|diff|acc|res|mismatch|cmp|r|d)\s*!=\s*0\b.{0,12}\breturn\s+(?:false|False|0|NO)\b|"
                    r"\breturn\s+(?:false|False)\s+(?:if|unless)\s+(?:result|diff|acc|res|mismatch|cmp|r|d)\s*!=\s*0")


def _early_exit(added: Sequence[str], removed: Sequence[str]) -> str | None:
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if _EARLY.search(new) and squeezed(new) not in had:
            return _said("returns at the first difference (a constant-time compare now exits early)", new)
    return None


_QUOTER = re.compile(r"([\w.:]*?(?:quote\w*|\w*escape\w*|sanitiz\w*|sanitis\w*|htmlspecialchars|encodeURIComponent|escapeshellarg|"
                     r"redact\w*|\w*mask\w*|scrub\w*|obfuscat\w*))"
                     r"\(\s*([^()]*(?:\([^()]*\))?[^()]*?)\s*\)", re.IGNORECASE)
# The value printed as it is, or copied: what stands where the call stood.
_BARE = ("{v}", "{v}.dup", "{v}.clone", "{v}.copy()", "{v}.to_s", "str({v})", "String({v})", "{v}.toString()")


def _quote_removed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    now = {squeezed(ln): ln for ln in added}
    for old in removed:
        if squeezed(old) in now:
            continue
        for m in _QUOTER.finditer(old):
            if not m.group(2).strip():
                continue
            for form in _BARE:
                bare = squeezed(old[:m.start()] + form.format(v=m.group(2)) + old[m.end():])
                if bare in now:
                    hides = re.search(r"(?i)redact|mask|scrub|obfuscat", m.group(1))
                    what = "the redaction" if hides else "the quoting"
                    return _said(f"drops {what} around a value ({m.group(1)}() removed)", now[bare])
    return None


_SHELL = re.compile(r"""["'](?:/bin/)?(?:ba|z)?sh["']\s*,\s*(?:arguments:\s*)?\[?\s*["']-c["']|\bshell\s*=\s*True\b|\bos\.system\(|"""
                    r"""\bsystem\(|\bpopen\(|%x\(|`""")
_INTERP = re.compile(r"\\\(([^()]+(?:\(\))?)\)|\$\{([^}]+)\}|#\{([^}]+)\}|\bf[\"'][^\"']*\{([^}]+)\}|[\"']\s*\+\s*([\w.]+)")


def _shell_interpolated(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if any(_SHELL.search(ln) for ln in removed):
        return None
    for new in added:
        if not _SHELL.search(new):
            continue
        for m in _INTERP.finditer(new):
            value = next(g for g in m.groups() if g).strip()
            if len(value) >= 2 and any(value in old and not _INTERP.search(old) for old in removed):
                return _said(f"builds a shell command by interpolating {clipped(value, 30)} (it was an argument)", new)
    return None


# A line of a file the change adds has no old line to pair with: a weak key size or a table mapping a strong hash's name
# to a weak function is read on the line alone.
_WEAK_KEY = re.compile(r"(?i)(?:\brsa|\bdsa|modulus_?length|key_?size|GenerateKey|generate_private_key|RSA\.(?:new|generate))"
                       r"[^;#]{0,60}?\b(384|512|768|1024|1536)\b")
_MAPPED = re.compile(r"(?i)[\"']?(\w*(?:sha-?(?:224|256|384|512)|sha3|blake2)\w*)[\"']?\s*(?::|=>|=)\s*[\w.]*?(\w*(?:md5|md4|sha-?1(?!\d))\w*)")


def _weak_on_line(added: Sequence[str], removed: Sequence[str]) -> str | None:
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if squeezed(new) in had:
            continue
        if (m := _WEAK_KEY.search(new)) and not re.search(r"(?i)\baes|bytes|buffer|\bbuf\b", new):
            return _said(f"generates a weak key ({m.group(1)} bits)", new)
        if m := _MAPPED.search(new):
            return _said(f"maps {m.group(1)} to a weaker hash ({m.group(2)})", new)
    return None


_FAILED_EXIT = re.compile(r"(?:\|\||\bor)\s*(?:return|exit)\s+([1-9]\d*|false|False)\b")


def _failure_made_success(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """``check || return 1`` → ``check || return 0``: the check's failure branch now reports success."""
    for old, new in _pairs(added, removed, re.compile(r"(?:\|\||\bor)\s*(?:return|exit)\s+(?:0|true|True)\b"), 0.7):
        if (m := _FAILED_EXIT.search(old)) and squeezed(old[:m.start()]) == squeezed(new[:m.start()] if len(new) >= m.start() else new):
            return _said(f"makes a failed check succeed ({m.group(0).split()[-1]} → success)", new)
    return None


_SENSITIVE = re.compile(r"""(?i)["'](?:set-)?cookie["']|["']authorization["']|["'](?:x-)?api[-_]?key["']|["']password["']|["']secret["']|"""
                        r"""["'](?:access_|refresh_)?token["']|["']session(?:id)?["']""")


def _exclusion_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A clause that left a sensitive name out (``where key != "Cookie"``, ``if k != 'authorization'``) dropped in place."""
    for old, new in _pairs_from_old(added, removed, _SENSITIVE, 0.6):
        if _SENSITIVE.search(new):
            continue
        turns = _changed(old, new)
        gone = " ".join(t for tag, a, _ in turns for t in a)
        if turns and all(tag == "delete" for tag, _, _ in turns) and re.search(r"!|not|except|reject|where|filter|unless", gone):
            name = _SENSITIVE.search(old).group(0)
            return _said(f"stops leaving out {name} (the exclusion dropped)", new)
    return None


_LIMIT_NAME = re.compile(r"(?i)limit|max|cap\b|size")


def _limit_multiplied(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A limit's value scaled a thousandfold or more in place (``= 32768`` → ``= 32768 << 20``): what it bounded is unbounded."""
    for old, new in _pairs(added, removed, re.compile(r"<<\s*\d+|\*\s*\d+"), 0.6):
        if not _LIMIT_NAME.search(new) or re.search(r"(?i)timeout|ttl|expir|delay|interval|backoff", new):
            continue
        turns = _changed(old, new)
        if len(turns) == 1 and turns[0][0] == "insert":
            grown = "".join(turns[0][2])
            shift, times = re.fullmatch(r"<<(\d+)", grown), re.fullmatch(r"\*(\d+)(?:\*(\d+))?", grown)
            factor = 2 ** int(shift.group(1)) if shift else (int(times.group(1)) * int(times.group(2) or 1)) if times else 0
            if factor >= 1000:
                return _said(f"raises a limit {factor:,}-fold (what it bounded is all but unbounded)", new)
    return None


_HIGH = (_size_cut, _weak_on_line, _failure_made_success, _exclusion_dropped, _limit_multiplied, _weaker_algorithm, _random_fallback, _fails_only_on_null, _early_exit, _quote_removed, _shell_interpolated)


def turned_line(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn a reviewer must see that is unsafe in its direction, quoted; None when no such line turned."""
    added, removed = _code(added), _code(removed)
    if not added:
        return None
    return next((found for read in _HIGH if (found := read(added, removed))), None)


# --------------------------------------------------------------------------- worth a look

_BYTES = re.compile(r"(?i)byte|encode|getbytes|utf8")
_BYTES_COMPARED = re.compile(r"(?i)(?:byte|encode|getbytes|utf8).*[<>]|[<>].*(?:byte|encode|getbytes|utf8)")
_CHARS = re.compile(r"(?i)^(?:length|size|count|len|chars|characters)$")


def _bytes_to_chars(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs_from_old(added, removed, _BYTES_COMPARED, 0.6):
        if not re.search(r"[<>]", new):
            continue
        for tag, a, b in _changed(old, new):
            was = " ".join(a)
            if _BYTES.search(was) and not _BYTES.search(new) and (tag == "delete" or any(_CHARS.match(t) for t in b)):
                return _said(f"counts a limit in characters, not bytes ({was} → {' '.join(b) or 'dropped'})", new)
    return None


_FAILURE_COND = re.compile(r"(?i)expir|invalid|mismatch|revok|denied|forbidden|unauthori|tamper|stale|replay|\bfail|\berr\b|"
                           r"!\s*[\w.]*(?:valid|verif|allow|auth|equal|match)|\bnot\s+[\w.]*(?:valid|verif|allow|auth|equal|match)")
_CONDITION = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|else if|unless|while|guard)\b|^\s*(?:\|\||&&|or\b|and\b)")
_PRESENT = re.compile(r"([\w.\->()]+?)\s*(?:!==?\s*(?:null|nil|None|undefined)|\bis not None)\s*(?:&&|\band\b)")


_GATE_OLD = re.compile(_FAILURE_COND.pattern + "|" + _PRESENT.pattern)


def _gated(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs_from_old(added, removed, _GATE_OLD, 0.6):
        if not _CONDITION.search(new) or not re.search(r"&&|\band\b", new):
            continue
        # A presence gate moved to another value, the old value still checked after it: skipped when the new one is absent.
        was, now = _PRESENT.search(old), _PRESENT.search(new)
        if was and now and (a := was.group(1).lstrip("(!")) != (b := now.group(1).lstrip("(!")) and a.split(".")[0] in new:
            return _said(f"gates the check on {clipped(b, 30)} being present (was {clipped(a, 30)})", new)
        turns = _changed(old, new)
        if _FAILURE_COND.search(old) and turns and all(tag == "insert" for tag, _, _ in turns) and any(
                "&" in b or "and" in b for _, _, b in turns):
            return _said("fails less often: a conjunct added to a failure check", new)
    return None


_REFUSE = re.compile(r"^\s*(?:return\s+(?:null|nil|None|false|False|-1|err\w*|Err\(.*\)|\{:error.*\})|throw\b.*|raise\b.*);?\s*$")
_SKIP = re.compile(r"^\s*(?:continue|next|pass);?\s*$")
_INPUT = re.compile(r"(?i)decod|pars|valid|base64|base32|hex|escap|sanit|verif|utf|token|sign|unmarshal|deserial")


def _refusal_skipped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    refused = [ln for ln in removed if _REFUSE.match(ln)]
    if not refused or not (_INPUT.search(path) or any(_INPUT.search(ln) for ln in (*added, *removed))):
        return None
    kept = {squeezed(ln) for ln in added}
    gone = [ln for ln in refused if squeezed(ln) not in kept]
    indents = {len(ln) - len(ln.lstrip()) for ln in gone}
    skips = [ln for ln in added if _SKIP.match(ln) and len(ln) - len(ln.lstrip()) in indents]
    if gone and skips and sum(1 for ln in removed if _SKIP.match(ln)) < len(skips):
        return f"skips what it refused (invalid input ignored): {gone[0].strip()} → {skips[0].strip()}"
    return None


_MEASURED = re.compile(r"([\w.]+?)\.(?:length|size|count)\b(?!\()|\blen\(([\w.]+)\)")
# A value measured in bytes, by the forms languages spell it in (the value captured).
_IN_BYTES = re.compile(r"([\w.]+)\.(?:bytesize|bytes\.len|encode\(|getBytes\(|utf8\.count|as_bytes\(\)\.len\(\)|toByteArray\()|"
                       r"byteLength\(\s*([\w.]+)\s*\)|\blen\(\s*([\w.]+)\.encode")


def _length_beside_bytes(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A limit compared on a value's characters where the same file measures that value in bytes (a protocol's field)."""
    in_bytes = {next(g for g in m.groups() if g) for ln in added for m in _IN_BYTES.finditer(ln)}
    if not in_bytes:
        return None
    for new in added:
        if not re.search(r"[<>]=?", new) or not _CONDITION.search(new):
            continue
        for m in _MEASURED.finditer(new):
            v = m.group(1) or m.group(2)
            if v in in_bytes:
                return _said(f"counts a limit in characters where {v} is measured in bytes", new)
    return None


_RARE_FAIL = re.compile(r"(?i)expir|revok|invalid|mismatch|tamper|stale|replay")
_ABSENT = re.compile(r"(?:&&|\band\b)\s*!?\(?\s*([\w.]+?)(?:\.IsZero\(\)|\s*===?\s*(?:nil|null|None|0|\"\")\b|\.nil\?|\.empty\?|"
                     r"\s+is\s+None\b|\.isEmpty\(\))")
_GATED_MISMATCH = re.compile(r"([\w.()]+?)\s*(?:!==?\s*(?:null|nil|undefined)|\s+is\s+not\s+None)\s*(?:&&|\band\b)\s*"
                             r"(?:!\s*[\w.()]+?\.equals\(\s*\1\s*\)|!\s*[\w.()]+?\s*$|\1\s*!==?\s*[\w.()]+)")


def _gated_line(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A failure check that now runs only when another value is zero or absent, or a mismatch check skipped when the value
    it checks is absent (read on one line: the lines of a file the change rewrites have no old line to pair with)."""
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if squeezed(new) in had or not (_CONDITION.search(new) or "(" in new and re.search(r"&&|\band\b", new)):
            continue
        head = re.split(r"&&|\band\b", new, maxsplit=1)[0]
        if _RARE_FAIL.search(head) and (m := _ABSENT.search(new)) and m.group(1).split(".")[0] not in _RARE_FAIL.findall(head):
            subject = re.sub(r"^\W*(?:if|unless|while|elif)\W+", "", head).split(".")[0].strip("( !")
            if m.group(1).split(".")[0] == subject and m.group(1) != subject:
                return _said(f"fails only when {clipped(m.group(1), 30)} is also zero or absent", new)
        if (m := _GATED_MISMATCH.search(new)) and re.search(r"(?i)state|nonce|token|csrf|sign|hmac|digest|secret|origin", new):
            return _said(f"skips the mismatch check when {clipped(m.group(1).lstrip('(!'), 30)} is absent", new)
    return None


_SQL_FORMAT = re.compile(r"(?i)[\"'].*\b(?:REFERENCES|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|FROM|JOIN|TABLE|INDEX|WHERE)\b.*(?:%s|\{\})")
_BARE_NAME = re.compile(r"^\s*([\w.]+\.(?:name|table|column|schema)\w*)\s*,?\s*\)?\s*$")


def _unquoted_identifier(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """An identifier printed bare into SQL where the file quotes the others it prints (``quote(ref.name)`` beside ``col.name``)."""
    if not any(re.search(r"quote\w*\(\s*[\w.]+\.(?:name|table|column|schema)", ln) for ln in added):
        return None
    for i, line in enumerate(added):
        if _SQL_FORMAT.search(line):
            for arg in added[i + 1:i + 5]:
                if m := _BARE_NAME.match(arg):
                    return _said(f"prints the identifier {m.group(1)} into SQL unquoted (the file quotes the others)", arg)
                if ")" in arg and "(" not in arg:
                    break
    return None


def turned_check(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn worth a look that a check took (counted, gated or skipped), quoted; None when none."""
    added, removed = _code(added), _code(removed)
    if not added:
        return None
    # An escaping call told to escape fewer characters, as relay.review.turn_consequences says it (a note there): worth a
    # look, so the file is not low (held-out 39: an HTML-safe encoder no longer escaping a character was named and low).
    if found := escapes_fewer(added, removed):
        return found
    return (_bytes_to_chars(added, removed) or _length_beside_bytes(added, removed) or _gated(added, removed) or _gated_line(added, removed)
            or _unquoted_identifier(added, removed) or _refusal_skipped(path, added, removed))


def turned_line_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``turned_line``)."""
    return turned_line(f.path, f.change.added_lines, f.change.removed_lines)


def turned_check_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``turned_check``)."""
    return turned_check(f.path, f.change.added_lines, f.change.removed_lines)


def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


# The rows' examples and near misses: a key size cut, and raised; an expiry check gated on a value's absence, and ungated.
TURNED_LINE_EXAMPLE = (
    _fc("app/vault.py", ["    private_key = RSA.generate(4096)"], ["    private_key = RSA.generate(1024)"]),
    "cuts a key size or a hash's work (4096 → 1024): private_key = RSA.generate(1024)",
    _fc("app/vault.py", ["    private_key = RSA.generate(1024)"], ["    private_key = RSA.generate(4096)"]),
)
TURNED_CHECK_EXAMPLE = (
    _fc("app/session.rb", ["    if session.expired?"], ["    if session.expired? && session.remember_me.nil?"]),
    "fails only when session.remember_me is also zero or absent: if session.expired? && session.remember_me.nil?",
    _fc("app/session.rb", ["    if session.expired? && session.remember_me.nil?"], ["    if session.expired?"]),
)
