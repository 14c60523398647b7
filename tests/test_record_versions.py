"""Run records across schema versions (issue 24).

Today's relay writes the grouped record (schema version 2, at most 12 top-level keys) and answers the
same packet bytes as the relay at 9159aac did for the same runs; and the records that relay wrote (schema
version 1, flat, in ``tests/fixtures/records_v1``, see ``tests/record_runs.py``) are still listed, shown,
diffed, reverted, applied, recovered and kept or removed by retention, by the same commands as before.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli_main
from git_repos import git, git_env, make_repo
from record_runs import ROOT, normalize, replay
from relay.core.contracts import RUN_RECORD_SCHEMA_VERSION, Status
from relay.core.settings import load_settings
from relay.call.recovery import recover_interrupted
from relay.runs.retention import apply_retention
from relay.runs.store import RunStore

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "records_v1"
PACKETS = json.loads((FIXTURES / "packets.json").read_text(encoding="utf-8"))
NAMES = ("success", "continued", "refused", "quota", "policy_revert", "verified", "worktree", "preview")
DEAD = "r20261201T090000-0000dead"


def _fixture(name: str, suffix: str, root: Path) -> str:
    return (FIXTURES / f"{name}{suffix}").read_text(encoding="utf-8").replace(ROOT, str(root))


_SMALL_EDIT_QUOTE = re.compile(r'(\(\+\d+/-\d+\)): [^"]*"')


def _run_ids() -> dict[str, str]:
    return {name: json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))["run_id"] for name in NAMES}


@pytest.mark.anyio
async def test_the_same_runs_answer_the_same_packet_bytes_as_before_the_grouped_record(tmp_path):
    root = tmp_path.resolve()
    answers = await replay(root)
    ids: dict[str, str] = {}
    got = {name: normalize(text, root, ids) for name, (text, _) in answers.items()}
    assert list(got) == list(PACKETS)
    for name in PACKETS:
        # A small edit's quote in a low file's reason ("edit (+1/-1): old → new", issue 36 round 12) is the ranking's
        # wording since, not the record's: the packets the old relay answered (below, shown from its records) lack it.
        assert _SMALL_EDIT_QUOTE.sub(r'\1"', got[name]) == PACKETS[name], name
    # ... while what they wrote is the grouped record.
    for name, (_, run_id) in answers.items():
        record = json.loads((root / "data" / "runs" / f"{run_id}.json").read_text(encoding="utf-8"))
        assert record["schema_version"] == RUN_RECORD_SCHEMA_VERSION == 2
        assert len(record) <= 12, sorted(record)
        assert set(record) == {"schema_version", "run_id", "tool", "state", "created_at", "request", "plan",
                               "process", "outcome", "observation", "isolation"}
        assert record["outcome"]["packet"]["status"] == record["outcome"]["status"], name


@pytest.fixture
def old_disk(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A data dir holding the version-1 records (and patches) of the fixture runs, their workspaces as the
    runs left them: the project with the in-place runs' changes, the isolated repository with its run's
    branch (its commits byte for byte, so the record's commit ids hold)."""
    root = tmp_path.resolve()
    runs = root / "data" / "runs"
    runs.mkdir(parents=True)
    ids = _run_ids()
    for name, run_id in ids.items():
        (runs / f"{run_id}.json").write_text(_fixture(name, ".json", root), encoding="utf-8")
        if (FIXTURES / f"{name}.patch").exists():
            (runs / f"{run_id}.patch").write_text(_fixture(name, ".patch", root), encoding="utf-8")
    project = make_repo(root / "project")
    for name in ("success", "continued", "verified"):  # what the in-place runs left in the project
        git(project, "apply", str(runs / f"{ids[name]}.patch"))
    iso = root / "iso"
    iso.mkdir()
    git(iso, "init", "-q", "-b", "main")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=iso, env=git_env(), check=True, capture_output=True,
                   input=(FIXTURES / "iso.fast-export").read_bytes())
    git(iso, "checkout", "-q", "-f", "main")
    return root, ids


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env["GRAVITY_RELAY_DATA_DIR"] = str(root / "data")
    return cli_main(list(args), env)


def test_version_1_records_are_listed_and_shown_as_before(old_disk):
    root, ids = old_disk
    listed = _cli(root, "runs", "list")
    assert listed.returncode == 0 and "UNREADABLE" not in listed.stdout, listed.stderr
    rows = {line.split()[0]: line for line in listed.stdout.splitlines() if line.startswith("r")}
    for name, run_id in ids.items():
        status = json.loads(PACKETS[name])["status"]
        assert status in rows[run_id], (name, rows.get(run_id))
    # `runs show` (antigravity_get_result) answers the packet the old relay answered, byte for byte.
    for name, run_id in ids.items():
        shown = _cli(root, "runs", "show", run_id)
        assert shown.returncode == 0, shown.stderr  # a view: it showed the run, whatever the run did
        assert normalize(shown.stdout.strip(), root, _words()) == PACKETS[name], name
    errors = json.loads(_cli(root, "runs", "show", ids["quota"], "--detail", "errors").stdout)
    assert errors["status"] == "QUOTA_EXHAUSTED" and errors["attempts"][0]["status"] == "QUOTA_EXHAUSTED"
    full = json.loads(_cli(root, "runs", "show", ids["continued"], "--detail", "full", "--max-chars", "100000").stdout)
    assert full["status"] == "SUCCESS" and full["request"]["parent_run_id"] == ids["success"]


