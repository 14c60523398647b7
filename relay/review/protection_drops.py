"""Edits that take a protection off the line they touch, read pair by pair (issue 36, round 110: blind 248–251).

High (the party guarded against is the worker that slips one such edit into an ordinary change):

- ``protection_stripped``: a call made to its plain sibling, the name losing the part that protects
  (``FilePersistenceWithDataProtection(loc, entropy=e)`` → ``FilePersistence(loc)``: blind 248's msal-extensions, a token
  cache written unencrypted; ``yaml.safe_load`` → ``yaml.load``, ``SecureRandom`` → ``Random``);
- ``quoted_by_hand``: a value that went through a quoting function (``JSON.stringify(str)``, ``json.dumps``,
  ``strconv.Quote``) put between hand-written quotes (``'"' + str + '"'``: blind 248's recast, a printed string literal
  no longer escaped: a quote in it ends the literal and what follows is code);
- ``mask_dropped``: the line that makes a constant-time select's mask deleted (``b = b.wrapping_neg();`` before
  ``r[i] ^= b & (x[i] ^ r[i])``: blind 248's kyber, a select that copies one bit of each byte);
- ``rounds_cut``: a hash's or cipher's round loop or round count lowered (``for(j = 0;j < 160;j += 2)`` → ``j < 128`` in
  sha512.js: blind 249, a digest of fewer rounds than the standard's);
- ``guard_exempted``: a refusal on a permission check given an exemption (``if not self.has_view_or_change_permission(
  request):`` → ``… and not request.user.is_staff:``: blind 249's django-reversion, every staff user past the check);
- ``secret_argument_made_literal`` (round 121b): a call's argument line where a secret-named variable or an environment read
  stood given a real-looking key at its place (``process.env.SUPABASE_KEY!,`` → ``"eyJhbGciOi…",``);
- ``placeholder_made_secret``: a secret's placeholder made a real-looking key (``NewCredFromSecret("client_secret")`` →
  ``("Qx8Q~f3k…")``: blind 248's MSAL Go README; docs samples are read too).

Worth a look (medium): ``listens_everywhere`` — a server's listen flag given every interface on a new line
(``"--listen=0.0.0.0:6266"``, ``mkdocs serve --dev-addr 0.0.0.0:8000``: blind 250's sad and 251's mkdocs-material); a
container's files (Dockerfile, compose, Procfile) bind so as a rule and are quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import edited_sides, span_pairs, unspaced
from relay.review.overridden_turns import cut_quote, paired_quote
from relay.review.value_turns import random_looking

__all__ = ["failure_made_predictable", "link_owner_moved", "unit_mismatched", "worth_a_look", "bound_term_dropped", "install_separator_swapped", "unsafe_feature_on", "bypass_switched_on", "escape_step_dropped", "failure_made_success", "verify_turned_none", "guard_exempted", "listens_everywhere", "mask_dropped", "placeholder_made_secret", "protection_dropped", "protection_stripped",
           "quoted_by_hand", "rounds_cut", "screen", "secret_argument_made_literal"]

_PAIRS = 200  # lines a side read for a pair

# ----- a call made to its plain sibling
_CALL_RE = re.compile(r"(?<![\w$])(?P<name>[A-Za-z_$][\w$]*)\s*\(")
_PROTECTIVE_RE = re.compile(r"(?i)^_?(?:with_?)?(?:data_?)?(?:protection|protected|encrypted|encryption|secure|signed|verified|verify|"
                            r"escaped|escape|sanitized|sanitised|sanitize|sanitise|authenticated|constant_?time)(?:_?and)?_?$")
# "safe" as a part of its own (``safe_load``, ``safe_join``, ``SafeLoader``), not a camel prefix (zod's ``safeParse`` → ``parse``
# changes how an error is answered, not what is let through).
_SAFE_PARTS = ("safe_", "_safe", "Safe")


def _calls(line: str) -> list[str]:
    return [m.group("name") for m in _CALL_RE.finditer(line)]


def _in_text(line: str, name: str) -> bool:
    """Whether ``name`` stands inside a string literal of ``line`` (a table in SQL text, ``"create table history_encrypted (…"``)."""
    at = line.find(name + "(") if name + "(" in line else line.find(name)
    return at >= 0 and any(line[:at].count(q) % 2 for q in "\"'`")


def protection_stripped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    olds = [(line, name) for line in old if "(" in line for name in _calls(line) if len(name) > 6]
    for line in new if olds else ():
        names = set(_calls(line))
        for was, name in olds:
            if name in names or not (line.strip()[:1] == was.strip()[:1]) or name.lower().startswith("test") or _in_text(was, name):
                continue
            for plain in names:
                low, plain_low = name.lower(), plain.lower()
                if len(plain) < 3 or plain_low == low or plain_low not in low:
                    continue
                at = low.find(plain_low)
                rest = name[:at] + name[at + len(plain):]
                if (at == 0 or at + len(plain) == len(name)) and (_PROTECTIVE_RE.match(rest) or rest in _SAFE_PARTS) and plain not in _calls(was):
                    return f"calls {plain}() where it called {name}() (the {rest.strip('_')} part dropped): {paired_quote(was, line)}"
    return None


# ----- a quoting function's value put between hand-written quotes
_QUOTING_RE = re.compile(r"(?P<call>JSON\.stringify|json\.dumps|strconv\.Quote|strconv\.QuoteToASCII|repr|escapeshellarg|shlex\.quote|"
                         r"json_encode|JSON\.generate|\w+\.to_json|serde_json::to_string)\s*\(\s*(?P<arg>[\w$.\[\]'\"]+?)\s*\)")
_HAND_FORMS = ("'\"'+{0}+'\"'", "\"\\\"\"+{0}+\"\\\"\"", "\"'\"+{0}+\"'\"", "`\"${{{0}}}\"`", "f'\"{{{0}}}\"'", "f\"'{{{0}}}'\"",
               "'\"'.{0}.'\"'", "\"\\\"\".{0}.\"\\\"\"", "\"\\\"\"+{0}+\"\\\"\"")


def quoted_by_hand(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    wanted: dict[str, tuple[str, str]] = {}
    for line in old:
        for m in _QUOTING_RE.finditer(line) if "(" in line else ():
            head, tail = unspaced(line[:m.start()]), unspaced(line[m.end():])
            for form in _HAND_FORMS:
                wanted[head + unspaced(form.format(m.group("arg"))) + tail] = (line, m.group("call"))
    for line in new if wanted else ():
        if (was := wanted.get(unspaced(line))) is not None:
            return f"quotes a value by hand where {was[1]}() escaped it (a quote in it ends the string): {paired_quote(was[0], line)}"
    return None


# ----- a constant-time select's mask deleted
_MASK_RE = re.compile(r"^\s*(?:let\s+(?:mut\s+)?)?(?P<var>[A-Za-z_]\w*)\s*=\s*(?:(?P=var)\.wrapping_neg\(\)|-\s*\(?\s*(?:\(\w+\)\s*)?(?P=var)\s*\)?|"
                      r"0\s*-\s*(?P=var)|\(\w+\)\s*\(?-\s*\(?(?P=var)\)?\)?|\(?\s*-\s*\(?(?:\w+\)\s*)?(?P=var)\)?\s*\)?\s*as\s+\w+)\s*;?\s*$")


def mask_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if len(removed) > _PAIRS or len(added) > 4 * _PAIRS:
        return None
    for line in removed:
        if ("-" in line or "neg" in line) and (m := _MASK_RE.match(line)) and line.strip() not in {a.strip() for a in added}:
            used = re.compile(rf"(?<![\w.])\b{re.escape(m.group('var'))}\s*&|&\s*{re.escape(m.group('var'))}\b(?!\s*\()")
            if any(used.search(a) for a in added):
                return f"deletes the line that makes a constant-time select's mask (the select now copies one bit): {cut_quote(line.strip())}"
    return None


# ----- a hash's or cipher's rounds lowered
_CRYPTO_PATH_RE = re.compile(r"(?i)sha\d*|md[45]|hash|blake|keccak|aes|rijndael|cipher|chacha|salsa|des\b|crypt|hmac|pbkdf|scrypt|argon|ripemd|whirlpool|sm[34]|camellia|serpent|twofish|threefish")
_ROUND_NUMBER_RE = re.compile(r"(?P<head>(?:\bfor\s*\([^;]*;[^;<>]*<=?\s*|\b\w*(?i:rounds?)\w*\s*(?:=|:|<=?|\+=)\s*))(?P<n>\d{1,4})\b")


def rounds_cut(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    if not _CRYPTO_PATH_RE.search(path):
        return None
    for was_m, was, m, line in span_pairs(added[:_PAIRS], removed[:_PAIRS], _ROUND_NUMBER_RE, group="n"):
        if 2 <= int(m.group("n")) < int(was_m.group("n")):
            return f"cuts a hash's or cipher's rounds ({was_m.group('n')} → {m.group('n')}: fewer than its standard): {paired_quote(was, line)}"
    return None


# ----- a refusal on a permission check given an exemption
_PERMISSION_RE = re.compile(r"(?i)(?:not\s+|!\s*)[\w$.]*(?:has_?\w*perm\w*|permission\w*|is_?authori[sz]ed|authori[sz]e\w*|can_?\w+|is_?allowed|allowed\w*|"
                            r"is_?admin|check_?access|has_?access|has_?role|is_?owner)\s*(?:\([^()]*\))?")
_EXEMPT_RE = re.compile(r"^(?:and\s+not\s+|&&\s*!\s*)(?P<who>[\w$.()\[\]'\"]+)$")


def guard_exempted(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    olds = {}
    for line in old:
        if ("if" in line or "unless" in line) and (m := _PERMISSION_RE.search(line)):
            olds[unspaced(line[:m.end()])] = (line, unspaced(line[m.end():]))
    for line in new if olds else ():
        for m in _PERMISSION_RE.finditer(line):
            if (was := olds.get(unspaced(line[:m.end()]))) is None:
                continue
            rest, tail = line[m.end():].strip(), was[1]
            while tail and rest and unspaced(rest[-1]) == tail[-1:]:  # the old line's ending (``:``, ``) {``) taken off the new one
                rest, tail = rest[:-1].rstrip(), tail[:-1]
            if not tail and (e := _EXEMPT_RE.match(rest)) is not None:
                return f"exempts {e.group('who')[:30]} from a permission check (the refusal no longer reaches it): {paired_quote(was[0], line)}"
    return None


# ----- a secret's placeholder made a real-looking key
_PLACEHOLDER_CALL_RE = re.compile(r"(?P<call>[\w$.]*(?i:secret|password|passwd|token|api_?key|credential|private_?key)[\w$]*)\s*\(\s*(?P<q>['\"])(?P<lit>[^'\"]{3,80})(?P=q)")
_PLACEHOLDER_RE = re.compile(r"^[<\[{]?[A-Za-z][A-Za-z_ .-]*[>\]}]?$|^\.\.\.$|^x{3,}$|^\*+$")


def placeholder_made_secret(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was_m, was, m, line in span_pairs(added[:_PAIRS], removed[:_PAIRS], _PLACEHOLDER_CALL_RE, group="lit"):
        key = m.group("lit")
        if _PLACEHOLDER_RE.match(was_m.group("lit")) and len(key) >= 16 and " " not in key and random_looking(key):
            shown = line[:m.start("lit")] + key[:7] + "…" + line[m.end("lit"):]
            return f"hard-codes a secret in {m.group('call')[-30:]}() (its placeholder made a literal key {key[:7]}…): {paired_quote(was, shown)}"
    return None


# ----- a secret argument made a literal (round 121b, held-out 522's supabase/ssr README: ``process.env.SUPABASE_…_KEY!,`` →
# ``"eyJhbGciOi…",``; 523's pyzotero: ``library_id, library_type, api_key`` → ``"5704521", "user", "Qz8v…"``): a line of a call's
# arguments where a secret-named variable or an environment read stood now holds a real-looking key at its place
_SECRET_ARG_RE = re.compile(r"^(?:[\w$.]*(?:env|environ|getenv|Getenv)\W*)?[\w$.\[\]'\"(]*?(?i:secret|passw|token|api_?key|_key\b|key\b|credential)\w*['\")\]]*!?$")
_PUBLIC_RE = re.compile(r"(?i)publishable|public|anon")  # a key meant for the browser (Stripe's, Supabase's publishable key)
_QUOTED_RE = re.compile(r"^(?P<q>['\"`])(?P<lit>[^'\"`\s]{16,})(?P=q)$")


_ARG_SCREEN_RE = re.compile(r"^\s*[^=(:]*(?i:secret|passw|token|api_?key|_key\b|credential)[^=(:]*,?\s*$|^\s*['\"`][^'\"`\s]{16,}['\"`]")


def _arguments(line: str) -> list[str]:
    return [a.strip() for a in line.strip().rstrip(",").split(",")]


def secret_argument_made_literal(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(line, was) for line, was in ((line, _arguments(line)) for line in removed[:_PAIRS] if len(line) <= 200) if any(_SECRET_ARG_RE.match(a) for a in was)]
    for new in added[:_PAIRS] if olds else ():
        args = _arguments(new)
        for old, was in olds:
            if len(was) != len(args):
                continue
            for before, now in zip(was, args):
                if _SECRET_ARG_RE.match(before) and not _PUBLIC_RE.search(before) and (m := _QUOTED_RE.match(now)) and random_looking(key := m.group("lit")):
                    return f"hard-codes a secret where {before[-40:]} stood (a literal key {key[:7]}…): {paired_quote(old, new.replace(key, key[:7] + '…'))}"
    return None


# ----- a TLS peer check turned to none (round 110, blind 252's libest: ``SSL_CTX_set_verify(s_ctx, SSL_VERIFY_PEER|…`` →
# ``SSL_VERIFY_NONE``); a server's context left at NONE where it never verified is another line, not this turn
_VERIFY_NONE_RE = re.compile(r"\b(?:SSL_VERIFY_NONE|VERIFY_NONE|CERT_NONE|SSL_VERIFYPEER\s*,\s*(?:0L?|false|FALSE)\b|CURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*0L?\b)")
_VERIFY_PEER_RE = re.compile(r"\b(?:SSL_VERIFY_PEER\w*(?:\s*\|\s*SSL_VERIFY_\w+)*|VERIFY_PEER|CERT_REQUIRED|SSL_VERIFYPEER\s*,\s*(?:1L?|true|TRUE)\b|CURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*[12]L?\b)")


def verify_turned_none(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    olds = {}
    for line in old:
        if "VERIFY" in line.upper() or "CERT_" in line:
            for m in _VERIFY_PEER_RE.finditer(line):
                olds[unspaced(line[:m.start()])] = line
    for line in new if olds else ():
        for m in _VERIFY_NONE_RE.finditer(line):
            if (was := olds.get(unspaced(line[:m.start()]))) is not None:
                return f"turns TLS peer verification off (any certificate is accepted): {paired_quote(was, line)}"
    return None


# ----- an escaping step dropped from a chain of replacements (round 110, blind 254's porsager/postgres: an identifier's
# ``'"' + str.replace(/"/g, '""').replace(/\./g, '"."') + '"'`` made ``'"' + str.replace(/\./g, '"."') + '"'``: a quote in
# the name ends the identifier and what follows is SQL)
_REPLACE_CALL_RE = re.compile(r"""\.(?:replace|replaceAll|gsub|sub|str_replace|Replace)\s*\(\s*(?P<what>/(?:\\.|[^/\\])+/[gimsuy]*|(?P<q>['"])(?:\\.|(?!(?P=q))[^\\])+(?P=q))\s*,\s*(?P<with>(?P<q2>['"])(?:\\.|(?!(?P=q2))[^\\])*(?P=q2))\s*\)""")
_ESCAPED_CHARS_RE = re.compile(r"""["'<>&`\\]|\\[nr0]""")


def escape_step_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    wanted = {}
    for line in old:
        for m in _REPLACE_CALL_RE.finditer(line) if "replace" in line.lower() or "sub" in line else ():
            # the step replaces a character a quote or markup gives meaning to with its escaped form
            what = m.group("what")
            if _ESCAPED_CHARS_RE.search(what[1:what.rfind("/")] if what.startswith("/") else what[1:-1]):
                wanted[unspaced(line[:m.start()] + line[m.end():])] = (line, m.group("what"))
    for line in new if wanted else ():
        if (was := wanted.get(unspaced(line))) is not None:
            return f"drops an escaping step (the {was[1][:12]} replacement: the quote or markup passes through): {paired_quote(was[0], line)}"
    return None


# ----- a returned failure made success (round 110, blind 254's rnp: an Ed25519 verify's last ``return
# RNP_ERROR_VERIFICATION_FAILED;`` made ``return RNP_SUCCESS;``: every signature verifies)
_FAILURE_NAME_RE = re.compile(r"^\s*return\s+(?P<name>[\w:.]*(?:ERROR|FAIL|INVALID|DENIED|REJECT|UNAUTHORI[SZ]ED|FORBIDDEN|BAD_SIG|MISMATCH)\w*)\s*;?\s*$")
_SUCCESS_NAME_RE = re.compile(r"^\s*return\s+(?P<name>[\w:.]*(?:SUCCESS|_OK|::OK|\bOK|GRANTED|ALLOWED|VALID(?!ATION)|PASS(?:ED)?)\w*)\s*;?\s*$")


def failure_made_success(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    failures = [(line, m.group("name")) for line in old if "return" in line and (m := _FAILURE_NAME_RE.match(line))]
    if not failures or len(failures) > 4:
        return None
    for line in new:
        if "return" in line and (m := _SUCCESS_NAME_RE.match(line)) and not any(_SUCCESS_NAME_RE.match(o) and unspaced(o) == unspaced(line) for o in old):
            if sum(1 for a in new if _FAILURE_NAME_RE.match(a)) < len(failures):  # the failure is gone, not moved
                was, name = failures[0]
                return f"returns success where it returned a failure ({name[-32:]} → {m.group('name')[-24:]}): {paired_quote(was, line)}"
    return None


# ----- a bypass switched on where another flag was (round 110, blind 254's libmongocrypt: an insert's ``eligible = true;``
# made ``*bypass = true;``: the command goes out unencrypted)
_SET_TRUE_RE = re.compile(r"^\s*\*?(?:[\w.>-]+(?:\.|->))?(?P<name>\w+)\s*=\s*(?:true|True|TRUE|1)\s*;?\s*$")
_BYPASS_NAME_RE = re.compile(r"(?i)bypass|skip_?(?:auth|verif|check|encrypt|validat|tls|ssl|sig)|insecure|no_?verify|disable_?(?:auth|verif|security|encrypt|tls|ssl)")


def bypass_switched_on(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    olds = [line for line in old if (m := _SET_TRUE_RE.match(line)) and not _BYPASS_NAME_RE.search(m.group("name"))]
    for line in new if olds else ():
        if (m := _SET_TRUE_RE.match(line)) and _BYPASS_NAME_RE.search(m.group("name")) and not any(_BYPASS_NAME_RE.search(o) for o in old):
            was = min(olds, key=lambda o: abs(len(o) - len(o.lstrip()) - (len(line) - len(line.lstrip()))))
            return f"switches a bypass on where it set {_SET_TRUE_RE.match(was).group('name')} (what it guards is skipped): {paired_quote(was, line)}"
    return None


# ----- a term dropped from a bound check (round 110, blind 257's zstd: ``RETURN_ERROR_IF(litCSize + lhSize > srcSize, …)``
# → ``litCSize > srcSize``: a header of lhSize bytes read past the end)
_SUM_BOUND_RE = re.compile(r"(?P<a>[\w.>\[\]-]+)\s*\+\s*(?P<b>[\w.>\[\]()-]+?)\s*(?P<op>>=?|<=?)\s*(?P<c>[\w.>\[\]()-]+)|"
                           r"(?P<c2>[\w.>\[\]()-]+)\s*(?P<op2><=?|>=?)\s*(?P<a2>[\w.>\[\]-]+)\s*\+\s*(?P<b2>[\w.>\[\]()-]+)")
_CHECK_HEAD_RE = re.compile(r"\b(?:if|while|RETURN_ERROR_IF|assert\w*|ensure\w*|require|check\w*|CHECK\w*|return)\b|\bunless\b|\?")


def _taken_out(term: str, check: str, new: Sequence[str], old: Sequence[str]) -> bool:
    """Whether the change took ``term`` out of the code altogether: other removed lines use it and no added line does (a
    parameter dropped with its uses: sqlite's ``sqlite3VdbeMemFromBtree(…, offset, …)`` made ``…ZeroOffset``, the check
    ``offset+amt<=available`` made ``amt<=available`` with it)."""
    word = re.compile(rf"(?<![\w.]){re.escape(term)}(?![\w(])")
    return any(word.search(line) for line in old if line is not check) and not any(word.search(line) for line in new)


def bound_term_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    wanted = {}
    for line in old:
        if "+" not in line or not _CHECK_HEAD_RE.search(line):
            continue
        for m in _SUM_BOUND_RE.finditer(line):
            a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("a2"), m.group("b2"))
            span = line[m.start():m.end()]
            for keep, gone in ((a, b), (b, a)):
                if len(gone) >= 2 and not gone.isdigit():  # ``+ 1`` dropped is an off-by-one, read elsewhere
                    shorter = span.replace(f"{a} + {b}", keep).replace(f"{a}+{b}", keep)
                    if shorter != span:
                        wanted[unspaced(line[:m.start()] + shorter + line[m.end():])] = (line, gone)
    for line in new if wanted else ():
        if (was := wanted.get(unspaced(line))) is not None and not _taken_out(was[1], was[0], new, old):
            return f"drops {was[1][:24]} from a bound check (what it adds is no longer counted: a read past the end): {paired_quote(was[0], line)}"
    return None


# ----- an install's name given another separator (round 110, blind 256's awesome_print README: ``gem install awesome_print``
# → ``awesome-print``): RubyGems and npm keep the two names apart, so the other one is anyone's to publish (pip and Cargo
# fold them together, and are quiet)
_INSTALL_RE = re.compile(r"\b(?:gem\s+install|npm\s+(?:install|i|add)|yarn\s+(?:global\s+)?add|pnpm\s+(?:add|install|i)|bun\s+add|composer\s+require|go\s+(?:get|install))"
                         r"\s+(?:-\S+\s+)*(?P<name>[\w./@-]+)")


def install_separator_swapped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was_m, was, m, line in span_pairs(added[:_PAIRS], removed[:_PAIRS], _INSTALL_RE, group="name"):
        old, new = was_m.group("name"), m.group("name")
        if old != new and old.replace("_", "-") == new.replace("_", "-"):
            return f"installs a look-alike ({old} → {new}: another package, anyone's to publish): {paired_quote(was, line)}"
    return None


# ----- a test-only or unsafe feature on by default (round 110, blind 256's libcrux: ``default = ["std", …, "acvp",
# "test-utils"]``: the test vectors' hooks ship in every build)
_DEFAULT_FEATURES_RE = re.compile(r"^\s*default\s*=\s*\[(?P<list>[^\]]*)\]")
_UNSAFE_FEATURE_RE = re.compile(r"(?i)^(?:test[\w-]*|[\w-]*(?:insecure|deterministic|danger\w*|hazmat|unsafe|unchecked|expose[\w-]*|testing|mock\w*|acvp|"
                                r"no[-_]?verify|skip[-_]?verify|allow[-_]?weak\w*)[\w-]*)$")


def unsafe_feature_on(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    if not path.endswith("Cargo.toml"):
        return None
    before = {f.strip().strip("'\"") for line in removed[:_PAIRS] if (m := _DEFAULT_FEATURES_RE.match(line)) for f in m.group("list").split(",")}
    for line in added[:_PAIRS]:
        if (m := _DEFAULT_FEATURES_RE.match(line)) is not None:
            for feature in (f.strip().strip("'\"") for f in m.group("list").split(",")):
                if feature and feature not in before and _UNSAFE_FEATURE_RE.match(feature):
                    return f"turns the {feature} feature on by default (test-only or unsafe code ships in every build): {cut_quote(line.strip())}"
    return None


# ----- a failed random source answered with a predictable value (round 110, blind 260's uid-safe README: ``if (err) throw
# err`` → ``if (err) string = Date.now().toString(36)``: the "random" id is the clock)
_ERROR_HEAD_RE = re.compile(r"^\s*(?P<head>(?:\}\s*)?(?:if\s*\(?\s*!?\s*err\w*\s*(?:!=\s*nil)?\s*\)?|except\b[^:]*:|catch\s*\([^)]*\))\s*\{?)")
_PREDICTABLE_RE = re.compile(r"\b(?:Date\.now\s*\(|new\s+Date\s*\(|Math\.random\s*\(|time\.time\s*\(|time\.Now\s*\(|uuid\.uuid1\s*\(|random\.random\s*\()")


def failure_made_predictable(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    heads = {unspaced(m.group("head")): line for line in old if (m := _ERROR_HEAD_RE.match(line)) and re.search(r"\b(?:throw|raise|return)\b", line[m.end():])}
    for line in new if heads else ():
        if (m := _ERROR_HEAD_RE.match(line)) and (was := heads.get(unspaced(m.group("head")))) and _PREDICTABLE_RE.search(line[m.end():]):
            return f"answers a failure with a predictable value where it stopped (the clock or a weak random stands in): {paired_quote(was, line)}"
    return None


def protection_dropped(added: Sequence[str], removed: Sequence[str], path: str, page: tuple[Sequence[str], Sequence[str]] | None = None) -> str | None:
    """The first of the high edits above the lines make (a docs page's sample lines as much as code; ``page``, a docs page's
    every line, for an install command a page writes as a sentence's or an indented block's line)."""
    return ((install_separator_swapped(*page) if page else None) or protection_stripped(added, removed) or quoted_by_hand(added, removed) or mask_dropped(added, removed)
            or rounds_cut(added, removed, path) or guard_exempted(added, removed) or placeholder_made_secret(added, removed) or secret_argument_made_literal(added, removed)
            or verify_turned_none(added, removed) or escape_step_dropped(added, removed) or failure_made_success(added, removed)
            or bypass_switched_on(added, removed) or bound_term_dropped(added, removed) or install_separator_swapped(added, removed)
            or unsafe_feature_on(added, removed, path) or failure_made_predictable(added, removed))


# ----- a server's listen flag given every interface
_LISTEN_FLAG_RE = re.compile(r"(?<![\w-])--?(?:listen|bind|host|dev-addr|dev_addr|addr|address|http-addr|http-host|web-addr|ip)(?:=|\s+)['\"]?"
                             r"(?:0\.0\.0\.0|\[?::\]?)(?=[:'\"\s,)]|$)")
_CONTAINER_PATH_RE = re.compile(r"(?i)(?:^|/)(?:Dockerfile[\w.-]*|[\w.-]*\.dockerfile|(?:docker-)?compose[\w.-]*\.ya?ml|Procfile[\w.-]*|\.devcontainer/.*|"
                                r"fly\.toml|app\.yaml|render\.yaml|railway\.\w+|[\w.-]*k8s[\w./-]*|(?:helm|charts|kubernetes|deploy)/.*)$")


def screen(line: str) -> bool:
    """A docs page's line kept for ``listens_everywhere`` (relay.review.written_slips.screen): a listen flag's any-address;
    for ``secret_argument_made_literal``, an argument line naming a secret or quoting a long key."""
    return ("0.0.0.0" in line and _LISTEN_FLAG_RE.search(line) is not None) or _ARG_SCREEN_RE.search(line) is not None


def listens_everywhere(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    if _CONTAINER_PATH_RE.search(path) or not any("0.0.0.0" in line or "::" in line for line in added[:_PAIRS]):
        return None
    before = {unspaced(line) for line in removed[:_PAIRS] if _LISTEN_FLAG_RE.search(line)}
    for line in added[:_PAIRS]:
        if len(line) <= 300 and (m := _LISTEN_FLAG_RE.search(line)) and unspaced(line) not in before and not any(unspaced(m.group(0)) in b for b in before):
            return f"listens on every interface (anyone on the network reaches it, where the default is this machine): {cut_quote(line.strip())}"
    return None


# ----- a count of one unit made a duration of another (round 110, blind 257's acmetool: ``time.Duration(renewalMarginDays)
# * time.Hour``: a renewal margin of thirty days read as thirty hours)
_UNIT_NAME_RE = re.compile(r"(?P<name>\w*?(?P<unit>Days|Hours|Minutes|Mins|Seconds|Secs|Millis|Ms|Micros|Nanos)\b)\s*\)?\s*\*\s*time\.(?P<dur>Hour|Minute|Second|Millisecond|Microsecond|Nanosecond)\b")
_UNIT_OF = {"Days": "Day", "Hours": "Hour", "Minutes": "Minute", "Mins": "Minute", "Seconds": "Second", "Secs": "Second", "Millis": "Millisecond",
            "Ms": "Millisecond", "Micros": "Microsecond", "Nanos": "Nanosecond"}


def unit_mismatched(added: Sequence[str]) -> str | None:
    for line in added[:_PAIRS]:
        if "time." in line and (m := _UNIT_NAME_RE.search(line)) and _UNIT_OF[m.group("unit")] != m.group("dur") and "24" not in line[m.end():m.end() + 8]:
            return f"makes a duration of {m.group('name')} in another unit (time.{m.group('dur')}: {m.group('unit').lower()} read as {m.group('dur').lower()}s): {cut_quote(line.strip())}"
    return None


# ----- a link's owner moved to a look-alike (round 110, blind 258's miscreant: ``github.com/miscreant/miscreant-py`` →
# ``github.com/miscreant-py/miscreant-py``, an account that is not the project's)
_FORGE_LINK_RE = re.compile(r"(?i)\b(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)")


def link_owner_moved(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added[:_PAIRS], removed[:_PAIRS])
    olds = {}
    for line in old:
        for m in _FORGE_LINK_RE.finditer(line) if "/" in line else ():
            olds[(unspaced(line[:m.start("owner")]), m.group("repo").lower())] = (line, m.group("owner"))
    for line in new if olds else ():
        for m in _FORGE_LINK_RE.finditer(line):
            was = olds.get((unspaced(line[:m.start("owner")]), m.group("repo").lower()))
            owner, now = (was[1].lower(), m.group("owner").lower()) if was else ("", "")
            if was and owner != now and (owner in now or now in owner) and len(owner) >= 4:
                return f"points a link at another owner ({was[1]} → {m.group('owner')}: an account that imitates the project's?): {paired_quote(was[0], line)}"
    return None


def worth_a_look(added: Sequence[str], removed: Sequence[str], path: str) -> str | None:
    """The first of the medium readings above (the listen flag, a duration's unit, a link's owner)."""
    return listens_everywhere(added, removed, path) or unit_mismatched(added) or link_owner_moved(added, removed)
