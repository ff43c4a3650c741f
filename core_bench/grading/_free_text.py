"""Answers expected as free text: questions imported as written (CoRE's) whose answer is not a
Python literal ("else", "f", "i=0, j=1, k=3").

The value grader compares such an expected answer as text with what the extractor read; but
the extractor reads values, so a right answer written as the expected text ("i=0, j=1, k=3"
read as "0") or as a quoted string ("'f'" for the text f) would be judged wrong. Here the
answer tag's whole text, and the extracted answer, are compared with the expected text after
collapsing white space and dropping one pair of surrounding quotes or backticks and a final
full stop; case is kept (it is part of a string's value).
"""

from __future__ import annotations

import re

from tracer import read_literal

MAX_TAG_CHARS = 4_000
"""Longer answer tags are not compared (an expected free-text answer is a line or two)."""

_TAG = re.compile(r"\[ANSWER\](.*?)(?:\[/ANSWER\]|\Z)", re.DOTALL)
_QUOTES = ("'", '"', "`")


def is_free_text(expected: str) -> bool:
    """Whether an expected answer is free text rather than a Python literal."""
    return not read_literal(expected)[0]


def normalised(text: str) -> str:
    """`text` as compared: white space collapsed, one pair of surrounding quotes or backticks
    and a final full stop dropped."""
    flat = " ".join(text.split())
    if flat.endswith("."):
        flat = flat[:-1].rstrip()
    if len(flat) >= 2 and flat[0] == flat[-1] and flat[0] in _QUOTES:
        flat = flat[1:-1].strip()
    return flat


def matches_free_text(response: str, extracted: str | None, expected: str) -> bool:
    """Whether the response's first answer tag, or the extracted answer, says `expected`."""
    want = normalised(expected)
    if not want:
        return False
    tag = _TAG.search(response)
    candidates = [extracted or ""]
    if tag is not None and len(tag.group(1)) <= MAX_TAG_CHARS:
        candidates.append(tag.group(1))
    return any(normalised(c) == want for c in candidates)
