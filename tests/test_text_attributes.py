"""Guard: a text file is read as text, whatever a ``.gitattributes`` says (relay.observe.private_repo TEXT_AS_TEXT).

The parties: the worker, which writes ``.gitattributes`` beside its change, and the repository under work, whose own
committed attributes may mark a source file ``binary`` or ``-diff`` (often lockfiles and minified code, sometimes
more). git's diff obeys the ``diff`` attribute: a Python file holding ``eval(x)`` was "Binary files differ", the
packet said "binary file (not reviewable as text)", medium, and no line of it was read or shown. The relay's private
git dir now ends its ``info/attributes`` (which outranks every ``.gitattributes``) with ``* !diff``: git tells text
from binary by the bytes alone.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from reviewed import review_edits

_BEFORE = {"README.md": "# p\n", "app/util.py": "def f(x):\n    return x + 1\n\n\ndef g(y):\n    return y * 2\n"}
_EVAL = "def f(x):\n    return eval(x)\n\n\ndef g(y):\n    return y * 2\n"


@pytest.mark.parametrize("attributes", [
    {".gitattributes": "*.py -diff\n"},
    {".gitattributes": "*.py binary\n"},
    {"app/.gitattributes": "util.py -diff\n"},  # a sub-folder's file, nearer the path
    {".gitattributes": "[attr]quiet -diff -merge\n*.py quiet\n"},  # a macro of its own that unsets diff
    {".gitattributes": "*.py diff=none\n"},  # a driver no config defines
])
def test_attributes_the_worker_writes_hide_no_line_it_adds(tmp_path, attributes):
    overall, found = review_edits(tmp_path, {**attributes, "app/util.py": _EVAL}, before=_BEFORE)
    assert overall == "high", found
    assert found["app/util.py"].risk == "high" and "eval(x)" in found["app/util.py"].reasons[0], found["app/util.py"]


def test_the_repositorys_own_binary_attribute_hides_no_line_the_worker_adds(tmp_path):
    overall, found = review_edits(tmp_path, {"app/util.py": _EVAL}, before={**_BEFORE, ".gitattributes": "*.py binary\n"})
    assert overall == "high" and "eval(x)" in found["app/util.py"].reasons[0], found


def test_a_file_of_binary_bytes_is_still_binary(tmp_path):
    # The override unsets the attribute; it does not make git read NUL bytes as lines.
    overall, found = review_edits(tmp_path, {".gitattributes": "*.dat text diff\n", "assets/blob.dat": "A\0B\0" * 50},
                                  before=_BEFORE)
    assert found["assets/blob.dat"].reasons == ["binary file (not reviewable as text)"], found


@pytest.mark.anyio
async def test_a_run_in_a_repository_that_calls_its_code_binary_shows_the_line_and_reverts_exactly(tmp_path):
    # The whole path: the packet names the line and the default view shows it; the run's patch now holds a text hunk
    # for a path the repository calls binary, and `runs revert` still gives back the user's bytes.
    repo = make_repo(tmp_path / "project", {**_BEFORE, ".gitattributes": "*.py binary\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "app/util.py", "content": _EVAL}]))
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "tidy the code", "workspace": str(repo)}))
        view = (await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "diff"})).content[0].text
    assert packet["status"] == "SUCCESS", packet
    assert packet["changes"]["risk"] == "high", packet["changes"]
    assert "+    return eval(x)" in view, view
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert (repo / "app/util.py").read_text(encoding="utf-8") == _BEFORE["app/util.py"]
