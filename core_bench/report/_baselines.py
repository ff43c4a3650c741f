"""Reference agents run on the same benchmark as a report's runs: its floor and ceiling rows.

For every distinct (benchmark, tasks, strategies, limit) among the runs of a report, each agent
of `BASELINES` is run with the same options into `<report dir>/baselines/` (a reference agent
needs no model; a later report reuses a finished baseline run). Adding an agent to the report
is adding its name to `BASELINES`; `ROLES` says what it stands for.
"""

from __future__ import annotations

import json
import multiprocessing
from dataclasses import dataclass, replace
from pathlib import Path

from core_bench.report._load import RunData
from core_bench.runs import AGENTS, RunConfig, Sampling, default_out, run
from core_bench.schemas import Strategy, TaskKind
from core_bench.suites import Suite

BASELINES: tuple[str, ...] = ("oracle", "blind")
"""The reference agents every report runs and shows: the ceiling and the floor."""

ROLES = {"oracle": "ceiling", "blind": "floor"}
"""What a baseline's rows stand for in the headline table."""


def baseline_label(model: str) -> str | None:
    """ "ref:oracle (ceiling)" for a baseline's model spec; None for any other model."""
    kind, _, name = model.partition(":")
    if kind != "ref" or name not in BASELINES:
        return None
    return f"{model} ({ROLES.get(name, 'reference')})"


def missing_roles() -> list[str]:
    """Roles of `ROLES` that no available baseline fills (said in the report)."""
    filled = {ROLES.get(name) for name in BASELINES if name in AGENTS}
    return [f"{role} (ref:{name})" for name, role in ROLES.items() if role not in filled]


def run_baselines(runs: list[RunData], root: Path) -> tuple[list[Path], list[str]]:
    """Run every baseline on the benchmark and options of each run (unless that run is the
    baseline itself); return the baselines' run directories and notes for the reader."""
    done: list[Path] = []
    notes: list[str] = []
    present = {data.run.get("model") for data in runs}
    for data in runs:
        options = _options(data)
        if options is None or data.benchmark is None:
            notes.append(f"{data.label}: no baseline (its benchmark or options are not readable)")
            continue
        for name in BASELINES:
            spec = f"ref:{name}"
            if name not in AGENTS or spec in present:
                continue
            config = RunConfig(
                model=spec,
                bench=data.benchmark.root,
                out=Path("."),
                tasks=options.tasks,
                strategies=options.strategies,
                limit=options.limit,
                sampling=Sampling(seed=options.seed),
                suite=options.suite,
                suite_seed=options.suite_seed,
            )
            out = default_out(config, str(data.run.get("benchmark_sha256", "")), root=root)
            if out in done:
                continue
            if not _complete(out):
                _run_apart(replace(config, out=out))
            done.append(out)
    return done, notes


def _run_apart(config: RunConfig) -> None:
    """Run a baseline in a process of its own (started fresh, it reads the benchmark again):
    its tasks, requests and metrics would otherwise add to the peak memory of the process
    that runs the model and writes the report.

    Raises:
        RuntimeError: the baseline's run failed (its process says why on stderr).
    """
    child = multiprocessing.get_context("spawn").Process(
        target=_run_baseline, args=(config,), name=f"baseline {config.model}"
    )
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"the baseline run of {config.model} failed (exit {child.exitcode})")


def _run_baseline(config: RunConfig) -> None:
    run(config, progress=False)


def _complete(out: Path) -> bool:
    """Whether a baseline's directory holds a finished run (its name fixes the benchmark and
    options, and a reference agent's answers depend on nothing else)."""
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return manifest.get("status") == "complete" and (out / "summary.json").is_file()


@dataclass(frozen=True, slots=True)
class _Options:
    tasks: tuple[TaskKind, ...]
    strategies: tuple[Strategy, ...]
    limit: int | None
    seed: int
    suite: Suite
    suite_seed: int


def _options(data: RunData) -> _Options | None:
    """The options of a run that its baselines repeat, from its manifest.json."""
    try:
        manifest = json.loads((data.path / "manifest.json").read_text(encoding="utf-8"))
        config = manifest["config"]
        limit = config.get("limit")
        return _Options(
            tuple(config["tasks"]),
            tuple(config["strategies"]),
            int(limit) if limit is not None else None,
            int(manifest.get("seed", 0)),
            config.get("suite", "full"),
            int(config.get("suite_seed", 0)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
