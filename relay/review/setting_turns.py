"""A security setting or a check's shape turned the unsafe way, read in every ecosystem's spelling (issue 36, round 16).

Each kind was a slipped line left ``low`` because no word list knew it; each reads the lines the change adds, and most
need the line it replaced (so a reformatted file that keeps the value says nothing):

- ``tls_floor_lowered``: the lowest TLS version a connection accepts set to TLS 1.0/1.1 or SSL 3 (Go's ``MinVersion:
  tls.VersionTLS10``, Python's ``minimum_version = ssl.TLSVersion.TLSv1``, Node's ``minVersion: 'TLSv1'``, Java's
  ``SSLContext.getInstance("TLSv1")``, .NET's ``SslProtocols.Tls``, nginx's ``ssl_protocols TLSv1``): high;
- ``xml_entities_resolved``: an XML parser made to read DTDs or expand external entities (C#'s ``DtdProcessing.Parse``,
  ``XmlResolver = new XmlUrlResolver()``, Java's ``setExpandEntityReferences(true)`` and the DOCTYPE/entity features,
  lxml's ``resolve_entities=True``, PHP's ``LIBXML_NOENT``, Nokogiri's ``noent``): high (XXE);
- ``verification_off``: a verify/validate switch turned false where the old line stood without it (``.MustVerify
  Signature()`` → ``.WithVerifySignature(false)``, ``validate: true`` → ``validate: false``): high;
- ``config_credential``: a credential-looking literal (letters and digits, 20 or more, no placeholder) given to a
  ``token``/``api_key``/``secret`` key in a YAML or INI setting, unquoted (``repo_token: 7Qe2…``): high;
- ``secret_shortened``: the length of a secret-bearing value (a token, nonce, salt, verifier, key: the line or the
  file's path names it) lowered from 16 or more to 8 or fewer (``token_bytes(32)`` → ``token_bytes(4)``, ``this(32)`` →
  ``this(4)`` in a PKCE service): high;
- ``anchor_loosened``: an anchored match made a search (``re.match`` → ``re.search``, ``fullmatch`` → ``match``, ``\\A`` or
  ``^`` dropped from a pattern, ``\\z`` → ``$``): the check now accepts a value that merely contains what it wanted;
- ``factor_dropped``: a factor taken out of a rate or limit's computation (``time.Duration(quantity) * interval`` →
  ``interval``): a request of any size costs one;
- ``fails_open``: an error branch's answer replaced by the call to the next handler (``t.error(w, r, err)`` →
  ``h.ServeHTTP(w, r)``, ``return next(err)`` → ``return next()``, ``chain.doFilter``, ``call_next``);
- ``error_swallowed``: a call whose error the code returned or threw now has it dropped (``return fs.writeFile(…)`` →
  ``fs.writeFile(…).catch(() => {})``, ``except …: pass``, ``rescue nil``, ``_ = f()``, ``.ok();``) or only logged;
- ``arguments_in_message``: a call's arguments written into a message string (``f"{fn}{state.args}{state.kwargs}"``): a
  secret passed as an argument lands in a log;
- ``lenient_on`` (round 91, code and a docs sample's new line): a parser made lenient (``llhttp_set_lenient_*(…, 1)``,
  ``lenient: true``, ``insecureHTTPParser: true``): high, it then accepts what the server beside it reads otherwise;
- ``legacy_algorithm_added`` (round 91, code): a legacy algorithm's list entry added (``key::SSH_RSA,``, ``"ssh-dss",``,
  ``"hmac-md5",``, an RC4 or export TLS suite): high.

The first five, ``lenient_on`` and ``legacy_algorithm_added`` are classic (high); the others are worth a look (medium). The party guarded against is the worker that
slips one such line into an ordinary change: each reads as a setting among settings, or as tidying.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import alike as _alike  # bounded there: long lines equal only
from relay.review.line_shapes import squeezed
from relay.review.small_edits import paired as _pair
from relay.review import secret_lines

__all__ = ["screen", "setting_turned"]


_PAIRS = 200  # the most lines of one side a pairing reader looks at, so a rewrite of hundreds of lines stays linear


# Pairs of lines a reader below compares at most, a file: every added line that passes its screen was compared with up
# to _PAIRS removed ones (4,000 added lines written to pass it: 800,000 comparisons).
_MOST_COMPARED = 2_000


def _fresh(added: Sequence[str], removed: Sequence[str]) -> list[str]:
    """The added lines that are not a removed line moved."""
    before = {squeezed(line.strip()) for line in removed}
    return [line for line in added if squeezed(line.strip()) not in before]


def _closest(new: str, removed: Sequence[str], least: float = 0.6) -> str | None:
    best, score = None, least
    for old in removed[:_PAIRS]:
        ratio = SequenceMatcher(None, squeezed(old), squeezed(new), autojunk=False).ratio()
        if ratio >= score:
            best, score = old, ratio
    return best


# ----- a TLS floor lowered to 1.0/1.1 or SSL 3
_WEAK_TLS = (r"(?:tls\.)?VersionTLS1[01]\b|(?:tls\.)?VersionSSL30\b|TLSVersion\.(?:TLSv1(?:_1)?|SSLv3)\b|PROTOCOL_(?:TLSv1(?:_1)?|SSLv[23])\b|"
             r"['\"](?:TLSv1(?:\.[01])?|TLSv1_[01]|SSLv3|tlsv1(?:\.[01])?|TLS1(?:\.|_)?[01]|1\.[01])['\"]|SslProtocols\.(?:Tls1?1?|Ssl3)\b|"
             r"TlsVersion\.TLS_1_[01]\b|TLS1_(?:1_)?VERSION\b|:TLSv1(?:_1)?\b|\bssl_protocols\s+(?:SSLv3|TLSv1(?:\.1)?)(?![.\w])")
_TLS_FLOOR_RE = re.compile(
    r"(?i)(?:min(?:imum)?[_-]?(?:tls|ssl|protocol)?[_-]?(?:version|protocol)|tls[_-]?min|ssl[_-]?min|min_?proto)\w*['\"]?\s*(?:=>|:=|[=:(,])\s*[^;#\n]*?"
    r"(?:" + _WEAK_TLS + r")|"
    r"\bSSLContext\.getInstance\(\s*['\"](?:TLSv1(?:\.1)?|SSLv3|SSL)['\"]|\bsetEnabledProtocols\([^)]*['\"](?:TLSv1(?:\.1)?|SSLv3)['\"]|"
    r"\bssl_protocols\s+(?:SSLv3|TLSv1(?:\.1)?)(?![.\w])|\bSslProtocols\s*=\s*SslProtocols\.(?:Tls1?1?|Ssl3)\b|\bssl\.PROTOCOL_(?:TLSv1(?:_1)?|SSLv[23])\b|"
    # PHP's stream and curl constants name the one version used (round 117, blind 353's reactphp/socket README: SSLv3_SERVER)
    r"\b(?:STREAM_CRYPTO_METHOD_(?:SSLv[23]|TLSv1_[01])_(?:CLIENT|SERVER)|CURL_SSLVERSION_(?:SSLv[23]|TLSv1_[01]))\b")


def _tls_floor_lowered(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if any(_TLS_FLOOR_RE.search(old) for old in removed):
        return None  # the floor stood low before: a block rewritten, not lowered
    for line in _fresh(added, removed):
        if (m := _TLS_FLOOR_RE.search(line)) is not None:
            old = _closest(line, removed, 0.7)
            where = _pair(old, line) if old else line.strip()[:90]
            return f"lowers the TLS floor to a broken version ({m.group(0).strip()[-40:]}): {where}"
    return None


# ----- XML parsing made to read DTDs or resolve external entities
_XXE_RE = re.compile(
    r"\bDtdProcessing\s*[=:]\s*DtdProcessing\.Parse\b|\bDtdProcessing\.Parse\b|\bProhibitDtd\s*=\s*false\b|\bXmlResolver\s*=\s*new\s+XmlUrlResolver\b|"
    r"\bsetExpandEntityReferences\(\s*true\s*\)|disallow-doctype-decl['\"]\s*,\s*false\b|"
    r"(?:external-general-entities|external-parameter-entities|load-external-dtd)['\"]\s*,\s*true\b|"
    r"\b(?:IS_SUPPORTING_EXTERNAL_ENTITIES|SUPPORT_DTD|isSupportingExternalEntities)['\"]?\s*,\s*(?:true|Boolean\.TRUE)\b|"
    r"\bresolve_entities\s*=\s*True\b|\bno_network\s*=\s*False\b|\bLIBXML_(?:NOENT|DTDLOAD)\b|\blibxml_disable_entity_loader\(\s*false\s*\)|"
    r"\bParseOptions::(?:NOENT|DTDLOAD)\b|\.(?:noent|dtdload)\b(?!\s*[=?])|\bnoent\s*:\s*true\b|\bresolve_externals\s*=\s*True\b")


def _xml_entities_resolved(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in _fresh(added, removed):
        if (m := _XXE_RE.search(line)) is not None and not any(m.group(0) in old for old in removed):
            old = _closest(line, removed, 0.6)
            where = _pair(old, line) if old else line.strip()[:90]
            return f"lets XML parsing resolve DTDs or external entities (XXE: {m.group(0).strip()}): {where}"
    return None


# ----- a verify/validate switch turned false
_VERIFY_OFF_RE = re.compile(r"(?i)\b(?P<name>\w*(?:verif|validat)\w*)['\"]?\s*(?:\(\s*|[=:]\s*|=>\s*)(?:false|no|off)\b(?!\.)")
# What a verification guards: a signature, a certificate, a host, a token's claims (a form's "validateOnBlur" is not it).
_VERIFIED_RE = re.compile(r"(?i)sign|sig\b|cert|ssl|tls|host|peer|token|jwt|issuer|audience|expir|lifetime|hmac|mac\b|checksum|integrity|digest|hash")


def _verification_off(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in _fresh(added, removed):
        if (m := _VERIFY_OFF_RE.search(line)) is None:
            continue
        old = _closest(line, removed, 0.5)
        if (old is not None and not _VERIFY_OFF_RE.search(old)
                and (_VERIFIED_RE.search(m.group("name")) or _VERIFIED_RE.search(line))):
            return f"turns verification off ({m.group(0).strip()}): {_pair(old, line)}"
    return None


# ----- a credential-looking literal in a setting
_CONFIG_SECRET_RE = re.compile(r"(?i)^\s*-?\s*(?P<key>[\w.-]*(?:token|api[_-]?key|secret|passw(?:or)?d|access[_-]?key|auth[_-]?key|private[_-]?key))\s*[:=]\s*"
                               r"(?P<value>[A-Za-z0-9_+/-]{20,}=*)\s*(?:#.*)?$")


def _random_looking(value: str) -> bool:
    kinds = sum(1 for pattern in (r"[a-z]", r"[A-Z]", r"\d") if re.search(pattern, value))
    return kinds >= 3 or (kinds == 2 and re.search(r"\d", value) is not None and len(set(value)) >= 12)


def _config_credential(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not re.search(r"(?i)\.(?:ya?ml|ini|cfg|conf|toml|properties|env)$|(?:^|/)\.[\w.-]*rc$", path):
        return None
    for line in _fresh(added, removed):
        m = _CONFIG_SECRET_RE.search(line)
        if (m is not None and _random_looking(m.group("value")) and not re.search(r"(?i)x{6,}|example|changeme|placeholder|your", m.group("value"))
                and not secret_lines.said(line)):  # a secret-named variable's literal is the secret row's, said once by it
            return f"hard-codes a credential in a setting ({m.group('key')}: {m.group('value')[:6]}…)"
    return None


# ----- a secret-bearing value's length lowered
_SECRET_WORDS_RE = re.compile(r"(?i)token|nonce|salt|secret|verifier|pkce|entropy|csrf|otp|passw|\biv\b|challenge|random|key_?(?:size|len|bytes)|"
                              r"bytes_?len|urandom|randbytes|token_(?:bytes|hex|urlsafe)|SecureRandom|crypto")
_NUMBER_RE = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _secret_shortened(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    named = _SECRET_WORDS_RE.search(path.rsplit("/", 1)[-1]) is not None
    olds = [old for old in removed if any(16 <= int(n) <= 4096 for n in _NUMBER_RE.findall(old))][:_PAIRS]
    news = [line for line in _fresh(added, removed) if (named or _SECRET_WORDS_RE.search(line)) and any(int(n) <= 8 for n in _NUMBER_RE.findall(line))]
    for line in news[:_PAIRS] if olds else ():
        for old in olds:
            a, b = re.sub(r"\s+", " ", old.strip()), re.sub(r"\s+", " ", line.strip())
            olds, news = _NUMBER_RE.findall(a), _NUMBER_RE.findall(b)
            if len(olds) != len(news) or _NUMBER_RE.sub("#", a) != _NUMBER_RE.sub("#", b):
                continue
            changed = [(int(x), int(y)) for x, y in zip(olds, news) if x != y]
            if len(changed) == 1 and changed[0][0] >= 16 and changed[0][1] <= 8 and changed[0][0] <= 4096 and (
                    _SECRET_WORDS_RE.search(line) or _SECRET_WORDS_RE.search(path.rsplit("/", 1)[-1])):
                return f"shortens a secret-bearing value ({changed[0][0]} → {changed[0][1]}): {_pair(old, line)}"
    return None


# ----- an anchored match made a search
_TOKEN_RE = re.compile(r"\\.|\w+|\S")
_LOOSER = {("fullmatch", "match"), ("fullmatch", "search"), ("full_match", "match"), ("match", "search"), ("\\A", "^"), ("\\z", "$"),
           ("\\Z", "$")}
_ANCHORS = frozenset({"\\A", "^", "\\z", "\\Z", "$"})


# A line that may hold an anchored match or a pattern's anchor: the pairs compared are only these (a rewrite of hundreds
# of lines costs no more than its few regex lines), and at most _PAIRS of them per file.
_ANCHOR_SCREEN_RE = re.compile(r"match\(|search\(|['\"/`]\^|\\A|\$['\"/`]|\\[zZ]['\"/`]")
def anchor_pairs(added: Sequence[str], removed: Sequence[str], screen: re.Pattern[str], near: Callable[[int], bool],
                 longest: int = 1_000_000) -> Iterator[tuple[str, str, list[str], list[str], list[tuple[str, int, int, int, int]]]]:
    """(old line, new line, their tokens, the edit's opcodes other than "equal") for each fresh added line against each
    removed line ``screen`` finds may hold an anchor, both at most ``longest`` characters, whose token counts are ``near`` (old minus
    new): at most _PAIRS pairs a file (each line meets at least one old line, so at most _PAIRS new lines are read)."""
    olds = [old for old in removed if len(old) <= longest and screen.search(old)]
    budget = _PAIRS
    for line in _fresh(added, removed)[:_PAIRS] if olds else ():
        if len(line) > longest:
            continue
        new = _TOKEN_RE.findall(line)
        for old_line in olds:
            budget -= 1
            if budget < 0:
                return
            old = _TOKEN_RE.findall(old_line)
            if near(len(old) - len(new)):
                yield old_line, line, old, new, [op for op in SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]


def _anchor_loosened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old_line, line, old, new, ops in anchor_pairs(added, removed, _ANCHOR_SCREEN_RE, lambda spread: abs(spread) <= 1):
        if len(ops) != 1:
            continue
        tag, i1, i2, j1, j2 = ops[0]
        cut, put = old[i1:i2], new[j1:j2]
        if tag == "replace" and len(cut) == 1 and len(put) == 1 and (cut[0], put[0]) in _LOOSER:
            if cut[0] in _ANCHORS or (i1 > 0 and old[i1 - 1] == "." and i2 < len(old) and old[i2] == "("):
                return f"loosens an anchored match ({cut[0]} → {put[0]}): {_pair(old_line, line)}"
        if tag == "delete" and len(cut) == 1 and cut[0] in _ANCHORS:
            quoted = any(t in ("'", '"', "/", "`") for t in old[:i1])
            starts = cut[0] in ("^", "\\A") and i1 > 0 and old[i1 - 1] in ("'", '"', "/", "`")
            ends = cut[0] in ("$", "\\z", "\\Z") and i2 < len(old) and old[i2] in ("'", '"', "/", "`")
            if quoted and (starts or ends):
                return f"loosens an anchored match (drops {cut[0]}): {_pair(old_line, line)}"
    return None


# ----- a factor dropped from a rate or limit's computation
_RATE_WORDS_RE = re.compile(r"(?i)rate|limit|quota|throttl|bucket|burst|increment|cost|weight|emission|budget|allowance")
_FACTOR_RE = re.compile(r"^(?:[\w$.]+(?:\([^()]*\))?\*|\*[\w$.]+(?:\([^()]*\))?)$")


def _ends_alike(old: list[str], new: list[str]) -> int:
    """How many of ``new``'s tokens ``old`` shares at its head and at its tail (at most all of them)."""
    head = 0
    while head < len(new) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < len(new) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head + tail


def _factor_dropped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(old, _TOKEN_RE.findall(old)) for old in removed if "*" in old and _RATE_WORDS_RE.search(old + " " + path.rsplit("/", 1)[-1])][:_PAIRS]
    for line in _fresh(added, removed) if olds else ():
        new = _TOKEN_RE.findall(line)
        for old_line, old in olds:
            # One deletion leaves the new line the old one's head and tail: other pairs cannot be one, and are not
            # handed to difflib (whose cost grows with the square of a line's tokens, every fresh line against each old).
            if len(old) <= len(new) or _ends_alike(old, new) < len(new):
                continue
            ops = [op for op in SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
            if len(ops) == 1 and ops[0][0] == "delete" and _FACTOR_RE.match(cut := "".join(old[ops[0][1]:ops[0][2]])):
                return f"drops a factor from a rate or limit's computation ({cut.strip('*')}): {_pair(old_line, line)}"
    return None


# ----- an error branch that now lets the request through
_NEXT_RE = re.compile(r"\.ServeHTTP\(|\bnext\s*\(\s*\)|\bnext\.(?:ServeHTTP|handle|call|invoke|Invoke)\s*\(|\bcall_next\s*\(|\b(?:chain|filterChain)\.doFilter\s*\(|"
                      r"\b(?:await\s+)?next\s*\(\s*(?:ctx|context|req|request)?\s*\)|@app\.call\s*\(|\binner\.call\s*\(|\bhandler\s*\(\s*(?:w|ctx|req)\b")
_ANSWERS_ERROR_RE = re.compile(r"(?i)\b\w*(?:error|abort|deny|denied|reject|forbid|unauthori[sz]ed|fail)\w*\s*\(|\bStatus\w*(?:Forbidden|Unauthorized|TooMany)|"
                               r"\b(?:40[0-9]|429|50[0-9])\b|^\s*(?:throw|raise)\b|^\s*return\b[^;]*\berr\b|\{:error\b")


def _fails_open(added: Sequence[str], removed: Sequence[str]) -> str | None:
    gone = [old for old in _fresh(removed, added) if _ANSWERS_ERROR_RE.search(old) and not _NEXT_RE.search(old)]
    if not gone:
        return None
    for line in _fresh(added, removed):
        if _NEXT_RE.search(line) and not _ANSWERS_ERROR_RE.search(line) and not re.search(r"\berr\b", line):
            old = _closest(line, gone, 0.0) or gone[0]
            return f"lets the request through where it answered an error: {_pair(old, line)}"
    return None


# ----- an error the code returned or threw now dropped
_SWALLOW_RE = re.compile(r"\.catch\(\s*(?:\(\s*\w*\s*\)|\w+)\s*=>\s*(?:\{\s*\}|null|undefined|void 0)\s*\)|\.catch\(\s*function\s*\(\s*\w*\s*\)\s*\{\s*\}\s*\)|"
                         r"\.catch\(\s*(?:noop|_\.noop|\(\)\s*=>\s*\{\s*\})\s*\)|\bcatch\s*(?:\([^)]*\))?\s*\{\s*\}|\bexcept\b[^:]*:\s*pass\b|\brescue\s*(?:nil)?\s*$|"
                         r"\s+rescue\s+nil\b|^\s*_\s*=\s*[\w.]+\(|\.ok\(\)\s*;|\btry!?\?\s*$|\bcatch\s*\{\s*\}|\btry\?\s+(?=\S)")
# Swift's ``try call()`` hands the call's error to the caller (``try?`` turns it into nil: swallowed); Java's and JS's
# ``try {`` opens a block and says nothing of where the error goes.
_PROPAGATES_RE = re.compile(r"^\s*(?:return|throw|raise)\b|\bawait\b|\?\s*;?\s*$|\b(?:callback|cb|done|next)\s*\(\s*err|\btry\s+(?![{\s])")
_LOGS_ERROR_RE = re.compile(r"(?i)\b(?:log\w*|console|logger|print\w*|warn\w*|debug|slog|eprintln)\b[.(!]")


_CALL_HEAD_RE = re.compile(r"^[\w$]+(?:\.[\w$]+)+\(")  # a qualified call (``fs.writeFile(``): a bare name is too common to pair
_HANDS_ON_RE = re.compile(r"\b(?:callback|cb|done)\s*\)|\b(?:callback|cb|done|next)\s*\(\s*err")


def _core(line: str) -> str:
    text = _SWALLOW_RE.sub("", line.strip())
    text = re.sub(r"^\s*(?:return|throw|raise|await|_\s*=)\s+", "", text)
    text = re.sub(r"\btry\s+", "", text)
    return squeezed(re.sub(r"\?\s*;?\s*$|;\s*$", "", text).strip())


def _error_swallowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    gone = _fresh(removed, added)
    olds = [old for old in gone if _PROPAGATES_RE.search(old) or _HANDS_ON_RE.search(old)][:_PAIRS]
    if not olds:
        return None
    left = _MOST_COMPARED
    for line in _fresh(added, removed):
        if left <= 0:
            break
        if _SWALLOW_RE.search(line):
            left -= len(olds)
            head = _CALL_HEAD_RE.search(re.sub(r"^(?:return|await|void)\s+", "", line.strip()))
            for old in olds:
                if _core(old) and (_core(old) == _core(line) or _alike(_core(old), _core(line), 0.85)):
                    return f"swallows an error the code used to propagate: {_pair(old, line)}"
            for old in olds:
                # The same call, its error handed to a callback on the old side (a callback API made a promise one).
                if head and head.group(0) in old and _HANDS_ON_RE.search(old):
                    return f"swallows an error the code used to propagate: {_pair(old, line)}"
        elif _LOGS_ERROR_RE.search(line):
            for old in olds:
                m = re.search(r"^\s*(?:return|throw|raise)\s+(?P<e>err|error|e|ex|exc|exception)\s*;?\s*$|\b(?:callback|cb|done|next)\s*\(\s*(?P<c>err|error)\s*\)", old)
                name = m and (m.group("e") or m.group("c"))
                if name and re.search(rf"\b{name}\b", line) and not _PROPAGATES_RE.search(line):
                    return f"only logs an error the code used to propagate: {_pair(old, line)}"
    return None


# ----- a call's arguments written into a message
_ARGS_IN_TEXT_RE = re.compile(r"\{[^{}]*\b(?:args|kwargs|arguments|params)\b[^{}]*\}|\$\{[^{}]*\b(?:args|arguments|params)\b[^{}]*\}|#\{[^{}]*\b(?:args|params)\b[^{}]*\}")


def _arguments_in_message(added: Sequence[str], removed: Sequence[str]) -> str | None:
    left = _MOST_COMPARED
    for line in _fresh(added, removed):
        if not re.search(r"\b[fF]['\"]|`|#\{", line) or (m := _ARGS_IN_TEXT_RE.search(line)) is None:
            continue
        if left <= 0:
            break
        left -= min(len(removed), _PAIRS)
        for old in removed[:_PAIRS]:
            if re.search(r"\b(?:args|kwargs|arguments|params)\b", old) is None and _alike(old, line, 0.5):
                return f"writes a call's arguments into a message (a secret argument lands in a log: {m.group(0)}): {_pair(old, line)}"
    return None


# ----- a parser made lenient: what it accepts then differs from what the server behind or beside it reads
# llhttp's ``llhttp_set_lenient_transfer_encoding(&parser, 1)`` (blind 138's README: request smuggling), a ``lenient:
# true`` option, Node's ``insecureHTTPParser: true`` and ``--insecure-http-parser``.
_LENIENT_RE = re.compile(r"(?i)\b\w*set_?lenient\w*\s*\([^()]*,\s*(?:1|true)\s*\)|\blenient\w*['\"]?\s*(?:=>|[=:])\s*(?:true|1)\b|"
                         r"\binsecureHTTPParser['\"]?\s*[=:]\s*true\b|--insecure-http-parser\b")


def _lenient_on(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in _fresh(added[:_MOST_COMPARED], removed):
        if len(line) <= 400 and (m := _LENIENT_RE.search(line)) and not line.lstrip().startswith(("//", "#", "/*", "*")):
            return f"makes a parser lenient (it accepts what a peer reads otherwise: request smuggling): {m.group(0)[:80]}"
    return None


# ----- a legacy algorithm put back into what a connection accepts
# A list's entry alone (``key::SSH_RSA,``: blind 138's russh, SHA-1 signatures accepted for host keys again; ``"ssh-dss",``,
# ``"3des-cbc",``, ``"hmac-md5",``, ``"diffie-hellman-group1-sha1",``, ``tls.TLS_RSA_WITH_RC4_128_SHA,``).
_LEGACY_ALG_RE = re.compile(r"(?i)^\s*[\"']?(?:[\w:.]*(?:::|\.))?(?P<alg>SSH_RSA|SSH_DSS|ssh-rsa|ssh-dss|3des-cbc|arcfour\w*|blowfish-cbc|"
                            r"hmac-md5\w*|hmac-sha1(?:-96)?|diffie-hellman-group1-sha1|diffie-hellman-group-exchange-sha1|"
                            r"TLS_\w*(?:RC4|_DES_|3DES|EXPORT|NULL|anon)\w*)[\"']?\s*,?\s*$")


def _legacy_algorithm_added(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in _fresh(added[:_MOST_COMPARED], removed):
        if m := _LEGACY_ALG_RE.match(line):
            return f"puts a legacy algorithm back among those accepted ({m.group('alg')}: broken or weak): {line.strip()[:80]}"
    return None


# A docs page's line these readers read (kept for the rules: its sample is code).
_SCREEN_RE = re.compile(r"(?i)verif|validat|tls|ssl|dtd|entit|xmlresolver|libxml|token|api_?key|secret|lenient|insecure")


def screen(line: str) -> bool:
    return _SCREEN_RE.search(line) is not None


def setting_turned(path: str, added: Sequence[str], removed: Sequence[str], *, sample: bool = False) -> tuple[str, bool] | None:
    """The first of these kinds the edit turns, with whether it is classic (high). ``sample``: a docs page's lines, read
    only as edits of lines the page stood with (a page's own example may set any value)."""
    if sample:  # a page's line edited, not a sample new in it (round 17: a TLS floor lowered in a docs sample)
        found = _verification_off(added, removed) or (_tls_floor_lowered(added, removed) if removed else None) or _lenient_on(added, removed)
        return (found, True) if found else None
    for found in (_tls_floor_lowered(added, removed), _xml_entities_resolved(added, removed), _verification_off(added, removed),
                  _config_credential(path, added, removed), _secret_shortened(path, added, removed), _lenient_on(added, removed),
                  _legacy_algorithm_added(added, removed)):
        if found:
            return found, True
    for found in (_anchor_loosened(added, removed), _factor_dropped(path, added, removed), _fails_open(added, removed), _error_swallowed(added, removed),
                  _arguments_in_message(added, removed)):
        if found:
            return found, False
    return None
