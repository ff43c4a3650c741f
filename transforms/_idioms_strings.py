"""`idiom` rewrites of string building by concatenation or `str.format` into an f-string.

`'total: ' + str(n) + ' items'` -> `f'total: {n} items'`. Exact when every operand is a
str (a literal, a `str(...)` call, or an expression `Kinds` proves to be a str): `str(x)`
and `f'{x}'` both give `format(x, '')`, which is `str(x)` for every builtin type, and a str
formats as itself. A str in the chain (a literal, `str(...)`, a value proven a str) makes
every operand a str wherever the chain does not raise (`+` of a str and anything else raises
TypeError), so an operand of unknown kind beside one is taken as a str: on anything else the
original raises and verification rejects the variant. An operand proven of another kind is
left alone.

`'{} is {:>3}'.format(a, b)` -> `f'{a} is {b:>3}'`: a field `{}` or `{0}` of `str.format`
calls `format(arg, spec)` after its conversion (`!r`, `!s`, `!a`), and so does the f-string
field `{arg!r:spec}`. Only plain fields, each argument used once; the arguments are pure and
cannot raise when a field has a spec (str.format evaluates every argument before formatting
any, the f-string formats each as it goes).
"""

from __future__ import annotations

import ast
import string
from collections import Counter
from collections.abc import Sequence
from typing import Any

import libcst as cst

from transforms._analysis import ModuleInfo, has_comments, is_literal, is_pure, may_raise, walk
from transforms._base import Transform
from transforms._idioms_common import (
    STR,
    IdiomRewrite,
    Kinds,
    builtin_call,
    function_nodes,
    function_sites,
    str_value,
)

_EMPTY = cst.Module(body=[])
_FORBIDDEN = (
    cst.Lambda, cst.Dict, cst.DictComp, cst.NamedExpr, cst.FormattedString, cst.Yield,
    cst.SimpleString, cst.ConcatenatedString,
)  # fmt: skip


