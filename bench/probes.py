"""The probe stage of a build: choosing and anchoring probes once every (variant, call) is traced.

Builds the first `--limit` problems once (calls, variants, traces under both hash seeds), then
times, in CPU seconds, the build's probe stage on them (`_probes`: selection on every
(variant, call), anchoring on equivalent variants; then the hash-seed check, `stable_probes`).
The reference run in the same process indexes every traced call (`CallContext`), the least any
probe stage does, so the ratio says how much the stage costs beyond reading the traces once.
Run: `python bench/probes.py [--dataset PATH] [--limit 40]`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

# bench/ holds a script named tracer.py, which would shadow the `tracer` package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.build import BuildOptions
from core_bench.build import _problem as problem_build
from core_bench.build._hash_stable import ALT_HASH_SEED, stable_probes
from core_bench.datasets import load_dataset
from core_bench.probes import CallContext
from tracer import SandboxPool


def stage_inputs(options: BuildOptions) -> list[dict[str, Any]]:
    """What the probe stage of each problem starts from, as the build gives it."""
    inputs: list[dict[str, Any]] = []
    plain_probes, plain_stable = problem_build._probes, problem_build.stable_probes

    def keep(problem: Any, variants: Any, traces: Any, opts: Any, seed: int) -> Any:
        inputs.append({"problem": problem, "variants": variants, "traces": traces, "seed": seed})
        return plain_probes(problem, variants, traces, opts, seed)

    def keep_alt(probes: Any, variants: Any, alt_traces: Any) -> Any:
        inputs[-1]["alt"] = alt_traces
        return plain_stable(probes, variants, alt_traces)

    problem_build._probes, problem_build.stable_probes = keep, keep_alt  # type: ignore[assignment]
    try:
        rows = load_dataset(options.dataset).rows[: options.limit]
        with (
            SandboxPool(workers=1) as pool,
            SandboxPool(workers=1, hash_seed=ALT_HASH_SEED) as hash_pool,
        ):
            for row in rows:
                problem_build.build_problem(row.problem, options, pool, hash_pool=hash_pool)
    finally:
        problem_build._probes, problem_build.stable_probes = plain_probes, plain_stable
    # the hash gate traces only variants that can observe the seed again (None: not traced)
    return [{"alt": [None] * len(item["variants"]), **item} for item in inputs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", default=os.environ.get("CORE_BENCH_CRUXEVAL") or "bundled")
    parser.add_argument("--limit", type=int, default=40)
    args = parser.parse_args()
    options = BuildOptions(dataset=args.dataset, limit=args.limit)
    inputs = stage_inputs(options)
    start = time.process_time()
    for item in inputs:
        for variant, traces in zip(item["variants"], item["traces"], strict=True):
            for trace in traces:
                if trace is not None:
                    CallContext(variant.code, trace)
    reference = time.process_time() - start
    start = time.process_time()
    count = kept = 0
    for item in inputs:
        probes = problem_build._probes(
            item["problem"], item["variants"], item["traces"], options, item["seed"]
        )
        stable, _ = stable_probes(probes, item["variants"], item["alt"])
        count, kept = count + len(probes), kept + len(stable)
    total = time.process_time() - start
    calls = sum(len(t) for item in inputs for t in item["traces"])
    print(f"{len(inputs)} problems, {calls} traced (variant, call)s, {count} probes, {kept} kept")
    print(f"reference: indexing every traced call   {reference:8.2f} s cpu")
    print(
        f"probe stage (selection, anchoring, check) {total:8.2f} s cpu  {total / reference:6.1f}x"
    )


if __name__ == "__main__":
    main()
