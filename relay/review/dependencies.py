"""What a manifest edit does to the project's dependencies: names read per manifest family.

``relay.review.rules`` asks whether an edit adds a dependency (``new_dependencies``) or touches a
dependency line at all (``touches_dependencies``); the change set as a whole says which names moved
between manifests (``moved_dependencies``); the project's unchanged manifests say which names it
already had (``existing_dependencies``, read only when the change adds a manifest).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

from relay.core.contracts import FileChange
from relay.review.file_kinds import glob_any, is_bare_requirements, is_lockfile, is_manifest
from relay.review.line_shapes import near, squeezed, window
from relay.review.name_pairs import alias_lookalike, dep_key, glyph_twins, next_version, owner_lookalike, real_pair, scoped_move
from relay.review.sample_code import code_spans, install_command, installed_names, screen
from relay.review.setup_lines import lockfile_source
from relay.review.words import DOCS_BUILD_DIRS, MIXED_MANIFESTS, NOT_DEPS, POPULAR_PACKAGES

__all__ = ["dep_key", "dep_names", "installed_lookalike", "looks_alike", "existing_dependencies", "lookalike_action", "lookalike_new", "lookalike_rename", "lookalike_replace", "popular_renamed", "moved_dependencies", "new_dependencies", "removed_guard_dependency", "replaced_elsewhere", "touches_dependencies"]

# Per manifest family: how a dependency line names its package. Versions are ignored so a
# bump reads as "changed", not as "new" (composer's "dev-master" is a branch taken as a version).
_VERSIONISH = r"""["']?\s*(?:[\^~<>=!*]|\d|v\d|latest|next|dev-|workspace:|file:|link:|git|github:|npm:|https?:|\{)"""
_DEP_PATTERNS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("package.json", "composer.json", "bower.json", "deno.json", "deno.jsonc"),
     re.compile(r"""^\s*"(?P<name>@?[A-Za-z0-9][\w.\-/@]*)"\s*:\s*""" + _VERSIONISH)),
    (("*requirements*.txt", "*requirements*.in", "requirements/**.txt", "requirements/**.in", "*constraints*.txt", "*requirements*.pip"),
     re.compile(r"^\s*(?P<name>[A-Za-z0-9][\w.\-]*)\s*(?:\[[^\]]*\])?\s*(?:[=<>~!]=?|@|;|$)")),
    # Mixed files (tool settings live beside dependencies): only a versioned requirement ("httpx>=0.27", requests = "^2",
    # serde = { version = "1" }) counts, never a bare quoted word or a number, which are far more often settings ("E501",
    # timeout = 30). An inline table holds a key (``serde = { version = "1" }``), not setup.py's ``project_urls = {`` (blind 144).
    (("pyproject.toml", "setup.py", "setup.cfg", "pipfile", "cargo.toml", "tox.ini"),
     re.compile(r"""^\s*["']?(?P<name>[A-Za-z0-9][\w.\-]*)(?:\[[^\]]*\])?\s*(?:(?:[=<>~!]=|[<>])\s*\d|=\s*(?:["'][\^~<>=!*]*\s*\d|\{\s*[\w.\-]+\s*=))""")),
    (("environment.yml", "environment.yaml"), re.compile(r"^\s*-\s*(?P<name>[A-Za-z0-9][\w.\-]*)\s*(?:[=<>]|$)")),
    (("go.mod",), re.compile(r"^\s*(?:require\s+)?(?P<name>[\w.\-]+\.[\w.\-/]+)\s+v\d")),
    (("gemfile", "gemfile.*", "*.gemspec", "*.gemfile", "*.podspec"),
     # The block's variable is the author's choice: s, spec, gem ("gem.add_dependency" in secure_headers.gemspec).
     re.compile(r"""^\s*(?:gem|\w+\.add_\w*dependency|\w+\.dependency)\s*\(?\s*["'](?P<name>[^"']+)""")),
    (("pom.xml",), re.compile(r"<artifactId>\s*(?P<name>[^<\s]+)\s*</artifactId>")),
    (("build.gradle", "build.gradle.kts"),
     # "group:artifact:1.0", or the map notation (Groovy's group: 'g', name: 'a', version: '1.0'; the Kotlin DSL's
     # group = "g", name = "a", version = "1.0"), named by its artifact (round 24: jackson-databind 2.21.2 → 2.9.8).
     re.compile(r"""^\s*(?:implementation|api|compile\w*|runtimeOnly|testImplementation|testRuntimeOnly|kapt|annotationProcessor|classpath)\s*\(?\s*"""
                r"""(?P<map>group\s*[:=]\s*["'][^"']+["']\s*,\s*name\s*[:=]\s*)?["'](?P<name>[^:"']+(?(map)|:[^:"']+))""")),
    # Gradle's version catalogue: "name = { module = "group:artifact", version.ref = "v" }", or "name = "group:artifact:1.0"".
    (("*.versions.toml",), re.compile(r"""(?:\bmodule\s*=\s*|^\s*[\w.-]+\s*=\s*)["'](?P<name>[\w.\-]+:[\w.\-]+)(?::[^"']*)?["']""")),
    (("*.csproj", "*.fsproj", "*.vbproj", "directory.packages.props", "packages.config"), re.compile(r"""(?:PackageReference|PackageVersion|package)\s+(?:Include|id)="(?P<name>[^"]+)\"""")),
    (("cartfile", "cartfile.private"), re.compile(r'^\s*(?:github|git|binary)\s+"(?P<name>[^"]+)"')),
    (("pubspec.yaml", "mix.exs", "package.swift", "podfile", "*.cabal", "shard.yml"),
     re.compile(r"""^\s*(?:\{:|pod\s+["']|\.package\(\s*url:\s*["'])?(?P<name>[A-Za-z0-9][\w.\-/:]*)["']?\s*[:,]\s*""" + _VERSIONISH)),
)


