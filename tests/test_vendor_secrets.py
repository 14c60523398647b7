"""Credentials of well-known vendor shapes (npm, GitLab, PyPI, Hugging Face, Stripe, Docker Hub, SendGrid, Google OAuth
secrets and access tokens, Slack webhooks, Shopify, Databricks, Supabase's service-role key): masked before the leader sees them, and read by the review in every file kind a person
commits (source, scripts, CI, build files, .env, docs prose and code blocks, README, CONTRIBUTING), from one table
(relay.core.redact.VENDOR_SHAPES). Before: an npm token in a shell script was `low` "edit (+1/-1)", the same in a README
code block `low` "docs edited", and both reached the leader unmasked."""

from __future__ import annotations

import json

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from relay.core.contracts import FileChange
from relay.core.redact import VENDOR_SHAPES, redact
from relay.review.facts import RiskContext
from relay.review.risk import assess
from relay.review.risky_lines import risky_screen

__all__: list[str] = []  # a test module exports nothing

# Built from parts so this file itself does not look like it holds live keys (random-looking bodies, letters and digits).
NPM = "npm_" + "a8Kq2LmZ7xR4tV9b" + "N3cW6yP1sD5fG0hJ2uE4"
GITLAB = "glpat-" + "x7Rk2Lq9Mz4Tv8" + "Nb3Wc6"
PYPI = "pypi-" + "AgEIcHlwaS5vcmc" + "CJDk3YTRiNzE2LTI5ZWQtNGE5Zi1iN2U0LTk2OGQ1ZjAyN2I1NQACKlsz"
HF = "hf_" + "QmZtRkPwLxVbNcJdHs" + "GyTfUeWaKoYiXrMq"
STRIPE = "sk_" + "live_" + "51Hq8Rk2Lm9Zx4Tv7Nb3Wc6Yp"
STRIPE_RESTRICTED = "rk_" + "live_" + "51Hq8Rk2Lm9Zx4Tv7Nb3Wc6Yp"
DOCKER = "dckr_pat_" + "Q8vK2mZr7Lx4Tb9N" + "c3Wy6Pd1Sf5Gh0J"
SENDGRID = "SG." + "Qm4Zt8Rk2Pw7Lx9Vb3Nc6J" + "." + "dHs5GyT1fUe0WaK4oYi8XrMq2Bn6Cv3Lp7Zk9Jh1Gf5"
GOOGLE_OAUTH = "GOCSPX-" + "Qm4Zt8Rk2Pw7Lx9Vb3" + "Nc6JdHs5Gy"
SLACK_HOOK = "https://hooks.slack.com/services/" + "T04QmZtRk2P/B06Lx9Vb3Nc/" + "dHs5GyT1fUe0WaK4oYi8XrMq"
SHOPIFY = "shpat_" + "9f2c7a41e08b53d6" + "a7c1e94b20f8d365"
DATABRICKS = "dapi" + "7c1e94b20f8d365a" + "9f2c7a41e08b53d6"
GOOGLE_ACCESS = "ya29." + "a0AfB_byC3mQx7Lw2P" + "zV9kR4tN8sJ1hG6fD5eY0uI"
AZURE_SECRET = "pQ5" + "8Q~3nVb1xZrT7wKe0yHf" + "A2uLm9dS4cJ6gNq_o"
# a signed JWT whose payload claims ``"role": "service_role"`` (Supabase's key that bypasses row-level policies)
SUPABASE = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJzZXJ2aWNlX3JvbGUiLCJpYXQiOjE3MzAwMDAwMDB9."
            + "Q2m9cXhV7rT3kW8pLz0aYbN4sDfG6hJ1uE5iO2vR8tY")
TOKENS = {"npm-token": NPM, "gitlab-token": GITLAB, "pypi-token": PYPI, "huggingface-token": HF, "stripe-key": STRIPE,
          "docker-token": DOCKER, "sendgrid-key": SENDGRID, "google-oauth-secret": GOOGLE_OAUTH, "slack-webhook": SLACK_HOOK,
          "shopify-token": SHOPIFY, "databricks-token": DATABRICKS, "google-access-token": GOOGLE_ACCESS, "supabase-service-key": SUPABASE,
          "azure-client-secret": AZURE_SECRET}


def _secret_part(token: str) -> str:
    return token.rsplit("/", 3)[-3] if token.startswith("https://") else token  # a webhook's host stays readable


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_each_vendor_shape_is_masked_with_its_own_kind(kind: str) -> None:
    token = TOKENS[kind]
    out = redact(f'export THE_KEY="{token}" # set by hand')
    assert f"[REDACTED:{kind}]" in out and _secret_part(token) not in out, out
    assert out.startswith('export THE_KEY="') and out.endswith('" # set by hand')


