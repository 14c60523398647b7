"""Classic risks in places the other line readers still did not read (issue 36, round 11 part B).

The first runs of held-out 11 and 12 missed risks that are not subtle, only written where no family looked: a
package feed over plain http in ``NuGet.config``, a Gradle wrapper fetched over ``http\\://``, a Ruby HMAC compared
with ``==`` where ``secure_compare`` was, an ExUnit ``@tag :skip`` on a signer test, a shell ``eval`` in a template
kept as text, a program no longer resolved on PATH (so the one in the current folder runs), a MAC compared with
itself. Each is read as a family, in every ecosystem where it exists:

- package and tool sources over plain http: NuGet feeds (``NuGet.config``, MSBuild's ``RestoreSources``), the
  Gradle and Maven wrappers' ``distributionUrl``, Cargo registries, sbt resolvers, SwiftPM and Carthage sources,
  Nix substituters, Poetry/Pipenv/uv sources, Composer repositories (``VALUES`` and ``paired``);
- a secret compared with ``==`` where the language has a constant-time compare: a constant-time call the change
  replaces (with or without parentheses: Ruby's ``secure_compare a, b``), a signature, HMAC, MAC or password compared
  with ``==``/``===``/``.equals``/``bytes.Equal`` against a computed value, a constant-time check of a value with
  itself (always equal);
- a security test switched off in every framework: the skip markers the older list lacked (``SKIP_SHAPES``, read by
  ``relay.review.file_kinds``: ExUnit ``@tag :skip``, RSpec and minitest ``skip``/``pending``, bats ``skip``, NUnit
  ``[Ignore(…)]``, xUnit ``[Theory(Skip = …)]``, Rust ``#[ignore = …]``, XCTest ``XCTSkip``,
  TestNG ``enabled = false``; not a conditional ``XCTSkipIf`` or Mocha's ``this.skip()``) and the words that say a test is about a check (``SECURITY_TEST_WORDS``);
- code where the readers thought docs or data live: a shell ``eval`` of interpolated text (a script template
  under ``templates/``, an extension-less script), a package installed from a git branch in CI or a script, a
  program run by its bare name (or ``./name``) where the change drops its lookup on PATH or its absolute path;
- a download command continued with ``\\`` whose URL, over plain http, stands alone on the next line, and Rails' debug
  error pages turned on in a production environment (round 88).

Each shape stays narrow for ordinary history: ``eval "$(tool init)"``, ``eval set -- "$opts"``, a token compared
with a literal, ``nil`` or a length, a pinned ``git+…@<sha>``, a localhost feed stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed, window

__all__ = ["CALLS", "SECURITY_TEST_WORDS", "SKIP_SHAPES", "SKIP_WORDS", "VALUES", "marked_old_case", "paired"]

_QUOTE = 60
# A URL that leaves the machine over plain http (``http\://`` in a Java properties file): a local address is a developer's own.
_HTTP = r"http\\?://(?!localhost\b|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|\$|\{)"

# ----- values, appended to relay.review.risky_lines' unsafe values
VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("downloads the build tool over plain HTTP", ("http://", "http\\://"), re.compile(
        # gradle-wrapper.properties and maven-wrapper.properties: the tool that runs the build, fetched unchecked.
        r"(?P<at>\b(?:distributionUrl|wrapperUrl)\s*[=:]\s*" + _HTTP + r")")),
    ("fetches packages from an untrusted index", ("http://", "http\\://"), re.compile(
        # MSBuild's restore feeds, Cargo's registries, sbt's resolvers, SwiftPM and Carthage sources, Nix's binary caches.
        r"(?P<at><(?:RestoreSources|RestoreAdditionalProjectSources)>[^<]*?" + _HTTP + r")|"
        r"(?P<at2>\b(?:index|registry)\s*=\s*['\"](?:sparse\+|registry\+)?" + _HTTP + r")|"
        r"(?P<at3>\bresolvers\b[^\n]*\bat\s+['\"]" + _HTTP + r")|(?P<at4>\.package\s*\(\s*(?:name:\s*['\"][^'\"]*['\"]\s*,\s*)?url:\s*['\"]" + _HTTP + r")|"
        r"(?P<at5>^\s*(?:extra-)?(?:trusted-)?substituters\s*=[^\n]*\s" + _HTTP + r")|(?P<at6>^\s*(?:git|github|binary)\s+['\"]" + _HTTP + r")|"
        r"(?P<at7>^\s*channel_alias\s*:\s*['\"]?" + _HTTP + r")")),
    ("fetches code over plain HTTP", ("http://", "http\\://"), re.compile(
        # Nix's fetchers (round 71, blind 99's go-humanize shell.nix: ``import (fetchTarball "http://nixos.org/…")``):
        # what is built and run comes from whoever answers on the way.
        r"(?P<at>\b(?:builtins\.)?fetch(?:Tarball|url|zip|Git|git|FromGitHub)\s*(?:\{[^}\n]*?\burl\s*=\s*)?['\"]" + _HTTP + r")")),
    ("imports code over plain HTTP", ("http://", "http\\://"), re.compile(
        # Deno's and the browser's ES modules, fetched and run from wherever the path leads.
        r"(?P<at>(?:^\s*import\b[^'\"\n]*?\bfrom\s*|^\s*import\s*|\bimport\s*\(\s*|^\s*export\b[^'\"\n]*?\bfrom\s*)['\"]" + _HTTP + r")")),
)

# ----- calls, appended to relay.review.risky_lines' dangerous calls
CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("runs text as code (eval of interpolated text)", ("eval",), re.compile(
        # A shell's (or Ruby's, Perl's) eval of a string holding a variable: a value with $(…) or ; in it runs. Not the
        # idioms that eval a tool's own output (eval "$(rbenv init -)") or getopt's (eval set -- "$opts").
        r"(?:^\s*|[;&|{(]\s*|\b(?:then|do|else)\s+)(?P<at>eval)\s+(?!(?:--\s+)?set\b)(?!['\"]?\$\()(?!`)"
        r"[^#\n]*?(?:\$\{?[A-Za-z_@*]|#\{)")),
    ("installs a package from a git branch (unpinned)", ("git+", "github:", "--git"), re.compile(
        # Whatever the branch holds when the job runs is what gets installed: a commit pins it.
        r"(?P<at>\b(?:pip3?|pipx|uv\s+pip|poetry)\s+(?:install|add)\b[^#\n|;&]*?\bgit\+(?:https?|ssh)://[^\s'\"@]+/[^\s'\"@]+?(?:\.git)?)"
        r"(?:@(?:main|master|HEAD|develop|dev|trunk)\b|(?=['\"\s#]|$))|"
        r"(?P<at2>\b(?:npm|yarn|pnpm)\s+(?:install|add|i)\b[^#\n|;&]*?\s(?:github:|git\+(?:https?|ssh)://)[^\s'\"#]+)(?=['\"\s]|$)|"
        r"(?P<at3>\bcargo\s+install\b(?![^#\n]*--(?:rev|tag)\b)[^#\n|;&]*?--git\s+\S+)")),
)

# ----- skip markers the older list lacked (relay.review.file_kinds.SKIP_RE reads them too)
SKIP_SHAPES = (
    r"^\s*@(?:module|describe)?tag\s+(?::skip\b|skip:\s*(?:true|['\"]))|"  # ExUnit
    r"^\s*(?:skip|pending)(?:\s+['\"]|\s*$)|"  # RSpec, minitest, bats
    # test-unit's omit and pend, unittest's SkipTest raised (round 98: blind 167's sigstore-ruby, 164's beaker).
    r"^\s*(?:omit|pend)(?:_if|_unless)?(?:\s+['\"]|\s*\(\s*['\"]|\s*$)|^\s*raise\s+(?:unittest\.)?SkipTest\b|"
    # The same as a one-line block's first statement: ``it { skip 'later'; assert … }``, ``it "x" do skip("y") end``.
    r"^\s*(?:it|test|specify|scenario|example)\b[^\n]*?(?:\{|\bdo\b)\s*(?:skip|pending)\b\s*\(?\s*(?:['\"]|[;})]|$)|"
    r"^\s*(?:it|test|specify|scenario|example|describe|context)\b[^\n]*,\s*:?skip(?::|\s*=>)\s*(?:true|['\"])|"  # RSpec's and Dart's metadata
    r"\[(?:[^\]]*,\s*)?Ignore\s*\(|\[(?:Fact|Theory)\b[^\]]*\bSkip\s*=|#\[ignore\s*=|"  # NUnit, xUnit, Rust
    # (XCTSkipIf and Mocha's this.skip() are a test's own condition, an environment it cannot run in: not read.)
    r"\bXCTSkip\s*\(|@Test\s*\([^)]*\benabled\s*=\s*false|\bmarkTestIncomplete\s*\(|"
    # node:test's options (``t.test('x', {skip: true}, …)``, round 53: blind 76's hast-util-sanitize), brittle's and tap's alike.
    r"\b(?:it|test|describe|suite|t\.test)\s*\(\s*(?P<sq>['\"`])(?:(?!(?P=sq)).)*(?P=sq)\s*,\s*\{[^}]*\bskip\s*:(?!\s*(?:false|0)\b)"
)
SKIP_WORDS = ("skip", "pending", "ignore", "enabled", "incomplete", "omit", "pend")
# A test about a check: its skip turns a guard's own proof off.
# (Read case-blind: a lower-case letter beside a word is looked for case-aware, so SignerTest and joken_signer_test say "signer".)
_NOT_AFTER, _NOT_BEFORE = r"(?-i:(?<![a-z]))", r"(?-i:(?![a-z]))"
SECURITY_TEST_WORDS = (r"|" + _NOT_AFTER + r"sign(?:er|ing|ed|s)?" + _NOT_BEFORE + r"|jw[tsk]|" + _NOT_AFTER + r"mac" + _NOT_BEFORE + r"|digest|"
                       r"nonce|expir|" + _NOT_AFTER + r"scope|" + _NOT_AFTER + r"role|"
                       r"rate.?limit|throttl|sandbox|untrusted|malicious|replay|tamper|forge|spoof")
# A skip marker put on a case that stood before without it (round 109, blind 214: hawk's ``it('errors on a replay'`` made
# ``it.skip(…)`` in a commit that adds cases of its own): a case turned off, not a new one left for later.
_MARKER_RE = re.compile(r"\.(?:skip|only)(?=\s*\()|\bx(?=(?:it|test|describe|context)\s*\()")


def marked_old_case(line: str, removed: Sequence[str]) -> bool:
    bare = squeezed(_MARKER_RE.sub("", line.strip()))
    return bare != squeezed(line.strip()) and any(squeezed(old.strip()) == bare for old in removed)

# ----- read against the file and the lines around
_NUGET_FEED_RE = re.compile(r"(?P<at><add\s+key\s*=\s*['\"][^'\"]*['\"]\s+value\s*=\s*['\"]" + _HTTP + r")", re.I)
_TOML_SOURCE_RE = re.compile(r"(?P<at>^\s*(?:url|index-url|extra-index-url|index_url|extra_index_url)\s*=\s*['\"]" + _HTTP + r")")
_COMPOSER_REPO_RE = re.compile(r"(?P<at>^\s*\"url\"\s*:\s*\"" + _HTTP + r")")


def _package_source(name: str, added: Sequence[str]) -> str | None:
    """A package feed over plain http written in a file that lists feeds (the line alone could be any setting)."""
    if name == "nuget.config":
        pattern = _NUGET_FEED_RE
    elif name in ("pipfile", "pyproject.toml", "uv.toml", "poetry.toml"):
        pattern = _TOML_SOURCE_RE
    elif name == "composer.json":
        pattern = _COMPOSER_REPO_RE
    else:
        return None
    for line in added:
        m = pattern.search(line)
        if m:
            return f"fetches packages from an untrusted index: {window(line.strip(), m.start('at'), m.end('at'), _QUOTE)}"
    return None


# ----- a secret compared with == where a constant-time compare exists
_CT_NAMES = (r"secure_compare|compare_digest|constant_time_compare|constant_time_eq|timingSafeEqual|ConstantTimeCompare|hash_equals|"
             r"FixedTimeEquals|fixed_time_eq|verify_slices_are_equal|safe_str_cmp|ct_eq|hmac\.Equal|MessageDigest\.isEqual|"
             r"CryptographicOperations\.FixedTimeEquals")
_CT_CALL_RE = re.compile(r"\b(?P<name>" + _CT_NAMES + r")\b\s*(?P<open>\()?(?=\s*[^\s=(])")
_SECRET_NAME = r"(?:sig|sigs|signature|signatures|hmac|mac|password|passwd|secret|api_?key|csrf(?:_?token)?|otp|token_?(?:hash|digest))"
# One side of a comparison: a name, a call, an index or a field chain.
# (Each repeat starts with a character the name cannot hold: no two ways to split a side, no backtracking blow-up.)
_SIDE = r"[\w$@:]+(?:\.[\w$@:]+|\([^()]*\)|\[[^\[\]]*\])*"
_EQ_RE = re.compile(r"(?<![\w$@:.)\]])(?P<a>" + _SIDE + r")\s*(?P<op>===?|!==?)\s*(?P<b>" + _SIDE + r")")
_EQUALS_CALL_RE = re.compile(r"(?<![\w$@:.)\]])(?P<a>[\w$@:]+(?:\.[\w$@:]+|\([^()]*\)|\[[^\[\]]*\])*?)\.(?:equals|Equals|contentEquals|SequenceEqual)\s*\(\s*(?P<b>[^()]*(?:\([^()]*\))?[^()]*)\)|"
                             r"\b(?:bytes\.Equal|Arrays\.equals|reflect\.DeepEqual|String\.Equals)\s*\(\s*(?P<c>[^,()]+(?:\([^()]*\))?)\s*,\s*(?P<d>[^()]+(?:\([^()]*\))?)\)")
# A secret's name in lower case (expected_sig, sigBytes) or as a camel-case word (computedSignature); not an enum's or a
# constant's upper-case word (AppErrorCode.RECIPIENT_ALREADY_SIGNED).
_SECRET_SIDE_RE = re.compile(r"(?<![A-Za-z0-9])" + _SECRET_NAME + r"(?![a-z0-9])|(?:^|[.\s])sign\s*\(|[a-z0-9](?:Sig|Signature|Hmac|HMAC|Mac|MAC|Password|Secret|ApiKey|Otp)(?![a-z])")
# The other side is a value no attacker times: a literal, nothing, a length, a type, a constant's or an enum's name.
_PLAIN_SIDE_RE = re.compile(
    r"^(?:['\"`].*|\d[\w.]*|nil|null|None|undefined|true|false|True|False|NULL|[A-Z][A-Z0-9_]*|:\w+|\.\w+|[A-Z]\w*(?:(?:\.|::)[A-Z]\w*)+)$|"
    r"(?i:\.(?:length|size|count|len|type|kind|alg|algorithm|name|format|scheme|method|version|id)\b\(?\)?$|^len\(|^typeof\b|address|addr\b|"
    r"confirm|repeat|again|retype)")
_FIELD_RE = re.compile(r"\.(\w+)$")


def _plain(side: str) -> bool:
    return bool(_PLAIN_SIDE_RE.search(side.strip()))


def _args(line: str, m: re.Match[str]) -> list[str]:
    """The top-level arguments of the call ``m`` found on ``line``: up to its closing parenthesis, or to the end of the
    line (or a ``do``/``then``) for a call written without one (Ruby's ``secure_compare a, b``)."""
    out, depth, cur = [], 0, ""
    for ch in line[m.end():]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                break
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(re.sub(r"\s+(?:do|then)\s*$|\s*#.*$", "", cur) if m.group("open") is None else cur)
    return [a.strip() for a in out if a.strip()]


# A conversion around a value (Go's []byte(sig), Node's Buffer.from(sig), Python's sig.encode()) names the same bytes.
_CONVERSION_RE = re.compile(r"^(?:string|\[\]byte|bytes|str|String|Buffer\.from|hex|to_string|String\.valueOf)\((?P<inner>[^(),]+)\)$")


def _bare(text: str) -> str:
    text = re.sub(r"^[&*]+|\.(?:as_slice|as_bytes|as_ref|to_vec|bytes|encode|to_s|toString)\(\)$|^\$", "", "".join(text.split()))
    m = _CONVERSION_RE.match(text)
    return m.group("inner") if m else text


def _comparisons(line: str) -> list[tuple[str, str, int, int]]:
    """The sides of each equality comparison on a line, and where it stands."""
    out = [(m.group("a"), m.group("b"), m.start(), m.end()) for m in _EQ_RE.finditer(line)] if "==" in line or "!=" in line else []
    for m in _EQUALS_CALL_RE.finditer(line) if "qual" in line else ():
        a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("c"), m.group("d"))
        out.append((a, b, m.start(), m.end()))
    return out


