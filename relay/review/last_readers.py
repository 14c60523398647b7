"""The shapes of a slip read after every other reader of an edit (issue 36, rounds 59, 62, 63 and 64). The readers of how
a compared value is measured or matched (offset_moved, emptiness_widened, match_made_prefix, case_flag_dropped,
length_below_zero, negative_let_through, send_for_any, compared_text_spaced, listed below) live in
``relay.review.compare_slips`` since session 58; this module calls them in its last pass.

Round 59's readers (``relay.review.scaled_turns``, ``relay.review.loop_bounds``) and these, from blind 85–92's misses.
High:

- ``failure_answered_yes`` (new lines): a handler of a check's own failure that answers yes — ``except
  (BadSignatureError, …): return True`` (blind 86's tlslite-ng: a new Ed25519 key whose ``verify`` accepted every bad
  signature), ``catch (SignatureException e) { return true; }``; a handler of any error answers yes the same way inside a
  function named for a check (``def verify…``, ``isValid…``).
- ``early_exit`` (new lines): ``return memcmp(…)`` or ``return a == b`` written into a function named for a constant-time
  compare (blind 88's Crypto++ ``VerifyBufsEqual``): the time it takes tells how much of a MAC was right.
- ``secret_cut_short`` (new lines): a secret made by a secure source and cut to a few characters (``return
  secrets.token_urlsafe(32)[:4]`` in a new ``generate_csrf_token``: blind 79's fastapi-users); a uuid cut short is an id.
- ``dependency_respelled`` (pairs): a dependency's quoted name changed by one letter where an install or a dependency is
  declared (blind 88's brakeman: ``add_dependency "reline"`` → ``"relline"`` in a helper the gemspec loads).
- ``temp_made_shared`` (pairs): a folder under the shared temp dir loses its user's part (``f"{gettempdir()}/runtime-
  {getuid()}"`` → ``…/runtime``: blind 88's platformdirs; another user may create it first).

Worth a look (medium):

- ``error_let_through`` (new lines): Go's ``if err != nil && <a clause that does not read err> {`` whose body returns:
  the failure passes whenever the other clause is false (blind 86's gojsonschema: ``err != nil && u.Scheme == ""``). A
  body that only logs is quiet (``err != nil && verbose``).
- ``one_not_enough`` (new lines): a predicate named for "any" (``auth_required``, ``has_users``) whose body needs a
  count above one (blind 84's shadowsocks: ``total_users() > 1``, a proxy with one user asked no password).
- ``offset_moved`` (pairs): an inclusive span's offset of one made two, or two one (``end - start + 1`` → ``+ 2``: blind
  85's trurl, a length one past the text it measures; ``array_size + 1`` → ``+ 2`` is a tuning, quiet).
- ``compared_text_spaced`` (pairs): a compared text given or stripped of a space at an end (``HasPrefix(ua,
  "Mozilla/")`` → ``"Mozilla/ "``: blind 86's toxiproxy, a browser check that never matches again); a quote style
  changed is quiet.
- ``falsy_narrowed`` (pairs): a refusal of any false value narrowed to a missing one (``if not self._recurse:`` → ``if
  self._recurse is None:``: blind 88's asyncssh; False, 0 and empty now pass).
- ``check_unreturned`` (pairs): a value returned without the check it passed (``return eci == null ||
  eci.isCharsetSupported() ? eci : null;`` → ``return eci;``: blind 88's zxing).
- ``emptiness_widened`` (pairs): an emptiness test made to let one through (``length === 0`` → ``<= 1``: blind 89's formik,
  a form with one validation error submits).
- ``match_made_prefix`` (pairs): an exact match of a redirect, a URL, an origin, a host, a path or an issuer made a prefix
  match (``_base != regbase`` → ``not _base.startswith(regbase)``: blind 90's pyoidc).
- ``case_flag_dropped`` (pairs): a regex literal's ``i`` flag dropped (``/<\\x2f(script)…/gi`` → ``/g``: blind 90's terser;
  ``</SCRIPT`` is no longer escaped).
- ``length_below_zero`` (new lines): a length compared with ``< 0`` (blind 92's zlint: a lint that never fires);
  ``negative_let_through`` (pairs): ``>= 0`` made ``>= -1`` (blind 92's is); ``send_for_any`` (new lines, high): ``unsafe
  impl<T> Send for W<T>`` with no ``T: Send`` bound (blind 91's syn).
- ``twin_guards`` (new lines): two branches named for opposite outcomes (then/else, success/failure, valid/invalid…)
  written a few lines apart under the same test (blind 86's gojsonschema: ``_else != nil && result.Valid()``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.answer_slips import answer_slip, containment_widened, list_from_two, radix_turned, static_root_widened, unsigned_algorithm
from relay.review.bound_slips import bound_moved_by_one, bound_slip, index_moved_by_one, past_bound_by_one, size_grown, size_past_buffer
from relay.review.check_slips import check_slip
from relay.review.turn_slips import random_made_literal, turn_slip
from relay.review.swap_slips import turned_worth_a_look, escape_dropped, import_lookalike, key_made_literal, swap_slip, unit_grown
from relay.review.unguarded_swaps import guard_unlisted, unguarded_swap
from relay.review.protection_drops import protection_dropped, worth_a_look
from relay.review.written_slips import classic_written, cookie_unsigned, digit_lookalike, link_lookalike, opened_up, tracing_secrets, written_slip
from relay.review.verdict_slips import verdict_slip
from relay.review.docs_samples import sample_lines
from relay.review.dropped_safeties import dropped_safety, identity_literal
from relay.review.lock_operand_slips import held_or_mixed
from relay.review.loop_bounds import loop_step_changed, never_true_in_loop, past_end_in_loop
from relay.review.overridden_turns import cut_quote, one_replace, paired_quote
from relay.review.commented_calls import exit_commented_out, random_fill_commented
from relay.review.pair_slips import bits_given_bytes, pair_slip
from relay.review.reach_slips import permission_widened, reach_slip
from relay.review.literal_slips import durability_off, literal_slip, secret_made_literal
from relay.review.reach_pairs import reach_pair
from relay.review.build_lines import dropped_safety_flag
from relay.review.match_slips import equality_narrowed, host_made_wildcard, match_slip, pam_deny_permitted, where_widened
from relay.review.classic_slips import classic_slip, classic_sample_slip
from relay.review.compare_slips import (case_flag_dropped, compared_text_spaced, emptiness_widened, length_below_zero, match_made_prefix,
                                         negative_let_through, offset_moved, send_for_any)
from relay.review.verify_slips import cost_made_minimum, verify_given_none, verify_slip
from relay.review.sample_manifests import import_respelled
from relay.review.scaled_turns import scaled_turned
from relay.review.words import POPULAR_PACKAGES

__all__ = ["read_last", "read_last_sample"]

_LINES = 4000  # new lines read
_PAIRS = 40
_LONG = 400

# ----- a check's failure answered yes
# The exceptions a check raises when it fails: their handler answering yes lets the failure through.
_FAILURE_RE = re.compile(r"(?:Signature|Verif\w*|Invalid\w*|BadSig\w*|Auth\w*|Unauthori\w*|Forbidden|Integrity|Mismatch|Expired|"
                         r"Tamper\w*|Decrypt\w*|Checksum|Digest|Certificate|Cert|Permission|AccessDenied|Validation|Jwt|JWT|"
                         r"Token)\w*(?:Error|Exception|Failure|Fault)\b|\b(?:InvalidTag|InvalidSignature|BadSignature\w*)\b")
_ANY_ERROR_RE = re.compile(r"^\s*except\s*(?:\(?\s*(?:Exception|BaseException)\b[^:]*)?:\s*$|"
                           r"\bcatch\s*\(\s*(?:final\s+)?(?:Exception|Throwable|Error|\w+)?\s*\w*\s*\)\s*\{\s*$|^\s*rescue\s*(?:=>\s*\w+)?\s*$|\bcatch\s*\{\s*$")
# (``} catch {``: JavaScript's handler without a binding, round 88: node-rsa's native verify, blind 130.)
_HANDLER_RE = re.compile(r"^\s*except\b[^:]*:\s*$|\bcatch\s*(?:\([^)]*\)\s*)?\{\s*$|^\s*rescue\b.*$")
_YES_RE = re.compile(r"^\s*(?:return\s+(?:True|true)\s*;?|true)\s*$")
_CHECK_DEF_RE = re.compile(r"(?i)(?:\bdef|\bfunc(?:tion)?|\bfn|\bpublic|\bprivate|\bprotected|\bstatic|\bbool(?:ean)?)\b[^(]*?"
                           r"\b\w*(?:verif|valid|authenticat|authori|check_?sig|checksig|is_?trusted|trusted|permit|allowed)\w*\s*\(")
_DEF_ABOVE = 40  # lines above a handler searched for its function's name


def _failure_answered_yes(added: Sequence[str]) -> str | None:
    lines = added[:_LINES]
    for i, head in enumerate(lines[:-1]):
        if len(head) > _LONG or not _HANDLER_RE.search(head) or not _YES_RE.match(lines[i + 1]):
            continue
        if (m := _FAILURE_RE.search(head)) is not None:
            return f"answers yes when the check fails (a {m.group()} handler returns true): {cut_quote(head.strip())} {lines[i + 1].strip()}"
        if _ANY_ERROR_RE.search(head) and (named := _function_above(lines, i)) is not None:
            return f"answers yes when the check fails (any error in {named} returns true): {cut_quote(head.strip())} {lines[i + 1].strip()}"
    return None


def _function_above(lines: Sequence[str], at: int) -> str | None:
    """The check's name when the nearest function above ``at`` is named for one."""
    for line in reversed(lines[max(at - _DEF_ABOVE, 0):at]):
        if re.match(r"^\s*(?:(?:async\s+)?def|func|function|fn|pub\s+fn|public|private|protected|static|bool|boolean)\b", line):
            m = _CHECK_DEF_RE.search(line)
            return None if m is None else m.group().rstrip("( ").split()[-1]
        if (method := _METHOD_RE.match(line)) is not None and method.group("name") not in ("if", "for", "while", "switch", "catch"):
            return method.group("name") if _CHECK_NAME_RE.search(method.group("name")) else None  # a class's method: ``verify(…): boolean {``
    return None


