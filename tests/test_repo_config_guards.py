"""What the repository under work configures, against the relay's own steps that list or read its files.

The party in each test is the repository (its ``.git/config``, what that includes, the files its config names) or
the worker that writes them. A guard here holds when the relay's step finishes promptly with a clear answer and no
program the repository names runs inside the relay's processes.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from conftest import make_repo

_POSIX_FIFO = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO (os.mkfifo) exists on POSIX only")


def _within(seconds: float, step, *args):
    """``step(*args)``'s answer, failing the test when it has not answered within ``seconds`` (a hang, not a timing
    goal: git's own timeout is 120 s). The thread is left to git's timeout; the FIFO is opened to free it."""
    answer: list = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(step(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"{getattr(step, '__name__', step)} did not answer within {seconds} s")
    if failed:
        raise failed[0]
    return answer[0]


def _free(fifo: Path) -> None:
    """Open ``fifo`` for writing without waiting, so a reader still blocked on it (a hang the test caught) ends."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


@_POSIX_FIFO
def test_the_pre_run_listing_reads_no_config_of_the_repository_and_never_waits_on_its_include(tmp_path):
    # Broke: the pre-run pass (modes and sizes a revert gives back) listed the workspace with `git ls-files` run
    # in it with the repository's config and its includes: an include of a FIFO (or a core.excludesFile naming
    # one) held the call for git's 120 s timeout. The party: the repository (its config, what that includes);
    # here it changes after the snapshot read it, which a pool worktree's config.worktree or another process can.
    from relay.observe.permissions import pre_run_files
    from relay.observe.snapshot import take_snapshot

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "sub/b.txt": "b\n"})
    (repo / ".gitignore").write_text("*.log\n", encoding="utf-8")
    (repo / "untracked.txt").write_text("u\n", encoding="utf-8")
    (repo / "a.txt").chmod(0o600)
    snap = take_snapshot(repo, tmp_path / "trees")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with (repo / ".git" / "config").open("a", encoding="utf-8") as fh:
        fh.write(f"[include]\n\tpath = {fifo}\n[core]\n\texcludesFile = {fifo}\n")
    try:
        pre = _within(20, pre_run_files, repo, snap)
    finally:
        _free(fifo)
    assert pre["a.txt"].mode == 0o600 and pre["a.txt"].size == 2, pre
    assert {"a.txt", "sub/b.txt", "untracked.txt", ".gitignore"} <= set(pre), sorted(pre)


def test_the_pre_run_listing_of_a_workspace_in_a_repositorys_folder_names_paths_from_that_folder(tmp_path):
    # The private listing runs at the repository's top level: its names are cut to the workspace's folder.
    from relay.observe.permissions import pre_run_files
    from relay.observe.snapshot import take_snapshot

    repo = make_repo(tmp_path / "project", {"top.txt": "t\n", "pkg/a.py": "a\n", "pkg/deep/b.py": "bb\n"})
    (repo / "pkg" / "new.py").write_text("n\n", encoding="utf-8")
    snap = take_snapshot(repo / "pkg", tmp_path / "trees")
    pre = pre_run_files(repo / "pkg", snap)
    assert set(pre) == {"a.py", "deep/b.py", "new.py"}, sorted(pre)
    assert pre["deep/b.py"].size == 3
