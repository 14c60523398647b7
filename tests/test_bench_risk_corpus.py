"""bench/bench_risk_corpus.py: --check verifies a corpus against real git mirrors without ranking anything;
a replay prints each set's figures. The bench is not a test; these tests are what keep it honest."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

# The benches live in bench/ (not collected); this is the one test module that imports one.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_risk_corpus  # noqa: E402
from conftest import git, make_repo  # noqa: E402


def _mirror(base: Path) -> Path:
    # Laid out as the fetch tool lays a snapshot out: DIR/owner+name/repo/.git.
    repo = make_repo(base / "acme+lib" / "repo", {"README.md": "# lib\n", "src/app.py": "def main():\n    return 1\n"})
    git(repo, "tag", "v1.0")
    (repo / "src" / "app.py").write_text("def run():\n    return 1\n", encoding="utf-8")
    (repo / "README.md").write_text("# lib, now 2\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "fix")
    git(repo, "tag", "v1.1")
    return base


def _corpus(tmp_path: Path, entries: list[dict]) -> str:
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps({"commits": entries}), encoding="utf-8")
    return str(path)


def _entry(**over: object) -> dict:
    entry = {"repo": "acme/lib", "base": "v1.0", "commit": "v1.1", "kind": "security", "riskiest": ["src/app.py"], "benign": ["README.md"], "label_from": "test"}
    entry.update(over)
    return entry


def test_risk_corpus_check_reports_each_problem_without_replaying(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    mirrors = _mirror(tmp_path / "mirrors")
    monkeypatch.setattr(bench_risk_corpus, "_replay", lambda *a: pytest.fail("--check replayed a commit"))
    corpus = _corpus(tmp_path, [
        _entry(),
        _entry(riskiest=["src/other.py"]),
        _entry(base="v0.9"),
        _entry(repo="acme/absent"),
    ])
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", corpus, "--check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "acme/lib@v1.0..v1.1: riskiest file src/other.py is not among the 2 changed files",
        "acme/lib@v0.9..v1.1: the mirror does not hold base v0.9",
        f"acme/absent@v1.0..v1.1: no mirror of acme/absent under {mirrors}",
        "checked 4 entries from 1 mirrored projects: 3 problem(s)",
    ]


def test_risk_corpus_check_passes_a_clean_corpus_and_a_plain_commit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mirrors = _mirror(tmp_path / "mirrors")
    corpus = _corpus(tmp_path, [_entry(), {k: v for k, v in _entry().items() if k != "base"}])  # commit^ as base
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", corpus, "--check"]) == 0
    assert capsys.readouterr().out.splitlines() == ["checked 2 entries from 1 mirrored projects: 0 problem(s)"]


def test_risk_corpus_check_takes_a_plant_outside_the_commit_and_reports_a_find_not_there_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A plant may sit in a file the commit does not change (the replay writes it); --check then counts that file
    # as changed for the riskiest label, and reports a find that the replay could not apply.
    mirrors = _mirror(tmp_path / "mirrors")
    repo = mirrors / "acme+lib" / "repo"
    (repo / "setup.cfg").write_text("[x]\nverify = true\n", encoding="utf-8")
    git(repo, "add", "setup.cfg")
    git(repo, "commit", "-q", "-m", "cfg")
    git(repo, "tag", "v1.2")
    (repo / "src" / "app.py").write_text("def main():\n    return 3\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "three")
    git(repo, "tag", "v1.3")

    def planted(find: str) -> dict:
        plant = {"file": "setup.cfg", "find": find, "replace": "verify = false\n", "line": "verify = false", "risk": "r", "words": ["verify"]}
        return _entry(base="v1.2", commit="v1.3", kind="planted", riskiest=["setup.cfg"], benign=[], plant=plant)

    corpus = _corpus(tmp_path, [planted("verify = true\n"), planted("verify = maybe\n")])
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", corpus, "--check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "acme/lib@v1.2..v1.3: the plant's text occurs 0 times in setup.cfg, not once",
        "checked 2 entries from 1 mirrored projects: 1 problem(s)",
    ]


def test_risk_corpus_replays_several_sets_and_sums_them_up_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mirrors = _mirror(tmp_path / "mirrors")
    first = _corpus(tmp_path, [_entry()])
    (tmp_path / "two").mkdir()
    second = _corpus(tmp_path / "two", [_entry(kind="control", riskiest=[], benign=["README.md", "src/app.py"])])
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", first, "--corpus", second, "--token-rate", "5", "--rule", "length_guard"]) == 0
    out = capsys.readouterr().out
    summary = out.split("\nset ", 1)[1].splitlines()
    assert summary[1].split()[:3] == ["corpus", "1/1", "100%"], summary  # the fix is on top
    assert summary[2].split() == ["corpus", "0/0", "0%", "0/0", "0%", "0/2", "0"], summary  # a control: nothing labelled riskiest
    assert "rule length_guard: fires on 0 (0%)" in out
    # A rule the table does not have is refused with the names it has.
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--rule", "lenght_guard"]) == 2


def test_risk_corpus_bench_reports_figures_with_the_entries_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Sets from held-out-13 on carry the task a leader would have written: the bench ranks each
    # change twice, as the diff alone and as a run given that task, and prints both.
    mirrors = _mirror(tmp_path / "mirrors")
    corpus = _corpus(tmp_path, [_entry(task="Fix the out-of-bounds read in app.py (CVE-2024-0001)"),
                                _entry(kind="control", riskiest=[], benign=["README.md", "src/app.py"], task="Reformat the package")])
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", corpus, "-v"]) == 0
    out = capsys.readouterr().out
    assert "security commits with overall risk low: 1\n" in out  # the diff alone: a rename says nothing
    assert "with the leader's task (2 entries carry one" in out
    assert "benign files called high: 0; security commits with overall risk low: 0" in out
    assert "the task names a security fix: 1 of 1 security entries, 0 of 1 others" in out
    assert "with task: at 1" in out
    # The figures again per kind of entry, each kind alone.
    kinds = {line.split()[0]: line.split() for line in out.split("\nby kind:", 1)[1].splitlines()[1:3]}
    assert kinds["security"][1:4] == ["1", "1/1", "1/1"] and kinds["security"][-3:] == ["1/1", "/", "1/1"], kinds
    assert kinds["control"][1:4] == ["1", "0/0", "0/0"] and kinds["control"][4] == "0/2", kinds


def test_risk_corpus_bench_treats_every_risk_corpus_sealed_file_as_sealed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The name is a second lock: a file named risk_corpus_sealed*.json (sealed2, sealed3, ...) is refused
    # without --sealed even if its "sealed" flag was forgotten, so a new sealed set cannot be read entry by entry.
    mirrors = _mirror(tmp_path / "mirrors")
    path = tmp_path / "risk_corpus_sealed2.json"
    path.write_text(json.dumps({"commits": [_entry()]}), encoding="utf-8")
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", str(path), "-v"]) == 2
    assert "risk_corpus_sealed2.json is sealed" in capsys.readouterr().err
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", str(path), "-v", "--sealed"]) == 0
    assert "acme/lib@" not in capsys.readouterr().out


def test_risk_corpus_bench_runs_a_sealed_set_only_to_report_its_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A sealed set is never tuned on: without --sealed it is refused by name and skipped by --all;
    # with it, only the set's figures print, never a line per commit (nothing to tune on).
    mirrors = _mirror(tmp_path / "mirrors")
    path = tmp_path / "sealed.json"
    path.write_text(json.dumps({"sealed": True, "commits": [_entry()]}), encoding="utf-8")
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", str(path), "-v"]) == 2
    assert "is sealed" in capsys.readouterr().err
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", str(path), "-v", "--sealed"]) == 0
    out = capsys.readouterr().out
    assert "relay (packet targets)" in out and "acme/lib@" not in out


def _planted_mirror(base: Path) -> Path:
    # An ordinary commit (a feature in app.py, a README line); client.py, which the commit does not change, holds
    # the line a plant turns unsafe.
    client = "import requests\n\n\ndef fetch(url):\n    return requests.get(url, timeout=5)\n"
    repo = make_repo(base / "acme+lib" / "repo", {"README.md": "# lib\n", "src/app.py": "def main():\n    return 1\n", "src/client.py": client})
    git(repo, "tag", "v1.0")
    (repo / "src" / "app.py").write_text("def main():\n    return 1\n\n\ndef helper(items):\n    return sorted(items)\n", encoding="utf-8")
    (repo / "README.md").write_text("# lib, with a helper\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "add a helper")
    git(repo, "tag", "v1.1")
    return base


def _plant(**over: object) -> dict:
    plant = {"file": "src/client.py", "find": "requests.get(url, timeout=5)", "replace": "requests.get(url, timeout=5, verify=False)",
             "line": "return requests.get(url, timeout=5, verify=False)", "risk": "tls_verify_off", "words": ["verify", "TLS"]}
    plant.update(over)
    return _entry(kind="planted", base_kind="feature", riskiest=[plant["file"]], benign=["README.md"], plant=plant,
                  task="Add a helper")


def test_risk_corpus_replays_a_plant_and_reports_where_its_line_shows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A planted entry (issue 36): the replay writes the post-commit tree, then the plant's find → replace into a file
    # the commit does not change; the bench says whether the planted line is in the top 3 / 8, in the default diff
    # view, named by the file's reason, and whether the change is still low. A plant whose text is not in the file
    # once is skipped and said, never replayed as something else.
    mirrors = _planted_mirror(tmp_path / "mirrors")
    absent = _plant(find="requests.post(url)")
    corpus = _corpus(tmp_path, [_plant(), _plant(file="src/app.py", find="return sorted(items)", replace="return eval(items)",
                                                 line="return eval(items)", risk="eval", words=["eval"]), absent])
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", corpus, "-v"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "planted lines (2 entries; the planted file is the labelled riskiest):" in out
    assert "  planted line in top 3: relay 2/2," in out
    assert "  planted line in the default diff view: 2/2 (100%)" in out
    assert "  named by the planted file's reason: 2/2 (100%)" in out
    assert "  overall risk not low: 2/2 (low: 0)" in out
    assert "plant [tls_verify_off] src/client.py (high): turns TLS verification off: return requests.get(url, timeout=5, verify=False)" in out
    assert "the plant's text occurs 0 times, not once" in captured.err


def test_risk_corpus_plant_replay_writes_the_edit_into_the_post_commit_tree_byte_for_byte(tmp_path: Path) -> None:
    work = tmp_path / "ws"
    (work / "src").mkdir(parents=True)
    (work / "src" / "client.py").write_bytes(b"x = 1\r\nreturn requests.get(url, timeout=5)\r\n")
    bench_risk_corpus.apply_plant(work, _plant())
    assert (work / "src" / "client.py").read_bytes() == b"x = 1\r\nreturn requests.get(url, timeout=5, verify=False)\r\n"
    bench_risk_corpus.apply_plant(work, _entry())  # an entry without a plant writes nothing
    with pytest.raises(bench_risk_corpus.PlantError, match="occurs 0 times"):
        bench_risk_corpus.apply_plant(work, _plant())  # applied once: its text is gone


def test_risk_corpus_plant_replay_takes_a_file_checked_out_with_crlf_by_the_repositorys_attributes(tmp_path: Path) -> None:
    # --check reads the LF blob; a replayed file the commit does not change is the checkout's, CRLF by eol=crlf.
    work = tmp_path / "ws"
    (work / "src").mkdir(parents=True)
    (work / "src" / "client.py").write_bytes(b"a = 1\r\nb = 2\r\nc = 3\r\n")
    entry = _entry(plant={"file": "src/client.py", "find": "a = 1\nb = 2\n", "replace": "a = 1\nb = 0\n", "line": "b = 0", "risk": "x", "words": ["x"]})
    bench_risk_corpus.apply_plant(work, entry)
    assert (work / "src" / "client.py").read_bytes() == b"a = 1\r\nb = 0\r\nc = 3\r\n"


def test_risk_corpus_bench_opens_a_sealed_set_only_by_its_exact_name_after_its_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # sealed_planted was run once sealed, then opened as development data (bench/LEDGER.md): it prints a line per
    # commit. A newer sealed set whose name starts the same (sealed_planted2) stays sealed.
    mirrors = _mirror(tmp_path / "mirrors")
    opened, newer = tmp_path / "risk_corpus_sealed_planted.json", tmp_path / "risk_corpus_sealed_planted2.json"
    for path in (opened, newer):
        path.write_text(json.dumps({"sealed": True, "commits": [_entry()]}), encoding="utf-8")
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", str(opened), "-v"]) == 0
    assert "acme/lib@" in capsys.readouterr().out
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", str(newer), "-v"]) == 2
    assert "risk_corpus_sealed_planted2.json is sealed" in capsys.readouterr().err


def test_risk_corpus_bench_counts_commits_with_a_line_finding_without_replaying(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --line-rate reads the latest commits of each mirror: one of two turns TLS verification off.
    mirrors = _mirror(tmp_path / "mirrors")
    repo = mirrors / "acme+lib" / "repo"
    (repo / "src" / "app.py").write_text("def main():\n    return get(url, verify=False)\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "feature")
    assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", _corpus(tmp_path, [_entry()]), "--rates-only", "--line-rate", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 of 2 commits (50.0%)" in out and "turns TLS verification off" in out and "relay (packet targets)" not in out


def test_a_target_shown_with_its_path_cut_counts_as_the_changed_file_it_names() -> None:
    # Broke held-out 6's first run: a long path, shown by the packet as "…" + its tail, was looked up by that text.
    files = ["a/very/long/src/main/java/io/Proxy.java", "b/Proxy.java", "src/x.py"]
    assert bench_risk_corpus._full_paths(["…ong/src/main/java/io/Proxy.java", "src/x.py"], files) == files[::2]
    # A tail two changed files end with names neither: it stays as shown (and counts as no file).
    assert bench_risk_corpus._full_paths(["…/Proxy.java"], files) == ["…/Proxy.java"]


def test_planted_sets_pool_the_entries_a_replay_writes_and_name_the_ones_that_moved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # bench_planted_sets.py reads the JSON lines --entries writes: one per replayed entry, with where the planted file
    # ranked and whether its line was in the view, named, the change low. Two runs of the same entries, one where the
    # plant is caught and one where it is not (a plant no reader knows), must pool to different figures and diff to
    # exactly the entry that moved.
    import bench_planted_sets

    mirrors = _planted_mirror(tmp_path / "mirrors")
    caught = _plant(file="src/app.py", find="return sorted(items)", replace="return eval(items)", line="return eval(items)", risk="eval", words=["eval"])
    quiet = _plant(file="src/app.py", find="return sorted(items)", replace="return sorted(items)[1:]", line="return sorted(items)[1:]", risk="slice", words=["drops the first item"])
    for name, entry in (("now", caught), ("old", quiet)):
        (tmp_path / name).mkdir()
        corpus = _corpus(tmp_path, [entry])
        assert bench_risk_corpus.main(["--mirrors", str(mirrors), "--corpus", corpus, "--entries", str(tmp_path / name / "1.jsonl")]) == 0
    row = json.loads((tmp_path / "now" / "1.jsonl").read_text(encoding="utf-8"))
    assert (row["set"], row["repo"], row["pos"], row["overall"]) == ("corpus", "acme/lib", 1, "high")
    assert row["plant"]["named"] and row["plant"]["in_view"] and "eval" in row["plant"]["reason"]
    capsys.readouterr()
    bench_planted_sets.main(["summary", str(tmp_path / "now")])
    assert "named 1 (100.0%)" in capsys.readouterr().out
    bench_planted_sets.main(["misses", str(tmp_path / "old")])
    assert "[named, low]" in capsys.readouterr().out  # the slice is read by no reader: unnamed, and the change low
    bench_planted_sets.main(["diff", str(tmp_path / "old"), str(tmp_path / "now")])
    out = capsys.readouterr().out
    assert "named up, low up" in out and "1 of 1 entries moved" in out
    bench_planted_sets.main(["places", str(tmp_path / "old")])  # a corpus outside this checkout's: no labels to read
    out = capsys.readouterr().out
    assert "place not said, kind not said" in out and "all" in out and "low    1 of     1 (100.0%)" in out
