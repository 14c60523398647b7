"""Names and text that drive a terminal or hide themselves (relay/core/shown.py).

The party: the worker. It names files, and writes its summary and its files' lines, with what a terminal obeys (``ESC
[2J`` clears the screen, ``ESC ]0;…`` retitles the window, ``ESC ]8;;…`` makes a link, a carriage return overwrites
the line) and what a reader cannot see (``evil\\u202egnp.sh`` reads as ``evilhs.png``; a zero-width space makes
``zw\\u200bconfig.py`` look like ``zwconfig.py``). Broke: JSON escaped the C0 controls, but the right-to-left override
and the zero-width space reached the packet a model reads and every CLI view raw, and the diff view (`runs show
--detail diff`, `runs diff`) printed a file's ESC sequences and a name's override straight to the terminal. Now every
view shows them escaped; the run record keeps the truth.
"""

from __future__ import annotations

import json
import re

import anyio
import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario

pytestmark = pytest.mark.anyio

_RLO, _ZWSP = "\u202e", "\u200b"
_NAMES = [f"evil{_RLO}gnp.sh", "clear\x1b[2J.txt", f"zw{_ZWSP}config.py"]
# What must never reach a reader raw: ESC, BEL, a carriage return that does not end a line, bidi and zero-width.
_RAW = re.compile("[\x1b\x07\u202a-\u202e\u2066-\u2069\u200b-\u200f]|\r(?!\n)")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


async def test_names_and_text_that_drive_a_terminal_are_shown_escaped_in_every_view_and_kept_in_the_record(tmp_path):
    from relay.runs.store import RunStore

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [*({"op": "write", "path": name, "content": "x = 1\n"} for name in _NAMES),
             {"op": "write", "path": "a.txt", "content": "ok\x1b]0;pwned\x07 \x1b]8;;http://e.test\x07here\x1b]8;;\x07\n"
                                                        "\x1b[2J\rall tests passed\n"}]
    report = make_report(summary=f"Done.\x1b[2J{_RLO}dexif{_ZWSP}", files_changed=[*_NAMES, "a.txt"], tests_passed=0,
                         tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        run_id = packet["run_id"]
        views = [packet] + [payload(await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": d}))
                            for d in ("summary", "full", "errors")]
        diff = await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "diff"})
    assert (repo / _NAMES[0]).exists()  # the names are real: the test is not vacuous
    for view in views:
        raw = [s for s in _strings(view) if _RAW.search(s)]
        assert not raw, raw
    assert "evil\\u202egnp.sh" in packet["changes"]["files"], packet["changes"]["files"]  # shown, not hidden
    diff_text = "".join(c.text for c in diff.content if hasattr(c, "text"))
    assert not _RAW.search(diff_text), [m.group(0) for m in _RAW.finditer(diff_text)]
    assert "\\x1b[2J" in diff_text  # the file's sequence is there to read, as text
    printed = [await anyio.to_thread.run_sync(cli_main, args, env) for args in (
        ["runs", "show", run_id], ["runs", "show", run_id, "--detail", "full"],
        ["runs", "show", run_id, "--detail", "diff"], ["runs", "diff", run_id], ["runs", "list"],
        ["runs", "revert", run_id, "--dry-run"], ["runs", "revert", run_id, "--dry-run", "--json"])]
    waited = await anyio.to_thread.run_sync(cli_main, ["execute", "again", "--workspace", str(repo), "--wait", "30"], env)
    for out in (*printed, waited):
        assert out.returncode == 0, out
        found = [m.group(0) for m in _RAW.finditer(out.stdout + out.stderr)]
        assert not found, (out.args, found)
    # The record keeps the truth: the names as the worker wrote them.
    record = RunStore(tmp_path / "data" / "runs").read(run_id)
    assert set(_NAMES) <= {c.path for c in record.observation.changes}
    assert _RLO in record.process.report.summary


def test_doctor_prints_a_name_it_read_from_disk_escaped():
    # A worktree or temp file name doctor reads from disk (a forged ledger can name anything) never drives the terminal.
    from relay.doors.doctor_check import render_checks, warn

    text = render_checks([warn("apply temps", f"left by a killed apply: /w/.gravity-relay-\x1b]0;pwned\x07{_RLO}x",
                               fix="gravity-relay cleanup\x1b[2J")])
    assert not _RAW.search(text), text
    assert "\\x1b]0;pwned\\x07\\u202ex" in text and "cleanup\\x1b[2J" in text


async def test_a_name_that_spells_an_escape_in_plain_letters_is_told_apart_from_the_escaped_one(tmp_path):
    # Broke: a file named `a\u202eb.txt` (a backslash, u, 2, 0, 2, e: plain letters) and one named with a real
    # right-to-left override were shown alike (`a\u202eb.txt`) in every view: the reader could not tell the worker's
    # letters from the relay's escape, nor see that there were two files. Now a backslash the worker wrote before what
    # reads as an escape (x, u, U, a backslash, or an escaped character) is shown doubled; credentials stay masked.
    from relay.runs.store import RunStore

    spelled, real = "a\\u202eb.txt", f"a{_RLO}b.txt"
    token = "ghp_" + "a" * 36
    repo = make_repo(tmp_path / "project", {"x.txt": "x\n"})
    edits = [{"op": "write", "path": name, "content": "x = 1\n"} for name in (spelled, real)]
    report = make_report(summary=f"Wrote a\\u202eb.txt and a{_RLO}b.txt with {token}", files_changed=[spelled, real],
                         tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        run_id = packet["run_id"]
        views = [payload(await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": d}))
                 for d in ("summary", "full")]
    assert (repo / spelled).exists() and (repo / real).exists()  # two files: the test is not vacuous
    assert set(packet["changes"]["files"]) == {"a\\\\u202eb.txt", "a\\u202eb.txt"}, packet["changes"]["files"]
    assert set(views[0]["changes"]["files"]) == {"a\\\\u202eb.txt", "a\\u202eb.txt"}, views[0]["changes"]["files"]
    full = json.dumps(views[1])
    assert json.dumps("a\\\\u202eb.txt") in full and json.dumps("a\\u202eb.txt") in full, full
    assert json.dumps("a\\\\\\\\u202eb.txt") not in full  # shown once, never escaped twice
    assert "Wrote a\\\\u202eb.txt and a\\u202eb.txt" in packet["summary"] and token not in json.dumps(packet)
    printed = [await anyio.to_thread.run_sync(cli_main, args, env) for args in (
        ["runs", "show", run_id], ["runs", "show", run_id, "--detail", "full"], ["runs", "diff", run_id],
        ["runs", "show", run_id, "--detail", "diff"], ["runs", "revert", run_id, "--dry-run"])]
    for out in printed:
        assert out.returncode == 0 and token not in out.stdout, out
        seen = "\n".join(_strings(json.loads(out.stdout))) if out.stdout.startswith("{") else out.stdout  # JSON: decoded
        assert "a\\\\u202eb.txt" in seen and "a\\u202eb.txt" in seen.replace("a\\\\u202eb", ""), (out.args, seen)
        assert "a\\\\\\\\u202eb" not in seen, (out.args, seen)
    record = RunStore(tmp_path / "data" / "runs").read(run_id)
    assert {spelled, real} <= {c.path for c in record.observation.changes}  # the record keeps the truth
