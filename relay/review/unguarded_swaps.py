"""A protection swapped out of a line that otherwise stays: the edited pair read for what it gave up (issue 36, round 96).

Read from blind 156–159's misses, each as its kind, in any language, on an edited pair (the old line and the new):

- ``stash_tripled`` (high): a template's value made raw — ``{{x}}`` → ``{{{x}}}`` (Handlebars, Mustache) or ``{{& x}}``:
  the same value, no longer escaped (blind 156's vaultwarden, an admin page's latest-release field).
- ``parameter_inlined`` (high): a SQL text that bound a value (``?``, ``%s``, ``$1``, ``:name``) now writes it in
  (``"strftime(?, #{column})", format`` → ``"strftime('#{format}', #{column})"``): blind 156's groupdate, a format a caller
  passes put into the query's text.
- ``seed_dropped`` (high): a hasher's random seed given up for a fixed one (``RandomState`` → ``BuildHasherDefault<…>``):
  every map's buckets are known in advance, and crafted keys collide (blind 157's indexmap).
- ``version_lowered`` (high): a signature's or a protocol's version turned down (``sig_version = 5`` → ``2``,
  ``min_tls_version = "1.2"`` → ``"1.0"``): blind 156's duo_client, requests signed by a weaker scheme.

Rounds 97–100, from blind 160–175: ``strength_unmade`` (a name that promises strength pointed at a legacy scheme, a
password prompt's masking dropped), ``test_left_out`` (a test script told to skip a folder, or its ``&&`` made ``||``),
``unsafe_variant`` (a call turned to the variant named unsafe, insecure or no-validation, the line otherwise the same up to
it), ``cap_dropped`` (a clamp to a maximum removed with no clamp to that maximum left), ``guard_unlisted`` (a security
linter or middleware taken off its list, in a linter's config and a page's sample). Rounds 103–107, from blind 184–203:
``refusal_voided`` (Python's ``continue`` or ``raise`` made ``pass``), ``error_discarded`` (an error returned with ``?``
discarded with ``.ok()`` or ``let _ =``; a head naming no call only in a small edit), ``client_auth_lowered`` (a server's
check of its clients' certificates lowered: Go's ``tls.ClientAuthType``, Python's ``ssl.CERT_*``).

What stays quiet: the same swap the other way (escaping added, a parameter bound, a seed kept, a version raised, the safe
variant called), a release's own version (no signature or protocol in its name), a message's ``%s`` made an f-string (a
literal must be shaped as SQL), two unrelated lines that only pair up, a cap kept under another name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed
from relay.review.overridden_turns import cut_quote, paired_quote

__all__ = ["GUARD_WORD_RE", "cap_dropped", "cookie_jar_unsigned", "hmac_self_keyed", "guard_unlisted", "error_discarded", "parameter_inlined", "refusal_voided", "screen", "seed_dropped", "stash_tripled", "strength_unmade", "test_left_out", "unguarded_swap", "unsafe_variant", "version_lowered"]

_PAIRS = 40  # lines a side read
_LONG = 400  # longer lines are not read (a minified bundle's)


def _pairs(added: Sequence[str], removed: Sequence[str], word: str | None = None):
    """Each (old, new) of the first lines a side, both short, ``word`` in both when given."""
    olds = [line for line in removed[:_PAIRS] if len(line) <= _LONG and (word is None or word in line)]
    news = [line for line in added[:_PAIRS] if len(line) <= _LONG and (word is None or word in line)] if olds else []
    return ((old, new) for new in news for old in olds if old != new)


# ----- a template's value made raw
_STASH_RE = re.compile(r"(?<!\{)\{\{\s*(?![{&#/!>^])(?P<x>[^{}]+?)\s*\}\}(?!\})")
_RAW_RE = re.compile(r"\{\{\{\s*(?P<x>[^{}]+?)\s*\}\}\}|\{\{&\s*(?P<y>[^{}]+?)\s*\}\}")


def stash_tripled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "{{"):
        escaped = {m.group("x") for m in _STASH_RE.finditer(old)}
        raw = {m.group("x") or m.group("y") for m in _RAW_RE.finditer(new)} - {m.group("x") or m.group("y") for m in _RAW_RE.finditer(old)}
        if made := sorted(escaped & raw):
            return f"renders a value unescaped ({{{{{{{made[0]}}}}}}}: cross-site scripting?): {paired_quote(old, new)}"
    return None


# ----- a bound parameter written into SQL text
# A statement's shape, not one word of it (satosa's ``"Missing key '%s' from config"`` made an f-string: "from" alone is English).
_SQL_RE = re.compile(r"(?i)\bselect\b.*\bfrom\b|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|\bwhere\s+\w+\s*(?:=|<|>|!|\bin\b|\blike\b)|"
                     r"\bvalues\s*\(|\border\s+by\b|\bgroup\s+by\b|\b(?:strftime|date_trunc|extract)\s*\(")
_LITERAL_RE = re.compile(r"""(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q))[^\\])*)(?P=q)""")
_BOUND_RE = re.compile(r"(?<![?\w])\?(?![?.\w])|%s\b|(?<![\w$])\$\d\b|(?<![:\w]):[a-z_]\w*\b")
_WRITTEN_RE = re.compile(r"#\{[^}]+\}|\$\{[^}]+\}|(?<![{\\])\{[a-z_]\w*\}|['\"]\s*\+\s*\w|\w\s*\+\s*['\"]|['\"]\s*\.\s*\$\w")


def _counts(line: str) -> tuple[int, int]:
    """(values bound, values written in) across the line's string literals that read as SQL."""
    bound = written = 0
    for m in _LITERAL_RE.finditer(line):
        if _SQL_RE.search(m.group("s")):
            bound += len(_BOUND_RE.findall(m.group("s")))
            written += len(_WRITTEN_RE.findall(m.group("s")))
    # A value joined to the text outside the literal (``"… = '" + name + "'"``) is written in too.
    return bound, written + len(re.findall(r"""['"]\s*\+\s*[A-Za-z_]|[A-Za-z_)\]]\s*\+\s*['"]""", line)) * bool(_SQL_RE.search(line))


