"""Guard: what the worker writes on a changed line is read, however the line is padded or stretched.

The party: the worker. Observation keeps a changed line for the readers within HUNK_CHARS characters; a plain
cut let a worker pad ``return "ok"`` with 1,200 spaces and hide ``; eval(request.args["q"])`` past the cut: the
packet said low, "re-indented only", and the diff view showed blanks up to its own cut.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from relay.observe.changes import HUNK_CHARS
from relay.observe.kept_lines import FOLD_BLANKS, UNREAD_MARK, kept_line

pytestmark = pytest.mark.anyio

_APP = 'import os\n\n\ndef handler(request):\n    return "ok"\n'


async def _review(tmp_path: Path, new_line: str) -> tuple[dict, str]:
    repo = make_repo(tmp_path / "project", {"app.py": _APP})
    content = _APP.replace('    return "ok"\n', new_line + "\n")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "app.py", "content": content}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "tidy the handler", "workspace": str(repo)}))
        view = (await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "diff"})).content[0].text
    return packet, view


async def test_code_pushed_past_the_line_cut_by_blanks_is_read_and_shown(tmp_path):
    packet, view = await _review(tmp_path, '    return "ok"' + " " * 1200 + '; eval(request.args["q"])')
    target = {t["file"]: t for t in packet["changes"]["review"]}["app.py"]
    assert packet["changes"]["risk"] == "high" and target["risk"] == "high", packet
    assert "eval(request.args" in target["reason"], target
    assert 'eval(request.args["q"])' in view and "1,200 blanks" in view, view


async def test_a_line_too_long_to_read_whole_says_its_middle_is_unread(tmp_path):
    # Two long literals around the payload: head and tail are read, the middle is not, and the review says so.
    packet, _ = await _review(tmp_path, '    x = "' + "A" * 2000 + '"; eval(request.args["q"]); y = "' + "B" * 2000 + '"')
    target = {t["file"]: t for t in packet["changes"]["review"]}["app.py"]
    assert packet["changes"]["risk"] != "low" and "its middle is unread" in target["reason"], packet


def test_a_kept_line_holds_no_long_blank_run_and_stays_bounded():
    for raw in (b" " * 5000 + b"eval(x)", b"\t" * 3000 + b"y", b"a" + b" \t" * 3000 + b"z", b"q" * 2_000_000 + b"eval(x)"):
        kept = kept_line(raw, HUNK_CHARS)
        assert len(kept) <= HUNK_CHARS, len(kept)
        assert " " * (FOLD_BLANKS + 1) not in kept and "\t" * (FOLD_BLANKS + 1) not in kept
        assert kept.rstrip().endswith(raw[-1:].decode())  # the end of the line is always read


def test_long_lines_that_differ_only_in_their_unread_middle_never_read_alike():
    one, two = b"A" * 3000 + b"x" + b"B" * 3000, b"A" * 3000 + b"y" + b"B" * 3000
    assert UNREAD_MARK in kept_line(one, HUNK_CHARS) and kept_line(one, HUNK_CHARS) != kept_line(two, HUNK_CHARS)
    ordinary = b'    return {"name": name, "size": size}  # the usual line'
    assert kept_line(ordinary, HUNK_CHARS) == ordinary.decode()
    assert kept_line(b"x = 1" + b" " * 20 + b"# aligned", HUNK_CHARS) == "x = 1" + " " * 20 + "# aligned"
