"""The review read (issue 29): ``detail="diff"`` gives the packet's review targets at exactly the lines it
names, riskiest first, in a small default budget, and says how to read the rest.

The fake agy edits real git repositories in tmp dirs through the in-memory relay; the view is parsed
back here with this file's own reader (not the relay's), and its ranges are checked against what
``git diff -U0`` says of the workspace.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from relay.call.orchestrate import Relay
from relay.core.contracts import Detail, GetResultInput
from relay.core.settings import load_settings
from test_patches import _run, _workspace

pytestmark = pytest.mark.anyio

# The review read's default budget (relay.review.diff_view.DEFAULT_VIEW_CHARS; pinned here so that this file
# reads the relay only through its tools).
DEFAULT_VIEW_CHARS = 2_500
_LABEL = re.compile(r"^## (.+) lines ([0-9][0-9,\-]*(?: \+\d+ more)?)(?: \(.*\))?$")
_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _labels(text: str) -> list[tuple[str, str, list[str]]]:
    """(file, lines, [hunk texts]) for each ``## FILE lines LINES`` label, in the view's order."""
    out: list[tuple[str, str, list[str]]] = []
    hunk: list[str] | None = None
    for line in text.splitlines(keepends=True):
        match = _LABEL.match(line.rstrip("\n"))
        if match:
            out.append((match[1], match[2], []))
            hunk = None
        elif line.startswith("## ") or line.startswith("# "):
            hunk = None
        elif line.startswith("@@ ") and out:
            hunk = [line]
            out[-1][2].append(hunk)  # type: ignore[arg-type]
        elif hunk is not None:
            hunk.append(line)
    return [(f, lines, ["".join(h) for h in hunks]) for f, lines, hunks in out]


def _runs(hunk: str) -> list[tuple[int, int]]:
    """The ranges of a unified hunk's runs of changed lines, counted as git -U0 counts a hunk's: its added
    lines, or for lines only removed the new line before them (1 at the top)."""
    rows = hunk.splitlines()
    _, _, new_start, new_count = _HEADER.match(rows[0]).groups()
    new = int(new_start) + (new_count == "0")
    out: list[tuple[int, int]] = []
    run: tuple[int, list[int]] | None = None  # (the next new line when the run began, its added lines)
    for row in [*rows[1:], " end"]:
        sign = row[:1]
        if sign in ("+", "-", "\\") and (sign != "\\" or run is not None):
            if run is None:
                run = (new, [])
            if sign == "+":
                run[1].append(new)
                new += 1
            continue
        if run is not None:
            began, added = run
            out.append((added[0], added[-1]) if added else (max(began - 1, 1),) * 2)
            run = None
        if sign != "\\":
            new += 1
    return out


def _named(lines: str) -> list[tuple[int, int]]:
    return [(int(a), int(b or a)) for a, b in re.findall(r"(\d+)(?:-(\d+))?", lines.split(" +")[0])]


def _meets(r: tuple[int, int], ranges: list[tuple[int, int]]) -> bool:
    return any(r[0] <= e and r[1] >= s for s, e in ranges)


def _git_runs(repo: Path, path: str) -> list[tuple[int, int]]:
    """What git itself says: the -U0 hunks of ``path`` against HEAD, as the packet counts their ranges."""
    out = subprocess.run(["git", "diff", "-U0", "--no-color", "HEAD", "--", path], cwd=repo, capture_output=True,
                         text=True, check=True, encoding="utf-8").stdout
    ranges = []
    for line in out.splitlines():
        match = _HEADER.match(line)
        if match:
            new_start, new_count = int(match[3]), int(match[4] or 1)
            ranges.append((new_start, new_start + new_count - 1) if new_count else (max(new_start, 1),) * 2)
    return ranges


def _para(name: str, n: int) -> str:
    return "".join(f"{name} paragraph line {i}, long enough to cost a reader some characters\n" for i in range(n))


def _many_targets_scenario(tmp_path: Path) -> tuple[Path, Path]:
    """A run over a dozen files: an auth module edited in four far-apart places, an app edited in two,
    ten docs rewritten (together far past the default budget)."""
    files = {
        "src/auth/token.py": "".join(f"value_{i} = {i}\n" for i in range(1, 121)),
        "src/app.py": "".join(f"step_{i} = {i}\n" for i in range(1, 81)),
        **{f"docs/p{i}.md": _para(f"doc {i}", 20) for i in range(10)},
    }
    repo = make_repo(tmp_path / "project", files)
    edits = [{"op": "replace-lines", "path": "src/auth/token.py", "start": n, "end": n,
              "content": f"value_{n} = compute_{n}()\n"} for n in (10, 40, 70, 100)]
    edits += [{"op": "replace-lines", "path": "src/app.py", "start": 5, "end": 6, "content": "stage_5 = 5\n"},
              {"op": "replace-lines", "path": "src/app.py", "start": 60, "end": 60, "content": "stage_60 = 60\nextra = step_1\n"}]
    edits += [{"op": "replace-lines", "path": f"docs/p{i}.md", "start": 2, "end": 19, "content": _para(f"new doc {i}", 18)}
              for i in range(10)]
    agy = install_fake_agy(tmp_path / "agy", success_scenario(edits))
    return repo, agy


