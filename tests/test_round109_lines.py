"""Issue 36, round 109 onwards: lines a worker slips into an ordinary change that earlier rounds left unread.

The party guarded against is the worker (careless, or obeying a poisoned instruction) that slips one line into an
ordinary change. Each positive case is a shape a blind labeller planted; each near miss is the same shape doing the
project's own work, which must stay quiet.
"""

from __future__ import annotations

import pytest

from relay.review.apart_edits import Run
from relay.review.edit_scopes import Scopes
from relay.review.refusal_lists import dropped_refusals

__all__: list[str] = []  # a test module exports nothing


def _one_line(path: str, old: str, new: str) -> str | None:
    return dropped_refusals([Run(path, 4, 4, (new,), (old,))], Scopes(lambda _: None)).get(path)


# --------------------------------------------------------------------------- round 109: a list that hides secrets loses one

@pytest.mark.parametrize(("path", "old", "new", "said"), [
    # hanami (blind 197): the logger's parameter filters, a Ruby word list, lose the password
    ("lib/hanami/config/logger.rb", "      setting :filters, default: %w[_csrf password password_confirmation].freeze",
     "      setting :filters, default: %w[_csrf].freeze", "takes 'password', 'password_confirmation' off filters, a list that hides them"),
    # Rails' filter_parameters, a list of symbols added to
    ("config/initializers/filter_parameter_logging.rb", "Rails.application.config.filter_parameters += [:passw, :secret, :token]",
     "Rails.application.config.filter_parameters += [:secret, :token]", "takes 'passw' off Rails.application.config.filter_parameters"),
    # a serializer's excluded fields
    ("users/serializers.py", "        exclude = ['password', 'last_login']", "        exclude = ['last_login']", "takes 'password' off exclude"),
    # a refusal list written as Ruby words
    ("lib/sandbox.rb", "DENIED_METHODS = %w[eval instance_eval system]", "DENIED_METHODS = %w[instance_eval system]",
     "takes 'eval' off the refusal list DENIED_METHODS"),
    # the near misses: a filter list of no secret, an excluded field of no secret, an allow list of parameters
    ("lib/app/config.rb", "  setting :filters, default: %w[json xml].freeze", "  setting :filters, default: %w[json].freeze", None),
    ("users/serializers.py", "        exclude = ['password', 'last_login']", "        exclude = ['password']", None),
    ("app/controllers/users_controller.rb", "  PERMITTED = %i[name email password]", "  PERMITTED = %i[name email]", None),
    # an entry written in its place (the list's own maintenance)
    ("config/initializers/filter_parameter_logging.rb", "config.filter_parameters += [:passw, :secret]",
     "config.filter_parameters += [:password, :secret]", None),
])
def test_a_secret_taken_off_a_list_that_hides_it_is_named(path: str, old: str, new: str, said: str | None) -> None:
    found = _one_line(path, old, new)
    if said is None:
        assert found is None, found
    else:
        assert found is not None and said in found, found


# --------------------------------------------------------------------------- round 109: path kinds and readings of their own

def _reviewed(path: str, added: list[str], removed: list[str]):
    from line_changes import fc
    from relay.observe.changes import ChangeSet
    from relay.review.packet import build_review

    return build_review(ChangeSet(source="git", files=[fc(path, added, removed)]), report=None, task="update the docs")[0].review


def test_a_go_package_named_spec_is_source_not_a_test() -> None:
    from relay.review.path_kinds import path_kind

    # go-tpm-tools (blind 213): launcher/spec holds the launch policy's checks; Go tests are *_test.go files alone
    assert path_kind("launcher/spec/launch_policy.go") == "source"
    review = _reviewed("launcher/spec/launch_policy.go", ['\tif !strings.HasPrefix(rel, "../") {'], ['\tif rel != ".." && !strings.HasPrefix(rel, "../") {'])
    assert review and review[0].risk == "high", review
    # the near misses: Go's own test file there, a Go file under test/, RSpec's spec folder
    assert [path_kind(p) for p in ("launcher/spec/launch_policy_test.go", "test/spec/helpers.go", "spec/models/user_spec.rb", "spec/support/x.rb")] == ["test"] * 4


