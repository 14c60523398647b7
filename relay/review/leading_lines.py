"""The changed line that leads a file's reasons when nothing else quotes one (issue 36, round 30).

Blind runs found planted files whose reasons said only what the file IS ("CI configuration", "dependency manifest",
"build configuration", "edit (+12/-4)", "example edited (+5/-1)", "security-sensitive path (auth)") or quoted a line that
merely holds a security word (a header's ``#define``, a docstring, an unchanged neighbour's kind of code), while the line a
worker turned sat unquoted. A leader cannot judge a kind. This reader picks, in any language and any kind of file, the
changed line that tells most, by a general score of what the line does, not of which project it is from:

- a line turned in place (paired with the line it replaced): a switch turned into another (``false`` → ``true``, a flag's
  ``no``/``dis``/``un`` prefix), a number turned, put in or taken out (more when a floor is lowered or a ceiling raised),
  a comparison or logical operator turned, a pattern literal's special characters, a secure scheme made plain
  (``https`` → ``http``, ``wss`` → ``ws``), a refusal the old line made and the new does not;
- a URL (more for a plain ``http://``, ``git://``, ``ftp://`` to a public host), a ref to a moving branch (``@master``), a
  mode or permission that lets others write, a credential-like literal, a secret's variable echoed or printed, a call's
  result cast to void or bound to ``_``;
- a comparison or condition, a security word, a switch set on a security name, a refusal deleted (``throw``, ``raise``).

Quiet: comments, imports, lines moved or reformatted (the same once squeezed, or wrapped), a version or a pinned commit
moved, a rename or a typing pass (only names turned), a message's words, sentences inside code, prose in docs (only a
URL, a credential, a mode or a moving ref is read there); tests, lockfiles and generated output (the row's scope).
The rule row (``relay.review.rules``: ``leading_line``) is a note: it decides no risk and moves no file in the order;
``relay.review.risk.assess`` asks it only where every reason is a kind, path, size or word reason (``WORD_RULES``), and
puts it first; ``relay.review.telling`` shows its hunk first.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from relay.core.redact import mask, redact
from relay.review.command_lines import grown_pairs
from relay.review.line_shapes import IMPORT_RE, clipped, squeezed
from relay.review.path_kinds import dropped_ignore_entry
from relay.review.small_edits import paired
from relay.review.turned_lines import changed

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["LEADING_EXAMPLE", "LEADING_RULE", "LOWER_NAME", "UPPER_NAME", "WORD_RULES", "apart_tells_as_much", "leading_line", "leading_line_check", "parts_read", "quoted_elsewhere", "scored_line", "turned_pairs"]

LEADING_RULE = "leading_line"
# The rows whose reason says what a file is, where it lives, how big its change is, or which words its lines hold (a
# line holding a security word is not the line that turned): when they are all a file's reasons say, the leading line
# goes first (relay.review.risk.assess).
WORD_RULES = frozenset({
    "security_tokens", "auth_path", "huge_change", "large_hunk", "ci_config", "ci_build", "ci_credentials", "manifest", "build_config",
    "secret_path", "secret_template", "lockfile", "outside_paths", "not_mentioned", "edit_apart", "note_apart", "migration",
    "beside_security_test", "beside_security_note", "for_security_task", "new_dependency", "length_guard", "input_check",
    "hooks", "unread_line",
})

_MOST = 400  # changed lines read a side: a slipped line is one among a few hundred, a generated table is not read
_LONG = 200  # a longer line is data or a bundle's
_LEAST = 4  # a line scoring less tells no more than the file's kind
_QUOTE = 90
_GROWN = 4  # a command's flags gained or lost in place tell as much as a value turned: quoted where nothing says more
_ALIKE = 0.5  # a line turned in place keeps half its text: a pattern rewritten, a value and its condition

_COMMENT = ("//", "#", "/*", "*", "--", ";", "<!--", "%", "rem ", "REM ")
# A dictionary's key is no secret: only a key of the kinds cryptography and access use.
_SECURITY = re.compile(r"(?i)auth|token|secret|passw|credential|cert|ssl|tls|verif|valid|sign|hmac|\bmac\b|nonce|"
                       r"(?:api|private|public|secret|signing|session|master|priv|pub|access|rsa|aes|enc)_?key|key_?(?:size|len|length|bits|usage)|"
                       r"cipher|crypt|hash|checksum|digest|csrf|cors|cookie|session|permission|privilege|chmod|umask|sudo|\broot\b|"
                       r"admin|trust|insecure|unsafe|escape|saniti|shell|exec|eval|random|redirect|origin|\bhost|listen|bind|"
                       r"debug|verbos|strict|expir|sandbox|modeline|exrc")
_COMPARE = re.compile(r"==|!=|<=|>=|=~|!~|&&|\|\||\s<\s|\s>\s|\bnot\b|\band\b|\bor\b")
_CONDITION = re.compile(r"\b(?:if|unless|when|elseif|elsif|elif|case|match|guard|where)\b")
_REFUSAL = re.compile(r"\b(?:raise|throw|panic|abort|reject|deny)\b")
_EXIT = re.compile(r"\b(?:return|raise|throw|panic|abort|exit|die|fail|error|reject|deny)\b")
_VALUES = frozenset({"true", "false", "yes", "no", "on", "off", "none", "null", "nil", "nothing", "enabled", "disabled", "enable",
                     "disable", "always", "never"})
_SWITCHES = frozenset({"true", "false", "yes", "no", "on", "off", "enabled", "disabled", "always", "never"})
_URL = re.compile(r"\b[a-z][a-z0-9+.-]{1,15}://")
# Plain to a host of the machine or a private network is the usual local setup, not a fetch over the internet.
_PLAIN_URL = re.compile(r"(?i)\b(?:http|git|ftp|ws)://(?!(?:localhost|127\.|\[::1\]|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.))")
# A mode whose last digit lets others write (0666, 0o777, ``chmod 777``), or the words for it.
_OPEN_MODE = re.compile(r"\b0o?[0-7]?[0-7][0-7][2367]\b|(?i:chmod|mode|perm|umask)\D{0,20}\b[0-7]?[0-7][0-7][2367]\b|"
                        r"(?i:world[_-]?writ\w*|\bwrite-all\b|\b[ao]\+w\b|\b[ao]=rwx)")
_MOVING_REF = re.compile(r"@(?:master|main|dev|develop|latest|head|HEAD|trunk|nightly)\b")
# A variable named for a secret, written to the output or a log (a CI step's ``echo "…$TOKEN"``, a script's print).
_PRINTED_SECRET = re.compile(r"\b(?:echo|printf?|puts|console\.log|Write-(?:Host|Output))\b[^#\n]*\$\{*\s*(?:secrets\.|env[.:])?"
                             r"\w*(?i:key|token|secret|passw\w*|credential)\w*\b")
_DISCARD = re.compile(r"\(void\)\s*\w|\blet\s+_\s*=|^\s*_\s*:?=\s*\w|\bignore\s*\(")
_COPYRIGHT = re.compile(r"(?i)\bcopyright\b|\(c\)\s*\d{4}|©")  # a copyright's years turned: no value
_SECRETISH = re.compile(r"[\"'](?=[^\"'\s]{10,}[\"'])(?=[^\"']*[A-Z])(?=[^\"']*[a-z])(?=[^\"']*\d)(?=[^\"']*[^\w\"'])[^\"'\s]+[\"']")
_DOTTED, _WORD, _NUMBER = re.compile(r"\d+\.\d+"), re.compile(r"[A-Za-z_]\w*\Z"), re.compile(r"\d+\Z")
# A number multiplied, divided, added or taken at a line's end: a scale or an offset put in, not a wrap (session 33: blind
# 67's vodozemac, ``remove_message_key(chain_index)`` → ``…(chain_index + 1)``, read as a line wrapped, turned nothing).
_SCALED = re.compile(r"(?://|[*/+%-])\d+")  # Python's floor division too (round 51: blind 71's fail2ban `value // 60`)
_SEPARATOR = re.compile(r"(?<=\d)_(?=\d)")
_NARROW = frozenset("int short byte char int8_t int16_t int32_t uint8_t uint16_t uint32_t i8 i16 i32 u8 u16 u32 int8 int16 int32 "
                    "uint8 uint16 uint32 Int8 Int16 Int32 UInt8 UInt16 UInt32 sbyte ushort".split())
_WIDE = frozenset("long int64 uint64 i64 u64 usize isize size_t int64_t uint64_t Int64 UInt64 Long ulong".split())
_NEGATED_NUMBER = re.compile(r"(?<![\w)\]])-\s*\d")  # a sign before a number, not a subtraction
# A number as C, Go, Rust, Java and JS write masks and limits: read as one (``0x10000000`` → ``0x1000000000000000``), up
# to 64 bits; a decimal of ten digits or more is an id or a timestamp, not a bound.
_HEX_NUMBER = re.compile(r"0[xX][0-9a-fA-F]{1,16}\Z")

_LOWER = re.compile(r"(?i)min|least|lower|floor|at_?least")
_UPPER = re.compile(r"(?i)max|most|upper|limit|ceil")
LOWER_NAME, UPPER_NAME = _LOWER, _UPPER  # a bound's name: the low-change floor reads a data file's bound by them (round 50)
_RELATION = re.compile(r"(?<![<>=-])[<>]=?(?![<>=])")  # an ordering a bound is compared by (not ``=>``, ``->``, ``<<``)
_STRUCTURE = frozenset("{}()[],;.:\"'`")
_PATTERN_CHARS = frozenset("|\\^$*+?~[]<>")
_LITERAL = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|/(?:[^/\\\s]|\\.)+/")
_SAME_OPERATOR = {"or": "||", "and": "&&", "not": "!"}
# A prefix ``!`` negates; one after a name or a bracket is C#'s, Kotlin's or TypeScript's non-null assertion or a Rust
# macro's call (``context.Parent!``, ``format_args!(…)``: round 37's ordinary history), no operator turned.
_OPERATORS = re.compile(r"===?|!==?|<=|>=|(?<![<=-])<(?![<=-])|(?<![=>-])>(?![>=])|&&|\|\||(?<![\w)\]])!(?!=)|\bnot\b|\band\b|\bor\b")
_HEX, _VTAG = re.compile(r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\Z"), re.compile(r"v\d+\Z")
_SENTENCE = re.compile(r"[\w\s,.;:!?'`’\"-]+")
_PLAIN_WORD = re.compile(r"[a-z][a-z'’-]*[,.;:!?]?")
_NEGATED = ("no", "not", "dis", "un", "in", "non")
_SECURE = {"https": "http", "wss": "ws", "ftps": "ftp", "sftp": "ftp", "smtps": "smtp", "imaps": "imap", "ldaps": "ldap"}


def _signed(tokens: Sequence[str]) -> int | None:
    """The number a run of tokens spells with its sign (``-`` ``1``), else None."""
    if len(tokens) == 2 and tokens[0] == "-":
        found = _number(tokens[1])
        return -found if found is not None else None
    return _number(tokens[0]) if len(tokens) == 1 else None


def _number(token: str) -> int | None:
    if _HEX_NUMBER.match(token):
        return int(token, 16)
    return int(token) if _NUMBER.match(token) and len(token) < 10 else None


def _code(line: str, path: str) -> bool:
    s = line.strip()
    if not s or len(s) > _LONG or not re.search(r"[A-Za-z]", s) or IMPORT_RE.match(line):
        return False
    if s.startswith(_COMMENT) and not s.startswith(("#!", "#define", "#if", "#include", "#[", "--no", "--with", "- ")):
        return False
    # Vim script's comment is a double quote opening the line (JSON's keys open with one too: read there).
    return not (path.endswith((".vim", "vimrc")) and s.startswith('"'))


def _strong(line: str) -> int:
    """What any kind of file (prose included) says in one line: a URL, a credential, a mode open to all, a moving ref."""
    score = 0
    if _URL.search(line):
        score += 3 + 2 * bool(_PLAIN_URL.search(line))
    if mask(line) != line or _SECRETISH.search(line):
        score += 4
    if _OPEN_MODE.search(line):
        score += 3
    if _MOVING_REF.search(line):
        score += 4
    if _PRINTED_SECRET.search(line):
        score += 4
    return score


def _sentence(line: str) -> bool:
    """A sentence inside code (a docstring's, a comment's continued line): words and a writer's punctuation only."""
    words = line.split()
    return len(words) >= 4 and bool(_SENTENCE.fullmatch(line.strip())) and sum(bool(_PLAIN_WORD.fullmatch(w)) for w in words) * 5 >= len(words) * 3


