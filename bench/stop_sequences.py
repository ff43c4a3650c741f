"""Share of responses cut at `--max-tokens`, without and with stop sequences.

The fake OpenAI-compatible server (core_bench/fake_openai.py) answers every prompt of a small
bundled benchmark as the oracle would, then rambles on with more few-shot text, as a model that
is not stopped does (issue 14: every Gemma chat response ran to the limit). It honours stop
sequences when a request sends them. For each API (chat, completions) the same run is made with
`--no-stop` and with the default stop sequences, and the script prints per API and strategy the
share of samples truncated, the share graded correct, and the completion tokens the server
counted.

Usage: .venv/bin/python bench/stop_sequences.py [--limit 3] [--max-tokens 256]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before project imports: bench/tracer.py would shadow tracer

from core_bench.benchmark import load_benchmark  # noqa: E402
from core_bench.build import BuildOptions, build_benchmark  # noqa: E402
from core_bench.fake_openai import (  # noqa: E402
    FEWSHOT_RAMBLE,
    FakeOpenAI,
    answers_for,
    tasks_of,
)
from core_bench.runs import Endpoint, RunConfig, Sampling, run  # noqa: E402
from core_bench.runs._prompts import STOP  # noqa: E402
from tracer import SandboxPool  # noqa: E402

STRATEGIES = ("direct", "cot")
KINDS = ("output", "input", "probe")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=3, help="problems of the bundled data")
    parser.add_argument("--max-tokens", type=int, default=256)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, SandboxPool(workers=1) as pool:
        bench_dir = Path(tmp) / "bench"
        build_benchmark(BuildOptions(limit=args.limit, variants=2, mutants=1, probes=2), bench_dir)
        benchmark = load_benchmark(bench_dir)
        tasks = tasks_of(benchmark, strategies=STRATEGIES, kinds=KINDS)
        print(f"{len(tasks)} tasks ({args.limit} problems), max_tokens={args.max_tokens}")
        print(f"{'api':<12}{'strategy':<9}{'stops':<6}{'truncated':>10}{'correct':>9}{'tokens':>9}")
        for api in ("chat", "completions"):
            # a model writes its answer and the closing tag, then more few-shot text
            answers = {
                prompt: answer + STOP * (api == "completions")
                for prompt, answer in answers_for(tasks, api=api).items()
            }
            for stop in (False, True):
                with FakeOpenAI(answers, honour_stop=True, ramble=FEWSHOT_RAMBLE) as fake:
                    config = RunConfig(
                        model="openai:fake",
                        bench=bench_dir,
                        out=Path(tmp) / f"{api}-{stop}",
                        tasks=KINDS,
                        strategies=STRATEGIES,
                        endpoint=Endpoint(
                            base_urls=(fake.url,),
                            api_key="k",
                            api=api,  # type: ignore[arg-type]
                        ),
                        sampling=Sampling(max_tokens=args.max_tokens),
                        stop=stop,
                    )
                    result = run(config, benchmark=benchmark, pool=pool, progress=False)
                by: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
                for sample in result.samples:
                    counts = by[sample.strategy]
                    counts[0] += 1
                    counts[1] += sample.truncated
                    counts[2] += sample.verdict == "correct"
                    counts[3] += sample.completion_tokens or 0
                for strategy, (n, cut, right, tokens) in sorted(by.items()):
                    print(
                        f"{api:<12}{strategy:<9}{'on' if stop else 'off':<6}"
                        f"{100 * cut / n:>9.1f}%{100 * right / n:>8.1f}%{tokens:>9}"
                    )


if __name__ == "__main__":
    main()
