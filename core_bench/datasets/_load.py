"""Reading datasets into problems, with every unusable row reported, never silently dropped."""

from __future__ import annotations

import ast
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core_bench.datasets._download import fetch, sha256_of
from core_bench.errors import UsageError
from core_bench.schemas import (
    DatasetInfo,
    Probe,
    Problem,
    SkippedRow,
)

if TYPE_CHECKING:
    from core_bench.datasets._core_qa import Implementation

CRUXEVAL_URL = (
    "https://raw.githubusercontent.com/facebookresearch/cruxeval/main/data/cruxeval.jsonl"
)
"""The official CRUXEval file; `CORE_BENCH_CRUXEVAL_URL` points elsewhere (a mirror, a test)."""

CRUXEVAL_SHA256 = "8368b81047dc5014e4caf5a2f97604eff7644e0ecd7415e3ceeb184bbc2e0c96"
"""sha256 of the official `cruxeval.jsonl` (800 rows)."""


class DatasetError(UsageError):
    """A dataset that cannot be read at all (missing file, wrong format)."""


@dataclass(frozen=True, slots=True)
class SourcedProblem:
    """A problem and the place in its file it was read from (for error reports)."""

    problem: Problem
    file: str
    line: int


@dataclass(slots=True)
class LoadedDataset:
    """What a dataset gave: problems in file order, skipped rows, and imported probes."""

    info: DatasetInfo
    rows: list[SourcedProblem]
    skipped: list[SkippedRow] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    implementations: dict[str, list[Implementation]] = field(default_factory=dict)
    """Problem id -> its other implementations (CoRE's data), to verify as variants."""


def bundled_path() -> Path:
    """Path of the bundled dataset, in a checkout or an installed copy."""
    candidates = [
        Path(__file__).resolve().parents[2] / "data" / "bundled.jsonl",
        Path(sys.prefix) / "share" / "core-bench" / "data" / "bundled.jsonl",
    ]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise DatasetError(
        "the bundled dataset is missing: looked in " + ", ".join(map(str, candidates))
    )


def load_dataset(spec: str) -> LoadedDataset:
    """Read a dataset named by `spec`.

    Args:
        spec: "bundled"; "cruxeval" (downloaded once into the cache and checked by sha256);
            "core-qa=PATH" (CoRE's `core_qa.json`: problems plus its questions as probes); a
            path or http(s) URL of CRUXEval-format JSON Lines (`code`, `input`, `output`, `id`).

    Raises:
        DatasetError: the file cannot be read or is not in the expected format at all. Bad
            rows do not raise: they are listed in `LoadedDataset.skipped`.
    """
    if spec == "bundled":
        path = bundled_path()
        return _load_bundled(path)
    if spec == "cruxeval":
        url = os.environ.get("CORE_BENCH_CRUXEVAL_URL") or CRUXEVAL_URL
        path = fetch(url, "cruxeval.jsonl", sha256=CRUXEVAL_SHA256)
        return _load_cruxeval_format(path, name="cruxeval")
    if spec.startswith("core-qa="):
        from core_bench.datasets._core_qa import load_core_qa  # it builds on this module

        path = _local(spec.removeprefix("core-qa="))
        return load_core_qa(path, LoadedDataset(info=_info("core-qa", path), rows=[]))
    if spec.startswith(("http://", "https://")):
        name = "url-" + spec.rstrip("/").rsplit("/", 1)[-1]
        return _load_cruxeval_format(fetch(spec, name), name=spec)
    return _load_cruxeval_format(_local(spec), name=spec)


def _local(name: str) -> Path:
    path = Path(name).expanduser()
    if not path.is_file():
        raise DatasetError(
            f"{name}: no such dataset file (expected 'bundled', 'cruxeval', 'core-qa=PATH', "
            "or a path or URL of CRUXEval-format JSON Lines)"
        )
    return path


def _info(name: str, path: Path) -> DatasetInfo:
    return DatasetInfo(name=name, sha256=sha256_of(path), path=str(path))


def _json_lines(path: Path, skipped: list[SkippedRow]) -> list[tuple[int, dict[str, Any]]]:
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: cannot read: {exc}") from None
    # Rows end at "\n" only: JSON strings may hold U+2028 and other characters that
    # `str.splitlines` would split a row at.
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            raw = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"not UTF-8: byte {exc.start + 1} of the line ({exc.reason})"
            row_id = _id_of(line)
            skipped.append(SkippedRow(file=str(path), line=number, id=row_id, reason=reason))
            continue
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            skipped.append(SkippedRow(file=str(path), line=number, reason=f"broken JSON: {exc}"))
            continue
        except (RecursionError, MemoryError, ValueError) as exc:  # nesting depth, huge numbers
            reason = f"JSON too deep or too large to read: {type(exc).__name__}"
            skipped.append(SkippedRow(file=str(path), line=number, reason=reason))
            continue
        if not isinstance(row, dict):
            skipped.append(SkippedRow(file=str(path), line=number, reason="not a JSON object"))
            continue
        rows.append((number, row))
    return rows


