"""Retention by count, age and size: real run records in a temp data dir, the real cleanup command."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest

from relay.core.contracts import RecordOutcome, RecordRequest, RunRecord, Status
from relay.runs.retention import apply_retention, human_bytes, parse_size
from relay.core.settings import Settings, load_settings
from relay.runs.store import RunStore

NOW = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.timezone.utc)


def make_run(store: RunStore, *, days_ago: float, n: int = 0, state: str = "finished", transcript: int = 0,
             log: bool = False, prompt_dir: bool = False) -> str:
    created = NOW - dt.timedelta(days=days_ago)
    run_id = f"r{created:%Y%m%dT%H%M%S}-{n:08x}"
    record = RunRecord(run_id=run_id, created_at=created.isoformat().replace("+00:00", "Z"), state=state,
                       outcome=RecordOutcome(status=None if state == "running" else Status.SUCCESS),
                       request=RecordRequest(task="t"))
    if state == "running":
        # Owned by a live relay (this test process, identity recorded): cleanup first finishes runs of dead relays.
        from relay.core.platform import own_stamp

        record.process.relay_pid, record.process.relay_stamp = os.getpid(), own_stamp()
    store.write(record)
    if transcript:
        store.transcript_path(run_id).write_bytes(b"x" * transcript)
    if log:
        store.log_path(run_id).write_text("agy log\n", encoding="utf-8")
    if prompt_dir:
        folder = store.runs_dir / f"{run_id}.prompt"
        folder.mkdir()
        (folder / "TASK.md").write_text("a long task\n", encoding="utf-8")
    if state == "running":
        store.mark_active(run_id)
    return run_id


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def store(settings: Settings) -> RunStore:
    store = RunStore(settings.runs_dir)
    store.ensure()
    return store


def ids_on_disk(store: RunStore) -> list[str]:
    return sorted(store.iter_ids())


def test_retention_keeps_the_newest_runs_up_to_max_runs(settings, store):
    ids = [make_run(store, days_ago=d, n=d) for d in range(5)]  # ids[0] is the newest
    summary = apply_retention(settings, max_runs=2, max_age_days=0, max_size_bytes=0, now=NOW)
    assert ids_on_disk(store) == sorted(ids[:2])
    assert [r.run_id for r in summary.removed] == [ids[4], ids[3], ids[2]]  # oldest first
    assert all(r.reason == "beyond the newest 2 runs" for r in summary.removed)
    assert summary.kept_runs == 2


def test_retention_removes_runs_older_than_max_age_days(settings, store):
    young = make_run(store, days_ago=1, n=1)
    old = make_run(store, days_ago=40, n=2, transcript=100)
    summary = apply_retention(settings, max_runs=0, max_age_days=30, max_size_bytes=0, now=NOW)
    assert ids_on_disk(store) == [young]
    assert [r.run_id for r in summary.removed] == [old]
    assert summary.removed[0].reason == "older than 30 days"
    assert not store.transcript_path(old).exists()


def test_retention_removes_the_oldest_runs_until_the_total_fits(settings, store):
    ids = [make_run(store, days_ago=d, n=d, transcript=10_000) for d in range(4)]
    per_run = sum(p.stat().st_size for p in store.run_files(ids[0]))
    summary = apply_retention(settings, max_runs=0, max_age_days=0, max_size_bytes=int(per_run * 2.5), now=NOW)
    assert ids_on_disk(store) == sorted(ids[:2])
    assert summary.freed_bytes == sum(r.bytes for r in summary.removed) >= 2 * 10_000
    assert summary.kept_bytes <= per_run * 2.5
    assert all(r.reason.startswith("total over") for r in summary.removed)


def test_retention_never_removes_a_run_that_is_still_running(settings, store):
    running = make_run(store, days_ago=400, n=1, state="running", transcript=50_000)
    done = make_run(store, days_ago=400, n=2, transcript=50_000)
    summary = apply_retention(settings, max_runs=1, max_age_days=1, max_size_bytes=1, now=NOW)
    assert ids_on_disk(store) == [running]
    assert store.transcript_path(running).exists()
    assert summary.running == [running]
    assert [r.run_id for r in summary.removed] == [done]


def test_retention_also_spares_a_run_whose_active_marker_is_still_there(settings, store):
    run_id = make_run(store, days_ago=400, n=1)
    store.mark_active(run_id)  # a record written as finished but its marker not yet cleared
    apply_retention(settings, max_age_days=1, now=NOW)
    assert ids_on_disk(store) == [run_id]


def test_retention_removes_every_file_of_a_run_including_its_prompt_folder(settings, store):
    run_id = make_run(store, days_ago=100, n=1, transcript=10, log=True, prompt_dir=True)
    files = store.run_files(run_id)
    assert len(files) == 3
    summary = apply_retention(settings, max_age_days=30, now=NOW)
    assert sorted(summary.removed[0].files) == sorted([*map(str, files), str(store.runs_dir / f"{run_id}.prompt")])
    assert list(store.runs_dir.iterdir()) == [store.runs_dir / "active"] or not any(
        p.name.startswith(run_id) for p in store.runs_dir.iterdir())


def test_run_files_does_not_list_a_symlink_planted_in_the_runs_dir(tmp_path, settings, store):
    # run_files used is_file(), which follows links: a link named like a run's log was listed (and its
    # target's size counted) as the run's own file. Retention then removes the link, never its target.
    run_id = make_run(store, days_ago=100, n=1, transcript=10)
    outside = tmp_path / "outside.txt"
    outside.write_text("not the relay's\n", encoding="utf-8")
    store.log_path(run_id).symlink_to(outside)
    assert store.run_files(run_id) == [store.record_path(run_id), store.transcript_path(run_id)]
    apply_retention(settings, max_age_days=30, now=NOW)
    assert outside.read_text(encoding="utf-8") == "not the relay's\n" and not store.log_path(run_id).is_symlink()


def test_retention_dry_run_reports_the_same_and_removes_nothing(settings, store):
    for d in range(4):
        make_run(store, days_ago=d * 20, n=d, transcript=1000)
    before = sorted(p.name for p in store.runs_dir.rglob("*"))
    dry = apply_retention(settings, max_runs=3, max_age_days=30, dry_run=True, now=NOW)
    assert sorted(p.name for p in store.runs_dir.rglob("*")) == before
    real = apply_retention(settings, max_runs=3, max_age_days=30, now=NOW)
    assert [(r.run_id, r.reason, r.bytes) for r in dry.removed] == [(r.run_id, r.reason, r.bytes) for r in real.removed]
    assert dry.freed_bytes == real.freed_bytes > 0


def test_retention_limit_of_zero_turns_that_rule_off(settings, store):
    for d in range(3):
        make_run(store, days_ago=1000 + d, n=d, transcript=10_000)
    summary = apply_retention(settings, max_runs=0, max_age_days=0, max_size_bytes=0, now=NOW)
    assert summary.removed == [] and len(ids_on_disk(store)) == 3


def test_retention_treats_a_transcript_without_its_record_as_a_run(settings, store):
    orphan = "r20200101T000000-0000abcd"
    (store.runs_dir / f"{orphan}.ndjson").write_bytes(b"{}\n" * 100)
    summary = apply_retention(settings, max_age_days=30, now=NOW)
    assert [r.run_id for r in summary.removed] == [orphan]
    assert not (store.runs_dir / f"{orphan}.ndjson").exists()


def test_retention_leaves_temp_files_locks_and_markers_alone(settings, store):
    make_run(store, days_ago=100, n=1)
    tmp = store.runs_dir / ".r20200101T000000-0000abcd.json.x.tmp"
    tmp.write_text("in flight", encoding="utf-8")
    (settings.data_dir / "locks").mkdir()
    (settings.data_dir / "locks" / "worker.lock").write_text("", encoding="utf-8")
    (store.runs_dir / "notes.txt").write_text("mine", encoding="utf-8")
    (store.runs_dir / "active").mkdir()
    apply_retention(settings, max_runs=0, max_age_days=1, max_size_bytes=1, now=NOW)
    assert tmp.exists() and (settings.data_dir / "locks" / "worker.lock").exists()
    assert (store.runs_dir / "notes.txt").exists() and (store.runs_dir / "active").is_dir()


def test_retention_of_a_missing_runs_folder_is_an_empty_summary(tmp_path):
    summary = apply_retention(Settings(data_dir=tmp_path / "nothing-here"), now=NOW)
    assert summary.removed == [] and summary.kept_runs == 0
    assert not (tmp_path / "nothing-here").exists()


def test_retention_defaults_come_from_the_settings_environment(tmp_path):
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "d"), "GRAVITY_RELAY_MAX_RUNS": "2",
                              "GRAVITY_RELAY_MAX_AGE_DAYS": "7", "GRAVITY_RELAY_MAX_SIZE": "1MB"})
    store = RunStore(settings.runs_dir)
    ids = [make_run(store, days_ago=d, n=d) for d in (0, 1, 2, 10)]
    summary = apply_retention(settings, now=NOW)
    assert (summary.max_runs, summary.max_age_days, summary.max_size_bytes) == (2, 7.0, 1024 * 1024)
    assert ids_on_disk(store) == sorted(ids[:2])
    assert {r.run_id: r.reason for r in summary.removed} == {ids[2]: "beyond the newest 2 runs",
                                                            ids[3]: "beyond the newest 2 runs"}


@pytest.mark.parametrize("text,expected", [("500MB", 500 * 1024**2), ("2G", 2 * 1024**3), ("1.5GiB", int(1.5 * 1024**3)),
                                           ("1024", 1024**3), ("4096B", 4096), ("0", 0), ("10kb", 10 * 1024)])
def test_parse_size_understands_units(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["lots", "1e9", "-5", "inf", "nan", "9" * 400, "5 PB"])
def test_parse_size_refuses_what_it_does_not_understand_or_what_is_absurd(text):
    with pytest.raises(ValueError, match="500MB"):
        parse_size(text)


def test_parse_size_refuses_what_it_does_not_understand():
    with pytest.raises(ValueError, match="500MB"):
        parse_size("lots")


@pytest.mark.anyio
async def test_retain_in_background_trims_with_the_settings_limits(tmp_path):
    from relay.runs.retention import retain_in_background

    settings = Settings(data_dir=tmp_path / "data", max_runs=1, max_age_days=0, max_size_bytes=0)
    store = RunStore(settings.runs_dir)
    ids = [make_run(store, days_ago=d, n=d) for d in range(3)]
    summary = await retain_in_background(settings)
    assert summary is not None and len(summary.removed) == 2
    assert ids_on_disk(store) == [ids[0]]


@pytest.mark.anyio
async def test_retain_in_background_logs_a_failure_and_never_raises(tmp_path, monkeypatch, caplog):
    import relay.runs.retention as retention

    def broken(settings):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(retention, "apply_retention", broken)
    assert await retention.retain_in_background(Settings(data_dir=tmp_path)) is None
    assert "retention at start-up skipped" in caplog.text


# --------------------------------------------------------------------------- the command


def run_cli(*args: str, data_dir: Path) -> subprocess.CompletedProcess:
    """`gravity-relay ARGS` as conftest.cli_main runs it (cli.main in this process, exactly this environment): these
    tests read what the command prints and returns, not the process (a Python start-up each, ~0.2 s of CPU, proved
    nothing more; the shell door as a real process is test_cli_parity's and test_doctor's)."""
    from conftest import cli_main

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env["GRAVITY_RELAY_DATA_DIR"] = str(data_dir)
    return cli_main(list(args), env)


def test_cleanup_command_prints_what_it_removed_and_the_bytes_freed(settings, store):
    old = make_run(store, days_ago=400, n=1, transcript=4096, log=True)
    young = make_run(store, days_ago=0.01, n=2)
    size = human_bytes(sum(p.stat().st_size for p in store.run_files(old)))
    got = run_cli("cleanup", "--max-age-days", "30", data_dir=settings.data_dir)
    assert got.returncode == 0, got.stderr
    assert f"removed {old}  older than 30 days  (3 file(s), {size})" in got.stdout
    assert str(store.transcript_path(old)) in got.stdout
    assert f"freed {size} (1 run(s)); kept 1 run(s)" in got.stdout
    assert ids_on_disk(store) == [young]


def test_cleanup_command_dry_run_says_would_and_keeps_everything(settings, store):
    old = make_run(store, days_ago=400, n=1)
    got = run_cli("cleanup", "--dry-run", data_dir=settings.data_dir)
    assert got.returncode == 0, got.stderr
    assert f"would remove {old}" in got.stdout and "would free" in got.stdout
    assert ids_on_disk(store) == [old]


def test_cleanup_command_takes_max_size_with_units_and_reports_json(settings, store):
    for d in range(3):
        make_run(store, days_ago=d, n=d, transcript=3000)
    got = run_cli("cleanup", "--max-size", "5KB", "--max-age-days", "0", "--json", data_dir=settings.data_dir)
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    assert doc["max_size_bytes"] == 5 * 1024 and doc["dry_run"] is False
    assert len(doc["removed"]) == 2 and doc["kept_runs"] == 1 and doc["kept_bytes"] <= 5 * 1024
    assert doc["freed_bytes"] == sum(r["bytes"] for r in doc["removed"])


def test_cleanup_command_refuses_a_size_it_cannot_read(settings):
    got = run_cli("cleanup", "--max-size", "huge", data_dir=settings.data_dir)
    assert got.returncode == 2 and "500MB" in got.stderr


def test_cleanup_command_leaves_a_running_run_and_says_so(settings, store):
    running = make_run(store, days_ago=400, n=1, state="running")
    got = run_cli("cleanup", "--max-age-days", "1", data_dir=settings.data_dir)
    assert got.returncode == 0
    assert f"left alone, still running: {running}" in got.stdout
    assert ids_on_disk(store) == [running]


# `serve` started as a process, its start-up being the point: the process tier (tests/conftest.py).
@pytest.mark.process
@pytest.mark.anyio
async def test_serve_applies_retention_in_the_background_at_start_up(settings, store, tmp_path):
    from conftest import relay_env, stdio_relay

    old = [make_run(store, days_ago=400 + d, n=d) for d in range(3)]
    env = relay_env(settings.data_dir, None, GRAVITY_RELAY_MAX_AGE_DAYS="30")
    async with stdio_relay(env) as client:
        assert (await client.list_tools()).tools
        import anyio

        for _ in range(600):  # up to a minute: a bound for a broken retention, not a timing expectation
            if not any(store.record_path(r).exists() for r in old):
                break
            await anyio.sleep(0.1)
    assert ids_on_disk(store) == []


# --------------------------------------------------------------------------- typos must not cost the history


@pytest.mark.anyio
async def test_retain_in_background_with_a_bare_max_size_keeps_every_record(tmp_path):
    # Regression (issue 13, item 2): GRAVITY_RELAY_MAX_SIZE=500 was read as 500 bytes and the
    # next start deleted every run record. A bare number is megabytes now.
    from relay.runs.retention import retain_in_background

    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "GRAVITY_RELAY_MAX_SIZE": "500"})
    assert settings.max_size_bytes == 500 * 1024**2 and settings.problems == []
    store = RunStore(settings.runs_dir)
    ids = [make_run(store, days_ago=d / 24, n=d, transcript=2000) for d in range(12)]
    summary = await retain_in_background(settings)
    assert summary is not None and summary.removed == []
    assert ids_on_disk(store) == sorted(ids)


@pytest.mark.anyio
async def test_retain_in_background_refuses_to_remove_most_records_and_says_so(tmp_path, caplog):
    # A limit that would remove more than half of the history at start-up is a typo until the
    # operator says otherwise: nothing is removed, a WARNING names the limits and the fix.
    from relay.runs.retention import GUARD_MIN_RUNS, retain_in_background

    settings = Settings(data_dir=tmp_path / "data", max_runs=2, max_age_days=0, max_size_bytes=0)
    store = RunStore(settings.runs_dir)
    ids = [make_run(store, days_ago=d / 24, n=d) for d in range(GUARD_MIN_RUNS + 2)]
    summary = await retain_in_background(settings)
    assert summary is not None and summary.removed == [] and summary.withheld
    assert ids_on_disk(store) == sorted(ids)
    warning = [r for r in caplog.records if r.levelname == "WARNING" and "retention" in r.getMessage()]
    assert warning and "GRAVITY_RELAY_MAX_RUNS=2" in warning[0].getMessage()
    assert f"remove {GUARD_MIN_RUNS} of {GUARD_MIN_RUNS + 2} runs" in warning[0].getMessage()
    assert "gravity-relay cleanup" in warning[0].getMessage()


def test_apply_retention_asked_for_on_purpose_removes_most_records_after_a_warning(settings, store, caplog):
    ids = [make_run(store, days_ago=d / 24, n=d) for d in range(12)]
    summary = apply_retention(settings, max_runs=2, max_age_days=0, max_size_bytes=0, now=NOW)
    assert summary.withheld is None and len(summary.removed) == 10
    assert ids_on_disk(store) == sorted(ids[:2])
    assert any(r.levelname == "WARNING" and "removing 10 of 12 runs" in r.getMessage() for r in caplog.records)


@pytest.mark.anyio
async def test_retention_removes_a_runs_kept_trees_and_their_objects_with_its_record(tmp_path):
    # Issue 23: a run's before and after trees (a private index and object store, runs/<id>.trees/) are kept so a
    # crashed run can be diffed, reverted and applied; they must go with the run, not pile up beside the records.
    from conftest import make_repo, memory_relay, payload, relay_env
    from fake_agy_harness import install_fake_agy, set_scenario, success_scenario

    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "a\n"}]))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    ids = []
    async with memory_relay(env) as client:
        for i, profile in enumerate(("iso", None)):  # a worktree run (its after tree kept too), then one in place
            set_scenario(agy, success_scenario([{"op": "write", "path": f"f{i}.txt", "content": f"{i}\n"}]))
            args = {"task": "t", "workspace": str(repo), **({"profile": profile} if profile else {})}
            ids.append(payload(await client.call_tool("antigravity_execute", args))["run_id"])
    runs = tmp_path / "data" / "runs"
    first = runs / f"{ids[0]}.trees"
    assert (first / "after.json").is_file() and any(p.is_file() for p in (first / "objects").rglob("*")), sorted(first.rglob("*"))
    older, newer = sorted(ids)  # by the id (its second, then its random part): both may start in one second
    summary = apply_retention(load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")}), max_runs=1)
    assert [r.run_id for r in summary.removed] == [older] and summary.errors == []
    assert str(runs / f"{older}.trees") in summary.removed[0].files
    assert not [p for p in runs.iterdir() if p.name.startswith(older)]  # record, patch, trees: all gone
    assert (runs / f"{newer}.trees" / "snapshot.json").is_file()  # the kept run keeps its trees
