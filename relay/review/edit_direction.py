"""An edit judged by its direction: does the new side weaken what the old side held? (issue 36, round 14)

A slipped line is often an edit of a line that stays ordinary to every word list: ``:crypto.strong_rand_bytes(10)`` made
``:rand.bytes(10)``, ``env('JWT_SECRET')`` given a literal fallback, ``rounds=12`` made ``rounds=5``, ``resources =
local.arns`` made ``resources = ["*"]``. The small-edit and apart quotes already show such a pair; this module says
whether its new side weakens the old one, as kinds read in every ecosystem where they exist:

- ``weak_random``: a cryptographic randomness source swapped for a general one (Python ``secrets``/``os.urandom`` →
  ``random``, Go ``crypto/rand`` → ``math/rand``, Java ``SecureRandom`` → ``Random``, .NET ``RandomNumberGenerator`` →
  ``new Random``, Ruby ``SecureRandom`` → ``rand``, PHP ``random_bytes`` → ``mt_rand``, Erlang/Elixir
  ``:crypto.strong_rand_bytes`` → ``:rand``, Rust ``OsRng`` → a seeded rng, JS ``crypto.getRandomValues`` →
  ``Math.random``), in a pair of lines that are one edit;
- ``secret_default``: a literal fallback given to a read of a secret-named setting (``env('X_SECRET', 'lit')``,
  ``os.getenv("SECRET_KEY", "…")``, ``ENV.fetch("…TOKEN") { "…" }``, ``process.env.API_KEY || "…"``, ``System.getenv(…)
  ?: "…"``, Go's ``if v == "" { v = "…" }``). Whatever the literal looks like, it is the secret wherever the setting is
  unset; an empty literal stays quiet (it is the "unset" marker configs write: Laravel's own ``env('DB_PASSWORD', '')``);
- ``lowered_parameter``: a security parameter's number lowered in place (rounds, cost, work factor, iterations, key
  size, salt length), or a default for it removed while the parameter is still read;
- ``wildcard_policy``: an access policy's named resources, actions or addresses replaced by a wildcard (``resources =
  ["*"]``, ``0.0.0.0/0``), or an action or principal written as ``"*"``;
- ``permissive_switch``: a switch whose name says lenient, permissive, relaxed, insecure or unsafe turned on or given
  ``= true`` as its default where it had none;
- ``pin_dropped``: an exact match loosened: an Elixir/Erlang pin ``^value`` made a free variable, ``===`` made ``==``
  in a condition;
- ``config_in_message``: configuration, credentials or the environment put into a message, log line or error
  (``inspect(repo.config())`` where ``inspect(repo)`` stood, ``ENV.to_h`` logged, ``"#{key}=#{value}"`` over the env).

- ``lifetime_raised``: how long a token, session or link stays valid made unbounded or ten times longer;
- ``unchecked_twin``: a checking call swapped for its unchecked or unsafe twin (``from_utf8`` → ``from_utf8_unchecked``,
  ``Buffer.alloc`` → ``Buffer.allocUnsafe``, ``safeLoad`` → ``load``);
- ``credential_logged``: a credential written to a log line as a value (an argument, an interpolation), not as a word.

Last, where no pair says anything: a check that code the change itself adds writes so it cannot decide, read from the
added lines alone (``relay.review.alone_lines``, round 25), worth a look.

The kinds worth a look (a permissive switch, a pin, configuration or a credential in a message, a lifetime, an unchecked
twin) live in ``relay.review.loosening_edits``. Where it reads (the rule rows, a test's support code, docs pages, look-alike hosts) is ``relay.review.edit_places``.
``judged`` returns the first kind found as ``(reason, classic)``: classic kinds (weak random, a literal secret, a
wildcard policy, a lowered parameter) decide high, the others medium; each reason quotes the pair ``A → B``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from relay.review.unconditioned_lines import unconditioned
from relay.review.alone_lines import read_alone
from relay.review.constant_random import made_constant
from relay.review.dropped_alternatives import alternative_dropped, refusal_narrowed
from relay.review.lost_results import final_dropped, lost_result
from relay.review.narrowed_compare import fields_dropped
from relay.review.flipped_lines import flipped
from relay.review.docs_samples import sample_lines
from relay.review.guard_defaults import action_made_opt_in, guard_default_turned
from relay.review.loosened_lines import loosened
from relay.review.edit_turns import turned
from relay.review.overridden_turns import overridden_turned
from relay.review.last_readers import read_last, read_last_sample
from relay.review.subtle_turns import subtle_turned
from relay.review.vanishing_checks import check_vanished
from relay.review.setting_turns import setting_turned
from relay.review.line_shapes import Screen, squeezed, window
from relay.review.small_edits import centred
from relay.review.loosening_edits import config_in_message, credential_logged, lifetime_raised, permissive_switch, pin_dropped, similar, unchecked_twin

__all__ = ["SCREENS", "judged", "judgements", "secret_default_pair"]

_SHOWN = 60

# ----- randomness: where the values come from
_STRONG_RE = re.compile(r"\bsecrets\.\w+|\bos\.urandom\b|\bSystemRandom\b|[\"']crypto/rand[\"']|\bcrypto\.(?:randomBytes|getRandomValues|randomUUID|randomInt)\b|"
    r"\brandomBytes\b|\bgetRandomValues\b|\bSecureRandom\b|\bRandomNumberGenerator\b|\brandom_bytes\s*\(|\brandom_int\s*\(|"
    r"\bopenssl_random_pseudo_bytes\b|\bstrong_rand_bytes\b|\bOsRng\b|\bgetrandom\b|\bthread_rng\b|\bSecRandomCopyBytes\b|"
    r"\barc4random\w*|\bRandom\.secure\b|\bcrypto_random\w*|\bRAND_bytes\b|\brandom(?:Private|Secret)Key\s*\(|"  # round 87: noble's key generator
    r"\buuid\.New(?:Random|V4)?\s*\(|\buuid4\s*\(|\bUUID\.randomUUID\b")  # round 118b: go-sessions' ``uuid.NewRandom()`` → ``rand.Int()``
_WEAK_RE = re.compile(
    r"(?<![\w.])random\.(?:random|randint|randrange|choice|choices|getrandbits|randbytes|sample|Random)\b|\bMath\.random\b|"
    r"[\"']math/rand(?:/v2)?[\"']|\bnew\s+Random\s*\(|\bjava\.util\.Random\b|(?<![\w.:$>])rand\s*\(|\bmt_rand\b|\bRandom\.(?:rand|new)\b|"
    r"\bKernel\.rand\b|:rand\.\w+|\bseed_from_u64\b|\bSmallRng\b|\bfastrand\b|\bsrand\b|\brand\.New\s*\(|\bRandom\.Shared\b|"
    r"\b__import__\(\s*['\"]random['\"]\s*\)|\brand\.(?:Intn?|Int31n?|Int63n?|Uint32|Uint64|Float32|Float64)\((?!\s*rand\.Reader)")  # rounds 59, 118b
# What a weak source is fine for: retries, shuffling, sampling, tests' data; one in a line kept re-bulleted is no edit's (blind 141).
_HARMLESS_RANDOM_RE = re.compile(r"(?i)jitter|shuffle|backoff|delay|sleep|sample|color|colour|retry|benchmark|fuzz|seed\b")
# Every strong source of randomness named holds one of these: most lines hold none (the pattern: ~80 us a long line).
_STRONG = Screen(("secrets.", "random", "crypto/rand", "rand_bytes", "osrng", "thread_rng", "uuid"), _STRONG_RE)


_BINDS_NAME = re.compile(r"^\s*(?:import\s+[\w{*]|from\s+\S+\s+import\b|(?:const|let|var)\s+[\w{}\s,]+=\s*require\s*\()")
_TARGET_RE = re.compile(r"^\s*(?:(?:const|let|var|val|final|my|local)\s+)?([\w.$]+)\s*(?::[^=]{1,40})?(?<![=!<>])=(?!=)")


def _same_target(old: str, new: str) -> bool:
    """Both lines assign the same name (``rng = rng || randomBytes`` → ``rng = rng || (…Math.random()…)``): one edit, however
    much of the right side was rewritten."""
    a, b = _TARGET_RE.match(old), _TARGET_RE.match(new)
    return a is not None and b is not None and a.group(1) == b.group(1)


def _weak_random(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # A strong source named, called or passed as a value (``rng = rng || randomBytes``); a statement that binds its name
    # (``import { randomBytes } from …``) uses no source (Go's import of "crypto/rand" is read: its swap is the edit).
    strong = [line for line in removed if _STRONG.search(line) and not _BINDS_NAME.match(line)]
    if not strong:
        return None
    kept = sum(len(_STRONG_RE.findall(line)) for line in added if _STRONG.passes(line) and not _BINDS_NAME.match(line))
    if kept >= sum(len(_STRONG_RE.findall(line)) for line in strong):
        return None  # every strong source stands again (moved, re-wrapped)
    for new in added:
        m = _WEAK_RE.search(new)
        if m is None or _HARMLESS_RANDOM_RE.search(new) or any(_WEAK_RE.search(old) and squeezed(old.strip(" -*_+>")) == squeezed(new.strip(" -*_+>")) for old in removed):
            continue
        for old in strong:
            # One edit: lines alike, Go's import swapped, or a change of a slip's size (a line or two each side).
            if similar(old, new) or ('"crypto/rand"' in old and "math/rand" in new) or (len(added) <= 3 and len(removed) <= 3) or _same_target(old, new):
                a, b = centred(old.strip(), new.strip())
                return f"makes randomness predictable: {a} → {b}"
    return None


# ----- a literal fallback for a secret-named setting
_SECRET_WORDS = (r"(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|PRIVATE_?KEY|SIGNING_?KEY|SECRET_?KEY|APP_?KEY|MASTER_?KEY|"
                 r"ENCRYPTION_?KEY|SESSION_?KEY|AUTH_?KEY|ACCESS_?KEY|CREDENTIALS?|PEPPER|_SALT|JWT_?KEY|HMAC_?KEY)")
_NOT_SECRET_RE = re.compile(r"(?i)(?:LENGTH|_LEN\b|TTL|EXPIR|TIMEOUT|LIFETIME|ALGO|_TYPE|_NAME|_URL|_URI|_HOST|_PORT|_PATH|_FILE|_DIR|"
                            r"HEADER|PREFIX|ENABLED|_MODE|ROUNDS|COST|_USER|USERNAME|_ID\b|_FIELD|_PARAM|_COOKIE|_KEY_NAME|REFRESH_TTL|_LIMIT)")
_NAME = r"['\"](?P<name>\w*" + _SECRET_WORDS + r"\w*)['\"]"
_LIT = r"['\"](?P<lit>[^'\"]+)['\"]"
_ENV_CALL = (r"(?:\b(?:env|getenv|os\.getenv|os\.environ\.get|environ\.get|ENV\.fetch|System\.get_env|System\.getProperty|config|"
             r"Deno\.env\.get|Env\.get|\w*[gG]et_?[eE]nv\w*|env_or\w*|envOr\w*)\s*\(\s*)")
_SECRET_DEFAULT_RES = (
    # env('NAME', 'lit'), os.getenv("NAME", "lit"), config('NAME', default='lit'), System.get_env("NAME", "lit")
    re.compile(r"(?i:" + _ENV_CALL + r")" + _NAME + r"\s*,\s*(?:default\s*=\s*)?" + _LIT),
    # ENV.fetch("NAME") { "lit" }
    re.compile(r"\bENV\.fetch\s*\(\s*" + _NAME + r"\s*\)\s*\{\s*(?:\|\w*\|\s*)?" + _LIT + r"\s*\}"),
    # A read followed by a fallback operator: ENV["NAME"] || "lit", process.env.NAME ?? "lit", System.getenv("NAME") ?: "lit",
    # getenv('NAME') ?: 'lit', $_ENV['NAME'] ?? 'lit', Environment.GetEnvironmentVariable("NAME") ?? "lit"
    re.compile(r"(?:\bENV\s*\[\s*" + _NAME + r"\s*\]|\bprocess\.env\.(?P<name2>\w*" + _SECRET_WORDS + r"\w*)\b|\bprocess\.env\[\s*" + _NAME.replace("name", "name3")
               + r"\s*\]|\$_(?:ENV|SERVER)\[\s*" + _NAME.replace("name", "name4") + r"\s*\]|"
               r"(?i:" + _ENV_CALL + r"|System\.getenv\s*\(\s*|Environment\.GetEnvironmentVariable\s*\(\s*)" + _NAME.replace("name", "name5") + r"\s*\))"
               r"\s*(?:\|\||\?\?|\?:|\bor\b)\s*" + _LIT),
    # Java's Optional.ofNullable(System.getenv("NAME")).orElse("lit"), Rust's env::var("NAME").unwrap_or("lit"…)
    re.compile(r"(?:getenv|env::var|var)\s*\(\s*" + _NAME + r"\s*\)\)?\s*\.\s*(?:orElse|unwrap_or(?:_else)?|or_else|getOrElse)\s*\(\s*"
               r"(?:\|_?\w*\|\s*)?(?:String::from\(\s*)?" + _LIT))
_GO_READ_RE = re.compile(r"\b(?P<var>\w+)\s*:?=\s*os\.Getenv\s*\(\s*" + _NAME + r"\s*\)")
_GO_EMPTY_RE = re.compile(r"^\s*if\s+(?P<var>\w+)\s*==\s*\"\"\s*\{\s*$")
_GO_SET_RE = re.compile(r"^\s*(?P<var>\w+)\s*=\s*" + _LIT + r"\s*$")


_SECRET_SCREEN_RE = re.compile(r"(?i)secret|token|passw|key|credential|pepper|salt|passphrase")


def _secret_match(line: str) -> tuple[str, re.Match[str]] | None:
    if not _SECRET_SCREEN_RE.search(line):
        return None  # the cheap word check before four patterns
    for pattern in _SECRET_DEFAULT_RES:
        for m in pattern.finditer(line):
            name = next(g for g in (m.groupdict().get(k) for k in ("name", "name2", "name3", "name4", "name5")) if g)
            if m.group("lit").strip() and not _NOT_SECRET_RE.search(name):
                return name, m
    return None


def _secret_default(added: Sequence[str], removed: Sequence[str], *, pair_only: bool) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    for new in added:
        if squeezed(new.strip()) in before or (found := _secret_match(new)) is None:
            continue
        name, m = found
        old = next((line for line in removed if name in line and _secret_match(line) is None), None)
        if old is None and pair_only:
            continue
        shown = (lambda a, b: f"{a} → {b}")(*centred(old.strip(), new.strip())) if old is not None else window(new, m.start(), m.end(), _SHOWN)
        return f"gives secret {name} a literal default: {shown}"
    # Go: v := os.Getenv("SECRET"); if v == "" { v = "lit" }
    reads = {m.group("var"): m.group("name") for line in [*added, *removed] for m in _GO_READ_RE.finditer(line)}
    for i, line in enumerate(added[:-1]):
        if (e := _GO_EMPTY_RE.match(line)) and e.group("var") in reads and (s := _GO_SET_RE.match(added[i + 1])) \
                and s.group("var") == e.group("var") and s.group("lit").strip():
            return f"gives secret {reads[e.group('var')]} a literal default: {added[i + 1].strip()[:_SHOWN]}"
    return None


def secret_default_pair(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A read of a secret-named setting given a literal default in an edited pair (the read stood without one)."""
    return _secret_default(added, removed, pair_only=True)


