"""Redaction of credential shapes in what the leader sees: the table, its near-misses, and the
whole path (the fake agy prints secrets; the packet and get_result mask them; the record keeps
them under 0600)."""

from __future__ import annotations

import json
import stat

import pytest
from mcp import Client

from conftest import payload
from fake_agy_harness import install_fake_agy, make_report, success_scenario
from relay.core.redact import redact, redact_obj
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings

# Built from parts so this file itself does not look like it holds live keys.
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
GHP = "ghp_" + "a" * 36
GH_PAT = "github_pat_" + "11ABCDEFG0" + "x" * 40
OPENAI = "sk-proj-" + "Ab3" * 10
ANTHROPIC = "sk-ant-api03-" + "Zz9_" * 8
GOOGLE = "AIza" + "SyA-" + "b" * 31
SLACK = "xoxb-" + "123456789012-" + "abcdefABCDEF"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----"
BEARER = "Authorization: Bearer " + "eyJhbGciOiJIUzI1NiJ9.e30.abcdefghij"


@pytest.mark.parametrize(
    "text,kind,kept",
    [
        (f"key {AWS} here", "aws-access-key", "key  here"),
        (f"aws_secret_access_key = {AWS_SECRET}", "aws-secret-key", "aws_secret_access_key = "),
        (f"token={GHP}", "github-token", "token="),
        (f"pat {GH_PAT}.", "github-token", "pat ."),
        (f"OPENAI_API_KEY={OPENAI}", "openai-key", "OPENAI_API_KEY="),
        (f"ANTHROPIC_API_KEY={ANTHROPIC}", "anthropic-key", "ANTHROPIC_API_KEY="),
        (f"maps key {GOOGLE}", "google-api-key", "maps key "),
        (f"slack {SLACK}", "slack-token", "slack "),
        (f"before\n{PEM}\nafter", "private-key", "before\n\nafter"),
        (BEARER, "bearer-token", "Authorization: Bearer "),
        ("git clone https://deploy:s3cr3tpass@github.com/o/r", "url-password", "git clone https://deploy:@github.com/o/r"),
        ("GET /cb?code=1&access_token=abcdef123456&x=1", "url-token", "GET /cb?code=1&access_token=&x=1"),
    ],
)
def test_redact_masks_each_credential_shape(text, kind, kept):
    out = redact(text)
    assert f"[REDACTED:{kind}]" in out
    assert out.replace(f"[REDACTED:{kind}]", "") == kept


@pytest.mark.parametrize(
    "text",
    [
        "pip install scikit-learn; import sk-learn",  # sk- but short
        "task-runner disk-usage-report-for-the-whole-cluster",  # 'sk-' inside a word
        "AKIA is a prefix; AKIAIOSFODNN7 is too short",
        "akiaiosfodnn7example1 lower case",
        "ghp_tooShort and gho_", 
        "AIza short",
        "xoxb- alone",
        "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        "the bearer of bad news; Bearer token",
        "https://github.com/owner/repo and ssh://git@host/x",
        "src/auth/tokens.py: def token(): ...  ?page=2&sort=asc",
        "r20261129T213900-1a2b3c4d 390dbd9d-ac3e-4fc9-9383-8f11318029e0",
        "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ],
)
def test_redact_leaves_near_misses_alone(text):
    assert redact(text) == text


def test_redact_obj_masks_strings_at_any_depth_and_keeps_keys():
    got = redact_obj({"flags": [f"x {GHP}"], "n": 3, "nested": {AWS: AWS}})
    assert got == {"flags": ["x [REDACTED:github-token]"], "n": 3, "nested": {AWS: "[REDACTED:aws-access-key]"}}


@pytest.mark.anyio
async def test_packet_and_get_result_mask_secrets_while_the_record_keeps_them(tmp_path, repo):
    summary = f"Set the deploy key {GHP} and {AWS} in config."
    report = make_report(summary=summary, files_changed=["src/new.py"], tests_passed=0, tests_run=False,
                         open_questions=[f"Is {OPENAI} the right key?"])
    agy = install_fake_agy(tmp_path / "bin", success_scenario(
        [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}], report=report,
        response=f"done; used {ANTHROPIC}"))
    data = tmp_path / "data"
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(data), "AGY_BIN": str(agy)}))
    async with Client(server) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        views = [payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": d,
                                                                          "max_chars": 1_000_000}))
                 for d in ("summary", "errors", "full")]
    assert packet["status"] == "SUCCESS", packet
    seen = json.dumps([packet, *views])
    for secret in (GHP, AWS, OPENAI, ANTHROPIC):
        assert secret not in seen
    assert "[REDACTED:github-token]" in packet["summary"] and "[REDACTED:aws-access-key]" in packet["summary"]
    assert "[REDACTED:anthropic-key]" in json.dumps(views[2])
    record = data / "runs" / f"{packet['run_id']}.json"
    raw = record.read_text(encoding="utf-8")
    assert GHP in raw and ANTHROPIC in raw  # the record keeps the raw text...
    assert stat.S_IMODE(record.stat().st_mode) == 0o600  # ...private to the user
    assert stat.S_IMODE((data / "runs").stat().st_mode) == 0o700


def test_a_lone_private_key_label_masks_nothing_after_it_and_a_real_key_is_still_masked_whole() -> None:
    # The party guarded against: a worker that writes a PEM label in a comment above its code. The mask had run from the
    # label to the end of the text, so the leader's view of that hunk showed "[REDACTED:private-key]" for the code.
    hidden = "# -----BEGIN PRIVATE KEY-----\nos.system(cmd)\nprint('hi')"
    assert redact(hidden) == hidden
    assert redact("+-----BEGIN PRIVATE KEY-----\n+MIIEvQIBADAN\n") == "+[REDACTED:private-key]"  # a key cut off by its hunk
    one_line = '{"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"}'
    assert redact(one_line) == '{"key": "[REDACTED:private-key]\\n"}'
    encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABCDEF\n\nMIIE+/=\n-----END ENCRYPTED PRIVATE KEY-----"
    assert redact(encrypted) == "[REDACTED:private-key]"
    # a README's label shown to name the format, then prose, then a sample's key: the prose stays, the key goes
    page = "```text\n-----BEGIN PRIVATE KEY-----\n```\nPKCS#8 support is gated (feature).\nlet pem = r#\"-----BEGIN PRIVATE KEY-----\nMIGE\n-----END PRIVATE KEY-----\"#;"
    assert redact(page) == "```text\n-----BEGIN PRIVATE KEY-----\n```\nPKCS#8 support is gated (feature).\nlet pem = r#\"[REDACTED:private-key]\"#;"
