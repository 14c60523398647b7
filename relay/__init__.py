"""Gravity Relay: delegate implementation to the Antigravity CLI, get back a compact review packet.

The parts, lowest first (a part imports only from parts below it; tests/test_layout.py checks it):

    core     contracts, errors, settings, schemas, processes, atomic files, redaction
    agy      the worker: argv, env, login probe, one attempt, its verdict
    observe  what changed: git, snapshot, change set, file kinds
    isolate  the worker in a pooled git worktree, its change on a branch, the three-way apply
    review   risk ranking, the packet, verification
    runs     records, results, the one-worker queue, a dead relay's leftovers, retention, idempotency keys
    call     policy, the path of one call (orchestrate), its ending (judge, finish, recovery)
    setup    client registration
    demo     the relay end to end without agy
    doors    the MCP server and the command line
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