_METHOD_RE = re.compile(r"^\s*(?:async\s+)?(?P<name>\w+)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$")
_CHECK_NAME_RE = re.compile(r"(?i)verif|valid|authenticat|authori|check_?sig|trusted|permit|allowed")


# ----- a predicate that one item no longer satisfies
# ``fn auth_required(&self) -> bool { self.basic.total_users() > 1 }`` (blind 84's shadowsocks, a new file: one
# configured user no longer turns authentication on); the predicate's name says "any", the body needs two.
_ANY_NAME_RE = re.compile(r"(?i)\b(?:def|fn|func|function|get|bool(?:ean)?|public|private|static)\b[^(]*?\b(?P<name>\w*(?:required|enabled|"
                          r"has_?[A-Z_a-z]\w*|any|exists|non_?empty|not_?empty|is_?set|present|active|needs?_?\w*))\s*\(")
_NEEDS_TWO_RE = re.compile(r"^\s*(?:return\s+)?(?P<count>[\w.]*(?:count|len|length|size|total|num|users|items|entries|keys)\w*(?:\([^()]*\))?"
                           r"(?:\.\w+(?:\(\))?)?)\s*>\s*1\s*;?\s*\}?\s*$", re.IGNORECASE)


def _one_not_enough(added: Sequence[str]) -> str | None:
    lines = added[:_LINES]
    for i, line in enumerate(lines):
        if "> 1" not in line or (m := _NEEDS_TWO_RE.match(line)) is None:
            continue
        head = next((h for h in reversed(lines[max(i - 2, 0):i]) if h.strip()), "")
        if (named := _ANY_NAME_RE.search(head)) is not None:
            return (f"needs two before a check holds ({named.group('name')} is false for a single one: {m.group('count')} > 1): "
                    f"{cut_quote(line.strip())}")
    return None


