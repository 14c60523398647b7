"""The one line of a dependency manifest or build file that changes where code comes from or how it is checked (issue 36, round 16 part B).

A manifest a change edits is "dependency manifest" or "build configuration" by its path, and a list of the dependencies
it adds when it adds some: the one line that matters is not named. Held-out 21/22 planted an extra package index in a
``pyproject.toml``, a podspec's source moved from its release tag to a branch, ``unsafeFlags(["-Ounchecked"])`` in a
``Package.swift``; each reason named the file's kind. Each reader here is a family, read in every ecosystem's file:

- ``another_index``: packages taken from an index besides (or instead of) the default one — dependency confusion's
  door: pip/uv ``extra-index-url``/``index-url``/``find-links``, uv's ``[[tool.uv.index]]``, Poetry's
  ``[[tool.poetry.source]]``, Pipenv's ``[[source]]``, an ``.npmrc``/``.yarnrc`` registry, a Gradle ``maven { url … }``,
  a Maven ``<repository>``, a NuGet ``<add key=… value="https://…">``, a Cargo ``[registries]``/``replace-with``, a Gemfile
  ``source`` other than rubygems.org (plain http is ``relay.review.classic_places``' own, read first);
- ``moving_source``: a dependency or a package's own source taken from a git branch (``:branch =>``, ``branch =``,
  ``.branch("…")``, ``…#main``, ``@master``) where a tag, a revision or a version pinned it: what is built changes
  whenever the branch moves;
- ``unchecked_build``: a compiler or runtime flag that turns its safety checks off (Swift ``-Ounchecked`` and
  ``unsafeFlags``, C ``-fno-stack-protector``/``-D_FORTIFY_SOURCE=0``/``-z execstack``, MSVC ``/GS-``, Rust
  ``overflow-checks = false``, Go ``-gcflags=-B``, .NET ``CheckForOverflowUnderflow`` false or ``AllowUnsafeBlocks``,
  the JVM's ``-Xverify:none``, Node's ``--insecure-http-parser``);
- ``any_version`` (round 18 part B): a dependency the removed side pinned to a version now taking any one (Cargo's,
  Poetry's or npm's ``"*"``, ``"latest"``, ``">=0"``, a Gradle coordinate's ``:+``/``latest.release``, NuGet's
  ``Version="*"``): the next release published, a compromised one too, is what builds (a new ``"*"`` dependency, Pipfile's
  usual way of writing one, is quiet);
- ``open_debugger`` (round 18 part B): a debug agent listening on every host (the JVM's ``jdwp`` on ``*:``/``0.0.0.0:``,
  Node's ``--inspect=0.0.0.0``, debugpy's ``--listen 0.0.0.0``): whoever reaches the port runs code in the build.

- ``version_moved_down`` (round 21 part B): a version a build file keeps under a key of its own moved down, the key
  written on both sides — a Gradle ``ext``/``versions`` map (``log4j2Version = "2.24.3"`` → ``"2.14.1"``), a version
  catalogue's ``[versions]``, ``gradle.properties``, a Maven or MSBuild property (``<log4j2.version>``,
  ``<NewtonsoftJsonVersion>``), a ``PackageReference``/``PackageVersion`` in any ``.props``/``.targets``, a Dockerfile's
  ``ARG OPENSSL_VERSION=…``, SwiftPM's ``.package(url: …, from: "…")``, go.mod's
  ``replace m => m v0.1.0`` pinning a module to an older release of itself: the dependency manifests' own reader never
  sees these lines (no dependency is named on them); the project's own version and toolchain levels are not read;
- ``local_repository`` (round 21 part B): packages taken from the machine's own repository (Gradle's ``mavenLocal()``,
  ``RepositoriesMode.PREFER_PROJECT`` where settings failed on project repositories, NuGet's ``<clear />`` dropped so every
  machine-wide feed counts): whatever was installed there, by anything, is what builds.
- ``plugins_allowed`` (round 22 part B): Composer's ``allow-plugins`` made ``true`` or given ``"*": true``: any plugin a
  dependency brings runs its code at install, unasked;
- ``build_step_off`` (round 35): a Maven execution's ``<phase>`` made ``none`` where it ran at a phase, or a skip set
  true (``<skip>``, ``<skipTests>``, ``<gpg.skip>``): the signing, verifying or testing step no longer runs;
- ``checksums_ignored`` (round 22 part B): a repository's ``<checksumPolicy>ignore|warn</checksumPolicy>`` (Maven's
  pom), Gradle's dependency verification made ``off``/``lenient`` (gradle.properties, a build script): an artifact
  whose checksum does not match is used anyway;
- ``open_range`` (round 22 part B): a pinned version made an open-ended range (Maven/Gradle/NuGet ``[1.2,)``, ``(1.2,)``,
  npm/Composer ``>=1.2``, Gradle's ``1.2.+``), the rest of the line unchanged: the newest release the repository
  serves, a compromised one too, is what builds (a bounded range ``[1.2,2.0)`` and a toolchain's ``>=`` stay quiet).

- ``branch_version`` (round 25 part C): a dependency the removed side pinned to a version now following a branch, not a
  release: Composer's ``"dev-master"``/``"1.0.x-dev"``/``"@dev"``, Cargo's ``{ git = "…" }`` with no ``rev``/``tag``,
  npm's ``"owner/repo"``/``"github:owner/repo"`` with no ``#ref``: the branch's next commit is what builds.

- ``wrapper_checksum_dropped`` (round 24): a Gradle or Maven wrapper's ``distributionSha256Sum``/``wrapperSha256Sum``
  removed (not rewritten): the build tool it downloads and runs is no longer checked (medium, by ``downgrades_dependency``).

A line that stands again, squeezed, on the other side was only moved. The readers only name: the rule that quotes them
(``downgrades_dependency``'s row, a manifest's own line) is medium and adds no risk a manifest did not already have.
Ordinary look-alikes stay quiet: the default index written again, a branch pin the file already had, a tag or a
revision pinned, ``-fstack-protector-strong``, ``overflow-checks = true``, a version range a release moves, a debug agent on
localhost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.edit_turns import host_lookalike
from relay.review.file_kinds import BUILD_GLOBS, glob_any, is_manifest
from relay.review.line_shapes import squeezed, window

__all__ = ["any_version", "branch_version", "checksums_ignored", "local_repository", "manifest_line", "open_debugger", "open_range", "plain_source",
           "plugins_allowed", "reads_manifest_lines", "sample_source", "version_moved_down"]

_QUOTE = 60

# Config files that say where packages come from, beside the manifests and build files.
_SOURCE_CONFIGS = (".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", "nuget.config", "*.props", "*.targets", "*.csproj",
                   "*.fsproj", "*.vbproj", ".cargo/config", ".cargo/config.toml", "gemfile", "*.gemspec", "*.podspec", "podfile",
                   "package.swift", "cartfile", "*.gradle", "*.gradle.kts", "libs.versions.toml", "uv.toml", "poetry.toml",
                   "pipfile", "composer.json", "*.bzl", "*.xcconfig", "build.zig")

_ANOTHER_INDEX = re.compile(
    r"(?P<at>\b(?:extra[-_]index[-_]url|index[-_]url|find[-_]links)\b)\s*[=:\s]\s*\[?\s*['\"]?(?:https?|file)://|"
    r"(?P<at2>^\s*\[\[\s*(?:tool\.uv\.index|tool\.poetry\.source|source)\s*\]\])|"
    r"(?P<at3>^\s*(?:@[\w.-]+:)?registry\s*=\s*https?://)|(?P<at4>\bnpmRegistryServer\s*:\s*['\"]?https?://)|"
    r"(?P<at5>\bmaven\s*(?:\{\s*(?:url\s*[=(]?\s*(?:uri\s*\(\s*)?['\"]https?://|setUrl\s*\()|\(\s*(?:url\s*=\s*)?(?:uri\s*\()?\s*['\"]https?://))|"
    r"(?P<at6><(?:plugin)?[Rr]epository>)|(?P<at7><add\s+key\s*=\s*['\"][^'\"]*['\"]\s+value\s*=\s*['\"]https?://)|"
    r"(?P<at8>^\s*\[(?:registries|source)\.[\w-]+\])|(?P<at9>\breplace-with\s*=)|"
    r"(?P<at10>^\s*source\s*\(?\s*['\"]https?://(?!rubygems\.org|gems\.ruby)[^'\"]+['\"])", re.I)
_DEFAULT_INDEX = re.compile(r"https?://(?:pypi\.org|pypi\.python\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|repo1?\.maven\.org|"
                            r"repo\.maven\.apache\.org|api\.nuget\.org|rubygems\.org|index\.crates\.io|crates\.io|repo\.packagist\.org|"
                            r"plugins\.gradle\.org|dl\.google\.com)\b|\b(?:mavenCentral|google|gradlePluginPortal|mavenLocal)\s*\(", re.I)

_BRANCH = r"(?:main|master|develop|dev|devel|trunk|next|nightly|HEAD|canary|edge|latest)"
_MOVING_SOURCE = re.compile(
    r"(?P<at>:branch\s*=>\s*['\"][^'\"]+['\"]|\bbranch\s*[:=]\s*['\"][^'\"]+['\"]|\.branch\s*\(\s*['\"][^'\"]+['\"]\s*\)|"
    r"\bbranch\s*:\s*['\"][^'\"]+['\"])|"
    r"(?P<at2>(?:git\+\S+?|github:[\w.-]+/[\w.-]+|\.git)(?:#|@)" + _BRANCH + r")\b|"
    # A source archive of a branch (Bazel's http_archive, a download URL): GitHub's and GitLab's archive paths (round 25).
    r"(?P<at3>/(?:archive|tarball|zipball|-/archive)/(?:refs/heads/)?" + _BRANCH + r"(?:\.zip|\.tar\.gz|\.tgz|/)?)(?![\w.-])")
_GIT_SOURCE = re.compile(r"\bgit\b|github|gitlab|bitbucket|\.package\s*\(|\bsource\b|_repository\s*\(", re.I)
_PIN = re.compile(r":tag\s*=>|\btag\s*[:=]|\brev(?:ision)?\s*[:=]|\bcommit\s*[:=]|\bexact\s*:|\bfrom\s*:|\.upToNextM\w+\s*\(|"
                  r"\bversion\s*[:=]|@v?\d+\.\d+|#v?\d+\.\d+|@[0-9a-f]{7,40}\b|#[0-9a-f]{7,40}\b|"
                  r"/(?:archive|tarball|zipball)/(?!(?:refs/heads/)?" + _BRANCH + r"\b)[^\s'\"]*(?:%s|\{|\$\{|[0-9a-f]{7,40}|v?\d+\.\d+)")

_TAG_KEY = re.compile(r":(?:tag|commit)\s*=>|^\s*(?:tag|rev|revision|commit)\s*[:=]|[{,]\s*(?:tag|rev|revision|commit)\s*[:=]")

_UNCHECKED = re.compile(
    r"(?P<at>-Ounchecked\b|-enforce-exclusivity=unchecked\b|\bunsafeFlags\s*\(|-fno-stack-protector\b|-U_FORTIFY_SOURCE\b|"
    r"-D_FORTIFY_SOURCE=0\b|(?:-z\s*|-Wl,-z,)(?:execstack|norelro)\b|-fcf-protection=none\b|(?<![\w/])/GS-(?!\w)|"
    r"/(?:DYNAMICBASE|NXCOMPAT):NO\b|\boverflow-checks\s*=\s*(?:false|off|no)\b|-C\s*overflow-checks=(?:off|no|false|n)\b|"
    r"-gcflags[= ]['\"]?(?:all=)?[^'\"\s]*-B\b|<CheckForOverflowUnderflow>\s*false\b|<AllowUnsafeBlocks>\s*true\b|"
    r"-Xverify:none\b|-noverify\b|--insecure-http-parser\b|"
    # Cython's index checks compiled out (round 109, blind 213: pykrb5's setup.py directives ``"boundscheck": False``)
    r"(?<![\w-])['\"]?boundscheck['\"]?\s*[:=]\s*False\b)", re.I)


# A dependency's version that takes any release: "*", "latest", ">=0", "x"; Gradle's dynamic ":+" and "latest.release".
_ANY = r"""(?:\*|latest(?:\.(?:release|integration))?|x|>=\s*0(?:\.0)*)"""  # (Gradle's latest.release in a version variable: round 109)
_ANY_VERSION = re.compile(
    r"""^\s*['"]?(?P<name>[A-Za-z@][\w.\-/@]*)['"]?\s*[:=]\s*(?:\{[^}]*\bversion\s*=\s*)?(?P<at>['"]""" + _ANY + r"""['"])|"""
    r"""(?P<at2>['"](?P<name2>[\w.\-]+:[\w.\-]+):(?:\+|latest\.(?:release|integration))['"])|"""
    r"""(?P<at3>Include\s*=\s*['"](?P<name3>[\w.\-]+)['"][^>]*\bVersion\s*=\s*['"]\*['"])""", re.I)
