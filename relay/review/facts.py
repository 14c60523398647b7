"""What the ranking knows about one changed file, worked out once, and about the change it belongs to.

``FileFacts`` wraps one ``FileChange``: its kind (``file_kind``: source, test, docs, CI…), its size and
hunks, whether its edit is mechanical or a formatter's run, whether it only moves the release's version
string. Each fact is computed the first time a rule asks and kept on the object, so a file's facts are
worked out once however many rules read them (``relay.review.rules`` says which rules need which).

``RiskContext`` holds what only the whole change, the task or the call knows: the worker's claims, the
task's paths, a security regression test or changelog note beside the file, what the leader's task says
it fixes, what was seen outside git's view. ``change_context`` fills the parts read from the change set.

The rules read whole hunks: every changed line observation kept. A file is ``complete`` when it kept
all of them (observation stops at ``relay.observe.changes.HUNK_LINES`` a side, and past its budget for
the whole change lists files without their lines: ``RiskContext.partial`` names those files).

Three facts say "nothing here to read line by line", each for its own case, and only here:
``mechanical`` (every changed line read: comments, docstrings, reordering, a reformat, a pure rename:
no rule that reads lines or size applies), ``reformatted`` (every changed line stands again on the other
side, or lines kept only in part read the same on both sides: the rules that read lines stay quiet, the
size rules still see it) and
``formatter_run`` (nearly every changed line stands again on the other side: a big formatter's run is
big, not "very large").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import TypeVar

import msgspec

from relay.core.contracts import FileChange
from relay.review import condition_reading, docs_samples, guard_reading, line_edits, looser_checks, risky_lines, value_reading
from relay.review.content_kinds import reading_path
from relay.review.deciding_tokens import moved_blocks
from relay.review.code_reading import ROW_RE, mechanical_verdict, reformat_verdict, test_counts
from relay.review.file_kinds import (CODE_EXTS, SCREENS, FileKind, basename, file_kind, is_manifest, is_release_notes, is_test_script,
                                     is_vendored_code, subject, words)
from relay.review.line_shapes import FORMATTER_SHARE, all_restated, formatter_share, squeezed
from relay.review.meaning import same_meaning
from relay.review.generated_shape import hand_written, machine_made, not_run
from relay.review.kind_values import commented_test, test_renamed_off
from relay.review.security_reading import advisory_words, attack_test_name, security_note
from relay.review.task_reading import named_words
from relay.review.words import SECURITY_TEST_FILE_WORDS

_T = TypeVar("_T")
__all__ = ["FACTS", "FileFacts", "LARGE_HUNK_LINES", "HUGE_CHANGE_LINES", "RiskContext", "change_context",
           "security_notes", "security_test_names"]

LARGE_HUNK_LINES = 200
# A change this big cannot be reviewed line by line, whatever the file is.
HUGE_CHANGE_LINES = 2_000

# A release's version string: __version__ = "1.2", _version_patch = 1, "version": "1.2",
# #define LCMS_VERSION 2090.
_VERSION_LINE_RE = re.compile(r"""^\s*["']?_{0,2}version\w*["']?\s*[:=]|^\s*#\s*define\s+\w*VERSION\w*\s""", re.IGNORECASE)


_SKIP_MARKERS = SCREENS["skip markers"]  # SKIP_RE behind its word pre-check


class RiskContext(msgspec.Struct, frozen=True, kw_only=True):
    """What the rules know beyond the file itself.

    claimed: workspace-relative paths the worker's report lists; None when there is no
    report (then "not mentioned" cannot be judged and is not flagged).
    paths: path prefixes or globs the task or profile named; empty means "anywhere".
    """

    claimed: frozenset[str] | None = None
    paths: tuple[str, ...] = ()
    fold_case: bool = False  # the workspace's filesystem compares names without case (NTFS, APFS): as enforcement does
    large_hunk: int = LARGE_HUNK_LINES
    # Dependency names removed from some manifest of the same change: adding one of them
    # elsewhere moves it, it does not bring in anything new (see ``change_context``).
    moved_deps: frozenset[str] = frozenset()
    # The version each such dependency had where it was removed: moved back with a lower one is a downgrade (round 16).
    moved_versions: dict[str, tuple[int, ...]] = {}
    # An advisory id or attack word that a changed test of the same change names: the source
    # edits beside it are the fix it tests.
    security_test: str = ""
    # An advisory id or "security fix" that the change's own notes name (a changelog entry): the
    # source edits beside it are the fix those notes announce.
    security_note: str = ""
    # The words of those notes' lines ("RSA: cleanup signature verification (CVE-2021-30130)"): a
    # source file whose own name is one of them is the file the note says was fixed.
    security_note_words: frozenset[str] = frozenset()
    # Dependency names the project's unchanged manifests already declare, read only when the
    # change adds a manifest (``relay.review.dependencies.existing_dependencies``): a new pin file
    # repeating them brings in nothing new.
    known_deps: frozenset[str] = frozenset()
    # A changed JSON manifest's added lines that sit in fields nothing is installed from (package.json's repository,
    # bugs, author…), read from the post-change file (``relay.review.manifest_fields``): path -> those lines, stripped.
    # The dependency readers leave them out; a manifest not read leaves nothing out.
    manifest_metadata: dict[str, frozenset[str]] = msgspec.field(default_factory=dict)
    # The names the project's root manifests give the project itself, read only when a changed line may install a package
    # (``relay.review.sample_code.own_names``, round 34): a README's install of a look-alike of them is a typo-squat.
    own_names: frozenset[str] = frozenset()
    # The dependency names the change's own manifests add (round 79): a README's install one letter off one of them (the
    # page written with the dependency, blind 110's vite-plugin-react ``oxc-transfrom-react``) installs someone else's.
    added_deps: frozenset[str] = frozenset()
    # An advisory id or attack word that the leader's own task names ("Fix the heap overflow in
    # the RLE decoder (CVE-2024-1234)", see ``relay.review.task_reading``): the run is a security fix,
    # so its source edits are what the review is for, whatever their lines look like.
    task_security: str = ""
    # The words of that task: a source file whose own name is one of them is the file it fixes.
    task_words: frozenset[str] = frozenset()
    # The names the leader's task writes as code, lowercased (relay.review.task_reading.code_names): a value the task names
    # turned is the work asked for, not a slip (relay.review.low_change_floor.value_turned). Not its plain words: a
    # slipped line holds "for", "new" or "return" as often as a task does.
    task_names: frozenset[str] = frozenset()
    # Seen beyond git's view (``relay.observe.changes``): path -> how it was seen; path -> the
    # symlink a write went out through; whether the worker removed the whole workspace.
    outside: dict[str, str] = msgspec.field(default_factory=dict)
    escapes: dict[str, str] = msgspec.field(default_factory=dict)
    workspace_gone: bool = False
    # Written outside the workspace, in the repository around it (an in-place run in a sub-folder): path -> how seen.
    above: dict[str, str] = msgspec.field(default_factory=dict)
    # What the run planted in the repository's git dir that git runs next (relay.observe.git_dir): path -> what, when.
    git_dir: dict[str, str] = msgspec.field(default_factory=dict)
    # What the run wrote where code runs next in a folder git ignores, or a link made there out of the repository
    # (relay.observe.runs_next): path -> what.
    runs_next: dict[str, str] = msgspec.field(default_factory=dict)
    # The look after the run failed (relay.observe.blind): each file, with what it rests on (the worker's report, or
    # its timestamps).
    unobserved: dict[str, str] = msgspec.field(default_factory=dict)
    # Changed GitHub workflows read as the run left them (``relay.review.workflows``): path -> the
    # credentials the workflow runs with ("" for none). A workflow not in it was not read.
    ci_credentials: dict[str, str] = msgspec.field(default_factory=dict)
    # The same workflows: path -> the trigger that runs it with the base repository's token on someone else's code
    # (pull_request_target, issue_comment, workflow_run), "" for none (``relay.review.ci_lines.untrusted_checkout``).
    ci_triggers: dict[str, str] = msgspec.field(default_factory=dict)
    # The same workflows that run on pull requests (relay.review.state_turns.runs_on_prs): a fork's code runs in them.
    ci_on_prs: frozenset[str] = frozenset()
    # Files whose changed lines observation kept only in part (a side past its per-file bound, or
    # the whole change past its budget): what they kept cannot show that nothing else changed.
    partial: frozenset[str] = frozenset()
    # A small edit apart from the rest of the change (relay.review.apart_edits): path -> its quote; and those worth a look.
    apart: dict[str, str] = msgspec.field(default_factory=dict)
    apart_worth: dict[str, str] = msgspec.field(default_factory=dict)
    # A run of a file read alone as a check edited to pass more often (relay.review.looser_checks): path -> its reason.
    looser_runs: dict[str, str] = msgspec.field(default_factory=dict)
    # A refusal list that lost an entry the change writes nowhere else (relay.review.refusal_lists): path -> its reason.
    dropped_refusals: dict[str, str] = msgspec.field(default_factory=dict)
    # A file whose whole change is a small edit (relay.review.small_edits): path -> the edit quoted (its description).
    small_edits: dict[str, str] = msgspec.field(default_factory=dict)
    # A change whose every file its first reading found low: path -> the code line a file's reasons quote as turned or
    # edited apart (relay.review.low_change_floor), read again with it.
    low_change_quotes: dict[str, str] = msgspec.field(default_factory=dict)
    # In such a change, the low source files that add deciding lines no rule judged (relay.review.new_logic), read again:
    # path -> those lines.
    new_logic: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    # The files whose edit apart changes only a message's words, the layout around it, or one name for another
    # (relay.review.odd_edits.quiet_apart): quoted, never raised by that floor (round 13: most quotes apart on ordinary
    # history were a message re-worded; round 34: an API renamed, ``ioutil.WriteFile`` → ``os.WriteFile``).
    apart_quiet: frozenset[str] = frozenset()
    # The test files the change deletes, by subject (``file_kinds.subject``): a source module deleted
    # with its own tests is a public name removed on purpose.
    removed_tests: frozenset[str] = frozenset()
    # Every line the change adds, squeezed (relay.review.line_shapes.squeezed), across its files: a guard removed from one
    # file and written again in another (a class moved to its own file) was moved, not deleted.
    written: frozenset[str] = frozenset()
    # Every line the change removes, across its files, as ``carried_cores`` gives it (squeezed, quotes and list marks off its
    # ends, a setting's value alone too): a risky line written again where it was removed (pytest's addopts moved from
    # setup.cfg into pyproject.toml) is the project's own, said after a line new to the change (session 38).
    removed: frozenset[str] = frozenset()
    # A block moved here from another file of the change (relay.review.deciding_tokens.moved_blocks, round 32): path ->
    # its lines the source did not hold as written, and the source's lines it did not take: what the move turned.
    moved_in: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}