def _alone(line: str, removed: bool) -> int:
    score = _strong(line)
    if _sentence(line):
        return score
    security = bool(_SECURITY.search(line))
    score += 2 * security
    code = _LITERAL.sub('""', line)
    if _COMPARE.search(code) or _CONDITION.search(code):
        score += 2
    # A switch set on a security-relevant name (``verify_server off``) says what it turns; a switch alone is common, and
    # None, null or nil is a default more often than a turn.
    if any(w.lower() in _SWITCHES or w == "none" for w in re.findall(r"\w+", code)):  # a config's `none`, not Python's None
        score += 1 + security
    if _DISCARD.search(line):
        score += 2
    # A refusal deleted (a throw, a raise, a reject no line the change adds makes again) tells by itself; a condition or
    # another exit deleted, less.
    if removed and _REFUSAL.search(code):
        score += 4
    elif removed and (_CONDITION.search(code) or _EXIT.search(code)):
        score += 2
    return score


def _exit_gone(old: str, new: str) -> bool:
    """A refusal or an exit the old line made (``throw``, ``raise``, ``return err``) that the new line no longer makes."""
    return bool(_EXIT.search(_LITERAL.sub('""', old))) and not _EXIT.search(_LITERAL.sub('""', new))


def _negated(a: str, b: str) -> bool:
    a, b = a.lower(), b.lower()
    return any(a == p + b or b == p + a or a == p + "_" + b or b == p + "_" + a for p in _NEGATED)


