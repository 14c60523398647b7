"""Hooks a git config defines (git 2.54+: ``[hook "name"] event = ... command = ...``) against the relay's git.

The pool's worktree routes run git with the repository's config (``worktree add``, ``checkout``, ``add`` into an
index, ``update-ref``); ``core.hooksPath=/dev/null`` does not switch off hooks the config defines, and how
``hook.*.enabled`` does changes between versions. So the relay reads the ``hook.*`` keys right before each such
route and, where git runs them, does not run the route (``relay.isolate.config_hooks``). This machine's git is
older than 2.54: "git runs config hooks" is imposed by replacing the relay's version reader; the adversary (the
worker, who can write the shared ``.git/config`` from its worktree) plants keys that name a marker script, in
``.git/config``, through an include it writes, and in its worktree's ``config.worktree``. Each test checks the
step is refused naming the key and its file, and that the run's change is not lost.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import failure_scenario, install_fake_agy, set_scenario, success_scenario
from test_git_guards import _evil, _ran

from relay.isolate import config_hooks
from relay.isolate.config_hooks import parse_git_version

pytestmark = pytest.mark.anyio

_ISO = {"iso": {"isolation": "worktree"}}
_UP = "../../../../project"  # from a pool worktree (<tmp>/data/worktrees/<repository>/w0) to the user's repository


def _env(tmp_path: Path, agy: Path) -> dict[str, str]:
    return relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(_ISO))


async def _run(client, repo: Path) -> dict:
    return payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso", "workspace": str(repo)}))


def _hook(prog: Path, event: str = "post-checkout") -> str:
    return f'\n[hook "evil"]\n\tevent = {event}\n\tcommand = {prog}\n'


@pytest.fixture
def new_git(monkeypatch):
    """The relay's git taken for 2.54.0 (config hooks), whatever this machine has."""
    monkeypatch.setattr(config_hooks, "git_version", lambda: (2, 54, 0))


def _refused(packet: dict, *named: str) -> str:
    """The refusal's message, checked to be one and to name each of ``named``."""
    assert packet["status"] == "CONFLICTING_OPTIONS", packet
    message = packet["error"]["message"]
    for part in named:
        assert part in message, (part, message)
    return message


def _kept(worktree: Path) -> Path:
    return worktree.with_name(worktree.name + ".kept")


def _worker_hooking_the_shared_config(tmp_path: Path, *more: dict) -> tuple[Path, Path, Path, Path]:
    """(hook program, its marker, the user's repository, the fake agy) for a worker that appends a reference-transaction
    [hook] to the user's .git/config (its worktree's shared config), edits a.txt, and makes ``more`` edits."""
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [{"op": "append", "path": f"{_UP}/.git/config", "content": _hook(prog, "reference-transaction")},
             {"op": "write", "path": "a.txt", "content": "b\n"}, *more]
    return prog, marker, repo, install_fake_agy(tmp_path / "bin", success_scenario(edits))


async def test_a_hook_the_worker_writes_into_the_shared_config_stops_the_record_and_keeps_the_change(tmp_path, new_git):
    # Broke (on git 2.54+): the worker appends a [hook] section to the user's .git/config (its worktree's shared
    # config); recording its change ran update-ref there, and git ran the hook's command for reference-transaction.
    prog, marker, repo, agy = _worker_hooking_the_shared_config(tmp_path, {"op": "write", "path": "new.txt", "content": "n\n"})
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
        worktree = Path(packet["worktree"])
        message = _refused(packet, "hook.evil.command", str(prog), f"(from {repo / '.git' / 'config'})",
                           "2.54", "NOT recorded", str(worktree))
        assert "[hook" in packet["error"]["hint"] and "in_place" in packet["error"]["hint"], packet
        assert any("NOT on branch" in flag for flag in packet["flags"]), packet["flags"]  # not "apply the change"
        # Nothing lost: the change is where the message says, and no later run resets that worktree.
        assert (worktree / "a.txt").read_text(encoding="utf-8") == "b\n" and (worktree / "new.txt").is_file()
        assert _kept(worktree).read_text(encoding="utf-8") == packet["run_id"]
        shown = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"]}))
        assert shown["status"] == "CONFLICTING_OPTIONS" and shown["error"]["message"] == message, shown
        set_scenario(agy, success_scenario([{"op": "write", "path": "c.txt", "content": "c\n"}]))
        again = await _run(client, repo)  # refused before any git command: the hook is still defined
        _refused(again, "hook.evil.command", "prepare a worktree")
        git(repo, "config", "--remove-section", "hook.evil")
        third = await _run(client, repo)
    assert third["status"] == "SUCCESS" and third["worktree"] != str(worktree), third
    assert (worktree / "a.txt").read_text(encoding="utf-8") == "b\n"  # still there
    assert _ran(marker) == ""


