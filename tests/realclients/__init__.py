"""Harness for the opt-in tests that drive the real MCP clients (Codex, Claude Code, Gemini CLI).

install.py        installs a pinned client from npm into a cache dir outside the repo, reused between runs
fakemodel.py      the loopback HTTP server every fake model API shares (bounded, self-stopping, recording)
dialogue.py       what the fake model does: call execute, then continue with its run_id, then answer in text
openai_api.py     Codex's wire: the OpenAI Responses API (SSE; MCP tools as a namespace)
anthropic_api.py  Claude Code's wire: the Anthropic Messages API (SSE; MCP tools loaded with ToolSearch)
gemini_api.py     Gemini CLI's wire: the Gemini API (streamGenerateContent SSE)
clients.py        per client: its own model settings and its headless command line
home.py           a fresh HOME with the relay's env exported, `gravity-relay setup`, running a client
session.py        one headless delegation end to end, and what it left behind
figures.py        the bytes each client handed its model, printed at the end (conftest.py)
terminal.py       a tmux pane on a private server: keys in, screen out, waits that poll the screen
wiretap.py        a `gravity-relay` in front of the relay that logs the stdio wire, each way
interactive.py    Claude Code's or Codex's TUI in that pane, first-run screens answered, the wire tapped
"""
