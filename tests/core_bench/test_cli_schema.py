"""`core-bench schema` prints the JSON Schemas that validate written records."""

from __future__ import annotations

import json

import pytest

from core_bench.cli import main
from core_bench.schemas import RECORDS, SCHEMA_VERSION


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
