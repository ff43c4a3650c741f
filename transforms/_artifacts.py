"""Machine artifacts: what makes a variant read as generated rather than written by a person.

`find_artifacts(original, variant)` names the artifact kinds a variant has that its original
does not (each kind is counted in both, and reported when the variant has more):

- "orphan comment": a comment mentions an identifier of the original that the variant's code
  no longer has (a comment left behind by a renaming leaks the original names back); a
  mention is a code-like word or a quoted one (`transforms._analysis.comment_mentions`), not
  a plain English word that happens to be a name;
- "constant test": an `if`, `elif` or conditional expression whose test is made of literals
  only (`if 0:`, `if 8 < 3:`), or a `while` whose literal test is false;
- "literal arithmetic": an operation or comparison between literals only (`'non' + 'e'`,
  `[::-(9 - 8)]`, `8 > 3`);
- "next desugaring": `next(...)` or `StopIteration`, the machine form of a `for` loop;
- "double negation": `not not x`, `not` over an `and`/`or` of negations
  (`not (not a or not b)`), which a person writes `a and b`, or over one holding a negative
  test (`not (k not in d or v == w)`, a person writes `k in d and v != w`);
- "obfuscated name": an identifier such as `lI1lI1`, `O0oO0` or `_0x3fa2`;
- "negated comparison": `not` put before a comparison (`not num < k`), which a person writes
  `num >= k` (or `x not in y`);
- "one-operation helper": a function the original does not have that does one operator or
  one call (`def is_in(y, n): return y in n`, a loop body of `total += x`): nobody names that;
- "clash suffix": a new identifier numbered to avoid a clash with a name in use (`items_2`
  next to `items`) where a person would have picked another name;
- "literal-first comparison": a comparison that puts a literal or an expression of literals
  before a non-literal (`while 1 < len(xs)`, `if 0 == x % 2`, `None is x`), which a person
  writes the other way round (chains such as `0 < x < 10` and membership tests are natural);
- "parenthesized call": a call wrapped in parentheses it does not need (`if (is_even(n)) !=
  x:`), left from the expression a helper call replaced (`return(f(x))`, where they keep the
  keyword apart from the name, is not one);
- "identity comprehension": `[x for x in xs]` (or a set or generator of it), which a person
  writes `list(xs)`;
- "alias assignment": `a = b` between two plain names of a function, `a` bound nowhere else
  and `b` unused after it: a second name for a value that a rewrite left behind
  (`present = collected`, then only `present` is used);
- "negated condition": `not` over an `and`/`or` with an order comparison that no rewrite
  could invert (`not (a >= b or c <= a)`, operands of unknown type), left where a guard
  or swap negated a test; a person writes `a < b and c > a`, or keeps the original test
  (De Morgan's `not (len(s) <= n and c not in t)` inverts only exact comparisons);
- "generic helper name": a new function named for nothing it does (`compute`, `is_valid`,
  `check_x`, `loop_step`);
- "argument-named helper": a new function whose name spells one of its parameters
  (`is_xs_above_c(xs, c)`, `update_prev_and_cur(prev, cur)`) or a variable of the original
  that the variant renamed (`slice_text(s)` once `text` is `s`): a helper is named for what
  it computes, and a word for the kind of value it reads (`text`, `count`,
  `transforms._helper_names.ROLE_WORDS`) is no argument's name;
- "negated comparisons": `not` over an `and`/`or` of comparisons that each invert exactly
  (`not (len(s) <= j or s[j] == c)`, `==`/`!=`, or an order comparison of ints or strs),
  which a person writes `j < len(s) and s[j] != c`;
- "bool branch on a call": `if g(x): return True` then `return False` (or the reverse,
  or `if not g(x)`), around a call of a function the module defines (an extracted helper),
  whose own `return` already gives the bool (`if s.isdigit(): return True` is a beginner's
  form, not counted);
- "else after continue": `if c: ... continue` followed by `else:`, the rest of a loop
  body wrapped in an `else` that the `continue` already makes (`if done: break` / `else:`
  is left alone: it is what swapping a natural `if ...: ... else: break` gives);
- "parenthesized generator": a generator in parentheses of its own as a call's sole
  argument (`list((w for w in ws))`), the parentheses a second argument needed left behind;
- "lambda wrapper": `lambda x: g(x)`, a lambda that only passes its argument on to a named
  function (`filter(lambda n: is_prime(n), xs)` for `filter(is_prime, xs)`);
- "mixed spelling": one update of one name spelled two ways in one function: `out += c`
  beside `out = out + rep`, or `ans += g(x)` beside `ans.extend(g(y))` (or `.append`), left
  where a rewrite took one statement and not the others (one per name).

Only `distractor` variants may have them; the test over all CRUXEval problems and
`bench/naturalness.py` use this module to check it.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import tokenize
from collections import Counter

from transforms._analysis import (
    _INT_BUILTINS,
    _INT_METHODS,
    _STR_RESULT_METHODS,
    comment_mentions,
)
from transforms._helper_names import ROLE_WORDS
from transforms._metrics import generated_tokens

__all__ = [
    "ARTIFACT_KINDS",
    "ArtifactBaseline",
    "count_artifacts",
    "find_artifacts",
    "identifiers_of",
]

ARTIFACT_KINDS: tuple[str, ...] = (
    "orphan comment",
    "constant test",
    "literal arithmetic",
    "next desugaring",
    "double negation",
    "obfuscated name",
    "negated comparison",
    "one-operation helper",
    "clash suffix",
    "literal-first comparison",
    "parenthesized call",
    "identity comprehension",
    "alias assignment",
    "negated condition",
    "generic helper name",
    "argument-named helper",
    "negated comparisons",
    "bool branch on a call",
    "else after continue",
    "parenthesized generator",
    "lambda wrapper",
    "mixed spelling",
)

_GENERIC_HELPERS = re.compile(
    r"^(?:compute|calculate|get_value|is_valid|check|matches|loop_step|helper|process|"
    r"do_work|check_\w+)(?:_\d+)?$"
)
_CALL_OPENERS = frozenset({")", "]", "}"})
_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)

_OBFUSCATED = re.compile(r"^(?:[lI][lI1]{4,}|O[O0o]{3,}|_0x[0-9a-f]{4})$")
_CLASH_SUFFIX = re.compile(r"^[A-Za-z_]\w*?_\d+$")
_ORDERED = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)
_OPERATIONS = (
    ast.BinOp, ast.Compare, ast.BoolOp, ast.Call, ast.IfExp, ast.Subscript, ast.UnaryOp,
    ast.AugAssign, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
)  # fmt: skip


def _is_not(node: ast.AST) -> bool:
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


def _negative_test(node: ast.AST) -> bool:
    """A comparison spelled with a negation (`k not in d`, `x is not None`)."""
    return isinstance(node, ast.Compare) and any(
        isinstance(op, ast.NotIn | ast.IsNot) for op in node.ops
    )


def _literal_only(node: ast.AST) -> bool:
    """An expression made of literals and operators only (no name, call or attribute)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _literal_only(node.operand)
    if isinstance(node, ast.BinOp):
        return _literal_only(node.left) and _literal_only(node.right)
    if isinstance(node, ast.BoolOp):
        return all(_literal_only(v) for v in node.values)
    if isinstance(node, ast.Compare):
        return _literal_only(node.left) and all(_literal_only(c) for c in node.comparators)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_literal_only(e) for e in node.elts)
    return False


