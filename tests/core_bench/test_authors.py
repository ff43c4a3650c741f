"""`core-bench build --authors`: models write reimplementations; only verified ones that pass
CoRE's filters are kept, every rejection is counted, and a rebuild asks nothing again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_bench.benchmark import load_benchmark
from core_bench.build import AuthorOptions, BuildOptions, build_benchmark
from core_bench.build._authored_code import Rejected, extract_code
from core_bench.cli import main
from core_bench.fake_openai import FakeOpenAI
from core_bench.runs import Endpoint, prompts

EVEN = """def f(nums):
    result = []
    for n in nums:
        if n % 2 == 0:
            result.append(n * 2)
    return result
"""
EVEN_ALT = """def f(nums):
    doubled = []
    index = 0
    while index < len(nums):
        value = nums[index]
        if not value & 1:
            doubled += [value + value]
        index += 1
    return doubled
"""
COUNT = """def f(text, ch):
    count = 0
    for c in text:
        if c == ch:
            count += 1
    return count
"""
# Skips the last character: right on the dataset's call, wrong on fresh ones.
COUNT_WRONG = """def f(text, ch):
    total = 0
    position = 0
    while position < len(text) - 1:
        if text[position] == ch:
            total = total + 1
        position = position + 1
    return total
"""
BIGGEST = """def f(items):
    best = None
    for item in items:
        if best is None or item > best:
            best = item
    return best
"""
PAIRS = """def f(a, b):
    out = []
    for x in a:
        for y in b:
            if x < y:
                out.append((x, y))
    return out
"""
HOSTILE = """def f(a, b):
    import os
    os.system("echo pwned")
    while False:
        pass
    return [(x, y) for x in a for y in b if x < y]
"""
SORTER = """def f(words):
    kept = []
    for w in words:
        if len(w) > 2:
            kept.append(w.upper())
    return kept
