"""The one line a worker turned inside a file of many changed lines (issue 36, round 29).

The blind first runs of held-out 39 and 40 flagged most planted files high or medium, but for the file's own words ("changes
security-relevant code (credentials: …)", "security-sensitive path (crypto)", "database migration", "large change (304
lines in one hunk)"), while the line a worker turned sat unquoted in the same file, often inside a big hunk the family
readers stop reading at a few hundred lines. This module pairs each screened changed line with the line it replaced (the
most alike removed line: a small token difference) over the whole change, and says what turned when a reviewer must see
it. Each reader is general, not a pattern of one project: it reads the turn's direction, in any language.

High (the direction is clearly unsafe):
- a key's size, a hash's rounds or iterations cut (``key_size=3072`` → ``768``, ``rounds=12`` → ``4``);
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
from relay.review.line_shapes import ALIKE_CHARS, Screen, clipped, squeezed

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["COMPARES", "CONDITION", "SCREENS", "Pairing", "TURNED_LINE_EXAMPLE", "changed", "code_lines", "fc", "line_tokens", "limit_multiplied", "pairs", "pairs_from_old", "said", "turned_line", "turned_line_check"]

_MOST = 1000  # lines a side read (observation keeps fewer); only screened lines are paired, among those sharing an edge
_LONG = 240  # a longer line is a bundle's or a table's, not one a worker slips in
_QUOTE = 72
# A hex literal is one token (``0x1F``), not a zero and a name: a mask's or a bound's digits turned read as a number's.
_TOKEN = re.compile(r"0[xX][0-9a-fA-F]+\b|[A-Za-z_][\w]*|\d+|\S")


def line_tokens(line: str) -> list[str]:
    """A line's tokens as ``changed`` compares them: names, numbers, hex literals, each other character."""
    return _TOKEN.findall(line)


def code_lines(lines: Sequence[str]) -> list[str]:
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
    if len(sq) > ALIKE_CHARS:
        return None  # as ``alike``: a longer line is alike only to itself
    for old in dict.fromkeys([*index.get("<" + sq[:_EDGE], ()), *index.get(">" + sq[-_EDGE:], ())]):
        so = squeezed(old)
        if so == sq or len(so) > ALIKE_CHARS:
            continue
        # Either way round (SequenceMatcher's ratio depends on which side is read first), each ratio once, and only where
        # its linear upper bounds reach the best so far: a candidate under it cannot win (a bundle's lines made
        # thousands of full ratios of 400-character lines, ~12 s of one review: held-out 65's jsrsasign).
        matcher = SequenceMatcher(None, so, sq, autojunk=False)
        if matcher.real_quick_ratio() < score or matcher.quick_ratio() < score:
            continue
        ratio = max(matcher.ratio(), SequenceMatcher(None, sq, so, autojunk=False).ratio())
        if ratio >= score:
            best, score = old, ratio
    return best


def pairs(added: Sequence[str], removed: Sequence[str], screen: re.Pattern[str], least: float = 0.6) -> Iterator[tuple[str, str]]:
    kept = set(map(squeezed, added))
    index = _edges([ln for ln in removed if squeezed(ln) not in kept])
    for new in [ln for ln in added if screen.search(ln)][:_SCREENED]:
        if (old := _partner(new, index, least)) is not None:
            yield old, new


class Pairing:
    """One change's lines paired for several readers: the index of its removed lines is built once, when first asked
    (relay.review.any_language reads a dozen turns on the same pairing)."""

    def __init__(self, added: Sequence[str], removed: Sequence[str]) -> None:
        self.added, self.removed = added, removed
        self._index: dict[str, list[str]] | None = None

    def _edges(self) -> dict[str, list[str]]:
        if self._index is None:
            kept = set(map(squeezed, self.added))
            self._index = _edges([ln for ln in self.removed if squeezed(ln) not in kept])
        return self._index

    def pairs(self, screen: re.Pattern[str], least: float = 0.6) -> Iterator[tuple[str, str]]:
        """As ``pairs``."""
        screened = [ln for ln in self.added if screen.search(ln)][:_SCREENED]
        if screened:
            index = self._edges()
            for new in screened:
                if (old := _partner(new, index, least)) is not None:
                    yield old, new

    def partner(self, new: str, least: float = 0.6) -> str | None:
        """The removed line ``new`` replaced, if any."""
        return _partner(new, self._edges(), least)


