"""Every run's patch (issue 10): written after observation, read as detail="diff", undone by `runs revert`.

Real git repositories and plain folders in tmp dirs; the revert is real `git apply -R`; one test runs the
fake agy through the in-memory relay end to end.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import os
import subprocess
from pathlib import Path

import msgspec
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from relay.call.orchestrate import Relay
from relay.core.contracts import (Detail, FileChange, GetResultInput, RecordObservation, RecordPlan, RecordProcess,
                                  RecordRequest, RunRecord)
from relay.core.errors import RelayError
from relay.core.platform import own_stamp
from relay.core.settings import load_settings
from relay.observe.changes import observe_changes
from relay.observe import run_patch
from relay.observe.run_patch import split_patch, write_run_patch
from relay.observe.snapshot import git_private, load_snapshot, take_snapshot
from relay.runs.patches import revert_run
from relay.runs.retention import apply_retention
from relay.runs.store import RunStore, new_run_id, now_iso

pytestmark = pytest.mark.anyio

UNICODE = "café 文档.txt"
BLOB = bytes(range(256)) * 8


def _tree(root: Path) -> dict[str, tuple]:
    """Every file and symlink under root (outside .git): kind, mode bits, content hash / target."""
    out: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                out[rel] = ("link", os.readlink(path))
            else:
                out[rel] = ("file", os.lstat(path).st_mode & 0o777, hashlib.sha256(Path(path).read_bytes()).hexdigest())
    return out


def _workspace(root: Path, *, use_git: bool, folder: str = "") -> Path:
    """A workspace with one of each kind of file; with ``folder``, a folder of the repository at ``root``."""
    files = {
        "keep.txt": "one\ntwo\nthree\n", "old name.txt": "".join(f"line {i}\n" for i in range(30)), "gone.txt": "bye\n",
        "tool.sh": "#!/bin/sh\necho hi\n", UNICODE: "bonjour\n", "noeol.txt": "a\nb", "mine.txt": "1\n2\n3\n4\n5\n6\n7\n8\n",
        "kind": "a file, then a symlink\n",
    }
    if use_git:
        make_repo(root, {"outside.txt": "not the workspace's\n", **{folder + k: v for k, v in files.items()}})
        repo, root = root, root / folder
    else:
        root.mkdir(parents=True)
        for name, text in files.items():
            (root / name).write_text(text, encoding="utf-8")
    (root / "data.bin").write_bytes(BLOB)
    if use_git:
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "binary")
    # The user's own edits, before the run: they must survive a revert and never be in the patch.
    (root / "mine.txt").write_text("1\n2\nUSER EDIT\n4\n5\n6\n7\n8\n", encoding="utf-8")
    (root / "notes.txt").write_text("the user's untracked notes\n", encoding="utf-8")
    return root


def _work(root: Path) -> None:
    """What a worker does: edit, rename + edit, delete, binary rewrite and add, chmod, non-ASCII name, a symlink
    replacing a file, an edit on top of the user's edit, no final newline, a name git must quote."""
    (root / "keep.txt").write_text("one\nTWO\nthree\nfour\n", encoding="utf-8")
    (root / "old name.txt").rename(root / "new name.txt")
    with open(root / "new name.txt", "a", encoding="utf-8") as fh:
        fh.write("appended\n")
    (root / "gone.txt").unlink()
    (root / "data.bin").write_bytes(BLOB[::-1] + b"\0tail")
    (root / "new.bin").write_bytes(b"\0\1\2\3" * 64)
    (root / "tool.sh").chmod(0o755)
    (root / UNICODE).write_text("bonjour le monde\n", encoding="utf-8")
    (root / "noeol.txt").write_text("a\nb\nc", encoding="utf-8")
    (root / "mine.txt").write_text("1\n2\nUSER EDIT\n4\n5\n6\nWORKER EDIT\n8\n", encoding="utf-8")
    (root / "kind").unlink()
    (root / "kind").symlink_to("keep.txt")
    (root / 'say "hi"\tnow.txt').write_text("a name git quotes\n", encoding="utf-8")


