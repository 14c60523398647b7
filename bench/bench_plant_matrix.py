"""Benchmark: the kind x ecosystem matrix of planted lines (issue 36, round 17).

Not a test (tests/test_plant_matrix.py runs its caught cells). Each case of bench/plant_matrix/*.json is a small
synthetic change: a file's text before and after, with ONE planted edit of 1-3 lines among ordinary lines (and, when
the case says so, the commit's own ordinary edits beside it), or an ordinary look-alike that must stay quiet. The
change is reviewed as the relay reviews a run (``build_review`` + ``fit_packet`` + the default ``diff_view``), from a
patch written here in git's shape (no git, no repository: a case costs milliseconds), and each cell says:

  file    the planted file is medium or high           overall  the change is not low
  named   the planted file's reason holds a kind word   first    the planted line is in the target's first range
  view    the planted line is in the default view

A look-alike is "quiet" when its file is not high and its reason says none of its words (a small edit apart from the
commit's own work is still worth a medium: the quiet a look-alike owes is not being called the kind). Usage:

    PYTHONPATH=. python bench/bench_plant_matrix.py [-v] [--part subtle] [--kind KIND]

A case (one JSON object in a part's list): ``kind``, ``eco`` (the ecosystem), ``place`` (code, comment, sample,
manifest, ci, test), ``path``, ``before``, ``after`` (the planted file's text), ``line`` (the planted line's text,
added or, for a line removed, removed), ``words`` (a reason naming the plant holds one of them), optionally ``also``
({path: [before, after]}: the commit's other files, "" for a file it adds; without it, a CHANGELOG entry), ``quiet:
true`` for a look-alike, ``tag`` to tell two cases of one cell apart, and ``caught`` (written by ``--mark``: the cells
tests/test_plant_matrix.py holds to).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from relay.core.contracts import (Packet, RecordObservation, RecordOutcome, RecordPlan, RunRecord, Status, Tests,
                                  WorkerReport)
from relay.core.redact import redact
from relay.observe.changes import ChangeSet, _change
from relay.observe.patch import split_patch
from relay.observe.run_patch import build_run_patch
from relay.review.diff_view import diff_view
from relay.review.packet import build_review, fit_packet

MATRIX = Path(__file__).resolve().parent / "plant_matrix"
_RUN_ID = "run-20260101-000000-abcdef"
# Each case's workspace is written in memory where the machine has it: on a disk, its mkdir and rmdir cost more than
# the review (174 cases: 2.1 s of the 3.0 s in /tmp, none in /dev/shm).
_SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
# The commit's own work every case carries beside its plant (a plant is one edit inside an ordinary commit).
_CHANGELOG = ("CHANGELOG.md", "# Changelog\n\n## 1.4.0\n\n- Faster startup.\n",
              "# Changelog\n\n## 1.5.0\n\n- Export rows as CSV.\n\n## 1.4.0\n\n- Faster startup.\n")


class _Snap:  # build_run_patch reads only the snapshot's source
    source = "git"


def _section(path: str, before: str, after: str) -> bytes:
    """One file's section of a patch in git's shape (-U3)."""
    old = before.splitlines(keepends=True) if before else []
    new = after.splitlines(keepends=True)
    head = f"diff --git a/{path} b/{path}\n"
    if not before:
        head += "new file mode 100644\nindex 0000000..1111111\n--- /dev/null\n"
    else:
        head += "index 1111111..2222222 100644\n--- a/" + path + "\n"
    head += f"+++ b/{path}\n"
    body = []
    for line in list(difflib.unified_diff(old, new, n=3, lineterm="\n"))[2:]:
        body.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return (head + "".join(body)).encode()


def _planted_line_number(before: str, after: str, line: str) -> int:
    """The planted line's number in the new file (a removed line: the line it followed, as git's ranges mark it)."""
    old, new = before.splitlines(), after.splitlines()
    want = line.strip()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for j in range(j1, j2):
            if new[j].strip() == want:
                return j + 1
        if any(old[i].strip() == want for i in range(i1, i2)):
            return j1 + 1 if j2 > j1 else max(j1, 1)
    return 0


def _covers(lines: str, number: int) -> bool:
    first = lines.split(",")[0].strip()
    if not first or not number:
        return False
    low, _, high = first.partition("-")
    try:
        return int(low) <= number <= int(high or low)
    except ValueError:
        return False


def review_case(case: dict) -> dict:
    """What the leader reads of one case: the planted file's risk and reason, the change's risk, its lines, the view."""
    files = {case["path"]: (case["before"], case["after"])}
    files.update({p: tuple(pair) for p, pair in case.get("also", {}).items()})
    if "also" not in case:
        files[_CHANGELOG[0]] = _CHANGELOG[1:]
    patch = b"".join(_section(p, b, a) for p, (b, a) in sorted(files.items()))
    _, sections = split_patch(patch)
    changeset = ChangeSet(source="git", files=[_change([s]) for s in sections], patch=patch)
    with tempfile.TemporaryDirectory(dir=_SCRATCH) as tmp:
        root = Path(tmp)
        for path, (_, after) in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(after, encoding="utf-8")
        report = WorkerReport(summary="Did the task.", files_changed=sorted(files), tests_run=False)
        changes, flags, assessed = build_review(changeset, report=report, workspace=root, task="")
        packet = fit_packet(Packet(ok=True, run_id=_RUN_ID, status=Status.SUCCESS, summary=report.summary, changes=changes,
                                   flags=flags, tests=Tests(source="none")))
        record = RunRecord(run_id=_RUN_ID, created_at="2026-01-01T00:00:00Z", state="finished",
                           plan=RecordPlan(workspace=str(root)), observation=RecordObservation(changes=assessed),
                           outcome=RecordOutcome(status=Status.SUCCESS, packet=packet))
        built = build_run_patch(_Snap(), changeset, root, run_id=_RUN_ID)  # type: ignore[arg-type]
        _, view = diff_view(record, Status.SUCCESS, built[0] if built else None, f"/data/runs/{_RUN_ID}.patch")
    mine = next(c for c in assessed if c.path == case["path"])
    target = next((t for t in packet.changes.review if t.file == case["path"]), None)
    reason = target.reason if target is not None else "; ".join(mine.reasons)
    number = _planted_line_number(case["before"], case["after"], case["line"])
    return {"risk": mine.risk, "overall": packet.changes.risk, "reason": reason,
            "file": mine.risk != "low", "not_low": packet.changes.risk != "low",
            "named": any(w.lower() in reason.lower() for w in case["words"]),
            "first": target is not None and _covers(target.lines, number),
            # the view masks a credential's shape (relay.core.redact): a planted secret shows masked, as the leader reads it
            "view": any(text in view for text in (case["line"].strip(), redact(case["line"].strip())))}


CHECKS = ("file", "not_low", "named", "first", "view")
_MARK = {"file": "F", "not_low": "L", "named": "N", "first": "1", "view": "V"}


def caught(case: dict, out: dict) -> bool:
    """A plant's cell is caught when all five hold; a look-alike's when its file is not high and its reason holds none
    of the look-alike's words (what a finding of the kind would say)."""
    if case.get("quiet"):
        return out["risk"] != "high" and not out["named"]
    return all(out[c] for c in CHECKS)


