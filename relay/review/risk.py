"""Rank one observed change: high, medium or low, with reasons a reviewer understands.

The ranking is a table, ``RULES``: each row names a rule, the risk it carries, the
reason shown to the reviewer (``{detail}`` is filled from what the predicate found)
and the predicate itself. ``assess`` runs every row; the file's risk is the highest
that matched and its reasons are the matched rows, highest first. To add a rule,
add a row (and a test case for it in tests/test_risk.py, which walks the table).

Predicates only read a ``FileChange`` (path, kind, counts, ranges and the bounded
sample of added/removed lines that ``relay.observe.changes`` keeps) plus a ``RiskContext``.
``line_matters`` tells ``relay.observe.changes`` which lines to keep in that sample, so the
two modules agree on what the rules need.

Every file is first given a kind from its path (``file_kind``: source, test, docs, CI,
manifest…); rules depend on it (a security word in the name makes source risky, never
prose) and ``relay.review.packet`` breaks ties with it. What the changed lines say is read by
``relay.review.code_reading`` (test cases and assertions, mechanical edits) and
``relay.review.security_reading`` (security tokens, length and input checks); what the leader's
task says the run fixes, by ``relay.review.task_reading``.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

import msgspec

from relay.review.code_reading import (
    ROW_RE,
    complete_sample,
    mechanical_verdict,
    reformat_verdict,
    sampled,
    test_counts,
    weakened,
)
from relay.review.line_shapes import SAMPLE_LINES, formatter_run
from relay.review.security_reading import (
    added_input_check,
    advisory_words,
    attack_test_name,
    changed_length_guard,
    changed_security_token,
    security_note,
)
from relay.review.task_reading import named_words
from relay.core.contracts import FileChange, Risk
from relay.core.path_globs import matches_any
from relay.review.file_kinds import (
    SKIP_WORDS,
    BUILD_GLOBS,
    CI_GLOBS,
    CODE_EXTS,
    COVERAGE_FILES,
    COVERAGE_RE,
    HOOK_GLOBS,
    SECRET_GLOBS,
    SECRET_TEMPLATES,
    SKIP_RE,
    basename,
    file_kind,
    glob_any,
    is_lockfile,
    is_manifest,
    is_secret_path,
    is_test_path,
    words,
)

__all__ = [
    "NAMED_BY_NOTE",
    "NAMED_BY_TASK",
    "RULES",
    "Rule",
    "RiskContext",
    "assess",
    "risk_rank",
    "max_risk",
    "assess_all",
    "moved_dependencies",
    "security_test_names",
    "security_notes",
    "existing_dependencies",
    "LARGE_HUNK_LINES",
]

LARGE_HUNK_LINES = 200
# A change this big cannot be reviewed line by line, whatever the file is.
_HUGE_CHANGE_LINES = 2_000
_MAX_REASONS = 3
_MAX_REASON_CHARS = 120

_RANK: dict[str, int] = {"low": 0, "medium": 1, "high": 2}


def risk_rank(risk: Risk) -> int:
    return _RANK[risk]


def max_risk(risks: Iterable[Risk]) -> Risk | None:
    best: Risk | None = None
    for risk in risks:
        if best is None or _RANK[risk] > _RANK[best]:
            best = risk
    return best


class RiskContext(msgspec.Struct, frozen=True, kw_only=True):
    """What the rules know beyond the change itself.

    claimed: workspace-relative paths the worker's report lists; None when there is no
    report (then "not mentioned" cannot be judged and is not flagged).
    paths: path prefixes or globs the task or profile named; empty means "anywhere".
    moved_deps: dependency names removed from a manifest in the same change.
    """

    claimed: frozenset[str] | None = None
    paths: tuple[str, ...] = ()
    large_hunk: int = LARGE_HUNK_LINES
    # Dependency names removed from some manifest of the same change: adding one of them
    # elsewhere moves it, it does not bring in anything new (see ``assess_all``).
    moved_deps: frozenset[str] = frozenset()
    # An advisory id or attack word that a changed test of the same change names (see
    # ``assess_all``): the source edits beside it are the fix it tests.
    security_test: str = ""
    # An advisory id or "security fix" that the change's own notes name (a changelog entry, see
    # ``assess_all``): the source edits beside it are the fix those notes announce.
    security_note: str = ""
    # The words of those notes' lines ("RSA: cleanup signature verification (CVE-2021-30130)"): a
    # source file whose own name is one of them is the file the note says was fixed.
    security_note_words: frozenset[str] = frozenset()
    # Dependency names the project's unchanged manifests already declare, read only when the
    # change adds a manifest (see ``existing_dependencies``): a new pin file repeating them
    # brings in nothing new.
    known_deps: frozenset[str] = frozenset()
    # An advisory id or attack word that the leader's own task names ("Fix the heap overflow in
    # the RLE decoder (CVE-2024-1234)", see ``relay.review.task_reading``): the run is a security fix, so its
    # source edits are what the review is for, whatever their lines look like.
    task_security: str = ""
    # The words of that task: a source file whose own name is one of them is the file it fixes.
    task_words: frozenset[str] = frozenset()


Predicate = Callable[[FileChange, RiskContext], "bool | str | None"]


class Rule(NamedTuple):
    """One row of the table. ``predicate`` returns falsy (no match), True, or a short detail
    string, which fills ``{detail}`` in ``reason`` or, without one, is appended in brackets."""

    name: str
    risk: Risk
    reason: str
    predicate: Predicate


_AUTH_WORDS = {
    "auth", "authn", "authz", "authenticate", "authentication", "authenticator", "authorization", "authorize",
    "authorizer", "login", "logout", "signin", "signup", "oauth", "oauth2", "oidc", "jwt", "session", "sessions",
    "password", "passwords", "passwd", "credential", "credentials", "secret", "secrets", "permission",
    "permissions", "perms", "acl", "acls", "rbac", "crypto", "cryptography", "cipher", "encrypt", "encryption",
    "decrypt", "sso", "saml", "csrf", "security", "token", "keystore", "keychain", "privilege",
    "privileges", "sudo", "sandbox", "hmac", "signing", "tls", "ssl", "cert", "certs", "certificate",
}

_MIGRATION_DIRS = {"migrations", "migration", "migrate", "alembic", "flyway", "liquibase", "schema_migrations"}

_SKIP_SCREEN = re.compile("|".join(SKIP_WORDS))

# Per manifest family: how a dependency line names its package. Versions are ignored so a
# bump reads as "changed", not as "new".
_VERSIONISH = r"""["']?\s*(?:[\^~<>=!*]|\d|v\d|latest|next|workspace:|file:|link:|git|github:|npm:|https?:|\{)"""
_DEP_PATTERNS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("package.json", "composer.json", "bower.json", "deno.json", "deno.jsonc"),
     re.compile(r"""^\s*"(?P<name>@?[A-Za-z0-9][\w.\-/@]*)"\s*:\s*""" + _VERSIONISH)),
    (("requirements*.txt", "requirements/*.txt", "constraints*.txt"),
     re.compile(r"^\s*(?P<name>[A-Za-z0-9][\w.\-]*)\s*(?:\[[^\]]*\])?\s*(?:[=<>~!]=?|@|;|$)")),
    # Mixed files (tool settings live beside dependencies): only a versioned requirement
    # ("httpx>=0.27", requests = "^2", serde = { version = "1" }) counts, never a bare
    # quoted word or a number, which are far more often settings ("E501", timeout = 30).
    (("pyproject.toml", "setup.py", "setup.cfg", "pipfile", "cargo.toml"),
     re.compile(r"""^\s*["']?(?P<name>[A-Za-z0-9][\w.\-]*)(?:\[[^\]]*\])?\s*(?:(?:[=<>~!]=|[<>])\s*\d|=\s*(?:["'][\^~<>=!*]*\s*\d|\{))""")),
    (("environment.yml", "environment.yaml"), re.compile(r"^\s*-\s*(?P<name>[A-Za-z0-9][\w.\-]*)\s*(?:[=<>]|$)")),
    (("go.mod",), re.compile(r"^\s*(?:require\s+)?(?P<name>[\w.\-]+\.[\w.\-/]+)\s+v\d")),
    (("gemfile", "*.gemspec"), re.compile(r"""^\s*(?:gem|s\.add_\w*dependency|spec\.add_\w*dependency)\s*\(?\s*["'](?P<name>[^"']+)""")),
    (("pom.xml",), re.compile(r"<artifactId>\s*(?P<name>[^<\s]+)\s*</artifactId>")),
    (("build.gradle", "build.gradle.kts"),
     re.compile(r"""^\s*(?:implementation|api|compile\w*|runtimeOnly|testImplementation|kapt|annotationProcessor)\s*\(?\s*["'](?P<name>[^:"']+:[^:"']+)""")),
    (("*.csproj", "directory.packages.props", "packages.config"), re.compile(r"""(?:PackageReference|PackageVersion|package)\s+(?:Include|id)="(?P<name>[^"]+)\"""")),
    (("pubspec.yaml", "mix.exs", "package.swift", "podfile", "*.cabal", "shard.yml"),
     re.compile(r"""^\s*(?:\{:|pod\s+["']|\.package\(\s*url:\s*["'])?(?P<name>[A-Za-z0-9][\w.\-/:]*)["']?\s*[:,]\s*""" + _VERSIONISH)),
)
# Keys that look like "name = version" but are the project's own metadata.
_NOT_DEPS = {
    "name", "version", "description", "license", "main", "module", "types", "typings", "private", "type",
    "python", "requires-python", "python_requires", "edition", "rust-version", "go", "toolchain", "packagemanager",
    "node", "npm", "engines", "homepage", "repository", "author", "line-length", "target-version", "build-backend",
}


