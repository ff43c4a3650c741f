"""PNG plots of a report, drawn with matplotlib's Agg canvas (no display, no pyplot state).

Each plot is computed only from what the run directories hold; when its data is absent the
plot is not drawn and `Plot.note` says why.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import get_args

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from core_bench.report._load import RunData
from core_bench.schemas import Dimension, MetricRow

DIMENSIONS: tuple[str, ...] = get_args(Dimension)
DIMENSION_METRICS = ("accuracy_by_dimension", "accuracy")
SOLVED_KINDS = ("original", "equivalent")
"""Variant kinds whose answers count toward I and Ws (mutants compute something else)."""


@dataclass(frozen=True, slots=True)
class Plot:
    """A plot of the report.

    Attributes:
        name: the file stem under plots/.
        title: the heading in the report.
        description: what the plot shows and from which data.
        path: the PNG written, or None when the plot was skipped.
        note: why it was skipped, or a short finding read off the data.
    """

    name: str
    title: str
    description: str
    path: Path | None
    note: str = ""


Drawn = tuple[Plot, Figure | None]
"""A plot's metadata and its figure (None when skipped), before the figure is saved."""


def figures(runs: list[RunData]) -> list[Drawn]:
    """Every plot of the report with its figure, not yet saved (`draw_all` saves them)."""
    makers: list[Callable[[list[RunData]], Drawn]] = [
        robustness_heatmap,
        accuracy_by_dimension,
        superficial_quadrant,
        accuracy_by_trace_position,
    ]
    return [make(runs) for make in makers]


def draw_all(runs: list[RunData], plots_dir: Path) -> list[Plot]:
    """Draw every plot into `plots_dir` (a skipped plot's old PNG is removed)."""
    plots_dir.mkdir(parents=True, exist_ok=True)
    plots = []
    for plot, figure in figures(runs):
        path = plots_dir / f"{plot.name}.png"
        if figure is None:
            path.unlink(missing_ok=True)
            plots.append(plot)
        else:
            plots.append(replace(plot, path=_save(figure, path)))
    return plots


def _save(figure: Figure, path: Path) -> Path:
    figure.savefig(path, format="png", dpi=110, metadata={"Software": None})
    return path


def _new_figure(width: float, height: float) -> Figure:
    """A figure whose layout engine keeps every label and outside legend inside it."""
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _legend_below(figure: Figure, axes: Axes) -> None:
    """The legend under the plot, never over the data."""
    handles, labels = axes.get_legend_handles_labels()
    if handles:
        figure.legend(
            handles, labels, loc="outside lower center", ncols=min(3, len(labels)), fontsize=8
        )


def _rows_by_run(
    runs: list[RunData], keep: Callable[[MetricRow], bool]
) -> dict[int, list[MetricRow]]:
    """Each run's metric rows that `keep` accepts, by run index, for the runs that have any."""
    rows = {i: [r for r in data.rows if keep(r)] for i, data in enumerate(runs)}
    return {i: members for i, members in rows.items() if members}


def _by_group(rows: dict[int, list[MetricRow]], key: tuple[int, str, str]) -> dict[str, MetricRow]:
    """The rows of one (run, task, strategy) series by group."""
    return {r.group: r for r in rows[key[0]] if (r.task, r.strategy) == key[1:]}


def _series_names(
    runs: list[RunData], rows: dict[int, list[MetricRow]]
) -> dict[tuple[int, str, str], str]:
    """Names of (run, task, strategy) series: the run's label, plus task/strategy when needed."""
    keys = sorted({(i, r.task, r.strategy) for i, members in rows.items() for r in members})
    several = len({(task, strategy) for _, task, strategy in keys}) > 1
    return {
        (i, task, strategy): f"{runs[i].label} {task}/{strategy}" if several else runs[i].label
        for i, task, strategy in keys
    }


