"""take_snapshot and the safe git runner: sources, budgets, and a repository that fights back."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from relay.observe import git as gitcmd
from relay.observe import snapshot as snapshot_mod
from relay.observe.changes import observe_changes, workspace_changed
from relay.observe.git import GitError, filter_overrides, git_env, run_git
from relay.observe.restore import Before, before_of
from relay.observe.snapshot import Snapshot, before_trees, git_private, load_snapshot, take_snapshot
from review_corpus import git, make_repo, write

__all__: list[str] = []  # a test module exports nothing

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is required")


# --------------------------------------------------------------------------- the git runner


def test_run_git_refuses_a_value_that_starts_with_a_dash(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="may not be empty or start with '-'"):
        run_git(tmp_path, "diff", ["--stat"], values=["--output=/tmp/x"])
    with pytest.raises(ValueError):
        run_git(tmp_path, "diff", values=[""])


def test_run_git_puts_paths_after_double_dash_so_a_dash_name_is_a_file(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"--output=evil": "x\n", "a": "a\n"})
    out = run_git(root, "ls-files", ["-z"], paths=["--output=evil"])
    assert out == b"--output=evil\0"
    assert not (root / "evil").exists()


def test_run_git_pathspecs_are_literal(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"*.txt": "x\n", "a.txt": "a\n"})
    assert run_git(root, "ls-files", ["-z"], paths=["*.txt"]) == b"*.txt\0"


def test_git_env_drops_inherited_git_variables_and_pins_the_rest() -> None:
    env = git_env({"PATH": "/bin", "HOME": "/h", "GIT_DIR": "/elsewhere", "GIT_EXTERNAL_DIFF": "/evil", "SECRET_TOKEN": "s", "LANG": "fr_FR"})
    assert "GIT_DIR" not in env and "SECRET_TOKEN" not in env
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert "GIT_EXTERNAL_DIFF" not in env
    assert env["LC_ALL"] == "C" and env["LANG"] == "C"
    assert env["GIT_OPTIONAL_LOCKS"] == "0"
    assert env["PATH"] == "/bin" and env["HOME"] == "/h"


def test_run_git_raises_git_error_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="exited 128"):
        run_git(tmp_path, "status", ["--porcelain"])


def test_safe_config_switches_off_every_runner() -> None:
    keys = dict(gitcmd.SAFE_CONFIG)
    assert keys["core.fsmonitor"] == "false"
    assert keys["core.quotepath"] == "off"
    assert keys["core.hooksPath"] == os.devnull
    assert keys["diff.external"] == ""


def test_filter_overrides_neutralise_every_defined_filter(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"a": "a\n"})
    git(root, "config", "filter.lfs.clean", "git-lfs clean -- %f")
    git(root, "config", "filter.my.tool.process", "tool")
    pairs = filter_overrides(root)
    assert ("filter.lfs.clean", "") in pairs and ("filter.lfs.required", "false") in pairs
    assert ("filter.my.tool.process", "") in pairs


def test_filter_overrides_refuse_a_name_that_cannot_be_overridden(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"a": "a\n"})
    (root / ".git/config").write_text((root / ".git/config").read_text(encoding="utf-8") + '[filter "a=b"]\n\tclean = evil\n', encoding="utf-8")
    with pytest.raises(GitError, match="cannot be neutralised"):
        filter_overrides(root)
    # ... while observation reads no filter of the repository's at all (issue 34 D2): git, and nothing to refuse
    assert take_snapshot(root).source == "git"


# --------------------------------------------------------------------------- hostile repository


_EVIL = """#!/bin/sh
echo "$0 $*" >> "{marker}"
cat
"""


def _hostile_repo(tmp_path: Path) -> tuple[Path, Path]:
    marker = tmp_path / "MARKER"
    script = tmp_path / "evil.sh"
    script.write_text(_EVIL.format(marker=marker), encoding="utf-8")
    script.chmod(0o755)
    hooks = tmp_path / "hooks"
    for hook in ("pre-commit", "post-checkout", "post-index-change", "fsmonitor-watchman", "reference-transaction"):
        write(hooks, hook, _EVIL.format(marker=marker))
        (hooks / hook).chmod(0o755)
    lib = make_repo(tmp_path / "lib", {"lib.txt": "lib\n", ".gitattributes": "* diff=evil filter=evil\n"})
    root = make_repo(tmp_path / "repo", {"a.txt": "a\n", "b.bin": b"\0bin", ".gitattributes": "* diff=evil filter=evil\n"})
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "sub")
    git(root, "commit", "-qm", "sub")
    evil = str(script)
    for repo in (root, root / "sub"):
        for key, value in {
            "diff.external": evil,
            "diff.evil.textconv": evil,
            "diff.evil.command": evil,
            "filter.evil.clean": evil,
            "filter.evil.smudge": evil,
            "filter.evil.required": "true",
            "core.pager": evil,
            "pager.status": evil,
            "pager.diff": evil,
            "core.fsmonitor": evil,
            "core.hooksPath": str(hooks),
            "core.editor": evil,
            "core.sshCommand": evil,
            "status.submoduleSummary": "true",
            "diff.noprefix": "true",
            "diff.mnemonicPrefix": "true",
            "color.ui": "always",
            "status.showUntrackedFiles": "no",
        }.items():
            git(repo, "config", key, value)
    marker.unlink(missing_ok=True)
    return root, marker


def test_hostile_repository_config_never_runs_its_scripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, marker = _hostile_repo(tmp_path)
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(tmp_path / "evil.sh"))
    monkeypatch.setenv("GIT_PAGER", str(tmp_path / "evil.sh"))
    (root / "a.txt").write_text("dirty before\n", encoding="utf-8")
    snap = take_snapshot(root)
    assert snap.source == "git"
    # Make every tracked file stat-dirty so git must hash contents (where a clean filter runs).
    for rel in ("a.txt", "b.bin", "sub/lib.txt", ".gitattributes"):
        os.utime(root / rel, ns=(10**18, 10**18))
    (root / "a.txt").write_text("dirty before\nworker\n", encoding="utf-8")
    (root / "b.bin").write_bytes(b"\0bin2")
    (root / "sub/lib.txt").write_text("lib\nworker\n", encoding="utf-8")
    write(root, "untracked.txt", "u\n")
    assert workspace_changed(snap, root) is True
    cs = observe_changes(snap, root)
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    got = {c.path: c for c in cs.files}
    assert set(got) == {"a.txt", "b.bin", "sub/lib.txt", "untracked.txt"}
    assert got["a.txt"].ranges == [(2, 2)]
    assert got["b.bin"].binary
    assert got["sub/lib.txt"].ranges == [(2, 2)]


# --------------------------------------------------------------------------- sources and budgets


def _listed(snap) -> list[str]:
    before_trees(snap)  # written at the first look after, or now
    out = git_private(snap.dir, snap.repo, "ls-tree", ["-r", "-z", "--name-only"], values=[snap.repo.before])
    return sorted(p.decode() for p in out.split(b"\0") if p)


def _object_files(objects: Path) -> list[Path]:
    return [p for p in objects.rglob("*") if p.is_file()]


def test_take_snapshot_of_a_git_workspace_leaves_the_users_index_and_objects_untouched(tmp_path: Path) -> None:
    # Issue 23: the before tree holds the user's uncommitted and untracked files, written with a private
    # index into a private object store; the repository's index and object store are not touched.
    root = make_repo(tmp_path / "r", {f"f{i}.txt": f"{i}\n" for i in range(50)})
    (root / "f1.txt").write_text("changed\n", encoding="utf-8")
    write(root, "new.txt", "n\n")
    index_before = (root / ".git" / "index").read_bytes()
    objects_before = _object_files(root / ".git" / "objects")
    snap = take_snapshot(root)
    assert isinstance(snap, Snapshot) and snap.source == "git" and snap.note is None
    assert (root / ".git" / "index").read_bytes() == index_before
    assert _object_files(root / ".git" / "objects") == objects_before
    assert "new.txt" in _listed(snap) and len(_listed(snap)) == 51
    assert before_of(snap, ["f1.txt", "new.txt", "f2.txt", "absent.txt"]) == {
        "f1.txt": Before("file", b"changed\n"), "new.txt": Before("file", b"n\n"), "f2.txt": Before("file", b"2\n"),
        "absent.txt": Before("absent")}
    assert "source='git'" in repr(snap)
    assert run_git(root, "status", ["--porcelain"]) == b" M f1.txt\n?? new.txt\n"


def test_take_snapshot_outside_git_walks_the_tree(tmp_path: Path) -> None:
    ws = tmp_path / "plain"
    write(ws, "a.py", "a\n")
    write(ws, "node_modules/x.js", "x\n")
    snap = take_snapshot(ws)
    assert snap.source == "tree" and _listed(snap) == ["a.py"]
    assert not (ws / ".git").exists()  # the private git dir is the snapshot's, never the workspace's


def test_take_snapshot_falls_back_to_report_past_the_file_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_mod, "TREE_MAX_FILES", 4)
    for i in range(5):
        write(tmp_path / "ws", f"{i}.txt", "x\n")
    snap = take_snapshot(tmp_path / "ws")
    assert snap.source == "report"
    assert "worker's report" in (snap.note or "")


def test_take_snapshot_broken_git_repository_uses_the_tree_and_says_why(tmp_path: Path) -> None:
    ws = tmp_path / "broken"
    write(ws, "a.txt", "a\n")
    write(ws, ".git/HEAD", "garbage\n")
    snap = take_snapshot(ws)
    assert snap.source in ("tree", "git")
    if snap.source == "tree":
        assert ".git/HEAD" not in _listed(snap)


def test_snapshot_holds_the_target_of_a_symlink(tmp_path: Path) -> None:
    ws = tmp_path / "plain"
    write(ws, "a.txt", "a\n")
    os.symlink("somewhere/else", ws / "link")
    snap = take_snapshot(ws)
    assert before_of(snap, ["link"]) == {"link": Before("link", b"somewhere/else")}


def test_snapshot_keeps_a_large_untracked_file_out_of_the_trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_mod, "TREE_FILE_MAX", 1000)
    root = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    write(root, "big.bin", "b" * 5000)
    snap = take_snapshot(root)
    assert "big.bin" not in _listed(snap) and "big.bin" in snap.repo.big
    assert "compared by size and time only" in (snap.note or "")
    assert "larger than" in before_of(snap, ["big.bin"])["big.bin"]


def test_snapshot_of_a_large_clean_repository_writes_no_object(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {f"d{i % 20}/f{i}.txt": f"{i}\n" * 50 for i in range(2000)})
    snap = take_snapshot(root)
    assert _object_files(Path(snap.dir) / "objects") == []


def test_snapshot_is_saved_and_read_back_after_a_restart(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    (root / "a.txt").write_text("user\n", encoding="utf-8")
    snap = take_snapshot(root, tmp_path / "trees")
    again = load_snapshot(tmp_path / "trees")
    assert again is not None and again.repo == snap.repo and again.source == "git"
    (root / "a.txt").write_text("user\nworker\n", encoding="utf-8")
    got = {c.path: c for c in observe_changes(again, root).files}
    assert list(got) == ["a.txt"] and got["a.txt"].added_lines == ["worker"] and got["a.txt"].deletions == 0


def test_a_failure_of_the_background_tree_writer_is_logged_and_the_trees_written_again(tmp_path: Path, monkeypatch,
                                                                                      caplog) -> None:
    # Issue 38 §3: the background writer's errors were swallowed whole (contextlib.suppress(Exception)); now they
    # are logged, and the look after writes the trees itself.
    root = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    real = snapshot_mod._write_trees

    def broken(snapshot, repos=None):
        if repos is not None:  # the background call (the look after's own call passes no copies)
            raise OSError("disk gone for a moment")
        return real(snapshot, repos)

    monkeypatch.setattr(snapshot_mod, "_write_trees", broken)
    snap = take_snapshot(root)
    (root / "a.txt").write_text("a\nworker\n", encoding="utf-8")
    with caplog.at_level("WARNING", logger="relay.observe.snapshot"):
        changes = observe_changes(snap, root)
    assert [c.path for c in changes.files] == ["a.txt"] and changes.source == "git"
    assert any("background" in r.getMessage() and r.exc_info for r in caplog.records), caplog.records


def test_the_users_own_ignore_file_still_ignores_though_observations_git_reads_no_user_config(tmp_path: Path,
                                                                                            monkeypatch) -> None:
    # Observation's git gets no HOME and no user config (issue 34 D2); git's default excludes file, the user's,
    # is copied in before the run instead: what it ignores stays ignored, and a filter the user's config defines
    # does not run.
    home = tmp_path / "home"
    write(home, ".config/git/ignore", "*.tmp\n")
    write(home, ".config/git/attributes", "* filter=x\n")
    marker = tmp_path / "MARKER"
    write(home, ".gitconfig", f"[filter \"x\"]\n\tclean = sh -c 'echo ran >> {marker}; cat'\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    root = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    snap = take_snapshot(root)
    (root / "junk.tmp").write_text("scratch\n", encoding="utf-8")
    (root / "new.txt").write_text("new\n", encoding="utf-8")
    assert [c.path for c in observe_changes(snap, root).files] == ["new.txt"]
    assert not marker.exists()
