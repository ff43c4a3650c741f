"""`ref:blind`: answers from the code text and the call alone, never from ground truth.

The best cheap rule per kind (`core_bench.runs._blind`): coverage True, branch False, the next
non-blank line, the first argument for outputs, the type's default, ... The floor.
"""

from __future__ import annotations

import random

from core_bench.runs._agents import echo_answer, first_argument, formatted, register_agent
from core_bench.runs._blind import Seen, blind_answer
from core_bench.runs._tasks import Task


@register_agent
class Blind:
    """Reads the code and the call, never runs them (input tasks: echoes, as `ref:echo`)."""

    name = "blind"
    traced = False

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        """The blind rule's answer for the task's kind."""
        shown = f"[Return] {first_argument(task.call)}"
        if task.kind == "input":
            return echo_answer(task), shown
        seen = Seen(task.code, task.entry, task.call, task.probe)
        kind = task.probe.kind if task.probe is not None else "output"
        return formatted(task, blind_answer(kind, seen)), shown
