"""observe_changes / workspace_changed against real git repositories in tmp_path."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import msgspec
import pytest

from relay.observe import changes as changes_mod
from relay.observe import snapshot as snapshot_mod
from relay.observe.changes import ChangeSet, normalize_reported, observe_changes, workspace_changed
from relay.core.contracts import FileChange
from relay.observe.snapshot import git_private, take_snapshot
from relay.review.file_kinds import is_secret_path, read_changes
from relay.observe.changes import HUNK_CHARS
from review_corpus import git, make_repo, write

__all__: list[str] = []  # a test module exports nothing

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is required")


def _listed(snap) -> set[str]:
    """The paths of the snapshot's before tree."""
    snapshot_mod.before_trees(snap)  # written at the first look after, or now
    repo = snap.repo
    out = git_private(snap.dir, repo, "ls-tree", ["-r", "-z", "--name-only"], values=[repo.before])
    return {p.decode() for p in out.split(b"\0") if p}


def _by_path(cs: ChangeSet) -> dict[str, FileChange]:
    return {c.path: c for c in cs.files}


def _lines(n: int, fmt: str = "line {}") -> str:
    return "".join(fmt.format(i) + "\n" for i in range(1, n + 1))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", {"a.txt": _lines(20), "src/app.py": _lines(30, "x{} = 1"), "keep.txt": "keep\n"})


# --------------------------------------------------------------------------- blame


def test_observe_excludes_preexisting_dirty_file_the_worker_never_touched(repo: Path) -> None:
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")
    write(repo, "notes/todo.md", "untracked before\n")
    snap = take_snapshot(repo)
    (repo / "a.txt").write_text(_lines(21), encoding="utf-8")
    cs = observe_changes(snap, repo)
    assert cs.source == "git"
    assert list(_by_path(cs)) == ["a.txt"]


def test_observe_shows_only_worker_lines_on_a_file_dirty_before_the_run(repo: Path) -> None:
    text = _lines(20).replace("line 3\n", "line 3 (user)\n")
    (repo / "a.txt").write_text(text, encoding="utf-8")
    snap = take_snapshot(repo)
    (repo / "a.txt").write_text(text.replace("line 15\n", "line 15 (worker)\nline 15b (worker)\n"), encoding="utf-8")
    change = _by_path(observe_changes(snap, repo))["a.txt"]
    assert change.kind == "modified"
    assert (change.additions, change.deletions) == (2, 1)
    assert change.ranges == [(15, 16)]


def test_observe_reports_a_worker_revert_of_an_earlier_edit(repo: Path) -> None:
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")
    snap = take_snapshot(repo)
    git(repo, "checkout", "--", "keep.txt")
    change = _by_path(observe_changes(snap, repo))["keep.txt"]
    assert (change.additions, change.deletions) == (1, 1)


def test_observe_ignores_a_touch_that_keeps_the_content(repo: Path) -> None:
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")
    snap = take_snapshot(repo)
    os.utime(repo / "keep.txt", ns=(1, 1))
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")  # same bytes, new mtime and ctime
    assert observe_changes(snap, repo).files == []
    assert workspace_changed(snap, repo) is False


def test_observe_untracked_files_before_and_after(repo: Path) -> None:
    write(repo, "pre/untouched.txt", "u\n")
    write(repo, "pre/edited.txt", _lines(5))
    write(repo, "pre/removed.txt", _lines(3))
    snap = take_snapshot(repo)
    (repo / "pre/edited.txt").write_text(_lines(6), encoding="utf-8")
    (repo / "pre/removed.txt").unlink()
    write(repo, "new/file.py", _lines(4, "print({})"))
    got = _by_path(observe_changes(snap, repo))
    assert set(got) == {"pre/edited.txt", "pre/removed.txt", "new/file.py"}
    assert got["pre/edited.txt"].ranges == [(6, 6)] and got["pre/edited.txt"].additions == 1
    assert got["pre/removed.txt"].kind == "deleted" and got["pre/removed.txt"].deletions == 3
    assert got["new/file.py"].kind == "added" and got["new/file.py"].ranges == [(1, 4)]


