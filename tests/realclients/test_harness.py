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
