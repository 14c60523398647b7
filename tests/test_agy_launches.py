"""Every agy launch, whatever its purpose, gets the worker's allowlisted environment (issue 13, item 6),
and `doctor --write-probe` tells whether safe mode can write with this agy (issue 14, item 11).

Launch kinds: `agy --version` at serve start-up and in the guide (``agy_cli.agy_fact``),
the version read before a run, the auth probe (`agy models`), the worker, doctor's probes, and
doctor's write probe. Each is a real fake-agy subprocess that records the environment it got.
"""

from __future__ import annotations

import os

import pytest
from mcp import Client

from conftest import payload
from fake_agy_harness import install_fake_agy, launches, scenario, success_scenario
from relay.agy import command as agy_cli
from relay.doors.doctor import run_doctor
from relay.call.orchestrate import Relay
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings
from relay.agy.env import AGY_AUTH_KEYS
from relay.doors.doctor import check_safe_write
from relay.doors.write_probe import PROBE_FILE

pytestmark = pytest.mark.anyio

# Other tools' credentials, as a careless user's shell holds them.
PLANTED = {
    "OPENAI_API_KEY": "sk-planted", "AWS_SECRET_ACCESS_KEY": "planted", "AWS_ACCESS_KEY_ID": "AKIAPLANTED",
    "GITHUB_TOKEN": "ghp_planted", "ANTHROPIC_API_KEY": "sk-ant-planted", "DATABASE_URL": "postgres://u:p@h/db",
    "KUBECONFIG": "/home/u/.kube/config", "NPM_TOKEN": "planted", "ANTIGRAVITY_CONVERSATION_ID": "parent-convo",
}
# What agy's own auth reads (agy-protocol.md §6.5): passed through.
AGY_AUTH = {"GEMINI_API_KEY": "AIza-planted", "USE_ADC": "1", "GOOGLE_APPLICATION_CREDENTIALS": "/home/u/adc.json",
            "GOOGLE_CLOUD_PROJECT": "my-project", "AGY_ADC_AUTH": "true", "GOOGLE_CLOUD_QUOTA_PROJECT": "quota-project",
            "GOOGLE_CLOUD_LOCATION": "us-central1"}  # the last three: Enterprise ADC (agy-protocol.md §7.4)


def _base() -> dict[str, str]:
    return {"HOME": os.environ.get("HOME", "/root"), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            **PLANTED, **AGY_AUTH}


def assert_allowlisted(run: dict) -> None:
    keys = set(run["env_keys"])
    leaked = keys & set(PLANTED)
    assert not leaked, f"{run['mode']} launch got {sorted(leaked)}"
    assert set(AGY_AUTH) <= keys, f"{run['mode']} launch lacks agy's own auth keys"
    assert run["env"]["AGY_CLI_DISABLE_AUTO_UPDATE"] == "true", run["mode"]


def test_agy_auth_keys_are_the_documented_four():
    assert set(AGY_AUTH_KEYS) == set(AGY_AUTH)


def test_version_probe_at_serve_start_up_gets_the_allowlisted_env(tmp_path):
    # Regression: `serve` ran `agy --version` with the relay's whole environment (every planted secret).
    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    path, version = agy_cli.agy_fact(settings, environ=_base())
    assert path == str(agy) and version == "1.2.17"
    (run,) = launches(agy, print_mode_only=False)
    assert run["mode"] == "version"
    assert_allowlisted(run)


async def test_run_launches_version_probe_and_worker_with_the_allowlisted_env(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "a\n"}]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    relay = Relay(settings, environ=_base())
    async with Client(create_server(settings, relay, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    runs = launches(agy, print_mode_only=False)
    assert sorted(r["mode"] for r in runs) == ["models", "print", "version"]
    for run in runs:
        assert_allowlisted(run)


# serve over stdio with secrets planted in its environment: test_e2e_stdio.py's smoke test (one relay process).


def test_doctor_probes_get_the_allowlisted_env(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    run_doctor(settings, environ=_base(), home=tmp_path / "home")
    runs = launches(agy, print_mode_only=False)
    assert {r["mode"] for r in runs} == {"version", "models"}
    for run in runs:
        assert_allowlisted(run)


def _probe_scenario(accept_edits: str, version: str = "1.3.2", think: float = 0, **top) -> dict:
    # agy-protocol.md §7.1 ("permissions": "policy"): agy's default policy writes from 1.2.14; accept-edits does not
    edit = [{"op": "write", "path": PROBE_FILE, "content": "ok\n"}]
    return {**scenario({"behaviour": "success", "edits": edit, "think_seconds": think}, version=version),
            "permissions": "policy", **top}


def test_write_probe_reports_safe_mode_cannot_write_when_accept_edits_is_soft_denied(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", _probe_scenario("denied", version="1.2.13"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    check = check_safe_write(settings, _base(), timeout=30)
    assert check.level == "warning" and "cannot write" in check.message, check
    assert "EditFile" in check.message and "trusted" in check.fix
    (run,) = launches(agy)
    assert "accept-edits" in run["argv"] and "--dangerously-skip-permissions" not in run["argv"]
    assert_allowlisted(run)


def test_write_probe_reports_safe_mode_can_write_when_the_file_appears(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", _probe_scenario("writes"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    check = check_safe_write(settings, _base(), timeout=30)
    assert check.level == "ok" and "can write" in check.message and "default policy" in check.message, check
    (run,) = launches(agy)
    assert "--mode" not in run["argv"] and "--sandbox" in run["argv"]  # agy 1.3.2: its own request-review policy


def test_write_probe_says_safe_runs_are_stopped_when_agys_settings_auto_approve(tmp_path):
    # think: the model's first call between init and the write (the relay stops the run on init)
    agy = install_fake_agy(tmp_path / "bin", _probe_scenario("writes", think=5, tool_permission="always-proceed"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    check = check_safe_write(settings, _base(), timeout=30)
    assert check.level == "warning" and "always-proceed" in check.message and "settings.json" in check.fix, check
    (run,) = launches(agy)
    assert run["exit_code"] != 0  # stopped, not finished


def test_doctor_runs_the_write_probe_only_when_asked(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", _probe_scenario("writes"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    names = [c.name for c in run_doctor(settings, environ=_base(), home=tmp_path / "home")]
    assert "safe-write" not in names and launches(agy) == []
    checks = run_doctor(settings, environ=_base(), home=tmp_path / "home", write_probe=True)
    assert [c.level for c in checks if c.name == "safe-write"] == ["ok"]
    assert len(launches(agy)) == 1
