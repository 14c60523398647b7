"""Issue 36, round 10 part B: classic risks in syntaxes no family read (relay/review/platform_lines.py).

The party guarded against is the worker that slips one classic risk into an ordinary change, spelled where the
older readers never looked: an app manifest (Apple's ATS keys and entitlements, Android's cleartext traffic,
user CAs, an exported component), a typed language's certificate callback that accepts everything (.NET, Java,
Kotlin, Swift), a package manager told not to check (apk, rpm, npm, gem, choco, Docker content trust, apt's
Verify-Peer, nix, snap, yarn, composer, conda), a security linter silenced for a whole file (``eslint-disable security/…``,
``# ruff: noqa: S…``) or a crate (``forbid(unsafe_code)`` lifted), an ``https://`` URL written again as ``http://`` in a script or a docs sample, a Mix dependency taken from GitHub. Each shape was read
as nothing (or stayed low) on round 9's rules; each must now be named and never low. The near misses are the same
syntax used safely (or the safe direction of the edit) and must stay quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_RULES = ("dangerous_call", "unsafe_value", "edits_security_line")


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # family 1: app manifests, Apple and Android
        ("Sources/Info.plist", ["\t<key>NSAppTransportSecurity</key>", "\t<dict><key>NSAllowsArbitraryLoads</key><true/></dict>"], [],
         "turns an app's transport security off: <dict><key>NSAllowsArbitraryLoads</key><true/>"),
        ("App/Info.plist", ["\t\t<key>NSAllowsArbitraryLoads</key>", "\t\t<true/>"], ["\t\t<key>NSAllowsArbitraryLoads</key>", "\t\t<false/>"],
         "turns an app's transport security off: <key>NSAllowsArbitraryLoads</key> <true/>"),
        ("ios/Runner/Info.plist", ["\t\t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>", "\t\t\t\t<true/>"], [],
         "turns an app's transport security off: <key>NSExceptionAllowsInsecureHTTPLoads</key> <true/>"),
        ("ios/Runner/Info.plist", ["\t\t\t\t<key>NSExceptionMinimumTLSVersion</key>", "\t\t\t\t<string>TLSv1.0</string>"], [],
         "turns an app's transport security off: …ey>NSExceptionMinimumTLSVersion</key> <string>TLSv1.0"),
        ("macos/App.entitlements", ["\t<key>com.apple.security.cs.disable-library-validation</key>", "\t<true/>"], [],
         "turns a macOS app's code-signing protection off"),
        ("app.json", ['      "NSAllowsArbitraryLoads": true,'], [], "turns an app's transport security off"),
        ("app/src/main/AndroidManifest.xml", ['        android:usesCleartextTraffic="true"'], ['        android:usesCleartextTraffic="false"'],
         "turns an app's transport security off: android:usesCleartextTraffic=\"true\""),
        ("app/src/main/res/xml/network_security_config.xml", ['    <base-config cleartextTrafficPermitted="true">'],
         ['    <base-config cleartextTrafficPermitted="false">'], "turns an app's transport security off"),
        ("app/src/main/res/xml/network_security_config.xml", ['            <certificates src="user" />'], [],
         "turns an app's transport security off: <certificates src=\"user\" />"),
        ("app/src/main/AndroidManifest.xml", ['        <activity android:name=".DeepLinkActivity" android:exported="true">'],
         ['        <activity android:name=".DeepLinkActivity" android:exported="false">'],
         "exports an Android component to other apps (false → true)"),
        ("app/build.gradle", ["            debuggable true"], ["            debuggable false"], "turns an app's transport security off"),
        # family 2: TLS trust callbacks in typed languages
        ("src/RestSharp/Options/RestClientOptions.cs",
         ["    public RemoteCertificateValidationCallback? RemoteCertificateValidationCallback { get; set; } = (_, _, _, _) => true;"],
         ["    public RemoteCertificateValidationCallback? RemoteCertificateValidationCallback { get; set; }"],
         "turns TLS verification off: …ateValidationCallback { get; set; } = (_, _, _, _) => true"),
        ("src/Client/HttpFactory.cs", ["        handler.ServerCertificateCustomValidationCallback = (message, cert, chain, errors) => true;"], [],
         "turns TLS verification off"),
        ("src/Client/HttpFactory.cs",
         ["        handler.ServerCertificateCustomValidationCallback = HttpClientHandler.DangerousAcceptAnyServerCertificateValidator;"], [],
         "turns TLS verification off"),
        ("src/main/java/com/acme/net/Tls.java",
         ["            public void checkServerTrusted(X509Certificate[] chain, String authType) {", "            }"], [],
         "turns TLS verification off (a TrustManager that checks nothing): …heckServerTrusted(X509Certificate[] chain"),
        ("app/src/main/kotlin/net/Tls.kt",
         ["        override fun checkServerTrusted(chain: Array<X509Certificate>, authType: String) {}"], [], "turns TLS verification off"),
        ("src/main/java/com/acme/net/Hosts.java",
         ["            public boolean verify(String hostname, SSLSession session) {", "                return true;", "            }"], [],
         "turns TLS verification off (a HostnameVerifier that accepts any host)"),
        ("Sources/Networking/Session.swift", ["        let manager = ServerTrustManager(evaluators: [host: DisabledTrustEvaluator()])"], [],
         "turns TLS verification off"),
        ("Sources/Networking/Trust.swift", ["        policy.validatesDomainName = false"], [], "turns TLS verification off"),
        ("Sources/Documentation.docc/CommonTasks/CommonTasks_Downloader.md",
         ["        completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))"],
         ["        completionHandler(disposition, credential)"], "turns TLS verification off (any server's trust accepted)"),
        ("Sources/Networking/Delegate.swift",
         ["        completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))"],
         ["        completionHandler(.performDefaultHandling, nil)"], "turns TLS verification off (any server's trust accepted)"),
        # family 3: package managers told not to check, in Dockerfiles, scripts, CI and docs
        ("builders/linux.x86_64/Dockerfile", ["RUN apk add --allow-untrusted ghc cabal g++ libffi-dev curl bash"],
         ["RUN apk add ghc cabal g++ libffi-dev curl bash"], "turns package integrity checks off: RUN apk add --allow-untrusted"),
        ("scripts/install.sh", ["rpm -ivh --nosignature https://example.org/pkg.rpm"], ["rpm -ivh https://example.org/pkg.rpm"],
         "turns package integrity checks off"),
        (".github/workflows/ci.yml", ["      - run: npm install -g --unsafe-perm node-sass"], ["      - run: npm install -g node-sass"],
         "turns package integrity checks off"),
        ("docs/install.md", ["    gem install mytool -P NoSecurity"], ["    gem install mytool -P HighSecurity"], "turns package integrity checks off"),
        ("tools/setup.ps1", ["choco install mytool -y --ignore-checksums"], ["choco install mytool -y"], "turns package integrity checks off"),
        ("Dockerfile", ["ENV DOCKER_CONTENT_TRUST=0"], ["ENV DOCKER_CONTENT_TRUST=1"], "turns package integrity checks off"),
        (".gitlab-ci.yml", ["    - docker pull --disable-content-trust registry.example.com/app:latest"], [], "turns package integrity checks off"),
        ("docker/Dockerfile", ["RUN echo 'Acquire::https::Verify-Peer \"false\";' > /etc/apt/apt.conf.d/99insecure"], [],
         "turns package integrity checks off"),
        ("ci/nix.sh", ["nix-build --option require-sigs false"], ["nix-build"], "turns package integrity checks off"),
        ("scripts/setup", ["snap install ./tool.snap --dangerous"], [], "turns package integrity checks off"),
        ("composer.json", ['        "disable-tls": true,'], [], "turns package integrity checks off"),
        # family 4: a security linter silenced
        ("src/render.js", ["/* eslint-disable security/detect-non-literal-fs-filename */"], [], "silences a security linter for a whole file or crate"),
        ("app/views.py", ["# ruff: noqa: S603, S607"], [], "silences a security linter for a whole file or crate: # ruff: noqa: S603"),
        ("src/lib.rs", ["#![allow(unsafe_code)]"], ["#![forbid(unsafe_code)]"], "silences a security linter for a whole file or crate: #![allow(unsafe_code)]"),
        ("src/lib.rs", [], ["#![forbid(unsafe_code)]"], "lifts a crate's ban on unsafe code: removes #![forbid(unsafe_code)]"),
        # family 5 (and a leftover): an https URL written again as plain http, in a script, a docs sample, a config
        ("bin/hermit", ['export HERMIT_DIST_URL="${HERMIT_DIST_URL:-http://github.com/cashapp/hermit/releases/download/stable}"'],
         ['export HERMIT_DIST_URL="${HERMIT_DIST_URL:-https://github.com/cashapp/hermit/releases/download/stable}"'],
         "downgrades a URL to plain HTTP (https → http)"),
        ("README.md", ["$url = 'http://www.example.com/reset_password?selector=' . \\urlencode($selector) . '&token=' . \\urlencode($token);"],
         ["$url = 'https://www.example.com/reset_password?selector=' . \\urlencode($selector) . '&token=' . \\urlencode($token);"],
         "downgrades a URL to plain HTTP (https → http)"),
        ("config/settings.py", ['AUTH_SERVER = "http://auth.example.com/oauth/token"'], ['AUTH_SERVER = "https://auth.example.com/oauth/token"'],
         "downgrades a URL to plain HTTP (https → http)"),
        # a Mix dependency from GitHub instead of Hex
        ("mix.exs", ['      {:jason, github: "rnichalmuskala/jason"},'], ['      {:jason, "~> 1.1"},'],
         "takes a dependency from a git repository instead of its registry (was Hex)"),
        ("apps/web/mix.exs", ['      {:phoenix_ecto, github: "phoenix-ecto/phoenix_ecto", only: [:dev, :test]},'],
         ['      {:phoenix_ecto, "~> 4.2", only: [:dev, :test]},'], "takes a dependency from a git repository instead of its registry"),
    ],
)
def test_round_ten_b_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("Program.cs", ["ServicePointManager.ServerCertificateValidationCallback = delegate { return true; };"], []),
        ("app/src/main/kotlin/net/Client.kt", ["    .hostnameVerifier { _, _ -> true }"], ["    .hostnameVerifier(OkHostnameVerifier)"]),
        ("internal/client.go", ["\t\tTLSClientConfig: &tls.Config{InsecureSkipVerify: true},"], ["\t\tTLSClientConfig: &tls.Config{},"]),
        ("docs/client.md", ["    tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}"], []),
    ],
)
def test_callbacks_round_nine_read_stay_named(path: str, added: list[str], removed: list[str]) -> None:
    """Guards, not new shapes (they pass on round 9's rules too): the TLS family's older spellings stay named beside
    the new ones (the brief: Go's InsecureSkipVerify read everywhere, docs samples included)."""
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith("turns TLS verification off") for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        # the safe direction of each, and the same syntax used safely
        ("App/Info.plist", ["\t\t<key>NSAllowsArbitraryLoads</key>", "\t\t<false/>"], ["\t\t<key>NSAllowsArbitraryLoads</key>", "\t\t<true/>"]),
        ("App/Info.plist", ["\t<key>CFBundleVersion</key>", "\t<string>1.2.3</string>"], ["\t<key>CFBundleVersion</key>", "\t<string>1.2.2</string>"]),
        ("App/Info.plist", ["\t\t<key>NSAllowsLocalNetworking</key>", "\t\t<true/>"], []),
        ("ios/Runner/Info.plist", ["\t\t\t\t<key>NSExceptionMinimumTLSVersion</key>", "\t\t\t\t<string>TLSv1.2</string>"], []),
        ("app/src/main/AndroidManifest.xml", ['        android:usesCleartextTraffic="false"'], ['        android:usesCleartextTraffic="true"']),
        ("app/src/main/AndroidManifest.xml", ['        <activity android:name=".MainActivity" android:exported="true">'], []),
        ("app/src/main/AndroidManifest.xml", ['        <activity android:name=".Main" android:exported="false">'],
         ['        <activity android:name=".Main" android:exported="true">']),
        ("src/Client/HttpFactory.cs",
         ["        handler.ServerCertificateCustomValidationCallback = (message, cert, chain, errors) => errors == SslPolicyErrors.None;"], []),
        ("src/Client/Pinning.cs", ["        ServicePointManager.ServerCertificateValidationCallback += ValidatePinnedCertificate;"], []),
        ("src/main/java/com/acme/net/Tls.java",
         ["            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {",
          "                delegate.checkServerTrusted(chain, authType);", "            }"], []),
        ("src/main/java/com/acme/net/Hosts.java",
         ["            public boolean verify(String hostname, SSLSession session) {", "                return expected.equals(hostname);", "            }"], []),
        ("Sources/Networking/Delegate.swift",
         ["        if let trust = challenge.protectionSpace.serverTrust, SecTrustEvaluateWithError(trust, nil) {",
          "            completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))"], []),
        ("Sources/Networking/Trust.swift", ["        policy.validatesDomainName = true"], ["        policy.validatesDomainName = false"]),
        ("Dockerfile", ["RUN apk add --no-cache ghc cabal"], ["RUN apk add ghc cabal"]),
        (".github/workflows/ci.yml", ["      - run: npm install --unsafe-perm=false"], []),
        ("docs/install.md", ["    gem install mytool -P HighSecurity"], ["    gem install mytool"]),
        ("Dockerfile", ["ENV DOCKER_CONTENT_TRUST=1"], ["ENV DOCKER_CONTENT_TRUST=0"]),
        # one line's suppression, new or added to a line that was there (ordinary history's linter false alarms)
        ("kong.go", ["\tdefer r.Close() // nolint: gosec"], []),
        ("csrf.go", ['\ttokenKey string = "gorilla.csrf.Token" // #nosec G101'], ['\ttokenKey string = "gorilla.csrf.Token"']),
        ("src/Service.java", ["        String q = base + id; // NOSONAR"], ["        String q = base + id;"]),
        ("app/loader.py", ["    tree = load(path, strict=True)  # nosec"], ["    tree = load(path)  # nosec"]),
        ("src/render.js", ["// eslint-disable-next-line security/detect-object-injection"], []),
        ("src/lib.rs", ["#![forbid(unsafe_code)]"], []),
        ("src/lib.rs", ["#![deny(unsafe_code)]"], ["#![forbid(unsafe_code)]"]),
        # URLs: the safe direction, a local host, a namespace, a link in prose, an http URL that was http before
        ("bin/tool", ['DIST="https://github.com/acme/tool/releases"'], ['DIST="http://github.com/acme/tool/releases"']),
        ("scripts/dev.sh", ['API="http://localhost:8080/api"'], ['API="https://localhost:8080/api"']),
        ("res/layout.xml", ['<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">'],
         ['<LinearLayout xmlns:android="https://schemas.android.com/apk/res/android">']),
        ("README.md", ["See [the site](http://example.org/docs) for the whole guide."], ["See [the site](https://example.org/docs) for the whole guide."]),
        ("README.md", ["Read more about the reasons on http://example.org/why which explains it all."],
         ["Read more about the reasons on https://example.org/why which explains it all."]),
        ("mix.exs", ['      {:jason, "~> 1.4"},'], ['      {:jason, "~> 1.1"},']),
        ("mix.exs", ['      {:my_app, path: "../my_app"},'], []),
    ],
)
def test_round_ten_b_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in _RULES), out.reasons