# ----- Go's failure let through unless another clause holds
_ERR_AND_RE = re.compile(r"^\s*if\s+(?P<err>err\w*|\w*[eE]rr)\s*!=\s*nil\s*&&\s*(?P<clause>[^{]+?)\s*\{\s*$")
_RETURNS_RE = re.compile(r"^\s*(?:return\b|panic\(|log\.Fatal)")


def _error_let_through(added: Sequence[str]) -> str | None:
    lines = added[:_LINES]
    for i, head in enumerate(lines[:-1]):
        m = _ERR_AND_RE.match(head) if "!= nil" in head and len(head) <= _LONG else None
        if m is None or re.search(rf"\b{re.escape(m.group('err'))}\b|\berrors?\.|\bos\.Is", m.group("clause")):
            continue
        if "||" in m.group("clause") or not _RETURNS_RE.match(lines[i + 1]):
            continue
        return (f"lets a failure pass unless another condition holds ({m.group('err')} checked only when {m.group('clause').strip()}): "
                f"{cut_quote(head.strip())}")
    return None


# ----- an early exit in a constant-time compare
# ``return std::memcmp(buf, mask, count) == 0;`` put at the top of Crypto++'s ``VerifyBufsEqual`` (blind 88): the compare
# now stops at the first differing byte, and how long it takes tells an attacker how much of a MAC was right.
_CONSTANT_TIME_DEF_RE = re.compile(r"(?i)\b\w*(?:VerifyBufsEqual|constant_?time\w*|const_?time\w*|ct_?(?:eq|equal|compare)\w*|"
                                   r"timing_?safe\w*|secure_?(?:compare|equals?)\w*|fixed_?time\w*|safe_?(?:str)?(?:cmp|compare|equals?))\s*\(")
