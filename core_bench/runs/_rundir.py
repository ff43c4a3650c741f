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
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict

from core_bench.build import FILES, Benchmark
from core_bench.metrics import summarize
from core_bench.schemas import MetricRow, Sample

RUN_SCHEMA_VERSION = 1


class BenchmarkRef(BaseModel):
    """Which benchmark a run used: its directory and the sha256 of its files."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    sha256: str
    files: dict[str, str]


class RunManifest(BaseModel):
    """manifest.json of a run directory.

    Attributes:
        config: every option of the run (the API key never).
        model: the model spec, e.g. "openai:gpt-4o-mini" or "ref:oracle".
        base_urls: the replicas requests went to (empty for reference agents).
        sampling: temperature, max_tokens, top_p, samples, seed.
        usage: token counts, truncation, wall time and requests/s (see `_usage`).
        status: "running" while the run goes on, "complete" when every task has a sample
            that did not fail, "incomplete" when some requests failed (rerun to retry them).
        counts: tasks, samples, cached, requested, failed, retries.
        isolation: how the sandbox isolated code and model answers: "bwrap" (bubblewrap
            namespaces) or "process" (plain processes, rlimits, the guard).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = RUN_SCHEMA_VERSION
    model: str
    api: str
    base_urls: list[str]
    sampling: dict[str, Any]
    seed: int
    config: dict[str, Any]
    benchmark: BenchmarkRef
    package_versions: dict[str, str]
    git_commit: str | None
    started_at: str
    usage: dict[str, Any] = {}
    finished_at: str | None = None
    status: Literal["running", "complete", "incomplete", "interrupted"] = "running"
    counts: dict[str, int] = {}
    isolation: str | None = None


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


def write_atomic(path: Path, text: str, *, sync: bool = True) -> None:
    """Write `text` to `path` so readers see the old file or the new one, never a part;
    with `sync`, the data is on disk before the file replaces the old one."""
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


class SampleLog:
    """samples.jsonl while a run goes on: rewritten at the start, appended to, sorted at the end.

    Args:
        path: the file.
        initial: the samples known at the start (replayed from the cache).
        live: append samples to the file as they come (when requests are to be made); without
            it the file is written once, by `finish`.
    """

    def __init__(self, path: Path, initial: Sequence[Sample], *, live: bool = True) -> None:
        self.path = path
        self._lines: list[tuple[str, int, str]] = [
            (s.task_id, s.sample_index, s.model_dump_json() + "\n") for s in initial
        ]
        self._handle: IO[str] | None = None
        if live:
            write_atomic(path, "".join(line for _, _, line in self._lines))
            self._handle = path.open("a", encoding="utf-8")

    def append(self, sample: Sample) -> None:
        """Add one graded sample (flushed, so a killed run leaves whole lines)."""
        line = sample.model_dump_json() + "\n"
        self._lines.append((sample.task_id, sample.sample_index, line))
        if self._handle is not None:
            self._handle.write(line)
            self._handle.flush()

    def finish(self) -> None:
        """Replace the file with every sample, sorted by task id and sample index."""
        self.close()
        self._lines.sort(key=lambda item: (item[0], item[1]))
        write_atomic(self.path, "".join(line for _, _, line in self._lines))

    def close(self) -> None:
        """Close the file without rewriting it."""
        if self._handle is not None and not self._handle.closed:
            self._handle.close()


def read_samples(path: Path) -> list[Sample]:
    """Read a samples.jsonl back."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Sample.model_validate_json(line) for line in lines if line.strip()]


# -- summary -------------------------------------------------------------------------------


def metrics(samples: Sequence[Sample], benchmark: Benchmark, model: str) -> list[MetricRow]:
    """The metrics of summary.json (see `core_bench.metrics.summarize` for their definitions)."""
    return summarize(samples, benchmark, model=model)


def write_summary(out: Path, manifest: RunManifest, rows: Sequence[MetricRow]) -> dict[str, Any]:
    """Write summary.json: {"run": the manifest's summary, "metrics": rows}."""
    run = {
        "model": manifest.model,
        "api": manifest.api,
        "base_urls": manifest.base_urls,
        "sampling": manifest.sampling,
        "seed": manifest.seed,
        "tasks": manifest.config.get("tasks"),
        "strategies": manifest.config.get("strategies"),
        "benchmark_sha256": manifest.benchmark.sha256,
        "status": manifest.status,
        "counts": manifest.counts,
        "usage": manifest.usage,
        "started_at": manifest.started_at,
        "finished_at": manifest.finished_at,
    }
    summary = {"run": run, "metrics": [row.model_dump() for row in rows]}
    write_atomic(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    return summary