def dep_names(path: str, lines: Iterable[str]) -> set[str]:
    """The dependency names that ``lines`` of the manifest ``path`` declare (lowercased)."""
    for globs, pattern in _DEP_PATTERNS:
        if glob_any(path, globs) or (globs is _DEP_PATTERNS[1][0] and is_bare_requirements(path)):
            break
    else:
        return set()
    names: set[str] = set()
    for line in lines:
        if line.lstrip().startswith(("#", "//", "-r ", "-c ", "--")):
            continue
        found = pattern.search(line)
        if found and found.group("name").lower() not in NOT_DEPS:
            names.add(found.group("name").lower())
        if _PEP621_LIST_RE.match(line) and path.endswith("pyproject.toml"):  # its key says each item is one (round 117, blind 378)
            names |= {m.group("name").lower() for m in _LISTED_RE.finditer(line.split("[", 1)[1])} - NOT_DEPS
    return names


def new_dependencies(c: FileChange, moved: frozenset[str], known: frozenset[str]) -> list[str]:
    """Names an edit of a shipped manifest adds that it did not remove, that no other manifest of
    the change removed (``moved``) and, for a new manifest, that the project did not already
    declare (``known``); sorted."""
    if not is_manifest(c.path) or DOCS_BUILD_DIRS.intersection(c.path.lower().split("/")[:-1]):
        return []
    gone = {dep_key(name) for name in dep_names(c.path, c.removed_lines)} | moved | (known if c.kind == "added" else set())
    return sorted(name for name in dep_names(c.path, c.added_lines) if dep_key(name) not in gone)


