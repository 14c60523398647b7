"""Where the worker's report and the observed changes disagree, and the worker's test counts as claimed.

``claims_flags`` says each disagreement in one short line (the loud facts first: the workspace deleted, writes
outside it); ``tests_from_report`` never shows passes from a worker that ran no test. Both fill the packet
``relay.review.packet`` builds; the text cuts it uses are here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from relay.core.contracts import FileChange, Tests, WorkerReport
from relay.observe.changes import ChangeSet, normalize_reported
from relay.observe.reported import reported_absolute, reported_text
from relay.review.risk import rank_changes

__all__ = ["claimed_paths", "claims_flags", "cut_path", "cut_text", "tests_from_report"]

_PATH_CHARS = 160
_FLAG_CHARS = 180
_MAX_FLAGS = 6
_FLAG_NAMES = 3


def cut_text(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def cut_path(path: str, limit: int = _PATH_CHARS) -> str:
    # Keep the end of a long path: the file name is what a reviewer recognises.
    return path if len(path) <= limit else "…" + path[-(limit - 1) :]


def _names(paths: Sequence[str]) -> str:
    # The count comes first so that cutting the flag never loses how many there were.
    shown = ", ".join(cut_path(p, 48) for p in paths[:_FLAG_NAMES])
    return f"({len(paths)}) {shown}" + (" …" if len(paths) > _FLAG_NAMES else "")


class _Claims:
    """The worker's file list, matched against observed paths in linear time.

    A relative claim must equal the observed path; an absolute one (the worker may name
    files by their full path) matches an observed path that it ends with.
    """

    def __init__(self, report: WorkerReport) -> None:
        self.claims: list[str] = []
        self._index: dict[str, str] = {}
        for raw in report.files_changed:
            text = reported_text(raw)  # a backslash separates on Windows only (relay.observe.reported)
            for claim in normalize_reported([text], beside=True):  # `../x`: a write beside the workspace it owns up to
                if claim in self._index and self._index[claim] == claim:
                    continue
                self.claims.append(claim)
                self._index[claim] = claim
                if reported_absolute(text):
                    parts = claim.split("/")
                    for i in range(1, len(parts)):
                        self._index.setdefault("/".join(parts[i:]), claim)

    def mentions(self, change: FileChange) -> bool:
        return change.path in self._index or (change.old_path is not None and change.old_path in self._index)

    def unmatched(self, files: Sequence[FileChange]) -> list[str]:
        hit = {self._index[p] for c in files for p in (c.path, c.old_path) if p is not None and p in self._index}
        return [claim for claim in self.claims if claim not in hit]


def claimed_paths(files: Sequence[FileChange], report: WorkerReport) -> frozenset[str]:
    """The observed paths the worker's report names (by their path or the one they were renamed from)."""
    claims = _Claims(report)
    return frozenset(c.path for c in files if claims.mentions(c))


def claims_flags(files: Sequence[FileChange], report: WorkerReport | None, *, source: str = "git", note: str | None = None,
                 changeset: ChangeSet | None = None) -> list[str]:
    """Where the worker's report and the observed changes disagree, one short line each.

    What the relay could not look at (``changeset.unseen``) is never called unchanged; the
    loud facts (the workspace deleted, writes through symlinks leading out) come first.
    """
    flags: list[str] = []
    unseen = changeset.unseen if changeset is not None else {}
    if changeset is not None and changeset.workspace_gone:
        flags.append("WORKSPACE DELETED: the worker removed the whole workspace; restore it from git or a backup")
    if changeset is not None and changeset.above:
        flags.append(f"WRITTEN OUTSIDE THE WORKSPACE, in the repository around it ({len(changeset.above)}): "
                     f"{', '.join(list(changeset.above)[:3])}; check them yourself (not diffed)")
    if changeset is not None and changeset.runs_next:
        flags.append(f"WRITTEN WHERE CODE RUNS NEXT, in folders git ignores ({len(changeset.runs_next)}): "
                     f"{', '.join(list(changeset.runs_next)[:3])}; check them yourself (not diffed)")
    if changeset is not None and changeset.escapes:
        shown = "; ".join(f"{p} via {v}" for p, v in list(changeset.escapes.items())[:2])
        flags.append(f"written outside the workspace through a symlink ({len(changeset.escapes)}): {shown}")
    if source == "report" and changeset is not None and changeset.unobserved:
        # First and loud: a SUCCESS over the worker's own list would be a guard walked around (relay.observe.blind).
        flags.insert(0, f"NOT OBSERVED: the relay could not look at the change after the run ({changeset.unobserved}); "
                        "the files are the worker's report and what their timestamps show: check them yourself")
    elif source == "report":
        flags.append("changes were not observed: the file list is the worker's own claim")
    if report is not None:
        claims = _Claims(report)
        if source == "report" and changeset is not None and changeset.outside:
            unreported = [c.path for c in files if c.path in changeset.outside and not claims.mentions(c)]
            if unreported:
                flags.append(f"changed by their timestamps but not in the worker's report {_names(unreported)}")
        if source != "report":
            unchanged = [c for c in claims.unmatched(files) if c not in unseen]
            if unchanged:
                flags.append(f"claimed but unchanged {_names(unchanged)}")
            not_seen = [c for c in claims.unmatched(files) if c in unseen]
            if not_seen:
                flags.append(f"claimed, outside git's view, not confirmed {_names(not_seen)}")
            unmentioned = [c.path for c in rank_changes(files) if not claims.mentions(c)]
            if unmentioned:
                flags.append(f"changed but not in the worker's report {_names(unmentioned)}")
        if not report.tests_run and report.tests_passed > 0:
            flags.append(f"tests passed claimed ({report.tests_passed}) but no test was run")
    if note and not (changeset is not None and changeset.unobserved):  # else the first flag says it
        flags.append(f"observation: {note}")
    return [cut_text(f, _FLAG_CHARS) for f in flags[:_MAX_FLAGS]]


def tests_from_report(report: WorkerReport | None) -> Tests:
    """The worker's test counts, marked as claimed.

    A "passed" count from a worker that says it ran no test is not a pass: it is moved
    to ``not_run`` (and ``claims_flags`` says so), so the packet never shows passes that
    did not happen.
    """
    if report is None:
        return Tests(source="none")
    if not report.tests_run and not (report.tests_passed or report.tests_failed or report.tests_not_run):
        return Tests(source="none")  # the worker claims nothing about tests: say nothing is known
    if not report.tests_run and report.tests_passed > 0:
        return Tests(passed=0, failed=report.tests_failed, not_run=report.tests_not_run + report.tests_passed, source="claimed")
    return Tests(passed=report.tests_passed, failed=report.tests_failed, not_run=report.tests_not_run, source="claimed")
