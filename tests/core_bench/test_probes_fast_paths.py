"""The probe stage's fast paths give what the plain per-reading code gives, on bundled problems:
kind-wide answerability and guess filters, guesses shared between anchors, the cached loop
argument names, and source segments read off lines split once."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator

import pytest

from core_bench.datasets import load_dataset
from core_bench.probes import KINDS, PROBE_KINDS, CallContext, Reading, answerable, guessed
from core_bench.probes._guesses import Seen, _arguments, _loop_iterable_argument, call_name
from core_bench.probes._guesses import guesses_of as rule_guesses
from core_bench.probes._guesses import statement as statement_of
from core_bench.probes._parsed import segment
from core_bench.probes._registry import _blind_anchor, unanswerable, unguessed
from core_bench.probes._select import weighted_order
from tracer import TraceError, same_value, trace

PROBLEMS = 40
"""Bundled problems checked: every kind of probe occurs in them."""


def _contexts() -> Iterator[CallContext]:
    for row in load_dataset("bundled").rows[:PROBLEMS]:
        for call in row.problem.calls:
            try:
                traced = trace(row.problem.code, call)
            except TraceError:
                continue
            if not traced.truncated:
                yield CallContext(row.problem.code, traced)


@pytest.fixture(scope="module")
def contexts() -> list[CallContext]:
    return list(_contexts())


def test_the_kind_wide_filters_keep_what_the_per_reading_checks_keep(
    contexts: list[CallContext],
) -> None:
    kept = dropped = 0
    for ctx in contexts:
        for kind in PROBE_KINDS:
            readings = list(KINDS[kind].each(ctx))
            # a fresh context: the per-reading checks fill its memo on their own
            plain = CallContext(ctx.code, ctx.trace)
            expected = [r for r in readings if not answerable(plain, r)]
            assert unanswerable(ctx, kind, iter(readings)) == expected
            assert unguessed(ctx, kind, expected) == [r for r in expected if not guessed(plain, r)]
            kept, dropped = kept + len(expected), dropped + len(readings) - len(expected)
    assert kept > 1000 and dropped > 100  # both branches are exercised


def test_shared_guesses_match_as_the_guess_texts_compared_one_by_one(
    contexts: list[CallContext],
) -> None:
    hits = misses = 0
    for ctx in contexts:
        for kind in PROBE_KINDS:
            rules = KINDS[kind].guesses
            for r in KINDS[kind].each(ctx):
                anchor = _blind_anchor(r.line, r.occurrence, r.variable)
                seen = Seen(ctx.code, call_name(ctx.trace.call), ctx.trace.call, anchor=anchor)
                texts = rule_guesses(dict(rules), seen)
                expected = any(same_value(t, r.answer, strictness="typed") for t in texts)
                assert guessed(ctx, r) == expected, (kind, r)
                hits, misses = hits + expected, misses + (not expected)
    assert hits > 500 and misses > 500


def _walked_loop_argument(seen: Seen, line: int) -> str | None:
    """The loop argument found by walking the header's statement afresh (the code before
    `_iterated_names` kept the names per code and line)."""
    stmt = statement_of(seen, line)
    if isinstance(stmt, ast.For):
        scanned: ast.expr = stmt.iter
    elif isinstance(stmt, ast.While):
        lengths = [
            sub.args[0]
            for sub in ast.walk(stmt.test)
            if isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id == "len"
            and len(sub.args) == 1
        ]
        if not lengths:
            return None
        scanned = lengths[0]
    else:
        return None
    args = dict(_arguments(seen.code, seen.entry, seen.call))
    for sub in ast.walk(scanned):
        if isinstance(sub, ast.Name) and sub.id in args:
            return args[sub.id]
    return None


def test_the_cached_loop_argument_is_the_one_a_fresh_walk_finds(
    contexts: list[CallContext],
) -> None:
    found = 0
    for ctx in contexts:
        call = ctx.trace.call
        for line in ctx.runs:
            seen = Seen(ctx.code, call_name(call), call, anchor=_blind_anchor(line, 1, None))
            expected = _walked_loop_argument(seen, line)
            assert _loop_iterable_argument(seen) == expected
            found += expected is not None
    assert found > 20


EDGE_SOURCES = [
    "def f(x):\r\n    return (x +\r\n        1)\r\n",
    "def f(x):\r    y = [x,\r         x]\r    return y\r",
    "def f(s):\n    \x0c\n    t = 'é' + s + \"\\u2028\"\n    return {'k': t,\n  'v': 1}\n",
    "x = 1",
]


def test_segments_are_the_standard_library_s() -> None:
    codes = [row.problem.code for row in load_dataset("bundled").rows] + EDGE_SOURCES
    compared = 0
    for code in codes:
        for node in ast.walk(ast.parse(code)):
            assert segment(code, node) == ast.get_source_segment(code, node), (code, node)
            compared += 1
    assert compared > 5000


def test_weighted_order_is_the_keyed_sort_it_replaced(contexts: list[CallContext]) -> None:
    checked = 0
    for ctx in contexts[:200]:
        for kind in PROBE_KINDS:
            readings = list(KINDS[kind].each(ctx))
            seed = f"{ctx.trace.call}:{kind}"
            rng = random.Random(seed)
            keyed = [
                (rng.random() ** (1.0 / max(r.weight, 0.05)), i) for i, r in enumerate(readings)
            ]
            keyed.sort(key=lambda pair: (-pair[0], pair[1]))
            assert weighted_order(readings, random.Random(seed)) == [readings[i] for _, i in keyed]
            checked += len(readings) > 1
    assert checked > 100


def _state_after_by_read(ctx: CallContext) -> list[Reading]:
    """state_after's readings as `read` gives them at every name a run assigns or changes
    (the enumeration before `each` worked out what the names of one run share once)."""
    out: list[Reading] = []
    for line, runs in ctx.runs.items():
        facts = ctx.line(line)
        if facts is None or facts.has_yield:
            continue
        for occurrence, index in enumerate(runs, 1):
            after = ctx.after_step(index)
            if after is None or after.event == "exception":
                continue
            before = ctx.steps[index].locals
            names = list(facts.binds)
            names.extend(
                n for n, v in after.locals.items() if before.get(n) != v and n not in facts.binds
            )
            for name in names:
                reading = KINDS["state_after"].read(ctx, line, occurrence, name)
                if reading is not None:
                    out.append(reading)
    return out


def test_state_after_enumerates_what_read_gives(contexts: list[CallContext]) -> None:
    total = 0
    for ctx in contexts:
        expected = _state_after_by_read(ctx)
        assert list(KINDS["state_after"].each(ctx)) == expected
        total += len(expected)
    assert total > 1000