async def test_a_continue_or_apply_of_a_run_whose_change_is_kept_is_refused_naming_where_the_change_is(tmp_path, new_git):
    # Broke: the run's change could not be recorded (a [hook] in the shared config) and is kept in its worktree; a
    # continue of it was refused as "no agy conversation to continue ... Start a new antigravity_execute", and apply
    # as "no recorded change ... Nothing to apply": neither said the change exists, nor where. The party: the worker
    # (it planted the hook; its change is the kept one): a continue must neither build on a change nobody recorded
    # nor lose it silently.
    from fake_agy_harness import launches

    prog, marker, repo, agy = _worker_hooking_the_shared_config(tmp_path)
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
        worktree = Path(packet["worktree"])
        assert _kept(worktree).is_file(), packet
        set_scenario(agy, success_scenario([{"op": "write", "path": "c.txt", "content": "c\n"}]))
        launched = len(launches(agy))
        again = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"],
                                                                       "feedback": "go on"}))
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    for answer, said in ((again, "the continue was not started"), (applied, "your tree is unchanged")):
        _refused(answer, "never recorded", packet["branch"], str(worktree), said)
        assert f"git -C {worktree} diff" in answer["error"]["hint"] and "[hook]" in answer["error"]["hint"], answer
    assert len(launches(agy)) == launched  # no new turn
    assert (worktree / "a.txt").read_text(encoding="utf-8") == "b\n" and not (worktree / "c.txt").exists()
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n" and _ran(marker) == ""


async def test_a_kept_runs_conversation_is_recorded_and_its_refusal_after_the_hook_is_gone_says_how_to_resume_it(
        tmp_path, new_git):
    # Broke: the record's conversation id was set only when the run reached its review; the refusal to record a kept
    # change came before, so the record held none: once the person removed the hook, nothing could resume the
    # worker's conversation (the refusal said "start a new antigravity_execute"). A continue of the kept run by its
    # id stays refused (relay/call/kept.py: the change was never recorded, a person looks first), and now names the
    # conversation and the continue that resumes it; done as it says, the next turn resumes that conversation.
    from fake_agy_harness import launches

    prog, marker, repo, agy = _worker_hooking_the_shared_config(tmp_path)
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
        worktree = Path(packet["worktree"])
        assert _kept(worktree).is_file(), packet
        said = launches(agy)[-1]["conversation_id"]
        assert said and packet.get("conversation_id") == said, packet
        record = json.loads((tmp_path / "data" / "runs" / f"{packet['run_id']}.json").read_text(encoding="utf-8"))
        assert said in json.dumps(record["outcome"]), record["outcome"]
        git(repo, "config", "--remove-section", "hook.evil")  # the person removes the hook
        set_scenario(agy, success_scenario([{"op": "write", "path": "c.txt", "content": "c\n"}]))
        refused = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"],
                                                                          "feedback": "go on"}))
        hint = _refused(refused, "never recorded", str(worktree))  and refused["error"]["hint"]
        assert f'antigravity_continue(conversation_id="{said}", workspace="{repo}"' in hint, hint
        (repo / "a.txt").write_text((worktree / "a.txt").read_text(encoding="utf-8"), encoding="utf-8")  # brought in
        resumed = payload(await client.call_tool("antigravity_continue", {"conversation_id": said, "workspace": str(repo),
                                                                          "feedback": "go on"}))
    assert resumed["status"] == "SUCCESS", resumed
    assert launches(agy)[-1]["requested_conversation_id"] == said and resumed["conversation_id"] == said, resumed
    assert (repo / "c.txt").read_text(encoding="utf-8") == "c\n" and _ran(marker) == ""


