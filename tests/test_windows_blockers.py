"""The first things a Windows (or macOS) user would hit, each imposed on this Linux machine: a cp1252 default
encoding, a batch-file agy, CreateProcess's command-line limit, cmd.exe's quoting, a file another handle holds
open, read-only git objects, a case-insensitive filesystem. Issue 37, items W2-W14 and M2.

Each test names the trait it imposes and the party it guards against; each failed on the code before its fix.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import make_repo


# --------------------------------------------------------------------------- W9: the pool's texts under cp1252


def test_a_worktree_pool_for_a_repository_under_a_chinese_user_name_works_under_cp1252(tmp_path, cp1252_default):
    # Broke: pool.py wrote the repository's path and the run id in the platform's encoding; on Windows (cp1252) a
    # repository under C:\Users\张三\ raised UnicodeEncodeError and no worktree run could start.
    from relay.isolate.pool import lease_worktree, salvage_worktree
    from relay.runs.store import new_run_id

    repo = make_repo(tmp_path / "张三" / "project")
    data = tmp_path / "data"
    run_id = new_run_id()
    lease = lease_worktree(data, repo, run_id)
    try:
        (lease.workdir / "half.txt").write_text("x\n", encoding="utf-8")
    finally:
        lease.release()
    tip, said = salvage_worktree(data, str(lease.workdir), lease.branch, run_id)
    assert tip and "recorded on branch" in said, said


# --------------------------------------------------------------------------- the agy executable: a script, a shim


def test_a_python_script_agy_runs_with_the_relays_own_interpreter(tmp_path):
    # Windows runs no script by its first line and the relay writes no .exe shim: a wrapper (the demo's worker,
    # the tests' fake, a user's own) is AGY_BIN=…\agy.py, run as `python agy.py ARGS` on every platform.
    from relay.agy.command import locate_agy
    from relay.agy.executable import agy_command
    from relay.core.settings import load_settings

    script = tmp_path / "agy.py"
    script.write_text("print('1.2.17')\n", encoding="utf-8")  # not executable: Windows has no such bit
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(script)})
    assert locate_agy(settings, {}) == str(script)
    assert agy_command(str(script)) == [sys.executable, str(script)]
    assert agy_command("/opt/agy/agy") == ["/opt/agy/agy"]


SHIM_PROMPT = "line one\nline two: 100% %PATH% & echo pwned | more ^ \"quoted\""


@pytest.mark.parametrize("shim", [
    '@echo off\r\n"%~dp0agy.exe" %*\r\n',  # the usual shim: the .exe beside it, named through %~dp0
    '@SETLOCAL\r\n@SET dp0=%~dp0\r\n@"%dp0%agy.exe" %*\r\n',  # npm's style
    "@echo off\r\nrem nothing named: the agy.exe beside it is still the one\r\n",
])
@pytest.mark.anyio
async def test_a_batch_file_agy_never_gets_the_prompt_the_exe_it_stands_for_does(tmp_path, shim):
    # The party: the leader's task (any text). Broke: AGY_BIN=agy.cmd (or agy.cmd first on PATH) was run as the
    # command, so cmd.exe re-read the prompt: cut at its first newline, %PATH% expanded, `& echo pwned` run.
    from conftest import memory_relay, relay_env
    from fake_agy_harness import install_fake_agy, launches, success_scenario

    repo = make_repo(tmp_path / "project")
    fake = install_fake_agy(tmp_path / "fake", success_scenario([{"op": "write", "path": "a.txt", "content": "a\n"}]),
                            launcher="sh")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "agy.exe"
    exe.write_bytes(fake.read_bytes())  # the fake's wrapper under the .exe's name: what the shim calls
    exe.chmod(0o755)
    batch = bin_dir / "agy.cmd"
    batch.write_text(shim, encoding="utf-8")
    env = relay_env(tmp_path / "data", batch)
    async with memory_relay(env) as client:
        result = await client.call_tool("antigravity_execute", {"task": SHIM_PROMPT, "workspace": str(repo),
                                                                "execution_mode": "trusted"})
    assert not result.is_error, result.content[0].text
    (launch,) = launches(fake)
    assert SHIM_PROMPT in launch["prompt"]


def test_a_batch_file_agy_naming_no_exe_is_refused_with_the_path_to_use(tmp_path):
    from relay.agy.command import locate_agy
    from relay.core.errors import SpawnError
    from relay.core.settings import load_settings

    batch = tmp_path / "agy.cmd"
    batch.write_text('@node "%~dp0\\node_modules\\agy\\cli.js" %*\r\n', encoding="utf-8")
    batch.chmod(0o755)
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(batch)})
    with pytest.raises(SpawnError) as info:
        locate_agy(settings, {})
    assert "batch file" in info.value.message and r"%LOCALAPPDATA%\agy\bin\agy.exe" in info.value.hint
