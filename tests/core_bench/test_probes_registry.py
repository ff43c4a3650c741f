"""The registry: one row per probe kind holds everything about it."""

from __future__ import annotations

import ast
import sys
import typing
from pathlib import Path

from core_bench import metrics, probes, runs
from core_bench.metrics._incremental import STAGES
from core_bench.probes import (
    KINDS,
    PROBE_KINDS,
    PROBE_TASK_KINDS,
    ROWS,
    STAGE_OF_KIND,
    candidate_probes,
    task_kind,
)
from core_bench.schemas import ProbeKind, TaskKind
from tracer import trace

CODE = (
    "def f(xs, k):\n"
    "    total = 0\n"
    "    for x in xs:\n"
    "        if x > k:\n"
    "            total += x\n"
    "        else:\n"
    "            total -= 1\n"
    "    if total > 5:\n"
    "        return total\n"
    "    return -total\n"
)


def test_every_probe_kind_of_the_schema_has_one_row() -> None:
    names = [row.kind for row in ROWS]
    assert len(names) == len(set(names)) >= 10
    assert set(typing.get_args(ProbeKind)) == set(names) | {"imported"}
    assert tuple(names) == PROBE_KINDS


def test_rows_are_complete() -> None:
    for row in ROWS:
        assert row.dimensions and row.summary and row.weight > 0
        assert row.stage is None or row.stage in STAGES
        assert row.per_call is None or row.per_call >= 1
        assert callable(row.read) and callable(row.each) and callable(row.question)
    assert {row.kind: row.stage for row in ROWS if row.stage} == STAGE_OF_KIND


def test_each_row_reads_asks_and_types_its_kind() -> None:
    t = trace(CODE, "f([1, 7, 3, 9], 4)")
    probes = candidate_probes("p", "p:original", CODE, 0, t)
    kinds = {p.kind for p in probes}
    assert {"branch", "loop_exit_state", "run_count", "change_count", "first_true"} <= kinds
    assert "return_line" in kinds
    for probe in probes:
        row = KINDS[probe.kind]
        if row.answer in ("line", "trace", "bool", "int"):
            assert probe.answer_type == row.answer
        if row.on_def_line:
            assert probe.anchor.line == 1 and probe.features.operators == 0
    (ret,) = [p for p in probes if p.kind == "return_line"]
    assert ret.answer == "9" and ret.question == (
        "Which `return` of `f` ends this call: the one on line 9 or 10? "
        "Answer with the line number."
    )
    (first,) = [p for p in probes if p.kind == "first_true"]
    assert first.answer == "2"  # 7 > 4 on the second pass


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def test_no_module_but_its_own_names_a_kind() -> None:
    """A kind's name, as a string, appears only in its module (and in `schemas.ProbeKind`):
    the probe, metrics and runs code around it has no branch on a kind (a run asks a kind's
    probes as the task kind its row names). "coverage" is also an REval stage, which the stage
    lists name."""
    package = Path(probes.__file__).parent
    own = {row.kind: Path(sys.modules[row.read.__module__].__file__ or "") for row in ROWS}
    stage_lists = {package / "_spec.py", Path(metrics.__file__).parent / "_incremental.py"}
    paths = [
        *package.glob("*.py"),
        *Path(metrics.__file__).parent.glob("*.py"),
        *Path(runs.__file__).parent.rglob("*.py"),
    ]
    for path in paths:
        for kind in set(own) & _string_constants(path):
            if path == own[kind] or (kind in STAGES and path in stage_lists):
                continue
            raise AssertionError(f"{path.name} names the probe kind {kind!r}")
    for kind, path in own.items():
        assert path.name.startswith("_kind_") and kind in _string_constants(path)


def test_a_run_asks_each_kind_as_the_task_its_row_names() -> None:
    assert PROBE_TASK_KINDS[0] == "probe"
    assert set(PROBE_TASK_KINDS) == {"probe"} | {row.task for row in ROWS}
    assert set(PROBE_TASK_KINDS) <= set(typing.get_args(TaskKind))
    assert ("output", "input", *PROBE_TASK_KINDS) == runs.TASK_KINDS
    for row in ROWS:
        assert task_kind(row.kind) == row.task
    assert task_kind("imported") == "probe"