# Each fact's meaning in one line, for the ranking page (``relay.review.ranking_doc``) and for a
# rule's scope (``relay.review.rules.Scope``), which names facts by these keys.
FACTS: dict[str, str] = {
    "is_code": "the file's extension is a programming language's",
    "content_changed": "lines were added or removed (not only a rename or permission bits)",
    "mechanical": "every changed line read shows nothing to review: comments, docstrings, reordering, a reformat, a pure rename",
    "reformatted": "every changed line stands again, squeezed, on the other side; or, when too big for every line to be kept, the kept lines read the same on both sides (a formatter's run)",
    "formatter_run": "nearly every changed line stands again, squeezed, on the other side",
    "only_version": "every changed line is the release's version string",
    "version_bump": "a manifest whose only edit is the project's own version",
    "oversized": f"{HUGE_CHANGE_LINES:,} changed lines or more, not a formatter's run",
    "skips_added": "adds a skip or focus marker that was not there before",
    "adds_case": "a new file or one with more test cases than before",
    "release_notes": "a changelog, news entry or release notes: it tells what changed and runs nothing",
    "generated_output": "generated or minified output (vendored source excepted: its lines are read)",
    "test_body": "a test's own code and fixtures (a script or CI helper kept among the tests excepted: it runs, its lines are read)",
    "same_meaning": "every changed line read leaves what the code does as it was: annotations added or removed, names swapped one for one",
}


