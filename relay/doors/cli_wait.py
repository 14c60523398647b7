"""``gravity-relay execute --wait SECONDS`` and ``gravity-relay runs wait RUN_ID``: the shell's long-run doors.

Both answer with the MCP tools' own bytes (``call_tool``). A run that answered RUNNING must
outlive the shell command that started it (the leader's shell tool has a timeout too), so
``execute --wait`` hands the call to a child relay in its own session: the child prints its
answer; on RUNNING it lets go of the terminal (stdout and stderr to /dev/null) and keeps
running the run to its end, as the MCP server does. The parent copies the answer and exits.
The child is the run's relay (its pid and stamp are in the record), so ``runs wait``,
``antigravity_get_result`` and ``antigravity_cancel`` from any relay reach it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

__all__ = ["delegate_detachable", "runs_wait", "WAIT_FOR_EVER"]

WAIT_FOR_EVER = 24 * 3600.0  # `runs wait` without --wait: to the end of any run a timeout allows


def _running_id(text: str) -> str | None:
    """The run id when the child's answer says RUNNING, else None: across a process boundary, the text is all there
    is."""
    try:
        answer = json.loads(text)
        return str(answer.get("run_id")) if answer.get("status") == "RUNNING" else None
    except (ValueError, AttributeError):
        return None


# What the parent writes on the child's stdin, after the call's line, when the command is interrupted before the
# answer. A line on a pipe rather than a signal: on Windows the child has a console of its own (detached_popen),
# which Ctrl-Break cannot reach; the same path everywhere keeps it tested on every platform.
STOP_LINE = b"stop\n"


def delegate_detachable(name: str, arguments: dict[str, Any]) -> int:
    """Parent side: start the child relay, pass the call on its stdin, copy its answer to stdout."""
    from relay.core.platform import detached_popen

    child = detached_popen([sys.executable, "-m", "relay.doors.cli_wait"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        child.stdin.write(json.dumps({"name": name, "arguments": arguments}).encode() + b"\n")
        child.stdin.flush()  # stdin stays open until the answer: it is how a Ctrl-C reaches the child
        text = child.stdout.read().decode("utf-8", "replace")  # EOF: the child answered and let go, or ended
    except KeyboardInterrupt:
        # Ctrl-C before the answer: the run stops with the command, as a cancelled MCP call's does.
        ask_child_to_stop(child)
        child.wait()
        return 130
    _close_quietly(child.stdin)
    sys.stdout.write(text)
    sys.stdout.flush()
    run_id = _running_id(text)
    if run_id is not None:
        # The answer's `next` names the tools; a person at a shell gets the shell's own two doors to the run.
        print(f"the run goes on: `gravity-relay runs wait {run_id}` gets its packet, "
              f"`gravity-relay runs cancel {run_id}` stops it", file=sys.stderr)
        return 0
    return child.wait()


def ask_child_to_stop(child: subprocess.Popen) -> None:
    """Ask the child relay (ours, not reaped yet) to stop its run and record it CANCELLED."""
    try:
        child.stdin.write(STOP_LINE)
        child.stdin.flush()
    except (OSError, ValueError):
        pass  # it has ended (or closed its side): nothing to ask
    _close_quietly(child.stdin)


def _close_quietly(pipe) -> None:
    try:
        pipe.close()
    except OSError:
        pass


def _read_line(pending: bytearray) -> bytes:
    """The next line on fd 0 (with its newline; what is left at the end of file), read with ``os.read``: no
    buffered reader whose lock a thread still waiting in it would hold while the interpreter shuts down (a
    fatal error, SIGABRT), and nothing read ahead past the line into a buffer the next reader cannot see."""
    while b"\n" not in pending:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        pending += chunk
    line, newline, rest = bytes(pending).partition(b"\n")
    pending[:] = rest
    return line + newline


def _on_stop_line(pending: bytearray, stop) -> None:
    """Child side: call ``stop`` (from another thread) when the parent sends STOP_LINE. The end of file (the
    parent gone, or done with the answer) is no stop: the run outlives the command. A daemon thread: the read
    may still be waiting when the relay leaves."""
    import threading

    def read() -> None:
        try:
            line = _read_line(pending)
        except OSError:
            return
        if line == STOP_LINE:
            stop()

    threading.Thread(target=read, name="stop-line", daemon=True).start()


def _let_go() -> None:
    """After a RUNNING answer: release the caller's pipes and terminal; the run goes on."""
    sys.stdout.flush()
    sys.stderr.flush()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _child() -> int:
    import asyncio
    import logging

    import anyio

    from relay.call.orchestrate import Relay
    from relay.core.contracts import Running
    from relay.core.settings import load_settings
    from relay.core.platform import stop_signals
    from relay.doors.tools import call_tool, detacher_for

    pending = bytearray()
    call = json.loads(_read_line(pending))
    settings = load_settings()
    relay = Relay(settings)
    released: list[bool] = []
    log = logging.getLogger("relay.doors.cli_wait")

    async def progress(elapsed: float, message: str) -> None:
        if not released:
            print(f"[{elapsed:6.1f}s] {message}", file=sys.stderr, flush=True)

    async def main() -> int:
        result = None
        work = anyio.CancelScope()
        stopped: list[str] = []

        def stop(why: str) -> None:
            if stopped:
                log.info("%s: already stopping (the record first)", why)
                return
            log.info("%s: stopping the run", why)
            stopped.append(why)
            work.cancel()

        loop = asyncio.get_running_loop()
        _on_stop_line(pending, lambda: loop.call_soon_threadsafe(stop, "the command that started it was interrupted"))
        # The receiver stays open until the process leaves: a second signal during the cleanup (SIGINT, then
        # SIGTERM, as Claude Code stops what it started) must not take the default action and kill the relay
        # before the run's record says CANCELLED. SIGTERM/SIGHUP/Ctrl-C/Ctrl-Break: stop the run, leave no worker.
        with stop_signals() as signals:
            async with anyio.create_task_group() as tg:
                async def on_signals() -> None:
                    async for signum in signals:
                        stop(f"signal {signum}")

                tg.start_soon(on_signals)
                with work:
                    async with detacher_for(relay).serving(finish_runs=True):
                        result = await call_tool(relay, call["name"], call["arguments"], progress)
                        sys.stdout.write(result.text + "\n")
                        if isinstance(result.answer, Running):
                            released.append(True)
                            _let_go()
                tg.cancel_scope.cancel()
        if result is None:
            return 130  # stopped before it answered; the record says CANCELLED
        return 1 if result.is_error else 0

    return anyio.run(main)


async def _wait_call(settings, run_id: str, wait: float):
    from relay.call.orchestrate import Relay
    from relay.doors.tools import GET_RESULT, call_tool

    async def progress(elapsed: float, message: str) -> None:
        print(f"[{elapsed:6.1f}s] {message}", file=sys.stderr, flush=True)

    return await call_tool(Relay(settings), GET_RESULT, {"run_id": run_id, "wait_seconds": wait}, progress)


def runs_wait(settings, run_id: str, wait: float | None) -> int:
    """`runs wait`: antigravity_get_result(run_id, wait_seconds)'s text; exit 0 unless the answer is a failure."""
    import anyio

    result = anyio.run(_wait_call, settings, run_id, WAIT_FOR_EVER if wait is None else wait)
    sys.stdout.write(result.text + "\n")
    return 1 if result.is_error else 0


if __name__ == "__main__":
    import logging

    logging.basicConfig(level=getattr(logging, os.environ.get("GRAVITY_RELAY_LOG_LEVEL", "INFO").upper(), logging.INFO),
                        stream=sys.stderr, format="%(asctime)s gravity-relay %(levelname)s %(name)s: %(message)s")
    raise SystemExit(_child())
