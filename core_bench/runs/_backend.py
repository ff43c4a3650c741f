"""Backends: what answers a run's requests (an OpenAI-compatible server or a reference agent)."""

from __future__ import annotations

from typing import Any, Protocol

from core_bench.runs._agents import ReferenceAgent
from core_bench.runs._client import Completion, OpenAIBackend, Request
from core_bench.runs._config import RunConfig, parse_model
from core_bench.runs._retry import RetryPolicy
from core_bench.runs._tasks import Task


class Backend(Protocol):
    """What answers requests: an OpenAI-compatible server or a reference agent."""

    spec: str
    api: str
    base_urls: tuple[str, ...]
    durable: bool
    retries: int

    def params(self, sample_index: int) -> dict[str, Any]: ...

    def task_key(self, task: Task) -> str | None: ...

    async def complete(self, request: Request) -> Completion: ...

    async def aclose(self) -> None: ...


def make_backend(config: RunConfig) -> Backend:
    """The backend of `config.model` (call `resolve_endpoint` first for OpenAI models)."""
    kind, name = parse_model(config.model)
    if kind == "ref":
        return ReferenceAgent(name, seed=config.sampling.seed)
    return OpenAIBackend(
        name,
        config.base_urls,
        api_key=config.api_key,
        api=config.api,
        sampling=config.sampling,
        timeout_s=config.timeout_s,
        policy=RetryPolicy(retries=config.retries, base_s=config.backoff_s),
        concurrency=config.concurrency,
        stream=config.stream,
        stop=config.stop,
    )


__all__ = ["Backend", "make_backend"]