_EARLY_EXIT_RE = re.compile(r"^\s*return\s+(?:std::)?(?:memcmp|strcmp|strncmp|bcmp|bytes\.Equal|Arrays\.equals|[\w.]+\s*===?\s*[\w.]+\s*;?$)")
_DEF_RE = re.compile(r"^\s*(?:(?:static|inline|bool|int|public|private|func|fn|def|function|export|const|pub)\b|\w[\w:<>*&\s]*\s[\w:]+\s*\()")


def _early_exit(added: Sequence[str]) -> str | None:
    lines = added[:_LINES]
    for i, line in enumerate(lines):
        if "return" not in line or not _EARLY_EXIT_RE.match(line):
            continue
        head = next((h for h in reversed(lines[max(i - 12, 0):i]) if _DEF_RE.match(h) and "(" in h), None)
        if head is not None and (m := _CONSTANT_TIME_DEF_RE.search(head)) is not None:
            return f"adds an early exit to a constant-time compare ({m.group().rstrip('( ')} stops at the first difference: a timing leak): {cut_quote(line.strip())}"
    return None


# ----- a secret made and cut to a few characters in new code
# ``return secrets.token_urlsafe(32)[:4]`` in a new ``generate_csrf_token`` (blind 79's fastapi-users; the pair is
# relay.review.weakened_values'): four characters of a CSRF token are guessed. A uuid cut short is an id, quiet.
_SECRET_MADE_RE = re.compile(r"\b(?:token_(?:urlsafe|hex|bytes)|os\.urandom|randomBytes|random_bytes|SecureRandom|get_random_string|getrandom)\b")
_CUT_RE = re.compile(r"\[\s*0?\s*:\s*(?P<a>\d+)\s*\]|\.(?:substring|substr|slice|subarray)\(\s*0\s*,\s*(?P<b>\d+)\s*\)|\[\s*0?\s*\.\.=?\s*(?P<c>\d+)\s*\]")
_FEW = 6  # characters a secret is cut to that are guessed


def _secret_cut_short(added: Sequence[str]) -> str | None:
    for line in added[:_LINES]:
        if len(line) > _LONG or (made := _SECRET_MADE_RE.search(line)) is None:
            continue
        m = _CUT_RE.search(line, made.end())
        if m is not None and int(m.group("a") or m.group("b") or m.group("c")) <= _FEW:
            return f"cuts a generated secret short ({m.group().strip()}: a few characters, guessable): {cut_quote(line.strip())}"
    return None


