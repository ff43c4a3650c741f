"""Code metrics for variants: cyclomatic complexity and token 1-gram Jaccard similarity.

Cyclomatic complexity (McCabe) is computed over the whole module as
``1 + number of decision points``, where each of these counts as one decision point:

- an ``if`` statement, each ``elif`` (an ``elif`` is a nested ``if`` in the AST);
- a ``for``/``async for`` or ``while`` loop (its ``else`` clause adds nothing: it is the
  fall-through edge of the loop test already counted);
- an ``except`` handler (``try``, ``else`` and ``finally`` add nothing);
- each operand of an ``and``/``or`` after the first (``a and b and c`` counts two);
- each ``for`` and each ``if`` of a comprehension or generator expression;
- a conditional expression ``x if c else y``;
- an ``assert`` (a hidden ``if not c: raise``);
- each ``case`` of a ``match`` except an unguarded wildcard ``case _:`` (that is the
  ``else`` of the match), and each guarded case once whether or not it is a wildcard.

Functions, lambdas and classes add nothing by themselves: the measure is one number for the
module, so two functions with one ``if`` each give 3, not 2 + 2.

Tokens are the lexical tokens of Python's ``tokenize``, without the layout tokens (NEWLINE,
NL, INDENT, DEDENT, ENCODING, ENDMARKER), which only say how the text is laid out. Comments are
kept and split into words (``#`` followed by each whitespace-separated word): a comment is text
a model reads, and a variant that adds, removes or rewords comments does read differently, so
its similarity to the original should fall. Splitting into words keeps one long comment from
weighing as one rare token. Jaccard similarity is that of the two token sets (1-grams), as
CoRE measures surface similarity between a program and its variants.

`normalized_tokens` replaces every identifier a program chooses (a name that is not a keyword,
a builtin or an attribute) by ``ID`` and drops comments, so `normalized_jaccard` sees
structure only: a renaming alone scores 1.0. `cosmetic_only` says whether two sources differ
only in names, comments and layout.
"""

from __future__ import annotations

import ast
import builtins
import io
import keyword
import re
import tokenize
from collections import OrderedDict
from collections.abc import Iterator

__all__ = [
    "cosmetic_only",
    "cyclomatic_complexity",
    "jaccard",
    "normalized_jaccard",
    "normalized_tokens",
    "tokens",
]

_FIXED_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))

_LAYOUT = frozenset(
    {
        tokenize.NEWLINE,
        tokenize.NL,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENCODING,
        tokenize.ENDMARKER,
    }
)
_FALLBACK_TOKEN = re.compile(r"\w+|[^\w\s]")
_FSTRING_START: int = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END: int = getattr(tokenize, "FSTRING_END", -1)


def cyclomatic_complexity(code: str) -> int:
    """McCabe cyclomatic complexity of a module: 1 + its decision points.

    The rule (which node counts how much) is in the module docstring.

    Args:
        code: Python source of a module.

    Returns:
        The complexity, at least 1.

    Raises:
        SyntaxError: `code` does not parse.
    """
    tree = ast.parse(code)
    return 1 + sum(_decision_points(node) for node in ast.walk(tree))


def _decision_points(node: ast.AST) -> int:
    if isinstance(node, ast.If | ast.For | ast.AsyncFor | ast.While | ast.IfExp | ast.Assert):
        return 1
    if isinstance(node, ast.ExceptHandler):
        return 1
    if isinstance(node, ast.BoolOp):
        return len(node.values) - 1
    if isinstance(node, ast.comprehension):
        return 1 + len(node.ifs)
    if isinstance(node, ast.match_case):
        return 0 if _is_plain_wildcard(node) else 1
    return 0


def _is_plain_wildcard(case: ast.match_case) -> bool:
    pattern = case.pattern
    return case.guard is None and isinstance(pattern, ast.MatchAs) and pattern.pattern is None


def tokens(code: str) -> list[str]:
    """The tokens of a Python source, in order, as compared by `jaccard`.

    Layout tokens are dropped; a comment becomes ``#`` followed by its words. Source that
    ``tokenize`` rejects (e.g. an unterminated string) falls back to words and single
    punctuation characters, so the metric is defined for any text.

    Args:
        code: Python source.

    Returns:
        The token strings.
    """
    try:
        return _python_tokens(code)
    except (tokenize.TokenError, SyntaxError):
        return _FALLBACK_TOKEN.findall(code)


_TOKENIZED: OrderedDict[str, tuple[tuple[tokenize.TokenInfo, ...], Exception | None]] = (
    OrderedDict()
)
_TOKENIZED_LIMIT = 64


