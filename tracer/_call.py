"""Compiling the traced module and evaluating a call expression such as "f([1, 2], 3)"."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from types import CodeType
from typing import Any

from tracer._codec import snapshot
from tracer._model import TraceError

CODE_FILENAME = "<core-bench>"
"""The filename traced code is compiled under; only frames of this file are traced."""

CALL_FILENAME = "<core-bench-call>"


def compile_module(code: str) -> CodeType:
    """Compile `code` as a module, or raise `TraceError` naming the offending line."""
    return parse_module(code)[1]


def parse_module(code: str) -> tuple[ast.Module, CodeType]:
    """Parse and compile `code` as a module, or raise `TraceError` naming the offending line."""
    try:
        tree = ast.parse(code, CODE_FILENAME)
        return tree, compile(tree, CODE_FILENAME, "exec", dont_inherit=True)
    except SyntaxError as exc:
        line = exc.lineno
        where = f"line {line}" if line else "unknown line"
        raise TraceError(f"code does not parse ({where}): {exc.msg}", line=line) from None
    except ValueError as exc:  # e.g. NUL bytes in the source
        raise TraceError(f"code cannot be compiled: {exc}") from None


def parse_call(call: str) -> ast.Call:
    """Parse a call expression, or raise `TraceError` saying what was expected."""
    try:
        tree = ast.parse(call.strip(), CALL_FILENAME, mode="eval")
    except SyntaxError as exc:
        raise TraceError(f"call does not parse: {exc.msg} in {call!r}") from None
    if not isinstance(tree.body, ast.Call):
        raise TraceError(f"expected a call expression such as 'f(1, 2)', got {call!r}")
    return tree.body


@dataclass(slots=True)
class BoundCall:
    """A call expression evaluated in a module's namespace, ready to be made."""

    func: Any
    args: list[Any]
    kwargs: dict[str, Any]

    def invoke(self) -> Any:
        """Make the call."""
        return self.func(*self.args, **self.kwargs)

    def arguments_after(self) -> list[str]:
        """Reprs of the argument values now (after the call, they show in-place mutation)."""
        out = [snapshot(a)[0] for a in self.args]
        out.extend(f"{k}={snapshot(v)[0]}" for k, v in self.kwargs.items())
        return out


def bind_call(node: ast.Call, namespace: dict[str, Any]) -> BoundCall:
    """Evaluate the callee and every argument of `node` in `namespace` (the module's globals).

    Raises:
        TraceError: the callee names nothing callable.
        Exception: whatever evaluating an argument raises (e.g. a NameError).
    """

    def evaluate(expr: ast.expr) -> Any:
        tree = ast.Expression(body=expr)
        ast.fix_missing_locations(tree)
        return eval(compile(tree, CALL_FILENAME, "eval"), namespace)

    try:
        func = evaluate(node.func)
    except NameError as exc:
        raise TraceError(f"the call names nothing defined in the code: {exc}") from None
    if not callable(func):
        raise TraceError(f"{ast.unparse(node.func)} is not callable")
    args: list[Any] = []
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            args.extend(evaluate(arg.value))
        else:
            args.append(evaluate(arg))
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            kwargs.update(evaluate(kw.value))
        else:
            kwargs[kw.arg] = evaluate(kw.value)
    return BoundCall(func, args, kwargs)
