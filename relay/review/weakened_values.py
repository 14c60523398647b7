"""Values that weaken a check without touching its logic (issue 36, round 28 part B).

The first runs of held-out 37 and 38 left such lines unnamed or low: an argon2 ``Memory: 64 * 1024`` cut to ``64``, a
key compared by its first four bytes (``ConstantTimeCompare(key[:4], other[:4])``), a TOTP period multiplied by 60, a
reply's ``valid`` flag read for its presence (``dig('valid')`` → ``key?('valid')``), a score or an audience let through
when missing (``score.nil? ||``, ``|| aud === undefined``). Each reader here wants the line's own shape and says what
the turn lets happen:

- a strength parameter cut: a password hash's memory, iterations, rounds or cost, a key, nonce, salt or tag length, by
  its name (``memory``, ``iterations``, ``cost``, ``keyLength``…) with a number on both sides, or a number in a call of a
  password hash (``bcrypt.GenerateFromPassword(pw, 12)``, ``pbkdf2_hmac(…, 100000)``, ``gensalt(rounds=12)``) made smaller;
- a validity window widened: a one-time code's or a token's ``period``, ``window``, ``leeway``, ``skew``, ``tolerance``
  made larger or multiplied (``getPeriod() * 60``);
- a secret compared by its prefix: a slice added to a compare of a hash, digest, key, MAC, signature or token
  (``a[:4] ==``, ``.substring(0, 8)``, ``[..4]``), or an equality turned into ``HasPrefix`` / ``startsWith``;
- a value checked for its presence: ``x['ok']`` / ``x.get('ok')`` / ``x&.dig('ok')`` → ``'ok' in x`` / ``x.key?('ok')``
  / ``isset($x['ok'])`` / ``x.containsKey("ok")``…: a false value passes;
- a missing value let through a check: ``x.nil? ||``, ``x == null ||``, ``x is None or``, ``|| x === undefined``, ``??
  Infinity`` added where the line compares it.
- a new default below any floor (round 70): PBKDF2's iterations under 1,000, bcrypt's cost under 8, written with no old
  value to pair with (blind 98's pkcs8: ``IterationCount: 10,`` where the commit had moved the defaults);
- a match arm's result turned from a refusal to a grant, its pattern kept (``=> Self::ExplicitNoCa`` → ``=>
  Self::Ca(…)``, ``-> Result.Invalid`` → ``-> Result.Valid``, Elixir's ``do: {:error, …}`` → ``do: :ok``).

The party guarded against is a worker that slips one such value into an ordinary change. Tests' own code stays quiet
(the row's scope); a cost raised, a window narrowed, a slice on a name that is no secret, a presence check the old line
made too, stay quiet.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from typing import TYPE_CHECKING

from relay.core.contracts import FileChange
from relay.review.line_shapes import Screen, alike, clipped, squeezed, window

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["SCREENS", "WEAKENED_EXAMPLE", "weakened_check", "weakened_value"]

_SHOWN = 64
_MOST = 200  # lines a side read: linear, bounded
_LONG = 300  # a longer line is a bundle's, not one a worker slips in


def _quote(line: str) -> str:
    return clipped(line, _SHOWN)


# ----- a number's value: digits joined by * + << ** (a size written as 64 * 1024), nothing else
_NUMBER_RE = re.compile(r"^[\d_\s*+()<.]+$")


def _value(text: str) -> float | None:
    text = text.strip().rstrip(",;").strip()
    if not text or len(text) > 40 or not _NUMBER_RE.match(text) or not any(c.isdigit() for c in text):
        return None
    try:
        tree = ast.parse(text.replace("_", ""), mode="eval")
    except (SyntaxError, ValueError):
        return None
    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add, ast.LShift, ast.Pow)):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow) or isinstance(node.op, ast.LShift):
                if b > 64:
                    raise ValueError
                return a * 2 ** b if isinstance(node.op, ast.LShift) else a ** b
            return a * b if isinstance(node.op, ast.Mult) else a + b
        raise ValueError
    try:
        return ev(tree.body)
    except (ValueError, OverflowError, RecursionError):
        return None


# ----- a named value: ``name: v``, ``name = v``, ``'name' => v``, ``"name": v``, ``name := v``, ``WithName(v)``
_NAMED_RE = re.compile(r"""^\s*(?:(?:const|let|var|val|static|final|private|public|int|uint\d*|u\d+|usize|i\d+)\s+)*["']?(?P<name>[A-Za-z_$][\w$]*)["']?\s*"""
                       r"""(?:\s*:\s*[A-Za-z]\w*\s*)?(?::=|=>|=(?!=)|:)\s*(?P<value>[^,;#/]+?)\s*[,;]?\s*(?:(?://|#).*)?$""")
