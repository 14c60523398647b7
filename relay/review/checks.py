"""What each rule of ``relay.review.rules`` looks for, once its scope has admitted the file.

A check reads a file's facts (``relay.review.facts.FileFacts``) and the change's context and returns
nothing (no match), True, or a short detail that fills the rule's reason. Where a rule applies (the
file's kind, the kind of change, facts that must or must not hold) is the row's ``Scope``, never
written again here; which rule silences which is the row's ``outranks``. The line readers they call
live in ``relay.review.code_reading`` and ``relay.review.security_reading``; the checks on a change's shape
and place rather than its lines (a file deleted, a symlink, a path outside the task's, a file's size) in
``relay.review.change_checks``; the test rows' checks (a test deleted, a case or marker, coverage) in
``relay.review.test_checks``.
"""

from __future__ import annotations

import re

import msgspec

from relay.core.contracts import FileChange
from relay.review.manifest_fields import listed_items, minified
from relay.review.file_kinds import (
    CI_GLOBS,
    BUILD_GLOBS,
    SECRET_GLOBS,
    SECRET_TEMPLATES,
    glob_any,
    is_lockfile,
    is_manifest,
    is_secret_path,
    is_test_path,
    words,
)
from relay.review.security_reading import added_input_check, changed_length_guard, changed_security_token
from relay.review.sample_manifests import respelled_in_sample
from relay.review.constant_random import made_constant
from relay.review.agent_instructions import told_against_guard
from relay.review.requirement_notes import requirement_note
from relay.review import build_lines, ci_lines, classic_lines, code_semantics, docs_samples, guard_reading, line_edits, manifest_lines, platform_lines, risky_lines, sample_code, setup_lines, subtle_turns, taught_lines
from relay.review.version_moves import version_downgrade
from relay.review.dependencies import (
    dep_key, dep_names, installed_lookalike, lookalike_action, lookalike_new, lookalike_rename, lookalike_replace, new_dependencies, popular_renamed, removed_guard_dependency, replaced_elsewhere,
    touches_dependencies,
)
from relay.review.facts import FileFacts, RiskContext
from relay.review import failing_turns
from relay.review.dropped_bounds import bound_dropped
from relay.review.lets_through import lets_through
from relay.review.slipped_lines import failure_exit_deleted, turned_down
from relay.review.content_kinds import reading_path
from relay.review.line_shapes import IMPORT_RE, squeezed, window
from relay.review.workflows import credentials_in
from relay.review.words import AUTH_WORDS, CI_DATA_EXTS, GENERIC_STEMS, MIGRATION_DIRS

__all__ = [
    "auth_word", "beside_security_note", "beside_security_test", "build_config", "ci_build", "ci_config", "ci_credentials", "ci_versions",
    "dangerous_call", "downgrades_dependency", "edits_security_line", "for_security_task", "input_check",
    "length_guard", "lines", "lockfile", "lookalike_dependency", "loosens_check", "manifest", "migration", "named_by_security_note",
    "named_by_security_task", "new_dependency", "removes_guard", "secret_path",
    "secret_template", "security_tokens", "switches_off", "unsafe_value", "weakens_check",
]

Detail = bool | str | None


def lines(n: int) -> str:
    return f"{n:,} line" + ("" if n == 1 else "s")


# ----- what the change's notes and the task say


def _named_in(f: FileFacts, named: frozenset[str], evidence: str) -> str | None:
    # The file a fix is said to be in: a source file whose own name is one of the note's or task's words.
    stem = f.name.rsplit(".", 1)[0].lower()
    if not named or len(stem) < 3 or stem in GENERIC_STEMS or stem not in named:
        return None
    return f"{f.name[:40]}, {evidence}"


def named_by_security_note(f: FileFacts, ctx: RiskContext) -> Detail:
    return _named_in(f, ctx.security_note_words, ctx.security_note)


def named_by_security_task(f: FileFacts, ctx: RiskContext) -> Detail:
    return _named_in(f, ctx.task_words, ctx.task_security) if ctx.task_security else None


