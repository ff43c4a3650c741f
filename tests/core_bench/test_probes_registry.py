"""The registry: one row per probe kind holds everything about it."""

from __future__ import annotations

import typing

from core_bench.metrics._incremental import STAGES
from core_bench.probes import KINDS, PROBE_KINDS, ROWS, STAGE_OF_KIND, candidate_probes
from core_bench.schemas import ProbeKind
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
