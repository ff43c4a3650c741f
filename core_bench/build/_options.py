"""What a build is asked to do."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import tracer
import transforms
from core_bench.build._authors import AuthorOptions

_PACKAGE = Path(__file__).resolve().parent.parent
_BUILD_SOURCES = (
    Path(tracer.__file__).resolve().parent,
    Path(transforms.__file__).resolve().parent,
    _PACKAGE / "build",
    _PACKAGE / "datasets",
    _PACKAGE / "probes",
    _PACKAGE / "schemas.py",
)


@functools.cache
def code_digest() -> str:
    """A digest of the source a build's files depend on (the tracer, the transforms, and the
    build, dataset, probe and schema code), so that work started by other code is not resumed
    and a cached bundled benchmark is rebuilt after an upgrade."""
    digest = hashlib.sha256()
    for source in _BUILD_SOURCES:
        files = sorted(source.rglob("*.py")) if source.is_dir() else [source]
        for path in files:
            digest.update(f"{path.relative_to(source.parent)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """Options of `core-bench build` (the CLI flags of the same names).

    Attributes:
        dataset: "bundled", "cruxeval", "core-qa=PATH", or a path or URL (see `load_dataset`).
        seed: every random choice derives from it; the same seed and dataset give
            byte-identical `.jsonl` files.
        variants: composed equivalent variants per problem (chains of transforms).
        singles: single-transform equivalent variants per problem, besides the composed ones
            (the factorial design: one factor each, one of them a renaming).
        distractors: also use the "distractor" family (dead code, constant unfolding,
            misleading comments), off by default.
        crash_mutants: keep mutants that differ from the original on the shipped calls only
            by raising (dropped by default).
        mutants: semantic mutants per problem (controls).
        probes: probes per (variant, call).
        calls: calls per problem: the dataset's own, plus generated ones up to this many.
        verify_calls: extra generated calls used only to verify variants.
        limit: build only the first N problems of the dataset.
        timeout_s: wall-clock limit of one call in the sandbox.
        max_steps: step limit of one traced call.
        authors: models asked for reimplementations (`--authors`), or None.
    """

    dataset: str = "bundled"
    seed: int = 0
    variants: int = 4
    mutants: int = 2
    probes: int = 6
    calls: int = 8
    verify_calls: int = 4
    limit: int | None = None
    timeout_s: float = 5.0
    max_steps: int = 10_000
    singles: int = 4
    distractors: bool = False
    crash_mutants: bool = False
    authors: AuthorOptions | None = None

    def as_dict(self) -> dict[str, object]:
        """The options as plain JSON values (for the manifest), without an API key."""
        data = asdict(self)
        if self.authors is not None:
            data["authors"]["endpoint"] = self.authors.endpoint.public()
        return data

    def fingerprint(self, dataset_sha256: str) -> str:
        """A key for work in progress: a resumed build must have been started identically,
        by the same code (`code_digest`)."""
        text = json.dumps(
            {"options": self.as_dict(), "dataset": dataset_sha256, "code": code_digest()},
            sort_keys=True,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def problem_seed(self, problem_id: str) -> int:
        """A seed of one problem's own, so a problem's result does not depend on the others."""
        digest = hashlib.sha256(f"{self.seed}:{problem_id}".encode()).digest()
        return int.from_bytes(digest[:4], "big")
