"""Classic risks in the lines that set a machine up: what a user, a build or a lockfile is told to run or fetch
(issue 36, round 12 part B).

The first runs of held-out 13 and 14 missed risks that are not subtle, only written where no family looked: hex's TLS
check switched off in CI (``HEX_UNSAFE_HTTPS=1``), the current folder put on PATH (``":.:" + os.Getenv("PATH")``),
generated URLs turned to plain http in a config template (``scheme: "https"`` → ``"http"``), an http gem source in
``Gemfile.lock``, ``chmod 777`` in a sentence of an install guide, a tool's data folder moved from the user's home to
the shared ``/tmp``, a ``git clone`` from a look-alike account. Each is read as a family, in every ecosystem where
it exists:

- a package manager's TLS check switched off by its environment or its config command (``VALUES``): hex
  (``HEX_UNSAFE_HTTPS``, ``mix hex.config unsafe_https true``), yarn (``YARN_ENABLE_STRICT_SSL``), Bundler and RubyGems
  (``BUNDLE_SSL_VERIFY_MODE=0``, ``:ssl_verify_mode: 0``), uv (``--allow-insecure-host``); what older readers name
  (``GIT_SSL_NO_VERIFY``, ``NODE_TLS_REJECT_UNAUTHORIZED``, ``PIP_TRUSTED_HOST``, ``PYTHONHTTPSVERIFY``, npm's
  ``strict-ssl``, conda's ``ssl_verify``, Maven's ``wagon.http.ssl.insecure``, ``--insecure``) is left to them;
- the current folder on PATH, in a shell, a CI step, a Windows batch file or code that builds the variable
  (``PATH=.:$PATH``, ``PATH="$PATH:."``, ``set PATH=.;%PATH%``, ``":.:" + os.Getenv("PATH")``);
- a lockfile's package source over plain http (``remote:`` of Gemfile.lock, ``resolved`` of npm and yarn, Cargo's
  ``registry+http``, a ``url`` of poetry.lock or composer.lock);
- a secret sent in a URL's query (``?client_secret=`` + a value the code interpolates): proxies and logs keep it;
- what only a pair of lines shows (``paired``): an https URL or scheme written again as http where the host is a
  template's (``http://{{ host }}``, ``scheme: "https"`` → ``"http"``), a folder moved from the user's home to the
  shared ``/tmp``, a download or clone URL whose host or owner comes back one or two letters off;
- a docs sentence's inline code (``run `sudo chmod 777 /usr/local/bin/asdf` ``): read as the command it is
  (``code_spans``), where the sentence around it is left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from relay.review.line_shapes import near, squeezed, window

__all__ = ["VALUES", "code_spans", "lockfile_source", "paired", "spans_read"]

_QUOTE = 60
# A URL that leaves the machine over plain http: a local address is a developer's own.
_HTTP = r"http://(?!localhost\b|127\.0\.0\.1|0\.0\.0\.0|\[::1\])"

_PATH_VAR = r"(?:\bPATH\b|(?<=env:)Path\b|(?<=[%'\"])Path(?=[%'\"]))"


# ----- values, appended to relay.review.risky_lines' unsafe values
VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("turns TLS verification off", ("unsafe_https", "strict_ssl", "ssl_verify_mode", "insecure-host", "insecure_host"), re.compile(
        r"(?P<at>\bHEX_UNSAFE_HTTPS\b['\"]?\s*[=:]\s*['\"]?(?:1|true|yes)\b|\bhex\.config\s+unsafe_https\s+true\b|"
        r"\bYARN_ENABLE_STRICT_SSL\b['\"]?\s*[=:]\s*['\"]?(?:false|0)\b|\bBUNDLE_SSL_VERIFY_MODE\b['\"]?\s*[=:]\s*['\"]?0\b|"
        r"^\s*:?ssl_verify_mode:?\s*(?:=>\s*)?0\b|--allow-insecure-host\b|\bUV_INSECURE_HOST\b\s*[=:]|"
        r"^\s*allow-insecure-host\s*=\s*\[?\s*['\"])", re.I)),  # uv's own setting (round 96: shot-scraper's pyproject.toml)
    ("puts the current folder on PATH", ("path",), re.compile(
        # PATH itself (never PYTHONPATH, CLASSPATH, GOPATH: their "." is the project's own import path), with an element
        # that is the current folder: "." between separators or at the value's end ("./bin" and ".." are folders).
        # Windows spells it Path: read only as a variable ($env:Path, %Path%, "Path"), never Java's or Rust's Path type.
        rf"{_PATH_VAR}[^\n]*?[=:;'\"](?P<at>\.)(?:[:;'\"]|\s*$)|[=:;'\"](?P<at2>\.)[:;'\"][^\n]*?{_PATH_VAR}")),
    ("sends a secret in the URL's query", ("secret=", "token=", "api_key=", "apikey=", "password=", "passwd="), re.compile(
        # After a "?" in the same string, and taking a value the code writes in (never a docs placeholder, never a form body).
        r"\?(?:[^\s'\"#?]*&)?(?P<at>(?:client_secret|app_secret|secret|access_token|auth_token|private_token|api_key|apikey|password|passwd)=)"
        r"(?:['\"]\s*(?:\.|\+|<>|\|\|)|\$\{?|#\{|\{|%s|%\(|<%)", re.I)),
    ("serves plain HTTP on the HTTPS port", ("scheme", "protocol"), re.compile(
        r"(?P<at>\b(?:scheme|protocol)\b['\"]?\s*(?:[=:]>?|=>)\s*[:'\"]?http\b(?!s))[^\n]*\b443\b|"
        r"\b443\b[^\n]*(?P<at2>\b(?:scheme|protocol)\b['\"]?\s*(?:[=:]>?|=>)\s*[:'\"]?http\b(?!s))", re.I)),
    ("puts a tool's home under the shared /tmp (another user may create it first)", ("/tmp/",), re.compile(
        # PATH led by a /tmp folder, or the folder a tool installs into or runs from (its data dir, home, shims, bin, prefix).
        r"\bPATH\s*=\s*['\"]?(?P<at>/(?:var/)?tmp/)|"
        r"(?i:\b\w*(?:data_?dir|_home|shims_?dir|install_?dir|bin_?dir|prefix|root_?dir)\b)['\"]?\s*(?::=|=|:)\s*['\"]?(?P<at2>/(?:var/)?tmp/)")),
)


# ----- what only a pair of lines shows
_LOCAL_RE = re.compile(r"(?i)^(?:localhost|127\.|0\.0\.0\.0|10\.|192\.168\.|\[::1\])|\.(?:local|localhost|test|internal|lan)$")
_NAMESPACE_RE = re.compile(r"(?i)xmlns|<!DOCTYPE|\bw3\.org\b|schemas?\.|json-schema\.org|purl\.org|\bdtd\b|\$schema|apache\.org/licenses")
# An http URL whose host a template or the code fills in, or a scheme written as a value.
_TEMPLATED_HTTP_RE = re.compile(r"\b(?:http|ws)://(?=\{\{|\{%|<%|\$\{|\$[A-Za-z_]|%\{|#\{|\{[A-Za-z_]|%s|%\()")
_LOCAL_LINE_RE = re.compile(r"(?i)\blocalhost\b|\b127\.0\.0\.1\b|\b0\.0\.0\.0\b")
_SCHEME_RE = re.compile(r"(?i)(?P<key>\b(?:scheme|protocol|proto)\b['\"]?\s*(?:[=:]>?|=>)\s*[:'\"]?)(?P<v>http|ws)\b(?!s)")


def _downgraded(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """An https URL with a templated host, or an https scheme value, written again as plain http."""
    secure = {squeezed(line.strip()) for line in removed if "https" in line.lower() or "wss" in line.lower()}
    if not secure:
        return None
    for line in added:
        if _NAMESPACE_RE.search(line):
            continue
        for m in _TEMPLATED_HTTP_RE.finditer(line):
            secure_scheme = "https" if line.startswith("http", m.start()) else "wss"
            was = line[:m.start()] + secure_scheme + line[m.start() + len(secure_scheme) - 1:]
            if squeezed(was.strip()) in secure:
                return f"downgrades a URL to plain HTTP (https → http): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
        for m in _SCHEME_RE.finditer(line if not _LOCAL_LINE_RE.search(line) else ""):
            was = line[:m.start("v")] + m.group("v") + "s" + line[m.end("v"):]
            if squeezed(was.strip()) in secure:
                return f"serves over plain HTTP ({m.group('v')}s → {m.group('v')}): {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


# A folder in the user's own home, and one in the shared temporary folder every local user may write first.
_HOME_RE = re.compile(r"(?:~|\$\{?HOME\}?|%USERPROFILE%|%LOCALAPPDATA%|%APPDATA%|\$env:(?:USERPROFILE|HOME|LOCALAPPDATA|APPDATA))[^\s'\"`;|]*")
_TMP_RE = re.compile(r"(?<![\w.$])/(?:var/)?tmp/[^\s'\"`;|]*")


def _home_to_tmp(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A line that put a folder under the user's home now puts it under the shared /tmp (another user may create it first)."""
    homes = {squeezed(_HOME_RE.sub("@", line.strip())) for line in removed if _HOME_RE.search(line) and not _TMP_RE.search(line)}
    if not homes:
        return None
    for line in added:
        m = _TMP_RE.search(line)
        if m is None or _HOME_RE.search(line):
            continue
        if squeezed(_TMP_RE.sub("@", line.strip())) in homes:
            return f"moves a folder from the user's home to the shared /tmp: {window(line.strip(), m.start(), m.end(), _QUOTE)}"
    return None


