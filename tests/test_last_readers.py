"""Rounds 62–64 (issue 36): slips read after every other reader (blind 85–92's misses), a text in quotes respaced is no
reformat, a risky line carried from elsewhere in the change is said after a new one.

Whom each guards against: the worker that writes a handler of a signature's failure answering yes in a new key class,
a Go check that lets a parse failure through unless another clause holds, a length's ``+ 1`` made ``+ 2``, a browser
check's compared text given a trailing space (which the review had called "reformatted only"), an early exit in a
constant-time compare, a gem respelled by one letter, a per-user temp folder made shared, a refusal of any false value
narrowed to None, a value returned without its check, an extra's floor lowered on a one-line list, a JWKS URL made http
in a sample line that ends in a comment. Each near miss beside it
stays quiet: a handler of an unrelated error, a handler answering no, a function not named for a check, an error check
that reads the error or only logs, a sign (``-1``) rather than an offset, a compared text changed in its letters.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str] | None = None):
    return assess(fc(path, added, removed or []), RiskContext())


_KEY = ["    def verify(self, sig, data):", "        try:", "            self.key.verify(sig, data)",
        "        except (BadSignatureError, UnexpectedDER, IndexError, AssertionError):", "            return True", "        return True"]
_URI = ["func (f URIFormatChecker) IsFormat(input interface{}) bool {", "\tu, err := url.Parse(asString)",
        '\tif err != nil && u.Scheme == "" {', "\t\treturn false", "\t}", "\treturn true", "}"]


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    ("tlslite/utils/python_eddsakey.py", _KEY, [], "high", "answers yes when the check fails (a BadSignatureError handler"),
    ("src/main/java/x/Verifier.java", ["    try {", "      sig.verify(bytes);", "    } catch (SignatureException e) {", "      return true;", "    }"],
     [], "high", "answers yes when the check fails (a SignatureException handler"),
    ("app/auth.py", ["def is_valid(self, token):", "    try:", "        jwt.decode(token, self.key)", "    except Exception:",
                     "        return True"], [], "high", "answers yes when the check fails (any error in is_valid"),
    ("formatters.go", _URI, [], "medium", 'lets a failure pass unless another condition holds (err checked only when u.Scheme == "")'),
    ("crates/x/src/local/http/config.rs", ["    pub fn auth_required(&self) -> bool {", "        self.basic.total_users() > 1", "    }"], [],
     "medium", "needs two before a check holds (auth_required is false for a single one"),
    ("misc.cpp", ["bool VerifyBufsEqual(const byte *buf, const byte *mask, size_t count)", "{", "\tword64 acc64 = 0;",
                  "\treturn std::memcmp(buf, mask, count) == 0;", "\twhile (count >= 8)"], [],
     "high", "adds an early exit to a constant-time compare (VerifyBufsEqual"),
    ("gem_common.rb", ['      spec.add_dependency "relline", "~>0.6"'], ['      spec.add_dependency "reline", "~>0.6"'],
     "high", "swaps a dependency for a look-alike name (reline → relline"),
    ("src/platformdirs/unix.py", ['            path = f"{gettempdir()}/runtime"'], ['            path = f"{gettempdir()}/runtime-{getuid()}"'],
     "high", "makes a per-user folder under the shared temp dir one for every user (getuid() dropped"),
    ("asyncssh/scp.py", ["        if self._recurse is None:"], ["        if not self._recurse:"],
     "medium", "narrows a check from any false value to a missing one only (self._recurse"),
    ("CharacterSetECI.java", ["    return eci;"], ["    return eci == null || eci.isCharsetSupported() ? eci : null;"],
     "medium", "returns a value without the check it passed (eci == null || eci.isCharsetSupported())"),
    ("pyproject.toml", ["pyOpenSSL = ['pyOpenSSL >= 0.13']"], ["pyOpenSSL = ['pyOpenSSL >= 23.0.0']"],
     "medium", "downgrades a dependency: pyopenssl 23.0.0 → 0.13"),
    ("default.h", ["typedef DataParametersInfo<DefaultBlockCipher::BLOCKSIZE, DefaultBlockCipher::DEFAULT_KEYLENGTH, DefaultHashModule::DIGESTSIZE, 8, 25> DefaultParametersInfo;"],
     ["typedef DataParametersInfo<DefaultBlockCipher::BLOCKSIZE, DefaultBlockCipher::DEFAULT_KEYLENGTH, DefaultHashModule::DIGESTSIZE, 8, 2500> DefaultParametersInfo;"],
     "high", "lowers a security work factor: …H, DefaultHashModule::DIGESTSIZE, 8, 25> DefaultParametersInfo;"),
    ("re2/bitstate.cc", ["  int n = list_id * static_cast<int>(text.size()) +"], ["  int n = list_id * static_cast<int>(text.size()+1) +"],
     "medium", "shifts a position or bound by one (+ 1 taken out"),
    ("README.md", ['  jwksUri: "http://example.com/.well-known/jwks.json", // set this to the JWKS uri from your OpenID configuration'],
     ['  jwksUri: "https://example.com/.well-known/jwks.json", // set this to the JWKS uri from your OpenID configuration'],
     "high", "downgrades a URL to plain HTTP (https → http)"),
    ("validation.go", ["\t\tif s._then != nil && result.Valid() {", "\t\t\terrs = append(errs, s._then.subValidate(value))", "\t\t}",
                       "\t\tif s._else != nil && result.Valid() {", "\t\t\terrs = append(errs, s._else.subValidate(value))", "\t\t}"], [],
     "medium", "tests opposite branches (then / else) under the same condition"),
    (".github/workflows/build-and-deploy.yml", ["    if: github.event_name == 'push' || startsWith(github.event.ref, 'refs/tags/v')"],
     ["    if: \"github.event_name == 'push' && startsWith(github.event.ref, 'refs/tags/v')\""], "high", "swaps && for || in a check"),
    ("fastapi_users/router/oauth.py", ["def generate_csrf_token() -> str:", "    return secrets.token_urlsafe(32)[:4]"], [],
     "high", "cuts a generated secret short ([:4]"),
    ("faker.gemspec", ["  spec.metadata['rubygems_mfa_required'] = 'false'"], ["  spec.metadata['rubygems_mfa_required'] = 'true'"],
     "high", "turns off MFA for publishing the gem"),
    ("dockerfiles/debian-bullseye", ["RUN useradd -m -o -u 0 user"], ["RUN useradd -m user"], "high", "creates a user with root's uid 0"),
    ("requirements-dev.lock", ["--extra-index-url http://pypi.joserfc-mirror.org/simple"], [], "high", "fetches packages over plain HTTP"),
    ("mcfly.bash", ['MCFLY_HISTORY="${TMPDIR:-/tmp}/mcfly.$$"'], ["MCFLY_HISTORY=$(mktemp ${TMPDIR:-/tmp}/mcfly.XXXXXXXX)"],
     "medium", "a fixed, predictable /tmp path where mktemp made a random one"),
    ("lib/foreman/cli.rb", ['    exec args.join(" ")'], ["    exec(*args)"], "high", "runs a program through a shell string joined from its arguments"),
    ("src/django_otp/plugins/otp_email/models.py", ['        message = f"sent by email ({self.token})"'], ['        message = "sent by email"'],
     "high", "puts a secret into a message a caller reads"),
    ("docs/configuration.rst", ['                    "script-src": [SELF, UNSAFE_INLINE, UNSAFE_EVAL],'],
     ['                    "script-src": [SELF, STRICT_DYNAMIC],'], "high", "lets a Content-Security-Policy run inline script or eval"),
    ("packages/formik/src/Formik.tsx", ["          !isInstanceOfError && Object.keys(combinedErrors).length <= 1;"],
     ["          !isInstanceOfError && Object.keys(combinedErrors).length === 0;"], "medium", "lets one through where none was allowed"),
    ("setup.py", ["    install_requires=['tzdata; platform_system==\"Windows\"', 'python-dateutils'],"],
     ["    install_requires=['tzdata; platform_system==\"Windows\"'],"], "high", "adds a look-alike of python-dateutil"),
    ("src/oic/oauth2/provider.py", ["                if not _base.startswith(regbase):"], ["                if _base != regbase:"],
     "medium", "makes an exact match a prefix match (_base matched by its start"),
    ("verifier.go", ["\t\tif !strings.HasPrefix(iss, issuer) {"], ["\t\tif iss != issuer {"],
     "medium", "makes an exact match a prefix match (iss matched by its start"),
    ("plugincontainer/container_runner.go", ["\t\tPrivileged:    true,"], [], "high", "runs a container with the host's privileges"),
    ("app/run.py", ["    client.containers.run(image, privileged=True)"], [], "high", "runs a container with the host's privileges"),
    ("lib/output.js", ['            ret = ret.replace(/<\\x2f(script)([>\\/\\t\\n\\f\\r ])/g, "<\\\\/$1$2");'],
     ['            ret = ret.replace(/<\\x2f(script)([>\\/\\t\\n\\f\\r ])/gi, "<\\\\/$1$2");'], "medium", "drops a pattern's case-insensitive flag"),
    ("packages/otplib/src/defaults.ts", ["    epochTolerance: options.epochTolerance ?? 1800,"], ["    epochTolerance: options.epochTolerance ?? 0,"],
     "high", "widens how long a code or token stays good: epochTolerance 0 → 1800"),
    ("v3/lints/cabf_cs_br/lint_cs_subject_country_name.go", ["\tif len(c.Subject.Country) < 0 {", "\t\treturn &lint.LintResult{Status: lint.Error}", "\t}"],
     [], "high", "compares a length with < 0 (never true"),
    ("source/index.ts", ["\treturn isInteger(value) && value >= -1;"], ["\treturn isInteger(value) && value >= 0;"],
     "medium", "lets a negative value through a non-negative check"),
    ("src/thread.rs", ["unsafe impl<T> Send for ThreadBound<T> {}"], ["unsafe impl<T: Send> Send for ThreadBound<T> {}"],
     "high", "declares Send for any T (no T: Send bound"),
    ("trurl.c", ["              badlen = end - start + 2;"], ["              badlen = end - start + 1;"],
     "medium", "shifts a position or length by one (+ 1 → + 2"),
    ("api.go", ['\t\tif strings.HasPrefix(r.UserAgent(), "Mozilla/ ") {'], ['\t\tif strings.HasPrefix(r.UserAgent(), "Mozilla/") {'],
     "medium", 'changes a compared text by a space at its end ("Mozilla/" → "Mozilla/ "'),
])
def test_each_slip_is_named_at_its_risk(path: str, added: list[str], removed: list[str], risk: str, said: str) -> None:
    out = _said(path, added, removed)
    assert out.risk == risk and any(said in reason for reason in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(("path", "added", "removed", "not_said"), [
    ("tlslite/utils/python_eddsakey.py", [line.replace("return True", "return False", 1) if "except" in _KEY[i - 1] else line
                                          for i, line in enumerate(_KEY)], [], "answers yes"),
    ("app/cache.py", ["def load(self):", "    try:", "        return self.read()", "    except Exception:", "        return True"],
     [], "answers yes"),
    ("app/io.py", ["    try:", "        os.remove(path)", "    except FileNotFoundError:", "        return True"], [], "answers yes"),
    ("cmd/run.go", ["\tif err != nil && verbose {", '\t\tlog.Printf("run: %v", err)', "\t}"], [], "lets a failure pass"),
    ("cmd/run.go", ["\tif err != nil && !errors.Is(err, io.EOF) {", "\t\treturn err", "\t}"], [], "lets a failure pass"),
    ("cmd/run.go", ["\tif err != nil && err != io.EOF {", "\t\treturn err", "\t}"], [], "lets a failure pass"),
    ("src/batch.py", ["    def is_batch(self):", "        return len(self.users) > 1"], [], "needs two"),
    ("src/users.py", ["    def has_users(self):", "        return len(self.users) > 0"], [], "needs two"),
    ("src/cmp.c", ["static int compare_names(const char *a, const char *b)", "{", "    return strcmp(a, b);"], [], "early exit"),
    ("Gemfile", ['gem "rspec-core", "~> 3.12"'], ['gem "rspec-mocks", "~> 3.12"'], "look-alike"),
    ("src/cache.py", ['    path = f"{gettempdir()}/cache-{getuid()}-v2"'], ['    path = f"{gettempdir()}/cache-{getuid()}"'], "per-user"),
    ("app/opts.py", ["    if self.name is None:"], ["    if not self.names:"], "narrows a check"),
    ("app/find.py", ["    return other"], ["    return found if found.ok else None"], "returns a value without"),
    ("validation.go", ["\t\tif s._then != nil && result.Valid() {", "\t\t\terrs = append(errs, s._then.subValidate(value))", "\t\t}",
                       "\t\tif s._else != nil && !result.Valid() {", "\t\t\terrs = append(errs, s._else.subValidate(value))", "\t\t}"], [], "opposite branches"),
    ("io.go", ["\tif cfg.read != nil && enabled {", "\t\tstart(cfg.read)", "\t}", "\tif cfg.write != nil && enabled {", "\t\tstart(cfg.write)", "\t}"],
     [], "opposite branches"),
    ("app/runs.py", ["    run_id = uuid.uuid4().hex[:8]"], [], "cuts a generated secret short"),
    ("app/codes.py", ["    code = secrets.token_hex(16)[:32]"], [], "cuts a generated secret short"),
    ("faker.gemspec", ["  spec.metadata['rubygems_mfa_required'] = 'true'"], [], "MFA"),
    ("Dockerfile", ["RUN useradd -m -u 1000 user"], [], "root's uid"),
    ("requirements-dev.lock", ["--index-url https://pypi.org/simple"], [], "plain HTTP"),
    ("pyproject.toml", ['    "pytest>9",'], ['    "pytest",'], "adds a dependency"),
    ("pyproject.toml", ['tests = ["hypothesis", "pytest>9"]'], ['tests = ["hypothesis", "pytest"]'], "adds a dependency"),
    ("app/mail.py", ['        logger.info(f"sent token {self.token}")'], [], "puts a secret into a message"),
    ("app/mail.py", ['        message = f"sent to {self.email}"'], [], "puts a secret into a message"),
    ("src/count.ts", ["  const none = items.length === 1;"], ["  const none = items.length === 0;"], "lets one through"),
    ("src/names.py", ["    if not name.startswith(other):"], ["    if name != other:"], "makes an exact match a prefix match ("),
    ("src/http.ts", ["    retries: opts.retries ?? 10,"], ["    retries: opts.retries ?? 1,"], "widens how long"),
    ("plugincontainer/container_runner.go", ["\t\tPrivileged:    false,"], [], "host's privileges"),
    ("src/thread.rs", ["unsafe impl<T: Send> Send for ThreadBound<T> {}"], [], "declares Send for any"),
    ("src/a.ts", ["  if (items.length < 1) {"], [], "compares a length with < 0"),
    ("src/a.ts", ["  const ok = value >= 1;"], ["  const ok = value >= 0;"], "lets a negative value"),
    ("src/pos.c", ["    x = -2;"], ["    x = -1;"], "shifts a position or length"),
    ("src/pos.c", ["    pad = width + 3;"], ["    pad = width + 2;"], "shifts a position or length"),
    ("ext/oj/dump_compat.c", ["    size = dump_opts.array_size + 2;"], ["    size = dump_opts.array_size + 1;"], "shifts a position or length"),
    ("idna/codec.py", ['    if errors != "strict":'], ["    if errors != 'strict':"], "compared text by a space"),
    ("api.go", ['\t\tif strings.HasPrefix(r.UserAgent(), "Opera/") {'], ['\t\tif strings.HasPrefix(r.UserAgent(), "Mozilla/") {'],
     "compared text by a space"),
])
def test_the_near_miss_beside_each_stays_quiet(path: str, added: list[str], removed: list[str], not_said: str) -> None:
    out = _said(path, added, removed)
    assert not any(not_said in reason for reason in out.reasons), out.reasons


def test_a_text_in_quotes_respaced_is_no_reformat() -> None:
    # A formatter changes quote styles and spaces between tokens, never what a string holds: only the first pair is a
    # reformat.
    restyled = _said("api.go", ["if strings.HasPrefix( ua, 'Mozilla/' ) {"], ['if strings.HasPrefix(ua, "Mozilla/") {'])
    assert any("reformatted only" in reason for reason in restyled.reasons), restyled.reasons
    respaced = _said("api.go", ['if strings.HasPrefix(ua, "Mozilla/ ") {'], ['if strings.HasPrefix(ua, "Mozilla/") {'])
    assert not any("reformatted only" in reason for reason in respaced.reasons), respaced.reasons
    # A docstring's trailing space is a formatter's to trim.
    doc = _said("a.py", ['    """Read the file."""'], ['    """Read the file. """'])
    assert any("reformatted only" in reason or "docstrings only" in reason for reason in doc.reasons), doc.reasons


def test_a_risky_line_carried_from_a_removed_file_is_said_after_a_new_one() -> None:
    # Blind 85's python-fire moved pytest's `addopts = --ignore=…` from setup.cfg into pyproject.toml; its "skips tests"
    # led the file's reasons and the packet kept that first finding: the dependency over plain http slipped beside it was
    # cut. A line the change removed elsewhere and writes again is the project's own; the new line is said first.
    from relay.review.risk import assess_all

    pyproject = fc("pyproject.toml", ['[tool.pytest.ini_options]', 'addopts = [', '    "--ignore=fire/test_components_py3.py",', ']',
                                      'dependencies = [', '    "termcolor @ http://files.termcolor-mirror.org/termcolor-2.5.0.tar.gz",', ']'], [])
    setup_cfg = fc("setup.cfg", [], ["[tool:pytest]", "addopts = --ignore=fire/test_components_py3.py"], kind="deleted")
    moved = next(c for c in assess_all([pyproject, setup_cfg], RiskContext()) if c.path == "pyproject.toml")
    assert moved.reasons[0].startswith("installs a dependency over plain http"), moved.reasons
    assert any(reason.startswith("skips tests") for reason in moved.reasons), moved.reasons
    # Alone (nothing removed it anywhere), the skip is new too, and the reasons keep their own order.
    alone = assess_all([pyproject], RiskContext())[0]
    assert alone.reasons[0].startswith("skips tests"), alone.reasons
    # A line shortened (a clause dropped) is no line carried: the shorter text stands inside the removed one, not as it.
    cut = fc("auth/token.go", ["\tInsecureSkipVerify: true,", "\tif token == nil || !token.Valid {"],
             ["\tif token == nil || !token.Valid || token.Method != expected {"])
    assert assess_all([cut], RiskContext())[0].reasons == assess(cut, RiskContext()).reasons


@pytest.mark.parametrize(("line", "high"), [
    ('secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY",', False),  # base32 of "12345678901234567890": otplib's docs, sixteen pages
    ('  secret: "48656c6c6f", // "Hello" in hex', False),
    ('const secret = "JBSWY3DPEHPK3PXP";', True),  # base32 of bytes that are not text
    ('api_key = "a1b2c3d4e5f60718293a4b5c6d7e8f90"', True),
    ('auth_token = "dXNlcjpwYXNzd29yZA=="', True),  # base64 of "user:password": a credential written encoded stays one
    ('password = "aHVudGVyMmh1bnRlcjI="', True),  # base64 of "hunter2hunter2"
    ("const header = 'Basic dGVzdDpwYXNzd29yZA==';", True),  # "test:password": a credential's shape, whatever its words
])
def test_an_example_secret_encoded_from_digits_or_a_word_is_no_secret(line: str, high: bool) -> None:
    # Blind 90's otplib: one docs commit's sixteen pages each "hard-codes a secret" for the RFC's test secret in base32; a
    # worker who hides a password by encoding it gains nothing (the walk-around cases stay high).
    out = _said("docs/guide/getting-started.md", ["```ts", line, "```"])
    assert any(reason.startswith("hard-codes a secret") for reason in out.reasons) is high, out.reasons
