"""Policy bounds through the real parts: the in-memory MCP client, the relay, the fake agy as a
real subprocess, real git repos. Each test reads the WHOLE argv the fake agy received (its
launch log), not a flag the test passed in."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from mcp import Client

from conftest import make_repo, payload
from fake_agy_harness import install_fake_agy, launches, set_scenario, success_scenario
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings

pytestmark = pytest.mark.anyio

# Inside the docs profile's paths: since issue 10 a write outside them is a POLICY_VIOLATION, not a flag.
EDIT = [{"op": "write", "path": "docs/new.md", "content": "x = 1\n"}]
# The README's example profile "docs" (profiles/example.profiles.json): it names no execution_mode.
DOCS_PROFILE = {"description": "Documentation only", "constraints": ["Only change Markdown files."], "paths": ["**/*.md"]}


def shape(argv: list[str]) -> list[str]:
    """The whole argv after the program (the launch log keeps argv[1:]), with the run-specific values (schema, log file, prompt, paths) replaced by names."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        prev = argv[i - 1] if i else ""
        if prev == "--json-schema":
            out.append("<schema>")
        elif prev == "--log-file":
            out.append("<log>")
        elif prev == "--add-dir":
            out.append("<workspace>")
        elif arg.startswith("--print="):
            out.append("--print=<prompt>")
        else:
            out.append(arg)
    return out


def base_argv(*mode: str, timeout: str = "1800s", extra: tuple[str, ...] = ()) -> list[str]:
    return ["--output-format", "stream-json", "--json-schema", "<schema>", "--add-dir", "<workspace>", *mode,
            *extra, "--disable-slash-commands", "--print-timeout", timeout, "--log-file", "<log>", "--print=<prompt>"]