def _operators(line: str) -> list[str]:
    # A message's words are not the code's operators: "CR or LF" in a string is no ``or``.
    return [_SAME_OPERATOR.get(op, op) for op in _OPERATORS.findall(_LITERAL.sub('""', line))]


def _pattern_chars(line: str) -> list[str]:
    return sorted(ch for literal in _LITERAL.findall(line) for ch in literal if ch in _PATTERN_CHARS)


def _versionish(token: str) -> bool:
    return bool(_NUMBER.match(token) or _HEX.match(token) or _VTAG.match(token))


def _decides(line: str) -> bool:
    """Whether the line is a condition (what decides a branch), its literals left out: among equal turns it is quoted first."""
    return bool(_CONDITION.search(_LITERAL.sub('""', line)))


def _wrapped(short: str, long: str, condition: bool = False) -> bool:
    """Whether ``long`` is ``short`` with more put at one end between tokens (a line joined with its next, or wrapped):
    a number or a name lengthened inside (``0x10000000`` → ``0x1000000000000000``) is no wrap."""
    if long.startswith(short):  # a number multiplied in at the end is a scale (``x | 0`` → ``(x | 0) * 1024``)
        tail = long[len(short):]
        # A clause put at a condition's end (``if !ok {`` → ``if !ok && val != nil {``, round 50; ``condition`` read unsqueezed:
        # ``if (a)`` is ``ifa``) turns the check; a line joined with its next keeps the operator on the first line.
        return not (short and tail[:1].isalnum() and short[-1].isalnum()) and not _SCALED.fullmatch(tail) and not (
            tail.startswith(("&&", "||")) and condition)
    if long.endswith(short):
        return not (short and long[:-len(short)][-1:].isalnum() and short[0].isalnum())
    return False


