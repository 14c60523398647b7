"""The two doors, one answer: the MCP server (mcp_server) and the command line (cli, cli_runs) call the
same functions; the leader's guide (instructions, resources, prompts), doctor and its write probe.
"""

__all__: list[str] = []