def test_a_restricted_stripe_key_is_masked_too() -> None:
    assert redact(STRIPE_RESTRICTED) == "[REDACTED:stripe-key]"


@pytest.mark.parametrize("text", [
    "npm_install", "run npm_config_cache and npm_package_version", "from huggingface_hub import hf_hub_download",
    "SG.config = load()", "msg.send(SG.apiKey)", "npm_" + "X" * 36, "hf_" + "x" * 34, "<your-token>", "NPM_TOKEN=${NPM_TOKEN}",
    "Tokens start with npm_ and glpat- and dckr_pat_.", "dapi_client.get()", "shpat_ is Shopify's prefix",
    "ya29.YOUR_ACCESS_TOKEN_HERE_PLEASE", "ya29." + "x" * 30, "abc1Q~" + "x" * 32, "a.b.c1Q~ is the prefix",
    "https://hooks.slack.com/services/XXX/YYY/ZZZ", "sk_live_ keys are secret", "GOCSPX- prefix",
])
def test_ordinary_words_and_placeholders_are_left_alone(text: str) -> None:
    assert redact(text) == text


def test_every_vendor_shape_passes_the_reviews_screen() -> None:
    # One table: the review reads redact's shapes, so each lands in the rules whatever the line's other words.
    assert {kind for kind, _ in VENDOR_SHAPES} >= set(TOKENS)
    for token in TOKENS.values():
        assert risky_screen(f"see {token} here"), token


def _assessed(path: str, line: str, removed: str | None = None) -> FileChange:
    change = FileChange(path=path, additions=1, deletions=int(removed is not None), added_lines=[line],
                        removed_lines=[removed] if removed is not None else [])
    return assess(change, RiskContext())


@pytest.mark.parametrize(("path", "line"), [
    ("scripts/publish.sh", f"NPM_TOKEN={NPM}"),
    ("scripts/publish.sh", f'export NPM_TOKEN="{NPM}"'),
    ("CONTRIBUTING.md", f'export NPM_TOKEN="{NPM}"'),
    ("CONTRIBUTING.md", f"To publish, use the shared token {NPM} that the team keeps for every maintainer here."),
    ("docs/release.md", f"    TWINE_PASSWORD={PYPI}"),
    ("README.md", f"hf = InferenceClient(token='{HF}')"),
    (".github/workflows/release.yml", f"          NPM_TOKEN: {GITLAB}"),
    ("Makefile", f"DOCKER_PAT := {DOCKER}"),
    ("docker-compose.yml", f"      - SENDGRID={SENDGRID}"),
    (".env", f"GOOGLE_CLIENT_SECRET={GOOGLE_OAUTH}"),
    ("src/notify.py", f'WEBHOOK = "{SLACK_HOOK}"'),
    ("config/shop.yaml", f"token: {SHOPIFY}"),
    ("deploy/databricks.cfg", f"token = {DATABRICKS}"),
    ("src/billing.js", f"const stripe = require('stripe')('{STRIPE}')"),
])
def test_a_vendor_credential_is_high_in_every_file_kind_and_its_reason_masks_it(path: str, line: str) -> None:
    out = _assessed(path, line, removed="# placeholder line")
    assert out.risk == "high", out
    said = [r for r in out.reasons if r.startswith("hard-codes a secret")]
    assert said and "[REDACTED:" in said[0], out.reasons
    assert not any(_secret_part(t)[6:22] in r for t in TOKENS.values() for r in out.reasons), out.reasons


@pytest.mark.parametrize(("path", "line"), [
    ("scripts/ci.sh", "export API_KEY=Zq8rT2mL9xV4bN7c"),
    (".env", "DATABASE_PASSWORD=h7Gk2pQz9Lm4"),
    ("Dockerfile", "ENV SERVICE_TOKEN=Zq8rT2mL9xV4bN7c"),
    (".github/workflows/ci.yml", "          GH_AUTH: Zq8rT2mL9xV4bN7cW3yP"),
])
def test_a_secret_named_variable_set_to_a_literal_is_high_with_the_literal_cut(path: str, line: str) -> None:
    out = _assessed(path, line)
    said = [r for r in out.reasons if r.startswith("hard-codes a secret")]
    assert out.risk == "high" and said, out
    value = line.split("=", 1)[-1].split(": ", 1)[-1]
    assert value not in said[0] and value[:3] + "…" in said[0], said


