"""The real-client harness itself (fast, always run): opt-in gate, loopback server bounds, dialogue parsing."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from .dialogue import Call, Delegation, Say, ToolOutput, run_id_in
from .fakemodel import FakeModelServer, Reply
from .install import OPT_IN_ENV, skip_reason


class Echo:
    def reply(self, request):
        return Reply.json({"path": request.path, "bytes": len(request.body)})


def _post(url: str, body: bytes = b"{}") -> tuple[int, dict]:
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_skip_reason_asks_for_the_opt_in_variable_when_it_is_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(OPT_IN_ENV, raising=False)
    assert OPT_IN_ENV in (skip_reason() or "")


def test_skip_reason_names_node_when_it_is_not_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv(OPT_IN_ENV, "1")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert "node" in (skip_reason() or "")


def test_fake_model_server_records_requests_and_refuses_past_its_budget() -> None:
    with FakeModelServer(Echo(), max_requests=2, lifetime=30) as srv:
        assert srv.url.startswith("http://127.0.0.1:")
        assert _post(srv.url + "/v1/a", b'{"x": 1}') == (200, {"path": "/v1/a", "bytes": 8})
        assert _post(srv.url + "/v1/b")[0] == 200
        assert _post(srv.url + "/v1/c")[0] == 429
    assert [r.path for r in srv.requests] == ["/v1/a", "/v1/b", "/v1/c"]
    assert srv.requests[0].json() == {"x": 1}


def test_fake_model_server_stops_by_itself_after_its_lifetime() -> None:
    srv = FakeModelServer(Echo(), lifetime=0.3).start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            _post(srv.url + "/v1/x")
        except OSError:
            break  # refused: the server is gone
        time.sleep(0.1)
    else:
        pytest.fail("the fake model server was still answering 10 s after a 0.3 s lifetime")
    srv.stop()


def test_dialogue_calls_execute_then_continue_with_the_run_id_then_answers() -> None:
    d = Delegation("/w")
    names = ["x.antigravity_execute", "x.antigravity_continue"]
    first = d.next(names, [])
    assert isinstance(first, Call) and first.name == names[0] and first.args["workspace"] == "/w"
    # Gemini's error text carries the packet JSON-escaped; the run_id is found either way.
    escaped = ToolOutput({}, '{\\"ok\\":true,\\"run_id\\":\\"r1-abc\\"}')
    second = d.next(names, [escaped])
    assert isinstance(second, Call) and second.name == names[1] and second.args["run_id"] == "r1-abc"
    assert isinstance(d.next(names, [escaped, escaped]), Say)
    assert len(d.outputs) == 2
    assert run_id_in('{"run_id": "r2"}') == "r2"


def test_dialogue_says_so_when_the_relay_tools_are_not_offered() -> None:
    step = Delegation("/w").next(["exec_command"], [])
    assert isinstance(step, Say) and "not offered" in step.text


# ---------------------------------------------------------------------------- the wire tap and the notices


_ECHO_RELAY = """#!{python}
import json, signal, sys
signal.signal(signal.SIGTERM, lambda n, f: sys.exit(3))
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({{"jsonrpc": "2.0", "id": request["id"], "result": {{"echo": request["method"]}}}}), flush=True)
"""


# A relay whose shutdown outlasts Claude Code's patience: the first signal starts a second of cleanup, the next is ignored.
_SLOW_RELAY = """#!{python}
import json, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, lambda n, f: (time.sleep(1.0), sys.exit(0)))
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({{"jsonrpc": "2.0", "id": request["id"], "result": {{"echo": request["method"]}}}}), flush=True)
"""


def _tapped(tmp_path, source=_ECHO_RELAY):
    import subprocess
    import sys

    from .wiretap import install_wiretap

    relay = tmp_path / "relay"
    relay.write_text(source.format(python=sys.executable), encoding="utf-8")
    relay.chmod(0o755)
    log = tmp_path / "wire.log"
    tap = install_wiretap(tmp_path / "tap", log, relay)
    proc = subprocess.Popen([str(tap), "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    proc.stdin.write((json.dumps(request) + "\n").encode())
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())  # a round trip: the relay is up, its handler set
    return proc, log, request, answer


def test_wiretap_passes_lines_both_ways_and_logs_them_and_the_exit(tmp_path):
    from .wiretap import events, messages

    proc, log, request, answer = _tapped(tmp_path)
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0
    assert answer == {"jsonrpc": "2.0", "id": 1, "result": {"echo": "tools/list"}}
    assert messages(log) == [(">", request), ("<", answer)]
    assert events(log) == ["relay exit 0"]


def test_wiretap_passes_a_signal_on_and_exits_with_the_relay(tmp_path):
    import signal

    from .wiretap import events

    proc, log, _, _ = _tapped(tmp_path)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 3
    proc.stdin.close()
    assert events(log) == [f"signal {int(signal.SIGTERM)}", "relay exit 3"]


def test_the_relays_exit_is_written_down_when_the_client_kills_the_tap_before_it(tmp_path):
    # Claude Code stops a stdio server with SIGINT, then SIGTERM 100 ms later, then SIGKILL 400 ms after that — to the tap,
    # its own child. A relay whose shutdown took longer under load was still ending well, but the killed tap wrote nothing
    # down and the interactive-exit test failed (the CI rehearsals of 2026-12-04: 3 runs in 16).
    import signal
    import time

    from .wiretap import events

    proc, log, _, _ = _tapped(tmp_path, _SLOW_RELAY)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.4)
    proc.kill()
    proc.wait(timeout=10)
    proc.stdin.close()
    deadline = time.monotonic() + 10
    while "relay exit 0" not in events(log) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert events(log) == [f"signal {int(signal.SIGINT)}", f"signal {int(signal.SIGTERM)}", "relay exit 0"]


def test_task_notifications_are_read_from_the_user_text_blocks():
    from .fakemodel import Recorded
    from .interactive import task_notifications

    notice = "<system-reminder>\n<task-notification>\n<status>completed</status>\n<result>{}</result>"
    body = {"messages": [{"role": "user", "content": "hi"},
                         {"role": "assistant", "content": [{"type": "text", "text": "<task-notification>"}]},
                         {"role": "user", "content": [{"type": "text", "text": notice}]}]}
    recorded = Recorded("POST", "/v1/messages", {}, json.dumps(body).encode())
    assert task_notifications([recorded, recorded]) == [notice]  # once, whatever repeats it; users' only
