"""Task kinds are defined once (`schemas.TaskKind`); grading, runs and export derive theirs."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest

from core_bench import grading, runs
from core_bench.export import write_inspect
from core_bench.schemas import TaskKind

ROOT = Path(__file__).resolve().parents[2]
KINDS = set(typing.get_args(TaskKind))


def test_grading_runs_and_export_know_the_same_task_kinds() -> None:
    assert set(grading.TASKS) == KINDS
    assert set(runs.TASK_KINDS) == KINDS
    assert inspect.signature(write_inspect).parameters["kinds"].default == runs.TASK_KINDS


@pytest.mark.parametrize("task", sorted(KINDS))
def test_extract_answer_takes_every_task_kind(task: str) -> None:
    grading.extract_answer("[ANSWER]1[/ANSWER]", task=task, call="f(1)")


def test_extract_answer_names_the_kinds_for_an_unknown_one() -> None:
    with pytest.raises(ValueError, match="full_trace"):
        grading.extract_answer("[ANSWER]1[/ANSWER]", task="outputs", call="f(1)")


def test_no_module_spells_out_the_task_kinds() -> None:
    spelled = []
    for path in sorted((ROOT / "core_bench").rglob("*.py")):
        if path.name == "schemas.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                if len(values) == len(node.elts) and set(values) == KINDS:
                    spelled.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not spelled, "derive these from schemas.TaskKind: " + ", ".join(spelled)
