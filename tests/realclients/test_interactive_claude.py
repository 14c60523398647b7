"""The real Claude Code CLI, interactive in a terminal, runs a delegation as an MCP task (issue 27, item 2).

Opt-in like the other real-client tests (GRAVITY_RELAY_REAL_CLIENTS=1), and skipped without tmux. The
test types into Claude Code's TUI in a tmux pane and reads the screen; its model API is the loopback fake
(anthropic_api.py); the relay is registered by `gravity-relay setup --client claude` alone, behind a tap
that logs the stdio wire (wiretap.py). What is proved is seen from the relay's side: the wire (tools/call
answered with a task, tasks/get polled to the run's end, tasks/cancel), the run record, and the fake agy's
launch log; and from the model's side: the packet in the task notification Claude Code hands it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import make_repo
from fake_agy_harness import failure_scenario, install_fake_agy, pid_alive, scenario

from .install import skip_reason
from .interactive import Interactive, gated_session, task_notifications
from .session import packet_bytes
from .terminal import tmux_missing
from .wiretap import events

SKIP = skip_reason() or tmux_missing()
pytestmark = [pytest.mark.real_clients, pytest.mark.skipif(SKIP is not None, reason=SKIP or "")]

EDITS = [{"op": "write", "path": "hello.txt", "content": "hello\n"}]
TASKS = "io.modelcontextprotocol/tasks"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")


def _task_of_the_call(c: Interactive) -> dict:
    """The relay's answer to the execute call: a task (resultType "task"), the call having declared the extension."""
    calls = c.wait_wire(lambda: c.answers_to("tools/call"), 90, "an answer to tools/call")
    (request,) = c.requests_of("tools/call")
    assert request["params"]["name"] == "antigravity_execute", c.explain()
    declared = request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
    assert TASKS in declared, f"Claude Code did not declare the Tasks extension on the call\n{c.explain()}"
    result = calls[0].get("result") or {}
    assert result.get("resultType") == "task" and result.get("status") == "working", \
        f"the call was not answered with a task\n{c.explain()}"
    return result


def _polls(c: Interactive, task_id: str) -> list[dict]:
    return [a.get("result") or a for a in c.answers_to("tasks/get")
            if (a.get("result") or {}).get("taskId") == task_id]


def test_claude_code_interactive_runs_a_delegation_as_a_task_and_its_model_gets_the_packet(
        tmp_path: Path, workspace: Path) -> None:
    began = time.monotonic()
    release = tmp_path / "release"  # the fake agy finishes once the test has seen the task polled while working
    agy = install_fake_agy(tmp_path / "agy", scenario({"behaviour": "success", "edits": EDITS, "sleep": 120,
                                                        "response": "done", "release_file": str(release)}))
    with Interactive("claude", tmp_path / "run", agy, workspace) as c:
        c.ask()
        task = _task_of_the_call(c)
        run_id = task["taskId"]
        assert run_id.startswith("r") and task["createdAt"] and "ttlMs" in task and task["pollIntervalMs"] > 0
        # The call went to the background: Claude Code says so, and polls the task while the run runs.
        c.terminal.wait_for("MCP task", 30, "Claude Code's background-task line")
        c.wait_wire(lambda: any(p["status"] == "working" for p in _polls(c, run_id)), 30, "tasks/get: working")
        release.touch()
        done = c.wait_wire(lambda: [p for p in _polls(c, run_id) if p["status"] != "working"], 60,
                           "tasks/get reaching the run's end")[0]
        # The model is told: the task notification carries the packet.
        notices = c.wait_wire(lambda: [n for n in task_notifications(c.requests) if run_id in n], 60,
                              "the task notification in a model request")
        c.terminal.wait_for(f"MCP task {run_id}", 30, "the completion on screen")
        records = c.records()
        explain = c.explain()
    (rec,) = records
    assert rec["run_id"] == run_id and rec.get("status") == "SUCCESS", explain
    assert (workspace / "hello.txt").read_text(encoding="utf-8") == "hello\n"
    assert len(c.agy_launches()) == 1, f"one launch for one call\n{explain}"
    packet = packet_bytes(rec).decode()
    assert done["status"] == "completed" and done["result"]["content"][0]["text"] == packet, explain
    assert done["createdAt"] == task["createdAt"] and done["lastUpdatedAt"] >= done["createdAt"], explain
    # Claude Code hands its model the result's structured content written again (a whole float such as
    # `"seconds":1.0` comes back as `1`): the notice carries the packet's value, not always its bytes.
    assert len(notices) == 1 and "<status>completed</status>" in notices[0], explain
    assert _result_in(notices[0]) == json.loads(packet), explain
    seconds = time.monotonic() - began
    print(f"claude interactive task: {len(_polls(c, run_id))} tasks/get polls, the model got "
          f"{len(notices[0].encode())} B of notification for a {len(packet)} B packet; {seconds:.1f}s in all")


