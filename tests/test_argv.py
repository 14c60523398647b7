"""The exact argv the relay hands agy, rule by rule (agy-protocol.md §1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relay.agy.command import (MIN_VERSION, AgyInvocation, agy_fact, build_agy_argv, go_duration, parse_version,
                                report_schema, supports)
from relay.core.contracts import ExecutionMode
from relay.core import reaper
from relay.core.settings import Settings

BASE = dict(agy="/bin/agy", version=(1, 2, 17), workspace="/work/p", prompt="do it", execution_mode=None,
            sandbox=False, skip_permissions=False, timeout_seconds=600)


def argv(**kw) -> list[str]:
    fields = {**BASE, **kw}
    fields["extra_dirs"] = tuple(fields.get("extra_dirs") or ())
    return build_agy_argv(AgyInvocation(**fields))


# The whole argv per execution mode. Regression: build_agy_argv ignored execution_mode (only the legacy
# skip_permissions flag chose the flags), and no test asserted a whole argv, so nothing could notice.
_HEAD = ["/bin/agy", "--output-format", "stream-json", "--add-dir", "/work/p"]
_TAIL = ["--disable-slash-commands", "--print-timeout", "600s", "--print=do it"]


def test_build_argv_whole_list_when_the_mode_is_trusted():
    assert argv(execution_mode=ExecutionMode.TRUSTED) == [*_HEAD, "--dangerously-skip-permissions", *_TAIL]


def test_build_argv_whole_list_when_the_mode_is_safe_with_a_sandbox():
    assert argv(execution_mode=ExecutionMode.SAFE, sandbox=True) == [*_HEAD, "--sandbox", *_TAIL]


def test_build_argv_whole_list_when_the_mode_is_safe_without_a_sandbox():
    assert argv(execution_mode=ExecutionMode.SAFE) == [*_HEAD, *_TAIL]


def test_build_argv_whole_list_when_no_mode_is_set():
    assert argv() == [*_HEAD, *_TAIL]
    assert argv(skip_permissions=True) == [*_HEAD, "--dangerously-skip-permissions", *_TAIL]  # the legacy flag


def test_build_argv_whole_list_with_every_option_in_its_place():
    got = argv(execution_mode=ExecutionMode.SAFE, sandbox=True, conversation_id="c-1", model="m", effort="high",
               agent="a", extra_dirs=("/data/prompt",), log_file="/tmp/x.log", schema="{}")
    assert got == ["/bin/agy", "--output-format", "stream-json", "--json-schema", "{}", "--add-dir", "/work/p",
                   "--add-dir", "/data/prompt", "--conversation", "c-1", "--sandbox",
                   "--model", "m", "--effort", "high", "--agent", "a", "--disable-slash-commands",
                   "--print-timeout", "600s", "--log-file", "/tmp/x.log", "--print=do it"]


def test_build_argv_mode_wins_over_the_legacy_flag():
    assert argv(execution_mode=ExecutionMode.SAFE, skip_permissions=True) == [*_HEAD, *_TAIL]


def test_build_argv_prompt_is_last_and_bound_to_its_flag():
    got = argv(prompt="-p --output-format json")
    assert got[-1] == "--print=-p --output-format json"
    assert sum(a.startswith("--print=") or a == "-p" for a in got) == 1


def test_build_argv_default_mode_is_agys_own_policy_without_sandbox_or_skip():
    got = argv()
    assert got[:3] == ["/bin/agy", "--output-format", "stream-json"]
    assert "--mode" not in got and "--sandbox" not in got and "--dangerously-skip-permissions" not in got


@pytest.mark.parametrize("version, mode", [
    ((1, 3, 2), []), ((1, 2, 14), []), (None, []),  # agy's default request-review writes (agy-protocol.md §7.1)
    ((1, 2, 13), ["--mode", "accept-edits"]), ((1, 1, 12), ["--mode", "accept-edits"]),  # not measured: kept
])
def test_build_argv_safe_passes_accept_edits_only_below_1_2_14(version, mode):
    # Regression (issue 26): every safe run passed --mode accept-edits, which is no headless write grant, while
    # agy's default policy lets workspace edits through from 1.2.14.
    assert argv(version=version, execution_mode=ExecutionMode.SAFE, sandbox=True) == [*_HEAD, *mode, "--sandbox", *_TAIL]


def test_build_argv_trusted_skips_permissions_and_safe_sandboxes():
    trusted = argv(execution_mode=ExecutionMode.TRUSTED, skip_permissions=True)
    assert "--dangerously-skip-permissions" in trusted and "--mode" not in trusted and "--sandbox" not in trusted
    safe = argv(execution_mode=ExecutionMode.SAFE, sandbox=True)
    assert "--sandbox" in safe and "--dangerously-skip-permissions" not in safe and "--mode" not in safe


def test_build_argv_add_dir_is_absolute_and_repeated_per_dir():
    got = argv(extra_dirs=["/data/prompt"])
    pairs = [got[i + 1] for i, a in enumerate(got) if a == "--add-dir"]
    assert pairs == ["/work/p", "/data/prompt"]
    with pytest.raises(ValueError):
        argv(workspace="relative/path")


def test_build_argv_print_timeout_is_a_go_duration():
    got = argv(timeout_seconds=1800)
    assert got[got.index("--print-timeout") + 1] == "1800s"
    assert go_duration(0.2) == "1s"


def test_build_argv_conversation_model_effort_and_schema():
    got = argv(conversation_id="390dbd9d-ac3e-4fc9-9383-8f11318029e0", model="gemini-3.1-pro-low", effort="high",
               schema='{"type":"object"}', log_file="/tmp/x.log")
    assert got[got.index("--conversation") + 1] == "390dbd9d-ac3e-4fc9-9383-8f11318029e0"
    assert got[got.index("--model") + 1] == "gemini-3.1-pro-low"
    assert got[got.index("--effort") + 1] == "high"
    assert got[got.index("--json-schema") + 1] == '{"type":"object"}'
    assert got[got.index("--log-file") + 1] == "/tmp/x.log"


def test_build_argv_gates_flags_on_the_detected_version():
    old = argv(version=(1, 1, 4), effort="high", schema='{"type":"object"}')
    assert "--effort" not in old and "--disable-slash-commands" not in old and "--json-schema" not in old
    new = argv(version=(1, 1, 9), effort="high")
    assert "--effort" in new and "--disable-slash-commands" in new
    unknown = argv(version=None, effort="high")
    assert "--effort" in unknown
    assert not supports((1, 1, 7), "--output-format") and MIN_VERSION == (1, 1, 8)


def test_report_schema_root_is_a_plain_object_without_refs():
    schema = json.loads(report_schema())
    assert schema["type"] == "object" and "$ref" not in json.dumps(schema)
    assert {"summary", "files_changed"} <= set(schema["required"])


def test_parse_version_reads_agy_version_output():
    assert parse_version("1.1.12\n") == (1, 1, 12)
    assert parse_version("agy version 1.2.17 (abc)") == (1, 2, 17)
    assert parse_version("garbage") is None


def test_agy_fact_reads_version_once_from_agy(fp, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(reaper, "available", lambda: False)  # the bare argv: what pytest-subprocess matches
    agy = tmp_path / "agy"
    agy.write_text("#!/bin/sh\n", encoding="utf-8")
    agy.chmod(0o755)
    fp.register([str(agy), "--version"], stdout="1.1.12\n")
    assert agy_fact(Settings(data_dir=tmp_path, agy_bin=str(agy))) == (str(agy), "1.1.12")
    assert fp.call_count([str(agy), "--version"]) == 1


def test_agy_fact_when_version_command_fails(fp, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(reaper, "available", lambda: False)  # the bare argv: what pytest-subprocess matches
    agy = tmp_path / "agy"
    agy.write_text("#!/bin/sh\n", encoding="utf-8")
    agy.chmod(0o755)
    fp.register([str(agy), "--version"], returncode=2, stderr="flags provided but not defined: -version\n")
    assert agy_fact(Settings(data_dir=tmp_path, agy_bin=str(agy))) == (str(agy), None)


def test_read_version_asks_agy_once_per_binary_and_again_after_an_update(tmp_path: Path):
    # Broke: `agy --version` was probed three ways (serve start-up, every run's own cache, doctor).
    import os

    from fake_agy_harness import install_fake_agy, launches, success_scenario
    from relay.agy.command import read_version

    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    first = read_version(str(agy))
    assert first.version == (1, 2, 17) and read_version(str(agy)) == first
    assert [r["mode"] for r in launches(agy, print_mode_only=False)] == ["version"]
    stat = agy.stat()
    os.utime(agy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # what `agy update` does to the file
    assert read_version(str(agy)).version == (1, 2, 17)
    assert [r["mode"] for r in launches(agy, print_mode_only=False)] == ["version", "version"]


_HELPER_HOLDS_STDOUT = """\
import subprocess, sys, time
if sys.argv[1:] == ["--version"]:
    # A helper of agy's that inherits its stdout and outlives it: the probe never sees EOF.
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    open(sys.argv[0] + ".helper", "w").write(str(helper.pid))
    time.sleep(60)