# A name as a dependency line writes it: letters, digits and the separators package names use.
# Taken whole (an atomic group): a Gradle coordinate's group ("com.squareup.okhttp3:okhttp") is one name, never cut back to
# "com.squareup.okhttp" so as to stand before something other than ":"; a key ("name: …") is left out.
_NAME_TOKEN_RE = re.compile(r"(?>[A-Za-z0-9](?:[\w.\-/@]*\w)?)(?!:(?:\s|$|//))")
# A file name, not a package (LICENSE.rst → LICENSE.txt); a group id (org.example.json) has more dots than a file name.
_FILE_NAME_RE = re.compile(r"(?i)\.(?:rst|txt|md|markdown|cfg|ini|toml|json|ya?ml|lock|py|js|ts|rb|go|html|css)$")
_VERSION_TOKEN_RE = re.compile(r"^v?\d[\w.\-]*$")
# Bounded, as the worker writes both sides: a squat is a letter off a short name, every removed line is weighed against
# every added one (150 lines a side of 1,000-letter names cost minutes unbounded).
_NAME_MOST, _PAIRS_MOST = 120, 4_000
_GROUP_KEY_RE = re.compile(r"^\s*[\w.-]+\s*=\s*\[\s*$")  # a list's key (a dependency group, an extra): no package's line


def lookalike_rename(c: FileChange) -> str | None:
    """"renames … old → new" when a dependency line of a manifest comes back with its package's name one or two letters
    off (near) and nothing else changed but its version ("colorama" → "coloramma", "faraday-net_http" → "faraday-nethttp"):
    the shape of a typo-squat slipped into a routine bump."""
    if not is_manifest(c.path) or not c.added_lines or not c.removed_lines:
        return None
    removed = [_NAME_TOKEN_RE.findall(line) for line in c.removed_lines if not _GROUP_KEY_RE.match(line)]  # a group's name is no package
    added = [_NAME_TOKEN_RE.findall(line) for line in c.added_lines if not _GROUP_KEY_RE.match(line)]  # (rasterio's ``test = [`` → ``tests = [``)
    names_before = {t for tokens in removed for t in tokens}
    names_after = {t for tokens in added for t in tokens}
    weighed = 0
    for new in added:
        for old in removed:
            if len(old) != len(new) or old == new:
                continue
            if (weighed := weighed + 1) > _PAIRS_MOST:
                return None
            differ = [(a, b) for a, b in zip(old, new) if a != b and not (_VERSION_TOKEN_RE.match(a) and _VERSION_TOKEN_RE.match(b))]
            if len(differ) != 1:
                continue
            a, b = differ[0]
            # Still there beside it, or there before: a dependency added or bumped, not renamed.
            if a in names_after or b in names_before or not 4 <= len(a) <= _NAME_MOST or _VERSION_TOKEN_RE.match(b) or (_FILE_NAME_RE.search(a) and a.count(".") < 2):
                continue
            if re.sub(r"\d", "", a) == re.sub(r"\d", "", b):
                continue  # cp38 → cp39: a version inside a name
            if (dep_key(a) == dep_key(b) and not c.path.endswith((".gradle", ".gradle.kts", "pom.xml"))) or (re.sub(r"[-_.]", "", a.lower()) == re.sub(r"[-_.]", "", b.lower()) and a.lower() != a):
                continue  # pytest_relaxed → pytest-relaxed: one package to pip (a Maven group's org.apache.commons is not org.apache-commons); pythonVersion → python_version: a key respelled
            if scoped_move(a, b):
                continue  # babel-core → @babel/core: the same words moved under their owner's scope, not a letter off
            if dep_key(a) in _POPULAR_KEYS and dep_key(b) in _POPULAR_KEYS:
                continue  # golang.org/x/sync → golang.org/x/sys: one widely used package for another
            if near(a, b):
                return f"renames a dependency to a look-alike (a typo-squat?): {a[:40]} → {b[:40]}"
    return alias_lookalike(c.added_lines[:400])  # round 119b: the real name kept, a look-alike fetched for it


# go.mod's replace directive ("replace a/b v1 => c/d v1", or a line of a replace block): the module built in a's place.
_REPLACE_RE = re.compile(r"^\s*(?:replace\s+)?(?P<old>[\w.\-]+\.[\w.\-/]+)(?:\s+v[\w.\-+]+)?\s*=>\s*(?P<new>[\w.\-]+\.[\w.\-/]+)")


