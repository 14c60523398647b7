"""A backslash in a name the worker reports (relay/observe/reported.py, relay/review/packet.py ``_Claims``).

The party: the worker, honest here. On POSIX a backslash is an ordinary file-name character, so a worker that
writes and reports ``a\\u202eb.txt`` (a backslash, u, 2, 0, 2, e: plain letters) names exactly the file it wrote.
Broke: both readers turned every backslash into ``/``, so the claim became ``a/u202eb.txt``; the packet then said
the file was "claimed but unchanged" and that the real file was "not in the worker's report" — a false charge a
leader's model acts on. On Windows a backslash stays a separator: agy there reports ``src\\a.py``.
"""

from __future__ import annotations

import os

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario
from relay.core.contracts import FileChange, WorkerReport
from relay.observe import reported
from relay.observe.reported import normalize_reported
from relay.review.packet import claims_flags

_SPELLED = "a\\u202eb.txt"  # a backslash and five plain letters, one file name on POSIX
_NESTED = "src\\dir\\b.py"  # a name with two backslashes in it, no folder


@pytest.mark.anyio
@pytest.mark.skipif(os.name == "nt", reason="on Windows a backslash separates folders")
async def test_a_posix_name_with_a_backslash_the_worker_reports_is_not_flagged_as_claimed_but_unchanged(tmp_path):
    repo = make_repo(tmp_path / "project", {"x.txt": "x\n"})
    edits = [{"op": "write", "path": name, "content": "x = 1\n"} for name in (_SPELLED, _NESTED)]
    report = make_report(summary="Wrote two files.", files_changed=[_SPELLED, str(repo / _NESTED)],
                         tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert (repo / _SPELLED).is_file() and (repo / _NESTED).is_file()  # names, not folders: the test is not vacuous
    assert not (repo / "a").exists() and not (repo / "src").exists()
    flags = packet.get("flags", [])
    assert not [f for f in flags if "claimed" in f or "not in the worker's report" in f], flags


def test_a_posix_reading_keeps_a_backslash_in_the_name(monkeypatch):
    monkeypatch.setattr(reported, "backslash_separates", lambda: False)
    assert normalize_reported([_SPELLED, "/w\\s/" + _NESTED], None) == [_SPELLED, "w\\s/" + _NESTED]
    # A workspace whose own name holds a backslash still strips from an absolute claim.
    from pathlib import PurePosixPath
    assert normalize_reported(["/w\\s/" + _NESTED, "/other/x.py"], PurePosixPath("/w\\s")) == [_NESTED]
    report = WorkerReport(summary="s", files_changed=[_SPELLED, "/w\\s/" + _NESTED])
    assert claims_flags([FileChange(path=_SPELLED), FileChange(path=_NESTED)], report) == []


def test_the_windows_reading_still_splits_on_a_backslash(monkeypatch):
    # agy on Windows reports `src\a.py` and `C:\w\src\b.py`: both name files in the folder src.
    monkeypatch.setattr(reported, "backslash_separates", lambda: True)
    from pathlib import PureWindowsPath
    ws = PureWindowsPath("C:\\w")
    assert normalize_reported(["src\\a.py", "C:\\w\\src\\b.py", ".\\src\\..\\c.py", "..\\up.py"], ws) == [
        "src/a.py", "src/b.py", "c.py"]
    report = WorkerReport(summary="s", files_changed=["src\\a.py", "C:\\w\\src\\b.py"])
    assert claims_flags([FileChange(path="src/a.py"), FileChange(path="src/b.py")], report) == []
