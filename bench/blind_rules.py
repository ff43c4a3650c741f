"""Accuracy of every cheap code-blind rule, per kind, on a built benchmark.

    .venv/bin/python bench/blind_rules.py BENCH_DIR

For each probe kind (and the output task of every original call), prints how often each rule
of `core_bench.runs._blind.CANDIDATES` gives the right answer, marks the rule `ref:blind` uses
(`BEST`), and warns where another rule scores higher: `BEST` must hold the best cheap rule of
each kind, or the blind floor is too low to mean anything.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

# bench/tracer.py would shadow the tracer package: the repository root goes first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.benchmark import load_benchmark
from core_bench.runs import BEST, CANDIDATES, Seen
from tracer import same_value


def main(root: Path) -> int:
    bench = load_benchmark(root)
    entries = {p.id: p.entry for p in bench.problems}
    variants = {v.id: v for v in bench.variants}
    problems = {p.id: p for p in bench.problems}
    right: dict[str, Counter[str]] = defaultdict(Counter)
    total: Counter[str] = Counter()
    for problem in bench.problems:
        for call, output in zip(problem.calls, problem.outputs, strict=True):
            seen = Seen(problem.code, problem.entry, call)
            total["output"] += 1
            for name, rule in CANDIDATES["output"].items():
                right["output"][name] += same_value(output, rule(seen))
    for probe in bench.probes:
        variant = variants[probe.variant_id]
        problem = problems[probe.problem_id]
        seen = Seen(variant.code, entries[problem.id], problem.calls[probe.call_index], probe)
        total[probe.kind] += 1
        for name, rule in CANDIDATES.get(probe.kind, {}).items():
            try:
                guess = rule(seen)
            except Exception:
                guess = "None"
            right[probe.kind][name] += same_value(probe.answer, guess)
    probes = sum(n for kind, n in total.items() if kind != "output")
    blind = 0
    print(f"{'kind':<16} {'n':>7} {'share':>6}  rule accuracies (* = ref:blind's rule)")
    for kind in sorted(total, key=lambda k: -total[k]):
        n = total[kind]
        scores = {name: right[kind][name] / n for name in CANDIDATES.get(kind, {})}
        share = "" if kind == "output" else f"{100 * n / probes:5.1f}%"
        shown = ", ".join(
            f"{'*' if name == BEST.get(kind) else ''}{name}: {100 * s:.1f}%"
            for name, s in sorted(scores.items(), key=lambda item: -item[1])
        )
        print(f"{kind:<16} {n:>7} {share:>6}  {shown}")
        if scores and scores[BEST[kind]] < max(scores.values()):
            print(f"  WARNING: {kind}: a rule beats ref:blind's ({BEST[kind]})")
        if kind != "output":
            blind += right[kind][BEST[kind]]
    print(f"ref:blind on probes: {100 * blind / max(probes, 1):.1f}% of {probes}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
