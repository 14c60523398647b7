"""Round 65 (issue 36): blind 91–92's slips in lines the review had read as ordinary.

Whom each guards against: the worker that lets a lock go on the line after taking it (or drops its ``defer``), that reads
the other side's field in a list of one side's own (which the review had called "names changed only"), that writes a
non-negative floor as ``>= -1``, that widens a listener from a unix socket to every interface, that makes a draw fed a
generator a constant. Each near miss beside it stays quiet: a lock held over work, a defer kept, another receiver's
release, a list of one side's fields, a field both sides read, the index test ``> -1``, a rename made everywhere, a
socket moved to another path, a draw's size changed.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str] | None = None):
    return assess(fc(path, added, removed or []), RiskContext())


_CLEAR = ["func (tr *BTreeG[T]) Clear() {", "\tif tr.lock() {", "\t\ttr.unlock() // reset below is cheap, no need to hold the lock",
          "\t}", "\ttr.root = nil", "\ttr.count = 0", "}"]
_ORD = ["impl Ord for Version {", "    fn cmp(&self, other: &Self) -> Ordering {", "        cmp(",
        "            &(self.major, self.minor, self.patch, &other.pre),",
        "            &(other.major, other.minor, other.patch, &other.pre),", "        )", "    }", "}"]


@pytest.mark.parametrize(("path", "added", "removed", "risk", "said"), [
    ("generic.go", _CLEAR, [], "medium", "releases a lock on the line after taking it (nothing runs under it): if tr.lock()"),
    ("src/Cache.java", ["    public void reset() {", "        if (lock.tryLock()) {", "            // the swap below is atomic enough",
                        "            lock.unlock();", "            items = new HashMap<>();", "        }"], [],
     "medium", "releases a lock on the line after taking it"),
    ("generic.go", ["\t\ttr.unlock()"], ["\t\tdefer tr.unlock()"], "medium", "releases a lock at once where it was held to the function's end"),
    ("src/lib.rs", _ORD, [], "medium", "reads other.pre among self's fields"),
    ("src/lib.rs", ["            &(self.major, self.minor, self.patch, &other.pre),"],
     ["            &(self.major, self.minor, self.patch, &self.pre),"], "medium", "reads other.pre among self's fields"),
    ("source/index.ts", ["export function isNaturalNumber(value: unknown): value is number {", "\treturn isInteger(value) && value >= -1;", "}"], [],
     "medium", "lets -1 through a floor written as >= -1"),
    ("cmd/dkim-milter/main.go", ['\tflag.StringVar(&listenURI, "l", "tcp://0.0.0.0:8891", "Listen URI")'],
     ['\tflag.StringVar(&listenURI, "l", "unix:///tmp/dkim-milter.sock", "Listen URI")'], "high",
     "widens a bind from a unix socket to every interface"),
    ("dsa/src/generate/secret_number.rs", ["        let c = BoxedUint::from_be_slice(&[0x42u8; 32], n + 64).map_err(|_| signature::Error::new())?;"],
     ["        let c = BoxedUint::try_random_bits(rng, n + 64).map_err(|_| signature::Error::new())?;"], "high",
     "makes a random value constant"),
])
def test_the_slip_is_read_and_named(path, added, removed, risk, said):
    out = _said(path, added, removed)
    assert out.risk == risk, out.reasons
    assert any(said in reason for reason in out.reasons), out.reasons


@pytest.mark.parametrize(("path", "added", "removed", "unsaid"), [
    ("generic.go", ["\tif tr.lock() {", "\t\ttr.root = nil", "\t\ttr.unlock()", "\t}"], [], "releases a lock"),
    ("generic.go", ["\tmu.Lock()", "\tdefer mu.Unlock()", "\tcount++"], [], "releases a lock"),
    ("generic.go", ["\ta.mu.Lock()", "\tb.mu.Unlock()"], [], "releases a lock"),
    # afero's getBucket: RLock and RUnlock added around a kept line (the added lines stand without it): no block's head.
    ("gcsfs/fs.go", ["\tfs.mu.RLock()", "\tfs.mu.RUnlock()", ""], [], "releases a lock"),
    ("generic.go", ["\t\tdefer tr.unlock() // hold it to the end"], ["\t\tdefer tr.unlock()"], "releases a lock"),
    ("src/lib.rs", ["            &(self.major, self.minor, self.patch, &self.pre),"], [], "among"),
    ("src/lib.rs", ["        let d = (self.x - other.x, self.y - other.y);"], [], "among"),
    ("src/lib.rs", ["        max(self.start, self.end, other.start)"], [], "among"),
    ("source/index.ts", ["\treturn values.indexOf(value) > -1;"], [], "-1 through"),
    ("src/cli.go", ['\tflag.StringVar(&listenURI, "l", "unix:///run/dkim-milter.sock", "Listen URI")'],
     ['\tflag.StringVar(&listenURI, "l", "unix:///tmp/dkim-milter.sock", "Listen URI")'], "widens a bind"),
    ("dsa/src/generate/secret_number.rs", ["        let c = BoxedUint::try_random_bits(rng, n + 128).map_err(|_| signature::Error::new())?;"],
     ["        let c = BoxedUint::try_random_bits(rng, n + 64).map_err(|_| signature::Error::new())?;"], "constant"),
])
def test_the_near_miss_stays_quiet(path, added, removed, unsaid):
    out = _said(path, added, removed)
    assert not any(unsaid in reason for reason in out.reasons), out.reasons


def test_a_rename_made_everywhere_is_still_a_rename():
    # The receiver guard reads a name renamed at one place and kept at another; one renamed at every place stays a rename.
    out = _said("src/lib.rs", ["        let total = fresh.major + fresh.minor;", "        fresh.patch = total;"],
                ["        let total = old.major + old.minor;", "        old.patch = total;"])
    assert out.reasons[0].startswith("names changed only"), out.reasons


def test_a_copyright_year_turned_does_not_lead_a_file():
    # simpleeval: the module docstring's "(C) 2013-2024" → "2026" led a high file, and the limit's reason came second.
    out = _said("simpleeval.py", ["SimpleEval - (C) 2013-2026 Daniel Fairhead", "        if b * len(a) > MAX_STRING_LENGTH:"],
                ["SimpleEval - (C) 2013-2024 Daniel Fairhead", "        if len(a) * b > MAX_STRING_LENGTH:"])
    assert not any("2013-2026" in reason for reason in out.reasons), out.reasons


def test_a_type_unions_nil_is_no_flag_dropped():
    # kemal: Crystal's ``Tuple(Nil | Int32, …)`` written ``Tuple(Int32?, …)`` was "drops Nil from a set of flags", ahead of
    # the file's real turn; a flag dropped from a set of flags is still said.
    out = _said("src/kemal/config.cr", ["    CUSTOM_HANDLERS    = [] of Tuple(Int32?, HTTP::Handler)",
                                        '      @serve_static = {"dir_listing" => true, "gzip" => true}'],
                ["    CUSTOM_HANDLERS    = [] of Tuple(Nil | Int32, HTTP::Handler)",
                 '      @serve_static = {"dir_listing" => false, "gzip" => true}'])
    assert not any("drops Nil" in reason for reason in out.reasons), out.reasons
    assert out.reasons[0].startswith("turns dir_listing on"), out.reasons
    from relay.review.value_turns import _turned  # the pair reader itself: its other callers screen the line first

    assert _turned("flags = re.VERBOSE | re.IGNORECASE", "flags = re.VERBOSE") == "drops re.IGNORECASE from a set of flags"
    assert _turned("def f(x: Str | None) -> int:", "def f(x: Str) -> int:") is None


def test_the_riskiest_targets_reason_has_room_for_its_second_finding():
    # pyoidc (blind 90): the commit's own stack-trace finding took the 110 characters and the redirect check made a prefix
    # match, after it, was cut to "…": the leader was told one finding of two. The riskiest target's reason keeps both
    # while the packet has room; past the budget it gives the room back first, before any other reason is cut.
    import msgspec

    from relay.core.contracts import Changes, FileChange, Packet, Status, Tests
    from relay.review.packet import PACKET_BUDGET_BYTES, fit_packet, review_target

    trace = "puts a stack trace into a message a caller reads: message = traceback.format_exception(*sys.exc_info())"
    prefix = "makes an exact match a prefix match: if _base != regbase: → if not _base.startswith(regbase):"
    change = FileChange(path="src/oic/oauth2/provider.py", kind="modified", additions=9, deletions=3, ranges=[(40, 52)],
                        risk="high", reasons=[trace, prefix], rules=["exposes_trace", "weakens_more"])
    top, usual = review_target(change, top=True), review_target(change)
    assert top.reason == f"{trace}; {prefix}", top.reason
    assert usual.reason.startswith(trace) and prefix not in usual.reason and len(usual.reason) <= 110, usual.reason

    def packet(summary: str) -> Packet:
        return fit_packet(Packet(ok=True, run_id="r", status=Status.SUCCESS, summary=summary,
                                 changes=Changes(count=1, files=[change.path], risk="high", review=[review_target(change, top=True)]),
                                 tests=Tests(source="none")))

    assert packet("done").changes.review[0].reason == top.reason
    full = packet("Moved the provider's checks. " * 64)  # a summary that takes the room: the top reason gives it back first
    assert len(msgspec.json.encode(full)) <= PACKET_BUDGET_BYTES
    assert full.changes.review[0].reason == usual.reason, full.changes.review[0].reason