def _dep_names(path: str, lines: Iterable[str]) -> set[str]:
    for globs, pattern in _DEP_PATTERNS:
        if glob_any(path, globs):
            break
    else:
        return set()
    names: set[str] = set()
    for line in lines:
        if line.lstrip().startswith(("#", "//", "-r ", "-c ", "--")):
            continue
        found = pattern.search(line)
        if found and found.group("name").lower() not in _NOT_DEPS:
            names.add(found.group("name").lower())
    return names


def _coverage_values(lines: Iterable[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in lines:
        for found in COVERAGE_RE.finditer(line):
            out.setdefault(found.group("key").lower().replace("_", "-"), float(found.group("value")))
    return out


# --------------------------------------------------------------------------- predicates


def _lines(n: int) -> str:
    return f"{n:,} line" + ("" if n == 1 else "s")


def _is_code(path: str) -> bool:
    name = basename(path).lower()
    return "." in name and name.rsplit(".", 1)[-1] in CODE_EXTS


def _deleted_test(c: FileChange, ctx: RiskContext) -> bool | str:
    # Test code, not test data (a fixture archive or text file deleted loses no test).
    if c.kind != "deleted" or file_kind(c.path) != "test" or not _is_code(c.path):
        return False
    return _lines(c.deletions) if c.deletions else True


def _deleted(c: FileChange, ctx: RiskContext) -> bool | str:
    if c.kind != "deleted" or is_test_path(c.path):
        return False
    return _lines(c.deletions) if c.deletions else True


def _removed_assertions(c: FileChange, ctx: RiskContext) -> str | None:
    # A full added side may hold more cases than it kept, so only a complete one can
    # show fewer (a full removed side only hides more losses).
    if c.kind == "deleted" or file_kind(c.path) != "test" or len(c.added_lines) >= SAMPLE_LINES:
        return None
    cases, asserts = weakened(c)
    if cases:
        return f"{cases} test case{'s' if cases != 1 else ''}"
    return f"{asserts} assertion{'s' if asserts != 1 else ''}" if asserts else None


def _new_skips(c: FileChange) -> list[str]:
    added = [m.group(0).strip() for line in c.added_lines if _SKIP_SCREEN.search(line.lower()) and (m := SKIP_RE.search(line))]
    removed = {m.group(0).strip() for line in c.removed_lines if _SKIP_SCREEN.search(line.lower()) and (m := SKIP_RE.search(line))}
    return [marker for marker in added if marker not in removed]


def _adds_a_case(c: FileChange) -> bool:
    return c.kind == "added" or test_counts(c.path, c.added_lines).cases > test_counts(c.path, c.removed_lines).cases


def _skip_marker(c: FileChange, ctx: RiskContext) -> str | None:
    new = _new_skips(c)
    return new[0][:40] if new and not _adds_a_case(c) else None


def _skip_with_new_test(c: FileChange, ctx: RiskContext) -> str | None:
    # An xfail on a brand-new regression test documents a known bug; it weakens nothing.
    new = _new_skips(c)
    return new[0][:40] if new and _adds_a_case(c) else None


# The last file asked about: every rule of one ``assess`` asks about the same object, and
# building the hashable key for the cache costs more than the check itself. A tuple is
# swapped in whole, so concurrent callers never see one file's object with another's verdict.
_LAST_MECHANICAL: tuple[object, int, str | None] = (None, 0, None)


def _mechanical(c: FileChange) -> str | None:
    global _LAST_MECHANICAL
    last, size, verdict = _LAST_MECHANICAL
    if last is c and size == c.additions + c.deletions:
        return verdict
    if c.kind in ("added", "deleted", "type", "mode") or c.binary or c.symlink or c.submodule:
        return None
    if file_kind(c.path) != "source" and (c.additions or c.deletions):
        return None  # only source edits are read line by line; a pure rename is mechanical anywhere
    verdict = mechanical_verdict(sampled(c))
    _LAST_MECHANICAL = (c, c.additions + c.deletions, verdict)
    return verdict


# ----- content rules: what the changed lines say (the readers live in relay.review.code_reading
# and relay.review.security_reading)


def _looks_reformatted(c: FileChange) -> bool:
    if complete_sample(c) or not c.added_lines or not c.removed_lines or file_kind(c.path) != "source":
        return False  # the common case, decided without building the cache key
    return reformat_verdict(sampled(c))


def _security_tokens(c: FileChange, ctx: RiskContext) -> str | None:
    if file_kind(c.path) != "source" or c.kind == "deleted" or _mechanical(c) or _looks_reformatted(c):
        return None
    return changed_security_token(c.added_lines, c.removed_lines)


def _length_guard(c: FileChange, ctx: RiskContext) -> str | None:
    if file_kind(c.path) != "source" or c.kind == "deleted" or _mechanical(c) or _looks_reformatted(c):
        return None
    return changed_length_guard(c.added_lines, c.removed_lines)


def _input_check(c: FileChange, ctx: RiskContext) -> str | None:
    if file_kind(c.path) != "source" or c.kind == "deleted" or _mechanical(c) or _looks_reformatted(c):
        return None
    return added_input_check(c.added_lines, c.removed_lines)


def _source_beside(c: FileChange, evidence: str) -> str | None:
    """``evidence`` (a security test's or note's word) for a source edit made beside it; nothing
    for a deletion, a mechanical edit or the release's version string (not the fix)."""
    if not evidence or file_kind(c.path) != "source" or c.kind == "deleted" or _mechanical(c):
        return None
    if not (c.additions or c.deletions) or _only_version(c):
        return None  # its content did not change (permission bits only, a pure rename): not the fix
    return evidence


def _only_version(c: FileChange) -> bool:
    """Every changed line is the release's version string (``__version__ = "8.0.1"``)."""
    lines = [*c.added_lines, *c.removed_lines]
    return bool(lines) and complete_sample(c) and all(_VERSION_LINE_RE.match(line) for line in lines)


def _beside_security_test(c: FileChange, ctx: RiskContext) -> str | None:
    return _source_beside(c, ctx.security_test)


# The reasons' starts, which relay.review.packet reads to put such a file first within its risk.
NAMED_BY_NOTE = "the change's security note names this file"
NAMED_BY_TASK = "the task's security fix names this file"
# Stems too generic to say which file a note means.
_GENERIC_STEMS = frozenset({"index", "main", "init", "__init__", "lib", "mod", "core", "base", "common", "src", "app"})


def _named_in(c: FileChange, named: frozenset[str], evidence: str) -> str | None:
    """The file and ``evidence`` when a source file's own name is one of ``named`` (the words of
    a security note or task): the file a fix is said to be in."""
    if not named or file_kind(c.path) != "source" or c.kind == "deleted" or _mechanical(c) or _only_version(c):
        return None
    stem = basename(c.path).rsplit(".", 1)[0].lower()
    if len(stem) < 3 or stem in _GENERIC_STEMS or stem not in named:
        return None
    return f"{basename(c.path)[:40]}, {evidence}"


def _named_by_security_note(c: FileChange, ctx: RiskContext) -> str | None:
    return _named_in(c, ctx.security_note_words, ctx.security_note)


def _named_by_security_task(c: FileChange, ctx: RiskContext) -> str | None:
    if not ctx.task_security or _named_by_security_note(c, ctx):
        return None  # the change's own note says it already
    return _named_in(c, ctx.task_words, ctx.task_security)


def _beside_security_note(c: FileChange, ctx: RiskContext) -> str | None:
    # Beside a security test already says it.
    return None if ctx.security_test else _source_beside(c, ctx.security_note)


def _for_security_task(c: FileChange, ctx: RiskContext) -> str | None:
    # A test or note of the change itself already says it, with evidence from the change.
    return None if ctx.security_test or ctx.security_note else _source_beside(c, ctx.task_security)


def _coverage_lowered(c: FileChange, ctx: RiskContext) -> str | None:
    if not glob_any(c.path, COVERAGE_FILES):
        return None
    before = _coverage_values(c.removed_lines)
    after = _coverage_values(c.added_lines)
    for key, old in before.items():
        new = after.get(key)
        if new is None:
            return f"removes {key} {old:g}"
        if new < old:
            return f"{key} {old:g} → {new:g}"
    return None




def _secret_path(c: FileChange, ctx: RiskContext) -> bool:
    return is_secret_path(c.path)


def _secret_template(c: FileChange, ctx: RiskContext) -> bool:
    name = basename(c.path).lower()
    return glob_any(c.path, SECRET_GLOBS) and name.endswith(SECRET_TEMPLATES)


def _auth_path(c: FileChange, ctx: RiskContext) -> str | None:
    # Source only (never prose, examples or tests), and the file's own name only: a project
    # whose whole tree sits under "crypto/" or "oauth2/" is not high everywhere.
    if file_kind(c.path) != "source" or _mechanical(c) or _looks_reformatted(c):
        return None
    return _name_auth_word(basename(c.path))


@functools.lru_cache(maxsize=65536)
def _name_auth_word(name: str) -> str | None:
    hits = [w for w in words(name) if w in _AUTH_WORDS]
    return hits[0] if hits else None


# Files kept beside the pipelines that no runner executes (expected outputs, notes).
_CI_DATA_EXTS = (".txt", ".md", ".rst", ".csv")


def _ci_config(c: FileChange, ctx: RiskContext) -> bool:
    # A deleted pipeline runs nothing with the secrets; losing its checks is "deletes a file".
    if c.kind == "deleted" or c.path.lower().endswith(_CI_DATA_EXTS):
        return False
    return glob_any(c.path, CI_GLOBS) and not _ci_versions(c, ctx)


# One line of a CI version matrix: a version, a list of versions, or a key set to one
# ("- '3.8'", "node-version: [14, 16]", "go: 1.21.x"), or a comment.
_VERSION_VALUE = r"""["']?v?\d[\w.*-]*["']?"""
_CI_VERSION_LINE_RE = re.compile(
    rf"^(?:#.*|-?\s*(?:[\w.-]+\s*:\s*)?(?:{_VERSION_VALUE}|\[\s*{_VERSION_VALUE}(?:\s*,\s*{_VERSION_VALUE})*\s*\])\s*(?:#.*)?)$"
)


def _ci_versions(c: FileChange, ctx: RiskContext) -> bool:
    """A CI edit that only changes which versions the matrix tests (a release's usual
    edit): no new step, command, secret or action runs."""
    lines = [*c.added_lines, *c.removed_lines]
    return (
        c.kind == "modified"
        and bool(lines)
        and complete_sample(c)
        and glob_any(c.path, CI_GLOBS)
        and all(_CI_VERSION_LINE_RE.match(line.strip()) for line in lines)
        and not all(line.lstrip().startswith("#") for line in lines)  # a matrix, not only comments
    )


def _hooks(c: FileChange, ctx: RiskContext) -> bool:
    return c.kind != "deleted" and glob_any(c.path, HOOK_GLOBS)


def _migration(c: FileChange, ctx: RiskContext) -> bool:
    if file_kind(c.path) in ("docs", "test", "example"):
        return False
    parts = c.path.lower().split("/")
    if any(part in _MIGRATION_DIRS for part in parts[:-1]):
        return True
    return bool(re.match(r"v\d+(?:[._]\d+)*__\w+\.sql$", basename(c.path), re.IGNORECASE)) or (
        "versions" in parts[:-1] and "alembic" in c.path.lower()
    )


# A manifest that only builds the documentation (docs/requirements.txt, doc/_build/composer.json):
# nothing it adds ships with the project or runs its tests, so it stays "dependency manifest".
_DOCS_BUILD_DIRS = {"doc", "docs", "documentation"}


def _new_dependency(c: FileChange, ctx: RiskContext) -> str | None:
    if not is_manifest(c.path) or _DOCS_BUILD_DIRS.intersection(c.path.lower().split("/")[:-1]):
        return None
    gone = {_dep_key(name) for name in _dep_names(c.path, c.removed_lines)} | ctx.moved_deps
    if c.kind == "added":
        gone |= ctx.known_deps
    new = sorted(name for name in _dep_names(c.path, c.added_lines) if _dep_key(name) not in gone)
    if not new:
        return None
    more = f" +{len(new) - 2} more" if len(new) > 2 else ""
    return ", ".join(name[:40] for name in new[:2]) + more


# Files that hold dependencies among much else: an edit there is a dependency change only
# when a dependency line moved (otherwise it is build configuration).
_MIXED_MANIFESTS = (
    "pyproject.toml", "setup.cfg", "setup.py", "package.json", "composer.json", "cargo.toml", "build.gradle",
    "build.gradle.kts", "pom.xml", "mix.exs", "deno.json", "deno.jsonc", "*.csproj", "pubspec.yaml",
)


def _manifest(c: FileChange, ctx: RiskContext) -> bool:
    if not is_manifest(c.path):
        return False
    if not glob_any(c.path, _MIXED_MANIFESTS):
        return True
    return bool(_dep_names(c.path, [*c.added_lines, *c.removed_lines]))


def _lockfile(c: FileChange, ctx: RiskContext) -> bool:
    return is_lockfile(c.path)


# A release's version string: __version__ = "1.2", _version_patch = 1, "version": "1.2",
# #define LCMS_VERSION 2090.
_VERSION_LINE_RE = re.compile(r"""^\s*["']?_{0,2}version\w*["']?\s*[:=]|^\s*#\s*define\s+\w*VERSION\w*\s""", re.IGNORECASE)


def _version_bump(c: FileChange) -> bool:
    """A manifest edit that only changes the project's own version (a release)."""
    return is_manifest(c.path) and _only_version(c)


def _build_config(c: FileChange, ctx: RiskContext) -> bool:
    if _version_bump(c):
        return False
    return (glob_any(c.path, BUILD_GLOBS) or is_manifest(c.path)) and not _manifest(c, ctx)


def _symlink_escapes(c: FileChange, ctx: RiskContext) -> str | None:
    if not c.symlink or c.kind == "deleted" or not c.added_lines:
        return None
    target = c.added_lines[0]
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(c.path), target))
    if target.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", target) or joined == ".." or joined.startswith("../"):
        return target[:60]
    return None


