"""The metric registry: each metric module declares its rows and meanings; nothing else lists
them."""

from __future__ import annotations

import ast
from pathlib import Path

from records import sample
from test_metrics_definitions import REAL, core_samples, staged_benchmark

from core_bench import metrics
from core_bench.metrics import MEANING, METRIC_MODULES, METRICS, Bootstrap, summarize
from core_bench.metrics._data import Context
from core_bench.report import MEANING as REPORT_MEANING
from core_bench.schemas import Sample

PACKAGE = Path(metrics.__file__).parent


def _declares_metric(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "METRIC" for t in node.targets)
        for node in tree.body
    )


def test_every_module_that_declares_a_metric_is_registered_once() -> None:
    declaring = {p.stem for p in PACKAGE.glob("_*.py") if _declares_metric(p)}
    registered = [m.__name__.rsplit(".", 1)[1] for m in METRIC_MODULES]
    assert len(registered) == len(set(registered))
    assert declaring == set(registered)
    assert tuple(m.METRIC for m in METRIC_MODULES) == METRICS


def test_the_glossary_is_the_union_of_the_modules_meanings() -> None:
    names = [name for metric in METRICS for name in metric.meanings]
    assert len(names) == len(set(names)), "two modules declare one metric name"
    assert dict(MEANING) == {n: t for m in METRICS for n, t in m.meanings.items()}
    assert REPORT_MEANING is MEANING
    assert all(text and not text.endswith(".") for text in MEANING.values())


def _samples() -> list[Sample]:
    mutant = [sample("output", "p1:mut", 0, True, answer="7")]
    traced = [
        sample("output", "p1:orig", 0, True).model_copy(
            update={"strategy": "trace", "response": f"[TRACE]\n{REAL}\n[/TRACE]"}
        )
    ]
    coverage = [
        sample("probe", f"{p}:{v}", c, True, probe_id=f"{p}:{v}:c")
        for p in ("p1", "p2")
        for v in ("orig", "eq1")
        for c in (0, 1)
    ]
    return core_samples() + coverage + mutant + traced


def test_summarize_is_each_registered_metric_in_order_per_strategy() -> None:
    bench = staged_benchmark()
    outputs = {("p1:mut", 0): "7"}
    traces = {("p1:orig", 0): REAL}
    rows = summarize(_samples(), bench, "m", mutant_outputs=outputs, traces=traces)
    expected = []
    contexts = Context.split(
        _samples(), bench, "m", Bootstrap(seed=0), mutant_outputs=outputs, traces=traces
    )
    for ctx in contexts:
        for metric in METRICS:
            found = metric.rows(ctx)
            assert {r.metric for r in found} <= set(metric.meanings), metric
            expected.extend(found)
    assert rows == expected
    # Every module contributed (mutant and trace rows included) and every name has a meaning.
    assert {r.metric for r in rows} <= set(MEANING)
    for metric in METRICS:
        assert {r.metric for r in rows} & set(metric.meanings), metric
