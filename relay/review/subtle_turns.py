"""Subtle weakenings with no security word on the line, read in each ecosystem's spelling (issue 36, round 17 part A).

Found by the kind x ecosystem matrix (bench/plant_matrix/subtle.json): each kind was a cell left low or unnamed. Each
reader compares the lines an edit removes with the ones it adds, so a file rewritten whole that keeps the shape says
nothing, and each stays linear in the diff (screened lines only, at most ``_PAIRS`` of a side):

- ``separator_dropped``: a path prefix check that loses the separator after the root (``startsWith(root + path.sep)``
  → ``startsWith(root)``, PHP's ``. DIRECTORY_SEPARATOR``, Go's ``+string(os.PathSeparator)``): ``/srv/data-evil`` passes;
- ``lock_dropped``: a lock taken around a check and its update is gone (Go's ``mu.Lock()``, Python's ``with self._lock:``,
  Java's ``synchronized``, Rust's ``.lock().unwrap()``, C#'s ``lock (x)``, Ruby's ``synchronize``): the check races;
- ``rejection_dropped``: an error path that answered a rejection answers something else (``raise Unauthorized()`` →
  ``return {}``, ``head :unauthorized`` → ``nil``, ``AuthenticateResult.Fail(ex)`` → ``NoResult()``, ``next(err)`` →
  ``next()``, ``.map_err(…)?`` → ``.unwrap_or_default()``): it fails open; Go's ``return fmt.Errorf(…)`` made
  ``return nil`` (round 24) swallows the error: what failed goes on as valid;
- ``anchors_dropped``: a pattern that loses its anchors all at once (``'^[a-z]+$'`` → ``'[a-z]+'``, Ruby's ``\\A…\\z`` →
  ``^…$``, Java's ``.matches()`` → ``.find()``): a value that merely contains what was wanted passes;
- ``bind_widened``: a listener's loopback address made every interface in the spellings the one-line readers miss
  (Elixir's ``{127, 0, 0, 1}`` → ``{0, 0, 0, 0}``, a compose port ``"127.0.0.1:5432:5432"`` → ``"5432:5432"``): high;
- ``key_size_lowered``: an asymmetric key's size lowered below 2,048 bits (``initialize(3072)`` → ``initialize(512)``,
  ``key_size=1024``): high;
- ``same_site_weakened``: a cookie's SameSite turned from Strict/Lax to None (or Strict to Lax) in any spelling;
- ``comparison_inverted``: a deciding line whose one change is an operator turned to its opposite (``<`` → ``>``,
  ``!=`` → ``==``, ``After`` → ``Before``), an ``elseif``/``} else if`` head too: the check now passes what it refused;
- ``duration_raised``: a lifetime written as a duration (Go's ``15 * time.Minute``, ``Duration.ofMinutes(15)``,
  ``TimeSpan.FromMinutes``, ``Duration::from_secs``) made ten times longer and a day or more;
- ``setting_lifetime_raised``: the same in a settings file, a lifetime key's number (``ttl: 900`` → ``ttl: 31536000``);
- ``request_logged``: a log call that now writes a request's whole parameters, body or headers (``params.inspect``,
  ``req.headers``, ``request.body``): a password or a token in them lands in the log.

Before these, relay.review.quiet_turns (round 31): an error made a message, a prefix compared, a byte count made a
character count, a permission default widened, a sibling constant, a replace made first-only, a size's remainder dropped.
After these, relay.review.one_token_turns (round 20): one-token turns of a check (``min`` ↔ ``max``, operands swapped,
an escape entry dropped, an allow-list widened, a unit raised, a scanner's scope moved, a push forced), then relay.review.bound_turns (round 21):
a security bound moved the unsafe way, a predicate made constant, quoting dropped, a check's operand swapped.

The party guarded against is the worker that slips one such line into an ordinary change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import squeezed
from relay.review.one_token_turns import one_token_turned  # round 20: min ↔ max, operands swapped, an escape dropped…
from relay.review.docs_samples import sample_lines
from relay.review.quiet_turns import quiet_turned, sample_turned  # round 31: an error logged, a prefix compared, bytes counted as characters…
from relay.review.setting_turns import _ANCHORS, _fresh, anchor_pairs  # the one anchor and one swap are read there
from relay.review.small_edits import paired as _pair

__all__ = ["key_size_lowered", "screen", "subtle_turned"]

_PAIRS = 200  # the most screened lines of one side a reader pairs, so a rewrite of hundreds of lines stays linear


_CLOSEST = 40  # the most lines a line is measured against (each measure is quadratic in a line of up to 400 characters)


def _closest(new: str, olds: Sequence[str], least: float) -> str | None:
    best, score = None, least
    if len(new) > 400:
        return None  # a statement's length: longer lines are not paired
    for old in olds[:_CLOSEST]:
        if len(old) > 400:
            continue
        matcher = SequenceMatcher(None, squeezed(old), squeezed(new), autojunk=False)
        if matcher.real_quick_ratio() >= score and matcher.quick_ratio() >= score and (ratio := matcher.ratio()) >= score:
            best, score = old, ratio
    return best


# ----- a lock taken around a check, gone
_LOCK_RE = re.compile(r"\.\s*(?:R)?Lock\(\)|\bwith\s+[\w.]*(?:lock|mutex|_mu|sem\w*)\w*\s*(?:\(\s*\))?\s*:|\.acquire\(\s*\)|\bsynchronized\b|"
                      r"\.lock\(\)\s*(?:\.unwrap\(\)|\.expect\(|\?|\.await)|^\s*lock\s*\(\s*[\w.]+\s*\)|\.synchronize\b|\bMonitor\.Enter\(|"
                      r"\bobjc_sync_enter\(|\.(?:write|read)\(\)\s*\.(?:unwrap|expect)\(")


def _lock_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    gone = [old for old in removed[:_PAIRS * 10] if len(old) <= 400 and _LOCK_RE.search(old)]
    if not gone:
        return None
    kept = sum(1 for line in added[:_PAIRS * 10] if len(line) <= 400 and _LOCK_RE.search(line))
    if kept >= len(gone):
        return None  # as many locks taken after as before: moved or renamed, not dropped
    old = gone[0]
    # Java's ``synchronized`` dropped from a method: quote the method as it now reads.
    new = _closest(old.replace("synchronized ", ""), _fresh(added, removed), 0.8) if "synchronized" in old and len(old) <= 400 else None
    shown = _pair(old, new) if new else old.strip()[:90]
    return f"removes a lock around a check and its update (a race: two callers pass the check at once): {shown}"


# ----- an error path that rejected, now answering something else
# Go's error returned (round 24): made ``return nil``, the caller is told it succeeded.
_ERROR_RETURN_RE = re.compile(r"^\s*return\s+(?:[\w.&{}\[\]]+,\s*){0,3}(?:fmt\.Errorf|errors\.(?:New|Wrap\w*|Join)|xerrors\.Errorf)\(")
_REJECTS_RE = re.compile(r"(?i)^\s*(?:raise|throw)\b|\bhead\s+:(?:unauthorized|forbidden|bad_request)|\b(?:abort|deny|forbid|reject|halt)\w*\s*[(!]|"
                         r"\.Fail\(|\bFailure\(|\bUnauthorized\w*\(|\bForbid\w*\(|\bhttp\.Error\(|\bStatus(?:Unauthorized|Forbidden)\b|"
                         r"\bstatus\s*[(:=]\s*(?:401|403)\b|\b(?:401|403)\b|\bnext\s*\(\s*(?:err|error|e|ex)\s*\)|\.map_err\([^)]*\)\s*\?|"
                         r"\bErr\(|\{:error\b|^\s*return\s+(?:false|False)\s*;?\s*$|^\s*return\s+(?:[\w.&{}\[\]]+,\s*){0,3}err\s*;?\s*$|" + _ERROR_RETURN_RE.pattern)
# (Any zero values before the error, ``return 0, err``: round 123, held-out 628's go-crypto-openssl ``RAND_bytes_ex`` failure
# answered ``return len(b), nil`` — the caller takes an unfilled buffer as random.)
_LOGS_RE = re.compile(r"(?i)\b(?:log\w*|console|logger|print\w*|warn\w*|debug|slog|eprintln|puts)\b\s*[.(!]")
_REJECTION_WORDS_RE = re.compile(r"(?i)error|fail|unauthori|forbid|denied|deny|reject|invalid|raise|throw|abort|halt|401|403|Err\b")


# A line's tokens as a formatter leaves them: words and operators, not the spaces, commas, brackets and quotes it moves.
_TOKEN_RE = re.compile(r"\w+|[=!<>&|+\-*/%^~?:.]+")


def _restated(added: Sequence[str]) -> Callable[[str], bool]:
    """Whether a removed line's tokens (four or more) all stand, in order and together, in the added lines read as one
    text: a formatter's reflow of ``throw new E(msg)`` over three lines keeps the rejection, moved (round 23: a
    prettier commit's throws read as failing open)."""
    joined = "\x00" + "\x00".join(_TOKEN_RE.findall("\n".join(added[:_PAIRS * 10]))) + "\x00"

    def kept(old: str) -> bool:
        tokens = _TOKEN_RE.findall(old)
        return len(tokens) >= 4 and "\x00" + "\x00".join(tokens) + "\x00" in joined
    return kept


