"""Reading a model's answer out of its response, by parsing rather than string splitting.

Where an answer can be (DESIGN.md, "Runs"), in this order:

1. An answer tag: the first `[ANSWER]` (CRUXEval's form) or `<answer>`, up to the next tag
   of the prompt format: its closing tag, or `[PYTHON]`, `[THOUGHT]`, a `Question:` line...
   (a model that is not stopped goes on with more few-shot text). A closing tag before any
   opening one closes an answer whose opening tag ended the prompt (`True\n[/ANSWER]`): the
   text before it, from the last other tag. What the tag holds is its answer even when it
   does not parse (it is then graded "unparseable"); an empty tag, or one holding code (a
   `def`, `return` lines, a numbered listing), is passed over.
2. An answer written before a `[THOUGHT]` or `[TRACE]` block (a direct answer, then reasons).
3. Outside `[THOUGHT]`/`[TRACE]` blocks, the latest of: a fenced code block, an
   `assert f(...) == X` statement in prose, and an explicit answer line ("Final answer: X",
   "Answer: X", "The answer is X", "Output: X", `\\boxed{X}`). In a fence, a bare value
   counts only when it is a literal (for input tasks a call), and an assignment only to a
   name such as `output` or `result` (for probes, a lone `x = ...`): fences in reasoning show
   any code. For output tasks, asserts on the task's `call` are preferred to others.
4. A weaker answer line, from the end ("the output of f(...) is X", "f(...) returns X",
   "`count` is 3", "..., so False", "line 3 runs 4 times"), only when what follows reads as
   a value.
5. The last line that reads as a value on its own, or a value followed by a reason ("5,
   because ..."); for probes a leading yes/no; for input tasks a call of the function in a
   sentence (for full_trace tasks: the latest list of pairs anywhere in the text, also
   reported as "last_line").
6. Inside `[THOUGHT]` blocks (reasoning cut before its answer), only an explicit answer line.

Code is never an answer: lines of code (a `def`, a `return` or other statement line, a
`# comment`, a numbered listing line `10 |     return None`) and the bodies of fences are
blanked out before prose is read, so a value that code mentions is not taken. A response
cut at the token limit (`truncated=True`) gives only explicit answers outside its tags.

For probe tasks a bare yes/true/no/false/none/null reads as True/False/None and a bare
`return` as 'return' (next_line's answer when the frame returns).

Reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`) are removed first; an unclosed one
runs to the end, and a closing tag without an opening one (the opening tag was part of the
prompt) hides everything before it.

Code is read with `ast`, so a `#` inside a quoted string, `==` inside a string, or a trailing
comment never cut an answer; an assert is read whichever side of `==` the call is on. For
output and probe tasks the answer is the value's source text; for input tasks it is the call
expression "f(...)" (bare arguments are wrapped in a call to the task's function, `print(f(x))`
is unwrapped, and a call of another function, `f_with_test()`, is no answer); for full_trace
tasks it is the text of the list of `[line, {name: value}]` pairs.
"""

from __future__ import annotations

import ast
import io
import json
import re
import textwrap
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from core_bench.grading._trace import parse_trace
from core_bench.schemas import TaskKind
from tracer import Call, TraceError, parse_call, read_literal

TASKS: tuple[TaskKind, ...] = get_args(TaskKind)
"""Task kinds `extract_answer` knows: every kind of `schemas.TaskKind`."""

_MAX_CUTS = 80
"""Most prefixes tried when reading the leading value of a line (bounds the work per line)."""

_MAX_PREFIX_CHARS = 400
"""Longest start of a line searched for a leading value followed by prose."""

_MAX_MATCHES_PER_LINE = 12
"""Most places in one line where a weak answer pattern is tried."""

_MAX_TRACE_STARTS = 30
_MAX_TRACE_ENDS = 60
"""Bounds on the places a full trace is looked for in prose."""

_MAX_ASSERT_LINES = 40
"""Most lines an assert statement in prose may span (a multi-line literal)."""


@dataclass(frozen=True)
class Extracted:
    """An answer read from a response.

    Attributes:
        answer: the answer's text (a value's source text, or for input tasks a call
            expression), or None when nothing could be read.
        how: where it was found: "answer_tag", "assert", "fence", "final_line",
            "last_line" or "none".
    """

    answer: str | None
    how: str


@dataclass(frozen=True)
class _Context:
    task: str
    entry: str
    call: ast.expr | None


@dataclass(frozen=True)
class _Found:
    answer: str
    end: int
    how: str
    matches_call: bool = False


