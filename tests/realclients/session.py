"""One headless delegation through a real client, end to end, with everything a test asserts on.

``delegate()`` starts the fake model, lets the client's own settings be written, runs
`gravity-relay setup --client X` in the fresh HOME (the relay's env already exported), runs the
client headless in the workspace, and returns what the model saw, what the relay recorded and
what the fake agy was asked to do.
"""

from __future__ import annotations

from pathlib import Path

from fake_agy_harness import launches
import msgspec

from relay.core.contracts import Packet
from relay.runs.results import encode, packet_object

from .clients import Driver
from .dialogue import Delegation
from .fakemodel import FakeModelServer, Recorded
from .home import ClientHome, RunResult
from .install import client_bin

__all__ = ["Session", "delegate", "packet_bytes"]


class Session:
    def __init__(self, driver: Driver, home: ClientHome, dialogue: Delegation, result: RunResult,
                 requests: list[Recorded], errors: list[str], agy: Path, setup: RunResult) -> None:
        self.driver = driver
        self.home = home
        self.dialogue = dialogue
        self.result = result
        self.requests = requests
        self.errors = errors
        self.agy = agy
        self.setup = setup

    @property
    def offered(self) -> bool:
        """Were the relay's tools in any request the model got?"""
        return any(n.endswith("antigravity_execute") for names in self.dialogue.offered for n in names)

    def records(self) -> list[dict]:
        return self.home.records()

    def agy_launches(self) -> list[dict]:
        return launches(self.agy)

    def explain(self) -> str:
        """Everything needed to see why an assertion failed."""
        outputs = "\n".join(f"  output {i}: {o.size} B: {o.text[:600]}" for i, o in enumerate(self.dialogue.outputs))
        return (f"client {self.driver.name}\n{self.setup}\n{self.result}\nmodel requests: {self.requests}\n"
                f"fake model errors: {self.errors}\ntool outputs the model got:\n{outputs or '  none'}\n"
                f"relay records: {[(r['run_id'], r.get('tool', 'execute'), r.get('status')) for r in self.records()]}")


def packet_bytes(record: dict) -> bytes:
    """The packet as the relay encodes it in the tool result's text block."""
    return encode(packet_object(msgspec.convert(record["packet"], Packet)))


def delegate(driver: Driver, root: Path, agy: Path, workspace: Path, *, feedback: str | None = "Also say goodbye.",
             relay_env: dict[str, str] | None = None, setup_args: tuple[str, ...] = (),
             lifetime: float = 300.0, apply: bool = False, profile: str | None = None,
             then: tuple = (), continue_args: dict | None = None) -> Session:
    exe = client_bin(driver.name)
    home = ClientHome(root, agy, **(relay_env or {}))
    dialogue = Delegation(str(workspace), feedback=feedback, apply=apply, profile=profile, then=then,
                          continue_args=continue_args)
    with FakeModelServer(driver.adapter(dialogue), lifetime=lifetime) as server:
        client_env = driver.prepare(home, server.url, workspace)
        setup = home.setup(driver.name, *setup_args)
        result = home.run(driver.headless(exe), cwd=workspace, env=client_env, timeout=lifetime - 30)
    return Session(driver, home, dialogue, result, list(server.requests), list(server.errors), agy, setup)
