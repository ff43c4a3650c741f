"""A code-blind floor the probe selection never saw: the most common answer, learned.

    .venv/bin/python bench/blind_learned.py BENCH_DIR

Probe selection drops most questions that `ref:blind`'s hand-written rules answer right, so
`ref:blind`'s accuracy on a build is low by construction. This script measures a guesser the
selection knows nothing about: for each probe it answers the most common answer, on the other
half of the problems, among probes of the same kind asking about a variable of the same name
(falling back to the same kind). The problems are split in two halves by a hash of their id;
each half is answered from what the other half taught (two-fold cross-validation), so the
guesser never sees the answer it is graded on. It reads only the kind and the variable's name:
nothing a model could not read off the question without running the code.

Prints accuracy per kind and overall, beside `ref:blind`'s rules (`bench/blind_rules.py`).
"""

from __future__ import annotations

import sys
import zlib
from collections import Counter, defaultdict
from pathlib import Path

# bench/tracer.py would shadow the tracer package: the repository root goes first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.benchmark import load_benchmark
from core_bench.schemas import Probe
from tracer import same_value


def fold(problem_id: str) -> int:
    """The half a problem falls in (stable across runs and machines)."""
    return zlib.crc32(problem_id.encode()) % 2


def keys(probe: Probe) -> tuple[tuple[str, str], tuple[str, str]]:
    """What the guesser may look at, most specific first."""
    return (probe.kind, probe.anchor.variable or ""), (probe.kind, "")


def main(root: Path) -> int:
    probes = load_benchmark(root).probes
    seen: list[dict[tuple[str, str], Counter[str]]] = [defaultdict(Counter), defaultdict(Counter)]
    for probe in probes:
        for key in keys(probe):
            seen[fold(probe.problem_id)][key][probe.answer] += 1
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for probe in probes:
        other = seen[1 - fold(probe.problem_id)]
        guess = next(
            (other[key].most_common(1)[0][0] for key in keys(probe) if other.get(key)), None
        )
        total[probe.kind] += 1
        right[probe.kind] += guess is not None and same_value(probe.answer, guess)
    print(f"{'kind':<18} {'n':>7}  learned blind guess")
    for kind in sorted(total, key=lambda k: -total[k]):
        print(f"{kind:<18} {total[kind]:>7}  {100 * right[kind] / total[kind]:5.1f}%")
    n = sum(total.values())
    print(f"{'all probes':<18} {n:>7}  {100 * sum(right.values()) / max(n, 1):5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
