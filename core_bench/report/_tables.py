"""Markdown tables from MetricRows: one table per metric, the runs side by side as columns."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from core_bench.report._load import RunData
from core_bench.schemas import MetricRow

MISSING = "-"
CSV_COLUMNS = ("run", "label", *MetricRow.model_fields)
"""summary.csv's header: the run directory and its label, then every MetricRow field."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table for report.md and report.html.

    Attributes:
        title: what the table shows.
        headers: the column names.
        rows: the cells, as text, one list per row.
    """

    title: str
    headers: list[str]
    rows: list[list[str]]

    def markdown(self) -> str:
        """The table in GitHub-flavoured markdown (pipes in cells escaped)."""
        lines = [
            _md_row(self.headers),
            "|" + "|".join("---" for _ in self.headers) + "|",
            *(_md_row(row) for row in self.rows),
        ]
        return "\n".join(lines) + "\n"


def _md_row(cells: list[str]) -> str:
    escaped = (cell.replace("|", "\\|").replace("\n", " ") for cell in cells)
    return "| " + " | ".join(escaped) + " |"


def format_value(row: MetricRow) -> str:
    """A row's value with its confidence interval where one is known, and its n."""
    text = _number(row.value)
    if row.ci_low is not None and row.ci_high is not None:
        text += f" [{_number(row.ci_low)}, {_number(row.ci_high)}]"
    return f"{text} (n={row.n})"


def _number(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if abs(value) >= 1000:
        return f"{value:.0f}"
    return f"{value:.3g}"


def runs_table(runs: list[RunData]) -> Table:
    """One row per run: its label, directory, model, status, counts and benchmark."""
    rows = []
    for data in runs:
        counts = data.run.get("counts") or {}
        rows.append(
            [
                data.label,
                str(data.path),
                str(data.run.get("model", MISSING)),
                str(data.run.get("status", MISSING)),
                str(counts.get("samples", len(data.samples))),
                str(data.run.get("benchmark_sha256") or MISSING)[:12],
            ]
        )
    headers = ["run", "directory", "model", "status", "samples", "benchmark"]
    return Table("Runs", headers, rows)


def metric_tables(runs: list[RunData]) -> list[Table]:
    """One table per metric name (in order of first appearance), whatever metrics exist.

    Rows are (task, strategy, group), columns the runs; a run without the figure shows "-".
    """
    cells: dict[str, dict[tuple[str, str, str], dict[int, str]]] = {}
    for index, data in enumerate(runs):
        for row in data.rows:
            keys = cells.setdefault(row.metric, {})
            keys.setdefault((row.task, row.strategy, row.group), {})[index] = format_value(row)
    tables = []
    for metric, keys in cells.items():
        rows = [
            [task, strategy, group, *(by_run.get(i, MISSING) for i in range(len(runs)))]
            for (task, strategy, group), by_run in keys.items()
        ]
        headers = ["task", "strategy", "group", *(data.label for data in runs)]
        tables.append(Table(metric, headers, rows))
    return tables


def summary_csv(runs: list[RunData]) -> str:
    """summary.csv: every MetricRow of every run, one line each, after a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for data in runs:
        for row in data.rows:
            fields = row.model_dump()
            values = [
                "" if fields[name] is None else fields[name] for name in MetricRow.model_fields
            ]
            writer.writerow([str(data.path), data.label, *values])
    return buffer.getvalue()