def extract_answer(
    text: str, *, task: str, call: str | None = None, truncated: bool = False
) -> Extracted:
    """Read the answer out of a model's response.

    Args:
        text: the raw response.
        task: "output", "input", "probe" or "full_trace".
        call: the call the task asks about, e.g. "f([1, 2])" (for output tasks, an assert on
            this call is preferred over asserts on other calls); for input tasks any text
            naming the function, e.g. "f(??)", whose name wraps bare arguments (default "f").
        truncated: the response was cut at the token limit: its last words are not a
            conclusion, so outside an answer tag only explicit answers count (an answer
            line, an assert on the call), not values that reasoning mentions.

    Returns:
        The answer and where it was found; `Extracted(None, "none")` when there is none.

    Raises:
        ValueError: `task` is not one of `TASKS`.
    """
    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}, got {task!r}")
    ctx = _Context(task, _entry_name(call), _parse_call(call))
    body = _strip_reasoning(text.replace("\r\n", "\n").replace("\r", "\n"))
    # An answer tag mentioned inside finished reasoning ("I will put it in [ANSWER] tags")
    # is not the answer: look for the tag outside closed [THOUGHT] blocks first.
    outside_thoughts = _CLOSED_THOUGHT.sub(lambda m: " " * len(m.group(0)), body)
    tagged = _answer_region(outside_thoughts)
    if tagged is None:
        tagged = _answer_region(body)
    if tagged is not None and not _is_code(tagged):
        answer = _read_block(tagged, ctx, tagged=True)
        if answer is None:
            answer = _from_prose(tagged, ctx)
        if answer is None:
            answer = _tidy(tagged) or None
        if answer is not None:
            return _finish(answer, "answer_tag", ctx)
    in_json = _json_answer(body)
    if in_json is not None:
        return _finish(in_json, "answer_tag", ctx)
    before = _before_thought(body)
    if before is not None:  # an answer given first, then reasoning about it
        found = _from_prose_found(before, ctx)
        if found is not None:
            return _finish(found.answer, found.how, ctx)
    outside, inside = _split_thoughts(body)
    found = _explicit_found(outside, ctx) if truncated else _from_prose_found(outside, ctx)
    if found is None and inside:
        # Reasoning cut before its answer (the token limit): only an explicit statement
        # in it is an answer, not an intermediate value it mentions.
        found = _explicit_found(inside, ctx)
    if found is not None:
        return _finish(found.answer, found.how, ctx)
    return Extracted(None, "none")