def _operands(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of a left-associated chain of unparenthesised `+`."""
    if (
        isinstance(expr, cst.BinaryOperation)
        and isinstance(expr.operator, cst.Add)
        and not expr.lpar
    ):
        return [*_operands(expr.left), expr.right]
    return [expr]


def _in_longer_chain(node: cst.BinaryOperation, info: ModuleInfo) -> bool:
    """Whether `node` is the left part of a longer unparenthesised `+` chain (not a site of
    its own)."""
    parent = info.parent(node)
    return (
        isinstance(parent, cst.BinaryOperation)
        and isinstance(parent.operator, cst.Add)
        and parent.left is node
        and not node.lpar
    )


def _escape(text: str, quote: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == quote:
            out.append("\\" + quote)
        elif ch in "{}":
            out.append(ch * 2)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif not ch.isprintable():
            out.append(repr(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


class _EveryStringOfFunction(IdiomRewrite):
    """Base: the sites are `(node, its f-string)`; every site of the picked one's function
    is rewritten with it, and a function where a node builds a string the old way
    (`spells`) without being a site has none: a person who writes f-strings writes
    `f'{cur})'` and `f'{cur}('`, not one of them beside `cur + '('`."""

    site_local = True
    site: cst.CSTNode
    source: str

    def spells(self, node: cst.CSTNode, info: ModuleInfo) -> bool:
        """Whether `node` builds a string the way this idiom rewrites (hook)."""
        raise NotImplementedError

    def whole_functions(
        self, sites: list[tuple[Any, str]], info: ModuleInfo, types: tuple[type[cst.CSTNode], ...]
    ) -> list[tuple[Any, str]]:
        """`sites` but those of a function where a node of `types` `spells` without being a
        site; the rest kept for `take_site`."""
        spelled: Counter[int] = Counter()
        for node, func in function_nodes(info, types):
            if self.spells(node, info):
                spelled[id(func)] += 1
        taken = Counter(id(info.enclosing_function(node)) for node, _ in sites)
        self._sites = [
            (node, source)
            for node, source in sites
            if taken[id(info.enclosing_function(node))]
            == spelled[id(info.enclosing_function(node))]
        ]
        return self._sites

    def take_site(self, site: tuple[Any, str], info: ModuleInfo) -> bool:
        """Take every site of the function along, each with its f-string."""
        self.site, self.source = site
        func = info.enclosing_function(site[0])
        group = [(n, src) for n, src in self._sites if info.enclosing_function(n) is func]
        self._group = {id(n): (n, src) for n, src in group}
        self.limit_visit([n for n, _ in group], info)
        return True

    def replace(self, original_node: cst.CSTNode, updated_node: Any) -> Any:
        """Swap each site for its f-string."""
        taken = self._group.get(id(original_node))
        if taken is None or taken[0] is not original_node:
            return updated_node
        new = cst.parse_expression(taken[1])
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


class ConcatToFString(_EveryStringOfFunction):
    """`'a' + str(x) + b` (all strs) -> `f'a{x}{b}'`."""

    name = "idiom_concat_fstring"
    description = "build a string with an f-string instead of concatenation and str()"

    def find_sites(self, info: ModuleInfo) -> Sequence[tuple[cst.BinaryOperation, str]]:
        """Maximal `+` chains of strs, each with its f-string, in functions where every
        chain with a str literal or a `str(...)` is one."""
        sites = function_sites(
            info,
            lambda node, _func, kinds: self._site(node, kinds, info),
            (cst.BinaryOperation,),
        )
        return self.whole_functions(sites, info, (cst.BinaryOperation,)) if sites else sites

    def spells(self, node: cst.CSTNode, info: ModuleInfo) -> bool:
        """A maximal `+` chain with a str literal or a `str(...)` among its operands."""
        if not isinstance(node, cst.BinaryOperation) or _in_longer_chain(node, info):
            return False
        return any(
            str_value(o) is not None
            or ((call := builtin_call(o, info)) is not None and call[0] == "str")
            for o in _operands(node)
        )

    def _site(
        self, node: cst.CSTNode, kinds: Kinds, info: ModuleInfo
    ) -> tuple[cst.BinaryOperation, str] | None:
        if not isinstance(node, cst.BinaryOperation) or not isinstance(node.operator, cst.Add):
            return None
        if _in_longer_chain(node, info):
            return None
        source = self._render(node, kinds, info)
        return None if source is None else (node, source)

    def _render(self, node: cst.BinaryOperation, kinds: Kinds, info: ModuleInfo) -> str | None:
        if has_comments(node):
            return None
        pieces: list[tuple[str, str]] = []  # ("text", value) | ("expr", source)
        converted = False
        operands = _operands(node)
        kinds = kinds.excluding(node)
        # With a str in the chain (a literal, `str(...)`, a value proven a str) every operand
        # is a str, or the chain raises: `+` of a str and anything else raises TypeError,
        # whichever side the str is on.
        anchored = any(
            (isinstance(o, cst.SimpleString) and str_value(o) is not None) or kinds.of(o) == STR
            for o in operands
        )
        for operand in operands:
            text = str_value(operand)
            if text is not None and isinstance(operand, cst.SimpleString):
                if operand.prefix:
                    return None
                pieces.append(("text", text))
                continue
            call = builtin_call(operand, info)
            if call is not None and call[0] == "str" and len(call[1]) == 1:
                if call[1][0].keyword is not None:
                    return None
                inner = call[1][0].value
                if is_literal(inner):
                    return None  # `str(1)` is a literal in disguise: no natural f-string
                converted = True
            elif kinds.of(operand) in ((STR, None) if anchored else (STR,)) and not isinstance(
                operand, cst.ConcatenatedString | cst.SimpleString
            ):
                inner = operand
            else:
                return None
            if any(isinstance(n, _FORBIDDEN) for n in walk(inner)):
                return None
            code = _EMPTY.code_for_node(inner.with_changes(lpar=[], rpar=[])).strip()
            if any(c in code for c in "\\\n{}#") or code.startswith("{"):
                return None
            pieces.append(("expr", code))
        if not any(kind == "expr" for kind, _ in pieces):
            return None
        if not converted and not any(kind == "text" for kind, _ in pieces):
            return None  # `a + b` of two strs reads better as it is
        exprs = " ".join(code for kind, code in pieces if kind == "expr")
        quote = next((q for q in ("'", '"') if q not in exprs), None)
        if quote is None:
            return None
        body = "".join(
            _escape(value, quote) if kind == "text" else "{" + value + "}" for kind, value in pieces
        )
        source = f"f{quote}{body}{quote}"
        try:
            compile(source, "<f-string>", "eval")
        except SyntaxError:
            return None
        return source


def _fields(template: str) -> list[tuple[str, str | None, str | None, str | None]] | None:
    """`(text, field, spec, conversion)` of a format string, or None when it does not parse."""
    try:
        return list(string.Formatter().parse(template))
    except ValueError:
        return None


class FormatToFString(_EveryStringOfFunction):
    """`'{} and {!r:>4}'.format(a, b)` -> `f'{a} and {b!r:>4}'`."""

    name = "idiom_format_fstring"
    description = "build a string with an f-string instead of str.format"

    def find_sites(self, info: ModuleInfo) -> Sequence[tuple[cst.Call, str]]:
        """Calls of `format` on a plain str literal, each with its f-string, in functions
        where every such call is one."""
        sites = function_sites(
            info, lambda node, _func, _kinds: self._site(node, info), (cst.Call,)
        )
        return self.whole_functions(sites, info, (cst.Call,)) if sites else sites

    def spells(self, node: cst.CSTNode, info: ModuleInfo) -> bool:
        """A call of `format` on a str literal."""
        return (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "format"
            and isinstance(node.func.value, cst.SimpleString)
        )

    def _site(self, node: cst.CSTNode, info: ModuleInfo) -> tuple[cst.Call, str] | None:
        if not (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "format"
            and isinstance(node.func.value, cst.SimpleString)
            and not node.func.value.prefix
            and node.args
            and all(a.keyword is None and not a.star for a in node.args)
            and not has_comments(node)
        ):
            return None
        literal = node.func.value
        template = str_value(literal)
        parsed = _fields(template) if template is not None else None
        if template is None or parsed is None:
            return None
        args = [a.value for a in node.args]
        codes = []
        for arg in args:
            if not is_pure(arg, info) or any(isinstance(n, _FORBIDDEN) for n in walk(arg)):
                return None
            code = _EMPTY.code_for_node(arg.with_changes(lpar=[], rpar=[])).strip()
            if any(c in code for c in "\\\n{}#") or code.startswith("{"):
                return None
            codes.append(code)
        used: list[int] = []
        pieces: list[str] = []
        spec_seen = False
        quotes = [q for q in ("'", '"') if not any(q in c for c in codes)]
        if not quotes:
            return None
        # The literal's own quote first, unless its text holds it (`"{}'s"`).
        quotes.sort(key=lambda q: (q in template, q != literal.quote[0]))
        quote = quotes[0]
        for text, field, spec, conversion in parsed:
            pieces.append(_escape(text, quote))
            if field is None:
                continue
            if field == "":
                index = len(used)
            elif field.isdigit():
                index = int(field)
            else:
                return None  # `{name}`, `{0.attr}`, `{0[k]}`
            if index >= len(args) or (spec and ("{" in spec or quote in spec or "\\" in spec)):
                return None
            used.append(index)
            spec_seen = spec_seen or bool(spec)
            field_text = codes[index] + (f"!{conversion}" if conversion else "")
            pieces.append("{" + field_text + (f":{spec}" if spec else "") + "}")
        # Each argument once, and auto and manual numbering not mixed (format raises).
        if sorted(used) != list(range(len(args))):
            return None
        numbered = [f for _, f, _, _ in parsed if f is not None]
        if "" in numbered and any(f for f in numbered):
            return None
        if spec_seen and any(may_raise(a, info) for a in args):
            return None
        source = f"f{quote}{''.join(pieces)}{quote}"
        try:
            tree = ast.parse(source, mode="eval")
        except SyntaxError:
            return None
        fields = [n for n in ast.walk(tree) if isinstance(n, ast.FormattedValue)]
        if len(fields) != len(used):
            return None  # an argument's text read back as more than its own field
        return node, source


TRANSFORMS: tuple[type[Transform], ...] = (ConcatToFString, FormatToFString)