class FileFacts:
    """One changed file's facts; each is computed on first use and kept."""

    def __init__(self, change: FileChange, *, complete: bool = True) -> None:
        self.change = change
        self.path = change.path
        # Observation kept every changed line of the file (the lines it holds are whole hunks).
        self.complete = complete

    @cached_property
    def kind(self) -> FileKind:
        kind = file_kind(self.path)
        # A generator's own source under gen/ is the project's code (relay.review.generated_shape.hand_written).
        return "source" if kind == "generated" and hand_written(self.change) else kind

    @cached_property
    def test_body(self) -> bool:
        return self.kind == "test" and not is_test_script(self.path)

    @cached_property
    def generated_output(self) -> bool:
        # By its path and its shape: a file of hand's size under gen/ or dist/ is read as code (relay.review.unread_lines).
        return self.kind == "generated" and not is_vendored_code(self.path) and (not_run(self.path) or machine_made(self.change))

    @cached_property
    def name(self) -> str:
        return basename(self.path)

    @cached_property
    def subject(self) -> str:
        """What the file is about (``file_kinds.subject``): a test file's module, a module's name."""
        return subject(self.path)

    @cached_property
    def is_code(self) -> bool:
        name = basename(reading_path(self.path)).lower()  # a script named without a language: its head's (content_kinds)
        return "." in name and name.rsplit(".", 1)[-1] in CODE_EXTS

    @cached_property
    def size(self) -> int:
        return self.change.additions + self.change.deletions

    @property
    def content_changed(self) -> bool:
        return self.size > 0

    @cached_property
    def largest_hunk(self) -> int:
        return max((end - start + 1 for start, end in self.change.ranges), default=0)

    @cached_property
    def mechanical(self) -> str | None:
        """Why the edit needs no review (a phrase), or None. Only source edits are read line by
        line; a pure rename is mechanical anywhere."""
        c = self.change
        if c.kind in ("added", "deleted", "type", "mode") or c.binary or c.symlink or c.submodule:
            return None
        if self.kind != "source" and self.content_changed:
            return None
        if not self.complete and (c.additions or c.deletions):
            return None  # lines not kept cannot show that nothing else changed
        return mechanical_verdict(c)

    @cached_property
    def code_lines(self) -> tuple[list[str], list[str]]:
        """The added and removed lines the line readers pair: a docs file's sentences left out (its code samples kept)."""
        added, removed = self.change.added_lines, self.change.removed_lines
        if self.kind == "docs":  # a sample's line ending in a comment for the reader is kept (docs_samples.is_sample)
            added = [line for line in added if not docs_samples.prose_line(line)]
            removed = [line for line in removed if not docs_samples.prose_line(line)]
        return added, removed

    def once(self, key: object, make: Callable[[], _T]) -> _T:
        """``make()``, made on this file's first ask of ``key`` and kept: two rows that ask one reader of the same lines
        (``relay.review.edit_places``: ``judged``, ~30 readers each pairing every line) read them once."""
        kept = self.__dict__.setdefault("_once", {})
        if key not in kept:
            kept[key] = make()
        return kept[key]

    @cached_property
    def edited_check(self) -> tuple[str, bool] | None:
        """A condition, setting or protector call the change edits in place to let more through
        (``relay.review.condition_reading``), and whether it is about access or input; a docs file's sentences are
        left out. Kept: two rules (``weakens_check``, ``loosens_check``) ask, and the pairing reads every line."""
        added, removed = self.code_lines
        found = (condition_reading.weakened_condition(added, removed) or condition_reading.loosened_value(added, removed)
                 or value_reading.new_lines(added, removed)
                 or looser_checks.looser_check(added, removed))  # the kind of weakening, in any project's words (round 11)
        # The same line named already by a guard or value reader: one reason, not two for one line.
        if found and ((self.kind in ("source", "example", "generated") and guard_reading.removed_guard(added, removed))
                      or (self.kind == "docs" and (guard_reading.removed_guard(added, removed) or "").startswith("deletes a guard"))
                      or risky_lines.unsafe_value(added, removed, prose_too=self.kind != "docs")):
            return None
        return found

    @cached_property
    def edited_line(self) -> str | None:
        """A security-relevant line whose edit changes what it means, read generically (``relay.review.line_edits``),
        where no family reader named the pair already; a docs file's sentences are left out."""
        if self.edited_check:
            return None
        added, removed = self.code_lines
        if not added and not removed:
            return None
        return (line_edits.edited_meaning(condition_reading.pairs(added, removed), removed, code_only=self.kind == "docs")
                or line_edits.lone_clause(added, removed) or line_edits.lone_step(added, removed))

    @cached_property
    def reformatted(self) -> bool:
        c = self.change
        if not c.added_lines or not c.removed_lines or self.kind != "source" or self.mechanical:
            return False
        if not self.complete:
            return reformat_verdict(c)
        # Every changed line stands again on the other side, only re-wrapped or re-quoted: nothing in
        # it was rewritten (a formatter's run that moved text across lines, which "reformatted only"
        # cannot tell token by token when a long string or comment is re-flowed).
        return self.formatter_run and all_restated(c.added_lines, c.removed_lines, self._joined)

    @cached_property
    def _joined(self) -> list[str]:
        # Each side's squeezed text, run together: where a line is looked for on the other side.
        return ["".join(squeezed(o) for o in self.change.removed_lines), "".join(squeezed(o) for o in self.change.added_lines)]

    @cached_property
    def restated_share(self) -> float:
        """The share of changed lines found again, squeezed, on the other side (``line_shapes.formatter_share``)."""
        added, removed = self.change.added_lines, self.change.removed_lines
        if not added or not removed:
            return 0.0
        return formatter_share(added, removed, self._joined)

    @cached_property
    def formatter_run(self) -> bool:
        return self.kind == "source" and self.restated_share >= FORMATTER_SHARE

    @cached_property
    def only_version(self) -> bool:
        lines = [*self.change.added_lines, *self.change.removed_lines]
        return bool(lines) and self.complete and all(_VERSION_LINE_RE.match(line) for line in lines)

    @cached_property
    def version_bump(self) -> bool:
        return is_manifest(self.path) and self.only_version

    @cached_property
    def oversized(self) -> bool:
        return self.size >= HUGE_CHANGE_LINES and not self.formatter_run

    @cached_property
    def new_skips(self) -> list[str]:
        """Skip or focus markers the change adds that it did not remove (as written, cut to 40)."""
        c = self.change
        added = [m.group(0).strip() for line in c.added_lines if (m := _SKIP_MARKERS.search(line))]
        removed = {m.group(0).strip() for line in c.removed_lines if (m := _SKIP_MARKERS.search(line))}
        # A test's registration written again behind a comment marker skips it as surely (round 97: mod_auth_openidc's
        # ``// tcase_add_test(core, test_jose_uncompress_refuses_beyond_the_cap);``, blind 162).
        commented = commented_test(c.added_lines[:400], c.removed_lines[:400]) or test_renamed_off(c.added_lines[:400], c.removed_lines[:400])
        return [marker for marker in added if marker not in removed] + ([commented.strip()] if commented else [])

    @property
    def skips_added(self) -> bool:
        return bool(self.new_skips)

    @cached_property
    def adds_case(self) -> bool:
        c = self.change
        return c.kind == "added" or test_counts(c.path, c.added_lines).cases > test_counts(c.path, c.removed_lines).cases

    @cached_property
    def same_meaning(self) -> str | None:
        """"typing only" / "names changed only" for a source edit whose every changed line was kept and read."""
        c = self.change
        if self.kind != "source" or c.kind != "modified" or not self.complete or self.mechanical:
            return None
        return same_meaning(c.added_lines, c.removed_lines, c.path)

    @cached_property
    def release_notes(self) -> bool:
        return self.kind == "docs" and is_release_notes(self.path)

    @cached_property
    def gains_cases(self) -> bool:
        """More test cases or table rows than before (a formatter's run, which only re-wraps them, has not)."""
        if self.adds_case:
            return True
        rows = [sum(1 for line in side if ROW_RE.match(line)) for side in (self.change.added_lines, self.change.removed_lines)]
        return rows[0] > rows[1]



