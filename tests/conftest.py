"""Shared fixtures: real git repos in temp dirs, the fake agy as a real executable, the relay over stdio."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent


def _ram_temp_dir() -> None:
    """Temp dirs in RAM (/dev/shm) when the user named none (TMPDIR unset) and the machine has one.

    The suite makes thousands of small files (git repos, run records written with fsync, the fake agy's logs):
    on this machine's disk, under load, 5,000 files took 6 s to write in /tmp and 0.4 s in /dev/shm. Set
    before pytest picks its temp root, so tmp_path, every xdist worker and every subprocess (relay, fake
    agy, git) inherit it. GRAVITY_RELAY_TEST_TMP=disk keeps the default; so does a small /dev/shm (a
    container's is 64 MiB by default, and a run of the suite leaves ~150 MiB, pytest keeping the last three)."""
    if os.environ.get("TMPDIR") or os.environ.get("GRAVITY_RELAY_TEST_TMP") == "disk" or sys.platform != "linux":
        return
    shm = Path("/dev/shm")
    try:
        room = os.statvfs(shm)
    except OSError:
        return
    if room.f_bavail * room.f_frsize >= 2 << 30 and os.access(shm, os.W_OK | os.X_OK):
        import tempfile

        os.environ["TMPDIR"] = str(shm)
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


_ram_temp_dir()
# This pytest run's token: set once by the controller (xdist workers inherit it), baked into every fake agy
# install (fake_agy_harness.RUN_ENV), so a fake left running by this run is found by it and by nothing else.
RUN_TOKEN_ENV = "GRAVITY_RELAY_TEST_RUN"
# A pytest run that a test starts (test_unreadable_folders under capsh, test_tiers' and test_windows_ci's --co) is a run of
# its own: with the outer token, its end-of-session sweep found the outer run's fakes, running in other workers, and
# killed them (the outer test failed, the inner run reported a leftover). An xdist worker is started by its
# controller, never from inside a test: it keeps the token it inherits.
if not os.environ.get(RUN_TOKEN_ENV) or os.environ.get("PYTEST_CURRENT_TEST"):
    import uuid

    os.environ[RUN_TOKEN_ENV] = uuid.uuid4().hex
# A review row that fails raises under the tests (in use it is said on the file and logged): a reader's bug shows here.
os.environ.setdefault("GRAVITY_RELAY_REVIEW_STRICT", "1")
# Real agy outputs, copied byte for byte from shared/agy-captures.
CAPTURES = TESTS / "fixtures" / "agy-captures"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from git_repos import git, make_repo  # noqa: E402  (the suite's one make_repo, re-exported for the tests)
# Compiled, assert-rewritten test modules are kept (__pycache__, ignored by git) even where
# PYTHONDONTWRITEBYTECODE=1 is exported, as on this machine: otherwise every xdist worker compiles and
# rewrites every test module again on every run (~2 s of CPU a worker). Only this process is concerned.
sys.dont_write_bytecode = False


# Files whose tests share one relay process through a module fixture (a start-up is ~1-1.5 s of CPU). Under
# xdist each is one unit of work, so the relay starts once, not once per worker that gets one of its tests.
# (xdist's xdist_group marks do nothing with pytest 9: --dist loadgroup renames node ids pytest no longer reads.)
SHARED_RELAY_FILES = frozenset({"tests/test_http.py", "tests/test_http_sessions.py"})
# Likewise one unit: files whose tests share a cache worth keeping. The files that read the relay's own code share
# its parsed trees (tests/relay_sources.py: ~0.9 s of CPU a parse, ~60 MB held): all of them are one unit, so one
# worker parses the package once, not each file apiece (six parses before) in every worker that got one of them.
SOURCE_READING_FILES = frozenset({"tests/test_layout.py", "tests/test_dependencies.py", "tests/test_platform.py",
                                  "tests/test_windows_blockers.py", "tests/test_plan_views.py"})
# And files whose tests read one delegation or one fresh interpreter a module fixture makes (test_demo: three tests
# of one `demo --json`; test_warm_review: two of one cold start).
SHARED_RUN_FILES = frozenset({"tests/test_demo.py", "tests/test_warm_review.py"})
ONE_UNIT_FILES = SHARED_RELAY_FILES | SOURCE_READING_FILES | SHARED_RUN_FILES


def unit_of(path: str) -> str:
    """The unit of work a test file's tests belong to under xdist (conftest's scheduler): the source readers share
    one; each other file of ONE_UNIT_FILES is its own."""
    return "relay source readers" if path in SOURCE_READING_FILES else path


# What a Windows host runs (the CI workflow's windows leg): the files that need no POSIX host, and the process tests
# (cancel, timeout, client disconnect) on their windows-path variant, whose fake agy is agy.py run by the relay's
# own interpreter (fake_agy_harness.LAUNCHER). The other files drive the fake through its /bin/sh wrapper, send
# POSIX signals or read process groups. A file joins this set once it was read for POSIX assumptions.
WINDOWS_RUNNABLE = frozenset({"test_windows_places.py", "test_contracts.py", "test_layout.py", "test_review.py",
                              "test_settings.py", "test_tools_snapshot.py", "test_bench_risk_corpus.py",
                              "test_windows_ci.py", "test_windows_blockers.py", "test_job_object.py"})
WINDOWS_PROCESS_TESTS = frozenset({
    "test_relay_timeout_kills_hung_worker_and_its_grandchild",
    "test_cancel_kills_worker_group_and_records_cancelled_with_its_changes",
    "test_client_disconnect_kills_worker_group",
    "test_cancel_stops_a_detached_run_with_no_process_left_and_lists_its_changes",
    "test_cancel_from_another_relay_stops_a_run_started_without_a_wait",
})


def runs_on_windows(file_name: str, test_name: str, node_name: str) -> bool:
    return file_name in WINDOWS_RUNNABLE or test_name in WINDOWS_PROCESS_TESTS and "windows-path" in node_name


# The tests that each take many seconds of one worker (a pytest or a relay in a subprocess, thousands of files),
# measured per test with a getrusage/monotonic plugin on a whole-suite run (2026-12-02: 16-20 s for the two
# windows_ci runs, 4-6 s for the rest). Handed out first, longest first: left in file order, test_windows_ci's two came last
# and one worker ran them alone while the others had finished. Only an order; nothing is skipped or weighted.
START_FIRST = (
    "test_windows_ci.py::test_the_windows_runnable_files_pass_under_a_non_utf8_default_encoding",
    "test_windows_ci.py::test_collection_ends_clean_with_the_posix_only_modules_and_group_calls_absent",
    "test_windows_ci.py::test_every_text_read_and_write_in_relay_tests_and_bench_names_its_encoding",
    "test_once.py::test_http_repeat_in_one_session_attaches_and_a_key_from_another_session_answers_the_same_run",
    "test_once.py::test_stdio_repeat_of_a_running_execute_attaches_and_a_key_answers_from_another_relay_process",
    "test_review.py::test_packet_budget_five_thousand_files",
    "test_install_path.py::test_a_wheel_in_a_uvx_cache_serves_as_gravity_relay_mcp_and_its_setup_registers_uvx",
)


def _start_rank(item) -> int:
    name = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
    return START_FIRST.index(name) if name in START_FIRST else len(START_FIRST)


def pytest_collection_finish(session):
    """What is alive once the tests are collected (the SDK, the relay, pytest's ~2,000 items: ~300,000 objects)
    lives to the end of the process: frozen, so the collector's full passes, every few dozen tests, stop walking
    it again each time (~40% of their CPU in a worker). Nothing a test makes is frozen. The collector, off while
    the tests were collected (pytest_configure), runs again from here."""
    import gc

    gc.freeze()
    gc.enable()


# The process tier: files whose tests are relay *processes* driven from outside (signals, crashes and restarts,
# long waits across relays, the HTTP door, the CI's inner pytest runs). They cost ~40 % of the suite's CPU, and
# this machine has 2 cores: the README's `python -m pytest` runs the rest (the server in memory, a few stdio
# smoke tests) and `python -m pytest --tier process` runs these; .ci/run and the CI workflow run both. A file
# named on the command line always runs, whatever its tier.
#
# The principle a test's tier follows (docs/contributing.md says the same):
# * process tier: a test whose subject is a process started from outside the test's own: a relay process's signals,
#   crash, restart or wait (these files), what a fresh interpreter does at its start (test_warm_review), a pytest run
#   inside the test (test_nested_runs, test_tiers' and test_windows_ci's inner runs), or the seconds a process takes to
#   end (@pytest.mark.process on a test in a file of the fast tier);
# * fast tier: one test per door as a real process — the stdio pipe (test_e2e_stdio), the shell door's execute and
#   its stdout's encoding (test_cli_parity), doctor (test_doctor), demo (test_demo), serve refusing a setting
#   (test_settings), the shell's wait for a person (test_person_gate) — and everything else in memory: a command's
#   output and exit code through cli_main, not a Python start-up per call;
# * rows of one parametrized test that travel one path through the relay and differ in the data other tests read in
#   memory: one row per path in the fast tier, the others marked ``process`` (test_plant_matrix, test_runs_next,
#   test_agy_reality, test_argv, test_asked_names say which path each keeps).
PROCESS_TIER = frozenset({
    "test_process_faults.py", "test_reliability.py", "test_long_runs.py", "test_http.py", "test_http_sessions.py",
    "test_cli_wait_signals.py", "test_windows_ci.py", "test_relay_killed.py", "test_warm_review.py",
    "test_nested_runs.py",
})
TIERS = ("fast", "process", "all")


def pytest_configure(config):
    """xdist's controller, before its workers start: the byte code they would each compile (tests/compiled_ahead.py).

    A process that collects (an xdist worker, or pytest without workers): the cyclic collector is off until the
    collection ends (pytest_collection_finish turns it on). Importing ~200 test modules, the relay and the SDK makes
    ~300,000 objects that all live to the end, and the collector's passes over them found nothing to free: ~0.5 s of
    a collection's ~3.7 s of CPU, in each of the four workers (`pytest --co -n 0`: 3.75 s, 3.2 s without them).
    The controller of xdist collects nothing, and keeps its collector."""
    if not hasattr(config, "workerinput") and (config.getoption("numprocesses", None) or 0):
        from compiled_ahead import compile_ahead

        compile_ahead(config)
        return
    import gc

    gc.disable()


def pytest_addoption(parser):
    parser.addoption("--tier", choices=TIERS, default="fast",
                     help="fast (default): all but the process tier; process: only the process tier "
                          "(conftest.PROCESS_TIER); all: both. A test file named on the command line always runs.")


def _tier_of(item) -> str:
    """A file of PROCESS_TIER, or a test marked ``@pytest.mark.process`` in another file (one that drives
    several relay processes for seconds while the rest of its file talks to the server in memory)."""
    in_process_tier = item.path.name in PROCESS_TIER or item.get_closest_marker("process") is not None
    return "process" if in_process_tier else "fast"


def _named_files(config) -> set[str]:
    """The test files the command line names (a file, or a node id in it): those run whatever their tier."""
    named = set()
    for arg in config.args:
        path = Path(arg.split("::", 1)[0])
        if path.suffix == ".py":
            named.add(path.name)
    return named


def _deselect_other_tier(config, items) -> None:
    tier = config.getoption("--tier")
    if tier == "all":
        return
    named = _named_files(config)
    keep, drop = [], []
    for item in items:
        (keep if _tier_of(item) == tier or item.path.name in named else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    tier = config.getoption("--tier")
    if tier == "fast" and not _named_files(config):  # the default run: say what it left out
        terminalreporter.write_line(f"the process tier ({len(PROCESS_TIER)} files: relay processes driven from "
                                    "outside) did not run here: python -m pytest --tier process")


def pytest_collection_modifyitems(config, items):
    _deselect_other_tier(config, items)
    items.sort(key=_start_rank)  # longest first; stable: everything else keeps its order
    if sys.platform != "win32":
        return
    skip = pytest.mark.skip(reason="needs a POSIX host (the fake agy's /bin/sh wrapper, POSIX signals, process "
                            "groups); the relay's Windows path runs here as the windows-path variants of the process "
                            "tests (conftest.WINDOWS_PROCESS_TESTS)")
    for item in items:
        if not runs_on_windows(item.path.name, getattr(item, "originalname", item.name), item.name):
            item.add_marker(skip)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None  # an explicit --dist keeps xdist's own scheduler
    from xdist.scheduler import LoadScopeScheduling

    class InShares(LoadScopeScheduling):
        """xdist's `load`, test by test, but each of ONE_UNIT_FILES is one unit (handed out first); a worker running
        low gets a share of what is left in one message (``_reschedule``), not one test a message."""

        def __init__(self, config, log=None) -> None:
            super().__init__(config, log)
            self._index_of: dict = {}  # worker -> {node id: its index in that worker's collection}

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return unit_of(path) if path in ONE_UNIT_FILES else nodeid

        def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
            """xdist's, and a unit whose tests all ended is forgotten: its ``_pending_of`` walks every unit a worker
            was ever given, on every report (~2,800 units here: quadratic in the tests, the controller's CPU).
            Only finished units go: a worker that dies still has its unfinished ones handed out again."""
            nodeid = self.registered_collections[node][item_index]
            scope = self._split_scope(nodeid)
            unit = self.assigned_work[node][scope]
            unit[nodeid] = True
            if all(unit.values()):
                del self.assigned_work[node][scope]
            self._reschedule(node)

        def _reschedule(self, node) -> None:
            """xdist's, but a worker down to two pending tests gets an eighth of its share of the units left (at least
            one) in one message. One unit a message was a message to a worker per test of the fast tier (~4,700), each
            scheduled by the controller and read by the worker: ~1 ms of CPU a test together (4,000 trivial tests,
            -n 4, user+sys: 13.8/16.6/14.5 s one by one, 9.9/11.8/9.8 s in shares). The share shrinks with the queue,
            so the last tests still go out one by one and no worker is left holding a batch while the others end."""
            if node.shutting_down:
                return
            if not self.workqueue:
                node.shutdown()
                return
            if self._pending_of(self.assigned_work.get(node, {})) > 2:
                return
            self._assign_work_unit(node, max(1, len(self.workqueue) // (len(self.nodes) * 8)))

        def _assign_work_unit(self, node, count: int = 1) -> None:
            """xdist's, ``count`` units in one message, each test's index looked up in a table, not searched for in
            the whole collection."""
            if node not in self._index_of:
                self._index_of[node] = {nodeid: i for i, nodeid in enumerate(self.registered_collections[node])}
            index, indices = self._index_of[node], []
            for _ in range(min(count, len(self.workqueue))):
                scope, work_unit = self.workqueue.popitem(last=False)
                self.assigned_work.setdefault(node, {})[scope] = work_unit
                indices += [index[nodeid] for nodeid, done in work_unit.items() if not done]
            node.send_runtest_some(indices)

    return InShares(config, log)


def _orphans_named(found) -> str:
    return "; ".join(f"pid {proc.pid} ({' '.join(_cmdline(proc))[:80]}) from {test}" for proc, test in found)


def _cmdline(proc) -> list[str]:
    try:
        return proc.cmdline()
    except Exception:  # noqa: BLE001 - gone meanwhile
        return ["?"]


def _settle(find, seconds: float) -> list:
    """What ``find()`` still returns after up to ``seconds`` (a relay may be in its stop grace right now)."""
    import time

    deadline = time.monotonic() + seconds
    while (found := find()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


@pytest.fixture(autouse=True)
def no_fake_agy_left_by_the_test():
    """A fake agy (or a process it started) still alive after its test is an orphan: the test fails at teardown
    naming it, and it is killed. Cheap: only the fakes this test installed, by the pids their launch logs name."""
    from fake_agy_harness import INSTALLED, fakes_alive

    first = len(INSTALLED)
    yield
    mine = INSTALLED[first:]
    if not mine:
        return
    left = _settle(lambda: [p for state in mine for p in fakes_alive(state)], 10.0)
    if left:
        for proc in left:
            try:
                proc.kill()
            except Exception:  # noqa: BLE001 - gone meanwhile
                pass
        pytest.fail(f"fake agy process(es) left running by this test (now killed): "
                    f"{_orphans_named([(p, 'this test') for p in left])}", pytrace=False)


def _left_by_this_run(worker: str | None) -> list:
    from fake_agy_harness import run_fakes

    found = _settle(lambda: run_fakes(os.environ[RUN_TOKEN_ENV], worker), 5.0)
    for proc, _test in found:
        try:
            proc.kill()
        except Exception:  # noqa: BLE001 - gone meanwhile
            pass
    return found


@pytest.fixture(scope="session", autouse=True)
def no_fake_agy_left_by_the_session():
    """The sweep behind the per-test check: at the end of this (xdist worker's) session, every process that
    carries this run's token and this worker's name is an orphan (one not in a launch log: killed before it
    wrote one). Reported as an error naming the test that installed it, then killed."""
    yield
    found = _left_by_this_run(os.environ.get("PYTEST_XDIST_WORKER", "main"))
    if found:
        pytest.fail(f"fake agy process(es) left running by this run (now killed): {_orphans_named(found)}",
                    pytrace=False)


def pytest_sessionfinish(session, exitstatus):
    """The controller's last look (under xdist): a fake of a worker that died, or one the workers missed."""
    if hasattr(session.config, "workerinput"):
        return
    found = _left_by_this_run(None)
    if found:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        sys.stderr.write(f"\nERROR: fake agy process(es) left running by this run (now killed): "
                         f"{_orphans_named(found)}\n")


# Files whose tests are about agy's probes themselves (`agy --version`, the auth probe `agy models`: they launch them,
# count their launches or time them out): the relay asks the fake there, whatever an earlier test's fake answered
# (fake_agy_harness.PROBE_MEMO). A test elsewhere opts out with @pytest.mark.real_probes; GRAVITY_RELAY_TEST_PROBES=real
# turns the memo off for the whole run (what it saves: bench/bench_suite.py with and without).
REAL_PROBE_FILES = frozenset({"test_agy_launches.py", "test_argv.py", "test_auth.py", "test_doctor.py",
                              "test_fake_agy.py", "test_leftovers.py"})


def _real_probes(item) -> bool:
    return bool(item.path.name in REAL_PROBE_FILES or item.get_closest_marker("real_probes")
                or os.environ.get("GRAVITY_RELAY_TEST_PROBES") == "real")


# The memo's switch is set per test by these two hooks, not by an autouse fixture: a fixture's setup and teardown
# cost every test of the suite ~0.1 ms each (4,300 tests) for a flag (conftest's three autouse fixtures made a trivial
# test cost 1.12 ms of CPU against 0.77 ms without them); the wrapper itself is put in once (in_process_relay_patches).
def pytest_runtest_setup(item):
    from fake_agy_harness import PROBE_MEMO

    PROBE_MEMO["on"] = not _real_probes(item)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    from fake_agy_harness import PROBE_MEMO

    PROBE_MEMO["on"] = True


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def in_process_relay_patches():
    """Put in once a process, for every test (a test that patches either again wins for its own duration):

    * the probe memo: ``relay.agy.auth.probe_models`` answers from an earlier real probe while PROBE_MEMO["on"]
      (set per test by pytest_runtest_setup above); off, it is the real probe, called through;
    * in-process relays retry at once: the pause between two agy attempts is a 1 s sleep that every retry test paid
      and none asserts (which attempts run, and why, is what the tests check). Relays started as processes
      (stdio_relay, the CLI) keep the real backoff."""
    import tenacity

    import relay.agy.auth as auth
    import relay.call.attempts as attempts
    from fake_agy_harness import memo_models

    patches = pytest.MonkeyPatch()
    patches.setattr(auth, "probe_models", memo_models(auth.probe_models))
    if hasattr(attempts, "wait_exponential"):  # where the retry policy lives today; if it moves, follow it
        patches.setattr(attempts, "wait_exponential", lambda **_: tenacity.wait_none())
    yield
    patches.undo()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")


def relay_command() -> list[str]:
    """The installed console script when there is one (what Codex runs), else `python -m relay`."""
    script = Path(sys.executable).parent / "gravity-relay"
    if script.exists():
        return [str(script), "serve"]
    found = shutil.which("gravity-relay")
    return [found, "serve"] if found else [sys.executable, "-m", "relay", "serve"]


# Set by the `process_path` fixture while a test runs on the Windows path (see windows_path/sitecustomize.py).
WINDOWS_PATH = {"on": False}
POSIX_GROUP_CALLS = ("killpg", "getpgid", "getpgrp", "setsid", "setpgid", "setpgrp", "getsid")


class _ClientOs:
    """``os`` as the MCP SDK's stdio client sees it on the Windows path: the real module, with the POSIX group
    calls the fixture deletes from it kept."""

    def __init__(self, kept: dict) -> None:
        self._kept = kept

    def __getattr__(self, name: str):
        return self._kept[name] if name in self._kept else getattr(os, name)


@pytest.fixture(params=["posix", pytest.param("windows", id="windows-path")])
def process_path(request, monkeypatch) -> str:
    """Run a process-fault test twice: as the relay runs on POSIX, then on the path Windows takes.

    "windows": the POSIX process-group calls are deleted from ``os`` in this process (the in-process relay)
    and, through windows_path/sitecustomize.py, in every relay process the test starts (and their child
    relays); those also lose ``signal.SIGHUP``. The fake agy is ``agy.py``, started by the relay with its own
    interpreter, as on Windows (fake_agy_harness.LAUNCHER). The relay then has no process groups to use: its workers are
    found by their psutil tree and spawn token, its stop signals come through ``signal.signal``.
    """
    if request.param == "windows":
        # The test's own MCP client is the leader's, not the relay: it keeps its POSIX calls. Its stdio client
        # stops a relay that is slow to exit with os.killpg (mcp/os/posix/utilities.py), which raised
        # AttributeError under load once killpg was gone from this process (failed 5 runs in 6 at load ~30).
        import mcp.os.posix.utilities as client_posix

        monkeypatch.setattr(client_posix, "os", _ClientOs({name: getattr(os, name) for name in POSIX_GROUP_CALLS
                                                           if hasattr(os, name)}))
        from fake_agy_harness import LAUNCHER

        for name in POSIX_GROUP_CALLS:
            monkeypatch.delattr(os, name, raising=False)
        monkeypatch.setitem(WINDOWS_PATH, "on", True)
        monkeypatch.setitem(LAUNCHER, "kind", "python")  # AGY_BIN=…/agy.py, run by the relay's interpreter
    return request.param


def assert_grouping(launch: dict, process_path: str) -> None:
    """The worker leads its own process group on POSIX; on the Windows path there are no groups to make, so
    it stays in its relay's: proof that the relay really ran without the POSIX group calls."""
    if process_path == "windows":
        assert launch["pgid"] != launch["pid"], launch
    else:
        assert launch["pgid"] == launch["pid"], launch


def relay_env(data_dir: Path, agy: Path | str | None, **extra: str) -> dict[str, str]:
    env = {
        "GRAVITY_RELAY_DATA_DIR": str(data_dir),
        "GRAVITY_RELAY_PROGRESS_SECONDS": "0.5",
        "PYTHONPATH": str(TESTS.parent),
    }
    if WINDOWS_PATH["on"]:
        env["PYTHONPATH"] = os.pathsep.join([str(TESTS / "windows_path"), str(TESTS.parent)])
        env["GRAVITY_RELAY_TEST_WINDOWS_PATH"] = "1"
    if agy is not None:
        env["AGY_BIN"] = str(agy)
    env.update(extra)
    return env


@asynccontextmanager
async def stdio_relay(env: dict[str, str], errlog=None, mode: str = "legacy") -> AsyncIterator[Any]:
    """An MCP client talking to `gravity-relay serve` in a subprocess over a real stdio pipe.

    Legacy initialize handshake by default (as Codex does); mode="auto" is the SDK's current one.
    Each one starts a Python process (~1 s on this machine): prefer `memory_relay`."""
    from mcp import Client, StdioServerParameters

    command, *args = relay_command()
    params = StdioServerParameters(command=command, args=args, env=env)
    async with Client(params, mode=mode) as client:
        yield client


@asynccontextmanager
async def memory_relay(env: dict[str, str], mode: str = "legacy") -> AsyncIterator[Any]:
    """The relay `serve` builds, in this process, behind the SDK's in-memory client: same tools, same bytes.

    It sees what `stdio_relay` would give a relay process (the SDK's inherited variables, then `env`),
    recovers dead relays' runs at start-up as `serve` does, and probes `agy --version` for the
    instructions. The fake agy still runs as a real subprocess. Use `stdio_relay` only where the test
    is about the process itself (signals, disconnect, stdout, two relay processes).
    """
    from mcp import Client
    from mcp.client.stdio import get_default_environment

    from relay.agy.command import agy_fact
    from relay.call.orchestrate import Relay
    from relay.core.settings import load_settings
    from relay.doors.mcp_server import create_server

    environ = {**get_default_environment(), **env}
    settings = load_settings(environ)
    relay = Relay(settings, environ=environ)
    relay.recover_dead_runs()
    agy = agy_fact(settings, environ=environ)
    async with Client(create_server(settings, relay, agy), mode=mode) as client:
        yield client


def cli_main(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """`gravity-relay ARGS` run by cli.main in this process, with exactly `env` as the environment.

    For tests about what a command prints and returns (stdout, exit code), not about the process:
    it saves a Python start-up per call. The environment is swapped whole and put back, stdout and
    stderr are captured as text; an argparse exit becomes the exit code.
    """
    import contextlib
    import io

    from relay.doors.cli import main

    import logging

    saved = dict(os.environ)
    root = logging.getLogger()
    level = root.level  # operator commands quieten the root logger; the next test must not inherit that
    out, err = io.StringIO(), io.StringIO()
    try:
        os.environ.clear()
        os.environ.update(env)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.environ.clear()
        os.environ.update(saved)
        root.setLevel(level)
    return subprocess.CompletedProcess(["gravity-relay", *args], code, out.getvalue(), err.getvalue())


def payload(result: Any) -> dict[str, Any]:
    """The tool result's object, read from its one text block.

    A success carries the same JSON as structured content too; an error carries it once,
    in the text only (Gemini CLI stringifies the whole result of an error for its model). A tools.call_tool
    answer (in process, no MCP session) is read as the MCP server sends it."""
    from relay.doors.mcp_server import ToolAnswer, call_result

    if isinstance(result, ToolAnswer):
        result = call_result(result)
    text_blocks = [c for c in result.content if c.type == "text"]
    assert len(text_blocks) == 1  # one text block; resource links to the run's diff/transcript may follow (issue 27)
    assert result.content[0].type == "text" and all(c.type == "resource_link" for c in result.content[1:])
    text = result.content[0].text
    if result.is_error:
        assert result.structured_content is None
        return json.loads(text)
    assert json.loads(text) == result.structured_content
    return result.structured_content


@pytest.fixture
def fake_script(tmp_path: Path) -> Path:
    """A stand-in for the installed `gravity-relay` console script (setup and doctor need only its path)."""
    script = tmp_path / "install" / "bin" / "gravity-relay"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    script.chmod(0o755)
    return script


@pytest.fixture
def cp1252_default(monkeypatch):
    """The default text encoding of a Windows host (cp1252 for files and pipes), in this process: every open(),
    Path.read_text() and Path.write_text() that names no encoding gets cp1252, as it would there."""
    import builtins
    import io

    real_open, real_text_encoding = builtins.open, io.text_encoding

    def text_encoding(encoding, stacklevel=2):
        return "cp1252" if encoding is None else real_text_encoding(encoding, stacklevel)

    def windows_open(file, mode="r", buffering=-1, encoding=None, *args, **kwargs):
        if encoding is None and "b" not in mode:
            encoding = "cp1252"
        return real_open(file, mode, buffering, encoding, *args, **kwargs)

    monkeypatch.setattr(io, "text_encoding", text_encoding)
    monkeypatch.setattr(builtins, "open", windows_open)
    return "cp1252"
