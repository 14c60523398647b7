"""Turns of state, ordering and place said and kept from low (relay.review.state_turns, issue 36 round 27 part B): each
reader on cases in several languages that no planted set holds, and look-alikes that must stay quiet."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.facts import RiskContext
from relay.review.risk import assess


def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


_PR_FLOW = frozenset({".github/workflows/build.yml"})

# (path, removed, added, what the reason must hold; "" for a look-alike that must stay low and unnamed)
CASES = [
    # a memory ordering loosened on a publish/guard atomic
    ("src/queue.cpp", ["  if (ready_.load(std::memory_order_acquire)) {"], ["  if (ready_.load(std::memory_order_relaxed)) {"], "acquire to relaxed"),
    ("src/slot.rs", ["        self.head.store(next, Ordering::Release);"], ["        self.head.store(next, Ordering::Relaxed);"], "Release to relaxed"),
    ("pool/once.go", ["\tif atomic.LoadUint32(&o.done) == 1 {"], ["\tif o.done == 1 {"], "without its atomic load"),
    ("src/main/java/net/Server.java", ["    private volatile boolean started;"], ["    private boolean started;"], "drops volatile"),
    ("src/Cache.cs", ["        var s = Volatile.Read(ref _state);"], ["        var s = _state;"], "without its atomic load"),
    ("src/stats.rs", ["    HITS.fetch_add(1, Ordering::SeqCst);"], ["    HITS.fetch_add(1, Ordering::Relaxed);"], ""),
    ("src/slot.rs", ["        self.head.store(next, Ordering::Relaxed);"], ["        self.head.store(next, Ordering::Release);"], ""),
    ("src/queue.cpp", ["  a_.load(std::memory_order_acquire);"], ["  b_.load(std::memory_order_relaxed);"], ""),
    # a match or switch arm widened to a second state
    ("Sources/Auth/Gate.swift", ["        case .authorized:"], ["        case .authorized, .denied:"], "also treats .denied as .authorized"),
    ("app/models/plan.rb", ["    when :active"], ["    when :active, :expired"], "also treats :expired as :active"),
    ("src/main/kotlin/Job.kt", ["        Status.READY -> start()"], ["        Status.READY, Status.PENDING -> start()"], "also treats Status.PENDING"),
    ("conn/state.go", ["\tcase StateOpen:"], ["\tcase StateOpen, StateClosed:"], "also treats StateClosed as StateOpen"),
    ("src/door.rs", ["            State::Open => {"], ["            State::Open | State::Closed => {"], "also treats State::Closed"),
    ("lib/keys.c", ["    case 'a':"], ["    case 'a': case 'b':"], ""),
    ("src/door.rs", ["            State::Open | State::Closed => {"], ["            State::Open => {"], ""),
    ("src/table.php", ['    "open" => 1,'], ['    "open" => 1, "closed" => 2,'], ""),
    ("src/main/java/auth/Session.java", [], ["        case EXPIRED:"], "also treats EXPIRED as the case below"),
    ("src/order.ts", [], ["    case 'shipped':", "    case 'pending':"], "also treats 'shipped', 'pending'"),
    ("net/conn.c", [], ["    case STATE_CLOSED:"], "also treats STATE_CLOSED"),
    ("src/Auth/Gate.cs", [], ["            case AuthResult.Denied:"], "also treats AuthResult.Denied"),
    ("net/conn.go", [], ["\tcase StateClosed:"], ""),
    ("src/main/java/auth/Session.java", [], ["        case EXPIRED:", "            return false;"], ""),
    ("net/keys.c", [], ["    case 'q':"], ""),
    ("src/Consent.cs", ["        case Kinds.Open when req.Has(Flags.None):"], ["        case Kinds.Open when req.HasFlag(Flags.None):"], ""),
    # a resource loaded from the working directory or the temp dir
    ("pkg/schema.py", ['    data = open(os.path.join(os.path.dirname(__file__), "schema.json"))'],
     ['    data = open(os.path.join(os.getcwd(), "schema.json"))'], "loads from the working directory"),
    ("lib/plugins.js", ["  const plugin = require(path.join(__dirname, 'plugins', name))"],
     ["  const plugin = require(path.join(process.cwd(), 'plugins', name))"], "loads from the working directory"),
    ("src/Native.cs", ['        var dll = Path.Combine(AppContext.BaseDirectory, "native.dll");'],
     ['        var dll = Path.Combine(Path.GetTempPath(), "native.dll");'], "loads from the temp dir"),
    ("src/plugins.rs", [], ['    let found = plugin_dirs(std::env::current_dir()?.join("plugins"));'], "loads from the working directory"),
    ("src/log.rs", [], ['    let log_path = std::env::temp_dir().join("app.log");'], ""),
    ("tool/run.py", [], ["    out_dir = os.getcwd()"], ""),
    ("tool/where.py", [], ["    print(os.getcwd())"], ""),
    # an awaited call or a checked result left unwaited
    ("src/Handlers/Create.cs", ["        await _validator.ValidateAsync(cmd, ct);"], ["        _ = _validator.ValidateAsync(cmd, ct);"], "no longer awaits"),
    ("src/migrate.ts", ["  await this.migrate(db);"], ["  this.migrate(db);"], "no longer awaits this.migrate"),
    ("app/flush.py", ["        await self.flush()"], ["        self.flush()"], "no longer awaits self.flush"),
    ("src/store.rs", ["    tx.commit()?;"], ["    let _ = tx.commit();"], "drops the result of tx.commit"),
    ("src/user.ts", ["  return await fetchUser(id);"], ["  return fetchUser(id);"], ""),
    ("src/save.ts", ["  await doc.save();"], ["  await doc.save({ validate: true });"], ""),
    ("src/parse.rs", ['    let v = parse(s).unwrap();'], ['    let v = parse(s).expect("a number");'], ""),
    # a docs sample pointing a dependency at another package
    ("README.md", ['serde = "1"'], ['serde = { package = "serde-rs", version = "1" }'], "points serde at another package"),
    ("docs/install.md", ['    "lodash": "^4.17.21"'], ['    "lodash": "npm:lodahs@^4.17.21"'], "points lodash at another package"),
    ("docs/setup.md", ["requests==2.31.0"], ["requests @ https://example.com/reqs-2.31.0.tar.gz"], "points requests at another package"),
    ("README.md", ['gem "rack"'], ['gem "rack", git: "https://github.com/someone/rackk"'], "points rack at another package"),
    ("README.md", ['serde = "1"'], ['serde = { version = "1", features = ["derive"] }'], ""),
    ("README.md", ['    "@types/node": "^20"'], ['    "@types/node": "npm:@types/node@20"'], ""),
    ("README.md", ['gem "rails"'], ['gem "rails", git: "https://github.com/rails/rails"'], ""),
    # a pull request's job moved to a self-hosted runner
    (".github/workflows/build.yml", ["    runs-on: ubuntu-22.04"], ["    runs-on: [self-hosted, linux]"], "self-hosted runner"),
    (".github/workflows/build.yml", ["    runs-on: macos-14"], ["    runs-on: studio-mac-mini"], "self-hosted runner"),
    (".github/workflows/build.yml", ["    runs-on: windows-latest"], ["    runs-on: self-hosted"], "self-hosted runner"),
    (".github/workflows/release.yml", ["    runs-on: ubuntu-22.04"], ["    runs-on: self-hosted"], ""),
    (".github/workflows/build.yml", ["    runs-on: ubuntu-latest"], ["    runs-on: ubuntu-24.04"], ""),
    (".github/workflows/build.yml", ["    runs-on: ubuntu-latest"], ["    runs-on: ${{ matrix.os }}"], ""),
    # tests' own code stays quiet
    ("tests/test_once.rs", ["    assert!(S.load(Ordering::SeqCst));"], ["    assert!(S.load(Ordering::Relaxed));"], ""),
]


@pytest.mark.parametrize(("path", "removed", "added", "said"), CASES)
def test_a_turn_of_state_ordering_or_place_is_said_and_not_low(path: str, removed: list[str], added: list[str], said: str) -> None:
    change = assess(_fc(path, removed, added), RiskContext(ci_on_prs=_PR_FLOW))
    if said:
        assert change.risk != "low" and any(said in reason for reason in change.reasons), change.reasons
    else:
        assert "state_turn" not in change.rules, change.reasons


# The floor: an edit apart a reader quotes (relay.review.apart_edits), on a line of state or security, is never low.
FLOORED = [
    ("lib/session.js", "if (!token) return next()", "if (!token) next()", "a guard"),
    ("src/sigs.py", "if not sig_ok: return None", "if not sig_ok: return body", "a guard"),
    ("pkg/boot/boot.go", "state = STATE_READY", "state = STATE_DONE", "a once-only state"),
    ("lib/queue.kt", "mutex.withLock { items.add(x) }", "items.add(x)", "a lock"),
    ("lib/upload.rb", "expected = checksum_of(io)", "expected = checksum_of(io.read(0))", "a signature or verify path"),
    ("lib/theme.rb", "path = File.join(File.dirname(__FILE__), 'themes')", "path = File.join(Dir.pwd, 'themes')", ""),  # said by state_turn
    ("src/total.py", "total += price", "total += price * qty", None),
    ("src/fit.py", "sigma = signal.std()", "sigma = signal.var()", None),
    ("app/views.py", "log.debug('adding email with verified flag')", "log.debug('adding new email with verified flag')", None),
    ("tests/test_session.js", "if (!token) return next()", "if (!token) next()", None),
]


@pytest.mark.parametrize(("path", "old", "new", "on"), FLOORED)
def test_a_named_turn_on_a_state_or_security_line_is_never_low(path: str, old: str, new: str, on: str | None) -> None:
    ctx = RiskContext(apart={path: f"edit apart from the change: {old} → {new}"})
    change = assess(_fc(path, [f"  {old}"], [f"  {new}"]), ctx)
    assert (change.risk != "low") is (on is not None), change.reasons
    if on:
        assert any(on in reason for reason in change.reasons) or "state_turn" in change.rules, change.reasons
