"""Sizes of the suites of a built benchmark, and the interval half-widths a simulated model gets.

    .venv/bin/python bench/suites.py BENCH_DIR [--models 20] [--seed 0]

For each suite (quick, standard, full) it prints the problems, variants and probes selected,
the tasks per strategy and sample, the half-widths `core_bench.suites` predicts by its rule,
and the half-widths the real bootstrap (`core_bench.metrics.Bootstrap`, resampled by problem)
gives on simulated models of about 70% accuracy, averaged over `--models` draws:

- `independent`: every item right with probability 0.7;
- `clustered`: each problem has its own accuracy, Beta(2.8, 1.2) (mean 0.7, ICC 0.2: the
  rule's assumption), and its variants are harder by a per-problem drop drawn from
  N(5, 10) points (so the robustness gap varies from problem to problem too).

The robustness gap is the original's accuracy minus its equivalent variants' on the same calls
(every (equivalent variant, call) pair against the original on that call), as the metric is.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

# bench/tracer.py would shadow the tracer package: the checkout goes first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.benchmark import load_benchmark
from core_bench.metrics import Bootstrap
from core_bench.suites import SUITES, select_suite


def _simulate(
    selection_problems: list[str],
    pairs: dict[str, int],
    probes: dict[str, int],
    rng: random.Random,
    *,
    clustered: bool,
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    gap_units: list[tuple[float, float]] = []
    probe_units: list[tuple[float, float]] = []
    for problem in selection_problems:
        if clustered:
            accuracy = rng.betavariate(2.8, 1.2)
            harder = min(1.0, max(0.0, accuracy - rng.gauss(0.05, 0.10)))
        else:
            accuracy = harder = 0.7
        if pairs[problem]:
            diff = sum(
                (rng.random() < accuracy) - (rng.random() < harder) for _ in range(pairs[problem])
            )
            gap_units.append((diff, pairs[problem]))
        if probes[problem]:
            right = sum(rng.random() < accuracy for _ in range(probes[problem]))
            probe_units.append((right, probes[problem]))
    return gap_units, probe_units


def main() -> int:
    """Print the suites of a benchmark and the half-widths of simulated models."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bench", type=Path)
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    benchmark = load_benchmark(args.bench)
    bootstrap = Bootstrap(seed=args.seed, resamples=1000)
    print(f"benchmark {args.bench}: {benchmark.manifest.dataset.name}")
    header = (
        f"{'suite':<9} {'problems':>8} {'variants':>8} {'probes':>7} {'tasks':>8}  "
        f"{'rule gap/probe':>15}  {'independent gap/probe':>22}  {'clustered gap/probe':>20}"
    )
    print(header)
    for suite in SUITES:
        selection = select_suite(benchmark, suite, seed=args.seed)
        chosen = selection.benchmark
        calls = {p.id: len(p.calls) for p in chosen.problems}
        pairs: dict[str, int] = defaultdict(int)
        for variant in chosen.variants:
            if variant.kind == "equivalent":
                pairs[variant.problem_id] += calls[variant.problem_id]
        probes: dict[str, int] = defaultdict(int)
        for probe in chosen.probes:
            probes[probe.problem_id] += 1
        ids = [p.id for p in chosen.problems]
        widths: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
        rng = random.Random(args.seed)
        for clustered in (False, True):
            for _ in range(args.models):
                gap_units, probe_units = _simulate(ids, pairs, probes, rng, clustered=clustered)
                for units, out in zip((gap_units, probe_units), widths[clustered], strict=True):
                    interval = bootstrap.ratio(units)
                    if interval is not None:
                        out.append((interval[2] - interval[1]) / 2)

        def pct(values: list[float]) -> str:
            return f"{100 * statistics.fmean(values):.1f}" if values else "-"

        rule = (
            f"{100 * (selection.gap_half_width or 0):.1f}/"
            f"{100 * (selection.probe_half_width or 0):.1f}"
        )
        print(
            f"{suite:<9} {len(chosen.problems):>8} {len(chosen.variants):>8} "
            f"{len(chosen.probes):>7} {selection.tasks:>8}  {rule:>15}  "
            f"{pct(widths[False][0]) + '/' + pct(widths[False][1]):>22}  "
            f"{pct(widths[True][0]) + '/' + pct(widths[True][1]):>20}"
            + ("" if selection.met in (None, True) else "  (target not reachable: too small)")
        )
    print("half-widths in points of the 95% interval (gap / probe accuracy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
