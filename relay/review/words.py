"""The ranking's word lists, as data: which names, folders and words make a rule fire.

Each list says in its comment what it is for and which rule reads it (``relay.review.rules``). The
word lists of the line readers (security tokens, the task's vocabulary) stand beside their regular
expressions in ``relay.review.security_reading``: each is a pre-check for one pattern, and
``tests/test_screens.py`` proves no pre-check hides a match of its pattern.
"""

from __future__ import annotations


__all__ = [
    "AUTH_WORDS",
    "CI_DATA_EXTS",
    "DOCS_BUILD_DIRS",
    "GENERIC_STEMS",
    "MIGRATION_DIRS",
    "MIXED_MANIFESTS",
    "NOT_DEPS",
    "NO_SIZE_KINDS",
    "POPULAR_PACKAGES",
    "SECURITY_TEST_FILE_WORDS",
]

# auth_path: a word of a source file's own name that says it guards access or secrets.
AUTH_WORDS = frozenset({
    "auth", "authn", "authz", "authenticate", "authentication", "authenticator", "authorization", "authorize",
    "authorizer", "login", "logout", "signin", "signup", "oauth", "oauth2", "oidc", "jwt", "session", "sessions",
    "password", "passwords", "passwd", "credential", "credentials", "secret", "secrets", "permission",
    "permissions", "perms", "acl", "acls", "rbac", "crypto", "cryptography", "cipher", "encrypt", "encryption",
    "decrypt", "sso", "saml", "csrf", "security", "token", "keystore", "keychain", "privilege",
    "privileges", "sudo", "sandbox", "hmac", "signing", "tls", "ssl", "cert", "certs", "certificate",
})

# migration: a folder that holds database migrations.
MIGRATION_DIRS = frozenset({"migrations", "migration", "migrate", "alembic", "flyway", "liquibase", "schema_migrations"})

# beside_security_test: a test file named for the attacks or bounds it covers (limit_test.go,
# test_security.py, fuzz_test.rs): a case added to it is a security regression test.
SECURITY_TEST_FILE_WORDS = frozenset({
    "security", "limit", "limits", "fuzz", "overflow", "dos", "redos", "malicious", "hostile", "untrusted", "traversal",
    "injection", "exploit", "exploits", "cve", "vuln", "vulnerability",
    # commonmark's and markdown-it's suites of inputs that once took quadratic time or worse
    "pathological",
})

# named_by_security_note / named_by_security_task: stems too generic to say which file a note means.
GENERIC_STEMS = frozenset({"index", "main", "init", "__init__", "lib", "mod", "core", "base", "common", "src", "app"})

# new_dependency: a manifest that only builds the documentation (docs/requirements.txt): nothing it
# adds ships with the project or runs its tests, so it stays "dependency manifest".
DOCS_BUILD_DIRS = frozenset({"doc", "docs", "documentation"})

# manifest: files that hold dependencies among much else; an edit there is a dependency change only
# when a dependency line moved (otherwise it is build configuration).
MIXED_MANIFESTS = (
    "pyproject.toml", "setup.cfg", "setup.py", "package.json", "composer.json", "cargo.toml", "build.gradle",
    "build.gradle.kts", "pom.xml", "mix.exs", "deno.json", "deno.jsonc", "*.csproj", "pubspec.yaml",
)

# new_dependency: keys that look like "name = version" but are the project's own metadata.
NOT_DEPS = frozenset({
    "name", "version", "description", "license", "main", "module", "types", "typings", "private", "type",
    "python", "requires-python", "python_requires", "edition", "rust-version", "go", "toolchain", "packagemanager",
    "node", "npm", "engines", "homepage", "repository", "author", "line-length", "target-version", "build-backend",
    # a table or a list of them, not one (round 96: dirty-equals' ``optional-dependencies = {pydantic = […] }``)
    "optional-dependencies", "dev-dependencies", "build-dependencies", "dependency-groups", "extras_require",
    "install_requires", "project_urls", "urls", "scripts", "entry_points", "features",
    # a package's metadata whose value starts with a digit (round 115, held-out 337's onefetch: cargo-deb's ``copyright =
    # "2018, …"`` read as "adds a dependency: copyright", the reason that hid a mode 777 beside it)
    "copyright", "date", "year",
})

# ci_config: files kept beside the pipelines that no runner executes (expected outputs, notes).
CI_DATA_EXTS = (".txt", ".md", ".rst", ".csv")

# huge_change / large_hunk: size alone never makes prose or generated output risky.
NO_SIZE_KINDS = ("docs", "example", "generated", "lockfile")