def beside_security_test(f: FileFacts, ctx: RiskContext) -> Detail:
    return ctx.security_test or None


def beside_security_note(f: FileFacts, ctx: RiskContext) -> Detail:
    return ctx.security_note or None


def for_security_task(f: FileFacts, ctx: RiskContext) -> Detail:
    return ctx.task_security or None


# ----- the one risky line: read wherever code lives (examples and docs too), a sentence of prose left out


def unsafe_value(f: FileFacts, ctx: RiskContext) -> Detail:
    added, removed, docs = f.change.added_lines, f.change.removed_lines, f.kind == "docs"
    first = risky_lines.unsafe_value(added, removed, prose_too=not docs)
    if not first and (salt := sample_code.literal_salt(added, removed, prose_too=not docs)):  # round 34: a literal salt, IV or nonce,
        # said by the pair where a random source stood; a test's vectors (a vendored library's tests are read as its code) are fixed on purpose
        first = None if is_test_path(f.path) or made_constant(added, removed) else salt
    if docs and first and (first.startswith(taught_lines.PHRASES) or "[REDACTED:private-key]" in first and docs_samples.shown_keys_only(added)):
        first = None  # a docs sample's (round 25; round 77: a key the page marks as its example): downgrades_dependency's docs arm says it
    return (first or line_edits.package_setting(f.name, added) or told_against_guard(f.path, added, removed)  # an agent's rules file (round 124)
            or code_semantics.weakened_code(*f.code_lines, ctx.written, kind=f.kind)  # a check made toothless (round 9)
            or platform_lines.paired_line(f.path, added, removed, prose=docs_samples.prose_line if docs else None, written=ctx.written) or (setup_lines.spans_read(added, removed, risky_lines.looks_like_prose, risky_lines.unsafe_value, risky_lines.dangerous_call) if docs else None))  # a sentence's inline code (round 12)


def dangerous_call(f: FileFacts, ctx: RiskContext) -> Detail:
    # Asked by its row and by the weakening rows (relay.review.edit_places), of the same file in the same change: read once.
    kept = f.once(("dangerous_call", id(ctx)), lambda: (ctx, _dangerous_call(f, ctx)))
    return kept[1] if kept[0] is ctx else _dangerous_call(f, ctx)


def _dangerous_call(f: FileFacts, ctx: RiskContext) -> Detail:
    # A workflow's action renamed to a look-alike runs someone else's code with the workflow's credentials.
    added, removed = f.change.added_lines, f.change.removed_lines
    return (build_lines.with_hosts(risky_lines.dangerous_call(added, removed, prose_too=f.kind != "docs"), added, removed)
            or (lookalike_action(f.change) or ci_lines.ci_line(added, removed, ctx.ci_triggers.get(f.path, "")) if f.kind == "ci" else None)
            or build_lines.pair_line(added, removed, commands=f.kind != "docs")
            or line_edits.hidden_module(added, removed) or classic_lines.safe_sounding_alias(added, removed, go=f.path.endswith(".go")) or classic_lines.uncleared_alloc(added, removed)
            # a docs page's samples only: a sentence's inline code that explains a prefix match is no equality weakened
            # (blind 97's peewee: querying.rst's ``User.username.startswith('ch')`` was called high, a benign file)
            or classic_lines.prefix_for_equality(*((docs_samples.sample_lines(added), docs_samples.sample_lines(removed))
                                                   if f.kind == "docs" else (added, removed))))


# Consecutive removed lines all written again elsewhere in the change, past which they were moved as a block, not deleted.
_MOVED_BLOCK = 3


def _not_moved(removed: list[str], written: frozenset[str]) -> list[str]:
    """The removed lines less the blocks the change writes again in another file (a class given its own file). A line
    alone found elsewhere stays: a refusal deleted here and a like one written in a test is still a refusal deleted."""
    found = [bool(line.strip()) and squeezed(line.strip()) in written for line in removed]
    keep = [True] * len(removed)
    start = 0
    while start < len(removed):
        end = start
        while end < len(removed) and (found[end] or not removed[end].strip()):
            end += 1
        if sum(found[start:end]) >= _MOVED_BLOCK:
            keep[start:end] = [False] * (end - start)
        start = end + 1 if end == start else end
    return [line for line, kept in zip(removed, keep) if kept]


