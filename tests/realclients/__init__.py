"""Harness for the opt-in tests that drive the real MCP clients (Codex, Claude Code, Gemini CLI).

install.py      installs a pinned client from npm into a cache dir, reused between runs
fakemodel.py    the loopback HTTP server every fake model API shares (bounded, self-stopping, recording)
dialogue.py     what the fake model does: call execute, then continue, then answer in text
openai_api.py   Codex's wire: the OpenAI Responses API (SSE)
anthropic_api.py Claude Code's wire: the Anthropic Messages API (SSE)
gemini_api.py   Gemini CLI's wire: the Gemini API (streamGenerateContent SSE)
home.py         a fresh HOME configured only by `gravity-relay setup`, the relay's env, running a client
"""
