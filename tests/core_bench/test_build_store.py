"""A finished problem travels as the lines of the benchmark files: they are the lines the
records' old round trip through the work store wrote (dump, JSON, validate, dump again), and
the work store gives back the lines and tallies it was given."""

from __future__ import annotations

from pathlib import Path

from core_bench.build import BuildOptions
from core_bench.build._finished import finish
from core_bench.build._problem import ProblemBuild, build_problem
from core_bench.build._store import WorkStore
from core_bench.datasets import load_dataset
from core_bench.schemas import Probe, Problem, SkippedRow, Variant
from tracer import SandboxPool

OPTIONS = BuildOptions(variants=2, mutants=1, calls=4, probes=4, singles=1)


def _round_trip_lines(built: ProblemBuild) -> dict[str, str]:
    """The lines the work store used to write for a problem: records dumped to JSON values,
    validated back into records, then dumped as JSON text."""
    problem = Problem.model_validate(built.problem.model_dump(mode="json"))
    variants = [Variant.model_validate(v.model_dump(mode="json")) for v in built.variants]
    probes = [Probe.model_validate(p.model_dump(mode="json")) for p in built.probes]
    return {
        "problems.jsonl": problem.model_dump_json() + "\n",
        "variants.jsonl": "".join(v.model_dump_json() + "\n" for v in variants),
        "probes.jsonl": "".join(p.model_dump_json() + "\n" for p in probes),
    }


def test_finished_lines_are_the_old_round_trip_s_and_survive_the_work_store(
    tmp_path: Path, pool: SandboxPool
) -> None:
    rows = load_dataset("bundled").rows[:3]
    store = WorkStore(tmp_path, "key")
    for index, row in enumerate(rows):
        built = build_problem(row.problem, OPTIONS, pool)
        assert built.failure is None and built.probes
        built.skipped.append(SkippedRow(file="x.jsonl", line=index, id="x", reason="a\nb"))
        finished = finish(built)
        assert finished.texts == _round_trip_lines(built)
        assert finished.done.tally["probes"] == len(built.probes)
        assert finished.done.tally["variants"] == len(built.variants)
        store.save(index, finished)
        loaded = store.load(index)
        assert loaded is not None
        assert loaded.texts == finished.texts
        assert loaded.done.tally == finished.done.tally
        assert loaded.done.skipped == finished.done.skipped
        assert loaded.done.failure is None
    assert store.load(len(rows)) is None


def test_a_failed_problem_keeps_its_failure_and_no_lines(tmp_path: Path) -> None:
    problem = load_dataset("bundled").rows[0].problem
    finished = finish(ProblemBuild(problem, failure="build failed: ValueError: x"))
    store = WorkStore(tmp_path, "key")
    store.save(0, finished)
    loaded = store.load(0)
    assert loaded is not None and loaded.done.failure == "build failed: ValueError: x"
    assert set(loaded.texts.values()) == {""} and loaded.done.tally["problems"] == 0
