"""The lines of a docs page that are a code sample, read by the code readers (issue 36, round 19 part B).

A README's or a docs page's sample is what people copy: a sample that sets a JWT decoder's clock skew to
``Integer.MAX_VALUE`` or passes a task's arguments into a shell (``sh "echo #{args.first_name}"``) teaches the unsafe
way, and the first runs of held-out 23/24 left both low ("docs edited"): the runs of a docs file were not read for a
turned value at all. A run's line is a sample's when it is shaped like code — a fenced block's line, an rdoc/rst literal
block's, an indented sample's: punctuation that code has (a call's parentheses, an assignment, braces, an
interpolation) and not a sentence (``risky_lines.looks_like_prose``). The page's own markup (headings, list items,
quotes, tables, links, fences, directives) and a sentence with an inline ``code span`` stay prose: "Tasks are enabled"
made "disabled" is the page's words, not a value turned.

Round 22 part B: a key-generation command (``$ ssh-keygen -t rsa -b 4096 …``, ``openssl genrsa …``) is a sample too,
though it has no code punctuation: its size lowered (4096 → 1024) is read by ``subtle_turns.key_size_lowered``. And
``hash_in_payload``: a sample that adds a user's password hash (``'encrypted_password' => encrypted_password``,
``passwordHash: user.passwordHash``) to what a token or a response carries (a token, payload or response written on the
line, or a payload or claims on the sample's changed lines): a
JWT's payload is readable by whoever holds the token. Quiet: storing the hash (``User.create(password_hash: …)``, no
token or payload word on the pair), a projection that leaves it out (``passwordHash: false``), the plain password a
sign-in sample sends.

Round 24 part A (``unsafe_sample``): three samples the first runs of held-out 29/30 left low. A sample that installs a
client-IP middleware or reads the forwarded-for header (``r.Use(middleware.RealIP)``, ``app.set('trust proxy',
true)``, ``ProxyFix(``): the client's address then comes from a header any client writes, so a per-IP rate limit or an
IP check in front of it is walked around. A sample's cache or token lifetime made a year or more (``.cached(10, 24,
TimeUnit.HOURS)`` → ``.cached(10, 3650, TimeUnit.DAYS)``, ``Long.MAX_VALUE``): a rotated or revoked key or token is
trusted that long. A sample that logs a credential header (``hlog.CustomHeaderHandler("authorization",
"Authorization")``, ``log.Println(r.Header.Get("Authorization"))``): every request's token lands in the logs. Quiet: the
same line already on the page (moved), ``trust proxy`` false, a lifetime shortened or an asset's or HSTS's year, a sample
that sets the header on a request (no log on the line) or logs it redacted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import squeezed, window
from relay.review.risky_lines import looks_like_prose

__all__ = ["hash_in_payload", "is_sample", "prose_line", "sample_code", "sample_lines", "unsafe_sample"]

# What code has and a sentence rarely does: a call, an assignment, braces, a statement's end, an interpolation, a path
# into a member (``::``, ``->``, ``=>``).
_CODE_SHAPE_RE = re.compile(r"\w\s*\(|[{};]|(?<![=!<>])=(?!=)|#\{|\$\{|->|::|=>")
_TAIL_COMMENT_RE = re.compile(r"(?<=[\w\"')\]},;])\s+(?://|#)\s.*$")
# An option given a module's constant is one too (round 88: secure-password's README ``memlimit: securePassword.MEMLIMIT_MIN,``),
# and a JSON sample's key, quoted (round 90, blind 136's python3-saml README: ``"strict": true,`` made ``false``).
_PROPERTY_RE = re.compile(r"""^(?:[\w$-]+|"[\w$.-]+"|'[\w$.-]+')\s*:\s*(?:"[^"]*"|'[^']*'|-?\d[\d._]*|true|false|null|\[|\{|[A-Za-z_$][\w$]*(?:\.[\w$]+)+)\s*,?$""")
# A line of a call's arguments alone (round 121b, held-out 523's pyzotero README: ``library_id, library_type, api_key`` made
# ``"5704521", "user", "Qz8v…"``): names joined by commas, one at least a quoted literal, a dotted or an underscored name
# (a list of plain words is a sentence's).
_ARG = r"""(?:"[^"]*"|'[^']*'|-?\d[\w.]*|[A-Za-z_$][\w$.]*!?)"""
_ARGS_RE = re.compile(rf"^(?:{_ARG}\s*,\s*)*{_ARG}\s*,?$")
_CODE_ARG_RE = re.compile(r"""["'][^"']*["']|[A-Za-z$][\w$]+[._][A-Za-z_$][\w$.]+""")
# A condition's continuation line (round 121c, held-out 524's Aura.Session docs: ``|| $_SERVER['REQUEST_METHOD'] == 'PUT'``
# made ``&&``): a line that opens with a logical operator and compares is code.
_JOINED_RE = re.compile(r"^(?:&&|\|\|)\s*\S.*(?:==|!=|<=|>=|\w\s*\()")
# A docs page's own markup: a heading (markdown, rdoc ``= Title``, rst underline), a list item, a quote, a table row, a
# link or image, a fence, an rst directive or comment, an html tag.
_MARKUP_RE = re.compile(r"^(?:#{1,6}\s|=+\s|[-*+]\s|\d+[.)]\s|>|\||!?\[|```|~~~|\.\.\s|<[a-zA-Z/!]|[=\-~^\"'`#*+]{3,}\s*$)")


