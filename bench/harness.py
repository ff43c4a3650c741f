"""Throughput of `core-bench run` against an OpenAI-compatible server that answers at once.

The fake OpenAI-compatible server (core_bench/fake_openai.py) runs in its own process and
answers every prompt of a small bundled benchmark as the oracle would. This script measures, in
one run on this machine:

- reference: the bare `openai.AsyncOpenAI` client sending the same prompts at the same
  concurrency (typed responses, nothing else done);
- a fresh `core_bench.runs.run` at concurrency 64: requests, retries policy, cache writes
  (a commit per response), grading (inputs in the sandbox) and samples.jsonl;
- a full replay of that run from its cache (the same command again: reading the benchmark,
  tasks, prompts, cache look-ups, samples.jsonl, summary.json, manifest.json), best of three.

It prints requests/s and samples/s with their ratios to the targets (500 requests/s, 20,000
samples/s on 2 cores) and to the reference.

Usage: .venv/bin/python bench/harness.py [--limit 5] [--strategies direct,cot,trace]
       [--concurrency 64] [--bench DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before project imports: bench/tracer.py would shadow tracer

import openai  # noqa: E402

from core_bench.benchmark import load_benchmark  # noqa: E402
from core_bench.build import BuildOptions, build_benchmark  # noqa: E402
from core_bench.fake_openai import FakeOpenAI, answers_for, tasks_of  # noqa: E402
from core_bench.runs import Endpoint, RunConfig, run  # noqa: E402

REQUESTS_TARGET = 500.0
REPLAY_TARGET = 20_000.0


def serve(answers: dict[str, str], ports: Any) -> None:
    server = FakeOpenAI(answers).start()
    ports.put(server.port)
    while True:
        time.sleep(3600)


async def bare_client(url: str, prompts: list[str], concurrency: int) -> float:
    client = openai.AsyncOpenAI(base_url=url, api_key="bench", max_retries=0, timeout=60)
    gate = asyncio.Semaphore(concurrency)

    async def one(prompt: str) -> None:
        async with gate:
            await client.chat.completions.create(
                model="fake", messages=[{"role": "user", "content": prompt}], temperature=0
            )

    started = time.perf_counter()
    await asyncio.gather(*(one(p) for p in prompts))
    elapsed = time.perf_counter() - started
    await client.close()
    return len(prompts) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=5, help="problems of the bundled data")
    parser.add_argument("--strategies", default="direct,cot,trace")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--bench", type=Path, help="a built benchmark (default: build one)")
    args = parser.parse_args()
    strategies = tuple(args.strategies.split(","))

    with tempfile.TemporaryDirectory(prefix="core-bench-harness-") as scratch:
        work = Path(scratch)
        bench_dir = args.bench
        if bench_dir is None:
            bench_dir = work / "bench"
            started = time.perf_counter()
            build_benchmark(BuildOptions(limit=args.limit), bench_dir)
            print(f"built {args.limit} problems in {time.perf_counter() - started:.1f}s")
        benchmark = load_benchmark(bench_dir)
        tasks = tasks_of(benchmark, strategies=strategies)
        answers = answers_for(tasks)
        print(f"{len(tasks)} tasks, {len(answers)} distinct prompts, strategies {strategies}")

        context = multiprocessing.get_context("fork")
        ports = context.Queue()
        server = context.Process(target=serve, args=(answers, ports), daemon=True)
        server.start()
        url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"
        try:
            reference = asyncio.run(bare_client(url, list(answers), args.concurrency))
            config = RunConfig(
                model="openai:fake",
                bench=bench_dir,
                out=work / "run",
                strategies=strategies,
                endpoint=Endpoint(
                    base_urls=(url,), api_key="bench", concurrency=args.concurrency, timeout_s=60
                ),
            )
            fresh = run(config, progress=False)
            # Best of three: other work on a shared machine only ever slows a replay down.
            replays = [run(config, progress=False) for _ in range(3)]
            replay = min(replays, key=lambda r: r.seconds)
            wrong = sum(s.verdict != "correct" for s in fresh.samples)  # read while on disk
        finally:
            server.kill()
            server.join()

    requested = fresh.counts["requested"]
    rate = requested / fresh.seconds
    replay_rate = replay.counts["samples"] / replay.seconds
    print(f"  {'bare openai client (reference)':<34} {len(answers):>7} requests {reference:9.0f}/s")
    print(
        f"  {'core-bench run, fresh':<34} {requested:>7} requests {rate:9.0f}/s"
        f"  ({fresh.seconds:.2f}s, {fresh.counts['failed']} failed, {wrong} not correct)"
    )
    times = ", ".join(f"{r.seconds:.2f}s" for r in replays)
    print(
        f"  {'core-bench run, replay from cache':<34} {replay.counts['samples']:>7} samples "
        f"{replay_rate:10.0f}/s  (best of {times}; {replay.counts['requested']} requested)"
    )
    print(f"requests/s vs target {REQUESTS_TARGET:.0f}: x{rate / REQUESTS_TARGET:.2f}")
    print(f"requests/s vs bare client: x{rate / reference:.2f}")
    print(f"replay samples/s vs target {REPLAY_TARGET:.0f}: x{replay_rate / REPLAY_TARGET:.2f}")


if __name__ == "__main__":
    main()
