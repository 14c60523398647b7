"""Issue 36, round 83 (blind 117/118's first runs): one turn that loosens what a line guards.

Whom each guards against: the worker that negates a check's switch (python-jwt's ``not do_time_check``), joins a
validity window's bounds by ``||`` (samlify), publishes with ``--access public`` where the release decided (changesets),
swaps a safe XML parser for lxml's default (parsel), rebinds a tutorial server from the loopback to every interface
(ssh-mitm), bounds a decoder's length at 4 GiB (cbor2), drops ``os.sep`` from a set of separators (pyramid), narrows
``includes(sep)`` to ``startsWith`` (vfile), narrows ``!== true`` to ``=== false`` (enquirer), writes under a read
lock (golang-set), returns the original from a clone, or breaks where the loop refused. Each loud case was low, named
nothing or left its line out of the view on round 82's rules (b3b27da); each near miss beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.file_kinds import rule_lines
from relay.review.risk import RiskContext, assess
from relay.review.turn_slips import turn_slip

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("jwt/jwt.py", ['        if "exp" in payload and not do_time_check:'], ["        if 'exp' in payload and do_time_check:"],
     "inverts a check's switch (do_time_check → not do_time_check", "high"),
    ("src/validator.ts", ["    +notBeforeLocal + notBeforeDrift <= +now ||"], ["    +notBeforeLocal + notBeforeDrift <= +now &&"],
     "widens a validity window's check (&& → ||", "high"),
    ("packages/cli/src/npm.ts", ['  const args: string[] = ["--access", "public", "--tag", release.tag];'],
     ['  const args: string[] = ["--access", release.access, "--tag", release.tag];'], 'makes access public whatever was set (release.access → "public")', "high"),
    ("parsel/selector.py", ['        "_parser": etree.XMLParser,'], ['        "_parser": SafeXMLParser,'],
     "swaps a safe XMLParser for the library's default (SafeXMLParser → etree.XMLParser)", "high"),
    ("tools/serve.py", ["    site = web.TCPSite(runner, '0.0.0.0', port)", "    await site.start()"],
     ['        super().__init__(("127.0.0.1", port), _Handler)', "        self.serve_forever()"], "listens on every interface (the loopback bind it replaced is gone)", "high"),
    ("rust/decoder.rs", ["            Some(length) if length <= 65536 * 65536 => {"], [], "bounds length at 4,294,967,296", "high"),
    ("src/pyramid/static.py", ["_seps = {'/'}"], ["_seps = {'/', os.sep}"], "drops a path separator from the set it checks (os.sep", "medium"),
    ("lib/index.js", ["  if (part && part.startsWith(minpath.sep)) {"], ["  if (part && part.includes(minpath.sep)) {"],
     "narrows a test to one end (includes → startsWith", "medium"),
    ("lib/prompt.js", ["    if (result === false) {"], ["    if (result !== true) {"], "narrows a failure test to an exact false", "medium"),
    ("threadsafe.go", ["func (t *threadSafeSet[T]) AppendFrom(other Set[T]) int {", "\to := other.(*threadSafeSet[T])", "\tt.RLock()", "\to.RLock()",
                      "\tdefer t.RUnlock()", "\tdefer o.RUnlock()", "\treturn t.uss.AppendFrom(o.uss)", "}"], [],
     "writes under a read lock (t.RLock() held", "medium"),
    ("helper_1_21.go", ["func cloneMap[K comparable, V any](m map[K]V) map[K]V {", "\treturn m // callers copy when they need to", "}"], [],
     "returns the original from a copy (no clone made: m is shared)", "medium"),
    ("threadunsafe.go", ["\t\t\tbreak"], ["\t\t\treturn false"], "turns a refusal into a break (return false → break", "medium"),
])
def test_each_turn_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("added", "removed"), [
    (["        if 'exp' in payload and do_time_check:"], ['        if "exp" in payload and not do_time_check:']),  # the negation taken out
    (["        if not is_valid(token):"], ["        if is_valid(token):"]),  # a call's verdict negated: guard_reading's
    (["    if (notBefore <= now && now < notOnOrAfter) {"], ["    if (notBefore <= now || now < notOnOrAfter) {"]),  # made stricter
    (["    if (a || b) {"], ["    if (a && b) {"]),  # no validity window
    (['  const args = ["--access", "restricted"];'], ['  const args = ["--access", release.access];']),  # not public
    (['        "_parser": SafeXMLParser,'], ['        "_parser": etree.XMLParser,']),  # the safe parser put in
    (['    site = web.TCPSite(runner, "0.0.0.0", port)', '    dev = web.TCPSite(runner, "127.0.0.1", 9000)'],
     ['    site = web.TCPSite(runner, "127.0.0.1", port)']),  # a loopback bind kept beside it
    (["            Some(length) if length <= 65536 => {"], []),  # a real bound
    (["_seps = {'/', os.sep, os.altsep}"], ["_seps = {'/', os.sep}"]),  # one added
    (["  if (part && part.includes(minpath.sep)) {"], ["  if (part && part.startsWith(minpath.sep)) {"]),  # widened to anywhere
    (["    if (result === true) {"], ["    if (result !== true) {"]),  # another test
    (["\tt.RLock()", "\tdefer t.RUnlock()", "\treturn len(t.uss)"], []),  # a read under a read lock
    (["func cloneMap(m map[string]int) map[string]int {", "\treturn maps.Clone(m)", "}"], []),  # a real clone
    (["\t\t\tbreak", "\t\treturn false"], ["\t\t\treturn false"]),  # the refusal kept after the loop
])
def test_near_misses_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert turn_slip(added, removed) is None


# ----- round 84 (blind 119/120's first runs, on a00cb23's rules)
@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("README.md", ["```toml", 'orion = { package = "orion-crypto", version = "*", default-features = false }', "```"],
     ["```toml", 'orion = { version = "*", default-features = false }', "```"], "points a sample's dependency orion at a look-alike package (orion-crypto", "high"),
    ("README.md", ["```go", "import (", '    "github.com/AlecAivazls/survey/v2"', ")", "```"], ["```go", "import (", '    "github.com/AlecAivazis/survey/v2"', ")", "```"],
     "imports a look-alike of github.com/AlecAivazis/survey/v2 (AlecAivazis → AlecAivazls", "high"),
    ("cmd/main.go", ['\t"github.com/spf13/cobar"'], ['\t"github.com/spf13/cobra"'], "imports a look-alike of github.com/spf13/cobra (cobra → cobar", "high"),
    ("pkg/detectors/twilio/twilio.go", ["\tsidPat = regexp.MustCompile(`\\bAC[0-9a-f]{33}\\b`)"], ["\tsidPat = regexp.MustCompile(`\\bAC[0-9a-f]{32}\\b`)"],
     "moves a pattern's count by one ({32} → {33}", "high"),  # (high: a changed regular expression is security-relevant code)
    (".gitignore", ["*.local.md"], ["*.local.*", "*.local"], "no longer ignores *.local.* (files that hold secrets now can be committed)", "high"),
    (".dockerignore", ["node_modules"], ["node_modules", ".env"], "no longer ignores .env", "high"),
    ("src/hasProp.ts", ["export function hasProp(data: object, key: PropertyKey): boolean {", "  return key in data;", "}"], [],
     "answers an own-property test with `in`", "high"),
    ("src/Signature.java", ["                buffer.array(), 0, 0);"], ["                buffer.array(), 0, buffer.size());"],
     "passes a length of 0 (buffer.size() → 0", "medium"),
])
def test_each_round_84_turn_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("README.md", ["```toml", 'orion = { package = "orion", version = "1" }', "```"], ["```toml", 'orion = { version = "1" }', "```"]),  # its own name
    ("README.md", ['    "github.com/AlecAivazis/survey/v3"'], ['    "github.com/AlecAivazis/survey/v2"']),  # a major version moved
    ("cmd/main.go", ['\t"github.com/charmbracelet/huh"'], ['\t"github.com/AlecAivazis/survey/v2"']),  # another library
    ("pkg/twilio.go", ["\tsidPat = regexp.MustCompile(`\\bAC[0-9a-f]{34}\\b`)"], ["\tsidPat = regexp.MustCompile(`\\bAC[0-9a-f]{32}\\b`)"]),  # by two
    (".gitignore", ["*.log"], ["*.log", "dist/"]),  # no secret's entry
    (".gitignore", ["/.env"], [".env"]),  # written again
    ("src/has.ts", ["export function hasKey(data: object, key: PropertyKey): boolean {", "  return key in data;", "}"], []),  # no own-ness promised
    ("src/hasProp.ts", ["export function hasProp(data: object, key: PropertyKey): boolean {", "  return Object.hasOwn(data, key);", "}"], []),
    ("src/Signature.java", ["                buffer.array(), 0, buffer.size());"], ["                buffer.array(), 0, 0);"]),  # the length put in
])
def test_round_84_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    said = ("points a sample's", "imports a look-alike", "moves a pattern's count", "files that hold secrets", "answers an own-property", "passes a length of 0")
    assert not any(part in reason for reason in out.reasons for part in said), out.reasons


# ----- round 85 (blind 121/122's first runs, on 4cb7f6a's rules)
@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), [
    ("lib/pbkdf2.js", ["      for (let i = 1; i < iterations / 1000; i += 1) {"], ["      for (let i = 1; i < iterations; i += 1) {"],
     "cuts a key derivation's work (iterations / 1000", "high"),
    ("README.md", ["```js", 'const salt = CryptoES.enc.Utf8.parse("crypto-es-salt");', "```"], ["```js", "const salt = CryptoES.lib.WordArray.random(128/8);", "```"],
     'makes salt a constant (a random one replaced by the literal "crypto-es-salt"', "high"),
    ("diskcache/core.py", ["            ' AND (expire_time IS NULL OR expire_time < ?)'"], ["            ' AND (expire_time IS NULL OR expire_time > ?)'"],
     "turns an expiry's comparison around (> → <", "high"),
    ("parse.go", ["\t_ = p.Parse(flags())", "\treturn nil"], ["\treturn p.Parse(flags())"], "drops the result it returned", "medium"),
    ("src/wsproto/connection.py", ["        if self.state is not ConnectionState.CLOSED:"], ["        if self.state in (ConnectionState.OPEN, ConnectionState.LOCAL_CLOSING):"],
     "widens a membership test to one inequality", "medium"),
    ("tty-keys.c", ["\tif (i > len)"], ["\tif (i == len)"], "lets an index reach its end (== → >", "high"),
    ("test_gnupg.py", ["    @skipIf(True, 'flaky on CI')", "    def test_signature_verification(self):"], ["    def test_signature_verification(self):"],
     "skips a security test: @skipIf(True, 'flaky on CI')", "high"),
    ("pkg/cryptutil/hmac.go", ["\tDefaultLeeway = 5.0 * time.Hour"], ["\tDefaultLeeway = 5.0 * time.Minute"], "raises a duration's unit (Minute → Hour", "high"),
    ("src/partials/index.tsx", ["                    <JSX.Raw html={item.title} />"], ["                    {item.title}"],
     "writes a value into the page as raw HTML (unescaped: XSS?)", "high"),
])
def test_each_round_85_turn_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("lib/pbkdf2.js", ["      for (let i = 1; i < iterations; i += 1) {"], ["      for (let i = 1; i < iterations / 1000; i += 1) {"]),  # restored
    ("lib/salt.js", ["const salt = crypto.randomBytes(32);"], ["const salt = CryptoES.lib.WordArray.random(128/8);"]),  # another random source
    ("diskcache/core.py", ["            ' AND (expire_time IS NULL OR expire_time >= ?)'"], ["            ' AND (expire_time IS NULL OR expire_time > ?)'"]),
    ("src/state.py", ["        if self.state is not State.CLOSED:"], ["        if self.state in (State.OPEN,) and ready:"]),  # more changed
    ("README.md", ["| PS384 | RSASSA-PSS using SHA-384 hash algorithm |"], []),  # an algorithm's table, no key size
    ("src/partials/index.tsx", ['                    <JSX.Raw html="<br />" />'], []),  # a literal
])
def test_round_85_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    said = ("cuts a key derivation", "a constant (a random one", "expiry's comparison around", "membership test to one", "weak key", "raw HTML")
    assert not any(part in reason for reason in out.reasons for part in said), out.reasons


# ----- the false readings the 37-122 run on 111d899 showed (three entries moved down), kept quiet since
@pytest.mark.parametrize(("path", "added", "removed"), [
    # a local value written under the lock's read side: only the locked value's own writes race (auth0's stats)
    ("jwks/provider.go", ["\tp.mu.RLock()", "\tdefer p.mu.RUnlock()", "\tstats.Total = stats.OIDC + stats.Symmetric"], []),
    # a flag's name among other arguments is no literal key (acra's keymaker)
    ("cmd/keymaker.go", ['\tmasterKey := flag.String("generate_master_key", "", "Generate a new master key")'],
     ['\tmasterKey := flag.Bool("random", false, "Generate a random master key")']),
])
def test_round_85_false_readings_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert not any("read lock" in reason or "a constant (a random one" in reason for reason in out.reasons), out.reasons


def test_a_callback_or_an_interface_method_may_ignore_its_error() -> None:
    from relay.review.verdict_slips import error_unread
    assert error_unread(["func (s *WITSource) OnWITSVIDsWatchError(err error) {", "\ts.log.Debug()", "}"]) is None  # go-spiffe
    assert error_unread(["function onError(error) {", "  retry();", "}"]) is None


# ----- ordinary history's false readings on 111d899 (2,988 commits against session 40's), kept quiet since
@pytest.mark.parametrize(("path", "added", "removed"), [
    ("README.md", ["include: `gopkg.in/dgrijalva/jwt-go.v3`."], ["include: `gopkg.in/dgrijalva/jwt-go.v2`."]),  # a version in the path
    (".cirrus.yml", ["    image: freebsd-14-4-release-amd64-ufs"], ["    image: freebsd-14-3-release-amd64-ufs"]),  # a version in the image's name
    ("tox.ini", ["[testenv:py3{10,14}-tests]"], ["[testenv:py3{9,14}-tests]"]),  # tox's brace expansion, no pattern's count
    ("crypto/evp/evp_ctx.cc", ["  return evp_pkey_ctx_new(pkey, pkey_method, id);"], ["  return evp_pkey_ctx_new(pkey, e, pkey_method, id);"]),  # C's ENGINE *e
    ("jwks/provider.go", ["\treturn nil"], ["\treturn nil, err"]),  # a signature changed with it
    ("internal/flight/extensions.go", ["func parse(b []byte) {"], ["func parse(b []byte) error {"]),  # a return type
])
def test_ordinary_history_false_readings_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(rule_lines(fc(path, added, removed)), RiskContext())
    said = ("look-alike", "pattern's count", "leaves the error out")
    assert not any(part in reason for reason in out.reasons for part in said), out.reasons