# A shell command that makes a key (its size is what a reader copies) or stores a secret (macOS's ``security add-…-password``:
# its ``-A`` too, round 91).
_KEYGEN_RE = re.compile(r"^\$?\s*(?:sudo\s+)?(?:ssh-keygen\b|openssl\s+(?:genrsa|genpkey|req)\b|keytool\b.*-genkey|security\s+add-(?:generic|internet)-password\b)")
# A password hash as an entry of a map, a hash or an object literal (not an assignment, not a projection's false).
_HASH_ENTRY_RE = re.compile(r"""(?P<at>['"]?:?\b(?:encrypted_password|crypted_password|hashed_password|password_(?:hash|digest)|"""
                            r"""(?:hashed|encrypted)Password|password(?:Hash|Digest)|PasswordHash)\b['"]?\s*(?:=>|:(?!:)))(?!\s*(?:false|0|-1|nil|null)\b)""")
# Where the entry goes: a token's payload or claims, a response, something merged into what is signed or sent.
_TOKEN_RE = re.compile(r"(?i)payload|claims\b|\bjwt")
_CARRIER_RE = re.compile(r"(?i)payload|claims?\b|jwt|token|\bsign\b|encode|merge|to_json|as_json|serializ|json\s*\(|response|render|\bsend\b")


