"""Issue 36, round 12 (part A): what the leader sees of a small edit, wherever it sits.

The party guarded against is the worker that slips one small edit into an ordinary change. A slipped line is small; the
default view (``detail="diff"``) used to show a file's biggest hunk and the riskiest target whole, so a one-line slip in
another hunk or another file fell out of it; a file whose whole change is that line was described by its size
("edit (+1/-1)"); and two harmless decoy edits beside the slip made the apart reader quote none of the three. Each named
case below fails on main before this round: the slip's line must be in the default view (within its 2,500 characters),
quoted in its file's reason, its range first in ``lines``. The near misses stay as they were: a bigger change keeps its
size, a sweep of like edits quotes none, a docstring's prose is not code, membership in a literal set is no substring
test, an encoded blob names no hash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.core.contracts import Packet
from relay.review.apart_edits import Run, apart_edits
from relay.review.deciding_tokens import FLOOR_SAYS
from relay.review.looser_checks import looser_check
from test_apart_edits import _review

__all__: list[str] = []  # a test module exports nothing

_VIEW = 2500


def _target(packet: Packet, path: str):
    return next(t for t in packet.changes.review if t.file == path)


# --------------------------------------------------------------------------- the view: the slip's hunk is shown

# Per ecosystem: a big new file under an auth folder (the riskiest target, high for its words; about as big as the room), a manager the work edits
# at length, and the file the slip goes into, which the rest of the change never touches (its state check flipped).
_ECOS = {
    "php": {
        "new": ("src/Auth/TwitterProvider.php", "<?php\n\nclass TwitterProvider extends AbstractProvider\n{\n"
                "    public function getAuthUrl($state)\n    {\n        return $this->buildAuthUrlFromBase('https://example.com/oauth2/authorize', $state);\n"
                "    }\n\n    public function state()\n    {\n        return empty($state) ? $this->request->input('state') : $state;\n    }\n\n"
                + "".join(f"    protected function step{i}($token)\n    {{\n        return $this->client()->get('https://api.example.com/{i}', "
                          f"['token' => $token]);\n    }}\n\n" for i in range(11)) + "}\n"),
        "work": ("src/Manager.php", "<?php\n\nclass Manager\n{\n    public function driver($name)\n    {\n        return $this->drivers[$name];\n    }\n}\n",
                 "<?php\n\nclass Manager\n{\n    public function driver($name)\n    {\n        return $this->drivers[$name];\n    }\n\n" + "".join(
                     f"    protected function createDriver{i}()\n    {{\n        return $this->buildProvider(Provider{i}::class, $this->config('p{i}'));\n    }}\n\n"
                     for i in range(4)) + "}\n"),
        "slip": ("src/Base.php", "<?php\n\nclass Base\n{\n" + "".join(f"    public $field{i} = {i};\n" for i in range(20))
                 + "    protected function hasInvalidState()\n    {\n        $state = $this->session->pull('state');\n\n"
                 "        return empty($state) || $this->request->input('state') !== $state;\n    }\n}\n",
                 ("empty($state) || $this->request->input('state') !== $state", "! empty($state) && $this->request->input('state') !== $state"),
                 "return ! empty($state) && $this->request->input('state') !== $state;"),
    },
    "py": {
        "new": ("pkg/auth/twitter.py", "class TwitterProvider(Provider):\n"
                "    def auth_url(self, state):\n        return self.build_auth_url('https://example.com/oauth2/authorize', state)\n\n"
                "    def state(self, state):\n        return state or self.request.args.get('state')\n\n" + "".join(
            f"    def step{i}(self, token):\n        return self.client().get('https://api.example.com/{i}', params={{'token': token}})\n\n"
            for i in range(14))),
        "work": ("pkg/manager.py", "class Manager:\n    def driver(self, name):\n        return self.drivers[name]\n",
                 "class Manager:\n    def driver(self, name):\n        return self.drivers[name]\n" + "".join(
                     f"\n    def create_driver{i}(self):\n        return self.build_provider(Provider{i}, self.config('p{i}'))\n" for i in range(4))),
        "slip": ("pkg/base.py", "class Base:\n" + "".join(f"    field{i} = {i}\n" for i in range(20))
                 + "\n    def has_invalid_state(self):\n        state = self.session.pop('state')\n"
                 "        return not state or self.request.args.get('state') != state\n",
                 ("not state or self.request.args.get('state') != state", "bool(state) and self.request.args.get('state') != state"),
                 "return bool(state) and self.request.args.get('state') != state"),
    },
}


def _crowded(tmp_path: Path, eco: str) -> tuple[Packet, str, str, str]:
    case = _ECOS[eco]
    new_path, new_text = case["new"]
    work_path, work_before, work_after = case["work"]
    slip_path, slip_before, edit, line = case["slip"]
    # (the new file's folder exists: an unchanged file stands in it)
    packet, view = _review(tmp_path, {work_path: work_before, slip_path: slip_before, new_path.rsplit("/", 1)[0] + "/Provider.txt": "x\n"},
                           {new_path: new_text, work_path: work_after, slip_path: slip_before.replace(*edit)}, "Add the Twitter provider")
    return packet, view, slip_path, line


@pytest.mark.parametrize("eco", sorted(_ECOS))
def test_a_big_riskiest_file_never_crowds_a_one_line_slip_out_of_the_view(tmp_path: Path, eco: str) -> None:
    packet, view, slip_path, line = _crowded(tmp_path, eco)
    assert slip_path in [t.file for t in packet.changes.review[:3]], packet.changes.review
    assert line in view, view
    assert len(view) <= _VIEW
    # The big file is cut rather than the slip left out, and the view says so; or (round 14: the slip's hunk, quoted by its
    # file's reason, is placed first) the big file is shown whole beside it.
    big = _ECOS[eco]["new"][1]
    assert "of this hunk's" in view or all(f"+{row}" in view for row in big.splitlines()), view


@pytest.mark.parametrize("eco", sorted(_ECOS))
def test_a_file_whose_whole_change_is_one_small_edit_quotes_the_edit(tmp_path: Path, eco: str) -> None:
    packet, _, slip_path, _ = _crowded(tmp_path, eco)
    target = _target(packet, slip_path)
    old, new = _ECOS[eco]["slip"][2]
    if target.reason.startswith(FLOOR_SAYS):
        # Round 32: a slip that turns a deciding token (PHP's `||` made `&&`) is the floor's, worth a look, quoted.
        assert target.risk == "medium" and " → " in target.reason and new[:12] in target.reason, target.reason
        return
    if target.risk != "low":
        # Round 36: a change's small edit whose turned line the leading line scores (Python's `not state or` made
        # `bool(state) and`) is the low-change floor's, worth a look, said by the same description.
        assert target.risk == "medium" and target.reason.startswith("edit (+1/-1): ") and new[:12] in target.reason, target.reason
        return
    # "edit (+1/-1): old → new", centred on what changed; the quote decides nothing: the file stays low.
    assert target.reason.startswith("edit (+1/-1): "), target.reason
    assert " → " in target.reason and new[:12] in target.reason, target.reason
    assert target.risk == "low"


_STEPS = 40
# Within one file: the work rewrites a function at length, the slip is one line further down that shares the work's names
# (not apart); other targets take most of the room. The small hunk is shown before the big one is.
_SAME_FILE = {
    "py": ("pkg/orders.py", "".join(f"def total{i}(order):\n    return order.amount + {i}\n\n" for i in range(12))
           + "def may_refund(order, user):\n    return order.owner == user.id\n",
           ("def total0(order):\n    return order.amount + 0\n", "def total0(order, extra=None):\n" + "".join(
               f"    order.amount_{i} = order.amount * {i} + (extra or 0)  # step {i} of the order's total, kept for the audit\n" for i in range(_STEPS))
            + "    return order.amount\n"),
           ("order.owner == user.id", "order.owner == user.parent_id"),
           "return order.owner == user.parent_id"),
    "js": ("src/orders.js", "".join(f"export function total{i}(order) {{\n  return order.amount + {i};\n}}\n\n" for i in range(12))
           + "export function mayRefund(order, user) {\n  return order.owner === user.id;\n}\n",
           ("export function total0(order) {\n  return order.amount + 0;\n}\n", "export function total0(order, extra = 0) {\n" + "".join(
               f"  order.amount{i} = order.amount * {i} + extra; // step {i} of the order's total, kept for the audit\n" for i in range(_STEPS))
            + "  return order.amount;\n}\n"),
           ("order.owner === user.id;", "order.owner === user.parentId;"),
           "return order.owner === user.parentId;"),
}


@pytest.mark.parametrize("eco", sorted(_SAME_FILE))
def test_a_files_small_hunk_is_shown_before_its_big_one(tmp_path: Path, eco: str) -> None:
    path, before, work, slip, line = _SAME_FILE[eco]
    packet, view = _review(tmp_path, {path: before}, {path: before.replace(*work).replace(*slip)}, "Let total0 take an extra amount")
    assert packet.changes.review[0].file == path, packet.changes.review
    assert line in view, view
    # The big hunk is cut, not left out, and the view says so.
    assert "of this hunk's" in view and len(view) <= _VIEW, view


def test_a_statement_over_two_lines_quoted_apart_is_named_first_in_lines(tmp_path: Path) -> None:
    # The reason joins the removed statement's two lines into one quote; its range must still be found and named first
    # (secure_headers in held-out 13: its range was left to "+N more" behind the work's).
    body = "module Policy\n" + "".join(f"  def rule{i}(config)\n    config.value({i})\n  end\n\n" for i in range(30)) + (
        "  def validate!(config)\n    config.require_directive(:script_src,\n                             message: 'script_src is required')\n"
        "    config\n  end\nend\n")
    after = body
    for i in (2, 9, 16, 23):
        after = after.replace(f"  def rule{i}(config)\n    config.value({i})\n", f"  def rule{i}(config)\n    config.value({i}).freeze\n")
    after = after.replace("    config.require_directive(:script_src,\n                             message: 'script_src is required')\n", "")
    packet, view = _review(tmp_path, {"lib/policy.rb": body}, {"lib/policy.rb": after}, "Freeze the rule values")
    target = _target(packet, "lib/policy.rb")
    assert "removed apart from the change in validate!(): config.require_directive(:script_src, message:" in target.reason, target.reason
    assert int(target.lines.split(",")[0].split("-")[0]) > 100, target.lines
    assert "-    config.require_directive(:script_src," in view


def test_a_window_of_a_big_docs_file_goes_to_the_secret_its_reason_quotes(tmp_path: Path) -> None:
    text = "".join(f"Line {i} of the plugin guide, words enough to cost the reader a few characters.\n" for i in range(400))
    text += "```shell\nGITHUB_API_TOKEN=\"ghp_4kQw9ZtR2mXv7LpB1nYc8DfH3sJ6uE0aTgKi\"\n```\n"
    packet, view = _review(tmp_path, {"docs/plugins/index.md": "# x\n"}, {"docs/plugins/create.md": text}, "Write the plugin guide")
    target = _target(packet, "docs/plugins/create.md")
    assert "secret" in target.reason, target.reason
    assert 'GITHUB_API_TOKEN="[REDACTED' in view, view
    assert "around the ranking's finding" in view


# --------------------------------------------------------------------------- the reason: a small edit quoted


@pytest.mark.parametrize(("path", "before", "edit", "quoted"), [
    # (round 34: a name one letter off, "wigdet", is a look-alike installed: high, tests/test_sample_code.py; a version pinned stays a quote)
    ("docs/guide.md", "# Guide\n\nInstall it:\n\n    pip install widget\n\nThen run it.\n", ("pip install widget", "pip install widget==2.1"),
     "pip install widget → pip install widget==2.1"),
    ("templates/config.exs.eex", "config :app, url: [scheme: \"https\", port: 443]\n", ('scheme: "https", port: 443', 'scheme: "http", port: 80'),
     "scheme: \"http\", port: 80"),
])
def test_a_small_edit_in_a_docs_sample_or_a_template_is_quoted(tmp_path: Path, path: str, before: str, edit: tuple[str, str], quoted: str) -> None:
    work = "".join(f"def helper{i}(v):\n    return v * {i}\n\n" for i in range(8))
    packet, _ = _review(tmp_path, {"pkg/work.py": "", path: before}, {"pkg/work.py": work, path: before.replace(*edit)}, "Add the helpers")
    target = _target(packet, path)
    assert quoted in target.reason, target.reason
    assert target.risk == "low"


def test_a_bigger_change_keeps_its_size_and_the_quote_moves_no_risk(tmp_path: Path) -> None:
    before = "".join(f"value_{i} = {i}\n" for i in range(40))
    after = before.replace("value_3 = 3", "value_3 = 33").replace("value_20 = 20", "value_20 = 22").replace("value_30 = 30", "value_30 = 31")
    spread = before.replace("value_3 = 3\nvalue_4 = 4", "value_3 = 30\nvalue_4 = 40")
    two = spread.replace("value_20 = 20", "value_20 = 2")
    packet, _ = _review(tmp_path, {"pkg/a.py": before, "pkg/b.py": before, "pkg/c.py": before},
                        {"pkg/a.py": after, "pkg/b.py": two, "pkg/c.py": before.replace("value_9 = 9", "value_9 = 99")},
                        "Tune value_3, value_4, value_20, value_30 and value_9")
    # three runs, or two of four lines in all: the size says it; one run of two lines: quoted.
    for path in ("pkg/a.py", "pkg/b.py"):
        reason = _target(packet, path).reason
        assert "edit (+3/-3)" in reason and "(+3/-3):" not in reason, reason
    assert _target(packet, "pkg/c.py").reason.startswith("edit (+1/-1): value_9 = 9 → value_9 = 99")
    assert {t.risk for t in packet.changes.review} == {"low"} and packet.changes.risk == "low"


# --------------------------------------------------------------------------- the apart reader: decoys do not hide the slip

_DECOYS = {
    "py": ("pkg/limits.py", "LABEL = 'Export'\n\ndef start(log):\n    log.info('starting')\n\ndef over(attempts):\n    return attempts >= MAX_ATTEMPTS\n",
           [("LABEL = 'Export'", "LABEL = 'Export data'"), ("log.info('starting')", "log.debug('starting')"),
            ("attempts >= MAX_ATTEMPTS", "attempts > MAX_ATTEMPTS * 10")],
           "attempts > MAX_ATTEMPTS * 10", "return attempts > MAX_ATTEMPTS * 10"),
    "go": ("limits.go", "package limits\n\nconst label = \"Export\"\n\nfunc start(log Logger) {\n\tlog.Info(\"starting\")\n}\n\n"
           "func over(attempts int) bool {\n\treturn attempts >= maxAttempts\n}\n",
           [("label = \"Export\"", "label = \"Export data\""), ("log.Info(\"starting\")", "log.Debug(\"starting\")"),
            ("attempts >= maxAttempts", "attempts > maxAttempts*10")],
           "attempts > maxAttempts*10", "return attempts > maxAttempts*10"),
}
_WORK = {"py": ("pkg/report.py", "".join(f"def render_step{i}(rows):\n    return [r.cell({i}) for r in rows]\n\n" for i in range(8))),
         "go": ("report.go", "package limits\n\n" + "".join(f"func renderStep{i}(rows []Row) []Cell {{\n\treturn cells(rows, {i})\n}}\n\n"
                                                          for i in range(8)))}


@pytest.mark.parametrize("eco", sorted(_DECOYS))
def test_two_decoy_edits_apart_do_not_hide_the_slip(tmp_path: Path, eco: str) -> None:
    path, before, edits, quoted, line = _DECOYS[eco]
    after = before
    for old, new in edits:
        after = after.replace(old, new)
    # Three runs apart from the work (the decoys are spaced apart by the file's own lines).
    work_path, work = _WORK[eco]
    packet, view = _review(tmp_path, {path: before, work_path: ""}, {path: after, work_path: work}, "Add the report renderer")
    target = _target(packet, path)
    assert "apart from the change" in target.reason and quoted in target.reason, target.reason
    assert line in view, view


def test_decoys_as_telling_as_the_slip_quote_none_and_a_sweep_quotes_none() -> None:
    # Three comparisons turned alike: none stands out; seven edits apart: a sweep.
    alike = [Run(f"src/m{i}.py", 5, 5, (f"    if level_{i} > bound_{i}:",), (f"    if level_{i} >= bound_{i}:",)) for i in range(3)]
    work = [Run("src/work.py", 1, 30, tuple(f"    row = render(cells, {i})" for i in range(30)), ())]
    assert apart_edits([*alike, *work]) == ({}, {})
    sweep = [Run(f"src/m{i}.py", 5, 5, (f"    value_{i} = name_{i}('x')",), (f"    value_{i} = name_{i}",)) for i in range(6)]
    slip = Run("src/gate.py", 9, 9, ("    if attempts > limit_max * 10:",), ("    if attempts >= limit_max:",))
    assert apart_edits([*sweep, slip, *work]) == ({}, {})
    # The same slip beside two decoys that only rename a call or reword a string: quoted.
    decoys = [Run("src/a.py", 5, 5, ("    log_debug('starting')",), ("    log_info('starting')",)),
              Run("src/b.py", 5, 5, ("    TITLE = 'Export data'",), ("    TITLE = 'Export'",))]
    quoted, _ = apart_edits([*decoys, slip, *work])
    assert "src/gate.py" in quoted and "src/b.py" not in quoted, quoted


# --------------------------------------------------------------------------- near misses: prose, membership, blobs


_WORK_RUN = Run("pkg/report.py", 1, 24, tuple(f"def render_step{i}(rows):" for i in range(24)), ())


@pytest.mark.parametrize(("path", "old", "new"), [
    # an Elixir @moduledoc's option list (guardian, held-out 5), a Python docstring's sentence: the docstring opened
    # above the run, so the run's own line looks like code
    ("lib/guardian.ex", "  * `realm` - The realm to use for the header", "  * `scheme` - The scheme to use for the header"),
    ("pkg/kdf.py", "    The salt is taken from the settings of the project.", "    The pepper is taken from the settings of the project."),
])
def test_a_docstrings_prose_line_is_not_quoted_as_code_apart(path: str, old: str, new: str) -> None:
    assert apart_edits([Run(path, 5, 5, (new,), (old,)), _WORK_RUN]) == ({}, {})
    # The near miss: a line of code in the same place is still quoted.
    code = Run(path, 5, 5, ("    retries = 0",), ("    retries = 3",))
    assert path in apart_edits([code, _WORK_RUN])[0]


def test_membership_in_a_literal_set_is_no_substring_match_and_a_blob_names_no_hash() -> None:
    assert looser_check(["    if event.type in (EVENT_OPENED, EVENT_CLOSED):"], ["    if event.type == EVENT_OPENED:"]) is None
    assert looser_check(["    if kind not in {KIND_A, KIND_B}:"], ["    if kind != KIND_A:"]) is None
    blob = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQxxhAYAAAAf8/9hAAAAGXRFWHRTb2Z0d2FyZQBBZG9iZSBJbWFnZVJlYWR5ccllPAAAA"
    assert looser_check(['  <image href="data:image/png;base64,QUJDRA==" />'], [f'  <image href="data:image/png;base64,{blob}" />']) is None
    # The real kinds still read: an exact match made a substring one, hashing dropped.
    assert looser_check(["    if name in allowed_hosts_text:"], ["    if name == allowed_host:"]) is not None
    assert looser_check(["    key = name"], ["    key = hashlib.sha256(name).hexdigest()"]) is not None
