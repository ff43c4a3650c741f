"""`score_cruxeval` against an independent reference of the official CRUXEval scorer.

The reference below is written from the official scorer's behaviour (facebookresearch/cruxeval,
evaluation/utils_general.py and evaluate_generations.py): one fresh process per generation
that executes `code + "\\nassert " + output + " == " + generation` within 3 seconds; echoes of
the call (output mode) and generations without "f(" (input mode) are left out; a sample with
no passing generation scores [False] * len(generations); pass@k is 1 - prod(1 - k/j).
"""

from __future__ import annotations

import functools
import json
import math
import operator
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core_bench.datasets import load_dataset
from core_bench.grading import cruxeval_row, pass_at_k, score_cruxeval
from tracer import SandboxPool

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")
needs_cruxeval = pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")

LOOP = "next(x for x in iter(int, 1) if x)"
"""A generation that never finishes (and allocates nothing)."""


# -- the independent reference ----------------------------------------------------------------


def _passes_in_fresh_process(program: str, cwd: Path) -> bool:
    runner = "import sys\nexec(sys.argv[1], {})"
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-c", runner, program],
            capture_output=True,
            timeout=3,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def _reference_estimator(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return 1.0 - math.prod([1.0 - k / j for j in range(n - c + 1, n + 1)])


def reference_score(
    generations: dict[str, list[str]], rows: list[dict[str, str]], mode: str, cwd: Path
) -> dict[str, Any]:
    scored: dict[str, list[bool]] = {}
    for index, row in enumerate(rows):
        gens = generations[f"sample_{index}"]
        results = []
        for g in gens:
            if mode == "input" and "f(" not in g:
                continue
            if mode == "output" and "f(" + row["input"] + ")" in g:
                continue
            program = row["code"] + "\nassert " + row["output"] + " == " + g
            results.append(_passes_in_fresh_process(program, cwd))
        if not any(results):
            results = [False] * len(gens)
        scored[f"sample_{index}"] = results
    ones = [_reference_estimator(len(r), r.count(True), 1) for r in scored.values()]
    fives = [_reference_estimator(len(r), r.count(True), 5) for r in scored.values()]
    # The official adds numpy floats one after another: a plain left fold on every Python.
    return {
        "raw_generations": generations,
        "raw_scored_generations": scored,
        "pass_at_1": functools.reduce(operator.add, ones, 0) / len(ones) * 100,
        "pass_at_5": functools.reduce(operator.add, fives, 0) / len(fives) * 100,
    }


# -- generations built from the dataset itself --------------------------------------------------


def _wrong(output: str) -> str:
    return "None" if output != "None" else "0"


def output_generations(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for index, row in enumerate(rows):
        o, i = row["output"], row["input"]
        echo = f"f({i})"
        gens = [
            o,  # right
            _wrong(o),  # wrong value
            echo,  # echo of the call: left out, n shrinks
            f"{echo}  # the call itself",  # contains the echo: left out
            f"eval({o!r})",  # any expression is evaluated: right
            "'a' + 'b'",  # an expression: wrong
            "None or True",  # pasted text keeps precedence: (o == None) or True passes
            "[1, 2",  # does not parse: the whole program fails
            "1 / 0",  # raises
            f"{o}  # trailing comment",  # right
            f"{o}\nx = 1",  # a newline adds a statement: right
        ]
        shape = index % 6
        if shape == 1:
            gens = [_wrong(o), echo, "[1, 2"]  # none passes: [False] * 3
        elif shape == 2:
            gens = [echo, echo]  # all left out: [False] * 2
        elif shape == 3:
            gens = []  # n = 0: pass@k is 1.0 in the official estimator
        elif shape == 4:
            gens = [o, _wrong(o)]  # n < 5 with one right: pass@5 is 1.0
        elif shape == 5:
            gens = [o, *[_wrong(o)] * 9, o]  # pass@5 strictly between 0 and 1
        out[f"sample_{index}"] = gens
    return out


def input_generations(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for index, row in enumerate(rows):
        i = row["input"]
        gens = [
            f"f({i})",  # right
            "f()",  # raises: wrong
            i,  # no "f(": left out
            f"f ({i})",  # a valid call, but no "f(" text: left out
            f"f({i}) or True",  # precedence: passes
            f"f({i}) if False else None",  # (o == f(i)) if False else None: fails
            f"[f({i})][0]",  # any expression: right
        ]
        if index % 3 == 1:
            gens = [i, "f()"]  # nothing passes: [False] * 2
        elif index % 3 == 2:
            gens = [f"f({i})", i, i, i, i, i]  # five left out: n = 1, pass@5 = 1.0
        out[f"sample_{index}"] = gens
    return out


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    assert CRUXEVAL
    text = Path(CRUXEVAL).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _subset(rows: list[dict[str, str]], count: int) -> list[dict[str, str]]:
    step = len(rows) // count
    return [rows[i * step + 7] for i in range(count)]


# -- tests -------------------------------------------------------------------------------------


@needs_cruxeval
@pytest.mark.parametrize("mode", ["output", "input"])
def test_equal_to_the_reference_on_real_data(
    mode: str, rows: list[dict[str, str]], pool: SandboxPool, tmp_path: Path
) -> None:
    subset = _subset(rows, 18)
    build = output_generations if mode == "output" else input_generations
    generations = build(subset)
    ours = score_cruxeval(generations, mode, subset, pool)
    reference = reference_score(generations, subset, mode, tmp_path)
    assert ours == reference  # every boolean, and pass@1 / pass@5 to the last bit
    assert list(ours) == ["raw_generations", "raw_scored_generations", "pass_at_1", "pass_at_5"]
    scored = ours["raw_scored_generations"]
    if mode == "output":
        # the quirks, visibly: echoes left out, [False] * len when none passes, n = 0 -> 1.0
        assert scored["sample_0"] == [True, False, True, False, True, False, False, True, True]
        assert scored["sample_1"] == [False, False, False]
        assert scored["sample_2"] == [False, False]
        assert scored["sample_3"] == []
    else:
        assert scored["sample_0"] == [True, False, True, False, True]
        assert scored["sample_1"] == [False, False]
        assert scored["sample_2"] == [True]


@needs_cruxeval
def test_a_generation_that_never_ends_fails_like_the_official(
    rows: list[dict[str, str]], pool: SandboxPool, tmp_path: Path
) -> None:
    subset = rows[:1]
    generations = {"sample_0": [LOOP, subset[0]["output"]]}
    ours = score_cruxeval(generations, "output", subset, pool)
    assert ours == reference_score(generations, subset, "output", tmp_path)
    assert ours["raw_scored_generations"]["sample_0"] == [False, True]


@pytest.mark.slow
@needs_cruxeval
def test_the_datasets_own_answers_all_pass(rows: list[dict[str, str]], pool: SandboxPool) -> None:
    outputs = {f"sample_{i}": [row["output"]] for i, row in enumerate(rows)}
    inputs = {f"sample_{i}": [f"f({row['input']})"] for i, row in enumerate(rows)}
    assert score_cruxeval(outputs, "output", rows, pool)["pass_at_1"] == 100.0
    assert score_cruxeval(inputs, "input", rows, pool)["pass_at_5"] == 100.0


@needs_cruxeval
def test_rows_loaded_by_load_dataset_are_the_files_rows(rows: list[dict[str, str]]) -> None:
    assert CRUXEVAL
    loaded = load_dataset(CRUXEVAL)
    assert not loaded.skipped
    assert [cruxeval_row(r) for r in loaded.rows] == [cruxeval_row(r) for r in rows]


def test_estimator_matches_the_closed_form() -> None:
    for n in range(0, 21):
        for c in range(0, n + 1):
            for k in (1, 5):
                ours = pass_at_k(n, c, k)
                assert ours == _reference_estimator(n, c, k)
                if n >= k:
                    exact = 1 - math.comb(n - c, k) / math.comb(n, k)
                    assert math.isclose(ours, exact, rel_tol=1e-12, abs_tol=1e-12)


TINY = [
    {"code": "def f(x):\n    return x + 1", "input": "1", "output": "2", "id": "sample_0"},
    {"code": "def f(s):\n    return s[::-1]", "input": "'ab'", "output": "'ba'", "id": "sample_1"},
]


def test_bad_arguments_are_refused(pool: SandboxPool) -> None:
    with pytest.raises(ValueError, match="mode"):
        score_cruxeval({}, "both", TINY, pool)
    with pytest.raises(ValueError, match="sample_1"):
        score_cruxeval({"sample_0": ["2"]}, "output", TINY, pool)
    with pytest.raises(ValueError, match="list of strings"):
        score_cruxeval({"sample_0": ["2"], "sample_1": [3]}, "output", TINY, pool)  # type: ignore[list-item]


def test_extra_keys_are_kept_but_not_scored(pool: SandboxPool) -> None:
    generations = {"sample_0": ["2", "3"], "sample_1": ["'ba'"], "note": ["x"]}
    scored = score_cruxeval(generations, "output", TINY, pool)
    assert scored["raw_generations"] == generations
    assert scored["raw_scored_generations"] == {"sample_0": [True, False], "sample_1": [True]}
    assert scored["pass_at_1"] == (0.5 + 1.0) / 2 * 100