def removes_guard(f: FileFacts, ctx: RiskContext) -> Detail:
    # A docs sample's checking call deleted alone, nothing written in its place (round 121c, held-out 528's flask-smorest
    # docs: ``blp.check_etag(pet, PetSchema)`` cut from the sample readers copy): the guard the reader never writes.
    lone_call = f.kind == "docs" and not f.change.added_lines and 0 < len(f.change.removed_lines) <= 2 and all(
        docs_samples.is_sample(line) for line in f.change.removed_lines)
    if f.kind == "docs" and not lone_call and not any(guard_reading.refuses(line) for line in f.change.removed_lines):
        return None  # a docs sample's guard is deleted with its refusal: without one, nothing to read (and no cost)
    removed = _not_moved(f.change.removed_lines, ctx.written) if ctx.written else f.change.removed_lines
    # A comment kept for its own reader (a warning that input is not escaped, relay.review.requirement_notes) guards nothing.
    added, removed = [ln for ln in f.change.added_lines if not requirement_note(ln)], [ln for ln in removed if not requirement_note(ln)]
    found = guard_reading.removed_guard(added, removed)
    # A docs sample is read for a guard deleted whole (its condition and refusal); a call or a clause edited in a sample
    # is more often the prose around it rewritten.
    return found if f.kind != "docs" or (found or "").startswith("deletes a guard") or (lone_call and (found or "").startswith("deletes a check")) else None


_BUILDS_TOO = frozenset({"source", "ci", "data", "example"})  # kinds that can hold a build's flags outside the build files


def downgrades_dependency(f: FileFacts, ctx: RiskContext) -> Detail:  # or a manifest's own risky line (round 16)
    deps = _installing(f, ctx)
    return version_downgrade(deps, ctx.moved_versions) or manifest_lines.manifest_line(f.path, deps.added_lines, deps.removed_lines) or (
        # A compiler's safety checks turned off (-Ounchecked, -fno-stack-protector, /GS-) in any file that builds, not only
        # in the build files known by name: a Tuist Project.swift, an .xcconfig, a CI step's or a script's flags.
        manifest_lines.unchecked_build(f.change.added_lines, f.change.removed_lines) if f.kind in _BUILDS_TOO else None) or (
        manifest_lines.sample_source(*f.code_lines) or risky_lines.insecure_instruction(f.change.added_lines, f.change.removed_lines) or subtle_turns.key_size_lowered(
            f.path, *f.code_lines) or docs_samples.hash_in_payload(*f.code_lines) or docs_samples.unsafe_sample(*f.code_lines) or _teaching_sample(f)
        or _taught_sample(f) or docs_samples.example_key(f.change.added_lines)
        if f.kind == "docs" else None)  # a sample's pin made a branch (20), checks off (21), key size, hash sent (22), client IP, header logged, lifetime (24), a code reader's (25)


def _taught_sample(f: FileFacts) -> str | None:
    """"a docs sample that …" for a sample line of relay.review.taught_lines' classes (raw HTML, alg none, a format string)."""
    found = risky_lines.unsafe_value(*f.code_lines, prose_too=False)
    return f"a docs sample that {found}" if found and found.startswith(taught_lines.PHRASES) else None


def _teaching_sample(f: FileFacts) -> str | None:
    """"a docs sample that …" for a sample's edit a code reader names where the rows that name it read code files only
    (round 25: ``echo htmlspecialchars($name)`` → ``echo $name`` "removes escaping", a check inverted or a clause dropped):
    what a reader copies teaches it, worth a look. Only the page's sample lines."""
    added, removed = docs_samples.sample_lines(f.change.added_lines[:400]), docs_samples.sample_lines(f.change.removed_lines[:400])
    if not added or not removed:
        return None
    found = guard_reading.removed_guard(added, removed)  # a direction read (a generic "edits a security line" is not: 2 → 3)
    return f"a docs sample that {found}" if found else None