async def test_a_cancelled_worktree_run_whose_change_a_hook_stops_recording_says_where_it_is_kept(tmp_path, new_git):
    # Broke: the run was cancelled after the worker planted a [hook] in the shared config; its change could not be
    # recorded on its branch, and the CANCELLED answer did not say so (only the relay's log did).
    import anyio

    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", edits=[
        {"op": "append", "path": f"{_UP}/.git/config", "content": _hook(prog)},
        {"op": "write", "path": "done.txt", "content": "d\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        running = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo), "wait_seconds": 0.2}))
        assert running["status"] == "RUNNING", running
        with anyio.fail_after(30):  # the worktree may still be in the making (a loaded machine)
            while not (done := list((tmp_path / "data" / "worktrees").glob("*/w0/done.txt"))):
                await anyio.sleep(0.05)  # the worker's edits are done once it exists; it now hangs
        worktree = done[0].parent
        packet = payload(await client.call_tool("antigravity_cancel", {"run_id": running["run_id"]}))
    assert packet["status"] == "CANCELLED", packet
    said = [flag for flag in packet["flags"] if flag.startswith("isolated:")]
    assert len(said) == 1 and "NOT on branch" in said[0] and str(worktree) in said[0], packet["flags"]
    assert (worktree / "done.txt").is_file() and _kept(worktree).is_file()
    assert _ran(marker) == ""


async def test_a_hook_in_a_file_the_repositorys_config_includes_refuses_the_worktree_before_any_git_runs(tmp_path, new_git):
    # Broke (on git 2.54+): an earlier worker wrote an include into .git/config and a [hook] into the file it names;
    # `git worktree add` and `git checkout` of the next run ran the hook's command for post-checkout.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    (repo / ".git/more.inc").write_text(_hook(prog), encoding="utf-8")
    git(repo, "config", "include.path", "more.inc")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
    _refused(packet, "hook.evil.command", f"(from {repo / '.git' / 'more.inc'})", "prepare a worktree")
    assert not list((tmp_path / "data" / "worktrees").glob("*/w*")), "a worktree was made"
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n" and _ran(marker) == ""


async def test_a_hook_only_a_new_worktree_would_include_refuses_before_git_worktree_add(tmp_path, new_git):
    # Broke (on git 2.54+): `includeIf "gitdir:**/worktrees/**"` names a file with a [hook]: false at the top level,
    # where the keys were read, true for the git that `git worktree add` runs as the new worktree to set its HEAD
    # (reference-transaction); the refusal came only at the checkout after it.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "tools/hooks.inc": _hook(prog, "reference-transaction")})
    git(repo, "config", "includeIf.gitdir:**/worktrees/**.path", "../tools/hooks.inc")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
    _refused(packet, "hook.evil.command", str(repo / "tools" / "hooks.inc"), "includeif.gitdir:**/worktrees/**.path",
             "prepare a worktree")
    assert not list((tmp_path / "data" / "worktrees").glob("*/w*")), "git worktree add ran"
    assert _ran(marker) == ""


async def test_a_hook_in_a_worktrees_own_config_refuses_the_next_runs_checkout_there(tmp_path, monkeypatch):
    # Broke (on git 2.54+): the worker turned on extensions.worktreeConfig and put a [hook] into its worktree's
    # config.worktree (read only there, not at the top level); the next run's `git checkout -f` in that worktree
    # ran it. Planted after the first run's change was recorded, as a process it left behind would.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        first = await _run(client, repo)
        assert first["status"] == "SUCCESS", first
        worktree = Path(first["worktree"])
        git(repo, "config", "extensions.worktreeConfig", "true")
        (repo / ".git/worktrees/w0/config.worktree").write_text(_hook(prog), encoding="utf-8")
        assert subprocess.run(["git", "-C", str(repo), "config", "hook.evil.command"]).returncode == 1  # not at the top
        monkeypatch.setattr(config_hooks, "git_version", lambda: (2, 54, 0))
        second = await _run(client, repo)
    _refused(second, "hook.evil.command", str(repo / ".git/worktrees/w0/config.worktree"), "check out the run's worktree")
    assert (worktree / "a.txt").read_text(encoding="utf-8") == "b\n"  # not checked out again
    assert git(repo, "show", f"{first['branch']}:a.txt") == "b\n"  # the first run's change, recorded
    assert _ran(marker) == ""


def test_each_pool_route_refuses_a_config_hook_and_keeps_what_it_would_have_recorded(tmp_path, new_git):
    # Broke (on git 2.54+): recovery's salvage (add -A, update-ref) and retention (update-ref -d) ran git with a
    # config that defines a hook.
    from relay.isolate.leftovers import remove_leftovers
    from relay.isolate.pool import discard_run, lease_worktree, salvage_worktree

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    data = tmp_path / "data"
    lease = lease_worktree(data, repo, "r1")
    (lease.slot / "a.txt").write_text("crashed\n", encoding="utf-8")
    lease.release()
    git(repo, "config", "hook.lint.event", "pre-commit")
    tip, said = salvage_worktree(data, str(lease.slot), lease.branch, "r1")
    assert tip is None and "hook.lint.event" in said and str(lease.slot) in said, said
    assert (lease.slot / "a.txt").read_text(encoding="utf-8") == "crashed\n" and _kept(lease.slot).is_file()
    removed, errors = remove_leftovers(data, set())  # r1's record is gone: its branch is a leftover
    assert any("hook.lint.event" in e for e in errors) and not any("branch" in r for r in removed), (removed, errors)
    errors = discard_run(data, "r1", str(lease.slot), lease.branch)  # retention: the run is old
    assert any("hook.lint.event" in e for e in errors), errors
    assert git(repo, "rev-parse", "--verify", "-q", lease.branch)  # the branch is still there
    assert (data / "worktrees" / lease.slot.parent.name / "runs" / "r1").is_file()  # and cleanup still finds it


def _a_kept_run_without_a_record(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(repository, data dir, worktree): run r1's change kept unrecorded in its worktree (a [hook] in the shared
    config stopped the record, git 2.54+ imposed by the caller), and no record of r1 (deleted by hand)."""
    from relay.isolate.pool import lease_worktree, record_change

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    data = tmp_path / "data"
    lease = lease_worktree(data, repo, "r20261202T000000-0000abcd")
    (lease.slot / "a.txt").write_text("the run's work\n", encoding="utf-8")
    git(repo, "config", "hook.lint.event", "pre-commit")  # what the worker planted
    with pytest.raises(config_hooks.ConfigHooksRefused):
        record_change(lease, "m")
    lease.release()
    assert _kept(lease.slot).is_file()
    git(repo, "config", "--remove-section", "hook.lint")  # the user removed the hook since
    return repo, data, lease.slot


def test_a_kept_worktree_whose_record_is_gone_is_named_by_doctor_and_left_by_cleanup_saying_so(tmp_path, new_git):
    # Broke: a worktree holding a change never recorded, whose run record was deleted by hand, was never reported:
    # doctor named only the run's branch (pointing at the base: the change is not on it), and cleanup deleted that
    # branch and said nothing of the worktree, which kept the change (and a pool slot) for ever, unsaid. The party:
    # whoever deletes records in the data dir (the user by hand, a script): the change must not vanish unsaid.
    from relay.core.settings import load_settings
    from relay.doors.doctor import check_worktrees

    repo, data, worktree = _a_kept_run_without_a_record(tmp_path)
    env = relay_env(data, None)
    check = check_worktrees(load_settings(env))
    assert check.level == "warning", check
    assert str(worktree) in check.message and "never recorded" in check.message and "delete the folder" in check.message
    assert "leaves to you" in check.fix, check
    for args in (["cleanup", "--dry-run"], ["cleanup"]):
        cleaned = cli_main(args, env)
        assert f"left alone: {worktree}: holds run r20261202T000000-0000abcd's change" in cleaned.stdout, cleaned.stdout
    assert (worktree / "a.txt").read_text(encoding="utf-8") == "the run's work\n" and _kept(worktree).is_file()
    again = check_worktrees(load_settings(env))
    assert str(worktree) in again.message, again  # still named until the user removes it


def test_a_kept_worktree_of_a_repository_that_is_gone_is_not_removed_with_its_pool(tmp_path, new_git):
    # Broke: cleanup removed the whole pool of a repository that is gone, the one copy of a change never recorded with
    # it, and said only "(its repository is gone)". The party: whoever deletes records (and the repository) by hand.
    import shutil

    repo, data, worktree = _a_kept_run_without_a_record(tmp_path)
    shutil.rmtree(repo)
    cleaned = cli_main(["cleanup"], relay_env(data, None))
    assert (worktree / "a.txt").read_text(encoding="utf-8") == "the run's work\n", cleaned.stdout
    assert f"left alone: {worktree}" in cleaned.stdout and "never recorded" in cleaned.stdout, cleaned.stdout
    assert not worktree.with_name("w1").exists() and not (worktree.parent / "repo").exists()


async def test_on_a_git_older_than_2_54_the_same_hook_keys_change_nothing(tmp_path):
    # Config hooks are inert before git 2.54: the relay reads the real version and runs as before.
    version = config_hooks.git_version()
    if version is None or version[:2] >= (2, 54):
        pytest.skip(f"this machine's git ({version}) runs config hooks")
    prog, marker, repo, agy = _worker_hooking_the_shared_config(tmp_path)
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
        again = await _run(client, repo)
    assert packet["status"] == "SUCCESS" and again["status"] == "SUCCESS", (packet, again)
    assert git(repo, "show", f"{packet['branch']}:a.txt") == "b\n"
    assert _ran(marker) == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO (os.mkfifo) exists on POSIX only")
async def test_an_include_of_a_fifo_refuses_the_worktree_in_seconds_naming_the_include(tmp_path, monkeypatch):
    # Broke: `include.path` naming a FIFO held the filter read before the worktree's checkout (and the relay's
    # thread) until git's own timeout, 120 s; then a STORAGE_ERROR that named nothing.
    import relay.observe.git as relay_git

    monkeypatch.setattr(relay_git, "CONFIG_READ_SECONDS", 1.0)  # a healthy read takes milliseconds
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    os.mkfifo(repo / ".git" / "pipe")
    git(repo, "config", "include.path", "pipe")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
    _refused(packet, "include.path=pipe", str(repo / ".git" / "config"), "FIFO")
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO (os.mkfifo) exists on POSIX only")
async def test_an_include_of_a_fifo_refuses_an_in_place_run_in_seconds_naming_the_include_and_finishes_it(
        tmp_path, monkeypatch):
    # Broke: an in-place run's snapshot read the config (and ran rev-parse) with git's own 120 s timeout, each; then
    # it fell back to a look without git and started the worker (whose git would wait on the FIFO too). The party:
    # the repository under work (an earlier worker, or whoever cloned it, put an include of a FIFO in .git/config).
    import anyio

    import relay.observe.git as relay_git
    from fake_agy_harness import launches

    monkeypatch.setattr(relay_git, "CONFIG_READ_SECONDS", 1.0)  # a healthy read takes milliseconds
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    os.mkfifo(repo / ".git" / "pipe")
    git(repo, "config", "include.path", "pipe")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        with anyio.fail_after(60):  # git's own timeout is 120 s: a hang, not a timing goal
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        shown = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"]}))
    message = _refused(packet, "include.path=pipe", str(repo / ".git" / "config"), "FIFO", "did not start the run")
    assert "Remove the include" in packet["error"]["hint"] and "Nothing ran" in packet["error"]["hint"], packet["error"]
    assert shown["status"] == "CONFLICTING_OPTIONS" and shown["error"]["message"] == message, shown
    assert not list((tmp_path / "data" / "runs" / "active").glob("*")) and not launches(agy)
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


@pytest.mark.parametrize(("said", "version"), [
    ("git version 2.54.0", (2, 54, 0)), ("git version 2.54.0.windows.1", (2, 54, 0)),
    ("git version 2.39.5 (Apple Git-154)", (2, 39, 5)), ("2.55", (2, 55, 0)), ("git version 3.0.0-rc1\n", (3, 0, 0)),
    ("", None), ("garbage", None), ("git version", None), ("version 2.54.0", None)])
def test_the_git_version_parser(said, version):
    assert parse_git_version(said) == version


def test_an_unreadable_git_version_is_taken_to_run_config_hooks(monkeypatch):
    monkeypatch.setattr(config_hooks, "git_version", lambda: None)
    assert config_hooks.runs_config_hooks()
    monkeypatch.setattr(config_hooks, "git_version", lambda: (2, 53, 9))
    assert not config_hooks.runs_config_hooks()


async def test_a_hook_in_the_users_own_global_config_refuses_nothing_and_never_runs(tmp_path, new_git, monkeypatch):
    # Broke (on git 2.54+): the pool's git read ~/.gitconfig, so the user's own [hook] (the feature's main use)
    # refused every worktree run with CONFLICTING_OPTIONS naming that file. Now the pool's git reads neither the
    # user's config nor the system's (relay.isolate.pool_git): the run works, twice in the same worktree (checkout -f,
    # clean, a new branch), and the hook's command never runs. The party: the user's own config (and a worker that
    # writes it: tests/test_pool_git.py).
    prog, marker = _evil(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(_hook(prog, "reference-transaction") + _hook(prog)[1:].replace("evil", "lint"),
                                     encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        first = await _run(client, repo)
        second = await _run(client, repo)
    assert first["status"] == "SUCCESS" and second["status"] == "SUCCESS", (first, second)
    assert second["worktree"] == first["worktree"]
    assert git(repo, "show", f"{first['branch']}:a.txt") == "b\n"
    assert _ran(marker) == ""
