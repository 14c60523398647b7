"""The worker (or the repository it edits) writes lines built to make the review's patterns backtrack.

The party: the worker, and the repository under work (docs/security.md). The review reads every changed line with a
few dozen regular expressions; two of them had runs of ``\\s*`` next to each other, so a line of spaces that did not
match took time growing with the fourth power of its length (a thousand spaces: over a minute a line): a workflow line
the worker wrote, or a line of the person's file the worker removed, held the run's answer for hours. Real parts: the
relay behind the SDK's client in memory, the fake agy as a real subprocess, a real git repository.
"""

from __future__ import annotations

import random
import string

import anyio
import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio

_SPACES = " " * 900


@pytest.mark.parametrize("case", ["a_workflow_line_written", "a_settings_line_removed"])
async def test_lines_built_to_backtrack_never_hold_the_review(tmp_path, case):
    if case == "a_workflow_line_written":  # the CI scanner check (platform_lines._SCANNER_RE) on the added lines
        repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
        edits = [{"op": "write", "path": ".github/workflows/ci.yml", "content": (_SPACES + "!\n") * 5}]
    else:  # the dropped-member check (dropped_options._MEMBER_LINE_RE) on the removed lines
        repo = make_repo(tmp_path / "project", {"src/config.js": (_SPACES + "limit --!\n") * 5})
        edits = [{"op": "write", "path": "src/config.js", "content": "module.exports = {}\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        with anyio.fail_after(60):  # before: minutes a line, the call held for as long as the lines lasted
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    assert packet["changes"]["count"] == 1, packet


def test_a_rewritten_config_of_hundreds_of_binds_costs_the_bind_reader_a_bounded_number_of_comparisons(monkeypatch):
    # The worker rewrites a config of hundreds of listen lines, loopback to every interface, each line's rest changed:
    # the bind reader (edit_turns._bind_widened) compared every new line with every old one (400 x 400: 42 s of CPU).
    # Counted, not timed: the near-equal reading runs at most _MOST_ALIKE times a file; an exact rest is a lookup.
    from relay.review import edit_turns

    calls = []
    real = edit_turns._alike
    monkeypatch.setattr(edit_turns, "_alike", lambda a, b, r: calls.append(1) or real(a, b, r))
    words = random.Random(36)
    name = lambda n: "".join(words.choice(string.ascii_lowercase) for _ in range(n))  # noqa: E731
    added = [f'    {name(30)} = "0.0.0.0:{8000 + i}"  # {name(40)}' for i in range(400)]
    removed = [f'    {name(30)} = "127.0.0.1:{9000 + i}"  # {name(40)}' for i in range(400)]
    edit_turns._bind_widened(added, removed)
    assert len(calls) <= edit_turns._MOST_ALIKE
    # The reading still finds the edit: the same line with its loopback widened, among hundreds of others.
    calls.clear()
    said = edit_turns._bind_widened(added + ['    admin_listen = "0.0.0.0:7000"'], removed + ['    admin_listen = "127.0.0.1:7000"'])
    assert said and "admin_listen" in said


def test_options_renamed_and_cache_keys_are_read_in_time_linear_in_the_lines(monkeypatch):
    # The worker writes hundreds of option and key lines: the limit-renamed reader squeezed every old option's line
    # against every new one's (100 x 20 removed, 40 x 20 added: 26 s), the cache-key reader compared every added line
    # with the removed key line once per user-like name in it. Counted, not timed.
    from relay.review import edit_turns

    squeezes, alikes = [], []
    real_squeezed, real_alike = edit_turns.squeezed, edit_turns._alike
    monkeypatch.setattr(edit_turns, "squeezed", lambda text: squeezes.append(1) or real_squeezed(text))
    monkeypatch.setattr(edit_turns, "_alike", lambda a, b, r=0.6: alikes.append(1) or real_alike(a, b, r))
    removed = [" ".join(f":max_r{i}_{j}" for j in range(20)) for i in range(100)]
    added = [" ".join(f":limit_a{i}_{j}" for j in range(20)) for i in range(40)]
    assert edit_turns._limit_renamed(added, removed) is None
    assert len(squeezes) <= 20 * (len(removed) + len(added))  # once an option, not once a pair (before: 32,000)
    keys = [f"cache_key = [{', '.join(f'user_{i}_{j}' for j in range(30))}]" for i in range(20)]
    other = [f"cache.write(entry_{i}, expires_in: {i})" for i in range(500)]
    assert edit_turns._key_identity_dropped("app/cache.rb", other, keys) is None
    assert len(alikes) <= len(keys) * len(other)  # once a pair of lines, not once a name in it (before: 300,000)
    # Both still read the slip they are for.
    assert "max_depth → depth_limit" in edit_turns._limit_renamed(['  config["depth_limit"] = 10'], ['  config["max_depth"] = 10'])
    said = edit_turns._key_identity_dropped("app/cache.rb", ['cache_key = "perm:#{record.id}"'], ['cache_key = "perm:#{user.id}:#{record.id}"'])
    assert said and "user" in said


def test_a_file_of_nested_verifying_calls_is_read_within_a_bound(monkeypatch):
    # The worker removes 500 lines of nested ``verify(verify(…`` calls: the unverified-signature reader searched for
    # each call's closing parenthesis to the line's end and tried each cut of each call (17 s). Counted, not timed:
    # the cuts it tries, at most two for each of _MOST_VERIFIES calls a file.
    from relay.review import lets_through

    tried = []

    class Counting:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, text):
            tried.append(1)
            return self.pattern.search(text)

    monkeypatch.setattr(lets_through, "_STILL_READS_RE", Counting(lets_through._STILL_READS_RE))
    removed = ["token = " + "verify(payload)." * 20 + "claims" for _ in range(500)]
    added = ["token = " + "verify(body)." * 20 + f"claims_{i}" for i in range(500)]
    assert lets_through._unverified(added, removed) is None
    assert len(tried) <= 2 * lets_through._MOST_VERIFIES  # before: 20,000
    # The slip it is for is still read: the verifying call cut out of the line.
    said = lets_through._unverified(["let session = cookies.get(name);"], ["let session = cookies.signed(&key).get(name);"])
    assert said and "signed" in said


def test_a_policy_line_of_spaces_and_joined_names_are_read_in_linear_time(monkeypatch):
    # The access-policy reader's pattern had two runs of spaces side by side (``^\s*-?\s*``, ``.+?\s*,?\s*$``): every
    # split of a line of spaces was tried (8 ms a line of 1,000; quadratic in the line). And the current-directory
    # reader searched every removed line once for every added line. Lines of spaces, written by the worker, held the
    # review for minutes (bench/bench_review_worst.py, family "spaces": over 20 s a case on 1,000 lines).
    import signal

    from relay.review import edit_direction, slipped_lines

    def over(signum, frame):  # noqa: ANN001
        raise TimeoutError("the pattern backtracks")

    before = signal.signal(signal.SIGALRM, over)
    signal.alarm(20)  # linear: a millisecond; the pattern before: minutes on this line
    try:
        assert edit_direction._POLICY_KEY_RE.match(" " * 60_000 + "resources") is None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert edit_direction._wildcard_policy(['    "Resource": "*",'], ['    "Resource": "arn:aws:s3:::logs/*",'])

    searched = []

    class Counting:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, text):
            searched.append(1)
            return self.pattern.search(text)

    monkeypatch.setattr(slipped_lines, "_JOINED_RE", Counting(slipped_lines._JOINED_RE))
    removed = [f"    cfg_{i} = os.path.join(config_dir, 'app_{i}.toml')" for i in range(200)]
    added = [f"    value_{i} = read('other_{i}.ini')" for i in range(200)]
    slipped_lines.turned_down(added, removed)
    assert len(searched) <= len(removed) + len(added)  # once a line (before: once a pair, 40,000)
    said = slipped_lines.turned_down(["    cfg = open('.tool.toml')"], ["    cfg = open(os.path.join(home, '.tool.toml'))"])
    assert said and "current directory" in said