def _int_or_str(node: ast.expr) -> bool:
    """`transforms._analysis`'s test for an operand whose order is total (an int or str
    literal, `len(...)`, `s.find(...)`, `s.lower()`, int arithmetic on such)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INT_OPS):
        return _int_or_str(node.left) and _int_or_str(node.right)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id in _INT_BUILTINS
        if isinstance(node.func, ast.Attribute):
            return node.func.attr in _INT_METHODS | _STR_RESULT_METHODS
    return False


def _unordered(node: ast.expr) -> bool:
    """An order comparison (`a >= b`) that cannot be inverted exactly: no side is surely an
    int or str, so `not (a >= b or ...)` could not become `a < b and ...`."""
    return (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE)
        and not _int_or_str(node.left)
        and not _int_or_str(node.comparators[0])
    )


def _invertible(node: ast.expr) -> bool:
    """A comparison a person would write inverted rather than negate: `==`/`!=`, or an
    order comparison with an int or str side (`len(s) <= j`)."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return False
    if isinstance(node.ops[0], ast.Eq | ast.NotEq):
        return True
    return isinstance(node.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE) and not _unordered(node)


_KIND_WORDS = frozenset(ROLE_WORDS.values())
# Names no variable of the original had: a builtin's or a method's (`strip` of `t.strip()`,
# which a rewrite may replace by `lstrip().rstrip()`, still names what `strip_text` does).
_NOT_VARIABLES = frozenset(
    {*dir(builtins), *dir(str), *dir(list), *dir(dict), *dir(set), *dir(tuple), *dir(int)}
)


