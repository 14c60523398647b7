"""Runs on disk and across processes: records and transcripts (store), what get_result answers
(results), one worker at a time per machine (coordinator), what a dead relay left (crashed; relay.call.recovery ends its runs), the
runs folder kept bounded (retention), a run undone from its patch (patches).
"""

__all__: list[str] = []
