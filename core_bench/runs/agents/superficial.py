"""`ref:superficial`: right outputs and inputs, wrong intermediate states."""

from __future__ import annotations

import random

from core_bench.runs._agents import perturb, register_agent, right_answer
from core_bench.runs._tasks import Task


@register_agent
class Superficial:
    """Every probe and full-trace answer is turned into a plausible wrong value of the same
    type; outputs and inputs stay right."""

    name = "superficial"
    traced = False

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        """The right output or input, or a wrong intermediate state."""
        keep = task.kind in ("output", "input")
        value = right_answer(task) if keep else perturb(task.expected, rng)
        return value, f"[Return] {task.output}"
