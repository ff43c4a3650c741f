"""`core-bench cruxeval-score GENERATIONS.json --mode input|output`: the official CRUXEval
scorer's numbers, from its generations file to its scored file, with execution sandboxed.

The official script ignores its own --mode and takes "input" mode whenever the generations
path contains "input"; here --mode is required and is what counts. It prints pass@1 and pass@5
rounded to one decimal, as the official script does; the scored file keeps them unrounded.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from core_bench.commands._isolation import add_isolation_flag, check_isolation
from core_bench.datasets import load_dataset
from core_bench.errors import UsageError
from core_bench.grading import MODES, OFFICIAL_TIMEOUT_S, score_cruxeval
from core_bench.progress import Progress
from tracer import SandboxPool

DATASET_ENV = "CORE_BENCH_CRUXEVAL"
"""Environment variable naming the CRUXEval file when --dataset is not given."""


def register(subparsers: Any) -> None:
    """Add the `cruxeval-score` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "cruxeval-score",
        help="score CRUXEval generations exactly as the official scorer does",
        description=(
            'Read a CRUXEval generations file ({"sample_0": [generation, ...], ...}) and '
            "write the official scored file (raw_generations, raw_scored_generations, "
            "pass_at_1, pass_at_5), reproducing the official scorer's numbers and quirks; "
            "every check runs in the sandbox."
        ),
    )
    parser.add_argument("generations", help="the generations JSON file")
    parser.add_argument("--mode", required=True, help="'input' or 'output'")
    parser.add_argument(
        "--dataset",
        default=None,
        help=f"CRUXEval-format JSON Lines (default: ${DATASET_ENV}, else the official file, "
        "downloaded once)",
    )
    parser.add_argument("--out", type=Path, default=None, help="write the scored JSON here")
    parser.add_argument(
        "--workers", type=int, default=None, help="sandbox worker processes (default: CPUs)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=OFFICIAL_TIMEOUT_S,
        help=f"seconds per generation (default {OFFICIAL_TIMEOUT_S:g}, as the official scorer)",
    )
    add_isolation_flag(parser)
    parser.set_defaults(handler=run)


def read_generations(name: str) -> dict[str, Any]:
    """The generations file as a dict; UsageError naming the file when it is not one."""
    path = Path(name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{name}: no such file") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name}: not JSON (line {exc.lineno}, column {exc.colno})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{name}: cannot read: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError(
            f'{name}: expected a JSON object {{"sample_0": [generation, ...], ...}}, '
            f"got a {type(data).__name__}"
        )
    return data


def _rows(spec: str | None) -> list[Any]:
    chosen = spec or os.environ.get(DATASET_ENV) or "cruxeval"
    loaded = load_dataset(chosen)
    if loaded.skipped:
        bad = loaded.skipped[0]
        raise UsageError(
            f"{bad.file}:{bad.line}: row {bad.id} cannot be used ({bad.reason}); samples are "
            "numbered by position, so every row must load"
        )
    return list(loaded.rows)


def run(args: argparse.Namespace) -> int:
    """Score, print pass@1 and pass@5 (rounded as the official script prints), write --out."""
    check_isolation(args)
    if args.mode not in MODES:
        raise UsageError(f"--mode must be 'input' or 'output', got {args.mode!r}")
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be positive, got {args.timeout}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    generations = read_generations(args.generations)
    rows = _rows(args.dataset)
    samples = (generations.get(f"sample_{i}") for i in range(len(rows)))
    total = sum(len(v) for v in samples if isinstance(v, list))
    with (
        SandboxPool(workers=args.workers) as pool,
        Progress("cruxeval-score", total=total, unit="gen") as bar,
    ):
        try:
            scored = score_cruxeval(
                generations,
                args.mode,
                rows,
                pool,
                timeout_s=args.timeout,
                on_sample=bar.advance,
            )
        except ValueError as exc:
            raise UsageError(f"{args.generations}: {exc}") from None
    if args.out is not None:
        try:
            args.out.write_text(json.dumps(scored), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{args.out}: cannot write: {exc}") from None
    print(f"pass@1: {round(scored['pass_at_1'], 1)} pass@5: {round(scored['pass_at_5'], 1)}")
    return 0