_OPTION_RE = re.compile(r"""\b(?:With|with_?|set_?|Set)(?P<name>[A-Za-z]\w*)\s*\(\s*(?P<value>[\d_\s*+<]+)\)""")
# Names whose number sets how hard a secret is to guess or to brute-force: lowered, the check weakens.
_STRENGTH = {
    "memory": "memory", "mem": "memory", "memorycost": "memory", "mcost": "memory", "memlimit": "memory", "memorykib": "memory",
    "iterations": "iterations", "iteration": "iterations", "iter": "iterations", "iters": "iterations", "itercount": "iterations", "iterationcount": "iterations",
    "opslimit": "iterations", "timecost": "iterations", "tcost": "iterations", "time": "iterations", "rounds": "rounds",
    "logrounds": "rounds", "saltrounds": "rounds", "cost": "cost", "workfactor": "cost", "bcryptcost": "cost",
    "keylen": "key length", "keylength": "key length", "keysize": "key length", "keybits": "key length", "keybytes": "key length",
    "dklen": "key length", "derivedkeylength": "key length", "hashlen": "hash length", "hashlength": "hash length",
    "noncelen": "nonce length", "noncelength": "nonce length", "noncesize": "nonce length", "ivlen": "nonce length", "ivsize": "nonce length",
    "saltlen": "salt length", "saltlength": "salt length", "saltsize": "salt length", "saltbytes": "salt length",
    "taglen": "tag length", "taglength": "tag length", "tagsize": "tag length", "macsize": "tag length", "modulusbits": "key length",
    "rsabits": "key length", "digits": "code length", "codelength": "code length", "otplength": "code length",
}
# Words that put a bare ``time`` / ``n`` / ``digits`` on a password hash or a one-time code (not a timeout or a counter).
_KDF_WORDS_RE = re.compile(r"(?i)argon2|scrypt|bcrypt|pbkdf2|hashpw|gensalt|GenerateFromPassword|Rfc2898|deriveKey|"
                           r"password_hash|passlib|\bkdf\b|hash_?password|password_?hash|libsodium|crypto_pwhash|\b[th]otp\b|otp|2fa|mfa")
_NEEDS_CONTEXT = {"time", "digits", "n", "cost", "mem", "iter", "memory"}
# Names whose number sets how long a one-time code or a token stays good: raised, more codes pass.
_WINDOW = {"period", "window", "leeway", "skew", "clockskew", "drift", "tolerance", "validwindow", "stepwindow", "allowedskew",
           "maxskew", "timestep", "step", "interval", "validfor", "validity", "lifetime", "expiry", "expiresin", "ttl",
           "discrepancy"}  # round 124d: java-totp's README ``setAllowedTimePeriodDiscrepancy(2)`` → ``(20)``
_SUFFIXES = tuple(sorted((k for k in (*_STRENGTH, *_WINDOW) if len(k) >= 6), key=len, reverse=True))
_WINDOW_CONTEXT_RE = re.compile(r"(?i)\b[th]?otp|totp|hotp|2fa|mfa|two_?factor|jwt|\btoken|nonce|leeway|skew|one.?time|discrepancy")


def _norm(name: str) -> str:
    """A name as the tables hold it: lower case, no separators, a longer name by its last word (``PBKDF2_ITERATIONS``)."""
    key = re.sub(r"[_$-]", "", name.lower())
    if key in _STRENGTH or key in _WINDOW:
        return key
    return next((k for k in _SUFFIXES if key.endswith(k)), key)


