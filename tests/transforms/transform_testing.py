"""Shared helpers for the transform tests, in the spirit of LibCST's `assertCodemod`:
a test states the source before and after, and the helper checks the transform's output.
The tables of cases built on these are in `transform_cases`."""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import signal
import textwrap
import warnings
from collections.abc import Iterable, Iterator, Sequence
from types import FrameType
from typing import Any

from transforms._base import (
    Transform,
    TransformBugWarning,
    TransformResult,
    apply_transform,
)

TransformSpec = type[Transform] | str


def code(text: str) -> str:
    """Dedent a triple-quoted snippet and drop its first newline."""
    return textwrap.dedent(text).lstrip("\n")


def transform(
    spec: TransformSpec, before: str, *, seed: int = 0, **options: Any
) -> TransformResult | None:
    """Apply a transform, turning a `TransformBugWarning` into a test failure."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", TransformBugWarning)
        return apply_transform(spec, before, seed=seed, **options)


def assert_transform(
    spec: TransformSpec, before: str, after: str, *, seed: int = 0, **options: Any
) -> TransformResult:
    """The transform turns `before` into exactly `after` (both dedented)."""
    result = transform(spec, code(before), seed=seed, **options)
    assert result is not None, "the transform declined"
    expected = code(after)
    assert result.code == expected, f"got:\n{result.code}\nexpected:\n{expected}"
    return result


def assert_declines(spec: TransformSpec, before: str, *, seeds: Iterable[int] = range(5)) -> None:
    """The transform returns None on `before`, whatever the seed."""
    for seed in seeds:
        result = transform(spec, code(before), seed=seed)
        assert result is None, f"seed {seed} rewrote the code:\n{result.code if result else ''}"


def applications(
    spec: TransformSpec, source: str, seeds: Iterable[int]
) -> list[tuple[int, TransformResult]]:
    """(seed, result) for every seed where the transform applies to `source`; at least one
    must."""
    applied = [(seed, transform(spec, source, seed=seed)) for seed in seeds]
    found = [(seed, result) for seed, result in applied if result is not None]
    assert found, "the transform never applied"
    return found


def assert_keeps_lines(
    spec: TransformSpec, before: str, kept: Sequence[str], *, seeds: Iterable[int] = range(5)
) -> None:
    """Whatever the seed, the transform applies and each line of `kept` (exact text, with
    its indentation, comments and spacing) is still in the output."""
    for seed, result in applications(spec, code(before), seeds):
        lines = result.code.splitlines()
        for line in kept:
            assert line in lines, f"seed {seed} changed {line!r}:\n{result.code}"


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(source: str, args: Sequence[Any] | str, *, entry: str = "f") -> tuple[str, ...]:
    """Run `entry(*args)` from `source` in-process; (outcome, value or exception type, repr
    of the arguments afterwards, printed output). `args` may be CRUXEval's input text,
    evaluated in the module's namespace."""
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out), _time_limit(5.0):
        exec(compile(source, "<test>", "exec"), namespace)
        if isinstance(args, str):
            text = args.strip().rstrip(",")
            values = list(eval(f"({text},)", namespace)) if text else []
        else:
            values = copy.deepcopy(list(args))
        try:
            outcome = ("ok", _stable_repr(namespace[entry](*values)))
        except _Timeout:
            raise
        except Exception as exc:
            outcome = ("raised", type(exc).__name__)
    return (*outcome, _stable_repr(values), out.getvalue())


def _stable_repr(value: Any) -> str:
    """repr without memory addresses (functions and objects print them)."""
    import re

    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def assert_equivalent(before: str, after: str, calls: Iterable[Sequence[Any]]) -> None:
    """`before` and `after` behave the same on every call (value or exception type,
    argument state afterwards, printed output)."""
    for args in calls:
        assert run(code(before), args) == run(code(after), args), f"differs on {args!r}"


def assert_equivalent_over_seeds(
    spec: TransformSpec,
    before: str,
    calls: Sequence[Sequence[Any]],
    *,
    seeds: Iterable[int] = range(8),
) -> int:
    """For every seed where the transform applies, its output behaves like `before` on all
    `calls`; returns how many seeds applied (at least one must)."""
    source = code(before)
    applied = applications(spec, source, seeds)
    for seed, result in applied:
        ast.parse(result.code)
        for args in calls:
            assert run(source, args) == run(result.code, args), (
                f"seed {seed} differs on {args!r}:\n{result.code}"
            )
    return len(applied)


def same_ast_ignoring_comments(before: str, after: str) -> bool:
    """Whether two sources differ at most in comments and layout."""
    return ast.dump(ast.parse(before)) == ast.dump(ast.parse(after))
