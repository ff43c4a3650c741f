"""Generating more calls for a problem by type-preserving mutation."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

import pytest

from tracer import SandboxPool, TraceError
from transforms._inputs import candidate_calls, generate_calls, parse_call, render_literal


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(workers=1) as p:
        yield p


def _args(call: str) -> list[Any]:
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    return [ast.literal_eval(a) for a in node.args]


def _shape(value: Any) -> Any:
    """The type skeleton of a value: containers by type, atoms by type."""
    if isinstance(value, list | set):
        return type(value)
    if isinstance(value, tuple):
        return (tuple, len(value))
    if isinstance(value, dict):
        return dict
    return type(value)


def test_render_literal_round_trips_and_ignores_set_order() -> None:
    value = {"k": [1, (2,), {"b", "a"}, set(), -3.5, None, True, b"x", "q'\""]}
    text = render_literal(value)
    assert ast.literal_eval(text) == value
    assert render_literal({"b", "a", "c"}) == "{'a', 'b', 'c'}"
    assert render_literal((1,)) == "(1,)"


def test_parse_call_keeps_keywords_and_non_literals() -> None:
    parsed = parse_call("f(xs[:], [1, 2], n=3, *rest, **opts)")
    assert parsed.func == "f"
    assert [(a.keyword, a.text, a.literal) for a in parsed.args] == [
        (None, "xs[:]", False),
        (None, "[1, 2]", True),
        (None, "*rest", False),
        ("n", "3", True),
        (None, "**opts", False),
    ]
    assert parsed.render() == "f(xs[:], [1, 2], *rest, n=3, **opts)"


def test_parse_call_rejects_non_calls() -> None:
    with pytest.raises(TraceError, match="expected a call"):
        parse_call("1 + 2")
    with pytest.raises(TraceError, match="does not parse"):
        parse_call("f(")


def test_arguments_render_literal_cannot_write_are_copied_unchanged() -> None:
    parsed = parse_call("f(1e999, ..., [1.5], x)")
    assert [a.literal for a in parsed.args] == [False, False, True, False]
    assert parsed.render([0.0, 0, [2.5], 0], write=render_literal) == "f(1e999, ..., [2.5], x)"


def test_candidates_preserve_types_and_are_new() -> None:
    calls = ["f([1, 2, 3], 'abc', (4, 'x'), {'a': 1}, {1, 2}, 2.5, True)"]
    out = candidate_calls(calls, count=40, seed=3)
    assert len(out) == 40
    assert len(set(out)) == 40 and calls[0] not in out
    original = [_shape(v) for v in _args(calls[0])]
    for call in out:
        values = _args(call)
        assert [_shape(v) for v in values] == original
        assert all(isinstance(x, int) for x in values[0])
        assert isinstance(values[2][1], str)


def test_candidates_keep_keyword_arguments_as_keywords() -> None:
    for call in candidate_calls(["f('ab', sep='-')"], count=10, seed=0):
        node = ast.parse(call, mode="eval").body
        assert isinstance(node, ast.Call)
        assert [kw.arg for kw in node.keywords] == ["sep"]


def test_candidates_are_deterministic_and_seed_dependent() -> None:
    calls = ["f([3, 1, 2], 'hello')"]
    assert candidate_calls(calls, count=12, seed=7) == candidate_calls(calls, count=12, seed=7)
    assert candidate_calls(calls, count=12, seed=7) != candidate_calls(calls, count=12, seed=8)


def test_candidates_skip_calls_that_do_not_parse() -> None:
    assert candidate_calls(["f(", "1 +"], count=3, seed=0) == []
    assert len(candidate_calls(["f(", "f(1)"], count=3, seed=0)) == 3


def test_candidates_for_empty_containers_and_no_arguments() -> None:
    assert candidate_calls(["f([])"], count=5, seed=0)
    assert candidate_calls(["f({})"], count=5, seed=0)
    assert candidate_calls(["f()"], count=5, seed=0) == []


def test_generate_calls_keeps_originals_first_and_adds_working_calls(pool: SandboxPool) -> None:
    code = "def f(nums, k):\n    return sorted(nums)[:k]\n"
    calls = ["f([3, 1, 2], 2)"]
    out = generate_calls(code, calls, n=8, seed=0, pool=pool)
    assert out[0] == calls[0]
    assert len(out) == 9
    outcomes = pool.run_batch(code, out[1:], timeout_s=5.0, memory_mb=512, max_steps=10_000)
    assert all(o.status == "ok" for o in outcomes)


def test_generate_calls_limits_raising_calls(pool: SandboxPool) -> None:
    # Raises on any list whose first element is not 1.
    code = "def f(xs):\n    if xs[0] != 1:\n        raise ValueError(xs)\n    return len(xs)\n"
    out = generate_calls(code, ["f([1, 2, 3])"], n=8, seed=1, pool=pool, max_raising=1)
    outcomes = pool.run_batch(code, out, timeout_s=5.0, memory_mb=512, max_steps=10_000)
    assert sum(o.status == "exception" for o in outcomes) <= 1
    assert all(o.status in ("ok", "exception") for o in outcomes)
    none = generate_calls(code, ["f([1, 2, 3])"], n=8, seed=1, pool=pool, max_raising=0)
    outcomes = pool.run_batch(code, none, timeout_s=5.0, memory_mb=512, max_steps=10_000)
    assert all(o.status == "ok" for o in outcomes)


def test_generate_calls_drops_calls_that_do_not_finish(pool: SandboxPool) -> None:
    # Loops forever when the step is 0 (which mutation of an int easily produces).
    code = "def f(n, step):\n    i = 0\n    while i < n:\n        i += step\n    return i\n"
    out = generate_calls(code, ["f(5, 1)"], n=8, seed=0, pool=pool, timeout_s=1.0)
    outcomes = pool.run_batch(code, out, timeout_s=5.0, memory_mb=512, max_steps=10_000)
    assert all(o.status in ("ok", "exception") for o in outcomes)


def test_generate_calls_is_deterministic(pool: SandboxPool) -> None:
    code = "def f(text, ch):\n    return text.count(ch), text.upper()\n"
    calls = ["f('banana', 'a')"]
    first = generate_calls(code, calls, n=8, seed=5, pool=pool)
    assert first == generate_calls(code, calls, n=8, seed=5, pool=pool)
    assert len(first) == 9


def test_generate_calls_handles_module_level_arguments(pool: SandboxPool) -> None:
    code = "items = [1, 2]\n\ndef f(xs, n):\n    return xs * n\n"
    out = generate_calls(code, ["f(items[:], 2)"], n=4, seed=0, pool=pool)
    assert all(call.startswith("f(items[:], ") for call in out)
    assert len(out) == 5


def test_derived_calls_write_sets_in_sorted_order() -> None:
    # repr would write a set of strings in the order of this process's hash seed.
    out = candidate_calls(["f({'pear', 'fig', 'kiwi', 'plum'})"], count=20, seed=1)
    for call in out:
        argument = parse_call(call).args[0]
        assert argument.text == render_literal(argument.value), call


class _CountingPool(SandboxPool):
    """A sandbox pool that remembers every call it ran (the calls stage's optimisation is
    about how many it runs)."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.ran: list[str] = []

    def run_batch(self, code: str, calls: Any, **options: Any) -> Any:
        self.ran.extend(calls)
        return super().run_batch(code, calls, **options)


