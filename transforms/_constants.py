"""Constant unfolding: a literal replaced by an expression that computes it (`12` -> `7 + 5`,
`'abc'` -> `'ab' + 'c'`). Integer arithmetic and string concatenation are exact."""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from transforms._analysis import ModuleInfo, in_function, keep_parens, required_precedence, wrap
from transforms._base import Transform

_DECIMAL = re.compile(r"^(0|[1-9][0-9]*)$")


def _plain_string(node: cst.SimpleString) -> tuple[str, str] | None:
    """(quote, content) of a one-line string literal without prefix or backslashes."""
    value = node.value
    if value[:1] not in ("'", '"') or value[:3] in ('"""', "'''"):
        return None
    content = value[1:-1]
    if "\\" in content or "\n" in content:
        return None
    return value[0], content


def _excluded(node: cst.CSTNode, info: ModuleInfo) -> bool:
    """Literals in f-strings, implicit concatenations, annotations, decorators, docstrings."""
    parent = info.parent(node)
    if isinstance(parent, cst.ConcatenatedString | cst.Expr):
        return True
    return any(
        isinstance(a, cst.FormattedString | cst.Annotation | cst.Decorator | cst.MatchPattern)
        for a in info.ancestors(node)
    )


def _divisors(n: int) -> list[int]:
    return [d for d in range(2, min(n, 10_000)) if d * d <= n and n % d == 0]


class ConstantUnfold(Transform):
    """Replace one integer or string literal by an equivalent expression."""

    name = "constant_unfold"
    kind = "equivalent"
    keeps_lines = True
    family = "distractor"
    description = "replace an integer or string literal by arithmetic or concatenation computing it"

    replacement: cst.BaseExpression

    def find_sites(self, info: ModuleInfo) -> list[cst.BaseExpression]:
        """Integer and string literals that can be unfolded."""
        candidates: list[cst.BaseExpression] = []
        for node in info.nodes:
            if isinstance(node, cst.Integer):
                if not _DECIMAL.match(node.value):
                    continue
            elif isinstance(node, cst.SimpleString):
                plain = _plain_string(node)
                if plain is None or len(plain[1]) < 2:
                    continue
            else:
                continue
            if in_function(node, info) and not _excluded(node, info):
                candidates.append(node)
        return candidates

    def take_site(self, site: cst.BaseExpression, info: ModuleInfo) -> bool:
        """Build the unfolded form of the picked literal."""
        self.replacement = wrap(self._unfold(site), required_precedence(site, info))
        return True

    def _unfold(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, cst.SimpleString):
            plain = _plain_string(node)
            assert plain is not None
            quote, content = plain
            cut = self.rng.randint(1, len(content) - 1)
            return cst.BinaryOperation(
                left=cst.SimpleString(quote + content[:cut] + quote),
                operator=cst.Add(),
                right=cst.SimpleString(quote + content[cut:] + quote),
            )
        assert isinstance(node, cst.Integer)
        n = int(node.value)
        forms = ["sub"]
        if n >= 2:
            forms.append("add")
        if _divisors(n):
            forms.append("mul")
        if 1 <= n <= 10_000:
            forms.append("div")
        form = self.rng.choice(forms)
        if form == "add":
            a = self.rng.randint(1, n - 1)
            left, op, right = a, cst.Add(), n - a
        elif form == "mul":
            a = self.rng.choice(_divisors(n))
            left, op, right = a, cst.Multiply(), n // a  # type: ignore[assignment]
        elif form == "div":
            b = self.rng.randint(2, 5)
            left, op, right = n * b, cst.FloorDivide(), b  # type: ignore[assignment]
        else:
            b = self.rng.randint(1, 9)
            left, op, right = n + b, cst.Subtract(), b  # type: ignore[assignment]
        return cst.BinaryOperation(
            left=cst.Integer(str(left)), operator=op, right=cst.Integer(str(right))
        )

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Swap in the unfolded expression."""
        if self.at_site(original_node):
            return keep_parens(result, self.replacement)
        return result


TRANSFORMS: tuple[type[Transform], ...] = (ConstantUnfold,)