def _symlink(c: FileChange, ctx: RiskContext) -> bool:
    return c.symlink


def _binary(c: FileChange, ctx: RiskContext) -> bool:
    # A binary test fixture (an archive a test reads) or image in the docs is expected.
    return c.binary and not c.submodule and file_kind(c.path) not in ("test", "docs", "example")


def _submodule(c: FileChange, ctx: RiskContext) -> bool:
    return c.submodule


def _mode_change(c: FileChange, ctx: RiskContext) -> str | None:
    # Only the executable bit of a regular file, and only when it is set: a file that can now be run
    # is worth a look, one that no longer can is not (fastjson 1.2.69 cleared it on 900 files, and
    # the fixed file fell out of the targets behind them). A file <-> symlink swap is a type change.
    if c.mode_before in ("100644", "100664") and c.mode_after == "100755":
        return f"{c.mode_before} → {c.mode_after}"
    return None


def _type_change(c: FileChange, ctx: RiskContext) -> bool:
    return c.kind == "type"


def _outside_paths(c: FileChange, ctx: RiskContext) -> str | None:
    if not ctx.paths or _within(c.path, ctx.paths) or (c.old_path and _within(c.old_path, ctx.paths)):
        return None
    shown = ", ".join(p[:30] for p in ctx.paths[:2]) + (" …" if len(ctx.paths) > 2 else "")
    return shown


