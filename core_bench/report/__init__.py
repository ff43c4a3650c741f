"""Reports of runs: tables, plots and a CSV from run directories, several runs side by side.

    from core_bench.report import write_report

    write_report([Path("runs/oracle"), Path("runs/gpt")], Path("reports/cmp"))

writes report.md, report.html (the same content, plots embedded), summary.csv (every metric
row of every run) and plots/*.png into the output directory. Everything is computed from what
the run directories hold (summary.json, samples.jsonl, and the benchmark their manifest.json
names); a plot whose data is absent is skipped with a note.
"""

from __future__ import annotations

from pathlib import Path

from core_bench.report._doc import Block, Heading, Image, Paragraph, markdown
from core_bench.report._html import render
from core_bench.report._load import RunData, load_runs
from core_bench.report._plots import Plot, draw_all
from core_bench.report._tables import CSV_COLUMNS, Table, metric_tables, runs_table, summary_csv
from core_bench.runs._rundir import write_atomic

__all__ = ["CSV_COLUMNS", "Plot", "RunData", "Table", "load_runs", "write_report"]

TITLE = "core-bench report"


def write_report(run_dirs: list[Path], out: Path) -> Path:
    """Write the report of these runs into `out` and return the path of report.md.

    Raises:
        ValueError: a path is not a run directory, or its summary.json is not valid.
    """
    runs = load_runs(run_dirs)
    out.mkdir(parents=True, exist_ok=True)
    plots = draw_all(runs, out / "plots")
    blocks = _blocks(runs, plots, out)
    write_atomic(out / "summary.csv", summary_csv(runs), sync=False)
    write_atomic(out / "report.html", render(blocks, out, TITLE), sync=False)
    report = out / "report.md"
    write_atomic(report, markdown(blocks), sync=False)
    return report


def _blocks(runs: list[RunData], plots: list[Plot], out: Path) -> list[Block]:
    blocks: list[Block] = [Heading(TITLE, 1), runs_table(runs)]
    notes = [note for data in runs for note in data.notes]
    if notes:
        blocks.append(Paragraph("Data not available: " + "; ".join(notes) + "."))
    blocks.append(Heading("Plots"))
    for plot in plots:
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
