"""relay.review.command_lines: the command lines of CI files, build files and scripts read as code is (round 35).

Each class fires in several CI systems and ecosystems, and its look-alikes stay quiet: build output left out of a run,
the default index, pipefail kept or moved, a flag removed, a command wrapped onto two lines, a version moved."""

from __future__ import annotations

import pytest

from relay.review.command_lines import command_file, command_grown, command_line, grown_pairs, index_added, pipefail_dropped, excludes_tests
from relay.review.facts import RiskContext
from relay.review.leading_lines import leading_line
from relay.review.risk import assess_all
from relay.review.rule_row import fc

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("path", "old", "new", "flag"), [
    (".github/workflows/test.yml", "      - run: yarn test", "      - run: yarn test --testPathIgnorePatterns=LedgerLock", "--testPathIgnorePatterns"),
    (".gitlab-ci.yml", "    - python -m pytest tests", "    - python -m pytest tests --deselect tests/test_quota.py::test_cap", "--deselect"),
    (".circleci/config.yml", "          command: go test -race ./...", "          command: go test -race ./... -skip TestRotateKeys", "-skip"),
    ("azure-pipelines.yml", "  - script: cargo test --all", "  - script: cargo test --all -- --skip pem_rejects", "--skip"),
    ("Jenkinsfile", "        sh './gradlew check'", "        sh './gradlew check -x test'", "-x test"),
    (".travis.yml", "  - bundle exec rspec", "  - bundle exec rspec --exclude-pattern 'spec/policies/**'", "--exclude-pattern"),
    ("scripts/run-tests.sh", "pytest -q", 'pytest -q -k "not throttling"', "not throttling"),
    ("Makefile", "\tnpx vitest run", "\tnpx vitest run --exclude src/acl/**", "--exclude"),
    ("bitbucket-pipelines.yml", "          - dotnet test", '          - dotnet test --filter "Category!=Signing"', "Category!=Signing"),
])
def test_a_test_command_given_an_excluding_flag_is_named(path: str, old: str, new: str, flag: str) -> None:
    found = command_line(path, "ci" if not path.endswith((".sh", "Makefile")) else "build", [new], [old])
    assert found is not None and found.startswith("skips the tests it excludes: ") and flag in found


@pytest.mark.parametrize(("old", "new"), [
    ("      - run: pytest", "      - run: pytest --ignore=node_modules --ignore-glob=build/*"),  # build output and dependencies
    ("      - run: npx jest", "      - run: npx jest --testPathIgnorePatterns=<rootDir>/dist/"),
    ("    - pytest -m 'not slow'", "    - pytest -m 'not slow' -k 'not network'"),  # the project's usual split of its suite
    ("    - pytest --ignore=tests/legacy", "    - pytest -q --ignore=tests/legacy"),  # the same item excluded before
    ("    - npm test -- --testPathIgnorePatterns=Cache", "    - npm test"),  # a flag that excluded tests removed
    ("    - tar --exclude=.git -czf out.tgz .", "    - tar --exclude=.git --exclude=secrets -czf out.tgz ."),  # no test runner
    ("    - ./gradlew build", "    - ./gradlew build -x javadoc"),  # a task that is no test
    ("    - mvn -B verify", "    - mvn -B -DskipTests package"),  # a package step written without its tests (a new job)
    ("    - pip install pytest==8.1", "    - pip install pytest==8.2"),  # a version moved
])
def test_excluding_look_alikes_stay_quiet(old: str, new: str) -> None:
    assert excludes_tests([new], [old]) is None


@pytest.mark.parametrize(("path", "new"), [
    (".github/workflows/docs.yml", "      - run: python -m pip install --extra-index-url https://wheels.orchard-build.net/simple sphinx"),
    (".gitlab-ci.yml", "    - uv pip install --index-url https://pkgs.nightjar.dev/simple -r requirements.txt"),
    ("docker/build.Dockerfile", "RUN npm ci --registry https://npm.tern-mirror.io/"),
    ("scripts/bootstrap.sh", "gem install bundler --source https://gems.kestrel.cloud"),
    (".circleci/config.yml", "            PIP_EXTRA_INDEX_URL: https://idx.rookery.app/simple"),
    ("azure-pipelines.yml", "  - script: npm config set registry https://reg.heron-ci.dev/"),
])
def test_an_install_given_another_index_is_named(path: str, new: str) -> None:
    found = command_line(path, "ci", [new], [])
    assert found is not None and found.startswith("takes packages from another index (dependency confusion): ")


@pytest.mark.parametrize(("old", "new"), [
    ([], ["      - run: pip install --index-url https://pypi.org/simple build"]),  # the default index written out
    ([], ["      - run: npm install --registry https://registry.npmjs.org/"]),
    ([], ["    - gem install rake --source https://rubygems.org"]),
    (["    - pip install --extra-index-url https://wheels.kite.dev/simple app==1.0"],
     ["    - pip install --extra-index-url https://wheels.kite.dev/simple app==1.1"]),  # the index was there: a version moved
    ([], ["    - pip install --extra-index-url $PRIVATE_INDEX app"]),  # a variable: the value is set elsewhere
    ([], ["    - helm upgrade app ./chart -f https://cfg.example.org/values.yaml"]),  # -f of no installer
    ([], ["    - curl -fsSL https://get.starling.dev/tool -o tool"]),
])
def test_index_look_alikes_stay_quiet(old: list[str], new: list[str]) -> None:
    assert index_added(new, old) is None


