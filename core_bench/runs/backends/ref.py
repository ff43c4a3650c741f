"""`ref:<agent>`: a reference agent (`core_bench.runs.AGENTS`) answers, no model is asked."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from core_bench.runs._agents import AGENTS, ReferenceAgent
from core_bench.runs._backend import Backend, register_backend

if TYPE_CHECKING:
    from core_bench.runs._config import RunConfig


@register_backend
class Reference:
    """Reference agents: programs with known behaviour, answering from the ground truth."""

    scheme = "ref"

    @property
    def usage(self) -> str:
        """The spec's form, with the agents' names."""
        return f"ref:<agent> with agent one of {', '.join(AGENTS)}"

    def accepts(self, name: str) -> bool:
        """A registered agent's name."""
        return name in AGENTS

    def resolve(self, config: RunConfig) -> RunConfig:
        """No endpoint: an agent runs here."""
        return replace(config, endpoint=replace(config.endpoint, base_urls=()))

    def make(self, name: str, config: RunConfig) -> Backend:
        """The agent, seeded with the run's seed."""
        return ReferenceAgent(name, seed=config.sampling.seed)
