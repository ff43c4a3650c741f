"""Reports of runs: tables, plots and a CSV from run directories, several runs side by side.

    from core_bench.report import write_report

    write_report([Path("runs/oracle"), Path("runs/gpt")], Path("reports/cmp"))

writes report.md, report.html (the same content, plots embedded), summary.csv (every metric
row of every run) and plots/*.png into the output directory. Everything is computed from what
the run directories hold (summary.json, samples.jsonl, and the benchmark their manifest.json
names); a plot whose data is absent is skipped with a note.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from core_bench.benchmark import Benchmark
from core_bench.report._baselines import BASELINES, baseline_label, missing_roles, run_baselines
from core_bench.report._doc import Block, Heading, Image, Paragraph, markdown
from core_bench.report._glossary import FEW_ITEMS, HEADLINE, MEANING
from core_bench.report._html import render
from core_bench.report._load import RunData, load_runs, load_samples
from core_bench.report._plots import Plot, draw_all
from core_bench.report._tables import (
    CSV_COLUMNS,
    Table,
    datasets_line,
    headline_table,
    metric_tables,
    runs_table,
    summary_csv,
)
from core_bench.runs import write_atomic

__all__ = [
    "BASELINES",
    "CSV_COLUMNS",
    "HEADLINE",
    "MEANING",
    "Plot",
    "RunData",
    "Table",
    "load_runs",
    "write_report",
]

TITLE = "core-bench report"


def write_report(
    run_dirs: Sequence[Path | str],
    out: Path | str,
    *,
    plots: bool | None = None,
    baselines: bool | None = None,
) -> Path:
    """Write the report of these runs into `out` and return the path of report.md.

    Args:
        run_dirs: the run directories, side by side in that order.
        out: the report's directory.
        plots: draw the plots (False: tables only; drawing is most of a small report's time).
            None: yes, unless the environment sets `CORE_BENCH_NO_PLOTS=1` (the test suite
            does, so tests that run models draw no plots unless they ask).
        baselines: run the reference agents of `BASELINES` on each run's benchmark and
            options (into `out/baselines/`, reused by later reports) and
            show them as the headline's floor and ceiling columns. None: yes, unless the
            environment sets `CORE_BENCH_NO_BASELINES=1`.

    Raises:
        ValueError: a path is not a run directory, or its summary.json is not valid.
    """
    out = Path(out)
    plots = _wanted(plots, "CORE_BENCH_NO_PLOTS")
    baselines = _wanted(baselines, "CORE_BENCH_NO_BASELINES")
    benchmarks: dict[str, Benchmark | str] = {}
    runs = load_runs(run_dirs, benchmarks, samples=False)  # after the baselines have run
    out.mkdir(parents=True, exist_ok=True)
    references: list[tuple[str, RunData]] = []
    notes: list[str] = []
    if baselines:
        dirs, notes = run_baselines(runs, out / "baselines")
        references = (
            [
                (baseline_label(d.run.get("model", "")) or d.label, d)
                for d in load_runs(dirs, benchmarks, samples=False)  # their rows are shown
            ]
            if dirs
            else []
        )
    for data in runs:
        load_samples(data)
    if any(baseline_label(d.label) is None for d in runs):  # else the baselines are the models
        references += [(label, d) for d in runs if (label := baseline_label(d.label)) is not None]
    drawn = draw_all(runs, out / "plots") if plots else None
    blocks = _blocks(runs, drawn, out, references, notes, baselines)
    write_atomic(out / "summary.csv", summary_csv(runs), sync=False)
    write_atomic(out / "report.html", render(blocks, out, TITLE), sync=False)
    report = out / "report.md"
    write_atomic(report, markdown(blocks), sync=False)
    return report


def _wanted(flag: bool | None, off: str) -> bool:
    """An explicit flag, else on unless the environment variable `off` is "1"."""
    return flag if flag is not None else os.environ.get(off, "") != "1"


def _blocks(
    runs: list[RunData],
    plots: list[Plot] | None,
    out: Path,
    references: list[tuple[str, RunData]],
    baseline_notes: list[str],
    baselines: bool,
) -> list[Block]:
    models = [d for d in runs if baseline_label(d.label) is None] or runs
    blocks: list[Block] = [Heading(TITLE, 1), Paragraph(datasets_line(runs))]
    blocks.append(headline_table(models, references))
    said = [
        f"Values x100 with 95% bootstrap intervals by problem; `few`: fewer than {FEW_ITEMS} "
        "units (n), read with care."
    ]
    if references:
        said.append(
            "Reference agents ran on the same benchmark with the same options: "
            + ", ".join(label for label, _ in references)
            + "."
        )
    if not baselines:
        said.append("Reference agents were not run for this report.")
    missing = missing_roles()
    if missing:
        said.append("No reference agent in this version for: " + ", ".join(missing) + ".")
    blocks.append(Paragraph(" ".join(said)))
    blocks.append(runs_table(runs))
    notes = [note for data in runs for note in data.notes] + baseline_notes
    if notes:
        blocks.append(Paragraph("Data not available: " + "; ".join(notes) + "."))
    blocks.append(Heading("Plots"))
    if plots is None:
        blocks.append(Paragraph("Plots not drawn (asked for tables only)."))
    for plot in plots or []:
        blocks.append(Heading(plot.title, 3))
        blocks.append(Paragraph(plot.description))
        if plot.path is not None:
            blocks.append(Image(plot.path.relative_to(out).as_posix(), plot.title))
        if plot.note:
            blocks.append(Paragraph(plot.note[0].upper() + plot.note[1:] + "."))
    blocks.append(Heading("Metrics"))
    tables: list[Table] = metric_tables(runs)
    if not tables:
        blocks.append(Paragraph("No metric rows in any summary.json."))
    blocks.extend(tables)
    from core_bench.report._usage import usage_table  # here: a small addition to the report

    usage = usage_table(runs)
    if usage is not None:
        blocks.append(usage)
    return blocks