def robustness_heatmap(runs: list[RunData]) -> Drawn:
    """Robustness gap (accuracy on originals minus on variants) per transform and run."""
    name, title = "robustness_heatmap", "Robustness gap by transform"
    description = (
        "Accuracy on originals minus accuracy on variants in points (0-100 scale), per "
        "transform (rows) and run (columns), from the `robustness_gap` rows of summary.json "
        '("all": every transform); each cell shows the gap and its n; red: worse on variants.'
    )
    rows = _rows_by_run(runs, lambda r: r.metric == "robustness_gap")
    if not rows:
        return Plot(name, title, description, None, "skipped: no run has robustness_gap rows"), None
    names = _series_names(runs, rows)
    columns = list(names)
    groups = {r.group for members in rows.values() for r in members}
    transforms = sorted(groups - {"all"}) + (["all"] if "all" in groups else [])
    grid = np.full((len(transforms), len(columns)), np.nan)
    counts: dict[tuple[int, int], int] = {}
    for i, members in rows.items():
        for r in members:
            cell = (transforms.index(r.group), columns.index((i, r.task, r.strategy)))
            grid[cell] = r.value
            counts[cell] = r.n
    limit = max(10.0, float(np.nanmax(np.abs(grid))))
    figure = _new_figure(3.0 + 1.5 * len(columns), 1.4 + 0.42 * len(transforms))
    axes = figure.add_subplot()
    image = axes.imshow(
        np.ma.masked_invalid(grid), cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto"
    )
    axes.set_xticks(range(len(columns)), [_wrap(names[c]) for c in columns], fontsize=8)
    axes.set_yticks(range(len(transforms)), transforms, fontsize=8)
    for (y, x), n in counts.items():
        dark = abs(grid[y, x]) > 0.6 * limit  # white text on the darkest cells stays legible
        axes.text(
            x,
            y,
            f"{grid[y, x]:+.1f}\nn={n}",
            ha="center",
            va="center",
            fontsize=6.5,
            linespacing=1.0,
            color="white" if dark else "black",
        )
    figure.colorbar(image, ax=axes, label="gap (points)")
    axes.set_title(title)
    return Plot(name, title, description, None), figure


def _wrap(label: str, width: int = 18) -> str:
    """A long series name on several lines, so tick labels do not run into each other."""
    words, lines, line = label.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "\n".join(lines)


def accuracy_by_dimension(runs: list[RunData]) -> Drawn:
    """Accuracy per CoRE dimension, one bar per run (and task/strategy)."""
    name, title = "accuracy_by_dimension", "Accuracy by probe dimension"
    description = (
        "Accuracy (0-100) per probe dimension (Arithmetic, Logic, State, Boundary), from the "
        "`accuracy_by_dimension` (or `accuracy`) rows of summary.json whose group is a "
        "dimension; error bars are 95% intervals where the row has one."
    )
    rows = _rows_by_run(runs, lambda r: r.metric in DIMENSION_METRICS and r.group in DIMENSIONS)
    if not rows:
        note = "skipped: no run has accuracy by dimension"
        return Plot(name, title, description, None, note), None
    names = _series_names(runs, rows)
    dims = [d for d in DIMENSIONS if any(r.group == d for m in rows.values() for r in m)]
    width = 0.8 / len(names)
    figure = _new_figure(2.5 + 1.3 * len(dims) * max(1, len(names) / 2), 4.2)
    axes = figure.add_subplot()
    for k, key in enumerate(names):
        found = _by_group(rows, key)
        xs = [d + k * width - 0.4 + width / 2 for d in range(len(dims))]
        values = [found[d].value if d in found else np.nan for d in dims]
        errors = np.array([_error_bar(found.get(d)) for d in dims]).T
        axes.bar(xs, values, width, yerr=errors, capsize=2, label=names[key])
    axes.set_xticks(range(len(dims)), dims)
    axes.set_ylim(0, 105)
    axes.set_ylabel("accuracy (0-100)")
    axes.set_title(title)
    _legend_below(figure, axes)
    return Plot(name, title, description, None), figure


def _error_bar(row: MetricRow | None) -> tuple[float, float]:
    if row is None or row.ci_low is None or row.ci_high is None:
        return (0.0, 0.0)
    return (max(0.0, row.value - row.ci_low), max(0.0, row.ci_high - row.value))


def problem_scores(data: RunData) -> dict[str, dict[str, tuple[float, float]]]:
    """Per strategy, per problem: (I, Ws) from samples.jsonl joined with the benchmark.

    I is 1 when every output sample on the problem's original and equivalent variants is
    correct, else 0; Ws is the fraction of its probe samples on those variants that are
    correct. Problems without both kinds of sample are left out.
    """
    if data.benchmark is None:
        return {}
    kinds = {v.id: v.kind for v in data.benchmark.variants}
    outputs: dict[tuple[str, str], list[bool]] = defaultdict(list)
    probes: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for sample in data.samples:
        if kinds.get(sample.variant_id) not in SOLVED_KINDS:
            continue
        key: tuple[str, str] = (sample.strategy, sample.problem_id)
        if sample.task == "output":
            outputs[key].append(sample.verdict == "correct")
        elif sample.task == "probe":
            probes[key].append(sample.verdict == "correct")
    scores: dict[str, dict[str, tuple[float, float]]] = defaultdict(dict)
    for strategy, problem in sorted(outputs.keys() & probes.keys()):
        answers, states = outputs[(strategy, problem)], probes[(strategy, problem)]
        scores[strategy][problem] = (float(all(answers)), sum(states) / len(states))
    return dict(scores)


def _jitter(text: str) -> float:
    # Deterministic, so the same run always draws the same picture.
    digest = hashlib.sha256(text.encode()).digest()
    return (digest[0] / 255 - 0.5) * 0.16


