"""``gravity-relay serve --http``: one relay for every leader on the machine, over streamable HTTP.

The SDK's streamable HTTP transport under uvicorn, around the same ``create_server`` as stdio:
one ``Relay`` (one queue, one auth cache, one version cache) serves every session. Locked down
in three layers, outermost first:

* the bind address: loopback unless the operator says ``--allow-remote`` (``parse_address``);
* a bearer token (``relay.doors.http_token``) on every request, checked by ``TokenGate`` before
  the SDK sees anything, so a refused request can never start a run;
* a request-rate bound (``RateBucket``): one global token bucket for authenticated requests
  (per address would mean nothing: every client is 127.0.0.1), answered 429 with Retry-After;
* DNS-rebinding protection: the SDK's Host/Origin check, pinned to the loopback names of the
  bound port (a web page that rebinds ``evil.example`` to 127.0.0.1 sends ``Host: evil.example``).

A client that drops a POST before its answer (killed, closed mid-call) has that POST's requests
cancelled (``cancel_on_disconnect``): the SDK alone would run them to the end for nobody.

Shutdown on SIGTERM/SIGINT/SIGHUP: the SDK's session manager is left first, which cancels every
call in flight (each kills its worker's process group and records CANCELLED, as over stdio), then
uvicorn closes the sockets. uvicorn's own signal handling is off: it re-raises the signal at exit,
which would turn a clean stop into death by SIGTERM.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import socket
import time
from typing import Any

import anyio

from relay.core.platform import stop_signals
from relay.core.settings import Settings
from relay.observe.git import stop_running_gits

__all__ = ["AddressError", "parse_address", "is_loopback", "TokenGate", "RateBucket", "build_app", "serve_http",
           "MAX_BODY_BYTES", "MCP_PATH"]

log = logging.getLogger("relay.doors.http_server")

MCP_PATH = "/mcp"
# Requests are tool calls with a task text; 4 MiB is the SDK's own cap, kept (tasks are far smaller,
# and a client that sends more is refused before the body is read).
MAX_BODY_BYTES = 4 * 1024 * 1024
_SHUTDOWN_GRACE = 2.0  # seconds uvicorn waits for connections after the calls were cancelled
_STOP_DEADLINE = 20.0  # if cancelling the calls itself hangs, leave anyway (as `serve` over stdio does)


class AddressError(ValueError):
    """A --http address that is malformed or not allowed; the message says what to do."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_address(text: str, *, allow_remote: bool = False) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` -> (host, port); default host 127.0.0.1; port 0 = any free."""
    text = text.strip()
    if text.startswith("["):
        host, sep, port_text = text[1:].partition("]:")
        if not sep:
            raise AddressError(f"--http {text!r}: an IPv6 address needs a port, e.g. [::1]:8765")
    elif ":" in text:
        host, _, port_text = text.rpartition(":")
    else:
        host, port_text = "127.0.0.1", text
    host = host or "127.0.0.1"
    try:
        port = int(port_text)
    except ValueError:
        raise AddressError(f"--http {text!r}: the port must be a number 0-65535, e.g. --http 8765 or "
                           "--http 127.0.0.1:8765") from None
    if not 0 <= port <= 65535:
        raise AddressError(f"--http {text!r}: the port must be 0-65535 (0 picks a free one)")
    if not is_loopback(host) and not allow_remote:
        raise AddressError(
            f"--http {text!r}: {host} is not a loopback address, so other machines could reach the relay and "
            "make agy edit your workspaces (the bearer token is the only lock, and plain HTTP sends it in the "
            "clear). Use 127.0.0.1, ::1 or localhost; if you really mean it (e.g. behind a TLS proxy), add "
            "--allow-remote.")
    return host, port


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def loopback_names(port: int) -> list[str]:
    """The Host header values a local client can send for this port."""
    return [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"]


def _json_refusal(status: int, code: int, message: str, extra: list[tuple[bytes, bytes]] = ()) -> tuple[dict, dict]:
    import json

    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    return ({"type": "http.response.start", "status": status, "headers": headers},
            {"type": "http.response.body", "body": body})


class RateBucket:
    """A token bucket: ``rate`` requests a second on average, bursts of ``4 * rate`` (at least 8).

    Global, not per client: on loopback every client has the same address. Sized so that a leader's
    normal traffic (a handful of requests per tool call) never meets it; a runaway loop does.
    """

    def __init__(self, rate: float, *, clock: Any = time.monotonic) -> None:
        self.rate = rate
        self.burst = max(8.0, 4.0 * rate)
        self._clock = clock
        self._tokens = self.burst
        self._at = clock()

    def take(self) -> float:
        """0.0 if the request may pass (one token spent), else the seconds until a token is there."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / self.rate


class TokenGate:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``; bodies are capped.

    Refusals are answered here, as JSON-RPC error objects, before the SDK parses anything: no
    session is made and no run is recorded for them.
    """

    def __init__(self, app: Any, token: str, *, max_body: int = MAX_BODY_BYTES, max_rps: float = 50.0,
                 hosts: list[str] | None = None) -> None:
        from relay.doors.http_token import token_matches

        self.app = app
        # DNS rebinding (issue 22): checked here too, so a foreign Host / Origin gets a JSON-RPC error body as every
        # other refusal does (the SDK's own check, behind this one, answers in plain text).
        self.hosts = set(hosts) if hosts is not None else None
        self.origins = {f"http://{name}" for name in hosts} if hosts is not None else None
        self._matches = lambda header: token_matches(token, header)
        self.max_body = max_body
        # After the token check: a flood without the token costs a compare each and must not lock the leaders out.
        self.bucket = RateBucket(max_rps)
        self.refused = 0  # seen by tests and the log; cheap
        self.throttled = 0

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if not self._matches(headers.get(b"authorization")):
            self.refused += 1
            log.warning("refused %s %s from %s: missing or wrong bearer token", scope.get("method"),
                        scope.get("path"), (scope.get("client") or ("?",))[0])
            start, body = _json_refusal(
                401, -32001, "Unauthorized: send 'Authorization: Bearer <token>'; the token is in the relay's data "
                "dir, file http-token (`gravity-relay setup --http` registers clients with it).",
                [(b"www-authenticate", b'Bearer realm="gravity-relay"')])
            await send(start)
            await send(body)
            return
        refusal = self._foreign(headers)
        if refusal is not None:
            self.refused += 1
            start, body = refusal
            await send(start)
            await send(body)
            return
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            self.refused += 1
            start, body = _json_refusal(413, -32600, f"Request body too large: {int(length)} bytes; the limit is "
                                        f"{self.max_body} bytes.")
            await send(start)
            await send(body)
            return
        wait = self.bucket.take()
        if wait:
            self.throttled += 1
            if self.throttled == 1 or self.throttled % 100 == 0:
                log.warning("request rate over %g/s (GRAVITY_RELAY_HTTP_MAX_RPS): %d request(s) answered 429 so far",
                            self.bucket.rate, self.throttled)
            retry = max(1, math.ceil(wait))
            start, body = _json_refusal(
                429, -32000, f"Too many requests: the relay serves at most {self.bucket.rate:g} requests a second "
                f"(GRAVITY_RELAY_HTTP_MAX_RPS); retry after {retry} s.", [(b"retry-after", str(retry).encode())])
            await send(start)
            await send(body)
            return
        if scope.get("method") == "POST" and b"mcp-session-id" in headers:
            await cancel_on_disconnect(self.app, scope, receive, send)
        else:
            await self.app(scope, receive, send)


    def _foreign(self, headers: dict[bytes, bytes]) -> tuple[dict, dict] | None:
        """The refusal of a request whose Host or Origin is not this relay's own address, or None."""
        if self.hosts is None:
            return None
        host = headers.get(b"host", b"").decode("latin-1")
        listed = ", ".join(sorted(self.hosts))
        if host not in self.hosts:
            log.warning("refused a request for Host %r: not this relay's address", host)
            return _json_refusal(421, -32600, f"Misdirected request: Host {host!r} is not this relay's address "
                                 f"({listed}); a page whose name resolves to this machine is refused.")
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1") not in self.origins:
            log.warning("refused a request from Origin %r", origin.decode("latin-1"))
            return _json_refusal(403, -32600, f"Forbidden: Origin {origin.decode('latin-1')!r} is not this relay's "
                                 f"address ({listed}); web pages may not call the relay.")
        return None


async def cancel_on_disconnect(app: Any, scope: dict, receive: Any, send: Any) -> None:
    """Serve one POST of a session; if its client went away before the answer, cancel what it asked.

    The SDK keeps a request running when the connection that carries its answer drops (it expects a
    client to come back for it with Last-Event-ID, which this relay, keeping no event store, cannot
    serve): a leader killed mid-call would leave its agy run going to the end, for nobody. A client
    that closes cleanly sends a cancellation or a DELETE; this sends, on the dropped client's behalf,
    the JSON-RPC cancellation it would have sent, through the SDK's own door, so only the requests
    of that POST are cancelled and the session's other calls go on.
    """
    body = bytearray()
    seen = {"gone": False, "answered": False}

    async def watching_receive():
        message = await receive()
        if message["type"] == "http.request" and len(body) <= MAX_BODY_BYTES:
            body.extend(message.get("body", b""))
        elif message["type"] == "http.disconnect":
            seen["gone"] = True
        return message

    async def watching_send(message):
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            seen["answered"] = True
        await send(message)

    try:
        await app(scope, watching_receive, watching_send)
    finally:
        if seen["gone"] and not seen["answered"]:
            with anyio.CancelScope(shield=True):
                await _cancel_requests(app, scope, bytes(body))


async def _cancel_requests(app: Any, scope: dict, body: bytes) -> None:
    import json

    try:
        sent = json.loads(body)
    except ValueError:
        return
    for message in sent if isinstance(sent, list) else [sent]:
        if not (isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str)):
            continue  # a notification or a response: nothing runs for it
        note = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
            "requestId": message["id"], "reason": "the client disconnected before the answer"}}).encode()
        headers = [(k, v) for k, v in scope["headers"] if k not in (b"content-length", b"content-type")]
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(note)).encode())]
        delivered = False

        async def one_body():
            nonlocal delivered
            if delivered:
                await anyio.sleep_forever()
            delivered = True
            return {"type": "http.request", "body": note, "more_body": False}

        async def discard(_message):
            pass

        log.info("client of session %s went away during request %r (%s): cancelling it",
                 dict(scope["headers"]).get(b"mcp-session-id", b"?").decode(errors="replace"),
                 message["id"], message["method"])
        try:
            with anyio.move_on_after(5):
                await app({**scope, "headers": headers}, one_body, discard)
        except Exception as exc:  # noqa: BLE001 - the session may be gone already; nothing left to cancel then
            log.debug("cancellation of request %r not delivered: %s", message["id"], exc)