"""

ROWS = [
    {"id": "even", "code": EVEN, "input": "[1, 2, 3, 4]", "output": "[4, 8]"},
    {"id": "count", "code": COUNT, "input": "'abcab', 'a'", "output": "2"},
    {"id": "biggest", "code": BIGGEST, "input": "[3, 9, 2]", "output": "9"},
    {"id": "pairs", "code": PAIRS, "input": "[1, 2], [2, 3]", "output": "[(1, 2), (1, 3), (2, 3)]"},
    {"id": "sorter", "code": SORTER, "input": "['ab', 'abc', 'abcd']", "output": "['ABC', 'ABCD']"},
]


def fenced(code: str, note: str = "Here is another implementation.") -> str:
    return f"{note}\n\n```python\n{code}```\n"


def author(prompt: str) -> str:
    """What the fake model answers: right, wrong, lazy and hostile implementations."""
    if "count = 0" in prompt:
        return fenced(COUNT_WRONG)
    if "result.append(n * 2)" in prompt:
        return fenced(EVEN_ALT) + "\nprint(f([2]))\n"
    if "best = None" in prompt:
        return "The function returns the largest item, or None for an empty list."
    if "out.append((x, y))" in prompt:
        return fenced(HOSTILE)
    if "kept.append(w.upper())" in prompt:
        return fenced(SORTER.replace("kept", "chosen"))  # a renaming: too similar
    return "?"


@pytest.fixture()
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    return path


def build_options(dataset: Path, url: str, samples: int = 1) -> BuildOptions:
    return BuildOptions(
        dataset=str(dataset),
        variants=1,
        mutants=0,
        calls=4,
        probes=2,
        timeout_s=2.0,
        authors=AuthorOptions(
            models=("openai:fake-coder",),
            samples=samples,
            endpoint=Endpoint(base_urls=(url,), backoff_s=0.0),
        ),
    )


def test_authored_implementations_are_kept_only_when_verified_and_filtered(
    dataset: Path, tmp_path: Path
) -> None:
    with FakeOpenAI(author) as server:
        result = build_benchmark(build_options(dataset, server.url), tmp_path / "b", processes=1)
        asked = server.total
    counts = result.manifest.counts
    key = "authors.openai:fake-coder"
    assert asked == len(ROWS) == counts[f"{key}.asked"] == counts[f"{key}.requested"]
    assert counts[f"{key}.rejected.no_code_block"] == 1
    assert counts[f"{key}.checked"] == 4
    assert counts[f"{key}.kept"] == 1
    assert counts[f"{key}.rejected.not_equivalent"] == 2  # COUNT_WRONG (fresh calls), HOSTILE
    assert counts[f"{key}.rejected.too_similar"] == 1
    bench = load_benchmark(tmp_path / "b")
    [kept] = [v for v in bench.variants if v.family == "reimplementation"]
    assert kept.id == "even:re1" and kept.origin == "openai:fake-coder"
    assert kept.code == EVEN_ALT  # the test print after the block is not part of it
    assert kept.kind == "equivalent" and kept.single and kept.cc >= 3 and kept.jaccard <= 0.7
    even = next(p for p in bench.problems if p.id == "even")
    assert kept.outputs == even.outputs and kept.verified_calls >= len(even.calls) + 16
    assert any(p.variant_id == kept.id for p in bench.probes)


def test_a_rebuild_asks_nothing_again_and_a_second_sample_must_differ(
    dataset: Path, tmp_path: Path
) -> None:
    with FakeOpenAI(author) as server:
        options = build_options(dataset, server.url, samples=2)
        first = build_benchmark(options, tmp_path / "a", processes=1)
        asked = server.total
        again = build_benchmark(options, tmp_path / "a", processes=1)
        assert server.total == asked == 2 * len(ROWS)
    counts = again.manifest.counts
    key = "authors.openai:fake-coder"
    assert counts[f"{key}.cached"] == 2 * len(ROWS) and counts[f"{key}.requested"] == 0
    # The same answer twice: the second is too similar to the kept first.
    assert counts[f"{key}.kept"] == 1 and counts[f"{key}.rejected.too_similar"] == 3
    assert first.manifest.counts[f"{key}.kept"] == 1
    for name in ("problems.jsonl", "variants.jsonl", "probes.jsonl"):
        assert (tmp_path / "a" / name).is_file()


def test_the_cli_takes_run_flags_and_refuses_non_openai_authors(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(author) as server:
        args = ["build", "--dataset", str(dataset), "--out", str(tmp_path / "c")]
        args += ["--variants", "0", "--mutants", "0", "--calls", "3", "--probes", "1"]
        args += ["--authors", "openai:fake-coder", "--base-url", server.url]
        args += ["--temperature", "0.2", "--max-tokens", "900", "--request-timeout", "30"]
        assert main(args) == 0
        body = server.bodies[0]
    assert body["model"] == "fake-coder" and body["max_tokens"] == 900
    assert body["temperature"] == 0.2
    assert "authors.openai:fake-coder.kept" in capsys.readouterr().out
    assert (tmp_path / "c" / "authors.sqlite").is_file()
    bad = ["build", "--dataset", str(dataset), "--out", str(tmp_path / "d")]
    assert main([*bad, "--authors", "ref:oracle"]) == 2
    assert "expected openai:<name>" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_the_prompt_shows_the_function_and_its_calls() -> None:
    prompt = prompts.render_author(COUNT, [("f('abcab', 'a')", "2")])
    [message] = prompt.messages
    assert COUNT.rstrip() in message["content"]
    assert "assert f('abcab', 'a') == 2" in message["content"]
    assert prompt.text.endswith(prompts.AUTHOR_PRIMER)


@pytest.mark.parametrize(
    "answer, key",
    [
        ("no code at all", "no_code_block"),
        ("```python\ndef f(x:\n```", "does_not_parse"),
        ("```python\ndef g(x):\n    return x\n```", "no_entry_function"),
        ("```python\n" + "x = 1\n" * 30_000 + "```", "too_long"),
        ("```js\nfunction f(x) { return x }\n```", "no_code_block"),
        ("```python\ndef f(x):\n    return x\n    nonlocal y\n```", "does_not_compile"),
    ],
)
def test_code_extraction_rejects_what_is_not_usable_code(answer: str, key: str) -> None:
    with pytest.raises(Rejected) as caught:
        extract_code(answer, "f")
    assert caught.value.key == key


def test_code_extraction_takes_the_last_usable_block_and_only_definitions() -> None:
    answer = (
        "<think>```python\ndef f(x):\n    return 0\n```</think>\n"
        "First try:\n```python\ndef f(x):\n    return x +\n```\n"
        "Fixed:\n```python\nimport math\n\nLIMIT = 3\n\n\ndef f(x):\n    # scaled\n"
        "    return math.floor(x) * LIMIT\n\n\nprint(f(2))\nif __name__ == '__main__':\n"
        "    f(1)\n```\nDone."
    )
    code = extract_code(answer, "f")
    assert code == (
        "import math\n\nLIMIT = 3\n\ndef f(x):\n    # scaled\n    return math.floor(x) * LIMIT\n"
    )
    method = "```python\nclass Solution:\n    def go(self, n):\n        return n\n```"
    assert extract_code(method, "Solution().go").startswith("class Solution:")
