"""Who may choose trusted (issue 22, item 1): each row of the table, through the MCP door and the CLI door.

    no profile in use          the call chooses: safe, trusted, the legacy booleans (contradictions refused)
    a profile naming no mode   safe-bounded: trusted / skip_permissions refused (CONFLICTING_OPTIONS)
    a `safe` profile           a call cannot widen it
    a `trusted` profile        granted (behind confirm_trusted when the profile sets it)
    a default profile          the operator's way to forbid trusted runs: every call has a profile in use

Each row runs once through the SDK's client (the server `serve` builds) and once through
`gravity-relay execute` (cli.main), on the same repository, and the two answers are the same bytes
once the run's own ids are masked; the argv agy was started with is checked for each row that runs.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, make_repo, memory_relay, relay_env
from fake_agy_harness import install_fake_agy, launches, set_scenario, success_scenario

EDIT = [{"op": "write", "path": "docs/new.md", "content": "x\n"}]
TRUSTED = "--dangerously-skip-permissions"

# (row name, profiles, default profile, call arguments, expected status, whether agy ran trusted)
ROWS = [
    ("no profile: trusted", None, None, {"execution_mode": "trusted"}, "SUCCESS", True),
    ("no profile: legacy skip_permissions", None, None, {"skip_permissions": True}, "SUCCESS", True),
    ("no profile: safe", None, None, {"execution_mode": "safe"}, "SUCCESS", False),
    ("no profile: no mode", None, None, {}, "SUCCESS", False),
    ("no profile: trusted with sandbox", None, None, {"execution_mode": "trusted", "sandbox": True},
     "CONFLICTING_OPTIONS", None),
    ("no profile: safe with skip_permissions", None, None, {"execution_mode": "safe", "skip_permissions": True},
     "CONFLICTING_OPTIONS", None),
    ("no profile: both booleans", None, None, {"sandbox": True, "skip_permissions": True}, "CONFLICTING_OPTIONS", None),
    ("profile naming no mode: trusted", {"docs": {}}, None, {"profile": "docs", "execution_mode": "trusted"},
     "CONFLICTING_OPTIONS", None),
    ("profile naming no mode: skip_permissions", {"docs": {}}, None, {"profile": "docs", "skip_permissions": True},
     "CONFLICTING_OPTIONS", None),
    ("profile naming no mode: no mode", {"docs": {}}, None, {"profile": "docs"}, "SUCCESS", False),
    ("safe profile: trusted", {"tight": {"execution_mode": "safe"}}, None,
     {"profile": "tight", "execution_mode": "trusted"}, "CONFLICTING_OPTIONS", None),
    ("safe profile: skip_permissions", {"tight": {"execution_mode": "safe"}}, None,
     {"profile": "tight", "skip_permissions": True}, "CONFLICTING_OPTIONS", None),
    ("trusted profile: its own mode", {"yolo": {"execution_mode": "trusted"}}, None, {"profile": "yolo"},
     "SUCCESS", True),
    ("trusted profile: narrowed to safe", {"yolo": {"execution_mode": "trusted"}}, None,
     {"profile": "yolo", "execution_mode": "safe"}, "SUCCESS", False),
    ("trusted profile with confirm_trusted", {"gate": {"execution_mode": "trusted", "confirm_trusted": True}}, None,
     {"profile": "gate", "execution_mode": "trusted"}, "CONFIRMATION_REQUIRED", None),
    ("default profile forbids trusted", {"guarded": {}}, "guarded", {"execution_mode": "trusted"},
     "CONFLICTING_OPTIONS", None),
    ("default profile forbids skip_permissions", {"guarded": {}}, "guarded", {"skip_permissions": True},
     "CONFLICTING_OPTIONS", None),
    ("default profile: no mode", {"guarded": {}}, "guarded", {}, "SUCCESS", False),
]

_IDS = re.compile(r'"(run_id|conversation_id|confirm)":"[^"]*"|r\d{8}T\d{6}-[0-9a-f]{8}|\b[0-9a-f]{8}-[0-9a-f-]{27}\b'
                  r'|\\?"c1[A-Za-z0-9_.-]{20,}\\?"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?')


def _masked(text: str) -> str:
    """The answer with what differs per run (its ids, the confirm token, the preview's expiry, how long it took)
    masked."""
    text = re.sub(r'"seconds":[0-9.]+', '"seconds":0', text)
    return _IDS.sub(lambda m: f'"{m.group(1)}":"<id>"' if m.group(1) else "<id>", text.strip())


def _env(tmp_path: Path, agy: Path, profiles: dict | None, default: str | None) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env = {**keep, **relay_env(tmp_path / "data", agy)}
    if profiles is not None:
        env["GRAVITY_RELAY_PROFILES"] = json.dumps(profiles)
    if default is not None:
        env["GRAVITY_RELAY_DEFAULT_PROFILE"] = default
    return env


async def _through_mcp(env: dict[str, str], args: dict) -> str:
    async with memory_relay(env) as client:
        result = await client.call_tool("antigravity_execute", args)
    block = result.content[0]  # then links to the run's diff and transcript (issue 27)
    return block.text


def _through_cli(env: dict[str, str], args: dict) -> tuple[int, str]:
    argv = ["execute", args["task"]]
    for key, value in args.items():
        if key != "task":
            argv += ["--arg", f"{key}={json.dumps(value)}"]
    done = cli_main(argv, env)
    return done.returncode, done.stdout


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_trusted_contract_row_holds_through_both_doors_with_the_same_bytes(tmp_path, row):
    _name, profiles, default, call, status, trusted = row
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "agy", success_scenario(EDIT))
    # README's two lines for the default profile, exactly: {"guarded": {}} (the call passes its workspace)
    profiles = {k: v if k == default else {**v, "workspace": str(repo)} for k, v in profiles.items()} if profiles else None
    env = _env(tmp_path, agy, profiles, default)
    args = {"task": "add docs/new.md", **call}
    if "profile" not in call:
        args["workspace"] = str(repo)

    answers = []
    for door in ("mcp", "cli"):
        set_scenario(agy, success_scenario([{**EDIT[0], "path": f"docs/{door}.md"}]))
        earlier = len(launches(agy))  # the launch log is history: this door's launches come after it
        if door == "mcp":
            text = anyio.run(_through_mcp, env, args)
        else:
            code, text = _through_cli(env, args)
            assert code == (0 if status == "SUCCESS" else 1), text
        packet = json.loads(text)
        assert packet["status"] == status, (door, packet)
        ran = launches(agy)[earlier:]
        if trusted is None:
            assert ran == [], f"{door}: agy started for a refused call"
        else:
            (launch,) = ran
            assert (TRUSTED in launch["argv"]) is trusted, (door, launch["argv"])
        if status == "CONFLICTING_OPTIONS":
            assert packet["error"]["hint"], packet
        answers.append(_masked(text.replace("docs/mcp.md", "docs/<door>.md").replace("docs/cli.md", "docs/<door>.md")))
    assert answers[0] == answers[1]


def test_trusted_refusal_under_a_profile_names_the_profile_and_the_way_out(tmp_path):
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "agy", success_scenario(EDIT))
    env = _env(tmp_path, agy, {"guarded": {}}, "guarded")
    code, text = _through_cli(env, {"task": "t", "workspace": str(repo), "execution_mode": "trusted"})
    packet = json.loads(text)
    assert code == 1 and packet["status"] == "CONFLICTING_OPTIONS"
    assert "profile 'guarded'" in packet["error"]["message"] and "bounded to safe" in packet["error"]["message"]
    assert '"execution_mode": "trusted"' in packet["error"]["hint"]


def test_doctor_says_the_readmes_guarded_default_profile_forbids_trusted_runs(tmp_path):
    # README's two lines set a default profile with no workspace: doctor says what it does, it does not warn.
    agy = install_fake_agy(tmp_path / "agy", success_scenario(EDIT))
    env = {**_env(tmp_path, agy, {"guarded": {}}, "guarded"), "HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    done = cli_main(["doctor", "--json"], env)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    row = checks["default profile"]
    assert row["level"] == "ok" and "no call runs trusted" in row["message"], row
    bare = cli_main(["doctor", "--json"], _env(tmp_path, agy, None, None) | {"HOME": str(tmp_path / "home")})
    none = {c["name"]: c for c in json.loads(bare.stdout)["checks"]}["profiles"]
    assert "trusted" in none["message"] and "default profile forbids" in none["message"], none
