"""What a run would send, counted before anything is sent (`core-bench run --dry-run`).

Prompt tokens are estimated by a documented rule, not a tokenizer (none ships with the project,
and tokenizers that download their vocabularies cannot run offline): a message costs
`ceil(characters / 4) + 4` tokens (OpenAI's rule of thumb for English and code, plus the chat
format's few tokens per message); a completions-API prompt costs `ceil(characters / 4)`. It
is rough, but enough to tell a 10-dollar run from a 1,000-dollar one. Completion tokens are
bounded by `--max-tokens`
for every request (the model may stop earlier; it cannot run longer).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core_bench.runs._prompts import render
from core_bench.runs._tasks import Task

CHARS_PER_TOKEN = 4
"""The estimate's characters per token."""

TOKENS_PER_MESSAGE = 4
"""The chat format's overhead per message."""


@dataclass(frozen=True, slots=True)
class PlanRow:
    """The requests of one (task kind, strategy) of a run.

    Attributes:
        task: the task kind.
        strategy: the prompting strategy.
        tasks: distinct tasks.
        requests: tasks x samples.
        prompt_tokens: estimated prompt tokens of all these requests.
        max_completion_tokens: the most completion tokens they can cost (`--max-tokens` each).
    """

    task: str
    strategy: str
    tasks: int
    requests: int
    prompt_tokens: int
    max_completion_tokens: int


def estimate_tokens(text: str) -> int:
    """Estimated tokens of `text` by the module's rule (`ceil(characters / 4)`)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def plan(
    tasks: Sequence[Task],
    *,
    samples: int,
    max_tokens: int,
    api: str,
    system_prompt: str | None,
) -> list[PlanRow]:
    """Count the requests and estimate the tokens a run of `tasks` would cost.

    Args:
        tasks: the run's tasks (`make_tasks`).
        samples: samples per task.
        max_tokens: the completion limit of every request.
        api: "chat" or "completions".
        system_prompt: the system message, if any.

    Returns:
        One row per (task kind, strategy), sorted.
    """
    count: Counter[tuple[str, str]] = Counter()
    tokens: Counter[tuple[str, str]] = Counter()
    for task in tasks:
        key = (task.kind, task.strategy)
        prompt = render(task, system_prompt=system_prompt)
        if api == "chat":
            cost = sum(estimate_tokens(m["content"]) + TOKENS_PER_MESSAGE for m in prompt.messages)
        else:
            cost = estimate_tokens(prompt.text)
        count[key] += 1
        tokens[key] += cost
    return [
        PlanRow(
            task=kind,
            strategy=strategy,
            tasks=count[(kind, strategy)],
            requests=count[(kind, strategy)] * samples,
            prompt_tokens=tokens[(kind, strategy)] * samples,
            max_completion_tokens=count[(kind, strategy)] * samples * max_tokens,
        )
        for kind, strategy in sorted(count)
    ]


def format_plan(rows: Sequence[PlanRow], *, samples: int) -> str:
    """The plan as an aligned text table with a total line."""
    header = ("task", "strategy", "tasks", "requests", "prompt tokens", "max completion tokens")
    body = [
        (
            r.task,
            r.strategy,
            f"{r.tasks:,}",
            f"{r.requests:,}",
            f"~{r.prompt_tokens:,}",
            f"{r.max_completion_tokens:,}",
        )
        for r in rows
    ]
    total = (
        "total",
        "",
        f"{sum(r.tasks for r in rows):,}",
        f"{sum(r.requests for r in rows):,}",
        f"~{sum(r.prompt_tokens for r in rows):,}",
        f"{sum(r.max_completion_tokens for r in rows):,}",
    )
    table = [header, *body, total]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(w) if i < 2 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in table
    ]
    note = (
        f"(x{samples} samples per task; prompt tokens estimated as characters / "
        f"{CHARS_PER_TOKEN}; completion tokens bounded by --max-tokens)"
    )
    return "\n".join([*lines, note])