def test_observe_sees_changes_the_worker_committed(repo: Path) -> None:
    snap = take_snapshot(repo)
    (repo / "a.txt").write_text(_lines(22), encoding="utf-8")
    git(repo, "commit", "-qam", "worker commit")
    change = _by_path(observe_changes(snap, repo))["a.txt"]
    assert change.additions == 2 and change.ranges == [(21, 22)]


def test_observe_workspace_in_a_subfolder_reports_relative_paths_and_names_what_is_beside_it(repo: Path) -> None:
    snap = take_snapshot(repo / "src")
    (repo / "src/app.py").write_text(_lines(31, "x{} = 1"), encoding="utf-8")
    (repo / "a.txt").write_text("outside\n", encoding="utf-8")
    cs = observe_changes(snap, repo / "src")
    assert [c.path for c in cs.files] == ["../a.txt", "app.py"]  # beside the folder: named, not diffed (above.py)
    assert list(cs.above) == ["../a.txt"] and b"a.txt" not in cs.patch


def test_observe_repository_without_commits(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "empty", {})
    write(root, "draft.txt", "before\n")
    snap = take_snapshot(root)
    write(root, "new.txt", "a\nb\n")
    got = _by_path(observe_changes(snap, root))
    assert list(got) == ["new.txt"] and got["new.txt"].additions == 2


# --------------------------------------------------------------------------- shapes of change


def test_observe_git_mv_with_edit_is_a_rename_with_only_new_lines(repo: Path) -> None:
    snap = take_snapshot(repo)
    git(repo, "mv", "a.txt", "b.txt")
    (repo / "b.txt").write_text(_lines(20) + "tail\n", encoding="utf-8")
    got = _by_path(observe_changes(snap, repo))
    assert list(got) == ["b.txt"]
    assert got["b.txt"].kind == "renamed" and got["b.txt"].old_path == "a.txt"
    assert got["b.txt"].ranges == [(21, 21)]


def test_observe_plain_move_and_edit_is_a_rename(repo: Path) -> None:
    snap = take_snapshot(repo)
    (repo / "src/app.py").rename(repo / "src/main.py")
    (repo / "src/main.py").write_text(_lines(30, "x{} = 1").replace("x4 = 1", "x4 = 2"), encoding="utf-8")
    got = _by_path(observe_changes(snap, repo))
    assert list(got) == ["src/main.py"]
    assert got["src/main.py"].old_path == "src/app.py" and got["src/main.py"].ranges == [(4, 4)]


def test_observe_deleted_file_has_old_line_count_and_no_new_ranges(repo: Path) -> None:
    snap = take_snapshot(repo)
    (repo / "a.txt").unlink()
    change = _by_path(observe_changes(snap, repo))["a.txt"]
    assert change.kind == "deleted" and change.deletions == 20 and change.ranges == []


def test_observe_chmod_plus_x_is_a_mode_change(repo: Path) -> None:
    snap = take_snapshot(repo)
    os.chmod(repo / "keep.txt", 0o755)
    change = _by_path(observe_changes(snap, repo))["keep.txt"]
    assert change.kind == "mode"
    assert (change.mode_before, change.mode_after) == ("100644", "100755")


def test_observe_binary_files(repo: Path) -> None:
    write(repo, "blob.bin", b"\0\1\2")
    git(repo, "add", "blob.bin")
    git(repo, "commit", "-qm", "bin")
    snap = take_snapshot(repo)
    write(repo, "blob.bin", b"\0\1\3")
    write(repo, "new.bin", b"PK\0\0")
    got = _by_path(observe_changes(snap, repo))
    assert got["blob.bin"].binary and got["blob.bin"].kind == "modified"
    assert got["new.bin"].binary and got["new.bin"].kind == "added"


