"""The real Codex TUI, interactive in a terminal, shows the relay's confirmation form (issue 27, item 1).

Opt-in (GRAVITY_RELAY_REAL_CLIENTS=1), skipped without tmux. Codex speaks the 2025-06-18 protocol, so the
form is an ``elicitation/create`` request the relay sends while the call waits; the test answers it with
keys in Codex's TUI and reads the answer Codex sent back from the tapped wire. Codex does not declare the
Tasks extension: the confirmed call is answered with the packet itself.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import make_repo

from .install import skip_reason
from .interactive import Interactive, gated_session
from .session import packet_bytes
from .terminal import tmux_missing

SKIP = skip_reason() or tmux_missing()
pytestmark = [pytest.mark.real_clients, pytest.mark.skipif(SKIP is not None, reason=SKIP or "")]

EDITS = [{"op": "write", "path": "hello.txt", "content": "hello\n"}]
QUESTION = "Run this trusted agy run?"
SUBMIT = "enter to submit"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")


def _gated(tmp_path: Path, workspace: Path) -> Interactive:
    return gated_session("codex", tmp_path, workspace, EDITS)


def _form(c: Interactive) -> None:
    shown = c.terminal.wait_for(SUBMIT, 60, "the confirmation form")
    assert "run agy in TRUSTED mode" in shown and QUESTION in shown and "1. run" in shown, shown
    assert not c.agy_launches(), f"agy ran before the person answered\n{c.explain()}"


def _said(c: Interactive) -> dict:
    (answer,) = c.wait_wire(lambda: c.client_answers_to("elicitation/create"), 30, "Codex's answer to the form")
    return answer.get("result") or answer


def _submit(c: Interactive, key: str = "Enter") -> None:
    c.terminal.press_until(key, lambda s: SUBMIT not in s, "the form closed")


def test_codex_interactive_shows_the_confirmation_form_and_run_launches_agy_once(tmp_path: Path,
                                                                                workspace: Path) -> None:
    began = time.monotonic()
    with _gated(tmp_path, workspace) as c:
        c.ask()
        _form(c)
        _submit(c)  # "1. run" is the highlighted choice
        said = _said(c)
        outputs = c.wait_wire(lambda: c.dialogue.outputs, 60, "the packet handed to the model")
        c.terminal.wait_for("Called antigravity", 30, "the call's end on screen")
        records, explain = c.records(), c.explain()
    assert said.get("action") == "accept" and said.get("content") == {"decision": "run"}, explain
    assert len(c.agy_launches()) == 1, f"one confirmation, one launch\n{explain}"
    # One record: the confirmed run's (the door held the previewed call while the person answered; issue 38, §1).
    assert [str(r.get("status")) for r in records] == ["SUCCESS"], explain
    rec = next(r for r in records if r.get("status") == "SUCCESS")
    assert packet_bytes(rec).decode() in outputs[0].text, explain
    assert (workspace / "hello.txt").read_text(encoding="utf-8") == "hello\n"
    print(f"codex interactive confirm (run): {time.monotonic() - began:.1f}s in all")


@pytest.mark.parametrize("how", ["escape", "choose_cancel"])
def test_codex_interactive_confirmation_refused_runs_nothing(tmp_path: Path, workspace: Path, how: str) -> None:
    began = time.monotonic()
    with _gated(tmp_path, workspace) as c:
        c.ask()
        _form(c)
        if how == "escape":
            _submit(c, "Escape")
        else:
            c.terminal.press("Down")
            c.terminal.wait_for("› 2. cancel", 10, "the cancel choice highlighted")
            _submit(c)
        said = _said(c)
        outputs = c.wait_wire(lambda: c.dialogue.outputs, 60, "the refusal handed to the model")
        explain = c.explain()
    if how == "escape":
        assert said.get("action") in ("cancel", "decline"), explain
    else:
        assert said.get("action") == "accept" and said.get("content") == {"decision": "cancel"}, explain
    assert not c.agy_launches(), f"agy ran although the person did not confirm\n{explain}"
    told = outputs[0].text
    assert "nothing ran" in told and "CONFIRMATION_REQUIRED" in told, told
    print(f"codex interactive confirm ({how}): action {said.get('action')}; {time.monotonic() - began:.1f}s in all")
