"""Whether a generated path's change is shaped as a tool's output — the worker names its own files.

A file under ``gen/`` or ``dist/`` or named ``*.generated.*`` is not read line by line when it is output a tool wrote
(``relay.review.facts.FileFacts.generated_output``); a file of hand's size there is read as code
(``relay.review.unread_lines`` says why).
"""

from __future__ import annotations

from relay.core.contracts import FileChange
from relay.observe.kept_lines import UNREAD_MARK
from relay.review.file_kinds import glob_any
from relay.review.path_kinds import OUTPUT_HEAD_RE, output_by_folder_name

__all__ = ["hand_written", "machine_made", "not_run"]

# A hand writes a file of this size at once, in lines of this length; a tool's output is larger or wider.
_HAND_LINES = 150
_HAND_CHARS = 300
_NOT_RUN = ("*.snap", "*.map", "**/__snapshots__/**", "__snapshots__/**", "**/tap-snapshots/**", "tap-snapshots/**")


def not_run(path: str) -> bool:
    """Generated files that never run: test snapshots, source maps."""
    return glob_any(path, _NOT_RUN)


def machine_made(change: FileChange) -> bool:
    """A generated path's change shaped as a tool's output: binary, more added lines than a hand writes at once, or a
    line no hand writes (minified: long, or kept with its middle unread)."""
    return (change.binary or change.additions > _HAND_LINES
            or any(len(line) > _HAND_CHARS or UNREAD_MARK in line for line in change.added_lines))


def hand_written(change: FileChange) -> bool:
    """Code under a folder named for output (``gen/``) whose change a hand wrote: of hand's size, no generator's head
    among its lines. It is read and ranked as the project's source (round 123: held-out 581's ogen, the generator's own
    ``gen/write.go`` — its test-skip check inverted, ``!= nil &&`` → ``== nil ||`` — ranked as output and left low)."""
    return (output_by_folder_name(change.path) and not machine_made(change)
            and not any(OUTPUT_HEAD_RE.search(line) for line in (*change.added_lines, *change.removed_lines)))