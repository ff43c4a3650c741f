"""`core-bench grade` on a run of an `openai:` model: graded again with the server gone."""

from __future__ import annotations

import json
from pathlib import Path

from core_bench.benchmark import Benchmark
from core_bench.commands.grade_cmd import regrade
from core_bench.fake_openai import FakeOpenAI, answers_for, tasks_of
from core_bench.runs import Endpoint, RunConfig, read_samples, run
from core_bench.runs._rundir import sample_lines
from tracer import SandboxPool


def test_grade_uses_the_cache_not_the_server(
    bench: Benchmark, pool: SandboxPool, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with FakeOpenAI(answers_for(tasks_of(bench, limit=1))) as server:
        config = RunConfig(
            model="openai:fake-model",
            bench=bench.root,
            out=out,
            limit=1,
            endpoint=Endpoint(base_urls=(server.url,), api_key="test-key"),
        )
        result = run(config, benchmark=bench, pool=pool, progress=False)
    samples = result.samples  # read now: the file is spoiled below
    assert samples and all(s.verdict == "correct" for s in samples)
    # Spoil the verdicts on disk: grading again restores them from the stored responses.
    spoiled = [s.model_copy(update={"verdict": "wrong"}) for s in samples]
    (out / "samples.jsonl").write_text(sample_lines(spoiled))
    graded = regrade(out, pool=pool)
    assert graded.regraded == len(samples) and graded.kept == 0
    assert graded.changed == len(samples)
    assert read_samples(out / "samples.jsonl") == samples
    summary = json.loads((out / "summary.json").read_text())
    rows = {(r["task"], r["metric"], r["group"]): r for r in summary["metrics"]}
    assert all(r["model"] == "openai:fake-model" for r in summary["metrics"])
    assert rows[("output", "pass@1", "original")]["value"] == 100
