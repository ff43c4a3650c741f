"""What a build keeps of a finished problem: its records as the lines of the benchmark files,
and its tallies.

A build process turns its `ProblemBuild` into a `Finished` before sending it back, so the
parent receives text rather than hundreds of pydantic records to unpickle, dump to a work file,
read back, validate and dump again: each record is serialised once, where it was made.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from core_bench.benchmark import FILES
from core_bench.build._problem import ProblemBuild
from core_bench.schemas import SkippedRow


@dataclass(slots=True)
class Done:
    """What the build keeps in memory of a finished problem; its records stay on disk."""

    failure: str | None
    tally: Counter[str]
    seconds: dict[str, float]
    skipped: list[SkippedRow] = field(default_factory=list)


@dataclass(slots=True)
class Finished:
    """A finished problem: its tallies and, unless it failed, the lines it adds to each file.

    Attributes:
        done: its tallies (what stays in memory).
        texts: file name (of `benchmark.FILES`) -> the JSON lines of its records, each ending in
            a newline, exactly as the file holds them ("" for a failed problem).
    """

    done: Done
    texts: dict[str, str]


def tally_of(result: ProblemBuild) -> Done:
    """The tallies of a problem's build (the manifest's counts add them up)."""
    tally: Counter[str] = Counter(result.dropped)
    if result.failure is None:
        tally.update(result.counts)
        tally["problems"] = 1
        tally["calls"] = len(result.problem.calls)
        tally["variants"] = len(result.variants)
        tally.update(f"variants.{v.kind}" for v in result.variants)
        tally["probes"] = len(result.probes)
        tally.update(f"probes.{p.kind}" for p in result.probes)
        tally["probes.anchored"] = sum(p.anchored for p in result.probes)
        if not any(v.kind == "equivalent" for v in result.variants):
            tally["problems.without_equivalent_variants"] = 1
    skipped = result.skipped if result.failure is None else []
    return Done(result.failure, tally, result.seconds, skipped)


def finish(result: ProblemBuild) -> Finished:
    """A problem's build as its tallies and the lines its records add to the files."""
    done = tally_of(result)
    if result.failure is not None:
        return Finished(done, dict.fromkeys(FILES, ""))
    texts = {
        "problems.jsonl": result.problem.model_dump_json() + "\n",
        "variants.jsonl": "".join(v.model_dump_json() + "\n" for v in result.variants),
        "probes.jsonl": "".join(p.model_dump_json() + "\n" for p in result.probes),
    }
    return Finished(done, texts)