def _turn(old: str, new: str) -> int:
    """What turned between a pair: 0 for a rename, a message's words, a line wrapped, a value turned into an unlike one;
    -9 for a version or a pinned commit moved; more for a value turned into another (``false`` → ``true``, a number, a
    flag's ``no``), a comparison or a pattern's character; more again for a bound loosened."""
    # A number read whole with the digit separators Java, Rust, Python, JS and C# allow: ``150`` → ``150_000`` is a bound
    # raised a thousandfold, not a line wrapped (round 38, blind 61's jackson-core); ``150000`` → ``150_000`` is no turn.
    old, new = _SEPARATOR.sub("", old), _SEPARATOR.sub("", new)
    so, sn = squeezed(old), squeezed(new)
    condition = _decides(old) and _decides(new) and not new.lstrip().startswith("#")  # a preprocessor's ``#if`` picks a build
    if _wrapped(so, sn, condition) or _wrapped(sn, so, condition):
        return 0  # a line wrapped or joined, or a call's arguments moved to the next line
    ops = changed(old, new)
    if not ops:
        return 0
    tokens = [t for _, a, b in ops for t in (*a, *b)]
    if all(_versionish(t) or t in _STRUCTURE for t in tokens) and (
            any(_HEX.match(t) or _VTAG.match(t) for t in tokens) or _DOTTED.search(new) or "version" in new.lower() or "@" in new):
        return -9  # a version or a pinned commit moved: the line is quiet whatever else it holds
    # A secure scheme's or module's name turned into the plain one (``https`` → ``http``, ``wss`` → ``ws``, as a scheme or a module's name).
    if any(a.lower() in _SECURE and b.lower() == _SECURE[a.lower()] for _, aa, bb in ops for a in aa for b in bb):
        return 5
    # A value turned into another of its kind: a boolean or a state word, a flag's negation, a number.
    flipped = any(_negated(a, b) or (a.lower() in _VALUES and b.lower() in _VALUES) for _, aa, bb in ops for a in aa for b in bb)
    # A switch word put in counts where the code outside the string literals changed too: one inside a message's words
    # ("…what this tab is on.") turns nothing (round 44: an ordinary hint text raised by the floor).
    flipped |= any(tag == "insert" and any(t.lower() in _SWITCHES for t in b) for tag, _, b in ops) and \
        _LITERAL.sub('""', old) != _LITERAL.sub('""', new)
    # The caller's own argument made a constant (``verify=verify`` → ``verify=False``, round 51): accepted and ignored.
    flipped |= any(len(aa) == len(bb) == 1 and bb[0].lower() in _VALUES and re.search(rf"\b{re.escape(aa[0])}\s*[=:]\s*{re.escape(aa[0])}\b", old)
                   for _, aa, bb in ops)
    nums = [(x, y) for _, aa, bb in ops for a, b in zip(aa, bb) if (x := _number(a)) is not None and (y := _number(b)) is not None]
    # A number's sign is a token of its own: ``ok < 0`` → ``ok < -1`` replaces ``0`` with ``-`` ``1`` (round 39, blind 64's
    # libfido2: a signature check's result compared past its error code), and a sign put in or taken out turns a number.
    nums += [(x, y) for tag, aa, bb in ops if tag == "replace" and (x := _signed(aa)) is not None and (y := _signed(bb)) is not None
             and (aa[:1] == ["-"]) != (bb[:1] == ["-"])]
    nums += [(1, -1) for tag, aa, bb in ops if tag in ("insert", "delete") and (*aa, *bb) == ("-",) and _NEGATED_NUMBER.search(new if aa == [] else old)]
    # A number put into an expression or taken out of it (a scale, an offset, a count).
    scaled = any(tag in ("insert", "delete") and any(_NUMBER.match(t) or _HEX_NUMBER.match(t) for t in (*a, *b)) for tag, a, b in ops)
    # A comparison or a logical operator turned (``or`` and ``||`` are one; a bitwise ``|`` and ``&`` swapped, round 52: blind
    # 51's gofrs ``if v1|v2 == 255``), or the special characters of a pattern's literal.
    compares = _operators(old) != _operators(new) or any(sorted((*a, *b)) == ["&", "|"] for _, a, b in ops)
    pattern = _pattern_chars(old) != _pattern_chars(new)
    # A narrowing cast put in (``return (int) millis``, Rust's ``as u16``, Go's ``int32(n)``): the value wraps past its
    # type's range (round 49, blind 69's commons-lang: a long duration truncated to int, ~24.8 days).
    narrowed = any(tag == "insert" and any(t in _NARROW for t in b) and ("(" in b or "as" in b) for tag, _, b in ops) or any(
        tag == "replace" and len(a) == len(b) == 1 and a[0] in _WIDE and b[0] in _NARROW for tag, a, b in ops)
    if not (flipped or nums or scaled or compares or pattern or narrowed):
        return 0
    score = 3
    # A negation put in or taken out (``return !v.Bool()`` → ``return v.Bool()``) inverts all the line decides: an
    # operator turned that tells more than another (round 37: blind 59's only such slip stayed low, one point short).
    if _operators(old).count("!") != _operators(new).count("!"):
        score += 1
    # A number turned beside a name that bounds: a floor lowered or a ceiling raised loosens the bound.
    if nums:
        a, b = nums[0]
        if b < a and _LOWER.search(new):
            score += 3
        elif b > a and _UPPER.search(new):
            score += 1
        elif _decides(new) and _RELATION.search(_LITERAL.sub('""', new)):
            # A bound a check compares with, moved (``if (port > 2 ** 16 - 1)`` → ``2 ** 32 - 1``): what the check lets
            # through changed, where a line of the same change merely holds a condition or a word (round 37, blind 59).
            score += 2
    return score