def superficial_quadrant(runs: list[RunData]) -> Drawn:
    """I against Ws per problem, one panel per run and strategy."""
    name, title = "superficial_quadrant", "I against Ws per problem"
    description = (
        "One point per problem: Ws (percentage of its probes answered right) across, I (every "
        "output prediction on its original and equivalent variants right: 0 or 100, jittered) "
        "up; from samples.jsonl joined with the run's benchmark. Top left (I = 100, Ws < 50) "
        "is superficial execution: right outputs without the intermediate states."
    )
    panels: list[tuple[str, dict[str, tuple[float, float]]]] = []
    for data in runs:
        scores = problem_scores(data)
        for strategy, by_problem in sorted(scores.items()):
            label = f"{data.label} {strategy}" if len(scores) > 1 else data.label
            panels.append((label, by_problem))
    if not panels:
        note = "skipped: no run has output and probe samples on a problem of a readable benchmark"
        return Plot(name, title, description, None, note), None
    columns = min(3, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure = _new_figure(3.6 * columns, 3.3 * lines)
    findings = []
    for k, (label, by_problem) in enumerate(panels):
        axes = figure.add_subplot(lines, columns, k + 1)
        xs = [100 * ws for _, ws in by_problem.values()]
        ys = [100 * (i + _jitter(problem)) for problem, (i, _) in by_problem.items()]
        axes.scatter(xs, ys, s=18, alpha=0.7)
        axes.axvline(50, color="grey", linewidth=0.8)
        axes.axhline(50, color="grey", linewidth=0.8)
        axes.text(2, 118, "superficial", fontsize=8, color="red", va="top")
        axes.set_xlim(-5, 105)
        axes.set_ylim(-30, 130)
        axes.set_yticks([0, 100])
        axes.set_xlabel("Ws (0-100)")
        axes.set_ylabel("I (0 or 100)")
        axes.set_title(f"{label} (n={len(by_problem)})", fontsize=9)
        superficial = sum(i == 1 and ws < 0.5 for i, ws in by_problem.values())
        findings.append(f"{label} {superficial}/{len(by_problem)}")
    note = "problems in the superficial quadrant: " + ", ".join(findings)
    return Plot(name, title, description, None, note), figure


def accuracy_by_trace_position(runs: list[RunData]) -> Drawn:
    """Probe accuracy against how far into the trace the probe points."""
    name, title = "accuracy_by_trace_length", "Probe accuracy against trace position"
    description = (
        "Accuracy (0-100) of probe answers against how many steps of the trace the model must "
        "follow to reach the probe (its `features.step_index`), in the buckets of the "
        "`accuracy_by_position` rows of summary.json (the same as the tables), with their 95% "
        "intervals; each point is labelled with its n."
    )
    rows = _rows_by_run(runs, lambda r: r.metric == "accuracy_by_position" and r.task == "probe")
    if not rows:
        note = "skipped: no run has accuracy_by_position rows"
        return Plot(name, title, description, None, note), None
    names = _series_names(runs, rows)
    buckets = sorted({r.group for members in rows.values() for r in members}, key=_bucket_start)
    figure = _new_figure(6.5, 4.4)
    axes = figure.add_subplot()
    found = {key: _by_group(rows, key) for key in names}
    # n under each bucket's name when every series has the same n there, else beside each point
    shared = {
        b: ns.pop() if len(ns := {f[b].n for f in found.values() if b in f}) == 1 else None
        for b in buckets
    }
    for k, (key, label) in enumerate(names.items()):
        mine = found[key]
        xs = [x for x, b in enumerate(buckets) if b in mine]
        ys = [mine[buckets[x]].value for x in xs]
        errors = np.array([_error_bar(mine[buckets[x]]) for x in xs]).T
        axes.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=label)
        for x, y in zip(xs, ys, strict=True):
            if shared[buckets[x]] is None:
                axes.annotate(
                    f"n={mine[buckets[x]].n}",
                    (x, y),
                    textcoords="offset points",
                    xytext=(6, -10 - 9 * k),
                    fontsize=7,
                    color="#555555",
                )
    axes.set_xticks(
        range(len(buckets)),
        [b if shared[b] is None else f"{b}\nn={shared[b]}" for b in buckets],
    )
    axes.set_xlim(-0.5, len(buckets) - 0.5)
    axes.set_ylim(0, 105)
    axes.set_xlabel("trace step of the probe")
    axes.set_ylabel("probe accuracy (0-100)")
    axes.set_title(title)
    _legend_below(figure, axes)
    return Plot(name, title, description, None), figure


def _bucket_start(bucket: str) -> int:
    """The first step of a bucket name such as "5-9" or "50+" (buckets sort numerically)."""
    digits = "".join(ch for ch in bucket.split("-")[0] if ch.isdigit())
    return int(digits) if digits else 0
