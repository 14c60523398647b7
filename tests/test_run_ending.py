"""A run ends in one place (issue 38, §2): a run whose relay died is ended by the same ``finish`` as every run.

Recovery once built its own INTERRUPTED record and packet: it kept the dead relay's last progress line as where
the finished run "is", and flagged the policy in its own words. Here a recovered record is compared with the
record ``finish`` writes for the same ending, field by field.
"""

from __future__ import annotations

import subprocess
import sys

import msgspec

from git_repos import make_repo


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _running(run_id: str, repo, head: str):
    from relay.core.contracts import RecordObservation, RecordPlan, RecordProcess, RecordRequest, RunRecord

    return RunRecord(run_id=run_id, created_at="2026-11-30T10:00:00.000000Z",
                     request=RecordRequest(task="add the generated files"),
                     plan=RecordPlan(workspace=str(repo), protected=["gen/00.txt"]),
                     process=RecordProcess(relay_pid=_dead_pid(), where="running · step 3"),
                     observation=RecordObservation(before_head=head))


def _comparable(record) -> dict:
    data = msgspec.to_builtins(record)
    data["outcome"].pop("finished_at")
    return data


def test_recovery_ends_a_dead_relays_run_with_the_record_finish_writes_for_the_same_ending(tmp_path):
    from relay.agy.classify import Verdict
    from relay.call.finish import Ending, finish
    from relay.call.recovery import recover_run
    from relay.core.contracts import Changes, Status
    from relay.runs.store import RunStore

    repo = make_repo(tmp_path / "project")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, encoding="utf-8").stdout.strip()
    (repo / "gen").mkdir()
    for n in range(15):  # what the worker wrote before its relay died
        (repo / "gen" / f"{n:02}.txt").write_text(f"{n}\n", encoding="utf-8")
    run_id = "r20261130T100000-0000000a"
    recovered = RunStore(tmp_path / "a" / "runs")
    recovered.ensure()
    recovered.write(_running(run_id, repo, head))
    recovered.mark_active(run_id)
    assert recover_run(recovered, run_id)
    got = recovered.read(run_id)

    # The same ending, handed to finish: the error recovery said, what git showed, the one flag it adds.
    files = [f"gen/{n:02}.txt" for n in range(15)]
    direct = RunStore(tmp_path / "b" / "runs")
    direct.ensure()
    record = _running(run_id, repo, head)
    record.process.relay_pid = got.process.relay_pid
    record.observation.changes = got.observation.changes
    record.outcome.violation = got.outcome.violation
    error = got.outcome.error
    finish(direct, record, Ending(verdict=Verdict(status=Status.INTERRUPTED, message=error.message, hint=error.hint),
                                  changes=Changes(count=15, files=files, source="git"), state="interrupted",
                                  flags=["observed at recovery with git: 15 path(s) changed since the run started"]))
    assert _comparable(got) == _comparable(direct.read(run_id))

    packet = got.outcome.packet
    assert got.state == "interrupted" and packet.status is Status.INTERRUPTED and got.process.where is None
    assert packet.changes.count == 15 and packet.changes.files == files
    assert packet.flags[0].startswith("policy violation before the run ended: protected")
    assert got.outcome.violation.files == ["gen/00.txt"] and (repo / "gen" / "00.txt").exists()  # never restored
    assert not (tmp_path / "a" / "runs" / "active" / run_id).exists()


def test_a_run_two_processes_find_at_once_is_finished_by_the_one_holding_the_recovery_lock(tmp_path, monkeypatch):
    # A relay starting, a relay about to start its worker and the dead relay's undertaker (relay.call.undertaker) can
    # find the same dead relay's run at once. Without a lock each could observe, judge and write it (and salvage a
    # worktree run's worktree) at the same time. Party: a second recoverer. It waits for the lock (here past its
    # bound: it leaves the run alone), then reads the run finished and leaves it as the first one wrote it.
    from filelock import FileLock

    from relay.call import recovery
    from relay.runs.store import RunStore

    repo = make_repo(tmp_path / "project")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, encoding="utf-8").stdout.strip()
    run_id = "r20261130T100000-0000000b"
    store = RunStore(tmp_path / "data" / "runs")
    store.ensure()
    store.write(_running(run_id, repo, head))
    store.mark_active(run_id)
    held = FileLock(str(recovery.own_folder(tmp_path / "data" / "locks") / "recovery.lock"), thread_local=False)
    held.acquire()
    monkeypatch.setattr(recovery, "LOCK_WAIT", 0.05)
    try:
        assert not recovery.recover_run(store, run_id)  # another holds it: this one leaves the run alone
        assert store.read(run_id).state == "running" and store.active_ids() == [run_id]
    finally:
        held.release()
    assert recovery.recover_run(store, run_id)
    first = store.read_raw(run_id)
    assert not recovery.recover_run(store, run_id)  # the second, once the lock is free: the run is finished
    assert store.read_raw(run_id) == first and store.active_ids() == []
