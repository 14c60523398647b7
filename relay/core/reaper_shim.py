"""The subreaper between the relay and one spawn (Linux), run as ``python -I -S reaper_shim.py FD LIFE ARGV...``.

Started by ``relay/core/reaper.py``; standard library only, and nothing of the relay's is imported (it runs
isolated, without site-packages). It makes itself the child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), so
every orphan among the descendants of the program it starts — a daemon gone through a double fork, ``setsid``
and an empty environment included — is re-parented to it rather than to init. It starts the program (ARGV) as
the leader of a new session and group, as the relay would, writes ``ok <pid> <held>`` (or ``err <errno>
<text>``) to the status pipe FD, then waits. When the program ends, whatever of its descendants is left is
the shim's own child by then: each is asked to stop (SIGTERM), killed after a short grace, and reaped; then
the shim exits the way the program did (its exit code, or the same signal), so the relay reads agy's ending.

Its own SIGTERM/SIGINT/SIGHUP do nothing: the relay stops the program through its group, and the shim must
outlive it to sweep what it left. Only a SIGKILL stops the shim early (the relay's last resort, which then
kills the members it found itself). This file is the one other place, beside ``platform.py``, with POSIX-only
calls (tests/test_platform.py names both).

The relay's death is the one stop that does not come from the relay: SIGKILLed (Claude Code 0.5 s after its
SIGINT, an OOM killer, ``kill -9``) it stops nothing, and a program deaf to SIGTERM ran on with its record
"running" until the next relay started. LIFE is the read end of the relay's lifeline (reaper.py), whose write
end only the relay holds: its end of file means the relay is gone, whoever killed it. A thread waits on it and
then stops the program's group itself — SIGTERM, ``RELAY_GONE_GRACE``, SIGKILL — while the program is still the
shim's unreaped child (a lock against the main thread's reaping), so the group id it signals cannot name
another process's; the sweep at the program's end stops what left the group.
"""

import os
import sys

# _signal, not signal: the same calls and numbers without the enum module signal builds its names with (a few ms
# of start-up, paid on every spawn; this process starts before each one).
import _signal as signal
import _thread
import time

__all__ = ["main"]

PR_SET_CHILD_SUBREAPER = 36
GRACE = 0.5  # seconds an orphan gets between SIGTERM and SIGKILL: agy itself has already ended
RELAY_GONE_GRACE = 0.2  # seconds the program gets once the relay is gone (the relay's own when it leaves: LEAVING_GRACE)


def _nothing(_signum, _frame):
    pass


def _prctl(option, value):
    """libc's ``prctl(option, value, 0, 0, 0)``.

    Through ``_ctypes``, the C half of ctypes: ``import ctypes`` builds its Python half's types and structures
    first, ~5 ms of CPU, which was a third of this process's start-up, paid on every spawn. The same call as
    ``ctypes.CDLL(None, use_errno=True).prctl(...)`` (a C int result, the C calling convention, errno kept);
    ctypes itself where this interpreter's _ctypes lacks a piece."""
    try:
        import _ctypes

        class _Int(_ctypes._SimpleCData):
            _type_ = "i"

        class _Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
            _restype_ = _Int

        class _Libc:
            _handle = _ctypes.dlopen(None, os.RTLD_LOCAL)  # ctypes.CDLL(None)'s handle

        call = _Function(("prctl", _Libc))
    except (ImportError, AttributeError, TypeError):
        import ctypes

        call = ctypes.CDLL(None, use_errno=True).prctl
    return call(option, value, 0, 0, 0)


def _children():
    """This process's live children (adopted orphans included): each one's /proc/PID/stat names our pid as parent
    and a state other than zombie. Candidates from the kernel's own list of our children where it keeps one
    (/proc/self/task/*/children), else every process in /proc: on a busy machine reading every /proc/PID/stat
    is a few ms of CPU, on each spawn's end."""
    me = str(os.getpid()).encode()
    found = []
    for name in _candidates():
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()  # after "(comm)": state, ppid, …
        if len(fields) > 1 and fields[1] == me and fields[0] != b"Z":
            found.append(int(name))
    return found


