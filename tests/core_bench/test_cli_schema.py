"""`core-bench schema` prints the JSON Schemas that validate written records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_builds import small_benchmark

from core_bench.cli import main
from core_bench.schemas import RECORDS, SCHEMA_VERSION, RunManifest, Summary


def test_all_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema_version"] == SCHEMA_VERSION
    assert set(document["records"]) == {
        "manifest",
        "problem",
        "variant",
        "probe",
        "sample",
        "metric",
        "run_manifest",
        "summary",
    }
    probe = document["records"]["probe"]
    assert probe["additionalProperties"] is False
    assert {"anchor", "answer", "kind", "dimensions", "anchored"} <= set(probe["required"])


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_one_schema(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", name]) == 0
    assert json.loads(capsys.readouterr().out) == RECORDS[name].model_json_schema()


def test_unknown_record_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "samples"]) == 2
    assert "expected one of: manifest, problem, variant, probe, sample" in capsys.readouterr().err


def test_a_run_directorys_records_are_the_schemas_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = small_benchmark(tmp_path)
    out = tmp_path / "run"
    argv = ["run", "--model", "ref:oracle", "--bench", str(bench), "--tasks", "output"]
    assert main([*argv, "--out", str(out), "--quiet", "--no-report"]) == 0
    manifest = RunManifest.model_validate_json((out / "manifest.json").read_text())
    summary = Summary.model_validate_json((out / "summary.json").read_text())
    assert manifest.status == summary.run.status == "complete"
    assert summary.run.benchmark_sha256 == manifest.benchmark.sha256
    assert summary.metrics and all(row.model == "ref:oracle" for row in summary.metrics)
    # What is written is what the schema says: every field written is a known property.
    capsys.readouterr()
    assert main(["schema", "summary"]) == 0
    schema = json.loads(capsys.readouterr().out)
    written = json.loads((out / "summary.json").read_text())
    assert set(written) == set(schema["properties"]) == {"run", "metrics"}
    assert set(written["run"]) == set(schema["$defs"]["RunSummary"]["properties"])
    assert main(["schema", "run_manifest"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert set(json.loads((out / "manifest.json").read_text())) == set(schema["properties"])
    # A record with a field no schema knows fails loudly.
    spoiled = {**written, "extra": 1}
    with pytest.raises(ValueError, match="extra"):
        Summary.model_validate(spoiled)
