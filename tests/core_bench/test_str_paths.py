"""The public entry points take `str` paths as well as `Path`: a build, reading it, a run,
grading it again, its report, the exports and the viewer, all given plain strings."""

from __future__ import annotations

import json
from pathlib import Path

from core_bench.benchmark import load_benchmark
from core_bench.build import BuildOptions, build_benchmark
from core_bench.export import write_hf, write_inspect
from core_bench.report import load_runs, write_report
from core_bench.runs import RunConfig, default_out, read_samples, regrade, run, write_atomic
from core_bench.view import write_viewer


def test_the_public_entry_points_take_str_paths(tmp_path: Path) -> None:
    root = str(tmp_path)
    bench_dir = f"{root}/bench"
    options = BuildOptions(limit=1, variants=1, mutants=1, calls=1, probes=1)
    built = build_benchmark(options, bench_dir)
    assert built.manifest.counts["problems"] == 1
    bench = load_benchmark(bench_dir)
    assert isinstance(bench.root, Path) and bench.root == Path(bench_dir)

    out = f"{root}/run"
    config = RunConfig(model="ref:oracle", bench=bench_dir, out=out, cache=f"{root}/c.sqlite")
    assert (config.bench, config.out, config.cache) == (
        Path(bench_dir),
        Path(out),
        Path(root) / "c.sqlite",
    )
    result = run(config, benchmark=bench, progress=False)
    assert result.out == Path(out) and (Path(root) / "c.sqlite").is_file()
    assert read_samples(f"{out}/samples.jsonl") == result.samples
    assert default_out(config, "0" * 64, root=f"{root}/runs").parent == Path(root) / "runs"

    graded = regrade(out, bench=bench_dir)
    assert graded.changed == 0 and graded.regraded == len(result.samples)

    report = write_report([out], f"{root}/report", plots=False, baselines=False)
    assert report == Path(root) / "report" / "report.md" and report.is_file()
    assert [r.path for r in load_runs([out])] == [Path(out)]

    assert write_hf(bench, f"{root}/hf").is_relative_to(Path(root) / "hf")
    assert write_inspect(bench, f"{root}/inspect").is_file()
    index = write_viewer([out], f"{root}/view", real_traces=False)
    assert index == Path(root) / "view" / "index.html" and index.is_file()

    write_atomic(f"{root}/note.json", json.dumps({"ok": True}))
    assert json.loads(Path(root, "note.json").read_text()) == {"ok": True}
