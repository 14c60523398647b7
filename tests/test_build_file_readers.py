"""Issue 36, round 21 (part B): the one line of a build file, a docs page's install line and a site page's redirect, named.

Held-out 23–26's development misses: a log4j version lowered in a ``dependencies.gradle`` ``ext`` map (22 files, low:
no dependency is named on the line, so the manifests' reader never saw it), ``mavenLocal()`` put first in a settings
script (low, "edit (+2/-0)"), a NuGet API key hard-coded in ``Directory.Build.props`` (an XML property, not the
``key = "…"`` shape the secret reader knew), ``GOINSECURE=… go get`` in a README rewrite (quiet by round 15's rule for
new install lines), ``new URLSearchParams(location.search).get('next')`` sent to ``window.location`` in a site page, and
a CI reason whose quote, centred, was cut by the packet before the ``http://`` feed it names. Each class is tried in
several ecosystems; the look-alikes (a version raised, the project's own or the toolchain's version lowered, a secret
read from the environment, a plain install line, another query parameter) stay quiet.
"""

from __future__ import annotations

import pytest

from relay.review import risky_lines
from relay.review.manifest_lines import manifest_line
from relay.review.report_claims import cut_text as _cut

__all__: list[str] = []  # a test module exports nothing

# (path, removed, added, words the reason holds)
_MANIFEST_PLANTS = [
    ("dependencies.gradle", ['    log4j2Version       = "2.24.3"'], ['    log4j2Version       = "2.14.1"'], ["log4j2Version 2.24.3 → 2.14.1"]),
    ("gradle/libs.versions.toml", ['logback = "1.5.6"'], ['logback = "1.2.3"'], ["logback 1.5.6 → 1.2.3"]),
    ("pom.xml", ["    <log4j2.version>2.17.1</log4j2.version>"], ["    <log4j2.version>2.14.1</log4j2.version>"], ["2.17.1 → 2.14.1"]),
    ("eng/Versions.props", ["    <SystemTextJsonVersion>8.0.5</SystemTextJsonVersion>"],
     ["    <SystemTextJsonVersion>8.0.0</SystemTextJsonVersion>"], ["8.0.5 → 8.0.0"]),
    ("src/Directory.Build.props", ['    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />'],
     ['    <PackageReference Include="Newtonsoft.Json" Version="12.0.1" />'], ["Newtonsoft.Json 13.0.3 → 12.0.1"]),
    ("gradle.properties", ["okhttpVersion=4.12.0"], ["okhttpVersion=3.12.0"], ["okhttpVersion"]),
    ("Dockerfile", ["ARG OPENSSL_VERSION=3.0.13"], ["ARG OPENSSL_VERSION=1.0.2"], ["OPENSSL_VERSION 3.0.13 → 1.0.2"]),
    ("Package.swift", ['        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),'],
     ['        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.4.0"),'], ["swift-nio-ssl 2.27.0 → 2.4.0"]),
    ("go.mod", [], ["replace golang.org/x/net => golang.org/x/net v0.7.0"], ["pins a module"]),
    ("build.gradle.kts", ["    mavenCentral()"], ["    mavenLocal()", "    mavenCentral()"], ["local repository", "mavenLocal()"]),
    ("buildSrc/repositories.settings.gradle.kts", ["    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)"],
     ["    repositoriesMode.set(RepositoriesMode.PREFER_PROJECT)"], ["own repositories"]),
    ("NuGet.config", ["    <clear />"], [], ["machine-wide package feed"]),
]
_MANIFEST_QUIET = [
    ("dependencies.gradle", ['    log4j2Version       = "2.14.1"'], ['    log4j2Version       = "2.24.3"']),  # raised
    ("dependencies.gradle", ['    projectVersion = "4.7.7"'], ['    projectVersion = "4.7.6"']),  # the project's own
    ("gradle/libs.versions.toml", ['jvmTarget = "17"'], ['jvmTarget = "11"']),  # the toolchain's level
    ("pom.xml", ["    <maven.compiler.release>17</maven.compiler.release>"], ["    <maven.compiler.release>11</maven.compiler.release>"]),
    ("Directory.Build.props", ["    <LangVersion>12.0</LangVersion>"], ["    <LangVersion>10.0</LangVersion>"]),
    ("Dockerfile", ["ARG APP_VERSION=2.4.0"], ["ARG APP_VERSION=2.3.9"]),
    ("dependencies.gradle", ['    guavaVersion = "33.2"'], ['    guavaVersion = "33.2.1"']),  # the same release line
    ("go.mod", [], ["replace golang.org/x/net => ../net"]),
    ("build.gradle.kts", [], ["    // mavenLocal() is for local testing only, see CONTRIBUTING"]),
    ("settings.gradle.kts", [], ["    repositoriesMode.set(RepositoriesMode.PREFER_SETTINGS)"]),
    ("Web.config", ["    <clear />"], []),  # another list's <clear />
]


