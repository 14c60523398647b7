"""Whoever writes the data dir plants a symbolic link where the relay writes one of its own small files.

The party: whoever can write the relay's data dir (docs/security.md, its last table). What it plants there is
input; the relay must not turn it into a write outside the data dir. Each test plants a link named like a file
the relay (re)writes, pointing at a file of the user's outside the data dir, and has the relay do its ordinary
work through the real parts: real git repositories in temp dirs, the fake agy as a real subprocess, the relay
behind the SDK's client in memory. Before, each of these writes followed the link and overwrote its target.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, scenario, success_scenario

pytestmark = pytest.mark.anyio

EXECUTE = "antigravity_execute"
PRECIOUS = "the user's own file: not the relay's to write\n"


def _victim(tmp_path: Path, name: str) -> Path:
    victim = tmp_path / "home" / name
    victim.parent.mkdir(exist_ok=True)
    victim.write_text(PRECIOUS, encoding="utf-8")
    return victim


def _plant(link: Path, target: Path) -> None:
    link.unlink(missing_ok=True)
    link.symlink_to(target)


def _worktree_run(tmp_path: Path, repo: Path) -> tuple[dict, dict]:
    """The relay's env and a call whose run, in a worktree of ``repo``'s pool, writes src/new.py."""
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    return env, {"task": "add src/new.py", "profile": "iso", "workspace": str(repo)}


def _fix_run_id(monkeypatch, run_id: str) -> None:
    """Every door names its next run ``run_id``: a party that knows the id ahead plants before the run starts."""
    from relay.call import detached, intake, once

    for module in (intake, once, detached):
        monkeypatch.setattr(module, "new_run_id", lambda: run_id)


async def _add_new_py(tmp_path: Path, repo: Path, **call) -> dict:
    """One in-place run in ``repo`` of the fake agy writing src/new.py; the relay's answer."""
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        return payload(await client.call_tool(EXECUTE, {"task": "add src/new.py", "workspace": str(repo), **call}))


async def test_a_link_planted_as_a_worktree_pools_repo_or_run_file_never_has_the_relay_write_its_target(tmp_path, repo):
    # A worktree run writes its pool's `repo` file (when it does not name the repository) and its slot's `w0.run`
    # (the run that used it last) at every lease; both lie in the data dir. Before: write_text followed a link
    # planted there, and the user's file held a path or a run id afterwards.
    env, call = _worktree_run(tmp_path, repo)
    async with memory_relay(env) as client:
        first = payload(await client.call_tool(EXECUTE, call))
        assert first["status"] == "SUCCESS", first
        (pool,) = (tmp_path / "data" / "worktrees").iterdir()
        assert (pool / "w0.run").read_text(encoding="utf-8") == first["run_id"]
        named_repo, last_run = _victim(tmp_path, "notes.txt"), _victim(tmp_path, ".bashrc")
        _plant(pool / "repo", named_repo)
        _plant(pool / "w0.run", last_run)
        second = payload(await client.call_tool(EXECUTE, call))
    assert second["status"] == "SUCCESS", second
    assert named_repo.read_text(encoding="utf-8") == PRECIOUS
    assert last_run.read_text(encoding="utf-8") == PRECIOUS
    assert not (pool / "w0.run").is_symlink() and (pool / "w0.run").read_text(encoding="utf-8") == second["run_id"]
    assert not (pool / "repo").is_symlink() and (pool / "repo").read_text(encoding="utf-8") == str(repo.resolve())