def build_app(server: Any, *, host: str, port: int, token: str, max_rps: float = 50.0,
              session_idle_seconds: float | None = 8 * 3600.0) -> tuple[Any, Any]:
    """(the ASGI app to serve, the SDK's session manager that must run around it).

    ``session_idle_seconds``: a session with nothing in flight that long (a client gone without DELETE)
    is closed and answers 404 after, so a spec-following client opens a new one. Said here, not left to
    the SDK's default (30 min), and long: a leader idle over lunch must not find its session gone, and
    some clients do not re-initialise after a 404.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    names = loopback_names(port)
    if not is_loopback(host):
        names.append(f"{_url_host(host)}:{port}")  # --allow-remote: the name clients use for it
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=names,
        allowed_origins=[f"http://{name}" for name in names],
    )
    starlette_app = server.streamable_http_app(streamable_http_path=MCP_PATH, transport_security=security, host=host,
                                               max_request_body_size=MAX_BODY_BYTES,
                                               session_idle_timeout=session_idle_seconds)
    return TokenGate(starlette_app, token, max_rps=max_rps, hosts=names), server._session_manager  # noqa: SLF001 - the SDK's way to reach it


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise AddressError(f"cannot listen on {_url_host(host)}:{port}: {exc.strerror or exc}; another relay (or "
                           "program) may have that port: `gravity-relay doctor` shows a running relay, or pick "
                           "another port (0 picks a free one)") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


async def serve_http(settings: Settings, agy: tuple[str | None, str | None] | None, host: str, port: int) -> None:
    """Serve until SIGTERM/SIGINT/SIGHUP; every run in flight is cancelled and recorded before exit."""
    import uvicorn

    from relay.doors.http_state import names_us, remove_state, write_state
    from relay.doors.http_token import load_or_create_token, token_path
    from relay.doors.mcp_server import create_server, serving_relay
    from relay.runs.retention import retain_in_background

    token = load_or_create_token(settings.data_dir)
    relay = serving_relay(settings)  # the one coordinator, auth cache and version cache of every session
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    url = f"http://{_url_host(host)}:{port}{MCP_PATH}"
    app, sessions = build_app(create_server(settings, relay, agy), host=host, port=port, token=token,
                              max_rps=settings.http_max_rps, session_idle_seconds=settings.http_session_idle_seconds)

    class _Server(uvicorn.Server):
        def capture_signals(self):  # ours (below): uvicorn's re-raises the signal after a clean stop
            import contextlib

            return contextlib.nullcontext()

    config = uvicorn.Config(app, lifespan="off", log_config=None, access_log=False,
                            timeout_graceful_shutdown=_SHUTDOWN_GRACE, ws="none")
    web = _Server(config)
    stopped_by: list[int] = []
    state = None

    async def track_sessions() -> None:
        """Keep the state file's session count current, for doctor (a write only when it changes, or when the
        file does not name this relay: another relay on this data dir had it, and may have stopped since)."""
        shown = 0
        while True:
            await anyio.sleep(1.0)
            now = len(getattr(sessions, "_server_instances", ()))  # the SDK's table of open sessions
            if now != shown or not names_us(settings.data_dir):
                try:
                    write_state(settings.data_dir, url=url, host=host, port=port,
                                started_at=state.started_at if state else None, sessions=now)
                    shown = now
                except OSError as exc:
                    log.debug("state file not updated: %s", exc)
    try:
        # Every platform: SIGTERM/SIGHUP/Ctrl-C, and Ctrl-Break on Windows (core/platform.py). The receiver stays
        # open until the calls are cancelled and recorded: a second signal meanwhile (Claude Code sends SIGINT,
        # then SIGTERM) must not take the default action and kill the relay mid-record.
        with stop_signals() as signals:
            # The state file only once a stop signal is ours to handle, inside the block that removes it: written
            # before, a SIGTERM in between killed the relay and left a file naming a server that was gone.
            state = write_state(settings.data_dir, url=url, host=host, port=port)
            # One line on stderr that scripts (and tests) can wait for.
            log.warning("serving MCP over HTTP at %s (token in %s)", url, token_path(settings.data_dir))
            async with anyio.create_task_group() as tg:
                async with sessions.run():
                    served = anyio.Event()

                    async def run_web() -> None:
                        try:
                            await web.serve(sockets=[sock])
                        finally:
                            served.set()

                    tg.start_soon(run_web)
                    tg.start_soon(retain_in_background, settings)
                    tg.start_soon(track_sessions)
                    # The first stop signal (or the web server's end) ends the wait.
                    async with anyio.create_task_group() as wait:
                        async def on_signal() -> None:
                            async for signum in signals:
                                stopped_by.append(int(signum))
                                log.info("signal %s: stopping; cancelling calls in flight", signum)
                                break
                            wait.cancel_scope.cancel()

                        async def on_web_end() -> None:
                            await served.wait()
                            wait.cancel_scope.cancel()

                        wait.start_soon(on_signal)
                        wait.start_soon(on_web_end)
                    web.should_exit = True  # no new connections while the calls are cancelled

                    async def watchdog() -> None:
                        await anyio.sleep(_STOP_DEADLINE)
                        log.error("cleanup took over %ss; exiting", _STOP_DEADLINE)
                        logging.shutdown()  # flush the log, then leave whatever still hangs
                        stop_running_gits()  # but not the gits it started (os._exit runs no atexit)
                        os._exit(1)

                    tg.start_soon(watchdog)
                # Leaving sessions.run() cancelled every session: each call stopped its worker and wrote its record.
                with anyio.move_on_after(_SHUTDOWN_GRACE + 3):
                    await served.wait()
                tg.cancel_scope.cancel()
    finally:
        remove_state(settings.data_dir)
        sock.close()
    log.info("HTTP relay at %s stopped%s", url, f" by signal {stopped_by[0]}" if stopped_by else "")
