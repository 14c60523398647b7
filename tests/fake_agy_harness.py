"""The harness around the fake ``agy`` executable (``tests/fake_agy.py``): scenarios, install, launch logs.

``install_fake_agy(dir, scenario)`` writes ``dir/scenario.json`` and a launcher — an executable
wrapper ``dir/agy`` that ``exec``s the fake, or ``dir/agy.py`` (Windows; see ``LAUNCHER``) — with the
scenario path and the state dir baked in (the relay sanitizes the worker's environment, so nothing
can travel through env). The fake's
state and launch log live in ``dir/agy-state/``. The scenario schema is documented at the
top of ``tests/fake_agy.py``.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

__all__ = [
    "FAKE_AGY",
    "BEHAVIOURS",
    "TYPICAL_REPORT",
    "CAPTURES_DIR",
    "install_fake_agy",
    "set_scenario",
    "launches",
    "wait_for_launches",
    "conversations",
    "state_dir",
    "success_scenario",
    "failure_scenario",
    "scenario",
    "make_report",
    "pid_alive",
    "read_capture",
    "fakes_alive",
    "kill_fakes",
    "LAUNCHER",
]

FAKE_AGY = Path(__file__).resolve().with_name("fake_agy.py")
SCENARIO_FILE = "scenario.json"
STATE_DIR = "agy-state"

BEHAVIOURS = (
    "success", "login_required", "keyring_timeout", "quota_1_2_2", "quota_1_2_11", "quota_text",
    "api_error", "permission_denied", "print_timeout_old", "print_timeout_new", "hang",
    "empty_output", "garbage", "no_result", "stale_error", "invalid_model", "banner", "no_report",
    "slow", "crash", "signed_out", "please_sign_in_result", "auth_timeout_network", "verification",
    "quota_print_timeout", "upstream", "print_timeout_text",
    "interrupted", "keyring_locked", "agy_error_short", "background_cut", "region",
    "auth_expired", "subagent_stall", "denied_no_list", "soft_deny_log",
)

# A typical worker report: the relay's WorkerReport shape, as agy returns it in structured_output.
TYPICAL_REPORT: dict = {
    "summary": "Added input validation to parse_config and a test for the empty-file case.",
    "files_changed": ["src/config.py", "tests/test_config.py"],
    "tests_passed": 12,
    "tests_failed": 0,
    "tests_not_run": 0,
    "tests_run": True,
    "open_questions": [],
}


def _captures_dir() -> Path:
    env = os.environ.get("AGY_CAPTURES_DIR")
    if env:
        return Path(env)
    local = Path(__file__).resolve().parent / "fixtures" / "agy-captures"
    if local.is_dir():
        return local
    return Path("/work/shared/agy-captures")


# Where the real agy captures are (AGY_CAPTURES_DIR, tests/fixtures/agy-captures, or the shared copy).
CAPTURES_DIR = _captures_dir()


def read_capture(name: str) -> bytes:
    return (CAPTURES_DIR / name).read_bytes()


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def state_dir(agy_path: Path) -> Path:
    return Path(agy_path).parent / STATE_DIR


# The fake is imported, not run as a script: a script is compiled on every start (1,500 lines, a third of
# each launch's CPU), an imported module is read from its cached bytecode. With -c, argv[1:] are agy's args.
_LAUNCHER = (f"import sys; sys.path.insert(0, {str(FAKE_AGY.parent)!r}); import fake_agy; "
             "sys.exit(fake_agy.main())")


# Every fake (and whatever it starts) carries these, baked into its wrapper because the relay hands its worker an
# allow-listed environment: the pytest run's token (conftest.RUN_TOKEN_ENV, set once by the controller and
# inherited by every xdist worker), the xdist worker and the test that installed it. tests/conftest.py finds a
# fake left running by them, names its test and kills it; nothing else on the machine carries this run's token.
RUN_ENV, WORKER_ENV, TEST_ENV = "FAKE_AGY_RUN", "FAKE_AGY_WORKER", "FAKE_AGY_TEST"
# The state dirs installed in this process, in order (the per-test check looks at the ones its test added).
INSTALLED: list[Path] = []


def _current_test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0] or "outside a test"


# How the relay starts the fake. "sh": an executable ``agy`` (a /bin/sh wrapper that execs Python), run as any
# agy binary is; POSIX only. "python": ``agy.py``, which the relay runs with its own interpreter (AGY_BIN may name
# a Python script: relay/agy/command.py, agy_command) — the form a Windows host can run, where no .exe shim can be
# written; the windows-path variants use it on Linux too (conftest.process_path). Tests may switch it per test.
LAUNCHER = {"kind": "python" if os.name == "nt" else "sh"}


def _baked_env(scen: Path, state: Path) -> dict[str, str]:
    return {"FAKE_AGY_SCENARIO": str(scen), "FAKE_AGY_STATE": str(state),
            RUN_ENV: os.environ.get("GRAVITY_RELAY_TEST_RUN", ""),
            WORKER_ENV: os.environ.get("PYTEST_XDIST_WORKER", "main"), TEST_ENV: _current_test()}


def _python_launcher(env: dict[str, str]) -> str:
    """``agy.py``: the variables put in the environment, then the fake. On POSIX it execs a fast interpreter as the
    sh wrapper does (same pid; the variables then in the process's own environment, where psutil reads them: a
    putenv is not seen in /proc/PID/environ); Windows has no exec that keeps the pid, so the fake runs in place."""
    return (
        '"""The fake agy of one test (tests/fake_agy_harness.py); the relay runs it as `python agy.py ARGS`."""\n'
        "import os\nimport sys\n\n"
        f"os.environ.update({env!r})\n"
        "if os.name != 'nt':\n"
        f"    os.execv(sys.executable, [sys.executable, '-I', '-S', '-X', 'utf8', '-c', {_LAUNCHER!r}, *sys.argv[1:]])\n"
        f"sys.path.insert(0, {str(FAKE_AGY.parent)!r})\n"
        "import fake_agy  # noqa: E402\n\n"
        "sys.exit(fake_agy.main())\n"
    )


def install_fake_agy(directory: Path, scenario: dict, *, launcher: str | None = None) -> Path:
    """Write ``scenario.json`` and the fake's launcher in ``directory``; return the launcher (``agy``: a /bin/sh
    wrapper, or ``agy.py``, as ``launcher`` or ``LAUNCHER`` says)."""
    kind = launcher or LAUNCHER["kind"]
    directory = Path(directory).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    scen = directory / SCENARIO_FILE
    state = directory / STATE_DIR
    state.mkdir(exist_ok=True)
    _write_json(scen, scenario)
    env = _baked_env(scen, state)
    if kind == "python":
        script = directory / "agy.py"
        script.write_text(_python_launcher(env), encoding="utf-8")
    else:
        script = directory / "agy"
        script.write_text(
            "#!/bin/sh\n"
            + "".join(f"{key}={shlex.quote(value)}\n" for key, value in env.items())
            + f"export {' '.join(env)}\n"
            f"exec {shlex.quote(sys.executable)} -I -S -X utf8 -c {shlex.quote(_LAUNCHER)} \"$@\"\n",
            encoding="utf-8",
        )
        script.chmod(0o755)
    if state not in INSTALLED:
        INSTALLED.append(state)
    if kind == "sh":
        _known_version_answer(script, scenario)
    return script


# The relay asks `agy --version` once per binary and process (relay.agy.command._answers, keyed by path, mtime and
# size), and every test installs a binary of its own: each test that reached agy paid a real probe, a subreaper shim
# and the fake (two interpreter starts, ~35 ms of CPU; ~450 a fast-tier run), for an answer that the scenario's
# "version" alone decides. So, in one pytest process, a new fake whose probe can only say what an earlier fake's
# real probe said (the same version text, the sh launcher, no "version_daemon" or "stdin_hang") starts with that
# real answer in the relay's cache. The first fake of each version in a process is still asked, only answers that
# named a version are kept, and relay processes the tests start ask for themselves. The auth probe (`agy models`,
# ~400 a run) likewise: ``memo_models`` hands the relay's probe the real answer of an earlier probe of a fake whose
# scenario is the same but for its launches, when that answer was the plain listing (exit 0); sign-in variants,
# hangs and failures are always asked. conftest.py turns both off (PROBE_MEMO["on"]) for the tests about the probes
# themselves: those that launch them, count their launches or time them out.
PROBE_MEMO = {"on": True}
_VERSION_OF: dict[tuple, str] = {}  # the relay's key of a fake that qualifies -> the version text it was installed with
_VERSION_ANSWERS: dict[str, object] = {}  # version text -> the relay's VersionAnswer from a real probe of a fake
_SEEDED: set[tuple] = set()  # the keys this put in the relay's cache
_SH_FAKES: set[str] = set()  # wrappers (sh launcher) installed in this process
_MODELS_ANSWERS: dict[str, object] = {}  # a scenario but for its launches (JSON) -> the Captured of a real `agy models`


def _known_version_answer(script: Path, scen: dict) -> None:
    try:
        from relay.agy import command
    except ImportError:  # a bench run without the relay on its path: nothing to seed
        return
    for key, answer in list(command._answers.items()):
        text = _VERSION_OF.get(key)
        # the answer must be the one its text gives (a set_scenario may have changed the version since the install)
        if text is not None and answer.version is not None and answer.version == command.parse_version(text):
            _VERSION_ANSWERS.setdefault(text, answer)
    key = command._key(str(script))
    if key is None or "version_daemon" in scen or scen.get("stdin_hang"):
        return
    text = str(scen.get("version", "1.2.17"))
    _VERSION_OF[key] = text
    _SH_FAKES.add(str(script))
    if PROBE_MEMO["on"] and text in _VERSION_ANSWERS:
        command._answers[key] = _VERSION_ANSWERS[text]
        _SEEDED.add(key)


def memo_models(probe_models):
    """``relay.agy.auth.probe_models``, answering a qualifying fake's probe from an earlier real one (see above)."""

    async def probe(agy: str, env: dict[str, str], timeout: float, **where):
        key = _models_key(agy) if PROBE_MEMO["on"] else None
        if key is not None and key in _MODELS_ANSWERS:
            return _MODELS_ANSWERS[key]
        got = await probe_models(agy, env, timeout, **where)
        if key is not None and got.exit_code == 0 and not got.timed_out:
            _MODELS_ANSWERS.setdefault(key, got)
        return got

    return probe