def test_observe_symlinks_added_retargeted_and_replacing_a_file(repo: Path) -> None:
    os.symlink("a.txt", repo / "link")
    git(repo, "add", "link")
    git(repo, "commit", "-qm", "link")
    snap = take_snapshot(repo)
    (repo / "link").unlink()
    os.symlink("keep.txt", repo / "link")
    os.symlink("../../etc/passwd", repo / "escape")
    (repo / "keep.txt").unlink()
    os.symlink("a.txt", repo / "keep.txt")
    got = _by_path(observe_changes(snap, repo))
    assert got["link"].symlink and got["link"].kind == "modified"
    assert got["escape"].symlink and got["escape"].kind == "added" and got["escape"].added_lines == ["../../etc/passwd"]
    assert got["keep.txt"].kind == "type" and got["keep.txt"].symlink


def test_observe_names_with_spaces_non_ascii_dashes_and_newlines(repo: Path) -> None:
    names = ["dir with space/file name.txt", "ünïcödé/日本語.txt", "-rf.txt", "line\nbreak.txt", 'quote"and\\slash.txt', ":(glob)*.txt"]
    for name in names:
        write(repo, name, "one\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "names")
    snap = take_snapshot(repo)
    for name in names:
        write(repo, name, "one\ntwo\n")
    write(repo, "new ü file.txt", "x\n")
    got = _by_path(observe_changes(snap, repo))
    assert set(got) == {*names, "new ü file.txt"}
    for name in names:
        assert got[name].ranges == [(2, 2)], name


def test_observe_non_utf8_file_name_is_shown_with_a_replacement_character(repo: Path) -> None:
    raw = os.path.join(os.fsencode(repo), b"caf\xe9.txt")
    with open(raw, "wb") as fh:
        fh.write(b"one\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "latin-1 name")
    snap = take_snapshot(repo)
    with open(raw, "ab") as fh:
        fh.write(b"two\n")
    cs = observe_changes(snap, repo)
    assert [(c.path, c.ranges) for c in cs.files] == [("caf\ufffd.txt", [(2, 2)])]
    msgspec.json.encode(cs)  # the record must be writable


def test_observe_never_follows_a_gitmodules_path_through_a_symlink(tmp_path: Path) -> None:
    outside = make_repo(tmp_path / "outside", {"secret.txt": "s\n"})
    (outside / "secret.txt").write_text("dirty outside\n", encoding="utf-8")
    root = make_repo(tmp_path / "main", {".gitmodules": '[submodule "x"]\n\tpath = link\n\turl = ../outside\n', "a.txt": "a\n"})
    os.symlink(outside, root / "link")
    snap = take_snapshot(root)
    (outside / "secret.txt").write_text("dirty outside, more\n", encoding="utf-8")
    assert all(not c.path.startswith("link/") for c in observe_changes(snap, root).files)


def test_observe_submodule_pointer_inner_edit_and_new_submodule(tmp_path: Path) -> None:
    lib = make_repo(tmp_path / "lib", {"lib.py": _lines(5)})
    other = make_repo(tmp_path / "other", {"o.py": "o\n"})
    root = make_repo(tmp_path / "main", {"main.py": "m\n"})
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    git(root, "commit", "-qm", "add submodule")
    snap = take_snapshot(root)
    sub = root / "vendor/lib"
    (sub / "lib.py").write_text(_lines(6), encoding="utf-8")
    write(sub, "extra.py", "e\n")
    git(sub, "add", "extra.py")
    git(sub, "commit", "-qm", "inner")
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(other), "vendor/other")
    got = _by_path(observe_changes(snap, root))
    assert got["vendor/lib"].submodule and got["vendor/lib"].kind == "modified"
    assert got["vendor/lib/lib.py"].ranges == [(6, 6)]
    assert got["vendor/other"].submodule and got["vendor/other"].kind == "added"
    assert ".gitmodules" in got
    assert "vendor/lib/extra.py" not in got  # committed inside the submodule: the pointer move says it


def test_observe_new_ignored_build_output_is_not_listed_but_a_new_secret_is(repo: Path) -> None:
    write(repo, ".gitignore", "*.pyc\n__pycache__/\n.env*\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    snap = take_snapshot(repo)
    write(repo, "src/app.pyc", b"\0pyc")
    write(repo, "src/__pycache__/app.cpython-311.pyc", b"\0pyc")
    write(repo, ".env.local", "TOKEN=1\n")
    assert list(_by_path(observe_changes(snap, repo, list_ignored=is_secret_path))) == [".env.local"]


def test_observe_lists_new_ignored_files_when_the_worker_changed_ignore_rules(repo: Path) -> None:
    snap = take_snapshot(repo)
    write(repo, "hidden.txt", "sneaky\n")
    write(repo, ".gitignore", "hidden.txt\n")
    cs = observe_changes(snap, repo)
    assert {"hidden.txt", ".gitignore"} <= set(_by_path(cs))
    assert "ignore rules changed" in (cs.note or "")


def test_the_rules_read_every_line_they_need_of_whole_hunks(repo: Path) -> None:
    body = "".join(f"def test_{i}():\n    assert f({i}) == {i}\n" for i in range(100))
    write(repo, "tests/test_f.py", body)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "tests")
    snap = take_snapshot(repo)
    write(repo, "tests/test_f.py", "".join(f"def test_{i}():\n    pass  {'x' * 2000}\n" for i in range(100)))
    observed = _by_path(observe_changes(snap, repo))["tests/test_f.py"]
    assert len(observed.added_lines) == 100 and max(map(len, observed.added_lines)) == HUNK_CHARS  # bounded per line
    [change], partial = read_changes([observed])
    assert partial == frozenset()
    assert change.deletions == 100 and change.additions == 100
    assert len(change.removed_lines) == 100  # every assertion removed, not the first 40
    assert all("assert" in line for line in change.removed_lines)
    assert change.added_lines == []  # nothing a rule reads


def test_observe_bounds_the_number_of_ranges(repo: Path) -> None:
    write(repo, "big.txt", _lines(5000))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "big")
    snap = take_snapshot(repo)
    write(repo, "big.txt", _lines(5000).replace("0\n", "0 changed\n"))
    change = _by_path(observe_changes(snap, repo))["big.txt"]
    assert change.additions == 500
    assert 0 < len(change.ranges) <= changes_mod.MAX_RANGES


