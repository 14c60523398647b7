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
