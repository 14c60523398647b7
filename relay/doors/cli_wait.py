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


def _is_running(text: str) -> bool:
    """Whether the child's answer says RUNNING: across a process boundary, the text is all there is."""
    try:
        return json.loads(text).get("status") == "RUNNING"
    except (ValueError, AttributeError):
        return False


def delegate_detachable(name: str, arguments: dict[str, Any]) -> int:
    """Parent side: start the child relay, pass the call on its stdin, copy its answer to stdout."""
    from relay.core.platform import ask_child_to_stop, detached_options

    child = subprocess.Popen([sys.executable, "-m", "relay.doors.cli_wait"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, **detached_options())
    try:
        child.stdin.write(json.dumps({"name": name, "arguments": arguments}).encode())
        child.stdin.close()
        text = child.stdout.read().decode("utf-8", "replace")  # EOF: the child answered and let go, or ended
    except KeyboardInterrupt:
        # Ctrl-C before the answer: the run stops with the command, as a cancelled MCP call's does.
        # The child is ours and not yet reaped, so its pid is still its own.
        ask_child_to_stop(child)
        child.wait()
        return 130
    sys.stdout.write(text)
    sys.stdout.flush()
    if _is_running(text):
        return 0
    return child.wait()


def _let_go() -> None:
    """After a RUNNING answer: release the caller's pipes and terminal; the run goes on."""
    sys.stdout.flush()
    sys.stderr.flush()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _child() -> int:
    import anyio

    from relay.call.orchestrate import Relay
    from relay.core.contracts import Running
    from relay.core.settings import load_settings
    from relay.core.platform import stop_signals
    from relay.doors.tools import call_tool, detacher_for

    call = json.loads(sys.stdin.read())
    settings = load_settings()
    relay = Relay(settings)
    released: list[bool] = []

    async def progress(elapsed: float, message: str) -> None:
        if not released:
            print(f"[{elapsed:6.1f}s] {message}", file=sys.stderr, flush=True)

    async def main() -> int:
        async with anyio.create_task_group() as tg:
            async def on_signals() -> None:
                # SIGTERM/SIGHUP/Ctrl-C/Ctrl-Break: stop the run, record CANCELLED, leave no worker behind.
                with stop_signals() as signals:
                    async for _ in signals:
                        tg.cancel_scope.cancel()
                        return

            tg.start_soon(on_signals)
            async with detacher_for(relay).serving(finish_runs=True):
                result = await call_tool(relay, call["name"], call["arguments"], progress)
                sys.stdout.write(result.text + "\n")
                if isinstance(result.answer, Running):
                    released.append(True)
                    _let_go()
            tg.cancel_scope.cancel()
        if result is None:
            return 130  # stopped by a signal before it answered; the record says CANCELLED
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
