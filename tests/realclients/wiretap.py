"""A wire tap between a real client and the relay: every stdio line, each way, appended to a log file.

``install_wiretap(dir, log)`` writes an executable named ``gravity-relay`` (so `setup --command` and
`doctor` know it for the relay) that runs the real relay script as its child and copies the client's
stdin to it and its stdout back, line by line, appending ``> `` (client to relay) or ``< `` (relay to
client) and the line to ``log``. The relay's stderr is passed through untouched. A signal the client
sends (SIGTERM, SIGINT, SIGHUP) is passed on to the relay, and the tap exits with the relay's code, so
the relay's own shutdown (its workers' groups killed, records written) is what the test sees. The relay runs under a
small keeper that writes its exit down, so a client that kills the tap itself (Claude Code: SIGKILL 500 ms after its
SIGINT) does not take the record of how the relay ended with it.
The signals the tap got and the relay's exit code are logged too (``! `` lines; ``events(log)``).
``messages(log)`` reads the log back as (direction, JSON-RPC message) pairs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["install_wiretap", "messages", "events"]

_TAP = r'''#!{python}
import os, signal, subprocess, sys, threading
LOG = {log!r}
KEEPER = """
import os, signal, subprocess, sys
log, argv = sys.argv[1], sys.argv[2:]
relay = subprocess.Popen(argv)
for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(signum, lambda n, f: relay.send_signal(n))
code = relay.wait()
with open(log, "ab") as fh:
    fh.write(b"! relay exit %d\\n" % code)
os._exit(code if code >= 0 else 128 - code)
"""
# The relay runs under a keeper that passes the tap's signals on and writes the relay's exit down: Claude Code kills the
# server it started (this tap) 500 ms after its SIGINT (100 ms, SIGTERM, 400 ms, SIGKILL); the relay, past that under
# load, still ends its shutdown, and the keeper, not the killed tap, says how.
child = subprocess.Popen([sys.executable, "-c", KEEPER, LOG, {relay!r}, *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
lock = threading.RLock()  # re-entrant: the signal handler notes from the main thread, maybe inside note()

def note(tag, line):
    with lock, open(LOG, "ab") as fh:
        fh.write(tag + line if line.endswith(b"\n") else tag + line + b"\n")

def forward(signum, frame):
    note(b"! ", b"signal %d" % signum)
    child.send_signal(signum)

for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(signum, forward)

def to_relay():
    try:
        for line in sys.stdin.buffer:
            note(b"> ", line)
            child.stdin.write(line)
            child.stdin.flush()
    except (BrokenPipeError, OSError):
        pass
    finally:
        try:
            child.stdin.close()
        except OSError:
            pass

threading.Thread(target=to_relay, daemon=True).start()
out = sys.stdout.buffer
try:
    for line in child.stdout:
        note(b"< ", line)
        out.write(line)
        out.flush()
except (BrokenPipeError, OSError):
    pass
code = child.wait()  # the keeper wrote the relay's exit down
try:
    out.flush()
except (BrokenPipeError, OSError, ValueError):
    pass
# os._exit: the stdin thread may still be blocked in a read, and a normal exit then aborts (SIGABRT) on its lock.
os._exit(code if code >= 0 else 128 - code)
'''


def install_wiretap(directory: Path, log: Path, relay: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    tap = directory / "gravity-relay"
    tap.write_text(_TAP.format(python=sys.executable, log=str(log), relay=str(relay)), encoding="utf-8")
    tap.chmod(0o755)
    return tap


def messages(log: Path) -> list[tuple[str, dict[str, Any]]]:
    """(">" client to relay | "<" relay to client, message) for every JSON line in the log."""
    out: list[tuple[str, dict[str, Any]]] = []
    try:
        lines = log.read_bytes().splitlines()
    except FileNotFoundError:
        return out
    for line in lines:
        direction, _, body = line.partition(b" ")
        try:
            msg = json.loads(body)
        except ValueError:
            continue
        if isinstance(msg, dict):
            out.append((direction.decode(), msg))
    return out


def events(log: Path) -> list[str]:
    """The tap's own notes: the signals it passed on, the relay's exit code."""
    try:
        return [line[2:].decode() for line in log.read_bytes().splitlines() if line.startswith(b"! ")]
    except FileNotFoundError:
        return []