def _run(tmp_path: Path, root: Path, work=_work, **limits) -> tuple[RunStore, str]:
    """Snapshot, work, observe, write the patch and a finished record: a run without agy."""
    store = RunStore(tmp_path / "data" / "runs")
    run_id = new_run_id()
    before = take_snapshot(root)
    work(root)
    changes = observe_changes(before, root)
    write_run_patch(before, changes, root, store.patch_path(run_id), run_id=run_id, **limits)
    store.write(RunRecord(run_id=run_id, tool="execute", created_at=now_iso(), state="finished",
                          request=RecordRequest(task="t"), plan=RecordPlan(workspace=str(root.resolve())),
                          observation=RecordObservation(changes=changes.files)))
    return store, run_id


@pytest.mark.parametrize("use_git, folder", [(True, ""), (True, "pkg/"), (False, "")],
                         ids=["git", "git-subfolder", "plain-folder"])
def test_revert_restores_the_tree_byte_for_byte_after_renames_deletes_binary_modes_and_unicode(
        tmp_path, monkeypatch, use_git, folder):
    # A subfolder workspace: git apply reads a git patch's paths from the top level (--directory covers it).
    root = _workspace(tmp_path / "ws", use_git=use_git, folder=folder)
    before = _tree(tmp_path / "ws")
    store, run_id = _run(tmp_path, root)
    after = _tree(root)
    patch = store.patch_path(run_id).read_bytes()
    assert oct(store.patch_path(run_id).stat().st_mode & 0o777) == "0o600"
    # Only the worker's lines: the user's edit is context at most, never a change.
    assert b"+WORKER EDIT\n" in patch and b"+USER EDIT" not in patch and b"-USER EDIT" not in patch
    assert b"notes.txt" not in patch
    assert b"GIT binary patch" in patch and b"rename from old name.txt" in patch and b"new mode 100755" in patch

    dry = revert_run(store, run_id, dry_run=True)
    assert not dry.reverted and _tree(root) == after
    assert "rename new name.txt back to old name.txt; undo 1 hunk in old name.txt" in dry.actions
    assert "restore gone.txt (the run deleted it)" in dry.actions and "delete new.bin (the run created it)" in dry.actions

    assert revert_run(store, run_id).reverted
    assert _tree(tmp_path / "ws") == before


def test_revert_refuses_naming_the_files_that_moved_on_and_changes_nothing(tmp_path):
    root = _workspace(tmp_path / "ws", use_git=True)
    store, run_id = _run(tmp_path, root)
    (root / "keep.txt").write_text("one\nTWO, edited again by the user\nthree\nfour\n", encoding="utf-8")
    (root / "new.bin").write_bytes(b"rewritten since")
    moved_on = _tree(root)
    with pytest.raises(RelayError) as refused:
        revert_run(store, run_id)
    assert "keep.txt" in refused.value.message and "new.bin" in refused.value.message
    assert "Nothing was changed" in refused.value.hint
    assert _tree(root) == moved_on  # all or nothing: not even the files that would apply were touched


def test_revert_refuses_while_a_worker_runs_in_the_same_workspace(tmp_path):
    root = _workspace(tmp_path / "ws", use_git=True)
    store, run_id = _run(tmp_path, root)
    after = _tree(root)
    live = new_run_id()  # a run of this (live) relay process, working in the same workspace
    store.write(RunRecord(run_id=live, tool="execute", created_at=now_iso(), state="running",
                          request=RecordRequest(task="t"), plan=RecordPlan(workspace=str(root.resolve())),
                          process=RecordProcess(relay_pid=os.getpid(), relay_stamp=own_stamp())))
    store.mark_active(live)
    with pytest.raises(RelayError, match=f"run {live} is working in"):
        revert_run(store, run_id)
    assert _tree(root) == after


def test_revert_says_a_run_is_already_reverted_instead_of_naming_every_file(tmp_path):
    root = _workspace(tmp_path / "ws", use_git=True)
    store, run_id = _run(tmp_path, root)
    revert_run(store, run_id)
    with pytest.raises(RelayError, match="looks reverted already"):
        revert_run(store, run_id)


