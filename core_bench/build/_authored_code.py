"""Reading code out of a model's answer: by parsing, never by running it.

The answer is hostile text. It is bounded in size; `<think>` blocks are skipped; the code is
the last fenced block (```python or ```) that parses and defines the entry; top-level
statements other than imports, definitions and assignments (a test print, an `if __name__`
block) are dropped, so that running the module defines the function and does nothing else;
the result must compile. Nothing here executes it: that happens only in the sandbox.
"""

from __future__ import annotations

import ast
import re

MAX_ANSWER_CHARS = 100_000
"""Longer answers are rejected unread."""

MAX_CODE_CHARS = 20_000
"""Longer code blocks are not parsed (deeply nested text can exhaust the parser)."""

_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL)
_FENCE = re.compile(r"^[ \t]*```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)^[ \t]*```", re.DOTALL | re.M)
_KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


class Rejected(Exception):
    """The answer holds no usable code.

    Attributes:
        key: a short reason for counts ("no_code_block", "does_not_parse", ...).
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def entry_name(entry: str) -> str:
    """The top-level name a problem's entry needs: "f" for "f", "Solution" for
    "Solution().solve"."""
    return entry.split(".", 1)[0].split("(", 1)[0]


def extract_code(answer: str, entry: str) -> str:
    """The implementation in a model's answer.

    Args:
        answer: the model's raw text.
        entry: the problem's entry ("f", or a method expression such as "Solution().solve").

    Returns:
        The code: the top-level imports, definitions and assignments of the chosen block.

    Raises:
        Rejected: no block, none that parses, none that defines the entry, or code that does
            not compile; `key` says which.
    """
    if len(answer) > MAX_ANSWER_CHARS:
        raise Rejected("too_long", f"answer of {len(answer)} characters")
    text = _THINK.sub("", answer)
    blocks = [
        body
        for language, body in _FENCE.findall(text)
        if language.lower() in ("", "python", "py", "python3")
    ]
    if not blocks:
        raise Rejected("no_code_block", "no ```python fenced block in the answer")
    name = entry_name(entry)
    problem = Rejected("does_not_parse", "no code block parses")
    for body in reversed(blocks):
        if len(body) > MAX_CODE_CHARS:
            problem = Rejected("too_long", f"code block of {len(body)} characters")
            continue
        try:
            tree = ast.parse(body)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        if name not in defined:
            problem = Rejected("no_entry_function", f"the code defines no {name!r}")
            continue
        code = _definitions_only(body, tree)
        try:
            compile(code, "<authored>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise Rejected("does_not_compile", f"{type(exc).__name__}: {exc}") from None
        return code
    raise problem


def _definitions_only(source: str, tree: ast.Module) -> str:
    """`source` without its top-level statements that are not imports, definitions or
    assignments, keeping the kept ones' text (comments inside them included) as written."""
    lines = source.splitlines()
    kept: list[str] = []
    for node in tree.body:
        if not isinstance(node, _KEPT):
            continue
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        last = node.end_lineno or node.lineno
        if kept:
            kept.append("")
        kept.extend(lines[first - 1 : last])
    return "\n".join(kept) + "\n"
