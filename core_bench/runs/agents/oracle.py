"""`ref:oracle`: always right (input tasks: the problem's own call, which gives that output)."""

from __future__ import annotations

import random

from core_bench.runs._agents import register_agent, right_answer
from core_bench.runs._tasks import Task


@register_agent
class Oracle:
    """Right on every task; its traces are the calls' real traces. The ceiling."""

    name = "oracle"
    traced = True

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        """The right answer and the real trace."""
        return right_answer(task), trace