def _words() -> dict[str, str]:
    """Each fixture run's real ids (run, conversation) -> the words its fixture packet says instead."""
    words: dict[str, str] = {}
    for name in NAMES:
        said = json.loads(PACKETS[name])
        real = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
        words[real["run_id"]] = said["run_id"]
        if said.get("conversation_id"):
            words[real["outcome"]["packet"]["conversation_id"] if "outcome" in real
                  else real["packet"]["conversation_id"]] = said["conversation_id"]
    return words


def test_version_1_records_are_diffed_and_reverted_as_before(old_disk):
    root, ids = old_disk
    diff = _cli(root, "runs", "diff", ids["success"])
    assert diff.returncode == 0 and "src/app.py" in diff.stdout and "compute(1)" in diff.stdout, diff.stderr
    reverted = _cli(root, "runs", "revert", ids["continued"], "--json")
    assert reverted.returncode == 0 and json.loads(reverted.stdout)["reverted"] is True, reverted.stdout
    assert "twice" not in (root / "project" / "src" / "new.py").read_text(encoding="utf-8")
    assert _cli(root, "runs", "revert", ids["verified"]).returncode == 0
    assert _cli(root, "runs", "revert", ids["success"]).returncode == 0
    assert git(root / "project", "status", "--porcelain") == ""  # back to the commit, byte for byte


def test_a_version_1_worktree_run_is_applied_as_before(old_disk):
    root, ids = old_disk
    applied = _cli(root, "runs", "apply", ids["worktree"])
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert json.loads(applied.stdout)["changes"]["files"] == ["src/iso.py"]
    assert (root / "iso" / "src" / "iso.py").read_text(encoding="utf-8") == "z = 3\n"
    # The record is written again, in today's shape, with when it was applied.
    record = json.loads((root / "data" / "runs" / f"{ids['worktree']}.json").read_text(encoding="utf-8"))
    assert record["schema_version"] == 2 and record["isolation"]["applied_at"]
    # A version-1 run that broke its policy is still refused.
    refused = _cli(root, "runs", "apply", ids["policy_revert"])
    assert refused.returncode == 1 and "ran in place" in refused.stdout


def test_a_version_1_record_of_a_dead_relay_is_recovered_and_retention_reads_the_old_records(old_disk):
    root, ids = old_disk
    runs = root / "data" / "runs"
    (runs / f"{DEAD}.json").write_text(_fixture("interrupted", ".json", root), encoding="utf-8")
    (runs / "active").mkdir()
    (runs / "active" / DEAD).touch()
    store = RunStore(runs)
    assert recover_interrupted(store) == [DEAD]
    recovered = store.read(DEAD)
    assert recovered.outcome.status is Status.INTERRUPTED and recovered.request.task == "A run whose relay died"
    assert json.loads((runs / f"{DEAD}.json").read_text(encoding="utf-8"))["schema_version"] == 2

    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(root / "data")})
    summary = apply_retention(settings, max_runs=3)
    kept = sorted(p.stem for p in runs.glob("r*.json"))
    assert len(kept) == 3 and len(summary.removed) == len(ids) + 1 - 3
    assert kept == sorted([*ids.values(), DEAD])[-3:]  # the newest, by id
    assert [p for r in summary.removed for p in runs.glob(f"{r.run_id}*")] == []


def test_a_version_1_record_reads_every_field_into_its_part():
    # Every v1 key lands somewhere: the upgrade is checked against the fixture's own keys.
    from relay.runs.record_v1 import RunRecordV1
    from relay.runs.store import decode_record

    for name in NAMES:
        data = (FIXTURES / f"{name}.json").read_bytes()
        old = json.loads(data)
        assert "schema_version" not in old  # version 1 never wrote it
        record = decode_record(data)
        flat = {}
        for part in ("request", "plan", "process", "outcome", "observation", "isolation"):
            for key, value in json.loads(json.dumps(_builtins(getattr(record, part)))).items():
                flat[{"source": "observation_source", "ms": "observation_ms"}.get(key, key)
                     if part == "observation" else key] = value
        for key in ("run_id", "tool", "state", "created_at"):
            flat[key] = getattr(record, key)
        assert set(old) <= set(flat), (name, set(old) - set(flat))
        assert {k: flat[k] for k in old} == old, name
        assert set(RunRecordV1.__struct_fields__) - {"schema_version"} <= set(flat) | set(_all_keys())


def _builtins(value):
    import msgspec

    return msgspec.to_builtins(value)


def _all_keys() -> set[str]:
    from relay.core.contracts import (RecordIsolation, RecordObservation, RecordOutcome, RecordPlan, RecordProcess,
                                      RecordRequest)

    keys = {"run_id", "tool", "state", "created_at", "observation_source", "observation_ms"}
    for part in (RecordRequest, RecordPlan, RecordProcess, RecordOutcome, RecordObservation, RecordIsolation):
        keys |= set(part.__struct_fields__)
    return keys
