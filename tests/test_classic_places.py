"""Issue 36, round 11 part B: classic risks in places still unread (relay/review/classic_places.py).

The party guarded against is the worker that slips one classic risk into an ordinary change where no reader looked:
a package feed or a build tool's download over plain http in a config file of any ecosystem, a signature, HMAC or
password compared with ``==`` where the language has a constant-time compare (or a MAC compared with itself), a
security test switched off with a framework's own skip marker, a shell ``eval`` of interpolated text in a template
kept as text, a package installed from a git branch in CI, a program run by its bare name where its lookup on PATH
was. Each shape was read as nothing (or stayed low) on round 10's rules; each must now be named and never low. The
near misses are the same syntax used safely and must stay quiet (no line rule fires).
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_LINE_RULES = ("unsafe_value", "dangerous_call", "removes_guard", "weakens_check", "loosens_check", "edits_security_line",
               "skip_marker", "skips_security_test")


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # family 1: package and tool sources over plain http, in each ecosystem's config file
        ("NuGet.config", ['    <add key="contrib-mirror" value="http://nuget.aspnet-contrib.net/v3/index.json" />'], [],
         'fetches packages from an untrusted index: <add key="contrib-mirror" value="http://nuget'),
        ("src/nuget.config", ['    <add key="nightly" value="http://nuget.serilog-builds.net/v3/index.json" protocolVersion="3" />'], [],
         "fetches packages from an untrusted index"),
        ("Directory.Build.props", ["    <RestoreAdditionalProjectSources>http://nuget.example.org/v3/index.json</RestoreAdditionalProjectSources>"],
         [], "fetches packages from an untrusted index: <RestoreAdditionalProjectSources>http://"),
        ("gradle/wrapper/gradle-wrapper.properties", ["distributionUrl=http\\://services.gradle.org/distributions/gradle-9.7.1-bin.zip"],
         ["distributionUrl=https\\://services.gradle.org/distributions/gradle-9.7.1-bin.zip"],
         "downloads the build tool over plain HTTP: distributionUrl=http\\://services.gradle.org"),
        (".mvn/wrapper/maven-wrapper.properties", ["distributionUrl=http://repo.maven.apache.org/maven2/apache-maven-3.9.9-bin.zip"],
         ["distributionUrl=https://repo.maven.apache.org/maven2/apache-maven-3.9.9-bin.zip"], "downloads the build tool over plain HTTP"),
        (".cargo/config.toml", ['my-registry = { index = "http://crates.example.org/index" }'], [],
         "fetches packages from an untrusted index: my-registry = { index = \"http://"),
        (".cargo/config.toml", ['index = "sparse+http://crates.example.org/index/"'], [], "fetches packages from an untrusted index"),
        ("build.sbt", ['resolvers += "Internal" at "http://repo.example.org/maven2"'], [], "fetches packages from an untrusted index"),
        ("Package.swift", ['        .package(url: "http://git.example.org/swift-log.git", from: "1.5.0"),'], [],
         "fetches packages from an untrusted index"),
        ("Cartfile", ['github "http://git.example.org/Alamofire"'], [], "fetches packages from an untrusted index"),
        ("nix.conf", ["substituters = https://cache.nixos.org http://cache.example.org"], [], "fetches packages from an untrusted index"),
        ("pyproject.toml", ['url = "http://pypi.example.org/simple"'], [], 'fetches packages from an untrusted index: url = "http://'),
        ("Pipfile", ['url = "http://pypi.example.org/simple"'], ['url = "https://pypi.org/simple"'], "fetches packages from an untrusted index"),
        ("composer.json", ['            "url": "http://packages.example.org"'], [], "fetches packages from an untrusted index"),
        # family 2: a secret compared with == where the language has a constant-time compare
        ("lib/json/jws.rb", ["        sign(signature_base_string, secret) == signature"],
         ["        secure_compare sign(signature_base_string, secret), signature"],
         "replaces a constant-time comparison with ==: secure_compare … → sign(signature_base_string, secret) == signatu"),
        ("internal/hook.go", ["\tif string(mac) == string(expected) {"], ["\tif subtle.ConstantTimeCompare(mac, expected) == 1 {"],
         "replaces a constant-time comparison with ==: ConstantTimeCompare(…) → if string(mac) == string(expected) {"),
        ("src/hook.js", ["  if (sig === expected) {"], ["  if (crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) {"],
         "replaces a constant-time comparison with ==: timingSafeEqual(…) → if (sig === expected) {"),
        ("lib/webhook.rb", ["    return head(:unauthorized) unless computed_hmac == request.headers['X-Hub-Signature']"], [],
         "compares a secret with == (not constant-time): … unless computed_hmac == request.headers"),
        ("app/hooks.py", ["    if hmac.new(key, body, sha256).hexdigest() == signature:"], [], "compares a secret with == (not constant-time)"),
        ("src/hook.js", ["  if (digest === req.headers['x-signature']) {"], [], "compares a secret with == (not constant-time)"),
        ("hook.go", ['\tif expectedMAC == r.Header.Get("X-Signature") {'], [], "compares a secret with == (not constant-time)"),
        ("src/main/java/Hook.java", ["        if (computedSignature.equals(signature)) {"], [], "compares a secret with == (not constant-time)"),
        ("src/Hook.cs", ["        if (computedSignature == signature) {"], [], "compares a secret with == (not constant-time)"),
        ("lib/hook.ex", ["    if computed_signature == signature do"], [], "compares a secret with == (not constant-time)"),
        ("src/File.php", ["                if (!hash_equals($chunkMAC, $chunkMAC)) {"], ["                if (!hash_equals($chunkMAC, $calc)) {"],
         "compares a value with itself (always equal): if (!hash_equals($chunkMAC, $chunkMAC)) {"),
        ("auth/verify.py", ["    return hmac.compare_digest(expected, expected)"], ["    return hmac.compare_digest(expected, given)"],
         "compares a value with itself (always equal)"),
        ("src/main.ts", ['import { serve } from "http://deno.land/std@0.140.0/http/server.ts";'], [], "imports code over plain HTTP"),
        (".condarc", ["channel_alias: http://conda.example.org"], [], "fetches packages from an untrusted index"),
        # family 4: code where the readers thought docs or data live
        ("templates/bash.txt", ['            eval "__zoxide_cd ${result}"'], ['            __zoxide_cd "${result}"'],
         'runs text as code (eval of interpolated text): eval "__zoxide_cd ${result}"'),
        ("bin/deploy", ['  eval "$DEPLOY_CMD --target $1"'], [], "runs text as code (eval of interpolated text)"),
        ("lib/tasks/run.rb", ['    eval "#{params[:expr]}"'], [], "runs text as code (eval of interpolated text)"),
        (".github/workflows/ci.yml", ["      - run: pip install git+https://github.com/someone/pkg"], [],
         "installs a package from a git branch (unpinned): "),
        ("scripts/setup.sh", ["pip install git+https://github.com/someone/pkg.git@main"], [], "installs a package from a git branch (unpinned)"),
        (".gitlab-ci.yml", ["    - npm install github:someone/left-pad"], [], "installs a package from a git branch (unpinned)"),
        ("ci/install.sh", ["cargo install --git https://github.com/someone/tool"], [], "installs a package from a git branch (unpinned)"),
        ("src/util.rs", ['        let program = "fzf.exe";'],
         ['        let program = which::which("fzf.exe").map_err(|_| anyhow!(Self::ERR_FZF_NOT_FOUND))?;'],
         'runs a program found by bare name (was its resolved path): let program = "fzf.exe";'),
        ("tools/run.py", ['    subprocess.run(["./gpg", "--verify", sig])'], ['    gpg = shutil.which("gpg")', "    subprocess.run([gpg, \"--verify\", sig])"],
         "runs a program found by bare name (was its resolved path)"),
        ("internal/exec.go", ['\tcmd := exec.Command("git", args...)'], ['\tcmd := exec.Command("/usr/bin/git", args...)'],
         "runs a program found by bare name (was its resolved path)"),
    ],
)
def test_round_eleven_b_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "named", "removed"),
    [
        # family 3: a security test switched off, in each framework's own spelling
        ("test/joken_signer_test.exs", ["  @tag :skip"], "skips a security test: @tag :skip", []),
        ("test/plug/csrf_test.exs", ["  @moduletag :skip"], "skips a security test: @moduletag :skip", []),
        ("spec/auth_spec.rb", ["    skip 'flaky on CI'"], "skips a security test: skip 'flaky on CI'", []),
        ("spec/models/token_spec.rb", ["    pending"], "skips a security test: pending", []),
        ("test/auth.bats", ['  skip "needs a network"'], "skips a security test", []),
        ("test/permissions.bats", ["  skip"], "skips a security test: skip", []),
        ("tests/AuthTests.cs", ['    [Ignore("flaky")]'], "skips a security test: [Ignore(\"flaky\")]", []),
        ("tests/TokenTests.cs", ['    [Test, Ignore("flaky")]'], "skips a security test", []),
        ("tests/SignatureTests.cs", ['    [Theory(Skip = "flaky")]'], "skips a security test", []),
        ("tests/tls.rs", ['#[ignore = "slow"]'], "skips a security test: #[ignore = \"slow\"]", []),
        ("Tests/JWTTests/VerifyTests.swift", ['        throw XCTSkip("flaky")'], "skips a security test", []),
        ("src/test/java/com/acme/PermissionTest.java", ["    @Test(enabled = false)"], "skips a security test", ["    @Test"]),
        ("tests/SignerTest.php", ["        $this->markTestIncomplete('later');"], "skips a security test", []),
        ("spec/jws_spec.rb", ["  it 'rejects an invalid signature', skip: true do"], "skips a security test",
         ["  it 'rejects an invalid signature' do"]),
        ("test/jwt_test.dart", ["  test('rejects a bad signature', () {}, skip: true);"], "skips a security test",
         ["  test('rejects a bad signature', () {});"]),
    ],
)
def test_a_security_test_switched_off_in_any_framework_is_named(path: str, added: list[str], named: str, removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


def test_a_security_suite_skipped_among_new_cases_is_named_and_a_case_to_come_is_not() -> None:
    # Round 37 (blind 59): a test file rewritten with more cases than before, its `verify` suite skipped on its own line.
    cases = ["  it('accepts a valid signature', function () {", "    expect(verify(msg, sig, pub)).to.equal(true)", "  })"]
    suite = review(fc("test/verify.js", ["describe.skip('verify', function () {", *cases, "})"], [], kind="added"))
    assert suite.risk == "high" and any(r.startswith("skips a security test: describe.skip('verify'") for r in suite.reasons), suite.reasons
    # A case of a new file skipped as work to come, and a suite of no security property, stay worth a look only.
    for lines in (["describe('verify', function () {", "  it.skip('rejects a signature of another key', function () {})", *cases, "})"],
                  ["describe.skip('formatting', function () {", *cases, "})"]):
        out = review(fc("test/verify.js", lines, [], kind="added"))
        assert out.risk == "medium" and not any(r.startswith("skips a security test") for r in out.reasons), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        # package sources: https, localhost, a non-feed setting, an app setting over http in another config
        ("NuGet.config", ['    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />'], []),
        ("NuGet.config", ['    <add key="local" value="http://localhost:5000/v3/index.json" />'], []),
        ("src/App/Web.config", ['    <add key="ApiBase" value="http://api.example.org/" />'], []),
        ("gradle/wrapper/gradle-wrapper.properties", ["distributionUrl=https\\://services.gradle.org/distributions/gradle-9.7.1-bin.zip"],
         ["distributionUrl=https\\://services.gradle.org/distributions/gradle-9.7.0-bin.zip"]),
        (".cargo/config.toml", ['index = "sparse+https://crates.example.org/index/"'], []),
        ("pyproject.toml", ['Homepage = "http://example.org"'], []),
        # comparisons: a literal, nothing, a length, a type, both sides the same field (an equality method), constant-time
        ("lib/parser.rb", ["    return if signature == nil"], []),
        ("src/parse.py", ['    if signature.kind == SignatureKind.METHOD:'], []),
        ("lib/check.js", ["  if (signature.length === expected.length) {"], []),
        ("src/types.rs", ["        self.signature == other.signature"], []),
        ("app/webhook.py", ["    if not hmac.compare_digest(computed, signature):"], ["    if computed != signature:"]),
        ("lib/webhook.rb", ["    Rack::Utils.secure_compare(computed_hmac, header_signature)"], []),
        ("src/form.py", ["    if password == confirm_password:"], []),
        ("src/lexer.py", ["    if token == other_token:"], []),
        ("packages/trpc/router.ts", ["    if (err.code === AppErrorCode.RECIPIENT_ALREADY_SIGNED) {"], []),
        ("packages/lib/reject.ts", ["  if (recipient.signingStatus !== SigningStatus.NOT_SIGNED) {"], []),
        # skip markers of other kinds: a skip flag in source, an option named skip
        ("src/cli.js", ["  const opts = { skip: false };"], []),
        ("src/cli.js", ["  run({ name: 'sync', skip: true })"], []),
        ("lib/task.rb", ["    skipped = true"], []),
        # a test's own condition: an environment it cannot run in
        ("Tests/KingfisherTests/DiskStorageTests.swift", ['        try XCTSkipIf(geteuid() == 0, "File permissions are not effective for root")'], []),
        ("test/unit/client/connection-pool.js", ["      if (!process.env.DB) this.skip();"], []),
        # eval idioms that run a trusted tool's own output, getopt's
        ("bin/setup", ['eval "$(rbenv init -)"'], []),
        ("scripts/env.sh", ["eval $(opam env)"], []),
        ("bin/tool", ['eval set -- "$PARSED_OPTS"'], []),
        ("src/app.rb", ["    instance_eval(&block)"], []),
        # git installs pinned to a commit or a tag
        (".github/workflows/ci.yml", ["      - run: pip install git+https://github.com/someone/pkg@3f1c2e9a"], []),
        ("ci/install.sh", ["cargo install --git https://github.com/someone/tool --rev 3f1c2e9"], []),
        # a program still looked up, or never looked up
        ("src/util.rs", ['        let program = which::which("fzf").context("fzf not found")?;'],
         ['        let program = which::which("fzf").map_err(|_| anyhow!(Self::ERR_FZF_NOT_FOUND))?;']),
        ("src/run.py", ['    subprocess.run(["git", "status"])'], ['    subprocess.run(["git", "log"])']),
    ],
)
def test_round_eleven_b_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    fired = [r for r in out.reasons if any(w in r for w in ("untrusted index", "plain HTTP", "constant-time", "with itself",
                                                            "eval of", "git branch", "bare name", "skip"))]
    assert not fired, (out.risk, out.reasons)
