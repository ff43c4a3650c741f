"""Hostile dataset rows: each becomes a named skipped row (file, line, id); the file is read."""

from __future__ import annotations

import json
from pathlib import Path

from core_bench.datasets import load_dataset


def _row(row_id: str, body: str) -> bytes:
    code = f"def f(x):\n    return {body}"
    return json.dumps(
        {"id": row_id, "code": code, "input": "1", "output": "1"}, ensure_ascii=False
    ).encode()


def test_hostile_rows_are_skipped_by_name_and_the_rest_loads(tmp_path: Path) -> None:
    lines = [
        _row("first", "x"),
        _row("plus", " + ".join(["x"] * 200_000)),  # RecursionError while parsing
        _row("minus", "-" * 100_000 + "x"),  # MemoryError while parsing
        b'{"id": "latin1", "code": "def f(x):\\n    return \xe9", "input": "1", "output": "1"}',
        _row("separator", "'a\u2028b\u2029c\x85d'"),  # raw, inside a JSON string
        b"",
        _row("last", "x"),
    ]
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b"\r\n".join(lines[:2]) + b"\n" + b"\n".join(lines[2:]) + b"\n")
    loaded = load_dataset(str(path))
    assert [(r.problem.id, r.line) for r in loaded.rows] == [
        ("first", 1),
        ("separator", 5),
        ("last", 7),
    ]
    assert loaded.rows[1].problem.code.endswith("'a\u2028b\u2029c\x85d'")
    skipped = {s.id: (s.file, s.line, s.reason) for s in loaded.skipped}
    assert set(skipped) == {"plus", "minus", "latin1"}
    assert skipped["plus"][:2] == (str(path), 2) and "nested" in skipped["plus"][2]
    assert skipped["minus"][:2] == (str(path), 3)
    assert skipped["latin1"][:2] == (str(path), 4) and "UTF-8" in skipped["latin1"][2]


def test_json_nested_too_deep_is_a_skipped_row(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n" + _row("ok", "x") + b"\n")
    loaded = load_dataset(str(path))
    assert [r.problem.id for r in loaded.rows] == ["ok"]
    assert [(s.line, s.id) for s in loaded.skipped] == [(1, None)]