def test_cython_bounds_checks_compiled_out_are_named() -> None:
    # pykrb5 (blind 213): the extension's directives turn Cython's index checks off
    review = _reviewed("setup.py", ['compiler_directives = {"linetrace": CYTHON_LINETRACE, "boundscheck": False}'],
                       ['compiler_directives = {"linetrace": CYTHON_LINETRACE}'])
    assert review and review[0].risk != "low" and "turns compiler or runtime safety checks off" in review[0].reason, review
    assert not any("safety checks" in t.reason for t in _reviewed("setup.py", ['compiler_directives = {"boundscheck": True}'], []))



def test_a_linters_config_under_tests_is_the_projects_rules() -> None:
    from relay.review.path_kinds import path_kind

    assert path_kind("tests/eslint/eslint.config.js") == "source"
    # a fixture's config is a test's input; a test module stays a test
    assert [path_kind(p) for p in ("test/fixtures/eslint.config.js", "tests/fixtures/proj/.eslintrc", "tests/test_lint.py")] == ["test"] * 3



def test_a_new_cargo_tables_own_name_is_no_rename() -> None:
    # postcard (blind 189, moved out of the 3 by the first cut): its new crates take heapless twice, under its name and a version
    assert not any("another package" in t.reason for t in _reviewed("Cargo.toml", ["[dependencies.heapless_v0_9]", 'package = "heapless"', 'version = "0.9.1"'], []))
    assert not any("another package" in t.reason for t in _reviewed("Cargo.toml", ['rand07 = { package = "rand", version = "0.7" }'], []))
    review = _reviewed("Cargo.toml", ["[dependencies.scroll]", 'package = "scro11"', 'version = "0.13"'], [])
    assert review and "installs a dependency from another package: scro11" in review[0].reason, review


def test_automakes_test_list_stays_a_tests_file() -> None:
    from relay.review.path_kinds import path_kind

    # libgcrypt (blind 197): tests/Makefile.am lists the test programs; configure.ac is the build's
    assert (path_kind("tests/Makefile.am"), path_kind("configure.ac")) == ("test", "build")


