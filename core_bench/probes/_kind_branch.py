"""The branch kind: whether a condition holds at the k-th run of its line.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: an `if`/`elif`/`while` header, or a line with exactly one conditional expression
  evaluated in its own frame; its `occurrence`-th run; no variable.
- Answer: `Step.branch` of that run: "True" or "False". The evaluation that ends a `while`
  loop weighs more.
- Static rule: the outcome of a test made of literals only (`if 'a' in 'abc':`).
- Guesses: the constants True and False (selection balances the two answers instead).
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading, at_runs, operator_weight
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """Whether the condition of `line` held at its `occurrence`-th run."""
    facts = ctx.line(line)
    index = ctx.run_step(line, occurrence)
    if facts is None or facts.condition is None or index is None or variable is not None:
        return None
    outcome = ctx.steps[index].branch
    if outcome is None:
        return None
    weight = 1.0 + ctx.lateness(index) + operator_weight(facts.operators, facts.compound)
    if facts.condition_kind == "while" and not outcome:
        weight += 2.0  # the evaluation that ends the loop
    return Reading("branch", line, occurrence, None, repr(outcome), index, weight)


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every branch reading of the call."""
    return at_runs(ctx, read, lambda facts: facts.condition is not None)


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    facts = ctx.facts.lines[r.line]
    test = "the test" if facts.condition_kind == "ifexp" else "the condition"
    return (
        f"When {ask.run_phrase(ctx, r)}, is {test} `{facts.condition}` true? "
        f"Answer True or False.{ask.header_note(ctx, r.line)}"
    )


ROW = KindSpec(
    "branch", ("Logic",), "bool", "path", read, each, question, "condition",
    lambda facts, line, *_: facts.tests.get(line), False,
    "whether a condition holds at the k-th run of its line", 0.2, 1, guess.BOOL, "False",
)  # fmt: skip