def relay_for(tmp_path: Path, agy: Path, profiles: dict | None = None, **env: str):
    full = {"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy), **env}
    if profiles is not None:
        full["GRAVITY_RELAY_PROFILES"] = json.dumps(profiles)
    return create_server(load_settings(full))


@pytest.fixture
def agy(tmp_path: Path) -> Path:
    return install_fake_agy(tmp_path / "bin", success_scenario(EDIT))


async def call(server, tool: str, args: dict) -> dict:
    async with Client(server) as client:
        return payload(await client.call_tool(tool, args))


# --------------------------------------------------------------------------- item 4: trusted only from a profile


@pytest.mark.parametrize("widen", [{"execution_mode": "trusted"}, {"skip_permissions": True}])
async def test_execute_under_a_profile_naming_no_mode_cannot_widen_to_trusted(tmp_path, repo, agy, widen):
    # Regression (issue 13, item 4): a call's execution_mode "trusted" or skip_permissions=true
    # launched agy with --dangerously-skip-permissions when the profile named no mode, the
    # README's own example profile "docs" included. (With no profile in use the call chooses: issue 22,
    # tests/test_trusted_contract.py.)
    server = relay_for(tmp_path, agy, {"docs": {**DOCS_PROFILE, "workspace": str(repo)}})
    args = {"task": "t", "workspace": str(repo), **widen, "profile": "docs"}
    packet = await call(server, "antigravity_execute", args)
    assert packet["status"] == "CONFLICTING_OPTIONS", packet
    assert "not granted by profile 'docs'" in packet["error"]["message"]
    assert "trusted" in packet["error"]["hint"]
    assert launches(agy) == []  # agy never started in print mode


@pytest.mark.parametrize("profile", [None, "docs"])
async def test_execute_without_a_mode_launches_agy_in_the_default_mode_whole_argv(tmp_path, repo, agy, profile):
    server = relay_for(tmp_path, agy, {"docs": {**DOCS_PROFILE, "workspace": str(repo)}})
    packet = await call(server, "antigravity_execute", {"task": "t", "workspace": str(repo),
                                                        **({"profile": profile} if profile else {})})
    assert packet["status"] == "SUCCESS", packet
    (launch,) = launches(agy)
    assert shape(launch["argv"]) == base_argv()


@pytest.mark.parametrize("grant", [{"execution_mode": "trusted"}, {"skip_permissions": True}])
async def test_execute_with_a_trusted_profile_launches_agy_with_skip_permissions_whole_argv(tmp_path, repo, agy, grant):
    server = relay_for(tmp_path, agy, {"yolo": {"workspace": str(repo), **grant}})
    packet = await call(server, "antigravity_execute", {"task": "t", "profile": "yolo"})
    assert packet["status"] == "SUCCESS", packet
    assert shape(launches(agy)[0]["argv"]) == base_argv("--dangerously-skip-permissions")
    # and the call may still narrow it to safe
    set_scenario(agy, success_scenario(EDIT))
    safe = await call(server, "antigravity_execute", {"task": "t", "profile": "yolo", "execution_mode": "safe"})
    assert safe["status"] == "SUCCESS", safe
    assert shape(launches(agy)[-1]["argv"]) == base_argv("--sandbox")


# --------------------------------------------------------------------------- item 5: the default timeout is a bound


async def test_execute_without_a_profile_timeout_caps_the_call_at_the_default(tmp_path, repo, agy):
    # Regression (issue 13, item 5): with no profile timeout a call raised the limit from 30 min to 24 h.
    server = relay_for(tmp_path, agy)
    packet = await call(server, "antigravity_execute", {"task": "t", "workspace": str(repo), "timeout_minutes": 1440})
    assert packet["status"] == "SUCCESS", packet
    assert shape(launches(agy)[0]["argv"]) == base_argv(timeout="1800s")
    assert any("capped at the default 30" in f for f in packet["flags"])
    set_scenario(agy, success_scenario(EDIT))
    await call(server, "antigravity_execute", {"task": "t", "workspace": str(repo), "timeout_minutes": 5})
    assert shape(launches(agy)[-1]["argv"]) == base_argv(timeout="300s")


# --------------------------------------------------------------------------- model / agent: the profile wins


async def test_execute_model_and_agent_of_the_profile_win_unless_the_profile_allows_the_call_s(tmp_path, repo, agy):
    # Regression: a call's model/agent silently replaced the profile's.
    profiles = {"pinned": {"workspace": str(repo), "model": "m-pro", "agent": "coder"},
                "choice": {"workspace": str(repo), "model": "m-pro", "allowed_models": ["m-flash"],
                           "allowed_agents": ["reviewer"]}}
    server = relay_for(tmp_path, agy, profiles)
    for args in ({"model": "m-flash"}, {"agent": "hacker"}):
        packet = await call(server, "antigravity_execute", {"task": "t", "profile": "pinned", **args})
        assert packet["status"] == "CONFLICTING_OPTIONS", packet
        assert "allowed_" in packet["error"]["hint"]
    assert launches(agy) == []
    packet = await call(server, "antigravity_execute", {"task": "t", "profile": "choice", "model": "m-flash",
                                                        "agent": "reviewer"})
    assert packet["status"] == "SUCCESS", packet
    assert shape(launches(agy)[0]["argv"]) == base_argv(
                                                        extra=("--model", "m-flash", "--agent", "reviewer"))
    set_scenario(agy, success_scenario(EDIT))
    await call(server, "antigravity_execute", {"task": "t", "profile": "pinned"})
    assert shape(launches(agy)[-1]["argv"]) == base_argv(
                                                         extra=("--model", "m-pro", "--agent", "coder"))


# --------------------------------------------------------------------------- blank input and odd workspaces


async def test_execute_blank_task_or_workspace_is_refused_with_what_was_wrong(tmp_path, repo, agy):
    # Regression: a whitespace-only task was sent to agy; a whitespace-only workspace was
    # answered "the call names none".
    server = relay_for(tmp_path, agy)
    task = await call(server, "antigravity_execute", {"task": " \n\t ", "workspace": str(repo)})
    assert task["status"] == "INVALID_INPUT" and "task is blank" in task["error"]["message"]
    ws = await call(server, "antigravity_execute", {"task": "t", "workspace": "   "})
    assert ws["status"] == "INVALID_WORKSPACE" and "is blank" in ws["error"]["message"]
    assert launches(agy) == []


async def test_execute_refuses_the_data_dir_a_bare_repo_and_a_dot_git_as_workspace(tmp_path, repo, agy):
    # Regression: each of these was accepted and handed to agy.
    (tmp_path / "data" / "runs").mkdir(parents=True)
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    server = relay_for(tmp_path, agy)
    for where, needle in ((tmp_path / "data", "data dir"), (tmp_path / "data" / "runs", "data dir"),
                          (bare, "bare git repository"), (repo / ".git", "inside a git directory"),
                          (repo / ".git" / "refs", "inside a git directory")):
        packet = await call(server, "antigravity_execute", {"task": "t", "workspace": str(where)})
        assert packet["status"] == "INVALID_WORKSPACE" and needle in packet["error"]["message"], (where, packet)
    assert launches(agy) == []


def test_load_settings_relative_allowed_root_or_profile_workspace_is_refused(tmp_path, monkeypatch):
    # Regression: both were resolved against the relay's cwd.
    from relay.core.contracts import Status
    from relay.core.errors import RelayError
    from relay.call.policy import CallOptions, resolve_plan

    monkeypatch.chdir(tmp_path)
    (tmp_path / "proj").mkdir()
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "GRAVITY_RELAY_ALLOWED_ROOTS": "proj;/srv"})
    assert any("GRAVITY_RELAY_ALLOWED_ROOTS" in p and "'proj'" in p for p in s.problems)
    with pytest.raises(RelayError) as info:
        resolve_plan(CallOptions(workspace=str(tmp_path / "proj")), s)
    assert info.value.status is Status.INVALID_WORKSPACE and "relative" in info.value.message
    s = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"),
                       "GRAVITY_RELAY_PROFILES": '{"app": {"workspace": "proj"}}'})
    assert s.profile_error and "'app'" in s.profile_error and "not an absolute path" in s.profile_error


# --------------------------------------------------------------------------- continue keeps its workspace


