"""``gravity-relay demo`` and its scripted worker: real subprocesses, a real relay run, a real record."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import msgspec
import pytest

from conftest import cli_main
from relay.core.contracts import Packet, RunRecord, WorkerReport
from relay.demo.run import DEMO_TASK, install_demo_worker, make_demo_repo

WORKER = Path(__file__).resolve().parent.parent / "relay" / "demo" / "worker.py"


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    data, scratch = tmp_path / "data", tmp_path / "scratch"
    scratch.mkdir()
    # What TMPDIR is to a new process; tempfile has read TMPDIR already in this one.
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    return data, scratch


@pytest.fixture(scope="module")
def json_demo(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path, Path]:
    """One `gravity-relay demo --json` in data and scratch dirs of its own, read by the three tests that each ran
    the same command before (a whole delegation: the demo worker, git, the review, ~0.35 s of CPU): what it printed,
    the record it left and `runs show` of it. conftest.ONE_UNIT_FILES keeps this file on one xdist worker, so it runs
    once. Nothing else writes into its dirs: the tests read them."""
    root = tmp_path_factory.mktemp("json_demo")
    data, scratch = root / "data", root / "scratch"
    scratch.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(scratch))
        return run_demo("--json", data_dir=data, tmpdir=scratch), data, scratch


def run_demo(*args: str, data_dir: Path, tmpdir: Path) -> subprocess.CompletedProcess:
    """`gravity-relay demo ARGS` by cli.main in this process (the demo's worker, git and relay run as they would).
    The last test of the file runs it as a real process, with no git on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"GRAVITY_RELAY_DATA_DIR": str(data_dir), "TMPDIR": str(tmpdir)})
    return cli_main(["demo", *args], env)


def test_demo_json_prints_only_the_packet_of_a_successful_reviewed_run(json_demo):
    got, _, _ = json_demo
    assert got.returncode == 0, got.stderr
    assert got.stdout.count("\n") == 1
    packet = msgspec.json.decode(got.stdout, type=Packet)
    assert packet.ok and packet.status.value == "SUCCESS"
    assert packet.changes.files == ["greet.py", "tests/test_greet.py"]
    assert packet.changes.source == "git"
    assert {t.file for t in packet.changes.review} == {"greet.py", "tests/test_greet.py"}
    # The relay ran the profile's verification: 2 tests, measured, not the worker's word.
    assert (packet.tests.passed, packet.tests.failed, packet.tests.source) == (2, 0, "measured")


def test_demo_leaves_only_its_run_record_and_marks_it_as_a_demo(json_demo):
    got, data, scratch = json_demo
    packet = json.loads(got.stdout)
    assert list(scratch.iterdir()) == []  # temp repo and the worker's wrapper are gone
    runs = data / "runs"
    names = sorted(p.name for p in runs.iterdir() if p.is_file())
    assert all(name.startswith(packet["run_id"]) for name in names)
    assert f"{packet['run_id']}.json" in names and f"{packet['run_id']}.ndjson" in names
    assert list((runs / "active").iterdir()) == []
    record = msgspec.json.decode((runs / f"{packet['run_id']}.json").read_bytes(), type=RunRecord)
    assert record.tool == "demo" and record.state == "finished" and record.request.task == DEMO_TASK
    assert msgspec.to_builtins(record.outcome.packet) == packet
    assert record.plan.agy_version == "1.2.17"
    assert [c.path for c in record.observation.changes] == ["greet.py", "tests/test_greet.py"]
    assert record.process.report is not None and record.process.report.files_changed == ["greet.py", "tests/test_greet.py"]


