"""`core-bench report`: two reference-agent runs side by side, files checked for content."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from core_bench.benchmark import Benchmark
from core_bench.cli import main
from core_bench.report import CSV_COLUMNS, write_report
from core_bench.report._tables import format_value
from core_bench.runs import RunConfig, RunResult, run
from core_bench.schemas import MetricRow

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
AGENTS = ("oracle", "style-biased")


@pytest.fixture(scope="module")
def results(
    bench: Benchmark, run_agents: Callable[..., dict[str, RunResult]]
) -> dict[str, RunResult]:
    return run_agents(bench, AGENTS)


@pytest.fixture(scope="module")
def report(results: dict[str, RunResult], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "cmp"
    runs = [str(results[agent].out) for agent in AGENTS]
    with pytest.MonkeyPatch.context() as patch:  # this report is about its plots
        patch.delenv("CORE_BENCH_NO_PLOTS", raising=False)
        assert main(["report", *runs, "--out", str(out)]) == 0
    return out


def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, path
    assert len(data) > 5_000, path


def test_report_files_exist(report: Path) -> None:
    for name in ("report.md", "report.html", "summary.csv"):
        assert (report / name).stat().st_size > 0, name
    pngs = sorted((report / "plots").glob("*.png"))
    assert pngs
    for png in pngs:
        assert_png(png)


def test_plots_from_samples_and_benchmark_are_drawn(report: Path) -> None:
    assert_png(report / "plots" / "superficial_quadrant.png")
    assert_png(report / "plots" / "accuracy_by_trace_length.png")
    text = (report / "report.md").read_text()
    assert "![I against Ws per problem](plots/superficial_quadrant.png)" in text
    assert "ref:oracle 0/3" in text  # the oracle is never superficial


def test_report_md_has_both_runs_as_columns(report: Path, results: dict[str, RunResult]) -> None:
    text = (report / "report.md").read_text()
    assert "| task | strategy | group | ref:oracle | ref:style-biased |" in text
    oracle = {(r.task, r.strategy, r.metric, r.group): r for r in results["oracle"].metrics}
    row = oracle[("output", "direct", "accuracy", "all")]
    assert f"| output | direct | all | {format_value(row)} |" in text


def test_summary_csv_has_one_line_per_row_per_run(
    report: Path, results: dict[str, RunResult]
) -> None:
    with (report / "summary.csv").open(newline="") as handle:
        lines = list(csv.DictReader(handle))
    assert tuple(lines[0].keys()) == CSV_COLUMNS
    assert set(MetricRow.model_fields) <= set(CSV_COLUMNS)
    assert len(lines) == sum(len(results[a].metrics) for a in AGENTS)
    for agent in AGENTS:
        mine = [line for line in lines if line["run"] == str(results[agent].out)]
        assert len(mine) == len(results[agent].metrics)
        first = results[agent].metrics[0]
        assert (
            MetricRow.model_validate(
                {
                    **{k: mine[0][k] for k in MetricRow.model_fields},
                    "ci_low": mine[0]["ci_low"] or None,
                    "ci_high": mine[0]["ci_high"] or None,
                }
            )
            == first
        )


def test_html_has_the_same_tables(report: Path) -> None:
    page = (report / "report.html").read_text()
    text = (report / "report.md").read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "<th>ref:oracle</th><th>ref:style-biased</th>" in page
    assert text.count("| task | strategy | group |") == page.count("<th>task</th>") > 0
    assert page.count("data:image/png;base64,") == text.count("![")


def test_bad_run_path_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(tmp_path / "nowhere"), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nowhere" in err and err.startswith("core-bench report:")


def copy_run(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for name in ("manifest.json", "samples.jsonl", "summary.json"):
        shutil.copy(source / name, target / name)
    return target


def add_rows(run_dir: Path, rows: list[MetricRow]) -> None:
    path = run_dir / "summary.json"
    summary = json.loads(path.read_text())
    summary["metrics"] += [row.model_dump() for row in rows]
    path.write_text(json.dumps(summary))


def test_any_metric_rows_are_rendered_and_plotted(
    results: dict[str, RunResult], tmp_path: Path
) -> None:
    runs = [copy_run(results[a].out, tmp_path / a) for a in AGENTS]
    for index, run_dir in enumerate(runs):
        model = f"ref:{AGENTS[index]}"
        extra = (
            [
                MetricRow(
                    model=model,
                    strategy="direct",
                    task="output",
                    metric="robustness_gap",
                    group=transform,
                    value=0.1 * index * k,
                    ci_low=-0.1,
                    ci_high=0.3,
                    n=3,
                )
                for k, transform in enumerate(("t_one", "t_two", "t_three"))
            ]
            + [
                MetricRow(
                    model=model,
                    strategy="direct",
                    task="probe",
                    metric="accuracy",
                    group=dimension,
                    value=1.0 - 0.2 * index,
                    n=4,
                )
                for dimension in ("Arithmetic", "State")
            ]
            + [
                MetricRow(
                    model=model,
                    strategy="direct",
                    task="probe",
                    metric="a new metric",
                    group="all",
                    value=0.25,
                    n=2,
                )
            ]
        )
        add_rows(run_dir, extra)
    write_report(runs, tmp_path / "out", plots=True)
    assert_png(tmp_path / "out" / "plots" / "robustness_heatmap.png")
    assert_png(tmp_path / "out" / "plots" / "accuracy_by_dimension.png")
    text = (tmp_path / "out" / "report.md").read_text()
    assert "**robustness_gap**" in text and "**a new metric**" in text
    assert (
        "| output | direct | t_two | 0 [-0.1, 0.3] (n=3, few) | 0.1 [-0.1, 0.3] (n=3, few) |"
        in text
    )


def test_absent_data_skips_plots_with_a_note(results: dict[str, RunResult], tmp_path: Path) -> None:
    run_dir = copy_run(results["oracle"].out, tmp_path / "lost")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["benchmark"]["path"] = str(tmp_path / "gone")
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    summary = json.loads((run_dir / "summary.json").read_text())
    summary["metrics"] = [
        row
        for row in summary["metrics"]
        if row["metric"] not in ("robustness_gap", "accuracy_by_dimension", "accuracy_by_position")
    ]
    (run_dir / "summary.json").write_text(json.dumps(summary))
    out = tmp_path / "out"
    (out / "plots").mkdir(parents=True)
    (out / "plots" / "superficial_quadrant.png").write_bytes(b"stale")
    write_report([run_dir], out, plots=True)
    assert list((out / "plots").glob("*.png")) == []
    text = (out / "report.md").read_text()
    for plot in ("robustness_gap rows", "accuracy by dimension", "accuracy_by_position rows"):
        assert f"Skipped: no run has {plot}." in text, plot
    assert text.count("readable benchmark.") == 1
    assert "not readable" in text


def test_a_failing_report_keeps_the_run_and_fails_the_command_clearly(
    bench: Benchmark,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import core_bench.report

    def broken(run_dirs: list[Path], out: Path, **options: object) -> Path:
        raise RuntimeError("no plots today")

    monkeypatch.setattr(core_bench.report, "write_report", broken)
    out = tmp_path / "r"
    argv = ["--model", "ref:oracle", "--bench", str(bench.root), "--out", str(out)]
    assert main(["run", *argv, "--tasks", "output", "--quiet"]) == 1
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"
    assert (out / "summary.json").is_file()
    assert not (out / "report.md").exists()
    err = capsys.readouterr().err
    assert f"core-bench run: error: report of {out} not written: RuntimeError: no plots" in err
    assert f"`core-bench report {out}` tries again" in err
    assert main(["grade", str(out)]) == 1
    assert "core-bench grade: error: report of" in capsys.readouterr().err
    assert main(["run", *argv, "--tasks", "output", "--quiet", "--no-report"]) == 0


def test_run_writes_no_report_the_command_does(bench: Benchmark, tmp_path: Path) -> None:
    config = RunConfig(model="ref:oracle", bench=bench.root, out=tmp_path / "r", tasks=("output",))
    run(config, benchmark=bench, progress=False)
    assert not (tmp_path / "r" / "report.md").exists()
    argv = ["run", "--model", "ref:oracle", "--bench", str(bench.root), "--tasks", "output"]
    assert main([*argv, "--out", str(tmp_path / "c"), "--quiet"]) == 0
    text = (tmp_path / "c" / "report.md").read_text()
    assert "| task | strategy | group | ref:oracle |" in text
    assert (tmp_path / "c" / "summary.csv").is_file()
    assert (tmp_path / "c" / "report.html").is_file()


def test_no_plots_writes_the_tables_only(results: dict[str, RunResult], tmp_path: Path) -> None:
    out = tmp_path / "tables"
    assert main(["report", str(results["oracle"].out), "--out", str(out), "--no-plots"]) == 0
    assert not list(out.glob("plots/*.png"))
    text = (out / "report.md").read_text()
    assert "Plots not drawn" in text and "**pass@1**" in text
    # The runs of this module wrote no report: no PNG in their directories.
    assert not list(results["oracle"].out.glob("plots/*.png"))


def test_the_test_suite_draws_no_plots_unless_asked(bench: Benchmark, tmp_path: Path) -> None:
    # tests/conftest.py sets CORE_BENCH_NO_PLOTS and CORE_BENCH_NO_BASELINES.
    argv = ["run", "--model", "ref:echo", "--bench", str(bench.root), "--tasks", "output"]
    assert main([*argv, "--out", str(tmp_path / "r"), "--quiet"]) == 0
    text = (tmp_path / "r" / "report.md").read_text()
    assert "Plots not drawn" in text and "Reference agents were not run" in text
    assert not (tmp_path / "r" / "baselines").exists()


def test_headline_first_with_the_dataset_the_oracle_as_ceiling_and_blind_as_floor(
    results: dict[str, RunResult], bench: Benchmark, tmp_path: Path
) -> None:
    out = tmp_path / "headline"
    write_report([results["style-biased"].out], out, plots=False, baselines=True)
    text = (out / "report.md").read_text()
    first = text.split("**Runs**")[0]  # the first screen, before the runs table
    assert f"dataset `{bench.manifest.dataset.name}` ({len(bench.problems)} problems" in first
    header = (
        "| metric | meaning | ref:style-biased direct | ref:oracle (ceiling) direct "
        "| ref:blind (floor) direct |"
    )
    assert header in first
    baseline_dirs = sorted((out / "baselines").iterdir())
    models = {json.loads((d / "summary.json").read_text())["run"]["model"] for d in baseline_dirs}
    assert models == {"ref:oracle", "ref:blind"}
    line = next(x for x in first.splitlines() if x.startswith("| core_I |"))
    oracle_cell = line.rstrip(" |").split(" | ")[-2]
    assert oracle_cell == "100 [100, 100] (n=3, few)", line
    assert "No reference agent in this version" not in first
    # A second report replays the baselines from their cache: the same directories, no new one.
    write_report([results["style-biased"].out], out, plots=False, baselines=True)
    assert sorted((out / "baselines").iterdir()) == baseline_dirs


def test_the_report_reads_summary_json_through_its_schema(
    results: dict[str, RunResult], tmp_path: Path
) -> None:
    run_dir = copy_run(results["oracle"].out, tmp_path / "old")
    summary = json.loads((run_dir / "summary.json").read_text())
    del summary["run"]["usage"]  # runs from before token accounting have none
    (run_dir / "summary.json").write_text(json.dumps(summary))
    assert write_report([run_dir], tmp_path / "out", plots=False, baselines=False).is_file()

    summary["run"]["sampling"] = "hot"
    (run_dir / "summary.json").write_text(json.dumps(summary))
    with pytest.raises(ValueError, match=r"summary.json: not a valid summary \(run.sampling: "):
        write_report([run_dir], tmp_path / "out", plots=False, baselines=False)
    (run_dir / "summary.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"not a valid summary \(the file: Invalid JSON"):
        write_report([run_dir], tmp_path / "out", plots=False, baselines=False)


def test_a_baseline_runs_in_a_process_of_its_own_and_its_failure_is_named(
    tmp_path: Path,
) -> None:
    from core_bench.report._baselines import _run_apart

    # The baseline's process reads the benchmark itself: one that is not there fails it, and
    # the report's process learns which baseline failed (its own memory never held the run).
    config = RunConfig(model="ref:blind", bench=tmp_path / "missing", out=tmp_path / "b")
    with pytest.raises(RuntimeError, match="baseline run of ref:blind failed"):
        _run_apart(config)
    assert not (tmp_path / "b" / "summary.json").exists()
