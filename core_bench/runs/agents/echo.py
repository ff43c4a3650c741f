"""`ref:echo`: repeats the input."""

from __future__ import annotations

import random

from core_bench.runs._agents import echo_answer, first_argument, register_agent
from core_bench.runs._tasks import Task


@register_agent
class Echo:
    """Output tasks get the first argument, input tasks the call with the output as its
    argument, probes the first argument too."""

    name = "echo"
    traced = False

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        """The first argument, whatever is asked."""
        return echo_answer(task), f"[Return] {first_argument(task.call)}"