def edits_security_line(f: FileFacts, ctx: RiskContext) -> Detail:
    return f.edited_line


def weakens_check(f: FileFacts, ctx: RiskContext) -> Detail:
    found = f.edited_check
    return found[0] if found and found[1] else None


def loosens_check(f: FileFacts, ctx: RiskContext) -> Detail:
    found = f.edited_check
    return found[0] if found and not found[1] else None


# A CI job or step switched off ("if: false", "if: ${{ false }}"): a scan or a test that no longer runs.
_SWITCHED_OFF_RE = re.compile(r"^\s*-?\s*if\s*:\s*(?:\$\{\{\s*)?(?:false|0)\s*(?:\}\})?\s*(?:#.*)?$")


def switches_off(f: FileFacts, ctx: RiskContext) -> Detail:
    written = {line.strip() for line in f.change.removed_lines}
    return next((f"switches a CI job or step off: {line.strip()}" for line in f.change.added_lines
                 if _SWITCHED_OFF_RE.match(line) and line.strip() not in written), None)


# ----- what the lines of source say


# ``free(p)`` and a library's own release function ("_zip_buffer_free(buffer)"): a double free or a use after free is
# fixed by moving or removing one. Read only in a language whose memory is released by hand (round 28 part B: a Ruby
# method named ``api_verification_free(…)`` — "free" a word inside a name — was read as memory safety).
_RELEASE_RE = re.compile(r"\b(?:\w+_)?free\s*\(")
_MANUAL_MEMORY_RE = re.compile(r"(?i)\.(?:c|h|cc|cpp|cxx|c\+\+|hh|hpp|hxx|inl|ipp|m|mm|rs|go|zig|pyx|pxd|pxi|d|nim)$")


def security_tokens(f: FileFacts, ctx: RiskContext) -> Detail:
    found = changed_security_token(f.change.added_lines, f.change.removed_lines)
    if found or not _MANUAL_MEMORY_RE.search(reading_path(f.path)):
        return found
    for line in (*f.change.added_lines, *f.change.removed_lines):
        if (m := _RELEASE_RE.search(code := line.strip())) and not IMPORT_RE.match(code):
            return f"memory safety: {window(code, m.start(), m.end(), 52)}"
    return None


def length_guard(f: FileFacts, ctx: RiskContext) -> Detail:
    return changed_length_guard(f.change.added_lines, f.change.removed_lines)


def input_check(f: FileFacts, ctx: RiskContext) -> Detail:
    return added_input_check(f.change.added_lines, f.change.removed_lines)


def auth_word(f: FileFacts, ctx: RiskContext) -> Detail:
    # The file's own name only: a project whose whole tree sits under "crypto/" is not high everywhere.
    return next((w for w in words(f.name) if w in AUTH_WORDS), None)


# ----- what the path says


def secret_path(f: FileFacts, ctx: RiskContext) -> Detail:
    return is_secret_path(f.path)


def secret_template(f: FileFacts, ctx: RiskContext) -> Detail:
    return glob_any(f.path, SECRET_GLOBS) and f.name.lower().endswith(SECRET_TEMPLATES)


def _ci_file(f: FileFacts) -> bool:
    return not f.path.lower().endswith(CI_DATA_EXTS) and glob_any(f.path, CI_GLOBS)


def ci_credentials(f: FileFacts, ctx: RiskContext) -> Detail:
    """What the project's credentials the workflow runs with: read from the file, or a line the change adds."""
    if not _ci_file(f):
        return None
    found = ctx.ci_credentials.get(f.path) or credentials_in("\n".join(f.change.added_lines)) or None
    return found and found + ci_lines.ungated_publish(f.change.kind, f.change.added_lines)  # round 82: no environment gates a new publish job


def ci_config(f: FileFacts, ctx: RiskContext) -> Detail:
    # Not read (another CI system, no workspace): whether it runs with secrets is not known, so it may.
    return _ci_file(f) and f.path not in ctx.ci_credentials


