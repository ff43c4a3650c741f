"""`core-bench build`: files, counts, re-derived probe answers, determinism, resume, bad rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from probe_reader import Reread, check_probe
from shared_builds import cruxeval_build_options

import core_bench.build as build_module
from core_bench.benchmark import FILES, load_benchmark
from core_bench.build import BuildOptions, build_benchmark
from core_bench.cli import main
from core_bench.datasets import load_dataset
from core_bench.schemas import Manifest
from tracer import SandboxPool, default_isolation

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")
SMALL = BuildOptions(variants=2, mutants=1, calls=5, probes=4, singles=2)
FIRST = 12
"""Problems of the bundled build in the default suite: enough for every kind of probe,
family and anchoring the checks below look for."""


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(FIRST, id=f"first-{FIRST}"),
        pytest.param(None, id="all-bundled", marks=pytest.mark.slow),
    ],
)
def bundled(request: pytest.FixtureRequest, build_once: Callable[[BuildOptions], Path]) -> Path:
    """The bundled dataset built with SMALL: its first FIRST problems in the default suite, all
    of them in the slow one (a full build of the bundled data takes minutes of both cores)."""
    return build_once(replace(SMALL, limit=request.param))


def test_bundled_build_files_and_counts(bundled: Path) -> None:
    bench = load_benchmark(bundled)
    manifest = bench.manifest
    assert manifest.skipped == [] and manifest.dataset.name == "bundled"
    rows = load_dataset("bundled").rows[: manifest.options["limit"]]
    assert manifest.counts["problems"] == len(bench.problems) == len(rows)
    assert manifest.counts["variants"] == len(bench.variants)
    assert manifest.counts["probes"] == len(bench.probes)
    assert not (bundled / ".work").exists()
    kinds = Counter(v.kind for v in bench.variants)
    assert kinds["original"] == len(bench.problems)
    assert kinds["equivalent"] >= 0.95 * 2 * len(bench.problems)
    originals = Counter(v.problem_id for v in bench.variants if v.kind == "original")
    assert set(originals.values()) == {1}
    assert all(len(p.calls) == len(p.outputs) >= 5 for p in bench.problems)
    variant_ids = {v.id for v in bench.variants}
    assert len(variant_ids) == len(bench.variants)
    probe_ids = [p.id for p in bench.probes]
    assert len(set(probe_ids)) == len(probe_ids)
    assert all(p.variant_id in variant_ids for p in bench.probes)
    by_id = {p.id: p for p in bench.probes}
    anchored = [p for p in bench.probes if p.anchor_of is not None]
    assert anchored, "no probe was anchored across variants"
    for probe in anchored:
        origin = by_id[probe.anchor_of or ""]
        assert origin.anchored and origin.problem_id == probe.problem_id
        assert origin.call_index == probe.call_index and origin.kind == probe.kind
        assert origin.answer == probe.answer or probe.kind in ("next_line", "return_line")
    kinds_seen = {p.kind for p in bench.probes}
    assert {"state_after", "branch", "loop_iterations", "loop_exit_state", "coverage"} <= kinds_seen
    assert {"next_line", "call_return", "full_trace"} <= kinds_seen


def test_variants_carry_their_family_and_whether_they_are_single(bundled: Path) -> None:
    bench = load_benchmark(bundled)
    families = Counter((v.kind, v.family, v.single) for v in bench.variants)
    assert all(v.family is None for v in bench.variants if v.kind == "original")
    assert all(v.family == "mutant" for v in bench.variants if v.kind == "mutant")
    equivalent = [v for v in bench.variants if v.kind == "equivalent"]
    assert all(v.family in ("rewrite", "idiom", "rename") for v in equivalent), families
    singles = [v for v in equivalent if v.single]
    assert singles and all(len(v.chain) == 1 for v in singles)
    assert sum(v.family == "rename" for v in singles) >= 0.9 * len(bench.problems)
    assert all(len(v.chain) >= 2 for v in equivalent if not v.single)
    assert all(not v.single for v in bench.variants if v.kind == "mutant")


def test_every_mutant_returns_another_value_on_a_shipped_call(bundled: Path) -> None:
    bench = load_benchmark(bundled)
    problems = {p.id: p for p in bench.problems}
    originals = {v.problem_id: v for v in bench.variants if v.kind == "original"}
    mutants = [v for v in bench.variants if v.kind == "mutant"]
    assert len(mutants) >= 0.5 * len(problems)
    jobs = []
    for mutant in mutants:
        calls = list(problems[mutant.problem_id].calls)
        jobs += [(originals[mutant.problem_id].code, calls), (mutant.code, calls)]
    with SandboxPool(workers=2) as pool:
        outcomes = pool.map(jobs, timeout_s=5.0)
    for i, mutant in enumerate(mutants):
        before, after = outcomes[2 * i], outcomes[2 * i + 1]
        assert any(
            a.status == b.status == "ok" and a.result != b.result
            for a, b in zip(before, after, strict=True)
        ), mutant.id


def test_every_probe_answer_is_rederived_from_a_fresh_trace(bundled: Path) -> None:
    bench = load_benchmark(bundled)
    problems = {p.id: p for p in bench.problems}
    with SandboxPool() as pool:
        fresh = pool.map(
            [(v.code, problems[v.problem_id].calls) for v in bench.variants], trace=True
        )
    readers: dict[tuple[str, int], Reread] = {}
    for variant, outcomes in zip(bench.variants, fresh, strict=True):
        calls = problems[variant.problem_id].calls
        for index, (call, outcome) in enumerate(zip(calls, outcomes, strict=True)):
            readers[variant.id, index] = Reread(variant.code, call, outcome.trace)
    for probe in bench.probes:
        check_probe(readers[probe.variant_id, probe.call_index], probe)


def read_files(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in FILES}


def test_same_arguments_give_byte_identical_files(
    build_once: Callable[[BuildOptions], Path], tmp_path: Path
) -> None:
    """The CLI in another process, under another hash seed, writes the bytes of the session's
    in-process build with the same options."""
    options = replace(SMALL, limit=FIRST)
    args = ["build", "--limit", str(FIRST)]
    for name in ("variants", "mutants", "calls", "probes", "singles"):
        args += [f"--{name}", str(getattr(options, name))]
    env = {**os.environ, "PYTHONHASHSEED": "4321"}
    exe = Path(sys.executable).parent / "core-bench"
    done = subprocess.run(
        [str(exe), *args, "--out", str(tmp_path / "b")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert read_files(build_once(options)) == read_files(tmp_path / "b")
    assert "problems" in done.stdout and "probes.anchored" in done.stdout


def test_a_killed_build_resumes_without_redoing_finished_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = BuildOptions(variants=1, mutants=0, calls=3, probes=2, limit=6)
    build_benchmark(options, tmp_path / "clean")
    real = build_module.build_problem
    done: list[str] = []

    def dies_after_three(problem, opts, pool, *rest, **given):  # type: ignore[no-untyped-def]
        if len(done) >= 3:
            raise KeyboardInterrupt
        done.append(problem.id)
        return real(problem, opts, pool, *rest, **given)

    monkeypatch.setattr(build_module, "build_problem", dies_after_three)
    with pytest.raises(KeyboardInterrupt):
        build_benchmark(options, tmp_path / "resumed", processes=1)
    assert len(list((tmp_path / "resumed" / ".work").glob("0*.json"))) == 3
    rebuilt: list[str] = []

    def counting(problem, opts, pool, *rest, **given):  # type: ignore[no-untyped-def]
        rebuilt.append(problem.id)
        return real(problem, opts, pool, *rest, **given)

    monkeypatch.setattr(build_module, "build_problem", counting)
    build_benchmark(options, tmp_path / "resumed", processes=1)
    assert len(rebuilt) == 3 and not set(rebuilt) & set(done)
    assert read_files(tmp_path / "clean") == read_files(tmp_path / "resumed")


def test_bad_rows_are_reported_and_the_build_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"id": "ok", "code": "def f(x):\n    return x * 2\n", "input": "3", "output": "6"},
        {"id": "wrong", "code": "def f(x):\n    return x + 1\n", "input": "3", "output": "5"},
        {
            "id": "hangs",
            "code": "def f(x):\n    while x:\n        pass\n",
            "input": "1",
            "output": "1",
        },
    ]
    data = tmp_path / "rows.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n{not json\n")
    out = tmp_path / "out"
    args = ["build", "--dataset", str(data), "--out", str(out), "--timeout", "1"]
    assert main([*args, "--variants", "1", "--mutants", "0", "--calls", "2"]) == 0
    captured = capsys.readouterr()
    manifest = Manifest.model_validate_json((out / "manifest.json").read_text())
    assert manifest.counts["problems"] == 1 and manifest.counts["skipped"] == 3
    where = {(s.line, s.id) for s in manifest.skipped}
    assert where == {(2, "wrong"), (3, "hangs"), (4, None)}
    assert all(s.file == str(data) for s in manifest.skipped)
    assert manifest.isolation == default_isolation()[0]  # what the dataset's code ran under
    assert f"skipped {data}:2 wrong:" in captured.err
    assert "built " in captured.out


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_cruxeval_build_completes_and_reports_counts(
    build_once: Callable[[BuildOptions], Path],
) -> None:
    root = build_once(cruxeval_build_options(str(CRUXEVAL)))  # shared with test_hash_gate
    counts = load_benchmark(root).manifest.counts
    print("\nCRUXEval build counts:", counts)
    assert counts["problems"] == 800 and counts["skipped"] == 0
    assert counts["variants.original"] == 800
    assert counts["variants.equivalent"] >= 0.95 * 2 * 800
    assert counts["probes"] > 0 and counts["probes.anchored"] > 0


def test_work_of_other_code_is_not_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The fingerprint keys work in progress and the cached bundled benchmark: a build by
    # older code (other probes, other variants) must be neither resumed nor reused.
    from core_bench.build import _options

    source = tmp_path / "probes.py"
    source.write_text("KINDS = 12\n")
    monkeypatch.setattr(_options, "_BUILD_SOURCES", (source,))
    _options.code_digest.cache_clear()
    before = BuildOptions().fingerprint("dataset")
    source.write_text("KINDS = 14\n")
    _options.code_digest.cache_clear()
    assert BuildOptions().fingerprint("dataset") != before
    _options.code_digest.cache_clear()  # the real sources again, for the tests after this one