_EDGE = 4  # a line turned in place keeps its opening or its ending: its candidates share one
_BUCKET = 24


_KEY = re.compile(r"\s*(?:-\s+)?([\w.-]{2,40})\s*[:=(]")


def _keys(line: str, sq: str) -> tuple[str, ...]:
    # A short line turned in place may keep neither end (``if: success()`` → ``if: always()``): a setting's or a call's
    # own name, before its value, is a third way to find it. In a fixed order (opening, ending, name), not a set's: the
    # candidates are tried in it and the later of two equally alike wins, so a set's order (by string hash, by
    # PYTHONHASHSEED) made the same change quote another line from one process to the next.
    m = _KEY.match(line)
    return ("<" + sq[:_EDGE], ">" + sq[-_EDGE:]) + (("=" + m.group(1),) if m else ())


def _pairs(new: Sequence[str], old: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Each new line with the old line it most likely replaced: among the old lines sharing its opening or its ending,
    the most alike by characters (a quick bound first, the full ratio for the best only: linear in most files)."""
    index: dict[str, list[tuple[str, str]]] = {}
    for ln in old:
        sq = squeezed(ln)
        for key in _keys(ln, sq):
            bucket = index.setdefault(key, [])
            if len(bucket) < _BUCKET:
                bucket.append((ln, sq))
    for ln in new:
        sq = squeezed(ln)
        best, most = None, _ALIKE
        for cand, csq in dict.fromkeys(c for key in _keys(ln, sq) for c in index.get(key, ())):
            m = SequenceMatcher(None, csq, sq, autojunk=False)
            if m.real_quick_ratio() >= most and (q := m.quick_ratio()) >= most:
                best, most = (cand, csq), q
        if best is not None and SequenceMatcher(None, best[1], sq, autojunk=False).ratio() >= _ALIKE:
            yield best[0], ln


def leading_line(path: str, added: Sequence[str], removed: Sequence[str], *, prose: bool = False) -> str | None:
    """The quote of the changed line that tells most (``old → new`` for a line turned in place, else ``adds: …`` /
    ``removes: …``), or None when no changed line tells more than the file's kind. ``prose``: a page of text, where only a
    URL, a credential, a mode or a moving ref is read."""
    found = scored_line(path, added, removed, prose=prose)
    return found[1] if found is not None else None


def _fresh(path: str, added: Sequence[str], removed: Sequence[str], key: Callable[[str], str] = squeezed) -> tuple[list[str], list[str]]:
    """The code lines each side changed; a line on both sides once squeezed (``key``) was moved or reformatted, not changed."""
    had, has = {key(ln) for ln in removed[:_MOST]}, {key(ln) for ln in added[:_MOST]}
    return ([ln for ln in added[:_MOST] if _code(ln, path) and key(ln) not in had],
            [ln for ln in removed[:_MOST] if _code(ln, path) and key(ln) not in has])


def turned_pairs(path: str, added: Sequence[str], removed: Sequence[str], key: Callable[[str], str] = squeezed) -> Iterator[tuple[str, str, int]]:
    """Each code line turned in place, as (old, new, what turned: ``_turn``), however little it scores alone, for the low
    change's floor (relay.review.low_change_floor). ``key``: what makes two lines the same (a sample's ``','`` → ``''``)."""
    new, old = _fresh(path, added, removed, key)
    for a, b in _pairs(new, old) if new and old else ():
        if key(a) != key(b) and not _sentence(b):  # a sentence's words turned are no value
            yield a, b, _turn(a, b)


def scored_line(path: str, added: Sequence[str], removed: Sequence[str], *, prose: bool = False) -> tuple[int, str] | None:
    """``leading_line`` with its score."""
    if (entry := dropped_ignore_entry(path, added, removed)) is not None:  # no other line of an ignore file says more
        return _LEAST, _remembered(f"no longer ignores: {clipped(entry, _QUOTE)}", squeezed(entry), _LEAST)
    new, old = _fresh(path, added, removed)
    if not new and not old:
        return None
    best: tuple[tuple[int, bool], str, str] | None = None
    partnered: set[str] = set()
    # A CI, build or script command that only gained or lost flags at one end (``npm test`` → ``npm test -- --bail``): what
    # runs changed, where the pairing below reads a line wrapped and its ratio often finds no partner (round 35).
    grown = grown_pairs(path, new, old) if not prose else []
    for a, b, _ in grown:
        partnered.update((a, b))
        key = (max(_alone(b, False), _alone(a, False)) + _GROWN, _decides(a))
        if best is None or key > best[0]:
            best = (key, "turns: " + paired(a, b), squeezed(a) + "\n" + squeezed(b))
    if new and old:
        for a, b in _pairs(new, old):
            if grown and any(b == n or a == o for o, n, _ in grown):
                continue
            partnered.update((a, b))
            if squeezed(a) == squeezed(b) or _COPYRIGHT.search(b):
                continue  # a copyright's years turned tell nothing (round 65: simpleeval's "(C) 2013-2024" led a high file)
            turn = _turn(a, b)
            if turn < 0:
                continue
            score = _strong(b) if prose or _sentence(b) else max(_alone(b, False), _alone(a, False)) + turn + 2 * _exit_gone(a, b)
            # Among equal scores a condition turned (what decides a branch) goes before a value assigned; then the first found.
            key = (score, _decides(a))
            if best is None or key > best[0]:
                best = (key, "turns: " + paired(a, b), squeezed(a) + "\n" + squeezed(b))
    for side, lines, removed_side in (("adds", new, False), ("removes", old, True)):
        for ln in lines:
            if ln in partnered:
                continue
            score = _strong(ln) if prose else _alone(ln, removed_side)
            key = (score, _decides(ln))
            if best is None or key > best[0]:
                best = (key, f"{side}: {clipped(ln.strip(), _QUOTE)}", squeezed(ln))
    if best is None or best[0][0] < _LEAST:
        return None
    # A result bound to the blank or cast to void says so: the quote alone reads as an ordinary call.
    said = best[1].split(": ", 1)[1]
    return best[0][0], _remembered(redact(f"discards a call's result: {said}" if _DISCARD.search(said.split(" → ")[-1]) else best[1]), best[2], best[0][0])


def leading_line_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``leading_line``); not asked while a file's parts are read alone (the part that
    holds the file's quote is found by the quote: relay.review.telling)."""
    if _PARTS.get():
        return None
    c = f.change
    quote, whole, score = _cached(c.path, tuple(c.added_lines), tuple(c.removed_lines), f.kind == "docs")
    return _remembered(quote, whole, score) if quote is not None else None


