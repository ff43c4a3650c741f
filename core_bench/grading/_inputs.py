"""Grading input predictions in two phases, so that no model answer can set its own verdict.

1. The model's argument text is evaluated in a process of its own, forked for it alone
   (`SandboxPool.evaluate`), which may only send back plain literals (exact builtin types,
   checked all the way down); the parent reads them with `ast.literal_eval`. Arguments that
   are literals already are read in the parent and need no process at all.
2. The dataset function runs on those values in a reused sandbox worker, which has never run
   model text; the call it gets is written by the parent from the values.
3. The parent compares the result with the expected output by the value grader's rules, and
   only a result made of exact builtin types counts: a repr its own class wrote never does.

Whatever the first process does or writes, the verdict is the one that writing the literal
arguments it sent back directly would get.
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core_bench.grading._values import short
from core_bench.schemas import Verdict
from tracer import Outcome, SandboxPool, literal_text, literal_value, read_literal, values_equal

AST_LOCK = threading.Lock()
"""CPython 3.11 before 3.11.8 may raise SystemError ("AST constructor recursion depth
mismatch", gh-106905) when two threads build ASTs at once; graders that parse in threads (the
CRUXEval scorer, input grading) take turns on this lock."""


def parse_locked(source: str, mode: str = "exec") -> ast.AST:
    """`ast.parse(source, mode=mode)`, one thread at a time (see `AST_LOCK`)."""
    with AST_LOCK:
        return ast.parse(source, mode=mode)


_BATCH = 32
"""Most calls of one code run as one batch, so many predictions for one problem still spread
over the workers."""


@dataclass(slots=True)
class _Prediction:
    """A parsed prediction: the function it calls and its argument nodes."""

    func: str
    args: list[ast.expr]
    keywords: list[ast.keyword]


def _defined_names(code: str) -> set[str] | None:
    try:
        tree = parse_locked(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    assert isinstance(tree, ast.Module)
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }


def _check_call(code: str, call: str | None) -> tuple[Verdict, str] | _Prediction:
    """A verdict for a prediction that need not run, or the prediction to run."""
    if call is None:
        return "unparseable", "no answer found in the response"
    try:
        parsed = parse_locked(call.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "unparseable", f"the predicted call does not parse: {short(call)}"
    assert isinstance(parsed, ast.Expression)
    node = parsed.body
    if not isinstance(node, ast.Call):
        return "unparseable", f"expected a call such as f(...), got {short(call)}"
    names = _defined_names(code)
    if names is None:
        return "error", "the problem's code does not parse"
    if not (isinstance(node.func, ast.Name) and node.func.id in names):
        return "wrong", f"the call does not call a function the code defines: {short(call)}"
    return _Prediction(node.func.id, list(node.args), list(node.keywords))


def literal_arguments(args: list[ast.expr], keywords: list[ast.keyword]) -> Any:
    """`(args tuple, kwargs dict)` when every argument is a literal the parent can read
    itself (no starred arguments), else None."""
    try:
        values = tuple(ast.literal_eval(arg) for arg in args if not isinstance(arg, ast.Starred))
        if len(values) != len(args) or any(kw.arg is None for kw in keywords):
            return None
        named = {str(kw.arg): ast.literal_eval(kw.value) for kw in keywords}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return values, named


def arguments_expression(args: list[ast.expr], keywords: list[ast.keyword]) -> str:
    """One expression whose value is `(args tuple, kwargs dict)`, stars and all."""
    parts = [ast.unparse(arg) for arg in args]
    tuple_text = "(" + "".join(f"{part}, " for part in parts) + ")"
    items = [
        f"**({ast.unparse(kw.value)})"
        if kw.arg is None
        else f"{kw.arg!r}: ({ast.unparse(kw.value)})"
        for kw in keywords
    ]
    return f"({tuple_text}, {{{', '.join(items)}}})"


def read_arguments(outcome: Outcome) -> tuple[Any, tuple[Verdict, str] | None]:
    """The `(args, kwargs)` a first-phase process sent back, or the verdict when it sent
    none: only plain literal text, re-read here with `ast.literal_eval`, counts."""
    if outcome.status == "timeout":
        return None, ("timeout", "evaluating the arguments did not finish")
    if outcome.status == "memory":
        return None, ("wrong", "evaluating the arguments ran out of memory")
    if outcome.status == "exception":
        return None, ("wrong", f"evaluating the arguments raised {short(outcome.exception or '')}")
    if outcome.status != "ok":
        return None, (
            "wrong",
            f"evaluating the arguments {outcome.status}: {short(outcome.detail)}",
        )
    ok, value = literal_value(outcome.result)
    if not (
        ok
        and type(value) is tuple
        and len(value) == 2
        and type(value[0]) is tuple
        and type(value[1]) is dict
        and all(type(k) is str and k.isidentifier() for k in value[1])
    ):
        return None, ("wrong", "the arguments are not plain literal values")
    return value, None


def call_text(func: str, arguments: Any) -> str | None:
    """The call the dataset worker makes, written from the values alone (None when a value
    cannot be written as a literal)."""
    args, kwargs = arguments
    parts = [literal_text(a) for a in args]
    parts.extend(
        f"{k}={text}" if (text := literal_text(v)) is not None else None for k, v in kwargs.items()
    )
    if any(part is None for part in parts):
        return None
    return f"{func}({', '.join(p for p in parts if p is not None)})"


def _judge(outcome: Outcome, expected: str) -> tuple[Verdict, str]:
    if outcome.status == "timeout":
        return "timeout", f"the call did not finish: {outcome.detail or 'timeout'}"
    if outcome.status == "exception":
        return "wrong", f"the call raised {short(outcome.exception or '')}"
    if outcome.status == "memory":
        return "wrong", "the call ran out of memory"
    if outcome.status != "ok" or outcome.result is None:
        return "error", f"the sandbox worker {outcome.status}: {short(outcome.detail)}"
    if not outcome.result_plain:
        # Its repr came from its own class: never evidence of the value.
        return (
            "wrong",
            f"the call returns a value that is not a plain literal: {short(outcome.result)}",
        )
    ok_e, value_e = read_literal(expected)
    ok_r, value_r = read_literal(outcome.result)  # also reads reprs such as {nan, 1}
    if ok_e and ok_r:
        same = values_equal(value_r, value_e)
    else:
        same = outcome.result.strip() == expected.strip()
    if same:
        return "correct", ""
    return "wrong", f"the call returns {short(outcome.result)}, expected {short(expected)}"


def _chunks(groups: dict[str, list[int]]) -> list[tuple[str, list[int]]]:
    return [
        (code, indices[start : start + _BATCH])
        for code, indices in groups.items()
        for start in range(0, len(indices), _BATCH)
    ]


def grade_inputs(
    items: Sequence[tuple[str, str | None, str]],
    pool: SandboxPool,
    *,
    timeout_s: float = 5.0,
) -> list[tuple[Verdict, str]]:
    """Grade input predictions in two phases (see the module docstring).

    A prediction is right when the function it names, called on the plain literal values its
    arguments evaluate to, returns a value equal (by `grade_value`'s rules) to the expected
    output.

    Args:
        items: `(code, predicted call, expected output repr)` triples; the predicted call is
            an expression such as "f([1, 2], 3)" calling a function `code` defines (None when
            no answer was extracted).
        pool: the sandbox pool: fresh forked processes evaluate the arguments, its reused
            workers run the calls.
        timeout_s: wall-clock limit of each evaluation and of each call.

    Returns:
        One `(verdict, reason)` per item, in order: "correct"; "wrong" (a different result, an
        exception, running out of memory, arguments that are not plain literals, a result
        that is not one, or a call of something the code does not define); "unparseable" (no
        call, or text that is not a call expression); "timeout" (the arguments or the call
        did not finish); "error" (the dataset's worker crashed or the code does not parse).
    """
    results: list[tuple[Verdict, str] | None] = []
    predictions: dict[int, _Prediction] = {}
    arguments: dict[int, Any] = {}
    first: dict[str, list[int]] = {}
    for index, (code, call, _expected) in enumerate(items):
        checked = _check_call(code, call)
        if isinstance(checked, _Prediction):
            predictions[index] = checked
            results.append(None)
            known = literal_arguments(checked.args, checked.keywords)
            if known is not None:
                arguments[index] = known
            else:
                first.setdefault(code, []).append(index)
        else:
            results.append(checked)
    chunks = _chunks(first)
    if chunks:
        jobs = [
            (
                code,
                [arguments_expression(predictions[i].args, predictions[i].keywords) for i in chunk],
            )
            for code, chunk in chunks
        ]
        for (_code, chunk), batch in zip(
            chunks, pool.map(jobs, timeout_s=timeout_s, evaluate=True), strict=True
        ):
            for index, outcome in zip(chunk, batch, strict=True):
                value, verdict = read_arguments(outcome)
                if verdict is not None:
                    results[index] = verdict
                else:
                    arguments[index] = value
    second: dict[str, list[int]] = {}
    calls: dict[int, str] = {}
    for index, value in arguments.items():
        text = call_text(predictions[index].func, value)
        if text is None:
            results[index] = ("wrong", "the arguments are not plain literal values")
            continue
        calls[index] = text
        second.setdefault(items[index][0], []).append(index)
    chunks = _chunks(second)
    jobs = [(code, [calls[i] for i in chunk]) for code, chunk in chunks]
    outcomes = pool.map(jobs, timeout_s=timeout_s)
    for (_code, chunk), batch in zip(chunks, outcomes, strict=True):
        for index, outcome in zip(chunk, batch, strict=True):
            results[index] = _judge(outcome, items[index][2])
    return [r if r is not None else ("error", "not graded") for r in results]
