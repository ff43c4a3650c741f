"""core-bench's grader as an inspect_ai scorer (needs `pip install 'core-bench[inspect]'`).

Output, probe and full-trace answers are graded by `core_bench.grading.grade_response`, input
predictions by running them in core-bench's sandbox (`grade_inputs`), exactly as `core-bench
run` grades them. The score's value is CORRECT or INCORRECT; its metadata keeps core-bench's
own verdict (correct, wrong, unparseable, timeout, error) and the grader's reason.
"""

from __future__ import annotations

import threading
from typing import Any

import anyio
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from core_bench.grading import extract_answer, grade_inputs, grade_response
from tracer import SandboxPool

INPUT_TIMEOUT_S = 5.0
"""Wall-clock limit of running one predicted input."""

_pool: SandboxPool | None = None
_pool_lock = threading.Lock()


def _sandbox() -> SandboxPool:
    global _pool
    with _pool_lock:
        if _pool is None or _pool.closed:
            _pool = SandboxPool(workers=1)
        return _pool


def grade_sample(text: str, target: str, metadata: dict[str, Any], tolerance: float) -> Score:
    """Grade one completion as `core-bench run` would (blocking: input tasks run code)."""
    task = str(metadata["task"])
    if task == "input":
        found = extract_answer(text, task="input", call=f"{metadata['entry']}(??)")
        [(verdict, reason)] = grade_inputs(
            [(str(metadata["code"]), found.answer, target)], _sandbox(), timeout_s=INPUT_TIMEOUT_S
        )
        answer = found.answer
    else:
        answer, verdict, reason = grade_response(
            text,
            task=task,
            expected=target,
            call=str(metadata.get("call") or ""),
            float_tolerance=tolerance,
        )
    return Score(
        value=CORRECT if verdict == "correct" else INCORRECT,
        answer=answer,
        explanation=f"{verdict}: {reason}" if reason else verdict,
        metadata={"verdict": verdict, "reason": reason},
    )


@scorer(metrics=[accuracy(), stderr()])
def core_bench_scorer(float_tolerance: float = 0.0) -> Scorer:
    """core-bench's grader; `float_tolerance` as `core-bench run --float-tolerance`."""

    async def score(state: TaskState, target: Target) -> Score:
        return await anyio.to_thread.run_sync(
            grade_sample,
            state.output.completion,
            target.text,
            dict(state.metadata),
            float_tolerance,
        )

    return score
