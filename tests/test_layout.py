"""The package tree shows the architecture: each part imports only from the parts below it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from relay_sources import RELAY
from relay_sources import walked  # parsed and walked once a process (parsing the package is most of these tests' time)

# Lowest first; a module may import from its own part and from parts of a lower rank.
RANK = {"core": 0, "agy": 1, "observe": 1, "isolate": 2, "review": 3, "runs": 3, "call": 4, "setup": 4, "demo": 5,
        "doors": 6}


def _imports(path: Path) -> set[str]:
    """Every ``relay.<part>`` a module imports, at any depth (lazy imports inside functions count too)."""
    found: set[str] = set()
    for node in walked(path):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "relay" and len(parts) > 1 and parts[1] in RANK:
                found.add(parts[1])
    return found


def test_every_module_lives_in_a_part_and_uses_absolute_imports():
    loose = sorted(p.name for p in RELAY.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == [], f"modules outside a part: {loose}"
    assert sorted(p.name for p in RELAY.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(RANK)
    relative = [str(p.relative_to(RELAY)) for p in RELAY.rglob("*.py")
                if any(isinstance(n, ast.ImportFrom) and n.level for n in walked(p))]
    assert relative == [], f"relative imports hide the part they reach into: {relative}"


def test_imports_flow_one_way_from_doors_down_to_core():
    wrong = []
    for path in sorted(RELAY.rglob("*.py")):
        part = path.relative_to(RELAY).parts[0]
        if part not in RANK:
            continue
        for dep in _imports(path) - {part}:
            if RANK[dep] >= RANK[part]:
                wrong.append(f"{path.relative_to(RELAY)} imports relay.{dep} ({part} may use only lower parts)")
    assert wrong == [], "\n".join(wrong)


def _module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_graph(root: Path = RELAY) -> dict[str, set[str]]:
    """relay module -> the relay modules it imports, at any depth: inside a function and under
    TYPE_CHECKING too (an import hidden there to dodge a circle is still a circle)."""
    modules = {_module_of(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in walked(path):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:  # `from relay.call import orchestrate` names a module too
                    whole = f"{node.module}.{alias.name}"
                    found.add(whole if whole in modules else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for dep in sorted(graph[node]):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circle_between_relay_modules_even_inside_one_part():
    # Regression (issue 24): call/detached.py ⇄ call/orchestrate.py (the relay built the detacher, the detacher
    # called back into the relay) and doors/doctor.py ⇄ doors/write_probe.py (imports hidden in functions).
    circles = _circles(_module_graph())
    assert circles == [], "import circles: " + "; ".join(" ⇄ ".join(c) for c in circles)


def test_the_circle_finder_finds_a_circle_through_a_function_level_import(tmp_path):
    part = tmp_path / "relay" / "call"
    part.mkdir(parents=True)
    (tmp_path / "relay" / "__init__.py").write_text("", encoding="utf-8")
    (part / "__init__.py").write_text("", encoding="utf-8")
    (part / "a.py").write_text("from relay.call.b import f\n", encoding="utf-8")
    (part / "b.py").write_text("def f():\n    from relay.call import a\n", encoding="utf-8")
    (part / "c.py").write_text("from relay.call.a import f\n", encoding="utf-8")
    assert _circles(_module_graph(tmp_path / "relay")) == [["relay.call.a", "relay.call.b"]]


def test_benches_and_their_corpora_live_in_bench_not_beside_the_tests():
    # Benches print figures and read corpora the tests never read: they live in bench/, which pytest
    # does not collect, so a bench is never mistaken for a test nor a corpus for a fixture.
    tests = RELAY.parent / "tests"
    stray = sorted(str(p.relative_to(RELAY.parent)) for p in [*tests.rglob("bench_*.py"), *tests.rglob("*corpus*.json")])
    assert stray == [], f"move these into bench/ (corpora into bench/corpora/): {stray}"
    assert (RELAY.parent / "bench" / "corpora").is_dir()


# Modules allowed past 500 lines for now, each with the issue that splits it. Empty: every module fits (issue 38).
OVER_500: dict[str, str] = {}


def test_no_module_of_relay_is_over_500_lines():
    # Issue 25: the ranking was one 824-line module that did everything; it is now small modules with one job each.
    # The review read (diff_view, 559 lines) was split the same way: items, budget, the telling hunk. Issue 38:
    # observe/snapshot.py (703) gave its private repository, index bytes and walk their own modules, and the rule
    # now holds for every part (core/contracts.py 563 and core/platform.py 550 were split along their seams).
    long = {str(p.relative_to(RELAY)): n for p in sorted(RELAY.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500 and str(p.relative_to(RELAY)) not in OVER_500}
    assert long == {}, f"split these by job (or list one in OVER_500 with the issue that splits it): {long}"
    stale = sorted(name for name in OVER_500 if len((RELAY / name).read_text(encoding="utf-8").splitlines()) <= 500)
    assert stale == [], f"these fit now; take them out of OVER_500: {stale}"


def _layout_rows(doc: Path) -> dict[str, set[str]]:
    """Each part's row of a layout page: the part, and every `name` its row mentions."""
    rows: dict[str, set[str]] = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*`(\w+)/`\s*\|(.*)\|\s*$", line)
        if match:
            rows[match.group(1)] = set(re.findall(r"`([a-z_0-9]+)`", match.group(2)))
    return rows


@pytest.mark.parametrize("doc", ["docs/layout.md", "docs/zh/layout.md"])
def test_the_layout_page_names_every_module_in_its_parts_row(doc):
    # Before: nine modules (mcp_tasks, person_confirm, platform, places, …) were in no row of the page that says
    # where things live; a module added without a line there fails here.
    rows = _layout_rows(RELAY.parent / doc)
    assert set(rows) == set(RANK), f"{doc}: a row per part: {sorted(RANK)}"
    missing = [f"{part}/{p.stem}" for part in sorted(RANK) for p in sorted((RELAY / part).glob("*.py"))
               if p.stem != "__init__" and p.stem not in rows[part]]
    assert missing == [], f"{doc}: name these modules in their part's row, saying what each does: {missing}"