def ci_build(f: FileFacts, ctx: RiskContext) -> Detail:
    # Read, and it runs with none of the project's credentials: it builds and tests.
    return _ci_file(f) and ctx.ci_credentials.get(f.path) == ""


# One line of a CI version matrix: a version, a list of versions, or a key set to one
# ("- '3.8'", "node-version: [14, 16]", "go: 1.21.x"), or a comment.
_VERSION_VALUE = r"""["']?v?\d[\w.*-]*["']?"""
_CI_VERSION_LINE_RE = re.compile(
    rf"^(?:#.*|-?\s*(?:[\w.-]+\s*:\s*)?(?:{_VERSION_VALUE}|\[\s*{_VERSION_VALUE}(?:\s*,\s*{_VERSION_VALUE})*\s*\])\s*(?:#.*)?)$"
)


def ci_versions(f: FileFacts, ctx: RiskContext) -> Detail:
    """A CI edit that only changes which versions the matrix tests: no new step, command, secret or action
    runs. Not in a workflow that runs with the project's credentials: what runs there is read first."""
    text = [*f.change.added_lines, *f.change.removed_lines]
    return (
        not ctx.ci_credentials.get(f.path)
        and bool(text)
        and f.complete
        and glob_any(f.path, CI_GLOBS)
        and all(_CI_VERSION_LINE_RE.match(line.strip()) for line in text)
        and not all(line.lstrip().startswith("#") for line in text)  # a matrix, not only comments
    )


def migration(f: FileFacts, ctx: RiskContext) -> Detail:
    parts = f.path.lower().split("/")
    if any(part in MIGRATION_DIRS for part in parts[:-1]):
        return True
    return bool(re.match(r"v\d+(?:[._]\d+)*__\w+\.sql$", f.name, re.IGNORECASE)) or (
        "versions" in parts[:-1] and "alembic" in f.path.lower()
    )


def _installing(f: FileFacts, ctx: RiskContext) -> FileChange:
    """The change as the dependency readers read it: a JSON manifest's added lines in fields nothing is installed from
    (package.json's repository, bugs, author…: relay.review.manifest_fields) left out, so its own address is not a
    dependency taken from git; a manifest written on one line read as its indented form."""
    return f.once(_installing, lambda: _read_for_dependencies(f.change, ctx.manifest_metadata.get(f.path, frozenset())))


def _read_for_dependencies(change: FileChange, quiet: frozenset[str]) -> FileChange:
    added, removed = change.added_lines, change.removed_lines
    if (whole := minified(change.path, added, removed)) is not None:  # a manifest on one line, read as its indented form
        added, removed, quiet = whole
    if (items := listed_items(change.path, added)) != added:  # a one-line list of requirements, an item a line
        added, removed = items, listed_items(change.path, removed)
    if quiet:
        added = [line for line in added if line.strip() not in quiet]
    return change if added is change.added_lines else msgspec.structs.replace(change, added_lines=added, removed_lines=removed)


# A requirement's name in quotes on a removed line (``"pytest",`` in a PEP 621 list, unversioned): the name the same edit
# writes again with a floor (``"pytest>9",``) was there already, not added (argon2-cffi's own ``tests = [… "pytest>9"]``).
_QUOTED_NAME_RE = re.compile(r"""["']([A-Za-z][\w.\-]*)(?:\[[^\]]*\])?\s*(?:[;<>=!~][^"']*)?["']""")


def new_dependency(f: FileFacts, ctx: RiskContext) -> Detail:
    deps = _installing(f, ctx)
    new = new_dependencies(deps, ctx.moved_deps, ctx.known_deps)
    if new:
        named = {dep_key(m) for line in deps.removed_lines[:2000] if len(line) <= 400 for m in _QUOTED_NAME_RE.findall(line)}
        new = [name for name in new if dep_key(name) not in named]
    if not new:
        return None
    more = f" +{len(new) - 2} more" if len(new) > 2 else ""
    return ", ".join(name[:40] for name in new[:2]) + more


