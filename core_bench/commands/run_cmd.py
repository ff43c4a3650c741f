"""`core-bench run`: ask a model (or a reference agent) every task of a benchmark, and grade."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.commands._args import (
    NON_NEGATIVE,
    POSITIVE,
    WHOLE,
    add_endpoint_flags,
    add_suite_flags,
    add_task_flags,
    endpoint_settings,
)
from core_bench.commands._isolation import add_isolation_flag, check_isolation
from core_bench.commands._report import add_report_flags, write_run_report
from core_bench.errors import UsageError
from core_bench.report import HEADLINE
from core_bench.runs import (
    AGENTS,
    RunConfig,
    RunResult,
    Sampling,
    benchmark_ref,
    default_out,
    ensure_bundled_benchmark,
    format_plan,
    make_tasks,
    parse_model,
    plan,
    resolve_endpoint,
    run,
)
from core_bench.suites import Suite, select_suite


def register(subparsers: Any) -> None:
    """Add the `run` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "run",
        help="run a model or reference agent over a benchmark and grade its answers",
        description=(
            "Ask a model every task of a benchmark (task kind x strategy x sample), grade the "
            "answers, and write a run directory (manifest.json, cache.sqlite, samples.jsonl, "
            "summary.json). Rerunning the same command resumes: answered requests are never "
            "sent again."
        ),
    )
    parser.add_argument(
        "--model",
        action="append",
        required=True,
        metavar="SPEC",
        help="openai:<name> (any OpenAI-compatible server) or ref:<agent> with agent one of "
        f"{', '.join(AGENTS)} (reference agents, not language models); repeat for several "
        "models (one run directory each under --out)",
    )
    parser.add_argument(
        "--bench",
        type=Path,
        help="benchmark directory from `core-bench build` (default: the bundled benchmark, "
        "built once into $CORE_BENCH_CACHE or ~/.cache/core-bench)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="run directory (with several models: the parent of one directory per model); "
        "default runs/<model>-<fingerprint of the options>, so the same command resumes",
    )
    add_task_flags(parser)
    parser.add_argument("--limit", type=POSITIVE, help="first N problems only")
    add_suite_flags(
        parser,
        default=None,
        help="quick (a smoke test: at most 500 tasks per strategy and sample), standard (sized "
        "for 95%% intervals of at most 3 points at 70%% accuracy; the default for openai: "
        "models without --limit), full (everything; the default otherwise)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the requests per task kind and strategy and the estimated tokens, send "
        "nothing and write nothing",
    )
    parser.add_argument(
        "--system-prompt",
        metavar="TEXT|@FILE",
        help="a system message before every prompt (@FILE reads it from a file)",
    )
    endpoint = add_endpoint_flags(parser)
    endpoint.add_argument(
        "--samples",
        type=POSITIVE,
        default=1,
        help="samples per task, for pass@k (default 1)",
    )
    endpoint.add_argument(
        "--seed",
        type=WHOLE,
        default=0,
        help="seed of the requests and of the reference agents (default 0)",
    )
    endpoint.add_argument(
        "--no-stop",
        dest="stop",
        action="store_false",
        help="send no stop sequences (by default [/ANSWER], and for direct the tags that "
        "start more few-shot text; a server that rejects them is asked again without)",
    )
    parser.add_argument(
        "--float-tolerance",
        type=NON_NEGATIVE,
        default=0.0,
        help="tolerance of float comparisons in grading (default 0: exact)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_isolation_flag(parser)
    add_report_flags(parser)
    parser.set_defaults(handler=handle)

    def one_line_error(message: str) -> NoReturn:
        print(f"core-bench run: error: {message} (see core-bench run --help)", file=sys.stderr)
        sys.exit(2)

    parser.error = one_line_error  # type: ignore[method-assign]


def _benchmark(path: Path | None) -> Benchmark:
    root = path if path is not None else ensure_bundled_benchmark()
    try:
        return load_benchmark(root)
    except ValueError as exc:
        raise UsageError(f"--bench {root}: {exc}") from None


def handle(args: argparse.Namespace) -> int:
    """Run every model and write each run's report; exit 0 when every task was answered and
    every report written, 1 when some requests failed or a report could not be written."""
    check_isolation(args)
    models: list[str] = list(dict.fromkeys(args.model))
    for spec in models:
        try:
            parse_model(spec)
        except ValueError as exc:
            raise UsageError(f"--model: {exc}") from None
    endpoint = endpoint_settings(args)
    benchmark = _benchmark(args.bench)
    if args.samples > 1 and args.temperature == 0:
        print("note: --samples > 1 at temperature 0; samples may be identical", file=sys.stderr)
    status = 0
    for spec in models:
        suite = args.suite or _default_suite(spec, args.limit)
        config = RunConfig(
            model=spec,
            bench=benchmark.root,
            out=Path("."),
            tasks=args.tasks,
            strategies=args.strategies,
            limit=args.limit,
            samples=args.samples,
            sampling=Sampling(
                temperature=args.temperature,
                max_tokens=args.max_tokens,
                seed=args.seed,
                top_p=args.top_p,
            ),
            stop=args.stop,
            float_tolerance=args.float_tolerance,
            suite=suite,
            suite_seed=args.suite_seed,
            endpoint=endpoint,
        )
        if args.dry_run:
            _dry_run(config, benchmark)
            continue
        if args.suite is None and suite != "full":
            print(f"note: {spec}: suite {suite} (--suite full asks everything)", file=sys.stderr)
        try:
            config = resolve_endpoint(config)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        config = replace(config, out=_out(args.out, config, benchmark, several=len(models) > 1))
        result = run(config, benchmark=benchmark, progress=not args.quiet)
        reported = write_run_report("run", result.out, args)
        _report(result)
        if result.counts["failed"] or not reported:
            status = 1
    return status


def _default_suite(spec: str, limit: int | None) -> Suite:
    """`standard` for a real model unless --limit already sizes the run; else `full`."""
    return "standard" if spec.startswith("openai:") and limit is None else "full"


def _dry_run(config: RunConfig, benchmark: Benchmark) -> None:
    selection = select_suite(benchmark, config.suite, seed=config.suite_seed)
    tasks = make_tasks(
        selection.benchmark, kinds=config.tasks, strategies=config.strategies, limit=config.limit
    )
    rows = plan(
        tasks,
        samples=config.samples,
        max_tokens=config.sampling.max_tokens,
        api=config.endpoint.api,
        system_prompt=config.endpoint.system_prompt,
    )
    chosen = selection.benchmark
    print(
        f"{config.model}: suite {config.suite}: {len(chosen.problems)} problems, "
        f"{len(chosen.variants)} variants, {len(chosen.probes)} probes"
        + (f" (first {config.limit} problems)" if config.limit else "")
    )
    if selection.gap_half_width is not None and selection.probe_half_width is not None:
        print(
            f"  expected 95% half-widths at 70% accuracy: robustness gap "
            f"{100 * selection.gap_half_width:.1f} points, probe accuracy "
            f"{100 * selection.probe_half_width:.1f} points"
        )
    print(format_plan(rows, samples=config.samples))


def _out(given: Path | None, config: RunConfig, benchmark: Benchmark, *, several: bool) -> Path:
    if given is not None and not several:
        return given
    sha = benchmark_ref(benchmark).sha256
    return default_out(config, sha, root=given if given is not None else Path("runs"))


def _report(result: RunResult) -> None:
    """The run's closing lines: counts, verdicts, the headline metrics with their intervals,
    and where the report is."""
    counts = result.counts
    print(
        f"{result.manifest.model}: {counts['samples']} samples "
        f"({counts['cached']} from the cache, {counts['requested']} requested, "
        f"{counts['failed']} failed) in {result.seconds:.1f}s -> {result.out}"
    )
    verdicts = Counter(result.verdicts)
    print("  verdicts: " + ", ".join(f"{v} {n:,}" for v, n in verdicts.most_common()))
    rows = {(r.task, r.metric, r.group, r.strategy): r for r in result.metrics}
    strategies = sorted({r.strategy for r in result.metrics})
    for label, task, metric, group, _ in HEADLINE:
        for strategy in strategies:
            row = rows.get((task, metric, group, strategy))
            if row is None:
                continue
            interval = (
                f" [{row.ci_low:.1f}, {row.ci_high:.1f}]"
                if row.ci_low is not None and row.ci_high is not None
                else ""
            )
            print(f"  {label:<24} {strategy:<7} {row.value:6.1f}{interval}  n={row.n}")
    report = result.out / "report.md"
    if report.is_file():
        print(f"  report: {report} (report.html beside it)")
    if counts["failed"]:
        print(
            f"  {counts['failed']} requests failed; run the same command again to retry them",
            file=sys.stderr,
        )