def test_observe_compares_a_large_untracked_file_by_size_and_time_and_diffs_tracked_ones_exactly(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The size rule (issue 23): a file git does not track and past TREE_FILE_MAX stays out of the trees.
    monkeypatch.setattr(snapshot_mod, "TREE_FILE_MAX", 100)
    write(repo, "data.bin", "d" * 500)
    (repo / "a.txt").write_text(_lines(20).replace("line 2\n", "line 2 (user)\n"), encoding="utf-8")
    snap = take_snapshot(repo)
    assert "compared by size and time only" in (snap.note or "")
    assert workspace_changed(snap, repo) is False
    (repo / "a.txt").write_text(_lines(20).replace("line 2\n", "line 2 (user)\n") + "worker\n", encoding="utf-8")
    write(repo, "data.bin", "e" * 501)
    cs = observe_changes(snap, repo)
    got = _by_path(cs)
    assert got["a.txt"].additions == 1 and got["a.txt"].deletions == 0  # tracked: exact, past any size
    assert got["data.bin"].kind == "modified" and "data.bin" in cs.not_in_patch
    assert "data.bin: not diffed" in (cs.note or "")

def test_observe_after_git_disappears_falls_back_to_the_report(repo: Path) -> None:
    snap = take_snapshot(repo)
    shutil.rmtree(repo / ".git")
    cs = observe_changes(snap, repo, reported=["a.txt", "gone.txt", "/etc/passwd", "../escape.txt"])
    assert cs.source == "report" and cs.unobserved  # said loudly by the review (tests/test_unobserved_look.py)
    # The report (outside paths dropped), and what the files' timestamps show (keep.txt: written right before).
    kinds = {c.path: c.kind for c in cs.files}
    assert kinds["a.txt"] == "modified" and kinds["gone.txt"] == "deleted" and "/etc/passwd" not in kinds, kinds
    assert "worker's report" in (cs.note or "")


# --------------------------------------------------------------------------- workspace_changed


def test_workspace_changed_false_until_a_file_changes(repo: Path) -> None:
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")
    snap = take_snapshot(repo)
    assert workspace_changed(snap, repo) is False
    write(repo, "new.txt", "n\n")
    assert workspace_changed(snap, repo) is True


def test_workspace_changed_sees_an_edit_to_an_already_dirty_file(repo: Path) -> None:
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")
    snap = take_snapshot(repo)
    (repo / "keep.txt").write_text("user edit\nworker\n", encoding="utf-8")
    assert workspace_changed(snap, repo) is True


def test_workspace_changed_is_true_when_it_cannot_tell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_mod, "TREE_MAX_FILES", 2)
    for i in range(5):
        write(tmp_path / "ws", f"f{i}.txt", "x\n")
    snap = take_snapshot(tmp_path / "ws")
    assert snap.source == "report"
    assert workspace_changed(snap, tmp_path / "ws") is True