# ----- a refusal of any false value narrowed to None
# ``if not self._recurse:`` → ``if self._recurse is None:`` (blind 88's asyncssh: a directory a server sends unasked was
# refused while recursion was off; now only when it was never set). ``if (!x)`` → ``if (x == null)`` the same.
_FALSY_RE = re.compile(r"^\s*(?:if|elif|unless|else\s+if|while)\s*\(?\s*(?:not\s+|!\s*)(?P<x>[\w.$\[\]'\"]+)\s*\)?\s*(?::|\{|then)?\s*$")
_NONE_RE = re.compile(r"^\s*(?:if|elif|unless|else\s+if|while)\s*\(?\s*(?P<x>[\w.$\[\]'\"]+)\s*(?:is\s+None|===?\s*(?:null|undefined|nil)|\.nil\?)\s*\)?\s*(?::|\{|then)?\s*$")


def _falsy_narrowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {m.group("x"): line for line in removed[:_PAIRS * 5] if "not" in line or "!" in line if (m := _FALSY_RE.match(line))}
    for new in added[:_PAIRS * 5] if olds else ():
        if (m := _NONE_RE.match(new)) is not None and (old := olds.get(m.group("x"))) is not None:
            return (f"narrows a check from any false value to a missing one only ({m.group('x')}: False, 0 and empty now pass): "
                    f"{paired_quote(old, new)}")
    return None


# ----- a dependency's name respelled by one letter
_DEPENDS_RE = re.compile(r"(?i)\b(?:add_(?:runtime_|development_)?dependency|gem|require|install|implementation|api|compile|"
                         r"dependencies|requires?|packages?|pip|npm|yarn|cargo|go\s+get)\b")
_NAME_RE = re.compile(r"[\"']([A-Za-z][\w.-]{2,60})[\"']")
_POPULAR = frozenset(name.lower() for name in POPULAR_PACKAGES)


def _one_letter(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter doubled, dropped, changed or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _dependency_respelled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed[:_PAIRS] if _DEPENDS_RE.search(line) and _NAME_RE.search(line)]
    for new in [line for line in added[:_PAIRS] if _DEPENDS_RE.search(line)] if olds else ():
        for old in olds:
            a, b = _NAME_RE.findall(old), _NAME_RE.findall(new)
            turned = [(x, y) for x, y in zip(a, b) if x != y]
            # A widely used package is no squat's name (toml → tomli, blind 105's Box: a real successor).
            if len(a) == len(b) and len(turned) == 1 and len(turned[0][0]) >= 4 and _one_letter(*turned[0]) \
                    and _NAME_RE.sub('""', old).strip() == _NAME_RE.sub('""', new).strip() and turned[0][1].lower() not in _POPULAR:
                x, y = turned[0]
                return f"swaps a dependency for a look-alike name ({x} → {y}: a typosquatted package?): {paired_quote(old, new)}"
    return None


# ----- a per-user folder under the shared temp dir made one for all users
_TEMP_RE = re.compile(r"(?i)gettempdir\(|tempfile\.|\btmpdir\(|os\.tmpdir\(|TMPDIR|/tmp\b|GetTempPath|temp_dir\(|TempDir\(")
_USER_PART_RE = re.compile(r"(?i)\b(?:os\.)?gete?uid\(\)|\$\{?UID\}?|\$\{?USER\}?|getpass\.getuser\(\)|getuser\(\)|userInfo\(\)\.\w+|"
                           r"\{(?:uid|user(?:name)?)\}|Environment\.UserName|whoami")


def _temp_made_shared(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed[:_PAIRS] if _TEMP_RE.search(line) and _USER_PART_RE.search(line)]
    for new in [line for line in added[:_PAIRS] if _TEMP_RE.search(line) and not _USER_PART_RE.search(line)] if olds else ():
        for old in olds:
            found = one_replace(old, new)
            if found and found[1] and not found[2] or found and _USER_PART_RE.search("".join(found[1])) and len(found[2]) <= 2:
                part = _USER_PART_RE.search(old).group()
                return (f"makes a per-user folder under the shared temp dir one for every user ({part} dropped: another user may "
                        f"create it first): {paired_quote(old, new)}")
    return None