async def test_a_link_planted_as_a_cancel_request_never_has_antigravity_cancel_write_its_target(tmp_path):
    # antigravity_cancel of a run another relay process runs asks that relay through runs/<run_id>.cancel. Before:
    # write_text followed a link planted under that name, and the user's file held "relay pid N" afterwards. The run
    # here is one the test process owns as "the other relay" (its record names this live process), so the test can
    # play that relay deterministically: it waits for the request, then finishes the record as the owner would.
    import anyio

    from relay.core.contracts import RecordProcess, RunRecord, Status
    from relay.core.identity import own_stamp
    from relay.runs.store import RunStore, new_run_id, now_iso

    env = relay_env(tmp_path / "data", install_fake_agy(tmp_path / "bin", success_scenario([])))
    victim = _victim(tmp_path, ".profile")
    async with memory_relay(env) as client:
        store = RunStore(tmp_path / "data" / "runs")
        run = RunRecord(run_id=new_run_id(), created_at=now_iso(),
                        process=RecordProcess(relay_pid=os.getpid(), relay_stamp=own_stamp()))
        store.write(run)
        request = store.runs_dir / f"{run.run_id}.cancel"
        _plant(request, victim)
        answers: list = []

        async def cancel() -> None:
            answers.append(payload(await client.call_tool("antigravity_cancel", {"run_id": run.run_id})))

        async with anyio.create_task_group() as tg:
            tg.start_soon(cancel)
            with anyio.move_on_after(10):
                while not (request.is_file() and not request.is_symlink()) and victim.read_text(encoding="utf-8") == PRECIOUS:
                    await anyio.sleep(0.05)
            asked = request.is_file() and not request.is_symlink()
            run.state, run.outcome.status = "finished", Status.CANCELLED  # the owner stops it
            store.write(run)
    assert victim.read_text(encoding="utf-8") == PRECIOUS
    assert asked, "the request did not reach the owner as a file of its own"
    assert answers and answers[0]["status"] == "CANCELLED", answers


async def test_a_pool_worktree_swapped_for_a_link_to_your_own_worktree_is_never_reset_or_cleaned(tmp_path, repo):
    # A worktree pool's slot (worktrees/<repo>/w0) is the relay's own folder: it resets it (`checkout -f`) and
    # cleans it (`clean -ffdx`) for the next run. Before: a link planted in its place, to a linked worktree of yours
    # of the same repository (`git worktree add ../feature`), passed the relay's "is it its own top level" check
    # through the link, and the next worktree run reset your edit and deleted your untracked file there.
    from conftest import git

    feature = tmp_path / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(feature))
    (feature / "README.md").write_text("my unfinished edit\n", encoding="utf-8")
    (feature / "notes.txt").write_text("my untracked notes\n", encoding="utf-8")
    env, call = _worktree_run(tmp_path, repo)
    async with memory_relay(env) as client:
        first = payload(await client.call_tool(EXECUTE, call))
        assert first["status"] == "SUCCESS", first
        (pool,) = (tmp_path / "data" / "worktrees").iterdir()
        from relay.core.files import remove_tree
        remove_tree(pool / "w0")
        (pool / "w0").symlink_to(feature, target_is_directory=True)
        second = payload(await client.call_tool(EXECUTE, call))
    assert (feature / "notes.txt").read_text(encoding="utf-8") == "my untracked notes\n"
    assert (feature / "README.md").read_text(encoding="utf-8") == "my unfinished edit\n"
    assert not (feature / "src" / "new.py").exists()  # the run did not happen in your worktree either
    assert second["status"] == "SUCCESS", second
    assert (pool / "w0").is_dir() and not (pool / "w0").is_symlink()


def test_cleanup_never_removes_a_folder_a_link_in_place_of_a_worktree_pool_leads_to(tmp_path, repo):
    # `gravity-relay cleanup` removes a pool's folders named w* that are not worktrees. Before: with a link planted
    # in place of a pool (worktrees/<repo>-<hash> -> a folder of yours holding a `repo` file that names a folder),
    # it walked through the link and removed your w* folders there.
    from conftest import cli_main

    yours = tmp_path / "yours"
    (yours / "work").mkdir(parents=True)
    (yours / "work" / "thesis.tex").write_text("chapter one\n", encoding="utf-8")
    (yours / "repo").write_text(str(repo), encoding="utf-8")
    pools = tmp_path / "data" / "worktrees"
    pools.mkdir(parents=True)
    (pools / "project-0123456789ab").symlink_to(yours, target_is_directory=True)
    cleaned = cli_main(["cleanup"], relay_env(tmp_path / "data", None))
    assert cleaned.returncode == 0, cleaned.stdout + cleaned.stderr
    assert (yours / "work" / "thesis.tex").read_text(encoding="utf-8") == "chapter one\n"
    assert not (pools / "project-0123456789ab").exists() and yours.is_dir()