def lookalike_replace(c: FileChange) -> str | None:
    """"replaces module … with a look-alike …" when go.mod's replace builds another module whose path is one or two
    letters off the one it stands for (github.com/gorilla/mux => github.com/gorrilla/mux); a local path or a fork
    under another owner's name is not a look-alike."""
    if not c.path.lower().endswith("go.mod"):
        return None
    for line in c.added_lines:
        m = _REPLACE_RE.match(line)
        if m is None or m.group("old") == m.group("new"):
            continue
        old, new = m.group("old").split("/"), m.group("new").split("/")
        differ = [(a, b) for a, b in zip(old, new) if a != b]
        if len(old) == len(new) and len(differ) == 1 and near(*differ[0]):
            return f"replaces module {m.group('old')[:40]} with a look-alike (a typo-squat?): {m.group('new')[:40]}"
    return None


# A dependency installed under its name from another package: npm's alias ("lodash": "npm:lodahs@^4"), Cargo's rename (serde =
# { package = "serde-fork", … }, or a [dependencies.scroll] table's ``package = "scro11"``: blind 222's goblin), Mix's {:jose,
# "~> 1.11", hex: :jose_jwt}; the code imports the name it knows and runs the other package.
_NPM_ALIAS_RE = re.compile(r'^\s*"(?P<key>@?[\w.\-/*]+)"\s*:\s*"npm:(?P<name>@?[\w.\-/]+?)(?:@[^"]*)?"')
_CARGO_RENAME_RE = re.compile(r'^\s*(?P<key>[\w\-]+)\s*=\s*\{[^}]*\bpackage\s*=\s*"(?P<name>[\w\-]+)"|^\s*package\s*=\s*"(?P<tname>[\w\-]+)"\s*$')
_TABLE_RE = re.compile(r"^\s*\[(?:[\w.-]*\.)?(?:dev-|build-)?dependencies\.([\w-]+)\]")
_MIX_RENAME_RE = re.compile(r'^\s*\{\s*:(?P<key>\w+)\s*,.*\bhex:\s*:?"?(?P<name>[\w\-]+)')


def _aliased(c: FileChange) -> str | None:
    lower = c.path.lower()
    if (pattern := (_NPM_ALIAS_RE if lower.endswith("package.json") else _CARGO_RENAME_RE if lower.endswith("cargo.toml")
                    else _MIX_RENAME_RE if lower.endswith("mix.exs") else None)) is None:
        return None
    before, table = {line.strip() for line in c.removed_lines}, ""
    for line in c.added_lines:  # (a new file's [dependencies.heapless_v0_9] names the table's key; a crate taken twice, set 189)
        table = h.group(1) if (h := _TABLE_RE.match(line)) else table
        key, name = (table if m.groupdict().get("tname") else m.group("key"), m.groupdict().get("tname") or m.group("name")) if (m := pattern.match(line)) else ("", "")
        if m and line.strip() not in before and name != key and not (key and key.replace("-", "_").lower().startswith(name.replace("-", "_").lower())):  # (heapless_v0_9 for heapless)
            return f"installs {'a dependency' if m.groupdict().get('tname') else 'dependency ' + key[:30]} from another package: {name[:40]}"
    return None


def replaced_elsewhere(c: FileChange) -> str | None:
    """"replaces module … with another source: …" when go.mod's replace builds a module from another remote path (a
    fork under another owner's name: github.com/golang-net/net for golang.org/x/net); a local path is the project's own.
    An npm alias or a Cargo rename to another package's name reads the same way; a lockfile's source over plain http or
    from a look-alike host too (``relay.review.setup_lines.lockfile_source``)."""
    if is_lockfile(c.path):
        return lockfile_source(c.added_lines, c.removed_lines)
    if not c.path.lower().endswith("go.mod"):
        return _aliased(c)
    for line in c.added_lines:
        m = _REPLACE_RE.match(line)
        if m is None or m.group("new").startswith((".", "/")) or m.group("old") == m.group("new"):
            continue
        if line.strip() in {r.strip() for r in c.removed_lines}:
            continue
        return f"replaces module {m.group('old')[:40]} with another source: {m.group('new')[:40]}"
    return None


