"""A real terminal for an interactive client: a tmux session on a private server, driven by keys, read by screen.

``Terminal.start(argv, env, cwd)`` runs ``argv`` in a detached tmux pane (its own tmux server, on a socket
named for this terminal, so nothing of the developer's tmux is touched), with exactly ``env`` (``env -i``).
``type()`` sends literal text, ``press()`` named keys (Enter, Down, Escape, ...), ``screen()`` is the pane as
the person would see it (``capture-pane -p``). ``wait_for(text | predicate, timeout)`` polls the screen
instead of sleeping, and says what the screen showed when it gives up. ``close()`` kills the tmux server (its socket removed) and
every process left in the pane's session (the client and whatever it started without a session of its own).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil

__all__ = ["Terminal", "tmux_missing"]

POLL = 0.2


def tmux_missing() -> str | None:
    return None if shutil.which("tmux") else "tmux not found on PATH (the interactive real-client tests drive a tmux pane)"


class Terminal:
    def __init__(self, root: Path, *, width: int = 160, height: int = 50) -> None:
        # Its own server on a socket of its own (a short path: sockets have a length limit), removed on close.
        self.socket_dir = Path(tempfile.mkdtemp(prefix="gr-tmux-"))
        self.socket = self.socket_dir / "s"
        self.width = width
        self.height = height
        self.conf = root / "tmux.conf"
        # A dead pane stays on screen (its last words readable); a long history for the failure report.
        self.conf.write_text("set -g remain-on-exit on\nset -g history-limit 5000\nset -g status off\n", encoding="utf-8")
        self.pane_pid: int | None = None
        self.session_members: set[int] = set()

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-S", str(self.socket), "-f", str(self.conf), *args], capture_output=True,
                              text=True, timeout=20, check=check, encoding="utf-8")

    def start(self, argv: list[str], env: dict[str, str], cwd: Path) -> "Terminal":
        command = ["env", "-i", *[f"{k}={v}" for k, v in env.items()], *argv]
        self._tmux("new-session", "-d", "-s", "client", "-x", str(self.width), "-y", str(self.height),
                   "-c", str(cwd), "--", *command)
        self.pane_pid = int(self._tmux("display-message", "-p", "-t", "client", "#{pane_pid}").stdout.strip())
        return self

    def screen(self) -> str:
        got = self._tmux("capture-pane", "-p", "-t", "client", check=False)
        return got.stdout if got.returncode == 0 else f"[no screen: {got.stderr.strip()}]"

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "client", "-l", text)

    def press(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "client", *keys)

    def press_until(self, key: str, want: Callable[[str], bool], what: str, *, tries: int = 3,
                    each: float = 5.0) -> str:
        """Press ``key`` until the screen shows ``want``: a TUI that is still re-rendering may drop a key
        (seen with Claude Code's forms under load), so a key whose effect is not seen is pressed again."""
        for attempt in range(tries):
            self.press(key)
            try:
                return self.wait_for(want, each, what)
            except AssertionError:
                if attempt == tries - 1 or self.dead():
                    raise
        raise AssertionError(what)  # not reached

    def dead(self) -> bool:
        got = self._tmux("display-message", "-p", "-t", "client", "#{pane_dead}", check=False)
        return got.returncode != 0 or got.stdout.strip() == "1"

    def wait_for(self, want: str | Callable[[str], bool], timeout: float, what: str = "") -> str:
        """The screen once it shows ``want`` (a text, or a predicate over the screen); AssertionError after
        ``timeout`` seconds or when the client died, with the last screen."""
        check = (lambda s: want in s) if isinstance(want, str) else want
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if check(shown):
                return shown
            if self.dead() and not check(self.screen()):
                raise AssertionError(f"the client exited while waiting for {what or want!r}:\n{shown}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{what or repr(want)} not on screen after {timeout:.0f}s:\n{shown}")
            self._remember()
            time.sleep(POLL)

    def _remember(self) -> None:
        """The processes of the pane's session, noted while it lives, so close() finds those that outlive it."""
        if self.pane_pid is None:
            return
        for proc in psutil.process_iter(["pid"]):
            try:
                if os.getsid(proc.info["pid"]) == self.pane_pid:
                    self.session_members.add(proc.info["pid"])
            except (ProcessLookupError, PermissionError):
                continue

    def close(self) -> None:
        self._remember()
        self._tmux("kill-server", check=False)  # SIGHUP to the pane: the client's own shutdown runs
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(psutil.pid_exists(p) and _in_session(p, self.pane_pid)
                                                  for p in self.session_members):
            time.sleep(POLL)
        for pid in self.session_members:  # still there after 10 s: ours (same session), so killed
            if _in_session(pid, self.pane_pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        shutil.rmtree(self.socket_dir, ignore_errors=True)


def _in_session(pid: int, sid: int | None) -> bool:
    try:
        return sid is not None and os.getsid(pid) == sid and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except (ProcessLookupError, PermissionError, psutil.NoSuchProcess):
        return False