def test_a_link_planted_as_the_worktrees_folder_never_has_cleanup_delete_the_folders_it_leads_to(tmp_path):
    # `cleanup` (and every relay's start-up retention) removes the pools of repositories that are gone. Before: a link
    # planted as data/worktrees had every folder it led to taken for a pool of a gone repository and removed whole.
    from conftest import cli_main

    yours = tmp_path / "home" / "yours"
    (yours / "thesis").mkdir(parents=True)
    (yours / "thesis" / "chapter1.tex").write_text("chapter one\n", encoding="utf-8")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "worktrees").symlink_to(yours, target_is_directory=True)
    cleaned = cli_main(["cleanup"], relay_env(tmp_path / "data", None))
    assert cleaned.returncode == 0, cleaned.stdout + cleaned.stderr
    assert (yours / "thesis" / "chapter1.tex").read_text(encoding="utf-8") == "chapter one\n"
    assert not (tmp_path / "data" / "worktrees").exists() and "the link alone" in cleaned.stdout


async def test_a_link_planted_as_the_worktrees_folder_a_pools_ledger_or_the_active_folder_is_never_written_through(
        tmp_path, repo):
    # A run marks itself active (runs/active/<run_id>); a worktree run makes its pool under data/worktrees and marks
    # its branch in the pool's ledger (runs/<run_id>). Before: each followed a link planted in place of its folder,
    # and a file of the relay's (or a whole pool: worktrees, checked-out copies of the code) appeared in yours.
    import anyio

    from fake_agy_harness import wait_for_launches

    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", scenario({
        "behaviour": "slow", "sleep": 120, "release_file": str(release),
        "edits": [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}],
        "report": {"summary": "ok", "files_changed": ["src/new.py"]}}))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    call = {"task": "add src/new.py", "profile": "iso", "workspace": str(repo)}
    folders = {name: tmp_path / "home" / name for name in ("pools", "active", "ledger")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    (tmp_path / "data" / "runs").mkdir(parents=True)
    (tmp_path / "data" / "worktrees").symlink_to(folders["pools"], target_is_directory=True)
    (tmp_path / "data" / "runs" / "active").symlink_to(folders["active"], target_is_directory=True)
    seen: dict[str, list[str]] = {}
    async with memory_relay(env) as client:
        answers: list[dict] = []

        async def run() -> None:
            answers.append(payload(await client.call_tool(EXECUTE, call)))

        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1, timeout=60))
            seen = {name: sorted(p.name for p in folder.iterdir()) for name, folder in folders.items()}
            release.touch()
        assert answers[0]["status"] == "SUCCESS", answers
        (pool,) = (tmp_path / "data" / "worktrees").iterdir()
        from relay.core.files import remove_tree
        remove_tree(pool / "runs")
        (pool / "runs").symlink_to(folders["ledger"], target_is_directory=True)
        release.unlink()
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 2, timeout=60))
            seen["ledger"] = sorted(p.name for p in folders["ledger"].iterdir())
            release.touch()
    assert answers[1]["status"] == "SUCCESS", answers
    assert seen == {"pools": [], "active": [], "ledger": []}
    assert all(not any(folder.iterdir()) for folder in folders.values())


async def test_links_planted_as_a_runs_spilled_prompt_or_trees_folder_are_never_written_through(tmp_path, repo,
                                                                                                  monkeypatch):
    # A run writes its task, when too long for agy's command line, to runs/<run_id>.prompt/TASK.md, and its before
    # and after trees (a private git dir's HEAD, config, info files) to runs/<run_id>.trees. The run id is in the data
    # dir from the call's first moment; whoever writes the data dir and is quick plants links there. Played here by
    # knowing the id ahead. Before: the task and the git dir's files were written into the folders the links led to.
    run_id = "r20261202T120000-0badc0de"
    _fix_run_id(monkeypatch, run_id)
    runs = tmp_path / "data" / "runs"
    runs.mkdir(parents=True)
    spill, trees = tmp_path / "home" / "spill", tmp_path / "home" / "trees"
    for folder in (spill, trees):
        folder.mkdir(parents=True)
    (runs / f"{run_id}.prompt").symlink_to(spill, target_is_directory=True)
    (runs / f"{run_id}.trees").symlink_to(trees, target_is_directory=True)
    answer = await _add_new_py(tmp_path, repo, task="add src/new.py. " + "Context. " * 5000)
    assert answer["status"] == "SUCCESS" and answer["run_id"] == run_id, answer
    assert (sorted(p.name for p in spill.iterdir()), sorted(p.name for p in trees.iterdir())) == ([], [])
    assert (runs / f"{run_id}.prompt" / "TASK.md").is_file() and not (runs / f"{run_id}.prompt").is_symlink()


