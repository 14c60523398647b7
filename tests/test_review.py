"""relay.review.packet against the labelled corpus, plus the packet's hard byte budget."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest

from relay.observe.changes import ChangeSet, observe_changes
from relay.core.contracts import Changes, ErrorInfo, FileChange, Packet, ReviewTarget, Status, Tests, WorkerReport
from relay.review.packet import (
    rank_changes,
    FULL_HINT,
    MAX_FILES,
    MAX_TARGETS,
    PACKET_BUDGET_BYTES,
    build_review,
    claims_flags,
    fit_packet,
    format_lines,
)
from relay.review.packet import tests_from_report as claimed_tests
from relay.review.risk import risk_rank
from relay.observe.snapshot import take_snapshot
import conftest
from review_corpus import CASES, Case, git, make_repo, run_case, write

__all__: list[str] = []  # a test module exports nothing

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is required")


# --------------------------------------------------------------------------- corpus


@needs_git
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_review_corpus_case(case: Case, tmp_path: Path) -> None:
    out = run_case(case, tmp_path / "repo")
    targets = out.target_files()
    all_paths = {c.path for c in out.assessed}
    if case.top:
        assert targets[0] == case.top, targets
    for path in case.must_target:
        assert path in targets, (path, targets)
    for path in case.absent:
        assert path not in all_paths, path
    for high, low in case.outranks:
        assert targets.index(high) < targets.index(low), targets
    for path, risk in case.risk.items():
        assert out.by_path(path).risk == risk, (path, out.by_path(path).reasons)
    for expected in case.flags:
        assert any(expected in flag for flag in out.flags), out.flags
    for path, ranges in case.ranges.items():
        assert out.by_path(path).ranges == ranges
    # the section's invariants hold for every case
    assert out.changes.count == len(out.assessed)
    assert out.changes.risk == max((c.risk for c in out.assessed), key=risk_rank)
    ranks = [risk_rank(t.risk) for t in out.changes.review]
    assert ranks == sorted(ranks, reverse=True)
    assert len(out.changes.review) <= MAX_TARGETS and len(out.changes.files) <= MAX_FILES
    packet = fit_packet(Packet(ok=True, run_id="r", status=Status.SUCCESS, summary="done", changes=out.changes, flags=out.flags))
    assert len(msgspec.json.encode(packet)) <= PACKET_BUDGET_BYTES


@needs_git
def test_corpus_deleted_test_among_forty_edits_is_said_truncated(tmp_path: Path) -> None:
    out = run_case(CASES[0], tmp_path / "repo")
    assert out.changes.count == 41 and len(out.changes.files) == MAX_FILES
    assert out.changes.truncated and FULL_HINT in out.changes.truncated and "41" in out.changes.truncated


# --------------------------------------------------------------------------- budget


def _packet(changes: Changes, flags: list[str], *, summary: str = "Implemented the change.") -> Packet:
    return Packet(ok=True, run_id="run-20240101-abcdef", status=Status.SUCCESS, summary=summary, changes=changes, flags=flags, tests=Tests(passed=3, source="claimed"))


def _observe(tmp_path: Path, files: dict[str, str], work) -> tuple[Changes, list[str]]:  # type: ignore[no-untyped-def]
    root = make_repo(tmp_path / "repo", files)
    snap = take_snapshot(root)
    work(root)
    changeset = observe_changes(snap, root)
    changes, flags, _ = build_review(changeset, report=WorkerReport(summary="s", files_changed=["x.py"]))
    return changes, flags


@needs_git
def test_packet_budget_one_line_change_fits_untouched(tmp_path: Path) -> None:
    changes, flags = _observe(tmp_path, {"x.py": "a = 1\n"}, lambda r: (r / "x.py").write_text("a = 2\n", encoding="utf-8"))
    packet = _packet(changes, flags)
    assert fit_packet(packet) is packet
    assert len(msgspec.json.encode(packet)) < 600
    assert packet.changes.truncated is None


@needs_git
def test_packet_budget_hundred_thousand_line_rewrite(tmp_path: Path) -> None:
    big = "".join(f"value_{i} = {i}\n" for i in range(100_000))
    changes, flags = _observe(tmp_path, {"x.py": big}, lambda r: (r / "x.py").write_text(big.replace(" = ", " == "), encoding="utf-8"))
    assert changes.count == 1 and changes.review[0].risk == "high"
    packet = fit_packet(_packet(changes, flags))
    assert len(msgspec.json.encode(packet)) <= PACKET_BUDGET_BYTES
    assert changes.review[0].lines == "1-100000"


# A heavy case (5,000 files written, observed and reviewed: ~5.6 s of CPU, the costliest test of the fast tier by
# five times, bench_suite.py --per-test): the process tier, which CI runs. The packet's budget on the fast tier:
# the adversarial sizes below and the 100,000-line rewrite above.
@pytest.mark.process
@needs_git
def test_packet_budget_five_thousand_files(tmp_path: Path) -> None:
    files = {f"pkg{i % 50:02d}/some_longer_module_name_{i:05d}.py": f"v = {i}\n" for i in range(5000)}

    def work(root: Path) -> None:
        for rel in files:
            (root / rel).write_text((root / rel).read_text(encoding="utf-8") + "w = 1\n", encoding="utf-8")
        (root / "pkg00/some_longer_module_name_00000.py").unlink()

    root = conftest.make_repo(tmp_path / "repo", files)  # by one git fast-import and one checkout
    assert not git(root, "status", "--porcelain") and len(git(root, "ls-files").splitlines()) == 5000
    snap = take_snapshot(root)
    work(root)
    changes, flags, _ = build_review(observe_changes(snap, root), report=WorkerReport(summary="s", files_changed=["x.py"]))
    assert changes.count == 5000
    packet = fit_packet(_packet(changes, flags, summary="S" * 3000))
    encoded = msgspec.json.encode(packet)
    assert len(encoded) <= PACKET_BUDGET_BYTES
    assert packet.changes.count == 5000
    assert packet.changes.truncated and FULL_HINT in packet.changes.truncated
    assert packet.changes.review[0].file == "pkg00/some_longer_module_name_00000.py"


def test_fit_packet_under_adversarial_sizes_stays_in_budget_and_says_what_was_cut() -> None:
    long_path = "deep/" * 60 + "file.py"
    review = [ReviewTarget(file=f"{long_path}{i}", lines="1-2,4-9,20-30 +5 more", risk="high", reason="r" * 300) for i in range(40)]
    changes = Changes(count=40, files=[f"{long_path}{i}" for i in range(40)], risk="high", review=review, source="git")
    packet = Packet(
        ok=False, run_id="r" * 40, status=Status.WORKER_ERROR, summary="s" * 50_000, changes=changes,
        flags=["f" * 500] * 20, error=ErrorInfo(code=Status.WORKER_ERROR, message="m" * 5000, hint="h" * 5000),
    )
    out = fit_packet(packet)
    assert len(msgspec.json.encode(out)) <= PACKET_BUDGET_BYTES
    assert out.changes.truncated and FULL_HINT in out.changes.truncated
    assert out.changes.count == 40
    assert packet.changes.review == review  # the input is not mutated


def test_fit_packet_drops_lowest_risk_targets_first() -> None:
    review = [ReviewTarget(file=f"f{i}.py", lines="1", risk=risk, reason="x" * 100) for i, risk in enumerate(["high", "high", "medium", "medium", "low", "low", "low", "low"])]
    packet = _packet(Changes(count=8, files=[t.file for t in review], risk="high", review=review), [], summary="s" * 900)
    out = fit_packet(packet, budget=1200)
    assert len(msgspec.json.encode(out)) <= 1200
    kept = [t.file for t in out.changes.review]
    assert kept == [t.file for t in review[: len(kept)]] and "f0.py" in kept
    assert "review target" in (out.changes.truncated or "") or "shortened reasons" in (out.changes.truncated or "")


def test_fit_packet_drops_file_names_no_target_names_before_any_target() -> None:
    # Regression (risk corpus): a release's packet near the budget kept 6 or 7 of its 8 targets
    # but all 12 file names, so the fixed file (pip 23.3's vcs/mercurial.py) fell out of the targets
    # while names of files ranked below it stayed.
    review = [ReviewTarget(file=f"src/pkg/module_{i}.py", lines="10-20", risk="high", reason="r" * 60) for i in range(8)]
    files = [t.file for t in review] + [f"docs/reference/chapter_{i}_of_the_very_long_user_guide.rst" for i in range(4)]
    packet = _packet(Changes(count=40, files=files, risk="high", review=review), [], summary="s" * 300)
    size = len(msgspec.json.encode(packet))
    out = fit_packet(packet, budget=size - 40)
    assert [t.file for t in out.changes.review] == [t.file for t in review]
    assert out.changes.files[:8] == [t.file for t in review] and len(out.changes.files) < 12
    assert "file name" in (out.changes.truncated or "") and "review target" not in (out.changes.truncated or "")


def test_fit_packet_leaves_a_packet_within_budget_alone() -> None:
    packet = _packet(Changes(count=1, files=["a.py"], risk="low", review=[ReviewTarget(file="a.py", lines="1", risk="low")]), [])
    assert fit_packet(packet) is packet


# --------------------------------------------------------------------------- section shape


def _cs(*files: FileChange, source: str = "git", note: str | None = None) -> ChangeSet:
    return ChangeSet(source=source, files=list(files), note=note)  # type: ignore[arg-type]


def test_build_review_caps_targets_and_files_but_counts_all() -> None:
    files = [FileChange(path=f"src/f{i:03d}.py", additions=i % 7 + 1, ranges=[(1, i % 7 + 1)], added_lines=[f"x = {i}"]) for i in range(30)]
    files.append(FileChange(path="src/auth/token.py", additions=1, ranges=[(3, 3)], added_lines=["ttl = 30"]))
    changes, flags, assessed = build_review(_cs(*files), report=None)
    assert changes.count == 31 and len(changes.review) == MAX_TARGETS and len(changes.files) == MAX_FILES
    assert changes.review[0].file == "src/auth/token.py" and changes.risk == "high"
    # within one risk, biggest first
    sizes = [next(f for f in files if f.path == t.file).additions for t in changes.review[1:]]
    assert sizes == sorted(sizes, reverse=True)
    assert len(assessed) == 31 and all(a.reasons for a in assessed)
    assert flags == []


def test_build_review_no_changes_has_no_risk() -> None:
    changes, flags, assessed = build_review(_cs(), report=WorkerReport(summary="nothing", files_changed=[]))
    assert changes.count == 0 and changes.risk is None and changes.review == [] and assessed == []
    assert msgspec.json.encode(changes) == b'{"source":"git"}'


def test_build_review_deleted_file_has_empty_lines_and_says_its_size() -> None:
    changes, _, _ = build_review(_cs(FileChange(path="old.py", kind="deleted", deletions=120)), report=None)
    target = changes.review[0]
    assert target.lines == "" and "120 lines" in target.reason


def test_build_review_report_source_is_flagged() -> None:
    changes, flags, _ = build_review(_cs(FileChange(path="a.py"), source="report", note="git failed"), report=WorkerReport(summary="s", files_changed=["a.py"]))
    assert changes.source == "report"
    assert any("not observed" in f for f in flags) and any("git failed" in f for f in flags)


def test_claims_flags_match_absolute_claims_by_tail_and_bound_their_length() -> None:
    files = [FileChange(path=f"src/m{i}.py") for i in range(10)]
    report = WorkerReport(summary="s", files_changed=["/abs/ws/src/m0.py", *(f"missing/very/long/{'x' * 200}{i}.py" for i in range(5))])
    flags = claims_flags(files, report)
    assert any(f.startswith("claimed but unchanged (5)") for f in flags)
    unmentioned = next(f for f in flags if "not in the worker's report" in f)
    assert "src/m0.py" not in unmentioned and "(9)" in unmentioned
    assert all(len(f) <= 180 for f in flags)


def test_tests_from_report_marks_claims_and_refuses_passes_without_a_run() -> None:
    assert claimed_tests(None) == Tests(source="none")
    ran = WorkerReport(summary="s", files_changed=[], tests_passed=5, tests_failed=1, tests_run=True)
    assert claimed_tests(ran) == Tests(passed=5, failed=1, source="claimed")
    not_ran = WorkerReport(summary="s", files_changed=[], tests_passed=12, tests_not_run=2, tests_run=False)
    assert claimed_tests(not_ran) == Tests(passed=0, not_run=14, source="claimed")
    assert "tests passed claimed (12) but no test was run" in claims_flags([], not_ran)


@pytest.mark.parametrize(
    ("ranges", "expected"),
    [
        ([], ""),
        ([(12, 12)], "12"),
        ([(10, 20), (24, 28), (40, 44)], "10-28,40-44"),
        ([(1, 1), (10, 10), (20, 20), (30, 30), (40, 40)], "1,10,20 +2 more"),
        ([(5, 9), (1, 3)], "1-9"),
    ],
)
def test_format_lines_merges_nearby_hunks(ranges: list[tuple[int, int]], expected: str) -> None:
    assert format_lines(ranges) == expected


@needs_git
def test_review_of_a_pre_existing_dirty_repo_blames_nothing(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo", {"a.py": "a\n", "b.py": "b\n"})
    write(root, "a.py", "a\nuser\n")
    snap = take_snapshot(root)
    git(root, "status")  # any git the user runs meanwhile changes nothing
    changes, flags, _ = build_review(observe_changes(snap, root), report=WorkerReport(summary="s", files_changed=[]))
    assert changes.count == 0 and flags == []


def test_rank_changes_puts_source_before_tests_and_docs_at_equal_risk() -> None:
    files = [
        FileChange(path="docs/guide.md", additions=90, risk="low"),
        FileChange(path="tests/test_fix.py", additions=60, risk="low"),
        FileChange(path="src/fix.py", additions=3, risk="low"),
        FileChange(path="CHANGELOG.md", additions=40, risk="low"),
        FileChange(path="src/other.py", additions=9, risk="medium"),
    ]
    assert [c.path for c in rank_changes(files)] == ["src/other.py", "src/fix.py", "tests/test_fix.py", "docs/guide.md", "CHANGELOG.md"]


def test_rank_changes_orders_by_size_within_one_kind() -> None:
    files = [FileChange(path="src/a.py", additions=2, risk="low"), FileChange(path="src/b.py", additions=20, risk="low")]
    assert [c.path for c in rank_changes(files)] == ["src/b.py", "src/a.py"]


def test_build_review_ranks_a_three_line_redirect_fix_above_docs_and_tests() -> None:
    # Regression: a small security fix in source was rated low and ordered by size behind
    # changelogs and tests, so it came last in the packet.
    files = [
        FileChange(path="docs/changes.rst", additions=60, added_lines=[]),
        FileChange(path="tests/test_client.py", additions=120, added_lines=["def test_redirect_drops_auth():", "    assert 'Authorization' not in sent"]),
        FileChange(path="src/client/follow.py", additions=3, deletions=1, added_lines=['        headers.pop("Authorization", None)']),
    ]
    changes, _, _ = build_review(_cs(*files), report=None)
    assert changes.review[0].file == "src/client/follow.py" and changes.review[0].risk == "high"
    assert changes.risk == "high"


@needs_git
def test_the_packet_names_a_files_most_telling_ranges_first(tmp_path: Path) -> None:
    # Regression: node-tar d18e4e1 (GHSA-83g3-92jg-28cx) changes src/unpack.ts in 13 places: imports,
    # a constant, a rename, then the symlink check in the 6th range. The packet named the first three
    # ranges in line order and the fix sat in "+7 more".
    filler = [f"const v{i} = compute({i})\n" for i in range(200)]
    root = make_repo(tmp_path / "repo", {"src/unpack.ts": "".join(filler)})
    snap = take_snapshot(root)
    lines = list(filler)
    lines[1] = "import { SymlinkError } from './symlink-error.js'\n"
    lines[20] = "const ENSURE_NO_SYMLINK = Symbol('ensureNoSymlink')\n"
    lines[40] = "const v40 = compute(40, 'x')\n"
    lines[60] = "const v60 = compute(60, 'y')\n"
    lines[100:101] = ["  fs.lstat(t, (er, st) => {\n", "    if (st?.isSymbolicLink()) return onError(new SymlinkError(t))\n", "  })\n"]
    lines[150] = "const v150 = compute(150, 'z')\n"
    write(root, "src/unpack.ts", "".join(lines))
    changes, _, _ = build_review(observe_changes(snap, root), report=None)
    [target] = changes.review
    assert target.risk == "high" and "symlinks" in target.reason, target
    assert target.lines.startswith("101-103,"), target.lines
    assert target.lines.endswith(" +3 more"), target.lines
    # A file whose ranges all fit keeps them in line order.
    assert format_lines([(1, 1), (20, 20), (40, 40)], first=[2, 0, 1]) == "40,1,20"
    assert format_lines([(1, 1), (20, 20), (40, 40)]) == "1,20,40"


class _CountedRuns(list):
    """The patch's runs, counting how many times the review walks them."""

    walks = 0

    def __iter__(self):
        _CountedRuns.walks += 1
        return super().__iter__()


def test_the_review_walks_the_patchs_runs_a_bounded_number_of_times_not_once_a_file(tmp_path, monkeypatch):
    # Broke: the check for a small change of two runs counted each small file's runs by walking all the runs again,
    # 25 million comparisons for a 5,000-file change (~1 s of the review's CPU). The count of walks, not a time.
    import relay.review.packet as packet

    files = {f"pkg/mod_{i:03d}.py": f"def f():\n    return {i}\n" for i in range(300)}
    root = make_repo(tmp_path / "repo", files)
    snap = take_snapshot(root)
    for rel in files:
        (root / rel).write_text(files[rel].replace("return", "return -"), encoding="utf-8")
    real = packet.runs_of_patch
    monkeypatch.setattr(packet, "runs_of_patch", lambda patch: _CountedRuns(real(patch)))
    _CountedRuns.walks = 0
    changes, _, _ = build_review(observe_changes(snap, root), report=WorkerReport(summary="s", files_changed=["x.py"]))
    assert changes.count == 300
    assert 0 < _CountedRuns.walks < 30, _CountedRuns.walks