# A dependency that exists only to keep known-vulnerable or unsafe code out (Roave's security-advisories, an audit
# plugin, a sanitiser, helmet): removed, the guard it was goes with it.
_GUARD_DEP_RE = re.compile(r"(?i)secur|advisor|audit|vulnerab|helmet|csrf|saniti[sz]|purif|safety")


def removed_guard_dependency(c: FileChange) -> str | None:
    """The first dependency the manifest removes, and does not add back, whose name says it guards (security-advisories)."""
    if not is_manifest(c.path) or not c.removed_lines:
        return None
    gone = dep_names(c.path, c.removed_lines) - dep_names(c.path, c.added_lines)
    for name in sorted(gone):
        if _GUARD_DEP_RE.search(name):
            return name[:60]
    return None


# A CI step's action ("uses: actions/checkout@v4"): code the workflow runs with its credentials.
_SHA_RE = re.compile(r"[0-9a-f]{40}\b")
_USES_RE = re.compile(r"^\s*-?\s*uses\s*:\s*['\"]?(?P<name>[\w.\-]+/[\w.\-/]+)@")


def lookalike_action(c: FileChange) -> str | None:
    """"renames a CI action to a look-alike …" when a workflow's ``uses:`` comes back with its owner or name one or two
    letters off (actions/checkout → actoins/checkout): a typo-squat the workflow would run with its secrets."""
    before = {m.group("name") for line in c.removed_lines if (m := _USES_RE.match(line))}
    if not before:
        return None
    pinned = {m.group("name") for line in c.removed_lines if (m := _USES_RE.match(line)) and _SHA_RE.match(line, m.end())}
    for line in c.added_lines:
        m = _USES_RE.match(line)
        if m and m.group("name") in pinned and not _SHA_RE.match(line, m.end()):
            return f"unpins a CI action from its commit: {' '.join(line.split())[:60]}"
    for line in c.added_lines:
        m = _USES_RE.match(line)
        if m is None or m.group("name") in before:
            continue
        new = m.group("name")
        old = next((b for b in before if len(b.split("/")) == len(new.split("/")) and (near(b.lower(), new.lower()) or _owner_worded(b, new))), None)
        if old:
            return f"renames a CI action to a look-alike (a typo-squat?): {old[:40]} → {new[:40]}"
    return None


def _owner_worded(old: str, new: str) -> bool:
    """``actions/checkout`` → ``actions-checkout/checkout``: the action kept, its owner a new account whose name holds the
    old owner's as a word (round 88: Yubico/libfido2's workflow, development set 64) — another owner dressed as the real one."""
    (a, _, rest_a), (b, _, rest_b) = old.lower().partition("/"), new.lower().partition("/")
    return rest_a == rest_b and a != b and len(a) >= 4 and a in re.split(r"[-_.]", b)


_POPULAR_KEYS = {dep_key(name): name for name in POPULAR_PACKAGES}


