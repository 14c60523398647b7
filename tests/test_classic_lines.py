"""Issue 36, round 8: classic risks written in the syntax of ecosystems the older line readers barely read.

The party guarded against is the worker that slips one classic risk into an ordinary change, spelled the way its
ecosystem spells it: an Elixir session decoded with ``binary_to_term``, a Laravel config whose debug falls back to
on, a Dockerfile baked with a development environment, a Maven/Gradle repository or an apt source over plain HTTP,
a download over plain HTTP, a scheme constant downgraded, a skip or fail-open flag, a verifier's error thrown away,
a clock default moved to the far past, a name imported under a safer-sounding alias, an equality weakened to a
prefix match. Each shape below was read as nothing (or stayed low) on round 7's rules; each must now be named and
never low. The near misses are the same syntax used safely and must stay quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_RULES = ("dangerous_call", "unsafe_value", "edits_security_line")



@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # family 1: unsafe decoding and SQL filled by interpolation, in Elixir, Ruby, PHP
        ("lib/app/session/cookie.ex", ["        :erlang.binary_to_term(binary)"], ["        Plug.Crypto.non_executable_binary_to_term(binary)"],
         "deserializes untrusted data: :erlang.binary_to_term(binary)"),
        ("lib/app/search.rb", ["          \"LOWER(#{table}.#{column}) LIKE '%#{term.downcase}%'\""], ["          \"LOWER(#{table}.#{column}) LIKE ?\""],
         "builds SQL from text"),
        ("src/Repo/Users.php", ["        $where = \"name LIKE '%{$term}%'\";"], ["        $where = 'name LIKE ?';"], "builds SQL from text"),
        ("lib/app/repo.ex", ["    Repo.query!(\"DELETE FROM t WHERE id = '#{id}'\")"], ["    Repo.query!(\"DELETE FROM t WHERE id = $1\", [id])"],
         "builds SQL from text"),
        # family 2: settings that open things, in app configs and build files
        ("config/app.php", ["    'debug' => (bool) env('APP_DEBUG', true),"], ["    'debug' => (bool) env('APP_DEBUG', false),"], "turns debug mode on"),
        ("app/Http/Middleware/TrustProxies.php", ["    protected $proxies = '*';"], ["    protected $proxies;"], "trusts proxy headers"),
        ("src/Web/Dockerfile", ["ENV ASPNETCORE_ENVIRONMENT Development"], ["# ENV ASPNETCORE_ENVIRONMENT Development"], "turns debug mode on"),
        ("Dockerfile", ["ENV NODE_ENV=development"], ["ENV NODE_ENV=production"], "turns debug mode on"),
        ("parent/pom.xml", ["      <url>http://oss.sonatype.org/service/local/staging/deploy/maven2/</url>"],
         ["      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>"], "fetches packages over plain HTTP"),
        ("build.gradle", ["  maven { url 'http://repo.mirror.example.net/maven2'; allowInsecureProtocol = true }"], [],
         "fetches packages over plain HTTP"),
        ("build.gradle.kts", ["        isAllowInsecureProtocol = true"], [], "fetches packages over plain HTTP"),
        ("docs/install.md", ["$ echo 'deb [trusted=yes] http://packages.example.io/deb ./' > /etc/apt/sources.list.d/x.list"],
         ["$ curl -SsL -o /etc/apt/sources.list.d/x.list https://packages.example.io/deb/x.list"], "fetches packages over plain HTTP"),
        (".travis.yml", ["  - curl -LSs http://github.com/box-project/box/releases/download/4.3.8/box.phar -o /tmp/box/box"],
         ["  - curl -LSs https://github.com/box-project/box/releases/download/4.3.8/box.phar -o /tmp/box/box"], "downloads over plain HTTP"),
        ("url.go", ['\tprotoHTTPS  = "http://"'], ['\tprotoHTTPS  = "https://"'], "downgrades a scheme to plain HTTP"),
        # a raw output in a Rails engine's example app under spec/ (application code, not a test)
        ("spec/example_app/app/views/products/_show.html.erb", ["      <%= raw field.display_associated_resource %>"],
         ["      <%= field.display_associated_resource %>"], "turns autoescaping off"),
        # a docs sample whose setting carries a comment is code, not a sentence
        ("docs/guides/proxy.mdx", ["app.set('trust proxy', true /* number of proxies between user and server */)"],
         ["app.set('trust proxy', 1 /* number of proxies between user and server */)"], "trusts proxy headers"),
        # Swift Testing's disabled trait on a security test
        ("Tests/JWTTests/X5CTests.swift", ['    @Test("Test expired leaf certificate", .disabled("flaky on CI"))'],
         ['    @Test("Test expired leaf certificate")'], "skips a security test"),
        # family 3: a name under a safer-sounding alias
        ("oauthlib/common.py", ["from random import Random as SystemRandom, getrandbits as randbits"], ["from random import SystemRandom, getrandbits"],
         "imports a name under a safer-sounding alias (Random as SystemRandom)"),
        ("src/token.ts", ["import { fastHash as constantTimeEqual } from './hash';"], ["import { constantTimeEqual } from './hash';"],
         "imports a name under a safer-sounding alias"),
        # family 4: flags that skip checks or fail open, in any casing, in examples too
        ("source/rate-limit.ts", ["\t\tpassOnStoreError: true,"], ["\t\tpassOnStoreError: false,"], "fails open on an error"),
        ("example/idtoken/app.go", ["\t\tSkipClientIDCheck: true,"], ["\t\tClientID: clientID,"], "skips a check by a flag"),
        ("config/jwt.yml", ["  skip_signature_verification: yes"], [], "skips a check by a flag"),
        ("src/client.rs", ["    easy.ssl_verify_peer(false).map_err(Box::new)?;"], ["    easy.ssl_verify_peer(true).map_err(Box::new)?;"],
         "turns TLS verification off"),
        ("httpie/client.py", ["        }.get(args.verify.lower(), False),"], ["        }.get(args.verify.lower(), args.verify),"], "turns TLS verification off"),
        # family 5: equality weakened to a prefix match; a verifier's error thrown away; a clock default at the far past
        ("src/Specifications/CustomerOrders.cs", ["        Query.Where(o => o.BuyerId.StartsWith(buyerId))"], ["        Query.Where(o => o.BuyerId == buyerId)"],
         "weakens an equality to a prefix match (BuyerId)"),
        ("app.js", ["  if (req.path.startsWith('/api/') || req.path === '/ai/llm-camera') {"],
         ["  if (req.path === '/api/upload' || req.path === '/ai/llm-camera') {"], "weakens an equality to a prefix match (path)"),
        ("httpie/cookies.py", ["        return hostname.startswith(_LOCALHOST)"], ["        return hostname == _LOCALHOST or hostname.endswith(_LOCALHOST_SUFFIX)"],
         "weakens an equality to a prefix match (hostname)"),
        ("src/Specifications/CustomerOrders.cs", ["        Query.Where(o => o.BuyerId.StartsWith(buyerId));"], [], "matches an owner by prefix"),
        ("Sources/JWT/Token.swift", ["        try? self.expires.verifyNotExpired()"], ["        try self.expires.verifyNotExpired()"],
         "ignores a verification's failure"),
        ("verify.go", ["\t_ = v.VerifyAudience(claims)"], ["\tif err := v.VerifyAudience(claims); err != nil {"], "ignores a verification's failure"),
        ("Sources/JWT/Claims/Expiration.swift", ["    public func verifyNotExpired(currentDate: Date = .distantPast) throws {"],
         ["    public func verifyNotExpired(currentDate: Date = .init()) throws {"], "moves a clock default to the far past"),
    ],
)
def test_round_eight_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk != "low" and any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("lib/app/session/cookie.ex", ["        :erlang.binary_to_term(binary, [:safe])"], ["        :erlang.term_to_binary(term)"]),
        ("lib/app/session/cookie.ex", ["        Plug.Crypto.non_executable_binary_to_term(binary)"], []),
        ("app/views/items/_show.html.erb", ["<%= raw '<br>' %>"], []),
        ("lib/app/search.rb", ["          where(\"name LIKE ?\", \"%#{term}%\")"], []),
        ("config/app.php", ["    'debug' => (bool) env('APP_DEBUG', false),"], ["    'debug' => (bool) env('APP_DEBUG'),"]),
        ("Dockerfile", ["ENV NODE_ENV=production"], []),
        ("parent/pom.xml", ["      <url>https://oss.sonatype.org/content/repositories/snapshots</url>"], []),
        ("parent/pom.xml", ["    <url>http://www.apache.org/licenses/LICENSE-2.0.txt</url>"], []),
        ("build.gradle", ["  maven { url 'https://repo.example.net/maven2' }"], []),
        ("scripts/check.sh", ["curl -s http://localhost:8080/health -o /dev/null"], []),
        ("scripts/build.sh", ["rm -rf build/tmp || true"], []),
        ("url.go", ['\tprotoHTTPS  = "https://"'], ['\tprotoHTTP  = "http://"']),
        ("env.py", ['HTTPS_PROXY = "http://proxy.internal:3128"'], []),
        ("tsconfig.json", ['    "skipLibCheck": true,'], []),
        ("src/router.js", ["  if (file.name.startsWith('.')) {"], ["  if (file.name[0] === '.') {"]),
        ("src/paths.py", ["    if path.startswith('/static/'):"], ["    if path.endswith('.css'):"]),
        ("lib/liquid/tags/render.rb", ['      if key.start_with?("...") && is_inline'], ['      if key == "..." && is_inline']),
        (".github/workflows/docs-lint.yml", ["      PIP_DISABLE_PIP_VERSION_CHECK: 1"], []),
        ("oauthlib/common.py", ["from random import SystemRandom as _SystemRandom"], []),
        ("src/api.ts", ["import { request as httpRequest } from 'http';"], []),
        ("Sources/JWT/Token.swift", ["        let data = try? JSONEncoder().encode(token)"], []),
        ("Sources/App/Files.swift", ["        let ok = try? url.checkResourceIsReachable()"], []),
        ("httpie/client.py", ["        }.get(args.verify.lower(), True),"], []),
    ],
)
def test_round_eight_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in _RULES), out.reasons