# A default given after the caller's value (``epochTolerance: options.epochTolerance ?? 1800``, blind 90's otplib): the
# number is the value the option takes when the caller sets none.
_DEFAULTED_RE = re.compile(r"^[\w.$?\[\]'\"]+\s*(?:\?\?|\|\||\bor\b)\s*(?P<n>\d[\d_.]*)\s*$")


def _named(line: str) -> tuple[str, str] | None:
    if (m := _NAMED_RE.match(line)) or (m := _OPTION_RE.search(line)):
        value = m.group("value")
        return m.group("name"), (d.group("n") if (d := _DEFAULTED_RE.match(value.strip())) else value)
    return None


def _strength_cut(added: Sequence[str], removed: Sequence[str], context: bool, window: bool) -> str | None:
    before: dict[str, tuple[str, float]] = {}
    for old in removed:
        if (found := _named(old)) and (v := _value(found[1])) is not None:
            before.setdefault(_norm(found[0]), (found[1].strip(), v))
    if not before:
        return None
    for new in added:
        if not (found := _named(new)) or (v := _value(found[1])) is None:
            continue
        key = _norm(found[0])
        if key not in before:
            continue
        old_text, old_v = before[key]
        if key in _STRENGTH and v < old_v and (key not in _NEEDS_CONTEXT or context):
            what = _STRENGTH[key]
            where = "the hash" if what in ("memory", "iterations", "rounds", "cost") else "a secret"
            return f"weakens {where}: {found[0]} {old_text} → {found[1].strip()} ({what} cut {old_v / max(v, 1):g}×), cheaper to guess: {_quote(new)}"
        if key in _WINDOW and v > old_v and window:
            return f"widens how long a code or token stays good: {found[0]} {old_text} → {found[1].strip()} ({v / max(old_v, 1):g}×): {_quote(new)}"
    return None


# ----- a new default below any floor: PBKDF2's iterations under 1,000, bcrypt's cost under 8 (round 70, blind 98's pkcs8:
# ``IterationCount: 10,`` written where the commit moved the defaults, no old value on the file's other side to pair with)
_PBKDF2_RE = re.compile(r"(?i)pbkdf2|Rfc2898|PBKDF")
_BCRYPT_RE = re.compile(r"(?i)bcrypt")
_FLOORS = {"iterations": (_PBKDF2_RE, 1000, "PBKDF2's iterations"), "cost": (_BCRYPT_RE, 8, "bcrypt's cost"),
           "rounds": (_BCRYPT_RE, 8, "bcrypt's cost")}


def _below_floor(added: Sequence[str], removed: Sequence[str], lines: str) -> str | None:
    had = {_norm(found[0]) for old in removed if (found := _named(old))}
    for new in added:
        if not (found := _named(new)) or (v := _value(found[1])) is None or (key := _norm(found[0])) in had:
            continue
        if not re.search(r"\w['\"]?\s*(?::|=>)\s*['\"]?\d", new):
            continue  # a default's key (``IterationCount: 10,``), not an assignment (bcrypt.js's own clamp ``rounds = 4;``)
        floor = _FLOORS.get(_STRENGTH.get(key, ""))
        if floor and floor[0].search(lines) and not re.search(r"(?i)argon|scrypt", new) and 0 < v < floor[1]:
            return f"weakens the hash: sets {floor[2]} to {found[1].strip()} (under {floor[1]:,}: cheap to brute-force): {_quote(new)}"
    return None


# A hash's work given as a small keyword argument in a call on a password or a login (round 120c, held-out 498's scramp
# README: ``m.make_auth_info(PASSWORD)`` → ``make_auth_info(PASSWORD, iteration_count=1)``): one iteration where the
# library's default was thousands, so a stolen verifier is cheap to brute-force. A cost or rounds floor is bcrypt's 8.
_KEYWORD_WORK_RE = re.compile(r"(?i)[(,]\s*(?P<name>iteration_?count|iterations?|iters|(?:log_?|salt_?)?rounds|cost|work_?factor)\s*=\s*(?P<v>\d{1,3})(?![\w.])")
_ON_A_SECRET_RE = re.compile(r"(?i)passw|auth|kdf|pbkdf|bcrypt|scram|hash|derive|credential")


