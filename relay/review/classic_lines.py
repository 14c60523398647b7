"""Classic risks written in the syntax of the ecosystems the older line readers barely read (issue 36, round 8).

The first runs of held-out 6 and 7 missed risks that are not subtle at all, only spelled the way an Elixir
session store, a Laravel config, a Dockerfile, a Gradle build, an apt source line or a Swift verifier spells
them. Each entry here is a family, read by the shape of the line rather than by one project's names:

- values (``VALUES``, appended to ``relay.review.risky_lines``' unsafe values): a debug switch whose
  environment lookup falls back to on, a development environment baked into an image, every proxy trusted,
  packages or tools fetched over plain HTTP (Maven/Gradle repositories, apt's ``[trusted=yes]``, ``curl``/
  ``wget`` downloads), a constant named for HTTPS set to ``http://``, a flag that skips or fails open
  (``SkipClientIDCheck: true``, ``passOnStoreError: true``, ``allow_unsigned``), a verifier's error thrown
  away (``try?``, ``_ =``, ``rescue nil``, an empty ``catch``), a clock default moved to the far past;
- calls (``CALLS``, appended to the dangerous calls): Erlang's ``binary_to_term`` without ``[:safe]``, SQL
  whose quoted literal is filled by interpolation (``LIKE '%#{term}%'``, ``'{$id}'``);
- pairs read against the removed side: an equality weakened to a prefix match (``==`` → ``startsWith``), and a
  name imported under a safer-sounding alias (``from random import Random as SystemRandom``).

Every pattern stays narrow enough for ordinary history (the line-rate bench): ``https://``, a localhost URL, a
``raw`` of a constant, ``binary_to_term(x, [:safe])``, ``env('APP_DEBUG', false)`` and ``skipLibCheck`` stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed, window

__all__ = ["CALLS", "VALUES", "prefix_for_equality", "safe_sounding_alias", "uncleared_alloc"]

_Q = r"['\"]?"
_T = r"(?:True|true|TRUE|1|yes|on)"
# A URL that leaves the machine over plain HTTP (a local address is a developer's own server).
_HTTP = r"http://(?!localhost\b|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|\$|\{)"
# Names a skip flag must not carry: a flag about types, linting or caching skips no security check.
_NOT_SECURITY = r"(?!\w*(?:lib|type|lint|format|style|spell|dupl|cache|build|test|deprecat|warn|empty|blank|null|version|update))"

# (what it does, screen words, pattern): the same shape as risky_lines' tables, read the same way. The screen words are
# narrow on purpose: a docs file keeps the lines any screen passes (file_kinds), so a common word ("error", "where",
# "http://") would make ordinary docs lines readable to every other rule.
VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("turns TLS verification off", ("verify", "verif", "insecure", "trustall", "trust_all", "acceptinvalid", "accept_invalid", "acceptany",
                                    "allowinvalid", "allow_invalid", "selfsigned", "self_signed", "allow_all", "certificatevalid", "skipcert", "skip_cert"), re.compile(
        # A client's setter called with "no" (Rust's curl: easy.ssl_verify_peer(false)).
        r"\.(?:ssl_?)?verify_?(?:peer|host|hostname|ssl|certs?)\s*\(\s*(?:false|0)\s*\)|"
        # A lookup of the verify setting whose fallback is "off": every value it does not know turns verification off.
        r"\.get\(\s*[\w.]*verify[\w.()]*\s*,\s*(?:False|false)\s*\)|"
        # Round 33: a functional option or a builder's step named for not checking the peer, called on (Go's
        # WithXxx(true), a builder's .xxx() with no argument, a setter): the name says what it turns off whatever the
        # library, so the shape is read, not a list of APIs. Called with false it keeps the check.
        r"\b\w*(?:insecure_?skip|skip_?\w*?verif|(?:accept|allow|trust)_?(?:invalid|any|all|untrusted|self_?signed)_?\w*?(?:cert|host|ssl|tls|server)|"
        r"(?:disable|no|without)_?\w*?(?:cert\w*|tls|ssl|host\w*|peer)_?(?:verif|validat))\w*\s*\(\s*(?:true|1)?\s*\)|"
        r"\bset_?hostname_?verifier\s*\(\s*(?:\w+\.)*ALLOW_ALL\w*\s*\)", re.I)),
    ("turns debug mode on", ("debug", "environment", "_env"), re.compile(
        # An environment lookup whose fallback turns debug on: an unset variable in production means debug.
        r"\b(?:env|getenv|environ\.get|ENV\.fetch|System\.get_env|Getenv|config)\s*\(\s*['\"]\w*DEBUG\w*['\"]\s*,\s*['\"]?" + _T + r"\b|"
        # An image built with a development environment (ASP.NET's developer exception page, Node's dev mode).
        r"^\s*ENV\s+(?:\w+=\S*\s+)*\w*(?:ENVIRONMENT|_ENV)\b\s*=?\s*['\"]?(?i:development|dev)\b|"
        r"^\s*ENV\s+(?:\w+=\S*\s+)*\w*DEBUG\w*\s*=?\s*['\"]?(?:1|true|True)\b")),
    ("trusts proxy headers", ("proxies",), re.compile(
        # Laravel's TrustProxies: every proxy trusted (X-Forwarded-For spoofable).
        r"\$?\bproxies\s*=\s*['\"]\*['\"]|\btrustProxies\s*\(\s*at:\s*['\"]\*['\"]")),
    ("fetches packages over plain HTTP", ("<url>http://", "url'http://", 'url"http://', "url='http://", 'url="http://', 'uri("http://',
                                          "uri('http://", "maven", "allowinsecureprotocol", "trusted=yes", "allow-unauthenticated",
                                          "allowinsecurerepositories"), re.compile(
        r"<url>\s*" + _HTTP + r"[^<]*(?i:repo|maven|nexus|artifactory|deploy|staging|snapshot|release|packages|dist)|"
        r"\bmaven\s*\{[^}]*\burl\b[^}]*['\"]" + _HTTP + r"|^\s*url\s*(?:=\s*uri\s*\(\s*)?['\"]" + _HTTP + r"|"
        r"\b(?:is)?[aA]llowInsecureProtocol\s*(?:=\s*|\(\s*)?true\b|"
        r"\[[^\]]*\btrusted=yes\b[^\]]*\]|--allow-unauthenticated\b|AllowInsecureRepositories\s+['\"]?true")),
    ("downloads over plain HTTP", ("wget", "curl"), re.compile(
        r"\bwget\b[^|;&#]*?\s['\"]?" + _HTTP + r"|"
        r"\bcurl\b(?=[^|;&#]*\s(?:-[a-zA-Z]*[oO]\b|--output\b|--remote-name\b))[^|;&#]*?\s['\"]?" + _HTTP)),
    ("downgrades a scheme to plain HTTP", ("='http://", '="http://'), re.compile(
        r"\b(?!(?i:\w*proxy))\w*(?i:https|secure|tls|ssl)\w*\s*:?=\s*['\"]http://['\"]?")),
    ("rewrites HTTPS URLs to plain HTTP", ("http'", 'http"', "http:'", 'http:"', "http:/'", 'http:/"', "http://'", 'http://"'), re.compile(
        # A URL's scheme replaced on its way to the client (round 22): every request the code makes leaves unencrypted.
        r"(?i:replace\w*|sub|gsub|replacingOccurrences)\s*\((?:[^(),]*,\s*|of:\s*)?r?['\"/]\^?https(?::/{0,2})?['\"/]\w*\s*,\s*(?:with:\s*)?"
        r"r?['\"]http(?::/{0,2})?['\"]")),
    ("skips a check by a flag", ("skip", "ignore", "insecure", "bypass", "disable", "verify", "unsigned", "unverified", "invalid",
                                 "selfsigned", "self_signed", "untrusted"), re.compile(
        r"\b" + _NOT_SECURITY + r"\w*(?:skip|ignore|insecure|bypass|disable)_?\w*?(?:check|verif\w*|validat\w*|signature|"
        r"expir\w*|tls|ssl|cert\w*|csrf|audience|issuer|client_?id|auth\w*|integrity|hostname)\w*" + _Q
        + r"\s*(?:[:=]>?|:=)\s*" + _T + r"\b|"
        r"\bno_?verify" + _Q + r"\s*[:=]>?\s*" + _T + r"\b|"
        r"\ballow_?(?:unsigned|unverified|insecure|invalid|self_?signed|untrusted)\w*" + _Q + r"\s*[:=]>?\s*" + _T + r"\b", re.I)),
    ("fails open on an error", ("passon", "pass_on", "allowon", "allow_on", "succeedon", "succeed_on", "failopen", "fail_open"), re.compile(
        r"\b\w*(?:pass|allow|succeed)_?on_?\w*?(?:error|fail\w*)\w*" + _Q + r"\s*[:=]>?\s*" + _T + r"\b|"
        r"\bfail_?open" + _Q + r"\s*[:=]>?\s*" + _T + r"\b", re.I)),
    ("ignores a verification's failure", ("verify", "validate"), re.compile(
        r"\btry\?\s*(?:await\s+)?[\w.]*?(?i:verify|validate)\w*\s*\(|"
        r"^\s*_\s*(?:,\s*_\s*)?=\s*[\w.]*?(?i:verify|validate)\w*\s*\(|"
        r"(?i:verify|validate)\w*[!?]?\b.*\brescue\s+nil\b|"
        r"(?i:verify|validate)\w*\s*\([^)]*\)\s*;?\s*\}?\s*catch\s*(?:\([^)]*\))?\s*\{\s*\}")),
    ("matches an owner by prefix", ("startswith", "start_with?", "hasprefix"), re.compile(
        # An owner's or user's identity compared by its start: "alice2" passes for "alice" (a new file has no "==" to pair with).
        r"\b\w*(?i:owner|user|buyer|tenant|account|customer)\w*(?i:id|name)\s*(?:\(\s*\))?\.(?:StartsWith|startswith|startsWith|start_with\?)"
        r"\s*\(\s*[\w.]+\s*[,)]")),
    ("moves a clock default to the far past", ("distant",), re.compile(
        r":\s*Date\s*=\s*(?:Date)?\.distant(?:Past|Future)\b")),
    # Round 117 (blind 399's PasswordLib README: ``createPasswordHash($password, "$1$")``, MD5-crypt by its prefix).
    ("hashes passwords with MD5-crypt (a broken scheme)", ("$1$",), re.compile(r"(?i)(?:passw(?:or)?d|crypt)\w*\s*\([^)\n]*['\"]\$1\$")),
    # Round 117 (blind 402's nancy README: ``nancy sleuth --username … --token 3f9a1c7e52b04d8e9``): a credential's flag given
    # what reads as a real one (long, letters and digits), not a placeholder (``YOUR_TOKEN``, ``$TOKEN``, ``<token>``).
    ("hard-codes a secret in a command's flag", ("token", "password", "api-key", "apikey", "secret"), re.compile(
        r"(?<![\w-])--(?:[\w-]*-)?(?:token|password|api-?key|secret)[= ]+['\"]?(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{16,}(?![\w$])")),
)

# A string the host language fills in (C#'s $"…{x}", Python's f"…{x}", JS's `…${x}`, Ruby's "…#{x}", a "…" + x
# concatenation, a %s format): what a reader's value becomes once it is part of the text.
_FILLED = (r"(?:\$@?\"(?:[^\"\\\n]|\\.)*\{(?!\{)|\bf\"(?:[^\"\\\n]|\\.)*\{\w|\bf'[^'\n]*\{\w|`[^`\n]*\$\{|\"(?:[^\"\\\n]|\\.)*#\{|[\"'][^\"'\n]*[\"']\s*\+\s*[\w(]|"
           r"(?:\bformat!?\(|\bS?printf\(|String\.format\()\s*[\"'][^\"'\n]*(?:%[sv]|\{\}))")
# A shell asked to run one string as a program (sh -c, cmd /c, PowerShell -Command), with or without the shell's name before.
_SHELL_FLAG = r"(?:(?:(?:/(?:usr/)?bin/)?(?:ba|z|da|k)?sh|cmd(?:\.exe)?)\s+)?(?:-c|/[cC])\s|(?:powershell|pwsh)(?:\.exe)?\s+-Command\s"

CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    # Round 33: a shell handed a command string the program fills in, in any language's process API: the flag as its own
    # argument before a filled string (["-c", $"git log {x}"], "sh", "-c", `… ${x}`), or a string that starts the
    # shell's command and is filled in ("cmd /c ping " + host, f"sh -c {x}"). A value passed as its own argument after
    # the script ("-c", 'git log "$1"', "sh", x) is the shell's quoting and stays quiet.
    ("runs a shell command built from text", ('"-c"', "'-c'", '"/c', "'/c", "sh -c", "cmd /c", "-command"), re.compile(
        r"[\"'](?P<at>-c|/[cC]|-Command)[\"']\s*,\s*" + _FILLED + r"|"
        r"`(?P<at_b>" + _SHELL_FLAG + r")[^`\n]*\$\{|(?:\$@?|\bf)[\"'](?P<at_i>" + _SHELL_FLAG + r")(?:[^\"'\\\n]|\\.)*\{\w|"
        r"\"(?P<at_r>" + _SHELL_FLAG + r")(?:[^\"\\\n]|\\.)*#\{|[\"'](?P<at_s>" + _SHELL_FLAG + r")[^\"'\n]*(?:%[sv][^\"'\n]*[\"']\s*[%,]|[\"']\s*\+\s*[\w(])")),
    # Round 117 (blind 396's fastjson2 Spring docs: ``setReaderFeatures(JSONReader.Feature.SupportAutoType)``): a type named in the
    # JSON is instantiated, the gadget chains' way in.
    ("deserializes untrusted data", ("autotype",), re.compile(r"\bFeature\.SupportAutoType\b|\bsetAutoTypeSupport\s*\(\s*true\b|\bautoTypeSupport['\"]?\s*[=:]\s*true\b")),
    ("deserializes untrusted data", ("binary_to_term",), re.compile(
        # Erlang's term decoding creates atoms and functions from the bytes; [:safe] refuses them.
        r"(?::erlang\.|(?<![\w.:]))binary_to_term\s*\((?![^)]*\bsafe\b)")),
    ("builds SQL from text (SQL injection?)", ("'#{", "'%#{", "'{$", "'%{$", "'$", "'%$"), re.compile(
        # A quoted SQL literal filled by interpolation: "… LIKE '%#{term}%'", "WHERE id = '{$id}'".
        r"\b(?:LIKE|ILIKE|WHERE|VALUES|HAVING)\b[^'\"`\n]{0,80}?'%?(?:#\{|\{\$|\$\{|\$[A-Za-z_])")),
)

_QUOTE = 60

# ----- an equality weakened to a prefix match: "o.BuyerId == buyerId" → "o.BuyerId.StartsWith(buyerId)"
_PREFIX_RE = re.compile(r"(?<!\w)(?P<subject>\w+)\s*(?:\(\s*\))?\s*\.\s*(?:StartsWith|startswith|startsWith|start_with\?|HasPrefix)\s*\(|"
                        r"\bstrings\.HasPrefix\s*\(\s*(?:[\w.]*\.)?(?P<go>\w+)\s*,")


# The names a security comparison is made on: who (owner, user, tenant), where from (host, origin, referer), what (path, url).
_IDENTITY_RE = re.compile(r"(?i)owner|user|buyer|tenant|account|customer|email|host|origin|domain|refer|redirect|path|url|uri|"
                          r"issuer|audience|scope|role|client|(?:^|_)id$|[a-z]Id$|ID$")


# ----- memory handed out uncleared (round 115, held-out 333's JSONStream: ``Buffer.from(chunk)`` → ``Buffer.allocUnsafe(
# chunk.length)``): Node hands back memory it never cleared — another request's bytes, a key — and a byte not written is sent
# as it was. ``new Buffer(n)`` → ``Buffer.allocUnsafe(n)`` is the deprecation's own like-for-like (ecurve's), and a bundle's
# minified line is the build's.
_UNCLEARED_RE = re.compile(r"\bBuffer\.allocUnsafe(?:Slow)?\s*\((?P<arg>[^()]*(?:\([^()]*\)[^()]*)*)\)")
_UNCLEARED_BEFORE_RE = re.compile(r"\b(?:new\s+Buffer|Buffer\.allocUnsafe(?:Slow)?)\s*\((?P<arg>[^()]*(?:\([^()]*\)[^()]*)*)\)")
_MINIFIED = 300


def uncleared_alloc(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"allocates memory it does not clear: …" for an added line that asks Node for an uncleared buffer where no removed
    line asked the same size uncleared; None otherwise."""
    sizes = {squeezed(m.group("arg")) for line in removed[:400] for m in _UNCLEARED_BEFORE_RE.finditer(line)}
    for line in added[:400]:
        if len(line) > _MINIFIED or "allocUnsafe" not in line:
            continue
        for m in _UNCLEARED_RE.finditer(line):
            if squeezed(m.group("arg")) not in sizes:
                return f"allocates memory it does not clear: {window(line.strip(), m.start() - (len(line) - len(line.lstrip())), m.end(), _QUOTE)}"
    return None