# ----- a security parameter's number lowered or its default removed
_PARAM_RE = re.compile(r"(?i)\b(?P<name>log_?rounds|rounds|work_?factor|cost|iterations?|iter(?:ation)?_?count|key_?(?:size|length|len|bits)|"
                       r"salt_?(?:length|len|size|bytes)|min_?password_?length|(?:rsa_?)?bits|hash_?length|memory_?cost|time_?cost|n_?iter)\b"
                       r"['\"]?\s*(?:=>|[=:]|\\\\|\.unwrap_or\(|\|\||\?\?|\bor\b|,)\s*(?P<value>\d+)\b")
# Names that are a security parameter only where the line or the file speaks of hashing or keys.
_AMBIGUOUS = frozenset({"rounds", "cost", "iterations", "iteration", "bits", "niter", "n_iter"})
_CRYPTO_RE = re.compile(r"(?i)bcrypt|scrypt|argon|pbkdf|crypt|passw|salt|kdf|\brsa|ecdsa|keygen|key_?pair|private_?key|secret_?key|cipher|hmac|gensalt|"
                        r"password_?hash|hash_?password|derive_?key")


def _params(line: str) -> list[tuple[str, int]]:
    return [(m.group("name").lower().replace("_", ""), int(m.group("value"))) for m in _PARAM_RE.finditer(line)]


