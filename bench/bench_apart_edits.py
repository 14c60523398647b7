"""What reading "an edit apart from the change" costs and gains (issue 36, round 10 part A).

Cost: of the latest N non-merge commits of every repository the ordinary corpora name, how many hold a run the reader
finds apart (``relay.review.apart_edits``): each is a quote a leader reads on ordinary work. Gain: of the planted sets'
entries, how many plants are such a run (the commit replayed as a -U0 patch with the plant written over its file).
Each figure is printed per setting: every apart run, only those that weaken (a statement removed, a number, comparison
or switch changed), only those in a security-relevant file, with and without the task (the commit's subject).

    python bench/bench_apart_edits.py --mirrors /work/.mirror --commits 200
    python bench/bench_apart_edits.py --mirrors /work/.mirror --planted-only -v
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_risk_corpus import _find_mirror as _mirror  # noqa: E402  (one place knows the mirror layouts)
from relay.review.apart_edits import Apart, Run, apart_edits, apart_runs, runs_of_patch, weakens  # noqa: E402

CORPORA = Path(__file__).resolve().parent / "corpora"
# Sets never read here: the sealed ones (bench/LEDGER.md; held-out 11 and 12 ran once on round 10 and are open now).
_NEVER = ("sealed_planted2", "risk_corpus_sealed.json", "risk_corpus_sealed2.json")


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout


_SHARES = (0.0, 0.34, 0.5)
_RESTS = (0, 8, 20)


def _settings_all(runs: list[Run], task: str) -> dict[str, list[Apart]]:
    out: dict[str, list[Apart]] = {}
    for share in _SHARES:
        for rest in _RESTS:
            for name, hit in _settings(apart_runs(runs, task, share, rest)).items():
                out[f"share {share:.2f} rest {rest:>2} {name}"] = hit
    return out


def _settings(found: list[Apart]) -> dict[str, list[Apart]]:
    """What each setting would quote: every apart run, or only those that weaken, or only those in a security file,
    and none when more than N are found (a scatter of small edits)."""
    out: dict[str, list[Apart]] = {}
    for name, pick in (("any", found), ("weakens", [a for a in found if weakens(a)])):
        for most in (1, 2, 3):
            out[f"{name} <={most}"] = pick if len(pick) <= most else []
    return out


def _table(counts: Counter[str], title: str) -> None:
    """One row per setting (share, rest, which runs), one column per cap; without and with the task."""
    print(f"{title}: setting / at most 1, 2, 3 apart (without task | with task)")
    rows = sorted({k.rsplit(" <=", 1)[0] for k in counts if " <=" in k and "task" not in k and not k.startswith("landed")})
    for row in rows:
        plain = " ".join(f"{counts[f'{row} <={n}']:>5}" for n in (1, 2, 3))
        tasked = " ".join(f"{counts[f'{row} <={n} with task']:>5}" for n in (1, 2, 3))
        print(f"  {row:<32} {plain} | {tasked}")


def _commits(mirror: Path, commits: int):
    """(sha, subject, -U0 patch) of the latest non-merge commits, from one ``git log -p``."""
    try:
        out = _git(mirror, "log", "--no-merges", f"--max-count={commits}", "-U0", "--no-renames", "--no-ext-diff",
                   "-p", "--format=%x01%H%x02%s%x02")
    except subprocess.CalledProcessError as exc:  # a snapshot missing objects (documenso's): said, and skipped
        print(f"  {mirror}: git log failed ({exc.stderr.decode('utf-8', 'replace').strip()[:120]}); skipped",
              file=sys.stderr)
        return
    for chunk in out.split(b"\x01")[1:]:
        sha, subject, patch = chunk.split(b"\x02", 2)
        yield sha.decode(), subject.decode("utf-8", "replace").strip(), patch


def _ordinary(base: Path, commits: int, verbose: bool) -> None:
    repos = sorted({e["repo"] for f in CORPORA.glob("risk_corpus*.json")
                    if "planted" not in f.name and "sealed" not in f.name
                    for e in json.loads(f.read_text(encoding="utf-8"))["commits"]})
    total = 0
    fired: Counter[str] = Counter()
    shown: list[str] = []
    for repo in repos:
        mirror = _mirror(base, repo)
        if mirror is None:
            continue
        for sha, subject, patch in _commits(mirror, commits):
            total += 1
            runs = runs_of_patch(patch)
            for task_name, task in (("", ""), (" with task", subject)):
                for name, hit in _settings_all(runs, task).items():
                    fired[name + task_name] += bool(hit)
                note, worth = apart_edits(runs, task)
                fired["landed: quoted (note)" + task_name] += bool(note)
                fired["landed: worth a look (medium)" + task_name] += bool(worth)
                if task_name == "" and (note or worth):
                    a = next(iter((worth or note).values()))
                    shown.append(f"  {repo}@{sha[:10]} {'medium' if worth else 'note'} {a.run.path}: {a.quote[:110]}")
    print(f"apart edits on ordinary history ({commits} latest commits of {len(repos)} repositories, {total:,} commits):")
    for name in ("landed: quoted (note)", "landed: worth a look (medium)"):
        print(f"  {name:<32} {fired[name]:>5} ({fired[name] / max(total, 1):.1%}) | with task {fired[name + ' with task']:>5} "
              f"({fired[name + ' with task'] / max(total, 1):.1%})")
    _table(fired, "ordinary commits with an apart edit")
    if verbose:
        print("\n".join(shown))


def _planted_runs(mirror: Path, entry: dict) -> list[Run]:
    commit = _git(mirror, "rev-parse", entry["commit"] + "^{commit}").decode().strip()
    parent = _git(mirror, "rev-parse", entry.get("base", commit + "^1") + "^{commit}").decode().strip()
    patch = _git(mirror, "diff", "-U0", "--no-renames", "--no-ext-diff", parent, commit)
    plant = entry["plant"]
    runs = [r for r in runs_of_patch(patch) if r.path != plant["file"]]
    try:
        after = _git(mirror, "show", f"{commit}:{plant['file']}").decode("utf-8", "replace")
    except subprocess.CalledProcessError:
        after = _git(mirror, "show", f"{parent}:{plant['file']}").decode("utf-8", "replace")
    try:
        before = _git(mirror, "show", f"{parent}:{plant['file']}").decode("utf-8", "replace")
    except subprocess.CalledProcessError:
        before = ""
    after = after.replace(plant["find"], plant["replace"], 1)
    old, new = before.splitlines(), after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            runs.append(Run(plant["file"], j1 + 1, max(j2, j1 + 1), tuple(new[j1:j2]), tuple(old[i1:i2])))
    return runs


def _is_plant(run: Run, plant: dict) -> bool:
    if run.path != plant["file"]:
        return False
    line = plant["line"].strip()
    deleted = [d.strip() for d in plant.get("deleted", [])]
    return any(line in a for a in run.added) or bool(deleted and any(d and d in r for d in deleted for r in run.removed))


def _planted(base: Path, verbose: bool) -> None:
    sets = sorted(f for f in CORPORA.glob("risk_corpus_planted*.json") if not any(n in f.name for n in _NEVER))
    sets.append(CORPORA / "risk_corpus_sealed_planted.json")  # opened: development data (bench/LEDGER.md)
    grand: Counter[str] = Counter()
    for file in sets:
        entries = [e for e in json.loads(file.read_text(encoding="utf-8"))["commits"] if e.get("plant")]
        got: Counter[str] = Counter()
        for entry in entries:
            mirror = _mirror(base, entry["repo"])
            if mirror is None:
                continue
            got["entries"] += 1
            runs = _planted_runs(mirror, entry)
            for task_name, task in (("", ""), (" with task", entry.get("task", ""))):
                found = apart_runs(runs, task)
                mine = [a for a in found if _is_plant(a.run, entry["plant"])]
                for name, hit in _settings_all(runs, task).items():
                    got[name + task_name] += any(_is_plant(a.run, entry["plant"]) for a in hit)
                if verbose and task_name == "":
                    plant_runs = [r for r in runs if _is_plant(r, entry["plant"])]
                    mark = f"APART (of {len(found)})" if mine else "-"
                    why = "" if mine else (f" ({len(plant_runs)} plant runs; {len(runs)} runs)")
                    print(f"  {file.stem[12:]} {entry['repo']}@{entry['commit'][:8]} {entry['plant']['file']}: {mark}{why}"
                          + (f" {mine[0].quote[:90]}" if mine else ""))
        grand.update(got)
        print(f"{file.stem[12:]:<22} " + ", ".join(f"{k} {v}" for k, v in sorted(got.items()) if "task" not in k))
    print(f"{'all planted':<22}")
    _table(grand, "plants apart, all planted sets")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", required=True)
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--planted-only", action="store_true")
    parser.add_argument("--ordinary-only", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    base = Path(args.mirrors)
    if not args.ordinary_only:
        _planted(base, args.verbose)
    if not args.planted_only:
        _ordinary(base, args.commits, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