def tokenized(code: str) -> tuple[tuple[tokenize.TokenInfo, ...], Exception | None]:
    """`tokenize.generate_tokens` on `code`: the tokens it yields, and the `TokenError` or
    `SyntaxError` that stopped it (None when it finished).

    The metrics and the artifact counts all tokenize each candidate variant; the latest few
    codes are kept so that one tokenizing serves them all. Reading the tokens, then raising
    the error, is what iterating `generate_tokens` does.
    """
    found = _TOKENIZED.get(code)
    if found is not None:
        _TOKENIZED.move_to_end(code)
        return found
    out: list[tokenize.TokenInfo] = []
    error: Exception | None = None
    try:
        out.extend(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        error = exc
    found = _TOKENIZED[code] = (tuple(out), error)
    while len(_TOKENIZED) > _TOKENIZED_LIMIT:
        _TOKENIZED.popitem(last=False)
    return found


def generated_tokens(code: str) -> Iterator[tokenize.TokenInfo]:
    """What iterating `tokenize.generate_tokens` on `code` gives (see `tokenized`)."""
    found, error = tokenized(code)
    yield from found
    if error is not None:
        raise error


def _python_tokens(code: str) -> list[str]:
    lines = code.splitlines(keepends=True)
    out: list[str] = []
    fstring_depth = 0
    fstring_start = (0, 0)
    for tok in generated_tokens(code):
        # Python 3.12 splits f-strings into parts; join them back so that a source has the
        # same tokens on every version (3.11 gives one STRING token per f-string).
        if tok.type == _FSTRING_START:
            if fstring_depth == 0:
                fstring_start = tok.start
            fstring_depth += 1
            continue
        if fstring_depth:
            if tok.type == _FSTRING_END:
                fstring_depth -= 1
                if fstring_depth == 0:
                    out.append(_source_span(lines, fstring_start, tok.end))
            continue
        if tok.type in _LAYOUT:
            continue
        if tok.type == tokenize.COMMENT:
            out.append("#")
            out.extend(tok.string[1:].split())
        else:
            out.append(tok.string)
    return out


def _source_span(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The text between two tokenize positions (1-based rows, 0-based columns)."""
    (row_a, col_a), (row_b, col_b) = start, end
    if row_a == row_b:
        return lines[row_a - 1][col_a:col_b]
    middle = "".join(lines[row_a : row_b - 1])
    return lines[row_a - 1][col_a:] + middle + lines[row_b - 1][:col_b]


def jaccard(a: str, b: str) -> float:
    """Token 1-gram Jaccard similarity of two sources: |A & B| / |A | B| over token sets.

    Args:
        a: One Python source.
        b: The other.

    Returns:
        A number in [0, 1]; 1.0 when both have the same token set (including both empty).
    """
    set_a, set_b = set(tokens(a)), set(tokens(b))
    union = set_a | set_b
    if not union:
        return 1.0
    return len(set_a & set_b) / len(union)


def normalized_tokens(code: str) -> list[str]:
    """The tokens of `code` (see `tokens`) without comments and with every chosen identifier
    (a name not a keyword, builtin or attribute) replaced by ``ID``.

    Args:
        code: Python source.

    Returns:
        The token strings.
    """
    out: list[str] = []
    for token in tokens(_comment_free(code)):
        is_name = token.isidentifier() and token not in _FIXED_NAMES
        out.append("ID" if is_name and (not out or out[-1] != ".") else token)
    return out


def _comment_free(code: str) -> str:
    try:
        parts = [tok for tok in generated_tokens(code) if tok.type != tokenize.COMMENT]
        return tokenize.untokenize(parts)
    except (tokenize.TokenError, SyntaxError):
        return code


def normalized_jaccard(a: str, b: str) -> float:
    """Token 1-gram Jaccard similarity of two sources with identifiers normalised and
    comments dropped (`normalized_tokens`): how much the structure, not the naming, differs.

    Args:
        a: One Python source.
        b: The other.

    Returns:
        A number in [0, 1].
    """
    set_a, set_b = set(normalized_tokens(a)), set(normalized_tokens(b))
    union = set_a | set_b
    return len(set_a & set_b) / len(union) if union else 1.0


def cosmetic_only(a: str, b: str) -> bool:
    """Whether two sources differ only in identifiers, comments and layout.

    Args:
        a: One Python source.
        b: The other.

    Returns:
        True when their normalised token sequences are equal.
    """
    return normalized_tokens(a) == normalized_tokens(b)
