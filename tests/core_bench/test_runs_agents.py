"""Reference agents: each shows the signature it was built for, through the real run loop."""

from __future__ import annotations

import ast
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from records import original_task

from core_bench.benchmark import Benchmark
from core_bench.runs import (
    STRATEGIES,
    RunConfig,
    RunResult,
    Sampling,
    Task,
    perturb,
    read_samples,
    run,
)
from core_bench.schemas import Sample
from tracer import SandboxPool


def accuracy(samples: list[Sample], **where: object) -> float:
    chosen = [s for s in samples if all(getattr(s, k) == v for k, v in where.items())]
    assert chosen, where
    return sum(s.verdict == "correct" for s in chosen) / len(chosen)


def by_variant_kind(samples: list[Sample], bench: Benchmark, task: str) -> dict[str, float]:
    kinds = {v.id: v.kind for v in bench.variants}
    groups: dict[str, list[bool]] = defaultdict(list)
    for s in samples:
        if s.task == task:
            groups[kinds[s.variant_id]].append(s.verdict == "correct")
    return {k: sum(v) / len(v) for k, v in groups.items()}


def test_oracle_is_always_right(agent_runs: dict[str, RunResult]) -> None:
    samples = agent_runs["oracle"].samples
    wrong = [(s.task_id, s.reason) for s in samples if s.verdict != "correct"]
    assert not wrong
    assert {s.task for s in samples} == {"output", "input", "probe", "full_trace"}
    assert {s.strategy for s in samples} == set(STRATEGIES)


def test_oracle_trace_strategy_writes_the_real_trace(agent_runs: dict[str, RunResult]) -> None:
    traced = [s for s in agent_runs["oracle"].samples if s.strategy == "trace"]
    assert all("[TRACE]\n[Step 1] Line " in s.response for s in traced)


def test_superficial_has_right_outputs_and_wrong_states(agent_runs: dict[str, RunResult]) -> None:
    samples = agent_runs["superficial"].samples
    assert accuracy(samples, task="output") == 1.0
    assert accuracy(samples, task="input") == 1.0
    assert accuracy(samples, task="probe") <= 0.1
    assert accuracy(samples, task="full_trace") <= 0.1


def test_style_biased_is_right_on_originals_and_worse_on_variants(
    agent_runs: dict[str, RunResult], bench: Benchmark
) -> None:
    samples = agent_runs["style-biased"].samples
    for task in ("output", "probe"):
        kinds = by_variant_kind(samples, bench, task)
        assert kinds["original"] == 1.0, task
        assert kinds["equivalent"] <= 0.8, (task, kinds)
    mutant_outputs = by_variant_kind(samples, bench, "output").get("mutant")
    assert mutant_outputs is not None and mutant_outputs < 1.0


def test_echo_is_right_exactly_where_the_output_is_the_input(
    agent_runs: dict[str, RunResult], bench: Benchmark
) -> None:
    samples = [s for s in agent_runs["echo"].samples if s.task == "output"]
    problems = {p.id: p for p in bench.problems}
    for sample in samples:
        problem = problems[sample.problem_id]
        call = ast.parse(problem.calls[sample.call_index], mode="eval").body
        assert isinstance(call, ast.Call)
        first = ast.literal_eval(call.args[0])
        output = ast.literal_eval(problem.outputs[sample.call_index])
        if sample.variant_id.endswith(":original"):
            assert (sample.verdict == "correct") == (first == output), sample.task_id
    assert accuracy(samples) < 0.5  # near zero on real data; these few calls include ''
    assert accuracy(agent_runs["echo"].samples, task="probe") < 0.5


def test_agents_are_deterministic_from_the_seed(
    bench: Benchmark, pool: SandboxPool, agent_runs: dict[str, RunResult], tmp_path: Path
) -> None:
    first = agent_runs["style-biased"]
    run(
        RunConfig(
            model="ref:style-biased", bench=bench.root, out=tmp_path / "a", strategies=STRATEGIES
        ),
        benchmark=bench,
        pool=pool,
        progress=False,
    )
    assert (tmp_path / "a" / "samples.jsonl").read_bytes() == (
        first.out / "samples.jsonl"
    ).read_bytes()
    other = run(
        RunConfig(
            model="ref:style-biased",
            bench=bench.root,
            out=tmp_path / "b",
            strategies=("direct",),
            sampling=Sampling(seed=7),
        ),
        benchmark=bench,
        pool=pool,
        progress=False,
    )
    mine = {s.task_id: s.verdict for s in first.samples if s.strategy == "direct"}
    theirs = {s.task_id: s.verdict for s in other.samples}
    assert mine.keys() == theirs.keys() and mine != theirs


def test_run_directory_of_an_agent_run(agent_runs: dict[str, RunResult]) -> None:
    result = agent_runs["oracle"]
    files = sorted(p.name for p in result.out.iterdir() if not p.name.startswith("cache.sqlite-"))
    assert files == [
        ".lock",  # one writer at a time (core_bench/_lock.py)
        "cache.sqlite",
        "manifest.json",
        "samples.jsonl",
        "summary.json",  # no report: `core-bench run` writes it, `run` does not
    ]
    samples = read_samples(result.out / "samples.jsonl")
    keys = [(s.task_id, s.sample_index) for s in samples]
    assert keys == sorted(set(keys)) and len(keys) == result.counts["samples"]
    assert result.verdicts == dict(Counter(s.verdict for s in samples))
    assert result.manifest.status == "complete"
    assert result.manifest.base_urls == []
    rows = {(r.task, r.strategy, r.metric, r.group): r for r in result.metrics}
    row = rows[("output", "direct", "accuracy", "all")]
    assert row.value == 100.0 and row.n > 0 and row.model == "ref:oracle"
    assert rows[("output", "direct", "pass@1", "original")].value == 100.0


@pytest.mark.parametrize(
    "value",
    [
        "3",
        "-1",
        "0.5",
        "True",
        "None",
        "'abc'",
        "''",
        "[1, 2]",
        "[]",
        "(1, 'a')",
        "{'a': 1}",
        "{}",
        "{1, 2}",
        "set()",
        "[[2, {'x': 1}], [3, {}]]",
        "b'x'",
    ],
)
def test_perturb_gives_a_different_value_of_the_same_type(value: str) -> None:
    original = ast.literal_eval(value)
    for seed in range(5):
        changed = ast.literal_eval(perturb(value, random.Random(seed)))
        if original is not None:
            assert type(changed) is type(original)
        assert changed != original or type(changed) is not type(original)


def test_agents_read_calls_with_the_tracer_call_type() -> None:
    from core_bench.runs._agents import first_argument, wrong_call

    assert first_argument("f([1, 2], n=3)") == "[1, 2]"
    assert first_argument("f(n='a')") == "'a'"
    assert first_argument("f()") == first_argument("not a call(") == "None"
    task = _task_with_a_keyword()
    wrong = wrong_call(task, random.Random(0))
    assert wrong.startswith("assert f(") and wrong.endswith(", n=3) == 9")
    assert wrong != f"assert {task.call} == {task.output}"


def _task_with_a_keyword() -> Task:
    return original_task("def f(x, n):\n    return x + n\n", "f(6, n=3)", "9", kind="input")
