"""Benchmark: the matrix's caught plants moved into big commits — is the planted line still in the default view?
(issue 36, round 19 part B)

The first runs of held-out 23/24 left six plants out of the view in commits of 14–86 files whose planted file ranked
2–3: the view's 2,500 characters went to the other targets' hunks. This bench makes that shape from every caught plant
of bench/plant_matrix/*.json (no instance of a blind set): the plant's file, in a commit of ``--files`` files (15–80)
that also holds targets of high and medium risk — a release workflow that publishes with a secret, a big rewrite under
``src/auth/``, a dependency manifest and its lockfile — and ordinary edits in many source files; in the ``own`` variation
the planted file also carries the commit's own big hunk above the plant (the plant is no longer the file's first hunk).
Each case is reviewed as bench/bench_plant_matrix.py reviews one (``review_case``) and says whether the planted line is
in the view, with the planted file's risk and reason. Usage:

    PYTHONPATH=. python bench/bench_big_commits.py [-v] [--part subtle] [--files 15,40,80]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_plant_matrix as matrix  # noqa: E402

_WORKFLOW = ("name: release\non:\n  push:\n    tags: ['v*']\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n"
             "      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm publish\n        env:\n"
             "          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n")
_WORKFLOW_AFTER = _WORKFLOW.replace("      - run: npm ci\n", "      - uses: actions/setup-node@v4\n        with:\n"
                                    "          node-version: 20\n          registry-url: https://registry.npmjs.org\n"
                                    "      - run: npm ci\n      - run: npm test\n")


def _auth(n: int) -> tuple[str, str]:
    """A big rewrite of a module under src/auth/ (a path the ranking calls security-sensitive): the commit's own work."""
    before = "".join(f"def rule_{k}(user):\n    return user.level >= {k}\n\n\n" for k in range(n))
    after = "".join(f"def rule_{k}(user, scope=None):\n    level = user.level if scope is None else scope.level\n"
                    f"    return level >= {k}\n\n\n" for k in range(n))
    return before, after


def _source(k: int) -> tuple[str, str]:
    before = f"def part_{k}(rows):\n    out = []\n    for row in rows:\n        out.append(row)\n    return out\n"
    return before, before.replace("out.append(row)", "out.append(dict(row))")


_OWN = {  # the commit's own work in the planted file, by extension: a block added at the file's end
    "py": "\n\ndef export_rows(rows, sep=','):\n    lines = []\n    for row in rows:\n        lines.append(sep.join(map(str, row)))\n"
          "    header = sep.join(ROW_NAMES)\n    return '\\n'.join([header, *lines])\n",
    "js": "\n\nfunction exportRows(rows, sep = ',') {\n  const lines = rows.map((row) => row.join(sep));\n"
          "  const header = ROW_NAMES.join(sep);\n  return [header, ...lines].join('\\n');\n}\n",
    "rb": "\n\ndef export_rows(rows, sep = ',')\n  lines = rows.map { |row| row.join(sep) }\n  header = ROW_NAMES.join(sep)\n"
          "  [header, *lines].join(\"\\n\")\nend\n",
    "go": "\n\nfunc exportRows(rows [][]string, sep string) string {\n\tlines := make([]string, 0, len(rows))\n"
          "\tfor _, row := range rows {\n\t\tlines = append(lines, strings.Join(row, sep))\n\t}\n\treturn strings.Join(lines, \"\\n\")\n}\n",
}
_OWN["ts"] = _OWN["js"]


def _ext(path: str) -> str:
    return path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else ""


def big_case(case: dict, files: int, own: bool) -> dict | None:
    """The plant of ``case`` in a commit of ``files`` files with high and medium targets beside it (None: the ``own``
    variation has no block for the planted file's language)."""
    out = dict(case)
    if own:
        block = _OWN.get(_ext(case["path"]))
        if block is None:
            return None
        out["before"], out["after"] = case["before"], case["after"].rstrip("\n") + "\n" + block
        # the commit's own block goes first: the plant follows it (a later hunk of the file)
        out["before"] = block.lstrip("\n") + "\n" + case["before"]
        out["after"] = block.lstrip("\n").replace("rows", "items") + "\n" + case["after"]
    also = {p: list(pair) for p, pair in case.get("also", {}).items()}
    also[".github/workflows/release.yml"] = [_WORKFLOW, _WORKFLOW_AFTER]
    also["src/auth/rules.py"] = list(_auth(12))
    also["src/crypto/keys.py"] = [t.replace("rule_", "key_rule_") for t in _auth(8)]
    also["package.json"] = ['{\n  "name": "app",\n  "dependencies": {\n    "left-pad": "1.1.0"\n  }\n}\n',
                            '{\n  "name": "app",\n  "dependencies": {\n    "left-pad": "1.3.0",\n    "csv-stringify": "6.4.0"\n  }\n}\n']
    also["package-lock.json"] = ['{\n  "lockfileVersion": 3,\n  "packages": {\n    "node_modules/left-pad": {"version": "1.1.0"}\n  }\n}\n',
                                 '{\n  "lockfileVersion": 3,\n  "packages": {\n    "node_modules/left-pad": {"version": "1.3.0"},\n'
                                 '    "node_modules/csv-stringify": {"version": "6.4.0"}\n  }\n}\n']
    for path in list(also):
        if path == case["path"] or path in case.get("also", {}):
            del also[path]  # the plant's own file and the case's own other files stay as the case wrote them
    also.update({p: list(pair) for p, pair in case.get("also", {}).items()})
    k = 0
    while len(also) + 1 < files:
        also[f"src/parts/part_{k}.py"] = list(_source(k))
        k += 1
    out["also"] = also
    out["tag"] = f"{case.get('tag', '')}{'+own' if own else ''}@{files}"
    return out


def _said(out_reason: str) -> str:
    return re.sub(r"\s+", " ", out_reason)[:120]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", action="store_true", help="print every case")
    ap.add_argument("--part", action="append", help="only this part of bench/plant_matrix")
    ap.add_argument("--files", default="15,40,80", help="commit sizes (files), comma-separated")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.files.split(",")]
    total = shown = 0
    by_size: dict[str, list[int]] = {}
    for part, case in matrix.load(args.part):
        if case.get("quiet") or not case.get("caught"):
            continue
        for files in sizes:
            for own in (False, True):
                big = big_case(case, files, own)
                if big is None:
                    continue
                out = matrix.review_case(big)
                key = f"{files}{' own' if own else ''}"
                cell = by_size.setdefault(key, [0, 0])
                cell[0] += out["view"]
                cell[1] += 1
                total += 1
                shown += out["view"]
                if args.v or not out["view"]:
                    print(f"{'  ' if out['view'] else '! '}{part}:{matrix.case_id(big):55} {out['risk']:6} "
                          f"{big['path']}: {_said(out['reason'])}")
    print()
    for key, (ok, n) in by_size.items():
        print(f"{key:>8} files: planted line in the view {ok}/{n}")
    print(f"planted line in the default view {shown}/{total} ({shown / (total or 1):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
