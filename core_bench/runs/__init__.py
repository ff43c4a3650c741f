"""Model runs: a benchmark in, a run directory of graded samples out.

    from core_bench.runs import RunConfig, Sampling, run

    result = run(RunConfig(model="ref:oracle", bench=Path("bench"), out=Path("runs/oracle")))
    result.counts, result.metrics

`run` turns the benchmark into tasks (task kind x strategy x sample), renders prompts (every
template is in the one module `core_bench/runs/_prompts.py`, importable as
`from core_bench.runs import prompts`), asks the model (`openai:<name>`
through the `openai` package, or a reference agent `ref:<name>`), grades with
`core_bench.grading`, and writes manifest.json, cache.sqlite, samples.jsonl and summary.json.
It writes no report: `core_bench.report.write_report` does (as `core-bench run` after a run).

Backends are `BACKENDS`, by the spec's scheme (one module of `core_bench.runs.backends` each),
and reference agents `AGENTS`, by name (one module of `core_bench.runs.agents` each).
"""

from __future__ import annotations

from core_bench.endpoint import Endpoint
from core_bench.runs import _prompts as prompts
from core_bench.runs._agents import AGENTS, Agent, ReferenceAgent, perturb, register_agent
from core_bench.runs._backend import (
    BACKENDS,
    Backend,
    BackendKind,
    make_backend,
    register_backend,
)
from core_bench.runs._blind import BEST, CANDIDATES, Seen, blind_answer
from core_bench.runs._bundled import bundled_benchmark_dir, ensure_bundled_benchmark
from core_bench.runs._cache import ResponseCache, request_key
from core_bench.runs._client import Completion, OpenAIBackend, Request, Sampling
from core_bench.runs._config import RunConfig, default_out, parse_model, resolve_endpoint
from core_bench.runs._plan import PlanRow, estimate_tokens, format_plan, plan
from core_bench.runs._prompts import Prompt, render
from core_bench.runs._regrade import GradeResult, regrade
from core_bench.runs._retry import RequestFailed, RetryPolicy, classify, retry_after
from core_bench.runs._rundir import RunManifest, benchmark_ref, read_samples, write_atomic
from core_bench.runs._runner import RunResult, run
from core_bench.runs._samplefile import GradedSample, read_graded
from core_bench.runs._summary import real_traces, summary_rows
from core_bench.runs._tasks import STRATEGIES, TASK_KINDS, Task, make_tasks

__all__ = [
    "AGENTS",
    "BACKENDS",
    "BEST",
    "CANDIDATES",
    "STRATEGIES",
    "TASK_KINDS",
    "Agent",
    "Backend",
    "BackendKind",
    "Completion",
    "Endpoint",
    "GradeResult",
    "GradedSample",
    "OpenAIBackend",
    "PlanRow",
    "Prompt",
    "ReferenceAgent",
    "Request",
    "RequestFailed",
    "ResponseCache",
    "RetryPolicy",
    "RunConfig",
    "RunManifest",
    "RunResult",
    "Sampling",
    "Seen",
    "Task",
    "benchmark_ref",
    "blind_answer",
    "bundled_benchmark_dir",
    "classify",
    "default_out",
    "ensure_bundled_benchmark",
    "estimate_tokens",
    "format_plan",
    "make_backend",
    "make_tasks",
    "parse_model",
    "perturb",
    "plan",
    "prompts",
    "read_graded",
    "read_samples",
    "real_traces",
    "register_agent",
    "register_backend",
    "regrade",
    "render",
    "request_key",
    "resolve_endpoint",
    "retry_after",
    "run",
    "summary_rows",
    "write_atomic",
]
