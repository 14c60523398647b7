"""Real clients from npm reach a running `gravity-relay serve --http` by URL with the bearer token (issue 12).

Opt-in like test_real_clients.py (GRAVITY_RELAY_REAL_CLIENTS=1). The HTTP relay runs as its own
process on a free loopback port; the client is configured only by `gravity-relay setup --client X
--http URL` in a fresh HOME, so its entry has a URL and the token and no command: the client cannot
have started a relay of its own, and the records are written by the HTTP relay's process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_repo, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from http_harness import http_relay

from .clients import DRIVERS
from .dialogue import Delegation
from .fakemodel import FakeModelServer
from .home import ClientHome
from .install import client_bin, skip_reason
from .session import Session

SKIP = skip_reason()
pytestmark = [pytest.mark.real_clients, pytest.mark.skipif(SKIP is not None, reason=SKIP or "")]

EDITS = [{"op": "write", "path": "hello.txt", "content": "hello\n"}]


@pytest.mark.parametrize("client", ["codex", "claude", "gemini"])
def test_real_client_delegates_to_the_http_relay_by_url_with_the_token(client: str, tmp_path: Path) -> None:
    driver = DRIVERS[client]
    workspace = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "agy", success_scenario(EDITS))
    exe = client_bin(client)
    home = ClientHome(tmp_path / "run", agy)
    with http_relay(relay_env(home.data_dir, agy)) as relay:
        dialogue = Delegation(str(workspace), feedback=None)
        with FakeModelServer(driver.adapter(dialogue), lifetime=300) as server:
            client_env = driver.prepare(home, server.url, workspace)
            setup = home.setup(client, "--http", relay.url)
            result = home.run(driver.headless(exe), cwd=workspace, env=client_env, timeout=270)
        s = Session(driver, home, dialogue, result, list(server.requests), list(server.errors), agy, setup)
        log = relay.stderr.read_text(encoding="utf-8")
    assert relay.token not in setup.stdout, "setup printed the token"
    assert not s.errors and s.offered, f"the relay's tools never reached the model\n{s.explain()}\n{log[-3000:]}"
    records = s.records()
    assert records and records[0].get("status") == "SUCCESS", f"{s.explain()}\n{log[-3000:]}"
    assert (workspace / "hello.txt").read_text(encoding="utf-8") == "hello\n"
    assert f"run {records[0]['run_id']} finished: SUCCESS" in log  # run by the HTTP relay's process
    assert "refused" not in log, log[-3000:]  # the token from setup was accepted on every request
    assert s.result.returncode == 0, s.explain()
