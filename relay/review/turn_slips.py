"""One turn that loosens what a line guards, in code that is otherwise the commit's own (issue 36, round 83: blind
117/118's misses).

High:

- ``negation_added`` (pairs): a condition's check switch negated (``"exp" in payload and do_time_check`` → ``and not
  do_time_check``: python-jwt, the expiry checked only when checking is off);
- ``window_made_either`` (pairs): a validity window's two bounds joined by ``||`` where they were by ``&&``
  (samlify's ``notBefore … <= now && now < notOnOrAfter``: either bound alone now passes);
- ``access_made_public`` (pairs): a publish's or an upload's access given as ``"public"`` where a value decided it
  (changesets' ``["--access", release.access]`` → ``"public"``: a restricted package published to everyone);
- ``safe_parser_swapped`` (pairs): a safe parser or loader swapped for the library's default (parsel's ``SafeXMLParser`` →
  ``etree.XMLParser``: external entities resolved);
- ``loopback_left`` (a file's sides): a server bound to the loopback rewritten to bind every interface (ssh-mitm's
  tutorial server ``("127.0.0.1", port)`` → ``web.TCPSite(runner, "0.0.0.0", port)``);
- ``bound_past_memory`` (new lines): a length compared with a product of literals of 4 GiB or more (cbor2's ``length <=
  65536 * 65536``): no bound on what a decoder allocates;
- round 84 (blind 119/120): ``secret_unignored`` (an ignore file's entry for secrets dropped: remeda's ``*.local.*`` and
  ``*.local``, which keep ``.env.local`` out of the repository) and ``own_test_by_in`` (new lines: a function named for an
  own-property test that answers ``key in obj``: remeda's new ``hasProp``, inherited keys such as ``__proto__`` pass).

Worth a look:

- ``separator_dropped`` (pairs): a set of path separators less ``os.sep`` or a backslash (pyramid's ``_seps = {'/', os.sep}``
  → ``{'/'}``: a backslash passes on Windows);
- ``test_made_prefix`` (pairs): ``includes(x)`` / ``contains(x)`` made ``startsWith(x)`` (vfile's ``part.includes(sep)``
  → ``startsWith``: a separator later in the part passes);
- ``failure_test_narrowed`` (pairs): ``!== true`` made ``=== false`` (enquirer: a validator's error message now passes);
- ``written_under_read_lock`` (new lines): a value changed a few lines after its read lock is taken (golang-set's new
  ``AppendFrom``: ``t.RLock()`` … ``t.uss.AppendFrom(o.uss)``; a write lock made a read lock in a pair is another
  reader's);
- ``clone_returns_alias`` (new lines): a function named for a copy that returns its argument (golang-set's ``return m``);
- ``refusal_made_break`` (pairs): ``return false`` in a loop made ``break`` (golang-set's ``IsSubset``: the loop's end
  answers true); round 84: ``length_zeroed`` (pairs: a call's length argument made ``0``, its buffer kept: conscrypt's
  ML-DSA verify over ``buffer.array(), 0, 0``, an empty message).

Round 85 (blind 121/122): (high) ``random_made_literal`` — a salt, IV, nonce or key drawn from a random source made a
literal (crypto-es's README ``WordArray.random(128/8)`` → ``Utf8.parse("crypto-es-salt")``), ``expiry_flipped`` — an
expiry's comparison turned the other way (diskcache's ``expire_time > ?`` → ``< ?``: expired rows served, fresh ones
missed); worth a look, ``membership_made_inequality`` — ``state in (OPEN, LOCAL_CLOSING)`` made ``state is not CLOSED``
(wsproto: every other state passes), ``end_check_widened`` — ``i == len`` made ``i > len`` (tmux: ``buf[len]`` is read).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import edited_sides, span_pairs, unspaced as _squeezed
from relay.review.overridden_turns import cut_quote, paired_quote

__all__ = ["random_made_literal", "turn_slip"]

_LONG = 300  # a line past this is data, not a statement
_NEW = 4000  # new lines read


def _by_key(lines: Sequence[str]) -> dict[str, str]:
    return {_squeezed(line): line for line in lines}


# ----- high
_SWITCH_RE = re.compile(r"(?P<neg>\bnot\s+|!\s*)(?P<name>[\w.]*(?i:check|verif|validat|enforce|strict|secure|auth|expir)\w*)\b(?!\s*\()")
_CONDITION_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|elif|elsif|while|unless|return|assert)\b|\?\s*$|&&|\|\||\band\b|\bor\b")


def negation_added(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = _by_key(line for line in old if _CONDITION_RE.search(line))
    for line in new if olds else ():
        for m in _SWITCH_RE.finditer(line) if _CONDITION_RE.search(line) else ():
            if (was := olds.get(_squeezed(line[:m.start()] + line[m.start("name"):]))) is not None:
                return f"inverts a check's switch ({m.group('name')} → {m.group('neg').strip()} {m.group('name')}: it runs only when turned off): {paired_quote(was, line)}"
    return None


_WINDOW_RE = re.compile(r"(?i)not_?before|not_?on_?or_?after|not_?after|\bnbf\b|\bexp\b|expir|valid_?(?:from|until|to)|\bnow\b|\biat\b|issued")


def _as_or(line: str) -> str:
    """The line with every conjunction written as a disjunction (word by word: a name holding "and" stays)."""
    return _squeezed(re.sub(r"\band\b", "or", line.replace("&&", "||")))


def _conjunctions(line: str) -> int:
    return line.count("&&") + len(re.findall(r"\band\b", line))


def window_made_either(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {_as_or(line): line for line in old if _WINDOW_RE.search(line) and _conjunctions(line)}
    for line in new if olds else ():
        if (was := olds.get(_as_or(line))) is not None and _conjunctions(was) > _conjunctions(line):
            return f"widens a validity window's check (&& → ||: either bound alone now passes): {paired_quote(was, line)}"
    return None


_ACCESS_RE = re.compile(r"""(?P<head>['"]--access['"]\s*,\s*|\baccess\s*[:=]\s*|\bacl\s*[:=]\s*|\bvisibility\s*[:=]\s*|--access[ =])(?P<value>[\w.$]+|['"][\w-]+['"])""")


def access_made_public(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _ACCESS_RE, group="value"):
        if "public" not in was.group("value") and m.group("value").strip("'\"") in ("public", "public-read", "public-read-write"):
            return f"makes access public whatever was set ({was.group('value')} → {m.group('value')}): {paired_quote(old, line)}"
    return None


_SAFE_RE = re.compile(r"(?P<safe>\b(?:[\w.]*\.)?(?:Safe|Secure|Defused|Restricted)(?P<kind>\w*(?:Parser|Loader|Unpickler|Dumper)\w*))")


def safe_parser_swapped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {}
    for line in old:
        for m in _SAFE_RE.finditer(line):
            olds[(_squeezed(line[:m.start()]), _squeezed(line[m.end():]))] = (m, line)
    for line in new if olds else ():
        for (head, tail), (m, was) in olds.items():
            flat = _squeezed(line)
            if flat.startswith(head) and flat.endswith(tail) and len(flat) > len(head) + len(tail):
                middle = flat[len(head):len(flat) - len(tail)]
                if middle.rsplit(".", 1)[-1] == m.group("kind") and not _SAFE_RE.search(middle):
                    return f"swaps a safe {m.group('kind')} for the library's default ({m.group('safe')} → {middle}): {paired_quote(was, line)}"
    return None


_LOOPBACK_RE = re.compile(r"""['"](?:127\.0\.0\.1|localhost|::1)['"]""")
_EVERY_RE = re.compile(r"""['"](?:0\.0\.0\.0|::)['"]""")
_SERVES_RE = re.compile(r"(?i)port|listen|bind|serve|site|server|host")


def loopback_left(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not any(_LOOPBACK_RE.search(line) and _SERVES_RE.search(line) for line in removed[:_NEW]):
        return None
    if any(_LOOPBACK_RE.search(line) for line in added[:_NEW]):
        return None
    for line in added[:_NEW]:
        if _EVERY_RE.search(line) and _SERVES_RE.search(line) and len(line) <= _LONG:
            return f"listens on every interface (the loopback bind it replaced is gone): {cut_quote(line.strip())}"
    return None


_PRODUCT_RE = re.compile(r"(?i)\b(?P<name>\w*(?:len|length|size|count|bytes|n)\w*)\s*(?:<=?|>=?)\s*(?P<a>\d{3,})\s*\*\s*(?P<b>\d{3,})(?:\s*\*\s*(?P<c>\d+))?\b")


def bound_past_memory(added: Sequence[str]) -> str | None:
    for line in added[:_NEW]:
        if "*" in line and len(line) <= _LONG and (m := _PRODUCT_RE.search(line)):
            value = int(m.group("a")) * int(m.group("b")) * int(m.group("c") or 1)
            if value >= 1 << 32:
                return f"bounds {m.group('name')} at {value:,} ({' '.join(m.group(0).split()[1:])}: no bound on what it allocates): {cut_quote(line.strip())}"
    return None


# ----- worth a look
_SEP_ITEM_RE = re.compile(r"""\s*,\s*(?:os\.sep|os\.altsep|path\.sep|['"]\\\\['"])|(?:os\.sep|os\.altsep|path\.sep|['"]\\\\['"])\s*,\s*""")


def separator_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {}
    for line in old:
        for m in _SEP_ITEM_RE.finditer(line):
            olds[_squeezed(line[:m.start()] + line[m.end():])] = (m.group(0).strip(" ,"), line)
    for line in new if olds else ():
        if (was := olds.get(_squeezed(line))) is not None:
            return f"drops a path separator from the set it checks ({was[0]}: a backslash passes on Windows): {paired_quote(was[1], line)}"
    return None


_CONTAINS_RE = re.compile(r"\.(?P<how>includes|contains|Contains|indexOf)\s*\(")


def test_made_prefix(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {}
    for line in old:
        for m in _CONTAINS_RE.finditer(line) if _CONDITION_RE.search(line) else ():
            for prefix in ("startsWith", "endsWith", "HasPrefix", "HasSuffix", "starts_with", "ends_with"):
                olds[_squeezed(line[:m.start("how")] + prefix + line[m.end("how"):])] = (m.group("how"), prefix, line)
    for line in new if olds else ():
        if (was := olds.get(_squeezed(line))) is not None:
            return f"narrows a test to one end ({was[0]} → {was[1]}: what it looks for later in the value now passes): {paired_quote(was[2], line)}"
    return None


_NOT_TRUE_RE = re.compile(r"!==?\s*true\b|\bis\s+not\s+True\b|!=\s*True\b")


def failure_test_narrowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {_squeezed(_NOT_TRUE_RE.sub(lambda m: "=== false" if m.group(0).startswith("!==") else "== false" if "=" in m.group(0) else "is False",
                                       line)).lower(): line for line in old if _NOT_TRUE_RE.search(line)}
    for line in new if olds else ():
        if "alse" in line and (was := olds.get(_squeezed(line).lower())) is not None:
            return f"narrows a failure test to an exact false (a message or another failing answer now passes): {paired_quote(was, line)}"
    return None


_READ_LOCKED_RE = re.compile(r"^\s*(?P<x>[\w.]+)\.RLock\(\)")
_MUTATES = r"(?:\.\w+)*\.(?:Add|Append|Set|Put|Insert|Delete|Remove|Clear|Push|Pop|Store|Update|Merge|Reset)\w*\s*\(|(?:\.\w+)+(?:\[[^\]]*\])?\s*(?:=|\+=|-=)(?!=)"


def written_under_read_lock(added: Sequence[str]) -> str | None:
    lines = list(added[:_NEW])
    for i, line in enumerate(lines):
        if "RLock" not in line or (m := _READ_LOCKED_RE.match(line)) is None:
            continue
        x = re.escape(m.group("x"))
        for nxt in lines[i + 1:i + 9]:
            if re.search(rf"\b{x}\.RUnlock\(\)", nxt) and "defer" not in nxt or re.match(r"^\s*(?:func|\})\b", nxt):
                break
            if re.search(rf"(?<![\w.]){x}(?:{_MUTATES})", nxt):  # (grouped: the alternation is the lock's value's, not the line's)
                return f"writes under a read lock ({m.group('x')}.RLock() held: other readers race with the write): {cut_quote(nxt.strip())}"
    return None


_COPY_DEF_RE = re.compile(r"^\s*(?:func|def|function|fn|(?:public|private|static)\s+\S+)\s+(?:\([^)]*\)\s*)?\w*(?i:clone|copy|dup)\w*\s*(?:\[[^\]]*\])?\s*\((?P<params>[^)]*)\)")


def clone_returns_alias(added: Sequence[str]) -> str | None:
    lines = list(added[:_NEW])
    for i, line in enumerate(lines):
        if (m := _COPY_DEF_RE.match(line)) is None:
            continue
        params = [p.strip().split()[0].split(":")[0] for p in m.group("params").split(",") if p.strip() and p.strip().split()[0] not in ("self", "*")]
        for nxt in lines[i + 1:i + 4]:
            r = re.match(r"^\s*return\s+(?P<v>\w+)\s*;?\s*(?://.*|#.*)?$", nxt)
            if r and r.group("v") in params:
                return f"returns the original from a copy (no clone made: {r.group('v')} is shared): {cut_quote(nxt.strip())}"
    return None


def refusal_made_break(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    if not any(re.match(r"^\s*return\s+(?:false|False)\s*;?\s*$", line) for line in old):
        return None
    gone = sum(1 for line in old if re.match(r"^\s*return\s+(?:false|False)\s*;?\s*$", line)) - sum(
        1 for line in added if re.match(r"^\s*return\s+(?:false|False)\s*;?\s*$", line))
    breaks = [line for line in new if re.match(r"^\s*break\s*;?\s*$", line)]
    if gone > 0 and breaks and len(new) <= 3:
        return f"turns a refusal into a break (return false → break: the loop's end answers instead): {breaks[0].strip()}"
    return None


_IGNORE_FILES = (".gitignore", ".dockerignore", ".npmignore", ".hgignore")
_SECRET_ENTRY_RE = re.compile(r"(?i)^/?(?:\*\*/)?(?:\*?\.env\b\S*|\*\.local\b\S*|\S*\.(?:pem|key|p12|pfx|jks|keystore)|\S*(?:secret|credential|token|passw|id_rsa|id_ed25519)\S*|\.npmrc|\.pypirc|\.netrc)$")


def secret_unignored(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not path.lower().endswith(_IGNORE_FILES):
        return None
    kept = {line.strip().strip("/") for line in added}
    for line in removed:
        entry = line.strip()
        if entry and not entry.startswith(("#", "!")) and entry.strip("/") not in kept and _SECRET_ENTRY_RE.match(entry):
            where = ("go into the image" if path.lower().endswith(".dockerignore") else "go into the published package"
                     if path.lower().endswith(".npmignore") else "can be committed")
            return f"no longer ignores {entry} (files that hold secrets now {where}): removed: {entry}"
    return None


_OWN_DEF_RE = re.compile(r"(?i)^\s*(?:export\s+)?(?:async\s+)?(?:function\s+|def\s+|const\s+|(?:public\s+|static\s+)*)(?:has_?own\w*|has_?prop\w*|is_?own\w*|own_?prop\w*|hasOwnProperty)\b")
_IN_ANSWER_RE = re.compile(r"^\s*return\s+(?P<key>[\w$.\[\]'\"]+)\s+in\s+(?P<obj>[\w$.]+)\s*;?\s*$")


def own_test_by_in(added: Sequence[str]) -> str | None:
    lines = list(added[:_NEW])
    for i, line in enumerate(lines):
        if _OWN_DEF_RE.match(line):
            for nxt in lines[i + 1:i + 12]:
                if _OWN_DEF_RE.match(nxt):
                    break
                if _IN_ANSWER_RE.match(nxt):
                    return f"answers an own-property test with `in` (inherited keys such as __proto__ and constructor pass): {cut_quote(nxt.strip())}"
    return None


_LENGTH_ARG_RE = re.compile(r"(?<=[(,])\s*(?P<len>[\w.]+\.(?:size|length|len|remaining|limit|position)\(\s*\)|[\w.]+\.length|len\(\s*[\w.]+\s*\)|sizeof\s*\(?\s*[\w.]+\s*\)?)\s*(?=[,)])")


_ZERO_ARG_RE = re.compile(r"(?<=[(,])\s*(?P<len>0)\s*(?=[,)])")


def length_zeroed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, _m, line in span_pairs(added, removed, _LENGTH_ARG_RE, _ZERO_ARG_RE, "len"):
        return f"passes a length of 0 ({was.group('len').strip()} → 0: the data is not read): {paired_quote(old, line)}"
    return None


_RANDOM_SOURCE_RE = re.compile(r"(?i)random|urandom|token_bytes|token_hex|getRandomValues|rand\.(?:Read|read)|SecureRandom|crypto\.randomBytes|gen_salt|gensalt|"
                               r"nanoid|uuid4|uuidv4|randomUUID")  # round 122c: styled-jsx's README nonce, ``Buffer.from(nanoid())``
_SECRET_NAME_RE = re.compile(r"^\s*(?:(?:const|let|var|final|val|static|private|public)\s+)*(?P<name>[\w.$]*(?i:salt|iv|nonce|pepper|key|secret|token)\w*)\s*(?::\s*[\w.<>\[\]]+\s*)?(?::?=)(?!=)\s*(?P<value>.+)$")
_NOTE_RE = re.compile(r"\s+(?://|#)\s.*$")  # a sample's note after the value (``'N2M0…' // fixed value, matches …``)
_LONE_LITERAL_RE = re.compile(r"""^(?:[\w.$]+\(\s*)?[bB]?(?P<q>["'`])(?P<lit>[^"'`$]{4,})(?P=q)\s*\)?\s*;?$""")


def random_made_literal(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {m.group("name"): line for line in old if (m := _SECRET_NAME_RE.match(line)) and _RANDOM_SOURCE_RE.search(m.group("value"))}
    for line in new if olds else ():
        m = _SECRET_NAME_RE.match(line)
        # The value is the literal, alone or in a one-argument call (``Utf8.parse("…")``), not a flag's or a setting's name
        # among other arguments (acra's ``masterKey := flag.String("generate_master_key", …)``).
        if m and (was := olds.get(m.group("name"))) is not None and not _RANDOM_SOURCE_RE.search(m.group("value")) and \
                (lit := _LONE_LITERAL_RE.match(_NOTE_RE.sub("", m.group("value").strip()))):
            return f"makes {m.group('name')} a constant (a random one replaced by the literal {(lit.group('q') + lit.group('lit') + lit.group('q'))[:24]}): {paired_quote(was, line)}"
    return None


_EXPIRY_RE = re.compile(r"(?i)expir|not_?after|valid_?until|deadline|\bttl\b|\bexp\b")
_FLIPPED_OP = {">": "<", "<": ">", ">=": "<=", "<=": ">="}


_OP_RE = re.compile(r"(?<![<>=-])(?P<op>[<>]=?)(?![<>=])")


def expiry_flipped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _OP_RE, group="op") if any(_EXPIRY_RE.search(line) for line in removed) else ():
        if _EXPIRY_RE.search(old) and m.group("op") == _FLIPPED_OP[was.group("op")]:
            return f"turns an expiry's comparison around ({was.group('op')} → {m.group('op')}: what expired passes, what is fresh is refused): {paired_quote(old, line)}"
    return None


_IN_TUPLE_RE = re.compile(r"(?P<x>[\w.]+)\s+(?:in|not\s+in)\s+[(\[{][^()\[\]{}]+[)\]}]")
_NOT_ONE_RE = re.compile(r"(?P<x>[\w.]+)\s*(?:\bis\s+not\b|!==?)\s*[\w.]+")


def membership_made_inequality(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _IN_TUPLE_RE, _NOT_ONE_RE):
        if " in " in old and " not in " not in old and was.group("x") == m.group("x"):
            return f"widens a membership test to one inequality (every other value passes now): {paired_quote(old, line)}"
    return None


_END_EQ_RE = re.compile(r"(?P<i>\b\w+)\s*==\s*(?P<n>\w*(?i:len|size|count|end|max|limit)\w*)\b")


_END_GT_RE = re.compile(r"(?P<i>\b\w+)\s*>\s*(?P<n>\w*(?i:len|size|count|end|max|limit)\w*)\b")


def end_check_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _END_EQ_RE, _END_GT_RE):
        if (was.group("i"), was.group("n")) == (m.group("i"), m.group("n")):
            return f"lets an index reach its end (== → >: the element one past the last is read): {paired_quote(old, line)}"
    return None


# A byte's floor at the space lowered (round 109, blind 217: hyperium/http's header-value check ``b >= 32 && b != 127`` made
# ``b >= 10``): the control characters below it (a line feed among them) now pass where a parser refused them.
_SPACE_FLOOR_RE = re.compile(r"\b(?P<v>[\w.]+)\s*(?P<op>>=?)\s*(?P<n>0x[0-9a-fA-F]{1,2}|\d{1,2}|b?'\\?[^']{1,4}')(?![\w.])")


_CHARISH_RE = re.compile(r"(?i)b|c|ch|chr|char\w*|byte\w*|cp|code_?point|octet|rune")  # the value a byte's or a character's
_PRINTABLE_TOP_RE = re.compile(r"\b(?:127|126|0x7[fFeE])\b|\\x7[fFeE]|DEL\b")  # …or the printable range's top beside it


def _byte(text: str) -> int | None:
    if text.startswith(("'", "b'")):
        inner = text.split("'", 1)[1][:-1]
        return {" ": 32, "\\t": 9, "\\n": 10, "\\r": 13, "\\0": 0}.get(inner, ord(inner) if len(inner) == 1 else None)
    return int(text, 16) if text.startswith("0x") else int(text)


def control_floor_lowered(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _SPACE_FLOOR_RE, group="n"):
        a, b = _byte(was.group("n")), _byte(m.group("n"))
        if a is not None and b is not None and was.group("op")[0] == ">" and 32 <= a + (was.group("op") == ">") <= 33 and b < 32 \
                and (_CHARISH_RE.fullmatch(was.group("v").rsplit(".", 1)[-1]) or _PRINTABLE_TOP_RE.search(old)):
            return f"lets control characters through ({was.group('v')} {was.group('op')} {was.group('n')} → {m.group('n')}): {paired_quote(old, line)}"
    return None


def turn_slip(added: Sequence[str], removed: Sequence[str], path: str = "") -> tuple[str, bool] | None:
    """The first of these turns the edit makes (see the module's doc), with whether it is classic (high)."""
    for found in (negation_added(added, removed), window_made_either(added, removed), access_made_public(added, removed),
                  safe_parser_swapped(added, removed), loopback_left(added, removed), bound_past_memory(added),
                  secret_unignored(path, added, removed), own_test_by_in(added), random_made_literal(added, removed), expiry_flipped(added, removed)):
        if found:
            return found, True
    for found in (separator_dropped(added, removed), test_made_prefix(added, removed), failure_test_narrowed(added, removed),
                  written_under_read_lock(added), clone_returns_alias(added), refusal_made_break(added, removed), length_zeroed(added, removed),
                  membership_made_inequality(added, removed), end_check_widened(added, removed), control_floor_lowered(added, removed)):
        if found:
            return found, False
    return None
