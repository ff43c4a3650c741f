"""Backends: what answers a run's requests, registered by the model spec's scheme.

`openai:<name>` is an OpenAI-compatible server, `ref:<agent>` a reference agent. Each scheme is
one module of `core_bench.runs.backends` that registers a `BackendKind` (how to check a name,
fill in the endpoint, and make the backend); `BACKENDS` imports every module there when first
read, so a new backend is one new module in that package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from core_bench.runs._client import Completion, Request
from core_bench.runs._registry import Registry
from core_bench.runs._tasks import Task
from tracer import SandboxPool

if TYPE_CHECKING:
    from core_bench.runs._config import RunConfig


class Backend(Protocol):
    """What answers requests: an OpenAI-compatible server or a reference agent.

    Attributes:
        spec: the model spec ("openai:<name>", "ref:<agent>").
        api: "chat" or "completions" (how prompts are sent, part of each cache key).
        base_urls: the servers asked (empty for local backends).
        durable: responses are costly: commit each to the cache as it arrives.
        retries: requests retried so far.
    """

    spec: str
    api: str
    base_urls: tuple[str, ...]
    durable: bool
    retries: int

    def params(self, sample_index: int) -> dict[str, Any]:
        """What a sample's answer depends on besides the prompt (part of its cache key)."""
        ...

    def task_key(self, task: Task) -> str | None:
        """What else of the task its answer depends on (part of the cache key), or None."""
        ...

    async def prepare(
        self, requests: Sequence[Request], pool: Callable[[], SandboxPool], timeout_s: float
    ) -> None:
        """Get ready to answer `requests` (`pool()` makes the sandbox pool when needed)."""
        ...

    async def complete(self, request: Request) -> Completion:
        """The answer to one request (raises `RequestFailed` after its retries)."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


class BackendKind(Protocol):
    """One scheme of model specs (`<scheme>:<name>`) and how to make its backends.

    Attributes:
        scheme: the spec's prefix ("openai", "ref").
        usage: the spec's form for error messages ("openai:<name>").
    """

    @property
    def scheme(self) -> str: ...

    @property
    def usage(self) -> str: ...

    def accepts(self, name: str) -> bool:
        """Whether `<scheme>:<name>` names a backend of this kind."""
        ...

    def resolve(self, config: RunConfig) -> RunConfig:
        """`config` with its endpoint filled in (base URLs, key) from the environment.

        Raises:
            ValueError: the endpoint cannot be used (e.g. no key where one is needed).
        """
        ...

    def make(self, name: str, config: RunConfig) -> Backend:
        """The backend answering `config`'s requests (after `resolve`)."""
        ...


BACKENDS: Registry[BackendKind] = Registry(
    "backend", "core_bench.runs.backends", lambda k: k.scheme
)
"""The backend kinds by scheme; each module of `core_bench.runs.backends` adds one."""


def register_backend(cls: type[BackendKind]) -> type[BackendKind]:
    """Class decorator: register an instance of `cls` in `BACKENDS` under its `scheme`."""
    BACKENDS.register(cls())
    return cls


def backend_kind(spec: str) -> tuple[BackendKind, str]:
    """The kind of backend a model spec names, and the name after its scheme.

    Raises:
        ValueError: no registered scheme accepts the spec.
    """
    scheme, _, name = spec.partition(":")
    kind = BACKENDS.get(scheme)
    if kind is not None and kind.accepts(name):
        return kind, name
    expected = " or ".join(k.usage for k in BACKENDS.values())
    raise ValueError(f"bad model {spec!r}: expected {expected}")


def make_backend(config: RunConfig) -> Backend:
    """The backend of `config.model` (call `resolve_endpoint` first for OpenAI models)."""
    kind, name = backend_kind(config.model)
    return kind.make(name, config)


__all__ = ["BACKENDS", "Backend", "BackendKind", "backend_kind", "make_backend", "register_backend"]
