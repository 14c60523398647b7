"""What the test suite costs (a script, not a test).

    python bench/bench_suite.py [PYTEST ARGS...] [--execs] [--top 15]

Runs ``python -m pytest -q`` (the README's test command; extra arguments are handed to pytest, e.g. ``-n 2``
or one file) and prints:

* wall seconds, and user+sys CPU seconds of pytest and every process it started (RUSAGE_CHILDREN: only
  processes that were waited for count, which every test's subprocess is);
* the machine's 1-minute load before and after (a wall figure is only worth reading when it was low: the
  machine is shared; CPU seconds move much less with load);
* tests passed / failed / skipped and the top files by summed test duration (setup + call + teardown, from
  pytest's JUnit XML);
* with ``--execs``: the programs started, counted by kind (git, fake agy, the subreaper shim, relay processes,
  other pythons), from an ``strace -f -e trace=execve`` of the whole run. strace slows the run: the figures of
  that run are for the counts only;
* with ``--per-test``: CPU seconds by test file and the costliest tests, measured inside each worker by
  ``bench/suite_cpu_plugin.py`` (the worker's own CPU, the in-memory relay's included, plus the children it
  waited for during the test), and what the workers spent outside tests (start-up, collection).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load() -> float:
    return os.getloadavg()[0]


def _kind(line: str) -> str | None:
    """The kind of program an strace execve line started (successful execs only)."""
    if "execve(" not in line or "= 0" not in line.rsplit(")", 1)[-1]:
        return None
    match = re.search(r'execve\("([^"]+)", \[(.*?)\]', line)
    if not match:
        return None
    path, argv = match.group(1), match.group(2)
    name = os.path.basename(path)
    if name == "git" or name.startswith("git-"):
        return "git"
    if "fake_agy" in argv or "agy.py" in argv or name == "agy":
        return "fake agy"
    if "reaper_shim" in argv:
        return "subreaper shim"
    if name.startswith("python"):
        if '"relay"' in argv or "gravity-relay" in argv:
            return "relay (python -m relay)"
        return "python (other)"
    if name == "gravity-relay":
        return "relay (console script)"
    if name in ("sh", "bash", "dash"):
        return "shell"
    return name


def _print_per_test(folder: Path, top: int, total: float) -> None:
    tests, sessions = [], []
    for path in folder.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            (sessions if row["nodeid"] is None else tests).append(row)
    in_tests = sum(row["self"] + row["children"] for row in tests)
    workers = sum(row["self"] + row["children"] for row in sessions)
    print(f"CPU in tests {in_tests:.1f} s (own {sum(r['self'] for r in tests):.1f} s + children "
          f"{sum(r['children'] for r in tests):.1f} s); {len(sessions)} pytest processes spent "
          f"{workers - in_tests:.1f} s outside tests (start-up, collection, the controller); the rest of the {total:.1f} s "
          f"(controller, processes waited for by no test) {total - workers:.1f} s")
    by_file: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for row in tests:
        cell = by_file[row["nodeid"].split("::", 1)[0]]
        cell[0] += row["self"]
        cell[1] += row["children"]
        cell[2] += row["wall"]
        cell[3] += 1
    print(f"top {top} files by CPU (own + children = CPU; wall summed; tests):")
    for name, (own, kids, wall, count) in sorted(by_file.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]:
        print(f"  {own + kids:6.1f} s = {own:5.1f} + {kids:5.1f}  wall {wall:5.1f} s  {count:4d}  {name}")
    print(f"top {top} tests by CPU (own + children):")
    for row in sorted(tests, key=lambda r: -(r["self"] + r["children"]))[:top]:
        print(f"  {row['self'] + row['children']:6.2f} s = {row['self']:5.2f} + {row['children']:5.2f}  {row['nodeid']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--execs", action="store_true", help="count started programs by kind (strace; slower)")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest files to list")
    parser.add_argument("--per-test", action="store_true", help="CPU by file and by test (bench/suite_cpu_plugin.py)")
    ours, pytest_args = parser.parse_known_args()
    work = Path(tempfile.mkdtemp(prefix="bench-suite-"))
    junit = work / "junit.xml"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", f"--junitxml={junit}",
               "-o", "junit_duration_report=total", *pytest_args]
    trace = work / "trace"
    env = dict(os.environ)
    per_test = work / "cpu"
    if ours.per_test:
        per_test.mkdir()
        env["SUITE_CPU_OUT"] = str(per_test)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bench"), env.get("PYTHONPATH")]))
        command += ["-p", "suite_cpu_plugin"]
    if ours.execs:
        command = ["strace", "-f", "--seccomp-bpf", "-qq", "-v", "-s", "300", "-e", "trace=execve", "-e", "signal=none",
                   "-o", str(trace), *command]
    load_before = _load()
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          encoding="utf-8", errors="replace")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - start
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    summary = [line for line in proc.stdout.splitlines() if line.strip()][-1:] or ["(no output)"]
    print(f"command: {' '.join(['python', '-m', 'pytest', *pytest_args])}")
    print(f"exit {proc.returncode}; {summary[0]}")
    print(f"wall {wall:.1f} s; user {user:.1f} s + sys {system:.1f} s = {user + system:.1f} s CPU; "
          f"load (1 min) {load_before:.2f} before, {_load():.2f} after")
    if proc.returncode not in (0, 1):
        print(proc.stdout[-3000:])
    by_file: dict[str, float] = collections.defaultdict(float)
    outcomes = collections.Counter()
    if junit.exists():
        for case in ET.parse(junit).getroot().iter("testcase"):
            parts = case.get("classname", "").split(".")
            name = parts[1] if parts[0] == "tests" and len(parts) > 1 else parts[0] or "?"
            by_file[name + ".py"] += float(case.get("time") or 0)
            children = {child.tag for child in case}
            outcomes["failed" if children & {"failure", "error"} else "skipped" if "skipped" in children else
                     "passed"] += 1
    print(f"tests: {sum(outcomes.values())} ({', '.join(f'{n} {k}' for k, n in sorted(outcomes.items()))}); "
          f"summed test time {sum(by_file.values()):.1f} s")
    print(f"top {ours.top} files by summed test time (setup + call + teardown):")
    for name, seconds in sorted(by_file.items(), key=lambda kv: -kv[1])[:ours.top]:
        print(f"  {seconds:7.1f} s  {name}")
    if ours.execs and trace.exists():
        kinds = collections.Counter()
        for path in work.glob("trace*"):
            with path.open(encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    kind = _kind(line)
                    if kind:
                        kinds[kind] += 1
        print(f"programs started (strace execve; the trace: {trace}):")
        for kind, count in kinds.most_common(12):
            print(f"  {count:7d}  {kind}")
    if ours.per_test:
        _print_per_test(per_test, ours.top, user + system)
    if proc.returncode == 1:
        failed = [line for line in proc.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        print("\n".join(failed[:30]))
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
