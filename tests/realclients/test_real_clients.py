"""The real clients, installed from npm, delegate through the relay headless after `gravity-relay setup` alone.

Opt-in (GRAVITY_RELAY_REAL_CLIENTS=1): each test installs a pinned client (cached between runs),
drives it headless against a loopback fake of its model API, and checks what reached the relay,
what the fake agy ran, what the relay recorded, and the bytes of the tool result the model got.
The relay is configured ONLY by `gravity-relay setup --client X` on a fresh HOME, with the relay's
env (GRAVITY_RELAY_DATA_DIR, AGY_BIN) exported in the shell before setup, as a user would have it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_repo
from fake_agy_harness import install_fake_agy, make_report, scenario, success_scenario

from .clients import DRIVERS, Driver
from .dialogue import FINAL_TEXT
from .figures import record
from .home import relay_script
from .install import skip_reason
from .session import Session, delegate, packet_bytes

SKIP = skip_reason()
pytestmark = [pytest.mark.real_clients, pytest.mark.skipif(SKIP is not None, reason=SKIP or "")]

EDITS = [{"op": "write", "path": "hello.txt", "content": "hello\n"}]


@pytest.fixture(params=list(DRIVERS))
def driver(request: pytest.FixtureRequest) -> Driver:
    return DRIVERS[request.param]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")


@pytest.fixture
def agy(tmp_path: Path) -> Path:
    return install_fake_agy(tmp_path / "agy", success_scenario(EDITS))


def _packet_in(packet: str, text: str) -> bool:
    """The packet reached the model whole: byte for byte, or as the same JSON values where the client printed it again
    (Claude Code shows a JSON.stringify of the result, where the packet's `"seconds":1.0` prints as `"seconds":1`)."""
    if packet in text:
        return True
    start = text.find('{"ok":')
    if start < 0:
        return False
    try:
        shown, _ = json.JSONDecoder().raw_decode(text, start)
    except ValueError:
        return False
    return shown == json.loads(packet)


def _assert_reached_relay(s: Session) -> list[dict]:
    assert not s.errors, f"the fake model failed on a request\n{s.explain()}"
    assert s.offered, f"the relay's tools were never offered to the model\n{s.explain()}"
    assert s.dialogue.outputs, f"the model never got a result of a relay tool\n{s.explain()}"
    records = s.records()
    assert records, f"no run record in the relay's data dir: the call never reached the relay\n{s.explain()}"
    return records


def _measure(s: Session, case: str, index: int, rec: dict) -> None:
    out = s.dialogue.outputs[index]
    packet = packet_bytes(rec)
    copies = out.text.count(rec["run_id"])
    print(f"{s.driver.name} {case}: packet {len(packet)} B; the model got {out.size} B of text "
          f"({out.wire_size} B on the wire), {copies} cop{'y' if copies == 1 else 'ies'}:\n{out.text}")
    record(s.driver.name, case, packet=len(packet), model_text=out.size, wire=out.wire_size, copies=copies,
           status=str(rec.get("status")))


def test_real_client_delegates_and_continues_after_setup_alone(driver: Driver, tmp_path: Path, workspace: Path,
                                                               agy: Path) -> None:
    s = delegate(driver, tmp_path / "run", agy, workspace)
    records = _assert_reached_relay(s)

    first = next((r for r in records if r.get("tool", "execute") == "execute"), None)
    assert first is not None and first.get("status") == "SUCCESS", f"execute did not succeed\n{s.explain()}"
    assert (workspace / "hello.txt").read_text(encoding="utf-8") == "hello\n"
    if driver.name == "gemini":  # Gemini CLI adds wait_for_previous to every call: ignored, and recorded
        assert first.get("ignored_arguments") == ["wait_for_previous"], s.explain()
    runs = [launch for launch in s.agy_launches() if launch.get("mode") == "print"]
    assert len(runs) >= 1, f"the fake agy never ran a task\n{s.explain()}"
    _measure(s, "success", 0, first)
    packet = packet_bytes(first).decode()
    if driver.name in ("codex", "claude"):  # the packet travels whole in a text block
        assert _packet_in(packet, s.dialogue.outputs[0].text), s.dialogue.outputs[0].text
    shown = s.dialogue.outputs[0].text
    # The packet once (its run_id key); the run's id may recur only in the resource links' URIs (issue 27).
    assert shown.replace('\\"', '"').count(f'"run_id":"{first["run_id"]}"') == 1, \
        "the success packet reached the model more than once"
    assert shown.count(first["run_id"]) - 1 <= shown.count(f"relay://runs/{first['run_id']}/"), shown

    follow = [r for r in records if r.get("tool", "execute") == "continue"]
    assert follow, f"antigravity_continue never reached the relay\n{s.explain()}"
    assert follow[0].get("parent_run_id") == first["run_id"]
    assert follow[0].get("status") == "SUCCESS", f"continue did not succeed\n{s.explain()}"
    assert len(runs) == 2, f"the fake agy should have run the task and the follow-up\n{s.explain()}"
    assert s.result.returncode == 0 and FINAL_TEXT in s.result.stdout, s.explain()


# Regression: `apply` was not in continue's published schema and `feedback` was required there, so a client
# that checks a call against the published inputSchema could refuse {run_id, apply: true}, or drop apply.
def test_real_client_applies_a_worktree_run_with_run_id_and_apply_alone(driver: Driver, tmp_path: Path,
                                                                        workspace: Path, agy: Path) -> None:
    profiles = json.dumps({"iso": {"isolation": "worktree"}})
    s = delegate(driver, tmp_path / "run", agy, workspace, feedback=None, apply=True, profile="iso",
                 relay_env={"GRAVITY_RELAY_PROFILES": profiles})
    records = _assert_reached_relay(s)
    first = records[0]
    assert first.get("status") == "SUCCESS" and first.get("branch"), f"the worktree run did not succeed\n{s.explain()}"
    flags = first.get("packet", {}).get("flags", [])
    assert first.get("worktree") and any("apply=true" in f for f in flags), f"not a worktree run\n{s.explain()}"
    # The model was shown apply (the published schema is all a leader reads) ...
    assert any(b"put a worktree run" in r.body for r in s.requests), f"apply was never shown to the model\n{s.explain()}"
    # ... and the client passed the call on as the model made it.
    assert len(s.dialogue.calls) == 2 and s.dialogue.calls[1].args == {"run_id": first["run_id"], "apply": True}
    assert len(s.dialogue.outputs) >= 2, f"the apply call's answer never reached the model\n{s.explain()}"
    assert first.get("applied_at"), f"the relay never applied the run\n{s.explain()}"
    assert (workspace / "hello.txt").read_text(encoding="utf-8") == "hello\n", s.explain()
    print(f"{driver.name} apply: the model got {s.dialogue.outputs[1].size} B:\n{s.dialogue.outputs[1].text}")
    assert "applied run" in s.dialogue.outputs[1].text, s.explain()
    assert len(records) == 1, "apply started a new turn"
    assert s.result.returncode == 0 and FINAL_TEXT in s.result.stdout, s.explain()


# Regression: Gemini CLI 0.61 wrapped isError results (the task echoed, the packet twice: 441 B -> 1,329 B);
# the relay now answers Gemini's failures as ordinary results, the packet once.
@pytest.mark.parametrize("client", ["codex", "claude", "gemini"])
def test_real_client_gets_a_failure_packet_once(client: str, tmp_path: Path, workspace: Path, agy: Path) -> None:
    # A workspace outside the allowed roots: the relay refuses before agy runs, with a failure packet.
    driver = DRIVERS[client]
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    s = delegate(driver, tmp_path / "run", agy, workspace, feedback=None,
                 relay_env={"GRAVITY_RELAY_ALLOWED_ROOTS": str(allowed)})
    records = _assert_reached_relay(s)
    rec = records[0]
    assert rec.get("status") == "INVALID_WORKSPACE", f"expected the allowed-roots refusal\n{s.explain()}"
    assert not [launch for launch in s.agy_launches() if launch.get("mode") == "print"]
    _measure(s, "failure", 0, rec)
    out = s.dialogue.outputs[0]
    assert out.text.count(rec["run_id"]) == 1, f"the failure packet reached the model more than once\n{s.explain()}"
    assert out.size <= 1.2 * len(packet_bytes(rec)), f"the failure packet grew past 1.2x on its way\n{s.explain()}"


def test_codex_exec_waits_for_a_relay_that_starts_two_seconds_late(tmp_path: Path, workspace: Path,
                                                                   agy: Path) -> None:
    # Regression: codex exec did not wait for a server that was not `required`, so a relay slower
    # than ~1 s to answer tools/list left the turn without its tools.
    slow = tmp_path / "slow" / "gravity-relay"  # the relay's own script name, so setup and doctor know it
    slow.parent.mkdir()
    slow.write_text(f'#!/bin/sh\nsleep 2\nexec "{relay_script()}" "$@"\n', encoding="utf-8")
    slow.chmod(0o755)
    s = delegate(DRIVERS["codex"], tmp_path / "run", agy, workspace, feedback=None,
                 setup_args=("--command", str(slow)))
    assert all(any(n.endswith("antigravity_execute") for n in names) for names in s.dialogue.offered), \
        f"the first turn went without the relay's tools\n{s.explain()}"
    records = _assert_reached_relay(s)
    assert records[0].get("status") == "SUCCESS", s.explain()


def test_real_client_cancels_a_running_continue_then_reads_the_first_runs_diff(driver: Driver, tmp_path: Path,
                                                                               workspace: Path) -> None:
    # A person's session after the README: delegate, continue with a wait that ends first (RUNNING), cancel it,
    # then ask for the first run's diff. Each answer reaches the model through the client; nothing is left running.
    release = tmp_path / "never"  # the continue's worker runs until it is stopped
    agy = install_fake_agy(tmp_path / "agy", scenario(
        {"behaviour": "success", "edits": EDITS, "report": make_report(files_changed=["hello.txt"])},
        {"behaviour": "success", "sleep": 120, "release_file": str(release), "response": "done"}))
    s = delegate(driver, tmp_path / "run", agy, workspace, continue_args={"wait_seconds": 1},
                 then=(("antigravity_cancel", {"run_id": "{run_id}"}),
                       ("antigravity_get_result", {"run_id": "{first_run_id}", "detail": "diff"})))
    records = _assert_reached_relay(s)
    by_tool = {r.get("tool", "execute"): r for r in records}
    assert by_tool["execute"].get("status") == "SUCCESS", s.explain()
    assert by_tool["continue"].get("status") == "CANCELLED", s.explain()
    outs = [o.text.replace('\\"', '"').replace("\\n", "\n") for o in s.dialogue.outputs]
    assert len(outs) == 4, s.explain()
    assert '"status":"RUNNING"' in outs[1] and '"status":"CANCELLED"' in outs[2], s.explain()
    assert "hello.txt" in outs[3] and "+hello" in outs[3], s.explain()
    assert len([launch for launch in s.agy_launches() if launch.get("mode") == "print"]) == 2
    assert s.result.returncode == 0 and FINAL_TEXT in s.result.stdout, s.explain()