def _within(path: str, patterns: Iterable[str]) -> bool:
    # The same rules the enforcement after the run uses (issue 10), so a flag and a refusal agree;
    # the old lstrip("./") read ".github/" as "github/".
    return matches_any(path, patterns)


def _not_mentioned(c: FileChange, ctx: RiskContext) -> bool:
    if ctx.claimed is None:
        return False
    return c.path not in ctx.claimed and not (c.old_path and c.old_path in ctx.claimed)


def _largest_hunk(c: FileChange) -> int:
    return max((end - start + 1 for start, end in c.ranges), default=0)


# Size alone never makes prose or generated output risky; a reformatted file is not a big change.
_NO_SIZE_RULES = ("docs", "example", "generated", "lockfile")


def _huge(c: FileChange, ctx: RiskContext) -> str | None:
    total = c.additions + c.deletions
    if total < _HUGE_CHANGE_LINES or file_kind(c.path) in _NO_SIZE_RULES or _mechanical(c) or _formatted(c):
        return None
    if file_kind(c.path) == "test" and (c.deletions < ctx.large_hunk or not _is_code(c.path)):
        # Thousands of new test lines (a fixture table) are more tests, and a regenerated data file (a fuzz
        # corpus, a snapshot) is data; removed test code is caught below.
        return None
    return f"{total:,} lines"


