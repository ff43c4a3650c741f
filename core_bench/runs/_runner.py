"""The run loop: tasks -> prompts -> cache or model -> grading -> run directory.

Cached responses are replayed first (graded from the cache when the same grader graded them
before); the rest go to the model concurrently, each response committed to the cache as it
arrives, graded, and appended to samples.jsonl. A request that fails after its retries becomes
a failed sample; the run goes on, and the next run of the same command asks it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import core_bench.grading as grading
from core_bench.build import Benchmark, load_benchmark
from core_bench.grading import grade_inputs, grade_response
from core_bench.progress import Progress
from core_bench.runs._agents import AGENTS, ReferenceAgent
from core_bench.runs._cache import Cached, ResponseCache, request_key
from core_bench.runs._client import (
    OPENAI_BASE_URL,
    Api,
    Completion,
    OpenAIBackend,
    Request,
    Sampling,
)
from core_bench.runs._prompts import STOP, render, stop_sequences
from core_bench.runs._retry import RequestFailed, RetryPolicy
from core_bench.runs._rundir import (
    RunManifest,
    benchmark_ref,
    git_commit,
    package_versions,
    read_samples,
    write_manifest,
    write_summary,
)
from core_bench.runs._samplefile import SampleWriter, read_graded
from core_bench.runs._summary import real_traces, summary_rows
from core_bench.runs._tasks import STRATEGIES, TASK_KINDS, Task, code_call_key, make_tasks
from core_bench.runs._usage import usage_summary
from core_bench.schemas import MetricRow, Sample, Strategy, TaskKind, Verdict
from core_bench.suites import Suite, select_suite
from tracer import SandboxPool, default_isolation

LOOKUP_CHUNK = 5_000
"""Requests whose cached responses are looked up together."""

AGENT_WORKERS = 128
"""Tasks in flight for a reference agent (its only waits are sandboxed input grading)."""


@dataclass(frozen=True, slots=True)
class RunConfig:
    """Everything a run is asked to do (the flags of `core-bench run`).

    Attributes:
        model: "openai:<name>" or "ref:<agent>".
        bench: the benchmark directory.
        out: the run directory.
        tasks: task kinds to ask.
        strategies: prompting strategies to use.
        limit: only the first N problems.
        samples: samples per task (for pass@k).
        sampling: temperature, max tokens, seed, top_p.
        api: "chat" or "completions" (base models).
        base_urls: replicas of the server (empty: `OPENAI_BASE_URL`, else OpenAI's).
        api_key: the key (empty: `OPENAI_API_KEY`); never written to disk.
        system_prompt: a system message put before every prompt, or None.
        concurrency: requests in flight at most.
        timeout_s: the limit of one request attempt.
        retries: retries of a request after its first attempt.
        backoff_s: the first retry's backoff (doubling per retry, jittered).
        stream: ask for streamed responses.
        stop: send stop sequences (see `_prompts.stop_sequences`).
        float_tolerance: tolerance of float comparisons in grading.
        cache: the cache file (default: `out/cache.sqlite`).
        suite: "quick", "standard" or "full" (`core_bench.suites`): the seeded subset of the
            benchmark to ask.
        suite_seed: the seed of the suite's selection.
    """

    model: str
    bench: Path
    out: Path
    tasks: tuple[TaskKind, ...] = TASK_KINDS
    strategies: tuple[Strategy, ...] = ("direct",)
    limit: int | None = None
    samples: int = 1
    sampling: Sampling = field(default_factory=Sampling)
    api: Api = "chat"
    base_urls: tuple[str, ...] = ()
    api_key: str = field(default="", repr=False)
    system_prompt: str | None = None
    concurrency: int = 16
    timeout_s: float = 120.0
    retries: int = 6
    backoff_s: float = 1.0
    stream: bool = False
    stop: bool = True
    float_tolerance: float = 0.0
    cache: Path | None = None
    suite: Suite = "full"
    suite_seed: int = 0

    def public(self) -> dict[str, Any]:
        """The config as JSON values, without the API key (for manifest.json)."""
        data = asdict(self)
        data.pop("api_key")
        for key in ("bench", "out", "cache"):
            data[key] = str(data[key]) if data[key] is not None else None
        data["tasks"], data["strategies"] = list(self.tasks), list(self.strategies)
        data["base_urls"] = list(self.base_urls)
        return data


@dataclass(slots=True, repr=False)
class RunResult:
    """What a run did.

    Attributes:
        out: the run directory.
        manifest: the manifest written.
        verdicts: how many samples got each verdict.
        metrics: the summary's rows.
        counts: tasks, samples, cached, requested, failed, retries.
        seconds: wall-clock time of the run.
    """

    out: Path
    manifest: RunManifest
    verdicts: dict[str, int]
    metrics: list[MetricRow]
    counts: dict[str, int]
    seconds: float

    @property
    def samples(self) -> list[Sample]:
        """Every sample, sorted by task id and sample index, read from samples.jsonl now (a
        run keeps none in memory; a later run into the same directory rewrites the file)."""
        return read_samples(self.out / "samples.jsonl")

    def __repr__(self) -> str:
        # asyncio formats the result of the run's task; the default repr of every sample
        # would cost as much as the rest of a replay.
        return f"RunResult(out={self.out!r}, counts={self.counts!r}, seconds={self.seconds:.3f})"


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


def parse_model(spec: str) -> tuple[str, str]:
    """Split a model spec into ("openai" | "ref", name).

    Raises:
        ValueError: the spec is neither `openai:<name>` nor `ref:<agent>` with a known agent.
    """
    kind, _, name = spec.partition(":")
    if kind == "openai" and name:
        return kind, name
    if kind == "ref" and name in AGENTS:
        return kind, name
    raise ValueError(
        f"bad model {spec!r}: expected openai:<name> or ref:<agent> with agent one of "
        + ", ".join(AGENTS)
    )


def resolve_endpoint(config: RunConfig) -> RunConfig:
    """Fill in base URLs and the key from `OPENAI_BASE_URL` / `OPENAI_API_KEY` when unset.

    Raises:
        ValueError: OpenAI's own API is used and no key is set.
    """
    if parse_model(config.model)[0] != "openai":
        return replace(config, base_urls=())
    urls = config.base_urls or (os.environ.get("OPENAI_BASE_URL") or OPENAI_BASE_URL,)
    urls = tuple(u.rstrip("/") for u in urls)
    key = config.api_key or os.environ.get("OPENAI_API_KEY", "")
    if not key:
        if any("api.openai.com" in u for u in urls):
            raise ValueError("OPENAI_API_KEY is not set (needed for api.openai.com)")
        key = "EMPTY"  # local servers (vLLM, llama.cpp) accept any key
    return replace(config, base_urls=urls, api_key=key)


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


def default_out(config: RunConfig, benchmark_sha256: str, root: Path = Path("runs")) -> Path:
    """A run directory that the same command always maps to: runs/<model>-<fingerprint>.

    The fingerprint covers what changes the samples (model, endpoint, benchmark, tasks,
    strategies, limit, sampling, API, system prompt), not how fast they are fetched.
    """
    keep = {
        k: v
        for k, v in config.public().items()
        if k in ("model", "tasks", "strategies", "limit", "samples", "sampling", "api")
        or k in ("base_urls", "system_prompt", "float_tolerance")
    }
    keep["bench"] = benchmark_sha256
    digest = hashlib.sha256(repr(sorted(keep.items())).encode()).hexdigest()[:10]
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", config.model).strip("-")
    return root / f"{slug}-{digest}"


def grader_fingerprint(config: RunConfig) -> str:
    """Identifies the grading code and options: cached grades are reused only under the same."""
    digest = hashlib.sha256()
    folder = Path(grading.__file__).parent
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(f"tol={config.float_tolerance}".encode())
    return digest.hexdigest()[:16]


def full_text(primer: str, text: str, finish_reason: str | None, api: str) -> str:
    """The text graded for a response: a completion gets its prompt's primer
    (`Prompt.primer`) back in front, and the stop sequence that ended it back at the end."""
    if api != "completions":
        return text
    closing = STOP if finish_reason == "stop" and STOP not in text else ""
    return f"{primer}{text}{closing}"


class _InputGrader:
    """Grades input predictions in the sandbox, batching those that arrive together."""

    def __init__(self, pool: SandboxPool, timeout_s: float) -> None:
        self._pool = pool
        self._timeout_s = timeout_s
        self._queue: list[tuple[tuple[str, str | None, str], asyncio.Future[Any]]] = []
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._loop())

    async def grade(self, code: str, call: str | None, expected: str) -> tuple[Verdict, str]:
        future: asyncio.Future[tuple[Verdict, str]] = asyncio.get_running_loop().create_future()
        self._queue.append(((code, call, expected), future))
        self._wake.set()
        return await future

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(0)  # let the answers that arrived together join the batch
            batch, self._queue = self._queue, []
            if not batch:
                continue
            items = [item for item, _ in batch]
            try:
                results = await asyncio.to_thread(
                    grade_inputs, items, self._pool, timeout_s=self._timeout_s
                )
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)

    async def aclose(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


def _sample(
    request: Request,
    response: str,
    answer: str | None,
    verdict: str,
    reason: str,
    finish_reason: str | None = None,
    usage: Mapping[str, Any] | None = None,
) -> Sample:
    task = request.task
    tokens = _tokens(usage)
    return Sample(
        task_id=task.id,
        task=task.kind,
        strategy=task.strategy,
        problem_id=task.problem_id,
        variant_id=task.variant_id,
        probe_id=task.probe_id,
        call_index=task.call_index,
        sample_index=request.sample_index,
        prompt_hash=request.prompt_hash,
        response=response,
        answer=answer,
        verdict=verdict,  # type: ignore[arg-type]
        reason=reason,
        finish_reason=finish_reason,
        truncated=_truncated(finish_reason, tokens[1], request.params.get("max_tokens")),
        prompt_tokens=tokens[0],
        completion_tokens=tokens[1],
    )


def _truncated(finish_reason: str | None, completion_tokens: int | None, limit: Any) -> bool:
    """Whether a response hit the token limit: the server says so ("length"), or, where it
    gave no reason (some streams), its completion is as long as the limit."""
    if finish_reason is not None:
        return finish_reason == "length"
    return isinstance(limit, int) and completion_tokens is not None and completion_tokens >= limit


def _tokens(usage: Mapping[str, Any] | None) -> tuple[int | None, int | None]:
    """(prompt, completion) tokens of a server's `usage`, where it gave them as integers."""
    if not usage:
        return None, None
    counts = [usage.get(k) for k in ("prompt_tokens", "completion_tokens")]
    prompt, completion = (
        c if isinstance(c, int) and not isinstance(c, bool) else None for c in counts
    )
    return prompt, completion


def _grade_text(
    task: Task, text: str, tolerance: float, truncated: bool = False
) -> tuple[str | None, Verdict, str]:
    try:
        return grade_response(
            text,
            task=task.kind,
            expected=task.expected,
            call=task.call,
            float_tolerance=tolerance,
            truncated=truncated,
        )
    except ValueError as exc:  # an expected answer the grader cannot read: a benchmark bug
        return None, "error", f"grading failed: {exc}"


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
    fingerprint and the cached responses of those requests (none looked up without
    `lookup`)."""
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


def run(
    config: RunConfig,
    *,
    benchmark: Benchmark | None = None,
    pool: SandboxPool | None = None,
    progress: bool = True,
    plots: bool | None = None,
    baselines: bool | None = None,
    report: bool = True,
) -> RunResult:
    """Run one model over a benchmark and write its run directory.

    Rerunning the same config resumes: cached responses are not requested again, and the run
    directory ends the same as an uninterrupted run's.

    Args:
        config: what to run (see `RunConfig`).
        benchmark: the benchmark, when already loaded (else read from `config.bench`).
        pool: the sandbox pool for grading input predictions (else one is made and closed).
        progress: show a progress bar (on a terminal).
        plots: draw the report's plots (False: tables only, much faster on small runs; None:
            `core_bench.report.write_report`'s default).
        baselines: run the report's reference agents (floor and ceiling) on the same tasks
            (None: `write_report`'s default).
        report: write the run's report at all (report.md, report.html, summary.csv).

    Raises:
        ValueError: a bad model spec, or no API key for OpenAI.
    """
    with _fewer_collections():
        result = asyncio.run(_run(config, benchmark, pool, progress))
    if not report:
        return result
    try:  # the report only views the run: failing to draw it must not fail the run
        from core_bench.report import write_report

        write_report([result.out], result.out, plots=plots, baselines=baselines)
    except Exception as exc:
        print(f"core-bench run: warning: report not written ({exc})", file=sys.stderr)
    return result


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Collect garbage less often while the run lasts: a run makes many small objects while
    a large benchmark is alive, and each young-generation collection walks them all (a
    quarter of a replay's time at the default threshold)."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 50_000), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


async def _run(
    config: RunConfig,
    benchmark: Benchmark | None,
    given_pool: SandboxPool | None,
    progress: bool,
) -> RunResult:
    started = time.perf_counter()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    config = resolve_endpoint(config)
    bench = benchmark if benchmark is not None else load_benchmark(config.bench)
    bench = select_suite(bench, config.suite, seed=config.suite_seed).benchmark
    out = config.out
    out.mkdir(parents=True, exist_ok=True)
    cache = ResponseCache(config.cache or out / "cache.sqlite")
    made: list[SandboxPool] = []

    def get_pool() -> SandboxPool:
        if given_pool is not None:
            return given_pool
        if not made:
            made.append(SandboxPool())
        return made[0]

    exec_timeout = float(bench.manifest.options.get("timeout_s", 5.0))
    backend = make_backend(config)
    try:
        tasks, requests, grader, _ = plan_requests(
            config, bench, backend, cache, get_pool, exec_timeout, lookup=False
        )  # the loop looks the cache up a chunk of requests at a time
        manifest = RunManifest(
            model=config.model,
            api=backend.api,
            base_urls=list(backend.base_urls),
            sampling={**asdict(config.sampling), "samples": config.samples},
            seed=config.sampling.seed,
            config=config.public(),
            benchmark=benchmark_ref(bench),
            package_versions=package_versions(),
            git_commit=git_commit(),
            started_at=started_at,
            isolation=given_pool.isolation if given_pool else default_isolation()[0],
        )
        write_manifest(out, manifest)
        loop = _Loop(config, backend, cache, grader, get_pool, exec_timeout)
        total = len(requests)
        try:
            verdicts = await loop.run(requests, out, progress)
        except BaseException:  # Ctrl-C, a cancelled task, a bug: never leave "running"
            write_manifest(out, _stopped(manifest, loop, len(tasks)))
            raise
        del requests  # answered: the samples are on disk
        traces = await asyncio.to_thread(real_traces, tasks, get_pool, exec_timeout)
        task_count = len(tasks)
        # What `summary_rows` reads of the tasks is the mutants' outputs: keep those only.
        tasks = [t for t in tasks if t.variant_kind == "mutant"]
    finally:
        await backend.aclose()
        cache.close()
        for made_pool in made:
            made_pool.close()
    graded = list(read_graded(out / "samples.jsonl"))  # the metrics read the samples back
    rows = summary_rows(graded, bench, config.model, tasks, traces)
    counts = {
        "tasks": task_count,
        "samples": total,
        "cached": loop.cached,
        "requested": loop.requested,
        "failed": loop.failed,
        "retries": backend.retries,
    }
    manifest = manifest.model_copy(
        update={
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "status": "incomplete" if loop.failed else "complete",
            "counts": counts,
            "usage": usage_summary(
                graded, seconds=time.perf_counter() - started, requested=loop.requested
            ),
        }
    )
    write_manifest(out, manifest)
    write_summary(out, manifest, rows)
    return RunResult(out, manifest, dict(verdicts), rows, counts, time.perf_counter() - started)


def _stopped(manifest: RunManifest, loop: _Loop, tasks: int) -> RunManifest:
    """The manifest of a run stopped before its end: what was done, and that it stopped."""
    counts = {
        "tasks": tasks,
        "cached": loop.cached,
        "requested": loop.requested,
        "failed": loop.failed,
    }
    return manifest.model_copy(
        update={
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "status": "interrupted",
            "counts": counts,
        }
    )


def _requests(tasks: Sequence[Task], backend: Backend, config: RunConfig) -> list[Request]:
    params = [backend.params(i) for i in range(config.samples)]
    by_strategy = {
        strategy: [{**p, "stop": stop_sequences(strategy)} if "stop" in p else p for p in params]
        for strategy in STRATEGIES
    }
    requests: list[Request] = []
    for task in tasks:
        prompt = render(task, system_prompt=config.system_prompt)
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
                Request(task, index, params[index], key, prompt.hash, config.system_prompt)
            )
    return requests


class _Quiet:
    """Stands in for `Progress` when no bar is wanted."""

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, **fields: object) -> None:
        pass

    def __enter__(self) -> _Quiet:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass


class _Loop:
    """One run's state while it goes on."""

    def __init__(
        self,
        config: RunConfig,
        backend: Backend,
        cache: ResponseCache,
        grader: str,
        pool: Callable[[], SandboxPool],
        exec_timeout: float,
    ) -> None:
        self.config = config
        self.backend = backend
        self.cache = cache
        self.grader = grader
        self.pool = pool
        self.exec_timeout = exec_timeout
        self.cached = 0
        self.requested = 0
        self.failed = 0
        self._inputs: _InputGrader | None = None

    def _input_grader(self) -> _InputGrader:
        if self._inputs is None:
            self._inputs = _InputGrader(self.pool(), self.exec_timeout)
        return self._inputs

    async def _grade(
        self, request: Request, text: str, truncated: bool
    ) -> tuple[str | None, Verdict, str]:
        task = request.task
        if task.kind != "input":
            return _grade_text(task, text, self.config.float_tolerance, truncated)
        found = grading.extract_answer(
            text, task="input", call=f"{task.entry}(??)", truncated=truncated
        )
        verdict, reason = await self._input_grader().grade(task.code, found.answer, task.output)
        return found.answer, verdict, reason

    async def run(self, requests: Sequence[Request], out: Path, progress: bool) -> Counter[str]:
        """Make a sample of every request (`requests` in sorted order) and write them to
        out/samples.jsonl as they are graded; return the count of each verdict."""
        api = self.backend.api
        writer = SampleWriter(out / "samples.jsonl", len(requests))
        regrade: list[tuple[int, Request, Cached]] = []
        pending: list[int] = []  # the orders (places in `requests`) of those to ask
        found: dict[str, Cached] = {}
        try:
            for order, request in enumerate(requests):
                if order % LOOKUP_CHUNK == 0:  # not all at once: a replay's are most of its memory
                    chunk = requests[order : order + LOOKUP_CHUNK]
                    found = self.cache.lookup((r.key for r in chunk), self.grader)
                hit = found.get(request.key)
                if hit is None:
                    pending.append(order)
                elif hit.verdict is None:
                    regrade.append((order, request, hit))
                else:
                    text = full_text(request.primer, hit.text, hit.finish_reason, api)
                    writer.append(
                        order,
                        _sample(
                            request,
                            text,
                            hit.answer,
                            hit.verdict,
                            hit.reason,
                            hit.finish_reason,
                            hit.usage,
                        ),
                    )
            del found
            self.cached = len(requests) - len(pending)
            await self._regrade_into(regrade, writer.append)
            del regrade
            if pending:  # samples.jsonl shows the cached samples, then each one as it comes
                writer.publish()
            label = f"run {self.backend.spec}"
            bar: Progress | _Quiet = (
                Progress(label, total=len(requests), unit="sample") if progress else _Quiet()
            )
            with bar:
                bar.advance(self.cached)
                await self._ask(requests, pending, writer, bar)
            writer.finish()
        finally:
            writer.close()
            if self._inputs is not None:
                await self._inputs.aclose()
            self.cache.commit()
        return writer.verdicts

    async def _regrade(self, items: Sequence[tuple[Request, Cached]]) -> list[Sample]:
        """Grade cached responses that this grader has not graded yet (in bulk)."""
        out: list[Sample] = []
        numbered = [(i, request, hit) for i, (request, hit) in enumerate(items)]
        await self._regrade_into(numbered, lambda _, sample: out.append(sample))
        return out

    async def _regrade_into(
        self,
        items: Sequence[tuple[int, Request, Cached]],
        emit: Callable[[int, Sample], None],
    ) -> None:
        """Grade cached responses that this grader has not graded yet (in bulk), giving each
        sample to `emit` with its item's number."""
        api = self.backend.api
        inputs: list[tuple[int, Request, str, str | None, Cached]] = []
        for order, request, hit in items:
            text = full_text(request.primer, hit.text, hit.finish_reason, api)
            task = request.task
            cut = hit.finish_reason == "length"
            if task.kind == "input":
                found = grading.extract_answer(
                    text, task="input", call=f"{task.entry}(??)", truncated=cut
                )
                inputs.append((order, request, text, found.answer, hit))
                continue
            answer, verdict, reason = _grade_text(task, text, self.config.float_tolerance, cut)
            self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
            emit(
                order,
                _sample(request, text, answer, verdict, reason, hit.finish_reason, hit.usage),
            )
        if inputs:
            graded = await asyncio.to_thread(
                grade_inputs,
                [(r.task.code, answer, r.task.output) for _, r, _, answer, _ in inputs],
                self.pool(),
                timeout_s=self.exec_timeout,
            )
            for (order, request, text, answer, hit), (verdict, reason) in zip(
                inputs, graded, strict=True
            ):
                self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
                emit(
                    order,
                    _sample(request, text, answer, verdict, reason, hit.finish_reason, hit.usage),
                )
        self.cache.commit()

    async def _ask(
        self,
        requests: Sequence[Request],
        pending: Sequence[int],
        writer: SampleWriter,
        bar: Progress | _Quiet,
    ) -> None:
        if not pending:
            return
        backend = self.backend
        prepare = getattr(backend, "prepare", None)
        if prepare is not None:
            await prepare([requests[i] for i in pending], self.pool(), self.exec_timeout)
        # Tasks whose prompts are the same (input prediction on calls with equal outputs) make
        # one request and share its answer, so a resumed run gives them what a fresh one did.
        # (Orders, not requests, in these tables: a large run has a hundred thousand.)
        first: dict[str, int] = {}  # key -> the first request with it
        more: dict[int, list[int]] = {}  # that request -> the later ones with its key
        for order in pending:
            lead = first.setdefault(requests[order].key, order)
            if lead != order:
                more.setdefault(lead, []).append(order)
        todo = iter(first.values())
        durable = backend.durable
        api = backend.api
        workers = self.config.concurrency if durable else AGENT_WORKERS
        since_commit = 0

        async def worker() -> None:
            nonlocal since_commit
            for lead in todo:
                group = [lead, *more.get(lead, ())]
                request = requests[lead]
                self.requested += 1
                try:
                    completion = await backend.complete(request)
                except RequestFailed as exc:
                    self.failed += len(group)
                    made = [
                        (i, _sample(requests[i], "", None, exc.verdict, str(exc))) for i in group
                    ]
                else:
                    self.cache.put(
                        request.key,
                        model=backend.spec,
                        prompt_hash=request.prompt_hash,
                        sample_index=request.sample_index,
                        text=completion.text,
                        finish_reason=completion.finish_reason,
                        meta=completion.meta,
                        commit=durable,
                        messages=request.prompt.messages if durable else None,
                    )
                    finish = completion.finish_reason
                    text = full_text(request.primer, completion.text, finish, api)
                    answer, verdict, reason = await self._grade(request, text, finish == "length")
                    self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
                    usage = completion.meta.get("usage")
                    made = [
                        (i, _sample(requests[i], text, answer, verdict, reason, finish, usage))
                        for i in group
                    ]
                    since_commit += 1
                    if since_commit >= 2_000:
                        self.cache.commit()
                        since_commit = 0
                for order, sample in made:
                    writer.append(order, sample)
                bar.advance(len(made))
                bar.note(failed=self.failed, retries=backend.retries)

        async with asyncio.TaskGroup() as running:
            for _ in range(min(workers, len(first))):
                running.create_task(worker())


__all__ = [
    "STRATEGIES",
    "TASK_KINDS",
    "Backend",
    "RunConfig",
    "RunResult",
    "default_out",
    "make_backend",
    "parse_model",
    "resolve_endpoint",
    "run",
]
