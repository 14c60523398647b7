"""End to end: the relay behind the SDK's MCP client, the fake agy as a real executable, real git repos.

One smoke test starts `gravity-relay serve` in a subprocess over a real stdio pipe (the legacy
initialize handshake, as Codex does); the rest run the same server in
process (`memory_relay`), which answers with the same bytes at a fraction of the start-up cost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import memory_relay, payload, relay_env, stdio_relay
from fake_agy_harness import failure_scenario, install_fake_agy, launches, scenario, set_scenario, success_scenario
from test_agy_launches import AGY_AUTH, PLANTED, assert_allowlisted

pytestmark = pytest.mark.anyio

EDITS = [
    {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "lines": ["    value = compute()", "    return value"]},
    {"op": "write", "path": "src/util.py", "content": "def compute():\n    return 2\n"},
]


@pytest.fixture
def agy(tmp_path: Path) -> Path:
    return install_fake_agy(tmp_path / "bin", success_scenario(EDITS))


@pytest.fixture
def env(tmp_path: Path, agy: Path) -> dict[str, str]:
    return relay_env(tmp_path / "data", agy)


async def test_stdio_serve_lists_the_tools_then_executes_with_files_ranges_and_only_the_allowlisted_env(agy, tmp_path, repo):
    # One `gravity-relay serve` process for what three stdio tests each started one for (listing the tools,
    # an execute's packet and launch, the secrets planted in serve's environment): the same session, the same
    # process, the same assertions. The legacy handshake, as Codex does; the SDK's current one is tested
    # in process (test_inprocess.py) and over HTTP (test_http.py): the stdio transport is the same for both.
    env = relay_env(tmp_path / "data", agy, **PLANTED, **AGY_AUTH)
    async with stdio_relay(env) as client:
        assert "antigravity_continue(run_id" in client.instructions
        assert "Do not delegate questions or one-line edits" in client.instructions
        tools = {t.name: t for t in (await client.list_tools()).tools}
        result = await client.call_tool("antigravity_execute", {"task": "use compute()", "workspace": str(repo)})
    assert set(tools) == {"antigravity_execute", "antigravity_continue", "antigravity_get_result",
                          "antigravity_cancel"}
    execute = tools["antigravity_execute"].input_schema
    assert execute["required"] == ["task"]
    assert execute["properties"]["execution_mode"]["enum"] == ["safe", "trusted"]
    for legacy in ("plan", "acceptance_criteria", "skip_permissions", "sandbox", "timeout_minutes", "model"):
        assert legacy not in execute["properties"]
    assert set(tools["antigravity_get_result"].input_schema["properties"]["detail"]["enum"]) == {"summary", "errors", "full", "diff"}
    assert tools["antigravity_get_result"].annotations.read_only_hint is True

    packet = payload(result)
    assert result.is_error is False
    assert packet["ok"] is True and packet["status"] == "SUCCESS"
    assert packet["run_id"].startswith("r")
    assert packet["changes"]["count"] == 2
    assert set(packet["changes"]["files"]) == {"src/app.py", "src/util.py"}
    targets = {t["file"]: t for t in packet["changes"]["review"]}
    assert targets["src/app.py"]["lines"] == "2-3"
    assert targets["src/util.py"]["lines"] == "1-2"
    assert packet["summary"]
    assert "null" not in result.content[0].text
    assert "transcript" not in result.content[0].text
    # The worker was launched as the protocol requires.
    (launch,) = launches(agy)
    argv = launch["argv"]
    assert argv[argv.index("--add-dir") + 1] == str(repo.resolve())
    assert argv[argv.index("--output-format") + 1] == "stream-json"
    assert "--json-schema" in argv
    assert argv[-1].startswith("--print=") and "use compute()" in argv[-1]
    assert launch["stdin"]["devnull"] is True
    assert launch["pgid"] == launch["pid"]  # its own process group
    # Every agy launch of the serve process (version at start-up and before the run, auth probe, worker) got
    # the allowlisted environment, not serve's planted secrets (issue 13, item 6).
    runs = launches(agy, print_mode_only=False)
    assert {"version", "models", "print"} <= {r["mode"] for r in runs}
    for run in runs:
        assert_allowlisted(run)


async def test_e2e_continue_by_run_id_resumes_conversation_in_same_workspace(env, agy, repo: Path, tmp_path: Path):
    async with memory_relay(env) as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "use compute()", "workspace": str(repo)}))
        set_scenario(agy, success_scenario([{"op": "append", "path": "src/util.py", "content": "# reviewed\n"}]))
        second = payload(await client.call_tool("antigravity_continue",
                                                {"run_id": first["run_id"], "feedback": "add a comment to util"}))
    assert second["status"] == "SUCCESS", second
    assert second["conversation_id"] == first["conversation_id"]
    assert not any("new one" in f for f in second.get("flags", []))
    assert second["changes"]["files"] == ["src/util.py"]
    launch = launches(agy)[-1]
    argv = launch["argv"]
    assert argv[argv.index("--conversation") + 1] == first["conversation_id"]
    assert argv[argv.index("--add-dir") + 1] == str(repo.resolve())
    record = json.loads((tmp_path / "data" / "runs" / f"{second['run_id']}.json").read_text(encoding="utf-8"))
    assert record["request"]["parent_run_id"] == first["run_id"] and record["tool"] == "continue"


async def test_e2e_continue_says_plainly_when_agy_started_a_new_conversation(env, agy, repo: Path):
    # The backstop: no `warning: conversation … not found` line (agy-protocol.md §7.2 stops on it), only a new id.
    async with memory_relay(env) as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        set_scenario(agy, scenario({"behaviour": "success", "forget_conversation": True, "not_found_warning": False,
                                    "report": {"summary": "ok", "files_changed": []}}))
        second = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "feedback": "more"}))
    assert second["conversation_id"] != first["conversation_id"]
    assert any(f"did not resume conversation {first['conversation_id']}" in flag for flag in second["flags"])


async def test_e2e_continue_legacy_conversation_id_and_workspace(env, agy, repo: Path):
    async with memory_relay(env) as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        second = payload(await client.call_tool("antigravity_continue", {
            "conversation_id": first["conversation_id"], "workspace": str(repo), "feedback": "again"}))
    assert second["conversation_id"] == first["conversation_id"]
    argv = launches(agy)[-1]["argv"]
    assert argv[argv.index("--conversation") + 1] == first["conversation_id"]


async def test_e2e_get_result_in_all_three_details(env, repo: Path, tmp_path: Path):
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        run_id = packet["run_id"]
        summary = payload(await client.call_tool("antigravity_get_result", {"run_id": run_id}))
        errors = payload(await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "errors"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "full"}))
        cut = payload(await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "full", "max_chars": 400}))
    assert summary == packet
    assert errors["status"] == "SUCCESS" and errors["run_id"] == run_id and "attempts" in errors
    assert full["run_id"] == run_id and full["plan"]["workspace"] == str(repo.resolve()) and full["observation"]["changes"]
    assert Path(full["process"]["transcript"]).read_text(encoding="utf-8").count('"event"') >= 3
    assert "truncated" in cut and len(json.dumps(cut, separators=(",", ":"))) <= 400


async def test_e2e_get_result_refuses_foreign_run_ids_before_touching_files(env):
    async with memory_relay(env) as client:
        for bad in ("../../etc/passwd", "r2026", "/tmp/x"):
            result = await client.call_tool("antigravity_get_result", {"run_id": bad})
            body = payload(result)
            assert result.is_error and body["status"] == "INVALID_INPUT", body
        missing = payload(await client.call_tool("antigravity_get_result", {"run_id": "r20260101T000000-00000000"}))
    assert missing["status"] == "NOT_FOUND"


@pytest.mark.parametrize(
    ("workspace", "roots", "needle"),
    [("relative/dir", "", "not an absolute path"), ("/", "", "filesystem root"), (None, "OTHER", "outside the allowed roots")],
)
async def test_e2e_bad_workspaces_are_refused_and_recorded(tmp_path, agy, repo, workspace, roots, needle):
    extra = {"GRAVITY_RELAY_ALLOWED_ROOTS": str(tmp_path / "elsewhere")} if roots else {}
    env = relay_env(tmp_path / "data", agy, **extra)
    async with memory_relay(env) as client:
        result = await client.call_tool("antigravity_execute", {"task": "t", "workspace": workspace or str(repo)})
        packet = payload(result)
        assert result.is_error and packet["status"] == "INVALID_WORKSPACE" and needle in packet["error"]["message"]
        assert packet["error"]["hint"]
        again = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"]}))
    assert again == packet
    assert launches(agy) == []


@pytest.mark.parametrize(
    "options",
    [{"execution_mode": "safe", "skip_permissions": True}, {"execution_mode": "trusted", "sandbox": True},
     {"sandbox": True, "skip_permissions": True}],
)
async def test_e2e_conflicting_options_spawn_nothing(env, agy, repo, options):
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), **options}))
        errors = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "errors"}))
    assert packet["status"] == "CONFLICTING_OPTIONS"
    assert errors["error"]["code"] == "CONFLICTING_OPTIONS"
    assert launches(agy) == []  # only `agy --version` ran (for the instructions)


async def test_e2e_bad_enum_names_what_is_accepted_while_unknown_names_are_ignored(env, repo):
    # Unknown argument names are ignored and recorded (tests/test_client_calls.py); wrong values are not.
    async with memory_relay(env) as client:
        mode = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                       "execution_mode": "yolo", "workspce": "x"}))
        detail = payload(await client.call_tool("antigravity_get_result", {"run_id": mode["run_id"], "detail": "all"}))
    assert mode["status"] == "INVALID_INPUT" and "'safe', 'trusted'" in mode["error"]["message"]
    assert "workspace" in mode["error"]["hint"] and "workspce" not in mode["error"]["message"]
    assert detail["status"] == "INVALID_INPUT" and "'summary'" in detail["error"]["message"]


async def test_e2e_legacy_fields_are_accepted_and_reach_the_prompt(env, agy, repo):
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {
            "task": "t", "workspace": str(repo), "plan": "step one", "acceptance_criteria": ["it works"],
            "constraints": "keep it small", "timeout_minutes": 5, "sandbox": False, "model": "gemini-3.1-pro-low"}))
    assert packet["status"] == "SUCCESS", packet
    argv = launches(agy)[-1]["argv"]
    assert "--dangerously-skip-permissions" not in argv and argv[argv.index("--print-timeout") + 1] == "300s"
    assert argv[argv.index("--model") + 1] == "gemini-3.1-pro-low"
    assert "step one" in argv[-1] and "- it works" in argv[-1] and "- keep it small" in argv[-1]


async def test_e2e_default_profile_needs_only_task_and_appends_its_constraints(tmp_path, agy, repo):
    profiles = json.dumps({"app": {"workspace": str(repo), "execution_mode": "trusted",
                                   "constraints": ["do not touch migrations"]}})
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=profiles, GRAVITY_RELAY_DEFAULT_PROFILE="app",
                    GRAVITY_RELAY_FIXED_CONSTRAINTS="never commit")
    async with memory_relay(env) as client:
        assert "Default profile 'app'" in client.instructions
        packet = payload(await client.call_tool("antigravity_execute", {"task": "do the thing"}))
    assert packet["status"] == "SUCCESS", packet
    prompt = launches(agy)[-1]["argv"][-1]
    assert "- never commit" in prompt and "- do not touch migrations" in prompt
    assert "--dangerously-skip-permissions" in launches(agy)[-1]["argv"]


async def test_e2e_preexisting_dirty_file_is_not_blamed_on_the_worker(env, repo):
    (repo / "README.md").write_text("# project\nlocal edit before the run\n", encoding="utf-8")
    (repo / "notes.txt").write_text("untracked before the run\n", encoding="utf-8")
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert set(packet["changes"]["files"]) == {"src/app.py", "src/util.py"}


async def test_e2e_worker_failure_packet_carries_error_and_hint(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("api_error"))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        result = await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)})
    packet = payload(result)
    assert result.is_error and packet["ok"] is False and packet["status"] == "WORKER_ERROR"
    assert packet["error"]["message"] and packet["error"]["hint"]


async def test_e2e_in_a_non_git_workspace_observes_the_file_tree(env, tmp_path):
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    (plain / "src" / "app.py").write_text("def main():\n    return 1\n", encoding="utf-8")
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(plain)}))
    assert packet["changes"]["source"] == "tree"
    assert set(packet["changes"]["files"]) == {"src/app.py", "src/util.py"}


