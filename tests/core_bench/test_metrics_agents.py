"""The metrics validated by the reference agents: each shows the signature it was built for.

One small benchmark and one run per agent (module-scoped), then `summarize` and
`core-bench grade` over them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from core_bench.benchmark import Benchmark, literal_output, load_benchmark
from core_bench.build import BuildOptions, traced_output
from core_bench.cli import main
from core_bench.metrics import summarize
from core_bench.runs import RunResult, read_samples
from core_bench.schemas import MetricRow
from tracer import trace

AGENTS = ("oracle", "superficial", "style-biased", "echo")
Rows = dict[tuple[str, str, str], MetricRow]


@pytest.fixture(scope="module")
def bench(build_once: Callable[[BuildOptions], Path]) -> Benchmark:
    options = BuildOptions(limit=10, variants=2, mutants=1, calls=3, probes=6)
    return load_benchmark(build_once(options))


@pytest.fixture(scope="module")
def results(
    bench: Benchmark, run_agents: Callable[..., dict[str, RunResult]]
) -> dict[str, RunResult]:
    return run_agents(bench, AGENTS, strategies=("direct", "trace"))


@pytest.fixture(scope="module")
def rows(results: dict[str, RunResult], bench: Benchmark) -> dict[str, Rows]:
    done = {}
    for agent, result in results.items():
        direct = [s for s in result.samples if s.strategy == "direct"]
        found = summarize(direct, bench, f"ref:{agent}")
        assert all(r.model == f"ref:{agent}" and r.strategy == "direct" for r in found)
        done[agent] = {(r.task, r.metric, r.group): r for r in found}
    return done


def test_oracle_scores_100_everywhere(rows: dict[str, Rows]) -> None:
    oracle = rows["oracle"]
    for key in (
        ("output", "pass@1", "original"),
        ("input", "pass@1", "original"),
        ("output", "core_I", "all"),
        ("output", "core_Is", "all"),
        ("output", "I_call", "all"),
        ("probe", "core_W", "all"),
        ("probe", "core_Ws", "all"),
        ("probe", "W_call", "all"),
        ("core", "core_RCS", "all"),
        ("core", "core_Cons", "all"),
        ("output", "coherence", "output_right/probes_right"),
        ("core", "IC", "all"),
    ):
        assert oracle[key].value == 100, key
    gaps = [r for (_, m, _), r in oracle.items() if m == "robustness_gap"]
    # "all" of output and input, and per transform and family once the build marks them.
    assert len(gaps) >= 2 and all(r.value == 0 and r.ci_low == r.ci_high == 0 for r in gaps)
    assert oracle[("output", "superficial_rate", "any_probe_wrong")].value == 0
    assert oracle[("output", "pass@1", "original")].n == 10


def test_superficial_is_invariant_but_its_states_are_wrong(rows: dict[str, Rows]) -> None:
    superficial = rows["superficial"]
    assert superficial[("output", "core_I", "all")].value == 100
    assert superficial[("probe", "core_Ws", "all")].value < 30
    assert superficial[("core", "core_RCS", "all")].value < 30
    assert superficial[("output", "superficial_rate", "any_probe_wrong")].value == 100
    assert superficial[("output", "coherence", "output_right/probes_wrong")].value == 100
    assert superficial[("core", "IC", "all")].value == 0


def test_style_biased_has_a_significant_robustness_gap(rows: dict[str, Rows]) -> None:
    biased = rows["style-biased"]
    for task in ("output", "input"):
        gap = biased[(task, "robustness_gap", "all")]
        assert gap.ci_low is not None and gap.ci_high is not None
        assert 0 < gap.ci_low <= gap.value <= gap.ci_high
        assert biased[(task, "mcnemar_p", "all")].value < 0.01
        assert biased[(task, "pass@1", "original")].value == 100
    assert biased[("output", "core_I", "all")].value < 50


def test_echo_scores_near_zero_on_output_prediction(rows: dict[str, Rows]) -> None:
    echo = rows["echo"]
    assert echo[("output", "pass@1", "original")].value < 35
    assert echo[("output", "core_I", "all")].value == 0
    assert echo[("probe", "core_Ws", "all")].value < 10


def test_run_summary_comes_from_the_metrics_layer(results: dict[str, RunResult]) -> None:
    result = results["oracle"]
    summary = json.loads((result.out / "summary.json").read_text())
    metrics = {row["metric"] for row in summary["metrics"]}
    assert {"pass@1", "robustness_gap", "mcnemar_p", "core_I", "core_Ws", "IC"} <= metrics
    # Mutant and trace rows come from the run itself, not only from `grade`.
    assert {"mutant_sensitivity", "mutant_stale", "trace_precision", "trace_faithful"} <= metrics


def test_build_stores_every_variants_output_per_call(bench: Benchmark) -> None:
    problems = {p.id: p for p in bench.problems}
    differs = 0
    for variant in bench.variants:
        problem = problems[variant.problem_id]
        assert len(variant.outputs) == len(problem.calls), variant.id
        if variant.kind != "mutant":
            assert variant.outputs == problem.outputs, variant.id
        else:
            differs += variant.outputs != problem.outputs
            assert all(o.startswith("!") or literal_output(o) == o for o in variant.outputs)
    assert differs > 0


def test_traced_output_names_the_exception() -> None:
    code = "def f(x):\n    if x:\n        raise ValueError('no')\n    return [x]\n"
    assert traced_output(trace(code, "f(0)")) == "[0]"
    assert traced_output(trace(code, "f(1)")) == "!ValueError"
    assert traced_output(trace(code, "f(0)", max_steps=1)) == "!Truncated"
    assert traced_output(None) == "!NoTrace"
    assert literal_output("!ValueError") is None and literal_output("<object at 0x1>") is None


def test_grade_regrades_a_run_without_the_model(
    results: dict[str, RunResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copies = {}
    for agent in ("oracle", "style-biased", "superficial"):
        copies[agent] = tmp_path / agent
        shutil.copytree(results[agent].out, copies[agent])
        assert main(["grade", str(copies[agent]), "--no-plots", "--no-baselines"]) == 0
        assert read_samples(copies[agent] / "samples.jsonl") == results[agent].samples
        # run and grade write the same summary.json from the same responses, byte for byte.
        ran = (results[agent].out / "summary.json").read_bytes()
        assert (copies[agent] / "summary.json").read_bytes() == ran, agent
    assert "graded again (0 changed)" in capsys.readouterr().out

    def summary(agent: str) -> Rows:
        data = json.loads((copies[agent] / "summary.json").read_text())
        assert data["run"]["model"] == f"ref:{agent}"
        found = [MetricRow.model_validate(r) for r in data["metrics"]]
        assert all(r.model == f"ref:{agent}" for r in found)
        return {(r.task, r.metric, r.group): r for r in found}

    oracle, biased = summary("oracle"), summary("style-biased")
    assert "mutant_sensitivity" in (copies["oracle"] / "summary.csv").read_text()  # report redrawn
    for metric in ("trace_precision", "trace_recall", "trace_faithful"):
        assert oracle[("trace", metric, "all")].value == 100
    assert ("trace", "trace_first_divergence", "all") not in oracle
    assert oracle[("output", "mutant_sensitivity", "all")].value == 100
    assert oracle[("output", "mutant_stale", "all")].value == 0
    assert biased[("output", "mutant_sensitivity", "all")].value == 0
    assert biased[("output", "mutant_stale", "all")].value == 100
    # superficial writes no steps, only the return value: nothing claimed, nothing recalled.
    superficial = summary("superficial")
    assert ("trace", "trace_precision", "all") not in superficial
    assert superficial[("trace", "trace_recall", "all")].value == 0
    assert superficial[("trace", "trace_faithful", "all")].value == 0
    assert superficial[("trace", "trace_first_divergence", "all")].value == 1


def test_grade_with_a_new_tolerance_and_on_a_bad_directory(
    results: dict[str, RunResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "echo"
    shutil.copytree(results["echo"].out, copy)
    assert (
        main(["grade", str(copy), "--float-tolerance", "0.5", "--no-plots", "--no-baselines"]) == 0
    )
    manifest = json.loads((copy / "manifest.json").read_text())
    assert manifest["config"]["float_tolerance"] == 0.5
    assert main(["grade", str(tmp_path / "missing")]) == 2
    assert "not a run directory" in capsys.readouterr().err
