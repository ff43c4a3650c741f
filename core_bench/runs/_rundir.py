"""The run directory: manifest.json, samples.jsonl, summary.json (cache.sqlite is `_cache`).

samples.jsonl is appended as samples are graded, so a killed run leaves what it graded; when a
run starts it is rewritten from the cache (no duplicates), and at the end it is rewritten once
more sorted by task id and sample index, atomically, so a resumed run ends with the same file as
an uninterrupted one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path

from core_bench.benchmark import FILES, Benchmark
from core_bench.schemas import (
    RUN_SCHEMA_VERSION,
    BenchmarkRef,
    MetricRow,
    RunManifest,
    RunSummary,
    Sample,
    Summary,
    read_records,
)


def benchmark_ref(benchmark: Benchmark) -> BenchmarkRef:
    """The sha256 of each file of the benchmark, and of them all together."""
    files: dict[str, str] = {}
    total = hashlib.sha256()
    for name in (*FILES, "manifest.json"):
        with (benchmark.root / name).open("rb") as handle:  # in chunks: probes.jsonl is large
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
        files[name] = digest
        total.update(f"{name}:{digest}\n".encode())
    return BenchmarkRef(path=str(benchmark.root), sha256=total.hexdigest(), files=files)


@functools.cache
def package_versions() -> dict[str, str]:
    """Versions of Python and of the packages a run's results depend on."""
    versions = {"python": platform.python_version()}
    for name in ("core-bench", "openai", "pydantic", "libcst", "httpx", "httpx2"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


@functools.cache
def git_commit() -> str | None:
    """The commit of the checkout this package runs from, or None when it is not one."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def write_atomic(path: Path | str, text: str, *, sync: bool = True) -> None:
    """Write `text` to `path` so readers see the old file or the new one, never a part;
    with `sync`, the data is on disk before the file replaces the old one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes files private; these are results to share
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_manifest(out: Path, manifest: RunManifest) -> None:
    """Write manifest.json (synced to disk once the run is over)."""
    text = manifest.model_dump_json(indent=2) + "\n"
    write_atomic(out / "manifest.json", text, sync=manifest.status != "running")


def sample_lines(samples: Iterable[Sample]) -> str:
    """samples.jsonl's text for these samples, in the order given."""
    return "".join(s.model_dump_json() + "\n" for s in samples)


def read_samples(path: Path | str) -> list[Sample]:
    """Read a samples.jsonl back.

    Raises:
        ValueError: a line is not a valid sample (the file and line named).
    """
    return list(read_records(Path(path), Sample))


# -- summary -------------------------------------------------------------------------------


def write_summary(out: Path, manifest: RunManifest, rows: Sequence[MetricRow]) -> Summary:
    """Write summary.json (`schemas.Summary`): the manifest's summary and the metric rows."""
    shown = {"model", "api", "base_urls", "sampling", "seed", "status", "counts", "usage"}
    run = RunSummary(
        **manifest.model_dump(include=shown | {"started_at", "finished_at"}),
        tasks=manifest.config.get("tasks"),
        strategies=manifest.config.get("strategies"),
        benchmark_sha256=manifest.benchmark.sha256,
    )
    summary = Summary(run=run, metrics=list(rows))
    write_atomic(out / "summary.json", json.dumps(summary.model_dump(), indent=2) + "\n")
    return summary


__all__ = [
    "RUN_SCHEMA_VERSION",
    "BenchmarkRef",
    "RunManifest",
    "benchmark_ref",
    "read_samples",
    "sample_lines",
    "write_atomic",
    "write_manifest",
    "write_summary",
]
