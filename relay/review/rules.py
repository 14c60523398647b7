"""The ranking's rules, one row each: where it applies, what it decides, what it outranks, an example.

A row is the whole rule (``docs/ranking.md`` is generated from the table):
- ``scope``: the files it applies to, as data (file kinds, kinds of change, facts of ``relay.review.facts.FACTS`` that
  must or must not hold), so "source, not deleted, not mechanical" is written once per row and read by the ranking page;
- ``check``: what it looks for inside that scope (``relay.review.checks``);
- ``risk`` and ``reason``: what it decides when it fires (``None``: a note, no risk); ``{detail}``: what the check found;
- ``outranks``: the rules it silences on the same file when it fires (their reason would say the same thing less precisely);
- ``leads``: a file it fires on goes first among the files of its risk in the review order;
- ``example``: a change it fires on (with the reason it gives) and a near miss it must not fire on (``more``: further such
  cases); ``tests/test_rules.py`` runs each row's examples, and proves each ``outranks`` entry on one of them.

Precedence lives here and only here: a file's risk is the highest of its rules that fired and were not outranked; its
reasons are theirs, notes first, then highest risk first, then in table order. ``relay.review.risk`` applies the table.
"""

from __future__ import annotations

from relay.review import change_checks, checks, sample_code, test_checks  # sample_code: round 34's row cases
from relay.review.apart_edits import edit_apart, looser_run, note_apart
from relay.review.let_through import let_through_row as _let_through
from relay.review.state_turns import named_turn as _named_turn, state_turn_row as _state_turn
from relay.review.turn_consequences import turn_consequence_row as _turn_consequence
from relay.review.any_language import ANY_HIGH_EXAMPLE, ANY_LOOK_EXAMPLE, any_high_check, any_look_check
from relay.review.turned_checks import TURNED_CHECK_EXAMPLE, turned_check_check
from relay.review.refusal_lists import REFUSAL_EXAMPLE, refusal_row  # round 101: an entry taken off a list whose name refuses
from relay.review.turned_lines import TURNED_LINE_EXAMPLE, turned_line_check
from relay.review.deciding_tokens import DECIDING_EXAMPLE, DECIDING_MORE, deciding_check
from relay.review.weakened_values import WEAKENED_EXAMPLE, weakened_check
from relay.review.package_values import KIND_EXAMPLES, PACKAGE_EXAMPLE, package_check
from relay.review.leading_lines import LEADING_EXAMPLE, leading_line_check
from relay.review.low_change_floor import FLOOR_APART_EXAMPLE, FLOOR_EXAMPLE, low_change_apart, low_change_quote
from relay.review.new_logic import NEW_LOGIC_EXAMPLE, new_logic_row
from relay.review.command_lines import COMMAND_EXAMPLE, COMMAND_MORE, command_line_check
from relay.review.fetched_code import FETCHED_EXAMPLE, runs_fetched_code
from relay.review.hidden_chars import HIDDEN_EXAMPLE, hidden_characters
from relay.review.runs_on_open import runs_on_open
from relay.review.test_imports import TEST_IMPORT_EXAMPLE, imports_test_code
from relay.review.unread_lines import GENERATED_EXAMPLE, UNREAD_EXAMPLE, generated_unread, unread_line
from relay.review.edit_places import weakened_classic, weakened_more
from relay.review.facts import FACTS, RiskContext
from relay.review import quiet_examples as quiet_turns  # round 31: the weakens rows' further cases
from relay.review.rule_row import Example, Rule, Scope, fc as _fc
from relay.review.words import NO_SIZE_KINDS

__all__ = ["Example", "RULES", "RULE_BY_NAME", "Rule", "Scope"]


# The scopes most rows share. Words in lines whose meaning did not change (a typing pass, a rename) tell nothing new.
_READ_SOURCE = Scope(kinds=("source",), not_changes=("deleted",), unless=("mechanical", "reformatted", "same_meaning"))
_FIX_SOURCE = Scope(kinds=("source",), not_changes=("deleted",), needs=("content_changed",), unless=("mechanical", "only_version"))
# Code wherever it lives: source, examples, docs (not a sentence of prose), CI, build files, manifests; not tests' own code (a
# test disables verification to test it: relay.review.fetched_code reads one class there), generated output, lockfiles or
# release notes (they tell of code). A script or CI helper kept among the tests runs as any script does.
_RISKY_LINES = Scope(not_kinds=("lockfile",), not_changes=("deleted",), unless=("test_body", "generated_output", "mechanical", "release_notes"))
_ANY_LINES = Scope(not_kinds=("lockfile", "docs", "test", "ci"), not_changes=("deleted",), unless=("test_body", "generated_output", "mechanical", "release_notes"))
_NAMED_SOURCE = Scope(kinds=("source",), not_changes=("deleted",), unless=("mechanical", "only_version"))
_CODE40 = [f"value_{i} = compute({i})" for i in range(40)]  # forty lines of plain code: a big change with nothing in it
_UNTYPED, _TYPED = [f"def step{i}(value):" for i in range(45)], [f"def step{i}(value: int) -> int:" for i in range(45)]  # a typing pass: too many lines to pair
_QUIET_FIX = _fc("lib/rle.c", additions=2, deletions=1, removed_lines=["  n = hdr[1];"], added_lines=["  n = hdr[1];", "  n &= 0x7f;"])
_VERSION = {"additions": 1, "deletions": 1, "removed_lines": ['__version__ = "3.1.0"'], "added_lines": ['__version__ = "3.1.1"']}

_SPENT = ("\t\treturn limit, 0, reset, false, nil", "\t\treturn limit, 0, reset, true, nil")  # a limiter's take allowed when spent
_APART = "edit apart from the change: the edit quoted"  # the apart quote a judged edit says again with what it does
_BY_TIME = "changed during the run by its timestamp (not diffed: the look failed)"

