"""The probe stage's shortcuts give what the plain computations give.

A caller that asks several questions of one traced call passes its `CallContext` along instead
of indexing the trace again. `guessed` keeps the guesses of one call per (kind, line,
variable), which holds only while no rule reads the anchor's occurrence; `_guesses` looks
names, statements and loops up in an index built once per code instead of walking the tree per
rule. Both are checked on the traced calls of the bundled dataset, against the rules with
another occurrence and against the walks the index replaced.
"""

from __future__ import annotations

import ast

import pytest

from core_bench.datasets import load_dataset
from core_bench.probes import (
    KINDS,
    CallContext,
    Reading,
    anchor_probes,
    answerable,
    guessed,
    probe_holds,
    probes_for_call,
)
from core_bench.probes import _guesses as guess
from core_bench.probes import _kind_next_line as next_line
from core_bench.schemas import Anchor
from tracer import trace

PROBLEMS = 25


@pytest.fixture(scope="module")
def readings() -> list[tuple[CallContext, Reading]]:
    """Every candidate reading with blind rules of the first bundled problems' calls."""
    out: list[tuple[CallContext, Reading]] = []
    for row in load_dataset("bundled").rows[:PROBLEMS]:
        for call in row.problem.calls:
            t = trace(row.problem.code, call)
            if t.truncated or not t.steps:
                continue
            ctx = CallContext(row.problem.code, t)
            for spec in KINDS.values():
                if spec.guesses:
                    out.extend((ctx, r) for r in spec.each(ctx) if not answerable(ctx, r))
    return out


def _guesses(ctx: CallContext, reading: Reading, occurrence: int) -> list[str]:
    anchor = Anchor(line=reading.line, occurrence=occurrence, variable=reading.variable)
    call = ctx.trace.call
    seen = guess.Seen(ctx.code, guess.call_name(call), call, anchor=anchor)
    return guess.guesses_of(dict(KINDS[reading.kind].guesses), seen)


def test_no_blind_rule_reads_the_occurrence(readings: list[tuple[CallContext, Reading]]) -> None:
    assert len(readings) > 500
    assert {r.kind for _, r in readings} >= {"state_after", "next_line", "loop_iterations"}
    assert any(r.occurrence > 1 for _, r in readings)
    for ctx, reading in readings:
        expected = _guesses(ctx, reading, reading.occurrence)
        for occurrence in (1, reading.occurrence + 3):
            assert _guesses(ctx, reading, occurrence) == expected, (reading, occurrence)


def test_guessed_with_a_memo_agrees_with_guessed_alone(
    readings: list[tuple[CallContext, Reading]],
) -> None:
    memos: dict[int, dict] = {}  # type: ignore[type-arg]
    plain = [guessed(ctx, r) for ctx, r in readings]
    memoised = [guessed(ctx, r, memos.setdefault(id(ctx), {})) for ctx, r in readings]
    assert memoised == plain
    assert 0 < sum(plain) < len(plain)


def _first_literal_by_walk(code: str, name: str) -> str | None:
    """The walk `_guesses.first_literal` did per rule before its index."""
    found: list[tuple[int, str]] = []
    for sub in ast.walk(ast.parse(code)):
        if isinstance(sub, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in sub.targets
        ):
            text = ast.get_source_segment(code, sub.value) or ""
            try:
                ast.literal_eval(text)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            found.append((sub.lineno, text))
    return min(found)[1] if found else None


def test_the_index_finds_what_walking_the_tree_found() -> None:
    codes = [row.problem.code for row in load_dataset("bundled").rows]
    codes.append(
        "def f(xs):\n"
        "    a = b = [1]\n"
        "    a, c = 2, 3\n"
        "    a = 'z'; b = 'a'\n"
        "    for x in xs:\n"
        "        while x:\n"
        "            x = x - 1\n"
        "    return a\n"
    )
    for code in codes:
        tree = ast.parse(code)
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        lines = range(1, len(code.splitlines()) + 2)
        for name in names:
            seen = guess.Seen(code, "f", "f(1)", anchor=Anchor(line=1, occurrence=1, variable=name))
            assert guess.first_literal(seen, name) == _first_literal_by_walk(code, name)
        for line in lines:
            walked = [s for s in ast.walk(tree) if isinstance(s, ast.stmt) and s.lineno == line]
            seen = guess.Seen(code, "f", "f(1)", anchor=Anchor(line=line, occurrence=1))
            got = guess.statement(seen, line)
            assert (ast.dump(got) if got else None) == (ast.dump(walked[0]) if walked else None)
            loops = [
                s.lineno
                for s in ast.walk(tree)
                if isinstance(s, ast.For | ast.While) and s.lineno < line <= (s.end_lineno or 0)
            ]
            expected = repr(max(loops)) if loops else next_line._next_nonblank(seen, line)
            assert next_line._enclosing_header(seen) == expected


def test_a_context_given_is_used_and_must_index_the_same_trace() -> None:
    row = load_dataset("bundled").rows[2]
    code, call = row.problem.code, row.problem.calls[0]
    first, second = trace(code, call), trace(code, call)
    ctx = CallContext(code, first)
    plain = probes_for_call("p", "v", code, 0, first, seed=3)
    assert plain and probes_for_call("p", "v", code, 0, first, seed=3, context=ctx) == plain
    assert all(probe_holds(p, code, second) for p in plain)
    assert all(probe_holds(p, code, first, context=ctx) for p in plain)
    anchored = anchor_probes(plain, first, "w", code, second, {}, {}, original_context=ctx)
    assert anchored == anchor_probes(plain, first, "w", code, second, {}, {})
    for wrong in (
        lambda: probes_for_call("p", "v", code, 0, second, context=ctx),
        lambda: probe_holds(plain[0], code, second, context=ctx),
        lambda: anchor_probes(plain, first, "w", code, second, {}, {}, variant_context=ctx),
    ):
        with pytest.raises(ValueError, match="another trace"):
            wrong()
