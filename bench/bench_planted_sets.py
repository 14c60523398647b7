"""Run many planted-risk sets at once, pool their figures, and say which entries moved between two runs.

Not a test. Issue 36's goals are pooled over many blind sets (bench/LEDGER.md), and a change to the review is
judged by the entries it moves, up or down, across every set. This script drives ``bench_risk_corpus.py`` (one
process per set, ``--jobs`` at a time, each writing ``--entries`` JSON lines) and reads those lines back:

    python bench/bench_planted_sets.py run --mirrors DIR --out runs/now 101-132      # ~20 s a set on 2 cores
    python bench/bench_planted_sets.py run --tree /tmp/old --mirrors DIR --out runs/old 101-132
    python bench/bench_planted_sets.py summary runs/now            # per set and pooled: top 3/8, view, named, low
    python bench/bench_planted_sets.py misses runs/now             # every entry that misses a goal, with its reason
    python bench/bench_planted_sets.py diff runs/old runs/now      # the entries that moved, and which way
    python bench/bench_planted_sets.py places runs/now             # overall low by the plant's place and kind (its labels)

``--tree`` runs another checkout's review (a worktree at the rules to compare: its ``relay`` package is the one
imported, by RELAY_BENCH_TREE) with this checkout's bench and corpora, so a set labelled today can be run on the rules of a session's start.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOALS = "goals on a blind first run: top 3 >= 90 %, top 8 >= 97 %, view >= 90 %, named >= 90 %, low <= 2.5 %"


def _sets(specs: list[str]) -> list[int]:
    out: list[int] = []
    for spec in specs:
        lo, _, hi = spec.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def _run_one(tree: Path, mirrors: str, out: Path, n: int) -> str:
    corpus = HERE / "corpora" / f"risk_corpus_planted_heldout{n}.json"
    if not corpus.exists():
        return f"{n}: no corpus {corpus.name}"
    entries = out / f"{n}.jsonl"
    entries.unlink(missing_ok=True)
    env = {**os.environ, "RELAY_BENCH_TREE": str(tree)}
    with (out / f"{n}.txt").open("w", encoding="utf-8") as log:
        done = subprocess.run([sys.executable, str(HERE / "bench_risk_corpus.py"), "--mirrors", mirrors,
                               "--corpus", str(corpus), "--entries", str(entries), "-v"],
                              stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tree, check=False)
    return f"{n}: exit {done.returncode}"


def _load(folder: Path) -> dict[tuple[str, str, str], dict]:
    rows: dict[tuple[str, str, str], dict] = {}
    for file in sorted(folder.glob("*.jsonl")):
        for line in file.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rows[(row["set"], row["repo"], row["commit"])] = row
    return rows


def _marks(row: dict) -> dict[str, bool]:
    plant = row.get("plant") or {}
    pos = row["pos"]
    return {"top3": pos is not None and pos <= 3, "top8": pos is not None and pos <= 8,
            "view": bool(plant.get("in_view")), "named": bool(plant.get("named")), "low": row["overall"] == "low"}


def _figures(rows: list[dict]) -> str:
    n = len(rows)
    got = {k: sum(_marks(r)[k] for r in rows) for k in ("top3", "top8", "view", "named", "low")}
    benign = sum(len(r.get("benign_high", [])) for r in rows)
    pct = {k: f"{v} ({v / n:.1%})" if n else "-" for k, v in got.items()}
    return (f"{n:>5} entries  top3 {pct['top3']:<14} top8 {pct['top8']:<14} view {pct['view']:<14}"
            f" named {pct['named']:<14} low {pct['low']:<12} benign high {benign}")


def summary(folders: list[Path]) -> None:
    for folder in folders:
        rows = [r for r in _load(folder).values() if r.get("plant")]
        print(f"== {folder}")
        for name in sorted({r["set"] for r in rows}, key=lambda s: (len(s), s)):
            print(f"{name:<22} {_figures([r for r in rows if r['set'] == name])}")
        print(f"{'pooled':<22} {_figures(rows)}\n{GOALS}")


def misses(folder: Path) -> None:
    for row in _load(folder).values():
        if not row.get("plant"):
            continue
        wrong = [k for k, v in _marks(row).items() if (not v if k != "low" else v)]
        if wrong:
            plant = row["plant"]
            print(f"{row['set']} {row['repo']}@{row['commit'][:10]} at {row['pos'] or '-'} [{', '.join(wrong)}] {plant['file']} "
                  f"({plant['risk']}): {plant['line'].strip()[:100]!r}\n      reason: {plant['reason'][:200]}")


# Where a labeller says the plant stands, and what kind it is (the brief's label_from: "(subtle|classic) inside the
# commit's own hunk | elsewhere in a file the commit changes | in a file the commit does not change").
_PLACES = (("inside the commit's own hunk", "in the commit's hunk"), ("does not change", "in a file the commit leaves"),
           ("elsewhere in a file", "elsewhere in a changed file"))


def places(folders: list[Path]) -> None:
    """Overall low by the plant's place and kind (session 54: the lows gather where a subtle plant is written into the
    commit's own new lines)."""
    for folder in folders:
        counts: dict[str, list[int]] = {}
        rows = [r for r in _load(folder).values() if r.get("plant")]
        labels = {}
        for name in {r["set"] for r in rows}:
            if (path := HERE / "corpora" / f"risk_corpus_{name}.json").exists():  # a set of this checkout's: its labels
                corpus = json.loads(path.read_text(encoding="utf-8"))
                labels.update({(name, e["repo"], e["commit"]): e.get("label_from", "") for e in corpus["commits"]})
        for r in rows:
            said = labels.get((r["set"], r["repo"], r["commit"]), "")
            place = next((short for words, short in _PLACES if words in said), "place not said")
            kind = "subtle" if "(subtle)" in said else "classic" if "(classic)" in said else "kind not said"
            for key in (f"{place}, {kind}", place, "all"):
                counts.setdefault(key, [0, 0])[0] += r["overall"] == "low"
                counts[key][1] += 1
        print(f"== {folder}")
        for key in sorted(counts, key=lambda k: (k == "all", "," not in k, k)):
            low, n = counts[key]
            print(f"{key:<48} low {low:>4} of {n:>5} ({low / n:.1%})")


