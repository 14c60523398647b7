"""Loaded by a relay process the tests start on "the Windows path" (conftest.windows_path_env puts this
folder first on PYTHONPATH): the POSIX-only process calls are deleted from ``os`` and ``signal`` before the
relay imports anything, as they are absent on Windows. The relay must then take its Windows path
(relay/core/platform.py): no process groups, the psutil tree and the spawn token, ``signal.signal`` handlers.

Any child relay it starts inherits PYTHONPATH and so this too. agy (the fake) is started with ``-I -S`` and an
allowlisted environment: it is a real POSIX process, free to start its grandchild as before.
"""

import os
import signal

if os.environ.get("GRAVITY_RELAY_TEST_WINDOWS_PATH") == "1":
    for name in ("killpg", "getpgid", "getpgrp", "setsid", "setpgid", "setpgrp", "getsid"):
        if hasattr(os, name):
            delattr(os, name)
    for name in ("SIGHUP",):  # the stop signals Windows lacks (it has SIGBREAK instead, which Linux lacks)
        if hasattr(signal, name):
            delattr(signal, name)

# The POSIX-only modules, blocked for the project's own code (relay/, tests/, bench/ under this root) as on a
# Windows host: what `pytest --collect-only` must survive on the windows-latest leg (tests/test_windows_ci.py).
# Third-party code keeps them (psutil's Linux half needs `resource`): only the project is on trial.
_BLOCK_ROOT = os.environ.get("GRAVITY_RELAY_TEST_BLOCK_POSIX_MODULES")
if _BLOCK_ROOT:
    import builtins

    _POSIX_ONLY = {"fcntl", "termios", "resource", "pwd", "grp", "pty"}
    # The project's own folders, not the root itself: CI's venv lives inside the checkout (.ci-venv), and psutil
    # there imports `resource` (failed in a fresh-clone `.ci/run`, passed in venvs kept outside the checkout).
    _BLOCKED = tuple(os.path.join(_BLOCK_ROOT, part) + os.sep for part in ("relay", "tests", "bench"))
    _real_import = builtins.__import__

    def _windows_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.partition(".")[0] in _POSIX_ONLY \
                and str((globals or {}).get("__file__") or "").startswith(_BLOCKED):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: absent on Windows)", name=name)
        return _real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = _windows_import