def _formatted(c: FileChange) -> bool:
    # A formatter's run over a big file is big, not risky: the size rule below says so (medium).
    return file_kind(c.path) == "source" and formatter_run(c.added_lines, c.removed_lines)


def _large_hunk(c: FileChange, ctx: RiskContext) -> str | None:
    kind = file_kind(c.path)
    if kind in _NO_SIZE_RULES or (c.additions + c.deletions >= _HUGE_CHANGE_LINES and not _formatted(c)) or _mechanical(c):
        return None
    largest = _largest_hunk(c)
    # Many new test lines are more tests, not a risk; many removed ones are caught below.
    if largest >= ctx.large_hunk and not (kind == "test" and c.deletions < ctx.large_hunk):
        return f"{largest:,} lines in one hunk"
    if c.kind != "deleted" and c.deletions >= ctx.large_hunk:
        return f"removes {c.deletions:,} lines"
    return None


RULES: tuple[Rule, ...] = (
    Rule("named_by_security_note", "high", NAMED_BY_NOTE + " ({detail})", _named_by_security_note),
    Rule("named_by_security_task", "high", NAMED_BY_TASK + " ({detail})", _named_by_security_task),
    Rule("deleted_test", "high", "deletes a test file", _deleted_test),
    Rule("removed_assertions", "high", "test weakened: removes {detail}", _removed_assertions),
    Rule("skip_marker", "high", "adds a skip/focus marker ({detail})", _skip_marker),
    Rule("skip_with_new_test", "medium", "new test added with a skip/focus marker ({detail})", _skip_with_new_test),
    Rule("coverage_lowered", "high", "lowers a coverage threshold ({detail})", _coverage_lowered),
    Rule("secret_path", "high", "secret or environment file", _secret_path),
    Rule("security_tokens", "high", "changes security-relevant code ({detail})", _security_tokens),
    Rule("auth_path", "high", "security-sensitive path ({detail})", _auth_path),
    Rule("ci_config", "high", "CI configuration (runs with repository secrets)", _ci_config),
    Rule("ci_versions", "medium", "CI configuration: test matrix versions only", _ci_versions),
    Rule("hooks", "high", "git hook / pre-commit config (runs on every developer's machine)", _hooks),
    Rule("migration", "high", "database migration", _migration),
    Rule("new_dependency", "high", "adds a dependency: {detail}", _new_dependency),
    Rule("symlink_escapes", "high", "symlink points outside the workspace (→ {detail})", _symlink_escapes),
    Rule("huge_change", "high", "very large change ({detail})", _huge),
    Rule("beside_security_test", "medium", "changed with a security regression test ({detail})", _beside_security_test),
    Rule("beside_security_note", "medium", "changed where the notes name a security fix ({detail})", _beside_security_note),
    Rule("for_security_task", "medium", "changed for the security fix the task names ({detail})", _for_security_task),
    Rule("length_guard", "medium", "{detail}", _length_guard),
    Rule("input_check", "medium", "changes an input check ({detail})", _input_check),
    Rule("deleted_file", "medium", "deletes a file", _deleted),
    Rule("manifest", "medium", "dependency manifest", _manifest),
    Rule("lockfile", "medium", "lockfile", _lockfile),
    Rule("build_config", "medium", "build configuration", _build_config),
    Rule("secret_template", "medium", "environment template", _secret_template),
    Rule("outside_paths", "medium", "outside the task's paths ({detail})", _outside_paths),
    Rule("not_mentioned", "medium", "changed but not in the worker's report", _not_mentioned),
    Rule("large_hunk", "medium", "large change ({detail})", _large_hunk),
    Rule("binary", "medium", "binary file (not reviewable as text)", _binary),
    Rule("mode_change", "medium", "permission bits changed ({detail})", _mode_change),
    Rule("type_change", "medium", "file type changed", _type_change),
    Rule("symlink", "medium", "symlink", _symlink),
    Rule("submodule", "medium", "submodule pointer changed", _submodule),
)