# ----- a value returned without the check it passed
# ``return eci == null || eci.isCharsetSupported() ? eci : null;`` → ``return eci;`` (blind 88's zxing).
_CHECKED_RETURN_RE = re.compile(r"^\s*return\s+(?P<cond>.+?)\s*\?\s*(?P<x>[\w.$]+)\s*:\s*(?:null|nil|None|undefined|false)\s*;?\s*$|"
                                r"^\s*return\s+(?P<px>[\w.]+)\s+if\s+(?P<pcond>.+?)\s+else\s+None\s*$")


def _check_unreturned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {(m.group("x") or m.group("px")): (line, m.group("cond") or m.group("pcond"))
            for line in removed[:_PAIRS * 5] if "return" in line and (m := _CHECKED_RETURN_RE.match(line))}
    for new in added[:_PAIRS * 5] if olds else ():
        m = re.match(r"^\s*return\s+(?P<x>[\w.$]+)\s*;?\s*$", new)
        if m is not None and (hit := olds.get(m.group("x"))) is not None:
            return f"returns a value without the check it passed ({cut_quote(hit[1])}): {paired_quote(hit[0], new)}"
    return None


# ----- opposite branches under one guard
# ``if s._then != nil && result.Valid() {`` … ``if s._else != nil && result.Valid() {`` (blind 86's gojsonschema, new code:
# the else schema was applied when the if schema passed). Two branches named for opposite outcomes, written a few lines
# apart with the same test: one of them lost its negation.
_OPPOSITES = {"then": "else", "success": "failure", "succeeded": "failed", "valid": "invalid", "pass": "fail", "true": "false",
              "accept": "reject", "allow": "deny", "match": "mismatch"}
_OPPOSITE_RE = re.compile(r"(?i)(?<![A-Za-z])(" + "|".join(sorted({*_OPPOSITES, *_OPPOSITES.values()}, key=len, reverse=True)) + r")(?![a-z])")
_IF_RE = re.compile(r"^\s*(?:if|elif|else\s+if|\}\s*else\s+if)\b")
_TWIN_GAP = 15


def _opposite_key(line: str) -> tuple[str, tuple[str, ...]] | None:
    """The line with its outcome words blanked, and which outcomes they were, in order (None if it names none)."""
    words = tuple(m.group(1).lower() for m in _OPPOSITE_RE.finditer(line))
    return (_OPPOSITE_RE.sub("@", line).strip(), words) if words else None


def _twin_guards(added: Sequence[str]) -> str | None:
    lines = added[:_LINES]
    heads = [(i, line, key) for i, line in enumerate(lines)
             if len(line) <= _LONG and ("&&" in line or " and " in line) and _IF_RE.match(line) and (key := _opposite_key(line)) is not None]
    for (i, a, ka), (j, b, kb) in zip(heads, heads[1:]):
        turned = [(x, y) for x, y in zip(ka[1], kb[1]) if x != y]
        if j - i > _TWIN_GAP or ka[0] != kb[0] or len(turned) != 1:
            continue
        x, y = turned[0]
        if _OPPOSITES.get(x) == y or _OPPOSITES.get(y) == x:
            return f"tests opposite branches ({x} / {y}) under the same condition (one lost its negation?): {cut_quote(b.strip())}"
    return None


def read_last(added: Sequence[str], removed: Sequence[str], path: str) -> tuple[str, bool] | None:
    """The first of these slips the edit makes, with whether it is classic (high)."""
    for found in (_failure_answered_yes(added), _early_exit(added), _secret_cut_short(added), send_for_any(added), _dependency_respelled(added, removed),
                  _temp_made_shared(added, removed), unsigned_algorithm(added, removed), size_past_buffer(added), import_respelled(added, removed),
                  containment_widened(added, removed), radix_turned(added, removed)):  # round 87: a containment root made its parent (globby), a radix turned (tar-stream)
        if found:
            return found, True
    # Rounds 81–87: a check turned, a bound moved, a verdict read from the wrong thing, a turn that loosens, a reach widened, a
    # literal put in (high ones here, the rest below).
    slips = [found for found in (check_slip(added, removed), bound_slip(added, removed), verdict_slip(added, removed), turn_slip(added, removed, path),
                                          reach_slip(added, removed, path), literal_slip(added, removed, path), match_slip(added, removed),
                                          verify_slip(added, removed), classic_slip(added, removed),  # rounds 88, 89
                                          swap_slip(added, removed), written_slip(added, removed, path)) if found]  # round 92
    if (high := next((found for found in slips if found[1]), None)) is not None:
        return high
    checked = slips[0] if slips else None
    if (slip := pair_slip(added, removed)) is not None and slip[1]:
        return slip
    for found in (scaled_turned(added, removed, path), never_true_in_loop(added) or loop_step_changed(added, removed) or past_end_in_loop(added), _error_let_through(added), _one_not_enough(added),
                  offset_moved(added, removed), compared_text_spaced(added, removed), _falsy_narrowed(added, removed),
                  _check_unreturned(added, removed), _twin_guards(added), emptiness_widened(added, removed),
                  match_made_prefix(added, removed), case_flag_dropped(added, removed),
                  length_below_zero(added), negative_let_through(added, removed), held_or_mixed(added, removed),
                  dropped_safety(added, removed, path), answer_slip(added, removed, path), list_from_two(added),
                  checked[0] if checked else None, bound_moved_by_one(added, removed), index_moved_by_one(added, removed),
                  past_bound_by_one(added)):
        if found:
            return found, False
    return slip


