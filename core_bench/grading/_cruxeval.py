"""The official CRUXEval scorer's results, reproduced exactly, with its execution in the sandbox.

What the official scorer (facebookresearch/cruxeval, `evaluation/evaluate_generations.py` and
`evaluation/utils_general.py`) does, and what is reproduced here, quirk by quirk:

- It builds the program `code + "\\nassert " + output + " == " + generation` and counts a
  generation as passing when executing that whole program raises nothing within 3 seconds; in
  both modes the dataset's output is the left side and the generation text is pasted in
  verbatim, so a generation is any expression (`'a' + 'b'`), precedence applies to the pasted
  text (`None or True` passes: `(o == None) or True`), and a generation with a newline adds
  statements.
- Output mode: a generation containing the text `f(<the sample's input>)` is skipped (not
  run, not counted), so n shrinks.
- Input mode: a generation without the text `f(` is skipped the same way.
- When no generation of a sample passes, its scored list is `[False] * len(generations)`: the
  full, unshrunk length (and an empty list stays empty).
- pass@k for each sample is `1.0` when `n - c < k`, else
  `1 - prod(1 - k / j for j in n - c + 1 .. n)`, multiplied in that order. So an empty list
  (n = 0) scores pass@1 = 1.0, and a sample whose scored list is shorter than 5 scores
  pass@5 = 1.0 even when none of it is right.
- pass@1 and pass@5 are the plain sum of the per-sample values in sample order, divided by
  the number of samples, times 100; not rounded in the scored file (the official script
  rounds to one decimal only when it prints).
- Samples are `sample_0 .. sample_{N-1}` by position in the dataset file; keys beyond those
  are ignored for scoring but kept in `raw_generations`.

Where ours differs, by design: the official scorer runs one process per generation and
takes that process's word for whether the program passed; here no process that runs a
generation's text decides its verdict where the parent can decide it. Each kept generation's
program `code + "\nassert " + output + " == " + generation` is parsed in the parent:

- a program that does not compile fails (exec would raise the same SyntaxError);
- `output == <literal>`: compared in the parent (after the module alone ran cleanly in a
  reused worker, as the program would run it first);
- `output == f(<arguments>)`, `f` a function the code defines: arguments that are not
  literals are evaluated in a process forked for them alone, which may send back only plain
  literals; the parent writes the call from the values, and the program runs in a reused
  worker that never runs model text;
- `output == <any other expression>`: the expression is evaluated in a process forked for it
  alone, which may send back only a plain literal (`SandboxPool.evaluate`), compared in the
  parent; a value that is not a plain literal (an object whose `__eq__` says yes) fails;
- the precedence quirks (`x or True`, `x if c else y`), chained comparisons and statements
  added after the assert: the parent evaluates the assert's test itself, lazily and in the
  official order, each piece of model text in a process forked for it alone that may send
  back only a literal; the added statements run in a fresh process whose word is taken (which
  gains a generation no more than writing no statements);
- anything else the parser cannot split: the whole program runs in a process forked for it
  alone (nothing of it reaches another generation), and passes when it raises nothing, as
  the official's does.

Identical checks of one sample run once. Each program is executed with `exec` in fresh
globals, as the official does.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar

from core_bench.grading._inputs import (
    AST_LOCK,
    arguments_expression,
    call_text,
    literal_arguments,
)
from core_bench.schemas import Problem
from tracer import COMPARISONS, Outcome, SandboxPool, literal_value


def _parsed(source: str, mode: str = "exec") -> ast.AST:
    """`ast.parse(source, mode=mode)`, compiled to check it, one thread at a time
    (`AST_LOCK`)."""
    with AST_LOCK:
        tree = ast.parse(source, mode=mode)
        if isinstance(tree, ast.Module):
            compile(tree, "<string>", "exec")
        return tree


MODES = ("input", "output")
"""The scorer's two modes."""

OFFICIAL_TIMEOUT_S = 3.0
"""The official scorer's time limit per generation (`check_correctness(..., 3)`)."""

_DRIVER = """
def _check(index):
    exec(_PROGRAMS[index], {"__builtins__": __builtins__})
    return True
"""
"""Runs one generation's program as the official scorer does: `exec` in fresh globals; the
call returns True only when the program raised nothing."""


@dataclass(frozen=True)
class CruxRow:
    """The three fields of a CRUXEval row the scorer reads, as written in the file."""

    code: str
    input: str
    output: str