# The JVM's debug agent, Node's inspector, debugpy or delve listening on every interface.
_OPEN_DEBUGGER = re.compile(
    r"(?:-agentlib:|-Xrun)(?P<at2>jdwp[=:][^\s'\"]*\baddress\s*=\s*(?:\*|0\.0\.0\.0|\[?::\]?):\d+)|(?P<at>"
    r"--inspect(?:-brk)?=(?:0\.0\.0\.0|\*|\[?::\]?):?\d*|"
    r"\bdebugpy\b[^\n]*--listen\s+(?:0\.0\.0\.0|\*):\d+|\bdlv\b[^\n]*--listen[= ](?:0\.0\.0\.0)?:\d+)")


def reads_manifest_lines(path: str) -> bool:
    """Whether ``path`` is a file whose lines say where dependencies come from or how the code is built."""
    return is_manifest(path) or glob_any(path, BUILD_GLOBS) or glob_any(path, _SOURCE_CONFIGS)


def _new(added: Sequence[str], removed: Sequence[str]) -> list[str]:
    before = {squeezed(line.strip()) for line in removed}
    return [line for line in added[:400] if line.strip() and squeezed(line.strip()) not in before]


def _hit(pattern: re.Pattern[str], line: str) -> str | None:
    found = pattern.search(line)
    if found is None:
        return None
    for name in pattern.groupindex:
        if found.start(name) >= 0:
            return window(line, found.start(name), found.end(name), _QUOTE)
    return window(line.strip(), 0, 0, _QUOTE)


