"""A run writes its samples as it grades them, and reads them back for its metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_builds import small_benchmark

from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.runs import (
    Completion,
    ReferenceAgent,
    Request,
    RunConfig,
    read_graded,
    read_samples,
    run,
)

STOP_AFTER = 7
"""Answers given before the run is interrupted."""


class Stop(Exception):
    """What interrupts the run in these tests."""


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return load_benchmark(small_benchmark(tmp_path_factory.getbasetemp()))


def test_an_interrupted_run_leaves_every_sample_it_graded(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered: list[str] = []
    agent_complete = ReferenceAgent.complete

    async def complete(self: ReferenceAgent, request: Request) -> Completion:
        if len(answered) == STOP_AFTER:
            raise Stop
        answered.append(request.task.id)
        return await agent_complete(self, request)

    monkeypatch.setattr(ReferenceAgent, "complete", complete)
    # Output tasks are graded as soon as they are answered (no sandbox to wait for), so every
    # answer given before the interruption is graded before it.
    config = RunConfig(model="ref:oracle", bench=bench.root, out=tmp_path, tasks=("output",))
    with pytest.raises(ExceptionGroup) as raised:
        run(config, benchmark=bench, progress=False)
    assert raised.value.subgroup(Stop) is not None
    lines = (tmp_path / "samples.jsonl").read_text(encoding="utf-8").splitlines()
    written = [json.loads(line)["task_id"] for line in lines]
    assert sorted(written) == sorted(answered) and len(written) == STOP_AFTER
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "interrupted"

    monkeypatch.setattr(ReferenceAgent, "complete", agent_complete)
    again = run(config, benchmark=bench, progress=False)  # resumes
    samples = read_samples(tmp_path / "samples.jsonl")
    keys = [(s.task_id, s.sample_index) for s in samples]
    assert keys == sorted(set(keys)) and again.counts["cached"] == STOP_AFTER
    assert again.counts["samples"] == len(samples) > STOP_AFTER


def test_the_metrics_read_back_what_the_samples_say(bench: Benchmark, tmp_path: Path) -> None:
    config = RunConfig(model="ref:oracle", bench=bench.root, out=tmp_path, strategies=("trace",))
    result = run(config, benchmark=bench, progress=False)
    samples = read_samples(tmp_path / "samples.jsonl")
    graded = list(read_graded(tmp_path / "samples.jsonl"))
    assert [(g.task_id, g.verdict) for g in graded] == [(s.task_id, s.verdict) for s in samples]
    outputs = [(g.task_id, g.answer) for g in graded if g.task == "output"]
    assert outputs and outputs == [(s.task_id, s.answer) for s in samples if s.task == "output"]
    # The claimed traces are kept where the faithfulness metrics read them, and only there.
    kept = {g.task_id for g in graded if g.response}
    assert kept == {s.task_id for s in samples if s.task in ("output", "input") and s.response}
    assert kept and result.verdicts == {"correct": len(samples)}


def test_a_bad_samples_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    path.write_text('{"task_id": "x"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"samples\.jsonl:1: not a valid sample"):
        list(read_graded(path))