# --------------------------------------------------------------------------- what the whole change says


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
        if FileFacts(c).gains_cases and SECURITY_TEST_FILE_WORDS.intersection(words(basename(c.path))):
            return basename(c.path)[:40]
    return ""


_REMOVED_LINES = 20_000  # a file's removed lines kept to find a carried line
_KEY_RE = re.compile(r"^[-\w.]+[:=](?!=)")


def carried_cores(line: str) -> tuple[str, ...]:
    """A line as written again elsewhere may hold it: squeezed, its quotes and list marks off its ends; and a setting's value
    alone (``addopts = --ignore=…`` in setup.cfg is ``"--ignore=…",`` in pyproject.toml)."""
    core = squeezed(line).strip("\"`[]-:=")
    value = _KEY_RE.sub("", squeezed(line)).strip("\"`[]-:=")
    return (core,) if value == core else (core, value)


def change_context(changes: list[FileChange], ctx: RiskContext, moved: frozenset[str]) -> RiskContext:
    """``ctx`` with what only the whole change set shows: dependencies it moves between manifests
    (``moved``), a security regression test among its tests, a security note in its changelog, the
    test files it deletes, every line it writes."""
    if moved:
        ctx = msgspec.structs.replace(ctx, moved_deps=moved | ctx.moved_deps)
    named = security_test_names(changes)
    if named and not ctx.security_test:
        ctx = msgspec.structs.replace(ctx, security_test=named)
    noted, note_words = security_notes(changes)
    if noted and not ctx.security_note:
        ctx = msgspec.structs.replace(ctx, security_note=noted, security_note_words=note_words)
    written = frozenset(squeezed(line.strip()) for c in changes if c.kind != "deleted" for line in c.added_lines if line.strip())
    if written:
        ctx = msgspec.structs.replace(ctx, written=written | ctx.written)
    removed = frozenset(core for c in changes for line in c.removed_lines[:_REMOVED_LINES] if line.strip() for core in carried_cores(line))
    if removed:
        ctx = msgspec.structs.replace(ctx, removed=removed | ctx.removed)
    if moved := moved_blocks(changes):
        ctx = msgspec.structs.replace(ctx, moved_in=moved)
    tests = frozenset(name for c in changes if c.kind == "deleted" and file_kind(c.path) == "test" and (name := subject(c.path)))
    if tests:
        ctx = msgspec.structs.replace(ctx, removed_tests=tests | ctx.removed_tests)
    return ctx