def another_index(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"takes packages from another index: …" when a line adds a package index, registry or repository other than
    the ecosystem's default (the default one written is quiet)."""
    lines = _new(added, removed)
    for i, line in enumerate(lines):
        quoted = _hit(_ANOTHER_INDEX, line)
        if not quoted:
            continue
        # A section header or a repository element names its URL on a following line: quote that line, read it.
        follow = next((nxt for nxt in lines[i + 1:i + 5] if re.search(r"https?://|file://", nxt)), "") if "://" not in line else ""
        if _DEFAULT_INDEX.search(line) or (follow and _DEFAULT_INDEX.search(follow)):
            continue
        if "://" not in line and not follow and not re.search(r"replace-with|^\s*\[", line):
            continue
        return f"takes packages from another index: {window(follow.strip(), 0, 0, _QUOTE) if follow else quoted}"
    return None


def moving_source(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"takes a source from a moving branch: …" when a line pins a dependency or the package's own source to a git
    branch (what is built changes whenever the branch moves); "… (was pinned)" when the removed side pinned it."""
    pinned = any(_PIN.search(line) for line in removed)
    # A source's hash split over lines (a podspec's ``:git =>`` above, ``:branch =>`` below): a tag or revision key the
    # removed side had, replaced by a branch key, is the source moved whatever line names the repository.
    tag_replaced = any(_TAG_KEY.search(line) for line in removed)
    for line in _new(added, removed):
        found = _MOVING_SOURCE.search(line)
        if found is None or not (_GIT_SOURCE.search(line) or tag_replaced and found.group("at")) or _PIN.search(line[:found.start()] + line[found.end():]) and not pinned:
            continue
        quoted = _hit(_MOVING_SOURCE, line)
        return f"takes a source from a moving branch{' (was pinned)' if pinned else ''}: {quoted}"
    return None


def unchecked_build(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"turns compiler or runtime safety checks off: …" for a flag that drops bounds, overflow, stack or
    verification checks from what is built or run."""
    for line in _new(added, removed):
        quoted = _hit(_UNCHECKED, line)
        if quoted:
            return f"turns compiler or runtime safety checks off: {quoted}"
    return None


def _version_name(found: re.Match[str]) -> str:
    return (found.group("name") or found.group("name2") or found.group("name3") or "").lower()


def any_version(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"lets a pinned dependency take any version: …" when a dependency the removed side named with a version is now
    ``"*"``, ``"latest"``, ``">=0"`` or a Gradle ``+``."""
    pinned_names = {name for line in removed if re.search(r"\d", line)
                    for name in (n.lower() for n in re.findall(r"[A-Za-z@][\w.\-/@:]*", line)) if len(name) > 1}
    for line in _new(added, removed):
        found = _ANY_VERSION.search(line)
        if found is None:
            continue
        name = _version_name(found)
        if name and (name in pinned_names or name.rsplit(":", 1)[0] in pinned_names or
                     any(p.startswith(name + ":") for p in pinned_names)):
            return f"lets a pinned dependency take any version: {_hit(_ANY_VERSION, line)}"
    return None


def open_debugger(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"opens a debug agent to every host: …" for a JVM, Node, debugpy or delve debugger listening on all interfaces."""
    for line in _new(added, removed):
        quoted = _hit(_OPEN_DEBUGGER, line)
        if quoted:
            return f"opens a debug agent to every host: {quoted}"
    return None


# A version kept under a key: "name = "1.2.3"" (Gradle ext, a catalogue's [versions], properties, YAML), an XML property
# "<name>1.2.3</name>", a package element "Include="Name" … Version="1.2.3"".
_KEYED_VERSION = re.compile(
    r"""^\s*(?:set\s*\(\s*['"]?|(?:val|var|def|const|let|ARG|ENV|export)\s+)?['"]?(?P<key>[A-Za-z][\w.\-]*)['"]?\s*(?:=|:|\s)\s*\(?\s*['"]?v?(?P<ver>\d+(?:\.\d+)+)[\w.\-+]*['"]?\s*\)?\s*[,;]?\s*(?:(?://|#).*)?$|"""
    r"""<(?P<key2>[A-Za-z][\w.\-]*)>\s*v?(?P<ver2>\d+(?:\.\d+)+)[\w.\-+]*\s*</(?P=key2)>|"""
    r"""\b(?:Include|Update)\s*=\s*['"](?P<key3>[\w.\-]+)['"][^>]*?\bVersion\s*=\s*['"]\[?v?(?P<ver3>\d+(?:\.\d+)+)|"""
    # SwiftPM's ".package(url: "…", from: "2.27.0")" (also exact:, .upToNextMajor(from:)), keyed by its URL.
    r"""\.package\s*\(\s*(?:name:\s*"[^"]*",\s*)?url:\s*["'](?P<key4>[^"']+)["'][^)]*?["']v?(?P<ver4>\d+(?:\.\d+)+)""")
# The project's own version and the toolchain's levels move down for reasons of their own (a release reverted, an older
# runtime supported): not a dependency.
_OWN_VERSION_KEY = re.compile(
    r"(?i)^(?:(?:project|app|module|package|plugin|lib|library|assembly|file|informational|product|release|build|current|next|"
    r"previous|base|ext)?[._-]?version(?:[._-]?(?:code|name|prefix|suffix|number))?|\w*(?:sdk|jvm|java|jdk|compiler|lang|target|"
    r"toolchain|framework|dotnet|netcore|node|python|ruby|golang|gradle|xcode|swift|ios|android|macos|api|min|max|schema|"
    r"protocol|format|spec|abi|minimum|maximum)(?:[._-]?(?:version|level))?|\w*(?:source|target|release)[._-]?(?:compatibility|level)?|"
    r"go|rust-version|edition|msrv)$")
_REPLACE_SELF = re.compile(r"^\s*(?:replace\s+)?(?P<mod>[\w.\-]+\.[\w.\-/]+)(?:\s+v(?P<old>\d+(?:\.\d+)+)\S*)?\s*=>\s*(?P=mod)\s+v(?P<new>\d+(?:\.\d+)+)")


def _keyed(line: str) -> tuple[str, tuple[int, ...]] | None:
    found = _KEYED_VERSION.search(line)
    if found is None:
        return None
    key = found.group("key") or found.group("key2") or found.group("key3") or found.group("key4").rsplit("/", 1)[-1].removesuffix(".git")
    ver = found.group("ver") or found.group("ver2") or found.group("ver3") or found.group("ver4")
    if _OWN_VERSION_KEY.match(key):
        return None
    return key, tuple(int(part) for part in ver.split(".")[:4])


def _lower(new: tuple[int, ...], old: tuple[int, ...]) -> bool:
    # "2.2" after "2.2.4" is a range widened to its release line, not a release moved down.
    return new < old and old[:len(new)] != new


def version_moved_down(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"downgrades a dependency: key old → new" for a version kept under a key both sides write, now lower; go.mod's
    replace pinning a module to an older release of itself."""
    before: dict[str, tuple[int, ...]] = {}
    for line in removed[:400]:
        if (found := _keyed(line)) is not None:
            before.setdefault(found[0].lower(), found[1])
    for line in _new(added, removed):
        found = _keyed(line)
        if found is not None and (old := before.get(found[0].lower())) and _lower(found[1], old):
            return f"downgrades a dependency: {found[0][:40]} {'.'.join(map(str, old))} → {'.'.join(map(str, found[1]))}"
        pin = _REPLACE_SELF.search(line)
        if pin and (pin.group("old") is None or _lower(tuple(map(int, pin.group("new").split("."))), tuple(map(int, pin.group("old").split("."))))):
            what = "an older release of itself" if pin.group("old") else "one release of itself (whatever requires it)"
            return f"pins a module to {what}: {window(line.strip(), pin.start(), pin.end(), _QUOTE)}"
    return None


# A Python requirement that stood without an upper bound given one (blind 138's setuptools_scm: ``"setuptools",`` →
# ``"setuptools<65",``): only the releases before it install, fixes after it included.
# The version part starts at an operator (or nothing follows the name): no backtracking between the two on a long line.
_REQUIREMENT = re.compile(r"""^\s*["']?(?P<name>[A-Za-z0-9][\w.\-]*)(?:\[[^\]]*\])?\s*(?P<spec>(?:[<>=!~][^"';#]*)?)["']?\s*,?\s*(?:#.*)?$""")
_CAP = re.compile(r"<=?\s*(?P<v>\d[\w.]*)")  # not ``==``: pinning every requirement is an application's own practice


def capped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"caps a dependency below a release …" for a requirement that named no version, the same line given an upper bound
    (a range given its upper end, ``>=3.6, <=5``, is a tuning as often; a file rewritten is read by its lines, not this)."""
    before = {"".join(line.split()) for line in removed[:400] if len(line) <= 200 and (m := _REQUIREMENT.match(line)) and not m.group("spec").strip()}
    for line in _new(added, removed)[:400] if before else ():
        m = _REQUIREMENT.match(line) if len(line) <= 200 else None
        cap = _CAP.search(m.group("spec")) if m is not None else None
        if cap is not None and "".join((line[:m.start("spec") + cap.start()] + line[m.start("spec") + cap.end():]).split()) in before:
            return f"caps a dependency below {cap.group('v')} (only older releases install, later fixes left out): {window(line.strip(), m.start('name'), m.end(), _QUOTE)}"
    return None


_MAVEN_LOCAL = re.compile(r"(?<![\w.])mavenLocal\s*\(\s*\)")
_PREFER_PROJECT = re.compile(r"\bRepositoriesMode\.PREFER_PROJECT\b")
_STRICT_MODE = re.compile(r"\bRepositoriesMode\.(?:FAIL_ON_PROJECT_REPOS|PREFER_SETTINGS)\b")
_CLEAR = re.compile(r"^\s*<clear\s*/>\s*$")


def local_repository(added: Sequence[str], removed: Sequence[str], *, feeds: bool = False) -> str | None:
    """"takes packages from the machine's local repository: …" for a new ``mavenLocal()``; "lets each project declare its
    own repositories: …" for settings that failed on them made to prefer them; "lets every machine-wide package feed
    in: removes <clear />" for NuGet's list no longer cleared (``feeds``: the file is a nuget.config; elsewhere ``<clear />``
    empties other lists)."""
    for line in _new(added, removed):
        if _MAVEN_LOCAL.search(line) and not line.lstrip().startswith(("//", "#", "*")):
            return f"takes packages from the machine's local repository (~/.m2, whatever was installed there): {_hit(_MAVEN_LOCAL, line)}"
        if _PREFER_PROJECT.search(line) and any(_STRICT_MODE.search(old) for old in removed):
            return f"lets each project declare its own repositories: {_hit(_PREFER_PROJECT, line)}"
    if feeds and any(_CLEAR.match(line) for line in removed) and not any(_CLEAR.match(line) for line in added):
        return "lets every machine-wide package feed in: removes <clear />"
    return None


_ALL_PLUGINS = re.compile(r'(?P<at>"allow-plugins"\s*:\s*true\b|^\s*"\*"\s*:\s*true\b)')
_CHECKSUMS_OFF = re.compile(
    r"(?P<at><checksumPolicy>\s*(?:ignore|warn)\s*</checksumPolicy>|"
    r"\bdependency[.-]verification\s*[=:]?\s*['\"]?(?:off|lenient)\b|\bDependencyVerificationMode\.(?:OFF|LENIENT)\b|"
    r"(?<![\w-])(?:--lax-checksums|-c)(?=\s*$)|\bchecksumPolicy\s*=\s*['\"]?(?:ignore|warn)\b)")


def plugins_allowed(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"lets any dependency's plugins run code at install: …" for Composer's ``allow-plugins`` made ``true`` or a ``"*": true`` entry."""
    if not path.lower().endswith("composer.json"):
        return None
    for line in _new(added, removed):
        if quoted := _hit(_ALL_PLUGINS, line):
            return f"lets any dependency's plugins run code at install: {quoted}"
    return None


# A Maven execution unbound (``<phase>none</phase>``, the idiom that turns one off) where it ran at a phase, or a plugin's
# or a property's skip switched on: a signing, verifying, enforcing or testing step of the build no longer runs.
_PHASE_RE = re.compile(r"^\s*<phase>\s*(?P<phase>[\w-]+)\s*</phase>")
_SKIP_ON_RE = re.compile(r"^\s*<(?P<key>skip\w*|[\w.-]+\.skip)>\s*true\s*</")


def build_step_off(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"turns a build step off: …" for an execution's phase made ``none`` where it had one, or a skip set true that the
    removed side did not set."""
    was = [m.group("phase") for line in removed if (m := _PHASE_RE.match(line)) and m.group("phase") != "none"]
    if was:
        for line in added:
            if (m := _PHASE_RE.match(line)) and m.group("phase") == "none":
                return f"turns a build step off (its phase made none, was {was[0]}): {line.strip()}"
    before = {squeezed(line.strip()) for line in removed}
    for line in _new(added, removed):
        if _SKIP_ON_RE.match(line) and squeezed(line.strip()) not in before:
            return f"turns a build step off: {line.strip()[:_QUOTE]}"
    return None


def checksums_ignored(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"uses artifacts whose checksum fails: …" for a checksum policy made ignore/warn or dependency verification made off."""
    for line in _new(added, removed):
        if not line.lstrip().startswith(("//", "#", "<!--")) and (quoted := _hit(_CHECKSUMS_OFF, line)):
            return f"uses artifacts whose checksum fails: {quoted}"
    return None


# A pinned version (an exact one, ^ or ~) and the open-ended range that may replace it; a platform's own key is not read.
_PINNED = r"""(?:==|[\^~]|=)?\s*v?\d+(?:\.\d+)*[\w.\-+]*"""
_OPEN = re.compile(r"""(?P<at>[\[(]\s*v?\d[\w.\-]*\s*,\s*\)|>=?\s*v?\d[\w.\-]*(?![\w.\-]*\s*,?\s*<)|(?<![\w.])\d+(?:\.\d+)*\.\+)""")
_PLATFORM_KEY = re.compile(r"""(?i)['"](?:node|npm|yarn|pnpm|php|python|ruby|go|rust|java|hhvm|ext-[\w-]+|lib-[\w-]+|composer(?:-\w+)?)['"]\s*:|"""
                           r"""require\w*Version|enforcer|<(?:maven|java|jdk)""")


def open_range(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"lets a pinned dependency take any newer version (open range): …" when a line that pinned a version now says the
    same with an open-ended range in its place."""
    olds = {re.sub(_PINNED, "#", squeezed(line.strip())): line for line in removed[:400] if re.search(r"\d", line)}
    for line in _new(added, removed) if olds else ():
        found = _OPEN.search(line)
        if found is None or _PLATFORM_KEY.search(line):
            continue
        text = line.strip()
        at = found.start() - (len(line) - len(line.lstrip()))
        old = olds.get(re.sub(_PINNED, "#", squeezed(text[:at] + "0" + text[at + len(found.group()):])))
        if old is not None and not _PLATFORM_KEY.search(old):
            return f"lets a pinned dependency take any newer version (open range): {_hit(_OPEN, line)}"
    return None


# A dependency's constraint that names a branch (Composer's ``dev-*``, ``*.x-dev``, ``@dev``), a git source with no
# revision (Cargo's ``git =`` alone), or a repository with no ref (npm's ``owner/repo``, ``github:owner/repo``).
_BRANCH_VERSION = re.compile(
    r"""^\s*['"](?P<name>[\w.\-/@]+)['"]\s*:\s*(?P<at>['"](?:dev-[\w./-]+|[\w.]*\.x-dev|[\w.\-]*@dev|(?:github:)?[\w.-]+/[\w.-]+)['"])|"""
    r"""^\s*(?P<name2>[\w.-]+)\s*=\s*\{(?P<at2>[^}]*\bgit\s*=\s*['"][^'"]+['"][^}]*)\}""")
_GIT_REV = re.compile(r"\b(?:rev|tag|version)\s*=")


def branch_version(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"pins a dependency to a moving branch, not a version: …" when a dependency the removed side named with a version
    now follows a branch (``"dev-master"``), a git source with no revision, or a repository with no ref."""
    pinned = {m.group(1).lower() for line in removed[:400] if re.search(r"\d", line)
              and (m := re.match(r"""^\s*['"]?([\w.\-/@]+)['"]?\s*[:=]\s*(?:\{[^}]*\bversion\s*=\s*)?['"][\^~>=<]*\s*v?\d+\.\d""", line))}
    for line in _new(added, removed) if pinned else ():
        found = _BRANCH_VERSION.search(line)
        if found is None or (found.group("at2") and _GIT_REV.search(found.group("at2"))):
            continue
        if (found.group("name") or found.group("name2") or "").lower() in pinned:
            return f"pins a dependency to a moving branch, not a version (unpinned): {window(line.strip(), 0, 0, _QUOTE)}"
    return None


# A build wrapper's checksum of what it downloads (Gradle's and Maven's wrapper properties, round 24).
_WRAPPER_PATH = re.compile(r"(?:^|/)(?:gradle|maven|mvn)-wrapper\.properties$")
_WRAPPER_SUM = re.compile(r"^\s*(?P<key>distributionSha256Sum|wrapperSha256Sum)\s*[=:]")


def wrapper_checksum_dropped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops the build wrapper's checksum (…)" for a wrapper's ``distributionSha256Sum``/``wrapperSha256Sum`` removed and
    written nowhere in what the change adds: the distribution it downloads and runs is no longer checked."""
    if not _WRAPPER_PATH.search(path):
        return None
    kept = {m.group("key") for line in added[:400] if (m := _WRAPPER_SUM.match(line))}
    for line in removed[:400]:
        if (m := _WRAPPER_SUM.match(line)) and m.group("key") not in kept:
            return f"drops the build wrapper's checksum (the distribution it downloads and runs is no longer verified): removed: {line.strip()[:_QUOTE]}"
    return None


# A package's or a dependency's source fetched over a protocol that neither encrypts nor authenticates the server
# (round 29): ``git://`` (the git daemon), or plain ``http://`` for a repository, a tarball or a registry — a podspec's
# ``s.source``, a gemspec's or Gemfile's ``git:``, Package.swift's ``.package(url:``, Cargo's ``git =``, a Podfile's
# or a Cartfile's ``git``/``binary`` line. Whoever is on the path serves the code that ships. A homepage, a
# documentation or license link, a namespace, a local host stay quiet.
_PLAIN_SOURCE = re.compile(r"(?P<at>\bgit://[\w.-]+|(?<![\w+])http://(?!localhost\b|127\.|0\.0\.0\.0|\[::1\])[\w.-]+)")
_SOURCE_KEY = re.compile(r"(?i)\b(?:source|git|url|repo(?:sitory)?|registry|index(?:-url)?|tarball|download\w*|http|binary|mirror|"
                         r"package|dependency|pod|gem|github)\b|\.package\s*\(|^\s*(?:replace|require|git|binary|github)\b")
_LINK_KEY = re.compile(r"(?i)\b(?:homepage|home_?page|documentation|docs?_?url|license\w*|author\w*|bugs?|issues?|changelog\w*|"
                       r"social\w*|screenshots?|funding|wiki|metadata|email|xmlns|schema\w*|website)\b|\$schema|w3\.org|xmlns")


def plain_source(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"fetches a package source over an unauthenticated protocol (git:// or http://): …" for a new manifest line whose
    source, repository or download is a ``git://`` or plain ``http://`` URL (see above)."""
    for line in _new(added, removed):
        text = line.strip()
        if text.startswith(("//", "#", "<!--", "--")) or (m := _PLAIN_SOURCE.search(text)) is None:
            continue
        if _LINK_KEY.search(text[:m.start()]) or not _SOURCE_KEY.search(text[:m.start()]):
            continue
        scheme = "git://" if m.group("at").startswith("git") else "http://"
        return f"fetches a package source over an unauthenticated protocol ({scheme}: unencrypted, the server unproven): {window(text, m.start(), m.end(), _QUOTE)}"
    return None


def _python_requirements(path: str) -> bool:
    """Whether ``path`` is a Python project's requirements (``capped`` reads their upper bounds)."""
    name = path.lower().rsplit("/", 1)[-1]
    return name in ("pyproject.toml", "setup.cfg", "setup.py") or ("requirements" in name and name.endswith((".txt", ".in", ".pip")))


def manifest_line(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The risky line of a manifest, build or package-source file, named; None for any other file or none found."""
    if (dropped := wrapper_checksum_dropped(path, added, removed)) is not None:
        return dropped
    if not reads_manifest_lines(path):
        return None
    feeds = path.lower().rsplit("/", 1)[-1] == "nuget.config"
    if not added:  # a line removed alone: NuGet's <clear /> (every machine-wide feed counts again)
        return local_repository(added, removed, feeds=feeds)
    return (unchecked_build(added, removed) or open_debugger(added, removed) or plugins_allowed(path, added, removed)
            or checksums_ignored(added, removed) or build_step_off(added, removed) or moving_source(added, removed) or any_version(added, removed)
            or branch_version(added, removed) or open_range(added, removed) or another_index(added, removed) or local_repository(added, removed, feeds=feeds)
            or version_moved_down(added, removed) or plain_source(added, removed) or (capped(added, removed) if _python_requirements(path) else None)
            or (secret_published(added) if path.lower().endswith("package.json") else None) or host_lookalike(added, removed))


# A credentials file listed among what npm publishes, one entry a line (round 117, blind 375's negotiator: ``".npmrc",`` added
# under ``"files": [``): the registry token in it ships in every tarball. On one line, relay.review.written_slips reads it.
_SECRET_ENTRY_RE = re.compile(r"""^\s*["'](?:\./)?(?P<f>\.npmrc|\.env|\.pypirc|\.netrc|\.git-credentials|id_rsa|id_ed25519)["']\s*,?\s*$""")


def secret_published(added: Sequence[str]) -> str | None:
    for line in added[:400]:
        if (m := _SECRET_ENTRY_RE.match(line)) is not None:
            return f"publishes a credentials file with the package ({m.group('f')}): {line.strip()}"
    return None


def sample_source(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A docs sample's dependency line moved from a pinned version to a moving branch (round 20 part B: a README's
    ``.package(url: …, .upToNextMajor(from: "4.0.0"))`` made ``branch: "master"``): what a reader copies follows the
    branch. Only a pin replaced: a page that has always shown a branch is the project's own choice."""
    found = moving_source(added, removed)
    return found if found and "(was pinned)" in found else None