def parameter_inlined(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if not _SQL_RE.search(new):
            continue
        (b0, w0), (b1, w1) = _counts(old), _counts(new)
        if b1 < b0 and w1 > w0:
            return f"writes a value into SQL text where it was bound (SQL injection?): {paired_quote(old, new)}"
    return None


# ----- a hasher's random seed dropped
_SEEDED_RE = re.compile(r"\bRandomState\b|\bahash::RandomState\b|\bfoldhash::fast::RandomState\b")
_FIXED_RE = re.compile(r"\bBuildHasherDefault\s*<|\bFxBuildHasher\b|\bFnvBuildHasher\b|\bRandomState::with_seeds?\s*\(|\bfixed_state\b|\bFixedState\b")


def seed_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if _SEEDED_RE.search(old) and _FIXED_RE.search(new) and not _FIXED_RE.search(old):
            return f"gives up the hasher's random seed (crafted keys collide: hash flooding): {paired_quote(old, new)}"
    return None


# ----- a signature's or a protocol's version lowered
_VERSION_RE = re.compile(r"(?i)(?P<name>\b[\w.]*(?:sig(?:nature)?|tls|ssl|protocol|proto|auth|hmac|kdf|hash|cipher|crypt\w*)_?version\w*)"
                         r"['\"]?\s*(?:=>|[:=])\s*['\"]?(?:[\w.]*?(?:TLS|SSL|v|V)_?)?(?P<n>\d+(?:[._]\d+)?)\b")


def _number(text: str) -> float:
    return float(text.replace("_", "."))


def version_lowered(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "ersion"):
        a, b = _VERSION_RE.search(old), _VERSION_RE.search(new)
        if a and b and a.group("name") == b.group("name") and _number(b.group("n")) < _number(a.group("n")):
            return f"lowers {a.group('name')} ({a.group('n')} → {b.group('n')}: a weaker scheme accepted): {paired_quote(old, new)}"
    return None


# ----- a test script told to leave tests out (round 97)
# nodemailer's ``"test"`` script given ``-not -path 'test/smtp-connection/*'`` (blind 162: the SMTP tests no longer run).
_LEFT_OUT_RE = re.compile(r"(?:-not\s+-path|--ignore(?:-pattern)?[= ]|--exclude[= ]|--testPathIgnorePatterns|--skip[= ]|--deselect[= ]|-k\s+['\"]?not\b|--grep-invert)")


def test_left_out(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "test"):
        if not re.match(r"""^\s*["']?test[\w:-]*["']?\s*[:=]""", new):
            continue
        if (m := _LEFT_OUT_RE.search(new)) and not _LEFT_OUT_RE.search(old):
            return f"leaves tests out of the test run ({m.group().strip()}): {paired_quote(old, new)}"
        # ``lint && unit`` → ``lint || unit`` (round 100: blind 174's fastq): the tests run only when the first step fails.
        if old.replace("&&", "||") == new:
            return f"lets the test script pass on its first step alone (&& → ||): {paired_quote(old, new)}"
    return None


# ----- a name that promises strength given a legacy scheme, a password prompt's masking dropped (round 97)
# go-pkcs12's ``var Modern = Modern2023`` → ``LegacyRC2`` (blind 163); prompt-toolkit's ``prompt("Enter password: ",
# is_password=True)`` → ``prompt("Enter password: ")`` (blind 162's docs sample: the password echoed as typed).
_STRONG_NAME_RE = re.compile(r"^\s*(?:(?:var|const|let|final|static|public|private|pub)\s+)*(?P<name>[\w.]*(?:[Mm]odern|[Ss]ecure|[Ss]trong|[Ss]afe|[Rr]ecommended|"
                             r"MODERN|SECURE|STRONG|SAFE|RECOMMENDED)\w*)\s*(?::[^=]{1,30})?=(?!=)\s*(?P<value>[^;\n]+)")
_LEGACY_RE = re.compile(r"(?i)legacy|insecure|\bweak|unsafe|deprecated|\brc2|\brc4|\b3?des\b|\bmd5|\bsha1\b|\bnone\b|\becb\b")
_MASK_RE = re.compile(r",?\s*\b(?:is_password|hide_input|password|masked?|secret|hidden|secure_?text\w*|obscure\w*)\s*[=:]\s*(?:True|true|1)\b")


def strength_unmade(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        a, b = _STRONG_NAME_RE.match(old), _STRONG_NAME_RE.match(new)
        if a and b and a.group("name") == b.group("name") and _LEGACY_RE.search(b.group("value")) and not _LEGACY_RE.search(a.group("value")):
            return f"points {a.group('name')} at a legacy scheme (a name that promises strength): {paired_quote(old, new)}"
        if (m := _MASK_RE.search(old)) and not _MASK_RE.search(new) and old[:m.start()] + old[m.end():] == new:
            return f"shows what is typed ({m.group().strip(', ')} dropped: the secret echoed): {paired_quote(old, new)}"
    return None


# ----- a call turned to its unsafe variant; a cap's clamp removed (round 98)
# sslcontext-kickstart's README ``.withDefaultTrustMaterial()`` → ``.withUnsafeTrustMaterial()`` (blind 165: every
# certificate trusted); liquidjs' ``else if (padWidth > MAX_STRFTIME_PAD) padWidth = MAX_STRFTIME_PAD`` removed (blind 165:
# a format's padding as wide as the template asks).
_IDENT_RE = re.compile(r"[A-Za-z_$][\w$]*")
_UNSAFE_NAME_RE = re.compile(r"(?i)unsafe|insecure|dangerous|trust_?all|no_?verif|skip_?verif|unverified|unchecked|allow_?all|permissive|"
                             r"(?-i:No[A-Z]\w*Validation|no_\w*validation)|skip_?validat|without_?validat")  # phpCAS' setNoCasServerValidation
_CLAMP_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|elif)\s*\(?\s*(?P<x>[\w$.]+)\s*>=?\s*(?P<cap>[\w$.]*(?:MAX|[Mm]ax|LIMIT|[Ll]imit|CAP|[Cc]ap)[\w$.]*)\s*\)?\s*"
                       r"(?:\{|:)?\s*(?P=x)\s*=\s*(?P=cap)\b|^\s*(?P<y>[\w$.]+)\s*=\s*(?:Math\.)?min\s*\(\s*(?P=y)\s*,\s*(?P<cap2>[\w$.]*(?:MAX|[Mm]ax|LIMIT|[Ll]imit)[\w$.]*)")


