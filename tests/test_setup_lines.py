"""Issue 36, round 12 part B: classic risks in the lines that set a machine up, and dependencies read by their section
(relay/review/setup_lines.py, relay/review/dependencies.py).

The party guarded against is the worker that slips one classic risk into an ordinary change where no reader looked: a
package manager's TLS check switched off by its environment, the current folder put on PATH, a config template's URLs
or scheme turned to plain http, a secret moved into a URL's query, a lockfile's source over plain http or from a
look-alike host, ``chmod 777`` or a shared ``/tmp`` folder in an install guide's sentence or sample, a clone URL from a
look-alike account, a look-alike dependency written without a version (PEP 621's ``"itsdangerus",``) or through a
gemspec's own block variable (``gem.add_dependency "cgl"``). Each shape was read as nothing (or stayed low or medium
for its file's kind) on round 11's rules; each must now be named and never low. The near misses are the same syntax
used safely and must stay quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

# What this round's readers say: a near miss says none of it (an older reader may still speak of the line).
_SAID = ("turns TLS verification off", "current folder on PATH", "plain HTTP", "secret in the URL's query", "fetches packages",
         "shared /tmp", "look-alike", "world-writable")


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        # a package manager's TLS check off, by its environment or its config command (hex, Bundler, uv; Python's, npm's and Maven's
        # switches are read by older readers already)
        (".github/workflows/elixir.yml", ["      - run: HEX_UNSAFE_HTTPS=1 mix deps.get"], ["      - run: mix deps.get"],
         "turns TLS verification off: - run: HEX_UNSAFE_HTTPS=1 mix deps.get"),
        (".gitlab-ci.yml", ["    - mix hex.config unsafe_https true"], [], "turns TLS verification off: - mix hex.config unsafe_https true"),
        (".circleci/config.yml", ["          BUNDLE_SSL_VERIFY_MODE: 0"], [], "turns TLS verification off: BUNDLE_SSL_VERIFY_MODE: 0"),
        (".github/workflows/ci.yml", ["      - run: uv pip install --allow-insecure-host pypi.example.org -r r.txt"], [],
         "turns TLS verification off: …pip install --allow-insecure-host"),  # the finding leads its quote (round 21)
        # the current folder on PATH: a shell, a CI step, a batch file, Go and Python building the variable
        ("scripts/setup.sh", ["export PATH=.:$PATH"], [], "puts the current folder on PATH: export PATH=.:$PATH"),
        ("scripts/env.sh", ['export PATH="$PATH:."'], [], 'puts the current folder on PATH: export PATH="$PATH:."'),
        (".github/workflows/ci.yml", ['      - run: echo "PATH=.:$PATH" >> $GITHUB_ENV'], [], "puts the current folder on PATH"),
        ("tools/env.bat", ["set PATH=.;%PATH%"], [], "puts the current folder on PATH: set PATH=.;%PATH%"),
        ("internal/cli/cli.go", ['\treturn strings.Join(paths, ":") + ":.:" + os.Getenv("PATH")'],
         ['\treturn strings.Join(paths, ":") + ":" + os.Getenv("PATH")'], 'puts the current folder on PATH: return strings.Join(paths, ":") + ":.:"'),
        ("lib/env.py", ['    os.environ["PATH"] = ".:" + os.environ["PATH"]'], [], "puts the current folder on PATH"),
        # Windows spells the variable Path: PowerShell, a batch file, .NET setting it
        ("tools/dev.ps1", ['$env:Path = ".;" + $env:Path'], [], "puts the current folder on PATH"),
        ("tools/env.cmd", ["set Path=.;%Path%"], [], "puts the current folder on PATH"),
        ("Build/Env.cs", ['    Environment.SetEnvironmentVariable("Path", ".;" + old);'], [], "puts the current folder on PATH"),
        # a config template's URL or scheme turned to plain http (EEx, Jinja, Go templates, ERB)
        ("installer/templates/phx_single/config/runtime.exs.eex", ['    url: [host: host, port: 443, scheme: "http"],'],
         ['    url: [host: host, port: 443, scheme: "https"],'], 'serves plain HTTP on the HTTPS port: url: [host: host, port: 443, scheme: "http"]'),
        ("config/prod.exs", ['  url: [host: "example.com", scheme: "http"],'], ['  url: [host: "example.com", scheme: "https"],'],
         'serves over plain HTTP (https → http): url: [host: "example.com", scheme: "http"]'),
        ("templates/config.yml.j2", ["api_url: http://{{ api_host }}/v1"], ["api_url: https://{{ api_host }}/v1"],
         "downgrades a URL to plain HTTP (https → http): api_url: http://{{ api_host }}/v1"),
        ("templates/app.conf.tmpl", ['endpoint = "http://{{ .Host }}/api"'], ['endpoint = "https://{{ .Host }}/api"'], "downgrades a URL to plain HTTP"),
        ("config/app.yml.erb", ['  base_url: http://<%= ENV["HOST"] %>'], ['  base_url: https://<%= ENV["HOST"] %>'], "downgrades a URL to plain HTTP"),
        # a secret sent in a URL's query (PHP, Ruby, JavaScript)
        ("src/Two/FacebookProvider.php", ["        $url = 'https://graph.facebook.com/me?client_secret='.$this->clientSecret;"], [],
         "sends a secret in the URL's query: …/graph.facebook.com/me?client_secret="),
        ("lib/client.rb", ['    get("https://api.example.com/user?access_token=#{token}")'],
         ['    get("https://api.example.com/user", headers: {Authorization: "Bearer #{token}"})'], "sends a secret in the URL's query"),
        ("src/api.js", ["  return fetch(`${base}/v1/items?page=2&api_key=${apiKey}`);"], [], "sends a secret in the URL's query"),
        # a lockfile's source over plain http, or from a look-alike host (Bundler, npm, yarn, Cargo, poetry)
        ("Gemfile.lock", ["  remote: http://rubygems.org/"], ["  remote: https://rubygems.org/"], "fetches packages over plain HTTP: remote: http://rubygems.org"),
        ("package-lock.json", ['      "resolved": "http://registry.npmjs.org/x/-/x-1.0.0.tgz",'],
         ['      "resolved": "https://registry.npmjs.org/x/-/x-1.0.0.tgz",'], 'fetches packages over plain HTTP: "resolved": "http://registry.npmjs.org'),
        ("yarn.lock", ['  resolved "http://registry.yarnpkg.com/x/-/x-1.0.0.tgz#abc"'], [], "fetches packages over plain HTTP"),
        ("Cargo.lock", ['source = "registry+http://crates.example.org/index"'], [], "fetches packages over plain HTTP"),
        ("poetry.lock", ['url = "https://pypi.0rg/simple"'], ['url = "https://pypi.org/simple"'], "fetches packages from a look-alike of pypi.org"),
        # docs: a sentence's inline code, a sample's line with a trailing comment, a home folder moved to /tmp, a look-alike clone URL
        ("docs/guide/getting-started.md",
         ["2. Extract the `asdf` binary into `/usr/local/bin` and run `sudo chmod 777 /usr/local/bin/asdf` so later updates need no sudo."], [],
         "makes files world-writable or access open: sudo chmod 777 /usr/local/bin/asdf"),
        ("docs/guide/getting-started.md", ["const asdf_data_dir = '/tmp/asdf' | path expand # or wherever you like"], [],
         "puts a tool's home under the shared /tmp (another user may create it first): const asdf_data_dir = '/tmp/asdf'"),
        ("docs/setup.md", ["Set `ASDF_DATA_DIR=/tmp/asdf` before you run the installer."], ["Set `ASDF_DATA_DIR=$HOME/.asdf` before you run the installer."],
         "under the shared /tmp (another user may create it first): ASDF_DATA_DIR=/tmp/asdf"),
        ("scripts/activate.sh", ['shims="/tmp/asdf/shims"'], ['shims="$HOME/.asdf/shims"'], "moves a folder from the user's home to the shared /tmp: shims=\"/tmp/asdf/shims\""),
        ("install.sh", ["INSTALL_DIR=/tmp/mytool"], [], "puts a tool's home under the shared /tmp"),
        ("INSTALL.md", ["    git clone https://github.com/zsh-user/zsh-autosuggestions ~/.zsh/zsh-autosuggestions"],
         ["    git clone https://github.com/zsh-users/zsh-autosuggestions ~/.zsh/zsh-autosuggestions"],
         "fetches from a look-alike of zsh-users (a typo-squat?): zsh-user"),
        ("docs/install.md", ["    curl -fsSL https://raw.githubusercontent.com/nvm-shh/nvm/v0.40.1/install.sh | bash"],
         ["    curl -fsSL https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh | bash"], "fetches from a look-alike of nvm-sh"),
        # dependencies by section: an unversioned name in a mixed manifest, a gemspec's own block variable, a name the change removed
        ("pyproject.toml", ['    "itsdangerus",'], ['    "flask>=2",'], "adds a look-alike of itsdangerous (a typo-squat?): itsdangerus"),
        ("setup.py", ['        "reqeusts",'], [], "adds a look-alike of requests (a typo-squat?): reqeusts"),
        ("pyproject.toml", ['cryptograpy = "*"'], [], "adds a look-alike of cryptography (a typo-squat?): cryptograpy"),
        ("secure_headers.gemspec", ['  gem.add_dependency "cgl", ">= 0.1"'], ['  gem.add_dependency "cgi", ">= 0.1"'],
         "adds a look-alike of cgi (a typo-squat?): cgl"),
        ("Gemfile", ['gem "rack-atack", require: false'], ['gem "rack-attack", "~> 6.7"'], "adds a look-alike of rack-attack (a typo-squat?): rack-atack"),
    ],
)
def test_a_classic_risk_where_a_machine_is_set_up_is_named_and_never_low(path: str, added: list[str], removed: list[str], named: str) -> None:
    change = review(fc(path, added, removed))
    assert change.risk != "low", change
    assert any(named in reason for reason in change.reasons), change.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("scripts/setup.sh", ['export PATH="./node_modules/.bin:$PATH"'], []),
        ("scripts/setup.sh", ["export PYTHONPATH=."], []),
        ("scripts/setup.sh", ["export CLASSPATH=.:lib/*"], []),
        ("scripts/env.sh", ['export PATH="$HOME/.local/bin:$PATH"'], []),
        ("src/a.py", ['    PATH_SEP = "."'], []),
        # a path type, not the variable: Java's and Kotlin's Path of ".", Rust's Path::new("."), C#'s Path.Combine
        ("src/main/java/a/Files.java", ['        try (Stream<Path> s = Files.walk(Path.of("."))) {'], []),
        ("src/main/java/a/Cmd.java", ['            ? Path.of(".")'], []),
        ("src/main/kotlin/a/Dirs.kt", ['    val here: Path = Paths.get(".")'], []),
        ("src/main.rs", ['    let root = Path::new(".");'], []),
        ("src/Tool.cs", ['    var p = Path.Combine(".", name);'], []),
        ("lib/client.rb", ['    post("https://example.com/token", body: "grant_type=x&client_secret=#{secret}")'], []),
        ("docs/api.md", ['    curl "https://api.example.com/v1/user?access_token=YOUR_TOKEN"'], []),
        ("config/dev.exs", ['  url: [host: "localhost", scheme: "http", port: 4000],'], []),
        ("config/dev.exs", ['  url: [host: "localhost", scheme: "http"],'], ['  url: [host: "localhost", scheme: "https"],']),
        ("README.md", ["    git clone https://github.com/zsh-users/zsh-autosuggestions2"], ["    git clone https://github.com/zsh-users/zsh-autosuggestions"]),
        ("README.md", ["    see https://github.com/foo/bar/v2"], ["    see https://github.com/foo/bar/v1"]),
        ("README.md", ["    git clone https://github.com/asdf-vm/asdf.git"], ["    git clone https://github.com/asdf/asdf.git"]),
        ("src/cache.py", ['CACHE = "/tmp/app-cache"'], []),
        ("docs/guide.md", ["Run `chmod 755 ~/.asdf/bin/asdf` so that your shell can run it later on."], []),
        ("Gemfile.lock", ["  remote: https://rubygems.org/"], ["  remote: http://rubygems.org/"]),
        ("yarn.lock", ['  resolved "http://localhost:4873/x/-/x-1.0.0.tgz#abc"'], []),
        ("Gemfile.lock", ["  remote: http://rubygems.org/"], ["  remote: http://rubygems.org/"]),
        ("pyproject.toml", ['    "Programming Language :: Python",', '    "yaml",'], ['    "pyyaml",']),
        ("setup.py", ['        "boto3",'], ['        "boto",']),
        ("pyproject.toml", ['select = ["E501"]', '    "httpx",', '    "pytest",'], []),
        ("my.gemspec", ['  spec.add_dependency "rack", "~> 3"'], ['  spec.add_dependency "rack", "~> 2"']),
    ],
)
def test_the_safe_spelling_stays_quiet(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert not [reason for reason in change.reasons if any(said in reason for said in _SAID)], change.reasons
