"""The request loop: cached responses replayed or regraded, the rest asked concurrently.

Each response is committed to the cache as it arrives, graded, and appended to samples.jsonl.
A request that fails after its retries becomes a failed sample; the run goes on.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
from core_bench.runs._samplefile import SampleWriter
from core_bench.schemas import Sample, Verdict
from tracer import SandboxPool

LOOKUP_CHUNK = 5_000
"""Requests whose cached responses are looked up together."""

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


@dataclass(eq=False)
class Loop:
    """One run's state while it goes on."""

    config: RunConfig
    backend: Backend
    cache: ResponseCache
    grader: str
    pool: Callable[[], SandboxPool]
    exec_timeout: float
    cached: int = field(default=0, init=False)
    requested: int = field(default=0, init=False)
    failed: int = field(default=0, init=False)
    _inputs: InputGrader | None = field(default=None, init=False)

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

    async def run(self, requests: Sequence[Request], out: Path, progress: bool) -> Counter[str]:
        """Make a sample of every request (`requests` in sorted order) and write them to
        out/samples.jsonl as they are graded; return the count of each verdict.

        No sample stays in memory: the writer keeps each line's place, and the file is put in
        order at the end. Cached responses are looked up `LOOKUP_CHUNK` requests at a time.
        """
        api = self.backend.api
        writer = SampleWriter(out / "samples.jsonl", len(requests))
        regrade: list[tuple[int, Request, Cached]] = []
        pending: list[int] = []  # the orders (places in `requests`) of those to ask
        found: dict[str, Cached] = {}
        try:
            for order, request in enumerate(requests):
                if order % LOOKUP_CHUNK == 0:  # not all at once: a replay's are most of its memory
                    # A Ctrl-C during the planning or a long replay reaches the run here (at
                    # its next await), before any request is sent.
                    await asyncio.sleep(0)
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
                        make_sample(
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
            await self._grade_cached_into(regrade, writer.append)
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
            self.cache.commit()  # before the await below, which a Ctrl-C may interrupt
            if self._inputs is not None:
                await self._inputs.aclose()
        return writer.verdicts

    async def grade_cached(self, items: Sequence[tuple[Request, Cached]]) -> list[Sample]:
        """Grade cached responses that this grader has not graded yet (in bulk)."""
        out: list[Sample] = []
        numbered = [(i, request, hit) for i, (request, hit) in enumerate(items)]
        await self._grade_cached_into(numbered, lambda _, sample: out.append(sample))
        return out

    async def _grade_cached_into(
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
            answer, verdict, reason = grade_text(task, text, self.config.float_tolerance, cut)
            self.cache.put_grade(request.key, self.grader, answer, verdict, reason)
            emit(
                order,
                make_sample(request, text, answer, verdict, reason, hit.finish_reason, hit.usage),
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
                    make_sample(
                        request, text, answer, verdict, reason, hit.finish_reason, hit.usage
                    ),
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
        await backend.prepare([requests[i] for i in pending], self.pool, self.exec_timeout)
        await asyncio.sleep(0)  # a Ctrl-C before here stops the run before any request is sent
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
        workers = self.config.endpoint.concurrency if durable else AGENT_WORKERS
        since_commit = 0

        async def worker() -> None:
            nonlocal since_commit
            this = asyncio.current_task()
            for lead in todo:
                if this is not None and this.cancelling():
                    # Cancelled (Ctrl-C), but a library lost the cancellation (as wait_for did
                    # on 3.11): stop now, not after the last request.
                    raise asyncio.CancelledError
                group = [lead, *more.get(lead, ())]
                request = requests[lead]
                self.requested += 1
                try:
                    completion = await backend.complete(request)
                except RequestFailed as exc:
                    self.failed += len(group)
                    made = [
                        (i, make_sample(requests[i], "", None, exc.verdict, str(exc)))
                        for i in group
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
                        (i, make_sample(requests[i], text, answer, verdict, reason, finish, usage))
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
