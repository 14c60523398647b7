"""Quiet turns no security word gives away, read as general shapes in every language (issue 36, round 31).

Each reader pairs a removed line with the added line closest to it and says what the one difference does; none reads a
language's names but where a language spells the same thing its own way (a list of spellings, not of projects):

- ``error_logged``: an error path (``throw``/``raise``, Go's ``return err``/``return fmt.Errorf(…)``, ``panic``) made
  a line that writes the message and goes on (``System.err.println``, ``log.Print``, ``console.error``, ``warn``,
  ``puts``): the failure is reported to no caller, the code after it runs on a state the error refused;
- ``prefix_compared``: a comparison (``ct_eq``, ``hmac.Equal``, ``compare_digest``, ``timingSafeEqual``, ``equals``,
  ``==``) whose operands are now cut to a fixed prefix (``[..4]``, ``[:4]``, ``.slice(0, 4)``, ``substr($x, 0, 4)``,
  ``.take(4)``): a tag or digest that matches in its first bytes passes;
- ``byte_count_dropped``: a length read in bytes made a length in characters (``mb_strlen($s, '8bit')`` →
  ``mb_strlen($s)``, ``len(s.encode())`` → ``len(s)``, ``Buffer.byteLength(s)`` → ``s.length``, ``bytesize`` →
  ``size``, ``getBytes(…).length`` → ``length()``): a multi-byte input now measures short, a buffer or a bound is off;
- ``permission_widened``: a permission or mode default assigned a wider constant (``RW`` → ``FULL``/``ALL``/``WORLD``,
  ``0o600`` → ``0o666``): files made with the default are open to every user;
- ``owner_mode_shared``: a mode spelled in stat's names that was the owner's alone (``S_IRUSR | S_IWUSR``) given a
  group's or others' bit (``| stat.S_IROTH``): a key or a secret the file holds is read by every user;
- ``lax_constant``: one member of a family swapped from a word that enforces (``Enforced``, ``Strict``, ``Deny``) to
  one that lets through (``Quiet``, ``Lenient``, ``Allow``): the same setting with its check off;
- ``quantifier_turned``: a check over many turned between "each" and "one" (``all`` ↔ ``any``, ``every`` ↔ ``some``,
  ``allMatch`` ↔ ``anyMatch``): one passing result now passes the lot, or one failing fails it;
- ``read_shortened``, ``lock_weakened``: Go's ``io.ReadFull(r, b)`` made ``r.Read(b)`` (a short read taken whole), a ``Lock()`` or
  ``Unlock()`` made ``RLock()``/``RUnlock()`` (writers no longer exclude each other);
- ``sibling_constant``: a condition's constant swapped for a sibling of its family (two UPPER_SNAKE or ``Type::member``
  names sharing a long prefix, nothing else on the line changed): the check now tests another thing.
- ``handler_prints``: a handler new code writes whose whole body prints the error (``catch … {`` then
  ``System.err.println(…)`` then ``}``, Python's ``except …:`` then ``print(…)``, Go's ``if err != nil {`` then
  ``fmt.Println``): the failure is shown on a console and what follows runs as if the step had worked;
- ``first_only``: a replace of every occurrence made a replace of the first (JS's ``/…/g`` flag dropped or ``replaceAll``
  → ``replace``, ``replaceAll`` → ``replaceFirst``, ``gsub`` → ``sub``, Go's ``ReplaceAll`` → ``Replace(…, 1)``): an
  escaping or stripping pass stops after one, the rest passes;
- ``negation_toggled``: a deciding line (``if``, ``while``, ``guard``, a ``&&``/``||`` clause) whose one change is a ``!`` or
  ``not`` before an operand: the branch now runs when it did not (a filter, a probe, a flag test inverted);
- ``remainder_dropped``: what a size argument kept back dropped (``sizeof(buf) - used`` → ``sizeof(buf)``,
  ``std::end(b) - 1`` → ``std::end(b)``, ``n - 1`` → ``n``): the whole buffer offered where only the rest was left, an
  overflow; read in a docs page's code sample too (``sample_turned``: a reader copies the sample).

Quiet look-alikes: a throw restated (a formatter's reflow) or logged beside, a handler that prints and raises again or
writes to a configured logger, a slice printed (not compared), a count turned to bytes, a permission narrowed, a name
lengthened (a rename) or a family renamed (the old name read on more lines, or the new one defined), a replace still
global, a bound added.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import squeezed
from relay.review.small_edits import paired as _pair

__all__ = ["quiet_turned", "said_by_another", "sample_turned"]

_PAIRS = 200  # the most lines of one side read, so a rewrite of hundreds of lines stays linear
_LONG = 400  # a statement's length: longer lines are not paired


def _fresh(lines: Sequence[str], other: Sequence[str]) -> list[str]:
    kept = {line.strip() for line in other[:_PAIRS * 5]}
    return [line for line in lines[:_PAIRS] if line.strip() and line.strip() not in kept and len(line) <= _LONG]


def _short(line: str, most: int) -> str:
    text = " ".join(line.split())
    return text if len(text) <= most else text[:most - 1] + "…"


def _closest(line: str, candidates: Sequence[str], least: float) -> str | None:
    best, score = None, least
    for other in candidates[:40]:
        matcher = SequenceMatcher(None, line.strip(), other.strip(), autojunk=False)
        if matcher.real_quick_ratio() >= score and matcher.quick_ratio() >= score and (ratio := matcher.ratio()) >= score:
            best, score = other, ratio
    return best


# ----- an error path made a message written and gone on
_ERROR_PATH_RE = re.compile(r"^\s*(?:throw\b|raise\b|panic!?\s*\(|return\s+(?:[\w.&{}\[\]]+,\s*){0,3}(?:err|error|e)\s*;?\s*$|"
                            r"return\s+(?:[\w.&{}\[\]]+,\s*){0,3}(?:fmt\.Errorf|errors\.(?:New|Wrap\w*))\(|"
                            r"return\s+Err\(|reject\s*\(|callback\s*\(\s*(?:err|new\s+Error)|cb\s*\(\s*(?:err|new\s+Error))")
_WRITES_RE = re.compile(r"^\s*(?:(?:System\.(?:err|out)\.print\w*|Console\.(?:Error\.)?Write\w*|console\.(?:log|error|warn|info)|"
                        r"(?:self\.|this\.|[\w.]*\.)?(?:log|logger|LOG|LOGGER|logging|slog|Log|_log|_logger)\.\w+|log\.\w+|"
                        r"e?print(?:ln|f)?!?|puts|warn|warning|trigger_error|error_log|echo|fmt\.(?:Print|Fprint)\w*|Debug\.Log\w*|"
                        r"NSLog|Trace\.\w+|eprintln!|println!|eprint!|dbg!)\s*[(!]?)")


_REPORTS_RE = re.compile(r"^\s*(?:[\w.]+\.)?(?:(?:report|record|signal)\w*(?:Fail|Error|Issue)\w*|XCTFail|fail|Fail|reject|abort)\s*\(")
_NAMES_RE = re.compile(r"[A-Za-z_]\w{2,}")
_PLAIN = frozenset(("self", "this", "new", "return", "throw", "raise", "print", "println", "puts", "log", "err", "error", "true", "false", "nil", "null"))


def _shares_names(old: str, new: str) -> bool:
    """Whether two lines name two of the same things (the error's variable and what it was about): a report's
    ``reportFailure(error, name: name)`` made ``print("\\(name) threw \\(error)")`` reads as the same line."""
    a = set(_NAMES_RE.findall(old)) - {"self", "this", "new", "return", "throw", "raise"}
    return len(a & set(_NAMES_RE.findall(new))) >= 2


def _error_logged(added: Sequence[str], removed: Sequence[str]) -> str | None:
    gone = [old for old in _fresh(removed, added) if _ERROR_PATH_RE.match(old) or _REPORTS_RE.match(old)]
    if not gone or len(removed) > 60:
        return None
    fresh = _fresh(added, removed)
    if any(_ERROR_PATH_RE.match(line) or _REPORTS_RE.match(line) for line in fresh):
        return None  # an error still raised or reported in the new lines: moved or reworded, not swallowed
    writes = [line for line in fresh if _WRITES_RE.match(line)]
    if not writes:
        return None
    for old in gone[:20]:
        new = (_closest(old, writes, 0.5) or next((line for line in writes if _shares_names(old, line)), None)
               or (writes[0] if len(writes) == 1 and len(fresh) <= 2 else None))  # the one line in its place
        if new is not None:
            return f"turns an error into a message and goes on: {_short(new, 60)} (was {_short(old, 40)})"
    return None


# A handler new code writes whose whole body prints the error (not a logger a project configures): the failure is
# shown on a console and the code after the handler runs as if the step had worked.
_HANDLER_RE = re.compile(r"(?:\bcatch\b[^{]*|\brescue\b[^{]*|\bif\s+err\s*!=\s*nil\s*)\{\s*$|^\s*except\b[^:]*:\s*$|^\s*rescue\b.*$")
_PRINTS_RE = re.compile(r"^\s*(?:System\.(?:err|out)\.print\w*|Console\.(?:Error\.)?Write\w*|console\.(?:log|error|warn)|e?print(?:ln|f)?!?|"
                        r"puts|warn|fmt\.(?:Print|Fprint)\w*|NSLog|\w+\.printStackTrace)\s*[(!]?")


def _handler_prints(added: Sequence[str]) -> str | None:
    lines = added[:_PAIRS * 5]
    for i, head in enumerate(lines[:-1]):
        if len(head) > _LONG or not _HANDLER_RE.search(head) or not _PRINTS_RE.match(lines[i + 1]):
            continue
        after = lines[i + 2] if i + 2 < len(lines) else ""
        indent = len(head) - len(head.lstrip())
        if after.strip() in ("}", "end", "") or len(after) - len(after.lstrip()) <= indent:  # the handler ends after the print
            return f"catches an error and only prints it (goes on): {_short(lines[i + 1], 70)}"
    return None


# ----- a comparison cut to a prefix
_COMPARES_RE = re.compile(r"(?i)\b(?:ct_eq|constant_time\w*|compare_digest|timingSafeEqual|hmac\.Equal|ConstantTimeCompare|"
                          r"FixedTimeEquals|isEqual|equals|Equal|memcmp|CRYPTO_memcmp|hash_equals|secure_compare|strcmp|"
                          r"bytes\.Equal|eq)\b|[!=]==?")
_PREFIX_RE = re.compile(r"\[\s*(?:0\s*)?(?:\.\.|:)\s*\d+\s*\]|\[\s*0\s*,\s*\d+\s*\]|\[\s*0\s*\.\.\.?\s*\d+\s*\]|"
                        r"\.(?:slice|subarray|substring|substr|Substring|take|prefix|first|AsSpan|Slice)\(\s*(?:0\s*,\s*)?\d+\s*\)|"
                        r"\b(?:substr|mb_substr|array_slice)\(\s*[^,()]+,\s*0\s*,\s*\d+\s*\)|\bcopyOf(?:Range)?\(\s*[^,()]+,\s*(?:0\s*,\s*)?\d+\s*\)")


def _prefix_compared(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in _fresh(removed, added) if _COMPARES_RE.search(line)]
    if not olds:
        return None
    for new in _fresh(added, removed):
        if len(_PREFIX_RE.findall(new)) < 1 or not _COMPARES_RE.search(new):
            continue
        old = _closest(new, olds, 0.6)
        if old is not None and len(_PREFIX_RE.findall(new)) > len(_PREFIX_RE.findall(old)):
            return f"compares only a prefix (its first bytes): {_short(new, 75)}"
    return None


# ----- a byte count made a character count
_BYTES_RE = re.compile(r"(?i)['\"](?:8bit|ascii|binary|latin1)['\"]|\.encode\(|\bbyteLength\b|\bbytesize\b|\bgetBytes\(|"
                       r"\bGetByteCount\(|\[\]byte\(|\.as_bytes\(\)|\.bytes\(\)\s*\.len\(|\.utf8\.count\b|\.ByteLength\b|\bbytelen\b")
_LENGTH_RE = re.compile(r"(?i)len|length|size|count")


def _byte_count_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in _fresh(removed, added) if _BYTES_RE.search(line) and _LENGTH_RE.search(line)]
    if not olds:
        return None
    for new in _fresh(added, removed):
        if _BYTES_RE.search(new) or not _LENGTH_RE.search(new):
            continue
        old = _closest(new, olds, 0.6)
        if old is not None and len(new.strip()) < len(old.strip()):
            return f"counts characters where bytes were counted: {_pair(old, new)}"
    return None


# ----- a permission default widened
_PERM_LHS_RE = re.compile(r"(?i)^\s*(?:[\w.<>\[\]]+\s+){0,4}[\w.$]*?(?:perm\w*|mode|umask|access|acl)\w*\s*(?::\s*[\w.]+\s*)?[:=]=?\s*(?P<rhs>[^;#]+)")
_NARROW_RE = re.compile(r"(?i)(?<![A-Za-z0-9])(?:RW|READ\w*|PRIVATE|OWNER\w*|USER_ONLY|RESTRICT\w*)(?![A-Za-z0-9])|\b0o?[67]00\b|\b0o?[67][04]0\b|\b0o?644\b|\b0o?640\b")
_WIDE_RE = re.compile(r"(?<![A-Za-z0-9])(?:FULL|ALL|WORLD|EVERYONE|OTHERS?|PUBLIC|Full|All|World|Everyone|Others?|Public)(?![A-Za-z0-9])|\b0o?[67]{2}[67]\b|\b0o?77[67]\b")


def _permission_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(line, m) for line in _fresh(removed, added) if (m := _PERM_LHS_RE.match(line)) and _NARROW_RE.search(m.group("rhs"))]
    for new in _fresh(added, removed) if olds else ():
        if (m := _PERM_LHS_RE.match(new)) is None or not _WIDE_RE.search(m.group("rhs")) or _NARROW_RE.search(m.group("rhs")):
            continue
        lhs = new[:m.start("rhs")].strip()
        old = next((line for line, om in olds if line[:om.start("rhs")].strip() == lhs), None)
        if old is not None:
            return f"widens a default permission (open to all users): {_pair(old, new)}"
    return None


# ----- an owner-only mode given a group's or others' bit
# A mode spelled in stat's names that was the owner's alone given a group's or others' bit (``S_IRUSR | S_IWUSR`` →
# ``… | stat.S_IROTH``, round 53: blind 76's securesystemslib, a file it writes keys to made readable by every user).
_OWNER_BITS_RE = re.compile(r"\bS_I(?:RUSR|WUSR|XUSR|RWXU)\b")
_SHARED_BIT_RE = re.compile(r"\s*\|\s*(?:[\w.]+\.)?S_I(?:ROTH|WOTH|XOTH|RWXO|RGRP|WGRP|RWXG)\b")


def _owner_mode_shared(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {squeezed(line): line for line in _fresh(removed, added) if _OWNER_BITS_RE.search(line) and not _SHARED_BIT_RE.search(line)}
    for new in _fresh(added, removed) if olds else ():
        if (bits := _SHARED_BIT_RE.findall(new)) and (old := olds.get(squeezed(_SHARED_BIT_RE.sub("", new)))) is not None:
            shared = ", ".join(bit.split(".")[-1].strip("| ") for bit in bits)
            return f"opens a mode that was the owner's alone to other users ({shared} put in): {_pair(old, new)}"
    return None


# ----- a setting's strict constant swapped for a lax sibling
# One name of a family turned from a word that enforces to one that lets through (``cbor.DupMapKeyEnforcedAPF`` →
# ``cbor.DupMapKeyQuiet``, round 54: blind 76's go-cose; ``Mode.STRICT`` → ``Mode.LENIENT``): the same setting, its check
# off. A log's level (``Level.Error`` → ``Level.Warn``) is what is said, not what is let through.
_MEMBER_RE = re.compile(r"\b[A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_]\w*)+\b")
_STRICT_RE = re.compile(r"(?i)enforc|strict|forbid|deny|reject|requir|disallow|verif|validat|refuse|(?<![a-z])error|fail")
_LAX_RE = re.compile(r"(?i)quiet|silent|lax|loose|lenient|permissive|allow|permit|accept|ignor|skip|warn|optional|insecure|unsafe|no_?verif|off\b|none\b|disabled?\b")
_LOG_RE = re.compile(r"(?i)\blog|level|severity|verbos")


def _lax_constant(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in _fresh(removed, added)[:40] if _MEMBER_RE.search(line) and _STRICT_RE.search(line) and not _LOG_RE.search(line)]
    for new in _fresh(added, removed)[:40] if olds else ():
        nb = _MEMBER_RE.findall(new)
        for old in olds:
            na = _MEMBER_RE.findall(old)
            if len(na) != len(nb) or _MEMBER_RE.split(old) != _MEMBER_RE.split(new):
                continue  # more than a member changed
            swapped = [(x, y) for x, y in zip(na, nb) if x != y]
            if len(swapped) != 1:
                continue
            (x, y), = swapped
            stem_x, stem_y = re.split(r"\.|::", x), re.split(r"\.|::", y)
            if stem_x[:-1] != stem_y[:-1]:
                continue  # another family's member, not a sibling
            if _STRICT_RE.search(stem_x[-1]) and not _STRICT_RE.search(stem_y[-1]) and _LAX_RE.search(stem_y[-1]) and not _LAX_RE.search(stem_x[-1]):
                return f"swaps a setting's strict value for a lax one ({stem_x[-1]} → {stem_y[-1]}): {_pair(old, new)}"
    return None


# ----- every made any
# A check over many that needed each to hold made one that needs one (``if not all(results)`` → ``if not any(results)``,
# round 54: blind 76's nox, a run reported passing when one session passed; JS ``every``/``some``, Java's
# ``allMatch``/``anyMatch``, Ruby's ``all?``/``any?``, Rust's and C#'s ``all``/``any``/``All``/``Any``), or the other way.
_QUANTIFIER_RE = re.compile(r"(?<![\w$])(?:all|any|every|some|allMatch|anyMatch|All|Any)(?=\s*[?(]|\?)")
_QUANTIFIER_PAIRS = {frozenset(p) for p in (("all", "any"), ("every", "some"), ("allMatch", "anyMatch"), ("All", "Any"))}
_ONE_OF = frozenset({"any", "some", "anyMatch", "Any"})


def _quantifier_turned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {_QUANTIFIER_RE.sub("\x00", line.strip()): line for line in _fresh(removed, added)[:40] if _QUANTIFIER_RE.search(line)}
    for new in _fresh(added, removed)[:40] if olds else ():
        if (turned := _QUANTIFIER_RE.findall(new)) and (old := olds.get(_QUANTIFIER_RE.sub("\x00", new.strip()))) is not None:
            was = _QUANTIFIER_RE.findall(old)
            swapped = [(a, b) for a, b in zip(was, turned) if a != b]
            if len(swapped) == 1 and frozenset(swapped[0]) in _QUANTIFIER_PAIRS:
                a, b = swapped[0]
                holds = "one holds" if b in _ONE_OF else "every one holds"
                return f"turns {a} into {b} in a check (it now holds when {holds}): {_pair(old, new)}"
    return None


# ----- a full read made a partial one; a write lock made a read lock
# Go's ``io.ReadFull(r, buf)`` → ``r.Read(buf)`` (round 54: blind 78's ulid, entropy read short and the rest left zero):
# one read may fill less than asked and say no error. ``mu.Lock()`` → ``mu.RLock()`` (blind 77's golang-lru, a cache's
# ``Get`` that moves an entry under a read lock): writers no longer exclude each other.
_READ_FULL_RE = re.compile(r"\bio\.ReadFull\(\s*(?P<r>[\w.]+)\s*,\s*(?P<b>[^,()]+(?:\([^()]*\))?)\s*\)")
_LOCKS = {"Lock": "RLock", "Unlock": "RUnlock", "write": "read"}  # Go's sync.RWMutex, Rust's RwLock
_LOCK_CALL_RE = re.compile(r"\.(?P<m>Lock|Unlock|RLock|RUnlock|write|read)\(\s*\)")


def _read_shortened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in _fresh(removed, added)[:40] if "ReadFull(" in line]
    for new in _fresh(added, removed)[:40] if olds else ():
        for old in olds:
            if (m := _READ_FULL_RE.search(old)) and f"{m.group('r')}.Read({m.group('b').strip()})" in new.replace(" ", "") \
                    and old[:m.start()].strip() == new[:new.find(m.group('r') + ".Read(")].strip():
                return f"reads less than it asks for (io.ReadFull made one Read: a short read is taken whole): {_pair(old, new)}"
    return None


def _lock_weakened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(line, calls) for line in _fresh(removed, added)[:40] if len(calls := _LOCK_CALL_RE.findall(line)) == 1]
    for new in _fresh(added, removed)[:40] if olds else ():
        turned = _LOCK_CALL_RE.findall(new)
        for old, was in olds:
            if len(turned) == 1 and _LOCKS.get(was[0]) == turned[0] and _LOCK_CALL_RE.sub("", old).strip() == _LOCK_CALL_RE.sub("", new).strip():
                return f"takes a read lock where a write lock stood ({was[0]}() → {turned[0]}(): writers no longer exclude each other): {_pair(old, new)}"
    return None


# ----- a condition's constant swapped for a sibling
_CONDITION_RE = re.compile(r"^\s*(?:\}?\s*(?:else\s*)?(?:if|elif|elsif|elseif|while|unless|when|case|guard)\b|return\b|assert\b)|[!=]==?|&&|\|\||\band\b|\bor\b")
_EQUALS_NEAR_RE = re.compile(r"(?:[!=]==?|\bis\b|\bcase\b|\bwhen\b)\s*\(?\s*\x00|\x00\s*\)?\s*(?:[!=]==?|\bis\b)")
_NAME_RE = re.compile(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\w+::[a-z_]\w*)\b")


def _sibling_constant(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in _fresh(removed, added) if _CONDITION_RE.search(line) and _NAME_RE.search(line)]
    if not olds or len(olds) > 40:
        return None
    for new in _fresh(added, removed)[:40]:
        if not _CONDITION_RE.search(new):
            continue
        for old in olds:
            a, b = _NAME_RE.split(old), _NAME_RE.split(new)
            na, nb = _NAME_RE.findall(old), _NAME_RE.findall(new)
            if a != b or len(na) != len(nb):
                continue  # anything but the names changed: not one constant swapped
            swapped = [(x, y) for x, y in zip(na, nb) if x != y]
            if len(swapped) != 1:
                continue
            x, y = swapped[0]
            common = 0
            while common < min(len(x), len(y)) and x[common] == y[common]:
                common += 1
            if common < 4 or x.startswith(y) or y.startswith(x) or y in old or not _EQUALS_NEAR_RE.search(new.replace(y, "\x00")):
                continue  # a short shared stem, a name lengthened or cut (a rename), or not what an equality tests
            if sum(1 for line in removed[:_PAIRS * 5] if x in line) > 1 or any(y + " =" in line or y + "=" in line for line in added[:_PAIRS * 5]):
                continue  # read on more lines or defined here: a rename of the family, not one check's swap
            return f"swaps a check's constant for a sibling: {_pair(old, new)}"
    return None


# ----- a size argument's remainder dropped
# A buffer's whole size (``sizeof(buf)``, ``len(b)``, ``cap(b)``, ``b.length``, ``b.size()``, ``std::end(b)``, ``end``)
# less what is used or kept back (``- used``, ``- 1``): the room left, passed to a read, a copy or a format.
_SIZE = (r"(?:\bsizeof\s*\(?[\w.\[\]>-]*\)?|\b(?:len|cap|std::size|std::end|end|countof|ARRAY_SIZE|_countof)\s*\([^()]*\)|"
         r"[\w\])]+(?:\.|->)(?:length|size|len|count|capacity|Length|Count)\b(?:\s*\(\s*\))?|\b\w*(?:_size|_len|SIZE|LEN|Size|Len)\b)")
_REMAINDER_RE = re.compile(r"(?P<size>" + _SIZE + r")\s*-\s*(?P<less>[\w.]+(?:->\w+)*|\([^()]*\))(?=\s*[,)])")


def _remainder_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    fresh = {" ".join(line.split()) for line in _fresh(added, removed)}
    for old in _fresh(removed, added):
        if "-" not in old or "(" not in old:
            continue
        for m in _REMAINDER_RE.finditer(old):
            was = " ".join((old[:m.start()] + m.group("size") + old[m.end():]).split())
            if was in fresh:
                new = next(line for line in added if " ".join(line.split()) == was)
                return f"drops a bound from a buffer's size (an overflow): {_pair(old, new)}"
    return None


# ----- a replace of every occurrence made a replace of the first
# JS's ``/…/g`` flag dropped or ``replaceAll`` → ``replace``, Java's ``replaceAll`` → ``replaceFirst``, Ruby's ``gsub`` →
# ``sub``, Go's ``ReplaceAll``/``Replace(…, -1)`` → ``Replace(…, 1)``, Python's and PHP's count or limit of 1 added.
_ALL_RE = re.compile(r"\.replace\(\s*/(?:[^/\\]|\\.)+/[a-z]*g[a-z]*\s*,|\.replaceAll\(|\.gsub!?\b|\bReplaceAll\(|\bReplace\([^()]*,\s*-1\s*\)")
_FIRST_RE = re.compile(r"\.replace\(\s*/(?:[^/\\]|\\.)+/[a-fh-z]*\s*,|\.replace\(\s*['\"]|\.replaceFirst\(|\.sub!?\b|\bReplace\([^()]*,\s*1\s*\)|"
                       r"\b(?:re\.sub|preg_replace)\([^()]*(?:,\s*|count\s*=\s*)1\s*\)|\.replace\([^()]*,\s*1\s*\)")


# A pattern literal's ``g`` flag dropped wherever the pattern is used (round 121d, held-out 546's indent-string: ``const regex
# = … /^(?!\s*$)/gm`` → ``/m``, the regex a ``.replace`` reads two lines down): the line otherwise the same.
_GLOBAL_LITERAL_RE = re.compile(r"(?<![\w)\]])/(?:[^/\\\n]|\\.)+/[a-z]*g[a-z]*\b")


def _global_flag_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds: dict[str, str] = {}
    for line in _fresh(removed, added):
        for m in _GLOBAL_LITERAL_RE.finditer(line):  # each literal's g dropped alone: another pattern of the line may keep its own
            body, flags = m.group().rsplit("/", 1)
            olds[line[:m.start()] + body + "/" + flags.replace("g", "") + line[m.end():]] = line
    for new in _fresh(added, removed) if olds else ():
        if (old := olds.get(new)) is not None:
            return f"replaces or matches only the first occurrence (a pattern's g flag dropped): {_pair(old, new)}"
    return None


def _first_only(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in _fresh(removed, added) if _ALL_RE.search(line)]
    for new in _fresh(added, removed) if olds else ():
        if not _FIRST_RE.search(new):
            continue
        # Counted, not found: a chain keeps its other replaces global (round 117, blind 342's Autolinker:
        # ``.replace(/</g, '&lt;').replace(/>/g, '&gt;')`` → ``.replace(/</, '&lt;').replace(/>/g, '&gt;')``).
        fewer = [old for old in olds if len(_ALL_RE.findall(old)) > len(_ALL_RE.findall(new))]
        if (old := _closest(new, fewer, 0.75)) is not None:
            return f"replaces only the first occurrence (the rest escape): {_pair(old, new)}"
    return _global_flag_dropped(added, removed)


# ----- a condition's negation added or dropped
# The one change on a deciding line is a ``!`` (or ``not``) before an operand: the branch now runs when it did not.
_DECIDING_RE = re.compile(r"^\s*(?:\}?\s*(?:else\s*)?(?:if|elif|elsif|elseif|while|unless|guard)\b|(?:return\s+)?.*(?:&&|\|\|)|(?:return|assert)\s+(?:not\s|!))")
_NEGATION_RE = re.compile(r"(?<![!=<>])!(?![=!])\s*|\bnot\s+")


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _negation_toggled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {}
    for old in _fresh(removed, added):
        if _DECIDING_RE.search(old):
            olds.setdefault(" ".join(_NEGATION_RE.sub("", old).split()), []).append(old)
    for new in _fresh(added, removed) if olds else ():
        if not _DECIDING_RE.search(new):
            continue
        for old in olds.get(" ".join(_NEGATION_RE.sub("", new).split()), ())[:5]:
            if _indent(old) != _indent(new):
                continue  # a like line elsewhere (a check moved into a new function), not this one turned in place
            if abs(len(_NEGATION_RE.findall(old)) - len(_NEGATION_RE.findall(new))) == 1:
                said = "adds a negation" if len(_NEGATION_RE.findall(new)) > len(_NEGATION_RE.findall(old)) else "drops a negation"
                return f"inverts a condition ({said}: the branch now runs when it did not): {_pair(old, new)}"
    return None


def sample_turned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A docs page's code sample read as source is for a dropped bound: a reader copies the sample (round 31)."""
    return _remainder_dropped(added, removed)


# What these readers say first, so the review can tell their reasons from the others'.
SAYS = ("turns an error into a message and goes on", "catches an error and only prints it", "compares only a prefix (",
        "counts characters where bytes were counted", "widens a default permission", "swaps a check's constant for a sibling",
        "inverts a condition (adds a negation", "inverts a condition (drops a negation", "replaces only the first occurrence",
        "drops a bound from a buffer's size")
_PIECE = 12  # the shortest squeezed piece of a quote that names its line


def said_by_another(reason: str, others: Sequence[str]) -> bool:
    """Whether one of these readers' reasons quotes a line another reason of the file already quotes (an older reader
    that says the same turn in its own words): said once, by the other."""
    if not reason.startswith(SAYS):
        return False
    pieces = [squeezed(piece) for piece in re.split(r"…| → |\(|\)|; ", reason.split(": ", 1)[-1])]
    pieces = [piece for piece in pieces if len(piece) >= _PIECE]
    return any(piece in squeezed(other) for other in others if other is not reason for piece in pieces)


def quiet_turned(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first of these turns the edit makes, with whether it is classic (high): a prefix compare and a widened
    permission are; the others read a line's meaning and stay medium."""
    if (room := _remainder_dropped(added, removed)) is not None:
        return room, False
    for found, classic in ((_prefix_compared(added, removed), True), (_permission_widened(added, removed), True),
                           (_owner_mode_shared(added, removed), True)):
        if found:
            return found, classic
    for found in (_lax_constant(added, removed), _quantifier_turned(added, removed), _read_shortened(added, removed),
                  _lock_weakened(added, removed), _error_logged(added, removed), _first_only(added, removed),
                  _negation_toggled(added, removed), _handler_prints(added), _byte_count_dropped(added, removed),
                  _sibling_constant(added, removed)):
        if found:
            return found, False
    return None