"""


def test_read_version_timeout_kills_agy_and_a_helper_holding_its_stdout_and_returns_in_time(tmp_path: Path):
    # Broke: on a timeout the probe killed agy alone, then drained its pipes with no bound: a helper holding
    # stdout open hung the caller (serve's start-up, every run, doctor) for as long as the helper lived.
    import sys
    import threading
    import time

    import psutil

    from relay.agy.command import read_version

    agy = tmp_path / "agy"
    agy.write_text(f"#!{sys.executable}\n{_HELPER_HOLDS_STDOUT}", encoding="utf-8")
    agy.chmod(0o755)
    answers = []
    probe = threading.Thread(target=lambda: answers.append(read_version(str(agy), timeout=1.5)), daemon=True)
    started = time.monotonic()
    probe.start()
    probe.join(8.0)
    took = time.monotonic() - started
    helper = int((tmp_path / "agy.helper").read_text(encoding="utf-8")) if (tmp_path / "agy.helper").exists() else None

    def alive(pid: int | None) -> bool:
        try:
            return pid is not None and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    left = alive(helper)
    if left:  # never leave it behind, whatever the verdict
        psutil.Process(helper).kill()
    assert not probe.is_alive(), f"the probe still waits {took:.1f}s after a 1.5s timeout"
    assert answers and answers[0].version is None and answers[0].exit_code is None
    assert helper is not None and not left, "agy's helper survived the probe"


# --------------------------------------------------------------------------- whole argv per execution mode
# Through the relay (profile + call -> plan -> argv -> a real launch of the fake agy), so a mode that stopped
# reaching the command line (issue 11: build_agy_argv ignored execution_mode; only the plan's flags made it
# right) shows here, whatever the argv builder's signature becomes.

TRUSTED_PROFILES = {"trusted": {"execution_mode": "trusted"}, "legacy-skip": {"skip_permissions": True},
                    "safe": {"execution_mode": "safe"}}


def _relay_launch(tmp_path: Path, repo: Path, arguments: dict, *, version: str = "1.2.17",
                  continue_first: bool = False) -> tuple[list[str], str, dict]:
    """(argv agy received, the first attempt's log file, the packet)."""
    import anyio

    from conftest import payload
    from fake_agy_harness import install_fake_agy, launches, success_scenario
    from relay.call.orchestrate import Relay
    from relay.core.settings import load_settings
    from relay.doors.mcp_server import call_tool

    agy = install_fake_agy(tmp_path / "bin", success_scenario([], version=version))
    env = {"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path), "GRAVITY_RELAY_PROFILES": json.dumps(TRUSTED_PROFILES)}
    relay = Relay(load_settings(env), environ=env)

    async def run() -> dict:
        packet = payload(await call_tool(relay, "antigravity_execute", {"task": "do it", "workspace": str(repo),
                                                                          **({} if continue_first else arguments)}))
        if continue_first:
            packet = payload(await call_tool(relay, "antigravity_continue", {"run_id": packet["run_id"], **arguments}))
        return packet

    packet = anyio.run(run)
    assert packet["status"] == "SUCCESS", packet
    launch = launches(agy)[-1]
    assert launch["argv"][-1] == "--print=" + launch["prompt"] and arguments.get("feedback", "do it") in launch["prompt"]
    log_file = str(relay.store.log_path(packet["run_id"], 1))
    return launch["argv"], log_file, packet


def _expected(repo: Path, log_file: str, mode_flags: list[str], *, conversation: list[str] = (),
              timeout: str = "1800s", schema: bool = True, slash: bool = True) -> list[str]:
    return (["--output-format", "stream-json"] + (["--json-schema", report_schema()] if schema else [])
            + ["--add-dir", str(repo.resolve()), *conversation, *mode_flags]
            + (["--disable-slash-commands"] if slash else []) + ["--print-timeout", timeout, "--log-file", log_file])


# Each row is a whole run (the fake agy, git, the review: ~0.2 s of CPU). The fast tier keeps one row of each mode list
# agy can be given (none, --sandbox, --dangerously-skip-permissions); the rows that reach one of those lists another
# way (a profile, a legacy key, a call narrowing its profile) run in the process tier (conftest.py), which .ci/run runs
# next; the fast tier still launches agy for those ways: a legacy-key profile and one narrowed to safe with their whole
# argv (test_policy_bounds), each row of the trusted contract through both doors (test_trusted_contract).
_LATER = pytest.mark.process


@pytest.mark.parametrize(
    ("arguments", "mode_flags"),
    [
        ({}, []),  # no mode: agy's default request-review policy (1.2.14+: workspace edits go through)
        ({"execution_mode": "safe"}, ["--sandbox"]),
        pytest.param({"profile": "safe"}, ["--sandbox"], marks=_LATER),
        pytest.param({"sandbox": True}, ["--sandbox"], marks=_LATER),  # the legacy flag
        ({"profile": "trusted"}, ["--dangerously-skip-permissions"]),
        pytest.param({"profile": "trusted", "execution_mode": "trusted"}, ["--dangerously-skip-permissions"], marks=_LATER),
        pytest.param({"profile": "legacy-skip"}, ["--dangerously-skip-permissions"], marks=_LATER),  # the legacy profile key
        pytest.param({"profile": "trusted", "execution_mode": "safe"}, ["--sandbox"], marks=_LATER),  # narrowed
    ],
    ids=["default", "safe", "safe-profile", "legacy-sandbox", "trusted-profile", "trusted-call",
         "legacy-skip-profile", "trusted-profile-narrowed-to-safe"],
)
def test_relay_argv_is_exactly_the_modes_list(tmp_path, repo, arguments, mode_flags):
    got, log_file, _ = _relay_launch(tmp_path, repo, arguments)
    assert got[:-1] == _expected(repo, log_file, mode_flags)


def test_relay_argv_on_continue_names_the_conversation_before_the_mode(tmp_path, repo):
    got, _, packet = _relay_launch(tmp_path, repo, {"feedback": "again", "timeout_minutes": 5, "model": "m1"},
                                   continue_first=True)
    log_file = str(Path(tmp_path / "data" / "runs" / f"{packet['run_id']}.agy-1.log"))
    expected = _expected(repo, log_file, [],
                         conversation=["--conversation", packet["conversation_id"]], timeout="300s")
    expected[expected.index("--disable-slash-commands"):expected.index("--disable-slash-commands")] = ["--model", "m1"]
    assert got[:-1] == expected


def test_relay_argv_on_the_oldest_supported_agy_leaves_out_later_flags(tmp_path, repo):
    got, log_file, _ = _relay_launch(tmp_path, repo, {"execution_mode": "safe"}, version="1.1.8")
    assert got[:-1] == _expected(repo, log_file, ["--mode", "accept-edits", "--sandbox"], slash=False)


def test_build_argv_whole_lists_for_each_flag_combination():
    assert argv() == ["/bin/agy", "--output-format", "stream-json", "--add-dir", "/work/p",
                      "--disable-slash-commands", "--print-timeout", "600s", "--print=do it"]
    assert argv(execution_mode=ExecutionMode.SAFE, sandbox=True, schema="{}", log_file="/l") == [
        "/bin/agy", "--output-format", "stream-json", "--json-schema", "{}", "--add-dir", "/work/p",
        "--sandbox", "--disable-slash-commands", "--print-timeout", "600s",
        "--log-file", "/l", "--print=do it"]
    assert argv(execution_mode=ExecutionMode.TRUSTED, skip_permissions=True, conversation_id="c1", model="m",
                effort="high", agent="a", extra_dirs=["/d"]) == [
        "/bin/agy", "--output-format", "stream-json", "--add-dir", "/work/p", "--add-dir", "/d",
        "--conversation", "c1", "--dangerously-skip-permissions", "--model", "m", "--effort", "high",
        "--agent", "a", "--disable-slash-commands", "--print-timeout", "600s", "--print=do it"]
