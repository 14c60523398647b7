"""Issue 36, round 10 (part A): a small edit apart from the rest of the change (relay.review.apart_edits).

The party guarded against is the worker that slips one small edit into an ordinary change, by mistake or on a poisoned
instruction, in words no family reader knows: an unknown value mapped to Allow, a number moved, a path
pattern widened, a statement removed. What gives it away is where it stands: one run of 1-3 changed lines of code that
shares no name with the rest of the change nor with the leader's task. Each case below is read through observation of a
real repository and the packet (and the default view); each was left unquoted on round 9's rules and must now be quoted
(``old → new`` or ``removed: …``), its range first in ``lines``, its hunk in the default view, the change never low.
The near misses are the same shape where it is part of the work: the task names it, the rest of the change uses its
names (a rename carried through), it edits only a comment, an import or a version, or the change is a scatter of small
edits with no one edit apart.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from git_repos import make_repo
from relay.core.contracts import FileChange, Packet, RecordObservation, RecordOutcome, RecordPlan, RunRecord, Status, Tests, WorkerReport
from relay.observe.changes import observe_changes
from relay.observe.run_patch import build_run_patch
from relay.observe.snapshot import take_snapshot
from relay.review.apart_edits import Run, apart_edits
from relay.review.diff_view import diff_view
from relay.review.packet import build_review, fit_packet

__all__: list[str] = []  # a test module exports nothing

_RUN_ID = "run-20250101-000000-abcdef"

# The work each case does (a feature of a dozen lines in its own file) and the file the slipped edit goes into.
_WORK = {
    "go": ("export.go", "package casbin\n\nfunc Export() {}\n",
           "package casbin\n\nfunc Export(w Writer) error {\n\tfor _, row := range model.Rows() {\n\t\tif werr := w.WriteRow(row.Fields()); werr != nil {\n"
           "\t\t\treturn fmt.Errorf(\"export row %d: %w\", row.Index, werr)\n\t\t}\n\t}\n\treturn w.Flush()\n}\n"),
    "py": ("pkg/report.py", "def render():\n    pass\n",
           "def render(rows, width=80):\n    lines = []\n    for row in rows:\n        cells = [str(c).ljust(width // len(row)) for c in row]\n"
           "        lines.append(' | '.join(cells))\n    header = '-' * width\n    return '\\n'.join([header, *lines, header])\n"),
    "rb": ("lib/widget/formatter.rb", "module Widget\n  class Formatter\n  end\nend\n",
           "module Widget\n  class Formatter\n    def initialize(columns)\n      @columns = columns\n    end\n\n    def format_row(values)\n"
           "      values.zip(@columns).map { |value, column| column.pad(value) }.join(' ')\n    end\n  end\nend\n"),
    "js": ("src/table.js", "export function table() {}\n",
           "export function table(items, opts = {}) {\n  const sep = opts.separator ?? ' | ';\n  const out = items.map((it) => it.cells.join(sep));\n"
           "  if (opts.heading) out.unshift(opts.heading);\n  return out.join('\\n');\n}\n"),
}
# More work beside each case's own: the rest of a change an edit apart is worth a look in holds some twenty lines.
_MORE = {"go": "".join(f"\nfunc helperStep{i}(v int) int {{\n\treturn v * {i + 2}\n}}\n" for i in range(6)),
         "py": "".join(f"\n\ndef helper_step{i}(v):\n    return v * {i + 2}\n" for i in range(6)),
         "rb": "".join(f"\nmodule HelperStep{i}\n  def self.call(v) = v * {i + 2}\nend\n" for i in range(6)),
         "js": "".join(f"\nexport function helperStep{i}(v) {{\n  return v * {i + 2};\n}}\n" for i in range(6))}
_FILLER = "".join(f"    x{i} = {i}\n" for i in range(12))


def _review(tmp_path: Path, files: dict[str, str], edits: dict[str, str], task: str = "") -> tuple[Packet, str]:
    """The packet and the default view of a run that wrote ``edits`` over ``files``, as the relay builds them."""
    root = make_repo(tmp_path / "repo", files)
    snap = take_snapshot(root)
    for path, text in edits.items():
        (root / path).write_text(text, encoding="utf-8")
    changeset = observe_changes(snap, root)
    report = WorkerReport(summary="Did the task.", files_changed=[c.path for c in changeset.files], tests_run=False)
    changes, flags, assessed = build_review(changeset, report=report, workspace=root, task=task)
    packet = fit_packet(Packet(ok=True, run_id=_RUN_ID, status=Status.SUCCESS, summary=report.summary, changes=changes, flags=flags,
                               tests=Tests(source="none")))
    record = RunRecord(run_id=_RUN_ID, created_at="2026-01-01T00:00:00Z", state="finished", plan=RecordPlan(workspace=str(root)),
                       observation=RecordObservation(changes=assessed), outcome=RecordOutcome(status=Status.SUCCESS, packet=packet))
    built = build_run_patch(snap, changeset, root, run_id=_RUN_ID)
    _, view = diff_view(record, Status.SUCCESS, built[0] if built else None, f"/data/runs/{_RUN_ID}.patch")
    return packet, view


def _case(tmp_path: Path, eco: str, path: str, before: str, after: str, task: str = "Add the table export") -> tuple[Packet, str]:
    work, old_work, new_work = _WORK[eco]
    return _review(tmp_path, {work: old_work, path: before}, {work: new_work + _MORE[eco], path: after}, task)


# (ecosystem, file, its text before, the slipped edit (find, replace), the line that must be in the view, what the reason quotes)
_SLIPS = [
    # an unknown value mapped to Allow (Go, casbin held-out 9) and a default flipped open (Ruby)
    ("go", "enforcer.go", "package casbin\n\nfunc merge() {\n\tswitch eft {\n\tdefault:\n\t\tpolicyEffects[idx] = effector.Indeterminate\n\t}\n}\n",
     ("effector.Indeterminate", "effector.Allow"), "policyEffects[idx] = effector.Allow", "effector.Indeterminate → "),
    ("rb", "lib/widget/access.rb", "module Widget\n  def self.visible?(record)\n    record.published? && !record.hidden?\n  end\nend\n",
     ("record.published? && !record.hidden?", "record.published? || !record.hidden?"), "record.published? || !record.hidden?", "published? || !record"),
    # a number moved in the domain's own terms (Python: a discount rate; JavaScript: a batch bound)
    ("py", "pkg/pricing.py", f"def discounted(total):\n{_FILLER}    return round(total * 0.9, 2)\n",
     ("round(total * 0.9, 2)", "round(total * 0.1, 2)"), "round(total * 0.1, 2)", "round(total * 0.1, 2)"),
    ("js", "src/batch.js", "export function slices(queue) {\n  return queue.take(maxBatchItems = 100);\n}\n",
     ("maxBatchItems = 100", "maxBatchItems = 100000"), "maxBatchItems = 100000", "maxBatchItems = 100000"),
    # a statement removed (Go: a skip of the unmatched rules, casbin held-out 9; Python: an expiry check)
    ("go", "effector/default.go",
     "package effector\n\nfunc Merge(effects []Effect, matches []float64) Effect {\n\tfor i, eft := range effects {\n\t\tif matches[i] == 0 {\n"
     "\t\t\tcontinue\n\t\t}\n\t\tif eft == Allow {\n\t\t\treturn Allow\n\t\t}\n\t}\n\treturn Deny\n}\n",
     ("\t\tif matches[i] == 0 {\n\t\t\tcontinue\n\t\t}\n", ""), "if eft == Allow {", "removed apart from the change in Merge(): if matches[i] == 0"),
    ("py", "pkg/session.py", f"def load(store, sid, now):\n    rec = store.get(sid)\n{_FILLER}    if rec.expires_at < now:\n        rec = None\n    return rec\n",
     ("    if rec.expires_at < now:\n        rec = None\n", ""), "return rec", "removed apart from the change in load(): if rec.expires_at < now"),
]


@pytest.mark.parametrize(("eco", "path", "before", "edit", "shown", "quoted"), _SLIPS, ids=[s[1] for s in _SLIPS])
def test_a_small_edit_apart_from_the_change_is_quoted_first_and_never_low(
        tmp_path: Path, eco: str, path: str, before: str, edit: tuple[str, str], shown: str, quoted: str) -> None:
    packet, view = _case(tmp_path, eco, path, before, before.replace(*edit))
    target = next(t for t in packet.changes.review if t.file == path)
    assert "apart from the change" in target.reason and quoted in target.reason, target.reason
    assert target.risk != "low" and packet.changes.risk != "low"
    assert shown in view, view
    assert len(view) <= 2500


def test_the_slipped_lines_range_is_named_first_in_a_file_the_work_also_edits(tmp_path: Path) -> None:
    # The work edits the top of the file at length; the slip is a line at its end: its range comes first in ``lines``.
    body = "".join(f"def f{i}(a):\n    return a + {i}\n\n" for i in range(30)) + "def discounted(order):\n    return order.amount > 100\n"
    work = body.replace("def f0(a):\n    return a + 0\n", "def f0(a, extra=None):\n    if extra is None:\n        extra = []\n"
                        "    total = a + sum(extra)\n    logged = [a, *extra]\n    print('summing', logged)\n    return total\n")
    slipped = work.replace("order.amount > 100", "order.amount > 10")
    packet, view = _review(tmp_path, {"pkg/ops.py": body}, {"pkg/ops.py": slipped}, "Let f0 take extra operands")
    target = packet.changes.review[0]
    assert target.file == "pkg/ops.py" and "apart from the change" in target.reason, target
    start = int(target.lines.split(",")[0].split("-")[0])
    assert start > 80, target.lines
    assert "return order.amount > 10\n" in view


@pytest.mark.parametrize(
    ("name", "path", "before", "after", "task"),
    [
        # the task names the edit: it is the work, not apart from it
        ("asked", "enforcer.go", "package casbin\n\nfunc merge() {\n\tpolicyEffects[idx] = effector.Indeterminate\n}\n",
         "package casbin\n\nfunc merge() {\n\tpolicyEffects[idx] = effector.Allow\n}\n", "Add the table export and map policyEffects to Allow"),
        # a comment, an import, a version string, whitespace: no code edited
        ("comment", "pkg/kdf.py", "def derive(p):\n    # slow on purpose\n    return p\n", "def derive(p):\n    # slow on purpose (see the docs)\n    return p\n", ""),
        ("import", "pkg/kdf.py", "import hashlib\n\ndef derive(p):\n    return p\n", "import hashlib, hmac\n\ndef derive(p):\n    return p\n", ""),
        ("version", "pkg/meta.py", "__version__ = '1.2.3'\n", "__version__ = '1.2.4'\n", ""),
        ("spacing", "pkg/kdf.py", "def derive(p):\n    return  p\n", "def derive(p):\n    return p\n", ""),
        ("docstring", "pkg/kdf.py", 'def derive(p):\n    """Derive a key."""\n    return p\n', 'def derive(p):\n    """Derive the key."""\n    return p\n', ""),
    ],
)
def test_an_edit_that_is_not_code_or_is_asked_for_is_not_called_apart(tmp_path: Path, name: str, path: str, before: str, after: str,
                                                                      task: str) -> None:
    eco = "go" if path.endswith(".go") else "py"
    packet, _ = _case(tmp_path, eco, path, before, after, task or "Add the table export")
    reasons = " ".join(t.reason for t in packet.changes.review)
    assert "apart from the change" not in reasons, reasons


def test_a_rename_carried_through_the_change_is_not_apart() -> None:
    # The same new name in the other runs: the edit is part of the work.
    runs = [Run("src/a.py", 3, 3, ("    total = compute_total(items)",), ("    total = sum_items(items)",)),
            Run("src/b.py", 8, 8, ("from .a import compute_total",), ("from .a import sum_items",)),
            Run("src/b.py", 20, 21, ("    return compute_total(rows) + fee", "    # done"), ("    return sum_items(rows) + fee",))]
    assert apart_edits(runs) == ({}, {})


def test_a_scatter_of_small_unrelated_edits_has_no_one_edit_apart() -> None:
    runs = [Run(f"src/m{i}.py", 5, 5, (f"    value_{i} = limit_{i} + 1",), (f"    value_{i} = limit_{i}",)) for i in range(4)]
    assert apart_edits(runs) == ({}, {})


def test_a_change_of_one_run_has_nothing_to_be_apart_from() -> None:
    assert apart_edits([Run("src/a.py", 3, 3, ("    allowed = True",), ("    allowed = is_member(user)",))]) == ({}, {})


def test_an_edit_apart_that_cannot_let_more_through_is_quoted_but_decides_no_risk(tmp_path: Path) -> None:
    # A call swapped for another (no switch, number, comparison, verdict or statement removed): quoted, and low. One name
    # put for another is not raised by the low change's floor either (relay.review.low_change_floor, round 34).
    before = "def load(registry, key):\n    return registry.lookup(key)\n"
    packet, view = _case(tmp_path, "py", "pkg/registry.py", before, before.replace("registry.lookup(key)", "registry.find_entry(key)"))
    target = next(t for t in packet.changes.review if t.file == "pkg/registry.py")
    assert target.reason.startswith("edit apart from the change in load(): return registry.lookup(key) → return registry.find_entry(key)"), target
    assert target.risk == "low"
    assert "registry.find_entry(key)" in view


def test_a_big_hunks_window_goes_to_the_line_the_reason_names_first() -> None:
    # Round 42 (blind 66's serilog): the reason named the slipped comparison first ("inverts a comparison in a security
    # line"), an edit apart second; the window of the 400-row hunk went to the edit apart (a generic reader's quote gave
    # way to any other line rule's), and the line the leader was told about was not in the view.
    from relay.review.telling import cut_window

    rows = [f"-            keep{i} = Read({i});" for i in range(30)] + [f"+        keep{i} = Read({i});" for i in range(30)]
    rows += ["+        }", "+        catch (DirectoryNotFoundException) { }"] + [f"+        step{i}();" for i in range(60)]
    rows += ["-                if (file.DateTime.Value < now.Subtract(_limit.Value))",
             "+                if (file.DateTime.Value > now.Subtract(_limit.Value))"] + [f"+        tail{i}();" for i in range(40)]
    text = f"@@ -1,32 +1,{len(rows)} @@\n" + "\n".join(rows) + "\n"
    change = FileChange(path="src/Sinks/RollingFileSink.cs", risk="medium", rules=["edits_security_line", "edit_apart"],
                        reasons=["inverts a comparison in a security line (< → >): if (file.DateTime.Value > now.Subtract(_limit.Value…",
                                 "edit apart from the change in RollingFileSink: catch (DirectoryNotFoundException… → } catch (Directory…"])
    shown = cut_window(change, change.path, text, 700, 200, 3)
    assert shown is not None and "file.DateTime.Value > now" in shown, shown
    # The order is the reason's: named the other way round, the window goes to the edit apart, and the comparison named
    # second, 60 rows below it, shows as a window of its own rows ±1 after it (session 38).
    swapped = FileChange(path=change.path, risk="medium", rules=["edit_apart", "edits_security_line"], reasons=change.reasons[::-1])
    shown = cut_window(swapped, swapped.path, text, 700, 200, 3)
    assert shown is not None and shown.index("DirectoryNotFoundException") < shown.index("DateTime.Value > now"), shown
    windows = shown.split("@@ -")[1:]
    assert len(windows) == 2 and "step0();" in windows[0] and windows[1].count("\n+") + windows[1].count("\n-") == 3, shown
    # With room for the first window alone, the second is left out rather than the first cut below its rows.
    narrow = cut_window(swapped, swapped.path, text, 260, 200, 3)
    assert narrow is not None and "DirectoryNotFoundException" in narrow and "DateTime" not in narrow, narrow