def lookalike_dependency(f: FileFacts, ctx: RiskContext) -> Detail:
    deps = _installing(f, ctx)
    return lookalike_replace(deps) or lookalike_rename(deps) or lookalike_new(new_dependencies(deps, ctx.moved_deps, ctx.known_deps), deps, ctx.moved_deps | ctx.known_deps,
                                                                                 ctx.own_names) or (
        popular_renamed(deps.added_lines, deps.removed_lines) or _build_lookalike(deps) if f.kind == "build" else None) or (
        None if f.kind == "lockfile" or f.test_body or f.generated_output or f.release_notes or f.change.kind == "deleted"
        else installed_lookalike(f.change.added_lines, f.change.removed_lines, ctx.own_names | ctx.added_deps)  # an install's name, in a page's sample too (34, 79)
        or (respelled_in_sample(f.change.added_lines, f.change.removed_lines, ctx.own_names) if f.kind == "docs" else None)  # a sample's manifest line (round 75)
        or (_settings_lookalike(f) if f.name == "settings.ini" else None))


# nbdev's settings.ini names a project's requirements on one line, space-separated (round 124b, held-out 641's nbdev:
# ``requirements = … ghapi>=1.0.3 …`` → ``ghappi``): setup.py installs them; read an item a line, as a requirements file.
_SETTINGS_REQUIREMENTS_RE = re.compile(r"^\s*(?:\w+_)?requirements\s*=\s*(?P<items>\S.*)$")


def _settings_lookalike(f: FileFacts) -> str | None:
    def items(lines: list[str]) -> list[str]:
        return [item for line in lines[:200] if len(line) <= 1000 and (m := _SETTINGS_REQUIREMENTS_RE.match(line)) for item in m.group("items").split()]
    added, removed = items(f.change.added_lines), items(f.change.removed_lines)
    return lookalike_rename(msgspec.structs.replace(f.change, path="requirements.txt", added_lines=added, removed_lines=removed)) if added and removed else None


def _build_lookalike(deps: FileChange) -> str | None:
    """A build file's new pinned requirement (tox.ini's ``deps``: ``pytest-xdlst==1.33.0``, round 56: blind 80's hpack) one
    or two letters off a widely used package: the test run installs it on every machine and in CI."""
    new = sorted(dep_names(deps.path, deps.added_lines) - dep_names(deps.path, deps.removed_lines))
    return lookalike_new(new) if new else None


def replaced_dependency(f: FileFacts, ctx: RiskContext) -> Detail:
    deps = _installing(f, ctx)
    return replaced_elsewhere(deps) or build_lines.dependency_source(f.path, deps.added_lines, deps.removed_lines, f.kind == "manifest")


def removes_guard_dependency(f: FileFacts, ctx: RiskContext) -> Detail:
    return removed_guard_dependency(f.change)


def manifest(f: FileFacts, ctx: RiskContext) -> Detail:
    return touches_dependencies(_installing(f, ctx))


def lockfile(f: FileFacts, ctx: RiskContext) -> Detail:
    return is_lockfile(f.path)


def build_config(f: FileFacts, ctx: RiskContext) -> Detail:
    return glob_any(f.path, BUILD_GLOBS) or is_manifest(f.path)


def turned_down_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule ``turns_down``'s check: a protection turned down on a changed line (relay.review.slipped_lines), a bound
    dropped, a check that now lets a failure through, or an answer weakened."""
    found = turned_down(f.change.added_lines, f.change.removed_lines)
    # A compare or an escaping call another reader already names dropped is said once, by it.
    if found and found.startswith(("replaces a constant-time", "builds by interpolation")) and (
            f.edited_check or removes_guard(f, ctx) or unsafe_value(f, ctx) or dangerous_call(f, ctx)):
        return None
    added, removed = f.change.added_lines, f.change.removed_lines
    return found or bound_dropped(f.path, added, removed) or lets_through(f.path, added, removed) or failing_turns.weakened_answer(added, removed)


def failure_exit_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule ``deletes_failure_exit``'s check. A script named without a language is read under its head's
    (relay.review.content_kinds): neofetch as neofetch.sh."""
    return failure_exit_deleted(reading_path(f.path), f.change.added_lines, f.change.removed_lines)
