"""The bundled benchmark, built once into the cache directory for runs without `--bench`."""

from __future__ import annotations

import sys
from pathlib import Path

from core_bench._lock import exclusive
from core_bench.build import BuildOptions, build_benchmark
from core_bench.datasets import cache_dir, load_dataset


def bundled_benchmark_dir(options: BuildOptions | None = None) -> Path:
    """Where the bundled benchmark built with `options` (default: `BuildOptions()`) lives:
    `$CORE_BENCH_CACHE/benchmarks/<fingerprint>` (default `~/.cache/core-bench/...`)."""
    options = options or BuildOptions()
    sha = load_dataset(options.dataset).info.sha256
    return cache_dir() / "benchmarks" / options.fingerprint(sha)


def ensure_bundled_benchmark(options: BuildOptions | None = None) -> Path:
    """The bundled benchmark's directory, building it first when it is not there yet.

    A build that was killed resumes (the build keeps its work per problem); manifest.json is
    written last, so its presence means the directory is complete. Runs started together (one
    per model) build it once: the others wait for that build and use it.
    """
    options = options or BuildOptions()
    root = bundled_benchmark_dir(options)
    if (root / "manifest.json").is_file():
        return root
    with exclusive(root, "build", wait=True):
        if not (root / "manifest.json").is_file():
            print(f"building the bundled benchmark into {root} (once)", file=sys.stderr)
            build_benchmark(options, root)
    return root