async def test_hard_links_planted_as_a_runs_marker_or_spilled_task_never_have_the_relay_empty_or_write_their_file(
        tmp_path, repo, monkeypatch):
    # A symbolic link in place of one of the relay's small files is removed; a hard link is a second name of a file
    # of yours (same file system, your own file: nothing stops it), and opening it is opening your file. Planted at
    # runs/active/<run_id> (the run's marker) and as TASK.md in a folder at runs/<run_id>.prompt (the spilled task),
    # and at its transcript and agy's log, the moment the run id appears (played by knowing it ahead). Before: write_own
    # opened them with O_TRUNC, so your .profile was emptied and your .bashrc held the task the leader's model wrote;
    # the transcript (the worker's output) was appended to your .zshrc.
    run_id = "r20261202T120000-0badc0df"
    _fix_run_id(monkeypatch, run_id)
    runs = tmp_path / "data" / "runs"
    (runs / "active").mkdir(parents=True)
    (runs / f"{run_id}.prompt").mkdir()
    bashrc, profile = _victim(tmp_path, ".bashrc"), _victim(tmp_path, ".profile")
    zshrc, notes = _victim(tmp_path, ".zshrc"), _victim(tmp_path, "notes.txt")
    os.link(bashrc, runs / f"{run_id}.prompt" / "TASK.md")
    os.link(profile, runs / "active" / run_id)
    os.link(zshrc, runs / f"{run_id}.ndjson")  # the transcript: the worker's own output, appended
    os.link(notes, runs / f"{run_id}.agy-1.log")  # agy's log, made the relay's before agy opens it
    answer = await _add_new_py(tmp_path, repo, task="add src/new.py. " + "Context. " * 5000)
    assert answer["status"] == "SUCCESS" and answer["run_id"] == run_id, answer
    for victim in (bashrc, profile, zshrc, notes):
        assert victim.read_text(encoding="utf-8") == PRECIOUS, victim
    assert "Context." in (runs / f"{run_id}.prompt" / "TASK.md").read_text(encoding="utf-8")  # the task, in its own file


async def test_a_link_planted_as_the_idempotency_keys_folder_never_has_the_relay_prune_or_lock_down_your_folder(
        tmp_path, repo):
    # A call with an idempotency_key claims it in data/keys (a file per key, a lock), and the first claim of a relay
    # process sweeps that folder's *.json files older than the 24 h window. Before: with data/keys planted as a link to
    # a folder of yours, your folder was made owner-only (0700), the claim and its lock were written there, and every
    # .json file of yours older than a day was deleted.
    yours = tmp_path / "home" / "config"
    yours.mkdir(parents=True)
    old = yours / "settings.json"
    old.write_text("{\"theme\": \"dark\"}\n", encoding="utf-8")
    os.utime(old, (0, 1_700_000_000))  # years old
    yours.chmod(0o755)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "keys").symlink_to(yours, target_is_directory=True)
    answer = await _add_new_py(tmp_path, repo, idempotency_key="keys-link-1")
    assert answer["status"] == "SUCCESS", answer
    assert old.read_text(encoding="utf-8") == "{\"theme\": \"dark\"}\n"
    assert sorted(p.name for p in yours.iterdir()) == ["settings.json"]
    if os.name != "nt":
        assert yours.stat().st_mode & 0o777 == 0o755
    assert not (tmp_path / "data" / "keys").is_symlink() and len(list((tmp_path / "data" / "keys").glob("*.json"))) == 1


