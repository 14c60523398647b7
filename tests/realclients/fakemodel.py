"""A loopback HTTP server standing in for a model API: records every request, answers via an adapter.

Standard library only. It listens on 127.0.0.1 with an ephemeral port, serves at most
``max_requests`` requests, and stops by itself after ``lifetime`` seconds, so a client stuck in a
retry loop can neither hang the test nor send unbounded traffic.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

__all__ = ["Recorded", "Reply", "Adapter", "FakeModelServer"]


class Recorded:
    """One request as the client sent it."""

    def __init__(self, method: str, path: str, headers: dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} {len(self.body)} B>"


class Reply:
    def __init__(self, status: int, body: bytes, content_type: str = "application/json",
                 chunks: list[bytes] | None = None) -> None:
        self.status = status
        self.body = body
        self.content_type = content_type
        self.chunks = chunks  # streamed one write each (SSE events)

    @classmethod
    def json(cls, obj: Any, status: int = 200) -> "Reply":
        return cls(status, json.dumps(obj).encode())

    @classmethod
    def sse(cls, events: list[bytes]) -> "Reply":
        return cls(200, b"".join(events), "text/event-stream", chunks=events)


class Adapter(Protocol):
    def reply(self, request: Recorded) -> Reply: ...


class FakeModelServer:
    """``with FakeModelServer(adapter) as srv: srv.url`` — stopped on exit, or by itself after ``lifetime``."""

    def __init__(self, adapter: Adapter, *, max_requests: int = 60, lifetime: float = 300.0) -> None:
        self.adapter = adapter
        self.max_requests = max_requests
        self.lifetime = lifetime
        self.requests: list[Recorded] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep the test output readable
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = self._read_chunked()
                rec = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with outer._lock:
                    outer.requests.append(rec)
                    over = len(outer.requests) > outer.max_requests
                if over:
                    reply = Reply.json({"error": {"message": "fake model: request budget spent"}}, status=429)
                else:
                    try:
                        reply = outer.adapter.reply(rec)
                    except Exception as exc:  # report in the test, answer something the client can show
                        outer.errors.append(f"{rec!r}: {type(exc).__name__}: {exc}")
                        reply = Reply.json({"error": {"message": f"fake model bug: {exc}"}}, status=500)
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                for chunk in reply.chunks or [reply.body]:
                    self.wfile.write(chunk)
                    self.wfile.flush()

            def _read_chunked(self) -> bytes:
                out = b""
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return out
                    out += self.rfile.read(size)
                    self.rfile.readline()

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._timer = threading.Timer(lifetime, self.stop)
        self._timer.daemon = True
        self._stopped = False

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "FakeModelServer":
        self._thread.start()
        self._timer.start()
        self.started = time.monotonic()
        return self

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._timer.cancel()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "FakeModelServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