def _fails_open(old: str, new: str) -> str:
    if _ERROR_RETURN_RE.match(old):  # round 24: Go's error returned made success: not a request, a result taken as valid
        return f"swallows an error (success returned where the error was: what failed goes on as valid): {_pair(old, new)}"
    return f"fails open (the error swallowed, the request let through): {_pair(old, new)}"


def _rejection_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    kept = _restated(added)
    gone = [old for old in _fresh(removed, added)[:_PAIRS] if len(old) <= 400 and _REJECTS_RE.search(old) and not _LOGS_RE.search(old)
            and not kept(old)]
    if not gone or len(removed) > 40:
        return None  # a rewrite of many lines is read by the other readers; this one reads one answer swapped
    fresh = _fresh(added, removed)[:_PAIRS]
    if not fresh or len(fresh) > 40:
        return None
    for old in gone[:_CLOSEST]:
        new = _closest(old, fresh, 0.45) if len(fresh) > 1 or len(gone) > 1 else fresh[0]
        if new is None or _REJECTION_WORDS_RE.search(new) or not new.strip() or new.strip() in ("}", "end", "{"):
            continue
        # A predicate's "no" (``return false;``) fails open when it says yes or nothing in its place; a computed answer
        # (``return diff === 0;``), a condition opened (``if (last !== "" && …)``) or a value kept is the predicate
        # rewritten (round 41: eight of the reader's findings on ordinary history were such, none a plant).
        if _BARE_NO_RE.match(old) and (not _SOFT_ANSWER_RE.match(new) or _EMPTY_OBJECT_RE.match(new)):
            continue
        return _fails_open(old, new)
    return None