def pairs_from_old(added: Sequence[str], removed: Sequence[str], screen: re.Pattern[str], least: float = 0.6) -> Iterator[tuple[str, str]]:
    """As ``_pairs``, screened on the old side: where the old line's shape is the rare one, the new lines are many."""
    had = set(map(squeezed, removed))
    index = _edges([ln for ln in added if squeezed(ln) not in had])
    for old in [ln for ln in removed if screen.search(ln)][:_SCREENED]:
        if (new := _partner(old, index, least)) is not None:
            yield old, new


def changed(old: str, new: str) -> list[tuple[str, list[str], list[str]]]:
    a, b = line_tokens(old), line_tokens(new)
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(tag, a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]


def said(what: str, new: str) -> str:
    return f"{what}: {clipped(new.strip(), _QUOTE)}"


# --------------------------------------------------------------------------- high: the unsafe direction

_STRENGTH = re.compile(r"(?i)rsa|dsa|GenerateKey|generate_?key|generate_private_key|key_?size|key_?length|key_?bits|modulus|"
                       r"\bbits\b|\brounds\b|\biterations\b|pbkdf|bcrypt|scrypt|argon|\bcost\b")


def _size_cut(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in pairs(added, removed, _STRENGTH, 0.7):
        if not _STRENGTH.search(old):
            continue
        turns = changed(old, new)
        if len(turns) == 1 and turns[0][0] == "replace" and len(turns[0][1]) == len(turns[0][2]) == 1:
            a, b = turns[0][1][0], turns[0][2][0]
            if a.isdigit() and b.isdigit() and int(a) >= 8 and int(b) < int(a):
                return said(f"cuts a key size or a hash's work ({a} → {b})", new)
    return None


_WEAK = re.compile(r"(?i)md[245]|sha-?1(?!\d)|crc32|\brc4\b|\bdes\b|\becb\b")
_STRONG = re.compile(r"(?i)sha-?(?:224|256|384|512)|sha3|blake2|\bgcm\b")
_PLAIN_RANDOM_TEXT = (r"Math\.random\(|\brandom\.(?:random|randint|choice|getrandbits)\(|\bmt_rand\(|\brand\(\)|new Random\(|"
                           r"math/rand|\brand\.(?:Int\d*n?|Uint\d+|Read|Float64)\(|Random\.(?:nextInt|nextBytes)\(")
_PLAIN_RANDOM = re.compile(_PLAIN_RANDOM_TEXT)
_SECURE_RANDOM = re.compile(r"(?i)securerandom|randombytes|getrandomvalues|\bsecrets\.|urandom|crypto/rand|strong_rand|random_bytes|csprng")


# Every pattern is compiled at import: the warm-up compiles them, never a review (relay.call.warm).
_WEAK_OR_PLAIN = re.compile(r"(?i)md[245]|sha-?1(?!\d)|crc32|\brc4\b|\bdes\b|\becb\b|" + r"(?-i:" + _PLAIN_RANDOM_TEXT + ")")
_HIDES = re.compile(r"(?i)redact|mask|scrub|obfuscat")
_NOT_A_KEY = re.compile(r"(?i)\baes|bytes|buffer|\bbuf\b")
_SUCCESS_EXIT = re.compile(r"(?:\|\||\bor)\s*(?:return|exit)\s+(?:0|true|True)\b")
_EXCLUDES = re.compile(r"!|not|except|reject|where|filter|unless")
_SCALED = re.compile(r"<<\s*\d+|\*\s*\d+")
_TIMED = re.compile(r"(?i)timeout|ttl|expir|delay|interval|backoff|age\b|_ms\b|millis|seconds")
_DEFINES = re.compile(r"[^=!<>]=[^=]|:\s*\S")
_SHIFT = re.compile(r"<<(\d+)")
_TIMES = re.compile(r"\*(\d+)(?:\*(\d+))?")
COMPARES = re.compile(r"(?<![<>=-])[<>](?![<>])")  # not a shift, an arrow
CONDITION = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|else if|unless|while|guard)\b|^\s*(?:\|\||&&|or\b|and\b)")


