"""The metrics: one module each, listed once here.

A metric module computes its rows from one strategy's `Context` and declares them as its
`METRIC` (`_data.Metric`: the function that makes its rows and each metric name's one-line
meaning). `summarize` calls every module's rows in the order of `METRIC_MODULES` (the order of
summary.json's rows) and the report's glossary reads `MEANING`. Adding a metric is its module
and one line here (a new module goes last, so existing summaries keep their row order).
"""

from __future__ import annotations

from core_bench.metrics import (
    _accuracy,
    _consistency,
    _core,
    _faithfulness,
    _incremental,
    _mutants,
    _passk,
    _probes,
    _robustness,
)
from core_bench.metrics._data import Metric

METRIC_MODULES = (
    _accuracy,
    _passk,
    _robustness,
    _core,
    _incremental,
    _consistency,
    _probes,
    _mutants,
    _faithfulness,
)
"""The metric modules, each with its `METRIC`, in the order of summary.json's rows."""

METRICS: tuple[Metric, ...] = tuple(module.METRIC for module in METRIC_MODULES)

MEANING: dict[str, str] = {
    name: text for metric in METRICS for name, text in metric.meanings.items()
}
"""metric name -> what it measures, in one line (every name a metric module's rows use)."""