@functools.lru_cache(maxsize=128)  # a file is assessed again (the task's packet, the view); a server keeps few
def _cached(path: str, added: tuple[str, ...], removed: tuple[str, ...], prose: bool) -> tuple[str | None, str, int]:
    found = scored_line(path, added, removed, prose=prose)
    return (found[1], _LINES.get(found[1], ""), found[0]) if found is not None else (None, "", 0)


# The whole lines behind a quote (squeezed), to tell whether another reason quotes the same line in a window of its own.
_LINES: dict[str, str] = {}
_LINES_MOST = 4096


_SCORES: dict[str, int] = {}  # and its score, to weigh it against an edit apart (``apart_tells_as_much``)


def _remembered(quote: str, whole: str, score: int) -> str:
    """``quote``, its whole line kept (squeezed) for ``quoted_elsewhere`` and the view (relay.review.telling), and its
    score; bounded."""
    if len(_LINES) > _LINES_MOST:
        _LINES.clear()
        _SCORES.clear()
    _LINES[quote] = whole
    _SCORES[quote] = score
    return quote


def apart_tells_as_much(apart: str, quote: str) -> bool:
    """Whether an edit apart from the change (its reason, ``old → new`` or a line removed or added) scores at least as the
    leading line ``quote`` by the same measure: then the slipped line's usual place wins the tie (round 37: go-chi/cors's
    ``&&`` → ``||`` apart, as telling as the commit's own turn, was cut; RSA's minimum lowered, more telling than a maximum
    raised apart, must stay first)."""
    said = apart.split(": ", 1)[-1].replace("…", "")
    if apart.startswith("edit apart") and " → " in said:
        old, new = said.split(" → ", 1)
        score = max(_alone(new, False), _alone(old, False)) + max(_turn(old, new), 0) + 2 * _exit_gone(old, new)
    else:
        score = _alone(said, apart.startswith("removed"))
    return score >= _SCORES.get(quote, _LEAST)