async def test_review_read_names_exactly_the_packets_ranges_in_the_packets_order(tmp_path):
    repo, agy = _many_targets_scenario(tmp_path)
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        args = {"run_id": packet["run_id"], "detail": "diff"}
        default = (await client.call_tool("antigravity_get_result", args)).content[0].text
        whole = (await client.call_tool("antigravity_get_result", {**args, "max_chars": 200_000})).content[0].text
    targets = [(t["file"], t["lines"]) for t in packet["changes"]["review"]]
    assert targets[0] == ("src/auth/token.py", "10,40,70 +1 more")
    for text in (default, whole):
        labels = _labels(text)
        shown = [(f, lines) for f, lines, _ in labels]
        # The view begins with the targets, in the packet's order and under the packet's own lines.
        assert shown[: len(targets)] == [t for t in targets if t in shown], text
        assert shown[0] == targets[0]
        for file, lines, hunks in labels[: len(targets)]:
            named = _named(lines)
            runs = [r for h in hunks for r in _runs(h)]
            assert runs and all(_meets(r, named) for r in runs), (file, lines, runs)
    # With room for everything, each target shows exactly git's own -U0 hunks that meet its ranges, no more.
    for file, lines, hunks in _labels(whole)[: len(targets)]:
        named = _named(lines)
        assert [r for h in hunks for r in _runs(h)] == [r for r in _git_runs(repo, file) if _meets(r, named)]
    # The fourth range of the auth module (past the packet's three) comes after the targets, labelled as such.
    assert "## src/auth/token.py lines 100 (past the packet's ranges)\n" in whole


async def test_review_read_stays_in_its_budget_says_how_to_read_the_rest_and_the_cli_prints_the_same(tmp_path):
    repo, agy = _many_targets_scenario(tmp_path)
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        run_id = packet["run_id"]
        result = await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "diff"})
        text = result.content[0].text
        last = text.splitlines()[-1]
        asked = re.search(r"max_chars=(\d+) shows every target's lines", last)
        assert asked, last
        more = (await client.call_tool("antigravity_get_result", {"run_id": run_id, "detail": "diff",
                                                                  "max_chars": int(asked[1])})).content[0].text
    assert not result.is_error and len(text) <= DEFAULT_VIEW_CHARS
    # What was left out is named (targets by file and lines), and where the whole patch is.
    patch = tmp_path / "data" / "runs" / f"{run_id}.patch"
    assert last.startswith(f"# left out at max_chars={DEFAULT_VIEW_CHARS}: ") and last.endswith(f"the patch: {patch}")
    assert patch.read_bytes().count(b"diff --git ") == 12  # the whole patch stays on disk
    left = [t for t in packet["changes"]["review"] if not re.search(f"^## {re.escape(t['file'])} lines ", text, re.M)]
    assert left and all(f"{t['file']} lines {t['lines']}" in last for t in left[:3])
    # Asked with the figure it gave, every target is there at its lines, whole.
    labels = {(f, lines): hunks for f, lines, hunks in _labels(more)}
    for t in packet["changes"]["review"]:
        assert labels.get((t["file"], t["lines"])), t
    assert "more hunk" not in "".join(line for line in more.splitlines(keepends=True) if line.startswith("# … "))
    # The CLI prints the very same characters, by default too.
    data = {"GRAVITY_RELAY_DATA_DIR": env["GRAVITY_RELAY_DATA_DIR"], "PATH": env.get("PATH", "/usr/bin:/bin")}
    assert cli_main(["runs", "diff", run_id], data).stdout == text
    assert cli_main(["runs", "show", run_id, "--detail", "diff"], data).stdout == text


