"""How a call says where it is while it runs: (elapsed seconds, message), sent as an MCP progress
notification by the MCP door or printed by the CLI. Its own module: the run (orchestrate) and the
detacher both take one, and neither may import the other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

__all__ = ["Progress", "no_progress"]

Progress = Callable[[float, str], Awaitable[None]]


async def no_progress(elapsed: float, message: str) -> None:
    return None