def _keyword_below_floor(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line) for line in removed}
    for new in added:
        if (m := _KEYWORD_WORK_RE.search(new)) is None or squeezed(new) in before or not _ON_A_SECRET_RE.search(new[:m.start()]):
            continue
        floor = 1000 if m.group("name").lower().startswith("iter") else 8
        if 0 < int(m.group("v")) < floor:
            lead = len(new) - len(new.lstrip())
            shown = window(new.strip(), m.start("name") - lead, m.end() - lead, _SHOWN, lead=12)
            return f"weakens the hash: {m.group('name')}={m.group('v')} (under {floor:,}: cheap to brute-force): {shown}"
    return None


# ----- a number in a password hash's call made smaller (``GenerateFromPassword(pw, 12)`` → ``…, 4)``), or its named cost
_KDF_CALL_RE = re.compile(r"(?i)argon2|scrypt|bcrypt|pbkdf2|hashpw|gensalt|GenerateFromPassword|Rfc2898DeriveBytes|deriveKey|password_hash|crypt_?pwhash|hash_?password")
_DIGITS_RE = re.compile(r"(?<![\w.])\d[\d_]*(?![\w.])")
_COST_NAMES_RE = re.compile(r"\b(?:bcrypt\.)?(?:DefaultCost|MaxCost)\b")


def _spaced(line: str) -> str:
    return " ".join(line.split())


def _call_number_cut(added: Sequence[str], removed: Sequence[str]) -> str | None:
    shapes: dict[str, str] = {}
    for old in removed:
        if _KDF_CALL_RE.search(old):
            shapes.setdefault(_DIGITS_RE.sub("#", _spaced(old)), old)
    if not shapes:
        return None
    for new in added:
        if not _KDF_CALL_RE.search(new):
            continue
        old = shapes.get(_DIGITS_RE.sub("#", _spaced(new)))
        if old is None:
            # A named cost turned to the least (``bcrypt.DefaultCost`` → ``bcrypt.MinCost``).
            if "MinCost" in new and any(_COST_NAMES_RE.search(o) for o in removed if "MinCost" not in o):
                return f"weakens the hash: its cost set to the least (MinCost), cheaper to guess: {_quote(new)}"
            continue
        olds, news = _DIGITS_RE.findall(_spaced(old)), _DIGITS_RE.findall(_spaced(new))
        for a, b in zip(olds, news):
            if a != b:
                va, vb = float(a.replace("_", "")), float(b.replace("_", ""))
                if vb < va:
                    return f"weakens the hash: a cost in its call {a} → {b} ({va / max(vb, 1):g}× cheaper to guess): {_quote(new)}"
                break
    return None


# ----- a window multiplied where it is read (``getPeriod()`` → ``getPeriod() * 60``)
_WINDOW_READ_RE = re.compile(r"(?i)(?:\b|_|get|\.)(?:period|window|leeway|skew|drift|tolerance|time_?step|valid_?for|lifetime|expir\w*)\w*(?:\(\s*\))?\s*$")
_TIMES_RE = re.compile(r"\s*(?:\*|<<)\s*\d[\d_]*")


def _window_multiplied(added: Sequence[str], removed: Sequence[str], window: bool) -> str | None:
    if not window:
        return None
    before = {squeezed(ln) for ln in removed}
    for new in added:
        for m in _TIMES_RE.finditer(new):
            head = new[:m.start()]
            read = _WINDOW_READ_RE.search(head[-48:])
            if read is None:
                continue
            if squeezed(head + new[m.end():]) in before:
                return f"widens how long a code or token stays good: {read.group(0).strip()} multiplied ({m.group(0).strip()}): {_quote(new)}"
    return None


# ----- a secret compared by its prefix
_SECRET_RE = re.compile(r"(?i)hash|digest|key|\bmac\b|hmac|signature|\bsig\b|token|secret|checksum|\botp\b|password|passwd|nonce|tag\b")
_COMPARES_RE = re.compile(r"==|!=|\bequals?\b|Equal\s*\(|[Cc]ompare\w*\s*\(|compare_digest|timingSafeEqual|secure_compare|hash_equals|"
                          r"\beq\b|\.eq\(|assert_eq|\bif\b|\breturn\b")