def _result_in(notice: str) -> object:
    """The JSON value a task notification's ``<result>`` element carries (it lists the resource links first,
    a line each), None when there is none."""
    found = re.search(r"<result>\s*(.*?)\s*</result>", notice, re.S)
    lines = [line for line in (found.group(1) if found else "").splitlines() if line.startswith("{")]
    try:
        return json.loads(lines[-1]) if lines else None
    except ValueError:
        return None


@contextmanager
def _hanging_task(tmp_path: Path, workspace: Path) -> Iterator[tuple[Interactive, str, dict]]:
    """Claude Code in a terminal whose delegated call became a task; its worker hangs with a grandchild.
    Yields the session, the task's id (the run id) and the worker's launch record."""
    agy = install_fake_agy(tmp_path / "agy", failure_scenario("hang", grandchild=True, edits=EDITS))
    with Interactive("claude", tmp_path / "run", agy, workspace) as c:
        c.ask()
        run_id = _task_of_the_call(c)["taskId"]
        c.wait_wire(lambda: [r for r in c.agy_launches() if r.get("grandchild_pid")], 30,
                    "the hanging worker and its grandchild started")
        (run,) = c.agy_launches()
        yield c, run_id, run


def test_claude_code_interactive_stops_a_task_from_its_task_panel(tmp_path: Path, workspace: Path) -> None:
    began = time.monotonic()
    with _hanging_task(tmp_path, workspace) as (c, run_id, run):
        # The person opens the background tasks (↓, Enter) and stops this one (x), as the panel says.
        c.terminal.wait_for("↓ to manage", 30, "the background-task hint")
        c.terminal.press("Down")
        c.terminal.wait_for("enter to view tasks", 10, "the task line selected")
        c.terminal.press("Enter")
        c.terminal.wait_for(run_id, 10, "the task's panel")
        c.terminal.wait_for("x to stop", 10, "the panel's stop key")
        c.terminal.press("x")
        c.wait_wire(lambda: c.answers_to("tasks/cancel"), 30, "tasks/cancel answered")
        gone = _wait_gone(run["pid"], run["grandchild_pid"], seconds=15)
        c.terminal.wait_for("No tasks currently running", 15, "the panel emptied")
        records = c.records()
        cancels = c.answers_to("tasks/cancel")
        explain = c.explain()
    assert gone, f"the worker or its grandchild survived tasks/cancel\n{explain}"
    (rec,) = records
    assert rec["run_id"] == run_id and rec.get("status") == "CANCELLED", explain
    assert all("error" not in a for a in cancels), explain
    print(f"claude interactive cancel: {len(cancels)} tasks/cancel; {time.monotonic() - began:.1f}s in all")


def test_claude_code_interactive_exit_with_a_running_task_leaves_no_process(tmp_path: Path, workspace: Path) -> None:
    # The person leaves Claude Code while a run runs and picks "Exit and stop tasks": the worker group must go
    # with the session, and the record must say how the run ended (never "running" forever).
    began = time.monotonic()
    with _hanging_task(tmp_path, workspace) as (c, run_id, run):
        c.terminal.wait_for("MCP task", 30, "the background-task line")
        c.terminal.type("/exit")
        c.terminal.wait_for("/exit", 10, "the command typed")
        c.terminal.press("Enter")
        c.terminal.wait_for("Exit and stop tasks", 15, "Claude Code's question about the running task")
        c.terminal.press_until("Enter", lambda s: "Exit and stop tasks" not in s, "the question answered")
        c.terminal.wait_for(lambda s: "Pane is dead" in s or c.terminal.dead(), 30, "Claude Code exited")
        gone = _wait_gone(run["pid"], run["grandchild_pid"], seconds=15)
        deadline = time.monotonic() + 20  # the relay finishing its record after the client left
        while (left := _session_left(c)) and time.monotonic() < deadline:
            time.sleep(0.2)
        records, cancels, explain = c.records(), c.answers_to("tasks/cancel"), c.explain()
        tap = events(c.wire_log)
    assert gone, f"the worker or its grandchild outlived Claude Code\n{explain}"
    assert not left, f"processes of the session outlived Claude Code: {left}\n{explain}"
    # Claude Code stops the relay with signals (SIGINT, then SIGTERM); the relay finishes the record, then exits 0.
    # Broke: the second signal killed the relay mid-cleanup (exit -15), the record left "running".
    assert tap[-1] == "relay exit 0", f"{tap}\n{explain}"
    (rec,) = records
    assert rec["run_id"] == run_id and rec.get("status") == "CANCELLED", explain
    print(f"claude interactive exit: signals {tap[:-1]}, {len(cancels)} tasks/cancel, record {rec.get('status')} "
          f"({(rec.get('error') or {}).get('message')}); {time.monotonic() - began:.1f}s in all")