def _models_key(agy: str) -> str | None:
    """The scenario as it is now, but for its launches (which `agy models` never reads), for a plain listing."""
    if str(agy) not in _SH_FAKES:
        return None
    try:
        scen = json.loads((Path(agy).parent / SCENARIO_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if scen.get("models", "ok") != "ok" or scen.get("stdin_hang"):
        return None
    return json.dumps({k: v for k, v in scen.items() if k != "launches"}, sort_keys=True)


def _unseed_if_changed(script: Path, scen: dict) -> None:
    """A scenario whose probe would answer otherwise: the seeded answer is taken back (the relay then asks the fake).
    No relay test changes the version mid-test; one that did after its first call would now see a second probe."""
    try:
        from relay.agy import command
    except ImportError:
        return
    key = command._key(str(script))
    text = _VERSION_OF.get(key) if key is not None else None
    if text is None:
        return
    if str(scen.get("version", "1.2.17")) != text or "version_daemon" in scen or scen.get("stdin_hang"):
        _VERSION_OF.pop(key)  # its install-time text no longer says what a probe of it answers
        if key in _SEEDED:
            _SEEDED.discard(key)
            command._answers.pop(key, None)


def set_scenario(agy_path: Path, scenario: dict, *, keep_conversations: bool = True) -> None:
    """Replace the scenario and reset the launch counter (the next launch is ``launches[0]``).

    Known conversations survive by default, so a test can switch scenarios between an
    execute and its continue; ``keep_conversations=False`` forgets them too. The launch
    log is kept (it is history, not state).
    """
    agy_path = Path(agy_path)
    _write_json(agy_path.parent / SCENARIO_FILE, scenario)
    _unseed_if_changed(agy_path, scenario)
    state_file = state_dir(agy_path) / "state.json"
    if keep_conversations and state_file.exists():
        try:
            st = json.loads(state_file.read_text(encoding="utf-8"))
        except ValueError:
            st = {}
        st["launch_counter"] = 0
        _write_json(state_file, st)
    else:
        state_file.unlink(missing_ok=True)


def launches(agy_path: Path, *, print_mode_only: bool = True) -> list[dict]:
    """One dict per invocation, in start order: the start record merged with what came after.

    Keys: invocation, pid, ppid, pgid, sid, argv, cwd, cwd_agents (the .agents MCP servers and hooks a 1.3+ agy
    would load from its cwd), start, mode (print | version | help | models | subcommand | tui | flag_error), version, env (presence of credential / agy env
    vars, values of AGY_CLI_DISABLE_AUTO_UPDATE and GRAVITY_RELAY_WORKER_RUN), env_keys,
    stdin ({kind: devnull|closed|pipe|tty|file|socket|other, closed, devnull}); print mode
    adds launch_index, behaviour, prompt, positionals, flags, workspace. Then end (None while
    running or if killed by SIGKILL), exit_code (-N when killed by signal N), signal,
    conversation_id, requested_conversation_id, grandchild_pid, signals_ignored.
    """
    path = state_dir(agy_path) / "launches.jsonl"
    if not path.exists():
        return []
    merged: dict[str, dict] = {}
    text = path.read_text(encoding="utf-8")
    # A line still being written (a reader can meet an appended record half-way) is read on the next call.
    for line in text[:text.rfind("\n") + 1].splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        kind = rec.pop("event")
        inv = rec["invocation"]
        if kind == "start":
            entry = merged.setdefault(inv, {})
            entry.update(rec)
            entry.setdefault("end", None)
            entry.setdefault("exit_code", None)
            entry.setdefault("grandchild_pid", None)
            entry.setdefault("signals_ignored", [])
        else:
            entry = merged.setdefault(inv, {"end": None, "exit_code": None, "grandchild_pid": None,
                                            "signals_ignored": []})
            if kind == "signal":
                entry["signals_ignored"].append(rec["signal"])
            elif kind == "grandchild":
                entry["grandchild_pid"] = rec["grandchild_pid"]
            elif kind == "end":
                entry.update({k: v for k, v in rec.items() if k not in ("invocation", "pid")})
    out = [e for e in merged.values() if "start" in e]
    if print_mode_only:
        out = [e for e in out if e.get("mode") == "print"]
    return out


def wait_until(condition, what: str, *, timeout: float = 30.0) -> None:
    """Poll ``condition`` until it holds; TimeoutError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout:g}s")
        time.sleep(0.05)


def wait_for_launches(agy_path: Path, count: int, *, timeout: float = 30.0, print_mode_only: bool = True,
                      started_only: bool = True) -> list[dict]:
    """Wait until ``count`` invocations have started (or ended, with ``started_only=False``)."""
    deadline = time.monotonic() + timeout
    while True:
        got = launches(agy_path, print_mode_only=print_mode_only)
        if not started_only:
            got = [g for g in got if g["end"] is not None]
        if len(got) >= count:
            return got
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(got)} of {count} fake agy launches after {timeout}s")
        time.sleep(0.02)


def conversations(agy_path: Path) -> dict:
    """The conversations the fake knows: ``{id: {turns, next_step, usage, cwd, ...}}``."""
    path = state_dir(agy_path) / "state.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("conversations", {})


def make_report(**overrides) -> dict:
    """A worker report (the relay's WorkerReport shape): TYPICAL_REPORT with overrides."""
    report = json.loads(json.dumps(TYPICAL_REPORT))
    report.update(overrides)
    return report


def _edit_paths(edits: list[dict]) -> list[str]:
    files: list[str] = []
    for e in edits:
        if e.get("op") == "mkdir":
            continue
        for key in ("path", "to"):
            if e.get(key) and e[key] not in files:
                files.append(e[key])
    return files


def scenario(*launch_list: dict, version: str = "1.2.17", **top) -> dict:
    """A scenario with these launches (one per print-mode launch; the last repeats)."""
    return {"version": version, "models": "ok", **top, "launches": list(launch_list) or [{}]}


def success_scenario(edits: list[dict], *, report: dict | None = None, response: str = "done",
                     version: str = "1.2.17") -> dict:
    """One successful launch making ``edits``; the report defaults to one naming the edited files."""
    if report is None:
        report = make_report(summary="Made the requested changes.", files_changed=_edit_paths(edits),
                             tests_passed=0, tests_run=False)
    return scenario({"behaviour": "success", "edits": list(edits), "response": response, "report": report},
                    version=version)


def failure_scenario(behaviour: str, *, edits: list[dict] | None = None, version: str = "1.2.17", **launch) -> dict:
    """One launch with a failure behaviour (see BEHAVIOURS); extra launch keys pass through."""
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"unknown behaviour {behaviour!r}; known: {', '.join(BEHAVIOURS)}")
    return scenario({"behaviour": behaviour, "edits": list(edits or []), **launch}, version=version)


def pid_alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie (psutil: the same answer on Linux and macOS)."""
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True


def _env_of(proc) -> dict[str, str]:
    import psutil

    try:
        return proc.environ()
    except (psutil.Error, OSError):
        return {}


def fakes_alive(agy_path: Path) -> list:
    """The live processes of this fake install (the fake and whatever it started), found by the state dir baked
    into their environment; a pid from its launch log is trusted only when its environment names this install.
    Cheap: only the pids its launch log names, and their children."""
    import psutil

    agy_path = Path(agy_path)
    state = str(agy_path if agy_path.name == STATE_DIR else state_dir(agy_path))
    path = Path(state) / "launches.jsonl"
    pids: set[int] = set()
    if path.exists():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            pids.update(p for p in (rec.get("pid"), rec.get("grandchild_pid")) if isinstance(p, int))
    found: dict[int, psutil.Process] = {}
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            family = [proc, *proc.children(recursive=True)]
        except psutil.Error:
            continue
        for member in family:
            if member.pid not in found and _env_of(member).get("FAKE_AGY_STATE") == state and pid_alive(member.pid):
                found[member.pid] = member
    return list(found.values())


def kill_fakes(agy_path: Path) -> list[int]:
    """SIGKILL what ``fakes_alive`` finds (a test's own teardown: whatever became of its relay); the pids killed."""
    import psutil

    killed = []
    for proc in fakes_alive(agy_path):
        try:
            proc.kill()
            killed.append(proc.pid)
        except psutil.Error:
            pass
    return killed


def run_fakes(run_token: str, worker: str | None = None) -> list:
    """Every live process carrying this pytest run's token (of one xdist worker when ``worker`` is given):
    a scan of the machine's processes, for the end of a session."""
    import psutil

    found = []
    for proc in psutil.process_iter():
        env = _env_of(proc)
        if run_token and env.get(RUN_ENV) == run_token and (worker is None or env.get(WORKER_ENV) == worker) \
                and pid_alive(proc.pid):
            found.append((proc, env.get(TEST_ENV, "?")))
    return found


# --------------------------------------------------------------------------- agy-protocol.md §6, by name

_EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
_REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}
_OK = {"behaviour": "success", "edits": _EDIT, "report": _REPORT}
# The start-up lines of a healthy run that first finds no token in memory (§6.4: not a failure).
NOT_LOGGED_IN_LOG = ["You are not logged into Antigravity.", "Auth succeeded",
                     "ChainedAuth: authenticated via keyring", "Print mode: silent auth succeeded"]
QUOTA_RETRY_LOG = ["API error (attempt 1): RESOURCE_EXHAUSTED (code 429): Resource has been exhausted "
                   "(e.g. check quota). Retrying in 2s"]


def _models(variant: str, version: str = "1.2.17") -> dict:
    return {**scenario(_OK, version=version), "models": variant}


# Every [C] text of agy-protocol.md §6.4 (and the [S] ones the relay acts on), each a named scenario.
SECTION6_SCENARIOS: dict[str, dict] = {
    # signed out, today's wording and the older one, from the probe and from the worker
    "probe_signed_out_current": _models("signed_out_current"),
    "probe_please_sign_in": _models("signed_out"),
    "probe_signed_out_blocks_for_paste": _models("signed_out_blocking", "1.2.14"),
    "worker_signed_out_current": scenario({"behaviour": "signed_out"}),
    "worker_signed_out_early_wording": scenario({"behaviour": "signed_out", "wording": "early"}, version="1.1.12"),
    "worker_signed_out_with_lone_result": scenario({"behaviour": "signed_out", "with_result": True}),
    "worker_signed_out_blocks_ignoring_sigterm": scenario(
        {"behaviour": "signed_out", "block": 3600, "ignore_sigterm": True}, version="1.2.14"),
    "worker_signed_out_line_on_stdout": scenario({"behaviour": "signed_out", "where": "stdout", "block": 3600}),
    "worker_signed_out_line_in_log_only": scenario({"behaviour": "signed_out", "where": "log", "block": 3600}),
    "envelope_please_sign_in": scenario({"behaviour": "please_sign_in_result"}),
    "oauth_prompt_once_with_valid_token": scenario({"behaviour": "login_required", "wait_seconds": 60}, _OK,
                                                   version="1.1.27"),
    "oauth_prompt_twice": scenario({"behaviour": "login_required", "wait_seconds": 60}, version="1.1.27"),
    "auth_timed_out_without_prompt": scenario({"behaviour": "auth_timeout_network"}),
    "not_logged_in_log_then_success": scenario({**_OK, "log_lines": NOT_LOGGED_IN_LOG}),
    # a result envelope without conversation_id (users' reports, agy-protocol.md §6.2): still a success
    "result_without_conversation_id": scenario({**_OK, "result_without_conversation_id": True}),
    # account verification / eligibility
    "probe_verification_required": _models("verification"),
    "probe_eligibility_401": _models("eligibility_401"),
    "worker_verification_required": scenario({"behaviour": "verification"}),
    "worker_eligibility_401": scenario({"behaviour": "verification", "eligibility": "401"}),
    # quota
    "quota_words_in_log_of_a_success": scenario({**_OK, "log_lines": QUOTA_RETRY_LOG,
                                                 "stderr": ["warning: " + QUOTA_RETRY_LOG[0]]}),
    "quota_retried_until_print_timeout": scenario({"behaviour": "quota_print_timeout"}),
    "quota_agy_error_exit_3": scenario({"behaviour": "quota_1_2_11"}),
    "quota_error_result_1_2_2": scenario({"behaviour": "quota_1_2_2"}, version="1.2.2"),
    "quota_text_exit_1": scenario({"behaviour": "quota_text"}, version="1.1.24"),
    # transient upstream
    "upstream_503_agy_error": scenario({"behaviour": "upstream"}),
    "upstream_network_issue": scenario({"behaviour": "upstream", "upstream": "network"}),
    "upstream_terminated_no_capacity": scenario({"behaviour": "upstream", "upstream": "terminated_capacity"}),
    "upstream_503_retried_until_print_timeout": scenario({"behaviour": "upstream", "upstream": "result_503"}),
    "terminated_broken_settings": scenario({"behaviour": "upstream", "upstream": "terminated"}),
    "upstream_network_issue_old_agy_then_success": scenario({"behaviour": "upstream", "upstream": "network"}, _OK,
                                                            version="1.1.12"),
    "upstream_network_issue_old_agy_twice": scenario({"behaviour": "upstream", "upstream": "network"},
                                                     version="1.1.12"),
    "upstream_old_agy_after_a_write": scenario({"behaviour": "upstream", "upstream": "terminated_capacity",
                                                "edits": _EDIT}, version="1.1.12"),
    # print timeouts
    "print_timeout_text_wording": scenario({"behaviour": "print_timeout_text"}),
    "print_timeout_envelope_wording": scenario({"behaviour": "print_timeout_old"}, version="1.1.27"),
    "print_timeout_partial_success": scenario({"behaviour": "print_timeout_new"}),
    # invalid model (1.1.2+ lists the models)
    "invalid_model_lists_available": scenario({"behaviour": "invalid_model"}, version="1.1.12"),
    # permissions in safe mode
    "safe_mode_edits_soft_denied": {**scenario({"behaviour": "success", "edits": _EDIT}), "permissions": "strict",
                                    "accept_edits": "denied"},
    "command_soft_denied": scenario({"behaviour": "permission_denied", "commands": ["npm test"]}),
}

# --------------------------------------------------------------------------- agy-protocol.md §7, by name

_POLICY = {"permissions": "policy"}  # agy's own permission policy, by version (§7.1)
_WRITE_OUT = {"op": "write", "path": "out.txt", "content": "refused\n"}
BAD_GATEWAY = ('Post "https://daily-cloudcode-pa.googleapis.com/v1internal:streamGenerateContent?alt=sse": '
               "Bad Gateway")
WSASEND = ("write tcp 192.168.1.20:52144->142.250.74.106:443: wsasend: An existing connection was forcibly closed "
           "by the remote host.")
NOT_FOUND_MODEL = "NOT_FOUND (code 404): Requested entity was not found."
UNAUTHENTICATED = ("UNAUTHENTICATED (code 401): Request had invalid authentication credentials. Expected OAuth 2 "
                   "access token, login cookie or other valid authentication credential.")
QUOTA_SHORT = "RESOURCE_EXHAUSTED (code 429): Individual quota reached. Resets in 3h2m1s."
QUOTA_IN_RESULT = "Individual quota reached. Resets in 94h19m9s."


def _short(short: str, **launch) -> dict:
    return {"behaviour": "agy_error_short", "short_error": short, **launch}


# Every §7 text the relay acts on, each a named scenario (item numbers of issue 26 in the comments).
SECTION7_SCENARIOS: dict[str, dict] = {
    # 1. safe mode: agy's own request-review policy writes from 1.2.14; a safe run reported always-proceed
    "safe_writes_under_agys_default_policy": {**scenario(_OK, version="1.3.2"), **_POLICY},
    "safe_writes_on_1_2_14": {**scenario(_OK, version="1.2.14"), **_POLICY},
    "safe_edits_denied_under_accept_edits_on_1_2_13": {**scenario(_OK, version="1.2.13"), **_POLICY},
    "safe_run_reported_always_proceed": {**scenario({**_OK, "think_seconds": 5}, version="1.3.2"), **_POLICY,
                                         "tool_permission": "always-proceed"},
    "safe_run_under_strict_policy": {**scenario(_OK, version="1.3.2"), **_POLICY, "tool_permission": "strict"},
    # 3. interrupted: by someone else; at the relay's own timeout
    "interrupted_by_someone_else": scenario({"behaviour": "interrupted", "edits": _EDIT}, version="1.3.1"),
    "interrupted_at_the_relays_timeout": scenario({"behaviour": "hang", "on_signal": "interrupted"}, version="1.3.1"),
    # 4. locked keyring: the vendor's line, agy's models probe, and the 1.1.10 zero-usage case
    "keyring_locked_line": scenario({"behaviour": "keyring_locked"}, version="1.3.1"),
    "keyring_locked_terminated_zero_usage": scenario({"behaviour": "keyring_locked", "keyring": "terminated"},
                                                     version="1.1.10"),
    "probe_keyring_locked": {**scenario(_OK, version="1.3.1"), "models": "keyring_locked"},
    # 5. refused by a deny rule and by a pre-tool hook: SUCCESS with denied_actions empty
    "deny_rule_and_hook_refusals": {**scenario({**_OK, "edits": [*_EDIT, _WRITE_OUT],
                                                "commands": [{"command": "curl https://example.com"}],
                                                "needs_command_permission": False}, version="1.3.1"),
                                    "deny_rules": ["write_to_file:out.txt"], "hook_denies": ["run_command"]},
    # 7. AGY_ERROR with only short_error (1.2.9, 1.3.1)
    "agy_error_short_not_found": scenario(_short(NOT_FOUND_MODEL), version="1.3.1"),
    "agy_error_short_unauthenticated": scenario(_short(UNAUTHENTICATED), version="1.3.1"),
    "agy_error_short_quota": scenario(_short(QUOTA_SHORT, retryable=True), version="1.2.9"),
    # 7. region eligibility (1.2.14): a lone ERROR result, exit 1, no init; `agy models` still passes
    "region_not_available": scenario({"behaviour": "region"}, version="1.2.14"),
    # 7. network failures with retryable:false, exit 3: once more, behind the mutation guard
    "bad_gateway_exit_3_then_success": scenario(_short(BAD_GATEWAY), _OK, version="1.3.1"),
    "wsasend_exit_3_twice": scenario(_short(WSASEND), version="1.3.1"),
    "bad_gateway_after_a_write": scenario(_short(BAD_GATEWAY, edits=_EDIT), _OK, version="1.3.1"),
    # 7. quota in the result's error, no RESOURCE_EXHAUSTED prefix, exit 1
    "quota_in_result_error": scenario({"behaviour": "quota_1_2_2", "error": QUOTA_IN_RESULT, "exit_code": 1},
                                      version="1.3.1"),
    # 7. new result statuses and step types
    "result_status_canceled": scenario({**_OK, "result_status": "CANCELED"}, version="1.3.1"),
    "result_status_waiting": scenario({**_OK, "result_status": "WAITING"}, version="1.3.1"),
    "subagent_and_finish_steps": scenario({**_OK, "extra_steps": ["subagent", "finish"]}, version="1.3.1"),
    # 7. exit 2 that is not an old agy
    "p_took_a_dash_prompt_exit_2": scenario({"behaviour": "empty_output", "exit_code": 2,
                                             "stderr": ['Error: -p took "--model" as its prompt']}, version="1.3.1"),
    "unknown_subcommand_exit_2": scenario({"behaviour": "empty_output", "exit_code": 2,
                                           "stderr": ['Error: unknown command "modles" for "agy"']}, version="1.3.1"),
    # 7. background tasks cut at exit (1.2.6-1.2.7): narration-only SUCCESS
    "background_tasks_cut_at_exit": scenario({"behaviour": "background_cut", "background_wait": 0.2},
                                             version="1.2.7"),
    # 7. a daemon task left running after a normal exit (1.2.13+): swept with the group
    "daemon_left_after_a_normal_exit": scenario({**_OK, "grandchild": True}, version="1.3.1"),
}

# --------------------------------------------------------------------------- agy-protocol.md §8, by name

_LEVELS = ["low", "medium", "high"]
_BASE = {"gemini-3.8-flash": _LEVELS}
# `agy models` naming the base id beside its levels: whether X needs an effort cannot be known before a launch
_LISTS_BASE = [["gemini-3.8-flash", "Gemini 3.8 Flash"]] + [[f"gemini-3.8-flash-{lv}", f"Gemini 3.8 Flash ({lv})"]
                                                            for lv in _LEVELS]
# only the levelled ids: the bare id is not a model this agy runs without an effort (knowable from the listing)
_LISTS_LEVELS = _LISTS_BASE[1:]
EFFORT_UNSUPPORTED_TEXT = "--effort is not supported for model gemini-3-1-pro"
EFFORT_NEEDED_TEXT = "--model gemini-3.8-flash requires --effort (available: low, medium, high)"
NO_CAPACITY = "UNAVAILABLE (code 503): No capacity available for model gemini-3.6-flash-high on the server"
_LONG_ANSWER = "".join(f"Finding {i}: the parser accepts an empty header in case {i}; see src/new.py.\n"
                       for i in range(120))
DEGENERATE = "all work and no play makes a dull answer " * 7000  # ~289 KB, a print timeout's partial (§8.2)

# Every §8 text (agy 1.3.x, up to 1.3.3) the relay acts on, each a named scenario (items of issue 35).
SECTION8_SCENARIOS: dict[str, dict] = {
    # 1. signed out on 1.3.3: stderr, the result's error, or both (which one is unconfirmed)
    "auth_expired_on_stderr": scenario({"behaviour": "auth_expired"}, version="1.3.3"),
    "auth_expired_in_the_result": scenario({"behaviour": "auth_expired", "where": "result"}, version="1.3.3"),
    "auth_expired_result_and_echo": scenario({"behaviour": "auth_expired", "where": "both"}, version="1.3.3"),
    # 1. model and effort (1.3.0; 1.2.17)
    "base_model_needs_effort_listed": {**scenario(_OK, version="1.3.3"), "base_models": _BASE,
                                       "model_list": _LISTS_BASE},
    "base_model_needs_effort_unlisted": {**scenario(_OK, version="1.3.3"), "base_models": _BASE,
                                         "model_list": _LISTS_LEVELS},
    "base_model_needs_effort_exit_2": {**scenario({"behaviour": "empty_output", "exit_code": 2,
                                                   "stderr": [EFFORT_NEEDED_TEXT]}, version="1.3.3"),
                                       "model_list": _LISTS_BASE},
    "effort_not_supported_unlisted": scenario(_OK, version="1.3.0"),
    # the listing named it (so the relay launched), yet agy refused the effort at run time
    "effort_not_supported_at_run": {**scenario({"behaviour": "invalid_model", "error": EFFORT_UNSUPPORTED_TEXT,
                                                "stderr": ["error: " + EFFORT_UNSUPPORTED_TEXT]}, version="1.3.0"),
                                    "model_list": [["gemini-3-1-pro", "Gemini 3.1 Pro"]]},
    # 1. the subagent stall (google-antigravity/antigravity-cli#1077) and a subagent that came back
    "subagent_stall_tool_step": scenario({"behaviour": "subagent_stall", "edits": _EDIT}, version="1.3.3"),
    "subagent_stall_step_with_a_report": scenario({"behaviour": "subagent_stall", "subagent": "step",
                                                   "edits": _EDIT, "report": _REPORT}, version="1.3.1"),
    "subagent_came_back": scenario({"behaviour": "subagent_stall", "returned": True, "edits": _EDIT,
                                    "report": _REPORT}, version="1.3.3"),
    # 1. denials without denied_actions (the §8.3 host capture), and the log-only soft deny (1.1.24)
    "denied_write_without_a_list": scenario({"behaviour": "denied_no_list"}, version="1.2.12"),
    "denied_command_without_a_list": scenario({"behaviour": "denied_no_list", "denied": "command"},
                                              version="1.2.12"),
    "soft_deny_only_in_the_log": scenario({"behaviour": "soft_deny_log"}, version="1.1.24"),
    "soft_deny_only_in_the_log_no_output": scenario({"behaviour": "soft_deny_log", "output": "none"},
                                                    version="1.1.24"),
    # 1. error_message steps and folded answers
    "error_message_step": scenario({**_OK, "extra_steps": ["error_message", "error_message"]}, version="1.3.3"),
    "folded_answer_bytes": scenario({**_OK, "response": _LONG_ANSWER, "fold": "bytes"}, version="1.3.3"),
    "folded_answer_lines_crlf": scenario({**_OK, "response": _LONG_ANSWER, "fold": "lines", "fold_crlf": True},
                                         version="1.3.3"),
    # 3. keep holding: 503 "No capacity" is capacity, not quota; a degenerate partial; agy's skip advice
    "no_capacity_agy_error_exit_3": scenario({"behaviour": "upstream"}, version="1.3.1"),
    "no_capacity_in_the_result_exit_3": scenario({"behaviour": "quota_1_2_2", "error": NO_CAPACITY,
                                                  "exit_code": 3}, version="1.3.1"),
    # §8.6 item 10: the relay tries once more itself (capacity comes back within minutes), never after a write.
    "no_capacity_then_success": scenario({"behaviour": "upstream"}, _OK, version="1.3.1"),
    "no_capacity_after_a_write": scenario({"behaviour": "upstream", "edits": _EDIT}, version="1.3.1"),
    "degenerate_partial_at_print_timeout": scenario({"behaviour": "print_timeout_new", "edits": _EDIT,
                                                     "partial_response": DEGENERATE}, version="1.3.3"),
    "soft_deny_advice_on_1_3_3": scenario({"behaviour": "permission_denied", "commands": ["npm test"]},
                                          version="1.3.3"),
}

# The validation URL the fake's verification scenarios print (the hint must carry it).
VALIDATION_URL_FOR_TESTS = ("https://accounts.google.com/signin/continue?sarp=1&scc=1&continue="
                            "https://antigravity.google/verify&plt=AKgnsbfake")
