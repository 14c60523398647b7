"""Benchmark: what the leader reads to review a run — the packet, then the default diff view.

Not a test. Each commit of the risk corpora (bench/corpora/risk_corpus*.json) whose repository
has a local mirror is replayed as a run would see it: the parent commit is checked out in a temp
dir, a snapshot is taken, the commit's files are written over it (as the worker would), then the
relay's own observation, review, packet budget, run patch and diff view run on it. Printed per
commit (with -v) and as median / max over all commits:

- packet: the packet text the leader reads first (compact JSON, bytes);
- view: ``antigravity_get_result(detail="diff")`` with no ``max_chars`` (the default review read);
- packet+view: what a leader reads to accept a run the way the seed's workflow does;
- whole diff: ``git diff parent commit`` (bytes), what reading the change itself costs;
- riskiest in view: for commits with a labelled riskiest file, how often one of its hunks
  (a ``@@`` line under that file) is in the default view.

Mirrors: bare clones or snapshots, looked up as DIR/owner+name.git, DIR/owner+name/repo,
DIR/owner+name or DIR/name.git (bench/bench_risk_corpus.py's docstring lists them all and how to
clone them; a snapshot brought by a fetch tool, DIR/owner+name/repo, works as is). A repository
without a mirror is skipped, and said.

The README's figures: the main corpus, held-out and held-out-11 over the mirrors of alexcrichton/tar-rs,
andialbrecht/sqlparse, isaacs/node-tar, jpadilla/pyjwt, paramiko/paramiko, yaml/pyyaml, cthackers/adm-zip,
cyphar/filepath-securejoin, pallets/jinja and firebase/php-jwt (85 commits).

Run from the repository root:

    python bench/bench_review_read.py --mirrors DIR                  # the main corpus
    python bench/bench_review_read.py --mirrors DIR --corpus bench/corpora/risk_corpus_heldout.json ...
    python bench/bench_review_read.py --mirrors DIR --all -v         # every set, one line per commit
    python bench/bench_review_read.py --mirrors DIR --max-chars 12000   # the view at another budget
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from relay.core.contracts import (  # noqa: E402
    Packet, RecordObservation, RecordOutcome, RecordPlan, RunRecord, Status, Tests, WorkerReport,
)
from relay.observe.changes import observe_changes  # noqa: E402
from relay.observe.run_patch import build_run_patch  # noqa: E402
from relay.observe.snapshot import take_snapshot  # noqa: E402
from relay.review.diff_view import diff_view, view_labels  # noqa: E402
from relay.review.packet import build_review, fit_packet  # noqa: E402
from relay.runs.results import encode, packet_object  # noqa: E402

__all__ = ["main"]

FIXTURES = Path(__file__).resolve().parent / "corpora"
CORPUS = FIXTURES / "risk_corpus.json"
RUN_ID = "r20260101T000000-0000abcd"

# One way to reach a mirror and run git on it, shared with the risk bench (same folder on sys.path).
from bench_risk_corpus import PlantError, _checkout_parent, _find_mirror, _git, apply_plant  # noqa: E402


def _write_commit(mirror: Path, work: Path, commit: str, parent: str) -> None:
    """Write every file of ``commit`` over the ``parent`` checkout, as a worker's edits would land."""
    raw = _git(None, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", parent, commit, git_dir=mirror).split(b"\0")
    for meta, name in zip(raw[0:-1:2], raw[1::2]):
        _, mode_after, _, blob_after, status = meta.decode().lstrip(":").split(" ")
        target = work / os.fsdecode(name)
        if target.is_symlink() or target.exists():
            target.unlink()
        if status == "D" or mode_after == "160000":
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _git(None, "cat-file", "blob", blob_after, git_dir=mirror)
        if mode_after == "120000":
            os.symlink(os.fsdecode(data), target)
        else:
            target.write_bytes(data)
            if mode_after == "100755":
                target.chmod(0o755)


def _replay(mirror: Path, entry: dict, tmp: Path, max_chars: int | None) -> dict | None:
    checked_out = _checkout_parent(mirror, entry, tmp)
    if checked_out is None:
        return None
    work, commit, parent = checked_out
    snap = take_snapshot(work)
    _write_commit(mirror, work, commit, parent)
    apply_plant(work, entry)  # a planted entry (issue 36): its risky edit over the post-commit tree
    changeset = observe_changes(snap, work)
    if changeset.source == "report":
        return None
    report = WorkerReport(summary="Applied the upstream commit.", files_changed=[c.path for c in changeset.files])
    changes, flags, assessed = build_review(changeset, report=report, workspace=work)
    packet = fit_packet(Packet(ok=True, run_id=RUN_ID, status=Status.SUCCESS, summary=report.summary, changes=changes,
                               flags=flags, tests=Tests(source="none")))
    record = RunRecord(run_id=RUN_ID, created_at="2026-01-01T00:00:00Z", state="finished",
                       plan=RecordPlan(workspace=str(work)), observation=RecordObservation(changes=assessed),
                       outcome=RecordOutcome(status=Status.SUCCESS, packet=packet))
    built = build_run_patch(snap, changeset, work, run_id=RUN_ID)
    patch = built[0] if built else None
    patch_path = f"/home/me/.local/share/gravity-relay/runs/{RUN_ID}.patch"
    _, view = diff_view(record, Status.SUCCESS, patch, patch_path, max_chars)
    whole = _git(None, "diff", "--no-renames", parent, commit, git_dir=mirror)
    shown = {file for file, _, hunks in view_labels(view) if hunks}
    # A file the packet names no lines for (deleted, binary, renamed only) is in the view as the packet names
    # it when its own label is: there are no hunks of it to show.
    bare = {t.file for t in packet.changes.review if not t.lines and f"## {t.file} (" in view}
    return {
        "packet": len(encode(packet_object(packet))),
        "view": len(view.encode()),
        "whole": len(whole),
        "files": len(changeset.files),
        "riskiest": entry.get("riskiest", []),
        "in_view": any(path in shown or path in bare for path in entry.get("riskiest", [])),
        "bare": not any(path in shown for path in entry.get("riskiest", [])) and any(
            path in bare for path in entry.get("riskiest", [])),
        "top": packet.changes.review[0].file if packet.changes.review else "",
        # Where the packet puts the riskiest file: its target number (1-based), 0 when it is not a target.
        "rank": next((k for k, t in enumerate(packet.changes.review, 1) if t.file in entry.get("riskiest", [])), 0),
    }


def _stats(values: list[int]) -> str:
    return f"median {statistics.median(values):>7,.0f} B   max {max(values):>7,} B"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", default=os.environ.get("RELAY_RISK_MIRRORS"),
                        help="folder of mirrors (or env RELAY_RISK_MIRRORS)")
    parser.add_argument("--corpus", action="append", help="a corpus file (repeatable; default the main corpus)")
    parser.add_argument("--all", action="store_true", help="every bench/corpora/risk_corpus*.json")
    parser.add_argument("--max-chars", type=int, default=None, help="ask the view with this max_chars (default: none, "
                        "the view's own default)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per commit")
    args = parser.parse_args(argv)
    if not args.mirrors:
        print("no mirrors folder: pass --mirrors DIR or set RELAY_RISK_MIRRORS (see the docstring)", file=sys.stderr)
        return 2
    base = Path(args.mirrors).expanduser()
    files = [Path(f) for f in args.corpus or []]
    if args.all:
        files += sorted(FIXTURES.glob("risk_corpus*.json"), key=lambda f: (len(f.name), f.name))
    files = files or [CORPUS]
    rows: list[dict] = []
    skipped: set[str] = set()
    tmp = Path(tempfile.mkdtemp(prefix="relay-review-read-"))
    try:
        for file in files:
            for entry in json.loads(file.read_text(encoding="utf-8"))["commits"]:
                mirror = _find_mirror(base, entry["repo"])
                if mirror is None:
                    skipped.add(entry["repo"])
                    continue
                try:
                    row = _replay(mirror, entry, tmp, args.max_chars)
                except (subprocess.CalledProcessError, PlantError):
                    row = None
                if row is None:
                    print(f"skipped {entry['repo']}@{entry['commit']}: not replayable from the mirror", file=sys.stderr)
                    continue
                row["name"] = f"{entry['repo']}@{entry['commit'][:10]}"
                rows.append(row)
                if args.verbose:
                    mark = "-" if not row["riskiest"] else "yes" if row["in_view"] else "NO"
                    print(f"{row['name']:<46} files {row['files']:>3}  packet {row['packet']:>5}  view {row['view']:>6}"
                          f"  total {row['packet'] + row['view']:>6}  whole {row['whole']:>8}  riskiest in view {mark}"
                          + ("" if mark != "NO" else f" (riskiest {row['riskiest'][0]}: "
                             + (f"target {row['rank']}" if row["rank"] else "not a target") + ")"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if skipped:
        print(f"no mirror (skipped): {', '.join(sorted(skipped))}", file=sys.stderr)
    if not rows:
        print("no commit replayed", file=sys.stderr)
        return 1
    projects = len({r["name"].split("@")[0] for r in rows})
    budget = "default" if args.max_chars is None else f"max_chars={args.max_chars:,}"
    print(f"{len(rows)} commits from {projects} projects ({statistics.median(r['files'] for r in rows):.0f} files "
          f"changed at the median, {max(r['files'] for r in rows)} at most); the view at its {budget} budget")
    groups = [("all commits", rows)] + [(f"commits changing {n} files or more", [r for r in rows if r["files"] >= n])
                                         for n in (2, 5)]
    for name, some in groups:
        if not some:
            continue
        labelled = [r for r in some if r["riskiest"]]
        hits = sum(r["in_view"] for r in labelled)
        bare = sum(r["bare"] for r in labelled)
        print(f"{name} ({len(some)}):")
        print(f"  packet text           {_stats([r['packet'] for r in some])}")
        print(f"  view                  {_stats([r['view'] for r in some])}")
        print(f"  packet + view         {_stats([r['packet'] + r['view'] for r in some])}")
        print(f"  whole git diff        {_stats([r['whole'] for r in some])}")
        if labelled:
            targeted = [r for r in labelled if r["rank"]]
            print(f"  riskiest file among the packet's targets: {len(targeted)} of {len(labelled)}; its hunks in the view "
                  f"when it is: {sum(r['in_view'] for r in targeted)} of {len(targeted)}")
            print(f"  riskiest file's hunks in the view: {hits} of {len(labelled)} commits ({hits / len(labelled):.0%})"
                  + (f"; {bare} of them a file with no lines to show (deleted, binary), by its label" if bare else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