def _session_left(c: Interactive) -> list[str]:
    """What of the session still runs once the client exited (the terminal's own tmux server aside)."""
    out = []
    for proc in c.strays():
        try:
            if proc.name() != "tmux: server" and not proc.name().startswith("tmux"):
                out.append(" ".join(proc.cmdline())[:200])
        except Exception:  # gone meanwhile
            continue
    return out


def _wait_gone(*pids: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


# ---------------------------------------------------------------------------- a person confirms (issue 27, item 1)

FIELD = "Run this trusted agy run?"


def _gated(tmp_path: Path, workspace: Path) -> Interactive:
    return gated_session("claude", tmp_path, workspace, EDITS)


def _form(c: Interactive) -> str:
    """The confirmation form on screen: the relay's question (the preview) and its one required field."""
    shown = c.terminal.wait_for("requests your input", 60, "the confirmation form")
    assert "run agy in TRUSTED mode" in shown and str(c.workspace) in shown and FIELD in shown, shown
    assert not c.agy_launches(), f"agy ran before the person answered\n{c.explain()}"
    return shown


def _choose(c: Interactive, value: str) -> None:
    """Open the field's choices (→), move to ``value``, select it (Space), go down to the buttons."""
    c.terminal.press("Right")
    c.terminal.wait_for("◯ cancel", 10, "the field's choices")
    if value == "cancel":
        c.terminal.press("Down")
    c.terminal.press("Space")
    c.terminal.wait_for(f"{FIELD}: ▸ {value}", 10, f"{value!r} chosen")
    c.terminal.press("Down")
    c.terminal.wait_for("❯ Accept", 10, "the Accept button focused")


def _submit(c: Interactive, key: str = "Enter") -> None:
    c.terminal.press_until(key, lambda s: "requests your input" not in s, "the form closed")


def _answer_on_the_wire(c: Interactive) -> dict:
    """The person's answer as Claude Code sent it back: the retried tools/call's inputResponses."""
    retried = c.wait_wire(lambda: [r for r in c.requests_of("tools/call") if r["params"].get("inputResponses")], 30,
                          "the tools/call retried with the person's answer")
    assert len(c.requests_of("tools/call")) == 2, c.explain()
    return retried[0]["params"]["inputResponses"]["confirm_trusted"]


def test_claude_code_interactive_shows_the_confirmation_form_and_run_launches_agy_once(
        tmp_path: Path, workspace: Path) -> None:
    began = time.monotonic()
    with _gated(tmp_path, workspace) as c:
        c.ask()
        _form(c)
        _choose(c, "run")
        _submit(c)
        said = _answer_on_the_wire(c)
        # Confirmed, the run goes on as a task (the question was settled before the task was made).
        answers = c.wait_wire(lambda: c.answers_to("tools/call")[1:], 30, "the answer to the confirmed call")
        run_id = answers[0]["result"]["taskId"]
        c.wait_wire(lambda: [p for p in _polls(c, run_id) if p["status"] == "completed"], 60, "the run's end")
        c.wait_wire(lambda: [n for n in task_notifications(c.requests) if run_id in n], 60, "the task notification")
        records, explain = c.records(), c.explain()
    assert said == {"action": "accept", "content": {"decision": "run"}}, explain
    assert len(c.agy_launches()) == 1, f"one confirmation, one launch\n{explain}"
    assert [r.get("status") for r in records if r["run_id"] == run_id] == ["SUCCESS"], explain
    assert "--dangerously-skip-permissions" in c.agy_launches()[0]["argv"], explain
    assert (workspace / "hello.txt").read_text(encoding="utf-8") == "hello\n"
    print(f"claude interactive confirm (run): {time.monotonic() - began:.1f}s in all")


@pytest.mark.parametrize("how", ["escape", "decline", "choose_cancel"])
def test_claude_code_interactive_confirmation_refused_runs_nothing(tmp_path: Path, workspace: Path, how: str) -> None:
    began = time.monotonic()
    with _gated(tmp_path, workspace) as c:
        c.ask()
        _form(c)
        if how == "escape":
            _submit(c, "Escape")
        elif how == "decline":
            c.terminal.press("Down")
            c.terminal.wait_for("❯ Accept", 10, "the buttons focused")
            c.terminal.press("Right")
            _submit(c)
        else:
            _choose(c, "cancel")
            _submit(c)
        said = _answer_on_the_wire(c)
        outputs = c.wait_wire(lambda: c.dialogue.outputs, 60, "the refusal handed to the model")
        explain = c.explain()
    expected = {"escape": {"action": "cancel"}, "decline": {"action": "decline"},
                "choose_cancel": {"action": "accept", "content": {"decision": "cancel"}}}[how]
    assert said == expected, explain
    assert not c.agy_launches(), f"agy ran although the person did not confirm\n{explain}"
    told = outputs[0].text
    assert "nothing ran" in told and "CONFIRMATION_REQUIRED" in told, told
    assert "confirm" not in json.loads(told[told.index("{"):]).get("preview", {}), "the token reached the model"
    print(f"claude interactive confirm ({how}): {time.monotonic() - began:.1f}s in all")
