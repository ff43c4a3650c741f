"""Compiling the traced module and evaluating a call expression such as "f([1, 2], 3)"."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import CodeType
from typing import Any

from tracer._codec import snapshot
from tracer._model import TraceError

CODE_FILENAME = "<core-bench>"
"""The filename traced code is compiled under; only frames of this file are traced."""

CALL_FILENAME = "<core-bench-call>"

TRACED_FILENAMES = frozenset({CODE_FILENAME, CALL_FILENAME})
"""The filenames of code compiled from untrusted text: the module and the call expression."""


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


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a call: its keyword (None for a positional one and for `*`/`**`
    unpacking), its source text (`*rest` and `**opts` keep their stars) and, when it is a
    literal (`ast.literal_eval` reads it), its value."""

    keyword: str | None
    text: str
    literal: bool
    value: Any = None


@dataclass(frozen=True, slots=True)
class Call:
    """A call expression such as "f([1, 2], n=3)" split into its callee's text and its
    arguments: the one parsed form of a call every layer reads calls into."""

    func: str
    args: tuple[Argument, ...]

    @classmethod
    def read(cls, call: str) -> Call:
        """Read a call expression (see `parse_call` for what it raises)."""
        source = call.strip()
        node = parse_call(source)
        args = [_argument(None, expr, source) for expr in node.args]
        for kw in node.keywords:
            if kw.arg is None:  # `**mapping`
                args.append(Argument(None, f"**{_source(source, kw.value)}", False))
            else:
                args.append(_argument(kw.arg, kw.value, source))
        return cls(_source(source, node.func), tuple(args))

    def render(
        self, values: Sequence[Any] | None = None, write: Callable[[Any], str] = repr
    ) -> str:
        """The call expression, with new values for its literal arguments when given.

        Args:
            values: one value per argument (ignored for arguments that are not literals), or
                None to write every argument as it was read.
            write: how a value is written as source (`repr` by default).
        """
        parts: list[str] = []
        for i, arg in enumerate(self.args):
            text = write(values[i]) if values is not None and arg.literal else arg.text
            parts.append(text if arg.keyword is None else f"{arg.keyword}={text}")
        return f"{self.func}({', '.join(parts)})"


def _source(source: str, expr: ast.expr) -> str:
    return ast.get_source_segment(source, expr) or ast.unparse(expr)


def _argument(keyword: str | None, expr: ast.expr, source: str) -> Argument:
    text = _source(source, expr)
    if isinstance(expr, ast.Starred):
        return Argument(keyword, text, False)
    try:
        value = ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return Argument(keyword, text, False)
    return Argument(keyword, text, True, value)


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


@dataclass(frozen=True, slots=True)
class CompiledCall:
    """A call expression with its callee and each argument compiled, ready to evaluate.

    Compiling runs nothing, so a fork server compiles a call before it forks and the child
    only evaluates. A part that does not compile (`f(await x)` parses but does not compile)
    holds the error, raised when that part is evaluated, in the order the parts are.
    """

    node: ast.Call
    func: CodeType | Exception
    args: tuple[tuple[bool, CodeType | Exception], ...]
    """(starred, code) per positional argument."""
    kwargs: tuple[tuple[str | None, CodeType | Exception], ...]
    """(name, code) per keyword argument; name None for `**mapping`."""


def compile_call(node: ast.Call) -> CompiledCall:
    """Compile the callee and every argument of `node` (see `CompiledCall`)."""

    def part(expr: ast.expr) -> CodeType | Exception:
        tree = ast.Expression(body=expr)
        ast.fix_missing_locations(tree)
        try:
            return compile(tree, CALL_FILENAME, "eval")
        except Exception as exc:  # raised where evaluating the part would be
            return exc.with_traceback(None)

    return CompiledCall(
        node,
        part(node.func),
        tuple(
            (True, part(a.value)) if isinstance(a, ast.Starred) else (False, part(a))
            for a in node.args
        ),
        tuple((kw.arg, part(kw.value)) for kw in node.keywords),
    )


def bind_call(call: ast.Call | CompiledCall, namespace: dict[str, Any]) -> BoundCall:
    """Evaluate the callee and every argument of `call` in `namespace` (the module's globals).

    Raises:
        TraceError: the callee names nothing callable.
        Exception: whatever evaluating an argument raises (e.g. a NameError).
    """
    compiled = call if isinstance(call, CompiledCall) else compile_call(call)

    def evaluate(code: CodeType | Exception) -> Any:
        if isinstance(code, Exception):
            raise code
        return eval(code, namespace)

    try:
        func = evaluate(compiled.func)
    except NameError as exc:
        raise TraceError(f"the call names nothing defined in the code: {exc}") from None
    if not callable(func):
        raise TraceError(f"{ast.unparse(compiled.node.func)} is not callable")
    args: list[Any] = []
    for starred, code in compiled.args:
        if starred:
            args.extend(evaluate(code))
        else:
            args.append(evaluate(code))
    kwargs: dict[str, Any] = {}
    for name, code in compiled.kwargs:
        if name is None:
            kwargs.update(evaluate(code))
        else:
            kwargs[name] = evaluate(code)
    return BoundCall(func, args, kwargs)
