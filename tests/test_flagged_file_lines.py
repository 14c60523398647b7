"""Issue 36, round 18 part B: the reason names the risky line when the file is already flagged for something else.

Held-out 23/24's manifests and CI files were medium or high by their kind ("dependency manifest", "build configuration",
"CI configuration") or by the commit's own line, and the reason named that while one line beside it changed where code
comes from or what runs it. The party guarded against is a worker that slips that line into a file the change was
going to flag anyway: a pinned dependency relaxed to any version, a source's tag replaced by a branch on a line of its
own, a debug agent listening on every host, a CI script given a value as an expression where a shell variable passed
it, and a lifted limit that led the reasons while a script injection sat beside it. Each must now be the file's first
reason, in several ecosystems; the ordinary look-alikes stay quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc, hunk as _hunk, review

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # a pinned dependency relaxed to any version
        ("Cargo.toml", ['clap_mangen = "*"'], ['clap_mangen = "0.3.2"'], 'lets a pinned dependency take any version: clap_mangen = "*"'),
        ("Cargo.toml", ['cc = { version = "*", features = ["parallel"] }'], ['cc = { version = "1.0.83", features = ["parallel"] }'],
         "lets a pinned dependency take any version"),
        ("package.json", ['    "left-pad": "latest",'], ['    "left-pad": "^1.3.0",'], "lets a pinned dependency take any version"),
        ("build.gradle", ['    implementation "com.squareup.okhttp3:okhttp:+"'], ['    implementation "com.squareup.okhttp3:okhttp:4.12.0"'],
         "lets a pinned dependency take any version"),
        ("src/App/App.csproj", ['    <PackageReference Include="Newtonsoft.Json" Version="*" />'],
         ['    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />'], "lets a pinned dependency take any version"),
        # a source's tag replaced by a branch, the repository named on the line above
        ("Example.podspec", ['                     :branch => "main" }'], ['                     :tag => "v#{s.version}" }'],
         "takes a source from a moving branch (was pinned): :branch => \"main\""),
        ("Cargo.toml", ['branch = "master"'], ['tag = "v0.4.1"'], "takes a source from a moving branch (was pinned)"),
        # a debug agent on every host
        ("gradle.properties", ["org.gradle.jvmargs=-Xmx2g -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:5005"],
         ["org.gradle.jvmargs=-Xmx2g"], "opens a debug agent to every host: "),
        ("Dockerfile", ['CMD ["node", "--inspect=0.0.0.0:9229", "server.js"]'], ['CMD ["node", "server.js"]'], "opens a debug agent to every host"),
        ("Makefile", ["\tpython -m debugpy --listen 0.0.0.0:5678 -m app"], ["\tpython -m app"], "opens a debug agent to every host"),
        # an expression pasted into a CI script where a shell variable passed it
        (".github/workflows/ci.yml", ['        run: echo "${{ steps.files.outputs.added_modified }}" | xargs ./check'],
         ['        run: echo "$FILES" | xargs ./check'], "pastes an expression into a CI script, not through a variable (script injection)"),
        (".github/workflows/pr.yml", ['          gh pr comment "$PR" --body "${{ steps.summary.outputs.text }}"'],
         ['          gh pr comment "$PR" --body "$SUMMARY"'], "pastes an expression into a CI script"),
        # a lifted limit on the commit's own line, an injection beside it: the injection leads
        (".github/workflows/tests.yml", ['        run: php -d memory_limit=-1 vendor/bin/phpunit',
                                         '        run: echo "Testing ${{ github.head_ref }}" && composer install'],
         ['        run: php vendor/bin/phpunit', '        run: composer install'], "runs untrusted text in a CI step (script injection)"),
    ],
)
def test_the_risky_line_leads_the_flagged_files_reasons(path: str, added: list[str], removed: list[str], named: str) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith(named), reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("Pipfile", ['requests = "*"'], []),  # Pipfile's usual way of adding a dependency: nothing was pinned
        ("Cargo.toml", ['clap_mangen = "0.3.3"'], ['clap_mangen = "0.3.2"']),
        ("package.json", ['    "left-pad": "^1.4.0",'], ['    "left-pad": "^1.3.0",']),
        ("package.json", ['    "version": "2.0.0",', '    "left-pad": "*",'], ['    "version": "1.9.0",']),  # new, not relaxed
        ("gradle.properties", ["org.gradle.jvmargs=-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=localhost:5005"], []),
        ("Dockerfile", ['CMD ["node", "--inspect=9229", "server.js"]'], []),
        ("Example.podspec", ['                     :tag => "v#{s.version}" }'], ['                     :tag => "v1.0.0" }']),
        (".github/workflows/ci.yml", ['        run: ./build.sh ${{ matrix.os }}'], ['        run: ./build.sh $OS']),
        (".github/workflows/ci.yml", ["          TITLE: ${{ github.event.pull_request.title }}"], ["          TITLE: $T"]),  # env: the safe way
        (".github/workflows/ci.yml", ['        run: echo "${{ steps.v.outputs.version }}" done'], ['        run: echo "$FILES" | xargs ./check']),
    ],
)
def test_the_ordinary_look_alikes_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    reasons = review(fc(path, added, removed)).reasons
    words = ("any version", "moving branch", "debug agent", "pastes an expression", "script injection")
    assert not any(w in r for r in reasons for w in words), reasons


# --------------------------------------------------------------------------- the line the first reason quotes is in the view

def test_the_hunk_the_first_reason_quotes_is_the_one_shown_first() -> None:
    from relay.core.contracts import FileChange
    from relay.review.view_items import _telling

    # A CI file: the commit's own lifted limit (a later reason) in a small hunk, the injection the first reason quotes in
    # a bigger one below it.
    limit = _hunk(10, ["   - name: Unit", "-    run: php vendor/bin/phpunit", "+    run: php -d memory_limit=-1 vendor/bin/phpunit"])
    inject = _hunk(40, ["   - name: Deps", "-    run: composer install", '+    run: echo "Testing ${{ github.head_ref }}" && composer install',
                        "-    run: ./a.sh", "+    run: ./a.sh --retries 5", "-    run: ./b.sh", "+    run: ./b.sh --retries 5"])
    change = FileChange(path=".github/workflows/tests.yml", additions=4, deletions=4, risk="high", rules=["dangerous_call", "unsafe_value"],
                        reasons=['runs untrusted text in a CI step (script injection): run: echo "Testing ${{ github.head_ref }}" && composer…',
                                 "removes a size or rate limit: run: php -d memory_limit=-1 vendor/bin/phpunit"])
    assert _telling(change, change.path, [limit, inject]) == (1, True)
