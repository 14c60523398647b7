"""A fresh HOME for one real client: the relay's env exported, `gravity-relay setup --client X`, the client run.

The relay's settings (GRAVITY_RELAY_DATA_DIR, AGY_BIN, ...) are exported in the environment BEFORE
setup runs, as a user would have them in their shell: setup must carry what the client will not
pass on. Nothing else configures the relay. The client's own model-API settings (base URL, dummy
key) are the test's business and are given to the client only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["ClientHome", "relay_script", "RunResult"]

CLIENT_TIMEOUT = 240.0


def relay_script() -> Path:
    """The installed console script of the relay under test (the one `setup` registers by default)."""
    script = Path(sys.executable).parent / "gravity-relay"
    if script.exists():
        return script
    found = shutil.which("gravity-relay")
    if not found:
        raise RuntimeError("the gravity-relay console script is not installed (pip install -e .)")
    return Path(found)


class RunResult:
    def __init__(self, argv: list[str], returncode: int, stdout: str, stderr: str, seconds: float) -> None:
        self.argv = argv
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds

    def __str__(self) -> str:
        return (f"$ {' '.join(self.argv)}\nexit {self.returncode} after {self.seconds:.1f}s\n"
                f"--- stdout\n{self.stdout[-6000:]}\n--- stderr\n{self.stderr[-6000:]}")


class ClientHome:
    """A temp HOME with the relay's env; ``setup()`` registers the relay, ``run()`` runs a client there."""

    def __init__(self, root: Path, agy: Path | str, **relay_env: str) -> None:
        self.root = root
        self.home = root / "home"
        self.home.mkdir(parents=True)
        self.data_dir = root / "relay-data"
        node_dir = os.path.dirname(shutil.which("node") or "/usr/bin/node")
        path = os.pathsep.join(dict.fromkeys([str(Path(sys.executable).parent), node_dir, "/usr/local/bin",
                                              "/usr/bin", "/bin"]))
        # A user's shell: a minimal, clean environment (nothing of the developer's own clients leaks in).
        self.env: dict[str, str] = {
            "HOME": str(self.home),
            "PATH": path,
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "TMPDIR": str(root),
            # The relay's settings, exported in the shell before setup.
            "GRAVITY_RELAY_DATA_DIR": str(self.data_dir),
            "AGY_BIN": str(agy),
            **relay_env,
        }

    def setup(self, client: str, *extra: str) -> RunResult:
        """`gravity-relay setup --client X` in this HOME, with the relay's env exported; must succeed."""
        result = self.run([str(relay_script()), "setup", "--client", client, *extra], timeout=60)
        assert result.returncode == 0, f"setup failed:\n{result}"
        return result

    def run(self, argv: list[str], *, cwd: Path | None = None, timeout: float = CLIENT_TIMEOUT,
            env: dict[str, str] | None = None) -> RunResult:
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd or self.home, env={**self.env, **(env or {})},
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True, encoding="utf-8")
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)  # our own child's group: nothing of it may outlive the test
            out, err = proc.communicate()
            err += f"\n[killed after {timeout}s]"
        return RunResult(argv, proc.returncode, out, err, time.monotonic() - started)

    # ------------------------------------------------------------------ what the relay left behind

    def records(self) -> list[dict]:
        """Every run record in the relay's data dir, oldest first."""
        runs = sorted(self.data_dir.rglob("*.json"))
        out = []
        for path in runs:
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and "run_id" in doc:
                # A grouped record (schema 2: request, plan, process, outcome, observation, isolation) read as
                # the flat one these tests were written for: each group's fields lifted to the top.
                for group in ("request", "plan", "process", "outcome", "observation", "isolation"):
                    if isinstance(doc.get(group), dict):
                        for key, value in doc[group].items():
                            doc.setdefault(key, value)
                out.append(doc)
        return sorted(out, key=lambda r: str(r.get("created_at") or r.get("started_at") or ""))
