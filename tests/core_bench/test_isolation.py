"""`--isolation strict` refuses to run model text without bubblewrap; runs record the level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_builds import small_benchmark

from core_bench.cli import main
from core_bench.commands import _isolation
from tracer import SandboxPool, default_isolation


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        _isolation, "default_isolation", lambda: ("process", "bwrap is not on PATH")
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--model", "ref:oracle", "--limit", "1"],
        ["grade", "nowhere"],
        ["cruxeval-score", "generations.json", "--mode", "input"],
    ],
    ids=["run", "grade", "cruxeval-score"],
)
def test_strict_refuses_without_bubblewrap(
    no_bwrap: None, argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([*argv, "--isolation", "strict"])
    assert status != 0
    err = capsys.readouterr().err
    assert "--isolation strict" in err and "bwrap is not on PATH" in err
    assert list(tmp_path.iterdir()) == []


def test_the_run_manifest_records_the_isolation(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "bench")
    out = tmp_path / "run"
    argv = ["run", "--model", "ref:echo", "--bench", str(bench), "--limit", "1", "--quiet"]
    assert main([*argv, "--out", str(out), "--tasks", "output"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["isolation"] == default_isolation()[0]


def test_pools_say_how_they_isolate() -> None:
    with SandboxPool(workers=1, use_bwrap=False) as plain:
        assert plain.isolation == "process"
    if default_isolation()[0] == "bwrap":
        with SandboxPool(workers=1) as boxed:
            assert boxed.isolation == "bwrap"