# --------------------------------------------------------------------------- outside git


def test_observe_tree_fallback_outside_git_shows_only_worker_lines(tmp_path: Path) -> None:
    ws = tmp_path / "plain"
    write(ws, "a.txt", _lines(10))
    write(ws, "gone.txt", _lines(3))
    snap = take_snapshot(ws)
    assert snap.source == "tree"
    assert workspace_changed(snap, ws) is False
    (ws / "a.txt").write_text(_lines(10).replace("line 5\n", "line five\n"), encoding="utf-8")
    (ws / "gone.txt").unlink()
    write(ws, "new.txt", "n\n")
    os.chmod(ws / "new.txt", 0o755)
    cs = observe_changes(snap, ws)
    got = _by_path(cs)
    assert cs.source == "tree"
    assert got["a.txt"].ranges == [(5, 5)] and (got["a.txt"].additions, got["a.txt"].deletions) == (1, 1)
    assert got["gone.txt"].kind == "deleted" and got["gone.txt"].deletions == 3
    assert got["new.txt"].kind == "added"
    assert workspace_changed(snap, ws) is True


def test_observe_tree_skips_heavy_folders(tmp_path: Path) -> None:
    ws = tmp_path / "plain"
    write(ws, "src/a.py", "a\n")
    heavy = ["node_modules/x/README.md", ".venv/lib/site.py", "__pycache__/a.pyc", "build/out.o", "dist/pkg.whl", "target/debug/x", ".next/cache.json", ".tox/py/x"]
    for rel in heavy:
        write(ws, rel, "h\n")
    write(ws, "myenv/pyvenv.cfg", "home = /usr\n")
    write(ws, "myenv/lib/site.py", "v\n")
    snap = take_snapshot(ws)
    assert _listed(snap) == {"src/a.py"}
    for rel in [*heavy, "myenv/lib/site.py"]:
        write(ws, rel, "changed\n")
    write(ws, "src/a.py", "a\nb\n")
    assert [c.path for c in observe_changes(snap, ws).files] == ["src/a.py"]


def test_observe_tree_renames_by_content(tmp_path: Path) -> None:
    ws = tmp_path / "plain"
    write(ws, "old.py", _lines(40))
    snap = take_snapshot(ws)
    (ws / "old.py").rename(ws / "new.py")
    got = _by_path(observe_changes(snap, ws))
    assert list(got) == ["new.py"] and got["new.py"].kind == "renamed" and got["new.py"].ranges == []