_PIECE = 12  # a shorter piece of another reason's text may stand in any line


def quoted_elsewhere(quote: str, others: Sequence[str]) -> bool:
    """Whether another reason already quotes the line this quote is of (a check line in parentheses, a word reason's line,
    an edit apart): the leading line would say it twice."""
    whole = _LINES.get(quote)
    if whole is None:
        return False
    for other in others:
        for piece in re.split(r"…| → |\(|\)|; ", other.split(": ", 1)[-1]):
            sq = squeezed(piece)
            if len(sq) >= _PIECE and sq in whole:
                return True
    return False


_PARTS: contextvars.ContextVar[bool] = contextvars.ContextVar("leading_parts", default=False)


@contextlib.contextmanager
def parts_read() -> Iterator[None]:
    """While a file's parts are read alone: the leading line is not looked for."""
    token = _PARTS.set(True)
    try:
        yield
    finally:
        _PARTS.reset(token)


# The row's example: a build file's option that checks signatures turned off, and the same file's version moved.
def _fc(path: str, removed: list[str], added: list[str]):  # noqa: ANN202 - a FileChange
    from relay.review.rule_row import fc
    return fc(path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


LEADING_EXAMPLE = (
    _fc("tools/CMakeLists.txt", ['option(CHECK_SIGNATURES "check package signatures" ON)'], ['option(CHECK_SIGNATURES "check package signatures" OFF)']),
    'turns: …package signatures" ON) → …package signatures" OFF)',
    _fc("tools/CMakeLists.txt", ['  set(TOOL_VERSION "2.4.1")'], ['  set(TOOL_VERSION "2.5.0")']),
)