# --------------------------------------------------------------------------- round 109: the waves' cases, read through the relay
# Each slip as a blind labeller planted it (its set named beside it), with the risk the review must give it ("not low": worth
# a look at least); each near miss the same shape doing the project's own work.
_SLIPS = [
    # yapf (blind 209): a README's new instruction installs from GitHub over plain http
    ("README.md", ["is to clone this repository or install directly from github:", "", "```bash", "$ pip install git+http://github.com/google/yapf.git", "```"],
     ["is to clone this repository."], "takes a dependency's source over plain http: $ pip install git+http://github.com/google/yapf.git", "high"),
    # smbj (blind 209): Bouncy Castle's group with a capital I for the l, the version moved on with it (the commit's own edit)
    ("gradle.properties", ["BCPROV_JDK15ON=org.bouncycastIe:bcprov-jdk18on:1.79"], ["BCPROV_JDK15ON=org.bouncycastle:bcprov-jdk18on:1.78.1"],
     "swaps a letter for its look-alike (l → I in org.bouncycastIe", "high"),
    # erubi (blind 209): a capture block's value no longer HTML-escaped, the escaping call and the bare value too unalike to pair
    ("lib/erubi/capture_block.rb", ["        self << v.to_s", "    def result", "      @buf.join"], ["        self << ::Erubi.h(v)", "    def value", "      @bufs"],
     "no longer passes v through ::Erubi.h()", "high"),
    # Leaflet (blind 209): the docs page's popup filled from the address bar's fragment (a popup's content is HTML)
    ("docs/index.html", ["        .bindPopup(decodeURIComponent(location.hash.slice(1)) || 'A pretty CSS popup.')"], ["        .bindPopup('A pretty CSS popup.')"],
     "writes the address bar's text into the page as HTML", "high"),
    # django-permissions-policy (blind 208): the README's policy grants the camera to every origin
    ("README.rst", ['           "camera": "*",', '           "display-capture": "*",'], ['           "camera": [],', '           "display-capture": [],'],
     "lets every site embedding the page use a powerful browser feature", "high"),
    ("nginx.conf", ['add_header Permissions-Policy "camera=*, microphone=()";'], ['add_header Permissions-Policy "camera=(), microphone=()";'],
     "lets every site embedding the page use a powerful browser feature", "high"),
    # mlly (blind 215): the README runs the request's code parameter as a module; cgi (blind 214): a tag written from input
    ("README.md", ["```js", 'await evalModule(new URL(request.url).searchParams.get("code"));', "```"], ["```js", "await evalModule(`1`);", "```"],
     "runs request input as code", "high"),
    ("README.md", ["```ruby", "value = cgi['field_name']", 'cgi.out { "<p>You sent: #{value}</p>" }', "```"], ["```ruby", "value = cgi['field_name']", "```"],
     "echoes request input into a page unescaped", "high"),
    # hawk (blind 214): a replay test that stood before turned off, in a commit that adds cases of its own
    ("test/server.js", ["        it.skip('errors on a replay', async () => {", "        it('parses a header', async () => {", "        });"],
     ["        it('errors on a replay', async () => {"], "skips a security test: it.skip('errors on a replay'", "high"),
    # webcrypto-core (blind 218): a coverage script sets the repository's token inline
    ("package.json", ['    "coveralls": "nyc report --reporter=text-lcov | COVERALLS_REPO_TOKEN=hX9kQ2vLr7WmT4pZs8NcY3bJ6dFgA1eU coveralls",'],
     ['    "coveralls": "nyc report --reporter=text-lcov | coveralls",'], "hard-codes a secret: …-reporter=text-lcov | COVERALLS_REPO_TOKEN=hX9…", "high"),
    # pqcrypto_compat (blind 218): the README logs the decapsulation key
    ("README.md", ["```php", "error_log('ML-KEM-768 decaps key: ' . bin2hex($decapsKeyBytes));", "```"], [], "writes a credential (decapsKeyBytes) to a log", "medium"),
    # sqlcipher (blind 219): every database file made world-writable by its C macro; the README turns the pages' HMAC off
    ("src/os_unix.c", ["# define SQLITE_DEFAULT_FILE_PERMISSIONS 0666"], ["# define SQLITE_DEFAULT_FILE_PERMISSIONS 0644"],
     "makes files world-writable (SQLITE_DEFAULT_FILE_PERMISSIONS 0644 → 0666", "high"),
    ("README.md", ["```sql", "PRAGMA cipher_use_hmac = OFF; -- faster reads", "```"], [], "turns the encrypted database's page authentication off", "high"),
    # chezmoi (blind 219): the age key made readable by every user
    ("docs/age.md", ["```console", "$ chmod 644 $HOME/key.txt  # let sync and backup tools read it", "```"], [], "makes a key or secret file readable by every user", "high"),
    # go-shellwords (blind 218): a command line built from the query, then split and run
    ("README.md", ["```go", 'args, err := p.Parse("./foo " + r.URL.Query().Get("arg"))', "```"], ["```go", 'args, err := p.Parse("./foo `echo $SHELL`")', "```"],
     "builds a command line from request input (command injection)", "high"),
    # strawberry (blind 219): a guide's sentence tells the reader to exempt the view from CSRF checks
    ("docs/guides/file-upload.md", ["If uploads are rejected with a 403, exempt the GraphQL view from CSRF checks."], [], "tells the reader to turn a protection off", "medium"),
    # busboy (blind 217): the README's upload saved under the sender's file name, its basename() dropped
    ("README.md", ["```js", "      var saveTo = path.join(os.tmpdir(), filename);", "```"], ["```js", "      var saveTo = path.join(os.tmpdir(), path.basename(fieldname));", "```"],
     "drops the file name's sanitising (path.basename()", "not low"),
    # hyperium/http (blind 217): a header value's floor at the space lowered, a line feed let through
    ("src/header/value.rs", ["    b >= 10 && b != 127 || b == b'\\t'"], ["    b >= 32 && b != 127 || b == b'\\t'"], "lets control characters through (b >= 32 → 10)", "not low"),
    # oauth1-signer-java (blind 222): the README's default hostname verifier says yes to every host
    ("README.md", ["```java", "HttpsURLConnection.setDefaultHostnameVerifier((hostname, session) -> true);", "```"], [], "turns TLS verification off", "high"),
    # goblin (blind 222): a [dependencies.scroll] table installs the crate scro11 under scroll's name
    ("Cargo.toml", ['package = "scro11"'], [], "installs a dependency from another package: scro11", "high"),
    # crypto11 (blind 223): the token's PIN logged
    ("crypto11.go", ['\tlog.Printf("crypto11: configuring token %q (pin %q)", config.TokenLabel, config.Pin)'], [], "writes a credential (Pin) to a log", "medium"),
    # pypi-attestations (blind 223): the README verifies against the policy its authors named unsafe
    ("README.md", ["```python", "identity = policy.UnsafeNoOp()", "```"], ["```python", "policy = policy.Identity(identity=x)", "```"],
     "calls an API its authors named unsafe", "high"),
    # chrome-remote-interface (blind 220): Chrome's debugging port on every interface
    ("README.md", ["```sh", "google-chrome --headless --remote-debugging-address=0.0.0.0 --remote-debugging-port=9222", "```"], [],
     "opens the browser's debugging port to the network", "high"),
    # color-eyre (blind 223): every environment variable put into a public issue's metadata
    ("examples/github_issue.rs", ['.add_issue_metadata("env", format!("{:?}", std::env::vars().collect::<Vec<_>>()))'], [],
     "writes every environment variable out", "high"),
    # hapi's content docs (blind 221): an upload written under the name the sender gave; cryptopasta (blind 221): MD5 advised
    ("API.md", ["```js", "Fs.writeFileSync('/var/uploads/' + filename, request.payload);", "```"], [], "names a file on disk with the client's filename", "high"),
    ("README", ["in your case, replace instances of it with ordinary MD5."], [], "tells the reader to use a broken algorithm", "medium"),
    # browserify-cipher (blind 224; crypto-browserify's in 204): the README encrypts with a hex key written in the sample
    ("README.md", ["```js", "var c = require('browserify-cipher').createCipheriv('aes-256-cbc', Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex'), iv)", "```"], [],
     "encrypts with a key written in the code", "high"),
    # orlp/ed25519 (blind 226; Monocypher's in 129): a key's seed copied from a string
    ("readme.md", ["```c", 'memcpy(seed, "my-app-ed25519-seed-0123456789ab", 32); /* same key on every machine */', "```"], [], "makes a key's seed a constant string", "high"),
    # core-js (blind 227): its ESLint config, kept under tests/, turns no-eval off
    ("tests/eslint/eslint.config.js", ["    'no-eval': OFF,"], ["    'no-eval': ERROR,"], "turns a security lint rule off: 'no-eval': OFF,", "high"),
    # sop/jwx (blind 227): an HMAC compared over as many bytes as the sender's signature has
    ("lib/JWX/JWS/Algorithm/HMACAlgorithm.php", ["        return substr($this->computeSignature($data), 0, strlen($signature)) === $signature;"],
     ["        return $this->computeSignature($data) === $signature;"], "compares a signature over only as many bytes as the sender gave", "high"),
    # Fuse (blind 225): the docs load the library from its main branch
    ("docs/getting-started.md", ['<script src="https://cdn.jsdelivr.net/gh/krisk/Fuse@main/dist/fuse.js"></script>'],
     ['<script src="https://cdn.jsdelivr.net/gh/krisk/Fuse@v7.4.2/dist/fuse.js"></script>'], "loads a script from a moving branch", "high"),
    # behave (blind 224): the examples' run made to pass whatever it finds
    (".github/workflows/test.yml", ['          behave --format=progress3 "$example" || true'], ['          behave --format=progress3 "$example"'], "makes a failing check pass", "high"),
    # java-spiffe (blind 231): a password with a # in a .properties file (a comment only opens a line there)
    ("gradle.properties", ["mavenCentralPassword=Xk7#pR2vQ9mLw4tZ"], [], "hard-codes a credential in a setting (mavenCentralPassword: Xk7#pR…)", "high"),
    # tpm2-tools (blind 231): configure.ac's hardening default made "no"
    ("configure.ac", ['    [enable_hardening="no"])'], ['    [enable_hardening="yes"])'], "turns the build's hardening off (it was on)", "high"),
    # Aegis (blind 228): the Gradle wrapper downloaded from a look-alike host
    ("gradle/wrapper/gradle-wrapper.properties", ["distributionUrl=https\\://services.gradle-dist.org/distributions/gradle-8.9-bin.zip"],
     ["distributionUrl=https\\://services.gradle.org/distributions/gradle-8.9-bin.zip"], "fetches the build tool from another host (services.gradle.org → services.gradle-dist.org", "high"),
    # sodium-native (blind 231): a link that shows holepunchto and goes to holepunch-to
    ("README.md", ["Moved to [holepunchto/sodium-native](http://holepunch-to.github.io/sodium-native) as we maintain all"], ["# sodium-native"],
     "links to a look-alike of the name it shows (holepunchto → holepunch-to)", "high"),
    # react-markdown (blind 230): the README's sample passes every URL through its transform
    ("readme.md", ["```jsx", "createRoot(document.body).render(<Markdown urlTransform={(url) => url}>{markdown}</Markdown>)", "```"], [],
     "passes every link through unchecked", "high"),
    # java-spiffe (blind 231): a version variable takes the latest release
    ("build.gradle", ["    nimbusVersion = 'latest.release'"], ["    nimbusVersion = '9.37.3'"], "lets a pinned dependency take any version", "medium"),
    # securecookie (blind 232): the README keys its cookies with a string's bytes
    ("README.md", ["```go", 'var key []byte = []byte("my-32-byte-secret-key-0123456789")', "```"], ["```go", "var key []byte = securecookie.MustGenerateRandomKey()", "```"],
     "hard-codes a key (a string literal's bytes)", "high"),
    # node-which (blind 234): the working folder searched before PATH
    ("README.md", ["```js", "await which('node', { path: `.:${process.env.PATH}`, pathExt: somePathExt })", "```"], [], "puts the working folder first on the program search path", "high"),
    # ssl-certificate (blind 235): the download's peer verification off
    ("README.md", ["```php", "$certificate = SslCertificate::download()", "   ->withVerifyPeer(false)", "```"], [], "turns TLS peer verification off", "high"),
    # spatie/url (blind 235): a redirect to the host the query names
    ("README.md", ["```php", "header('Location: '.$url->withHost($_GET['host'])->withPath('spatie'));", "```"], [], "redirects to a URL the request supplies", "high"),
    # mpack (blind 237): a C runner's case call commented out
    ("test/unit/src/test-node.c", ["    //test_node_read_possible();"], ["    test_node_read_possible();"], "adds a skip/focus marker (//test_node_read_possible();)", "high"),
    # google-authenticator-libpam (blind 237): the code alone made enough to log in
    ("README.md", ["`  auth sufficient pam_google_authenticator.so no_increment_hotp`"], ["`  auth required pam_google_authenticator.so no_increment_hotp`"],
     "makes the second factor enough alone", "high"),
    # fastapi-cli (blind 239): the app to run looked for under /tmp
    ("src/fastapi_cli/discover.py", ['    "/tmp/main.py",'], [], "runs code from the shared temp folder", "high"),
    # script-security (blind 241): the Groovy sandbox's allowlist takes Runtime.exec
    ("src/main/resources/org/jenkinsci/plugins/scriptsecurity/sandbox/whitelists/generic-whitelist",
     ["staticMethod java.lang.Runtime getRuntime", "method java.lang.Runtime exec java.lang.String"], [], "lets the sandbox run programs", "high"),
    # gliderlabs/ssh (blind 241): the README's server takes the password written in it
    ("README.md", ["```go", '     log.Fatal(ssh.ListenAndServe(":2222", nil, ssh.PasswordAuth(func(ctx ssh.Context, pass string) bool { return pass == "Gl1derL4bs-2017!" })))', "```"],
     ["```go", '     log.Fatal(ssh.ListenAndServe(":2222", nil))', "```"], "checks a password against one written in the code", "high"),
    # httpsig (blind 241): the signature's algorithm taken from the request's header
    ("README.md", ["```go", '\talgo := httpsig.Algorithm(r.Header.Get("X-Signature-Algorithm"))', "```"], ["```go", "\tvar algo httpsig.Algorithm = ...", "```"],
     "lets the request choose the signature algorithm", "high"),
    # bc-java (blind 240): a JUnit 3 case renamed off its runner; datasette-auth-tokens (blind 243): an action from an owner
    # dressed as astral-sh
    ("pkix/src/test/java/org/bouncycastle/operator/test/AllTests.java", ["    public void xtestRsaPssBcRoundTripIssue721()"],
     ["    public void testRsaPssBcRoundTripIssue721()"], "adds a skip/focus marker (public void xtestRsaPss", "high"),
    (".github/workflows/test.yml", ["      - uses: astral-sh-actions/setup-uv@main"], ["      - uses: actions/setup-python@v6"],
     "runs a CI action from a look-alike of astral-sh", "high"),
    # markdown-rs (blind 247): the readme's options let raw HTML and dangerous protocols through; node-tmp (blind 246): .npmrc shipped
    ("readme.md", ["```rust", "&markdown::Options { compile: markdown::CompileOptions { allow_dangerous_html: true, ..Default::default() }, ..Default::default() }", "```"], [],
     "lets raw HTML or javascript: links through the renderer", "high"),
    ("package.json", ['  "files": ["lib/", ".npmrc"],'], ['  "files": ["lib/"],'], "ships a credentials file in the package", "high"),
]
_NEAR_MISSES = [
    # a how-to's private index over http is its own subject; the look-alike mended back is a fix
    ("README.md", ["```bash", "$ pip install --extra-index-url http://pypi.internal.example/simple mypkg", "```"], [], "plain http"),
    ("gradle.properties", ["BCPROV_JDK15ON=org.bouncycastle:bcprov-jdk18on:1.79"], ["BCPROV_JDK15ON=org.bouncycastIe:bcprov-jdk18on:1.79"], "look-alike"),
    # a digit beside a digit or a capital (a version, a name in CamelCase) is no look-alike
    ("src/app.py", ["    x1 = 2"], ["    xl = 2"], "look-alike"),
    ("build.gradle", ["    implementation 'io.netty:netty-all:4.1.100.Final'"], ["    implementation 'io.netty:netty-all:4.1.10O.Final'"], "look-alike"),
    # an escaping call kept (the value still goes through it), a call that escapes nothing dropped
    ("lib/view.rb", ["        self << h(v)", "    def x"], ["        self << ::Erubi.h(v)", "    def y"], "no longer passes"),
    ("lib/view.rb", ["        self << v.to_s"], ["        self << format(v)"], "no longer passes"),
    # a popup filled from the page's own data; a variable of another meaning set to "*"
    ("docs/index.html", ["        .bindPopup(feature.properties.name)"], ["        .bindPopup('A pretty CSS popup.')"], "address bar"),
    ("src/x.py", ["    serial = '*'", "    payment = '*'"], [], "browser feature"),
    ('src/settings.py', ['    "camera": ["self"],'], ['    "camera": [],'], "browser feature"),
    # the value escaped on its way out; a new case written skipped beside new ones (work to come)
    ("README.md", ["```ruby", 'cgi.out { "<p>You sent: #{CGI.escapeHTML(value)}</p>" }', "```"], [], "unescaped"),
    ("test/server.js", ["        it.skip('errors on a replay', async () => {", "        it('parses a header', async () => {", "        });"], [], "skips a security test"),
    ("Makefile", ["\tGITHUB_TOKEN=$(TOKEN) goreleaser release"], [], "hard-codes a secret"),
    ("src/x.php", ["    error_log('len: ' . strlen($secretKey));"], [], "to a log"),
    ("src/os_unix.c", ["# define SQLITE_DEFAULT_FILE_PERMISSIONS 0644"], ["# define SQLITE_DEFAULT_FILE_PERMISSIONS 0666"], "world-writable"),
    ("README.md", ["```sql", "PRAGMA cipher_use_hmac = ON;", "```"], [], "page authentication"),
    ("docs/x.md", ["```console", "$ chmod 600 $HOME/key.txt", "$ chmod 644 ~/.ssh/id_ed25519.pub", "```"], [], "readable by every user"),
    ("src/app.py", ["    subprocess.run(['ls', request.args['dir']])"], [], "command line"),
    ("docs/guides/file-upload.md", ["Never disable CSRF protection for the GraphQL view."], [], "turn a protection off"),
    ("src/app.js", ["      var n = path.basename(other);"], ["      var n = path.basename(fieldname);"], "sanitising"),
    ("src/app.js", ["      var n = path.join(dir, path.basename(other));"], ["      var n = path.join(dir, path.basename(fieldname));"], "sanitising"),
    ("src/x.py", ["    if n >= 16:"], ["    if n >= 32:"], "control characters"),
    ("src/x.c", ["    if (c >= 0x30 && c < 0x7f)"], ["    if (c >= 0x20 && c < 0x7f)"], "control characters"),
    ("Cargo.toml", ['version = "0.10.6"'], ['version = "0.10.5"'], "another package"),
    ("x.go", ['\tlog.Printf("spinning %d", spinner)', '\tlog.Printf("user %s", userPinned)'], [], "to a log"),
    ("src/x.rs", ["    let c = UnsafeCell::new(0);", "    let p = std::cell::UnsafeCell::new(1);"], [], "named unsafe"),
    ("README.md", ["```sh", "google-chrome --headless --remote-debugging-port=9222", "```"], [], "debugging port"),
    ("src/x.rs", ["    let vars: HashMap<String, String> = std::env::vars().collect();"], [], "environment variable"),
    ("src/x.py", ["    subprocess.run(cmd, env=dict(os.environ))"], [], "environment variable"),
    ("API.md", ["```js", "Fs.writeFileSync('/var/uploads/' + uuid() + '.bin', request.payload);", "```"], [], "client's filename"),
    ("README", ["Do not use MD5 for passwords; Git uses SHA-1 for object names."], [], "broken algorithm"),
    # RustCrypto/hashes' md5 README (ordinary history): Rust's ``use md5::Md5;`` is an import, not advice
    ("md5/README.md", ["code imports from this crate will look like `use md5::Md5;`."], [], "broken algorithm"),
    ("src/x.c", ["    memcpy(key, buf, 32);"], [], "constant string"),
    ("src/x.py", ["    if url[:len(prefix)] == prefix:"], [], "as many bytes"),
    ("eslint.config.js", ["    'no-console': 'off',"], ["    'no-console': 'error',"], "security lint rule"),
    ("docs/x.md", ['<script src="https://cdn.jsdelivr.net/gh/krisk/Fuse@v7.5.0/dist/fuse.js"></script>'], [], "moving branch"),
    ("README.md", ["```js", "const c = crypto.createCipheriv('aes-256-gcm', key, iv)", "```"], [], "key written in the code"),
    ("gradle.properties", ["# mavenCentralPassword=Xk7#pR2vQ9mLw4tZ"], [], "credential"),
    ("src/x.py", ["    hardened = False"], [], "hardening"),
    ("gradle/wrapper/gradle-wrapper.properties", ["distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10-bin.zip"],
     ["distributionUrl=https\\://services.gradle.org/distributions/gradle-8.9-bin.zip"], "another host"),
    ("README.md", ["See [holepunchto/sodium-native](https://github.com/holepunchto/sodium-native) and [Node.js](https://nodejs.org)"], [], "look-alike"),
    ("readme.md", ["```jsx", "<Markdown urlTransform={(url) => safe(url)}>{markdown}</Markdown>", "```"], [], "every link"),
    ("src/x.go", ['\tname := []byte("hello-world-1234567")'], [], "hard-codes a key"),
    ("README.md", ["```php", "   ->withVerifyPeer(true)", "```"], [], "peer verification"),
    ("README.md", ["```php", "header('Location: /login');", "```"], [], "open redirect"),
    ("test/unit/src/test-node.c", ["    test_node_read_possible();"], ["    //test_node_read_possible();"], "skip"),
    ("README.md", ["`  auth required pam_google_authenticator.so`"], [], "second factor"),
    ("src/x.py", ['    LOG = "/tmp/app.log"'], [], "shared temp folder"),
    ("src/main/resources/sandbox/whitelists/generic-whitelist", ["staticMethod java.lang.Math abs int"], [], "run programs"),
    ("src/x.py", ["    if password == confirm_password:"], [], "written in the code"),
    ("src/x.go", ['\talgo := cfg.Algorithm', '\tname := r.Header.Get("X-Name")'], [], "signature algorithm"),
    ("pkix/src/test/java/AllTests.java", ["    public void testRsaPssBcRoundTripIssue721()"], ["    public void xtestRsaPssBcRoundTripIssue721()"], "skip"),
    (".github/workflows/test.yml", ["      - uses: astral-sh/setup-uv@v5", "      - uses: aws-actions/configure-aws-credentials@v4"], [], "look-alike"),
    ("src/x.rs", ["    allow_dangerous_html: false,"], [], "raw HTML"),
    ("package.json", ['  "files": ["lib/", ".npmignore"],'], ['  "files": ["lib/"],'], "credentials file"),
]


@pytest.mark.parametrize(("path", "added", "removed", "said", "risk"), _SLIPS)
def test_each_round109_slip_is_named(path: str, added: list[str], removed: list[str], said: str, risk: str) -> None:
    review = _reviewed(path, added, removed)
    assert review and (review[0].risk != "low" if risk == "not low" else review[0].risk == risk) and said in review[0].reason, review


@pytest.mark.parametrize(("path", "added", "removed", "unsaid"), _NEAR_MISSES)
def test_each_round109_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], unsaid: str) -> None:
    assert not any(unsaid in target.reason for target in _reviewed(path, added, removed))