def _candidates():
    try:
        listed = set()
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", "rb") as fh:
                listed.update(fh.read().decode().split())
        return listed
    except OSError:  # a kernel without CONFIG_PROC_CHILDREN
        return [name for name in os.listdir("/proc") if name.isdigit()]


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _sweep():
    """Stop every child left (each is unreaped, so its pid cannot name another process), until none is."""
    deadline = time.monotonic() + GRACE
    asked = set()
    while True:
        _reap()
        left = _children()
        if not left:
            return
        hard = time.monotonic() >= deadline
        for pid in left:
            if hard or pid not in asked:
                try:
                    os.kill(pid, signal.SIGKILL if hard else signal.SIGTERM)
                except ProcessLookupError:
                    pass
                asked.add(pid)
        time.sleep(0.02)


def _end_like(status):
    """Exit the way the program did."""
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        try:
            signal.signal(signum, signal.SIG_DFL)
        except (OSError, ValueError):
            pass  # SIGKILL/SIGSTOP: already the default
        os.kill(os.getpid(), signum)
        return 128 + signum
    return os.waitstatus_to_exitcode(status)


class _Program:
    """The program the shim started, and whether the main thread has reaped it (under ``lock``): until then its pid,
    which is its group's id, is still its own."""

    def __init__(self, pid):
        self.pid = pid
        self.reaped = False
        self.lock = _thread.allocate_lock()

    def signal_group(self, signum):
        """Signal the program's group while the program is unreaped; False once it has been reaped."""
        with self.lock:
            if self.reaped:
                return False
            try:
                os.killpg(self.pid, signum)
            except OSError:
                pass  # a zombie leader alone: its group has no one left to signal
            return True


def _watch_relay(life_fd, program):
    """In a thread: wait for the relay's lifeline to end (the relay died: nothing else closes its write end), then
    stop the program's group — SIGTERM, a short grace, SIGKILL. The main thread reaps it and sweeps the rest."""
    try:
        while os.read(life_fd, 512):
            pass  # nothing is ever written: only the end of file counts
    except OSError:
        return  # an unreadable lifeline proves nothing: the program is left to the relay, as before it existed
    if not program.signal_group(signal.SIGTERM):
        return
    deadline = time.monotonic() + RELAY_GONE_GRACE
    while time.monotonic() < deadline and not program.reaped:
        time.sleep(0.01)
    program.signal_group(signal.SIGKILL)


def _wait_program(program):
    """Reap children until the program ends (adopted orphans too, as they end); its wait status, None if it has no
    status to give. The program is reaped under its lock: a stop on the relay's death never signals its group after."""
    while True:
        try:
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)  # who ended, left unreaped for now
        except ChildProcessError:
            return None
        if ended is None:
            continue
        with program.lock:
            got, status = os.waitpid(ended.si_pid, 0)
            if got == program.pid:
                program.reaped = True
                return status


def main():
    status_fd, life_fd, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _nothing)  # a handler, not SIG_IGN: the program starts with the default again
    for fd in (status_fd, life_fd):
        os.set_inheritable(fd, False)  # the program must hold neither the relay's status pipe nor its lifeline
    try:
        held = _prctl(PR_SET_CHILD_SUBREAPER, 1) == 0
    except (OSError, AttributeError):
        held = False
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ, setsid=True, setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except OSError as exc:
        _tell(status_fd, f"err {exc.errno or 0} {exc.strerror or exc}")
        return 127
    program = _Program(pid)
    # Watched from here, before the answer: a relay that died before reading it is seen by the lifeline too.
    _thread.start_new_thread(_watch_relay, (life_fd, program))
    _tell(status_fd, f"ok {pid} {int(held)}")
    # The program's output is the relay's pipes: this process lets go of them, so their end of file is the
    # program's (and its helpers') alone.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    status = _wait_program(program)
    if status is None:
        return 1
    _sweep()
    return _end_like(status)


def _tell(fd, text):
    """The answer on the status pipe; a relay that died before reading it is the lifeline's to notice."""
    try:
        os.write(fd, text.encode("utf-8", "replace"))
    except OSError:
        pass
    os.close(fd)


if __name__ == "__main__":
    sys.exit(main())