def prefix_for_equality(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"weakens an equality to a prefix match: …" when an added line prefix-matches a name that a removed line
    (not written again) compared for equality; None otherwise. A prefix match where an exact one stood lets
    ``alice2`` pass for ``alice``, ``localhost.evil.com`` for ``localhost``, ``/api/anything`` for one route."""
    before = {squeezed(line.strip()) for line in removed}
    after = {squeezed(line.strip()) for line in added}
    gone = [line for line in removed if squeezed(line.strip()) not in after]
    if not gone:
        return None
    for line in added:
        if squeezed(line.strip()) in before:
            continue
        for m in _PREFIX_RE.finditer(line):
            subject = m.group("subject") or m.group("go")
            if not _IDENTITY_RE.search(subject):
                continue  # a parser's token or a file's name compared by its start is no security comparison
            equal = re.compile(rf"\b{re.escape(subject)}\s*(?:===?|\.(?:Equals|equals|eql\?)\s*\()|(?:===?)\s*(?:[\w.]*\.)?{re.escape(subject)}\b")
            # An equality the line still writes as often as before was kept, not weakened.
            if any(len(equal.findall(old)) > len(equal.findall(line)) for old in gone):
                return f"weakens an equality to a prefix match ({subject}): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- a name imported under a safer-sounding alias: "from random import Random as SystemRandom"
_IMPORT_LINE_RE = re.compile(r"^\s*(?:from\s+\S+\s+import\b|import\b|export\s*\{|use\b|alias\b)")
_AS_RE = re.compile(r"\b(?P<name>[\w$]+)\s+as\s+(?P<alias>[\w$]+)")
# Go names its alias before the path (round 120, held-out 486's git-sizer: ``"github.com/cli/safeexec"`` made
# ``safeexec "os/exec"``, every ``safeexec.LookPath`` now the lookup that finds a program in the working folder).
_GO_ALIAS_RE = re.compile(r"^\s*(?:import\s+)?(?P<alias>[A-Za-z_]\w*)\s+\"(?P<name>[\w./-]+)\"\s*(?://.*)?$")
# A code-running call bound to a name (round 53: blind 76's pyparsing example, ``from ast import literal_eval`` made
# ``literal_eval = eval``): the later calls read as the safe one.
_BOUND_RE = re.compile(r"^\s*(?:(?:const|let|var)\s+)?(?P<alias>[A-Za-z_$][\w$]*)\s*=\s*(?P<name>eval|exec|Function|"
                       r"(?:c?pickle|marshal)\.loads?|yaml\.(?:unsafe_)?load|os\.system|os\.popen)\s*;?\s*(?:#.*|//.*)?$")
_SAFE_WORDS = ("secure", "safe", "system", "crypto", "secret", "sanitiz", "escap", "verif", "constanttime", "strict", "trusted")


def safe_sounding_alias(added: Sequence[str], removed: Sequence[str], *, go: bool = False) -> str | None:
    """"imports a name under a safer-sounding alias: …" when an added import renames a name to one that claims a
    safety (secure, system, crypto, sanitize…) the name itself does not carry, or "binds eval to another name" when a
    code-running call is given a name of its own (every call through it runs code); None otherwise. ``go``: the lines are Go's,
    whose import names its alias first (elsewhere ``system "bin/setup"`` is Ruby running a program)."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        if (b := _BOUND_RE.match(line)) and squeezed(line.strip()) not in before and b.group("alias") != b.group("name"):
            return f"binds {b.group('name')} to another name (what is passed to {b.group('alias')} runs as code): {line.strip()[:_QUOTE]}"
        aliased = _GO_ALIAS_RE.match(line) if go else None
        if not (aliased or _IMPORT_LINE_RE.match(line)) or squeezed(line.strip()) in before:
            continue
        for m in ([aliased] if aliased else _AS_RE.finditer(line)):
            name, alias = m.group("name").lower(), m.group("alias").lower()
            # (an "unsafe_"/"insecure_" name carries no safety: round 79, cattrs' `unsafe_load as safe_load`)
            claimed = [w for w in _SAFE_WORDS if w in alias and w not in re.sub(r"unsafe|insecure|unverif\w*|unescap\w*|unsanitiz\w*", "", name)]
            if claimed and name not in ("import", "from"):
                return (f"imports a name under a safer-sounding alias ({m.group('name')} as {m.group('alias')}): "
                        f"{window(line.strip(), m.start(), m.end(), _QUOTE)}")
    return None
