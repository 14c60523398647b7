"""How many git processes the relay starts for one run, and that each one it no longer starts is answered the same.

Every delegation pays these (the README's suite pays them ~800 times): bench/bench_run_cost.py --list names each one,
its CPU and wall. What a cut keeps: the same answer, and the same guard (what git runs with is unchanged).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from git_repos import git, git_subcommand, make_repo, write
from relay.observe import made_git_dirs
from relay.observe.index_bytes import before_folders
from relay.observe.snapshot import before_trees, git_private, take_snapshot

__all__: list[str] = []  # a test module exports nothing

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is required")


class _Started:
    """The git subcommands started while counting (subprocess.Popen, as run_git starts each one)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[str] = []
        real = subprocess.Popen

        def counting(args, *rest, **kwargs):  # noqa: ANN001, ANN202 - subprocess.Popen's own signature
            if isinstance(args, list) and (sub := git_subcommand([os.fspath(a) for a in args])):
                self.seen.append(sub)
            return real(args, *rest, **kwargs)

        monkeypatch.setattr(subprocess, "Popen", counting)


def _ls_tree_folders(snap, repo) -> list[str]:
    out = git_private(snap.dir, repo, "ls-tree", ["-r", "-d", "--name-only", "-z"], values=[repo.before])
    return sorted(os.fsdecode(p) for p in out.split(b"\0") if p)


@pytest.mark.parametrize("workspace", [".", "pkg"], ids=["the_top_level", "a_sub_folder"])
def test_the_before_trees_folders_are_read_as_it_is_written_not_asked_of_git_after_the_run(tmp_path, monkeypatch,
                                                                                           workspace):
    repo = make_repo(tmp_path / "repo", {"README.md": "x\n", "pkg/a/b/c.py": "1\n", "pkg/a/d.py": "2\n",
                                         "pkg/e/f/g/h.txt": "3\n", "top/i.txt": "4\n", "pkg/odd name/ü.txt": "5\n"})
    # A gitlink (a submodule's entry: not a folder of the tree), an untracked file in a new folder, a dirty file.
    commit = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{commit},pkg/a/sub")
    write(repo, "pkg/new/deep/n.txt", "6\n")
    write(repo, "pkg/a/d.py", "2 changed\n")
    snap = take_snapshot(repo / workspace, tmp_path / "trees")
    before_trees(snap)
    started = _Started(monkeypatch)
    folders = made_git_dirs._tree_folders(snap)
    assert "ls-tree" not in started.seen and started.seen == []  # before the cut: one `ls-tree -r -d` a repository
    expected = _ls_tree_folders(snap, snap.repo)
    assert sorted(before_folders(snap.repo)) == expected
    assert "a/sub" not in expected and "pkg/a/sub" not in expected  # git lists a gitlink as no folder
    base = repo / workspace if workspace != "." else repo
    assert sorted(folders) == sorted(str(base / f) for f in expected)
    assert {"new/deep", "odd name"} <= set(expected) if workspace == "pkg" else {"pkg/new/deep", "top"} <= set(expected)


def test_a_run_recovered_without_the_folders_asks_git_and_finds_the_same(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "repo", {"a/b/c.txt": "1\n", "d/e.txt": "2\n"})
    snap = take_snapshot(repo, tmp_path / "trees")
    before_trees(snap)
    read = sorted(made_git_dirs._tree_folders(snap))
    monkeypatch.setattr(made_git_dirs, "before_folders", lambda repo: None)  # as after a restart: nothing kept
    started = _Started(monkeypatch)
    assert sorted(made_git_dirs._tree_folders(snap)) == read == sorted(str(repo / f) for f in ("a", "a/b", "d"))
    assert started.seen == ["ls-tree"]



def test_the_repository_of_an_isolated_run_is_read_by_one_rev_parse(tmp_path, monkeypatch):
    from relay.isolate.repo import repo_facts

    repo = make_repo(tmp_path / "repo", {"pkg/a.py": "1\n"})
    started = _Started(monkeypatch)
    facts = repo_facts(repo / "pkg")
    assert started.seen.count("rev-parse") == 1  # before: three (work tree?, paths, HEAD)
    assert (facts.toplevel, facts.common_dir, facts.prefix) == (repo.resolve(), (repo / ".git").resolve(), "pkg/")
    assert facts.head == git(repo, "rev-parse", "HEAD").strip()


@pytest.mark.parametrize(("kind", "said"), [("unborn", "has no commit yet"), ("bare", "a bare repository"),
                                             ("git_dir", "a bare repository or a git directory"),
                                             ("plain", "is not inside a git repository")])
def test_a_workspace_that_cannot_be_isolated_is_still_refused_for_its_own_reason(tmp_path, kind, said):
    from relay.core.errors import RelayError
    from relay.isolate.repo import repo_facts

    where = {"unborn": lambda: make_repo(tmp_path / "u", {}), "plain": lambda: tmp_path,
             "bare": lambda: (git(tmp_path, "init", "-q", "--bare", "b.git"), tmp_path / "b.git")[1],
             "git_dir": lambda: make_repo(tmp_path / "r") / ".git"}[kind]()
    with pytest.raises(RelayError) as refused:
        repo_facts(where)
    assert refused.value.status.value == "CONFLICTING_OPTIONS" and said in refused.value.message


@pytest.mark.parametrize("files", [{"pkg/a.py": "1\n"}, {}], ids=["a_commit", "an_unborn_branch"])
def test_where_a_crashed_runs_workspace_lies_is_read_by_one_rev_parse(tmp_path, monkeypatch, files):
    from relay.runs.crashed import _where

    repo = make_repo(tmp_path / "repo", files)
    (repo / "pkg").mkdir(exist_ok=True)
    started = _Started(monkeypatch)
    top, prefix, head = _where(repo / "pkg")
    assert started.seen == ["rev-parse"]  # before: two (top level and prefix, then HEAD)
    assert (Path(top).resolve(), prefix) == (repo.resolve(), "pkg/")
    assert head == (git(repo, "rev-parse", "HEAD").strip() if files else None)


def test_a_worktree_runs_change_is_recorded_with_one_rev_parse_of_its_own(tmp_path, monkeypatch):
    from relay.isolate.pool import lease_worktree, record_change

    repo = make_repo(tmp_path / "repo", {"pkg/a.py": "1\n"})
    lease = lease_worktree(tmp_path / "data", repo, "r20260101T000000-0000abcd")
    try:
        head = git(lease.slot, "rev-parse", "HEAD").strip()
        started = _Started(monkeypatch)
        assert record_change(lease, "nothing changed") == head  # the same tree: the branch stays at HEAD
        write(lease.slot, "pkg/a.py", "2\n")
        tip = record_change(lease, "a change")
        # Two a record: the index's path with HEAD and its tree, and the top level the submodules' filters are read from
        # (relay.observe.git.filter_overrides). Before: four (HEAD, the index's path, the top level, the parent's tree).
        assert started.seen.count("rev-parse") == 4, started.seen
    finally:
        lease.release()
    assert git(repo, "rev-parse", f"{tip}^").strip() == head
    assert git(repo, "show", f"{tip}:pkg/a.py") == "2\n"
    assert git(repo, "rev-parse", "refs/heads/gravity-relay/r20260101T000000-0000abcd").strip() == tip