def test_a_run_without_a_patch_says_why_in_the_diff_view_and_revert_refuses_it(tmp_path):
    root = make_repo(tmp_path / "ws")
    store = RunStore(tmp_path / "data" / "runs")
    run_id = new_run_id()
    # As a run whose changes came from the worker's report only (no snapshot): listed, but no patch.
    store.write(RunRecord(run_id=run_id, tool="execute", created_at=now_iso(), state="finished",
                          request=RecordRequest(task="t"), plan=RecordPlan(workspace=str(root)),
                          observation=RecordObservation(changes=[FileChange(path="README.md")])))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")})
    obj, text = Relay(settings).get_result(GetResultInput(run_id=run_id, detail=Detail.DIFF, max_chars=200))
    assert text.startswith(f"# run {run_id} has no patch (1 files changed)") and len(text) <= 200
    assert obj == {"run_id": run_id, "status": "INTERRUPTED", "diff": text}  # no status in the record: as every view says
    with pytest.raises(RelayError, match="has no patch"):
        revert_run(store, run_id)
    assert git(root, "status", "--porcelain") == ""


def test_patch_over_its_bound_states_the_cut_and_revert_refuses_it(tmp_path):
    root = make_repo(tmp_path / "ws", {"a.txt": "a\n"})

    def work(ws: Path) -> None:
        (ws / "a.txt").write_text("a\nb\n", encoding="utf-8")
        for name in ("big1.txt", "big2.txt", "huge.txt"):  # 40 KB, 40 KB (together past 64 KB), 100 KB
            (ws / name).write_text("".join(f"row {i}\n" for i in range(4_000 if name != "huge.txt" else 10_000)), encoding="utf-8")

    store, run_id = _run(tmp_path, root, work, max_bytes=64 * 1024)
    patch = store.patch_path(run_id).read_bytes()
    assert len(patch) <= 64 * 1024
    header, sections = split_patch(patch)
    assert [s.path for s in sections] == ["a.txt", "big1.txt"]
    assert b"# not in this patch: too large: huge.txt\n" in header
    assert b"# cut: the patch limit (65536 bytes) was reached; left out: big2.txt\n" in header
    with pytest.raises(RelayError, match="does not hold the whole run"):
        revert_run(store, run_id)
    assert (root / "a.txt").read_text(encoding="utf-8") == "a\nb\n"


def test_retention_removes_a_runs_patch_with_its_record(tmp_path):
    root = make_repo(tmp_path / "ws")
    store, run_id = _run(tmp_path, root, lambda ws: (ws / "README.md").write_text("# changed\n", encoding="utf-8"))
    assert store.patch_path(run_id).exists()
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")})
    tomorrow = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    summary = apply_retention(settings, max_runs=0, max_age_days=0.5, now=tomorrow)
    assert [r.run_id for r in summary.removed] == [run_id]
    assert str(store.patch_path(run_id)) in summary.removed[0].files
    assert not store.patch_path(run_id).exists() and not store.record_path(run_id).exists()


def test_patch_size_setting_turns_patches_off_with_zero_and_has_a_floor():
    assert load_settings({"GRAVITY_RELAY_PATCH_MAX_SIZE": "0"}).patch_max_bytes == 0
    assert load_settings({"GRAVITY_RELAY_PATCH_MAX_SIZE": "1KB"}).patch_max_bytes == 64 * 1024
    assert load_settings({"GRAVITY_RELAY_PATCH_MAX_SIZE": "2MB"}).patch_max_bytes == 2 * 1024 * 1024
    assert load_settings({"GRAVITY_RELAY_PATCH_MAX_SIZE": "lots"}).problems


