"""The call_return kind: the value the k-th call of a function returns.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: `line` is the `def` line of a function named `variable`; `occurrence` counts its
  calls in the order they start, the entry call included.
- Answer: the value the call returns, read from the frame's "return" step. Only for calls
  below the entry call (depth > 0; the entry call's value is the output task), of functions
  that do not yield, are not decorated and whose name is unique; not for calls that raised.
- Static rule: a function whose first statement returns a literal.
- Guesses: the first argument, and the values a variable most often holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._context import SHORT_VALUE, CallContext
from core_bench.probes._reading import Reading
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """The value returned by the `occurrence`-th call of the function defined on `line`."""
    function = ctx.facts.functions.get(line)
    if function is None or function.name != variable:
        return None
    if not function.unique or function.generator or function.decorated:
        return None
    calls = ctx.calls.get((function.name, line), [])
    if not 1 <= occurrence <= len(calls):
        return None
    index = calls[occurrence - 1]
    start = ctx.steps[index]
    if start.depth == 0:
        return None  # the entry call's value is the output task, not a probe
    end = ctx.steps[ctx.frame_steps[start.frame][-1]]
    if end.event != "return" or end.value is None or end.value_opaque:
        return None
    weight = 1.0 + 0.5 * min(start.depth, 4)
    return Reading("call_return", line, occurrence, variable, end.value, index, weight)


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every call_return reading of the call."""
    for line, function in ctx.facts.functions.items():
        calls = ctx.calls.get((function.name, line), [])
        for occurrence in range(1, len(calls) + 1):
            reading = read(ctx, line, occurrence, function.name)
            if reading is not None:
                yield reading


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    function = ctx.facts.functions[r.line]
    calls = ctx.calls.get((function.name, r.line), [])
    entry = ""
    if calls and ctx.steps[calls[0]].depth == 0:
        outer = f"`{ctx.trace.call}`" if len(ctx.trace.call) <= 2 * SHORT_VALUE else "the call"
        entry = f"; {outer} itself is the 1st"
    return (
        f"What does the {ask.ordinal(r.occurrence)} call of `{function.name}`"
        f"{_arguments(ctx, r, calls)} return? `{function.name}` is defined on "
        f"{ask.line_ref(ctx, r.line)}. Calls are counted in the order they start{entry}."
    )


def _arguments(ctx: CallContext, r: Reading, calls: list[int]) -> str:
    """' (the one where `x` = 7)' when the arguments single the call out."""
    params = ctx.facts.functions[r.line].params

    def values(index: int) -> tuple[tuple[str, str], ...] | None:
        step = ctx.steps[index]
        out = []
        for name in params:
            text = step.locals.get(name)
            if text is None or name in step.opaque or len(text) > SHORT_VALUE:
                return None
            out.append((name, text))
        return tuple(out)

    mine = values(r.step)
    if not mine or sum(1 for c in calls if values(c) == mine) != 1:
        return ""
    return f" (the one where {ask.values_phrase(mine)})"


ROW = KindSpec(
    "call_return", ("State",), "value", "state", read, each, question, "returns",
    lambda facts, line, *_: facts.returns_literal.get(line), True,
    "the value the k-th call of a function returns", 3.0, None,
    {"first argument": guess.first_argument, **guess.COMMON}, "1", 0.2,
)  # fmt: skip