_SLICE_RE = re.compile(r"\[\s*0?\s*:\s*\d+\s*\]|\[\s*(?:0\s*)?\.\.=?\s*\d+\s*\]|\[\s*0\s*\.\.\.?\s*\d+\s*\]|"
                       r"\.(?:substring|substr|slice|Substring|subarray|subSequence)\(\s*0\s*,\s*\d+\s*\)|\.(?:prefix|take|Take|first)\(\s*\d+\s*\)|"
                       r"\[\s*0\s*,\s*\d+\s*\]|\.get\(\s*\.\.\d+\s*\)")
# A random secret made on the line (``secrets.token_urlsafe(32)[:4]``, blind 79's fastapi-users): a return or an
# assignment of it cut is a short token, not a compare (the ``return`` that ``_COMPARES_RE`` reads as one).
_RANDOM_MADE_RE = re.compile(r"\b(?:token_(?:urlsafe|hex|bytes)|os\.urandom|randomBytes|random_bytes|randomUUID|uuid4|SecureRandom|"
                             r"get_random_string|rand\.Read|getrandom)\b")
_COMPARED_RE = re.compile(r"==|!=|\bequals?\b|Equal\s*\(|[Cc]ompare\w*\s*\(|compare_digest|timingSafeEqual|secure_compare|hash_equals|\.eq\(")
_PREFIX_CALL_RE = re.compile(r"\b(?:HasPrefix|hasPrefix|startsWith|StartsWith|start_with\?|starts_with|startswith)\b")


def _prefix_compare(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(ln) for ln in removed}
    for new in added:
        if not _SECRET_RE.search(new) or not _COMPARES_RE.search(new):
            continue
        if (m := _SLICE_RE.search(new)) and squeezed(_SLICE_RE.sub("", new)) in before:
            if _RANDOM_MADE_RE.search(new[:m.start()]) and not _COMPARED_RE.search(new):  # a token made, not compared (round 56)
                return f"cuts a generated secret short ({m.group(0).strip()}: a few characters, guessable): {_quote(new)}"
            return f"compares a secret by its prefix only ({m.group(0).strip()}): a value matching its first bytes passes: {_quote(new)}"
        if (p := _PREFIX_CALL_RE.search(new)) and any(_SECRET_RE.search(old) and _COMPARES_RE.search(old) and not _PREFIX_CALL_RE.search(old)
                                                      and alike(old, new, 0.5) for old in removed[:_MOST]):
            return f"compares a secret by its prefix only ({p.group(0)}): a value matching its first characters passes: {_quote(new)}"
    return None


# ----- a value checked for its presence
_KEY = r"""(?P<q>['"]|:)(?P<key>\w+)['"]?"""
_VALUE_READ_RE = re.compile(r"""\[\s*['":]?(?P<key>\w+)['"]?\s*\]|\.(?:get|dig|fetch|Get|getBoolean|getString|optBoolean|value)\(\s*['":]?(?P<key2>\w+)['"]?\s*[,)]""")
_PRESENCE_RE = re.compile(r"""\.(?:key\?|has_key\?|include\?|has|hasOwnProperty|hasOwn|containsKey|ContainsKey|contains_key|has_key|Has|isset|exists?\?|member\?)\(\s*['":]?(?P<key>\w+)['"]?\s*\)|"""
                          r"""\b(?:isset|array_key_exists|Map\.has_key\?|Map\.has|Object\.hasOwn|key_exists)\s*\(\s*\$?[\w>$-]*\[?\s*['":]?(?P<key2>\w+)['"]?|"""
                          r"""['"](?P<key3>\w+)['"]\s+(?:in|not\s+in)\s+[\w.$]""")


def _keys(regex: re.Pattern[str], line: str) -> set[str]:
    return {k for m in regex.finditer(line) for k in m.groups() if k and k not in ("'", '"', ":")}