def test_demo_prints_the_packet_and_the_bytes_the_leader_did_not_read(dirs):
    data, scratch = dirs
    got = run_demo(data_dir=data, tmpdir=scratch)
    assert got.returncode == 0, got.stderr
    out = got.stdout
    start = out.index("review packet (what the leader reads):\n") + len("review packet (what the leader reads):\n")
    end = out.index("\n}\n", start) + 2
    packet = json.loads(out[start:end])
    run_id = packet["run_id"]
    transcript = data / "runs" / f"{run_id}.ndjson"
    compact = json.dumps(packet, separators=(",", ":"), ensure_ascii=False).encode()
    match = re.search(r"The worker streamed ([\d,]+) bytes of NDJSON; the leader read a ([\d,]+)-byte packet "
                      r"instead: ([\d,]+) bytes it did not have to read", out)
    assert match, out
    streamed, read, saved = (int(g.replace(",", "")) for g in match.groups())
    assert streamed == transcript.stat().st_size
    assert read == len(compact)
    assert saved == streamed - read > 0
    assert f"Run record: {data / 'runs' / (run_id + '.json')}" in out
    assert f"gravity-relay runs show {run_id}" in out
    assert "agy started" in got.stderr  # progress goes to stderr, never into the answer
    # Issue 29: the review read a leader reads next, measured, and no bigger than the 890 bytes it was.
    view = re.search(rf"its review read, the targets' changed lines \(([\d,]+) bytes; detail=\"diff\"\): "
                     rf"gravity-relay runs diff {run_id}\n", out)
    assert view, out
    shown = cli_main(["runs", "diff", run_id], {"GRAVITY_RELAY_DATA_DIR": str(data), "PATH": os.environ["PATH"]})
    assert int(view[1].replace(",", "")) == len(shown.stdout.encode()) < 890


def test_demo_run_is_readable_with_runs_show_like_any_other_run(json_demo):
    got, data, _ = json_demo
    packet = json.loads(got.stdout)
    shown = cli_main(["runs", "show", packet["run_id"]], {**os.environ, "GRAVITY_RELAY_DATA_DIR": str(data)})
    assert json.loads(shown.stdout) == packet


# --------------------------------------------------------------------------- the scripted worker


def worker(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(WORKER), *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, cwd=cwd, encoding="utf-8")


def test_demo_worker_answers_version_help_and_models_like_agy():
    version = worker("--version")
    assert (version.returncode, version.stdout) == (0, "1.2.17\n")
    helped = worker("--help")
    assert helped.returncode == 0 and helped.stdout == "" and "Usage: agy" in helped.stderr
    models = worker("models")
    assert models.returncode == 0
    assert models.stderr == "Fetching available models...\n"
    assert all(len(line.split("\t")) == 2 for line in models.stdout.splitlines())


def test_demo_worker_rejects_an_unknown_flag_with_exit_two_like_go():
    got = worker("--name", "x", "-p", "hi")
    assert got.returncode == 2
    assert got.stderr.startswith("flags provided but not defined: -name\n")


def _events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_demo_worker_streams_init_steps_and_a_result_with_a_valid_worker_report(tmp_path):
    from relay.agy.command import report_schema

    repo = tmp_path / "greeter"
    repo.mkdir()
    make_demo_repo(repo)
    log = tmp_path / "agy.log"
    got = worker("--output-format", "stream-json", "--json-schema", report_schema(), "--add-dir", str(repo),
                 "--mode", "accept-edits", "--log-file", str(log), f"--print={DEMO_TASK}", cwd=repo)
    assert got.returncode == 0, got.stderr
    events = _events(got.stdout)
    assert events[0]["event"] == "init" and events[-1]["event"] == "result"
    assert all(e["event"] == "step_update" for e in events[1:-1])
    cid = events[0]["conversation_id"]
    assert all(e["step_update"]["conversation_id"] == cid for e in events[1:-1])
    tools = [e["step_update"] for e in events if e["event"] == "step_update" and e["step_update"]["step_type"] == "tool"]
    assert {t["tool_name"] for t in tools if t["state"] == "DONE"} == {"view_file", "replace_file_content"}
    assert "run_command" not in {t["tool_name"] for t in tools}  # accept-edits: no command
    result = events[-1]["result"]
    assert list(result)[:3] == ["conversation_id", "status", "response"]
    assert result["status"] == "SUCCESS" and result["conversation_id"] == cid
    report = msgspec.convert(result["structured_output"], WorkerReport)
    assert report.files_changed == ["greet.py", "tests/test_greet.py"] and report.tests_run is False
    text = "".join(e["step_update"].get("text_delta", "") for e in events
                   if e["event"] == "step_update" and e["step_update"]["step_type"] == "agent_response")
    assert result["response"].strip() in text
    assert "shout: bool = False" in (repo / "greet.py").read_text(encoding="utf-8")
    assert "test_shouts_when_asked" in (repo / "tests" / "test_greet.py").read_text(encoding="utf-8")
    assert "print mode" in log.read_text(encoding="utf-8")


