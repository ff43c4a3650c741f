"""PNG plots of a report, drawn with matplotlib's Agg canvas (no display, no pyplot state).

Each plot is computed only from what the run directories hold; when its data is absent the
plot is not drawn and `Plot.note` says why.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

import numpy as np
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


def draw_all(runs: list[RunData], plots_dir: Path) -> list[Plot]:
    """Draw every plot into `plots_dir` (a skipped plot's old PNG is removed)."""
    plots_dir.mkdir(parents=True, exist_ok=True)
    makers: list[Callable[[list[RunData], Path], Plot]] = [
        robustness_heatmap,
        accuracy_by_dimension,
        superficial_quadrant,
        accuracy_by_trace_position,
    ]
    plots = [make(runs, plots_dir) for make in makers]
    for plot in plots:
        if plot.path is None:
            (plots_dir / f"{plot.name}.png").unlink(missing_ok=True)
    return plots


def _save(figure: Figure, path: Path) -> Path:
    FigureCanvasAgg(figure)
    figure.savefig(path, format="png", dpi=110, metadata={"Software": None})
    return path


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


def robustness_heatmap(runs: list[RunData], plots_dir: Path) -> Plot:
    """Robustness gap (accuracy on originals minus on variants) per transform and run."""
    name, title = "robustness_heatmap", "Robustness gap by transform"
    description = (
        "Accuracy on originals minus accuracy on variants, per transform (rows) and run "
        '(columns), from the `robustness_gap` rows of summary.json ("all": every transform); '
        "red: worse on variants."
    )
    rows = {
        i: [r for r in data.rows if r.metric == "robustness_gap"] for i, data in enumerate(runs)
    }
    rows = {i: members for i, members in rows.items() if members}
    if not rows:
        return Plot(name, title, description, None, "skipped: no run has robustness_gap rows")
    names = _series_names(runs, rows)
    columns = list(names)
    groups = {r.group for members in rows.values() for r in members}
    transforms = sorted(groups - {"all"}) + (["all"] if "all" in groups else [])
    grid = np.full((len(transforms), len(columns)), np.nan)
    for i, members in rows.items():
        for r in members:
            grid[transforms.index(r.group), columns.index((i, r.task, r.strategy))] = r.value
    limit = float(np.nanmax(np.abs(grid))) or 1.0
    figure = Figure(figsize=(2.0 + 1.6 * len(columns), 1.2 + 0.45 * len(transforms)))
    axes = figure.add_subplot()
    image = axes.imshow(
        np.ma.masked_invalid(grid), cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto"
    )
    axes.set_xticks(range(len(columns)), [names[c] for c in columns], rotation=20, ha="right")
    axes.set_yticks(range(len(transforms)), transforms)
    for y in range(len(transforms)):
        for x in range(len(columns)):
            if not math.isnan(grid[y, x]):
                axes.text(x, y, f"{grid[y, x]:.2f}", ha="center", va="center", fontsize=8)
    figure.colorbar(image, ax=axes, label="gap")
    axes.set_title(title)
    figure.tight_layout()
    return Plot(name, title, description, _save(figure, plots_dir / f"{name}.png"))


def accuracy_by_dimension(runs: list[RunData], plots_dir: Path) -> Plot:
    """Accuracy per CoRE dimension, one bar per run (and task/strategy)."""
    name, title = "accuracy_by_dimension", "Accuracy by probe dimension"
    description = (
        "Accuracy per probe dimension (Arithmetic, Logic, State, Boundary), from the "
        "`accuracy_by_dimension` (or `accuracy`) rows of summary.json whose group is a "
        "dimension; error bars are 95% intervals where the row has one."
    )
    rows = {
        i: [r for r in data.rows if r.metric in DIMENSION_METRICS and r.group in DIMENSIONS]
        for i, data in enumerate(runs)
    }
    rows = {i: members for i, members in rows.items() if members}
    if not rows:
        return Plot(name, title, description, None, "skipped: no run has accuracy by dimension")
    names = _series_names(runs, rows)
    dims = [d for d in DIMENSIONS if any(r.group == d for m in rows.values() for r in m)]
    width = 0.8 / len(names)
    figure = Figure(figsize=(2.0 + 1.3 * len(dims) * max(1, len(names) / 2), 3.8))
    axes = figure.add_subplot()
    for k, key in enumerate(names):
        found = {r.group: r for r in rows[key[0]] if (r.task, r.strategy) == key[1:]}
        xs = [d + k * width - 0.4 + width / 2 for d in range(len(dims))]
        values = [found[d].value if d in found else np.nan for d in dims]
        errors = np.array([_error_bar(found.get(d)) for d in dims]).T
        axes.bar(xs, values, width, yerr=errors, capsize=2, label=names[key])
    axes.set_xticks(range(len(dims)), dims)
    # summary.json may report x100 (as CoRE does) or as a fraction; the axis follows the rows.
    top = 100.0 if any(r.value > 1.0 for m in rows.values() for r in m) else 1.0
    axes.set_ylim(0, top * 1.05)
    axes.set_ylabel("accuracy" + (" (%)" if top > 1 else ""))
    axes.set_title(title)
    axes.legend(fontsize=8)
    figure.tight_layout()
    return Plot(name, title, description, _save(figure, plots_dir / f"{name}.png"))


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


def superficial_quadrant(runs: list[RunData], plots_dir: Path) -> Plot:
    """I against Ws per problem, one panel per run and strategy."""
    name, title = "superficial_quadrant", "I against Ws per problem"
    description = (
        "One point per problem: Ws (fraction of its probes answered right) across, I (every "
        "output prediction on its original and equivalent variants right, 0 or 1, jittered) "
        "up; from samples.jsonl joined with the run's benchmark. Top left (I = 1, Ws < 0.5) "
        "is superficial execution: right outputs without the intermediate states."
    )
    panels: list[tuple[str, dict[str, tuple[float, float]]]] = []
    for data in runs:
        scores = problem_scores(data)
        for strategy, by_problem in sorted(scores.items()):
            label = f"{data.label} {strategy}" if len(scores) > 1 else data.label
            panels.append((label, by_problem))
    if not panels:
        return Plot(
            name,
            title,
            description,
            None,
            "skipped: no run has output and probe samples on a problem of a readable benchmark",
        )
    columns = min(3, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure = Figure(figsize=(3.4 * columns, 3.2 * lines))
    findings = []
    for k, (label, by_problem) in enumerate(panels):
        axes = figure.add_subplot(lines, columns, k + 1)
        xs = [ws for _, ws in by_problem.values()]
        ys = [i + _jitter(problem) for problem, (i, _) in by_problem.items()]
        axes.scatter(xs, ys, s=18, alpha=0.7)
        axes.axvline(0.5, color="grey", linewidth=0.8)
        axes.axhline(0.5, color="grey", linewidth=0.8)
        axes.text(0.02, 0.92, "superficial", transform=axes.transAxes, fontsize=8, color="red")
        axes.set_xlim(-0.05, 1.05)
        axes.set_ylim(-0.3, 1.3)
        axes.set_yticks([0, 1])
        axes.set_xlabel("Ws")
        axes.set_ylabel("I")
        axes.set_title(label, fontsize=9)
        superficial = sum(i == 1 and ws < 0.5 for i, ws in by_problem.values())
        findings.append(f"{label} {superficial}/{len(by_problem)}")
    figure.tight_layout()
    note = "problems in the superficial quadrant: " + ", ".join(findings)
    return Plot(name, title, description, _save(figure, plots_dir / f"{name}.png"), note)


def _bucket(step: int) -> int:
    return int(math.log2(step + 1))


def _bucket_label(bucket: int) -> str:
    low, high = 2**bucket - 1, 2 ** (bucket + 1) - 2
    return str(low) if low == high else f"{low}-{high}"


def accuracy_by_trace_position(runs: list[RunData], plots_dir: Path) -> Plot:
    """Probe accuracy against how far into the trace the probe points."""
    name, title = "accuracy_by_trace_length", "Probe accuracy against trace length"
    description = (
        "Accuracy of probe answers against how many steps of the trace the model must follow "
        "to reach the probe (the probe's `features.step_index` in the benchmark, in buckets "
        "doubling in width); from samples.jsonl joined with the run's benchmark."
    )
    series: dict[str, dict[int, list[bool]]] = {}
    for data in runs:
        if data.benchmark is None:
            continue
        steps = {p.id: p.features.step_index for p in data.benchmark.probes}
        by_strategy: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
        for sample in data.samples:
            if sample.task == "probe" and sample.probe_id in steps:
                bucket = _bucket(steps[sample.probe_id])
                by_strategy[sample.strategy][bucket].append(sample.verdict == "correct")
        for strategy, buckets in sorted(by_strategy.items()):
            label = f"{data.label} {strategy}" if len(by_strategy) > 1 else data.label
            series[label] = buckets
    if not series:
        return Plot(
            name,
            title,
            description,
            None,
            "skipped: no run has probe samples joined with a readable benchmark",
        )
    figure = Figure(figsize=(6.0, 3.8))
    axes = figure.add_subplot()
    every = sorted({b for buckets in series.values() for b in buckets})
    for label, buckets in series.items():
        xs = sorted(buckets)
        ys = [sum(buckets[b]) / len(buckets[b]) for b in xs]
        axes.plot(xs, ys, marker="o", label=label)
    axes.set_xticks(every, [_bucket_label(b) for b in every])
    axes.set_ylim(-0.05, 1.05)
    axes.set_xlabel("trace step of the probe")
    axes.set_ylabel("probe accuracy")
    axes.set_title(title)
    axes.legend(fontsize=8)
    figure.tight_layout()
    return Plot(name, title, description, _save(figure, plots_dir / f"{name}.png"))
