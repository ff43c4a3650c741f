"""Every prompt template of a run, in one place.

Output and input prediction use CRUXEval's forms: the function between `[PYTHON]` tags, an
assertion with `??` in place of the output (`assert f(x) == ??`) or of the input
(`assert f(??) == y`), and the completed assertion between `[ANSWER]` tags. Probe and
full-trace questions use CoRE's form: the function with numbered lines, the call, and a
question about an intermediate state, answered with a Python literal between `[ANSWER]` tags.

Strategies:
- `direct`: the answer only.
- `cot`: step-by-step reasoning between `[THOUGHT]` tags, then the answer.
- `trace`: the execution trace between `[TRACE]` tags in the format of
  `tracer.Trace.render("core")`, then the answer.

Each prompt carries one worked example, written for this project (the traces in the examples
are what the tracer renders for them; a test checks that). For the completions API (base
models) the prompt ends with the opening tag the answer should start with (`PRIMERS`) and
generation stops at `[/ANSWER]`.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

from core_bench.runs._tasks import Task
from core_bench.schemas import Strategy, TaskKind

STOP = "[/ANSWER]"
"""Where a response is stopped (CRUXEval's stop sequence), with both APIs."""

_DIRECT_STOPS = ("[PYTHON]", "[/PYTHON]", "[THOUGHT]")
"""More places a direct answer has surely ended: a new example, or reasoning after it."""


def stop_sequences(strategy: Strategy) -> list[str]:
    """The stop sequences sent with a request of `strategy`: `[/ANSWER]`, and for `direct`
    (nothing but the answer is asked) the tags that start more few-shot text or reasoning.
    Reasoning strategies get `[/ANSWER]` alone: their reasoning may quote code in any tags.
    """
    return [STOP, *_DIRECT_STOPS] if strategy == "direct" else [STOP]


PRIMERS: dict[Strategy, str] = {"direct": "[ANSWER]\n", "cot": "[THOUGHT]\n", "trace": "[TRACE]\n"}
"""What a completions-API prompt ends with, per strategy: the start of the expected answer."""

# -- instructions, per task kind -------------------------------------------------------------

INTRO: dict[TaskKind, str] = {
    "output": (
        "You are given a Python function and an assertion that calls it with some input. "
        "Replace ?? with the value the call returns, written as a Python literal (no "
        "unsimplified expressions, no function calls), even if the function looks wrong "
        "or unfinished."
    ),
    "input": (
        "You are given a Python function and an assertion of the form f(??) == output. "
        "Find an input for which the call returns that output. Several inputs may work; "
        "give one. Replace ?? with it, keeping the rest of the assertion as it is."
    ),
    "probe": (
        "You are given a Python function (its lines are numbered on the left; the numbers "
        "are not part of the code), a call of it, and a question about the state of the "
        "program while that call runs. Answer with a Python literal (True or False for "
        "yes/no questions, an integer for line numbers and counts)."
    ),
    "full_trace": (
        "You are given a Python function (its lines are numbered on the left; the numbers "
        "are not part of the code), a call of it, and a request to trace the call. Answer "
        "with a Python literal as the request describes."
    ),
}

_ASSERTION_ANSWER = "the completed assertion"
_VALUE_ANSWER = "the answer"

TRACE_FORMAT = (
    "one line per executed line of code, in order: `[Step n] Line k: <the line's source> "
    "(Iter i: <loop variable>=<value>) | locals: {name: value, ...}`, where the locals are the "
    "values right after the line ran and the `(Iter ...)` note appears only inside loops; "
    "lines of other functions it calls start with the function's name (`[Step n] g Line k: "
    "...`); the trace ends with `[Return] <value>`"
)

STRATEGY_RULES: dict[Strategy, str] = {
    "direct": "Do not write anything else: give {what} between [ANSWER] and [/ANSWER], as in "
    "the example.",
    "cot": "First execute the code step by step between [THOUGHT] and [/THOUGHT], then give "
    "{what} between [ANSWER] and [/ANSWER], as in the example.",
    "trace": "First write the execution trace of the call between [TRACE] and [/TRACE], "
    + TRACE_FORMAT
    + "; then give {what} between [ANSWER] and [/ANSWER], as in the example.",
}

# -- worked examples (written for this project) ----------------------------------------------

_EX_OUTPUT_CODE = """def f(words, n):
    kept = []
    for w in words:
        if len(w) > n:
            kept.append(w[::-1])
    return kept
"""
_EX_OUTPUT_CALL = "f(['sun', 'planet', 'ox'], 2)"
_EX_OUTPUT_VALUE = "['nus', 'tenalp']"
_EX_OUTPUT_THOUGHT = (
    "kept starts empty. 'sun' has length 3 > 2, so 'nus' is appended. 'planet' has length "
    "6 > 2, so 'tenalp' is appended. 'ox' has length 2, not more than 2, so it is skipped. "
    "The function returns ['nus', 'tenalp']."
)
_EX_OUTPUT_TRACE = """[Step 1] Line 2: kept = [] | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: []}
[Step 2] Line 3: for w in words: (Iter 1: w='sun') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: [], w: 'sun'}
[Step 3] Line 4: if len(w) > n: (Iter 1: w='sun') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: [], w: 'sun'}
[Step 4] Line 5: kept.append(w[::-1]) (Iter 1: w='sun') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus'], w: 'sun'}
[Step 5] Line 3: for w in words: (Iter 2: w='planet') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus'], w: 'planet'}
[Step 6] Line 4: if len(w) > n: (Iter 2: w='planet') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus'], w: 'planet'}
[Step 7] Line 5: kept.append(w[::-1]) (Iter 2: w='planet') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus', 'tenalp'], w: 'planet'}
[Step 8] Line 3: for w in words: (Iter 3: w='ox') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus', 'tenalp'], w: 'ox'}
[Step 9] Line 4: if len(w) > n: (Iter 3: w='ox') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus', 'tenalp'], w: 'ox'}
[Step 10] Line 3: for w in words: (Iter 4: w='ox') | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus', 'tenalp'], w: 'ox'}
[Step 11] Line 6: return kept | locals: {words: ['sun', 'planet', 'ox'], n: 2, kept: ['nus', 'tenalp'], w: 'ox'}
[Return] ['nus', 'tenalp']"""  # noqa: E501

_EX_INPUT_CODE = """def f(text):
    count = 0
    for ch in text:
        if ch == 'a':
            count += 1
    return count * 2
"""
_EX_INPUT_CALL = "f('aha')"
_EX_INPUT_OUTPUT = "4"
_EX_INPUT_THOUGHT = (
    "f returns twice the number of 'a' characters in text. For the result to be 4, text "
    "must contain exactly two 'a's, for example 'aha'."
)
_EX_INPUT_TRACE = """[Step 1] Line 2: count = 0 | locals: {text: 'aha', count: 0}
[Step 2] Line 3: for ch in text: (Iter 1: ch='a') | locals: {text: 'aha', count: 0, ch: 'a'}
[Step 3] Line 4: if ch == 'a': (Iter 1: ch='a') | locals: {text: 'aha', count: 0, ch: 'a'}
[Step 4] Line 5: count += 1 (Iter 1: ch='a') | locals: {text: 'aha', count: 1, ch: 'a'}
[Step 5] Line 3: for ch in text: (Iter 2: ch='h') | locals: {text: 'aha', count: 1, ch: 'h'}
[Step 6] Line 4: if ch == 'a': (Iter 2: ch='h') | locals: {text: 'aha', count: 1, ch: 'h'}
[Step 7] Line 3: for ch in text: (Iter 3: ch='a') | locals: {text: 'aha', count: 1, ch: 'a'}
[Step 8] Line 4: if ch == 'a': (Iter 3: ch='a') | locals: {text: 'aha', count: 1, ch: 'a'}
[Step 9] Line 5: count += 1 (Iter 3: ch='a') | locals: {text: 'aha', count: 2, ch: 'a'}
[Step 10] Line 3: for ch in text: (Iter 4: ch='a') | locals: {text: 'aha', count: 2, ch: 'a'}
[Step 11] Line 6: return count * 2 | locals: {text: 'aha', count: 2, ch: 'a'}
[Return] 4"""

_EX_PROBE_QUESTION = (
    "What is the value of `kept` right after line 5 (`kept.append(w[::-1])`) runs for the 2nd time?"
)
_EX_PROBE_ANSWER = "['nus', 'tenalp']"
_EX_PROBE_THOUGHT = (
    "Line 5 runs for each word longer than 2 characters. The 1st time is for 'sun', which "
    "makes kept ['nus']; the 2nd time is for 'planet', which makes kept ['nus', 'tenalp']."
)

_EX_TRACE_CODE = """def f(x):
    y = x + 1
    if y > 2:
        y = y * 10
    return y
"""
_EX_TRACE_CALL = "f(3)"
_EX_TRACE_QUESTION = (
    "Trace this call of `f` (defined on line 1): list every line of `f` that runs, in order, "
    "as a Python list of [line, {name: value}] pairs, one per run of a line, where the dict "
    "maps each local variable the run creates or changes to its value right after the run "
    "(an empty dict when it changes none)."
)
_EX_TRACE_ANSWER = "[[2, {'y': 4}], [3, {}], [4, {'y': 40}], [5, {}]]"
_EX_TRACE_THOUGHT = (
    "Line 2 sets y to 4. Line 3 tests 4 > 2, which holds, and changes nothing. Line 4 sets "
    "y to 40. Line 5 returns y and changes nothing."
)
_EX_TRACE_TRACE = """[Step 1] Line 2: y = x + 1 | locals: {x: 3, y: 4}
[Step 2] Line 3: if y > 2: | locals: {x: 3, y: 4}
[Step 3] Line 4: y = y * 10 | locals: {x: 3, y: 40}
[Step 4] Line 5: return y | locals: {x: 3, y: 40}
[Return] 40"""

EXAMPLE_TRACES: tuple[tuple[str, str, str], ...] = (
    (_EX_OUTPUT_CODE, _EX_OUTPUT_CALL, _EX_OUTPUT_TRACE),
    (_EX_INPUT_CODE, _EX_INPUT_CALL, _EX_INPUT_TRACE),
    (_EX_TRACE_CODE, _EX_TRACE_CALL, _EX_TRACE_TRACE),
)
"""(code, call, trace) of every worked example's trace, to check them against the tracer."""


# -- rendering ---------------------------------------------------------------------------


def numbered(code: str) -> str:
    """The code with right-aligned line numbers: `  1 | def f(x):`."""
    lines = code.rstrip("\n").splitlines()
    width = len(str(len(lines)))
    return "\n".join(f"{i:>{width}} | {line}" for i, line in enumerate(lines, start=1))


def _reasoning(strategy: Strategy, thought: str, trace: str) -> str:
    if strategy == "cot":
        return f"[THOUGHT]\n{thought}\n[/THOUGHT]\n"
    if strategy == "trace":
        return f"[TRACE]\n{trace}\n[/TRACE]\n"
    return ""


def answer_block(strategy: Strategy, answer: str, *, thought: str = "", trace: str = "") -> str:
    """A response in the form the prompts ask for: reasoning (per strategy), then the answer."""
    return f"{_reasoning(strategy, thought, trace)}[ANSWER]\n{answer}\n[/ANSWER]"


@functools.lru_cache(maxsize=4096)
def _code_block(code: str, line_numbers: bool) -> str:
    body = numbered(code) if line_numbers else code.rstrip("\n")
    return f"[PYTHON]\n{body}\n[/PYTHON]"


def _output_query(code: str, call: str, numbers: bool) -> str:
    return f"{_code_block(code, numbers)}\nassert {call} == ??"


def _input_query(code: str, entry: str, output: str, numbers: bool) -> str:
    return f"{_code_block(code, numbers)}\nassert {entry}(??) == {output}"


def _probe_query(code: str, call: str, question: str) -> str:
    return f"{_code_block(code, True)}\nCall: {call}\nQuestion: {question}"


@functools.lru_cache(maxsize=64)
def _example(task: TaskKind, strategy: Strategy, numbers: bool) -> str:
    """The worked example of a task kind, with its answer in the strategy's form."""
    if task == "output":
        query = _output_query(_EX_OUTPUT_CODE, _EX_OUTPUT_CALL, numbers)
        answer = f"assert {_EX_OUTPUT_CALL} == {_EX_OUTPUT_VALUE}"
        thought, trace = _EX_OUTPUT_THOUGHT, _EX_OUTPUT_TRACE
    elif task == "input":
        query = _input_query(_EX_INPUT_CODE, "f", _EX_INPUT_OUTPUT, numbers)
        answer = f"assert {_EX_INPUT_CALL} == {_EX_INPUT_OUTPUT}"
        thought, trace = _EX_INPUT_THOUGHT, _EX_INPUT_TRACE
    elif task == "probe":
        query = _probe_query(_EX_OUTPUT_CODE, _EX_OUTPUT_CALL, _EX_PROBE_QUESTION)
        answer = _EX_PROBE_ANSWER
        thought, trace = _EX_PROBE_THOUGHT, _EX_OUTPUT_TRACE
    else:
        query = _probe_query(_EX_TRACE_CODE, _EX_TRACE_CALL, _EX_TRACE_QUESTION)
        answer = _EX_TRACE_ANSWER
        thought, trace = _EX_TRACE_THOUGHT, _EX_TRACE_TRACE
    return f"{query}\n{answer_block(strategy, answer, thought=thought, trace=trace)}"


def render_user(task: Task) -> str:
    """The user message of a task: instructions, the worked example, then the question."""
    kind, strategy = task.kind, task.strategy
    # Line numbers matter where the question or the trace names lines.
    numbers = kind in ("probe", "full_trace") or strategy == "trace"
    what = _ASSERTION_ANSWER if kind in ("output", "input") else _VALUE_ANSWER
    rules = STRATEGY_RULES[strategy].replace("{what}", what)
    if kind == "output":
        query = _output_query(task.code, task.call, numbers)
    elif kind == "input":
        query = _input_query(task.code, task.entry, task.output, numbers)
    else:
        assert task.probe is not None
        query = _probe_query(task.code, task.call, task.probe.question)
    example = _example(kind, strategy, numbers)
    return f"{INTRO[kind]} {rules}\n\n{example}\n\n{query}"


@dataclass(frozen=True, slots=True)
class Prompt:
    """A rendered prompt, for the chat API (`messages`) and the completions API (`text`).

    Attributes:
        messages: the chat messages (an optional system message, then the user message).
        text: the same as one string for a base model, ending with `primer`.
        primer: the opening of the answer the completions prompt ends with; it is put back
            in front of a completion before grading.
        hash: sha256 of the messages (see `messages_hash`; the samples' `prompt_hash`).
    """

    messages: tuple[dict[str, str], ...]
    text: str
    primer: str
    hash: str

    @property
    def text_hash(self) -> str:
        """sha256 of `text` (what identifies a completions-API request)."""
        return hashlib.sha256(self.text.encode()).hexdigest()


def render(task: Task, *, system_prompt: str | None = None) -> Prompt:
    """Render `task` into chat messages and a completion prompt."""
    user = render_user(task)
    messages: list[dict[str, str]] = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": user})
    primer = PRIMERS[task.strategy]
    head = f"{system_prompt}\n\n" if system_prompt else ""
    text = f"{head}{user}\n{primer}"
    return Prompt(tuple(messages), text, primer, messages_hash(messages))


def messages_hash(messages: list[dict[str, str]]) -> str:
    """sha256 of a message list: each message's role and content, separated by control
    characters that prompts do not contain (cheaper than hashing its JSON, just as exact)."""
    joined = "\x1e".join(f"{m['role']}\x1f{m['content']}" for m in messages)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()