def _id_of(line: bytes) -> str | None:
    """The id of a row that cannot be decoded, when the rest of it can be read."""
    try:
        row = json.loads(line.decode("utf-8", "replace"))
    except (ValueError, RecursionError, MemoryError):
        return None
    value = row.get("id") if isinstance(row, dict) else None
    return str(value) if value is not None else None


def entry_of(code: str, preferred: str = "f") -> str:
    """The function a call names: `preferred` when defined, else the only top-level function.

    `preferred` may also be a method expression such as "Solution().solve" when the code
    defines its class.

    Raises:
        ValueError: the code does not parse, or names no single entry function.
    """
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise ValueError(f"code does not parse (line {exc.lineno}): {exc.msg}") from None
    except (RecursionError, MemoryError) as exc:  # e.g. 200,000 terms in one expression
        raise ValueError(f"code too deeply nested to parse ({type(exc).__name__})") from None
    except ValueError as exc:  # NUL bytes
        raise ValueError(f"code cannot be parsed: {exc}") from None
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if "." in preferred:  # a method, as LeetCode-style code is called: "Solution().solve"
        root = preferred.split(".")[0].split("(")[0]
        defined = {n.name for n in tree.body if isinstance(n, ast.ClassDef)} | set(names)
        if root in defined:
            return preferred
        raise ValueError(f"{preferred!r} names {root!r}, which the code does not define")
    if preferred in names:
        return preferred
    if len(names) == 1:
        return names[0]
    raise ValueError(f"no function {preferred!r} and {len(names)} top-level functions")


def _missing(row: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [k for k in keys if not isinstance(row.get(k), str)]


_Row = dict[str, Any]
_Calls = tuple[list[str], list[str]]


def _load_cruxeval_format(path: Path, *, name: str) -> LoadedDataset:
    def calls(row: _Row, entry: str) -> _Calls:
        return [f"{entry}({row['input']})"], [row["output"]]

    source = name if name == "cruxeval" else "jsonl"
    return _load_rows(path, name, source, ("code", "input", "output"), calls)


def _load_bundled(path: Path) -> LoadedDataset:
    def check(row: _Row) -> str | None:
        calls, outputs = row.get("calls"), row.get("outputs")
        if (
            isinstance(calls, list)
            and isinstance(outputs, list)
            and calls
            and len(calls) == len(outputs)
            and all(isinstance(x, str) for x in [*calls, *outputs])
        ):
            return None
        return "calls and outputs must be lists of strings of the same, non-zero length"

    def calls(row: _Row, entry: str) -> _Calls:
        return list(row["calls"]), list(row["outputs"])

    return _load_rows(path, "bundled", "bundled", ("code",), calls, check)


def _load_rows(
    path: Path,
    name: str,
    source: str,
    keys: tuple[str, ...],
    calls: Callable[[_Row, str], _Calls],
    check: Callable[[_Row], str | None] = lambda row: None,
) -> LoadedDataset:
    """Problems of a JSON Lines file of one format: rows need the string fields `keys`, pass
    `check` (a reason to skip, or None) and name an entry function; `calls` reads a row's calls
    and outputs given its entry. Every other row is skipped with its line and reason."""
    loaded = LoadedDataset(info=_info(name, path), rows=[])
    seen: set[str] = set()
    for number, row in _json_lines(path, loaded.skipped):
        row_id = str(row.get("id", f"line-{number}"))
        reason = _row_problem(row, keys, row_id, seen) or check(row)
        entry = ""
        if reason is None:
            try:
                entry = entry_of(row["code"])
            except ValueError as exc:
                reason = str(exc)
        if reason is not None:
            loaded.skipped.append(SkippedRow(file=str(path), line=number, id=row_id, reason=reason))
            continue
        seen.add(row_id)
        call_list, outputs = calls(row, entry)
        problem = Problem(
            id=row_id,
            source=source,
            code=row["code"],
            entry=entry,
            calls=call_list,
            outputs=outputs,
        )
        loaded.rows.append(SourcedProblem(problem, str(path), number))
    return loaded


def _row_problem(
    row: dict[str, Any], keys: tuple[str, ...], row_id: str, seen: set[str]
) -> str | None:
    missing = _missing(row, keys)
    if missing:
        return "missing or non-string field(s): " + ", ".join(missing)
    if row_id in seen:
        return f"duplicate id {row_id!r}"
    return None