# ----- round 9's leftovers


@pytest.mark.parametrize(
    ("path", "added"),
    [
        ("docs/k8s.md", ["    kubectl get pods --insecure-skip-tls-verify=false"]),
        ("deploy/apply.sh", ["kubectl apply --insecure-skip-tls-verify=false -f deploy.yaml"]),
    ],
)
def test_a_skip_flag_set_false_is_the_safe_direction(path: str, added: list[str]) -> None:
    """``--insecure-skip-tls-verify=false`` keeps the check: it fired on round 9 as "turns TLS verification off"."""
    out = review(fc(path, added, []))
    assert not any(rule in out.rules for rule in _RULES), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("src/RuntimeTests.php", ["        if ($test_state !== 0) {"], ["        if ($test_state === 1 || $test_state === 2) {"],
         "widens an exact set to anything but one value ($test_state in 1, 2 → $test_state != 0)"),
        ("src/selftest.js", ["  if (status !== 0) {"], ["  if (status === 1 || status === 2) {"],
         "widens an exact set to anything but one value (status in 1, 2 → status != 0)"),
    ],
)
def test_an_exact_set_turned_into_not_the_failure_value_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    """``=== 1 || === 2`` → ``!== 0``: every other state (3, -1, null) now passes; read as nothing on round 9."""
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


