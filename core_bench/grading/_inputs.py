"""Grading input predictions: the predicted call is run in the sandbox and its result compared
with the expected output by the value grader's rules."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from core_bench.grading._values import parse_literal, short, values_equal
from core_bench.schemas import Verdict
from tracer import Outcome, SandboxPool

_BATCH = 32
"""Most calls of one code run as one batch, so many predictions for one problem still spread
over the workers."""


def _defined_names(code: str) -> set[str] | None:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }


def _check_call(code: str, call: str | None) -> tuple[Verdict, str] | None:
    """A verdict for a prediction that need not run, or None when it should run."""
    if call is None:
        return "unparseable", "no answer found in the response"
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "unparseable", f"the predicted call does not parse: {short(call)}"
    if not isinstance(node, ast.Call):
        return "unparseable", f"expected a call such as f(...), got {short(call)}"
    names = _defined_names(code)
    if names is None:
        return "error", "the problem's code does not parse"
    if not (isinstance(node.func, ast.Name) and node.func.id in names):
        return "wrong", f"the call does not call a function the code defines: {short(call)}"
    return None


def _judge(outcome: Outcome, expected: str) -> tuple[Verdict, str]:
    if outcome.status == "timeout":
        return "timeout", f"the call did not finish: {outcome.detail or 'timeout'}"
    if outcome.status == "exception":
        return "wrong", f"the call raised {short(outcome.exception or '')}"
    if outcome.status == "memory":
        return "wrong", "the call ran out of memory"
    if outcome.status != "ok" or outcome.result is None:
        return "error", f"the sandbox worker {outcome.status}: {short(outcome.detail)}"
    ok_e, value_e = parse_literal(expected)
    ok_r, value_r = parse_literal(outcome.result)  # also reads reprs such as {nan, 1}
    if ok_e and ok_r:
        same = values_equal(value_r, value_e)
    else:
        same = outcome.result.strip() == expected.strip()
    if same:
        return "correct", ""
    return "wrong", f"the call returns {short(outcome.result)}, expected {short(expected)}"


def grade_inputs(
    items: Sequence[tuple[str, str | None, str]],
    pool: SandboxPool,
    *,
    timeout_s: float = 5.0,
) -> list[tuple[Verdict, str]]:
    """Grade input predictions by running each predicted call in the sandbox.

    A prediction is right when its call returns a value equal (by `grade_value`'s rules) to
    the expected output. Calls sharing a piece of code run as one batch in one worker; the
    batches run concurrently over the pool.

    Args:
        items: `(code, predicted call, expected output repr)` triples; the predicted call is
            an expression such as "f([1, 2], 3)" calling a function `code` defines (None when
            no answer was extracted).
        pool: the sandbox pool to run the calls in.
        timeout_s: wall-clock limit of each call.

    Returns:
        One `(verdict, reason)` per item, in order: "correct"; "wrong" (a different result, an
        exception, running out of memory, or a call of something the code does not define);
        "unparseable" (no call, or text that is not a call expression); "timeout" (the call
        did not finish); "error" (the worker crashed or the code does not parse).
    """
    results: list[tuple[Verdict, str] | None] = []
    groups: dict[str, list[int]] = {}
    for index, (code, call, _expected) in enumerate(items):
        early = _check_call(code, call)
        results.append(early)
        if early is None:
            groups.setdefault(code, []).append(index)
    chunks = [
        (code, indices[start : start + _BATCH])
        for code, indices in groups.items()
        for start in range(0, len(indices), _BATCH)
    ]
    jobs = [(code, [str(items[i][1]).strip() for i in indices]) for code, indices in chunks]
    outcomes = pool.map(jobs, timeout_s=timeout_s)
    for (_code, indices), batch in zip(chunks, outcomes, strict=True):
        for index, outcome in zip(indices, batch, strict=True):
            results[index] = _judge(outcome, items[index][2])
    return [r if r is not None else ("error", "not graded") for r in results]