def _describe(c: FileChange) -> str:
    """The reason for a change no rule flagged: what kind of edit it is, in one phrase."""
    mechanical = _mechanical(c)
    if mechanical:
        return f"mechanical: {mechanical}"[:_MAX_REASON_CHARS]
    if c.kind == "deleted":
        return f"deleted ({_lines(c.deletions)})"
    if c.kind == "modified" and _only_version(c):
        return "version bump"
    if c.kind == "mode":
        return f"permission bits changed ({c.mode_before} → {c.mode_after})"
    if c.kind == "added":
        return f"new file ({_lines(c.additions)})" if not c.binary else "new file"
    if c.kind == "renamed":
        return f"renamed from {c.old_path}"[:_MAX_REASON_CHARS] + (f" (+{c.additions}/-{c.deletions})" if c.additions or c.deletions else "")
    kind = file_kind(c.path)
    if kind in ("test", "docs", "example", "generated"):
        return f"{kind} edited (+{c.additions}/-{c.deletions})"
    return f"edit (+{c.additions}/-{c.deletions})"


def assess(change: FileChange, ctx: RiskContext) -> FileChange:
    """Return a copy of ``change`` with ``risk`` and ``reasons`` filled from ``RULES``."""
    hits: list[tuple[int, int, str]] = []
    for order, rule in enumerate(RULES):
        found = rule.predicate(change, ctx)
        if not found:
            continue
        detail = found if isinstance(found, str) else ""
        if "{detail}" in rule.reason:
            reason = rule.reason.format(detail=detail)
        else:
            reason = f"{rule.reason} ({detail})" if detail else rule.reason
        reason = reason[:_MAX_REASON_CHARS]
        hits.append((-_RANK[rule.risk], order, reason))
    hits.sort()
    if not hits:
        return msgspec.structs.replace(change, risk="low", reasons=[_describe(change)])
    risk: Risk = ("low", "medium", "high")[-hits[0][0]]  # type: ignore[assignment]
    reasons = [reason for _, _, reason in hits[:_MAX_REASONS]]
    return msgspec.structs.replace(change, risk=risk, reasons=reasons)