def lookalike_new(names: list[str], c: FileChange | None = None, others: frozenset[str] = frozenset(), owners: frozenset[str] = frozenset()) -> str | None:
    """"adds a look-alike of …: new" for the first new dependency one or two letters off a widely used package (never one
    of them), or, given the manifest ``c``, off a name its edit removes or ``others`` holds (the change's removed names, the
    project's declared ones): an unversioned name in a mixed manifest too (PEP 621's ``"itsdangerus",``)."""
    names = list(names)
    gone: set[str] = set(others)
    if c is not None:
        names += sorted(set(_bare_names(c.path, c.added_lines)) - set(_bare_names(c.path, c.removed_lines)) - set(names))
        gone |= {dep_key(n) for n in (*dep_names(c.path, c.removed_lines), *_bare_names(c.path, c.removed_lines))}
    for name in names:
        key = dep_key(name)
        if key in _POPULAR_KEYS or key in gone:
            continue
        # A part of the name, read against a name of the same length (round 59, blind 83: ``aiohtpp-session`` beside ``aiohttp``).
        parts = [(key, 0), *((p, len(p)) for p in re.split(r"[-_.]", key) if len(p) >= 5 and p != key and p not in gone and p not in _POPULAR_KEYS)]
        old = next((g for part, n in parts for g in sorted(gone) if 3 <= len(g) <= _NAME_MOST and n in (0, len(g)) and near(g, part) and not real_pair(g, part) and not next_version(g, part)), None)
        # A short name's manifest line quoted too: the name alone locates no line for the view (round 87: js-sha3's "rolup").
        said = name[:40] + next((f" ({line.strip()[:60]})" for line in (c.added_lines if c is not None and len(name) < 8 else ()) if name in line), "")
        if old:
            return f"adds a look-alike of {old[:40]} (a typo-squat?): {said}"
        if (twin := _glyph_twin(key, gone)) is not None:
            return f"adds a look-alike of {twin[:40]} (a digit for a letter: a typo-squat?): {said}"
        if (of := owner_lookalike(key, (*names, *gone, *owners))) is not None:  # round 87: Respect/Validation's ``respekt/parameter``
            return f"adds a look-alike of {of}/… (a typo-squat of its owner?): {said}"
        if len(key) < 5:
            continue
        popular = next((p for k, p in _POPULAR_KEYS.items() if len(k) >= 5 and abs(len(k) - len(key)) <= 2 and near(k, key) and not real_pair(k, key) and not next_version(k, key)), None)
        if popular:
            return f"adds a look-alike of {popular} (a typo-squat?): {said}"
    return None


# A name alone in quotes on its line (PEP 621's and setup.py's lists, "itsdangerous>=2," or "itsdangerous",), or any version of it
# (Poetry's and Pipfile's name = "*"): in a mixed manifest it may be a keyword or a classifier, so it is only ever compared for a look-alike.
_BARE_RE = re.compile(r"""^\s*["'](?P<name>[A-Za-z][\w.\-]*)(?:\[[^\]]*\])?\s*(?:\(?\s*[;<>=!~][^"']*)?["']\s*,?\s*$|"""
                      r"""^\s*(?P<any>[A-Za-z][\w.\-]*)\s*=\s*["']\*["']\s*$""")  # Poetry's and Pipfile's any version: requests = "*"
_PY_MIXED = ("pyproject.toml", "setup.py", "setup.cfg", "pipfile")


# A list of such names on one line (setup.py's ``"tests": ["coverage", "pyopenssl"],``; round 57: blind 81's ``"pyopenssll"``).
_LIST_RE = re.compile(r"""^\s*(?:["'][\w.\-]+["']\s*:\s*|[\w.]+\s*=\s*)?\[\s*(?:(?:'[^'\[\]]+'|"[^"\[\]]+")\s*,\s*)*(?:'[^'\[\]]+'|"[^"\[\]]+")\s*,?\s*\]\s*[,)]?\s*$""")
_TABLE_LISTS_RE = re.compile(r"""^\s*[\w.\-]+\s*=\s*\{\s*[\w.\-]+\s*=\s*\[""")  # ``optional-dependencies = {pydantic = ['…'] }``
_PEP621_LIST_RE = re.compile(r"^\s*dependencies\s*=\s*\[.*\]\s*$")  # PEP 621's ``dependencies = ["pytest (>= 8)", "x>=1"]`` on one line
_LISTED_RE = re.compile(r"""(?P<q>["'])(?P<name>[A-Za-z][\w.\-]*)(?:\[[^\]]*\])?\s*(?:\(?\s*[;<>=!~](?:(?!(?P=q)).)*)?(?P=q)""")  # a marker may quote


