"""`core-bench variants FILE --call 'f(...)'`: verified variants of a function, with diffs."""

from __future__ import annotations

import argparse
import difflib
import json
from typing import Any

from core_bench.commands.trace_cmd import read_source
from core_bench.errors import UsageError
from tracer import SandboxPool, TraceError, parse_call
from transforms import Variant, generate_variants


def register(subparsers: Any) -> None:
    """Add the `variants` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "variants",
        help="generate verified equivalent variants (and mutants) of a function",
        description=(
            "Rewrite a function with chains of LibCST transforms and keep the variants that "
            "behave like the original on every call (the given ones plus generated ones)."
        ),
    )
    parser.add_argument("file", help="Python source file defining the function, or - for stdin")
    parser.add_argument(
        "--call",
        action="append",
        required=True,
        help="a call expression such as 'f([1, 2], 3)'; repeat for more calls",
    )
    parser.add_argument("-k", type=int, default=4, help="equivalent variants wanted (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--mutants", type=int, nargs="?", const=2, default=0, help="also N mutants (default 2)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of diffs")
    parser.set_defaults(handler=run)


def _as_json(variant: Variant) -> dict[str, Any]:
    return {
        "code": variant.code,
        "kind": variant.kind,
        "chain": list(variant.chain),
        "jaccard": round(variant.jaccard, 4),
        "cc": variant.cc,
        "verified_calls": variant.verified_calls,
        "renames": dict(variant.provenance.renames),
        "line_map": {str(k): v for k, v in variant.provenance.line_map.items()},
        "differing_calls": list(variant.differing_calls),
    }


def _diff(original: str, variant: Variant, number: int) -> str:
    lines = difflib.unified_diff(
        original.splitlines(keepends=True),
        variant.code.splitlines(keepends=True),
        fromfile="original",
        tofile=f"{variant.kind} {number}",
    )
    return "".join(lines)


def run(args: argparse.Namespace) -> int:
    """Generate, verify and print the variants."""
    if args.k < 0 or args.mutants < 0:
        raise UsageError("-k and --mutants must be 0 or more")
    code = read_source(args.file)
    where = "<stdin>" if args.file == "-" else args.file
    for call in args.call:
        try:
            parse_call(call)
        except TraceError as exc:
            raise UsageError(str(exc)) from None
    with SandboxPool() as pool:
        original = pool.run_batch(code, args.call)
        broken = next((o for o in original if o.status != "ok"), None)
        if broken is not None:
            reason = broken.exception or broken.detail or broken.status
            raise UsageError(f"{where}: the original does not run: {reason}")
        variants = generate_variants(
            code, args.call, k=args.k, seed=args.seed, mutants=args.mutants, pool=pool
        )
    if args.json:
        print(json.dumps([_as_json(v) for v in variants], indent=2, ensure_ascii=False))
        return 0
    counters = {"equivalent": 0, "mutant": 0}
    for variant in variants:
        counters[variant.kind] += 1
        print(
            f"# {variant.kind} {counters[variant.kind]}: {' -> '.join(variant.chain)}"
            f"  (jaccard {variant.jaccard:.2f}, cc {variant.cc}, "
            f"verified on {variant.verified_calls} calls)"
        )
        print(_diff(code, variant, counters[variant.kind]))
    if not variants:
        print("no variant could be verified")
    return 0