def _dep_key(name: str) -> str:
    # "typing_extensions" in one manifest and "typing-extensions" in another are one package.
    return re.sub(r"[-_.]+", "-", name.lower())


def moved_dependencies(changes: Iterable[FileChange]) -> frozenset[str]:
    """Dependency names that some manifest of this change set removes."""
    removed: set[str] = set()
    for c in changes:
        if is_manifest(c.path):
            removed |= {_dep_key(name) for name in _dep_names(c.path, c.removed_lines)}
    return frozenset(removed)


def assess_all(changes: Iterable[FileChange], ctx: RiskContext) -> list[FileChange]:
    """``assess`` every change of one change set, with what only the whole set shows (a
    dependency removed from one manifest and added to another is moved, not new)."""
    changes = list(changes)
    moved = moved_dependencies(changes)
    if moved:
        ctx = msgspec.structs.replace(ctx, moved_deps=moved | ctx.moved_deps)
    named = security_test_names(changes)
    if named and not ctx.security_test:
        ctx = msgspec.structs.replace(ctx, security_test=named)
    noted, note_words = security_notes(changes)
    if noted and not ctx.security_note:
        ctx = msgspec.structs.replace(ctx, security_note=noted, security_note_words=note_words)
    return [assess(change, ctx) for change in changes]


