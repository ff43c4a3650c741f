"""Grading one response of a run: the text graded, the verdict, and the sample recorded."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from core_bench.grading import grade_inputs, grade_response
from core_bench.runs._client import Request
from core_bench.runs._prompts import STOP
from core_bench.runs._tasks import Task
from core_bench.schemas import Sample, Verdict
from tracer import SandboxPool


def full_text(primer: str, text: str, finish_reason: str | None, api: str) -> str:
    """The text graded for a response: a completion gets its prompt's primer
    (`Prompt.primer`) back in front, and the stop sequence that ended it back at the end."""
    if api != "completions":
        return text
    closing = STOP if finish_reason == "stop" and STOP not in text else ""
    return f"{primer}{text}{closing}"


class InputGrader:
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
        """Stop batching. A cancellation of the caller (Ctrl-C) still reaches it: awaiting
        the cancelled task under `suppress(CancelledError)` swallowed it, and a run
        interrupted as its request loop ended went on to finish with status 0."""
        self._task.cancel()
        await asyncio.wait([self._task])
        if not self._task.cancelled():
            self._task.result()  # the batching loop's own failure, raised as before


def make_sample(
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


def grade_text(
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