def _argument_named(func: ast.FunctionDef, leaked: set[str]) -> bool:
    """Whether a function's name spells one of its parameters, or one of `leaked` (names
    the original had and the variant lost), words for kinds of value aside."""
    words = func.name.split("_")
    params = [a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)]
    for name in [*params, *(leaked - _NOT_VARIABLES)]:
        if name in _KIND_WORDS or not name.strip("_"):
            continue
        spelled = name.strip("_").split("_")
        size = len(spelled)
        if any(words[i : i + size] == spelled for i in range(len(words) - size + 1)):
            return True
    return False


def _returns_bool(stmt: ast.stmt | None) -> bool | None:
    if (
        isinstance(stmt, ast.Return)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, bool)
    ):
        return stmt.value.value
    return None


def _bool_branches(tree: ast.Module, nodes: list[ast.AST]) -> int:
    """`if <helper call>: return B` then (`else:`) `return not B`, the call maybe under a
    `not`, where the helper is a function of the module: its own `return` gives the bool
    already (`if s.isdigit(): return True` is a beginner's form, kept as people write it)."""
    helpers = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    count = 0
    for node in nodes:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                if not isinstance(stmt, ast.If) or len(stmt.body) != 1:
                    continue
                test = stmt.test.operand if _is_not(stmt.test) else stmt.test  # type: ignore[attr-defined]
                if not (
                    isinstance(test, ast.Call)
                    and isinstance(test.func, ast.Name)
                    and test.func.id in helpers
                ):
                    continue
                first = _returns_bool(stmt.body[0])
                if stmt.orelse:
                    other = stmt.orelse[0] if len(stmt.orelse) == 1 else None
                else:
                    other = block[i + 1] if i + 1 < len(block) else None
                second = _returns_bool(other)
                if first is not None and second is not None and first != second:
                    count += 1
    return count


def _falsy(node: ast.expr) -> bool:
    try:
        return not eval(compile(ast.Expression(node), "<test>", "eval"), {"__builtins__": {}})
    except Exception:  # a literal test that raises is not a constant-false test
        return False


#: The node types `_kind` can name an artifact of (every other node is none).
_KIND_TYPES = frozenset(
    {
        ast.If, ast.IfExp, ast.While, ast.BinOp, ast.Compare, ast.Name, ast.arg,
        ast.FunctionDef, ast.UnaryOp, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.Call,
        ast.Lambda,
    }
)  # fmt: skip


def ast_nodes(root: ast.AST) -> list[ast.AST]:
    """`list(ast.walk(root))`, in the same (breadth-first) order, without a generator per
    node: the artifact counts walk every candidate's tree several times (a test compares)."""
    out = [root]
    position = 0
    while position < len(out):
        node = out[position]
        position += 1
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                out.append(value)
            elif isinstance(value, list):
                out.extend(item for item in value if isinstance(item, ast.AST))
    return out


def _wraps_a_call(node: ast.Lambda) -> bool:
    """`lambda x: g(x)`: a lambda that only passes its one argument to a named function."""
    args = node.args
    if args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg or len(args.args) != 1:
        return False
    body = node.body
    return (
        isinstance(body, ast.Call)
        and isinstance(body.func, ast.Name)
        and not body.keywords
        and len(body.args) == 1
        and isinstance(body.args[0], ast.Name)
        and body.args[0].id == args.args[0].arg
        and body.func.id != args.args[0].arg
    )