def unsafe_variant(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        a, b = _IDENT_RE.findall(old), _IDENT_RE.findall(new)
        turned = [(x, y) for x, y in zip(a, b) if x != y]
        # The one name turned, or the first turned with what follows it only the call's arguments (phpCAS'
        # ``setCasServerCACert($path)`` → ``setNoCasServerValidation()``, round 100: blind 172's hardening example).
        first = next(((i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if first is None or not _UNSAFE_NAME_RE.search(first[2]) or _UNSAFE_NAME_RE.search(first[1]):
            continue
        # A call, the line otherwise the same up to it (not a parameter's label renamed, not two lines that only pair up).
        after = new.split(first[2], 1)[1].lstrip()
        if not after.startswith("(") or old.split(first[1], 1)[0] != new.split(first[2], 1)[0]:
            continue
        if (len(a) == len(b) and len(turned) == 1 and old.replace(first[1], first[2], 1) == new) or after.startswith("()"):
            return f"calls the unsafe variant ({first[1]} → {first[2]}): {paired_quote(old, new)}"
    return None


def cap_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in removed[:_PAIRS]:
        if len(line) <= _LONG and (m := _CLAMP_RE.match(line)):
            name, cap = m.group("x") or m.group("y"), m.group("cap") or m.group("cap2")
            # The same cap kept on any line, under any name (msgpack's ``size = min(size, maxMapSize)`` → ``ln = min(ln, …)``).
            if not any(cap in new and ("min" in new or ">" in new) for new in added[:_PAIRS * 5]):
                return f"removes the cap on {name} (nothing bounds it now): {line.strip()[:120]}"
    return None


# ----- a refusal made a no-op (round 103, blind 185: pymdown-extensions' snippet path check, ``continue`` → ``pass``: a
# path outside the base folder is read instead of skipped). Python writes ``pass`` where a branch must do nothing; written
# where the branch skipped or raised, the check above it stops nothing.
_REFUSES_RE = re.compile(r"^(?P<i>\s*)(?P<r>continue|raise\b.*)\s*$")


def refusal_voided(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if new.strip() == "pass" and (m := _REFUSES_RE.match(old)) and new[:len(new) - len(new.lstrip())] == m.group("i"):
            return f"makes a refusal a no-op (what the check stopped goes on): {m.group('r')[:60]} → pass"
    return None


# ----- an error that was returned, discarded (round 105, blind 195's tokio-rustls: ``})?;`` → ``}).ok();`` in read_io(): a
# failed read of the TLS stream goes on as if it had read)
_TRIED_RE = re.compile(r"^(?P<head>.*\S)\s*\?\s*;\s*$")


def error_discarded(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # A head that names no call (``})``) pairs with any such line of a rewrite (mdcat's render.rs, blind 203): read only in a
    # small edit, where the two lines are the edit.
    small = len(added) <= 3 and len(removed) <= 3
    for old, new in _pairs(added, removed):
        if (m := _TRIED_RE.match(old)) and (small or re.search(r"\w\s*\(", m.group("head"))) and squeezed(new) in (squeezed(m.group("head") + ".ok();"), squeezed("let _ = " + m.group("head") + ";")):
            return f"discards an error the code returned (what failed goes on as if it had not): {cut_quote(old.strip(), 40)} → {cut_quote(new.strip(), 40)}"
    return None


# ----- a server's check of its clients' certificates lowered (round 107, blind 201's boulder: ``ClientAuth:
# tls.RequireAndVerifyClientCert`` → ``tls.RequestClientCert``: any certificate, or none, is taken)
_CLIENT_AUTH = {"NoClientCert": 0, "RequestClientCert": 1, "RequireAnyClientCert": 2, "VerifyClientCertIfGiven": 3, "RequireAndVerifyClientCert": 4,
                "CERT_NONE": 0, "CERT_OPTIONAL": 1, "CERT_REQUIRED": 2}
_CLIENT_AUTH_RE = re.compile(r"\b(?:tls\.|ssl\.)?(" + "|".join(_CLIENT_AUTH) + r")\b")


def client_auth_lowered(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        a, b = _CLIENT_AUTH_RE.search(old), _CLIENT_AUTH_RE.search(new)
        if a and b and _CLIENT_AUTH[b.group(1)] < _CLIENT_AUTH[a.group(1)] and squeezed(old[:a.start()]) == squeezed(new[:b.start()]):
            return f"stops verifying the clients' certificates ({a.group(1)} → {b.group(1)}): {cut_quote(new.strip(), 60)}"
    return None


# ----- a security check taken off a list (round 99)
# magefile's .golangci.toml losing ``'gosec',`` (blind 170); whitenoise's docs sample losing
# ``"django.middleware.security.SecurityMiddleware",`` from MIDDLEWARE (blind 169).
_GUARD_ITEMS = (r"gosec|bandit|semgrep|brakeman|codeql|pip-audit|safety|trivy|snyk|zizmor|gitleaks|detect-secrets|govulncheck|"
                r"django\.middleware\.(?:security\.SecurityMiddleware|csrf\.CsrfViewMiddleware|clickjacking\.XFrameOptionsMiddleware)|"
                r"[\w.]*AuthenticationMiddleware|helmet\(\)|csurf\(\)")
_GUARD_ITEM_RE = re.compile(rf"""^\s*-?\s*["']?(?P<item>{_GUARD_ITEMS})["']?\s*,?\s*$""")
GUARD_WORD_RE = re.compile(rf"(?<![\w-])(?:{_GUARD_ITEMS})(?![\w-])")  # a line a file's filter keeps for this reader, the item anywhere on it


def guard_unlisted(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """Read in a linter's or a build's config (relay.review.refusal_lists, high) and a page's sample (relay.review.last_readers),
    not in a CI workflow: a commit that moves its linters into a config file takes them off the workflow's list and puts
    them in the other file (go-password, development set 120: gosec moved to .golangci.yml), which one file's lines cannot
    see; a source file's middleware list is relay.review.risky_lines' ("removes a protection middleware")."""
    kept = " ".join(added[:_PAIRS * 5])
    for line in removed[:_PAIRS]:
        if (m := _GUARD_ITEM_RE.match(line)) and m.group("item") not in kept:
            return f"takes a security check off the list ({m.group('item')} no longer runs): removed {line.strip()}"
    return None


# ----- a cookie read from the plain jar where the signed one was (round 122b, held-out 564's authentication-zero:
# ``Session.find_by_id(cookies.signed[:session_token])`` → ``cookies[:session_token]``; Express' ``req.signedCookies``)
_SIGNED_JAR_RE = re.compile(r"\bcookies\.(?:signed|encrypted)(?=\s*[\[.(])|\bsignedCookies\b")


def cookie_jar_unsigned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "ookies"):
        for m in _SIGNED_JAR_RE.finditer(old):
            if squeezed(old[:m.start()] + "cookies" + old[m.end():]) == squeezed(new):
                return f"reads a cookie without its signature ({m.group()} → cookies: its value is whatever the browser sends): {paired_quote(old, new)}"
    return None


# ----- an HMAC keyed with the message it signs (round 122b, held-out 567's oauth2-facebook: ``hash_hmac('sha256', $accessToken,
# $appSecret)`` → ``…, $accessToken, $accessToken)``): anyone holding the message computes the proof. Read on a pair only: a
# benchmark's ``createHmac('sha256', buf).update(buf)`` keys nothing that guards (ordinary history: noble-hashes).
_SELF_KEYED_RE = re.compile(r"\bhash_hmac\s*\(\s*[^,()]+,\s*(?P<m>\$[\w>\[\]'\"-]+)\s*,\s*(?P=m)\s*[,)]|"
                            r"\bhmac\.(?:new|digest)\s*\(\s*(?P<k>[\w.]+)\s*,\s*(?P=k)\s*[,)]|"
                            r"\bcreateHmac\s*\(\s*[^,()]+,\s*(?P<n>[\w.$]+)\s*\)\s*\.update\s*\(\s*(?P=n)\s*[,)]")
_HMAC_CALL_RE = re.compile(r"\bhash_hmac\s*\(|\bhmac\.(?:new|digest)\s*\(|\bcreateHmac\s*\(")


def hmac_self_keyed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "mac"):
        if (m := _SELF_KEYED_RE.search(new)) and not _SELF_KEYED_RE.search(old) and (c := _HMAC_CALL_RE.search(old)) and c.group() == _HMAC_CALL_RE.search(new).group():
            return f"keys an HMAC with the message it signs (no secret in it: anyone holding the message computes it): {paired_quote(old, new)}"
    return None


def screen(line: str) -> bool:
    """A line a page keeps for these readers (relay.review.file_kinds): a raw template value, a seed, a version."""
    return ("{{" in line or "RandomState" in line or "BuildHasherDefault" in line or "ersion" in line and _VERSION_RE.search(line) is not None
            or _MASK_RE.search(line) is not None or _STRONG_NAME_RE.match(line) is not None or _UNSAFE_NAME_RE.search(line) is not None
            or _CLAMP_RE.match(line) is not None or GUARD_WORD_RE.search(line) is not None or "ookies" in line or _HMAC_CALL_RE.search(line) is not None)


def unguarded_swap(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first of these the edit makes (each classic: high)."""
    if not removed:
        return None
    return (stash_tripled(added, removed) or parameter_inlined(added, removed) or seed_dropped(added, removed) or version_lowered(added, removed)
            or strength_unmade(added, removed) or test_left_out(added, removed) or unsafe_variant(added, removed) or cap_dropped(added, removed)
            or refusal_voided(added, removed) or error_discarded(added, removed) or client_auth_lowered(added, removed)
            or cookie_jar_unsigned(added, removed) or hmac_self_keyed(added, removed))