def cruxeval_row(row: Any) -> CruxRow:
    """A `CruxRow` from a dataset row: a mapping with "code", "input" and "output"; a
    `Problem` loaded from a CRUXEval-format file (one call `entry(input)`, one output); or
    anything with such a `.problem` (a `SourcedProblem`).

    Raises:
        ValueError: the row has none of these shapes.
    """
    if isinstance(row, CruxRow):
        return row
    if isinstance(row, Mapping):
        code, given, output = (row.get(k) for k in ("code", "input", "output"))
        if isinstance(code, str) and isinstance(given, str) and isinstance(output, str):
            return CruxRow(code, given, output)
        raise ValueError("a CRUXEval row needs string fields code, input and output")
    problem = getattr(row, "problem", row)
    if isinstance(problem, Problem):
        call = problem.calls[0] if len(problem.calls) == 1 else ""
        prefix = problem.entry + "("
        if len(problem.outputs) == 1 and call.startswith(prefix) and call.endswith(")"):
            return CruxRow(problem.code, call[len(prefix) : -1], problem.outputs[0])
        raise ValueError(f"problem {problem.id!r} is not a CRUXEval row (one call, one output)")
    raise ValueError(f"not a CRUXEval row: {type(row).__name__}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The official unbiased pass@k estimator, with its arithmetic order (so equal to the bit).

    Args:
        n: generations counted.
        c: of them, correct.
        k: the k of pass@k.
    """
    if n - c < k:
        return 1.0
    product = 1.0
    for j in range(n - c + 1, n + 1):
        product *= 1.0 - k / j
    return 1.0 - product


def skipped(generation: str, row: CruxRow, mode: str) -> bool:
    """Whether the official scorer leaves this generation out (see the module docstring)."""
    if mode == "input":
        return "f(" not in generation
    return f"f({row.input})" in generation


def check_program(generation: str, row: CruxRow) -> str:
    """The program the official scorer executes for one generation."""
    return f"{row.code}\nassert {row.output} == {generation}"


def _generation_lists(generations: Mapping[str, Any], count: int) -> list[list[str]]:
    lists: list[list[str]] = []
    for index in range(count):
        key = f"sample_{index}"
        if key not in generations:
            raise ValueError(
                f"the generations have no {key!r}: expected a list of generations for every "
                f"sample_0 .. sample_{count - 1}"
            )
        value = generations[key]
        if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
            raise ValueError(f"{key} must be a list of strings")
        lists.append(value)
    return lists


def score_cruxeval(
    generations: dict[str, list[str]],
    mode: str,
    dataset_rows: Iterable[Any],
    pool: SandboxPool,
    *,
    timeout_s: float = OFFICIAL_TIMEOUT_S,
    on_sample: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Score generations exactly as the official CRUXEval scorer does.

    Args:
        generations: `{"sample_0": [generation, ...], ...}`; for output mode a generation is
            the predicted output expression, for input mode the predicted call "f(...)".
        mode: "input" or "output".
        dataset_rows: the dataset in file order (see `cruxeval_row` for accepted shapes);
            sample_i is row i.
        pool: the sandbox pool the checks run in (see the module docstring for which check
            runs where).
        timeout_s: per-generation limit (the official 3 seconds by default).
        on_sample: called with the number of generations of each sample once it is scored
            (for a progress bar).

    Returns:
        The official scored format: `raw_generations` (the input, as given),
        `raw_scored_generations` (`{"sample_i": [bool, ...]}`), `pass_at_1`, `pass_at_5`
        (percentages, unrounded).

    Raises:
        ValueError: a bad mode, a row that is not a CRUXEval row, or generations that lack a
            sample or are not lists of strings.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be 'input' or 'output', got {mode!r}")
    rows = [cruxeval_row(row) for row in dataset_rows]
    if not rows:
        raise ValueError("the dataset has no rows")
    lists = _generation_lists(generations, len(rows))
    memory_mb = pool.max_memory_mb  # the official scorer sets no memory limit

    def score(index: int) -> list[bool]:
        row, gens = rows[index], lists[index]
        kept = [g for g in gens if not skipped(g, row, mode)]
        results = _RowScorer(row, pool, timeout_s, memory_mb).score(kept)
        if on_sample is not None:
            on_sample(len(gens))
        return results

    workers = max(1, min(2 * pool.workers, len(rows)))
    with ThreadPoolExecutor(max_workers=workers) as executor:
        scored_lists = list(executor.map(score, range(len(rows))))
    scored: dict[str, list[bool]] = {}
    pass_1: list[float] = []
    pass_5: list[float] = []
    for index, (gens, results) in enumerate(zip(lists, scored_lists, strict=True)):
        if True not in results:
            results = [False] * len(gens)
        scored[f"sample_{index}"] = results
        n, c = len(results), results.count(True)
        pass_1.append(pass_at_k(n, c, 1))
        pass_5.append(pass_at_k(n, c, 5))
    return {
        "raw_generations": generations,
        "raw_scored_generations": scored,
        "pass_at_1": _mean_percent(pass_1),
        "pass_at_5": _mean_percent(pass_5),
    }


def _mean_percent(values: Sequence[float]) -> float:
    total = 0.0
    for value in values:  # left to right, as the official `sum` adds
        total += value
    return total / len(values) * 100


MAX_PARSED_CHARS = 100_000
"""Longer generations are not parsed in the parent: their whole program runs in a fresh
process instead."""

_Plan = tuple[str, Any]
"""How one generation is checked: ("fail", None) the program does not compile;
("literal", value) compare in the parent; ("call", text) the dataset's function on literal
arguments in a reused worker; ("eval", text) the expression in a fresh forked process, its
literal value compared in the parent; ("program", text) the whole program in a fresh forked
process."""


class _RowScorer:
    """Scores the kept generations of one sample (see the module docstring)."""

    def __init__(self, row: CruxRow, pool: SandboxPool, timeout_s: float, memory_mb: int):
        self.row = row
        self.pool = pool
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.output_dump: str | None = None
        self.output_value: Any = None
        self.defined: set[str] = set()
        self.code_compiles = True
        try:
            parsed = _parsed(row.output.strip(), mode="eval")
            assert isinstance(parsed, ast.Expression)
            output_node = parsed.body
            self.output_value = ast.literal_eval(output_node)
            self.output_dump = ast.dump(output_node)
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            self.output_dump = None
        try:
            tree = _parsed(row.code)
            assert isinstance(tree, ast.Module)
            self.defined = {
                node.name
                for node in tree.body
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            }
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            self.code_compiles = False

    def plan(self, generation: str) -> _Plan:
        program = check_program(generation, self.row)
        if not self.code_compiles or self.output_dump is None:
            return "program", program
        if len(generation) > MAX_PARSED_CHARS:
            return "program", program
        tail = f"assert {self.row.output} == {generation}"
        try:
            tree = _parsed(tail)
            assert isinstance(tree, ast.Module)
        except (SyntaxError, ValueError):
            return "fail", None  # exec raises the same for the whole program
        except (MemoryError, RecursionError, OverflowError):
            return "program", program
        body = tree.body
        if not (body and isinstance(body[0], ast.Assert)):
            return "program", program
        test = body[0].test
        if not (
            len(body) == 1
            and body[0].msg is None
            and isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)
            and ast.dump(test.left) == self.output_dump
        ):
            # Precedence quirks (`x or True`), chained comparisons, added statements: split
            # in the parent where the shape allows (its message runs only on failure).
            if self._splittable(test):
                return "split", (test, body[1:])
            return "program", program
        right = test.comparators[0]
        try:
            return "literal", ast.literal_eval(right)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        if (
            isinstance(right, ast.Call)
            and isinstance(right.func, ast.Name)
            and right.func.id in self.defined
        ):
            args, keywords = list(right.args), list(right.keywords)
            known = literal_arguments(args, keywords)
            if known is None:  # the arguments are evaluated in a process of their own
                return "args", (right.func.id, arguments_expression(args, keywords))
            text = call_text(right.func.id, known)
            if text is not None:
                return "call", check_program(text, self.row)
        return "eval", ast.unparse(right)

    def score(self, generations: list[str]) -> list[bool]:
        plans = [self.plan(g) for g in generations]
        results = [False] * len(plans)
        expressions = sorted({text for kind, text in plans if kind == "eval"})
        expressions.extend(sorted({payload[1] for kind, payload in plans if kind == "args"}))
        values = dict(zip(expressions, self._evaluate(expressions), strict=True))
        for index, (kind, payload) in enumerate(plans):
            if kind == "args":
                arguments = _arguments(*values[payload[1]])
                text = call_text(payload[0], arguments) if arguments is not None else None
                plans[index] = ("call", check_program(text, self.row)) if text else ("fail", None)
        # Dataset text only, in a reused worker: the module alone (may the parent compare
        # literals?) and the programs whose call the parent wrote from literal values.
        trusted: list[str] = []
        if any(kind == "literal" for kind, _ in plans):
            trusted.append(self.row.code)
        calls = {text for kind, text in plans if kind == "call"}
        trusted.extend(sorted(calls))
        passed = dict(zip(trusted, self._run(trusted, untrusted=False), strict=True))
        programs = [text for kind, text in plans if kind == "program"]
        wholes = iter(self._run(programs, untrusted=True))
        for index, (kind, payload) in enumerate(plans):
            if kind == "literal":
                results[index] = passed[self.row.code] and _equal(self.output_value, payload)
            elif kind == "call":
                results[index] = passed[payload]
            elif kind == "eval":
                found, value = values[payload]
                results[index] = found and _equal(self.output_value, value)
            elif kind == "program":
                results[index] = next(wholes)
            elif kind == "split":
                results[index] = self._split(*payload)
        return results

    # -- generations the parser splits: the assert's test evaluated here, piece by piece ------

    _COMPARE: ClassVar[dict[type[ast.cmpop], Callable[[Any, Any], Any]]] = COMPARISONS

    def _splittable(self, node: ast.expr) -> bool:
        """Whether the path from the test down to the output is made of what `_truth`
        evaluates (the output is the leftmost operand, so it can only sit there)."""
        if isinstance(node, ast.Compare):
            return ast.dump(node.left) == self.output_dump and all(
                type(op) in self._COMPARE for op in node.ops
            )
        if isinstance(node, ast.BoolOp):
            return self._splittable(node.values[0])
        if isinstance(node, ast.IfExp):
            return self._splittable(node.body)
        return False

    def _split(self, test: ast.expr, statements: list[ast.stmt]) -> bool:
        """The program passes: its assert's test holds and the statements after it raise
        nothing. Pieces of model text are evaluated each in a fresh forked process and come
        back only as literals (so a process can forge no more than writing that literal)."""
        try:
            if not self._truth(test):
                return False
        except _Failed:
            return False
        if not statements:
            return True
        rest = ast.unparse(ast.Module(body=statements, type_ignores=[]))
        return self._run([f"{self.row.code}\n{rest}"], untrusted=True)[0]

    def _truth(self, node: ast.expr) -> bool:
        if isinstance(node, ast.IfExp):
            chosen = node.body if _truthy(self._value(node.test)) else node.orelse
            return self._truth(chosen) if chosen is node.body else _truthy(self._value(chosen))
        if isinstance(node, ast.BoolOp):
            is_or = isinstance(node.op, ast.Or)
            truth = self._truth(node.values[0])
            for value in node.values[1:]:
                if truth == is_or:  # `or` stops at a true operand, `and` at a false one
                    return truth
                truth = _truthy(self._value(value))
            return truth
        assert isinstance(node, ast.Compare)
        left = self.output_value
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self._value(comparator)
            try:
                holds = bool(self._COMPARE[type(op)](left, right))
            except Exception:  # e.g. '<' between a str and an int: the program raises
                raise _Failed from None
            if not holds:
                return False
            left = right
        return True

    def _value(self, node: ast.expr) -> Any:
        """The value of a piece without the output in it, or `_Failed` when it raises."""
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        found, value = self._evaluate([ast.unparse(node)])[0]
        if not found:
            raise _Failed
        return value

    def _run(self, programs: list[str], *, untrusted: bool) -> list[bool]:
        if not programs:
            return []
        driver = f"_PROGRAMS = {programs!r}\n{_DRIVER}"
        calls = [f"_check({i})" for i in range(len(programs))]
        outcomes = self.pool.run_batch(
            driver, calls, timeout_s=self.timeout_s, memory_mb=self.memory_mb, untrusted=untrusted
        )
        return [_passed(outcome) for outcome in outcomes]

    def _evaluate(self, expressions: list[str]) -> list[tuple[bool, Any]]:
        if not expressions:
            return []
        outcomes = self.pool.evaluate(
            self.row.code, expressions, timeout_s=self.timeout_s, memory_mb=self.memory_mb
        )
        return [literal_value(o.result) if o.status == "ok" else (False, None) for o in outcomes]


class _Failed(Exception):
    """A piece of a split program raised (or gave no plain literal): the program fails."""


def _truthy(value: Any) -> bool:
    try:
        return bool(value)
    except Exception:
        raise _Failed from None


def _equal(left: Any, right: Any) -> bool:
    try:
        return bool(left == right)
    except (RecursionError, MemoryError, ValueError):
        return False


def _passed(outcome: Outcome) -> bool:
    return outcome.status == "ok" and outcome.result == "True"


def _arguments(found: bool, value: Any) -> Any:
    """The `(args, kwargs)` read back from an arguments expression, or None."""
    if not (found and type(value) is tuple and len(value) == 2):
        return None
    args, kwargs = value
    if type(args) is not tuple or type(kwargs) is not dict:
        return None
    if not all(type(k) is str and k.isidentifier() for k in kwargs):
        return None
    return value