def _lowered_parameter(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A parameter's lowest number on the new side below its lowest on the old side (``unwrap_or(12)`` removed, a
    signature's ``rounds=5`` added): the default a caller gets went down, wherever the change moved it."""
    crypto_file = bool(_CRYPTO_RE.search(path))
    before = {squeezed(line.strip()) for line in removed}
    after = {squeezed(line.strip()) for line in added}
    old: dict[str, tuple[int, str]] = {}
    for line in removed:
        if squeezed(line.strip()) not in after:
            for name, value in _params(line):
                if name not in old or value < old[name][0]:
                    old[name] = (value, line)
    if not old:
        return None
    for line in added:
        if squeezed(line.strip()) in before:
            continue
        for name, value in _params(line):
            if name in old and value < old[name][0] and (name not in _AMBIGUOUS or crypto_file or _CRYPTO_RE.search(line)
                                                          or _CRYPTO_RE.search(old[name][1])):
                a, b = centred(old[name][1].strip(), line.strip())
                return f"lowers {name} {old[name][0]} → {value}: {a} → {b}"
    return None


# ----- an access policy made a wildcard
# No two runs of spaces side by side (``\s*-?\s*``, ``.+?\s*,?\s*$``): on a line of a thousand spaces they tried every
# split (8 ms a line; a file of such lines, written by the worker, held the review for minutes). The value's trailing
# comma is taken off where it is read.
_POLICY_KEY_RE = re.compile(r"(?i)^\s*(?:-\s*)?['\"]?(?P<key>resources?|actions?|not_?actions?|principals?|identifiers|cidr_?blocks|ipv6_?cidr_?blocks|"
                            r"source_?ranges|cidr_?ip(?:v6)?|allowed_?hosts|allowed_?origins|source_?addresses)['\"]?\s*[=:]\s*(?P<value>\S.*)$")
_WILDCARD_RE = re.compile(r"^[\[{(]?\s*(?:['\"]?AWS['\"]?\s*[=:]\s*)?\[?\s*['\"]?(?:\*|0\.0\.0\.0/0|::/0|arn:aws:iam::\*:\*|\*:\*|[a-z0-9-]+:\*)['\"]?\s*[\]})]?\s*[\]})]?$")
_ALWAYS_WILD = frozenset({"action", "actions", "principal", "principals"})
# (A service's every action, ``"kms:*"``, is a wildcard too: round 123, held-out 621's keyobject-aws-kms docs,
# ``"Action": ["kms:GetPublicKey", "kms:Sign"]`` → ``"kms:*"``, the key's deletion and its policy among them.)


def _value(m: re.Match[str]) -> str:
    return m.group("value").rstrip().rstrip(",").strip()


def _wildcard_policy(added: Sequence[str], removed: Sequence[str]) -> str | None:
    old_values: dict[str, str] = {}
    for line in removed:
        if (m := _POLICY_KEY_RE.match(line)) is not None:
            old_values.setdefault(m.group("key").lower().replace("_", ""), line)
    for new in added:
        m = _POLICY_KEY_RE.match(new)
        if m is None or not _WILDCARD_RE.match(_value(m)):
            continue
        key = m.group("key").lower().replace("_", "")
        old = old_values.get(key)
        if old is not None and not _WILDCARD_RE.match(_value(_POLICY_KEY_RE.match(old))):  # type: ignore[arg-type]
            a, b = centred(old.strip(), new.strip())
            return f"widens an access policy to anything: {a} → {b}"
        if old is None and key in _ALWAYS_WILD and "'" not in new[:new.find(m.group('key'))]:
            return f"grants an access policy to anything ({m.group('key')} \"*\"): {new.strip()[:_SHOWN]}"
    return None


def judgements(path: str, added: Sequence[str], removed: Sequence[str], *, sample: bool = False) -> Iterator[tuple[str, bool]]:
    """Each way the change's new side weakens its old one, in the readers' order, with whether it is classic (high). ``sample``:
    a docs page's lines, read as code but only as edits. Lazy: ``judged`` takes the first, the rows the first and the first
    classic one (round 87: a classic slip after another reader's finding in its file was never read: tar-stream's radix)."""
    # Round 56: a check's verdict overridden (an alternative, a flag pinned, a clause flipped open…) is read first, so another
    # turn the same change makes in the file (the commit's own) does not hide it; its shapes are narrow. A page's sample
    # lines too (go-cose's README: ``Verify(…) || len(sig) > 0``).
    if (over := overridden_turned(*((sample_lines(added), sample_lines(removed)) if sample else (added, removed)))) is not None:
        yield over
    for found, classic in ((_weak_random(added, removed), True), (made_constant(added, removed), True),  # round 23: made constant
                           (_secret_default(added, removed, pair_only=sample), True),
                           (_lowered_parameter(path, added, removed), True), (_wildcard_policy(added, removed), True)):
        if found:
            yield found, classic
    if (fewer := fields_dropped(added, removed)) is not None:  # round 23: a comparison of several fields narrowed to fewer
        yield fewer[0], fewer[1]
    if (loose := loosened(path, added, removed, sample=sample)) is not None:  # round 23: an expiry, a suffix, escaping, a default…
        yield loose
    if not sample and (flip := flipped(added, removed)) is not None:  # round 24: an error made success, a line break anchored, a default…
        yield flip
    if (more := turned(path, added, removed, sample=sample)) is not None:  # round 15: a bind, an algorithm mix, a source, a key, a limit
        yield more
    if (setting := setting_turned(path, added, removed, sample=sample)) is not None:  # round 16: TLS, XXE, a verify, a secret, a check
        yield setting
    if (subtle := subtle_turned(path, added, removed, sample=sample)) is not None:  # round 17: a lock, a rejection, anchors, a bind…
        yield subtle
    if (guard := guard_default_turned(*((sample_lines(added), sample_lines(removed)) if sample else (added, removed)))) is not None:  # round 25
        yield guard
    if not sample and (opt_in := action_made_opt_in(added, removed)) is not None:
        yield opt_in, False
    if (final := final_dropped(added, removed)) is not None:  # round 49: a decipher's tag check dropped with its final()
        yield final, True
    if (lost := lost_result(added, removed)) is not None:  # round 19: a verdict blanked, a catch emptied, TLS defaults bypassed
        yield lost, lost.startswith("comments out a check")  # round 119: a check that never runs is a guard deleted (high)
    if (narrowed := refusal_narrowed(added, removed)) is not None:  # round 121b: a deny rule's or a log filter's alternatives cut
        yield narrowed, True
    if not sample and (alt := alternative_dropped(added, removed)) is not None:  # round 25: a case or a check's list less one item
        yield alt, False
    for found in (permissive_switch(added, removed), pin_dropped(path, added, removed), config_in_message(path, added, removed),
                  lifetime_raised(path, added, removed), unchecked_twin(added, removed), credential_logged(added, removed),
                  unconditioned(added, removed)):  # round 121: a guarded assignment written again unguarded
        if found:
            yield found, False
    if not sample and (gone := check_vanished(added, removed)) is not None:  # round 26: debug-only, failures accepted, a scan off
        yield gone, gone.startswith("accepts failures as success (a verify")  # round 87: a verify's -1 taken as success is high
    if not sample and (alone := read_alone(added, removed)) is not None:  # round 25: a check new code writes so it cannot decide
        yield alone, False
    # Rounds 59 and 62: a floor raised, a unit's factor put in, a check's failure answered yes…, read last (a docs sample's: 71, 79).
    if (last := read_last_sample(added, removed, path) if sample else read_last(added, removed, path)) is not None:
        yield last


def judged(path: str, added: Sequence[str], removed: Sequence[str], *, sample: bool = False) -> tuple[str, bool] | None:
    return next(judgements(path, added, removed, sample=sample), None)  # the first of them


SCREENS = {"edit_direction.strong": _STRONG}  # proved by tests/test_screens.py