def test_observe_report_fallback_when_the_tree_is_too_big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_mod, "TREE_MAX_FILES", 3)
    ws = tmp_path / "huge"
    for i in range(6):
        write(ws, f"f{i}.txt", "x\n")
    snap = take_snapshot(ws)
    assert snap.source == "report" and "more than 3 files" in (snap.note or "")
    cs = observe_changes(snap, ws, reported=["f1.txt", "./f2.txt", str(ws / "f3.txt")])
    assert cs.source == "report" and "more than 3 files" in cs.unobserved
    # The claims, and every file whose timestamps fall in the run (here all six: written right before the snapshot).
    assert {"f1.txt", "f2.txt", "f3.txt"} <= {c.path for c in cs.files}
    assert "more than 3 files" in (cs.note or "")


def test_normalize_reported_drops_paths_outside_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    got = normalize_reported(["a.py", "./b/../c.py", str(ws / "d.py"), "/etc/x", "../up.py", "", "a.py"], ws)
    assert got == ["a.py", "c.py", "d.py"]


def test_observe_reads_no_fifo(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    ws = tmp_path / "plain"
    write(ws, "a.txt", "a\n")
    os.mkfifo(ws / "pipe")
    snap = take_snapshot(ws)  # would hang if the FIFO were opened
    write(ws, "a.txt", "b\n")
    assert [c.path for c in observe_changes(snap, ws).files] == ["a.txt"]



def test_observe_lists_files_past_the_lines_budget_without_their_lines(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(changes_mod, "MAX_LINES_KEPT", 3)
    snap = take_snapshot(repo)
    for i in range(10):
        write(repo, f"gen/f{i}.txt", f"{i}\n")
    cs = observe_changes(snap, repo)
    assert len(cs.files) == 10 and all(c.kind == "added" and c.additions == 1 for c in cs.files)
    assert sum(len(c.added_lines) for c in cs.files) == 3
    assert "7 files listed without their lines" in (cs.note or "")


def test_observe_tree_claim_inside_a_skipped_folder_is_listed_by_timestamp_or_named_never_unchanged(tmp_path: Path) -> None:
    # Regression (issue 13, item 13): outside git, a claim inside node_modules/ (never walked)
    # was "claimed but unchanged".
    import time

    from relay.review.packet import build_review

    plain = tmp_path / "plain"
    (plain / "node_modules" / "pkg").mkdir(parents=True)
    (plain / "node_modules" / "pkg" / "old.js").write_text("a\n", encoding="utf-8")
    os.utime(plain / "node_modules" / "pkg" / "old.js", (1_000_000_000, 1_000_000_000))
    (plain / "app.js").write_text("x\n", encoding="utf-8")
    time.sleep(0.3)  # the utime's ctime is now well before the snapshot
    before = take_snapshot(plain)
    assert before.source == "tree"
    (plain / "node_modules" / "pkg" / "index.js").write_text("patched\n", encoding="utf-8")
    claimed = ["node_modules/pkg/index.js", "node_modules/pkg/old.js", "app.js"]
    cs = observe_changes(before, plain, reported=claimed)
    assert "node_modules/pkg/index.js" in _by_path(cs)
    assert "node_modules/" in cs.outside["node_modules/pkg/index.js"]
    assert "predate the run" in cs.unseen["node_modules/pkg/old.js"]
    from relay.core.contracts import WorkerReport

    _, flags, _ = build_review(cs, report=WorkerReport(summary="s", files_changed=claimed))
    text = "\n".join(flags)
    assert "claimed but unchanged (1) app.js" in text  # the walk sees app.js: that claim is false
    assert "outside git's view, not confirmed (1) node_modules/pkg/old.js" in text


# --------------------------------------------------------------------------- stat data that lies


@pytest.mark.parametrize("user_edit", [False, True], ids=["index-linked", "index-rewritten"])
def test_a_same_size_rewrite_with_its_mtime_put_back_in_the_second_of_its_ctime_is_seen(repo: Path, user_edit: bool) -> None:
    # git here compares ctime by the second (built without nanosecond stat) and its racy-clean rule keys on mtime
    # only: a file whose mtime predates the index, rewritten in place to the same size in the same second as the
    # ctime the index recorded, its mtime put back, looks clean to a git status. The snapshot must still see it.
    # The precondition (the rewrite's ctime in the recorded second) is checked, and the steps retried if a second
    # boundary fell between them: when it holds, today's git misses the edit every time.
    for attempt in range(8):
        target = repo / f"same_{attempt}.txt"
        target.write_text("aaaa\n", encoding="utf-8")
        os.utime(target, ns=(10**18, 10**18))  # an mtime long before the index's (as an archive or `cp -p` leaves)
        git(repo, "add", target.name)
        recorded = os.stat(target)
        if user_edit:  # the snapshot then writes its own before index (else it is the user's, linked)
            (repo / "keep.txt").write_text(f"user edit {attempt}\n", encoding="utf-8")
        snap = take_snapshot(repo)
        with open(target, "r+b") as fh:  # in place: same inode, same size
            fh.write(b"bbbb\n")
        os.utime(target, ns=(recorded.st_atime_ns, recorded.st_mtime_ns))
        if os.stat(target).st_ctime_ns // 10**9 != recorded.st_ctime_ns // 10**9:
            continue  # a second boundary came between: git would see the ctime move; try again
        assert os.stat(target).st_size == recorded.st_size
        changed = _by_path(observe_changes(snap, repo))
        assert target.name in changed and changed[target.name].added_lines == ["bbbb"]
        return
    pytest.skip("no attempt kept the rewrite in the recorded ctime's second (a very loaded machine)")


def test_observing_twice_from_one_snapshot_gives_the_same_answer_after_its_indexes_are_released(
        repo: Path, tmp_path: Path) -> None:
    # A run's private indexes are dropped when it ends (release_indexes); a later look from its saved trees (a
    # recovery, a second look after a policy revert) must still answer from the before tree, not fall back to nothing.
    (repo / "keep.txt").write_text("user edit\n", encoding="utf-8")
    snap = take_snapshot(repo, tmp_path / "trees")
    (repo / "a.txt").write_text(_lines(21), encoding="utf-8")
    write(repo, "new.txt", "new\n")
    first = observe_changes(snap, repo)
    assert sorted(_by_path(first)) == ["a.txt", "new.txt"]
    second = observe_changes(snap, repo)
    assert (second.files, second.patch) == (first.files, first.patch)
    snapshot_mod.release_indexes(snap)
    again = observe_changes(snap, repo)
    assert again.source == "git" and (again.files, again.patch) == (first.files, first.patch)
    assert workspace_changed(snap, repo)


def test_a_claimed_file_inside_an_ignored_folder_new_in_the_run_is_never_called_unchanged(repo: Path) -> None:
    # Broke: git folds a new ignored folder ("! build/"), which only the before pass recorded as folded, so a
    # worker's claimed build/out.txt there was "claimed but unchanged" (in neither `outside` nor `unseen`). Every
    # ignored folder is new in a worktree run (its worktree starts clean).
    write(repo, ".gitignore", "build/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore build")
    snap = take_snapshot(repo)
    write(repo, "build/out.txt", "generated\n")
    result = observe_changes(snap, repo, reported=["build/out.txt", "build/never.txt"])
    assert "build/out.txt" in result.outside and "new in this run" in result.outside["build/out.txt"]
    assert [c.path for c in result.files] == ["build/out.txt"]
    assert "build/never.txt" in result.unseen
