"""relay.risk: every row of RULES has a case that fires it and one that must not."""

from __future__ import annotations

import msgspec
import pytest

from relay.contracts import FileChange
from relay.risk import RULES, RiskContext, assess, is_secret_path, is_test_path, line_matters, max_risk

__all__: list[str] = []  # a test module exports nothing

NO_CTX = RiskContext()


def fc(path: str, **kw: object) -> FileChange:
    return FileChange(path=path, **kw)  # type: ignore[arg-type]


# name -> (fires, must not fire, context)
EXAMPLES: dict[str, tuple[FileChange, FileChange, RiskContext]] = {
    "deleted_test": (fc("tests/test_api.py", kind="deleted", deletions=40), fc("src/api.py", kind="deleted"), NO_CTX),
    "removed_assertions": (
        fc("tests/test_api.py", deletions=2, removed_lines=["    assert r.status == 200", "    assert r.json()"]),
        fc("tests/test_api.py", deletions=1, additions=1, removed_lines=["    assert x == 1"], added_lines=["    assert x == 2"]),
        NO_CTX,
    ),
    "skip_marker": (
        fc("tests/test_api.py", added_lines=["@pytest.mark.skip(reason='later')"]),
        fc("tests/test_api.py", added_lines=["@pytest.mark.skip"], removed_lines=["@pytest.mark.skip"]),
        NO_CTX,
    ),
    "coverage_lowered": (
        fc("pyproject.toml", removed_lines=["fail_under = 90"], added_lines=["fail_under = 80"]),
        fc("pyproject.toml", removed_lines=["fail_under = 80"], added_lines=["fail_under = 90"]),
        NO_CTX,
    ),
    "secret_path": (fc("config/.env.production"), fc(".env.example"), NO_CTX),
    "auth_path": (fc("src/middleware/authMiddleware.ts"), fc("docs/authors.md"), NO_CTX),
    "ci_config": (fc(".github/workflows/release.yml"), fc("docs/workflows.md"), NO_CTX),
    "hooks": (fc(".husky/pre-commit"), fc("src/hooks/useThing.ts"), NO_CTX),
    "migration": (fc("db/migrate/20240101_add_users.rb"), fc("src/migrate_helper.py"), NO_CTX),
    "new_dependency": (
        fc("requirements.txt", added_lines=["requests==2.32.0"]),
        fc("requirements.txt", removed_lines=["requests==2.31.0"], added_lines=["requests==2.32.0"]),
        NO_CTX,
    ),
    "symlink_escapes": (fc("data/link", kind="added", symlink=True, added_lines=["../../etc/passwd"]), fc("data/link", symlink=True, added_lines=["local.txt"]), NO_CTX),
    "huge_change": (fc("src/gen.py", additions=5000), fc("package-lock.json", additions=5000), NO_CTX),
    "deleted_file": (fc("src/old.py", kind="deleted", deletions=10), fc("src/old.py"), NO_CTX),
    "manifest": (fc("go.mod", added_lines=["require example.com/x v1.2.3"]), fc("pyproject.toml", added_lines=["line-length = 100"]), NO_CTX),
    "lockfile": (fc("yarn.lock"), fc("src/lock.py"), NO_CTX),
    "build_config": (fc("Dockerfile"), fc("src/docker.py"), NO_CTX),
    "secret_template": (fc(".env.example"), fc(".env"), NO_CTX),
    "outside_paths": (fc("scripts/deploy.sh"), fc("src/app/main.py"), RiskContext(paths=("src/", "docs/*.md"))),
    "not_mentioned": (fc("src/b.py"), fc("src/a.py"), RiskContext(claimed=frozenset({"src/a.py"}))),
    "large_hunk": (fc("src/big.py", additions=300, ranges=[(10, 309)]), fc("src/big.py", additions=30, ranges=[(10, 39)]), NO_CTX),
    "binary": (fc("assets/logo.png", binary=True), fc("assets/logo.svg"), NO_CTX),
    "mode_change": (fc("run.sh", kind="mode", mode_before="100644", mode_after="100755"), fc("link", kind="type", mode_before="100644", mode_after="120000"), NO_CTX),
    "type_change": (fc("link", kind="type"), fc("link"), NO_CTX),
    "symlink": (fc("link", symlink=True, added_lines=["a.txt"]), fc("link.txt"), NO_CTX),
    "submodule": (fc("vendor/lib", submodule=True), fc("vendor/lib.py"), NO_CTX),
}