def _rounds_reference(
    code: str, calls: list[str], n: int, pool: SandboxPool, max_raising: int
) -> list[str]:
    """The calls stage before batches were sized to what is still wanted: three rounds of
    `2n + 4` candidates, each round run whole, the first `n` keepable kept."""
    from transforms._inputs import _keep, _run_traced

    per_round = 2 * n + 4
    candidates = candidate_calls(calls, count=per_round * 3, seed=0, code=code)
    kept: list[str] = []
    raising = 0
    for r in range(3):
        batch = candidates[r * per_round : (r + 1) * per_round]
        if len(kept) >= n or not batch:
            break
        outcomes = _run_traced(pool, code, batch, 2.0, 512, 10_000)
        for call, outcome in zip(batch, outcomes, strict=True):
            verdict = _keep(outcome)
            if verdict is None or len(kept) >= n:
                continue
            if verdict == "raise":
                if raising >= max_raising:
                    continue
                raising += 1
            kept.append(call)
    return kept


GENERATION_CASES = [
    ("def f(xs):\n    return sorted(xs)[0]\n", ["f([3, 1, 2])"]),  # [] raises: capped
    ("def f(s, c):\n    return s.index(c)\n", ["f('abcab', 'b')"]),  # most candidates raise
    ("def f(n):\n    while n != 1:\n        n -= 2\n    return n\n", ["f(7)"]),  # even n loops
    ("def f(d, k):\n    return d[k] * 2\n", ["f({'a': 1, 'b': 2}, 'a')"]),
]


@pytest.mark.parametrize(("code", "calls"), GENERATION_CASES)
def test_generated_calls_are_those_of_whole_rounds_with_each_candidate_run_once(
    pool: SandboxPool, code: str, calls: list[str]
) -> None:
    from transforms import generate_call_outcomes

    expected = _rounds_reference(code, calls, 8, pool, max_raising=2)
    with _CountingPool() as counting:
        got = generate_call_outcomes(code, calls, n=8, pool=counting, max_steps=10_000)
    assert [call for call, _ in got] == expected
    assert len(counting.ran) == len(set(counting.ran))  # no candidate runs twice
    # at most one candidate beyond the last kept per batch, and never more than whole rounds
    assert len(counting.ran) <= len(candidate_calls(calls, count=60, seed=0, code=code))
    assert all(call in counting.ran for call in expected)


def test_candidates_that_all_finish_are_run_about_once_each(pool: SandboxPool) -> None:
    from transforms import generate_call_outcomes

    code, calls = "def f(a, b):\n    return a + b\n", ["f(1, 2)"]
    with _CountingPool() as counting:
        got = generate_call_outcomes(code, calls, n=10, pool=counting)
    assert len(got) == 10
    assert len(counting.ran) == 11  # one batch of the 10 wanted and one spare; rounds ran 24