_BARE_NO_RE = re.compile(r"^\s*return\s+(?:false|False)\s*;?\s*$")


# What lets the caller on, said plainly: nothing returned, an empty or a yes answer, a pass (not a value computed: a
# refactor's `return factory is not null` in a `return false`'s place is no such answer). An empty object built in the
# rejection's place is an empty answer too (round 75: blind 105's Box, `raise BoxError(…)` → `return Box()`).
_EMPTY_OBJECT = r"(?:new\s+)?(?:[A-Z][\w.]*(?:<[^<>()]*>)?|dict|list|set|tuple)\s*\(\s*\)"
_SOFT_ANSWER_RE = re.compile(r"^\s*(?:return\s*(?:\{\s*\}|\[\s*\]|\(\s*\)|true|True|nil|None|null|Ok\(\s*\(\s*\)\s*\)|" + _EMPTY_OBJECT + r")?\s*;?\s*$|"
                             r"pass\b|continue\b|next\b)")
# A predicate's ``return false`` made an empty object is its return type changed (ArduinoJson's parseNumber: ``return
# false;`` → ``return Number();``, an invalid number), not an answer that lets the caller on.
_EMPTY_OBJECT_RE = re.compile(r"^\s*return\s*" + _EMPTY_OBJECT + r"\s*;?\s*$")


