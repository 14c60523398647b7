"""The escalation gate (issue 10): a confirm_trusted profile previews a trusted run, and only its token runs it.

The relay is the in-memory one `serve` builds; the fake agy runs as a real subprocess, so "nothing ran"
is read from its launch log, and "it ran trusted" from the argv agy really received.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

import relay.call.confirm as confirm
from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, success_scenario

pytestmark = pytest.mark.anyio

PROFILES = json.dumps({
    "gated": {"execution_mode": "trusted", "confirm_trusted": True, "constraints": ["Do not add dependencies."],
              "paths": ["src/"]},
    "open": {"execution_mode": "trusted"},
})
EXECUTE, CONTINUE = "antigravity_execute", "antigravity_continue"


def _setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]))
    return agy, relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=PROFILES)


def _as_previewed(argv: list[str], run_id: str) -> list[str]:
    """A launched argv in the preview's shape: the run's id as <run_id>, the prompt and report schema shortened."""
    out = []
    for arg in argv:
        if arg.startswith("--print="):
            out.append("--print=")
        elif arg.startswith("{") and '"summary"' in arg:
            out.append("<schema>")
        else:
            out.append(arg.replace(run_id, "<run_id>"))
    return out


def _previewed(command: list[str]) -> list[str]:
    return ["--print=" if a.startswith("--print=") else "<schema>" if a.startswith("<report schema") else a
            for a in command]


async def test_confirm_trusted_call_answers_a_preview_and_its_token_runs_it_trusted(tmp_path, repo):
    agy, env = _setup(tmp_path)
    call = {"task": "add src/new.py", "profile": "gated", "workspace": str(repo), "execution_mode": "trusted"}
    async with memory_relay(env) as client:
        first = payload(await client.call_tool(EXECUTE, call))
        assert first["ok"] is False and first["status"] == "CONFIRMATION_REQUIRED", first
        preview = first["preview"]
        assert launches(agy) == [] and not (repo / "src" / "new.py").exists()  # nothing ran
        assert preview["workspace"] == str(repo) and preview["timeout_minutes"] == 30
        assert preview["policy"]["constraints"] == ["Do not add dependencies."] and preview["policy"]["paths"] == ["src/"]
        assert "--dangerously-skip-permissions" in preview["command"]
        assert f'confirm: "{preview["confirm"]}"' in first["error"]["hint"] and EXECUTE in first["error"]["hint"]
        # recorded like any refusal, so `runs show` / get_result find it
        listed = payload(await client.call_tool("antigravity_get_result", {}))["recent_runs"]
        assert listed[0]["run_id"] == first["run_id"] and listed[0]["status"] == "CONFIRMATION_REQUIRED"
        shown = payload(await client.call_tool("antigravity_get_result", {"run_id": first["run_id"]}))
        # A `true` profile's record keeps its preview, not its token (issue 34: a model on a client that shows
        # forms may read it; tests/test_person_gate.py); the answer alone carried it.
        assert "confirm" not in shown["preview"] and preview["confirm"] not in json.dumps(shown)
        assert {**shown, "preview": {**shown["preview"], "confirm": preview["confirm"]},
                "error": first["error"]} == first
        assert "not kept in the run record" in shown["error"]["hint"]

        ran = payload(await client.call_tool(EXECUTE, {**call, "confirm": preview["confirm"]}))
    assert ran["status"] == "SUCCESS" and ran["changes"]["files"] == ["src/new.py"], ran
    (launch,) = launches(agy)
    assert "--dangerously-skip-permissions" in launch["argv"] and "--sandbox" not in launch["argv"]
    # the preview showed exactly what was launched, apart from the run's own id and the long texts
    assert preview["command"][0] == str(agy)  # the fake logs its argv without argv[0]
    assert _as_previewed(launch["argv"], ran["run_id"]) == _previewed(preview["command"][1:])


async def test_confirm_token_replayed_with_other_arguments_is_refused_naming_what_differs(tmp_path, repo):
    agy, env = _setup(tmp_path)
    call = {"task": "add src/new.py", "profile": "gated", "workspace": str(repo)}
    async with memory_relay(env) as client:
        token = payload(await client.call_tool(EXECUTE, call))["preview"]["confirm"]
        other = payload(await client.call_tool(EXECUTE, {**call, "task": "delete everything", "timeout_minutes": 5,
                                                         "confirm": token}))
        # Another project (a sub-folder of this one is refused before the gate: its profile sets paths).
        other_repo = make_repo(tmp_path / "other")
        moved = payload(await client.call_tool(EXECUTE, {**call, "workspace": str(other_repo), "confirm": token}))
    assert other["status"] == "CONFIRMATION_REQUIRED" and "preview" not in other, other
    assert "arguments differ from the preview" in other["error"]["message"]
    assert "(task, time limit)" in other["error"]["message"] and "without `confirm`" in other["error"]["hint"]
    assert "(workspace)" in moved["error"]["message"], moved
    assert launches(agy) == []


async def test_confirm_token_after_its_expiry_is_refused_and_asks_again(tmp_path, repo, monkeypatch):
    agy, env = _setup(tmp_path)
    now = [1_900_000_000.0]
    monkeypatch.setattr(confirm.Gate, "clock", staticmethod(lambda: now[0]))  # injected clock: no sleeping
    call = {"task": "add src/new.py", "profile": "gated", "workspace": str(repo)}
    async with memory_relay(env) as client:
        token = payload(await client.call_tool(EXECUTE, call))["preview"]["confirm"]
        now[0] += confirm.TOKEN_TTL_SECONDS + 1
        late = payload(await client.call_tool(EXECUTE, {**call, "confirm": token}))
    assert late["status"] == "CONFIRMATION_REQUIRED" and "expired" in late["error"]["message"], late
    assert "new preview" in late["error"]["hint"] and launches(agy) == []


async def test_confirm_token_tampered_is_refused(tmp_path, repo):
    agy, env = _setup(tmp_path)
    call = {"task": "add src/new.py", "profile": "gated", "workspace": str(repo)}
    async with memory_relay(env) as client:
        token = payload(await client.call_tool(EXECUTE, call))["preview"]["confirm"]
        prefix, expiry, groups, tag = token.split(".")
        forged = [
            f"{prefix}.{expiry}.{groups}.{tag[:-1]}{'0' if tag[-1] != '0' else '1'}",  # a flipped tag
            f"{prefix}.{int(expiry) + 86_400}.{groups}.{tag}",  # a longer life
            "c1.garbage",
        ]
        answers = [payload(await client.call_tool(EXECUTE, {**call, "confirm": t})) for t in forged]
    for answer in answers:
        assert answer["status"] == "INVALID_INPUT" and "not a token this relay issued" in answer["error"]["message"], answer
    assert launches(agy) == []


async def test_confirm_continue_of_a_trusted_run_is_gated_the_same_way(tmp_path, repo):
    agy, env = _setup(tmp_path)
    call = {"task": "add src/new.py", "profile": "gated", "workspace": str(repo)}
    async with memory_relay(env) as client:
        token = payload(await client.call_tool(EXECUTE, call))["preview"]["confirm"]
        parent = payload(await client.call_tool(EXECUTE, {**call, "confirm": token}))
        # the parent must have run (a flake once failed further down with no trace of why the parent did not)
        assert parent["status"] == "SUCCESS" and len(launches(agy)) == 1, parent
        follow = {"run_id": parent["run_id"], "feedback": "also add a docstring"}
        asked = payload(await client.call_tool(CONTINUE, follow))
        assert asked["status"] == "CONFIRMATION_REQUIRED" and CONTINUE in asked["error"]["hint"], asked
        assert "--conversation" in asked["preview"]["command"] and len(launches(agy)) == 1
        # the execute's token does not run the continue
        reused = payload(await client.call_tool(CONTINUE, {**follow, "confirm": token}))
        assert reused["status"] == "CONFIRMATION_REQUIRED" and "tool" in reused["error"]["message"], reused
        ran = payload(await client.call_tool(CONTINUE, {**follow, "confirm": asked["preview"]["confirm"]}))
    assert ran["status"] == "SUCCESS", ran
    assert "--dangerously-skip-permissions" in launches(agy)[-1]["argv"] and len(launches(agy)) == 2


async def test_confirm_profile_without_confirm_trusted_runs_trusted_at_once(tmp_path, repo):
    agy, env = _setup(tmp_path)
    async with memory_relay(env) as client:
        ran = payload(await client.call_tool(EXECUTE, {"task": "add src/new.py", "profile": "open",
                                                       "workspace": str(repo), "execution_mode": "trusted"}))
    assert ran["status"] == "SUCCESS" and "preview" not in ran, ran
    assert "--dangerously-skip-permissions" in launches(agy)[0]["argv"]
    assert not (tmp_path / "data" / confirm.KEY_FILE).exists()  # the gate was never consulted


async def test_confirm_safe_call_under_a_confirm_trusted_profile_runs_without_a_preview(tmp_path, repo):
    agy, env = _setup(tmp_path)
    async with memory_relay(env) as client:
        ran = payload(await client.call_tool(EXECUTE, {"task": "add src/new.py", "profile": "gated",
                                                       "workspace": str(repo), "execution_mode": "safe"}))
    assert ran["status"] == "SUCCESS", ran
    assert "--dangerously-skip-permissions" not in launches(agy)[0]["argv"]


def test_confirm_key_file_is_owner_only_and_replaced_when_others_could_read_it(tmp_path):
    data = tmp_path / "data"
    key = confirm.load_or_create_key(data)
    path = data / confirm.KEY_FILE
    assert len(key) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert confirm.load_or_create_key(data) == key  # kept
    path.chmod(0o644)  # readable by others: it may have leaked, so it is not trusted any more
    fresh = confirm.load_or_create_key(data)
    assert fresh != key and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")  # a link in its place is replaced, never followed
    assert confirm.load_or_create_key(data) != fresh and not path.is_symlink()
    assert not (tmp_path / "elsewhere").exists() and [p.name for p in data.iterdir()] == [confirm.KEY_FILE]


def test_confirm_check_token_names_only_the_groups_that_differ():
    key = b"k" * 32
    groups = {label: label for label in confirm.GROUPS}
    token, expiry = confirm.issue_token(key, groups, {"prompt": "p"}, now=1000.0)
    assert confirm.check_token(key, token, groups, {"prompt": "p"}, now=1000.0 + confirm.TOKEN_TTL_SECONDS) is None
    changed = {**groups, "workspace": "/elsewhere", "agy": "/other/agy"}
    assert confirm.check_token(key, token, changed, {"prompt": "p"}, now=1000.0).differs == ("workspace", "agy")
    assert confirm.check_token(key, token, groups, {"prompt": "q"}, now=1000.0).kind == "invalid"
    assert confirm.check_token(b"x" * 32, token, groups, {"prompt": "p"}, now=1000.0).kind in ("differ", "invalid")


def test_confirm_gate_applies_to_every_trusted_plan_of_a_confirm_trusted_profile(tmp_path):
    from relay.call.policy import CallOptions, resolve_plan
    from relay.core.contracts import ExecutionMode
    from relay.core.settings import load_settings
    from relay.runs.store import RunStore

    profiles = {"gated": {"execution_mode": "trusted", "confirm_trusted": True},
                "legacy": {"skip_permissions": True, "confirm_trusted": True}, "open": {"execution_mode": "trusted"}}
    # Beside tmp_path, the workspace below: a workspace holding the data dir is refused.
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path.parent / f"{tmp_path.name}.data"),
                              "GRAVITY_RELAY_PROFILES": json.dumps(profiles)})
    gate = confirm.Gate(settings, RunStore(settings.runs_dir), {})

    def needed(profile: str, **call) -> bool:
        return gate.needed(resolve_plan(CallOptions(profile=profile, workspace=str(tmp_path), **call), settings))

    assert needed("gated")  # trusted by the profile's default, not only when the call asks
    assert needed("legacy", skip_permissions=True) and needed("legacy")
    assert not needed("gated", execution_mode=ExecutionMode.SAFE)  # narrowing to safe needs no confirmation
    assert not needed("open", execution_mode=ExecutionMode.TRUSTED)
