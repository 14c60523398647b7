"""The HTTP relay's state file (``http-relay.json``: which relay serves, where) and a stop signal in its first moments.

The party: another local process (a client's supervisor, a shell's job control, the user's Ctrl-C) that stops the
relay the moment it starts. doctor, `setup` and the next relay read the state file to find a running HTTP relay; one
left behind names a server that is gone. Before: the file was written before the stop handlers were set, so SIGTERM
(or SIGHUP) in between took the default action: the relay died and its file stayed. The relay is a real process (`gravity-relay serve --http`), its own state writer wrapped to
send the signal right after the file is written.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import relay_env

pytestmark = [pytest.mark.process, pytest.mark.skipif(os.name == "nt", reason="POSIX signals")]

_STOPPED_AT_ONCE = r"""
import os, sys, time
import relay.doors.http_state as state
written = state.write_state

def write_then_stop(*args, **kwargs):
    answer = written(*args, **kwargs)
    if not getattr(write_then_stop, "sent", False):
        write_then_stop.sent = True
        with open(sys.argv[2], "w", encoding="utf-8") as fh:
            fh.write("written")  # the file named this process when the signal left
        os.kill(os.getpid(), int(sys.argv[1]))
        time.sleep(0.3)  # the signal is delivered here: a default action ends the process now
    return answer

state.write_state = write_then_stop
from relay.doors.cli import main
sys.exit(main(["serve", "--http", "127.0.0.1:0"]))
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])  # by name: Windows has no SIGHUP to collect
def test_a_stop_signal_right_after_the_state_file_is_written_never_leaves_it_behind(tmp_path, name):
    signum = getattr(signal, name)
    data = tmp_path / "data"
    data.mkdir()
    marker = tmp_path / "written"
    env = {**os.environ, **relay_env(data, None)}
    proc = subprocess.Popen([sys.executable, "-c", _STOPPED_AT_ONCE, str(int(signum)), str(marker)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        _out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert marker.exists(), err.decode("utf-8", "replace")[-2000:]  # the signal was sent in the window
    state = data / "http-relay.json"
    assert not state.exists(), (f"exit {proc.returncode}: the state file names a relay that is gone: "
                                f"{json.loads(state.read_text(encoding='utf-8'))}")
    assert proc.returncode == 0, (proc.returncode, err.decode("utf-8", "replace")[-2000:])  # a clean stop
