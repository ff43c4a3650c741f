"""Datasets a benchmark is built from: the bundled one, CRUXEval-format files, CoRE's questions.

loaded = load_dataset("bundled")            # or "cruxeval", "core-qa=PATH", a path, a URL
kept, skipped = validate_problems(loaded.rows, pool)
"""

from core_bench.datasets._core_qa import Implementation
from core_bench.datasets._download import DEFAULT_CACHE, cache_dir, fetch
from core_bench.datasets._load import (
    CRUXEVAL_SHA256,
    CRUXEVAL_URL,
    DatasetError,
    LoadedDataset,
    SourcedProblem,
    bundled_path,
    load_dataset,
)
from core_bench.datasets._validate import validate_problems

__all__ = [
    "CRUXEVAL_SHA256",
    "CRUXEVAL_URL",
    "DEFAULT_CACHE",
    "DatasetError",
    "Implementation",
    "LoadedDataset",
    "SourcedProblem",
    "bundled_path",
    "cache_dir",
    "fetch",
    "load_dataset",
    "validate_problems",
]
