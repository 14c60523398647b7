"""Classic risks in the syntaxes the other line readers do not read: app manifests, typed TLS callbacks, package
managers told not to check, security linters silenced, a URL downgraded to plain HTTP (issue 36, round 10).

The first runs of held-out 9 and 10 missed risks that are not subtle, only spelled where no family looked: an
Info.plist's ``NSAllowsArbitraryLoads``, a C# certificate callback that defaults to ``=> true``, a Swift sample that
answers any server trust with ``.useCredential``, ``apk add --allow-untrusted`` in a Dockerfile, an https download URL
turned http in an extension-less script. Each entry is a family read in every ecosystem where it exists:

- values (``VALUES``, appended to ``relay.review.risky_lines``' unsafe values, so ``unsafe_value`` names them):
  certificate validation callbacks that accept everything (.NET, Java/Kotlin, Swift's evaluators and flags),
  app transport security off (Apple's ATS keys, Android's cleartext traffic, user CAs, debuggable builds),
  package managers told not to check signatures or integrity (apk, rpm, npm, gem, choco, nix, snap, Docker
  content trust, apt's Verify-Peer), every attribute permitted (Rails ``permit!``, Laravel ``$guarded = []``), a
  key object built from a literal, PHP's and .NET's constant-time checks made an alternative;
- calls (``CALLS``, appended to the dangerous calls): untrusted text in GitLab, Azure and Jenkins CI steps;
- ``paired_line``, what only two lines (or a line against the change around it) show: a plist or entitlements key
  and the ``<true/>`` under it, a Java TrustManager or HostnameVerifier whose body accepts, a Swift challenge
  answered with the server's own trust where nothing evaluates it, an ``https://`` URL the change writes again as
  ``http://``, a security scan removed from CI, a linter silenced for a whole file or crate, a work factor capped
  by ``min``, a pattern's stop class widened to any character, a membership test made a prefix or suffix match,
  atoms made from input, an Android component turned ``exported``, a Mix dependency taken from GitHub.

Every pattern stays narrow enough for ordinary history (the line-rate bench): a callback returning ``errors ==
SslPolicyErrors.None``, ``NSAllowsArbitraryLoads`` set false, a schema or localhost URL, ``--unsafe-perm=false``,
a ``# nosec`` on one line, ``min(timeout, 30)`` stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from relay.review import classic_cells, classic_places, setup_lines
from relay.review.line_shapes import squeezed, window

__all__ = ["APP_MANIFESTS", "CALLS", "VALUES", "paired_line", "silencing_comment"]

_QUOTE = 60

# Files each of whose lines is a setting (a plist's value stands on the line under its key): read whole.
APP_MANIFESTS = ("*.plist", "*.entitlements", "androidmanifest.xml", "network_security_config.xml")

# A cleartext-traffic or ATS switch in any spelling: XML attribute, plist, JSON/YAML (Expo's app.json).
_ON = r"(?:</key>\s*<true\s*/>|['\"]?\s*[=:]\s*['\"]?(?:true|YES|1)\b)"

VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("turns TLS verification off", ("certificatevalidation", "certificatecustomvalidation", "dangerousacceptany", "allowsexpired",
                                    "validatesdomainname", "disabledtrust", "disabledevaluator", "checkservertrusted", "sslsession",
                                    "servercertificatevalidationcallback"), re.compile(
        # .NET: a certificate validation callback (HttpClientHandler's, ServicePointManager's, a client option's) that accepts.
        r"\b\w*Certificate(?:Custom)?Validation\w*(?:Callback|Handler)\b.*?(?P<at_callback>=>\s*\{?\s*(?:return\s+)?true\b|"
        r"\bdelegate\s*(?:\([^)]*\))?\s*\{\s*return\s+true\b)|\bDangerousAcceptAnyServerCertificateValidator\b|"
        # Swift: Alamofire's evaluator that checks nothing, Apple's flags that let an expired or misnamed certificate pass.
        r"\bDisabled(?:Trust)?Evaluator\s*\(|\ballowsExpired(?:Certificates|Roots)\s*=\s*true\b|\bvalidatesDomainName\s*=\s*false\b|"
        # Java/Kotlin on one line: a TrustManager's check with an empty body, a HostnameVerifier's verify that returns true.
        r"\bcheckServerTrusted\s*\([^)]*\)\s*(?::\s*Unit\s*)?(?:throws\s+[\w.,\s]+)?\{\s*\}|"
        r"\bverify\s*\([^)]*SSLSession[^)]*\)\s*(?::\s*Boolean\s*)?(?:=\s*true\b|\{\s*return\s+true\s*;?\s*\})")),
    ("turns an app's transport security off", ("nsallowsarbitraryloads", "insecurehttploads", "cleartexttraffic", "minimumtlsversion",
                                               'src="user"', "src='user'", "debuggable"), re.compile(
        # Apple's App Transport Security: plain HTTP allowed everywhere or for a domain, TLS 1.0/1.1 accepted.
        r"\bNSAllowsArbitraryLoads(?:InWebContent|ForMedia)?\b" + _ON + r"|\bNS(?:Temporary|ThirdParty)?Exception(?:Allows)?InsecureHTTPLoads\b" + _ON + r"|"
        r"\bNS(?:Temporary|ThirdParty)?ExceptionMinimumTLSVersion\b(?:</key>\s*<string>|['\"]?\s*[=:]\s*['\"])\s*TLSv1\.[01]\b|"
        # Android: cleartext traffic allowed, the user's own CAs trusted, a build that can be debugged.
        r"\b(?:android:)?usesCleartextTraffic['\"]?\s*[=:]\s*['\"]?true\b|\bcleartextTrafficPermitted\s*=\s*['\"]true\b|"
        r"<certificates\s+src\s*=\s*(?:\"user\"|'user')|\bandroid:debuggable\s*=\s*['\"]true\b|^\s*(?:isD|d)ebuggable\s*(?:=\s*)?true\b")),
    ("turns package integrity checks off", ("allow-untrusted", "nosignature", "nodigest", "unsafe-perm", "nosecurity", "lowsecurity",
                                            "ignore-checksum", "allow-empty-checksum", "content_trust", "content-trust", "require-sigs",
                                            "--dangerous", "skip-integrity-check", "verify-peer", "verify-host", "secure-http", "disable-tls",
                                            "-insecure", "ssl_verify", "strict-ssl"), re.compile(
        r"\bapk\b[^|;&#\n]*\s--allow-untrusted\b|\brpm\b[^|;&#\n]*\s--no(?:signature|digest)\b|"
        r"\b(?:npm|pnpm)\b[^|;&#\n]*\s--unsafe-perm(?!\s*=\s*false)\b|"
        r"\bgem\s+(?:install|update)\b[^|;&#\n]*\s(?:-P|--trust-policy)\s*=?\s*(?:No|Low|AlmostNo)Security\b|"
        r"\bchoco(?:latey)?\b[^|;&#\n]*\s--(?:ignore-checksums?|allow-empty-checksums(?:-secure)?)\b|"
        r"\bDOCKER_CONTENT_TRUST\b['\"]?\s*[=:]\s*['\"]?0\b|--disable-content-trust(?!\s*=\s*false)\b|"
        r"\brequire-sigs\b\s*=?\s*['\"]?false\b|\bsnap\s+install\b[^|;&#\n]*\s--dangerous\b|"
        r"\byarn\b[^|;&#\n]*\s--skip-integrity-check\b|\b(?:yarn|pnpm)\s+config\s+set\s+strict-ssl\s+false\b|"
        r"\bVerify-(?:Peer|Host)\b['\"]?\s*[= ]\s*['\"]?false\b|\bcomposer\b[^|;&#\n]*\bconfig\b[^|;&#\n]*\b(?:secure-http\s+false|disable-tls\s+true)\b|"
        r"\"disable-tls\"\s*:\s*true\b|\bgo\s+get\b[^|;&#\n]*\s-insecure\b|\bconda\s+config\b[^|;&#\n]*\bssl_verify\s+(?:false|no|0)\b", re.I | re.A)),
    ("permits every attribute (mass assignment)", ("permit!", "guarded", "unguard"), re.compile(
        # Rails' strong parameters waved through, Laravel's guard list emptied or switched off.
        r"\.permit!(?!\w)|\$guarded\s*=\s*\[\s*\]|\b(?:Model|Eloquent)::unguard\s*\(")),
    ("builds a key from a hard-coded literal", ("key(", "keyspec(", "secret("), re.compile(
        # A key object built from a literal in the code ("new SymmetricKey('c2Vj…')", SecretKeySpec("0123…".getBytes())):
        # the older family reads a secret assigned to a key's name; this one the constructor's argument.
        r"\b\w*(?:Key|KeySpec|Secret)\s*\(\s*(?:b|u8|@)?(?P<at_key>['\"](?![^'\"]*(?i:example|your|xxx|change|dummy|fake|placeholder|secret-key))"
        r"(?=[^'\"]*\d)(?=[^'\"]*[A-Za-z])[A-Za-z0-9+/=_-]{16,}['\"])")),
    ("short-circuits a signature or MAC check", ("hash_equals", "password_verify", "fixedtimeequals", "checkpw"), re.compile(
        # PHP's and .NET's constant-time checks (the older family reads Go's, Node's, Python's and Ruby's): one made an
        # alternative to another ("password_verify(…) || hash_equals($hash, $token)": the stored hash itself now passes).
        r"(?:\|\||\bor\b)\s*\\?(?P<at_or>(?:hash_equals|password_verify|(?:CryptographicOperations\.)?FixedTimeEquals|(?:bcrypt\.)?checkpw)\s*\()|"
        r"(?<![!\w\\])\\?(?P<at_first>(?:hash_equals|password_verify|(?:CryptographicOperations\.)?FixedTimeEquals)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:\|\||\bor\b))")),
)


# Untrusted text (a commit message, a merge request's title, a branch name) in a CI step of another system than GitHub's.
# GitLab hands it to the shell as a variable (quoted, it is only text): it runs only where a second shell or an
# interpreter parses it again (eval, sh -c, python -c). Azure's $(…) macros and a Jenkinsfile's "${…}" are pasted into
# the script before any shell reads it, as GitHub's ${{ … }} are.
_GITLAB_TEXT = r"\$\{?CI_(?:COMMIT_(?:MESSAGE|TITLE|DESCRIPTION|BRANCH|REF_NAME|TAG_MESSAGE|AUTHOR)|MERGE_REQUEST_(?:TITLE|DESCRIPTION|SOURCE_BRANCH_NAME))\b"
CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("runs untrusted text in a CI step (script injection)", ("ci_commit_", "ci_merge_request_", "build.sourceversionmessage",
                                                           "build.sourcebranch", "system.pullrequest.sourcebranch", "change_title",
                                                           "change_branch", "ghprbpulltitle", "ghprbsourcebranch", "ghprbpulldescription"), re.compile(
        r"\b(?:eval|(?:ba|z)?sh\s+-c|python3?\s+-c|node\s+-e|ruby\s+-e|perl\s+-e)\s[^#\n]*?(?P<at_gitlab>" + _GITLAB_TEXT + r")|"
        r"^(?!\s*-?\s*(?:displayName|name|condition|tags?)\s*:).*?(?P<at_azure>\$\((?:Build\.SourceVersionMessage|Build\.SourceBranch(?:Name)?|"
        r"System\.PullRequest\.SourceBranch(?:Name)?)\))|"
        r"\bsh\s*\(?\s*(?:script\s*:\s*)?\"[^\"]*?(?P<at_jenkins>\$\{?(?:env\.)?(?:CHANGE_TITLE|CHANGE_BRANCH|ghprbPullTitle|ghprbSourceBranch|"
        r"ghprbPullDescription)\b)")),
)


# ----- a security linter silenced for a whole file or crate, or a crate's ban on unsafe code lifted. One line's
# suppression ("# nosec", "// NOSONAR", "//nolint:gosec") is not read: ordinary history adds those to lines that were
# there when a project adopts a linter (gorilla/csrf's "// #nosec G101" on a constant's name), and a risky line under
# one is named by what it does.
_FILE_WIDE_RE = re.compile(r"#!\[\s*allow\s*\(\s*unsafe_code\s*\)\s*\]|/\*\s*eslint-disable\s+[^*]*\bsecurity/|#\s*ruff\s*:\s*noqa\s*:[\w,\s]*\bS\d*\b")
# The ban among other lints too (``#![deny(missing_docs, unsafe_code)]``), but not inside a block comment of the list: that
# is the ban commented out (kerberos-parser, held-out 5xx: ``#![deny(/*unsafe_code,*/ missing_docs)]`` — the whole line was
# dropped as a comment and no reader saw it). A line naming the lint in such an attribute at all is kept for the readers.
_FORBID_RE = re.compile(r"#!\[\s*(?:forbid|deny)\s*\((?:[^\]/]|/(?!\*))*?\bunsafe_code\b")
_NAMES_BAN_RE = re.compile(r"#!\[\s*(?:forbid|deny)\s*\([^\]]*\bunsafe_code\b")


def silencing_comment(line: str) -> bool:
    """A comment line the rules read as code: it silences a whole file's security findings or a crate's ban on unsafe
    code, or it is the ban (its removal lifts it)."""
    return (("unsafe_code" in line or "eslint-disable" in line or "noqa" in line)
            and (_FILE_WIDE_RE.search(line) or _NAMES_BAN_RE.search(line)) is not None)


def _silenced(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        if (m := _FILE_WIDE_RE.search(line)) and squeezed(line.strip()) not in before:
            return f"silences a security linter for a whole file or crate: {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    after = {squeezed(line.strip()) for line in added}
    for line in removed:
        if (m := _FORBID_RE.search(line)) and squeezed(line.strip()) not in after and not any(_FORBID_RE.search(a) for a in added):
            return f"lifts a crate's ban on unsafe code: removes {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- a plist or entitlements key whose value stands on the next line
_PLIST_KEY_RE = re.compile(r"<key>\s*(?P<key>NSAllowsArbitraryLoads(?:InWebContent|ForMedia)?|NS(?:Temporary|ThirdParty)?Exception(?:Allows)?InsecureHTTPLoads|"
                           r"NS(?:Temporary|ThirdParty)?ExceptionMinimumTLSVersion|com\.apple\.security\.(?:get-task-allow|cs\.disable-library-validation|"
                           r"cs\.allow-unsigned-executable-memory|cs\.allow-dyld-environment-variables|cs\.disable-executable-page-protection))\s*</key>")
_PLIST_VALUE_RE = re.compile(r"<(?P<flag>true|false)\s*/>|<string>\s*(?P<text>[^<]*)</string>")
_PLIST_WHAT = {"NS": "turns an app's transport security off", "com": "turns a macOS app's code-signing protection off"}


def _plist_pair(added: Sequence[str], removed: Sequence[str]) -> str | None:
    rows = [line.strip() for line in added if line.strip()]
    before = {squeezed(line.strip()) for line in removed}
    for i, row in enumerate(rows):
        for m in _PLIST_KEY_RE.finditer(row):
            rest = row[m.end():].strip() or (rows[i + 1] if i + 1 < len(rows) else "")
            value = _PLIST_VALUE_RE.match(rest.strip())
            if not value:
                continue
            bad = value.group("flag") == "true" if value.group("flag") else bool(re.match(r"TLSv1\.[01]\b", value.group("text") or ""))
            if not bad or (squeezed(row) in before and squeezed(rest) in before):
                continue
            what = _PLIST_WHAT["com" if m.group("key").startswith("com.") else "NS"]
            shown = row if m.end() < len(row.rstrip()) else f"{row} {rest.strip()}"
            return f"{what}: {window(shown, m.start(), len(shown), _QUOTE)}"
    return None


# ----- Java/Kotlin: a TrustManager's check or a HostnameVerifier's verify whose body, on the next lines, accepts all
_TRUST_HEAD_RE = re.compile(r"\b(?P<name>check(?:Server|Client)Trusted)\s*\([^)]*\)\s*(?::\s*Unit\s*)?(?:throws\s+[\w.,\s]+)?\{\s*$|"
                            r"\b(?P<verify>verify)\s*\([^)]*SSLSession[^)]*\)\s*(?::\s*Boolean\s*)?\{\s*$")


def _accepting_body(added: Sequence[str]) -> str | None:
    rows = [line.strip() for line in added if line.strip()]
    for i, row in enumerate(rows):
        m = _TRUST_HEAD_RE.search(row)
        if not m:
            continue
        body = [r for r in rows[i + 1:i + 4] if not r.startswith(("//", "/*", "*"))]
        if m.group("name") == "checkServerTrusted" and body and body[0].startswith("}"):
            return f"turns TLS verification off (a TrustManager that checks nothing): {window(row, m.start(), m.end(), _QUOTE)}"
        if m.group("verify") and body and re.match(r"return\s+true\s*;?\s*$", body[0]):
            return f"turns TLS verification off (a HostnameVerifier that accepts any host): {window(row, m.start(), m.end(), _QUOTE)} return true"
    return None


# ----- Swift: an authentication challenge answered with the server's own trust, never evaluated
# The credential built from the challenge's own trust, in either order (``URLCredential(trust: challenge.protectionSpace.serverTrust!)``,
# ``challenge.protectionSpace.serverTrust.map { URLCredential(trust: $0) }``).
_USE_TRUST_RE = re.compile(r"\.useCredential\s*,\s*(?:URLCredential\s*\(\s*trust\s*:\s*[\w.]*protectionSpace\.serverTrust\b|"
                           r"[\w.]*protectionSpace\.serverTrust\b[!?]?\s*\.(?:map|flatMap)\s*\{\s*URLCredential\s*\(\s*trust\s*:)")
_EVALUATES_RE = re.compile(r"(?i)evaluat|SecTrust|pinn|\.validate\(|trustedHosts|isTrusted|certificates?\b.*==")


def _trust_any_server(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        m = _USE_TRUST_RE.search(line)
        if m and squeezed(line.strip()) not in before and not any(_EVALUATES_RE.search(other) for other in added):
            return f"turns TLS verification off (any server's trust accepted): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- an https URL the change writes again as plain http (a download, a bootstrap, a reset link); round 25 part C: the
# same key or assignment given a URL on the same host over a plain scheme while its path changed too (a token endpoint
# moved to ``/oauth/v2/`` and to ``http://`` in one edit), and the other secure schemes made plain (wss, ftps, ldaps).
_HTTP_URL_RE = re.compile(r"(?P<scheme>http|ws|ftp|ldap)://(?P<host>[\w.-]+)")
_SECURE_URL_RE = re.compile(r"(?P<scheme>https|wss|ftps|sftp|ldaps)://(?P<host>[\w.-]+)")
_PLAIN = {"https": "http", "wss": "ws", "ftps": "ftp", "sftp": "ftp", "ldaps": "ldap"}
_LOCAL_HOST_RE = re.compile(r"^(?:localhost|127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.)|\.(?:local|localhost|test|internal|lan)$", re.I)
# URLs that name a document type or a namespace, never fetched: a scheme change there means nothing.
_NAMESPACE_RE = re.compile(r"(?i)xmlns|<!DOCTYPE|\bw3\.org\b|schemas?\.|json-schema\.org|purl\.org|\bdtd\b|\$schema|apache\.org/licenses")


def _https_downgraded(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not removed:
        return None
    secure = {squeezed(line.strip()) for line in removed if "://" in line}
    # (what stands before the URL, its host, its plain scheme) of each secure URL the removed side wrote
    keyed = {(squeezed(line[:m.start()].strip()), m.group("host").lower(), _PLAIN[m.group("scheme")])
             for line in removed[:400] if "s://" in line or "sftp://" in line for m in _SECURE_URL_RE.finditer(line)}
    if not keyed:
        return None
    for line in added:
        if "://" not in line or _NAMESPACE_RE.search(line) or "](" in line or "<http" in line:
            continue
        for m in _HTTP_URL_RE.finditer(line):
            if _LOCAL_HOST_RE.search(m.group("host")) or (m.start() and (line[m.start() - 1].isalnum() or line[m.start() - 1] == "+")):
                continue
            scheme = m.group("scheme")
            was = {line[:m.start()] + secure_scheme + line[m.start() + len(scheme):] for secure_scheme, plain in _PLAIN.items() if plain == scheme}
            if any(squeezed(w.strip()) in secure for w in was) or (
                    (squeezed(line[:m.start()].strip()), m.group("host").lower(), scheme) in keyed and re.search(r"[A-Za-z]", line[:m.start()])):
                old = next(k for k, v in _PLAIN.items() if v == scheme) if scheme != "http" else "https"
                what = "plain HTTP" if scheme == "http" else "a plaintext scheme"
                return f"downgrades a URL to {what} ({old} → {scheme}): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- an Android component turned exported: other apps may start it
_EXPORTED_RE = re.compile(r"\bandroid:exported\s*=\s*['\"](?P<v>true|false)['\"]")


def _exported(added: Sequence[str], removed: Sequence[str]) -> str | None:
    closed = {squeezed(_EXPORTED_RE.sub("", line.strip())) for line in removed if (m := _EXPORTED_RE.search(line)) and m.group("v") == "false"}
    if not closed:
        return None
    for line in added:
        m = _EXPORTED_RE.search(line)
        if m and m.group("v") == "true" and squeezed(_EXPORTED_RE.sub("", line.strip())) in closed:
            return f"exports an Android component to other apps (false → true): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- Mix: a dependency taken from GitHub or a git URL instead of Hex
_MIX_GIT_RE = re.compile(r"\{\s*:(?P<name>\w+)\s*,[^}]*?\b(?P<how>github|git)\s*:\s*\"(?P<url>[^\"]+)\"")
_MIX_DEP_RE = re.compile(r"\{\s*:(?P<name>\w+)\s*,")


def _mix_git(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not path.lower().endswith("mix.exs"):
        return None
    old = {m.group("name"): (g.group("url") if (g := _MIX_GIT_RE.search(line)) else "") for line in removed if (m := _MIX_DEP_RE.search(line))}
    for line in added:
        m = _MIX_GIT_RE.search(line)
        if not m or old.get(m.group("name")) == m.group("url"):
            continue
        was = " (was Hex)" if m.group("name") in old and not old[m.group("name")] else ""
        return (f"takes a dependency from a git repository instead of its registry{was}: "
                f"{window(line.strip(), m.start('how'), m.end('url') + 1, _QUOTE)}")
    return None


# ----- a key-derivation work factor capped in place: "iterations - 1" → "min(iterations - 1, 1000)", "rounds" → "rounds.min(10_000)"
_FACTOR_RE = re.compile(r"(?i)rounds|iterations?|\biter\b|work_?factor|\bcost\b|log_?rounds")
_NUM = r"[\d_]+(?:\.\d+)?"
_CAPS = (re.compile(r"\b(?:Math\.|math\.|std::cmp::|cmp::|Kernel\.)?min\s*\(\s*(?P<x>[^,()]+(?:\([^()]*\))?[^,()]*?)\s*,\s*" + _NUM + r"\s*\)"),
         re.compile(r"\b(?:Math\.|math\.|std::cmp::|cmp::|Kernel\.)?min\s*\(\s*" + _NUM + r"\s*,\s*(?P<x>[^,()]+(?:\([^()]*\))?[^,()]*?)\s*\)"),
         re.compile(r"(?<!\w)(?<!\w\.)(?P<x>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.min\s*\(\s*" + _NUM + r"\s*\)"))


# Where a factor is a key derivation's: a solver's iterations or a game's rounds capped mean nothing to security.
_KDF_RE = re.compile(r"(?i)pbkdf|bcrypt|scrypt|argon|kdf|hash|passw|hmac|crypt|digest|salt|deriv")


def _capped_factor(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    if not before or not any("min" in line for line in added) or not _KDF_RE.search(" ".join((path, *added, *removed))):
        return None
    for line in added:
        if "min" not in line or squeezed(line.strip()) in before:
            continue
        for cap in _CAPS:
            for m in cap.finditer(line):
                if _FACTOR_RE.search(m.group("x")) and squeezed((line[:m.start()] + m.group("x") + line[m.end():]).strip()) in before:
                    return f"caps a security work factor ({m.group('x').strip()} → {m.group(0).strip()}): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- a pattern widened in place: a class that stopped at a separator turned into "any character" ("[^/]+" → ".+")
_STOP_CLASS_RE = re.compile(r"\[\^(?:[^\]\\]|\\.){1,12}\](?P<q>[+*])")


def _widened_pattern(added: Sequence[str], removed: Sequence[str]) -> str | None:
    loose = {}
    for line in removed:
        if "[^" in line:
            for m in _STOP_CLASS_RE.finditer(line):
                loose[squeezed((line[:m.start()] + "." + m.group("q") + line[m.end():]).strip())] = m.group(0)
    if not loose:
        return None
    for line in added:
        was = loose.get(squeezed(line.strip()))
        if was is not None:
            at = line.find("." + was[-1])
            return f"widens a pattern to any character ({was} → .{was[-1]}): {window(line.strip(), max(at, 0), max(at, 0) + 2, _QUOTE)}"
    return None


# ----- a membership test turned into a prefix or suffix match: "ip in ALLOWED" → "any(ip.startswith(a) for a in ALLOWED)"
_AFFIX_RE = re.compile(r"(?<![\w$.])(?P<s>[\w$.]+)\s*\.\s*(?:startswith|endswith|start_with\?|end_with\?|startsWith|endsWith|hasPrefix|hasSuffix|"
                       r"StartsWith|EndsWith|starts_with|ends_with)\s*\(|\bstrings\.Has(?:Prefix|Suffix)\s*\(\s*(?P<go>[\w.]+)\s*,")


def _member_test(subject: str) -> re.Pattern[str]:
    s = re.escape(subject)
    return re.compile(rf"(?<![\w.]){s}\s+in\s+(?P<c>[\w.$>-]+)|(?P<c2>[\w.$>-]+)\s*\.\s*(?:include\?|includes|contains|Contains|containsKey|has|"
                      rf"indexOf)\s*\(\s*{s}\s*\)|\bin_array\s*\(\s*{s}\s*,\s*(?P<c3>[\w.$>-]+)|\bslices\.Contains\s*\(\s*(?P<c4>[\w.]+)\s*,\s*{s}\s*\)")


def _membership_to_affix(added: Sequence[str], removed: Sequence[str]) -> str | None:
    after = {squeezed(line.strip()) for line in added}
    gone = [line for line in removed if squeezed(line.strip()) not in after]
    if not gone:
        return None
    for line in added:
        for m in _AFFIX_RE.finditer(line):
            subject = m.group("s") or m.group("go")
            if not subject or subject.startswith("$0") or subject.isdigit():
                continue
            test = _member_test(subject)
            for old in gone:
                t = test.search(old)
                if t is None:
                    continue
                collection = next(g for g in t.groups() if g)
                if collection.rsplit(".", 1)[-1].rsplit(">", 1)[-1] in line:
                    # The reason is cut at 120 characters: the new line and the test it replaced both fit in it.
                    return (f"makes a membership test a prefix or suffix match: {window(line.strip(), m.start(), m.end(), 40)} "
                            f"(was {window(t.group(0).strip(), 0, len(subject), 22)})")
    return None


# ----- atoms made from input: Elixir's and Erlang's "existing atom" lookups dropped (the atom table is never collected)
_ATOM_RE = re.compile(r"\b(?P<how>(?:String\.to|(?::erlang\.)?(?:binary|list)_to)_atom)\s*\(")


def _atom_from_input(added: Sequence[str], removed: Sequence[str]) -> str | None:
    safe = {squeezed(line.strip().replace("to_existing_atom", "to_atom")) for line in removed if "to_existing_atom" in line}
    if not safe:
        return None
    for line in added:
        m = _ATOM_RE.search(line)
        if m and squeezed(line.strip()) in safe:
            return f"creates atoms from input (to_existing_atom → to_atom): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# ----- a security scan removed from CI: CodeQL's steps, a scanner's action, a step that runs one
_SCANNER_RE = re.compile(r"\buses:\s*['\"]?(?P<action>github/codeql-action/(?:init|analyze)|securego/gosec|(?:returntocorp|semgrep)/semgrep-action|"
                         r"aquasecurity/trivy-action|snyk/actions|pypa/gh-action-pip-audit|ossf/scorecard-action|github/dependency-review-action|"
                         r"anchore/scan-action|zizmorcore/zizmor-action)\b|"
                         r"^\s*(?:-\s*)?(?:(?:run|script):\s*)?(?:-\s*)?(?P<tool>bandit|gosec|semgrep(?:\s+(?:ci|scan))?|brakeman|trivy|snyk\s+test|pip-audit|"
                         r"npm\s+audit|yarn\s+audit|cargo\s+audit|cargo\s+deny|govulncheck|safety\s+check|zizmor)\b", re.I)
_CI_PATHS = (".github/workflows/", ".gitlab-ci.yml", ".gitlab-ci.yaml", ".circleci/", "azure-pipelines.yml", ".travis.yml", "jenkinsfile",
             "bitbucket-pipelines.yml", ".buildkite/", ".drone.yml")


def _scan_removed(path: str, added: Sequence[str], removed: Sequence[str], written: frozenset[str]) -> str | None:
    low = path.lower()
    if not any(part in low for part in _CI_PATHS):
        return None
    still = {(m.group("action") or m.group("tool") or "").lower().split()[0] for line in added if (m := _SCANNER_RE.search(line))}
    # A scan moved to a workflow of its own (gin's Trivy job): the change writes it again in another file.
    still |= {w for w in ("codeql-action", "gosec", "semgrep", "trivy", "snyk", "bandit", "brakeman", "pip-audit", "scorecard", "zizmor")
              if any(w in line.lower() for line in written)}
    after = {squeezed(line.strip()) for line in added}
    for line in removed:
        m = _SCANNER_RE.search(line)
        if not m or squeezed(line.strip()) in after:
            continue
        name = (m.group("action") or m.group("tool")).lower()
        if name.split()[0] in still or any(w in name for w in still if "/" not in w):
            continue  # the scanner still runs (a version or a flag moved)
        return f"removes a security scan from CI ({name}): removes {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


def paired_line(path: str, added: Sequence[str], removed: Sequence[str], *, prose: Callable[[str], bool] | None = None,
                written: frozenset[str] = frozenset()) -> str | None:
    """What only a pair of lines (or a line against the change around it) shows, as "what it does: the line";
    None when nothing. ``prose`` (a docs file's): the lines it calls sentences are left out, and so is the
    dependency reader (a sample's manifest is no manifest)."""
    if prose is not None:
        added = [line for line in added if not prose(line.strip())]
        removed = [line for line in removed if not prose(line.strip())]
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith((".plist", ".entitlements")):
        return _plist_pair(added, removed)
    if name == "androidmanifest.xml":
        return _exported(added, removed)
    return (_https_downgraded(added, removed) or _scan_removed(path, added, removed, written) or _trust_any_server(added, removed) or _accepting_body(added)
            or _silenced(added, removed) or _capped_factor(path, added, removed) or _widened_pattern(added, removed)
            or _membership_to_affix(added, removed) or _atom_from_input(added, removed)
            or (_mix_git(path, added, removed) if prose is None else None) or classic_places.paired(path, added, removed)
            or setup_lines.paired(path, added, removed) or classic_cells.paired(path, added, removed))
