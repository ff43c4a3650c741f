"""cache.sqlite: every answered request, so a killed or repeated run asks nothing twice.

Tables:
- `responses`: one row per request key (model, base URLs, API, messages, every sampling
  parameter, sample index; see `request_key`) -> the raw response text, finish reason,
  metadata (replica, attempts, seconds, usage) and the prompt's hash (as in samples.jsonl).
  Written and committed as each response arrives (WAL mode), so a run killed at any moment
  keeps every answer it received.
- `grades`: (request key, grader fingerprint) -> answer, verdict, reason: replaying a run does
  not grade (or execute) an answer twice; a new grader version grades afresh.
- `outputs`: (code, call) key -> what running the call returned, for mutant variants, whose
  outputs the benchmark files do not hold.
- `prompts`: prompt hash (the samples' `prompt_hash`) -> the rendered chat messages sent to a
  model (zlib-compressed JSON), stored with the first response of each prompt from a server
  (`put(..., messages=...)`); `prompt(hash)` reads them back. Reference agents' prompts are
  not stored: `core-bench prompt` renders any task's prompt again, identically.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    sample_index INTEGER NOT NULL,
    text TEXT NOT NULL,
    finish_reason TEXT,
    meta TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS grades (
    key TEXT NOT NULL,
    grader TEXT NOT NULL,
    answer TEXT,
    verdict TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (key, grader)
);
CREATE TABLE IF NOT EXISTS outputs (
    key TEXT PRIMARY KEY,
    result TEXT
);
CREATE TABLE IF NOT EXISTS prompts (
    hash TEXT PRIMARY KEY,
    messages BLOB NOT NULL
);
"""

_CHUNK = 900
"""Keys per `IN (...)` query (well under SQLite's limit on bound parameters)."""


def request_key(
    *,
    model: str,
    base_urls: Sequence[str],
    api: str,
    prompt_sha256: str,
    params: Mapping[str, Any],
    sample_index: int,
    task: str | None = None,
) -> str:
    """The cache key of one request: sha256 over everything that can change the answer.

    `base_urls` is the set of replicas the request may go to (sorted: their order does not
    matter); `prompt_sha256` is the sha256 of the message list (chat, as `Prompt.hash`) or of
    the prompt text (completions); `params` holds
    every sampling parameter sent (temperature, max tokens, seed, stop, ...); `task` is set
    for answerers whose answer depends on more than the prompt (reference agents).
    """
    parts = (
        model,
        "\x1f".join(sorted(base_urls)),
        api,
        prompt_sha256,
        json.dumps(params, sort_keys=True, separators=(",", ":")),
        str(sample_index),
        task if task is not None else "",
    )
    return hashlib.sha256("\x1e".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Cached:
    """A cached response, with its grade when one was stored for the current grader."""

    text: str
    finish_reason: str | None
    answer: str | None = None
    verdict: str | None = None
    reason: str = ""
    usage: dict[str, int] | None = None
    """The server's token counts (prompt_tokens, completion_tokens), when it sent them."""


class ResponseCache:
    """The cache file of a run (see the module docstring). Not thread-safe: one event loop."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL survives a killed process (not a power cut) without an
        # fsync per commit; a killed run is what resuming is for.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._in_tx = False

    def close(self) -> None:
        """Commit what is pending and close the file."""
        self.commit()
        self._db.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _begin(self) -> None:
        if not self._in_tx:
            self._db.execute("BEGIN")
            self._in_tx = True

    def commit(self) -> None:
        """Make everything written so far durable."""
        if self._in_tx:
            self._db.execute("COMMIT")
            self._in_tx = False

    def count(self) -> int:
        """Number of cached responses."""
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def lookup(self, keys: Iterable[str], grader: str) -> dict[str, Cached]:
        """The cached responses (with grades by `grader`) of those `keys` that have one."""
        found: dict[str, Cached] = {}
        for chunk in _chunks(list(keys), _CHUNK):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                "SELECT r.key, r.text, r.finish_reason, g.answer, g.verdict, g.reason, r.meta "
                "FROM responses r LEFT JOIN grades g ON g.key = r.key AND g.grader = ? "
                f"WHERE r.key IN ({marks})",
                (grader, *chunk),
            )
            for key, text, finish, answer, verdict, reason, meta in rows:
                usage = _usage(meta)
                found[key] = Cached(text, finish, answer, verdict, reason or "", usage)
        return found

    def put(
        self,
        key: str,
        *,
        model: str,
        prompt_hash: str,
        sample_index: int,
        text: str,
        finish_reason: str | None,
        meta: Mapping[str, Any],
        commit: bool = True,
        messages: Sequence[Mapping[str, str]] | None = None,
    ) -> None:
        """Store one response (and the messages of its prompt, when given, once per prompt);
        with `commit` (the default) it is durable on return."""
        self._begin()
        if messages is not None:
            packed = zlib.compress(json.dumps([dict(m) for m in messages]).encode("utf-8"))
            self._db.execute(
                "INSERT OR IGNORE INTO prompts VALUES (?, ?)", (prompt_hash, sqlite3.Binary(packed))
            )
        self._db.execute(
            "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                model,
                prompt_hash,
                sample_index,
                text,
                finish_reason,
                json.dumps(meta),
                time.time(),
            ),
        )
        if commit:
            self.commit()

    def prompt(self, prompt_hash: str) -> list[dict[str, str]] | None:
        """The chat messages stored for a prompt hash, or None when none were stored."""
        row = self._db.execute(
            "SELECT messages FROM prompts WHERE hash = ?", (prompt_hash,)
        ).fetchone()
        if row is None:
            return None
        messages: list[dict[str, str]] = json.loads(zlib.decompress(row[0]).decode("utf-8"))
        return messages

    def put_grade(
        self, key: str, grader: str, answer: str | None, verdict: str, reason: str
    ) -> None:
        """Store the grade of a cached response (committed with the next commit)."""
        self._begin()
        self._db.execute(
            "INSERT OR REPLACE INTO grades VALUES (?, ?, ?, ?, ?)",
            (key, grader, answer, verdict, reason),
        )

    def outputs(self, keys: Iterable[str]) -> dict[str, str | None]:
        """Memoised call results by (code, call) key."""
        found: dict[str, str | None] = {}
        for chunk in _chunks(list(keys), _CHUNK):
            marks = ",".join("?" * len(chunk))
            for key, result in self._db.execute(
                f"SELECT key, result FROM outputs WHERE key IN ({marks})", chunk
            ):
                found[key] = result
        return found

    def put_outputs(self, results: Mapping[str, str | None]) -> None:
        """Memoise call results and commit."""
        self._begin()
        self._db.executemany("INSERT OR REPLACE INTO outputs VALUES (?, ?)", results.items())
        self.commit()


def _usage(meta: str) -> dict[str, int] | None:
    """The token counts in a response's stored metadata, if any."""
    try:
        usage = json.loads(meta).get("usage")
    except (ValueError, AttributeError):
        return None
    if not isinstance(usage, dict):
        return None
    counts = {k: v for k, v in usage.items() if isinstance(v, int) and not isinstance(v, bool)}
    return counts or None


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
