"""A Job Object per spawn on Windows (issue 37 W1; issue 34 §2 there): everything the spawn starts dies with it.

Windows has no process groups to kill and no subreaper: a process whose parent exited is nobody's child,
and one started with an empty environment carries no token. A job holds them all: every process a member
starts joins the job (no breakaway: the limits below do not allow it), whatever it does to its environment
or its parent. Each spawn gets its own job, with ``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``:

* at the spawn's end (normal end, cancel, timeout) the relay terminates the job: nothing it started is left;
* when the relay itself is terminated outright (a client closes stdin, waits ~2 s, then calls
  TerminateProcess; the relay's own kill grace is longer), the kernel closes the relay's handles, the job's
  last handle with them, and kills every process in it at once: agy does not go on editing the workspace.

The child is created suspended (``CREATE_SUSPENDED``), put in the job, then resumed (psutil's resume), so not
even its first instruction runs outside the job. If the job cannot be made (an old Windows without nested
jobs whose outer job forbids it, or any refused call), the spawn runs anyway, found by its tree and its token
as before, and the relay logs why. A relay restarted after a crash cannot use a job (its handle died with the
old relay, and with it the job's processes): recovery keeps working from the run record.

Every kernel call goes through ``kernel32``, which a test can replace (tests/test_job_object.py runs the call
sequence on Linux with a stub, and the real thing on the windows-latest CI leg).
"""

from __future__ import annotations

import ctypes
import logging
import sys
from dataclasses import dataclass
from typing import Any

import psutil

__all__ = ["Job", "available", "contain", "hold", "CREATE_SUSPENDED", "CREATE_BREAKAWAY_FROM_JOB", "DETACHED_PROCESS",
           "KILL_ON_JOB_CLOSE"]

log = logging.getLogger("relay.core.winjob")

CREATE_SUSPENDED = 0x00000004
DETACHED_PROCESS = 0x00000008
CREATE_BREAKAWAY_FROM_JOB = 0x01000000
KILL_ON_JOB_CLOSE = 0x00002000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
EXTENDED_LIMIT_INFORMATION = 9  # JobObjectExtendedLimitInformation
PROCESS_SET_QUOTA = 0x0100
PROCESS_TERMINATE = 0x0001


class BasicLimits(ctypes.Structure):  # JOBOBJECT_BASIC_LIMIT_INFORMATION
    _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
                ("LimitFlags", ctypes.c_uint32), ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", ctypes.c_uint32),
                ("Affinity", ctypes.c_size_t), ("PriorityClass", ctypes.c_uint32), ("SchedulingClass", ctypes.c_uint32)]


class IoCounters(ctypes.Structure):  # IO_COUNTERS
    _fields_ = [(name, ctypes.c_uint64) for name in ("ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
                                                     "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]


class ExtendedLimits(ctypes.Structure):  # JOBOBJECT_EXTENDED_LIMIT_INFORMATION
    _fields_ = [("BasicLimitInformation", BasicLimits), ("IoInfo", IoCounters), ("ProcessMemoryLimit", ctypes.c_size_t),
                ("JobMemoryLimit", ctypes.c_size_t), ("PeakProcessMemoryUsed", ctypes.c_size_t),
                ("PeakJobMemoryUsed", ctypes.c_size_t)]


def available() -> bool:
    return sys.platform == "win32"


def _kernel32() -> Any:
    k = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    handle, dword, boolean = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int
    for name, args, result in (
            ("CreateJobObjectW", [ctypes.c_void_p, ctypes.c_wchar_p], handle),
            ("SetInformationJobObject", [handle, ctypes.c_int, ctypes.c_void_p, dword], boolean),
            ("OpenProcess", [dword, boolean, dword], handle),
            ("AssignProcessToJobObject", [handle, handle], boolean),
            ("TerminateJobObject", [handle, ctypes.c_uint], boolean),
            ("CloseHandle", [handle], boolean)):
        fn = getattr(k, name)
        fn.argtypes, fn.restype = args, result
    return k


def _last_error() -> int:
    get = getattr(ctypes, "get_last_error", None)
    return get() if get is not None else 0


@dataclass
class Job:
    """One spawn's job; ``terminate`` kills what is in it, ``close`` lets go of it (KILL_ON_JOB_CLOSE)."""

    handle: int
    kernel32: Any

    def terminate(self) -> None:
        if self.handle and not self.kernel32.TerminateJobObject(self.handle, 1):
            log.debug("TerminateJobObject failed (error %s)", _last_error())

    def close(self) -> None:
        if self.handle:
            self.kernel32.CloseHandle(self.handle)
            self.handle = 0


def contain(pid: int, kernel32: Any = None) -> Job | None:
    """A new kill-on-close job holding process ``pid`` (ours, not reaped); None, and a log line, if refused."""
    k = kernel32 if kernel32 is not None else _kernel32()
    job = k.CreateJobObjectW(None, None)
    if not job:
        log.warning("no job object for pid %s (CreateJobObjectW error %s): its helpers are found by tree and token only",
                    pid, _last_error())
        return None
    limits = ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = KILL_ON_JOB_CLOSE
    if not k.SetInformationJobObject(job, EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), ctypes.sizeof(limits)):
        return _refused(k, job, pid, "SetInformationJobObject")
    process = k.OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, False, pid)
    if not process:
        return _refused(k, job, pid, "OpenProcess")
    try:
        assigned = k.AssignProcessToJobObject(job, process)
    finally:
        k.CloseHandle(process)
    if not assigned:
        return _refused(k, job, pid, "AssignProcessToJobObject")
    return Job(handle=job, kernel32=k)


def _refused(k: Any, job: int, pid: int, call: str) -> None:
    log.warning("no job object for pid %s (%s error %s): its helpers are found by tree and token only",
                pid, call, _last_error())
    k.CloseHandle(job)
    return None


def hold(pid: int, kernel32: Any = None) -> Job | None:
    """For a child started with ``CREATE_SUSPENDED``: put it in its job, then let it run (always: a child left
    suspended would hang the call)."""
    try:
        return contain(pid, kernel32)
    except (OSError, AttributeError, ValueError) as exc:
        log.warning("no job object for pid %s (%s): its helpers are found by tree and token only", pid, exc)
        return None
    finally:
        try:
            psutil.Process(pid).resume()
        except psutil.Error as exc:
            log.warning("could not resume pid %s (%s): stopping it rather than leaving it suspended", pid, exc)
            try:
                psutil.Process(pid).kill()
            except psutil.Error:
                pass
