"""`idiom` rewrite of string building by concatenation into an f-string.

`'total: ' + str(n) + ' items'` -> `f'total: {n} items'`. Exact when every operand is a
str (a literal, a `str(...)` call, or an expression `Kinds` proves to be a str): `str(x)`
and `f'{x}'` both give `format(x, '')`, which is `str(x)` for every builtin type, and a str
formats as itself. A concatenation with an operand that may not be a str is left alone (it
raises TypeError, the f-string would not).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from transforms._analysis import ModuleInfo, has_comments, is_literal, walk
from transforms._base import Transform
from transforms._idioms_common import (
    STR,
    IdiomRewrite,
    Kinds,
    builtin_call,
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


class ConcatToFString(IdiomRewrite):
    """`'a' + str(x) + b` (all strs) -> `f'a{x}{b}'`."""

    name = "idiom_concat_fstring"
    site_local = True
    description = "build a string with an f-string instead of concatenation and str()"

    site: cst.BinaryOperation
    source: str

    def find_sites(self, info: ModuleInfo) -> Sequence[tuple[cst.BinaryOperation, str]]:
        """Maximal `+` chains of strs, each with its f-string."""
        return function_sites(
            info,
            lambda node, _func, kinds: self._site(node, kinds, info),
            (cst.BinaryOperation,),
        )

    def take_site(self, site: tuple[cst.BinaryOperation, str], info: ModuleInfo) -> bool:
        """Keep the chain and its f-string apart."""
        self.site, self.source = site
        return True

    def _site(
        self, node: cst.CSTNode, kinds: Kinds, info: ModuleInfo
    ) -> tuple[cst.BinaryOperation, str] | None:
        if not isinstance(node, cst.BinaryOperation) or not isinstance(node.operator, cst.Add):
            return None
        parent = info.parent(node)
        if (
            isinstance(parent, cst.BinaryOperation)
            and isinstance(parent.operator, cst.Add)
            and parent.left is node
            and not node.lpar
        ):
            return None  # part of a longer chain
        source = self._render(node, kinds, info)
        return None if source is None else (node, source)

    def _render(self, node: cst.BinaryOperation, kinds: Kinds, info: ModuleInfo) -> str | None:
        if has_comments(node):
            return None
        pieces: list[tuple[str, str]] = []  # ("text", value) | ("expr", source)
        converted = False
        for operand in _operands(node):
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
            elif kinds.excluding(node).of(operand) == STR and not isinstance(
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

    def replace(self, original_node: cst.CSTNode, updated_node: Any) -> Any:
        """Swap the chain for the f-string."""
        if not self.at_site(original_node):
            return updated_node
        new = cst.parse_expression(self.source)
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


TRANSFORMS: tuple[type[Transform], ...] = (ConcatToFString,)
