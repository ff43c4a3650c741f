"""Expected CoRE metrics of a model right on each item with chance p, errors independent.

Reads a built benchmark, draws every problem's CoRE budget as the metrics do (as if every task
were answered: `core_bench.metrics.draw_budget`), and prints the expected core_I, core_Is,
I_call, core_W, core_Ws at each p, beside what the strict products would be over every item
the build holds (the pooled I and W of earlier summaries) and CoRE's own budget (4.3
implementations x 7.8 tests, 4.1 probes). No model and no sandbox: a figure, not a timing.

Run: `python bench/core_expected.py BENCH_DIR [--p 0.95 --p 0.9]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# bench/ holds a script named tracer.py, which would shadow the `tracer` package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.metrics import draw_budget, expected_strict

CORE_PAPER = (4.3, 7.8, 4.1)
"""CoRE's mean implementations, tests and probes per implementation per problem."""


def budgets(bench: Benchmark) -> tuple[list[tuple[int, int, float]], list[tuple[int, int]]]:
    """Per problem: the CoRE budget's (implementations, calls, probes per implementation), and
    every item the build holds: (output items over original + equivalents, probe items)."""
    seed = bench.manifest.seed
    sizes: list[tuple[int, int, float]] = []
    pooled: list[tuple[int, int]] = []
    variants: dict[str, list[str]] = {}
    originals: dict[str, str] = {}
    for v in bench.variants:
        if v.kind == "original":
            originals[v.problem_id] = v.id
        elif v.kind == "equivalent" and v.family != "distractor":
            variants.setdefault(v.problem_id, []).append(v.id)
    probes: dict[str, list[tuple[str, int]]] = {}
    for p in bench.probes:
        if p.kind != "full_trace":
            probes.setdefault(p.variant_id, []).append((p.id, p.call_index))
    for problem in bench.problems:
        original = originals[problem.id]
        mine = variants.get(problem.id, [])
        budget = draw_budget(problem.id, original, mine, range(len(problem.calls)), probes, seed)
        m = len(budget.implementations)
        k = sum(len(p) for p in budget.probes.values())
        sizes.append((m, len(budget.calls), k / m))
        every = [original, *mine]
        pooled.append((len(every) * len(problem.calls), sum(len(probes.get(v, [])) for v in every)))
    return sizes, pooled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", type=Path)
    parser.add_argument("--p", type=float, action="append")
    args = parser.parse_args()
    bench = load_benchmark(args.bench)
    sizes, pooled = budgets(bench)
    n = len(sizes)
    mean = [sum(s[i] for s in sizes) / n for i in range(3)]
    print(
        f"{bench.manifest.dataset.name}: {n} problems; CoRE budget per problem: "
        f"{mean[0]:.2f} implementations x {mean[1]:.2f} calls, {mean[2]:.2f} probes per "
        f"implementation (CoRE: {CORE_PAPER[0]} x {CORE_PAPER[1]}, {CORE_PAPER[2]})"
    )
    outputs = sum(o for o, _ in pooled) / n
    items = sum(q for _, q in pooled) / n
    print(f"every item of the build: {outputs:.1f} outputs, {items:.1f} probes per problem")
    for p in args.p or [0.95]:
        found = expected_strict(p, sizes)
        m, t, k = CORE_PAPER
        paper = {"core_I": 100 * p ** (m * t), "core_W": 100 * p ** (m * k)}
        old_i = 100 * sum(p**o for o, _ in pooled) / n
        old_w = 100 * sum(p**q for _, q in pooled) / n
        print(
            f"p={p}: "
            + ", ".join(f"{name}={value:.2f}" for name, value in found.items())
            + f" | over every item: I={old_i:.2f}, W={old_w:.4f}"
            + f" | at CoRE's sizes: I={paper['core_I']:.2f}, W={paper['core_W']:.2f}"
        )


if __name__ == "__main__":
    main()
