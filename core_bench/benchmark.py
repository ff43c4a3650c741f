"""Reading a built benchmark: the directory `core-bench build` writes, read back as records.

    bench = load_benchmark("bench")
    bench.problems, bench.variants, bench.probes, bench.manifest

The read side of the benchmark files (DESIGN.md, "Benchmark files"): runs, grading, metrics,
report, view and export read a benchmark through this module, never through the build.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core_bench._share import Sharer
from core_bench.schemas import Manifest, Probe, Problem, Variant, read_records

__all__ = ["FILES", "Benchmark", "literal_output", "load_benchmark", "read_jsonl"]

FILES = ("problems.jsonl", "variants.jsonl", "probes.jsonl")
"""The record files of a benchmark directory, beside its manifest.json."""


@dataclass(slots=True)
class Benchmark:
    """A built benchmark read back from its directory."""

    root: Path
    manifest: Manifest
    problems: list[Problem]
    variants: list[Variant]
    probes: list[Probe]


def read_jsonl(path: Path | str, model: type[Any], sharer: Sharer | None = None) -> list[Any]:
    """Read one of a benchmark's `.jsonl` files back into records.

    Args:
        path: the file.
        model: the record type of each line.
        sharer: shares equal values among the records read (see `core_bench._share`).

    Raises:
        ValueError: a line is not a valid record (file and line named).
    """
    records = read_records(Path(path), model)
    return [sharer.share(r) for r in records] if sharer is not None else list(records)


def load_benchmark(root: Path | str) -> Benchmark:
    """Read a benchmark directory written by `core_bench.build.build_benchmark`.

    Args:
        root: the benchmark directory.

    Raises:
        ValueError: a file is missing or a line is not a valid record (file and line named).
    """
    root = Path(root)
    missing = [name for name in (*FILES, "manifest.json") if not (root / name).is_file()]
    if missing:
        raise ValueError(f"{root}: not a benchmark directory (missing {', '.join(missing)})")
    manifest = Manifest.model_validate_json((root / "manifest.json").read_text(encoding="utf-8"))
    sharer = Sharer()  # a large benchmark's records repeat most of their values
    return Benchmark(
        root=root,
        manifest=manifest,
        problems=read_jsonl(root / "problems.jsonl", Problem, sharer),
        variants=read_jsonl(root / "variants.jsonl", Variant, sharer),
        probes=read_jsonl(root / "probes.jsonl", Probe, sharer),
    )


def literal_output(stored: str) -> str | None:
    """A stored output (`Variant.outputs`) as an answer a model can give.

    Args:
        stored: one of a variant's stored outputs.

    Returns:
        `stored`, or None when the call raised, was cut, or returned a value with no literal
        repr.
    """
    if stored.startswith("!"):
        return None
    try:
        ast.literal_eval(stored)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return stored
