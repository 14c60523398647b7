"""CPU of one start of the small processes the test suite starts by the thousand (a script, not a test).

    python bench/bench_launches.py [launches per series, default 30]

A suite run starts ~1,150 fake agy launches and ~1,000 subreaper shims (``bench_suite.py --execs`` counts
them); each costs an interpreter start-up and whatever it imports. Prints user+sys CPU milliseconds per start
(the best of three series, so a busy moment of a shared machine weighs less) of:

* the bare interpreter, ``python -I -S -c pass``: the floor under both;
* the fake agy (tests/fake_agy.py through its /bin/sh wrapper): ``--version``, ``models`` and a print-mode run
  that writes one file;
* the subreaper shim (relay/core/reaper_shim.py) starting ``/bin/true``, as the relay starts every spawn.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from fake_agy_harness import install_fake_agy, success_scenario  # noqa: E402
from git_repos import make_repo  # noqa: E402
from relay.core import reaper  # noqa: E402


def _cpu_ms(start, rounds: int) -> float:
    best = float("inf")
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for _ in range(rounds):
            start()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best = min(best, spent / rounds * 1000)
    return best


def _run(argv: list[str], cwd: Path) -> None:
    done = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, check=False)
    if done.returncode:
        raise SystemExit(f"{argv[:2]} failed: {done.stderr.decode(errors='replace')[-500:]}")


def _shim_true() -> None:
    held = reaper.wrap(["/bin/true"])
    if held is None:
        raise SystemExit("no subreaper here (Linux with prctl only)")
    proc = subprocess.Popen(held.argv, **held.options)
    held.leader_now()
    proc.wait()


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    home = Path(tempfile.mkdtemp(prefix="bench-launches-"))
    repo = make_repo(home / "repo")
    agy = install_fake_agy(home / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "x\n"}]))
    series = {
        "python -I -S -c pass": lambda: _run([sys.executable, "-I", "-S", "-c", "pass"], repo),
        "fake agy --version": lambda: _run([str(agy), "--version"], repo),
        "fake agy models": lambda: _run([str(agy), "models"], repo),
        "fake agy print run": lambda: _run([str(agy), "-p", "x", "--output-format", "stream-json", "--add-dir",
                                            str(repo)], repo),
        "subreaper shim + /bin/true": _shim_true,
        "/bin/true alone": lambda: _run(["/bin/true"], repo),
    }
    print(f"CPU per start, best of 3 x {rounds} (load {os.getloadavg()[0]:.2f} at start):")
    for label, start in series.items():
        print(f"  {label:<28} {_cpu_ms(start, rounds):6.1f} ms")
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
