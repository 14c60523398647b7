"""run_worker on its own, with small shell stand-ins for agy (real processes, real process groups)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from relay.core.contracts import Status
from relay.agy.stream import StreamReader
from relay.agy.worker import run_worker

pytestmark = pytest.mark.anyio


def script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "agy"
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(0o755)
    return [str(path)]


async def test_oauth_prompt_on_stdout_stops_the_worker_at_once(tmp_path):
    argv = script(tmp_path, 'echo "Authentication required. Please visit the URL to log in: https://accounts.google.com/x"\n'
                            "sleep 60\n")
    started = time.monotonic()
    outcome = await run_worker(argv, cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, timeout=30,
                               transcript=tmp_path / "t.ndjson", log_file=None, reader=StreamReader(), kill_grace=1)
    assert outcome.stopped_for is Status.LOGIN_REQUIRED
    assert time.monotonic() - started < 30  # well under the 60 s the script would sleep: stopped at the prompt


async def test_keyring_marker_in_the_log_then_oauth_fallback_is_keyring_timeout(tmp_path):
    log = tmp_path / "agy.log"
    argv = script(tmp_path, f'echo "W keyring.go:95]  keyringAuth: timed out after 5s, skipping keyring auth" >> {log}\n'
                            f'echo "I printmode.go:229] Print mode: silent auth failed, triggering OAuth" >> {log}\n'
                            "sleep 60\n")
    outcome = await run_worker(argv, cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, timeout=30,
                               transcript=tmp_path / "t.ndjson", log_file=log, reader=StreamReader(), kill_grace=1)
    assert outcome.stopped_for is Status.KEYRING_TIMEOUT


async def test_transcript_keeps_stdout_byte_for_byte(tmp_path):
    capture = Path(__file__).parent / "fixtures" / "agy-captures" / "stream-1.2.17-tool.real.ndjson"
    argv = script(tmp_path, f"cat {capture}\n")
    reader = StreamReader()
    outcome = await run_worker(argv, cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, timeout=30,
                               transcript=tmp_path / "t.ndjson", log_file=None, reader=reader, kill_grace=1)
    assert (tmp_path / "t.ndjson").read_bytes() == capture.read_bytes()
    assert outcome.exit_code == 0 and outcome.results == 1 and reader.tool_steps == 1
    assert outcome.conversation_id == "1f18ba00-a3ce-4a9e-8200-fdf181ecaeb6"


def test_run_watch_judges_only_a_print_mode_argv_the_relay_built():
    from relay.agy.watch import RunWatch

    init = {"event": "init", "init": {"permission_mode": "always-proceed"}}
    assert RunWatch(["/bin/agy", "--add-dir", "/w", "--print=x"]).feed_event(init) is Status.CONFLICTING_OPTIONS
    assert RunWatch(["/bin/agy", "--dangerously-skip-permissions", "--print=x"]).feed_event(init) is None
    assert RunWatch(["/bin/sh", "script.sh"]).feed_event(init) is None  # not an agy print run: not judged
    # the prompt is never read as a flag
    assert RunWatch(["/bin/agy", "--print=--dangerously-skip-permissions"]).feed_event(init) is Status.CONFLICTING_OPTIONS
    assert RunWatch(["/bin/agy", "--print=--conversation x"]).feed("warning: conversation \"x\" not found") is None
    assert RunWatch(["/bin/agy", "--conversation", "x", "--print=p"]).feed(
        'warning: conversation "x" not found') is Status.NOT_FOUND