async def test_e2e_diff_puts_the_riskiest_hunk_first_never_passes_max_chars_and_revert_undoes_the_run(tmp_path):
    repo = make_repo(tmp_path / "project", {
        "README.md": "# project\n" + "".join(f"para {i}\n" for i in range(40)),
        "src/auth/session.py": "def check(token):\n    return token == 'x'\n",
        "docs/guide.md": "guide\n",
    })
    (repo / "logo.png").write_bytes(b"\x89PNG\0" + bytes(range(200)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    before = _tree(repo)
    agy = install_fake_agy(tmp_path / "agy", success_scenario([
        {"op": "replace-lines", "path": "README.md", "start": 2, "end": 2, "content": "para zero, reworded\n"},
        {"op": "replace-lines", "path": "README.md", "start": 35, "end": 35, "content": "para 33, reworded\n"},
        {"op": "write", "path": "src/auth/session.py", "content": "def check(token):\n    return True  # skip auth\n"},
        {"op": "rename", "path": "docs/guide.md", "to": "docs/guía.md"},
        {"op": "write", "path": "logo.png", "content_b64": base64.b64encode(b"\x89PNG\0new").decode()},
        {"op": "chmod", "path": "README.md", "mode": "755"},
    ]))
    env = relay_env(tmp_path / "data", agy)
    data_dir = tmp_path / "data"
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        run_id = packet["run_id"]
        whole = await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "diff", "max_chars": 100_000})
        cuts = {n: (await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "diff", "max_chars": n}))
                .content[0].text for n in (200, 350, 600, len(whole.content[0].text) - 1)}
    assert packet["status"] == "SUCCESS" and packet["changes"]["review"][0]["file"] == "src/auth/session.py"
    # The run's before tree stays with it (issue 23); the private indexes, a stat cache as large as the
    # repository's index, go when the run ends.
    trees = data_dir / "runs" / f"{run_id}.trees"
    saved = load_snapshot(trees)  # its before tree, readable through the run's own object store
    assert saved is not None and saved.repo is not None and saved.repo.before
    assert git_private(str(trees), saved.repo, "cat-file", ["-t"], values=[saved.repo.before]) == b"tree\n"
    assert sorted(p.name for p in trees.iterdir() if p.name.endswith(".index")) == []
    text = whole.content[0].text
    assert not whole.is_error and whole.structured_content == {"run_id": run_id, "status": "SUCCESS", "diff": text}
    # The review read (issue 29): the targets in the packet's order, each under its packet lines.
    labels = [line for line in text.splitlines() if line.startswith("## ")]
    assert labels[0] == "## src/auth/session.py lines 2"
    assert text.index("+    return True  # skip auth") < text.index("@@ -1,3 +1,3 @@")  # riskiest hunk before README's
    assert "## README.md lines 2,35 (mode 100644 → 100755)" in labels
    assert "## logo.png (binary, 8 bytes; before: 205 bytes)" in labels and "GIT binary patch" not in text
    assert "## docs/guía.md (renamed from docs/guide.md)" in labels
    assert text.endswith(f"# that is the whole change; the patch: {data_dir / 'runs' / run_id}.patch\n")
    for n, cut in cuts.items():
        assert len(cut) <= n, n
        assert "max_chars=" in cut.splitlines()[-1]  # the last line says how to read the rest
        assert "## src/auth/session.py lines 2\n@@ -1,2 +1,2 @@\n" in cut  # never without the riskiest target

    data = {"GRAVITY_RELAY_DATA_DIR": env["GRAVITY_RELAY_DATA_DIR"], "PATH": os.environ["PATH"]}
    shown = cli_main(["runs", "diff", run_id, "--max-chars", "100000"], data)
    assert shown.returncode == 0 and shown.stdout == text  # the same characters as the tool's text block
    dry = cli_main(["runs", "revert", run_id, "--dry-run"], data)
    assert dry.returncode == 0 and "would revert" in dry.stdout and "rename docs/guía.md back to docs/guide.md" in dry.stdout
    done = cli_main(["runs", "revert", run_id, "--json"], data)
    assert done.returncode == 0 and json.loads(done.stdout)["reverted"] is True
    assert _tree(repo) == before
    assert subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True, encoding="utf-8").stdout == ""
    again = cli_main(["runs", "revert", run_id], data)
    assert again.returncode == 1 and "looks reverted already" in again.stderr
    record = msgspec.json.decode(RunStore(tmp_path / "data" / "runs").record_path(run_id).read_bytes())
    assert record["outcome"]["status"] == "SUCCESS"