RULES: tuple[Rule, ...] = (
    # ----- planted in the repository's git dir, in no tree: what git runs when you next use it (observe/git_dir.py)
    # (a look that failed lists .git by its timestamp too: the plant's sentence is the precise one)
    Rule("git_dir_plant", "high", "{detail}", change_checks.git_dir_plant, leads=True, outranks=("not_observed", "seen_beyond_git"), example=Example(
        _fc(".git", kind="modified"), "replaces .git (folder) with a file saying gitdir: /tmp/g", _fc(".githooks/x"),
        RiskContext(git_dir={".git": "replaces .git (folder) with a file saying gitdir: /tmp/g"},
                    unobserved={".git": _BY_TIME}, outside={".git": _BY_TIME})), more=(Example(
        # ... or where code runs next in a folder git ignores, which no tree holds (relay.observe.runs_next)
        _fc(".venv/bin/activate"), "written where code runs next, in a folder git ignores: an activate script",
        _fc(".venv/lib/x.py"), RiskContext(runs_next={".venv/bin/activate": "written where code runs next, in a folder "
                                                                            "git ignores: an activate script"})),)),
    # ----- the look after the run failed: every file is on the worker's word or its timestamps (relay.observe.blind)
    Rule("not_observed", "high", "the relay could not observe the change: {detail}", change_checks.not_observed,
         outranks=("seen_beyond_git",), example=Example(
        _fc("src/app.py"), "the relay could not observe the change: the worker's own report", _fc("src/other.py"),
        RiskContext(unobserved={"src/app.py": "the worker's own report"})), more=(Example(
        _fc("run.sh"), "the relay could not observe the change: changed during the run by its timestamp (not diffed: "
        "the look failed)", _fc("src/other.py"),
        RiskContext(unobserved={"run.sh": "changed during the run by its timestamp (not diffed: the look failed)"},
                    outside={"run.sh": "changed during the run by its timestamp (not diffed: the look failed)"})),)),
    # ----- seen beyond git's view (relay.observe.changes)
    Rule("escapes_workspace", "high", "{detail}", change_checks.escapes_workspace, outranks=("seen_beyond_git",), example=Example(
        _fc("ext/secret.txt"), "written through the symlink ext → /srv/data, outside the workspace", _fc("ext/other.txt"),
        RiskContext(escapes={"ext/secret.txt": "ext → /srv/data"},
                    outside={"ext/secret.txt": "written through the symlink ext → /srv/data, outside the workspace"}))),
    Rule("seen_beyond_git", None, "{detail}", change_checks.seen_beyond_git, example=Example(
        _fc("build/out.txt"), "ignored folder build/: changed during the run by its timestamp (not diffed)", _fc("build/old.txt"),
        RiskContext(outside={"build/out.txt": "ignored folder build/: changed during the run by its timestamp (not diffed)"}))),
    # ----- the one risky line a change carries, wherever the file lives and however large the rest of the change is:
    # named in the reason, first among the files of its risk (relay.review.risky_lines, relay.review.guard_reading)
    Rule("unsafe_value", "high", "{detail}", checks.unsafe_value, scope=_RISKY_LINES, leads=True, outranks=("security_tokens", "any_turn"),
         example=Example(
             _fc("examples/client.py", additions=1, deletions=1, removed_lines=["    r = session.get(url, timeout=5)"],
                 added_lines=["    r = session.get(url, timeout=5, verify=False)"]),
             "turns TLS verification off: r = session.get(url, timeout=5, verify=False)",
             _fc("src/client.py", additions=1, deletions=1, removed_lines=["    r = session.get(url, verify=False)"],
                 added_lines=["    r = session.get(url, verify=True)"])),
         more=(Example(_fc("app/templates.py", additions=1, deletions=1,
                           removed_lines=["env = Environment(loader=loader, autoescape=select_autoescape(['html']))"],
                           added_lines=["env = Environment(loader=loader, autoescape=False)"]),
                       "turns autoescaping off: env = Environment(loader=loader, autoescape=False)",
                       _fc("docs/security.md", additions=1, added_lines=["Never pass `autoescape=False` to the environment in production code."])), Example(*sample_code.SALT_EXAMPLE)) + tuple(Example(*e) for e in KIND_EXAMPLES["unsafe_value"])),
    Rule("dangerous_call", "high", "{detail}", checks.dangerous_call, scope=_RISKY_LINES, leads=True, outranks=("security_tokens",), example=Example(
             _fc("src/plugins.py", additions=2, added_lines=["def load(blob):", "    return pickle.loads(blob)"]),
             "deserializes untrusted data: return pickle.loads(blob)",
             _fc("tests/test_plugins.py", additions=1, added_lines=["    assert pickle.loads(pickle.dumps(x)) == x"])),
         more=(Example(_fc(".github/workflows/docs.yml", additions=1, added_lines=["      - run: curl -fsSL https://get.example.sh | sh"]),
                       "pipes a download into a shell: - run: curl -fsSL https://get.example.sh | sh",
                       _fc(".github/workflows/docs.yml", additions=1, added_lines=["      - run: curl -fsSL -o setup.sh https://get.example.sh"])),) + tuple(Example(*e) for e in KIND_EXAMPLES["dangerous_call"])),
    # A CI step's, build file's or script's command that leaves tests out, takes packages from another index or lets a
    # pipeline's failure through (relay.review.command_lines, round 35): worth a look, the command quoted.
    Rule("command_line", "medium", "{detail}", command_line_check, scope=_RISKY_LINES, leads=True,
         example=Example(*COMMAND_EXAMPLE), more=tuple(Example(*e) for e in COMMAND_MORE)),
    # The line a worker turned inside a file of many changed lines, paired with the line it replaced, read for its
    # direction over the whole change (relay.review.turned_lines, round 29): quoted ahead of words, paths and sizes.
    Rule("turned_line", "high", "{detail}", turned_line_check, scope=_RISKY_LINES, leads=True, outranks=("security_tokens",), example=Example(*TURNED_LINE_EXAMPLE)),
    Rule("turned_check", "medium", "{detail}", turned_check_check, scope=_RISKY_LINES, leads=True, example=Example(*TURNED_CHECK_EXAMPLE)),
    # The same pairing read by tokens in any language, any file kind but prose and tests (relay.review.any_language, round 30).
    Rule("any_turn", "high", "{detail}", any_high_check, scope=_ANY_LINES, leads=True, example=Example(*ANY_HIGH_EXAMPLE)),
    Rule("any_turn_look", "medium", "{detail}", any_look_check, scope=_ANY_LINES, leads=True, example=Example(*ANY_LOOK_EXAMPLE)),
    Rule("removes_guard", "high", "{detail}", checks.removes_guard, scope=Scope(kinds=("source", "example", "docs", "generated"),
         not_changes=("deleted",), unless=("generated_output", "mechanical", "release_notes")), leads=True, outranks=("security_tokens", "input_check", "length_guard"), example=Example(
             _fc("app/views.py", deletions=2, removed_lines=["    if not request.user.has_perm('reports.view'):", "        raise PermissionDenied"]),
             "deletes a guard: if not request.user.has_perm('reports.view'): raise PermissionDenied",
             _fc("app/views.py", additions=2, deletions=2, removed_lines=["    if not request.user.has_perm('reports.view'):", "        raise PermissionDenied"],
                 added_lines=["    if not request.user.has_perm('reports.read'):", "        raise PermissionDenied"])),
         more=(Example(_fc("src/files.py", additions=1, deletions=1, removed_lines=["    if len(name) > MAX_NAME or '..' in name:"],
                           added_lines=["    if len(name) > MAX_NAME or '..' not in name:"]),
                       "inverts a check: if len(name) > MAX_NAME or '..' not in name:",
                       _fc("src/files.py", additions=1, deletions=1, removed_lines=["    if len(name) > MAX_NAME or '..' in name:"],
                           added_lines=["    if len(name) > MAX_NAME or '..' in name or not name:"])),
               Example(_fc("src/admin.js", additions=1, deletions=1, removed_lines=["  if (!user.isAuthenticated || !user.isAdmin) {"],
                           added_lines=["  if (!user.isAuthenticated) {"]),
                       "drops a clause from a check: !user.isAdmin (was if (!user.isAuthenticated || !user.isAdmin) {)",
                       _fc("src/admin.js", additions=1, deletions=1, removed_lines=["  if (!user.isAuthenticated) {"],
                           added_lines=["  if (!user.isAuthenticated || !user.isAdmin) {"])),
               Example(_fc("server/upload.py", additions=1, deletions=2, removed_lines=["    if len(body) > 65536:", "        raise TooLarge()"],
                           added_lines=["    body = request.get_data()"]),
                       "deletes a guard: if len(body) > 65536: raise TooLarge()",
                       _fc("server/upload.py", additions=2, deletions=2, removed_lines=["    if len(body) > 65536:", "        raise TooLarge()"],
                           added_lines=["    if len(body) > 65536:", "        raise TooLarge(len(body))"])),)),
    # What only an edited pair shows, in any ecosystem (relay.review.slipped_lines, dropped_bounds, lets_through); a script's failure exit deleted.
    Rule("weakens_value", "high", "{detail}", weakened_check, scope=_RISKY_LINES, leads=True, example=Example(*WEAKENED_EXAMPLE)),
    Rule("weakens_package", "medium", "{detail}", package_check, leads=True, scope=Scope(not_changes=("deleted",), unless=("test_body", "generated_output", "release_notes")), example=Example(*PACKAGE_EXAMPLE), more=tuple(Example(*e) for e in KIND_EXAMPLES["weakens_package"])),
    Rule("turns_down", "high", "{detail}", checks.turned_down_check, scope=_RISKY_LINES, leads=True, example=Example(
        _fc("docs/tutorial.md", additions=1, deletions=1, removed_lines=['\tdb, err := sql.Open("postgres", "dbname=app sslmode=verify-full")'],
            added_lines=['\tdb, err := sql.Open("postgres", "dbname=app sslmode=disable")']),
        "turns a connection's TLS off (verify-full → disable): …, err := sql.Open(\"postgres\", \"dbname=app sslmode=disable\")",
        _fc("docs/tutorial.md", additions=1, added_lines=['\tdb, err := sql.Open("postgres", "dbname=app sslmode=disable")']))),
    Rule("deletes_failure_exit", "high", "{detail}", checks.failure_exit_check, leads=True,
         scope=Scope(not_kinds=("lockfile", "docs"), not_changes=("deleted",), unless=("test_body", "generated_output", "mechanical")),
         example=Example(
             _fc("install.sh", deletions=1, removed_lines=["    return 1"]),
             "deletes a failure exit: return 1 (the failed check now falls through)",
             _fc("install.sh", additions=1, deletions=1, removed_lines=["    return 1"], added_lines=["    exit 1"]))),
    # An edit judged by its direction (relay.review.edit_direction, round 14): a classic weakening is high, the rest worth a look.
    Rule("weakens_edit", "high", "{detail}", weakened_classic, scope=_RISKY_LINES, leads=True, outranks=("note_apart", "edit_apart"), example=Example(
        _fc("lib/uuid.ex", additions=1, deletions=1, removed_lines=["    <<a::48, b::80>> = :crypto.strong_rand_bytes(16)"],
            added_lines=["    <<a::48, b::80>> = :rand.bytes(16)"]),
        "makes randomness predictable: …80>> = :crypto.strong_rand_bytes(16… → …80>> = :rand.bytes(16…",
        _fc("lib/retry.ex", additions=1, deletions=1, removed_lines=["    delay = base"], added_lines=["    delay = base + :rand.uniform(100)"]),
        RiskContext(apart={"lib/uuid.ex": _APART}, apart_worth={"lib/uuid.ex": _APART})), more=(*quiet_turns.HIGH_EXAMPLES, Example(*sample_code.CONSTANT_EXAMPLE))),
    Rule("weakens_more", "medium", "{detail}", weakened_more, leads=True, outranks=("note_apart", "edit_apart"),
         scope=Scope(not_kinds=("lockfile",), not_changes=("deleted",), unless=("generated_output", "mechanical", "release_notes")), example=Example(
        _fc("lib/changeset.ex", additions=1, deletions=1, removed_lines=["      {:ok, ^value} ->"], added_lines=["      {:ok, _value} ->"]),
        "drops a pin (any value now matches): {:ok, ^value} -> → {:ok, _value} ->",
        _fc("lib/changeset.ex", additions=1, deletions=1, removed_lines=["      {:ok, value} ->"], added_lines=["      {:ok, _value} ->"]),
        RiskContext(apart={"lib/changeset.ex": _APART}, apart_worth={"lib/changeset.ex": _APART})), more=quiet_turns.MEDIUM_EXAMPLES),
    # A check edited in place to let more through, read by the structure of the edited pair (relay.review.condition_reading):
    # high where it is about access or input, worth a look where it is not.
    Rule("weakens_check", "high", "{detail}", checks.weakens_check, scope=_RISKY_LINES, leads=True,
         outranks=("security_tokens", "input_check", "length_guard"), example=Example(
             _fc("src/files.py", additions=1, deletions=1, removed_lines=["    if len(name) > 255 or not os.path.realpath(name).startswith(root):"],
                 added_lines=["    if len(name) > 255:"]),
             "drops a clause from a check: if len(name) > 255: (was … > 255 or not os.path.realpath(name).startswith(root):)",
             _fc("src/files.py", additions=1, deletions=1, removed_lines=["    if len(name) > 255:"],
                 added_lines=["    if len(name) > 255 or not os.path.realpath(name).startswith(root):"])),
         more=(Example(_fc("src/path.c", additions=1, deletions=1, removed_lines=["\tif (path[start] == '\\\\' || path[start] == ':')"],
                           added_lines=["\tif (path[start] == '\\\\')"]),
                       "drops a clause from a check: if (path[start] == '\\\\') (was if (path[start] == '\\\\' || path[start] == ':'))",
                       _fc("src/path.c", additions=1, deletions=1, removed_lines=["\tif (path[start] == '\\\\')"],
                           added_lines=["\tif (path[start] == '\\\\' || path[start] == ':')"])),
               Example(_fc("config/defaults.rb", additions=1, deletions=1, removed_lines=["    :allowed_origins => %w[app.example.org],"],
                           added_lines=["    :allowed_origins => %w[app.example.org other.example.net],"]),
                       "widens an allow-list: :allowed_origins => %w[app.example.org other.example.net],",
                       _fc("config/defaults.rb", additions=1, deletions=1, removed_lines=["    :allowed_origins => %w[app.example.org other.example.net],"],
                           added_lines=["    :allowed_origins => %w[app.example.org],"])),)),
    Rule("loosens_check", "medium", "{detail}", checks.loosens_check, scope=_RISKY_LINES, leads=True, example=Example(
        _fc("lib/queue.rs", additions=1, deletions=1, removed_lines=["        if pending == capacity {"], added_lines=["        if pending > capacity {"]),
        "narrows a differs/equals check to an ordering: if pending > capacity {",
        _fc("lib/queue.rs", additions=1, deletions=1, removed_lines=["        if pending == capacity {"], added_lines=["        if pending == self.capacity {"]))),
    # Any other edit that changes what a security-relevant line means (an operator, a literal, an operand, a called name),
    # read generically where no family reader above knows the shape (relay.review.line_edits): worth a look, quoted first.
    Rule("edits_security_line", "medium", "{detail}", checks.edits_security_line,
         scope=Scope(kinds=("source", "example", "generated"), not_changes=("deleted",),
                     unless=("generated_output", "mechanical", "release_notes", "same_meaning", "reformatted")),
         example=Example(
             _fc("lib/token/verify.ex", additions=1, deletions=1, removed_lines=["    Enum.all?(valid, &(&1 in claim_values))"],
                 added_lines=["    Enum.any?(valid, &(&1 in claim_values))"]),
             "edits a security line (all? → any?): Enum.any?(valid, &(&1 in claim_values))",
             _fc("lib/token/verify.ex", additions=1, deletions=1, removed_lines=["    Enum.all?(valid, &(&1 in claim_values))"],
                 added_lines=["    Enum.all?(valid, &(&1 in claim_values)) # every claim"]))),
    # A small edit of code apart from the rest of the change (relay.review.apart_edits): the line a worker slips in beside
    # its work, whatever its words. Quoted always (a note), after the family readers' findings; worth a look (medium) when
    # it shares no name with a change of some size and could let more through.
    Rule("edit_apart", "medium", "{detail}", edit_apart, outranks=("note_apart",),
         scope=Scope(kinds=("source", "example"), not_changes=("deleted",), unless=("generated_output",)),
         example=Example(
             _fc("enforcer.go", additions=1, deletions=1, removed_lines=["\t\tpolicyEffects[i] = effector.Indeterminate"],
                 added_lines=["\t\tpolicyEffects[i] = effector.Allow"]),
             "edit apart from the change: policyEffects[i] = effector.Indeterminate → policyEffects[i] = effector.Allow",
             _fc("enforcer_cache.go", additions=1, deletions=1, removed_lines=["\t\tpolicyEffects[i] = effector.Indeterminate"],
                 added_lines=["\t\tpolicyEffects[i] = effector.Allow"]),
             RiskContext(apart_worth={"enforcer.go": "edit apart from the change: policyEffects[i] = effector.Indeterminate → policyEffects[i] = effector.Allow"},
                         apart={"enforcer.go": "edit apart from the change: policyEffects[i] = effector.Indeterminate → policyEffects[i] = effector.Allow"}))),
    # A run of a file read alone as a check edited to pass more often (relay.review.looser_checks): a big edit of the file
    # (a typing pass) pairs its whole lines too loosely for the file's own reading; the run, read alone, is the edit.
    Rule("loosens_run", "medium", "{detail}", looser_run, scope=_RISKY_LINES, leads=True, outranks=("note_apart", "edit_apart"),
         example=Example(
             _fc("rq/job.py", additions=46, deletions=46, removed_lines=[*_UNTYPED, "    if not JOB_ID_PATTERN.fullmatch(job_id):"],
                 added_lines=[*_TYPED, "    if not JOB_ID_PATTERN.match(job_id):"]),
             "makes an exact match a prefix match: if not JOB_ID_PATTERN.fullmatch(job_id): → if not JOB_ID_PATTERN.match(job_id):",
             _fc("rq/queue.py", additions=1, deletions=1, removed_lines=["    if not JOB_ID_PATTERN.fullmatch(job_id):"],
                 added_lines=["    if not JOB_ID_PATTERN.match(job_id):"]),
             RiskContext(looser_runs={"rq/job.py": "makes an exact match a prefix match: if not JOB_ID_PATTERN.fullmatch(job_id): → "
                                                   "if not JOB_ID_PATTERN.match(job_id):"},
                         apart={"rq/job.py": "edit apart from the change: …fullmatch(job_id): → …match(job_id):"},
                         apart_worth={"rq/job.py": "edit apart from the change: …fullmatch(job_id): → …match(job_id):"}))),
    Rule("drops_refusal_entry", "high", "{detail}", refusal_row, scope=_RISKY_LINES, leads=True, outranks=("note_apart", "edit_apart"), example=Example(*REFUSAL_EXAMPLE)),  # relay.review.refusal_lists
    Rule("note_apart", None, "{detail}", note_apart,
         scope=Scope(kinds=("source", "example"), not_changes=("deleted",), unless=("generated_output",)),
         example=Example(
             _fc("lib/widget/cache.rb", additions=1, deletions=1, removed_lines=["    @store.fetch(key)"], added_lines=["    @store.fetch(key) || {}"]),
             "edit apart from the change: @store.fetch(key) → @store.fetch(key) || {}",
             _fc("lib/widget/store.rb", additions=1, deletions=1, removed_lines=["    @store.fetch(key)"], added_lines=["    @store.fetch(key) || {}"]),
             RiskContext(apart={"lib/widget/cache.rb": "edit apart from the change: @store.fetch(key) → @store.fetch(key) || {}"}))),
    # A change its first reading found above low for no changed line (every file low, or above low only for what it is: a
    # manifest, a CI file, a lockfile), whose reasons quote a code line it turned or edited apart from the rest, or whose source
    # adds deciding lines nothing judged: that low file is worth a look, the quote its reason (relay.review.low_change_floor,
    # relay.review.new_logic; asked in assess_all's second reading).
    Rule("low_change_apart", "medium", "{detail}", low_change_apart, outranks=("note_apart", "leading_line"),
         scope=Scope(kinds=("source", "example"), not_changes=("deleted",), unless=("generated_output",)), example=FLOOR_APART_EXAMPLE),
    Rule("low_change_quote", "medium", "{detail}", low_change_quote, outranks=("leading_line",),  # data: a bound loosened far (round 50); docs: a sample turned (round 90), a danger taught (111)
         scope=Scope(kinds=("source", "example", "data", "docs"), not_changes=("deleted",), unless=("generated_output", "release_notes")), example=FLOOR_EXAMPLE),
    Rule("new_logic", "medium", "{detail}", new_logic_row, scope=_NAMED_SOURCE, example=NEW_LOGIC_EXAMPLE),
    # What a one-line turn now lets through, said from the line (relay.review.let_through): a note, so it names, not ranks.
    Rule("lets_through_note", None, "{detail}", _let_through, scope=_RISKY_LINES, example=Example(
        _fc("store/memory.go", removed_lines=[_SPENT[0]], added_lines=[_SPENT[1]]),
        "allows a request when the limit is exhausted (0 left, false → true): return limit, 0, reset, true, nil",
        _fc("store/memory_test.go", removed_lines=[_SPENT[0]], added_lines=[_SPENT[1]]))),
    # Turns of state, ordering and place (relay.review.state_turns): worth a look, said with what they let happen.
    Rule("state_turn", "medium", "{detail}", _state_turn, scope=_RISKY_LINES, example=Example(
        _fc("src/once.rs", removed_lines=["    if STATE.load(Ordering::Acquire) != READY {"], added_lines=["    if STATE.load(Ordering::Relaxed) != READY {"]),
        "loosens Acquire to relaxed (state seen before it is published): if STATE.load(Ordering::Relaxed) != READY {",
        _fc("src/once.rs", removed_lines=["    if STATE.load(Ordering::Relaxed) != READY {"], added_lines=["    if STATE.load(Ordering::Acquire) != READY {"]))),
    # The floor: a turn a reader quotes in source, on a line of state or security, is worth a look, never low.
    Rule("named_turn", "medium", "{detail}", _named_turn, scope=Scope(kinds=("source",), not_changes=("deleted",),
                                                                      unless=("test_body", "generated_output", "mechanical", "release_notes")),
         example=Example(
             _fc("lib/cookies.js", removed_lines=["  if (!remote) return"], added_lines=["  if (!remote) return value"]),
             "the turn quoted is on a guard that returns early",
             _fc("lib/keys.js", removed_lines=["  if (!remote) return"], added_lines=["  if (!remote) return value"]),
             RiskContext(apart={"lib/cookies.js": "edit apart from the change: if (!remote) return → if (!remote) return value"}))),
    # The deciding-token floor (relay.review.deciding_tokens, round 32): an edited pair that turns an operator, a result, a factor, a table entry.
    Rule("deciding_turn", "medium", "{detail}", deciding_check, scope=Scope(kinds=("source", "example", "docs"), not_changes=("deleted",), unless=(
        "test_body", "generated_output", "mechanical", "release_notes", "reformatted", "same_meaning")), leads=True, example=Example(*DECIDING_EXAMPLE),
         more=tuple(Example(*more) for more in DECIDING_MORE)),
    # What a turned check now lets through (relay.review.turn_consequences): a note placed with the line readers' reasons,
    # after those that name the line's kind (a deleted guard, a dropped clause), before words, paths and sizes.
    Rule("consequence_note", None, "{detail}", _turn_consequence, scope=_RISKY_LINES, example=Example(
        _fc("auth/session.go", removed_lines=["\tif err != nil {"], added_lines=["\tif err != nil && !errors.Is(err, ErrSessionExpired) {"]),
        "lets an expired session through (ErrSessionExpired no longer fails): if err != nil && !errors.Is(err, ErrSessionExpired)",
        _fc("auth/session_test.go", removed_lines=["\tif err != nil {"], added_lines=["\tif err != nil && !errors.Is(err, ErrSessionExpired) {"]))),
    Rule("switches_off", "high", "{detail}", checks.switches_off, scope=Scope(kinds=("ci",), not_changes=("deleted",)), leads=True,
         example=Example(
             _fc(".github/workflows/scan.yml", additions=1, added_lines=["    if: ${{ false }}"]), "switches a CI job or step off: if: ${{ false }}",
             _fc(".github/workflows/scan.yml", additions=1, added_lines=["    if: github.event_name == 'push'"]))),
    # ----- what the change's own notes and the leader's task say the fix is
    Rule("named_by_security_note", "high", "the change's security note names this file ({detail})", checks.named_by_security_note,
         scope=_NAMED_SOURCE, leads=True, outranks=("named_by_security_task",), example=Example(
             _fc("phpseclib/Crypt/RSA.php", additions=3, deletions=2, added_lines=["    if ($em !== $expected) {"], removed_lines=["    if ($em != $expected) {"]),
             "the change's security note names this file (RSA.php, CVE-2021-30130)",
             _fc("phpseclib/Net/SSH2.php", additions=3, deletions=2, added_lines=["    $this->timeout = $t;"], removed_lines=["    $this->timeout = 0;"]),
             RiskContext(security_note="CVE-2021-30130", security_note_words=frozenset({"rsa", "cleanup", "pkcs", "signature", "verification"}),
                         task_security="signature bypass", task_words=frozenset({"rsa"})))),
    Rule("named_by_security_task", "high", "the task's security fix names this file ({detail})", checks.named_by_security_task,
         scope=_NAMED_SOURCE, leads=True, example=Example(
             _QUIET_FIX, "the task's security fix names this file (rle.c, heap overflow)",
             _fc("lib/png.c", additions=2, deletions=1, removed_lines=["  n = hdr[1];"], added_lines=["  n = hdr[1];", "  n &= 0x7f;"]),
             RiskContext(task_security="heap overflow", task_words=frozenset({"fix", "the", "heap", "overflow", "rle", "decoder"})))),
    # ----- tests weakened
    # ----- public names removed: a module deleted with its own tests (its tests stay "deletes a test file": in a refactor
    # that moves the module's code, the deleted tests are the finding)
    Rule("removes_tested_module", "high", "removes a module and its tests (public API: {detail})", test_checks.removes_tested_module,
         scope=Scope(kinds=("source",), changes=("deleted",), needs=("is_code",)), outranks=("deleted_file",), example=Example(
             _fc("lib/liquid/tags/local.rb", kind="deleted", deletions=30), "removes a module and its tests (public API: local)",
             _fc("lib/liquid/tags/cycle.rb", kind="deleted", deletions=30),
             RiskContext(removed_tests=frozenset({"local"})))),
    Rule("removes_tested_name", "high", "removes {detail} and its tests (public API)", test_checks.removes_tested_name,
         scope=Scope(kinds=("source",), changes=("modified", "renamed"), unless=("mechanical",)), example=Example(
             _fc("hc/api/views.py", deletions=3, removed_lines=["@csrf_exempt", "def bounce(request, code):", "    return HttpResponse()"]),
             "removes bounce and its tests (public API)",
             _fc("hc/api/views.py", deletions=2, removed_lines=["def bounce_count(request):", "    return 0"]),
             RiskContext(removed_tests=frozenset({"bounce"})))),
    Rule("deleted_test", "high", "deletes a test file", test_checks.deleted_test, scope=Scope(kinds=("test",), changes=("deleted",), needs=("is_code",)),
         example=Example(_fc("tests/test_api.py", kind="deleted", deletions=40), "deletes a test file (40 lines)",
                         _fc("tests/data/sample.txt", kind="deleted", deletions=3))),
    Rule("removed_assertions", "high", "test weakened: removes {detail}", test_checks.removed_assertions,
         scope=Scope(kinds=("test",), not_changes=("deleted",)), example=Example(
             _fc("tests/test_api.py", deletions=2, removed_lines=["    assert r.status == 200", "    assert r.json()"]),
             "test weakened: removes 2 assertions",
             _fc("tests/test_api.py", deletions=1, additions=1, removed_lines=["    assert x == 1"], added_lines=["    assert x == 2"]))),
    Rule("skip_marker", "high", "adds a skip/focus marker ({detail})", test_checks.skip_marker,
         scope=Scope(needs=("skips_added",), unless=("adds_case",)), example=Example(
             _fc("tests/test_api.py", added_lines=["@pytest.mark.skip(reason='later')"]), "adds a skip/focus marker (@pytest.mark.skip)",
             _fc("tests/test_api.py", added_lines=["@pytest.mark.xfail(reason='bug 12')", "def test_bug_12():"]))),
    Rule("skips_security_test", "high", "skips a security test: {detail}", test_checks.skips_security_test,
         scope=Scope(needs=("skips_added",)), leads=True, outranks=("skip_marker", "removed_assertions", "skip_with_new_test"), example=Example(
             _fc("spec/client/ssl_spec.rb", additions=1, deletions=1, removed_lines=["  it 'verifies the server hostname' do"],
                 added_lines=["  xit 'verifies the server hostname' do"]),
             "skips a security test: xit 'verifies the server hostname' do",
             _fc("spec/client/retry_spec.rb", additions=1, deletions=1, removed_lines=["  it 'retries twice' do"],
                 added_lines=["  xit 'retries twice' do"])), more=(Example(_fc("test/verify.js", kind="added", additions=2, added_lines=[
                     "describe.skip('verify', () => {", "  it('accepts a signature', () => {})"]),
                     "skips a security test: describe.skip('verify', () => {", _fc("test/layout.js", kind="added", additions=2, added_lines=[
                     "describe.skip('layout', () => {", "  it('wraps a line', () => {})"])),)),
    Rule("skip_with_new_test", "medium", "new test added with a skip/focus marker ({detail})", test_checks.skip_with_new_test,
         scope=Scope(needs=("skips_added", "adds_case")), example=Example(
             _fc("tests/test_api.py", added_lines=["@pytest.mark.xfail(reason='bug 12')", "def test_bug_12():", "    assert parse('') == []"]),
             "new test added with a skip/focus marker (@pytest.mark.xfail)",
             _fc("tests/test_api.py", added_lines=["@pytest.mark.xfail(reason='bug 12')"]))),
    Rule("coverage_lowered", "high", "lowers a coverage threshold ({detail})", test_checks.coverage_lowered, example=Example(
        _fc("pyproject.toml", removed_lines=["fail_under = 90"], added_lines=["fail_under = 80"]), "lowers a coverage threshold (fail-under 90 → 80)",
        _fc("pyproject.toml", removed_lines=["fail_under = 80"], added_lines=["fail_under = 90"]))),
    # ----- secrets, security-relevant code and what runs with the project's credentials
    Rule("secret_path", "high", "secret or environment file", checks.secret_path, scope=Scope(not_kinds=("test",)), example=Example(
        _fc("config/.env.production"), "secret or environment file", _fc("tests/certs/server.pem"))),
    # A key or certificate among the tests is a fixture more often than a leak (requests' release 2.32.4
    # regenerated tests/certs/*.pem: two "secret" files came before the fix): worth a look, not first.
    Rule("test_secret", "medium", "key or certificate among the tests (a fixture?)", checks.secret_path, scope=Scope(kinds=("test",)),
         example=Example(_fc("tests/certs/mtls/client/client.pem"), "key or certificate among the tests (a fixture?)", _fc("tests/certs/README.md"))),
    Rule("security_tokens", "high", "changes security-relevant code ({detail})", checks.security_tokens, scope=_READ_SOURCE, example=Example(
        _fc("src/extract.py", additions=2, added_lines=["    if os.path.islink(dest) or not os.path.realpath(dest).startswith(root):", "        raise Unsafe(dest)"]),
        "changes security-relevant code (paths/symlinks: …(dest) or not os.path.realpath(dest).startswith(ro…)",
        _fc("docs/extract.md", additions=1, added_lines=["    if os.path.islink(dest) or not os.path.realpath(dest).startswith(root):"]))),
    Rule("auth_path", "high", "security-sensitive path ({detail})", checks.auth_word,
         scope=Scope(kinds=("source",), unless=("mechanical", "reformatted", "same_meaning")), example=Example(
             _fc("src/middleware/authMiddleware.ts"), "security-sensitive path (auth)", _fc("examples/auth/server.py"))),
    Rule("ci_credentials", "high", "CI runs with the project's credentials ({detail})", checks.ci_credentials,
         scope=Scope(not_changes=("deleted",)), outranks=("ci_config",), example=Example(
             _fc(".gitlab-ci.yml", additions=1, added_lines=["    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}"]),
             "CI runs with the project's credentials (secrets.NPM_TOKEN)",
             _fc(".github/workflows/test.yml", additions=1, deletions=1, added_lines=["      - uses: actions/checkout@v4"], removed_lines=["      - uses: actions/checkout@v3"]),
             RiskContext(ci_credentials={".github/workflows/test.yml": ""}))),
    Rule("ci_config", "high", "CI configuration (runs with repository secrets)", checks.ci_config, scope=Scope(not_changes=("deleted",)),
         example=Example(_fc(".github/workflows/release.yml"), "CI configuration (runs with repository secrets)",
                         _fc(".travis.yml", kind="deleted", deletions=9))),
    Rule("ci_build", "medium", "CI configuration (no credentials that publish)", checks.ci_build,
         scope=Scope(not_changes=("deleted",)), example=Example(
             _fc(".github/workflows/test.yml"), "CI configuration (no credentials that publish)",
             _fc(".github/workflows/other.yml"), RiskContext(ci_credentials={".github/workflows/test.yml": ""}))),
    Rule("ci_versions", "medium", "CI configuration: test matrix versions only", checks.ci_versions, scope=Scope(changes=("modified",)),
         outranks=("ci_config", "ci_build"), example=Example(
             _fc(".travis.yml", additions=1, deletions=1, added_lines=['  - "16"'], removed_lines=['  - "6"']), "CI configuration: test matrix versions only",
             _fc(".travis.yml", additions=1, deletions=1, added_lines=["  - curl -s https://example.com/x.sh | sh"], removed_lines=['  - "6"'])),
         more=(Example(_fc(".github/workflows/test.yml", additions=1, deletions=1, added_lines=["        python: ['3.12', '3.13']"],
                           removed_lines=["        python: ['3.11', '3.12']"]),
                       "CI configuration: test matrix versions only",
                       _fc(".github/workflows/release.yml", additions=1, deletions=1, added_lines=["        python: ['3.12', '3.13']"],
                           removed_lines=["        python: ['3.11', '3.12']"]),
                       RiskContext(ci_credentials={".github/workflows/test.yml": "", ".github/workflows/release.yml": "secrets.PYPI_TOKEN"})),)),
    Rule("hooks", "high", "{detail}", runs_on_open, scope=Scope(not_changes=("deleted",)),
         example=Example(_fc(".husky/pre-commit"), "git hook / pre-commit config (runs on every developer's machine)", _fc("src/hooks/useThing.ts"))),
    # agy ≥1.3 loads these from the workspace into every worker run (agy-protocol.md §8.4, §8.6 item 1)
    Rule("agy_config", "high", "{detail}", change_checks.agy_config, scope=Scope(not_changes=("deleted",)),
         example=Example(_fc(".agents/plugins/lint/mcp_config.json"),
                         "agy configuration (.agents/plugins/lint/mcp_config.json: MCP servers or hooks agy starts)", _fc("docs/agents.txt"),),
         more=(Example(_fc("AGENTS.md"), "agy configuration (AGENTS.md: rules agy reads into the worker's instructions)",
                       _fc("docs/agents/guide.md")), Example(_fc(".claude/settings.json"), "the leader's agent configuration (.claude/settings.json: "
                                                                    "Claude Code runs the hooks and allows the tools it lists)", _fc("docs/settings.json")))),
    Rule("migration", "high", "database migration", checks.migration, scope=Scope(not_kinds=("docs", "test", "example")), leads=True, example=Example(
        _fc("db/migrate/20240101_add_users.rb"), "database migration", _fc("changelog/1234.bugfix.rst"))),
    Rule("lookalike_dependency", "high", "{detail}", checks.lookalike_dependency,
         leads=True, outranks=("new_dependency", "manifest"), example=Example(
             _fc("requirements-dev.txt", additions=1, deletions=1, removed_lines=["python-dateutil==2.8.2"],
                 added_lines=["pyhton-dateutil==2.9.0"]),
             "renames a dependency to a look-alike (a typo-squat?): python-dateutil → pyhton-dateutil",
             _fc("requirements-dev.txt", additions=1, deletions=1, removed_lines=["python-dateutil==2.8.2"], added_lines=["python-dateutil==2.9.0"])),
         more=(Example(_fc("package.json", additions=1, added_lines=['    "expresss": "^4.19.2",']),
                       "adds a look-alike of express (a typo-squat?): expresss",
                       _fc("package.json", additions=1, added_lines=['    "express-session": "^1.18.0",'])), Example(*sample_code.INSTALL_EXAMPLE))),
    Rule("replaced_dependency", "high", "{detail}", checks.replaced_dependency, leads=True, example=Example(
        _fc("go.mod", additions=1, added_lines=["replace golang.org/x/crypto => github.com/golang-crypto/crypto v0.31.0"]),
        "replaces module golang.org/x/crypto with another source: github.com/golang-crypto/crypto",
        _fc("go.mod", additions=1, added_lines=["replace golang.org/x/crypto => ../crypto"]))),
    Rule("removes_guard_dependency", "high", "removes a dependency that guards against vulnerable code: {detail}", checks.removes_guard_dependency,
         leads=True, example=Example(
             _fc("composer.json", deletions=1, removed_lines=['        "roave/security-advisories": "dev-latest",']),
             "removes a dependency that guards against vulnerable code: roave/security-advisories",
             _fc("composer.json", deletions=1, removed_lines=['        "monolog/monolog": "^3.0",']))),
    # A version moved down in any manifest: an older release brings back what later ones fixed.
    Rule("downgrades_dependency", "medium", "{detail}", checks.downgrades_dependency, example=Example(
        _fc("lib/build.gradle", additions=1, deletions=1, removed_lines=["    implementation 'com.fasterxml.jackson.core:jackson-databind:2.21.3'"],
            added_lines=["    implementation 'com.fasterxml.jackson.core:jackson-databind:2.9.8'"]),
        "downgrades a dependency: jackson-databind 2.21.3 → 2.9.8",
        _fc("lib/build.gradle", additions=1, deletions=1, removed_lines=["    implementation 'com.fasterxml.jackson.core:jackson-databind:2.9.8'"],
            added_lines=["    implementation 'com.fasterxml.jackson.core:jackson-databind:2.21.3'"]))),
    Rule("new_dependency", "high", "adds a dependency: {detail}", checks.new_dependency, example=Example(
        _fc("requirements.txt", added_lines=["requests==2.32.0"]), "adds a dependency: requests",
        _fc("requirements.txt", removed_lines=["requests==2.31.0"], added_lines=["requests==2.32.0"]))),
    Rule("symlink_escapes", "high", "symlink points outside the workspace (→ {detail})", change_checks.symlink_escapes, scope=Scope(not_changes=("deleted",)),
         example=Example(_fc("data/link", kind="added", symlink=True, added_lines=["../../etc/passwd"]),
                         "symlink points outside the workspace (→ ../../etc/passwd)", _fc("data/link", symlink=True, added_lines=["local.txt"]))),
    Rule("huge_change", "high", "very large change ({detail})", change_checks.huge,
         scope=Scope(not_kinds=NO_SIZE_KINDS, needs=("oversized",), unless=("mechanical",)), example=Example(
             _fc("src/gen.py", additions=5000, added_lines=_CODE40), "very large change (5,000 lines)", _fc("package-lock.json", additions=5000))),
    # ----- source edited beside a security fix's evidence
    Rule("beside_security_test", "medium", "changed with a security regression test ({detail})", checks.beside_security_test,
         scope=_FIX_SOURCE, outranks=("beside_security_note", "for_security_task"), example=Example(
             _fc("src/shim.py", additions=1, deletions=1, removed_lines=["def parse(s, scripting=False):"], added_lines=["def parse(s, scripting=True):"]),
             "changed with a security regression test (GHSA-q65m-pv3f-wr5r)", _fc("src/_version.py", **_VERSION),
             RiskContext(security_test="GHSA-q65m-pv3f-wr5r", security_note="GHSA-q65m-pv3f-wr5r", task_security="XSS"))),
    Rule("beside_security_note", "medium", "changed where the notes name a security fix ({detail})", checks.beside_security_note,
         scope=_FIX_SOURCE, outranks=("for_security_task",), example=Example(
             _fc("lib/xmlparse.c", additions=2, deletions=1, removed_lines=["  return doContent(parser);"], added_lines=["  result = doContent(parser);", "  return result;"]),
             "changed where the notes name a security fix (CVE-2022-40674)", _fc("src/_version.py", **_VERSION),
             RiskContext(security_note="CVE-2022-40674", task_security="use after free"))),
    Rule("for_security_task", "medium", "changed for the security fix the task names ({detail})", checks.for_security_task,
         scope=_FIX_SOURCE, example=Example(
             _QUIET_FIX, "changed for the security fix the task names (heap overflow)",
             _fc("tests/test_rle.c", additions=2, deletions=1, removed_lines=["  n = hdr[1];"], added_lines=["  n = hdr[1];", "  n &= 0x7f;"]),
             RiskContext(task_security="heap overflow"))),
    # ----- checks added or changed in source
    Rule("length_guard", "medium", "{detail}", checks.length_guard, scope=_READ_SOURCE, example=Example(
        _fc("parser.go", additions=3, added_lines=["\tif len(data) == 0 {", "\t\treturn 0", "\t}"]), "adds a length check (if len(data) == 0 {)",
        _fc("parser.go", additions=1, added_lines=["\tfor i := 0; i < len(data); i++ {"]))),
    Rule("input_check", "medium", "changes an input check ({detail})", checks.input_check, scope=_READ_SOURCE, example=Example(
        _fc("src/path.c", additions=1, deletions=1, removed_lines=["\tif (path[start] == '\\\\')"], added_lines=["\tif (path[start] == '\\\\' || path[start] == ':')"]),
        "changes an input check (if (path[start] == '\\\\' || path[start] =)",
        _fc("src/path.c", additions=1, deletions=1, removed_lines=["\tif (path[start] == '\\\\')"], added_lines=["\tif (path[begin] == '\\\\')"]))),
    # ----- files removed, dependencies, build
    Rule("deleted_file", "medium", "deletes a file", change_checks.deleted_file, scope=Scope(changes=("deleted",)), example=Example(
        _fc("src/old.py", kind="deleted", deletions=10), "deletes a file (10 lines)", _fc("src/old.py"))),
    Rule("manifest", "medium", "dependency manifest", checks.manifest, outranks=("build_config",), example=Example(
        _fc("go.mod", added_lines=["require example.com/x v1.2.3"]), "dependency manifest", _fc("pyproject.toml", added_lines=["line-length = 100"]))),
    Rule("lockfile", "medium", "lockfile", checks.lockfile, example=Example(_fc("yarn.lock"), "lockfile", _fc("src/lock.py"))),
    Rule("build_config", "medium", "build configuration", checks.build_config, scope=Scope(unless=("version_bump",)), example=Example(
        _fc("Dockerfile"), "build configuration",
        _fc("package.json", additions=1, deletions=1, removed_lines=['  "version": "1.2.3",'], added_lines=['  "version": "1.2.4",']))),
    Rule("secret_template", "medium", "environment template", checks.secret_template, example=Example(_fc(".env.example"), "environment template", _fc(".env"))),
    # ----- the call: the task's paths, the worker's own report
    Rule("outside_paths", "medium", "outside the task's paths ({detail})", change_checks.outside_paths, example=Example(
        _fc("scripts/deploy.sh"), "outside the task's paths (src/, docs/*.md)", _fc("src/app/main.py"), RiskContext(paths=("src/", "docs/*.md")))),
    Rule("not_mentioned", "medium", "changed but not in the worker's report", change_checks.not_mentioned, example=Example(
        _fc("src/b.py"), "changed but not in the worker's report", _fc("src/a.py"), RiskContext(claimed=frozenset({"src/a.py"})))),
    # ----- size, and what cannot be read as text
    Rule("large_hunk", "medium", "large change ({detail})", change_checks.large_hunk,
         scope=Scope(not_kinds=NO_SIZE_KINDS, unless=("oversized", "mechanical")), example=Example(
             _fc("src/big.py", additions=300, ranges=[(10, 309)], added_lines=_CODE40), "large change (300 lines in one hunk)",
             _fc("docs/guide.md", additions=300, ranges=[(10, 309)]))),
    Rule("binary", "medium", "binary file (not reviewable as text)", change_checks.binary, scope=Scope(not_kinds=("test", "docs", "example")),
         example=Example(_fc("assets/logo.png", binary=True), "binary file (not reviewable as text)", _fc("tests/archives/links.tar", binary=True))),
    Rule("unread_line", "medium", "{detail}", unread_line, scope=Scope(kinds=("source", "ci", "manifest", "build", "example"),
         not_changes=("deleted",), unless=("generated_output",)), example=Example(*UNREAD_EXAMPLE)),
    Rule("hidden_characters", "high", "{detail}", hidden_characters, leads=True, example=Example(*HIDDEN_EXAMPLE),
         scope=Scope(not_kinds=("docs", "data", "lockfile", "generated"), not_changes=("deleted",))),
    Rule("runs_fetched_in_tests", "high", "{detail}", runs_fetched_code, scope=Scope(kinds=("test",), not_changes=("deleted",),
         needs=("test_body",), unless=("mechanical",)), leads=True, example=Example(*FETCHED_EXAMPLE)),
    Rule("generated_unread", "medium", "{detail}", generated_unread, scope=Scope(kinds=("generated",), not_changes=("deleted",)), example=Example(*GENERATED_EXAMPLE)),
    Rule("imports_test_code", "medium", "{detail}", imports_test_code, scope=Scope(kinds=("source",), not_changes=("deleted",), unless=("mechanical",)),
         example=Example(*TEST_IMPORT_EXAMPLE)),
    Rule("mode_change", "medium", "permission bits changed ({detail})", change_checks.mode_change, example=Example(
        _fc("run.sh", kind="mode", mode_before="100644", mode_after="100755"), "permission bits changed (100644 → 100755)",
        _fc("link", kind="type", mode_before="100644", mode_after="120000"))),
    Rule("type_change", "medium", "file type changed", change_checks.type_change, scope=Scope(changes=("type",)), example=Example(_fc("link", kind="type"), "file type changed", _fc("link"))),
    Rule("symlink", "medium", "symlink", change_checks.symlink, example=Example(_fc("link", symlink=True, added_lines=["a.txt"]), "symlink", _fc("link.txt"))),
    Rule("submodule", "medium", "submodule pointer changed", change_checks.submodule, example=Example(_fc("vendor/lib", submodule=True), "submodule pointer changed", _fc("vendor/lib.py"))),
    # A note: the changed line that tells most, first when no line reader quotes one (relay.review.leading_lines, risk.assess).
    Rule("leading_line", None, "{detail}", leading_line_check, example=Example(*LEADING_EXAMPLE), scope=Scope(not_kinds=("test", "lockfile", "generated"),
         not_changes=("deleted",), unless=("mechanical", "reformatted", "same_meaning", "only_version", "generated_output", "release_notes"))),
)

RULE_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}


def _consistent() -> None:
    # A typo in a scope or an outranks list would silently never match: refuse it at import.
    for rule in RULES:
        unknown = [f for f in (*rule.scope.needs, *rule.scope.unless) if f not in FACTS] + [n for n in rule.outranks if n not in RULE_BY_NAME]
        if unknown:
            raise ValueError(f"rule {rule.name} names what does not exist: {unknown}")


_consistent()