def test_every_rule_has_an_example() -> None:
    assert {rule.name for rule in RULES} == set(EXAMPLES)
    assert len({rule.name for rule in RULES}) == len(RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_rule_fires_on_its_example_and_not_on_the_near_miss(rule) -> None:  # type: ignore[no-untyped-def]
    fires, near_miss, ctx = EXAMPLES[rule.name]
    assert rule.predicate(fires, ctx), rule.name
    assert not rule.predicate(near_miss, ctx), rule.name


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_assess_gives_the_rule_risk_and_a_bounded_reason(rule) -> None:  # type: ignore[no-untyped-def]
    fires, _, ctx = EXAMPLES[rule.name]
    out = assess(fires, ctx)
    assert out.risk == max_risk([out.risk, rule.risk])  # at least the rule's risk
    assert out.reasons and all(0 < len(r) <= 120 for r in out.reasons) and len(out.reasons) <= 3
    assert "{detail}" not in " ".join(out.reasons)


def test_assess_orders_reasons_highest_risk_first() -> None:
    out = assess(fc("src/auth/login.py", kind="deleted", deletions=10), RiskContext(claimed=frozenset()))
    assert out.risk == "high"
    assert out.reasons[0].startswith("security-sensitive path")
    assert out.reasons[1].startswith("deletes a file")


def test_assess_plain_edit_is_low_with_a_descriptive_reason() -> None:
    out = assess(fc("src/util.py", additions=3, deletions=1, ranges=[(4, 7)]), NO_CTX)
    assert (out.risk, out.reasons) == ("low", ["edit (+3/-1)"])
    assert assess(fc("src/new.py", kind="added", additions=12), NO_CTX).reasons == ["new file (12 lines)"]


def test_assess_returns_a_copy() -> None:
    change = fc("a.py")
    assert assess(change, NO_CTX) is not change and change.reasons == []


def test_assess_details_show_what_was_found() -> None:
    cov = assess(fc("setup.cfg", removed_lines=["fail_under = 90"], added_lines=["fail_under = 75"]), NO_CTX)
    assert "90 → 75" in cov.reasons[0]
    dep = assess(fc("package.json", added_lines=['    "left-pad": "^1.3.0",', '    "react": "^18.0.0"'], removed_lines=['    "react": "^17.0.0"']), NO_CTX)
    assert dep.reasons[0] == "adds a dependency: left-pad"
    js = assess(fc("web/app.test.ts", added_lines=["  it.skip('works', () => {"]), NO_CTX)
    assert "it.skip(" in js.reasons[0]
    go = assess(fc("pkg/x_test.go", added_lines=['\tt.Skip("flaky")']), NO_CTX)
    assert go.risk == "high"


@pytest.mark.parametrize(
    "line",
    ["xit('does', () => {})", "describe.skip('suite', () => {})", "@unittest.skip('x')", "  self.skipTest('x')", "@Disabled", "it.only('x', f)"],
)
def test_skip_markers_across_frameworks(line: str) -> None:
    assert assess(fc("spec/thing.spec.js", added_lines=[line]), NO_CTX).risk == "high"


@pytest.mark.parametrize(
    ("path", "removed", "added"),
    [
        ("jest.config.js", ["coverageThreshold: { global: { lines: 90 } }"], ["coverageThreshold: { global: { lines: 60 } }"]),
        (".github/workflows/ci.yml", ["run: pytest --cov-fail-under=85"], ["run: pytest --cov-fail-under=50"]),
        (".coveragerc", ["fail_under = 95"], []),
    ],
)
def test_lowered_or_removed_coverage_thresholds(path: str, removed: list[str], added: list[str]) -> None:
    out = assess(fc(path, removed_lines=removed, added_lines=added), NO_CTX)
    assert any("coverage threshold" in r for r in out.reasons)


@pytest.mark.parametrize(
    ("path", "line", "name"),
    [
        ("pyproject.toml", '    "httpx>=0.27",', "httpx"),
        ("pyproject.toml", 'requests = "^2.31"', "requests"),
        ("environment.yml", "  - numpy=1.26", "numpy"),
        ("Cargo.toml", 'serde = { version = "1" }', "serde"),
        ("go.mod", "\tgithub.com/pkg/errors v0.9.1", "github.com/pkg/errors"),
        ("Gemfile", "gem 'rails', '~> 7.1'", "rails"),
        ("pom.xml", "<artifactId>guava</artifactId>", "guava"),
    ],
)
def test_new_dependency_names_across_manifests(path: str, line: str, name: str) -> None:
    out = assess(fc(path, added_lines=[line]), NO_CTX)
    assert out.risk == "high" and name in out.reasons[0]


def test_project_metadata_is_not_a_dependency() -> None:
    settings = ['version = "0.2.0"', 'name = "relay"', "timeout = 30", 'select = ["E501"]', '    "E501",', "fail_under = 90"]
    out = assess(fc("pyproject.toml", added_lines=settings), NO_CTX)
    assert all("dependency" not in r for r in out.reasons)


def test_context_paths_accept_prefixes_and_globs() -> None:
    ctx = RiskContext(paths=("src", "docs/**/*.md", "./README.md"))
    assert assess(fc("src/a/b.py"), ctx).risk == "low"
    assert assess(fc("docs/guide/intro.md"), ctx).risk == "low"
    assert assess(fc("README.md"), ctx).risk == "low"
    assert assess(fc("srcx/a.py"), ctx).risk == "medium"


def test_not_mentioned_is_not_judged_without_a_report() -> None:
    assert assess(fc("a.py"), RiskContext(claimed=None)).risk == "low"
    assert assess(fc("b.py", kind="renamed", old_path="a.py"), RiskContext(claimed=frozenset({"a.py"}))).risk == "low"


def test_path_classes() -> None:
    assert is_test_path("pkg/foo_test.go") and is_test_path("src/__tests__/x.js") and is_test_path("conftest.py")
    assert not is_test_path("src/contest.py")
    assert is_secret_path("deploy/id_rsa") and is_secret_path(".env") and not is_secret_path(".env.sample")


def test_line_matters_keeps_signals_and_manifest_lines_only() -> None:
    assert line_matters("tests/test_a.py", "    assert x")
    assert line_matters("package.json", '"a": "1"')
    assert line_matters("setup.cfg", "fail_under = 80")
    assert not line_matters("src/a.py", "x = 1")
    assert not line_matters("package.json", "   ")


def test_file_change_round_trips_after_assess() -> None:
    out = assess(fc("src/auth.py", ranges=[(1, 2)]), NO_CTX)
    again = msgspec.json.decode(msgspec.json.encode(out), type=FileChange)
    assert again == out
