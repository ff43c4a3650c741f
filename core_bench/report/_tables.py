"""Markdown tables from MetricRows: one table per metric, the runs side by side as columns."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from core_bench.report._glossary import FEW_ITEMS, HEADLINE, meaning
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
        note: one line beside the title (e.g. what the metric measures).
    """

    title: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""

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
    """A row's value with its confidence interval where one is known, and its n ("few" when
    n is under `FEW_ITEMS`)."""
    text = _number(row.value)
    if row.ci_low is not None and row.ci_high is not None:
        text += f" [{_number(row.ci_low)}, {_number(row.ci_high)}]"
    few = ", few" if row.n < FEW_ITEMS else ""
    return f"{text} (n={row.n}{few})"


def _number(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if abs(value) >= 1000:
        return f"{value:.0f}"
    return f"{value:.3g}"


def dataset_name(data: RunData) -> str:
    """The name of the dataset a run's benchmark was built from ("-" when unreadable)."""
    return data.benchmark.manifest.dataset.name if data.benchmark is not None else MISSING


def datasets_line(runs: list[RunData]) -> str:
    """One sentence naming each benchmark of the runs: dataset, size, seed, hash."""
    seen: dict[str, str] = {}
    for data in runs:
        bench = data.benchmark
        sha = str(data.run.get("benchmark_sha256") or "")[:12]
        if bench is None:
            seen.setdefault(sha, f"an unreadable benchmark (sha256 {sha or MISSING})")
            continue
        manifest = bench.manifest
        seen.setdefault(
            sha,
            f"dataset `{manifest.dataset.name}` ({len(bench.problems)} problems, "
            f"{len(bench.variants)} variants, {len(bench.probes)} probes; build seed "
            f"{manifest.seed}; benchmark `{bench.root}`, sha256 {sha})",
        )
    return "Benchmark: " + "; ".join(seen.values()) + "."


def runs_table(runs: list[RunData]) -> Table:
    """One row per run: its label, directory, model, status, counts, dataset and benchmark."""
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
                dataset_name(data),
                str(data.run.get("benchmark_sha256") or MISSING)[:12],
            ]
        )
    headers = ["run", "directory", "model", "status", "samples", "dataset", "benchmark"]
    return Table("Runs", headers, rows)


def headline_table(runs: list[RunData], references: list[tuple[str, RunData]]) -> Table:
    """The first screen: per model and strategy (columns), the headline figures (rows), each
    with its one-line meaning; `references` (label, run) add floor and ceiling columns."""
    columns: list[tuple[str, RunData, str]] = []
    for label, data in [(d.label, d) for d in runs] + references:
        strategies = sorted({row.strategy for row in data.rows})
        for strategy in strategies:
            columns.append((f"{label} {strategy}", data, strategy))
    index = [
        {(r.strategy, r.task, r.metric, r.group): r for r in data.rows} for _, data, _ in columns
    ]
    rows = []
    for label, task, metric, group, what in HEADLINE:
        cells = []
        for (_, _, strategy), found in zip(columns, index, strict=True):
            row = found.get((strategy, task, metric, group))
            cells.append(format_value(row) if row is not None else MISSING)
        rows.append([label, what, *cells])
    headers = ["metric", "meaning", *(name for name, _, _ in columns)]
    return Table("Headline", headers, rows)


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
        tables.append(Table(metric, headers, rows, meaning(metric)))
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