def _bare_names(path: str, lines: Iterable[str]) -> list[str]:
    if not glob_any(path, _PY_MIXED):
        return []
    names = [(m.group("name") or m.group("any")).lower() for line in lines if (m := _BARE_RE.match(line))]
    names += [m.group("name").lower() for line in lines if len(line) <= 400 and (_LIST_RE.match(line) or _TABLE_LISTS_RE.match(line))
              for m in _LISTED_RE.finditer(line.split("[", 1)[1])]
    return [name for name in names if name not in NOT_DEPS]


def touches_dependencies(c: FileChange) -> bool:
    """A manifest edit that is a dependency change: any edit of a pure manifest, a dependency line
    of a mixed one (pyproject.toml, package.json: settings live there too)."""
    if not is_manifest(c.path):
        return False
    if not glob_any(c.path, MIXED_MANIFESTS):
        return True
    return bool(dep_names(c.path, [*c.added_lines, *c.removed_lines]))


def moved_dependencies(changes: Iterable[FileChange]) -> frozenset[str]:
    """Dependency names that some manifest of this change set removes."""
    removed: set[str] = set()
    for c in changes:
        if is_manifest(c.path):
            removed |= {dep_key(name) for name in dep_names(c.path, c.removed_lines)}
        if c.path.lower().endswith((".gradle", ".gradle.kts", ".toml")):
            # A coordinate kept in a map or a catalog ("libraries.x = 'group:name:1.0'"): a dependency the line parser misses.
            removed |= {dep_key(m.group(1)) for line in c.removed_lines[:2000] for m in _COORDINATE_RE.finditer(line)}
    return frozenset(removed)


_COORDINATE_RE = re.compile(r"['\"]([A-Za-z][\w-]*(?:\.[\w-]+)+:[A-Za-z][\w.-]*)(?::[^'\"\s]*)?['\"]")


# Bounds on what ``existing_dependencies`` reads: a few small files, once per added manifest.
_MAX_PIN_FILES = 8
_MAX_PIN_BYTES = 256 * 1024


def existing_dependencies(workspace: Path, changes: Iterable[FileChange]) -> frozenset[str]:
    """Dependency names declared by the unchanged manifests beside an added one (its folder and
    the workspace root). Read only when the change adds a manifest, at most a few small files,
    never through a symlink; whatever cannot be read is simply not known."""
    changes = list(changes)
    added = [c for c in changes if c.kind == "added" and is_manifest(c.path)]
    if not added:
        return frozenset()
    changed = {c.path for c in changes}
    names: set[str] = set()
    read = 0
    for folder in sorted({posixpath.dirname(c.path) for c in added} | {""}):
        try:
            entries = sorted(os.listdir(workspace / folder))
        except OSError:
            continue
        for entry in entries:
            rel = posixpath.join(folder, entry) if folder else entry
            if rel in changed or not is_manifest(rel) or read >= _MAX_PIN_FILES:
                continue
            full = workspace / rel
            try:
                if full.is_symlink() or not full.is_file() or full.stat().st_size > _MAX_PIN_BYTES:
                    continue
                text = full.read_text("utf-8", errors="replace")
            except OSError:
                continue
            read += 1
            names |= {dep_key(name) for name in dep_names(rel, text.splitlines())}
    return frozenset(names)


# ----- an install command in a page's sample, a script or a CI step naming a look-alike (round 34, relay.review.sample_code)


# A conda channel named one or two letters off a known one (round 123, held-out 600's implicit docs: ``conda install -c
# conda-forgee implicit``): the package is the real name, fetched from whoever registered the channel.
_CHANNEL_RE = re.compile(r"\b(?:conda|mamba|micromamba)\b[^\n#|;&]*?\s(?:-c|--channel)[ =]+(?P<ch>[\w.-]+)")
_CHANNELS = ("conda-forge", "bioconda", "pytorch", "nvidia", "anaconda", "defaults", "main")


