"""Loading datasets: bundled, CRUXEval-format files, the checked download, CoRE's questions."""

from __future__ import annotations

import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from core_bench.datasets import CRUXEVAL_SHA256, load_dataset, validate_problems
from core_bench.errors import UsageError
from tracer import SandboxPool

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")
CORE_QA = os.environ.get("CORE_BENCH_CORE_QA")


def test_bundled_dataset_loads_and_agrees_with_execution(pool: SandboxPool) -> None:
    loaded = load_dataset("bundled")
    assert loaded.skipped == [] and len(loaded.rows) >= 200
    assert loaded.info.name == "bundled" and len(loaded.info.sha256) == 64
    kept, skipped = validate_problems(loaded.rows, pool)
    assert skipped == [] and len(kept) == len(loaded.rows)
    first = loaded.rows[0]
    assert first.line == 1 and first.problem.entry == "f" and len(first.problem.calls) >= 3


def write_rows(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_bad_rows_are_reported_with_file_line_and_id(tmp_path: Path, pool: SandboxPool) -> None:
    def row(row_id: str, code: str, arg: str, out: str) -> str:
        return json.dumps({"id": row_id, "code": code, "input": arg, "output": out})

    path = write_rows(
        tmp_path / "mixed.jsonl",
        [
            row("good", "def f(x):\n    return x + 1\n", "1", "2"),
            '{"id": "broken", "code": ',
            row("syntax", "def f(x):\n    return x +\n", "1", "2"),
            row("raises", "def f(x):\n    return x[5]\n", "[1]", "1"),
            row("loops", "def f(x):\n    while True:\n        x += 1\n", "1", "2"),
            row("wrong", "def f(x):\n    return x * 2\n", "3", "7"),
            row("good", "def f(x):\n    return x\n", "1", "1"),
            json.dumps({"id": "fields", "code": "def f(x):\n    return x\n"}),
            row("sets", "def f(x):\n    return set(x)\n", "'abc'", "{'c', 'b', 'a'}"),
        ],
    )
    loaded = load_dataset(str(path))
    load_reasons = {(s.line, s.id): s.reason for s in loaded.skipped}
    assert all(s.file == str(path) for s in loaded.skipped)
    assert "broken JSON" in load_reasons[(2, None)]
    assert "line 2" in load_reasons[(3, "syntax")]
    assert "duplicate id" in load_reasons[(7, "good")]
    assert "input, output" in load_reasons[(8, "fields")]
    kept, skipped = validate_problems(loaded.rows, pool, timeout_s=1.0)
    assert [r.problem.id for r in kept] == ["good", "sets"]
    run_reasons = {(s.line, s.id): s.reason for s in skipped}
    assert "IndexError" in run_reasons[(4, "raises")]
    assert "did not terminate" in run_reasons[(5, "loops")]
    assert "the row says 7, execution gives 6" in run_reasons[(6, "wrong")]


def test_missing_dataset_names_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"no such dataset file.*'bundled'"):
        load_dataset(str(tmp_path / "nope.jsonl"))


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_cruxeval_file_loads_all_800(pool: SandboxPool) -> None:
    loaded = load_dataset(str(CRUXEVAL))
    assert len(loaded.rows) == 800 and loaded.skipped == []
    assert loaded.info.sha256 == CRUXEVAL_SHA256
    sample = loaded.rows[0].problem
    assert sample.id == "sample_0" and sample.calls[0].startswith("f(")
    kept, skipped = validate_problems(loaded.rows, pool)
    assert len(kept) == 800 and skipped == []


class _Files(http.server.BaseHTTPRequestHandler):
    body = b""
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Files]]]:
    handler = type("Handler", (_Files,), {"body": b"", "hits": 0})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/cruxeval.jsonl", handler
    finally:
        httpd.shutdown()


@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_cruxeval_download_is_checked_and_cached(
    server: tuple[str, type[_Files]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, handler = server
    handler.body = Path(str(CRUXEVAL)).read_bytes()
    monkeypatch.setenv("CORE_BENCH_CRUXEVAL_URL", url)
    monkeypatch.setenv("CORE_BENCH_CACHE", str(tmp_path / "cache"))
    first = load_dataset("cruxeval")
    assert len(first.rows) == 800 and first.info.sha256 == CRUXEVAL_SHA256
    second = load_dataset("cruxeval")
    assert len(second.rows) == 800
    assert handler.hits == 1  # the second load used the cache


def test_corrupt_download_is_rejected_and_not_kept(
    server: tuple[str, type[_Files]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, handler = server
    handler.body = b'{"id": "sample_0", "code": "def f():\\n    return 1\\n"}\n'
    monkeypatch.setenv("CORE_BENCH_CRUXEVAL_URL", url)
    monkeypatch.setenv("CORE_BENCH_CACHE", str(tmp_path / "cache"))
    with pytest.raises(UsageError, match="sha256"):
        load_dataset("cruxeval")
    assert list((tmp_path / "cache").iterdir()) == []


@pytest.mark.skipif(not CORE_QA, reason="CORE_BENCH_CORE_QA is not set")
def test_core_qa_imports_problems_and_questions_as_written(pool: SandboxPool) -> None:
    loaded = load_dataset(f"core-qa={CORE_QA}")
    rows = json.loads(Path(str(CORE_QA)).read_text())
    assert len(loaded.probes) + len(loaded.skipped) == len(rows) == 243
    assert len({p.id for p in loaded.probes}) == len(loaded.probes)
    for probe in loaded.probes:
        original = rows[int(probe.id.rsplit(":", 1)[1])]
        assert probe.id.split(":")[1] == original["id"]
        assert probe.question == original["question"]
        assert probe.answer == str(original["ground_truth"])
        assert probe.answer_type == (original["answer_type"] or "unknown")
        assert probe.kind == "imported" and probe.problem_id.startswith("core-qa/")
    kept, skipped = validate_problems(loaded.rows, pool)
    assert skipped == [] and len(kept) == len(loaded.rows)
    leetcode = next(r.problem for r in loaded.rows if "Solution()" in r.problem.entry)
    original_code = next(r["source_code"] for r in rows if "class Solution" in r["source_code"])
    assert len(leetcode.code.splitlines()) == len(original_code.splitlines())
