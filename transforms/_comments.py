"""Misleading comments: a comment that states something false about the code next to it.

Only comments are added, so the program is unchanged token for token. Every claim is false
by construction from the code itself (a `for` over a non-reversed iterable said to iterate in
reverse, `x += 1` said to decrement, an `if c` said to run when `c` is false...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from transforms._analysis import ModuleInfo, in_function, walk
from transforms._base import Transform

_MAX_QUOTED = 40


class MisleadingComment(Transform):
    """Add one comment that states a wrong fact about a statement."""

    name = "misleading_comment"
    kind = "equivalent"
    family = "distractor"
    description = "add a comment that states a wrong fact about the code (the code is unchanged)"

    target: cst.BaseStatement
    text: str
    own_line: bool

    def find_sites(self, info: ModuleInfo) -> list[tuple[cst.BaseStatement, list[str]]]:
        """Statements about which a false claim can be made for sure, with the claims."""
        module = info.module

        def quote(node: cst.CSTNode) -> str | None:
            text = module.code_for_node(node).strip()
            if "\n" in text or len(text) > _MAX_QUOTED or "#" in text:
                return None
            return text

        sites: list[tuple[cst.BaseStatement, list[str]]] = []
        for node in walk(module):
            if not isinstance(node, cst.SimpleStatementLine | cst.BaseCompoundStatement):
                continue
            if isinstance(node, cst.FunctionDef | cst.ClassDef) or not in_function(node, info):
                continue
            claims = _claims(node, quote, info)
            if claims:
                sites.append((node, claims))
        return sites

    def take_site(self, site: tuple[cst.BaseStatement, list[str]], info: ModuleInfo) -> bool:
        """Choose the claim and where the comment goes."""
        self.target, claims = site
        self.text = "# " + self.rng.choice(claims)
        has_trailing = _trailing_comment(self.target)
        self.own_line = has_trailing or self.rng.random() < 0.6
        return True

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Attach the comment to the chosen statement."""
        if original_node is not self.target:
            return result
        assert isinstance(result, cst.SimpleStatementLine | cst.BaseCompoundStatement)
        comment = cst.Comment(self.text)
        if self.own_line:
            line = cst.EmptyLine(indent=True, comment=comment)
            new = result.with_changes(leading_lines=[*result.leading_lines, line])
        elif isinstance(result, cst.SimpleStatementLine):
            new = result.with_changes(
                trailing_whitespace=cst.TrailingWhitespace(
                    whitespace=cst.SimpleWhitespace("  "), comment=comment
                )
            )
        else:
            body = result.body
            header = cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  "), comment=comment)
            new = result.with_changes(body=body.with_changes(header=header))
        return new


def _trailing_comment(stmt: cst.BaseStatement) -> bool:
    if isinstance(stmt, cst.SimpleStatementLine):
        return stmt.trailing_whitespace.comment is not None
    body = getattr(stmt, "body", None)
    if isinstance(body, cst.IndentedBlock):
        return body.header.comment is not None
    return True  # one-line suites: only an own-line comment


def _is_call(expr: cst.BaseExpression, names: tuple[str, ...]) -> bool:
    return (
        isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in names
    )


def _reversed_iteration(iterable: cst.BaseExpression) -> bool:
    """Whether the iterable may run backwards (so "in reverse" could be true)."""
    if _is_call(iterable, ("reversed", "sorted")):
        return True
    if isinstance(iterable, cst.Subscript):
        return True  # slices may have negative steps
    if _is_call(iterable, ("range",)):
        assert isinstance(iterable, cst.Call)
        return len(iterable.args) == 3
    return False


def _claims(
    stmt: cst.BaseStatement, quote: Callable[[cst.CSTNode], str | None], info: ModuleInfo
) -> list[str]:
    out: list[str] = []
    if isinstance(stmt, cst.For):
        iterable = quote(stmt.iter)
        target = quote(stmt.target)
        if iterable and target and not _reversed_iteration(stmt.iter):
            out.append(f"iterate over {iterable} in reverse order")
            out.append(f"visit {iterable} from its last element to its first")
        if iterable and target and not _reversed_iteration(stmt.iter):
            out.append(f"{target} skips the first element of {iterable}")
    elif isinstance(stmt, cst.While):
        test = quote(stmt.test)
        if test:
            out.append(f"keep looping until {test}")
            out.append(f"stops as soon as {test} holds")
    elif isinstance(stmt, cst.If):
        test = quote(stmt.test)
        if test:
            out.append(f"this branch runs only when {test} is false")
            out.append(f"skipped whenever {test}")
    elif isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        out.extend(_simple_claims(stmt.body[0], quote))
    return out


def _simple_claims(
    small: cst.BaseSmallStatement, quote: Callable[[cst.CSTNode], str | None]
) -> list[str]:
    out: list[str] = []
    if isinstance(small, cst.AugAssign):
        target, value = quote(small.target), quote(small.value)
        if target and value:
            opposite = {
                cst.AddAssign: "subtract {v} from {t}",
                cst.SubtractAssign: "add {v} to {t}",
                cst.MultiplyAssign: "divide {t} by {v}",
                cst.DivideAssign: "multiply {t} by {v}",
                cst.FloorDivideAssign: "multiply {t} by {v}",
            }.get(type(small.operator))
            if opposite:
                out.append(opposite.format(t=target, v=value))
    elif isinstance(small, cst.Assign) and len(small.targets) == 1:
        name = quote(small.targets[0].target)
        assigned = small.value
        if name:
            if isinstance(assigned, cst.List) and not assigned.elements:
                out.append(f"{name} starts as an empty dictionary")
            elif (isinstance(assigned, cst.Dict) and not assigned.elements) or (
                isinstance(assigned, cst.SimpleString) and assigned.value in ("''", '""')
            ):
                out.append(f"{name} starts as an empty list")
            elif isinstance(assigned, cst.Integer) and assigned.value.isdigit():
                out.append(f"{name} starts at {int(assigned.value) + 1}")
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        call = small.value
        func = call.func
        if isinstance(func, cst.Attribute):
            receiver = quote(func.value)
            method = func.attr.value
            first = quote(call.args[0].value) if call.args else None
            if receiver:
                if method == "append" and first:
                    out.append(f"insert {first} at the front of {receiver}")
                elif method == "sort" and not call.args:
                    out.append(f"sort {receiver} in descending order")
                elif method == "pop" and not call.args:
                    out.append(f"remove the first element of {receiver}")
                elif method == "reverse":
                    out.append(f"sort {receiver} in ascending order")
                elif method == "clear":
                    out.append(f"{receiver} keeps its elements")
    elif isinstance(small, cst.Return) and small.value is not None:
        returned = small.value
        if isinstance(returned, cst.Tuple | cst.List | cst.Dict | cst.Integer | cst.SimpleString):
            out.append("always returns None")
    return out


TRANSFORMS: tuple[type[Transform], ...] = (MisleadingComment,)