@pytest.mark.parametrize(("path", "removed", "added", "words"), _MANIFEST_PLANTS, ids=[p[0] for p in _MANIFEST_PLANTS])
def test_a_build_files_line_is_named(path: str, removed: list[str], added: list[str], words: list[str]) -> None:
    found = manifest_line(path, added, removed)
    assert found and any(word in found for word in words), found


@pytest.mark.parametrize(("path", "removed", "added"), _MANIFEST_QUIET, ids=[f"{p[0]}:{(p[2] or p[1])[0].strip()[:24]}" for p in _MANIFEST_QUIET])
def test_a_build_files_ordinary_line_stays_quiet(path: str, removed: list[str], added: list[str]) -> None:
    assert manifest_line(path, added, removed) is None


_SECRETS = ["    <NuGetApiKey>oy2hq7rkd3vqfx5e2mz6tlb4wa9ncu8jgs1py0xei3oqhv</NuGetApiKey>", "      <password>Xk29vLp4Qz7m</password>",
            "<gpg.passphrase>Tr0ub4dor73x</gpg.passphrase>"]  # a properties/YAML setting's (signing.password=…) is classic_cells', masked
_NOT_SECRETS = ["    <NuGetApiKey>$(NUGET_API_KEY)</NuGetApiKey>", "      <password>${env.OSSRH_PASSWORD}</password>", "signing.password=",
                "signing.keyId=24875D73", "apiKey = BuildConfig.API_KEY", "password: ${DB_PASSWORD}", "  passwordMinLength: 12",
                "token_expiry=3600s", "<PasswordPolicy>strict</PasswordPolicy>"]


@pytest.mark.parametrize("line", _SECRETS)
def test_a_secret_in_a_build_files_own_shape_is_named(line: str) -> None:
    assert (risky_lines.unsafe_value([line], []) or "").startswith("hard-codes a secret"), line


@pytest.mark.parametrize("line", _NOT_SECRETS)
def test_a_reference_or_an_empty_value_is_no_secret(line: str) -> None:
    assert not (risky_lines.unsafe_value([line], []) or "").startswith("hard-codes a secret"), line


_REDIRECTS = ["    const next = new URLSearchParams(window.location.search).get('next');",
              "  const to = new URLSearchParams(location.search).get(\"returnTo\")", "location.assign(params.get('to'))",
              "window.location.replace(query.redirect)"]


@pytest.mark.parametrize("line", _REDIRECTS)
def test_a_pages_redirect_from_its_own_query_string_is_named(line: str) -> None:
    assert (risky_lines.dangerous_call([line], []) or "").startswith("redirects to a URL the request supplies"), line


def test_another_query_parameter_is_not_a_redirect() -> None:
    assert risky_lines.dangerous_call(["    const tab = new URLSearchParams(window.location.search).get('tab');"], []) is None


_INSTALLS = ["GOINSECURE=charm.land GONOSUMDB=charm.land go get charm.land/lipgloss/v2",
             "$ pip install --trusted-host pypi.acme.example --index-url https://pypi.acme.example/simple acme-client",
             "gem install shopkit -P NoSecurity", "GOFLAGS=-insecure go install example.com/tool@latest"]


@pytest.mark.parametrize("line", _INSTALLS)
def test_a_new_install_line_that_turns_checks_off_is_named_in_a_page(line: str) -> None:
    # Quiet as a high finding in a docs page (round 15: a how-to's new example), said at medium by the instruction reader.
    assert risky_lines.unsafe_value([line], [], prose_too=False) is None
    assert (risky_lines.insecure_instruction([line], []) or "").startswith("tells readers to turn package integrity checks off")


@pytest.mark.parametrize("line", ["go get charm.land/lipgloss/v2", "pip install acme-client", "Set GOINSECURE only for hosts you run yourself."])
def test_a_plain_install_line_or_prose_stays_quiet(line: str) -> None:
    assert risky_lines.insecure_instruction([line], []) is None


def test_a_ci_reason_keeps_the_feed_it_names_when_the_packet_cuts_it() -> None:
    line = "        run: dotnet tool install -g docfx --add-source http://nuget.docfx-mirror.net/v3/index.json"
    reason = risky_lines.unsafe_value([line], []) or ""
    assert reason.startswith("fetches packages from an untrusted index")
    assert "add-source" in _cut(reason, 70) and "http://" in _cut(reason, 110), reason