def _kind(node: ast.AST) -> str | None:
    """The artifact kind `node` is, if any (comments aside)."""
    if isinstance(node, ast.If | ast.IfExp):
        if _literal_only(node.test):
            return "constant test"
        if (
            isinstance(node, ast.If)
            and node.orelse
            and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If))
            and isinstance(node.body[-1], ast.Continue)
        ):
            return "else after continue"
        return None
    if isinstance(node, ast.While):
        constant_false = _literal_only(node.test) and _falsy(node.test)
        return "constant test" if constant_false else None
    if isinstance(node, ast.BinOp | ast.Compare):
        if _literal_only(node):
            return "literal arithmetic"
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], _ORDERED)
            and _literal_only(node.left)
        ):
            return "literal-first comparison"
        return None
    if isinstance(node, ast.Name) and node.id == "StopIteration":
        return "next desugaring"
    if isinstance(node, ast.Name | ast.arg | ast.FunctionDef):
        name = node.id if isinstance(node, ast.Name) else getattr(node, "arg", None)
        name = node.name if isinstance(node, ast.FunctionDef) else name
        return "obfuscated name" if name and _OBFUSCATED.match(name) else None
    if _is_not(node):
        inner = node.operand  # type: ignore[attr-defined]
        if _is_not(inner) or (
            isinstance(inner, ast.BoolOp)
            and (
                all(_is_not(v) for v in inner.values)
                or any(_negative_test(v) for v in inner.values)
            )
        ):
            return "double negation"
        if isinstance(inner, ast.Compare):
            return "negated comparison"
        if isinstance(inner, ast.BoolOp) and any(_unordered(v) for v in inner.values):
            return "negated condition"
        if isinstance(inner, ast.BoolOp) and all(_invertible(v) for v in inner.values):
            return "negated comparisons"
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
        (first, *rest) = node.generators
        if (
            not rest
            and not first.ifs
            and not first.is_async
            and isinstance(first.target, ast.Name)
            and isinstance(node.elt, ast.Name)
            and node.elt.id == first.target.id
        ):
            return "identity comprehension"
    if isinstance(node, ast.Lambda) and _wraps_a_call(node):
        return "lambda wrapper"
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        arg, func = node.args[0], node.func
        # A sole generator argument starts where the call's own `(` is; one that starts
        # later has parentheses of its own.
        if isinstance(arg, ast.GeneratorExp) and (arg.lineno, arg.col_offset) != (
            func.end_lineno,
            func.end_col_offset,
        ):
            return "parenthesized generator"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next":
        return "next desugaring"
    return None


def _parenthesized_calls(code: str) -> int:
    """How many calls stand in parentheses of their own that no syntax needs: `(` not
    opening a call, subscript or the keyword it is glued to (`return(f(x))`), around a
    name or dotted name that is called, closed right after the call."""
    try:
        toks = [
            t
            for t in generated_tokens(code)
            if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT)
            and t.type != tokenize.DEDENT
        ]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return 0
    count = 0
    for i, tok in enumerate(toks):
        if tok.string != "(" or tok.type != tokenize.OP:
            continue
        prev = toks[i - 1] if i else None
        if prev is not None:
            if prev.type in (tokenize.NAME, tokenize.STRING, tokenize.NUMBER) and (
                not keyword.iskeyword(prev.string) or prev.end == tok.start
            ):
                continue  # a call's own parenthesis, or one glued to a keyword
            if prev.string in _CALL_OPENERS:
                continue
        j = i + 1
        if j >= len(toks) or toks[j].type != tokenize.NAME or keyword.iskeyword(toks[j].string):
            continue
        j += 1
        while j + 1 < len(toks) and toks[j].string == "." and toks[j + 1].type == tokenize.NAME:
            j += 2
        if j >= len(toks) or toks[j].string != "(":
            continue
        depth = 0
        while j < len(toks):
            if toks[j].string in "([{":
                depth += 1
            elif toks[j].string in ")]}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j + 1 < len(toks) and toks[j + 1].string == ")":
            count += 1
    return count


def _aliases(nodes: list[ast.AST]) -> int:
    """Pure aliases inside functions: `a = b` of one plain local name to another, where `a`
    is bound nowhere else and `b` is not used after it (a second name for one value that a
    rewrite left behind). `char = lower` in one branch of an if/else is no alias."""
    count = 0
    for func in nodes:
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        inner = ast_nodes(func)
        names = [n for n in inner if isinstance(n, ast.Name)]
        stores = Counter(n.id for n in names if not isinstance(n.ctx, ast.Load))
        stores.update(a.arg for a in ast_nodes(func.args) if isinstance(a, ast.arg))
        for stmt in inner:
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Name)
                and stmt.value.id in stores
                and stores[stmt.targets[0].id] == 1
            ):
                continue
            source = stmt.value.id
            later = [
                n
                for n in names
                if n.id == source
                and n is not stmt.value
                and (n.lineno, n.col_offset) > (stmt.lineno, stmt.col_offset)
            ]
            if not later:
                count += 1
    return count


def _mixed_spellings(nodes: list[ast.AST]) -> int:
    """Names of a function updated both by `x op= e` and by `x = x op e`, or grown both by
    `x += e` and by `x.append(e)`/`x.extend(e)` (see "mixed spelling")."""
    count = 0
    for func in nodes:
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        augmented: set[str] = set()
        added: set[str] = set()
        spelled_out: set[str] = set()
        grown: set[str] = set()
        for node in ast_nodes(func):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                augmented.add(node.target.id)
                if isinstance(node.op, ast.Add):
                    added.add(node.target.id)
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.BinOp)
                and isinstance(node.value.left, ast.Name)
                and node.value.left.id == node.targets[0].id
            ):
                spelled_out.add(node.value.left.id)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend")
                and isinstance(node.func.value, ast.Name)
            ):
                grown.add(node.func.value.id)
        count += len(augmented & spelled_out) + len(added & grown)
    return count


