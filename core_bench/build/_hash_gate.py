"""Which (code, calls) pairs can observe the hash seed: only those are run under a second one.

The hash-seed check (`_hash_stable`) traces every (variant, call) again in a pool under
another `PYTHONHASHSEED`. Since Python 3.7 a dict iterates in insertion order whatever the
seed; what the seed changes is the hash of str, bytes (and of tuples and frozensets holding
them), hence the iteration order of sets and frozensets, and the value of `hash()`. Code that
never holds a set and never hashes gives the same trace under every seed, so its second run
can only confirm the first: `observes_hash_order` is False for it and the build skips it.

The gate reads the code and the calls (a call may pass a set literal that plain code then
iterates) and rules a pair IN, to be checked as before, when either mentions:

- a set: a set display or comprehension (`{a, b}`, `{x for x in y}`), or the names `set` or
  `frozenset` in any role (a call, `map(set, ...)`, `isinstance(x, set)`); even
  `sorted(set(...))` is ruled in: sorting with a key that ties keeps the set's order;
- `hash` (the builtin), or any dunder name or attribute (`__hash__`, `__class__`,
  `__builtins__`, ...): a path to hashes or to `set` without naming it;
- a dict's `keys()` or `items()` view anywhere but where it is only iterated, compared or
  handed to a builtin that iterates it (`for`, a comprehension, `in`, `==`, `list`, `sorted`,
  `len`, ...): a view elsewhere may meet `&`, `|`, `^` or `-`, which return a set
  (`d.keys() - other`), possibly through a variable;
- dynamic code the scan cannot see through: `eval`, `exec`, `compile`, `getattr`, `setattr`,
  `delattr`, `globals`, `locals`, `vars`, `__import__`, `type` called with other than one
  argument (a class made at run time), and every `import` (a module may return sets or
  hash: `random.seed` hashes a tuple);
- anything it cannot read: code or a call that does not parse.

Everything else is ruled out: `False` means the second pool would trace the same values, so
the check would drop nothing. `tests/core_bench/test_hash_gate.py` shows it on every CRUXEval
problem the gate skips (slow).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["hash_order_reasons", "observes_hash_order"]

_SET_NAMES = frozenset({"set", "frozenset"})
_DYNAMIC_NAMES = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "getattr",
        "setattr",
        "delattr",
        "globals",
        "locals",
        "vars",
        "hash",
        "breakpoint",
    }
)
_VIEW_METHODS = frozenset({"keys", "items"})
"""Dict methods whose views support set operators (`values()` views do not)."""
_ITERATING_BUILTINS = frozenset(
    {
        "list",
        "tuple",
        "sorted",
        "reversed",
        "len",
        "enumerate",
        "zip",
        "iter",
        "next",
        "sum",
        "min",
        "max",
        "any",
        "all",
        "map",
        "filter",
        "dict",
        "str",
        "repr",
        "print",
    }
)
"""Builtins that only iterate (or print) a dict view they are given: the view meets no set
operator there, and a dict view iterates in insertion order."""


def observes_hash_order(code: str, calls: Iterable[str] = ()) -> bool:
    """Whether running `calls` on `code` may give another trace under another hash seed.

    Conservative: True whenever the code or a call holds a set, hashes, or does something the
    scan cannot follow (see the module docstring for the rules); False only when no value of
    the run can depend on the seed.

    Args:
        code: the code of a variant (or of the original).
        calls: the call expressions run on it.
    """
    # The same verdict as `bool(hash_order_reasons(code, calls))`, read per code and per call
    # (cached: a problem's variants are checked on the same calls) and stopping at the first.
    return _code_observes(code) or any(_call_observes(call) for call in calls)


@lru_cache(maxsize=1024)
def _code_observes(code: str) -> bool:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return True
    return bool(_scan(tree))


@lru_cache(maxsize=4096)
def _call_observes(call: str) -> bool:
    try:
        expression = ast.parse(call.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return True
    return bool(_scan(expression))


def hash_order_reasons(code: str, calls: Iterable[str] = ()) -> list[str]:
    """Why `observes_hash_order(code, calls)` is True: one line per rule that fired, each
    naming where (the code's line, or the call); empty when the pair cannot observe it."""
    reasons: list[str] = []
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return ["the code does not parse"]
    reasons.extend(f"line {line}: {what}" for line, what in _scan(tree))
    for call in calls:
        try:
            expression = ast.parse(call.strip(), mode="eval")
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            reasons.append(f"call {call!r}: does not parse")
            continue
        reasons.extend(f"call {call!r}: {what}" for _, what in _scan(expression))
    return reasons


def _scan(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, rule) of every node of `tree` that can observe the hash seed."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        what = _rule(node, parents)
        if what is not None:
            found.append((getattr(node, "lineno", 0), what))
    return found


def _rule(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str | None:
    if isinstance(node, ast.Set | ast.SetComp):
        return "a set display"
    if isinstance(node, ast.Import | ast.ImportFrom):
        return "an import"
    if isinstance(node, ast.Name):
        if node.id in _SET_NAMES:
            return f"`{node.id}`"
        if node.id in _DYNAMIC_NAMES:
            return f"`{node.id}`"
        if node.id == "type" and not _one_argument_call(node, parents):
            return "`type` not called with one argument"
        if _dunder(node.id):
            return f"`{node.id}`"
    if isinstance(node, ast.Attribute):
        if _dunder(node.attr):
            return f"`.{node.attr}`"
        if node.attr in _VIEW_METHODS and not _view_only_iterated(node, parents):
            return f"a `.{node.attr}()` view that may meet a set operator"
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and _dunder(
        node.name
    ):
        return f"`{node.name}` defined"
    return None


def _dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _one_argument_call(name: ast.Name, parents: dict[ast.AST, ast.AST]) -> bool:
    call = parents.get(name)
    return (
        isinstance(call, ast.Call)
        and call.func is name
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
    )


def _view_only_iterated(attribute: ast.Attribute, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether `x.keys` / `x.items` is called without arguments and its view only iterated,
    tested with `in` or compared, or handed to an iterating builtin."""
    call = parents.get(attribute)
    if not (isinstance(call, ast.Call) and call.func is attribute and not call.args):
        return False
    if call.keywords:
        return False
    user = parents.get(call)
    if isinstance(user, ast.For | ast.AsyncFor | ast.comprehension):
        return user.iter is call
    if isinstance(user, ast.Compare):
        return True  # a bool whatever the views hold
    if isinstance(user, ast.Call) and call in user.args:
        return isinstance(user.func, ast.Name) and user.func.id in _ITERATING_BUILTINS
    return False