def test_a_dropped_pipefail_is_named_where_the_pipeline_stays() -> None:
    step = ["          set -o pipefail", "          xcodebuild -scheme App test | xcbeautify"]
    found = pipefail_dropped([step[1]], step)
    assert found is not None and "pipefail" in found
    assert pipefail_dropped(["set -eu"], ["set -euo pipefail"]) is not None  # a script's header loses it
    for path, kind, line in ((".gitlab-ci.yml", "ci", "      - set -o pipefail"), ("Jenkinsfile", "ci", "            set -o pipefail"),
                             ("scripts/test.sh", "source", "set -euo pipefail"), ("Makefile", "build", "\tset -o pipefail; \\")):
        assert command_line(path, kind, [], [line]) is not None, path
    assert command_line("src/runner.py", "source", [], ["    set -o pipefail"]) is None  # not a command file


@pytest.mark.parametrize(("added", "removed"), [
    (["      shell: bash -eo pipefail {0}"], ["          set -o pipefail"]),  # moved to the job's defaults
    (["          set -euo pipefail"], ["          set -eo pipefail"]),  # kept, written another way
    ([], ["          set -o pipefail", "          make test | tee test.log"]),  # the step deleted with its pipeline
    (["          make test | tee test.log"], ["          make test | tee test.log"]),  # nothing about it
])
def test_pipefail_look_alikes_stay_quiet(added: list[str], removed: list[str]) -> None:
    assert pipefail_dropped(added, removed) is None


def test_a_command_that_gained_or_lost_flags_is_a_turn_of_what_runs() -> None:
    path = ".github/workflows/ci.yml"
    assert command_grown(path, "ci", "      - run: npm test", "      - run: npm test -- --runInBand") == "-- --runInBand"
    assert command_grown(path, "ci", "      - run: make lint || true", "      - run: make lint") == "|| true"
    assert command_grown("src/app.py", "source", "run(cmd)", "run(cmd) --x") is None  # not a command file
    # wrapped onto the next line, a version moved, a word with no flag, a block opened: quiet
    assert command_grown(path, "ci", "  - run: npm test --ci --coverage", "  - run: npm test --ci", ["      --coverage"]) is None
    assert command_grown(path, "ci", "  - run: npm test --ci", "  - run: npm test --ci \\") is None
    assert command_grown(path, "ci", "  - run: npm i -g pnpm@9", "  - run: npm i -g pnpm@9.1") is None
    assert command_grown(path, "ci", "  - run: make docs", "  - run: make docs html") is None
    assert command_grown(path, "ci", "  - run: make", "  - run: |") is None
    # a build file's setting is the build's own choice; its recipe line and its RUN are commands
    assert command_grown("Makefile", "build", "CFLAGS = -O2", "CFLAGS = -O2 -g") is None
    assert command_grown("Makefile", "build", "\tgo test ./...", "\tgo test ./... -short") == "-short"
    assert command_grown("Dockerfile", "build", "RUN make", "RUN make -j4") == "-j4"
    assert grown_pairs(".travis.yml", ["  - cargo build --locked"], ["  - cargo build"]) == [("  - cargo build", "  - cargo build --locked", "--locked")]


def test_the_leading_line_quotes_a_command_grown_and_not_a_version_moved() -> None:
    quote = leading_line(".circleci/config.yml", ["          command: npm run e2e -- --retries 9"], ["          command: npm run e2e"])
    assert quote == "turns: command: npm run e2e → command: npm run e2e -- --retries 9"
    assert leading_line(".circleci/config.yml", ["          command: npm i -g npm@10.2"], ["          command: npm i -g npm@10"]) is None
    assert leading_line(".gitlab-ci.yml", ["    - mvn -B verify \\", "        -Pci"], ["    - mvn -B verify -Pci"]) is None


def test_command_files() -> None:
    for path, kind in ((".github/workflows/a.yml", "ci"), ("Makefile", "build"), ("tools/release.sh", "source"), ("ci/Dockerfile.test", "build"),
                       ("Jenkinsfile", "ci"), ("build.ps1", "source")):
        assert command_file(path, kind), path
    for path, kind in (("src/main.py", "source"), ("README.md", "docs"), ("package.json", "manifest")):
        assert not command_file(path, kind), path


def test_the_row_names_the_command_ahead_of_the_ci_kind() -> None:
    ci = fc(".github/workflows/test.yml", additions=1, deletions=1, removed_lines=["      - run: go test ./..."],
            added_lines=["      - run: go test ./... -skip TestAuthz"])
    bump = fc(".github/workflows/lint.yml", additions=1, deletions=1, removed_lines=["      - uses: actions/setup-go@v4"],
              added_lines=["      - uses: actions/setup-go@v5"])
    ctx = RiskContext(ci_credentials={ci.path: "", bump.path: ""})
    named, quiet = assess_all([ci, bump], ctx)
    assert named.reasons[0] == "skips the tests it excludes: - run: go test ./... -skip TestAuthz" and named.risk == "medium"
    assert "command_line" not in quiet.rules and quiet.risk == "medium"