def read_last_sample(added: Sequence[str], removed: Sequence[str], path: str) -> tuple[str, bool] | None:
    """The slips read last in a docs page's sample lines, with whether it is classic (high): a module path's owner
    respelled (round 84: survey's README, a Go import; its own shape, read without the sample filter) or a random salt made a
    literal (round 85), and worth a look, a
    Python check by identity with a literal (round 71: graphene's middleware page), a static route's folder made the
    working folder (round 79: starlette's ``directory='.'``), a token's algorithm made "none" (round 80)."""
    code, was = sample_lines(added), sample_lines(removed)
    if (squat := import_respelled(added, removed) or random_made_literal(code, was) or secret_made_literal(code, was)
            or cost_made_minimum(code, was) or verify_given_none(code, was) or classic_sample_slip(code, was, added, removed)  # 88, 89
            or escape_dropped(added, removed) or import_lookalike(added, removed) or opened_up(code) or classic_written(added) or digit_lookalike(added) or link_lookalike(added) or cookie_unsigned(code)  # rounds 92-98, 109
            or key_made_literal(code, was) or unguarded_swap(code, was) or guard_unlisted(added, removed) or protection_dropped(code, was, path, (added, removed))
            or permission_widened(code, was) or host_made_wildcard(added, removed) or bits_given_bytes(code, was) or pam_deny_permitted(added, removed)
            or random_fill_commented(added, removed)) is not None:  # rounds 95-99, 110; 121b: django-silk's ``is_allowed_to_use_silk`` → ``is_authenticated``
        return squat, True  # round 85: crypto-es's README, a random salt made "crypto-es-salt"; round 87: fernet-rb's, a key made a literal
    found = (identity_literal(added, removed, path, docs=True) or static_root_widened(code, was)
             or unsigned_algorithm(code, was) or durability_off(code)  # round 80: kataras/jwt's README, jwt.HS256 → jwt.NONE; 87: buntdb's Never
             or tracing_secrets(added, removed, path) or (grown[0] if (grown := unit_grown(code, was)) else None) or worth_a_look(added, removed, path)  # rounds 92, 93, 110
             or _falsy_narrowed(added, removed) or turned_worth_a_look(added, removed) or exit_commented_out(added, removed)
             or equality_narrowed(code, was) or where_widened(added, removed) or size_grown(code, was))  # 122c: go-cid's ``c1.Equals(c2)`` → ``…Prefix()``; 122e: proftpd's AND → OR  # round 118 (121b: PHPAuth's ``// exit();``; and 118b's marp-cli ``-s ./slides`` → ``-s /``): curio's README, ``if not data:`` → ``if data is None:`` (an empty read never ends the loop)
    # round 124c: rustic's README ``cargo install --locked rustic-rs`` → ``cargo install rustic-rs`` (a reader's install takes
    # whatever versions resolve now)
    found = found or dropped_safety_flag(added, removed)  # a page's command, in a block or a sentence's code
    return (found, False) if found else reach_pair(added, removed)  # round 124b: datasette-cors' README, ``*.example.com`` → ``*example.com``
