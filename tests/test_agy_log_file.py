"""agy's own log (`--log-file`): the relay hands agy only a file it has just made itself.

The party: whoever writes the relay's data dir (or another local process that gets there first, the moment the run
id appears: played here by knowing the id ahead). agy opens the path it is given by name; the relay makes that file
owner-only first. Before: whatever stood at the name when the relay's open failed was handed to agy all the same
(`except OSError: pass`), a regular file another process had made first was kept as it was (its mode, its open
readers), and a FIFO planted there froze the whole relay in its open (no reader ever came).
Real parts: the fake agy as a real subprocess, a real git repository, the relay behind the SDK's client in memory.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import anyio
import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, scenario

pytestmark = [pytest.mark.anyio, pytest.mark.skipif(os.name == "nt", reason="POSIX FIFOs and modes")]

RUN_ID = "r20261202T120000-10c0f11e"
LOG_LINE = "the run's own log line: for the user's eyes only"


def _fix_run_id(monkeypatch) -> None:
    from relay.call import detached, intake, once

    for module in (intake, once, detached):
        monkeypatch.setattr(module, "new_run_id", lambda: RUN_ID)


async def _run(tmp_path: Path, repo: Path) -> tuple[dict, Path]:
    agy = install_fake_agy(tmp_path / "bin", scenario({
        "behaviour": "success", "log_lines": [LOG_LINE], "edits": [{"op": "write", "path": "src/new.py",
                                                                   "content": "x = 1\n"}],
        "report": {"summary": "ok", "files_changed": ["src/new.py"]}}))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        with anyio.fail_after(120):
            answer = payload(await client.call_tool("antigravity_execute", {"task": "add src/new.py",
                                                                            "workspace": str(repo)}))
    return answer, agy


async def test_a_fifo_planted_as_agys_log_or_the_transcript_never_freezes_the_relay(tmp_path, repo, monkeypatch):
    # Before: the relay opened the name for writing (O_WRONLY, blocking) on its event loop; a FIFO with no reader held
    # that open, and every call of the relay with it, for good. The watchdog below plays the reader that never comes
    # after 20 s, so that a relay that froze finishes and the test fails saying so rather than hanging.
    _fix_run_id(monkeypatch)
    runs = tmp_path / "data" / "runs"
    runs.mkdir(parents=True)
    fifos = [runs / f"{RUN_ID}.agy-1.log", runs / f"{RUN_ID}.ndjson"]
    for fifo in fifos:
        os.mkfifo(fifo)
    stuck: list[str] = []
    done = threading.Event()
    held: list[int] = []

    def watchdog() -> None:
        while not done.wait(20):
            for fifo in fifos:
                try:
                    if stat.S_ISFIFO(os.lstat(fifo).st_mode):
                        held.append(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # lets a blocked writer through
                        stuck.append(fifo.name)
                except OSError:
                    pass

    thread = threading.Thread(target=watchdog, daemon=True)
    thread.start()
    try:
        answer, _agy = await _run(tmp_path, repo)
    finally:
        done.set()
        thread.join()
        for fd in held:
            os.close(fd)
    assert not stuck, f"the relay froze opening a FIFO planted as {stuck}"
    assert answer["status"] == "SUCCESS" and answer["run_id"] == RUN_ID, answer
    for fifo in fifos:
        assert stat.S_ISREG(os.lstat(fifo).st_mode), fifo  # the relay's own file in its place
    assert LOG_LINE in fifos[0].read_text(encoding="utf-8")


async def test_agys_log_is_a_file_the_relay_just_made_never_one_made_first(tmp_path, repo, monkeypatch):
    # Another local process makes the log file first (mode 0644) and keeps it open for reading. Before: the relay kept
    # that file (nlink 1, a regular file: "its own"), so agy wrote the run's log into a file others could read, and
    # the process that made it read every line through the fd it held.
    _fix_run_id(monkeypatch)
    runs = tmp_path / "data" / "runs"
    runs.mkdir(parents=True)
    log_file = runs / f"{RUN_ID}.agy-1.log"
    log_file.write_text("", encoding="utf-8")
    log_file.chmod(0o644)
    with log_file.open("r", encoding="utf-8") as spy:
        answer, _agy = await _run(tmp_path, repo)
        assert answer["status"] == "SUCCESS", answer
        assert LOG_LINE not in spy.read(), "the run's log was written into the file another process made and held"
    assert stat.S_IMODE(log_file.stat().st_mode) == 0o600
    assert LOG_LINE in log_file.read_text(encoding="utf-8")


async def test_agy_is_never_handed_a_log_path_the_relay_could_not_make_its_own(tmp_path, repo, monkeypatch):
    # A folder planted at the log's name cannot be removed by the relay (it may hold files) nor opened as a file.
    # Before: the relay's open failed, the failure was passed over, and agy was handed the path by name all the same.
    # Now agy runs without --log-file for that attempt, and the packet says the log was not kept and why.
    _fix_run_id(monkeypatch)
    runs = tmp_path / "data" / "runs"
    (runs / f"{RUN_ID}.agy-1.log").mkdir(parents=True)
    answer, agy = await _run(tmp_path, repo)
    assert answer["status"] == "SUCCESS", answer
    argv = launches(agy)[0]["argv"]
    assert not any(a == "--log-file" or a.startswith("--log-file=") for a in argv), argv
    said = " ".join(answer.get("flags") or []) + " ".join(answer.get("notes") or [])
    assert "--log-file" in said and f"{RUN_ID}.agy-1.log" in said, answer
    # What stands there and what to do, not "planted again and again" (which a folder never is).
    assert "a folder stands where the relay makes a file of its own" in said and "move it out" in said, answer
    assert "again and again" not in said, answer


async def test_a_link_put_in_place_of_agys_log_before_agy_opens_it_is_said(tmp_path, repo, monkeypatch):
    # agy opens its log by name, a moment after the relay made the file: a party watching the data dir that swaps in a
    # link then has agy write the run's log through it (played here by swapping right after the relay made it). Not
    # prevented (agy is not handed the open file), but the packet says the log was replaced and where to look.
    from relay.call import attempts

    _fix_run_id(monkeypatch)
    victim = tmp_path / "home" / "notes.txt"
    victim.parent.mkdir()
    victim.write_text("mine\n", encoding="utf-8")
    made = attempts.create_fresh

    def made_then_swapped(path):  # noqa: ANN001, ANN202 - create_fresh's own
        fd = made(path)
        os.unlink(path)
        os.symlink(victim, path)
        return fd

    monkeypatch.setattr(attempts, "create_fresh", made_then_swapped)
    answer, _agy = await _run(tmp_path, repo)
    assert answer["status"] == "SUCCESS", answer
    said = " ".join(answer.get("flags") or [])
    assert f"{RUN_ID}.agy-1.log" in said and "was replaced" in said, answer
