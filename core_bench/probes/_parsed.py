"""One parse of a code for every probe module that reads its syntax (line facts, static
facts, the guess rules' indexes, call sites): a variant's code is read by all of them."""

from __future__ import annotations

import ast
from functools import lru_cache


@lru_cache(maxsize=256)
def parsed(code: str) -> ast.Module:
    """`ast.parse(code)`, shared (cached: never change the tree).

    Raises:
        SyntaxError: the code does not parse (and whatever else `ast.parse` raises).
    """
    return ast.parse(code)