def test_demo_worker_runs_the_tests_only_when_permissions_are_skipped(tmp_path):
    repo = tmp_path / "greeter"
    repo.mkdir()
    make_demo_repo(repo)
    got = worker("--output-format", "stream-json", "--json-schema", '{"type":"object"}', "--add-dir", str(repo),
                 "--dangerously-skip-permissions", "-p", DEMO_TASK)
    events = _events(got.stdout)
    commands = [e["step_update"] for e in events if e["event"] == "step_update"
                and e["step_update"].get("tool_name") == "run_command" and e["step_update"]["state"] == "DONE"]
    assert len(commands) == 1
    report = events[-1]["result"]["structured_output"]
    assert (report["tests_passed"], report["tests_failed"], report["tests_run"]) == (2, 0, True)
    assert not list(repo.rglob("__pycache__"))


def test_demo_worker_continues_a_conversation_it_is_given(tmp_path):
    repo = tmp_path / "greeter"
    repo.mkdir()
    make_demo_repo(repo)
    cid = "5b0c7c36-1111-4a4a-9d9d-222233334444"
    got = worker("--output-format", "stream-json", "--add-dir", str(repo), "--conversation", cid,
                 "--print=Also note the change in NOTES.md")
    events = _events(got.stdout)
    assert events[0]["conversation_id"] == cid and events[-1]["result"]["conversation_id"] == cid
    assert events[-1]["result"]["num_turns"] == 2
    assert "Also note the change" in (repo / "NOTES.md").read_text(encoding="utf-8")


def test_demo_wrapper_is_an_executable_that_runs_the_worker(tmp_path):
    wrapper = install_demo_worker(tmp_path / "bin")
    assert os.access(wrapper, os.X_OK)
    got = subprocess.run([str(wrapper), "--version"], capture_output=True, text=True, timeout=30,
                         stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"}, encoding="utf-8")
    assert got.stdout == "1.2.17\n"


def test_demo_without_git_observes_the_change_from_a_file_tree_snapshot(dirs):
    data, scratch = dirs
    env = {"HOME": str(scratch), "GRAVITY_RELAY_DATA_DIR": str(data), "TMPDIR": str(scratch), "PATH": "/nonexistent"}
    got = subprocess.run([sys.executable, "-m", "relay", "demo", "--json"], env=env, capture_output=True, text=True,
                         timeout=180, stdin=subprocess.DEVNULL, encoding="utf-8")
    assert got.returncode == 0, got.stderr
    packet = json.loads(got.stdout)
    assert packet["changes"]["source"] == "tree"
    assert packet["changes"]["files"] == ["greet.py", "tests/test_greet.py"]


def test_demo_worker_on_windows_is_the_script_itself_never_a_batch_file(tmp_path):
    # Broke: on Windows the demo wrote bin\agy.cmd, a batch file that cmd.exe runs: it cut the task's prompt at its
    # first newline and expanded %VAR% in it (issue 37, W7). Now the worker script, run with the relay's interpreter.
    from relay.agy.executable import agy_command

    agy = install_demo_worker(tmp_path / "bin", windows=True)
    assert agy.suffix == ".py" and not list((tmp_path / "bin").iterdir())
    got = subprocess.run([*agy_command(str(agy)), "--version"], capture_output=True, text=True, timeout=30,
                         stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"}, encoding="utf-8")
    assert got.stdout == "1.2.17\n"
