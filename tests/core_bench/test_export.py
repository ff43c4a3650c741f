"""`core-bench export`: the Hugging Face folder and the inspect_ai task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_bench.benchmark import Benchmark
from core_bench.cli import main
from core_bench.export import inspect_samples
from core_bench.runs import make_tasks, render


def _rows(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_hf_folder_holds_every_record_and_a_card(bench: Benchmark, tmp_path: Path) -> None:
    assert main(["export", str(bench.root), "--format", "hf", "--out", str(tmp_path)]) == 0
    assert len(_rows(tmp_path / "problems.jsonl")) == len(bench.problems)
    variants = _rows(tmp_path / "variants.jsonl")
    probes = _rows(tmp_path / "probes.jsonl")
    assert [p["id"] for p in probes] == [p.id for p in bench.probes]
    assert [p["answer"] for p in probes] == [p.answer for p in bench.probes]
    renamed = next(v for v, b in zip(variants, bench.variants, strict=True) if b.renames)
    original = next(b for b in bench.variants if b.id == renamed["id"])
    assert {(r["old"], r["new"]) for r in renamed["renames"]} == set(original.renames.items())
    card = (tmp_path / "README.md").read_text()
    header = card.split("---")[1]
    assert "license: mit" in header  # the bundled data is this project's
    for config in ("problems", "variants", "probes"):
        assert f"config_name: {config}" in header and f"data_files: {config}.jsonl" in header
    assert bench.manifest.dataset.sha256 in card  # the build's manifest is in the card
    assert f"({len(bench.probes):,} rows)" in card


def test_hf_folder_loads_with_datasets(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    datasets = pytest.importorskip("datasets", reason="the [hf] extra is not installed")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    assert main(["export", str(bench.root), "--format", "hf", "--out", str(tmp_path / "d")]) == 0
    cache = str(tmp_path / "hf-cache")  # datasets reads HF_HOME once, at its import
    probes = datasets.load_dataset(str(tmp_path / "d"), "probes", split="train", cache_dir=cache)
    assert len(probes) == len(bench.probes)
    assert probes[0]["question"] == bench.probes[0].question
    variants = datasets.load_dataset(
        str(tmp_path / "d"), "variants", split="train", cache_dir=cache
    )
    assert len(variants) == len(bench.variants)


def test_inspect_samples_are_the_prompts_run_sends(bench: Benchmark) -> None:
    tasks = make_tasks(bench, strategies=("direct", "cot"))
    records = inspect_samples(tasks)
    assert len(records) == len(tasks)
    for task, record in zip(tasks, records, strict=True):
        assert record["id"] == task.id
        assert record["input"] == render(task).messages[-1]["content"]
        expected = task.output if task.kind == "input" else task.expected
        assert record["target"] == expected


def test_inspect_task_runs_with_the_mock_model_and_core_bench_grades_it(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inspect_ai = pytest.importorskip("inspect_ai", reason="the [inspect] extra is not installed")
    from inspect_ai.model import ModelOutput, ModelUsage

    out = tmp_path / "task"
    argv = ["export", str(bench.root), "--format", "inspect", "--out", str(out)]
    assert main([*argv, "--tasks", "output,input,probe", "--suite", "quick"]) == 0
    records = _rows(out / "samples.jsonl")
    # the mock model answers every sample right, in CRUXEval's answer format; samples run one
    # at a time in the dataset's order, so the mock's outputs line up with them
    answers = []
    for record in records:
        meta = record["metadata"]
        if meta["task"] in ("input", "output"):
            answers.append(f"[ANSWER]assert {meta['call']} == {record['target']}[/ANSWER]")
        else:
            answers.append(f"[ANSWER]{record['target']}[/ANSWER]")
    outputs = [ModelOutput.from_content("mockllm/model", a) for a in answers]
    for output in outputs:  # given usage, the mock counts no tokens (its tokenizer downloads)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    monkeypatch.chdir(out)  # inspect resolves task files relative to the working directory
    logs = inspect_ai.eval(
        "core_bench_task.py",
        model="mockllm/model",
        model_args={"custom_outputs": outputs},
        max_samples=1,
        max_connections=1,
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    log = logs[0]
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == len(records)
    verdicts = {s.id: s.scores["core_bench_scorer"].metadata["verdict"] for s in log.samples}
    assert set(verdicts.values()) == {"correct"}, verdicts
    kinds = {s.metadata["task"] for s in log.samples}
    assert kinds == {"output", "input", "probe"}
    # and a wrong answer is graded wrong by the same scorer
    from core_bench.export.inspect_scorer import grade_sample

    record = next(r for r in records if r["metadata"]["task"] == "output")
    score = grade_sample(
        "[ANSWER]assert f(0) == 'nope'[/ANSWER]", record["target"], record["metadata"], 0.0
    )
    assert score.metadata["verdict"] == "wrong"
