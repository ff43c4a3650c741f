"""`ref:style-biased`: recognises the code's shape, not what it does."""

from __future__ import annotations

import random

from core_bench.runs._agents import (
    STYLE_BIAS_ERROR_RATE,
    formatted,
    perturb,
    register_agent,
    right_answer,
    wrong_call,
)
from core_bench.runs._tasks import Task


@register_agent
class StyleBiased:
    """Right on originals; on equivalent variants wrong half the time (a coin per task and
    sample); on mutants it answers what the original returns."""

    name = "style-biased"
    traced = True

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        """Right, the original's answer, or a plausible wrong one, by the task's variant."""
        right = right_answer(task)
        if task.variant_kind == "original":
            return right, trace
        if task.variant_kind == "mutant" and task.kind == "output":
            value = task.original_output
            return formatted(task, value), f"[Return] {value}"
        if rng.random() >= STYLE_BIAS_ERROR_RATE:
            return right, trace
        if task.kind == "input":
            return wrong_call(task, rng), f"[Return] {task.output}"
        wrong = perturb(task.expected, rng)
        shown = formatted(task, wrong)
        return shown, f"[Return] {wrong if task.kind == 'output' else task.output}"