def case_id(case: dict) -> str:
    return f"{case['kind']}/{case['eco']}/{case['place']}" + ("/quiet" if case.get("quiet") else "") + (
        f"/{case['tag']}" if case.get("tag") else "")


def load(parts: list[str] | None = None) -> list[tuple[str, dict]]:
    out = []
    for path in sorted(MATRIX.glob("*.json")):
        if parts and path.stem not in parts:
            continue
        out.extend((path.stem, case) for case in json.loads(path.read_text(encoding="utf-8")))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", action="store_true", help="print every cell's reason")
    ap.add_argument("--part", action="append", help="only this part (a file name of bench/plant_matrix without .json)")
    ap.add_argument("--kind", help="only this kind")
    ap.add_argument("--mark", action="store_true",
                    help="write each case's \"caught\" back into its part's file (tests/test_plant_matrix.py keeps those caught)")
    args = ap.parse_args(argv)
    marked: dict[str, list[dict]] = defaultdict(list)
    grid: dict[str, dict[str, str]] = defaultdict(dict)
    totals = defaultdict(int)
    ecos: list[str] = []
    for part, case in load(args.part):
        if args.kind and case["kind"] != args.kind:
            continue
        out = review_case(case)
        ok = caught(case, out)
        case["caught"] = ok
        marked[part].append(case)
        key = "quiet" if case.get("quiet") else "plant"
        totals[key] += 1
        totals[key + "_ok"] += ok
        if not case.get("quiet"):
            for c in CHECKS:
                totals[c] += out[c]
        if case["eco"] not in ecos:
            ecos.append(case["eco"])
        cell = ("ok" if ok else "".join(_MARK[c] for c in CHECKS if not out[c]) if not case.get("quiet") else "LOUD")
        row = f"{part}:{case['kind']}" + (" (look-alike)" if case.get("quiet") else "")
        prev = grid[row].get(case["eco"])
        grid[row][case["eco"]] = cell if prev is None else prev + "," + cell
        if args.v or not ok:
            print(f"{'  ' if ok else '! '}{case_id(case):45} {out['risk']:6} overall {out['overall']:6} {case['path']}: "
                  f"{out['reason'][:160]}")
    width = max((len(r) for r in grid), default=10)
    print()
    print(" " * width + " " + " ".join(f"{e[:7]:>7}" for e in ecos))
    for row in sorted(grid):
        print(f"{row:{width}} " + " ".join(f"{grid[row].get(e, ''):>7}" for e in ecos))
    n = totals["plant"] or 1
    print(f"\nplants caught {totals['plant_ok']}/{totals['plant']}: file>=medium {totals['file']}, overall not low "
          f"{totals['not_low']}, named {totals['named']}, first {totals['first']}, in view {totals['view']} "
          f"({totals['plant_ok'] / n:.0%}); look-alikes quiet {totals['quiet_ok']}/{totals['quiet']}")
    if args.mark and not args.kind:
        for part, cases in marked.items():
            (MATRIX / f"{part}.json").write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("a missed cell lists what failed: F file low, L change low, N not named, 1 not first, V not in view; "
          "LOUD a look-alike not quiet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