# A test file named for the attacks or bounds it covers (limit_test.go, test_security.py,
# fuzz_test.rs): a case added to it is a security regression test.
_SECURITY_TEST_FILE_WORDS = frozenset({
    "security", "limit", "limits", "fuzz", "overflow", "dos", "redos", "malicious", "hostile", "untrusted", "traversal",
    "injection", "exploit", "exploits", "cve", "vuln", "vulnerability",
    # commonmark's and markdown-it's suites of inputs that once took quadratic time or worse
    "pathological",
})


def security_notes(changes: Iterable[FileChange]) -> tuple[str, frozenset[str]]:
    """The first advisory id or "security fix" that an added line of the change's prose names
    ("" if none), and the words of every such line (lowercased)."""
    first = ""
    note_words: set[str] = set()
    for c in changes:
        if c.kind == "deleted" or file_kind(c.path) != "docs":
            continue
        for line in c.added_lines:
            found = security_note(line)
            if found:
                first = first or found[:40]
                note_words.update(named_words(line))
    return first, frozenset(note_words)


def security_test_names(changes: Iterable[FileChange]) -> str:
    """The advisory id or attack word that an added line of a changed test names, the attack a
    new case is named for, or the test file's own name when it names one ("" if none): a
    security regression test, whose presence says the change is a security fix."""
    for c in changes:
        if c.kind == "deleted" or file_kind(c.path) != "test":
            continue
        for line in c.added_lines:
            found = advisory_words(line) or attack_test_name(line)
            if found:
                return found[:40]
        if _gains_cases(c) and _SECURITY_TEST_FILE_WORDS.intersection(words(basename(c.path))):
            return basename(c.path)[:40]
    return ""


def _gains_cases(c: FileChange) -> bool:
    """A test file that holds more cases or table rows than before (a formatter's run over it,
    which only re-wraps them, does not)."""
    if _adds_a_case(c):
        return True
    rows = [sum(1 for line in side if ROW_RE.match(line)) for side in (c.added_lines, c.removed_lines)]
    return rows[0] > rows[1]


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
            names |= {_dep_key(name) for name in _dep_names(rel, text.splitlines())}
    return frozenset(names)