def test_the_setting_readers_compare_a_bounded_number_of_line_pairs(monkeypatch):
    # The worker writes thousands of lines that pass a reader's screen (a message with {args} in it): each was compared
    # with up to 200 removed lines (40 such lines: 4 s of CPU; 4,000: minutes). Counted, not timed.
    from relay.review import setting_turns

    compared = []
    real = setting_turns._alike
    monkeypatch.setattr(setting_turns, "_alike", lambda a, b, least=0.6: compared.append(1) or real(a, b, least))
    words = random.Random(5)
    name = lambda n: "".join(words.choices(string.ascii_lowercase, k=n))  # noqa: E731
    # Names of 40 letters: a pair's ratio costs a fifth of 150's, and the count is what is checked (1.8 s -> 0.4 s).
    removed = [f"log.info({name(40)})" for _ in range(200)]
    added = [f"log.info(f'call {{args}} {name(40)}')" for _ in range(4000)]
    assert setting_turns._arguments_in_message(added, removed) is None
    assert len(compared) <= setting_turns._MOST_COMPARED + setting_turns._PAIRS  # before: 800,000
    # The slip it is for is still read.
    said = setting_turns._arguments_in_message(['    log.debug(f"retrying {fn.__name__} with {args}")'],
                                                ['    log.debug(f"retrying {fn.__name__}")'])
    assert said and "args" in said