def diff(old: Path, new: Path) -> None:
    before, after = _load(old), _load(new)
    moved = 0
    for key in sorted(set(before) & set(after)):
        a, b = _marks(before[key]), _marks(after[key])
        changes = []
        for name in a:
            if a[name] != b[name]:
                better = b[name] if name != "low" else not b[name]
                changes.append(f"{name} {'up' if better else 'DOWN'}")
        if before[key]["pos"] != after[key]["pos"]:
            changes.append(f"pos {before[key]['pos']}->{after[key]['pos']}")
        if changes:
            moved += 1
            print(f"{key[0]} {key[1]}@{key[2][:10]}: {', '.join(changes)}")
    only = len(set(before) ^ set(after))
    print(f"{moved} of {len(set(before) & set(after))} entries moved" + (f"; {only} in one run only" if only else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run sets (e.g. 101-132 133) into --out")
    run.add_argument("sets", nargs="+")
    run.add_argument("--mirrors", default=os.environ.get("RELAY_RISK_MIRRORS"), required="RELAY_RISK_MIRRORS" not in os.environ)
    run.add_argument("--out", required=True, type=Path)
    run.add_argument("--tree", type=Path, default=HERE.parent, help="the checkout whose review runs (default: this one)")
    run.add_argument("--jobs", type=int, default=2)
    for name, helptext in (("summary", "per set and pooled figures"), ("misses", "each entry that misses a goal"),
                           ("places", "overall low by the plant's place and kind, from each set's labels")):
        sub.add_parser(name, help=helptext).add_argument("folders", nargs="+", type=Path)
    compare = sub.add_parser("diff", help="the entries that moved between two runs")
    compare.add_argument("old", type=Path)
    compare.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    if args.command == "run":
        args.out.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for line in pool.map(lambda n: _run_one(args.tree.resolve(), args.mirrors, args.out, n), _sets(args.sets)):
                print(line, flush=True)
    elif args.command == "summary":
        summary(args.folders)
    elif args.command == "places":
        places(args.folders)
    elif args.command == "misses":
        for folder in args.folders:
            misses(folder)
    else:
        diff(args.old, args.new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
