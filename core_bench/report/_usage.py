"""The report's usage table: tokens, truncation, wall time and request rate per run and
strategy, from summary.json's `run.usage` (written by runs since token accounting)."""

from __future__ import annotations

from core_bench.report._load import RunData
from core_bench.report._tables import MISSING, Table


def usage_table(runs: list[RunData]) -> Table | None:
    """One row per (run, strategy): samples, prompt and completion tokens (as the server
    counted them), the share truncated at the token limit, and the run's wall time and
    requests/s; None when no run recorded usage."""
    rows: list[list[str]] = []
    for data in runs:
        usage = data.run.get("usage") or {}
        by_strategy = usage.get("by_strategy") or {}
        for strategy, counts in by_strategy.items():
            answered = counts.get("answered", 0)
            truncated = (
                f"{100.0 * counts.get('truncated', 0) / answered:.1f}%" if answered else MISSING
            )
            with_usage = counts.get("with_usage", 0)
            rows.append(
                [
                    data.label,
                    strategy,
                    str(counts.get("samples", 0)),
                    str(counts.get("prompt_tokens", 0)) if with_usage else MISSING,
                    str(counts.get("completion_tokens", 0)) if with_usage else MISSING,
                    truncated,
                    f"{usage.get('wall_seconds', 0.0):.1f}",
                    f"{usage.get('requests_per_s', 0.0):.2f}",
                ]
            )
    if not rows:
        return None
    headers = [
        "run",
        "strategy",
        "samples",
        "prompt tokens",
        "completion tokens",
        "truncated",
        "run wall s",
        "run requests/s",
    ]
    title = "Usage (tokens as the server counted them; truncated: cut at --max-tokens)"
    return Table(title, headers, rows)