# lookalike_dependency: widely used packages of the main registries (PyPI, npm, RubyGems, crates.io, Go modules,
# Packagist, Maven Central). A
# new dependency one letter off one of them (reqeusts, python-dateutils) is the shape of a typo-squat.
POPULAR_PACKAGES = frozenset("""
requests urllib3 numpy pandas django flask fastapi pydantic sqlalchemy boto3 botocore setuptools wheel certifi idna
charset-normalizer cryptography pyyaml jinja2 markupsafe click pytest attrs python-dateutil pytz packaging typing-extensions
colorama rich httpx aiohttp scipy matplotlib pillow psycopg2 psycopg2-binary pymysql redis celery gunicorn uvicorn starlette
werkzeug itsdangerous beautifulsoup4 lxml tqdm openai tensorflow torch scikit-learn protobuf grpcio google-auth jsonschema
pyjwt paramiko mkdocs mkdocs-material mkdocstrings sphinx black ruff mypy flake8 pylint isort coverage pytest-cov tox nox
pytest-xdist pytest-mock pytest-asyncio pytest-timeout pre-commit virtualenv poetry tomli ujson orjson simplejson docutils pygments babel pyopenssl bcrypt passlib websockets anyio
sniffio httpcore greenlet gevent eventlet marshmallow alembic selenium playwright scrapy networkx sympy cloudpickle joblib
openpyxl python-dotenv tabulate termcolor prompt-toolkit ipython jupyter notebook pycryptodome pycryptodomex pynacl cffi pyasn1 rsa
ecdsa authlib oauthlib requests-oauthlib
react react-dom lodash express axios chalk commander moment request async bluebird underscore uuid yargs minimist
semver webpack typescript eslint tslint prettier jest mocha sinon angular jquery body-parser cookie-parser dotenv mongoose
socket.io tslib core-js classnames prop-types fs-extra rimraf mkdirp inquirer node-fetch cross-env nodemon colors
cheerio puppeteer date-fns dayjs jsonwebtoken bcryptjs passport helmet morgan multer nanoid formik redux react-redux
styled-components tailwindcss postcss autoprefixer rollup esbuild electron graphql ethers content-type cookie mime
mime-types on-finished statuses http-errors path-to-regexp raw-body serve-static accepts escape-html finalhandler
merge-descriptors methods proxy-addr safe-buffer setprototypeof utils-merge safer-buffer debug minimatch lru-cache
readable-stream iconv-lite follow-redirects form-data js-yaml node-forge jose jws sshpk tweetnacl elliptic
crypto-js argon2 libsodium-wrappers whatwg-url cross-spawn picomatch micromatch chokidar markdownlint-cli http-server lint-staged husky
browserify webpack-cli uglify-js grunt-cli gulp-cli
rails rack rake bundler nokogiri activesupport activerecord devise puma sinatra rspec rubocop faraday httparty thor
sidekiq mysql2 sqlite3 aws-sdk rest-client addressable tzinfo concurrent-ruby minitest capybara webmock factory_bot
serde serde_json tokio rand regex clap anyhow thiserror reqwest hyper futures proc-macro2 chrono lazy_static once_cell
bytes tracing actix-web base64 itertools bitflags
github.com/stretchr/testify github.com/sirupsen/logrus github.com/spf13/cobra github.com/spf13/viper github.com/gin-gonic/gin
github.com/gorilla/mux github.com/gorilla/websocket github.com/pkg/errors github.com/google/uuid go.uber.org/zap
google.golang.org/grpc google.golang.org/protobuf github.com/golang/protobuf github.com/go-chi/chi github.com/go-chi/render
github.com/labstack/echo github.com/gofiber/fiber github.com/jackc/pgx github.com/lib/pq github.com/redis/go-redis
github.com/golang-jwt/jwt github.com/go-sql-driver/mysql github.com/gorilla/sessions github.com/gorilla/handlers github.com/rs/zerolog
golang.org/x/crypto golang.org/x/net golang.org/x/sync golang.org/x/sys golang.org/x/text golang.org/x/term golang.org/x/time
golang.org/x/mod golang.org/x/tools golang.org/x/exp golang.org/x/oauth2 gopkg.in/yaml.v3 github.com/go-playground/validator
github.com/prometheus/client_golang github.com/urfave/cli
oauthlib requests-oauthlib authlib django-cors-headers whitenoise psutil filelock platformdirs tenacity httplib2 wrapt
responses freezegun hypothesis factory-boy sentry-sdk structlog loguru pendulum xmltodict defusedxml bleach markdown
mistune transformers huggingface-hub langchain opencv-python pyarrow polars
mypy-extensions six s3transfer jmespath pyasn1 pyasn1-modules rsa fsspec cachetools pyparsing importlib-metadata zipp
pluggy iniconfig exceptiongroup tomlkit pathspec decorator cffi pycparser soupsieve multidict yarl frozenlist aiosignal
async-timeout distlib annotated-types pydantic-core h11 requests-toolbelt docker kubernetes hatchling hatch-vcs
setuptools-scm flit-core google-api-core googleapis-common-protos grpcio-status types-requests types-pyyaml
vue next nuxt svelte vite sequelize ioredis zod joi debug cors express-session compression koa fastify superagent
undici cross-spawn minimatch rxjs vitest
axum tower serde_derive env_logger rustls openssl sha2 tempfile crossbeam parking_lot rayon criterion
jwt omniauth pundit cancancan multi_json activemodel actionpack railties sprockets builder bootsnap rack-cors
guzzlehttp/guzzle monolog/monolog symfony/console symfony/http-foundation symfony/yaml laravel/framework phpunit/phpunit
nesbot/carbon vlucas/phpdotenv twig/twig psr/log ramsey/uuid firebase/php-jwt phpstan/phpstan mockery/mockery fakerphp/faker
jackson-databind jackson-core gson guava junit junit-jupiter slf4j-api logback-classic log4j-core commons-lang3 commons-io
commons-codec httpclient okhttp spring-boot-starter-web spring-core mockito-core lombok netty-all hibernate-core postgresql
newtonsoft.json xunit xunit.runner.visualstudio nunit nunit3testadapter mstest.testframework moq fluentassertions serilog
""".split())
