"""Everything about the worker, agy: where it is and which argv its version takes (command), the
allowlisted environment (env), the login probe (auth), one attempt spawned, streamed and stopped
(worker, stream, transcript), and the verdict of an attempt (classify: its table of
rules over outcome, read through agy_said, auth_reading, service_reading and turn_reading). Knows nothing of runs or MCP.
"""

__all__: list[str] = []