async def test_a_link_planted_as_the_runs_folder_never_has_the_relay_write_records_into_your_folder(tmp_path, repo):
    # Before: with data/runs planted as a link to a folder of yours (a web root, 0755), the relay made it owner-only
    # and wrote every record, transcript and agy log of its runs there.
    yours = tmp_path / "home" / "site"
    yours.mkdir(parents=True)
    (yours / "index.html").write_text("<p>hello</p>\n", encoding="utf-8")
    yours.chmod(0o755)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "runs").symlink_to(yours, target_is_directory=True)
    answer = await _add_new_py(tmp_path, repo)
    assert answer["status"] == "SUCCESS", answer
    assert sorted(p.name for p in yours.iterdir()) == ["index.html"]
    if os.name != "nt":
        assert yours.stat().st_mode & 0o777 == 0o755
    runs = tmp_path / "data" / "runs"
    assert not runs.is_symlink() and (runs / f"{answer['run_id']}.json").is_file()


async def test_links_planted_inside_a_runs_trees_folder_never_have_the_relay_write_through_them(tmp_path, repo,
                                                                                               monkeypatch):
    # A run's trees folder (runs/<run_id>.trees, the before and after snapshots) is made the relay's own, but what is
    # in it was not checked: planted there the moment the run id appears (played by knowing it ahead), a link named
    # snapshot.json.tmp or sizes.json had the snapshot's state or the changed files' sizes written into your file, and
    # one in place of git-dir (the kept git config) or objects had the relay (and its git) write into your folder.
    run_id = "r20261202T120000-0badc0e0"
    _fix_run_id(monkeypatch, run_id)
    trees = tmp_path / "data" / "runs" / f"{run_id}.trees"
    trees.mkdir(parents=True)
    bashrc, profile = _victim(tmp_path, ".bashrc"), _victim(tmp_path, ".profile")
    kept, objects = tmp_path / "home" / "kept", tmp_path / "home" / "objects"
    kept.mkdir()
    objects.mkdir()
    _plant(trees / "snapshot.json.tmp", bashrc)
    _plant(trees / "sizes.json", profile)
    (trees / "git-dir").symlink_to(kept, target_is_directory=True)
    (trees / "objects").symlink_to(objects, target_is_directory=True)
    (repo / "README.md").write_text("# p\nmore\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "README.md",
                                                                "content": "# p\nchanged\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        answer = payload(await client.call_tool(EXECUTE, {"task": "change README.md", "workspace": str(repo)}))
    assert answer["status"] == "SUCCESS" and answer["run_id"] == run_id, answer
    for victim in (bashrc, profile):
        assert victim.read_text(encoding="utf-8") == PRECIOUS, victim
    assert (list(kept.iterdir()), list(objects.iterdir())) == ([], [])


async def test_a_link_planted_as_the_apply_ledgers_folder_never_has_runs_apply_lock_down_or_write_your_folder(
        tmp_path, repo):
    # `runs apply` names its temp files in a ledger (data/applying/<token>.json) while it writes them. Before: with
    # data/applying planted as a link to a folder of yours, that folder was made owner-only (0755 -> 0700) and the
    # ledger written in it.
    from conftest import cli_main

    env, call = _worktree_run(tmp_path, repo)
    async with memory_relay(env) as client:
        run = payload(await client.call_tool(EXECUTE, call))
    assert run["status"] == "SUCCESS", run
    yours = tmp_path / "home" / "docs"
    yours.mkdir(parents=True)
    (yours / "notes.txt").write_text(PRECIOUS, encoding="utf-8")
    yours.chmod(0o755)
    (tmp_path / "data" / "applying").symlink_to(yours, target_is_directory=True)
    import anyio

    shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", run["run_id"]], env)
    assert json.loads(shell.stdout)["status"] == "SUCCESS", shell.stdout + shell.stderr
    assert (repo / "src" / "new.py").read_text(encoding="utf-8") == "x = 1\n"
    assert sorted(p.name for p in yours.iterdir()) == ["notes.txt"]
    if os.name != "nt":
        assert yours.stat().st_mode & 0o777 == 0o755
    assert not (tmp_path / "data" / "applying").is_symlink()
