"""A benchmark as an inspect_ai task: a dataset of the same prompts `core-bench run` sends, and
a task module whose scorer is core-bench's own grader (`core_bench.export.inspect_scorer`).

    core-bench export BENCH --format inspect --out task/
    inspect eval task/core_bench_task.py --model openai/gpt-4o-mini

Each dataset sample is one task of `make_tasks` (task kind x strategy): `input` is the rendered
prompt, `target` the expected answer's repr (for input tasks: the output the predicted call
must give), and `metadata` what the grader needs (task kind, code, entry, call). Writing this
needs no inspect_ai; running the task does (`pip install 'core-bench[inspect]'`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from core_bench.benchmark import Benchmark
from core_bench.runs import TASK_KINDS, Task, make_tasks, render
from core_bench.schemas import Strategy, TaskKind

TASK_MODULE = '''"""inspect_ai task of a core-bench benchmark (written by `core-bench export`).

    inspect eval core_bench_task.py --model <provider/model>

Samples are in samples.jsonl beside this file; the scorer is core-bench's grader.
"""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.solver import generate

from core_bench.export.inspect_scorer import core_bench_scorer

HERE = Path(__file__).resolve().parent


@task
def core_bench(float_tolerance: float = {tolerance!r}) -> Task:
    """{description}"""
    return Task(
        dataset=json_dataset(str(HERE / "samples.jsonl")),
        solver=generate(),
        scorer=core_bench_scorer(float_tolerance=float_tolerance),
    )
'''


def inspect_samples(tasks: Sequence[Task]) -> list[dict[str, object]]:
    """One inspect_ai dataset record per task."""
    records: list[dict[str, object]] = []
    for task in tasks:
        prompt = render(task)
        records.append(
            {
                "id": task.id,
                "input": prompt.messages[-1]["content"],
                "target": task.output if task.kind == "input" else task.expected,
                "metadata": {
                    "task": task.kind,
                    "strategy": task.strategy,
                    "problem_id": task.problem_id,
                    "variant_id": task.variant_id,
                    "variant_kind": task.variant_kind,
                    "probe_id": task.probe_id,
                    "call_index": task.call_index,
                    "code": task.code,
                    "entry": task.entry,
                    "call": task.call,
                },
            }
        )
    return records


def write_inspect(
    benchmark: Benchmark,
    out: Path | str,
    *,
    kinds: Sequence[TaskKind] = TASK_KINDS,
    strategies: Sequence[Strategy] = ("direct",),
    float_tolerance: float = 0.0,
) -> Path:
    """Write samples.jsonl and core_bench_task.py into `out`; returns the module's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tasks = make_tasks(benchmark, kinds=kinds, strategies=strategies)
    with (out / "samples.jsonl").open("w", encoding="utf-8") as handle:
        for record in inspect_samples(tasks):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    description = (
        f"core-bench on {benchmark.manifest.dataset.name}: {len(tasks):,} tasks "
        f"({', '.join(kinds)}; {', '.join(strategies)})."
    )
    module = out / "core_bench_task.py"
    module.write_text(
        TASK_MODULE.format(tolerance=float_tolerance, description=description), encoding="utf-8"
    )
    return module