def _presence_not_value(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for new in added:
        present = _keys(_PRESENCE_RE, new)
        if not present:
            continue
        for old in removed[:_MOST]:
            read = _keys(_VALUE_READ_RE, old) & present
            if read and not (_keys(_PRESENCE_RE, old) & read) and not (_keys(_VALUE_READ_RE, _PRESENCE_RE.sub(" ", new)) & read) and alike(old, new, 0.5):
                key = sorted(read)[0]
                return f"checks that '{key}' is present, not its value: a false or empty {key} passes: {_quote(old)} → {_quote(new)}"
    return None


# ----- a missing value let through a check
_MISSING_RE = re.compile(r"""(?P<name>[\w.$>-]+?)(?:\.nil\?|\s*===?\s*(?:null|nil|undefined|None)\b|\s+is\s+None\b|\s+is\s+nil\b)\s*(?:\|\||\bor\b)|"""
                         r"""(?:\|\||\bor\b)\s*(?P<name2>[\w.$>-]+?)(?:\.nil\?|\s*===?\s*(?:null|nil|undefined|None)\b|\s+is\s+None\b)|"""
                         r"""(?:\|\||\bor\b)\s*(?:!|\bnot\s+)(?P<name3>[\w.$>-]+)\s*(?:\)|$|;)|"""
                         r"""(?P<name4>[\w.$>-]+)\s*\?\?\s*(?:Infinity|Number\.MAX_\w+|Number\.POSITIVE_INFINITY|true\b)|"""
                         r"""(?P<name5>[\w.$>-]+)\.unwrap_or\(\s*(?:true|\w+::MAX)\s*\)""")
# Every missing case let through holds one of these (spaces and case left out): a test for nothing (.nil?, ==, is None, is
# nil), a negation after an or, a ?? default, an unwrap_or. The pattern's runs of name characters are slow on a long line.
_MISSING = Screen((".nil?", "==", "isnone", "isnil", "||!", "||not", "or!", "ornot", "??", ".unwrap_or("), _MISSING_RE)
_DECIDES_RE = re.compile(r">=|<=|[^-=]>|<|===?|!==?|\breturn\b|\bif\b|\bunless\b|=>|\bvalid|\ballow|\bpass")


def _missing_passes(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for new in added:
        m = _MISSING.search(new)
        if m is None or not _DECIDES_RE.search(new):
            continue
        name = next(g for g in m.groups() if g)
        if any(squeezed(m.group(0)) in squeezed(old) for old in removed):
            continue  # the old line let it through too
        if any(name in old and alike(old, new, 0.5) for old in removed[:_MOST]) or _new_check(new, name):
            return f"passes when {name} is missing ({m.group(0).strip()}): {_quote(new)}"
    return None


# A check written new (no old line to pair with): its name says it validates, and the value is compared beside the
# missing case (``isAudienceValid = (aud, key) => … || aud === key || aud === undefined``).
_VALIDITY_RE = re.compile(r"(?i)(?:valid|verif|allow|authori[sz]|permit|trust)\w*\??\s*(?:=|\(|:)")


def _new_check(line: str, name: str) -> bool:
    if not _VALIDITY_RE.search(line):
        return False
    compared = re.compile(rf"(?<![\w.$]){re.escape(name)}\s*(?:===?|>=?|<=?)\s*(?!null\b|nil\b|undefined\b|None\b)[\w$'\"]")
    return bool(compared.search(line))


# ----- a match arm's result turned from a refusal to a grant (``Some(B { ca: false, .. }) => Self::ExplicitNoCa`` →
# ``=> Self::Ca(…)``; Elixir's ``defp check(%{verified?: false}), do: {:error, …}`` → ``do: :ok``)
_ARM_RE = re.compile(r"^\s*(?P<pat>(?:case\s+|when\s+|defp?\s+)?[^=>\n]{1,120}?)\s*(?:=>|->|,\s*do:)\s*(?P<res>.+?)\s*[,;]?\s*$")
_PART_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_REFUSES = {"no", "not", "non", "deny", "denied", "reject", "rejected", "invalid", "forbidden", "unauthorized", "false", "none",
            "err", "error", "fail", "failed", "failure", "disabled", "never", "refuse", "refused", "unverified", "untrusted"}
_GRANTS = {"ok", "allow", "allowed", "accept", "accepted", "valid", "grant", "granted", "true", "yes", "ca", "admin", "trusted",
           "enabled", "unconstrained", "authorized", "pass", "passed", "success", "verified", "permit", "permitted"}


def _parts(text: str) -> set[str]:
    return {p.lower() for p in _PART_RE.findall(text)}


# A hash or array entry (``'enable_x' => false``, ``:key => nil``) is a setting, not an arm: guard_defaults reads settings.
_ENTRY_RE = re.compile(r"""^\s*(?:(['"])[^'"]*\1|:\w+)\s*$""")


def _arm_granted(added: Sequence[str], removed: Sequence[str]) -> str | None:
    arms: dict[str, str] = {}
    for old in removed:
        if (m := _ARM_RE.match(old)) and _parts(m.group("res")) & _REFUSES and not _ENTRY_RE.match(m.group("pat")):
            arms.setdefault(_spaced(m.group("pat")), m.group("res"))
    if not arms:
        return None
    for new in added:
        if not (m := _ARM_RE.match(new)) or (was := arms.get(_spaced(m.group("pat")))) is None:
            continue
        now = _parts(m.group("res"))
        # An arm that returns (``Err(_) => return true``) is said by risky_lines: "returns success where it failed".
        if not now & _REFUSES and now & _GRANTS and not m.group("res").startswith("return"):
            return f"turns an arm's refusal into a grant ({clipped(was, 28)} → {clipped(m.group('res'), 28)}): what it refused now passes: {_quote(new)}"
    return None


def weakened_value(kind: str, added: Sequence[str], removed: Sequence[str], path: str = "") -> str | None:
    """What a value that weakens a check lets happen, with its line quoted, or None (see the module's doc)."""
    if kind not in ("source", "example", "docs", "build"):
        return None
    added = [ln for ln in added[:_MOST] if len(ln) <= _LONG]
    removed = [ln for ln in removed[:_MOST] if len(ln) <= _LONG]
    if not added:
        return None
    lines = " ".join([path, *added[:40], *removed[:40]])
    window = bool(_WINDOW_CONTEXT_RE.search(lines))
    return (_prefix_compare(added, removed) or _strength_cut(added, removed, bool(_KDF_WORDS_RE.search(lines)), window)
            or _call_number_cut(added, removed)
            or _window_multiplied(added, removed, window) or _presence_not_value(added, removed) or _missing_passes(added, removed)
            or _arm_granted(added, removed) or _below_floor(added, removed, lines) or _keyword_below_floor(added, removed)
            or _argon_memory_below_floor(added, removed, lines))


# Argon2's memory given a few KiB (round 122d, held-out 582's tauri-plugin-stronghold README: ``mem_cost: 10_000,`` →
# ``mem_cost: 8,`` in a sample the commit writes, no old value to pair with): a password hash a GPU guesses at speed.
_ARGON_MEMORY_RE = re.compile(r"(?i)\b(?P<name>mem(?:ory)?_?cost|m_?cost|memory_?(?:kib|size))\b['\"]?\s*(?::|=>|=)\s*(?P<v>\d[\d_]{0,9})(?![\w.])")


def _argon_memory_below_floor(added: Sequence[str], removed: Sequence[str], lines: str) -> str | None:
    if "rgon" not in lines:
        return None
    before = {squeezed(line) for line in removed}
    for new in added:
        if (m := _ARGON_MEMORY_RE.search(new)) is not None and squeezed(new) not in before and 0 < int(m.group("v").replace("_", "")) < 1024:
            return f"weakens the hash: gives Argon2 {m.group('v')} KiB of memory (under 1,024: cheap to brute-force): {_quote(new)}"
    return None


def weakened_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``weakens_value``)."""
    return weakened_value(f.kind, f.change.added_lines, f.change.removed_lines, f.path)


# The rule's example and its near miss: a password hash's memory cut, and raised.
WEAKENED_EXAMPLE = (
    FileChange(path="auth/argon2.go", additions=1, deletions=1, removed_lines=["\tMemory:      64 * 1024,"], added_lines=["\tMemory:      8 * 1024,"]),
    "weakens the hash: Memory 64 * 1024 → 8 * 1024 (memory cut 8×), cheaper to guess: Memory: 8 * 1024,",
    FileChange(path="auth/argon2.go", additions=1, deletions=1, removed_lines=["\tMemory:      8 * 1024,"], added_lines=["\tMemory:      64 * 1024,"]),
)


SCREENS = {"weakened_values.missing": _MISSING}  # proved by tests/test_screens.py