# A two-argument call on a removed line (relay.review.guard_reading reads one whose arguments are now compared with ==).
_CALL2_RE = re.compile(r"\b\w+\s*\(\s*([^,()]+(?:\([^()]*\))?[^,()]*?)\s*,\s*([^,()]+(?:\([^()]*\))?[^,()]*?)\s*\)")


def _named_there(a: str, b: str, comparison: str, named: set[frozenset[str]]) -> bool:
    """Whether guard_reading names this comparison already: it reads a pair now compared with ``==``/``!=`` only, so an
    equality call (C#'s ``SequenceEqual``, Go's ``bytes.Equal``) that replaces a constant-time one is said here (round 17)."""
    return frozenset((squeezed(a), squeezed(b))) in named and re.search(r"[=!]=", comparison) is not None


_KEYED_RE = re.compile(r"\[\s*['\"](\w+)['\"]\s*\]$")


def _secret_side(side: str) -> bool:
    """A side named for a secret; one read from a map by a quoted key is named by its key (round 59, blind 84's pyotp:
    ``otp_data['issuer'] != value`` compares an issuer's name, not a one-time password)."""
    keyed = _KEYED_RE.search(side)
    return bool(_SECRET_SIDE_RE.search(keyed.group(1) if keyed else side))


def _compared_with_eq(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # The pairs guard_reading already names as a comparison replaced: its reason stands, this one would repeat it.
    named = {frozenset((squeezed(m.group(1)).lstrip("&*"), squeezed(m.group(2)).lstrip("&*")))
             for line in removed if "(" in line for m in _CALL2_RE.finditer(line)}
    before = {squeezed(line.strip()) for line in removed}
    after = {squeezed(line.strip()) for line in added}
    new = [line for line in added if line.strip() and squeezed(line.strip()) not in before]
    # A constant-time call the change removes, its arguments now compared with == (Ruby's paren-less call too).
    for line in removed:
        if squeezed(line.strip()) in after:
            continue
        for m in _CT_CALL_RE.finditer(line):
            args = _args(line, m)
            if len(args) != 2:
                continue
            pair = {_bare(args[0]), _bare(args[1])}
            for written in new:
                if m.group("name") in written:
                    continue  # the constant-time call still stands on the line
                for a, b, start, end in _comparisons(written):
                    if {_bare(a), _bare(b)} == pair and not _named_there(a, b, written[start:end], named):
                        was = m.group("name") + ("(…)" if m.group("open") else " …")
                        return f"replaces a constant-time comparison with ==: {was} → {window(written.strip(), start, end, 50)}"
    for written in new:
        # A constant-time check of a value with itself: always equal.
        for m in _CT_CALL_RE.finditer(written):
            args = _args(written, m)
            if len(args) == 2 and _bare(args[0]) == _bare(args[1]):
                return f"compares a value with itself (always equal): {window(written.strip(), m.start(), m.end(), _QUOTE)}"
        # A signature, MAC or password compared with == against a computed value.
        if _CT_CALL_RE.search(written):
            continue
        for a, b, start, end in _comparisons(written):
            if _plain(a) or _plain(b) or _bare(a) == _bare(b) or _named_there(a, b, written[start:end], named):
                continue
            fa, fb = _FIELD_RE.search(a), _FIELD_RE.search(b)
            if fa and fb and fa.group(1) == fb.group(1):
                continue  # one object's field against another's: an equality method, not a check
            if _secret_side(a) or _secret_side(b):
                return f"compares a secret with == (not constant-time): {window(written.strip(), start, end, _QUOTE)}"
    return None


# ----- a program run by its bare name where it was looked up on PATH or named by its absolute path
_LOOKUP_RE = re.compile(
    r"\b(?:which::which|shutil\.which|exec\.LookPath|which\.sync|which)\s*\(\s*['\"](?P<prog>[\w.+-]+)['\"]|"
    r"\$\(\s*(?:which|command\s+-v|type\s+-P)\s+['\"]?(?P<prog3>[\w.+-]+)|\bGet-Command\s+['\"]?(?P<prog4>[\w.+-]+)|"
    r"['\"]/(?:usr/|opt/)?(?:local/)?s?bin/(?P<prog2>[\w.+-]+)['\"]")


def _prog(m: re.Match[str]) -> str:
    return m.group("prog") or m.group("prog2") or m.group("prog3") or m.group("prog4")


def _bare_program(added: Sequence[str], removed: Sequence[str]) -> str | None:
    progs = {_prog(m) for line in removed for m in _LOOKUP_RE.finditer(line)}
    if not progs:
        return None
    kept = " ".join(added)
    for prog in progs:
        if any(_prog(m) == prog for m in _LOOKUP_RE.finditer(kept)):
            continue  # still looked up (a line moved or re-wrapped)
        bare = re.compile(r"['\"](?:\./|\.\\\\)?" + re.escape(prog) + r"['\"]|(?<![\w/.-])\./" + re.escape(prog) + r"(?![\w.-])")
        for line in added:
            m = bare.search(line)
            if m and not _LOOKUP_RE.search(line):
                return f"runs a program found by bare name (was its resolved path): {window(line.strip(), m.start(), m.end(), 55)}"
    return None


# ----- a download command continued onto the next line, its URL over plain http
# ``RUN curl -o /tmp/x.tar.xz -sL \`` then ``"http://…/x.tar.xz" \`` (round 88: Intervention/image's Dockerfile, development
# set 55): the line-by-line reading saw a command without a URL and a URL without a command.
_CONTINUED_FETCH_RE = re.compile(r"\b(?:wget|curl|Invoke-WebRequest|iwr|aria2c)\b[^|;&#]*\\\s*$")
_URL_LINE_RE = re.compile(r"^\s*(?:-[\w-]+\s+)*['\"]?(?P<at>" + _HTTP + r"[^\s'\"]+)")


def _continued_download(added: Sequence[str]) -> str | None:
    for line, after in zip(added, added[1:]):
        if _CONTINUED_FETCH_RE.search(line) and _URL_LINE_RE.match(after):
            return f"downloads over plain HTTP (the command's URL on its next line): {window(after.strip(), 0, 0, _QUOTE)}"
    return None


# ----- a production environment's debug switch
# Rails' ``config.consider_all_requests_local = true`` is every development.rb's default and a production.rb's leak: full
# error reports (backtraces, queries, settings) to every visitor. Only the file's name tells which (round 88: recaptcha's
# demo app, development set 37).
_LOCAL_REQUESTS_RE = re.compile(r"^\s*(?:config|Rails\.application\.config)\.consider_all_requests_local\s*=\s*true\b")


def _production_debug(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not path.lower().endswith(("environments/production.rb", "environments/staging.rb")) or any("consider_all_requests_local" in line for line in removed):
        return None  # a value flipped in place is said by the setting's reader (relay.review.line_edits: "flips a setting")
    line = next((line for line in added if _LOCAL_REQUESTS_RE.match(line)), None)
    return None if line is None else f"turns debug error pages on in production (every visitor sees backtraces): {window(line.strip(), 0, 0, _QUOTE)}"


def paired(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What a line shows only against its file or the change around it, as "what it does: the line"; None when nothing."""
    name = path.rsplit("/", 1)[-1].lower()
    return (_package_source(name, added) or _compared_with_eq(added, removed) or _bare_program(added, removed) or _continued_download(added)
            or _production_debug(path, added, removed))
