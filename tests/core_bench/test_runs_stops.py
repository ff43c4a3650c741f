"""Stop sequences, finish reasons, truncation and token accounting of `openai:<name>` runs,
against the fake server rambling past its answer as a model that is not stopped does."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from core_bench.benchmark import Benchmark
from core_bench.fake_openai import FEWSHOT_RAMBLE, FakeOpenAI, answers_for, tasks_of
from core_bench.report import write_report
from core_bench.runs import Endpoint, RunConfig, RunResult, Sampling, Task, run
from core_bench.runs._prompts import stop_sequences
from tracer import SandboxPool

STRATEGIES = ("direct", "cot")


@pytest.fixture(scope="module")
def tasks(bench: Benchmark) -> list[Task]:
    return tasks_of(bench, limit=1, strategies=STRATEGIES, kinds=("output", "input", "probe"))


def config(bench: Benchmark, out: Path, url: str, **changes: Any) -> RunConfig:
    """A one-problem run against `url`; `changes` may name `RunConfig` or `Endpoint` fields."""
    names = {f.name for f in fields(Endpoint)}
    endpoint = Endpoint(
        base_urls=(url,), api_key="k", retries=0, **{k: v for k, v in changes.items() if k in names}
    )
    return RunConfig(
        model="openai:fake-model",
        bench=bench.root,
        out=out,
        limit=1,
        tasks=("output", "input", "probe"),
        strategies=STRATEGIES,
        sampling=Sampling(max_tokens=400),
        endpoint=endpoint,
        **{k: v for k, v in changes.items() if k not in names},
    )


def go(cfg: RunConfig, bench: Benchmark, pool: SandboxPool) -> RunResult:
    return run(cfg, benchmark=bench, pool=pool, progress=False)


@pytest.mark.parametrize("api", ["chat", "completions"])
def test_stop_sequences_are_sent_with_both_apis_and_end_answers(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path, api: str
) -> None:
    # what a model writes: the answer and its closing tag (answers_for leaves the tag out of
    # completions, as a server that stopped there returns them), then more few-shot text
    answers = {
        p: a + "[/ANSWER]" * (api == "completions") for p, a in answers_for(tasks, api=api).items()
    }
    with FakeOpenAI(answers, honour_stop=True, ramble=FEWSHOT_RAMBLE) as fake:
        result = go(config(bench, tmp_path, fake.url, api=api), bench, pool)
    sent = {tuple(body["stop"]) for body in fake.bodies}
    assert sent == {tuple(stop_sequences("direct")), tuple(stop_sequences("cot"))}
    assert {s.finish_reason for s in result.samples} == {"stop"}
    assert not any(s.truncated for s in result.samples)
    assert {s.verdict for s in result.samples} == {"correct"}


def test_without_stop_sequences_every_rambling_answer_is_cut_at_the_limit(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    with FakeOpenAI(answers_for(tasks), honour_stop=True, ramble=FEWSHOT_RAMBLE) as fake:
        result = go(config(bench, tmp_path, fake.url, stop=False), bench, pool)
    assert all("stop" not in body for body in fake.bodies)
    assert {s.finish_reason for s in result.samples} == {"length"}
    assert all(s.truncated for s in result.samples)
    # the answer still comes first: the first answer tag is read, not the rambled example
    assert {s.verdict for s in result.samples} == {"correct"}
    rows = [r for r in result.metrics if r.metric == "truncated"]
    assert {(r.task, r.strategy) for r in rows} == {
        (kind, strategy) for kind in ("output", "input", "probe") for strategy in STRATEGIES
    }
    assert {r.value for r in rows} == {100.0}


def test_a_server_rejecting_stop_sequences_is_asked_again_without_them(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    with FakeOpenAI(answers_for(tasks), reject_stop=True) as fake:
        result = go(config(bench, tmp_path, fake.url, concurrency=1), bench, pool)
    assert fake.statuses["400"] == 1  # once: then the backend stops sending them
    assert {s.verdict for s in result.samples} == {"correct"}


def test_usage_is_recorded_per_sample_and_summed_per_strategy(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    with FakeOpenAI(answers_for(tasks)) as fake:
        result = go(config(bench, tmp_path, fake.url), bench, pool)
        first = result.samples  # read now: the replay rewrites samples.jsonl
        again = go(config(bench, tmp_path, fake.url), bench, pool)  # replayed from the cache
    assert all(s.prompt_tokens and s.completion_tokens for s in first)
    assert again.samples == first
    usage = json.loads((tmp_path / "manifest.json").read_text())["usage"]
    for strategy in STRATEGIES:
        mine = [s for s in result.samples if s.strategy == strategy]
        counts = usage["by_strategy"][strategy]
        assert counts["samples"] == len(mine)
        assert counts["prompt_tokens"] == sum(s.prompt_tokens or 0 for s in mine)
        assert counts["completion_tokens"] == sum(s.completion_tokens or 0 for s in mine)
    total = usage["total"]
    assert total["prompt_tokens"] == sum(s.prompt_tokens or 0 for s in result.samples)
    assert usage["wall_seconds"] > 0 and usage["requests"] == 0  # the replay asked nothing
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["run"]["usage"] == usage
    report = write_report([tmp_path], tmp_path, plots=False, baselines=False).read_text()
    assert "| run | strategy | samples | prompt tokens |" in report


def test_truncation_is_the_servers_length_reason_or_a_completion_as_long_as_the_limit() -> None:
    from core_bench.runs._grader import _truncated

    assert _truncated("length", 3, 400) and not _truncated("stop", 400, 400)
    assert _truncated(None, 400, 400) and not _truncated(None, 399, 400)
    assert not _truncated(None, None, 400) and not _truncated(None, 5, None)


def test_a_server_rejecting_stream_options_streams_without_usage(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    with FakeOpenAI(answers_for(tasks), reject_params=("stream_options",)) as fake:
        cfg = config(bench, tmp_path, fake.url, concurrency=1, stream=True)
        result = go(cfg, bench, pool)
    assert fake.statuses["400"] == 1
    assert {s.verdict for s in result.samples} == {"correct"}
    assert all(s.prompt_tokens is None for s in result.samples)
    assert all("stop" in body for body in fake.bodies)  # stop sequences kept