async def test_review_read_never_drops_the_riskiest_target_and_shows_where_its_finding_is(tmp_path):
    # The riskiest file's telling hunk is a 900-line block (about 85,000 characters, past any default) with
    # the line the ranking reads (shell=True) past what a window from its top would show at the default
    # budget (yet within the 40 lines the observation samples); smaller, lower targets follow.
    repo = make_repo(tmp_path / "project", {
        "src/runner.py": "import os\n\n\ndef run(cmd):\n    return os.system(cmd)\n",
        "README.md": "# project\n" + _para("readme", 10),
        "docs/guide.md": _para("guide", 10),
    })
    block = [f"    step_{i} = prepare(step_{i - 1}, options=DEFAULT_OPTIONS, retries=3) if step_{i - 1} else None\n"
             for i in range(1, 901)]
    block[36] = "    return subprocess.run(cmd, shell=True)\n"
    agy = install_fake_agy(tmp_path / "agy", success_scenario([
        {"op": "replace-lines", "path": "src/runner.py", "start": 1, "end": 1, "content": "import os\nimport subprocess\n"},
        {"op": "replace-lines", "path": "src/runner.py", "start": 5, "end": 5, "content": "".join(block)},
        {"op": "replace-lines", "path": "README.md", "start": 3, "end": 3, "content": "readme, reworded\n"},
        {"op": "replace-lines", "path": "docs/guide.md", "start": 4, "end": 4, "content": "guide, reworded\n"},
    ]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        args = {"run_id": packet["run_id"], "detail": "diff"}
        views = {n: (await client.call_tool("antigravity_get_result", {**args, "max_chars": n})).content[0].text
                 for n in (200, 600, 12_000)}
        views[None] = (await client.call_tool("antigravity_get_result", args)).content[0].text
    top = packet["changes"]["review"][0]
    assert top["file"] == "src/runner.py" and top["risk"] == "high"
    label = f"## src/runner.py lines {top['lines']}\n"
    for n, text in views.items():
        assert len(text) <= (n or DEFAULT_VIEW_CHARS), n
        assert text.splitlines(keepends=True)[1] == label, n  # first, at every budget
    for n in (None, 12_000):
        text = views[n]
        # Its most telling part: the window holds the line the ranking found, and says the hunk goes on.
        assert "+    return subprocess.run(cmd, shell=True)\n" in text
        assert re.search(r"^# … \d+ of this hunk's \d+ lines, around the ranking's finding$", text, re.M), text
        # The lower targets still get their lines, after it.
        assert text.index(label) < text.index("## README.md lines 3\n")
    assert "max_chars=" in views[200].splitlines()[-1]


@pytest.mark.parametrize("use_git", [True, False], ids=["git", "plain-folder"])
def test_review_read_of_every_kind_of_change_fits_any_budget_and_names_every_file_when_it_has_room(tmp_path, use_git):
    # A record without a packet (its relay died before the review): the targets are the ones the packet
    # would have named. Renames, deletions, binaries, modes, a symlink for a file, no final newline, quoted names.
    root = _workspace(tmp_path / "ws", use_git=use_git)
    store, run_id = _run(tmp_path, root)
    relay = Relay(load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")}))
    record = store.read(run_id)
    views = {n: relay.get_result(GetResultInput(run_id=run_id, detail=Detail.DIFF, max_chars=n))[1]
             for n in (200, 300, 500, 800, 1_200, 2_000, 100_000)}
    for n, text in views.items():
        assert len(text) <= n, n
        assert text.splitlines()[-1].startswith("# "), n  # it always ends on its closing note
    whole = views[100_000]
    assert whole.endswith(".patch\n") and "# that is the whole change" in whole
    for change in record.observation.changes:
        assert f"## {change.path} " in whole, change.path
    assert "+WORKER EDIT\n" in whole and "USER EDIT\n-" not in whole


def test_review_read_masks_a_credential_in_a_target_s_lines_and_in_a_window(tmp_path):
    token = "ghp_" + "a1B2c3D4e5" * 4
    root = make_repo(tmp_path / "ws", {"src/config.py": "NAME = 'x'\n"})

    def work(ws: Path) -> None:
        rows = [f"SETTING_{i} = 'value number {i} of a long generated table'\n" for i in range(400)]
        rows[3] = f"TOKEN = '{token}'\n"
        (ws / "src" / "config.py").write_text("NAME = 'x'\n" + "".join(rows), encoding="utf-8")

    store, run_id = _run(tmp_path, root, work)
    relay = Relay(load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")}))
    for n in (None, 100_000):
        text = relay.get_result(GetResultInput(run_id=run_id, detail=Detail.DIFF, max_chars=n))[1]
        assert token not in text and "[REDACTED:github-token]" in text, n
    assert token.encode() in store.patch_path(run_id).read_bytes()  # the file keeps it (0600)