def _comments_and_names(code: str) -> tuple[list[str], set[str]]:
    comments: list[str] = []
    names: set[str] = set()
    try:
        for token in generated_tokens(code):
            if token.type == tokenize.COMMENT:
                comments.append(token.string)
            elif token.type == tokenize.NAME:
                names.add(token.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return comments, names


def _one_operation(func: ast.FunctionDef) -> bool:
    """A function that does one operator or one call: `return y in n`, or one statement
    such as `total += x` followed by returning what it assigned."""
    body = list(func.body)
    last = body[-1] if body else None
    if (
        len(body) > 1
        and isinstance(last, ast.Return)
        and isinstance(last.value, ast.Name | ast.Tuple)
        and all(isinstance(e, ast.Name) for e in ast.walk(last.value) if e is not last.value)
    ):
        body = body[:-1]  # a moved loop body returns what it assigns
    if len(body) != 1 or not isinstance(
        body[0], ast.Return | ast.Assign | ast.AugAssign | ast.Expr
    ):
        return False
    return sum(isinstance(n, _OPERATIONS) for n in ast.walk(body[0])) <= 1


def count_artifacts(code: str, identifiers: set[str] | None = None) -> Counter[str]:
    """How many of each artifact kind `code` has.

    Args:
        code: a Python module.
        identifiers: the original's identifiers: a mention of one in a comment is an orphan
            when `code` does not use it, a function or numbered name not among them is new;
            None counts no orphan comments, one-operation helpers or clash suffixes.

    Returns:
        Counts by kind (kinds with no occurrence are absent); a module that does not parse
        has none.
    """
    counts: Counter[str] = Counter()
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return counts
    named: set[str] = set()  # names, parameters and function names (one walk for all)
    nodes = ast_nodes(tree)
    for node in nodes:
        if type(node) in _KIND_TYPES:
            kind = _kind(node)
            if kind is not None:
                counts[kind] += 1
        if isinstance(node, ast.Name):
            named.add(node.id)
        elif isinstance(node, ast.arg):
            named.add(node.arg)
        elif isinstance(node, ast.FunctionDef):
            named.add(node.name)
    counts["parenthesized call"] += _parenthesized_calls(code)
    counts["bool branch on a call"] += _bool_branches(tree, nodes)
    counts["alias assignment"] += _aliases(nodes)
    counts["mixed spelling"] += _mixed_spellings(nodes)
    if identifiers is not None:
        comments, names = _comments_and_names(code)
        leaked = identifiers - names - set(keyword.kwlist)
        for stmt in tree.body:
            if not isinstance(stmt, ast.FunctionDef) or stmt.name in identifiers:
                continue
            if _one_operation(stmt):
                counts["one-operation helper"] += 1
            if _GENERIC_HELPERS.match(stmt.name):
                counts["generic helper name"] += 1
            if _argument_named(stmt, leaked):
                counts["argument-named helper"] += 1
        counts["clash suffix"] += sum(
            1
            for name in named - identifiers
            if _CLASH_SUFFIX.match(name) and name.rsplit("_", 1)[0] in named | identifiers
        )
    if identifiers:
        absent = identifiers - names - set(keyword.kwlist)
        for comment in comments:
            if comment_mentions(comment, absent):
                counts["orphan comment"] += 1
    return +counts


def identifiers_of(code: str) -> set[str]:
    """Every name token of `code` (outside comments and strings)."""
    return _comments_and_names(code)[1]


def find_artifacts(original: str, variant: str) -> list[str]:
    """The artifact kinds `variant` has more of than `original`, in `ARTIFACT_KINDS` order.

    Args:
        original: the original code.
        variant: a variant of it.

    Returns:
        The kinds (empty for a variant that reads as naturally as its original).
    """
    return ArtifactBaseline(original).new_in(variant)


class ArtifactBaseline:
    """An original's identifiers and artifact counts, to check many variants against it
    (`find_artifacts` works them out again on every call)."""

    def __init__(self, original: str) -> None:
        """Count the artifacts `original` already has."""
        self.identifiers = identifiers_of(original)
        self.counts = count_artifacts(original, self.identifiers)

    def new_in(self, variant: str) -> list[str]:
        """`find_artifacts(original, variant)`."""
        after = count_artifacts(variant, self.identifiers)
        return [kind for kind in ARTIFACT_KINDS if after[kind] > self.counts[kind]]