@pytest.mark.parametrize(("path", "line"), [
    ("scripts/publish.sh", 'export NPM_TOKEN="${NPM_TOKEN}"'),
    ("scripts/publish.sh", "export NPM_TOKEN=$NPM_TOKEN"),
    ("scripts/publish.sh", 'export GH_TOKEN="$(gh auth token)"'),
    ("scripts/win.bat", "set API_KEY=%API_KEY%"),
    (".github/workflows/ci.yml", "          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}"),
    (".github/workflows/ci.yml", "          POSTGRES_PASSWORD: postgres"),
    (".env.example", "NPM_TOKEN="),
    (".env.example", "NPM_TOKEN=changeme"),
    (".env.example", "NPM_TOKEN=<your-token>"),
    ("docs/publishing.md", "npm tokens start with npm_ and are forty characters long, like every other granular token."),
    ("docs/publishing.md", "export NPM_TOKEN=npm_" + "X" * 36),
    ("scripts/env.sh", "export AUTHOR=JohnSmith2"),
    ("scripts/env.sh", "export TOKEN_TTL=3600"),
    ("scripts/env.sh", "export TOKEN_FILE=/run/secrets/token2"),
    ("src/models.py", "from huggingface_hub import hf_hub_download"),
])
def test_look_alikes_stay_quiet(path: str, line: str) -> None:
    out = _assessed(path, line)
    assert not any(r.startswith("hard-codes a secret") for r in out.reasons), out


def test_a_test_files_own_fake_token_and_a_lockfile_stay_quiet() -> None:
    for path, line in (("tests/test_publish.py", f'    token = "{NPM}"'), ("package-lock.json", f'  "integrity": "{NPM}"')):
        out = _assessed(path, line)
        assert not any(r.startswith("hard-codes a secret") for r in out.reasons), out


@pytest.mark.anyio
async def test_a_run_that_adds_tokens_hands_the_leader_none_of_them(tmp_path) -> None:
    # Through the relay in memory: the packet (lines, reasons), get_result's views and the transcript mask every token;
    # the review still names the line.
    repo = make_repo(tmp_path / "project", {"README.md": "# project\n", "scripts/publish.sh": "#!/bin/sh\nnpm publish\n"})
    script = "#!/bin/sh\n" + "".join(f"export {kind.upper().replace('-', '_')}=\"{token}\"\n" for kind, token in TOKENS.items()) + "npm publish\n"
    agy = install_fake_agy(tmp_path / "agy", success_scenario(
        [{"op": "write", "path": "scripts/publish.sh", "content": script},
         {"op": "write", "path": "CONTRIBUTING.md", "content": f"# Releasing\n\n    export NPM_TOKEN={NPM}\n"}],
        response=f"done; the token is {GITLAB}"))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        result = await client.call_tool("antigravity_execute", {"task": "Add the publish script", "workspace": str(repo)})
        packet = payload(result)
        views = [(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": d, "max_chars": 1_000_000}))
                 .content[0].text for d in ("summary", "diff", "errors", "full")]
        resources = [(await client.read_resource(str(link.uri))).contents[0].text for link in result.content[1:]]
    seen = json.dumps(packet) + "".join(views) + "".join(resources)
    leaks = [kind for kind, token in TOKENS.items() if _secret_part(token) in seen]
    assert leaks == [] and GITLAB not in seen, leaks
    review = {row["file"]: row for row in packet["changes"]["review"]}
    assert review["scripts/publish.sh"]["risk"] == "high" and review["CONTRIBUTING.md"]["risk"] == "high", review
    assert review["scripts/publish.sh"]["reason"].startswith("hard-codes a secret: export NPM_TOKEN=\"[REDACTED:npm-token]\""), review
    assert "[REDACTED:npm-token]" in views[1] and len(resources) == 2


def test_the_cheap_look_never_hides_a_vendor_shape() -> None:
    from regex_samples import samples
    from relay.core import redact as module
    for kind, pattern in VENDOR_SHAPES:
        hidden = [line for line in samples(pattern, 200, seed=1) if pattern.search(line) and module._HINT.search(line) is None]
        assert hidden == [], (kind, hidden[:3])


def test_a_source_comment_that_pastes_a_token_is_read() -> None:
    out = _assessed("src/deploy.py", f"# token for the registry: {NPM}")
    assert out.risk == "high" and out.reasons[0].startswith("hard-codes a secret: # token for the registry: [REDACTED:npm-token]"), out


@pytest.mark.parametrize("line", ["TOKEN_" * 5000, "A" * 20000 + "TOKEN" * 2000 + "=x", "API_KEY=" + "1" * 30000 + " x",
                                  "export SECRET=" + "a1" * 20000 + "'", "npm_" * 10000, "glpat-" + "a-" * 20000])
def test_a_crafted_line_is_read_in_linear_time(line: str) -> None:
    import time

    from relay.core.redact import vendor_secret
    from relay.review.secret_lines import ENV_SECRET_RE
    start = time.process_time()
    ENV_SECRET_RE.search(line)
    vendor_secret(line)
    redact(line)
    assert time.process_time() - start < 1.0