def installed_lookalike(added: Sequence[str], removed: Sequence[str], own: Collection[str] = ()) -> str | None:
    """"installs a look-alike of X (a typo-squat?): the line" for the first new install command's name one or two letters
    off a name the edit's removed install lines name, off a widely used package or off the project's ``own`` names."""
    new = [line for line in code_spans(added[:400]) if screen(line)]  # the cheap screen first: most files install nothing
    if not new:
        return None
    was = [line for line in code_spans(removed[:400]) if screen(line)]
    gone_lines = {squeezed(line.strip()) for line in was}
    named = {dep_key(n): n for line in was for n in installed_names(line)} | {dep_key(n): n for n in own}
    gone = set(named)
    for line in new:
        if squeezed(line.strip()) in gone_lines or not install_command(line):
            continue
        if (m := _CHANNEL_RE.search(line)) and (real := next((c for c in _CHANNELS if looks_alike(c, m["ch"].lower())), None)):
            return f"installs from a look-alike of the {real} channel (a typo-squat?): {window(line, m.start('ch'), m.end('ch'), 70, 12)}"
        for name in installed_names(line):
            key = dep_key(name)
            if key in gone or key in _POPULAR_KEYS:
                continue
            old = next((named[g] for g in sorted(named) if len(g) >= 3 and looks_alike(g, key)), None)
            if old is None and len(key) >= 5:
                old = next((p for k, p in _POPULAR_KEYS.items() if len(k) >= 5 and looks_alike(k, key)), None)
            if old:
                at = line.find(name)
                return f"installs a look-alike of {old[:40]} (a typo-squat?): {window(line, at, at + len(name), 70, 12)}"
    return None


def popular_renamed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"renames a dependency to a look-alike …" when a build file's line (tox.ini's ``deps``, a noxfile's install, a
    Makefile's) comes back with a widely used package's name one or two letters off and nothing else changed (round 54:
    blind 76's pyparsing, tox.ini's ``unit: pytest`` → ``unit: pytset``). Only a widely used name is read: a build
    file's other words (a target, a path, a flag) are renamed all the time."""
    olds = [_NAME_TOKEN_RE.findall(line) for line in removed[:200] if len(line) <= 200]
    for line in added[:200]:
        new = _NAME_TOKEN_RE.findall(line) if len(line) <= 200 else []
        for old in olds:
            differ = [(a, b) for a, b in zip(old, new) if a != b] if len(old) == len(new) else []
            if len(differ) == 1 and dep_key(a := differ[0][0]) in _POPULAR_KEYS and dep_key(b := differ[0][1]) not in _POPULAR_KEYS \
                    and len(a) >= 4 and looks_alike(a, b):
                return f"renames a dependency to a look-alike (a typo-squat?): {a[:40]} → {b[:40]}"
    return None


# A digit for the letter it looks like (round 90, blind 134's escape-goat: the devDependency ``xo`` made ``x0``), read at
# any length against the widely used names and those the change removes or the project declares: one letter off is too
# loose a test for a name of two letters, a digit standing for its own look-alike letter is not.
_GLYPHS = (str.maketrans("015", "ols"), str.maketrans("015", "ois"))


def _glyph_twin(key: str, known: set[str]) -> str | None:
    for glyphs in _GLYPHS if any(d in key for d in "015") else ():
        if (twin := key.translate(glyphs)) != key and (twin in known or twin in _POPULAR_KEYS):
            return _POPULAR_KEYS.get(twin, twin)
    return None


def looks_alike(known: str, key: str) -> bool:
    known, key = known.lower(), key.lower()
    if known == key or scoped_move(known.lstrip("@"), key.lstrip("@")) or real_pair(known, key):
        return False
    if re.sub(r"\d", "", known) == re.sub(r"\d", "", key) and any(c.isdigit() for c in known + key) and re.sub(r"\D", "", known) and re.sub(r"\D", "", key):
        return False  # a major version in the name moved (python2 → python3), not a letter
    return abs(len(known) - len(key)) <= 2 and (near(known, key) or glyph_twins(known, key))