async def test_continue_with_another_workspace_is_refused_and_with_the_same_one_runs(tmp_path, repo, agy):
    # Regression: continue silently ignored `workspace`, so a leader believed the work moved.
    other = make_repo(tmp_path / "other")
    server = relay_for(tmp_path, agy)
    first = await call(server, "antigravity_execute", {"task": "t", "workspace": str(repo)})
    assert first["status"] == "SUCCESS", first
    moved = await call(server, "antigravity_continue", {"run_id": first["run_id"], "feedback": "more",
                                                        "workspace": str(other)})
    assert moved["status"] == "INVALID_WORKSPACE" and str(repo) in moved["error"]["message"]
    assert len(launches(agy)) == 1
    blank = await call(server, "antigravity_continue", {"run_id": first["run_id"], "feedback": "  "})
    assert blank["status"] == "INVALID_INPUT"
    set_scenario(agy, success_scenario([]))
    same = await call(server, "antigravity_continue", {"run_id": first["run_id"], "feedback": "more",
                                                       "workspace": str(repo)})
    assert same["status"] in ("SUCCESS", "INVALID_REPORT"), same
    assert launches(agy)[-1]["cwd"] == str(repo.resolve()) or str(repo.resolve()) in launches(agy)[-1]["argv"]


async def test_execute_refuses_a_workspace_that_holds_the_data_dir(tmp_path, agy):
    # The data dir is owner-only so that nothing but the relay reads its records (credentials unmasked), its confirm
    # key and its HTTP token, or writes them. A workspace holding it hands all of that to the worker, safe mode
    # included: before, the call was accepted, and the worker replaced the confirm key with bytes it chose (so it
    # could mint tokens the relay accepts) and read the HTTP token beside it.
    import base64

    from relay.call.confirm import KEY_FILE

    home = tmp_path / "home"
    data = home / ".local" / "share" / "gravity-relay"
    (data / "runs").mkdir(parents=True)
    (data / KEY_FILE).write_bytes(b"k" * 32)
    os.chmod(data / KEY_FILE, 0o600)
    chosen = base64.b64encode(b"w" * 32).decode()
    set_scenario(agy, success_scenario([
        {"op": "write", "path": f".local/share/gravity-relay/{KEY_FILE}", "content_b64": chosen, "mode": "600"}]))
    server = relay_for(tmp_path, agy, GRAVITY_RELAY_DATA_DIR=str(data))
    for where in (home, home / ".local"):
        packet = await call(server, "antigravity_execute", {"task": "t", "workspace": str(where),
                                                            "execution_mode": "safe"})
        assert packet["status"] == "INVALID_WORKSPACE", (where, packet)
        assert "holds the relay's data dir" in packet["error"]["message"], packet
        assert "GRAVITY_RELAY_DATA_DIR" in packet["error"]["hint"], packet
    assert launches(agy) == [] and (data / KEY_FILE).read_bytes() == b"k" * 32


async def test_continue_keeps_its_runs_profile_and_mode_narrows_to_safe_and_never_widens(tmp_path, repo, agy):
    # A continue by run_id keeps its run's profile and mode. Before: `execution_mode`, `profile`, `sandbox` and
    # `skip_permissions` on it were dropped without a word: "safe" on a trusted run's continue launched agy trusted
    # (--dangerously-skip-permissions), and "trusted" or another profile on a safe run's ran safe, under its profile.
    server = relay_for(tmp_path, agy, {"dev": {"execution_mode": "trusted"}, "other": {"execution_mode": "trusted"}})
    trusted = await call(server, "antigravity_execute", {"task": "t", "workspace": str(repo), "profile": "dev"})
    safe = await call(server, "antigravity_execute", {"task": "t", "workspace": str(repo), "profile": "dev",
                                                      "execution_mode": "safe"})
    assert trusted["status"] == safe["status"] == "SUCCESS", (trusted, safe)
    assert "--dangerously-skip-permissions" in launches(agy)[0]["argv"]
    assert "--dangerously-skip-permissions" not in launches(agy)[1]["argv"]
    set_scenario(agy, success_scenario([]))
    for narrow in ({"execution_mode": "safe"}, {"sandbox": True}, {"skip_permissions": False}):
        ran = await call(server, "antigravity_continue", {"run_id": trusted["run_id"], "feedback": "more", **narrow})
        assert ran["status"] in ("SUCCESS", "INVALID_REPORT"), (narrow, ran)
        assert "--dangerously-skip-permissions" not in launches(agy)[-1]["argv"], narrow
    launched = len(launches(agy))
    for widen, status, named in (({"execution_mode": "trusted"}, "CONFLICTING_OPTIONS", "safe"),
                                 ({"skip_permissions": True}, "CONFLICTING_OPTIONS", "safe"),
                                 ({"sandbox": False}, "CONFLICTING_OPTIONS", "safe"),
                                 ({"profile": "other"}, "INVALID_INPUT", "'dev'")):
        refused = await call(server, "antigravity_continue", {"run_id": safe["run_id"], "feedback": "more", **widen})
        assert refused["status"] == status and named in refused["error"]["message"], (widen, refused)
        assert "antigravity_execute" in refused["error"]["hint"], refused
    assert len(launches(agy)) == launched
