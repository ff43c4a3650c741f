"""Reading run directories back for a report: summary rows, samples, and their benchmark."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.metrics import Graded
from core_bench.runs import read_graded
from core_bench.schemas import MetricRow, Sample, Summary, invalid, read_records


@dataclass(slots=True)
class RunData:
    """One run directory as a report sees it.

    Attributes:
        path: the run directory.
        label: the run's name in tables and plots (its model, made unique).
        run: the "run" object of summary.json.
        rows: the metric rows of summary.json.
        samples: the graded samples (empty when samples.jsonl is absent): `Sample`s when
            read with `full_samples`, else `GradedSample`s.
        benchmark: the benchmark the run used, or None when it cannot be read as it was.
        notes: why some data is absent, for people.
    """

    path: Path
    label: str
    run: dict[str, Any]
    rows: list[MetricRow]
    samples: Sequence[Graded] = field(default_factory=list)
    benchmark: Benchmark | None = None
    notes: list[str] = field(default_factory=list)


def load_runs(
    run_dirs: Sequence[Path | str],
    benchmarks: dict[str, Benchmark | str] | None = None,
    *,
    full_samples: bool = False,
    samples: bool = True,
) -> list[RunData]:
    """Read every run directory; benchmarks shared by several runs are read once.

    Args:
        run_dirs: the run directories.
        benchmarks: benchmarks already read (filled as they are read; pass the same dict to
            later calls to read each benchmark once).
        full_samples: read the samples as `Sample`s, every field; else as the lighter
            `GradedSample`s the metrics and plots read (a large run's samples would take
            hundreds of MB).
        samples: read the samples now (else later, with `load_samples`).

    Raises:
        ValueError: a path is not a run directory, or its summary.json is not valid.
    """
    if not run_dirs:
        raise ValueError("no run directory given")
    runs = [_load_summary(Path(path)) for path in run_dirs]
    _unique_labels(runs)
    if benchmarks is None:
        benchmarks = {}
    for data in runs:
        if samples:
            load_samples(data, full=full_samples)
        _load_benchmark(data, benchmarks)
    return runs


def _load_summary(path: Path) -> RunData:
    summary_path = path / "summary.json"
    if not path.is_dir():
        raise ValueError(f"{path}: not a directory")
    if not summary_path.is_file():
        raise ValueError(f"{path}: not a run directory (no summary.json)")
    try:
        summary = Summary.model_validate_json(summary_path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        raise ValueError(f"{summary_path}: {invalid('summary', exc, 'the file')}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{summary_path}: cannot read ({exc})") from None
    run = summary.run.model_dump()
    rows = list(summary.metrics)
    model = str(run.get("model") or (rows[0].model if rows else path.name))
    return RunData(path=path, label=model, run=run, rows=rows)


def _unique_labels(runs: list[RunData]) -> None:
    counts = Counter(data.label for data in runs)
    for data in runs:
        if counts[data.label] > 1:
            data.label = f"{data.label} [{data.path.name}]"
    counts = Counter(data.label for data in runs)
    for data in runs:
        if counts[data.label] > 1:
            data.label = f"{data.label} [{data.path}]"


def load_samples(data: RunData, *, full: bool = False) -> None:
    """Read a run's samples.jsonl into `data.samples` (see `load_runs`), or note why not."""
    path = data.path / "samples.jsonl"
    if not path.is_file():
        data.notes.append(f"{data.label}: no samples.jsonl")
        return
    try:
        if full:
            data.samples = list(read_records(path, Sample))
        else:
            data.samples = list(read_graded(path))
    except ValueError as exc:
        data.notes.append(f"{data.label}: samples.jsonl unreadable ({str(exc).splitlines()[0]})")


def _load_benchmark(data: RunData, seen: dict[str, Benchmark | str]) -> None:
    manifest_path = data.path / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        ref = manifest["benchmark"]
        root, sha256 = str(ref["path"]), str(ref["sha256"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        data.notes.append(f"{data.label}: manifest.json names no benchmark")
        return
    key = f"{root}\0{sha256}"
    if key not in seen:
        seen[key] = _read_benchmark(Path(root), sha256)
    found = seen[key]
    if isinstance(found, str):
        data.notes.append(f"{data.label}: {found}")
    else:
        data.benchmark = found


def _read_benchmark(root: Path, sha256: str) -> Benchmark | str:
    from core_bench.runs import benchmark_ref

    try:
        benchmark = load_benchmark(root)
        actual = benchmark_ref(benchmark).sha256
    except (OSError, ValueError) as exc:
        return f"benchmark {root} not readable ({str(exc).splitlines()[0]})"
    if actual != sha256:
        # Joining samples with a rebuilt benchmark would pair answers with the wrong probes.
        return f"benchmark {root} changed since the run (sha256 differs)"
    return benchmark