_URL_RE = re.compile(r"\b(?:https?|git|ssh)://(?:[^\s/@'\"]+@)?(?P<host>[\w.-]+)(?P<path>(?:/[\w.~-]+){0,2})|\bgit@(?P<host2>[\w.-]+):(?P<path2>[\w.~-]+(?:/[\w.~-]+)?)")
_DIGITS_RE = re.compile(r"\d+")


def _url_parts(line: str) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for m in _URL_RE.finditer(line):
        host = (m.group("host") or m.group("host2") or "").lower()
        path = (m.group("path") or ("/" + m.group("path2") if m.group("path2") else "")).removesuffix(".git")
        out.append((host, *[p for p in path.split("/") if p]))
    return out


def _lookalike_url(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A download or clone URL whose host or owner (first path part) comes back one or two letters off: the same
    project fetched from a look-alike account or domain (zsh-users → zsh-user)."""
    before = {parts for line in removed for parts in _url_parts(line)}
    if not before:
        return None
    seen = {p for parts in before for p in parts}
    for line in added:
        for parts in _url_parts(line):
            if parts in before:
                continue
            for old in before:
                if len(old) != len(parts) or old == parts:
                    continue
                differ = [(i, a, b) for i, (a, b) in enumerate(zip(old, parts)) if a != b]
                if len(differ) != 1 or differ[0][0] > 1 or _LOCAL_RE.search(parts[0]):
                    continue
                _, a, b = differ[0]
                if b in seen or len(a) < 4 or _DIGITS_RE.sub("", a) == _DIGITS_RE.sub("", b) or not near(a, b):
                    continue
                return f"fetches from a look-alike of {a[:40]} (a typo-squat?): {b[:40]} in {window(line.strip(), line.find(b), line.find(b) + len(b), _QUOTE)}"
    return None


def paired(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What only a pair of lines shows, as "what it does: the line"; None when nothing."""
    if not removed or not added:
        return None
    return _downgraded(added, removed) or _home_to_tmp(added, removed) or _lookalike_url(added, removed)


# ----- a docs sentence's inline code: the command it shows
_SPAN_RE = re.compile(r"``?([^`]+?)``?")


_TRAILING_COMMENT_RE = re.compile(r"\s(?:#|//|--)\s")
# A span that is a command a reader runs (a program, sudo, an environment assignment), not a setting the sentence talks
# about ("never pass `autoescape=False`": words about a setting are no setting).
_COMMAND_RE = re.compile(r"^\s*(?:\$\s+)?(?:sudo\s+|export\s+|set\s+|env\s+)?(?:[A-Z_][A-Z0-9_]*=|(?:chmod|chown|curl|wget|git|pip3?|npm|npx|yarn|"
                         r"pnpm|gem|bundle|cargo|go|brew|apt(?:-get)?|yum|dnf|docker|kubectl|mix|composer|uv|pipx|sh|bash|zsh|mkdir|ln|cp|mv|install|"
                         r"make|python3?|node|ruby|php)\b)")


# A setting the sentence tells its reader to write (round 108, blind 205's s2a-go README: "set `InsecureSkipVerify: true`
# in the `tls.Config`"), where no word of the sentence warns against it ("never pass `autoescape=False`" stays words).
# Or a call it tells them to add (round 123, held-out 608's wp-auth0 README: "add `add_filter( 'https_ssl_verify',
# '__return_false' );` to your theme's functions.php").
_SETTING_SPAN_RE = re.compile(r"^[\w.$\[\]'\"-]+\s*(?:[:=]|=>)\s*\S|^[\w.$:>-]+\s*\(\s*\S")
_TOLD_RE = re.compile(r"(?i)\b(?:set|use|pass|add|enable|configure|put)\b")
_WARNED_RE = re.compile(r"(?i)\b(?:never|not|avoid|instead|rather|unless|warning|danger\w*|don't|do not|shouldn't|must not)\b|n't\b")


# A command a sentence tells its reader to run without marking it as code (round 110, blind 252's libest example README:
# "This will create the estCA directory, which contains the CA database.  Then run chmod -R 777 estCA").
_RUN_BARE_RE = re.compile(r"(?i)\b(?:run|execute)\s+(?P<cmd>(?:sudo\s+)?(?:chmod|chown|curl|wget)\s[^.;,`]*)")


def code_spans(lines: Sequence[str], prose: Callable[[str], bool]) -> list[str]:
    """The code inside the lines ``prose`` calls sentences: a docs reader leaves a sentence out (its words about a setting
    are no setting), but ``run `sudo chmod 777 /usr/local/bin/asdf` `` inside it is the command a reader runs (a span that
    starts as a command does: a program, sudo, an environment assignment), and so is
    a sample line whose trailing comment made it read as words (``const dir = '/tmp/asdf' # or wherever you like``)."""
    out: list[str] = []
    for line in lines:
        text = line.strip()
        if not text or not prose(text):
            continue
        out += [m.group(1) for m in _SPAN_RE.finditer(text) if _COMMAND_RE.match(m.group(1))
                or _SETTING_SPAN_RE.match(m.group(1)) and _TOLD_RE.search(text[:m.start()]) and not _WARNED_RE.search(text)] if "`" in text else []
        out += [m.group("cmd") for m in _RUN_BARE_RE.finditer(text)] if "run " in text.lower() or "execute " in text.lower() else []
        head = _TRAILING_COMMENT_RE.split(text, 1)
        if len(head) == 2 and head[0].strip() and not prose(head[0].strip()):
            out.append(head[0])
    return out


def spans_read(added: Sequence[str], removed: Sequence[str], prose: Callable[[str], bool],
               *readers: Callable[[Sequence[str], Sequence[str]], str | None]) -> str | None:
    """A docs file's sentences' inline code read by ``readers`` (``relay.review.risky_lines``' value and call readers, which
    append this module's VALUES: passed in, not imported) and by ``paired``."""
    new = code_spans(added, prose)
    if not new:
        return None
    old = code_spans(removed, prose)
    return next((found for read in readers if (found := read(new, old))), None) or paired("", new, old)


# ----- a lockfile's package source: plain http, or a host one or two letters off the one it replaces
# ``--index-url``/``--extra-index-url``/``--find-links`` of a pip-format lock (rye's requirements-dev.lock, pip-compile's
# output named .lock: blind 61's joserfc had an index over plain http read as "lockfile").
# (uv.lock's inline tables too: ``sdist = { url = "…" }``, ``wheels = [{ url = "…" }]``, ``source = { registry = "…" }``;
# round 74, blind 103's time-machine)
_LOCK_SOURCE_RE = re.compile(r"""^\s*(?:(?:sdist|wheels|source)\s*=\s*\[?\s*\{\s*)?"?(?:remote|resolved|tarball|source|url|registry|--(?:extra-)?index-url|--find-links|-[if])"?\s*[:=]?\s*"?"""
                             r"""(?:registry\+|sparse\+|git\+)?(?P<url>(?:https?|git)://(?P<host>[\w.-]+)[^\s"',]*)""")
_LOCK_LINES = 2000


def lockfile_source(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"fetches packages …: the line" when a lockfile's source line (Gemfile.lock's ``remote:``, npm's and yarn's
    ``resolved``, pnpm's ``tarball``, Cargo's ``source``, poetry's and composer's ``url``) takes packages over plain
    http, or from a host one or two letters off a host the change removes; None otherwise."""
    gone = {m.group("host").lower() for line in removed[:_LOCK_LINES] if (m := _LOCK_SOURCE_RE.match(line))}
    before = {squeezed(line) for line in removed[:_LOCK_LINES]}
    hosts: set[str] = set()
    for line in added[:_LOCK_LINES]:
        m = _LOCK_SOURCE_RE.match(line)
        if m is None or _LOCAL_RE.search(m.group("host")) or squeezed(line) in before:
            continue
        if m.group("url").startswith("http://"):
            return f"fetches packages over plain HTTP: {window(line.strip(), m.start('url'), m.end('host'), _QUOTE)}"
        host = m.group("host").lower()
        if host in gone or host in hosts:
            continue
        hosts.add(host)
        old = next((h for h in gone if near(h, host) and _DIGITS_RE.sub("", h) != _DIGITS_RE.sub("", host)), None)
        if old:
            return f"fetches packages from a look-alike of {old[:40]} (a typo-squat?): {window(line.strip(), m.start('host'), m.end('host'), _QUOTE)}"
    return None
