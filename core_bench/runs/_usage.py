"""What a run cost and where responses were cut: token counts and truncation per strategy.

The manifest's `usage` (and summary.json's `run.usage`) holds, per strategy and in total, the
prompt and completion tokens the server counted (summed over samples: tasks whose prompts are
equal share one request, and each counts it), the samples whose response hit `--max-tokens`,
and for the run the wall time and the requests sent per second. The summary gets a
"truncated" metric row per task and strategy: the share of responses (x100) cut at the limit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from core_bench.metrics import Graded
from core_bench.schemas import MetricRow

_FIELDS = ("samples", "answered", "with_usage", "prompt_tokens", "completion_tokens", "truncated")


def usage_summary(samples: Iterable[Graded], *, seconds: float, requested: int) -> dict[str, Any]:
    """Token counts and truncation per strategy and in total, with wall time and rate.

    Args:
        samples: the run's samples.
        seconds: the run's wall time.
        requested: requests sent to the model in this run (cached answers not counted).

    Returns:
        {"by_strategy": {strategy: counts}, "total": counts, "wall_seconds": ...,
        "requests": ..., "requests_per_s": ...}, where counts has samples, answered (with a
        finish reason from a server), with_usage, prompt_tokens, completion_tokens, truncated.
    """
    by: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(_FIELDS, 0))
    total = dict.fromkeys(_FIELDS, 0)
    for sample in samples:
        for counts in (by[sample.strategy], total):
            counts["samples"] += 1
            counts["answered"] += sample.finish_reason is not None
            counts["truncated"] += sample.truncated
            if sample.prompt_tokens is not None or sample.completion_tokens is not None:
                counts["with_usage"] += 1
                counts["prompt_tokens"] += sample.prompt_tokens or 0
                counts["completion_tokens"] += sample.completion_tokens or 0
    return {
        "by_strategy": {name: by[name] for name in sorted(by)},
        "total": total,
        "wall_seconds": round(seconds, 3),
        "requests": requested,
        "requests_per_s": round(requested / seconds, 3) if seconds > 0 else 0.0,
    }


def truncation_rows(samples: Sequence[Graded], model: str) -> list[MetricRow]:
    """A "truncated" row per (task, strategy): the share of server responses cut at the token
    limit, x100 (no rows when no sample came from a server that gave a finish reason)."""
    cut: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for sample in samples:
        if sample.finish_reason is None:
            continue
        counts = cut[(sample.task, sample.strategy)]
        counts[0] += sample.truncated
        counts[1] += 1
    return [
        MetricRow(
            model=model,
            strategy=strategy,
            task=task,
            metric="truncated",
            group="all",
            value=100.0 * hit / n,
            n=n,
        )
        for (task, strategy), (hit, n) in sorted(cut.items())
    ]
