"""The wire format's encoder: what `json.dumps` writes, made once for every message."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tracer import _wire

MESSAGES: list[Any] = [
    {
        "status": "ok",
        "result": "'caf\u00e9 \\n \U0001f600'",
        "result_literal": True,
        "exception": None,
        "args_after": ["[1, 2]", "{'a': (1,)}"],
        "duration_s": 0.000123456,
        "index": 3,
        "big": 10**30,
        "floats": [1e-300, -0.0, 1.5e300, float("nan"), float("inf")],
    },
    [],
    {},
    "text \x00 \u2028",
    {"trace": {"steps": [{"index": i, "line": i % 7, "locals": {"x": str(i)}} for i in range(50)]}},
]


@pytest.mark.parametrize("message", MESSAGES, ids=range(len(MESSAGES)))
def test_encode_writes_what_json_dumps_writes(message: Any) -> None:
    expected = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    assert _wire.encode(message) == len(expected).to_bytes(4, "big") + expected


def test_encode_is_reusable_after_a_failure() -> None:
    with pytest.raises(TypeError):
        _wire.encode({"a": [1, object()]})
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ValueError, match="nested too deeply"):
        _wire.encode(deep)
    circular: list[Any] = [1]
    circular.append(circular)
    with pytest.raises(ValueError):
        _wire.encode(circular)
    assert _wire.encode({"a": [1]}) == b'\x00\x00\x00\t{"a":[1]}'
