"""One call, top to bottom: resolved once (intake, with policy turning the profile into a plan), then the
steps of DESIGN.md's path in order (orchestrate: record, auth, queue, snapshot, worker with its retry guard
in attempts, observe, enforce, verify, review), and ended once (finish: the record's outcome and the packet).
"""

__all__: list[str] = []
