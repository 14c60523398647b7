"""A real client's interactive TUI in a real terminal (tmux), its model faked on loopback, the MCP wire tapped.

``Interactive("claude" | "codex", ...)`` is a context manager: a fresh HOME with the relay's env exported,
the fake model started, `gravity-relay setup --client X --command <tap>` (the tap is a ``gravity-relay``
that logs the stdio wire, wiretap.py), the first-run screens a person would have clicked through already
answered in the HOME (Claude Code: onboarding done, the project folder trusted, the dummy API key
approved; Codex: the project trusted), then the client in a tmux pane in the workspace. On exit the
terminal is closed (the client and everything in its session killed), the fake model stopped, and what
the client started outside its session is stopped too: Codex's TUI runs a managed app-server daemon
(which starts the MCP servers) from the HOME's ``.codex/packages``; any process whose command line names
this test's own folder (the HOME, the tap, the fake agy) is ours and is killed, so nothing outlives the test.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import psutil

from fake_agy_harness import install_fake_agy, launches, success_scenario

from .clients import DRIVERS, PROMPT
from .dialogue import Delegation
from .fakemodel import FakeModelServer, Recorded
from .home import ClientHome, RunResult, relay_script
from .install import client_bin
from .terminal import Terminal
from .wiretap import install_wiretap, messages

__all__ = ["Interactive", "task_notifications"]

# The footer under the prompt once the TUI takes input.
READY = {"claude": "auto mode on", "codex": "? for shortcuts"}


class Interactive:
    def __init__(self, client: str, root: Path, agy: Path, workspace: Path, *, dialogue: Delegation | None = None,
                 relay_env: dict[str, str] | None = None, lifetime: float = 300.0) -> None:
        self.client = client
        self.root = root
        self.agy = agy
        self.workspace = workspace
        self.dialogue = dialogue or Delegation(str(workspace), feedback=None)
        self.home = ClientHome(root, agy, **(relay_env or {}))
        self.server = FakeModelServer(DRIVERS[client].adapter(self.dialogue), lifetime=lifetime)
        self.wire_log = root / "wire.log"
        self.terminal = Terminal(root)
        self.setup: RunResult | None = None
        self.started = time.monotonic()

    # ------------------------------------------------------------------ start and stop

    def __enter__(self) -> "Interactive":
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self) -> None:
        exe = client_bin(self.client)
        self.server.start()
        client_env = DRIVERS[self.client].prepare(self.home, self.server.url, self.workspace)
        tap = install_wiretap(self.root / "tap", self.wire_log, relay_script())
        self.setup = self.home.setup(self.client, "--command", str(tap))
        env = {**self.home.env, **client_env, "TERM": "xterm-256color", "COLUMNS": str(self.terminal.width),
               "LINES": str(self.terminal.height)}
        env.pop("NO_COLOR", None)
        if self.client == "claude":
            self._claude_first_run(client_env["ANTHROPIC_API_KEY"])
            if os.geteuid() == 0:
                env["IS_SANDBOX"] = "1"  # Claude Code refuses to start as root outside a sandbox
        else:
            self._codex_first_run()
        self.terminal.start([str(exe)], env, self.workspace)
        self.terminal.wait_for(READY[self.client], 90, f"{self.client}'s prompt")
        # The relay must be connected before the prompt is sent, or the first turn goes without its tools.
        self.wait_wire(lambda: self.answered("tools/list"), 60, "tools/list answered by the relay")

    def _codex_first_run(self) -> None:
        """The trust question Codex asks once per project, answered in its config (beside setup's entry)."""
        config = self.home.home / ".codex" / "config.toml"
        with config.open("a", encoding="utf-8") as fh:
            fh.write(f'\n[projects."{self.workspace}"]\ntrust_level = "trusted"\n')

    def _claude_first_run(self, api_key: str) -> None:
        """What a person does once on a new machine, written where Claude Code keeps it (beside setup's entry)."""
        path = self.home.home / ".claude.json"
        doc = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        doc["hasCompletedOnboarding"] = True
        doc["customApiKeyResponses"] = {"approved": [api_key[-20:]], "rejected": []}
        doc.setdefault("projects", {})[str(self.workspace)] = {"hasTrustDialogAccepted": True,
                                                               "hasCompletedProjectOnboarding": True}
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")

    def __exit__(self, *exc: Any) -> None:
        try:
            self.terminal.close()
        finally:
            self.server.stop()
            self._stop_strays()

    def _stop_strays(self) -> None:
        """Every process whose command line names this test's folder (its HOME, tap, fake agy): ours.
        Asked to stop first (the relay then finishes its records), killed if it does not within 10 s."""
        strays = self.strays()
        for proc in list(strays):  # with their children (Claude Code's daemon keeps pty hosts that do not name us)
            try:
                strays += [c for c in proc.children(recursive=True) if c not in strays]
            except psutil.NoSuchProcess:
                continue
        for proc in strays:
            try:
                proc.terminate()
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(strays, timeout=10)
        for proc in alive:
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                pass

    def strays(self) -> list[psutil.Process]:
        """Live processes whose command line names this test's folders (its HOME and tap, the workspace, the fake
        agy): started by this test, whatever session or parent they ended up with."""
        mine = [str(self.root), str(self.agy), str(self.workspace)]
        found = []
        for proc in psutil.process_iter(["pid", "cmdline"]):
            try:
                line = " ".join(proc.info["cmdline"] or [])
                if proc.info["pid"] != os.getpid() and any(m in line for m in mine) \
                        and proc.status() != psutil.STATUS_ZOMBIE:
                    found.append(proc)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return found

    # ------------------------------------------------------------------ driving

    def ask(self, prompt: str = PROMPT) -> None:
        self.terminal.type(prompt)
        self.terminal.wait_for(prompt[:40], 10, "the prompt typed")
        self.terminal.press("Enter")

    # ------------------------------------------------------------------ what happened

    def wire(self) -> list[tuple[str, dict[str, Any]]]:
        return messages(self.wire_log)

    def requests_of(self, method: str) -> list[dict[str, Any]]:
        return [m for d, m in self.wire() if d == ">" and m.get("method") == method]

    def answers_to(self, method: str) -> list[dict[str, Any]]:
        """The relay's answers (result or error objects) to every request of ``method``, in order."""
        wire = self.wire()
        ids = [m.get("id") for d, m in wire if d == ">" and m.get("method") == method]
        answers = {m.get("id"): m for d, m in wire if d == "<" and "id" in m and "method" not in m}
        return [answers[i] for i in ids if i in answers]

    def client_answers_to(self, method: str) -> list[dict[str, Any]]:
        """The client's answers to the relay's own requests of ``method`` (elicitation/create on a 2025 session)."""
        wire = self.wire()
        ids = [m.get("id") for d, m in wire if d == "<" and m.get("method") == method]
        answers = {m.get("id"): m for d, m in wire if d == ">" and "id" in m and "method" not in m}
        return [answers[i] for i in ids if i in answers]

    def answered(self, method: str) -> bool:
        return bool(self.answers_to(method))

    def wait_wire(self, check, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while True:
            got = check()
            if got:
                return got
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not seen on the wire after {timeout:.0f}s\n{self.explain()}")
            if self.terminal.dead():
                raise AssertionError(f"{what}: the client exited\n{self.explain()}")
            time.sleep(0.2)

    @property
    def requests(self) -> list[Recorded]:
        return list(self.server.requests)

    def records(self) -> list[dict]:
        return self.home.records()

    def agy_launches(self) -> list[dict]:
        return launches(self.agy)

    def explain(self) -> str:
        wire = "\n".join(f"  {d} {json.dumps(m)[:400]}" for d, m in self.wire()[-40:])
        return (f"setup: {self.setup}\nscreen:\n{self.terminal.screen()}\nwire (last 40):\n{wire or '  nothing'}\n"
                f"model requests: {self.requests}\nfake model errors: {self.server.errors}\n"
                f"relay records: {[(r['run_id'], r.get('status')) for r in self.records()]}\n"
                f"agy launches: {[(r.get('pid'), r.get('end'), r.get('exit_code')) for r in self.agy_launches()]}")


def task_notifications(requests: list[Recorded]) -> list[str]:
    """The background-task notices Claude Code handed its model (user text blocks with <task-notification>)."""
    found: list[str] = []
    for request in requests:
        body = request.json() or {}
        for message in body.get("messages") or []:
            if not isinstance(message, dict) or message.get("role") != "user":
                continue
            content = message.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
            for block in blocks:
                text = block.get("text", "") if isinstance(block, dict) else ""
                if "<task-notification>" in text and text not in found:
                    found.append(text)
    return found


def gated_session(client: str, tmp_path: Path, workspace: Path, edits: list[dict]) -> Interactive:
    """``client`` in a terminal whose relay confirms trusted runs with a person (a ``confirm_trusted: "human"``
    profile) and whose model asks for one trusted run of ``edits``."""
    agy = install_fake_agy(tmp_path / "agy", success_scenario(edits))
    profiles = {"gated": {"execution_mode": "trusted", "confirm_trusted": "human"}}
    return Interactive(client, tmp_path / "run", agy, workspace,
                       dialogue=Delegation(str(workspace), feedback=None, profile="gated"),
                       relay_env={"GRAVITY_RELAY_PROFILES": json.dumps(profiles)})
