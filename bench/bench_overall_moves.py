"""What a change to the rules costs on ordinary history: which commits' overall risk moves between two trees.

``dump`` reviews the latest N non-merge commits of every repository the given corpora name (their mirrors), as the relay
reviews a run's patch (the edits apart read from the patch, no workspace, no task), and writes one JSON line per commit:
each file's kind, risk, rules and reasons. Run it from each tree (the script puts its own checkout first on the path);
``compare`` then prints the commits whose overall risk moved, by the first reason of the file that moved them.

    cd OLD && python bench/bench_overall_moves.py dump --mirrors /work/.mirror --commits 30 /tmp/old.jsonl bench/corpora/X.json…
    cd NEW && python bench/bench_overall_moves.py dump --mirrors /work/.mirror --commits 30 /tmp/new.jsonl bench/corpora/X.json…
    python bench/bench_overall_moves.py compare /tmp/old.jsonl /tmp/new.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_risk_corpus as corpus_bench  # noqa: E402  (one place knows the mirrors and reads a commit's patch)
from relay.review.facts import RiskContext  # noqa: E402
from relay.review.file_kinds import file_kind  # noqa: E402
from relay.review.manifest_fields import manifest_metadata  # noqa: E402
from relay.review.packet import _apart  # noqa: E402  (the edits apart as build_review reads them)
from relay.review.risk import assess_all  # noqa: E402

_RANK = {"low": 0, "medium": 1, "high": 2}


def dump(mirrors: Path, commits: int, out: Path, corpora: list[str]) -> None:
    repos = sorted({c["repo"] for f in corpora for c in json.loads(Path(f).read_text(encoding="utf-8"))["commits"]})
    with out.open("w", encoding="utf-8") as sink:
        for repo, sha, changes, patch, heads in corpus_bench._recent_changes(mirrors, repos, commits):
            seen = SimpleNamespace(patch=patch.encode("utf-8", "surrogateescape"), unobserved=False, source="git")
            # A changed JSON manifest read at the commit, as build_review reads it in the workspace (its metadata fields).
            metadata = manifest_metadata(changes, _reader(corpus_bench._find_mirror(mirrors, repo), sha))
            ctx = RiskContext(manifest_metadata=metadata, **_apart(seen, "", None))  # type: ignore[arg-type]
            with corpus_bench.reading(changes, None, corpus_bench.CODE_EXTS, corpus_bench.path_kind, heads):
                assessed = assess_all(changes, ctx)
            files = [{"path": c.path, "kind": file_kind(c.path), "risk": c.risk, "rules": list(c.rules), "reasons": list(c.reasons)}
                     for c in assessed]
            sink.write(json.dumps({"repo": repo, "commit": sha, "files": files}) + "\n")


def _reader(mirror: Path | None, sha: str) -> Callable[[str], str | None]:
    """A file's text at ``sha`` in ``mirror`` (None when it has none there)."""
    def read(path: str) -> str | None:
        try:
            return corpus_bench._git(None, "show", f"{sha}:{path}", git_dir=mirror).decode("utf-8", "replace") if mirror else None
        except subprocess.CalledProcessError:
            return None
    return read


def _overall(entry: dict) -> int:
    return max((_RANK[f["risk"]] for f in entry["files"]), default=0)


def compare(old_path: Path, new_path: Path) -> None:
    old = [json.loads(line) for line in old_path.read_text(encoding="utf-8").splitlines()]
    new = {(e["repo"], e["commit"]): e for e in (json.loads(line) for line in new_path.read_text(encoding="utf-8").splitlines())}
    pairs = [(e, new[(e["repo"], e["commit"])]) for e in old if (e["repo"], e["commit"]) in new]
    moved = [(a, b) for a, b in pairs if _overall(a) != _overall(b)]
    names = {v: k for k, v in _RANK.items()}
    print(f"{len(pairs):,} commits in both; {sum(_overall(a) == 0 for a, _ in pairs):,} low before; overall risk moved: {len(moved):,}")
    print("  " + ", ".join(f"{names[x]} → {names[y]} {n}" for (x, y), n in Counter((_overall(a), _overall(b)) for a, b in moved).items()))
    quiet = sum(1 for a, b in pairs if _overall(a) == _overall(b) and [(f["risk"], f["reasons"]) for f in a["files"]] != [(f["risk"], f["reasons"]) for f in b["files"]])
    print(f"  commits whose overall stayed but a file's risk or reasons changed: {quiet:,}")
    for a, b in moved:
        changed = next(g for f, g in zip(a["files"], b["files"]) if f["risk"] != g["risk"])
        print(f"  {a['repo']}@{a['commit'][:8]} {changed['path']}: {changed['reasons'][0][:120] if changed['reasons'] else ''}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="review ordinary commits with this tree's rules, one JSON line each")
    d.add_argument("--mirrors", type=Path, required=True)
    d.add_argument("--commits", type=int, default=30)
    d.add_argument("out", type=Path)
    d.add_argument("corpora", nargs="+", help="corpus files whose repositories are read")
    c = sub.add_parser("compare", help="the commits whose overall risk moved between two dumps")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.mirrors, args.commits, args.out, args.corpora)
    else:
        compare(args.old, args.new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