def hash_in_payload(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"puts a user's password hash into a token payload or a response: …" for a new sample line with a password hash's
    entry, a token, payload or response written on it, or a token's payload or claims on the sample's changed lines."""
    before = {squeezed(old.strip()) for old in removed[:200]}
    token = any(_TOKEN_RE.search(line) for line in [*added[:200], *removed[:200]])
    for line in added[:200]:
        found = _HASH_ENTRY_RE.search(line) if len(line) <= 400 else None
        if found and squeezed(line.strip()) not in before and (token or _CARRIER_RE.search(line)):
            return f"puts a password hash into a token payload or response: {window(line, found.start(), found.end(), 70, 12)}"
    return None


_BARE_NUMBER_RE = re.compile(r"^\d[\d_]*(?:\s*\*\s*\d[\d_]*)*\s*,?$")


def is_sample(line: str) -> bool:
    """Whether a docs page's line is a code sample's (see the module's doc): the rules read it as code is read
    (relay.review.file_kinds keeps it among a docs file's lines whatever its words)."""
    text = line.strip()
    if _KEYGEN_RE.match(text):
        return True
    if _JOINED_RE.match(text) and "`" not in text and not looks_like_prose(text):
        return True  # (``|| x == …`` opens as a table row would: the comparison says code)
    if not text or _MARKUP_RE.match(text) or "`" in text:
        return False
    # A sample's line may end in a comment for the reader, which is a sentence; and an object's property or a YAML
    # setting given a literal is code (blind 87's aws-jwt-verify: ``jwksUri: "http://…", // set this to the JWKS uri
    # from your OpenID configuration`` had read as prose, and its https made http was left low).
    code = sample_code(text)
    if code != text and _BARE_NUMBER_RE.match(code):
        return True  # a call's argument on its own line, its comment naming it (round 123: hawk's ``315360000 // ttl in seconds``)
    return bool(_CODE_SHAPE_RE.search(code) or _PROPERTY_RE.match(code) or (_ARGS_RE.match(code) and ("," in code) and _CODE_ARG_RE.search(code))) \
        and not looks_like_prose(code)


def sample_code(line: str) -> str:
    """A sample's line without the comment for the reader it may end in."""
    return _TAIL_COMMENT_RE.sub("", line.strip())


def prose_line(line: str) -> bool:
    """Whether a docs page's line is a sentence, not a sample's line ending in a comment for the reader."""
    return looks_like_prose(line.strip()) and not is_sample(line)


def sample_lines(lines: Sequence[str]) -> list[str]:
    """The lines of a docs page's run that are a code sample's (see the module's doc), in order."""
    return [line for line in lines if is_sample(line)]


# A client's address taken from a header it writes: a middleware that does it, or the header read.
_CLIENT_IP_RE = re.compile(r"(?i)\bRealIP\b|\bProxyHeaders\b|\bProxyFix\s*\(|\bUseForwardedHeaders\b|\bForwardedHeadersMiddleware\b|"
                           r"\bRemoteIpValve\b|trust[ _]?proxy['\"]?\s*[,:=](?!\s*(?:false|0)\b)|x-forwarded-for|x-real-ip")
# A credential header as a string of its own, or morgan's token for it, on a line that logs.
_CRED_HEADER_RE = re.compile(r"(?i)['\"](?:proxy-)?authorization['\"]|['\"](?:set-)?cookie['\"]|['\"]x-(?:api-key|auth-token|csrf-token)['\"]|"
                             r":req\[(?:authorization|cookie)\]")
_LOGS_RE = re.compile(r"(?i)\b(?:h?log|logger|logging|slog|zap|zerolog|logrus|winston|morgan|console|puts|print\w*)\b|\bLog\w*\s*\(|"
                      r"\.(?:info|debug|warn|trace)\w*\s*\(")
_REDACTED_RE = re.compile(r"(?i)redact|mask|sanitiz|\*\*\*|omit|exclude|scrub")
# A lifetime's words (a cache, a token, a session), and what is long on purpose (a static asset's year, HSTS).
_LIFETIME_RE = re.compile(r"(?i)cache|ttl|expir|lifetime|max.?age|valid|session|token|refresh|['\"]exp['\"]|\bexp\s*[:=]")
# A new sample's lifetime read alone (round 123, held-out 601's dflydev-hawk README: a bewit's ``315360000 // ttl in seconds``,
# in the commit's own new sample, no old line to pair): what a grant's words name, not a cache's.
_GRANT_LIFE_RE = re.compile(r"(?i)\bttl|expir|lifetime|valid")
_CACHED_RE = re.compile(r"(?i)cache|max.?age")
_LONG_ON_PURPOSE_RE = re.compile(r"(?i)immutable|static|asset|hsts|strict-transport|includeSubDomains|preload")
_ENDLESS_RE = re.compile(r"\b(?:Long|Integer|Int|Int64|UInt64)\.MAX_VALUE\b|\bmath\.MaxInt(?:64|32)?\b|\b[iu](?:32|64)::MAX\b|"
                         r"\bNumber\.MAX_SAFE_INTEGER\b|\bsys\.maxsize\b|\bInt(?:64)?\.max\b")
_UNIT_SECONDS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hr": 3600, "hour": 3600,
                 "d": 86400, "day": 86400, "w": 604800, "week": 604800, "y": 31536000, "year": 31536000}
# A number (or a product of numbers, 24 * 365) and, within a few characters either side, its unit.
_AMOUNT_RE = re.compile(r"(?<![\w.])\d[\d_]*(?:\s*\*\s*\d[\d_]*)*(?=[smhdwy]\b|(?!\w|\.\d))")
_UNIT_RE = re.compile(r"(?i)(?<![a-z])(sec(?:ond)?|min(?:ute)?|h(?:ou)?r|day|week|year)s?(?![a-z])|(?<=[\d#])([smhdwy])\b")
_YEAR = 365 * 86400
# The clock a bare amount is added to (round 29): ``time() + 3600`` counts seconds, ``Date.now() + 3600000`` milliseconds,
# so a JWT's ``exp`` written as the epoch plus a product of numbers is a lifetime without a unit word.
_NOW_PLUS_RE = re.compile(r"(?:\btime\s*\(\s*\)|\btime\.time\s*\(\s*\)|\bTime\.now(?:\.to_i)?|\bnow\s*\(\s*\)|\bunix\s*\(\s*\)|"
                          r"\.getTime\s*\(\s*\)|\bDate\.now\s*\(\s*\)|\bcurrentTimeMillis\s*\(\s*\)|\bmicrotime\s*\(\s*true\s*\)|"
                          r"\.Unix(?:Milli)?\s*\(\s*\)|\bos\.time\s*\(\s*\)|\bepoch\w*|\biat\b)(?P<per>\s*/\s*1000)?\s*\)*\s*\+\s*$")
_MILLIS_RE = re.compile(r"Date\.now|getTime|currentTimeMillis|UnixMilli")


def _lifetime(line: str) -> float | None:
    """The longest lifetime a line writes, in seconds (a MAX constant is endless), or None without a unit."""
    if _ENDLESS_RE.search(line):
        return float("inf")
    units = [(m.start(), _UNIT_SECONDS[(m.group(1) or m.group(2)).lower()]) for m in _UNIT_RE.finditer(line)]
    best = None
    for m in _AMOUNT_RE.finditer(line):
        near = [(abs(at - m.end()), secs) for at, secs in units if -30 <= at - m.end() <= 30 or -30 <= m.start() - at <= 30]
        if not near and (clock := _NOW_PLUS_RE.search(line[max(m.start() - 40, 0):m.start()])):
            near = [(0, 0.001 if _MILLIS_RE.search(clock.group()) and not clock.group("per") else 1)]  # an amount added to the clock: its unit
        if near:
            n = 1
            for part in m.group().split("*"):
                n *= int(part.strip().replace("_", ""))
            value = n * min(near)[1]
            best = value if best is None else max(best, value)
    return best


def _shape(line: str) -> str:
    return squeezed(_UNIT_RE.sub("U", _AMOUNT_RE.sub("#", _ENDLESS_RE.sub("#", line.strip()))))


def _quote(line: str, m: re.Match[str]) -> str:
    return line.strip() if len(line.strip()) <= 100 else window(line, m.start(), m.end(), 70, 12)


# A selector or an XPath built by interpolating a value (round 26): a quote or bracket in the value changes what is
# matched (selector/XPath injection); a sample teaches it as the way to look a value up. Attribute selectors and XPath
# predicates only: ``$(`#${id}`)`` is an id lookup every page writes.
_BUILT_SELECTOR_RE = re.compile(
    r"(?:\$|\bquerySelector(?:All)?|\bclosest|\bfind|\bmatches|\bselect(?:One)?|\bcss)\s*\(\s*`[^`]*\[[\w:-]+\s*[~|^$*]?=\s*[\"']?\$\{|"
    r"(?:\$|\bquerySelector(?:All)?|\bclosest|\bfind|\bselect(?:One)?|\bcss)\s*\(\s*(?P<q>[\"'])[^\"']*\[[\w:-]+\s*[~|^$*]?=\s*[\"']?(?P=q)\s*\+|"
    r"\b(?:xpath|selectNodes|selectSingleNode|evaluate|XPath)\s*\(\s*(?:f[\"'][^\"']*\[@?[\w:-]+\s*=\s*[\"']?\{|`[^`]*\[@?[\w:-]+\s*=\s*[\"']?\$\{|"
    r"[\"'][^\"']*\[@?[\w:-]+\s*=\s*[\"']?[\"']\s*(?:\+|\.|%))")


# A query builder's raw-SQL escape hatch filled by interpolation or concatenation (round 29): ``Sequel.lit("id = #{…}")``,
# ``Arel.sql(…)``, Laravel's ``DB::raw``/``whereRaw``, knex's and Drizzle's ``raw``/``sql.raw``, Sequelize's ``literal``,
# Prisma's ``$queryRawUnsafe``, EF's ``FromSqlRaw``, SQLAlchemy's ``text(f"…")``: the wrapper tells the builder the text
# is trusted SQL, so a value inside it is injected. The same wrapper with placeholders (``Sequel.lit("id = ?", id)``)
# or a constant stays quiet, and so does a view helper's bare ``raw("<em>#{…}</em>")`` (raw HTML: taught_lines' reader).
_RAW_SQL_RE = re.compile(
    r"(?P<call>\b(?:Sequel\.lit|Sequel\.expr|Arel\.sql|Arel::Nodes::SqlLiteral\.new|DB::raw|Sequelize\.literal|sequelize\.literal|"
    r"knex\.raw|sql\.raw|Prisma\.raw|\$queryRawUnsafe|\$executeRawUnsafe|FromSqlRaw|ExecuteSqlRaw\w*|RawSQL|"
    r"(?:where|select|orderBy|groupBy|having|join)Raw))\s*\(\s*(?![\"'`]<\w)"
    r"(?:\"[^\"]*(?:#\{|\$\{|\{\$|\$[A-Za-z_])|`[^`]*\$\{|f[\"'][^\"']*\{\w|[\"'][^\"']*[\"']\s*(?:\+|\.(?!\w)|%)\s*\$?[\w(]|"
    # a value put between quotes by hand after a name: ``sql.raw(c + " = '" + v + "'")`` (held-out 67's kysely sample)
    r"[\w.$]+\s*\+\s*\"[^\"]*'\"\s*\+)|"
    r"(?P<text>\btext\s*\(\s*(?:f[\"'][^\"']*\{\w|[\"'][^\"']*[\"']\s*(?:\+|%|\.format\()))")


# A URL leaving the machine over plain http (round 51: blind 72's jotai sample ``fetch('https://…')`` made ``http://``); a
# local address is a developer's own server. Read only where the same call stood with ``https://`` (a pair turned, its
# URL filled in or not).
_URL_BODY_RE = re.compile(r"(https?://)[^\s'\"`)]*")


def _url_shape(line: str) -> str:
    """The line with its URLs' hosts and paths left out: ``fetch('https://...')`` and ``fetch('https://api.x.io/u')`` are
    one call (a sample's placeholder filled in), a scheme turned is not."""
    return squeezed(_URL_BODY_RE.sub(r"\1", line.strip()))


def _https_before(line: str, removed: Sequence[str]) -> bool:
    """Whether a removed line stood as ``line`` with https: the same call, or (round 76) the same line but for its
    URL's host and path, its numbers and a word or two (blind 103's Bogus README, a list item's download link from
    ``https://dotnet.microsoft.com/…`` to ``http://dotnet-sdk.download/…`` as its version moved on)."""
    shape = _url_shape(line.replace("http://", "https://", 1))
    olds = [_url_shape(old) for old in removed if "https://" in old and len(old) <= 400]
    if shape in olds:
        return True
    # The loose pairing wants words around the link to pair by (a bare list of links reformatted pairs anything with
    # anything: miekg/dns's `* http://…` made `- http://…`), and a URL that was not plain http already.
    url = _PLAIN_URL_RE.search(line)
    if len(shape) < 30 or (url and any(url.group(0) in old for old in removed)):
        return False
    loose = re.sub(r"\d+", "#", shape)
    return any(SequenceMatcher(None, loose, re.sub(r"\d+", "#", old)).ratio() >= 0.85 for old in olds if "http://" not in old)


# (A host by its placeholder too, round 123: held-out 612's fxa-auth-server API docs, ``https://<base-URI>/v1/…`` → ``http://``.)
_PLAIN_URL_RE = re.compile(r"\bhttp://(?!localhost\b|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|\$|\{)(?:[\w-]+\.[\w.-]+|<[\w-]+>)")


# A sample line a page marks as the wrong way (its own comment says so): the page teaches against it.
_MARKED_BAD_RE = re.compile(r"(?://|#|--|/\*)[^`'\"]*\b(?:never|don'?t|do not|unsafe|insecure|bad|wrong|vulnerable|avoid|attacker|injection|dangerous)\b", re.I)


def unsafe_sample(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What a docs page's new sample line teaches that is unsafe (see the module's doc): a URL turned to plain http, a
    client IP from a header, a credential header logged, a cache or token lifetime made a year or more, a selector or
    XPath built from a value, raw SQL filled by interpolation."""
    before = {squeezed(old.strip()) for old in removed[:200]}
    olds: dict[str, float] | None = None
    for line in added[:200]:
        if len(line) > 400 or squeezed(line.strip()) in before:
            continue
        if (m := _BUILT_SELECTOR_RE.search(line)) and not _MARKED_BAD_RE.search(line, m.end()):
            return f"builds a selector or XPath from a value (a quote in it changes what is matched: selector injection): {_quote(line, m)}"
        if (m := _RAW_SQL_RE.search(line)) and not _MARKED_BAD_RE.search(line):
            return f"builds SQL from text: a value interpolated into raw SQL ({(m.group('call') or 'text').strip()}(…): SQL injection): {_quote(line, m)}"
        if (m := _PLAIN_URL_RE.search(line)) and _https_before(line, removed[:200]):
            return f"turns a URL to plain http (read and changed on the way: use https): {_quote(line, m)}"
        if (m := _CLIENT_IP_RE.search(line)):
            return f"takes the client IP from a header any client sets (X-Forwarded-For/X-Real-IP: a per-IP limit or check is spoofed): {_quote(line, m)}"
        if (m := _CRED_HEADER_RE.search(line)) and _LOGS_RE.search(line) and not _REDACTED_RE.search(line):
            return f"logs a credential header (tokens and cookies in every log line): {_quote(line, m)}"
        if not _LIFETIME_RE.search(line) or _LONG_ON_PURPOSE_RE.search(line) or (new := _lifetime(line)) is None or new < _YEAR:
            continue
        if olds is None:
            olds = {_shape(old): life for old in removed[:200] if len(old) <= 400 and (life := _lifetime(old)) is not None}
        was = olds.get(_shape(line))
        if was is not None and was * 10 <= new:
            return f"makes a cache or token lifetime a year or more (a rotated or revoked key stays trusted): {line.strip()[:90]}"
        if was is None and new >= 10 * _YEAR and _GRANT_LIFE_RE.search(line) and not _CACHED_RE.search(line):
            return f"gives a token or link a lifetime of ten years or more (a leaked one never expires): {line.strip()[:90]}"
    return None


# A private key block a page opens, and the words that mark it as the page's example (round 77: blind 108's RustCrypto
# READMEs, "// WARNING: Do not hardcode private keys in your source code. This is for demonstration purposes only." above
# a PEM block in each crate's PKCS#8 sample): a key every reader of the page holds, never a deployment's. A block's
# first line alone (the label a page shows to name the format, its fence closed after it) holds no key at all.
_KEY_BLOCK_RE = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_EXAMPLE_MARK_RE = re.compile(r"(?i)\bdemonstration\b|\bfor (?:illustration|testing|tests|example)\b|\bexample (?:key|only)\b|\btest vectors?\b|"
                              r"\bdo not (?:hard-?code|use (?:this|it) in production)|\bnever use (?:this|it)\b|\bdummy key\b")
_MARK_REACH = 6  # lines above the block a page's mark stands in


def _key_blocks(added: Sequence[str]) -> list[str]:
    """Each private key block the page's new lines open: "label" (no body follows), "example" (marked so above) or "key"."""
    lines, out = added[:400], []
    for i, line in enumerate(lines):
        if not _KEY_BLOCK_RE.search(line):
            continue
        # The label alone on its line with the fence closed after it (the rules' lines of a page may leave a body's lines
        # out: a key's opening read with its END next is still a key).
        if line.strip() == _KEY_BLOCK_RE.search(line).group(0) and (i + 1 == len(lines) or lines[i + 1].strip().startswith(("```", "~~~"))):
            out.append("label")
        else:
            out.append("example" if any(_EXAMPLE_MARK_RE.search(above) for above in lines[max(0, i - _MARK_REACH):i + 1]) else "key")
    return out


def shown_keys_only(added: Sequence[str]) -> bool:
    """Whether every private key block the page's new lines open is a format's label or a key the page marks as its example."""
    kinds = _key_blocks(added)
    return bool(kinds) and "key" not in kinds


def example_key(added: Sequence[str]) -> str | None:
    """"a docs sample that carries a private key it marks as an example: …" where the page's only keys are such (see
    ``_key_blocks``): worth a look (a key published is no one's secret, and a real one pasted there is still read), never
    high like a key in source."""
    kinds = _key_blocks(added)
    if "example" in kinds and "key" not in kinds:
        return "a docs sample that carries a private key it marks as an example (anyone reading the page holds it: check it is no real key)"
    return None
