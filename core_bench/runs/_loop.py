"""The request loop: cached responses replayed or regraded, the rest asked concurrently.

Each response is committed to the cache as it arrives, graded, and appended to samples.jsonl.
A request that fails after its retries becomes a failed sample; the run goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import core_bench.grading as grading
from core_bench.grading import grade_inputs
from core_bench.progress import Progress
from core_bench.runs._backend import Backend
from core_bench.runs._cache import Cached, ResponseCache
from core_bench.runs._client import Request
from core_bench.runs._config import RunConfig
from core_bench.runs._grader import InputGrader, full_text, grade_text, make_sample
from core_bench.runs._retry import RequestFailed
from core_bench.runs._rundir import SampleLog
from core_bench.schemas import Sample, Verdict
from tracer import SandboxPool

AGENT_WORKERS = 128
"""Tasks in flight for a reference agent (its only waits are sandboxed input grading)."""


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


class Loop:
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
        self._inputs: InputGrader | None = None

    def _input_grader(self) -> InputGrader:
        if self._inputs is None:
            self._inputs = InputGrader(self.pool(), self.exec_timeout)
        return self._inputs

    async def _grade(
        self, request: Request, text: str, truncated: bool
    ) -> tuple[str | None, Verdict, str]:
        task = request.task
        if task.kind != "input":
            return grade_text(task, text, self.config.float_tolerance, truncated)
        found = grading.extract_answer(
            text, task="input", call=f"{task.entry}(??)", truncated=truncated
        )
        verdict, reason = await self._input_grader().grade(task.code, found.answer, task.output)
        return found.answer, verdict, reason

    async def run(
        self, requests: Sequence[Request], found: dict[str, Cached], out: Path, progress: bool
    ) -> list[Sample]:
        api = self.backend.api
        samples: list[Sample] = []
        regrade: list[tuple[Request, Cached]] = []
        pending: list[Request] = []
        for request in requests:
            hit = found.get(request.key)
            if hit is None:
                pending.append(request)
            elif hit.verdict is None:
                regrade.append((request, hit))
            else:
                text = full_text(request.prompt, hit.text, hit.finish_reason, api)
                samples.append(
                    make_sample(
                        request,
                        text,
                        hit.answer,
                        hit.verdict,
                        hit.reason,
                        hit.finish_reason,
                        hit.usage,
                    )
                )
        self.cached = len(requests) - len(pending)
        try:
            samples.extend(await self.grade_cached(regrade))
            log = SampleLog(out / "samples.jsonl", samples, live=bool(pending))
            label = f"run {self.backend.spec}"
            bar: Progress | _Quiet = (
                Progress(label, total=len(requests), unit="sample") if progress else _Quiet()
            )
            with bar:
                bar.advance(len(samples))
                try:
                    await self._ask(pending, samples, log, bar)
                finally:
                    log.close()
            log.finish()
        finally:
            if self._inputs is not None:
                await self._inputs.aclose()
            self.cache.commit()
        samples.sort(key=lambda s: (s.task_id, s.sample_index))
        return samples

    async def grade_cached(self, items: Sequence[tuple[Request, Cached]]) -> list[Sample]:
        """Grade cached responses that this grader has not graded yet (in bulk)."""
        api = self.backend.api
        out: list[Sample] = []
        inputs: list[tuple[Request, str, str | None, Cached]] = []
        for request, hit in items:
            text = full_text(request.prompt, hit.text, hit.finish_reason, api)
            task = request.task
            cut = hit.finish_reason == "length"
            if task.kind == "input":
                found = grading.extract_answer(
                    text, task="input", call=f"{task.entry}(??)", truncated=cut
                )
                inputs.append((request, text, found.answer, hit))
                continue
            answer, verdict, reason = grade_text(task, text, self.config.float_tolerance, cut)
            self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
            out.append(
                make_sample(request, text, answer, verdict, reason, hit.finish_reason, hit.usage)
            )
        if inputs:
            graded = await asyncio.to_thread(
                grade_inputs,
                [(r.task.code, answer, r.task.output) for r, _, answer, _ in inputs],
                self.pool(),
                timeout_s=self.exec_timeout,
            )
            for (request, text, answer, hit), (verdict, reason) in zip(inputs, graded, strict=True):
                self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
                out.append(
                    make_sample(
                        request, text, answer, verdict, reason, hit.finish_reason, hit.usage
                    )
                )
        self.cache.commit()
        return out

    async def _ask(
        self,
        pending: Sequence[Request],
        samples: list[Sample],
        log: SampleLog,
        bar: Progress | _Quiet,
    ) -> None:
        if not pending:
            return
        backend = self.backend
        await backend.prepare(pending, self.pool, self.exec_timeout)
        # Tasks whose prompts are the same (input prediction on calls with equal outputs) make
        # one request and share its answer, so a resumed run gives them what a fresh one did.
        groups: dict[str, list[Request]] = {}
        for request in pending:
            groups.setdefault(request.key, []).append(request)
        todo = iter(groups.values())
        durable = backend.durable
        api = backend.api
        workers = self.config.concurrency if durable else AGENT_WORKERS
        since_commit = 0

        async def worker() -> None:
            nonlocal since_commit
            for group in todo:
                request = group[0]
                self.requested += 1
                try:
                    completion = await backend.complete(request)
                except RequestFailed as exc:
                    self.failed += len(group)
                    made = [make_sample(r, "", None, exc.verdict, str(exc)) for r in group]
                else:
                    self.cache.put(
                        request.key,
                        model=backend.spec,
                        prompt_hash=request.prompt.hash,
                        sample_index=request.sample_index,
                        text=completion.text,
                        finish_reason=completion.finish_reason,
                        meta=completion.meta,
                        commit=durable,
                        messages=request.prompt.messages if durable else None,
                    )
                    finish = completion.finish_reason
                    text = full_text(request.prompt, completion.text, finish, api)
                    answer, verdict, reason = await self._grade(request, text, finish == "length")
                    self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
                    usage = completion.meta.get("usage")
                    made = [
                        make_sample(r, text, answer, verdict, reason, finish, usage) for r in group
                    ]
                    since_commit += 1
                    if since_commit >= 2_000:
                        self.cache.commit()
                        since_commit = 0
                for sample in made:
                    samples.append(sample)
                    log.append(sample)
                bar.advance(len(made))
                bar.note(failed=self.failed, retries=backend.retries)

        async with asyncio.TaskGroup() as running:
            for _ in range(min(workers, len(groups))):
                running.create_task(worker())
