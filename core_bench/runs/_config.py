"""A run's configuration: what it asks, and the names derived from it (run directory, grader)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import core_bench.grading as grading
from core_bench.endpoint import Endpoint
from core_bench.runs._backend import backend_kind
from core_bench.runs._client import Sampling
from core_bench.runs._tasks import TASK_KINDS
from core_bench.schemas import Strategy, TaskKind
from core_bench.suites import Suite


@dataclass(frozen=True, slots=True)
class RunConfig:
    """Everything a run is asked to do (the flags of `core-bench run`).

    Attributes:
        model: a model spec `<scheme>:<name>` ("openai:<name>", "ref:<agent>"; `BACKENDS`).
        bench: the benchmark directory (a `str` path is accepted too, as for `out`, `cache`).
        out: the run directory.
        tasks: task kinds to ask.
        strategies: prompting strategies to use.
        limit: only the first N problems.
        samples: samples per task (for pass@k).
        sampling: temperature, max tokens, seed, top_p.
        endpoint: where requests go and how they are sent (`openai:` models; the API, base
            URLs, key, system prompt, concurrency, timeout, retries, streaming).
        stop: send stop sequences (see `_prompts.stop_sequences`).
        float_tolerance: tolerance of float comparisons in grading.
        cache: the cache file (default: `out/cache.sqlite`).
        suite: "quick", "standard" or "full" (`core_bench.suites`): the seeded subset of the
            benchmark to ask.
        suite_seed: the seed of the suite's selection.
    """

    model: str
    bench: Path
    out: Path
    tasks: tuple[TaskKind, ...] = TASK_KINDS
    strategies: tuple[Strategy, ...] = ("direct",)
    limit: int | None = None
    samples: int = 1
    sampling: Sampling = field(default_factory=Sampling)
    endpoint: Endpoint = field(default_factory=Endpoint)
    stop: bool = True
    float_tolerance: float = 0.0
    cache: Path | None = None
    suite: Suite = "full"
    suite_seed: int = 0

    def __post_init__(self) -> None:
        # str paths are accepted as well (`RunConfig(..., out="runs/x")`); stored as Path.
        for name in ("bench", "out", "cache"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, Path(value))

    def public(self) -> dict[str, Any]:
        """The config as JSON values, without the API key (for manifest.json)."""
        data = asdict(self)
        # Flat, as manifests have always held them (run directories' names derive from them).
        data.pop("endpoint")
        data.update(self.endpoint.public())
        for key in ("bench", "out", "cache"):
            data[key] = str(data[key]) if data[key] is not None else None
        data["tasks"], data["strategies"] = list(self.tasks), list(self.strategies)
        return data


def parse_model(spec: str) -> tuple[str, str]:
    """Split a model spec into (scheme, name), e.g. ("openai", "gpt-4o"), ("ref", "oracle").

    Raises:
        ValueError: no registered backend (`BACKENDS`) accepts the spec.
    """
    kind, name = backend_kind(spec)
    return kind.scheme, name


def resolve_endpoint(config: RunConfig) -> RunConfig:
    """Fill in what the model's backend needs from the environment (for `openai:`, base URLs
    and the key from `OPENAI_BASE_URL` / `OPENAI_API_KEY` when unset).

    Raises:
        ValueError: a bad model spec, or the endpoint cannot be used (no key for OpenAI).
    """
    kind, _ = backend_kind(config.model)
    return kind.resolve(config)


def default_out(config: RunConfig, benchmark_sha256: str, root: Path | str = Path("runs")) -> Path:
    """A run directory that the same command always maps to: runs/<model>-<fingerprint>.

    The fingerprint covers what changes the samples (model, endpoint, benchmark, tasks,
    strategies, limit, sampling, API, system prompt), not how fast they are fetched.
    """
    root = Path(root)
    keep = {
        k: v
        for k, v in config.public().items()
        if k in ("model", "tasks", "strategies", "limit", "samples", "sampling", "api")
        or k in ("base_urls", "system_prompt", "float_tolerance")
    }
    keep["bench"] = benchmark_sha256
    digest = hashlib.sha256(repr(sorted(keep.items())).encode()).hexdigest()[:10]
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", config.model).strip("-")
    return root / f"{slug}-{digest}"


def grader_fingerprint(config: RunConfig) -> str:
    """Identifies the grading code and options: cached grades are reused only under the same."""
    digest = hashlib.sha256()
    folder = Path(grading.__file__).parent
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(f"tol={config.float_tolerance}".encode())
    return digest.hexdigest()[:16]


__all__ = ["RunConfig", "default_out", "grader_fingerprint", "parse_model", "resolve_endpoint"]