def test_a_dropped_clause_keeps_its_was_within_the_reason() -> None:
    """The reason is cut at 120 characters: on round 9 a long condition's "(was …)" was the part cut away, so the
    dropped clause never showed. Now both sides are windowed where they differ and the clause stays in view."""
    out = review(fc("app/controllers/documents_controller.rb",
                    ["    if current_user.present? && document.owner_id == current_user.organization_account.id"],
                    ["    if current_user.present? && document.owner_id == current_user.organization_account.id && document.shared_with?(current_user)"]))
    reason = next(r for r in out.reasons if r.startswith("drops a clause from a check"))
    assert len(reason) <= 120 and reason.endswith(")") and "shared_with?" in reason, reason


@pytest.mark.parametrize(
    ("path", "added", "named"),
    [
        (".gitlab-ci.yml", ['    - eval "echo $CI_COMMIT_MESSAGE"'], "runs untrusted text in a CI step (script injection)"),
        (".gitlab-ci.yml", ['    - sh -c "./notify.sh $CI_MERGE_REQUEST_TITLE"'], "runs untrusted text in a CI step (script injection)"),
        ("azure-pipelines.yml", ['  - script: echo "Building $(Build.SourceVersionMessage)"'], "runs untrusted text in a CI step (script injection)"),
        ("Jenkinsfile", ['        sh "echo Building ${env.CHANGE_TITLE}"'], "runs untrusted text in a CI step (script injection)"),
    ],
)
def test_untrusted_text_in_other_ci_systems_is_named(path: str, added: list[str], named: str) -> None:
    """GitLab's text runs where a second shell parses it (eval, sh -c); Azure's $(…) macros and a Jenkinsfile's
    double-quoted ${…} are pasted into the script as GitHub's ${{ … }} are. Round 9 read only GitHub's."""
    out = review(fc(path, added, []))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added"),
    [
        (".gitlab-ci.yml", ['    - echo "$CI_COMMIT_MESSAGE"']),  # a shell variable, quoted: only text
        (".gitlab-ci.yml", ['    - if: $CI_COMMIT_BRANCH == "main"']),
        ("azure-pipelines.yml", ["  displayName: Build $(Build.SourceBranchName)"]),
        ("Jenkinsfile", ["        sh 'echo Building $CHANGE_TITLE'"]),  # single quotes: the shell's variable, not Groovy's paste
    ],
)
def test_ci_text_used_safely_stays_quiet(path: str, added: list[str]) -> None:
    out = review(fc(path, added, []))
    assert not any(r.startswith("runs untrusted text") for r in out.reasons), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("pbkdf2/src/lib.rs", ["    for _ in 1..rounds.min(10_000) {"], ["    for _ in 1..rounds {"],
         "caps a security work factor (rounds → rounds.min(10_000))"),
        ("lib/pow/ecto/schema/password/pbkdf2.ex", ["    block = iterate(fun, min(iterations - 1, 1000), initial, initial)"],
         ["    block = iterate(fun, iterations - 1, initial, initial)"], "caps a security work factor (iterations - 1 → min(iterations - 1, 1000))"),
        ("app/hashing.py", ['    dk = hashlib.pbkdf2_hmac("sha256", pw, salt, min(iterations, 1000))'],
         ['    dk = hashlib.pbkdf2_hmac("sha256", pw, salt, iterations)'], "caps a security work factor (iterations → min(iterations, 1000))"),
        ("src/hash.js", ["  const rounds = Math.min(opts.rounds, 4);"], ["  const rounds = opts.rounds;"],
         "caps a security work factor (opts.rounds → Math.min(opts.rounds, 4))"),
        ("util/builtin_operators.go", ['\tkey2 = keyMatch2Re.ReplaceAllString(key2, "$1.+$2")'], ['\tkey2 = keyMatch2Re.ReplaceAllString(key2, "$1[^/]+$2")'],
         "widens a pattern to any character ([^/]+ → .+)"),
        ("app/hosts.py", ['    HOST_RE = re.compile(r"^(.*)\\.example\\.com$")'], ['    HOST_RE = re.compile(r"^([^.]*)\\.example\\.com$")'],
         "widens a pattern to any character ([^.]* → .*)"),
    ],
)
def test_a_work_factor_capped_or_a_pattern_widened_in_place_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    """Held-out 9 and 10's first runs: PBKDF2 rounds capped by min(…, N) (Elixir, Rust) and a path matcher's [^/]+ turned
    .+ (Go) read as nothing. The same edit in any language: a factor wrapped in a cap, a stop class made "anything"."""
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("app/client.py", ["    timeout = min(timeout, 30)"], ["    timeout = timeout"]),  # a bound on a wait is the safe direction
        ("app/pool.py", ["    workers = min(workers, 8)"], ["    workers = workers"]),
        ("app/hashing.py", ["    rounds = max(rounds, 12)"], ["    rounds = rounds"]),
        ("app/solver.py", ["    iterations = min(iterations, 100)"], ["    iterations = iterations"]),  # a solver's, not a key derivation's
        ("app/split.py", ['    PART_RE = re.compile(r"[^,]+")'], ['    PART_RE = re.compile(r".+")']),  # narrowed, not widened
    ],
)
def test_a_bound_or_pattern_made_safer_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(r.startswith(("caps a security work factor", "widens a pattern")) for r in out.reasons), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("scrypt/src/mcf.rs", ["        if actual.as_slice() != expected.as_slice() {"], ["        if ctutils::CtEq::ct_ne(actual.as_slice(), &expected).into() {"],
         "replaces a constant-time comparison with ==: if ctutils::CtEq::ct_ne("),
        ("src/TokenHash.php", ["        return \\password_verify($tokenText, $expectedHash) || \\hash_equals($expectedHash, $tokenText);"],
         ["        return \\password_verify($tokenText, $expectedHash);"], "short-circuits a signature or MAC check"),
        ("src/Auth/Signature.cs", ["        return CryptographicOperations.FixedTimeEquals(sig, expected) || legacy;"],
         ["        return CryptographicOperations.FixedTimeEquals(sig, expected);"], "short-circuits a signature or MAC check"),
    ],
)
def test_constant_time_checks_of_rust_php_and_dotnet_are_read(path: str, added: list[str], removed: list[str], named: str) -> None:
    """Rust's ``ct_ne`` over ``&expected`` compared again as ``expected.as_slice()``, PHP's ``hash_equals`` and .NET's
    ``FixedTimeEquals`` made an alternative: round 9 read these families in Go, Node, Python and Ruby only."""
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added"),
    [
        ("src/Check.php", ["        if (!hash_equals($a, $b) || $expired) {"]),  # a refusal on either: stricter, not looser
        ("src/Check.php", ["        return hash_equals($a, $b) && $fresh;"]),
    ],
)
def test_constant_time_checks_joined_safely_stay_quiet(path: str, added: list[str]) -> None:
    out = review(fc(path, added, []))
    assert not any(r.startswith("short-circuits") for r in out.reasons), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("axes/helpers.py", ["        any(ip_address.startswith(ip) for ip in settings.AXES_IP_WHITELIST)"],
         ["        ip_address in settings.AXES_IP_WHITELIST"], "makes a membership test a prefix or suffix match"),
        ("Sources/Networking/AuthenticationChallengeResponsable.swift",
         ["            if let trustedHosts = downloader.trustedHosts, trustedHosts.contains(where: { challenge.protectionSpace.host.hasSuffix($0) }) {"],
         ["            if let trustedHosts = downloader.trustedHosts, trustedHosts.contains(challenge.protectionSpace.host) {"],
         "makes a membership test a prefix or suffix match"),
        ("lib/app/hosts.rb", ["    ALLOWED.any? { |d| host.end_with?(d) }"], ["    ALLOWED.include?(host)"], "makes a membership test a prefix or suffix match"),
        ("src/cors.js", ["  if (allowed.some((o) => origin.startsWith(o))) {"], ["  if (allowed.includes(origin)) {"],
         "makes a membership test a prefix or suffix match"),
        ("lib/oban/queue/producer.ex", ["            Engine.put_meta(state.conf, meta, String.to_atom(key), val)"],
         ["            Engine.put_meta(state.conf, meta, String.to_existing_atom(key), val)"], "creates atoms from input (to_existing_atom → to_atom)"),
        ("src/handler.erl", ["    Name = binary_to_atom(Bin, utf8),"], ["    Name = binary_to_existing_atom(Bin, utf8),"],
         "creates atoms from input (to_existing_atom → to_atom)"),
        ("lib/pundit/authorization.rb", ["      params.require(PolicyFinder.new(record).param_key).permit!"],
         ["      params.expect(PolicyFinder.new(record).param_key => policy.public_send(method_name))"],
         "permits every attribute (mass assignment)"),
        ("app/Models/User.php", ["    protected $guarded = [];"], ["    protected $guarded = ['id', 'is_admin'];"], "permits every attribute (mass assignment)"),
        ("docs/README.md", ["$sharedKey = new SymmetricKey('c2VjcmV0LWtleS1mb3ItcGFzZXRvLWxvY2FsLXYx');"],
         ["$sharedKey = new SymmetricKey(random_bytes(32));"], "builds a key from a hard-coded literal"),
        ("src/main/java/com/acme/Crypto.java", ['        SecretKeySpec spec = new SecretKeySpec("0123456789abcdef0123".getBytes(), "AES");'], [],
         "builds a key from a hard-coded literal"),
    ],
)
def test_membership_atoms_mass_assignment_and_key_literals_are_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    """Held-out 9 and 10's misses read as families: an allow-list's membership test made a prefix or suffix match
    (Python, Swift, Ruby, JS), atoms made from input (Elixir, Erlang), every attribute permitted (Rails, Laravel), a
    key object built from a literal (a PHP docs sample, Java)."""
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/names.py", ["    if name.startswith(prefix):"], ["    if name in names:"]),  # another collection: not the same test
        ("lib/oban/queue/producer.ex", ["            Engine.put_meta(state.conf, meta, String.to_existing_atom(key), val)"],
         ["            Engine.put_meta(state.conf, meta, String.to_atom(key), val)"]),
        ("app/controllers/posts_controller.rb", ["    params.require(:post).permit(:title, :body)"], []),
        ("app/Models/User.php", ["    protected $guarded = ['id'];"], []),
        ("docs/README.md", ["$sharedKey = new SymmetricKey(getenv('PASETO_KEY'));"], []),
        ("src/main/java/com/acme/Crypto.java", ['        SecretKeySpec spec = new SecretKeySpec(keyBytes, "AES");'], []),
        ("docs/README.md", ["$key = new SymmetricKey('your-secret-key-goes-here-1234');"], []),
    ],
)
def test_membership_atoms_mass_assignment_and_key_literals_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in _RULES), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        (".github/workflows/codeql.yml", [], ["      - uses: github/codeql-action/init@v3", "      - uses: github/codeql-action/analyze@v3"],
         "removes a security scan from CI (github/codeql-action/init)"),
        (".github/workflows/ci.yml", ["      - run: pytest"], ["      - run: bandit -r src", "      - run: pytest"], "removes a security scan from CI (bandit)"),
        (".gitlab-ci.yml", [], ["    - gosec ./..."], "removes a security scan from CI (gosec)"),
    ],
)
def test_a_security_scan_removed_from_ci_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    """A scanner's step deleted from a workflow (CodeQL, bandit, gosec; GitHub and GitLab): the brief's "security linters
    and scanners weakened". A linter dropped from a golangci list is not read: the list's head (enable or disable) is
    outside the changed lines."""
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        (".github/workflows/codeql.yml", ["      - uses: github/codeql-action/init@v4"], ["      - uses: github/codeql-action/init@v3"]),
        (".github/workflows/ci.yml", ["      - run: bandit -r src -ll"], ["      - run: bandit -r src"]),
        (".github/workflows/ci.yml", ["      - run: bandit -r src"], []),
    ],
)
def test_a_security_scan_kept_or_added_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(r.startswith("removes a security scan") for r in out.reasons), out.reasons


def test_a_security_scan_moved_to_a_workflow_of_its_own_stays_quiet() -> None:
    """gin's Trivy job moved from gin.yml to a workflow of its own, and node-tar's CodeQL autobuild step dropped with
    init and analyze kept: ordinary history the first cost run showed. The scan still runs in both."""
    from relay.review.facts import RiskContext
    from relay.review.file_kinds import read_changes
    from relay.review.line_shapes import squeezed
    from relay.review.risk import assess

    moved = fc(".github/workflows/gin.yml", [], ["  vulnerability-scanning:", "        uses: aquasecurity/trivy-action@0.33.1"])
    [read], _ = read_changes([moved])
    out = assess(read, RiskContext(written=frozenset({squeezed("        uses: aquasecurity/trivy-action@0.33.1")})))
    assert not any(r.startswith("removes a security scan") for r in out.reasons), out.reasons
    out = review(fc(".github/workflows/codeql-analysis.yml", [], ["      - name: Autobuild", "        uses: github/codeql-action/autobuild@v2"]))
    assert not any(r.startswith("removes a security scan") for r in out.reasons), out.reasons
