"""Reading a model's answer out of its response, by parsing rather than string splitting.

Where an answer can be (DESIGN.md, "Runs"), in this order:

1. An answer tag: the first `[ANSWER]...[/ANSWER]` (CRUXEval's form; generation is stopped at
   the first closing tag, so text after it is continued few-shot material) or
   `<answer>...</answer>`. A tag left open (the stop sequence ate the closing tag) runs to
   the end of the text. What the tag holds is its answer even when it does not parse (it is
   then graded "unparseable"); an empty tag is passed over.
2. The latest in the text of: a fenced code block (a fence left open runs to the end), an
   `assert f(...) == X` statement in prose, and an explicit answer line ("Final answer: X",
   "Answer: X", "The answer is X", "Output: X", `\\boxed{X}`). In a fence, a bare value
   counts only when it is a literal (for input tasks a call), and an assignment only to a
   name such as `output` or `result` (for probes, a lone `x = ...`): fences in reasoning show
   any code. For output tasks, asserts on the task's `call` are preferred to others.
3. A weaker answer line, from the end ("the output of f(...) is X", "f(...) returns X",
   "`count` is 3"), only when what follows reads as a value.
4. The last line, when it reads as a value on its own (for full_trace tasks: the latest
   list of pairs anywhere in the text, also reported as "last_line").

For probe tasks a bare yes/true/no/false/none/null reads as True/False/None and a bare
`return` as 'return' (next_line's answer when the frame returns).

Reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`) are removed first; an unclosed one
runs to the end, and a closing tag without an opening one (the opening tag was part of the
prompt) hides everything before it.

Code is read with `ast`, so a `#` inside a quoted string, `==` inside a string, or a trailing
comment never cut an answer; an assert is read whichever side of `==` the call is on. For
output and probe tasks the answer is the value's source text; for input tasks it is the call
expression "f(...)" (bare arguments are wrapped in a call to the task's function); for
full_trace tasks it is the text of the list of `[line, {name: value}]` pairs.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from core_bench.grading._trace import parse_trace
from core_bench.grading._values import parse_literal

TASKS = ("output", "input", "probe", "full_trace")
"""Task kinds `extract_answer` knows."""

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


def extract_answer(text: str, *, task: str, call: str | None = None) -> Extracted:
    """Read the answer out of a model's response.

    Args:
        text: the raw response.
        task: "output", "input", "probe" or "full_trace".
        call: the call the task asks about, e.g. "f([1, 2])" (for output tasks, an assert on
            this call is preferred over asserts on other calls); for input tasks any text
            naming the function, e.g. "f(??)", whose name wraps bare arguments (default "f").

    Returns:
        The answer and where it was found; `Extracted(None, "none")` when there is none.

    Raises:
        ValueError: `task` is not one of `TASKS`.
    """
    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}, got {task!r}")
    ctx = _Context(task, _entry_name(call), _parse_call(call))
    body = _strip_reasoning(text.replace("\r\n", "\n").replace("\r", "\n"))
    tagged = _answer_tag(body)
    if tagged is not None:
        answer = _read_block(tagged, ctx, tagged=True)
        if answer is None:
            answer = _from_prose(tagged, ctx)
        if answer is None:
            answer = _tidy(tagged) or None
        if answer is not None:
            return _finish(answer, "answer_tag", ctx)
    found = _from_prose_found(body, ctx)
    if found is not None:
        return _finish(found.answer, found.how, ctx)
    return Extracted(None, "none")


def _finish(answer: str | None, how: str, ctx: _Context) -> Extracted:
    if answer is None:
        return Extracted(None, "none")
    answer = answer.strip()
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


_TAGS = re.compile(
    r"\[ANSWER\](?P<a>.*?)(?:\[/ANSWER\]|\Z)|<answer>(?P<b>.*?)(?:</answer>|\Z)", re.S | re.I
)


def _answer_tag(text: str) -> str | None:
    match = _TAGS.search(text)
    if match is None:
        return None
    return match.group("a") if match.group("a") is not None else match.group("b")


_FENCE = re.compile(r"```[ \t]*[\w+#.-]*[^\n`]*\n(?P<body>.*?)(?:```|\Z)", re.S)
_INLINE_FENCE = re.compile(r"```[ \t]*(?:python|py)?[ \t]+(?P<body>[^\n]*?)```", re.S)


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
    if call:
        match = re.match(r"\s*([A-Za-z_][\w.]*)\s*\(", call)
        if match:
            return match.group(1)
    return "f"


def _parse_call(call: str | None) -> ast.expr | None:
    if not call:
        return None
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return node if isinstance(node, ast.Call) else None


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
    segment = ast.get_source_segment(code, chosen)
    if segment is None:
        return None
    if ctx.task == "input" and not isinstance(chosen, ast.Call):
        return None
    return _Reading(segment, _same_call(left, ctx))


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
            return _Reading(segment, stated=False)
        if not parse_literal(f"({segment},)")[0]:
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
    if reading is not None and (tagged or reading.stated or _acceptable(reading.answer, ctx)):
        return reading.answer
    prompts = list(_PROMPT.finditer(code))
    if prompts:  # a REPL transcript: the output after the last prompt
        after = code[prompts[-1].end() :].split("\n", 1)
        if len(after) == 2 and after[1].strip():
            return after[1].strip()
    found = _asserts(code, ctx)
    if found:
        return ([a for a in found if a.matches_call] or found)[-1].answer
    if "\n" not in code:
        reading = _leading_code(code, ctx, lambda answer: _acceptable(answer, ctx))
        if reading is not None:
            return reading.answer
    return None


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
        re.compile(r"^[\W_]*answer\s*[:：]\s*(?P<v>.*)", re.I),
        re.compile(r"\bthe\s+answer\s+is\s*[:：]?\s*(?P<v>.*)", re.I),
        re.compile(rf"^[\W_]*(?:final\s+)?(?:{words})\s*[:：]\s*(?P<v>.*)", re.I),
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
                r"would\s+be|holds|has\s+the\s+value)\s*[:：]?\s*(?P<v>.*)",
                re.I,
            )
        )
    return strong, weak


_OUTPUT_PATTERNS = _patterns(_OUTPUT_WORDS)
_INPUT_PATTERNS = _patterns(_INPUT_WORDS)


def _value_from_line(raw: str, ctx: _Context) -> str | None:
    """The value a phrase such as "'abc'." or "`[1, 2]`, since ..." states, if it reads."""
    value = _tidy(raw)
    if not value:
        return None
    if ctx.task == "full_trace":
        return _trace_literal(value)

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
        return _is_call_text(answer)
    if ctx.task == "probe" and answer.strip().lower().rstrip(".") in _PROBE_WORDS:
        return True
    return parse_literal(answer)[0]


def _is_call_text(text: str) -> bool:
    try:
        return isinstance(ast.parse(text.strip(), mode="eval").body, ast.Call)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


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
        if strong:
            boxed = _boxed(plain)
            value = _value_from_line(boxed, ctx) if boxed is not None else None
            if value is not None:
                return _Found(value, ends[index], "final_line")
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
    if ctx.task != "full_trace":
        asserts = _asserts(text, ctx)
        matching = [a for a in asserts if a.matches_call]
        candidates.extend(matching or asserts)
    line = _answer_line(text, ctx, strong=True)
    if line is not None:
        candidates.append(line)
    if candidates:
        return max(candidates, key=lambda c: c.end)
    if ctx.task == "full_trace":
        trace = _trace_literal(text)
        return _Found(trace, len(text), "last_line") if trace is not None else None
    return _answer_line(text, ctx, strong=False) or _last_line(text, ctx)


def _from_prose(text: str, ctx: _Context) -> str | None:
    found = _from_prose_found(text, ctx)
    return found.answer if found is not None else None


def _last_line(text: str, ctx: _Context) -> _Found | None:
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        return None
    value = _tidy(lines[-1])
    answer = _trace_literal(value) if ctx.task == "full_trace" else value
    if answer is None or (ctx.task != "full_trace" and not _acceptable(answer, ctx)):
        return None
    return _Found(answer, len(text), "last_line")
