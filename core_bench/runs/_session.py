"""A session: what `run` and `regrade` share, so both plan the same requests from a config.

The backend, the response cache, the sandbox pool (made when first needed), the tasks, their
requests, the grader's fingerprint and the cached responses of those requests; the session
closes what it opened.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from types import TracebackType

from core_bench.benchmark import Benchmark
from core_bench.runs._backend import Backend, make_backend
from core_bench.runs._cache import Cached, ResponseCache, request_key
from core_bench.runs._client import Request
from core_bench.runs._config import RunConfig, grader_fingerprint
from core_bench.runs._loop import Loop
from core_bench.runs._prompts import render, stop_sequences
from core_bench.runs._summary import Traces, real_traces
from core_bench.runs._tasks import STRATEGIES, Task, code_call_key, make_tasks
from tracer import SandboxPool


def _mutant_outputs(
    cache: ResponseCache, pool: Callable[[], SandboxPool], timeout_s: float
) -> Callable[[Sequence[tuple[str, Sequence[str]]]], list[list[str | None]]]:
    def find(jobs: Sequence[tuple[str, Sequence[str]]]) -> list[list[str | None]]:
        keys = [[code_call_key(code, call) for call in calls] for code, calls in jobs]
        known = cache.outputs(k for row in keys for k in row)
        todo = [
            (i, code, [c for c, k in zip(calls, keys[i], strict=True) if k not in known])
            for i, (code, calls) in enumerate(jobs)
        ]
        todo = [t for t in todo if t[2]]
        if todo:
            outcomes = pool().map([(code, calls) for _, code, calls in todo], timeout_s=timeout_s)
            fresh: dict[str, str | None] = {}
            for (_, code, calls), batch in zip(todo, outcomes, strict=True):
                for call, outcome in zip(calls, batch, strict=True):
                    ok = outcome.status == "ok" and outcome.result_literal
                    fresh[code_call_key(code, call)] = outcome.result if ok else None
            cache.put_outputs(fresh)
            known.update(fresh)
        return [[known[k] for k in row] for row in keys]

    return find


def plan_requests(
    config: RunConfig,
    benchmark: Benchmark,
    backend: Backend,
    cache: ResponseCache,
    pool: Callable[[], SandboxPool],
    exec_timeout: float,
    *,
    lookup: bool = True,
) -> tuple[list[Task], list[Request], str, dict[str, Cached]]:
    """What a run (or a regrade) of `config` asks: its tasks, their requests, the grader's
    fingerprint and the cached responses of those requests (none looked up without `lookup`:
    a run's loop looks them up a chunk of requests at a time)."""
    tasks = make_tasks(
        benchmark,
        kinds=config.tasks,
        strategies=config.strategies,
        limit=config.limit,
        mutant_outputs=_mutant_outputs(cache, pool, exec_timeout),
    )
    requests = _requests(tasks, backend, config)
    grader = grader_fingerprint(config)
    found = cache.lookup((r.key for r in requests), grader) if lookup else {}
    return tasks, requests, grader, found


def _requests(tasks: Sequence[Task], backend: Backend, config: RunConfig) -> list[Request]:
    params = [backend.params(i) for i in range(config.samples)]
    by_strategy = {
        strategy: [{**p, "stop": stop_sequences(strategy)} if "stop" in p else p for p in params]
        for strategy in STRATEGIES
    }
    requests: list[Request] = []
    for task in tasks:
        prompt = render(task, system_prompt=config.endpoint.system_prompt)
        sent = prompt.hash if backend.api == "chat" else prompt.text_hash
        params = by_strategy[task.strategy]
        for index in range(config.samples):
            key = request_key(
                model=backend.spec,
                base_urls=backend.base_urls,
                api=backend.api,
                prompt_sha256=sent,
                params=params[index],
                sample_index=index,
                task=backend.task_key(task),
            )
            requests.append(
                Request(task, index, params[index], key, prompt.hash, config.endpoint.system_prompt)
            )
    return requests


class Session:
    """One run's (or regrade's) backend, cache, sandbox pool and planned requests.

    Use as `async with Session(config, benchmark, pool) as session:`; entering plans the
    requests (`plan_requests`), leaving closes the backend, the cache and a pool it made.

    Args:
        config: the run's config (endpoint resolved).
        benchmark: the benchmark (its suite already selected).
        pool: the sandbox pool to use (else one is made when first needed, and closed).
        lookup: look the requests' cached responses up when entering (`found`); a run's
            loop looks them up itself, a chunk at a time.
    """

    def __init__(
        self,
        config: RunConfig,
        benchmark: Benchmark,
        pool: SandboxPool | None = None,
        *,
        lookup: bool = True,
    ) -> None:
        self.config = config
        self._lookup = lookup
        self.benchmark = benchmark
        self.exec_timeout = float(benchmark.manifest.options.get("timeout_s", 5.0))
        self.backend = make_backend(config)
        self.cache = ResponseCache(config.cache or config.out / "cache.sqlite")
        self._given = pool
        self._made: SandboxPool | None = None
        self.tasks: list[Task] = []
        self.requests: list[Request] = []
        self.grader = ""
        self.found: dict[str, Cached] = {}

    def pool(self) -> SandboxPool:
        """The sandbox pool (made on first use when none was given)."""
        if self._given is not None:
            return self._given
        if self._made is None:
            self._made = SandboxPool()
        return self._made

    def loop(self) -> Loop:
        """A request loop over this session's backend, cache and grader."""
        return Loop(
            self.config, self.backend, self.cache, self.grader, self.pool, self.exec_timeout
        )

    async def traces(self) -> Traces:
        """The real traces the `trace` strategy's samples are scored against."""
        return await asyncio.to_thread(real_traces, self.tasks, self.pool, self.exec_timeout)

    async def __aenter__(self) -> Session:
        try:
            self.tasks, self.requests, self.grader, self.found = plan_requests(
                self.config,
                self.benchmark,
                self.backend,
                self.cache,
                self.pool,
                self.exec_timeout,
                lookup=self._lookup,
            )
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the backend, the cache and the pool this session made."""
        try:
            await self.backend.aclose()
        finally:
            self.cache.close()
            if self._made is not None:
                self._made.close()
