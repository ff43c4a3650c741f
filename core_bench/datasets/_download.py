"""Fetching a dataset file once into a cache directory, checked by sha256."""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from core_bench.errors import UsageError

DEFAULT_CACHE = Path("~/.cache/core-bench")
"""Where downloads go unless `CORE_BENCH_CACHE` names another directory."""


def cache_dir() -> Path:
    """The cache directory (created on demand by `fetch`)."""
    return Path(os.environ.get("CORE_BENCH_CACHE") or DEFAULT_CACHE).expanduser()


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(url: str, name: str, *, sha256: str | None = None, timeout_s: float = 60.0) -> Path:
    """Download `url` to `cache_dir()/name` unless a copy with the right sha256 is there.

    The file is written to a temporary name and renamed only once complete and checked, so an
    interrupted download never leaves a corrupt cache entry.

    Raises:
        UsageError: the download failed, or its sha256 differs from `sha256`.
    """
    target = cache_dir() / name
    if target.exists() and (sha256 is None or sha256_of(target) == sha256):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            handle, partial = tempfile.mkstemp(prefix=name + ".", dir=target.parent)
            with os.fdopen(handle, "wb") as out:
                while block := response.read(1 << 20):
                    out.write(block)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise UsageError(f"cannot download {url}: {exc}") from None
    got = sha256_of(Path(partial))
    if sha256 is not None and got != sha256:
        os.unlink(partial)
        raise UsageError(f"{url}: sha256 is {got}, expected {sha256}; the file was not kept")
    os.replace(partial, target)
    return target
