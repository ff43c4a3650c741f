"""One parse of a code for every probe module that reads its syntax (line facts, static
facts, the guess rules' indexes, call sites): a variant's code is read by all of them."""

from __future__ import annotations

import ast
import re
from functools import lru_cache


@lru_cache(maxsize=256)
def parsed(code: str) -> ast.Module:
    """`ast.parse(code)`, shared (cached: never change the tree).

    Raises:
        SyntaxError: the code does not parse (and whatever else `ast.parse` raises).
    """
    return ast.parse(code)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
"""A line as the parser splits source (`\\r\\n`, `\\r` or `\\n` ends one; a form feed does
not), with its end."""


@lru_cache(maxsize=256)
def _encoded_lines(code: str) -> tuple[bytes, ...]:
    return tuple(line.encode() for line in _LINE.findall(code))


def segment(code: str, node: ast.AST) -> str | None:
    """`ast.get_source_segment(code, node)`, with the code split into lines once per code
    (the standard one splits the whole code again for every node it is asked about)."""
    try:
        if node.end_lineno is None or node.end_col_offset is None:  # type: ignore[attr-defined]
            return None
        first = node.lineno - 1  # type: ignore[attr-defined]
        last = node.end_lineno - 1  # type: ignore[attr-defined]
        start = node.col_offset  # type: ignore[attr-defined]
        end = node.end_col_offset  # type: ignore[attr-defined]
    except AttributeError:
        return None
    lines = _encoded_lines(code)
    if first == last:
        return lines[first][start:end].decode()
    middle = [line.decode() for line in lines[first + 1 : last]]
    return "".join([lines[first][start:].decode(), *middle, lines[last][:end].decode()])