def _json_answer(text: str) -> str | None:
    """The value of a response that is a JSON object with an "answer" key: {"answer": 7}."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")) or len(stripped) > 100_000:
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    for key, value in data.items():
        if isinstance(key, str) and key.lower() in ("answer", "output", "final_answer"):
            return value if isinstance(value, str) and _looks_like_code(value) else repr(value)
    return None


def _looks_like_code(value: str) -> bool:
    """Whether a JSON string value is itself source text ("f(3)", "[1, 2]"), not a str."""
    try:
        ast.parse(value.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return not value.strip().isidentifier()


def _finish(answer: str | None, how: str, ctx: _Context) -> Extracted:
    if answer is None:
        return Extracted(None, "none")
    answer = answer.strip()
    if ctx.task == "input" and _calls_another(answer, ctx):
        return Extracted(None, "none")  # `f_with_test()` is no prediction of f
    if ctx.task == "probe":
        answer = _PROBE_WORDS.get(answer.lower().rstrip("."), answer)
    return Extracted(answer, how)


_PROBE_WORDS = {
    "true": "True",
    "yes": "True",
    "false": "False",
    "no": "False",
    "none": "None",
    "null": "None",
    "return": "'return'",
}
"""Bare words a probe answer may be given as (branch/coverage questions, next_line's end)."""


# -- the text around answers --------------------------------------------------------------------

_REASONING_TAGS = "think|thinking|reasoning"
_REASONING_BLOCK = re.compile(rf"<({_REASONING_TAGS})>.*?</\1\s*>", re.S | re.I)
_REASONING_CLOSE = re.compile(rf"</(?:{_REASONING_TAGS})\s*>", re.I)
_REASONING_OPEN = re.compile(rf"<(?:{_REASONING_TAGS})>", re.I)


def _strip_reasoning(text: str) -> str:
    text = _REASONING_BLOCK.sub("\n", text)
    closes = list(_REASONING_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    opened = _REASONING_OPEN.search(text)
    if opened:
        text = text[: opened.start()]
    return text


_OPEN = re.compile(r"\[ANSWER\]|<answer>", re.I)
_CLOSE = re.compile(r"\[/ANSWER\]|</answer>", re.I)
_BOUNDARY = re.compile(
    r"\[/?(?:PYTHON|THOUGHT|TRACE|ANSWER)\]|</?answer>|^(?:Question|Call)\s*:", re.I | re.M
)
"""Tags that end an answer: its closing tag, or the start of continued few-shot material (a
model that is not stopped goes on with `[PYTHON]` and the next example)."""


def _answer_region(text: str) -> str | None:
    """The text of the answer tag: after the first `[ANSWER]` up to the next tag (its
    closing tag, or more few-shot text); or, when a closing tag comes before any opening one
    (the opening tag ended the prompt), the text before it since the last other tag."""
    opened = _OPEN.search(text)
    closed = _CLOSE.search(text)
    if closed is not None and (opened is None or closed.start() < opened.start()):
        start = 0
        for tag in _BOUNDARY.finditer(text, 0, closed.start()):
            start = tag.end()
        region = text[start : closed.start()]
        if region.strip():
            return region
    if opened is None:
        return None
    end = _BOUNDARY.search(text, opened.end())
    return text[opened.end() : end.start() if end is not None else len(text)]


_THOUGHT_OPEN = re.compile(r"\[(THOUGHT|TRACE)\]", re.I)
_CLOSED_THOUGHT = re.compile(r"\[(THOUGHT|TRACE)\].*?\[/\1\]", re.S | re.I)
_THOUGHT_BLOCK = re.compile(r"\[(THOUGHT|TRACE)\](.*?)(?:\[/\1\]|\Z)", re.S | re.I)
_THOUGHT_CLOSE = re.compile(r"\[/(?:THOUGHT|TRACE)\]", re.I)


def _before_thought(text: str) -> str | None:
    """The text before a first `[THOUGHT]`/`[TRACE]` block, when there is any (a direct
    answer followed by reasoning)."""
    first = _THOUGHT_OPEN.search(text)
    if first is None:
        return None
    head = text[: first.start()]
    if not head.strip() or _THOUGHT_CLOSE.search(head):
        return None
    return head


def _split_thoughts(text: str) -> tuple[str, str]:
    """(the text outside `[THOUGHT]`/`[TRACE]` blocks, the text inside them). A block left
    open runs to the end; a closing tag without an opening one (the opening tag ended the
    prompt) closes a block from the start."""
    inside: list[str] = []
    closes = list(_THOUGHT_CLOSE.finditer(text))
    opens = list(_THOUGHT_OPEN.finditer(text))
    if closes and (not opens or closes[0].start() < opens[0].start()):
        inside.append(text[: closes[0].start()])
        text = text[closes[0].end() :]

    def keep(match: re.Match[str]) -> str:
        inside.append(match.group(2))
        return "\n"

    outside = _THOUGHT_BLOCK.sub(keep, text)
    return outside, "\n".join(inside)


_FENCE = re.compile(r"```[ \t]*[\w+#.-]*[^\n`]*\n(?P<body>.*?)(?:```|\Z)", re.S)
_INLINE_FENCE = re.compile(r"```[ \t]*(?:python|py)?[ \t]+(?P<body>[^\n]*?)```", re.S)


_LISTING = re.compile(r"^\s*(?:line\s+)?\d+\s*\|", re.I)
"""A numbered listing line (`10 |     return None`): code, as the prompts show it."""
_LISTING_PREFIX = re.compile(r"^\s*(?:line\s+)?\d+\s*[:.)]?\s+", re.I)
_CODE_LINE = re.compile(
    r"^(?:def\s+\w+\s*\(|class\s+\w+|async\s+def\b|return\b(?=\s*\S)|yield\b|raise\b|lambda\b"
    r"|(?:for|while|if|elif|with|try|except|finally|else)\b[^\n]*:\s*(?:#[^\n]*)?$"
    r"|import\s+\w|from\s+[\w.]+\s+import\b|(?:pass|break|continue)\s*$|#\s*[a-z_])"
)
"""The start of a line of code (keywords are lower case: prose capitalises its first word)."""
_DEF = re.compile(r"^\s*(?:\d+\s*\|\s*)?(?:async\s+)?def\s+\w+\s*\(", re.M)


_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_STATEMENT = re.compile(r"(?:^|[:;]\s*)(?:return|yield|raise)\b|\b(?:if|for|while)\b[^`]*:")


def _is_code_line(line: str) -> bool:
    """Whether a line is code, not a statement of an answer: a numbered listing line or a
    line that starts with a statement keyword (`def`, `return`, `for ...:`, ...)."""
    if _LISTING.match(line):
        return True
    stripped = line.strip().lstrip("`").strip()
    if _CODE_LINE.match(stripped):
        return True
    unnumbered = _LISTING_PREFIX.sub("", line, count=1).strip()
    return unnumbered != stripped and bool(_CODE_LINE.match(unnumbered))


def _is_code(text: str) -> bool:
    """Whether `text` is code rather than an answer: it defines a function, or every line
    of it is code."""
    if _DEF.search(text):
        return True
    lines = [line for line in text.split("\n") if line.strip()]
    return bool(lines) and all(_is_code_line(line) for line in lines)


def _mask_code(text: str) -> str:
    """`text` with fenced code bodies and lines of code blanked out (same length and line
    breaks), for reading answers out of prose: a value in code is not a stated answer."""
    chars = list(text)
    for match in _FENCE.finditer(text):
        start, end = match.span("body")
        for index in range(start, end):
            if chars[index] != "\n":
                chars[index] = " "
    for match in _INLINE_CODE.finditer(text):
        if _is_code_line(match.group(1)) or _STATEMENT.search(match.group(1)):
            for index in range(match.start(), match.end()):
                chars[index] = " "
    masked = "".join(chars)
    lines = masked.split("\n")
    return "\n".join(" " * len(line) if _is_code_line(line) else line for line in lines)


def _tidy(value: str) -> str:
    """A value as written in prose: without surrounding markdown, quotes of code, and space."""
    value = value.strip()
    for _ in range(3):
        before = value
        if value.startswith("**") and value.endswith("**") and len(value) > 4:
            value = value[2:-2].strip()
        value = value.strip("*").strip()
        if value[-2:-1] in ("`", "*") and value[-1:] in tuple(".,;:!"):
            value = value[:-1].rstrip()  # "`'abc'`." ends a sentence
        if len(value) > 1 and value.startswith("`") and value.endswith("`"):
            value = value.strip("`").strip()
        elif value.startswith("`") and not value.startswith("```") and "`" in value[1:]:
            value = value[1 : value.index("`", 1)].strip()  # "`[1, 2]` since ...": the span
        if value.startswith("$") and value.endswith("$") and len(value) > 1:
            value = value.strip("$").strip()
        boxed = _boxed(value)
        if boxed is not None and value.startswith("\\boxed"):
            value = boxed.strip()
        if value == before:
            break
    return value


def _boxed(text: str) -> str | None:
    """The content of the last `\\boxed{...}` in `text`, braces matched."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth = 0
    begin = start + len("\\boxed{")
    for index in range(begin - 1, len(text)):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[begin:index]
    return None


# -- reading code ---------------------------------------------------------------------------------


def _entry_name(call: str | None) -> str:
    """The name of the task's function: the callee of the call as tracer's `Call` reads it,
    or, for text that is no expression ("f(??)"), the dotted name its tokens start with before
    a "(" (comments skipped); "f" when there is none. A name inside a string or a comment is
    never taken for it."""
    if not call:
        return "f"
    try:
        func = Call.read(call).func
    except (TraceError, RecursionError, MemoryError):
        func = None
    if func is not None and _DOTTED.fullmatch(func):
        return func
    return _leading_callee(call) or "f"


_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")

_SKIPPED_TOKENS = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
)


def _leading_callee(text: str) -> str | None:
    """The dotted name the tokens of `text` start with, when a "(" follows it."""
    parts: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in _SKIPPED_TOKENS:
                continue
            if token.type == tokenize.NAME and (not parts or parts[-1] == "."):
                parts.append(token.string)
            elif token.string == "." and parts and parts[-1] != ".":
                parts.append(".")
            else:
                done = token.string == "(" and parts and parts[-1] != "."
                return "".join(parts) if done else None
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _parse_call(call: str | None) -> ast.expr | None:
    if not call:
        return None
    try:
        return parse_call(call)
    except (TraceError, ValueError, RecursionError, MemoryError):
        return None


def _parse_module(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _is_entry_call(node: ast.expr, ctx: _Context) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else None
    return name == ctx.entry or (ctx.call is not None and _same_call(node, ctx))


def _same_call(node: ast.expr, ctx: _Context) -> bool:
    return ctx.call is not None and ast.dump(node) == ast.dump(ctx.call)


@dataclass(frozen=True)
class _Reading:
    answer: str
    matches_call: bool = False
    stated: bool = True
    """From an assert or comparison (an answer however it reads), not a bare value."""


def _from_compare(node: ast.Compare, code: str, ctx: _Context) -> _Reading | None:
    """The answer in `A == B` (or `A is B`): the side opposite the call, or for input tasks
    the call itself."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], ast.Eq | ast.Is):
        return None
    left, right = node.left, node.comparators[0]
    if _is_entry_call(right, ctx) and not _is_entry_call(left, ctx):
        left, right = right, left
    if not _is_entry_call(left, ctx) and isinstance(right, ast.Call | ast.Name):
        left, right = right, left  # `assert X == y` in a probe answer: the value is X
    chosen = left if ctx.task == "input" else right
    if ctx.task == "input":
        call = _entry_call_of(chosen, ctx)
        if call is None:
            return None
        chosen = call
    segment = ast.get_source_segment(code, chosen)
    if segment is None:
        return None
    return _Reading(segment, _same_call(left, ctx))


def _entry_call_of(node: ast.expr, ctx: _Context) -> ast.Call | None:
    """`node` when it calls the task's function, or the call inside `print(...)`; else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "print"
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    if isinstance(node, ast.Call) and _call_name(node) == ctx.entry:
        return node
    return None


def _call_name(node: ast.Call) -> str | None:
    try:
        return ast.unparse(node.func)
    except (ValueError, RecursionError):
        return None


_ANSWER_NAMES = frozenset({"output", "result", "answer", "ans", "res", "expected", "returned"})
"""Names whose assignment states an output (`output = [1, 2]`); other assignments in a code
block are more likely intermediate states."""


def _from_statement(stmt: ast.stmt, code: str, ctx: _Context, only: bool) -> _Reading | None:
    if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare):
        return _from_compare(stmt.test, code, ctx)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Compare):
        return _from_compare(stmt.value, code, ctx)
    if isinstance(stmt, ast.Expr):
        return _from_expression(stmt.value, code, ctx)
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and ctx.task != "input"
        and not _is_entry_call(stmt.value, ctx)
        and ((ctx.task == "probe" and only) or stmt.targets[0].id.lower() in _ANSWER_NAMES)
    ):
        segment = ast.get_source_segment(code, stmt.value)
        return _Reading(segment, stated=False) if segment is not None else None
    return None


def _from_expression(node: ast.expr, code: str, ctx: _Context) -> _Reading | None:
    segment = ast.get_source_segment(code, node)
    if segment is None:
        return None
    if ctx.task == "input":
        if isinstance(node, ast.Call):
            call = _entry_call_of(node, ctx)
            if call is None:
                return None  # a call of another function (a test helper) is no prediction
            text = ast.get_source_segment(code, call)
            return _Reading(text, stated=False) if text is not None else None
        if not read_literal(f"({segment},)")[0]:
            return None  # only literal arguments are taken as bare arguments
        return _Reading(f"{ctx.entry}({segment})", stated=False)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
        return None
    return _Reading(segment, stated=False)


def _read_code(code: str, ctx: _Context) -> _Reading | None:
    """The answer a piece of code gives: its last assert or comparison, or a final bare
    expression or assignment."""
    tree = _parse_module(code)
    if tree is None or not tree.body:
        return None
    readings: list[_Reading] = []
    last = len(tree.body) - 1
    for index, stmt in enumerate(tree.body):
        reading = _from_statement(stmt, code, ctx, only=last == 0)
        if reading is not None and (reading.stated or index == last):
            readings.append(reading)
    if not readings:
        return None
    matching = [r for r in readings if r.matches_call]
    return (matching or readings)[-1]


def _leading_code(
    text: str, ctx: _Context, accept: Callable[[str], bool] | None = None
) -> _Reading | None:
    """The answer of the longest prefix of `text` that parses (and that `accept` takes), cut
    where prose may start (whitespace, a backtick); trailing punctuation of a prefix is
    dropped."""
    reading = _read_code(text, ctx)
    if reading is not None and (accept is None or accept(reading.answer)):
        return reading
    text = text[:_MAX_PREFIX_CHARS]
    cuts = [m.start() for m in re.finditer(r"[\s`]", text)] + [len(text)]
    for cut in reversed(cuts[-_MAX_CUTS:]):
        prefix = text[:cut].rstrip().rstrip(",.;:!?*`").rstrip()
        if prefix:
            reading = _read_code(prefix, ctx)
            if reading is not None and (accept is None or accept(reading.answer)):
                return reading
    return None


_PROMPT = re.compile(r"^\s*>>> ", re.M)


def _read_block(block: str, ctx: _Context, *, tagged: bool) -> str | None:
    """The answer inside an answer tag or a code fence, or None. A bare value (not stated in
    an assert or comparison) counts in a fence only when it reads as an answer (a literal, or
    for input tasks a call): a fence in reasoning may show any code."""
    inner = block
    fences = list(_FENCE.finditer(block)) or list(_INLINE_FENCE.finditer(block))
    if fences:
        inner = fences[-1].group("body")
    code = textwrap.dedent(inner).strip()
    if not code:
        return None
    if ctx.task == "full_trace":
        return _trace_literal(code)
    reading = _read_code(code, ctx)
    if reading is not None and (reading.stated or _acceptable(reading.answer, ctx)):
        return reading.answer
    last_resort = reading.answer if tagged and reading is not None else None
    prompts = list(_PROMPT.finditer(code))
    if prompts:  # a REPL transcript: the output after the last prompt
        after = code[prompts[-1].end() :].split("\n", 1)
        if len(after) == 2 and after[1].strip():
            return after[1].strip()
    found = _asserts(code, ctx)
    if found:
        return ([a for a in found if a.matches_call] or found)[-1].answer
    if "\n" not in code:
        leading = _leading_code(code, ctx, lambda answer: _acceptable(answer, ctx))
        if leading is not None:
            return leading.answer
    return last_resort


def _trace_literal(text: str) -> str | None:
    """The text of a non-empty list of `[line, {name: value}]` pairs (Python or JSON) in
    `text`: all of it, else the latest-starting run from a line that starts with "[" (cut at
    the furthest "]" that makes it read)."""
    starts = [m.start() for m in re.finditer(r"^[ \t]*\[", text, re.M)][-_MAX_TRACE_STARTS:]
    for candidate in [text] + [text[start:] for start in reversed(starts)]:
        stripped = candidate.strip().rstrip(".")
        if _reads_as_trace(stripped):
            return stripped
        end = stripped.rfind("]")
        for _ in range(_MAX_TRACE_ENDS):
            if end <= 0:
                break
            if _reads_as_trace(stripped[: end + 1]):
                return stripped[: end + 1]
            end = stripped.rfind("]", 0, end)
    return None


def _reads_as_trace(text: str) -> bool:
    return bool(parse_trace(text))


# -- prose -----------------------------------------------------------------------------------------

_ASSERT = re.compile(r"\bassert\b")


def _asserts(text: str, ctx: _Context) -> list[_Found]:
    """Every `assert A == B` statement in `text` that reads, with where it ends."""
    found: list[_Found] = []
    for match in _ASSERT.finditer(text):
        start = match.start()
        line_end = text.find("\n", start)
        stop = len(text) if line_end < 0 else line_end
        head = text[start:stop]
        if "==" not in head and " is " not in head and _open_brackets(head) <= 0:
            continue  # prose such as "we can assert that"
        reading = _leading_code(head, ctx)
        if reading is None and _open_brackets(text[start:stop]) > 0:  # a literal over lines
            for _ in range(_MAX_ASSERT_LINES):
                if stop >= len(text):
                    break
                following = text.find("\n", stop + 1)
                stop = len(text) if following < 0 else following
                if _open_brackets(text[start:stop]) <= 0:
                    reading = _read_code(textwrap.dedent(text[start:stop]), ctx)
                    break
        if reading is not None:
            found.append(_Found(reading.answer, stop, "assert", reading.matches_call))
    return found


def _open_brackets(text: str) -> int:
    """Brackets opened and not closed in `text` (strings not told apart: a cheap first test)."""
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


_OUTPUT_WORDS = r"output|result|return\s+value|returned\s+value|value"
_INPUT_WORDS = r"input|call|arguments?"


def _patterns(words: str) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    strong = [
        re.compile(r"final\s+answer\s*(?:is|would\s+be|will\s+be)?\s*[:：]?\s*(?P<v>.*)", re.I),
        re.compile(r"(?:^|[.!?]\s+)[\W_]*answer[\s*_]*[:：]\s*(?P<v>.*)", re.I),
        re.compile(r"\bthe\s+answer\s+is\s*[:：]?\s*(?P<v>.*)", re.I),
        re.compile(rf"^[\W_]*(?:final\s+)?(?:{words})[\s*_]*[:：]\s*(?P<v>.*)", re.I),
        re.compile(
            rf"\b(?:{words})\b(?:\s+of\s+.+?)?\s+(?:is|will\s+be)\s+therefore\s*(?P<v>.*)", re.I
        ),
    ]
    weak = [
        re.compile(
            rf"\b(?:{words})\b(?:\s+of\s+.+?)?\s+(?:is|will\s+be|would\s+be|should\s+be|"
            r"could\s+be|must\s+be|becomes)\s*[:：]?\s*(?P<v>.*)",
            re.I,
        ),
    ]
    if words == _OUTPUT_WORDS:
        weak.append(
            re.compile(
                r"\b(?:returns?|gives|evaluates\s+to|equals|is\s+equal\s+to)\s*[:：]?\s*(?P<v>.*)",
                re.I,
            )
        )
        # "`count` is 3", "x will be [1]": how a probe's variable is answered in a sentence
        weak.append(
            re.compile(
                r"(?:`[A-Za-z_][\w.\[\]'\"]*`|\b[A-Za-z_]\w*)\s+(?:is\s+now|is|will\s+be|"
                r"would\s+be|holds|becomes|ends\s+up\s+as|ends\s+up\s+being|has\s+the\s+value)"
                r"\s*[:：]?\s*(?P<v>.*)",
                re.I,
            )
        )
    return strong, weak


_OUTPUT_PATTERNS = _patterns(_OUTPUT_WORDS)
_INPUT_PATTERNS = _patterns(_INPUT_WORDS)


_LINE_WORD = re.compile(r"^(?:line|step)\s+(?=\d)", re.I)
_TYPE_WORDS = re.compile(
    r"^(?:the\s+|a\s+|an\s+)?(?:empty\s+)?(?:string|list|integer|int|number|value|str|"
    r"dict(?:ionary)?|tuple|set|boolean|bool|float)\s+(?=[\[({'\"\d-]|True|False|None)",
    re.I,
)
_CONCLUSION = re.compile(r"\b(?:so|therefore|thus|hence)[\s,:]+(?P<v>[^\s,;]+?)\s*[.!]?\s*$", re.I)
"""A sentence ending with its conclusion: "..., so False." (the value must be all of it)."""
_TIMES = re.compile(
    r"\b(?:runs?|ran|executes?|executed|is\s+(?:run|executed|entered)|happens|iterates?|loops?)"
    r"\s+(?P<v>\d+|once|twice)\s+times?\b|\b(?P<w>\d+)\s+times\b",
    re.I,
)


def _value_from_line(raw: str, ctx: _Context) -> str | None:
    """The value a phrase such as "'abc'." or "`[1, 2]`, since ..." states, if it reads."""
    value = _tidy(raw)
    if not value:
        return None
    if ctx.task == "full_trace":
        return _trace_literal(value)
    if ctx.task == "probe":  # "line 5": a line number
        value = _LINE_WORD.sub("", value, count=1)
    value = _TYPE_WORDS.sub("", value, count=1)  # "the string 'cba'"

    def accept(answer: str) -> bool:
        return _acceptable(answer, ctx)

    if value.endswith(".") and not value.endswith(".."):  # a sentence's full stop, not 5.
        reading = _read_code(value[:-1], ctx)
        if reading is not None and accept(reading.answer):
            return reading.answer
    reading = _leading_code(value, ctx, accept)
    return reading.answer if reading is not None else None


def _acceptable(answer: str, ctx: _Context) -> bool:
    """Whether a value read from prose is an answer: a literal, or for input tasks a call."""
    if ctx.task == "input":
        return _is_entry_call_text(answer, ctx)
    if ctx.task == "probe" and answer.strip().lower().rstrip(".") in _PROBE_WORDS:
        return True
    return read_literal(answer)[0]


def _calls_another(text: str, ctx: _Context) -> bool:
    """Whether `text` is a call (or an assert on a call) of a function other than the task's."""
    tree = _parse_module(text.strip())
    if tree is None or len(tree.body) != 1:
        return False
    stmt = tree.body[0]
    node: ast.expr | None = None
    if isinstance(stmt, ast.Expr):
        node = stmt.value
    elif isinstance(stmt, ast.Assert):
        node = stmt.test
    if isinstance(node, ast.Compare):
        node = node.left
    return isinstance(node, ast.Call) and _entry_call_of(node, ctx) is None


def _is_entry_call_text(text: str, ctx: _Context) -> bool:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return isinstance(node, ast.Call) and _call_name(node) == ctx.entry


def _line_ends(lines: list[str]) -> list[int]:
    ends: list[int] = []
    position = 0
    for line in lines:
        position += len(line) + 1
        ends.append(position - 1)
    return ends


def _matches(pattern: re.Pattern[str], line: str, first_only: bool) -> list[re.Match[str]]:
    """The pattern's matches in `line`: the first, or every start (latest first), since a
    sentence such as "the loop is over, so the list is [1, 2]" says its value last."""
    found: list[re.Match[str]] = []
    position = 0
    while len(found) < _MAX_MATCHES_PER_LINE:
        match = pattern.search(line, position)
        if match is None:
            break
        found.append(match)
        if first_only:
            break
        position = match.start() + 1
    return found[::-1]


def _answer_line(text: str, ctx: _Context, *, strong: bool) -> _Found | None:
    """The last explicit (`strong`) or weaker answer line of `text`, with where it ends. A
    statement with nothing after its colon takes the next non-empty line."""
    lines = text.split("\n")
    ends = _line_ends(lines)
    explicit, weaker = _INPUT_PATTERNS if ctx.task == "input" else _OUTPUT_PATTERNS
    patterns = explicit if strong else weaker
    for index in range(len(lines) - 1, -1, -1):
        plain = lines[index].replace("**", "")
        conclusion = _CONCLUSION.search(plain) if not strong else None
        if conclusion is not None and ctx.task != "input":
            concluded = _tidy(conclusion.group("v"))
            if _acceptable(concluded, ctx):
                return _Found(concluded, ends[index], "final_line")
        if not strong and ctx.task == "probe":
            times = list(_TIMES.finditer(plain))
            if times:
                count = times[-1].group("v") or times[-1].group("w")
                count = {"once": "1", "twice": "2"}.get(count.lower(), count)
                return _Found(count, ends[index], "final_line")
        if strong:
            boxed = _boxed(plain)
            in_box = _value_from_line(boxed, ctx) if boxed is not None else None
            if in_box is not None:
                return _Found(in_box, ends[index], "final_line")
        for match in (m for pattern in patterns for m in _matches(pattern, plain, strong)):
            raw, end = match.group("v"), ends[index]
            if not _tidy(raw):
                following = next(
                    (j for j in range(index + 1, len(lines)) if lines[j].strip()), None
                )
                if following is None or lines[following].lstrip().startswith("```"):
                    continue  # the value is in a fence, which is read as one
                raw, end = lines[following], ends[following]
            value = _value_from_line(raw, ctx)
            if value is None and strong:
                inner = _answer_line(raw, ctx, strong=False)  # "Final answer: the output is 5"
                value = inner.answer if inner is not None else (_tidy(raw) or None)
            if value is not None:
                return _Found(value, end, "final_line")
    return None


def _from_prose_found(text: str, ctx: _Context) -> _Found | None:
    candidates: list[_Found] = []
    for match in _FENCE.finditer(text):
        answer = _read_block(match.group("body"), ctx, tagged=False)
        if answer is not None:
            candidates.append(_Found(answer, match.end(), "fence"))
    prose = _mask_code(text)
    if ctx.task != "full_trace":
        asserts = _asserts(prose, ctx)
        matching = [a for a in asserts if a.matches_call]
        candidates.extend(matching or asserts)
    line = _answer_line(prose, ctx, strong=True)
    if line is not None:
        candidates.append(line)
    if candidates:
        return max(candidates, key=lambda c: c.end)
    if ctx.task == "full_trace":
        trace = _trace_literal(text)
        return _Found(trace, len(text), "last_line") if trace is not None else None
    return _answer_line(prose, ctx, strong=False) or _last_line(prose, ctx)


def _explicit_found(text: str, ctx: _Context) -> _Found | None:
    """The latest explicit answer in `text` (an answer line, or for output tasks an assert on
    the task's call), ignoring values it merely mentions."""
    prose = _mask_code(text)
    candidates = [a for a in _asserts(prose, ctx) if a.matches_call or ctx.task == "input"]
    line = _answer_line(prose, ctx, strong=True)
    if line is not None:
        candidates.append(line)
    return max(candidates, key=lambda c: c.end) if candidates else None


def _from_prose(text: str, ctx: _Context) -> str | None:
    found = _from_prose_found(text, ctx)
    return found.answer if found is not None else None


def _last_line(text: str, ctx: _Context) -> _Found | None:
    """The last line when it is a value; else the latest line that is a value on its own
    or a value then a reason ("5, because ..."), or (probes) starts with yes or no."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        return None
    found = _value_line(lines[-1], ctx)
    if found is None and ctx.task != "full_trace":
        for line in reversed(lines[:-1] if ctx.task != "probe" else lines):
            found = _value_line(line, ctx) or _leading_value(line, ctx)
            if found is not None:
                break
    if found is None and ctx.task == "input":
        found = _entry_call_in_prose(lines, ctx)
    return _Found(found, len(text), "last_line") if found is not None else None


_REASON = re.compile(r"\s*(?:[,;:(—–-]\s*)?(?:because|since|as|as\s+the|\(|after|when)\b", re.I)
_YES_NO = re.compile(r"^\W*(yes|no|true|false)\b\s*[,.!;:—–-]", re.I)


def _leading_value(line: str, ctx: _Context) -> str | None:
    """The value a line starts with when a reason follows it, "5, because ..."; for probes
    also a leading yes or no, "Yes, the branch is taken"."""
    text = _tidy(line)
    if ctx.task == "probe":
        word = _YES_NO.match(text)
        if word is not None:
            return _PROBE_WORDS[word.group(1).lower()]
    reading = _leading_code(text, ctx, lambda answer: _acceptable(answer, ctx))
    if reading is None:
        return None
    rest = text[text.find(reading.answer) + len(reading.answer) :] if reading.answer in text else ""
    return reading.answer if rest.strip() and _REASON.match(rest) else None


def _entry_call_in_prose(lines: list[str], ctx: _Context) -> str | None:
    """The latest call of the task's function in a sentence ("one input is f('a'), as ...")."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(ctx.entry)}\s*\(")
    for line in reversed(lines):
        for match in reversed(list(pattern.finditer(line))):
            reading = _leading_code(
                line[match.start() :], ctx, lambda answer: _is_entry_call_text(answer, ctx)
            )
            if reading is not None:
                return reading.answer
    return None


def _value_line(line: str, ctx: _Context) -> str | None:
    value = _tidy(line)
    if ctx.task in ("output", "probe"):
        stated = _read_code(value, ctx)  # "f('abc') == 'cba'" without the assert
        if stated is not None and stated.stated:
            return stated.answer
    answer = _trace_literal(value) if ctx.task == "full_trace" else value
    if ctx.task == "input" and answer is not None:
        reading = _read_code(answer, ctx)  # `print(f(x))` is the call f(x)
        answer = reading.answer if reading is not None else answer
    if answer is None or (ctx.task != "full_trace" and not _acceptable(answer, ctx)):
        return None
    return answer
