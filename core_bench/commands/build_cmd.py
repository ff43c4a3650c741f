"""`core-bench build`: turn a dataset of functions into a benchmark directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core_bench.build import AuthorOptions, BuildOptions, build_benchmark, check_authors
from core_bench.commands._args import (
    POSITIVE,
    WHOLE,
    add_endpoint_flags,
    endpoint_settings,
)
from core_bench.errors import UsageError
from core_bench.schemas import SkippedRow


def register(subparsers: Any) -> None:
    """Add the `build` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "build",
        help="build a benchmark: problems, verified variants and trace-grounded probes",
        description=(
            "Build a benchmark directory (problems.jsonl, variants.jsonl, probes.jsonl, "
            "manifest.json) from a dataset. A killed build started again resumes."
        ),
    )
    parser.add_argument("--out", type=Path, default=Path("benchmark"), help="output directory")
    add_build_flags(parser)
    parser.set_defaults(handler=run)


def add_build_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that say what a build makes (all of `core-bench build`'s but --out), for the
    command and for `bench/build.py`, which builds into a temporary folder."""
    parser.add_argument(
        "--dataset",
        default="bundled",
        help="'bundled' (default), 'cruxeval', 'core-qa=PATH', or a path or URL of "
        "CRUXEval-format JSON Lines",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--variants", type=WHOLE, default=4, help="equivalent variants per problem")
    parser.add_argument(
        "--singles",
        type=WHOLE,
        default=4,
        help="single-transform variants per problem, besides the composed ones (default 4)",
    )
    parser.add_argument(
        "--distractors",
        action="store_true",
        help="also use the distractor family (dead code, constant unfolding, misleading "
        "comments); off by default",
    )
    parser.add_argument("--mutants", type=WHOLE, default=2, help="mutants per problem")
    parser.add_argument(
        "--crash-mutants",
        action="store_true",
        help="keep mutants that differ on the shipped calls only by raising",
    )
    parser.add_argument("--probes", type=WHOLE, default=6, help="probes per (variant, call)")
    parser.add_argument("--calls", type=WHOLE, default=8, help="calls per problem")
    parser.add_argument("--limit", type=WHOLE, default=None, help="first N problems only")
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds per sandboxed call (default 5)"
    )
    authors = parser.add_argument_group(
        "reimplementations written by models",
        "Each --authors model is asked, per problem, for an independent implementation; it "
        "is kept as a variant (family reimplementation) only when it behaves like the "
        "original on every call plus 16 fresh ones, has cyclomatic complexity >= 3 and token "
        "Jaccard <= 0.7 against every kept implementation. Requests go through the client "
        "and cache of `core-bench run` (flags below); a rebuild asks nothing twice.",
    )
    authors.add_argument(
        "--authors",
        action="append",
        default=[],
        metavar="openai:MODEL",
        help="a model that writes reimplementations; repeat for several",
    )
    authors.add_argument(
        "--author-samples",
        type=POSITIVE,
        default=1,
        help="requests per problem and author (default 1)",
    )
    authors.add_argument(
        "--system-prompt",
        metavar="TEXT|@FILE",
        help="a system message before every authoring prompt (@FILE reads it from a file)",
    )
    authors.add_argument(
        "--cache",
        type=Path,
        help="the requests' cache file (default OUT/authors.sqlite)",
    )
    add_endpoint_flags(
        parser,
        timeout_flag="--request-timeout",
        max_tokens=2048,
        title="author endpoint (as for `core-bench run`; --request-timeout is its --timeout)",
    )


def _report(row: SkippedRow) -> None:
    where = ":".join(str(x) for x in (row.file, row.line) if x is not None)
    print(f"skipped {where} {row.id or ''}: {row.reason}".replace("  ", " "), file=sys.stderr)


def _authors(args: argparse.Namespace) -> AuthorOptions | None:
    if not args.authors:
        return None
    try:
        check_authors(args.authors)
    except ValueError as exc:
        raise UsageError(f"--authors: {exc}") from None
    return AuthorOptions(
        models=tuple(dict.fromkeys(args.authors)),
        samples=args.author_samples,
        temperature=args.temperature,
        top_p=args.top_p,
        max_tokens=args.max_tokens,
        endpoint=endpoint_settings(args),
    )


def build_options(args: argparse.Namespace) -> BuildOptions:
    """The `BuildOptions` the flags of `add_build_flags` ask for.

    Raises:
        UsageError: a flag's value cannot be used (it is named).
    """
    if args.timeout <= 0:
        raise UsageError(f"--timeout must be positive, got {args.timeout}")
    return BuildOptions(
        dataset=args.dataset,
        seed=args.seed,
        variants=args.variants,
        mutants=args.mutants,
        singles=args.singles,
        distractors=args.distractors,
        crash_mutants=args.crash_mutants,
        probes=args.probes,
        calls=args.calls,
        limit=args.limit,
        timeout_s=args.timeout,
        authors=_authors(args),
    )


def run(args: argparse.Namespace) -> int:
    """Build, print the counts, exit 0."""
    options = build_options(args)
    result = build_benchmark(options, args.out, on_skip=_report, author_cache=args.cache)
    counts = result.manifest.counts
    print(f"built {args.out}")
    for key, value in counts.items():
        print(f"  {key:<40} {value}")
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in result.stage_seconds.items())
    print(f"  time: {stages}")
    return 0
