"""The HTTP relay as tests and benchmarks use it: `gravity-relay serve --http 0` in a real subprocess.

``http_relay(env)`` starts it on a free loopback port, waits (bounded: 120 s, a hang guard that a start on a
loaded machine stays within) for its state file to name this very process, and yields its url, token and
process; on exit it sends SIGTERM and, only if that did not work within 15 s, SIGKILL. ``http_client(url,
token)`` is the SDK's streamable HTTP client with the bearer token.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conftest import relay_command


@dataclass
class HttpRelay:
    url: str
    token: str
    proc: subprocess.Popen
    data_dir: Path
    stderr: Path

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].split("/", 1)[0])


@contextmanager
def http_relay(env: dict[str, str], *, address: str = "127.0.0.1:0", startup: float = 120.0) -> Iterator[HttpRelay]:
    data_dir = Path(env["GRAVITY_RELAY_DATA_DIR"])
    data_dir.mkdir(parents=True, exist_ok=True)
    errlog = data_dir.parent / f"http-relay-{os.getpid()}-{time.monotonic_ns()}.err"
    with errlog.open("wb") as err:
        proc = subprocess.Popen([*relay_command(), "--http", address], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, **env})
    try:
        state_file = data_dir / "http-relay.json"
        deadline = time.monotonic() + startup
        while True:
            try:
                state = json.loads(state_file.read_text(encoding="utf-8"))
                if state["pid"] == proc.pid:
                    break
            except (OSError, ValueError, KeyError):
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"HTTP relay did not start (exit {proc.poll()}): {errlog.read_text(encoding='utf-8')[-2000:]}")
            time.sleep(0.05)
        token = (data_dir / "http-token").read_text(encoding="utf-8").strip()
        yield HttpRelay(url=state["url"], token=token, proc=proc, data_dir=data_dir, stderr=errlog)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@asynccontextmanager
async def http_client(url: str, token: str, *, mode: str = "legacy", **options: Any) -> AsyncIterator[Any]:
    """``options`` go to ``mcp.Client`` (e.g. ``message_handler=``)."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(30.0, read=300.0)
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=timeout) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode, **options) as client:
            yield client


def raw_request(url: str, method: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """One plain HTTP request (urllib): (status, headers, body); error statuses are answers, not exceptions."""
    import urllib.error
    import urllib.request

    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    request = urllib.request.Request(url, data=body, headers={**base, **headers}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def raw_post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """One plain HTTP POST: (status, body)."""
    status, _headers, answer = raw_request(url, "POST", body, headers)
    return status, answer
