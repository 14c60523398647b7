"""The last checks before agy starts, in the worker slot, on the folder the worker will really use (a worktree
run's own worktree): what is known then about the run settles it before any launch.

- The profile's effort, against the efforts its agy version takes, and its model and effort, against what
  `agy models` listed (``relay.agy.models``, agy-protocol.md §7.4, §8.1).
- The agy configuration the workspace carries (``relay.agy.workspace_config``, §8.4): MCP servers and hooks are
  programs agy starts, with no trust gate in print mode, before any tool permission applies. A run that is not
  trusted is refused while they are there, unless its profile allows them (``allow_workspace_agy_config``).
  A trusted run auto-approves every tool anyway: it goes on, the packet names them. Rules files never stop a run.
"""

from __future__ import annotations

from relay.agy.models import effort_refusal, model_refusal
from relay.agy.workspace_config import find_agy_config
from relay.call.policy import RunPlan
from relay.core.contracts import Status
from relay.core.errors import RelayError

__all__ = ["check_before_launch", "AGY_CONFIG_HINT"]

AGY_CONFIG_HINT = (
    "Read those files: each can start a program of the repository's choosing. If you trust them, use a profile "
    "with \"allow_workspace_agy_config\": true (set by the relay's owner) or a trusted profile; otherwise remove "
    "them, or run on a checkout without them. Rules files alone (AGENTS.md, GEMINI.md, .agents/rules) do not stop a "
    "run."
)


def _names(paths: list[str], shown: int = 4) -> str:
    more = len(paths) - shown
    return ", ".join(paths[:shown]) + (f" and {more} more" if more > 0 else "")


def check_before_launch(plan: RunPlan, *, models: list[str] | None, version: tuple[int, int, int] | None) -> list[str]:
    """Raise the refusal when the run cannot go; return the packet's notes about what agy will load."""
    refusal = effort_refusal(plan.effort, version) or model_refusal(plan.model, plan.effort, models, version)
    if refusal is not None:
        raise refusal
    config = find_agy_config(plan.workspace)
    notes: list[str] = []
    if config.programs:
        if not plan.skip_permissions and not plan.allow_workspace_agy_config:
            raise RelayError(
                Status.CONFLICTING_OPTIONS,
                f"a safe run cannot start here: the workspace carries agy configuration that starts programs "
                f"({_names(config.programs)}); agy 1.3+ loads these MCP servers and hooks in print mode too, with no "
                "trust gate, before any tool permission applies. Nothing was launched",
                AGY_CONFIG_HINT)
        why = "allowed by the profile" if plan.allow_workspace_agy_config else "a trusted run"
        notes.append(f"agy loaded the workspace's own MCP servers/hooks ({why}): {_names(config.programs, 3)}")
    if config.rules:
        notes.append(f"agy reads the workspace's rules into the worker's instructions: {_names(config.rules, 3)}")
    return notes