def _weaker_algorithm(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in pairs(added, removed, _WEAK_OR_PLAIN, 0.6):
        for tag, a, b in changed(old, new):
            was, now = " ".join(a), " ".join(b)
            if tag == "replace" and _STRONG.search(was) and _WEAK.search(now) and not _WEAK.search(old):
                return said(f"maps a strong hash or cipher to a weaker one ({was} → {now})", new)
            if tag == "replace" and _SECURE_RANDOM.search(was) and _PLAIN_RANDOM.search(new) and not _PLAIN_RANDOM.search(old):
                return said("makes randomness predictable (a secure random replaced)", new)
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
            return said("falls back to a non-crypto random where it failed", new)
    return None


_NOT_TRUE = re.compile(r"([\w.\->()\[\]]+?)\s*!==?\s*(?:true|Qtrue|True|TRUE|YES)\b")
_IS_NULL = re.compile(r"([\w.\->()\[\]]+?)\s*===?\s*(?:nil|null|None|Qnil|NULL|undefined|Py_None)\b")


def _fails_only_on_null(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in pairs_from_old(added, removed, _NOT_TRUE, 0.5):
        m = _NOT_TRUE.search(old)
        if m and any(n.group(1) == m.group(1) for n in _IS_NULL.finditer(new)) and not _NOT_TRUE.search(new):
            return said("fails only when the result is nil, not when it is false", new)
    return None


_EARLY = re.compile(r"\b(?:result|diff|acc|res|mismatch|cmp|r|d)\s*!=\s*0\b.{0,12}\breturn\s+(?:false|False|0|NO)\b|"
                    r"\breturn\s+(?:false|False)\s+(?:if|unless)\s+(?:result|diff|acc|res|mismatch|cmp|r|d)\s*!=\s*0")


def _early_exit(added: Sequence[str], removed: Sequence[str]) -> str | None:
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if _EARLY.search(new) and squeezed(new) not in had:
            return said("returns at the first difference (a constant-time compare now exits early)", new)
    return None


_QUOTER = re.compile(r"([\w.:]*?(?:quote\w*|\w*escape\w*|sanitiz\w*|sanitis\w*|htmlspecialchars|encodeURIComponent|escapeshellarg|"
                     r"redact\w*|\w*mask\w*|scrub\w*|obfuscat\w*|(?<![\w.])encode|\w*(?:html|xml|entit)\w*encode\w*|encode(?:html|xml|entit|for)\w*))"
                     r"\(\s*([^()]*(?:\([^()]*\))?[^()]*?)\s*\)", re.IGNORECASE)
# An HTML encoder too: a bare ``encode(…)`` (he's, entities'), ``htmlEncode``, ``encodeHTML`` (round 71, blind 100's
# node-html-parser: ``this.rawText = encode(val)`` → ``= val``); a method's ``.encode('utf-8')`` is a charset, not quoting.
# Every quoting call holds one of these words; the pattern (its lazy run of name characters, case folded) is the slowest
# of the review's on a long line (~190 us), the screen ~7.
_QUOTER_SCREEN = Screen(("quote", "escape", "sanitiz", "sanitis", "htmlspecialchars", "encodeuricomponent", "redact", "mask", "scrub",
                         "obfuscat", "encode"), _QUOTER)
# The value printed as it is, or copied: what stands where the call stood.
_BARE = ("{v}", "{v}.dup", "{v}.clone", "{v}.copy()", "{v}.to_s", "str({v})", "String({v})", "{v}.toString()")


def _quote_removed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    now = {squeezed(ln): ln for ln in added}
    for old in removed:
        if squeezed(old) in now:
            continue
        for m in _QUOTER.finditer(old) if _QUOTER_SCREEN.passes(old) else ():
            if not m.group(2).strip():
                continue
            for form in _BARE:
                bare = squeezed(old[:m.start()] + form.format(v=m.group(2)) + old[m.end():])
                if bare in now:
                    hides = _HIDES.search(m.group(1))
                    what = "the redaction" if hides else "the quoting"
                    return said(f"drops {what} around a value ({m.group(1)}() removed)", now[bare])
    return None


_SHELL = re.compile(r"""["'](?:/bin/)?(?:ba|z)?sh["']\s*,\s*(?:arguments:\s*)?\[?\s*["']-c["']|\bshell\s*=\s*True\b|\bos\.system\(|"""
                    r"""\bsystem\(|\bpopen\(|%x\(|\bexec(?:Sync)?\(\s*`""")  # Node's exec of a template string runs a shell
# A backtick runs a shell only in Ruby, Perl, PHP and shells; in JavaScript and TypeScript it is a template string, in Go
# a raw string, in Kotlin a name: a URL template there is no command.
_BACKTICK_RUNS = (".rb", ".rake", ".pl", ".pm", ".php", ".sh", ".bash", ".zsh", "rakefile")
_SHELL_OR_BACKTICK = re.compile(_SHELL.pattern + "|`")
_INTERP = re.compile(r"\\\(([^()]+(?:\(\))?)\)|\$\{([^}]+)\}|#\{([^}]+)\}|\bf[\"'][^\"']*\{([^}]+)\}|[\"']\s*\+\s*([\w.]+)")


def _shell_interpolated(added: Sequence[str], removed: Sequence[str], *, backticks: bool = False) -> str | None:
    shell = _SHELL_OR_BACKTICK if backticks else _SHELL
    if any(shell.search(ln) for ln in removed):
        return None
    for new in added:
        if not shell.search(new):
            continue
        for m in _INTERP.finditer(new):
            value = next(g for g in m.groups() if g).strip()
            if len(value) >= 2 and any(value in old and not _INTERP.search(old) for old in removed):
                return said(f"builds a shell command by interpolating {clipped(value, 30)} (it was an argument)", new)
    return None


# A line of a file the change adds has no old line to pair with: a weak key size or a table mapping a strong hash's name
# to a weak function is read on the line alone.
# (``RSASSA-PSS using SHA-384`` in a table of algorithms is no key size: round 85, blind 121's node-jws readme)
_WEAK_KEY = re.compile(r"(?i)(?:\brsa(?![a-z])|\bdsa(?![a-z])|modulus_?length|key_?size|GenerateKey|generate_private_key|RSA\.(?:new|generate))"
                       r"[^;#]{0,60}?(?<!sha-)(?<!sha)(?<!ps)(?<!rs)(?<!es)(?<!hs)\b(384|512|768|1024|1536)\b")
_MAPPED = re.compile(r"(?i)[\"']?(\w*(?:sha-?(?:224|256|384|512)|sha3|blake2)\w*)[\"']?\s*(?::|=>|=)\s*[\w.]*?(\w*(?:md5|md4|sha-?1(?!\d))\w*)")


def _weak_on_line(added: Sequence[str], removed: Sequence[str]) -> str | None:
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if squeezed(new) in had:
            continue
        if (m := _WEAK_KEY.search(new)) and not _NOT_A_KEY.search(new):
            return said(f"generates a weak key ({m.group(1)} bits)", new)
        if m := _MAPPED.search(new):
            return said(f"maps {m.group(1)} to a weaker hash ({m.group(2)})", new)
    return None


_FAILED_EXIT = re.compile(r"(?:\|\||\bor)\s*(?:return|exit)\s+([1-9]\d*|false|False)\b")


def _failure_made_success(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """``check || return 1`` → ``check || return 0``: the check's failure branch now reports success."""
    for old, new in pairs(added, removed, _SUCCESS_EXIT, 0.7):
        if (m := _FAILED_EXIT.search(old)) and squeezed(old[:m.start()]) == squeezed(new[:m.start()] if len(new) >= m.start() else new):
            return said(f"makes a failed check succeed ({m.group(0).split()[-1]} → success)", new)
    return None


_SENSITIVE = re.compile(r"""(?i)["'](?:set-)?cookie["']|["']authorization["']|["'](?:x-)?api[-_]?key["']|["']password["']|["']secret["']|"""
                        r"""["'](?:access_|refresh_)?token["']|["']session(?:id)?["']""")


def _exclusion_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A clause that left a sensitive name out (``where name != "Authorization"``, ``if k != 'password'``) dropped in place."""
    for old, new in pairs_from_old(added, removed, _SENSITIVE, 0.6):
        if _SENSITIVE.search(new):
            continue
        turns = changed(old, new)
        gone = " ".join(t for tag, a, _ in turns for t in a)
        if turns and all(tag == "delete" for tag, _, _ in turns) and _EXCLUDES.search(gone):
            name = _SENSITIVE.search(old).group(0)
            return said(f"stops leaving out {name} (the exclusion dropped)", new)
    return None


_LIMIT_NAME = re.compile(r"(?i)limit|max|cap\b|size")


def limit_multiplied(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A limit's value scaled a thousandfold or more in place (``= 65536`` → ``= 65536 << 16``): what it bounded is unbounded."""
    for old, new in pairs(added, removed, _SCALED, 0.6):
        # A limit defined (a constant, a setting), not a comparison converting units (``age > max_age * 1000``).
        if not _LIMIT_NAME.search(new) or _TIMED.search(new) or CONDITION.search(new) or COMPARES.search(new) or not _DEFINES.search(new):
            continue
        turns = changed(old, new)
        if len(turns) == 1 and turns[0][0] == "insert":
            grown = "".join(turns[0][2])
            shift, times = _SHIFT.fullmatch(grown), _TIMES.fullmatch(grown)
            factor = 2 ** int(shift.group(1)) if shift else (int(times.group(1)) * int(times.group(2) or 1)) if times else 0
            if factor >= 1000:
                return said(f"raises a limit {factor:,}-fold (what it bounded is all but unbounded)", new)
    return None


_HIGH = (_size_cut, _weak_on_line, _failure_made_success, _exclusion_dropped, limit_multiplied, _weaker_algorithm, _random_fallback, _fails_only_on_null, _early_exit, _quote_removed)


def turned_line(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn a reviewer must see that is unsafe in its direction, quoted; None when no such line turned."""
    added, removed = code_lines(added), code_lines(removed)
    if not added:
        return None
    return (next((found for read in _HIGH if (found := read(added, removed))), None)
            or _shell_interpolated(added, removed, backticks=path.lower().endswith(_BACKTICK_RUNS))
            or (_kernel_open(added, removed) if path.lower().endswith(_RUBY) else None))


# Ruby's Kernel#open (and IO.read/readlines/foreach) runs a command when the name it is given starts with "|": a file
# opened through File, Pathname or URI and made a bare ``open(name)`` runs whatever the name says (Brakeman's finding).
_RUBY = (".rb", ".rake", "rakefile", ".gemspec", ".ru")
_SAFE_OPEN = re.compile(r"\b(?:File|Pathname|URI|Tempfile|Zlib::GzipReader)\s*(?:\.|::)\s*(?:open|read|readlines|foreach|binread)\b|(?<!Kernel)(?<!IO)\.open\b")
_BARE_OPEN = re.compile(r"(?:(?<![.\w:])|\bKernel\.|\bIO\.)(?:open|read|readlines|foreach)\s*(?:\(\s*|\s+)(?![\s'\"%)]|File\b)")


_ARG = re.compile(r"[\w@$][\w@$.:\[\]]*")


def _kernel_open(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # Paired by the name opened, not by likeness: ``File.read(file)`` → ``open(file, &:read)`` shares no edge.
    safe = [ln for ln in removed if _SAFE_OPEN.search(ln)]
    if not safe:
        return None
    for new in added[:_SCREENED]:
        if (m := _BARE_OPEN.search(new)) and not _SAFE_OPEN.search(new) and (arg := _ARG.match(new, m.end())):
            if any(re.search(r"[(\s]" + re.escape(arg.group(0)) + r"\b", old) for old in safe):
                return said("opens a name through Kernel#open where File opened it (a name starting with | runs a command)", new)
    return None


def turned_line_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``turned_line``)."""
    return turned_line(f.path, f.change.added_lines, f.change.removed_lines)


def fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


# The row's example and near miss: a weak key generated on a new line, and a strong one.
TURNED_LINE_EXAMPLE = (
    fc("lib/vault/keys.rb", [], ["    private_key = OpenSSL::PKey::RSA.new(1024)"]),
    "generates a weak key (1024 bits): private_key = OpenSSL::PKey::RSA.new(1024)",
    fc("lib/vault/keys.rb", [], ["    private_key = OpenSSL::PKey::RSA.new(4096)"]),
)


SCREENS = {"turned_lines.quoter": _QUOTER_SCREEN}  # proved by tests/test_screens.py
