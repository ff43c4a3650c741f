"""`core-bench cruxeval-score` against a process-per-generation scorer like the official one.

Scores 8,000 output generations (10 per sample over all 800 CRUXEval samples: right outputs,
outputs of other samples, echoes of the call, expressions, text that does not parse) with our
scorer (sandbox workers reused, one batch per sample) and with a reference that runs each
generation the way the official scorer does: a `ProcessPoolExecutor` over samples and, per
generation, a fresh `multiprocessing.Process` plus a `multiprocessing.Manager` for the result,
a 3 s alarm, and the program `code + "\\nassert " + output + " == " + generation`. The
reference is slow, so by default it runs on a subset of samples and its time is extrapolated
linearly to all generations (the output says so). Both must give the same booleans on the
subset. Target: ours at least 20x faster.

Input mode is measured the same way (10 predicted calls per sample: right inputs, inputs of
other samples, calls with computed arguments, calls that raise, text without "f("), and the
per-generation times of the two modes are compared: input mode runs the function for every
kept generation, output mode mostly compares literals in the parent.

Run: `python bench/cruxeval_score.py [--dataset PATH] [--reference-samples N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# bench/ holds a script named tracer.py, which would shadow the `tracer` package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from official_scorer import check_correctness

from core_bench.grading import check_program, cruxeval_row, score_cruxeval, skipped
from tracer import SandboxPool

PER_SAMPLE = 10


def make_generations(rows: list[dict[str, str]], seed: int = 0) -> dict[str, list[str]]:
    """Ten generations per sample, a mix of right and wrong ones."""
    rng = random.Random(seed)
    outputs = [row["output"] for row in rows]
    generations: dict[str, list[str]] = {}
    for index, row in enumerate(rows):
        o, i = row["output"], row["input"]
        pool = [
            o,
            o,
            o,
            f"{o}  # the answer",
            rng.choice(outputs),
            rng.choice(outputs),
            f"f({i})",
            "'a' + 'b'",
            "[1, 2",
            "None",
            f"eval({o!r})",
        ]
        generations[f"sample_{index}"] = rng.sample(pool, PER_SAMPLE)
    return generations


def make_input_generations(rows: list[dict[str, str]], seed: int = 0) -> dict[str, list[str]]:
    """Ten predicted calls per sample, a mix of right and wrong ones."""
    rng = random.Random(seed)
    inputs = [row["input"] for row in rows]
    generations: dict[str, list[str]] = {}
    for index, row in enumerate(rows):
        i = row["input"]
        pool = [
            f"f({i})",
            f"f({i})",
            f"f({i})",
            f"f({i})  # the answer",
            f"f({rng.choice(inputs)})",
            f"f({rng.choice(inputs)})",
            f"f(*[{i}][:1])" if "," not in i else f"f({i})",
            "f()",
            i,
            "f(" + "[1, 2",
            f"f(eval({i!r}))" if "," not in i else f"f({i})",
        ]
        generations[f"sample_{index}"] = rng.sample(pool, PER_SAMPLE)
    return generations


# -- the process-per-generation reference ---------------------------------------------------------


def _reference_sample(job: tuple[list[str], dict[str, str], str]) -> list[bool]:
    gens, raw, mode = job
    row = cruxeval_row(raw)
    results = [check_correctness(check_program(g, row)) for g in gens if not skipped(g, row, mode)]
    return results if True in results else [False] * len(gens)


def reference_scores(
    generations: dict[str, list[str]], rows: list[dict[str, str]], mode: str = "output"
) -> list[list[bool]]:
    jobs = [(generations[f"sample_{i}"], row, mode) for i, row in enumerate(rows)]
    with ProcessPoolExecutor() as executor:
        return list(executor.map(_reference_sample, jobs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--dataset",
        default=os.environ.get("CORE_BENCH_CRUXEVAL"),
        help="CRUXEval JSON Lines (default: $CORE_BENCH_CRUXEVAL)",
    )
    parser.add_argument(
        "--reference-samples",
        type=int,
        default=40,
        help="samples the slow reference runs on (default 40; 800 runs it on all)",
    )
    args = parser.parse_args()
    if not args.dataset:
        parser.error("give --dataset PATH or set CORE_BENCH_CRUXEVAL")
    text = Path(args.dataset).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    cpus = os.cpu_count() or 1
    count = max(1, min(args.reference_samples, len(rows)))
    step = len(rows) / count
    picked = sorted({int(k * step) for k in range(count)})
    subset_rows = [rows[i] for i in picked]
    failed = False
    per_generation: dict[str, float] = {}
    for mode, make in (("output", make_generations), ("input", make_input_generations)):
        generations = make(rows)
        total = sum(len(g) for g in generations.values())
        print(f"{mode} mode: {total} generations over {len(rows)} samples, {cpus} CPUs")
        start = time.perf_counter()
        with SandboxPool() as pool:
            ours = score_cruxeval(generations, mode, rows, pool)
        ours_s = time.perf_counter() - start
        per_generation[mode] = ours_s / total
        print(f"  ours (pool start included): {ours_s:.2f} s, {ours_s / total * 1000:.2f} ms/gen")
        print(f"  pass@1 {ours['pass_at_1']:.4f}  pass@5 {ours['pass_at_5']:.4f}")
        subset_gens = {f"sample_{j}": generations[f"sample_{i}"] for j, i in enumerate(picked)}
        subset_total = sum(len(g) for g in subset_gens.values())
        start = time.perf_counter()
        reference = reference_scores(subset_gens, subset_rows, mode)
        reference_s = time.perf_counter() - start
        agree = all(
            reference[j] == ours["raw_scored_generations"][f"sample_{i}"]
            for j, i in enumerate(picked)
        )
        estimate = reference_s * total / subset_total
        extrapolated = subset_total < total
        print(
            f"  reference (a process and a manager per generation): {reference_s:.2f} s for "
            f"{subset_total} generations of {len(picked)} samples"
            + (f"; extrapolated to {total}: {estimate:.1f} s" if extrapolated else "")
        )
        print(f"  same booleans as ours on those samples: {agree}")
        label = "extrapolated " if extrapolated else ""
        print(f"  speed-up ({label}reference / ours): {estimate / ours_s:.1f}x (target >= 20x)")
        failed = failed or not agree
    ratio = per_generation["input"] / per_generation["output"]
    print(f"input / output time per generation: {ratio:.2f} (target <= 1)")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