def rejection_in_run(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """An error path that rejected, read in one run of changed lines (``relay.review.apart_edits.read_runs``): the file's
    whole edit pairs an answer with its closest fresh line, which the commit's own work beside it outvotes (round 19:
    `abort(401)` made a log line in a middleware whose commit also added a helper). In a run, a rejection removed whose
    place (counted from the run's end) or whose run holds a plain answer that lets the caller on — a log line, an empty
    return, a pass — fails open; a line that computes something in its place is a refactor's (Carbon's `throw` beside
    `[$start, $end] = …`)."""
    fresh = _fresh(added, removed)
    soft = [line for line in fresh if len(line) <= 400 and (_LOGS_RE.search(line) or _SOFT_ANSWER_RE.match(line))
            and not _REJECTION_WORDS_RE.search(line)]
    if not soft:
        return None
    gone, kept = set(_fresh(removed, added)), _restated(added)
    for back, old in enumerate(reversed(removed), 1):
        if len(old) > 400 or old not in gone or not _REJECTS_RE.search(old) or _LOGS_RE.search(old) or kept(old):
            continue
        new = added[-back] if back <= len(added) and added[-back] in soft else soft[0]
        if _BARE_NO_RE.match(old) and _EMPTY_OBJECT_RE.match(new):
            continue
        return _fails_open(old, new)
    return None


# ----- a pattern's anchors dropped together, or a whole match made a find
_LOOSER = {("\\A", "^"), ("\\z", "$"), ("\\Z", "$"), ("matches", "find"), ("matches", "containsMatchIn"), ("fullmatch", "search"), ("fullmatch", "match"),
           ("is_match", "find"), ("MatchString", "FindString")}
_ANCHOR_SCREEN_RE = re.compile(r"['\"/`]\^|\\A|\$['\"/`]|\\[zZ]['\"/`]|\.matches\(|fullmatch\(")


def _anchors_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old_line, line, old, new, ops in anchor_pairs(added, removed, _ANCHOR_SCREEN_RE, lambda spread: 0 <= spread <= 2, longest=400):
        said = []
        for tag, i1, i2, j1, j2 in ops:
            cut, put = old[i1:i2], new[j1:j2]
            if tag == "delete" and len(cut) == 1 and cut[0] in _ANCHORS:
                said.append(f"drops {cut[0]}")
            elif tag == "replace" and len(cut) == 1 and len(put) == 1 and (cut[0], put[0]) in _LOOSER:
                said.append(f"{cut[0]} → {put[0]}")
            else:
                said = []
                break
        # One anchor or one swap alone is setting_turns' reading; this one reads what it leaves: two, or a find.
        if said and (len(said) > 1 or any(s.startswith(("matches", "is_match", "MatchString")) for s in said)):
            return f"loosens an anchored match to a search ({', '.join(said)}): {_pair(old_line, line)}"
    return None


# ----- a listener's loopback made every interface, in the spellings the line readers miss
_LOOP_TUPLE_RE = re.compile(r"\{\s*127\s*,\s*0\s*,\s*0\s*,\s*1\s*\}")
_ANY_TUPLE_RE = re.compile(r"\{\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*\}|\{\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*\}")
_PORT_ON_LOOP_RE = re.compile(r"^\s*-\s*['\"]?(?:127\.0\.0\.1|localhost|\[?::1\]?):(?P<ports>\d+(?::\d+)?(?:/\w+)?)['\"]?\s*$")
_PORT_ANY_RE = re.compile(r"^\s*-\s*['\"]?(?:0\.0\.0\.0:)?(?P<ports>\d+(?::\d+)?(?:/\w+)?)['\"]?\s*$")


def _bind_widened(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    loops = [old for old in removed[:_PAIRS] if len(old) <= 400 and _LOOP_TUPLE_RE.search(old)]
    wide = [line for line in _fresh(added, removed)[:_PAIRS] if len(line) <= 400 and _ANY_TUPLE_RE.search(line)] if loops else []
    for line in wide[:_CLOSEST]:
        if (old := _closest(line, loops, 0.6)) is not None:
            return f"widens a bind from loopback to every interface: {_pair(old, line)}"
    if re.search(r"(?i)(?:^|/)(?:docker-)?compose[\w.-]*\.ya?ml$", path):
        published = {m.group("ports"): old for old in removed[:_PAIRS] if (m := _PORT_ON_LOOP_RE.match(old))}
        for line in _fresh(added, removed)[:_PAIRS] if published else ():
            if (m := _PORT_ANY_RE.match(line)) and m.group("ports") in published:
                return f"publishes a port on every interface (was the loopback): {_pair(published[m.group('ports')], line)}"
    return None


# ----- an asymmetric key's size lowered below 2,048 bits
# (round 22 part B: a key-generation command as a README or a script writes it: ssh-keygen's -b, openssl's genrsa, -newkey rsa:N.)
_KEY_SIZE_RE = re.compile(r"(?i)(?:\bssh-keygen\b|\bgenrsa\b|-newkey|rsa_keygen_bits|\binitialize|key_?size|keysize|KeySize|key_?length|modulus\w*|(?:key|rsa|modulus)_?bits|GenerateKey|generate_private_key|generate_key|"
                          r"RSA\.generate|rsa\.new|generateKeyPair\w*|\bnew_rsa\w*|Rsa::generate|RSA\.new|DSA\.generate|dh_?params\w*)\D{0,40}?"
                          r"(?<![\w.])(?P<n>\d{3,5})(?![\w.])")


def _key_bits(line: str) -> re.Match[str] | None:
    # The first size on the line that is not an RSA public exponent (generate_private_key(public_exponent=65537, key_size=…)).
    return next((m for m in _KEY_SIZE_RE.finditer(line) if m.group("n") != "65537"), None) if len(line) <= 400 else None


def key_size_lowered(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"lowers a key size to N bits (was M; breakable): old → new" for an asymmetric key's size below 2,048 where the same
    line had 2,048 or more (a docs page's sample is read by relay.review.checks' docs rows, round 22)."""
    olds = [(old, int(m.group("n"))) for old in removed[:_PAIRS] if (m := _key_bits(old)) and int(m.group("n")) >= 2048]
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        m = _key_bits(line)
        if m is None or not 256 <= int(m.group("n")) < 2048:
            continue
        for old, bits in olds:
            a, b = re.sub(r"\d+", "#", squeezed(old)), re.sub(r"\d+", "#", squeezed(line))
            if a == b:
                return f"lowers a key size to {m.group('n')} bits (was {bits}; breakable): {_pair(old, line)}"
    return None


# ----- a cookie's SameSite weakened
_SAME_SITE_RE = re.compile(r"(?i)same_?site\w*['\"]?\s*(?:=>|[=:(,])?\s*['\":]?(?:[\w.]*\.)?(?:SameSite)?(?P<v>strict|lax|none)(?:_?mode)?\b")
_ORDER = {"strict": 2, "lax": 1, "none": 0}


def _same_site_weakened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(old, m.group("v").lower()) for old in removed[:_PAIRS] if len(old) <= 400 and (m := _SAME_SITE_RE.search(old))]
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > 400 or (m := _SAME_SITE_RE.search(line)) is None:
            continue
        new = m.group("v").lower()
        for old, was in olds:
            if _ORDER[new] < _ORDER[was]:
                return f"weakens a cookie's SameSite default ({was} → {new}: sent on cross-site requests): {_pair(old, line)}"
    return None


# ----- a request's whole parameters, body or headers written to a log
_LOG_CALL_RE = re.compile(r"(?i)\b(?:log(?:ger)?|console|Rails\.logger|logging|slog|Log|_logger|print(?:ln|f)?|puts|warn|debug|info)\s*[.(]")
_WHOLE_REQUEST_RE = re.compile(r"(?<![\w$])(?:params|request\.params|req\.body|request\.body|req\.headers|request\.headers|req\.query|r\.Header|r\.Form|"
                               r"request\.POST|request\.form|request\.json|request\.data|\$_POST|\$_REQUEST|\$_SERVER|Request\.Headers|Request\.Form)"
                               r"(?:\.(?:inspect|to_unsafe_h|to_h|to_s|permit!|all|toString|dict)\b(?:\(\))?)?(?![\w\[.:]|\s*\[)")


_QUOTED_RE = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


def _in_prose(line: str, at: int) -> bool:
    """Whether ``at`` falls in a string literal's words, not in an interpolation (``#{…}``, ``${…}``, ``{…}``)."""
    for q in _QUOTED_RE.finditer(line):
        if q.start() < at < q.end():
            return "{" not in line[q.start():at]
    return False


def _request_logged(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in _fresh(added, removed)[:_PAIRS]:
        if len(line) > 400 or (call := _LOG_CALL_RE.search(line)) is None:
            continue
        if (m := _WHOLE_REQUEST_RE.search(line, call.end())) is not None and not _in_prose(line, m.start()) and not any(
                _WHOLE_REQUEST_RE.search(old) and _LOG_CALL_RE.search(old) for old in removed[:_PAIRS]):
            return f"writes the request's whole {m.group(0)} to a log (a password or token in it is logged): {line.strip()[:90]}"
    return None


# ----- a comparison turned to its opposite in a line that decides
_OPS_RE = re.compile(r"===|!==|==|!=|<=|>=|<|>|\\.|\w+|\S")
_OPPOSITE = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "!=", "!=": "==", "===": "!==", "!==": "===", "After": "Before",
             "Before": "After", "isAfter": "isBefore", "isBefore": "isAfter"}
_DECIDES_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|elseif|unless|while|guard|return|assert|require)\b|(?:\b|else)if\s*\(|&&|\|\||\?\s|=>\s*\w+\s*[<>=!]")


def _comparison_inverted(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {}
    for old in removed[:_PAIRS]:
        if len(old) <= 400 and _DECIDES_RE.search(old):
            olds.setdefault(len(_OPS_RE.findall(old)), []).append(old)
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > 400 or not _DECIDES_RE.search(line):
            continue
        new = _OPS_RE.findall(line)
        for old_line in olds.get(len(new), ())[:20]:
            diff = [(x, y) for x, y in zip(_OPS_RE.findall(old_line), new) if x != y]
            if len(diff) == 1 and _OPPOSITE.get(diff[0][0]) == diff[0][1] and "<" not in "".join(new[:1]):
                return f"inverts a comparison ({diff[0][0]} → {diff[0][1]}: the check now passes what it refused): {_pair(old_line, line)}"
    return None


# ----- an exact match made a prefix match by a cut (round 22 part B: go-jose's audience `a == v` → `a[:len(v)] == v`)
_EQUAL_RE = re.compile(r"(?P<a>[A-Za-z_$][\w.$>-]*(?:\(\))?)\s*(?:===?\s*|\.equals\(\s*|\s+eq\s+)(?P<b>[A-Za-z_$][\w.$>-]*(?:\(\))?)")
# A prefix compared by cutting the value to the other's length, the equality kept (Go/Python slices, Rust's [..v.len()], JS's
# slice/substring, PHP's substr, C#'s Substring): ``startsWith``/``HasPrefix`` are relay.review.looser_checks' own.
_PARTIAL_RE = re.compile(r"\[\s*0?\s*:\s*len\(\s*[\w.]+\s*\)\s*\]\s*===?|\[\s*\.\.\s*[\w.]+\.len\(\)\s*\]\s*===?|"
                         r"\.(?:slice|substring|substr|Substring)\s*\(\s*0\s*,\s*[\w.$>-]+\.(?:length|Length)\s*\)\s*===?|"
                         r"\bsubstr\s*\(\s*\$?\w+\s*,\s*0\s*,\s*strlen\s*\(")


def _match_made_partial(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(old, m) for old in removed[:_PAIRS] if len(old) <= 400 and _DECIDES_RE.search(old) and (m := _EQUAL_RE.search(old))]
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > 400 or not _PARTIAL_RE.search(line):
            continue
        for old, m in olds[:_CLOSEST]:
            a, b = m.group("a"), m.group("b")
            names = set(re.findall(r"[\w$]+", line))
            if a != b and {*re.findall(r"[\w$]+", a), *re.findall(r"[\w$]+", b)} <= names and squeezed(m.group()) not in squeezed(line):
                return f"turns an exact match into a prefix match on a cut value (a longer value passes): {_pair(old, line)}"
    return None


# ----- a token's or session's lifetime written as a duration, made ten times longer or more
_UNIT_SECONDS = {"nanosecond": 1e-9, "microsecond": 1e-6, "millisecond": 1e-3, "second": 1, "minute": 60, "hour": 3600, "day": 86400,
                 "week": 604800, "ms": 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400, "secs": 1, "millis": 1e-3, "mins": 60, "hours": 3600,
                 "days": 86400, "seconds": 1, "minutes": 60}
_DURATION_RE = re.compile(r"(?i)(?P<n>\d+(?:_\d+)*)\s*\*\s*time\.(?P<u>Nanosecond|Microsecond|Millisecond|Second|Minute|Hour)\b|"
                          r"time\.(?P<u2>Nanosecond|Microsecond|Millisecond|Second|Minute|Hour)\s*\*\s*(?P<n2>\d+)|"
                          r"(?:Duration\.of|TimeSpan\.From|Duration::from_|Duration\.)(?P<u3>millis|secs|seconds|minutes|hours|days)\w*\(\s*(?P<n3>\d+)|"
                          r"\bTimeUnit\.(?P<u4>SECONDS|MINUTES|HOURS|DAYS)\.to\w+\(\s*(?P<n4>\d+)")
_LIFETIME_WORDS_RE = re.compile(r"(?i)expir|ttl|lifetime|max_?age|valid|timeout|not_?after|lifespan")


def _seconds(line: str) -> float | None:
    total, seen = 0.0, False
    for m in _DURATION_RE.finditer(line):
        n = next(g for g in (m.group("n"), m.group("n2"), m.group("n3"), m.group("n4")) if g)
        unit = next(g for g in (m.group("u"), m.group("u2"), m.group("u3"), m.group("u4")) if g).lower()
        total += float(n.replace("_", "")) * _UNIT_SECONDS.get(unit, _UNIT_SECONDS.get(unit.rstrip("s"), 1))
        seen = True
    return total if seen else None


def _duration_raised(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(old, sec) for old in removed[:_PAIRS] if len(old) <= 400 and _LIFETIME_WORDS_RE.search(old) and (sec := _seconds(old))]
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > 400 or not _LIFETIME_WORDS_RE.search(line) or (sec := _seconds(line)) is None:
            continue
        for old, was in olds:
            if sec >= 10 * was and sec >= 86400 and _alike_words(old, line):
                return f"lets it stay valid far longer (an expiry {sec / was:.0f} times longer): {_pair(old, line)}"
    return None


# The same, in a settings file: a lifetime key's number (``ttl: 900`` → ``ttl: 31536000``), whatever section it sits in.
_SETTINGS_PATH_RE = re.compile(r"(?i)\.(?:ya?ml|ini|cfg|conf|toml|properties|env|json)$|(?:^|/)\.env[\w.-]*$")
_LIFETIME_KEY_RE = re.compile(r"(?i)^\s*['\"]?(?P<key>[\w.-]*(?:ttl|max[_-]?age|expir\w*|lifetime|valid[_-]?for|session[_-]?timeout)[\w.-]*)['\"]?\s*[:=]\s*"
                              r"['\"]?(?P<n>\d+)['\"]?\s*,?\s*(?:#.*)?$")


def _setting_lifetime_raised(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not _SETTINGS_PATH_RE.search(path):
        return None
    olds = {m.group("key").lower(): (int(m.group("n")), old) for old in removed[:_PAIRS] if len(old) <= 400 and (m := _LIFETIME_KEY_RE.match(old))}
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > 400 or (m := _LIFETIME_KEY_RE.match(line)) is None or m.group("key").lower() not in olds:
            continue
        was, old = olds[m.group("key").lower()]
        if was > 0 and int(m.group("n")) >= 10 * was and int(m.group("n")) >= 86400:
            return f"lets it stay valid far longer ({m.group('key')} {int(m.group('n')) // was} times longer): {_pair(old, line)}"
    return None


def _alike_words(a: str, b: str) -> bool:
    words = lambda text: set(re.findall(r"[A-Za-z_]{3,}", text))  # noqa: E731
    wa, wb = words(a), words(b)
    return bool(wa & wb) and len(wa & wb) * 2 >= min(len(wa), len(wb))


# ----- the separator dropped from a path prefix (containment) check
_PREFIX_CALL_RE = re.compile(r"(?i)start_?s_?with\??\s*\(|HasPrefix\(|strpos\(|str_starts_with\(|\bindexOf\(|\.index\(|\.rfind\(|\.find\(")
_SEPARATOR_RE = re.compile(r"\s*(?:\+|\.|\.\.|<>)\s*(?:os\.sep|os\.path\.sep|path\.sep|File\.separator(?:Char)?|DIRECTORY_SEPARATOR|"
                           r"string\(\s*(?:os\.PathSeparator|filepath\.Separator)\s*\)|Path\.DirectorySeparatorChar|MAIN_SEPARATOR(?:_STR)?|"
                           r"std::path::MAIN_SEPARATOR(?:_STR)?|['\"][/\\\\]['\"]|os\.PathSeparator|filepath\.Separator)")


def _separator_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [old for old in removed[:_PAIRS] if len(old) <= 400 and _PREFIX_CALL_RE.search(old) and _SEPARATOR_RE.search(old)]
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > 400 or not _PREFIX_CALL_RE.search(line) or _SEPARATOR_RE.search(line):
            continue
        for old in olds[:_CLOSEST]:
            if squeezed(_SEPARATOR_RE.sub("", old, count=1)) == squeezed(line):
                return f"drops the separator from a path containment check (a sibling folder with the same prefix passes): {_pair(old, line)}"
    return None


_SETTING_SCREEN = (_LIFETIME_KEY_RE, _PORT_ON_LOOP_RE, _PORT_ANY_RE)


def screen(line: str) -> bool:
    """A settings or build file's line these readers read (a lifetime key's number, a published port), kept for the rules
    though it holds no risky word (relay.review.file_kinds keeps only such lines of those files)."""
    return len(line) <= 400 and any(pattern.match(line) for pattern in _SETTING_SCREEN)


def subtle_turned(path: str, added: Sequence[str], removed: Sequence[str], *, sample: bool = False) -> tuple[str, bool] | None:
    """The first of these kinds the edit turns, with whether it is classic (high). A docs page's sample is left to the
    other readers (its lines are an example's, not the project's)."""
    if sample:  # round 31: a sample's bound dropped is read as in source (a reader copies the sample)
        return (found, False) if (found := sample_turned(sample_lines(added), sample_lines(removed))) else None
    for found in (_bind_widened(path, added, removed), key_size_lowered(path, added, removed)):
        if found:
            return found, True
    if (quiet := quiet_turned(added, removed)) is not None:
        return quiet
    for found in (_separator_dropped(added, removed), _lock_dropped(added, removed), _anchors_dropped(added, removed), _rejection_dropped(added, removed),
                  _same_site_weakened(added, removed), _request_logged(added, removed), _comparison_inverted(added, removed), _match_made_partial(added, removed),
                  _duration_raised(path, added, removed), _setting_lifetime_raised(path, added, removed), one_token_turned(path, added, removed)):
        if found:
            return found, False
    return None
