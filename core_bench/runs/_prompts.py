"""Every prompt template of a run, in one place.

Output and input prediction reproduce CRUXEval's prompts (Gu et al., 2024; the prompt format
of github.com/facebookresearch/cruxeval, MIT) exactly for `direct` and `cot`: the same
instructions, the same worked examples (two for direct, one for chain of thought), the
function and the assertion with `??` together between `[PYTHON]` tags, reasoning between
`[THOUGHT]` tags, the completed assertion between `[ANSWER]` tags, and the prompt ending with
the tag the answer starts with (`[ANSWER]` or `[THOUGHT]`). A test checks the rendered prompts
against that format. CRUXEval's prompts call the function `f`; a function with another name is
asked about under its own name in the question.

Probe and full-trace questions use CoRE's form: the function with numbered lines, the call, and
a question about an intermediate state, answered with a Python literal between `[ANSWER]`
tags, with one short worked example per answer type (a value, True/False, a line number, a
count) on one small function.

Strategies:
- `direct`: the answer only.
- `cot`: step-by-step reasoning between `[THOUGHT]` tags, then the answer.
- `trace`: the execution trace between `[TRACE]` tags in the format of
  `tracer.Trace.render("core")`, then the answer (this project's strategy, on CRUXEval's
  frame; the traces in its examples are what the tracer renders, a test checks that).

Every prompt ends with the opening tag of the expected response (`PRIMERS`), for both APIs,
as CRUXEval's own OpenAI script sends it; for the completions API the primer is put back in
front of the completion before grading.
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
"""What every prompt ends with, per strategy: the start of the expected response."""

TRACE_FORMAT = (
    "one line per executed line of code, in order: `[Step n] Line k: <the line's source> "
    "(Iter i: <loop variable>=<value>) | locals: {name: value, ...}`, where the locals are the "
    "values right after the line ran and the `(Iter ...)` note appears only inside loops; "
    "lines of other functions it calls start with the function's name (`[Step n] g Line k: "
    "...`); the trace ends with `[Return] <value>`"
)

# -- CRUXEval's instructions ----------------------------------------------------------------

_OUTPUT_TASK = (
    "You are given a Python function and an assertion containing an input to the function. "
    "Complete the assertion with a literal (no unsimplified expressions, no function calls) "
    "containing the output when executing the provided code on the given input, even if the "
    "function is incorrect or incomplete. Do NOT output any extra information. "
)
_OUTPUT_ASK = (
    "provide the full assertion with the correct output in [ANSWER] and [/ANSWER] tags, "
    "following the examples."
)
_INPUT_FORM = "You will be given a function f and an output in the form f(??) == output. "
_INPUT_COT_ASK = (
    "You MUST surround the answer with [ANSWER] and [/ANSWER] tags. Express your answer as a "
    "passing assertion containing the input and the given output."
)

INTRO: dict[tuple[TaskKind, Strategy], str] = {
    ("output", "direct"): _OUTPUT_TASK + "P" + _OUTPUT_ASK[1:],
    ("output", "cot"): _OUTPUT_TASK
    + "Execute the program step by step before arriving at an answer, and "
    + _OUTPUT_ASK,
    ("output", "trace"): _OUTPUT_TASK
    + "Write the execution trace of the call between [TRACE] and [/TRACE] ("
    + TRACE_FORMAT
    + ") before arriving at an answer, and "
    + _OUTPUT_ASK,
    ("input", "direct"): _INPUT_FORM
    + "Find any input such that executing f on the input leads to the given output. There "
    "may be multiple answers, but you should only output one. In [ANSWER] and [/ANSWER] "
    "tags, complete the assertion with one such input that will produce the output when "
    "executing the function.",
    ("input", "cot"): _INPUT_FORM
    + "Your task is to find any input such that executing f on the input leads to the given "
    "output. There may be multiple answers, but only output one. First, think step by step. "
    + _INPUT_COT_ASK,
    ("input", "trace"): _INPUT_FORM
    + "Your task is to find any input such that executing f on the input leads to the given "
    "output. There may be multiple answers, but only output one. First, choose an input and "
    "write the execution trace of the call on it between [TRACE] and [/TRACE] ("
    + TRACE_FORMAT
    + ") to check it. "
    + _INPUT_COT_ASK,
}
"""The instructions of output and input prediction, per strategy (CRUXEval's for direct and
cot; for trace, CRUXEval's with the trace asked for instead of free reasoning)."""

_PROBE_INTRO = (
    "You are given a Python function (its lines are numbered on the left; the numbers are "
    "not part of the code), a call of it, and a question about the state of the program "
    "while that call runs. Answer with a Python literal: a value, True or False, a line "
    "number, or a count, as in the examples. "
)
_FULL_TRACE_INTRO = (
    "You are given a Python function (its lines are numbered on the left; the numbers are "
    "not part of the code), a call of it, and a request to trace the call. Answer with a "
    "Python literal as the request describes, as in the example. "
)
_VALUE_RULES: dict[Strategy, str] = {
    "direct": "Do NOT output any extra information: give the answer between [ANSWER] and "
    "[/ANSWER] tags.",
    "cot": "Think step by step between [THOUGHT] and [/THOUGHT] tags, then give the answer "
    "between [ANSWER] and [/ANSWER] tags.",
    "trace": "First write the execution trace of the call between [TRACE] and [/TRACE] tags, "
    + TRACE_FORMAT
    + "; then give the answer between [ANSWER] and [/ANSWER] tags.",
}


@dataclass(frozen=True, slots=True)
class _Shot:
    """A worked example: the code, the assertion (or call and question), the answer, and the
    reasoning per strategy."""

    code: str
    query: str
    answer: str
    thought: str = ""
    trace: str = ""


# -- CRUXEval's worked examples ------------------------------------------------------------

_OUTPUT_SHOTS = (
    _Shot("def f(n):\n    return n", "assert f(17) == ??", "assert f(17) == 17"),
    _Shot('def f(s):\n    return s + "a"', 'assert f("x9j") == ??', 'assert f("x9j") == "x9ja"'),
)
_OUTPUT_COT_SHOT = _Shot(
    'def f(s):\n    s = s + s\n    return "b" + s + "a"',
    'assert f("hi") == ??',
    'assert f("hi") == "bhihia"',
    thought="Let's execute the code step by step:\n\n"
    "1. The function f is defined, which takes a single argument s.\n"
    '2. The function is called with the argument "hi", so within the function, s is '
    'initially "hi".\n'
    '3. Inside the function, s is concatenated with itself, so s becomes "hihi".\n'
    '4. The function then returns a new string that starts with "b", followed by the value '
    'of s (which is now "hihi"), and ends with "a".\n'
    '5. The return value of the function is therefore "bhihia".',
)
_INPUT_SHOTS = (
    _Shot(
        "def f(my_list):\n    count = 0\n    for i in my_list:\n        if len(i) % 2 == 0:\n"
        "            count += 1\n    return count",
        "assert f(??) == 3",
        'assert f(["mq", "px", "zy"]) == 3',
    ),
    _Shot(
        "def f(s1, s2):\n    return s1 + s2",
        'assert f(??) == "banana"',
        'assert f("ba", "nana") == "banana"',
    ),
)
_INPUT_COT_SHOT = _Shot(
    "def f(x):\n    return x + 1",
    "assert f(??) == 17",
    "assert f(16) == 17",
    thought="To find an input such that executing f on the input leads to the given output, "
    "we can work backwards from the given assertion. We know that f(??) == 17. \n\n"
    "Since the function f(x) returns x + 1, for f(??) to be equal to 17, the value of ?? "
    "should be 16. ",
)

# -- this project's worked examples (trace strategy, probes, full traces) ---------------------

_EX_OUTPUT_CODE = """def f(words, n):
    kept = []
    for w in words:
        if len(w) > n:
            kept.append(w[::-1])
    return kept
"""
_EX_OUTPUT_CALL = "f(['sun', 'planet', 'ox'], 2)"
_EX_OUTPUT_VALUE = "['nus', 'tenalp']"
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

_EX_PROBE_CODE = """def f(nums):
    total = 0
    for n in nums:
        if n > 1:
            total += n
    return total
"""
_EX_PROBE_CALL = "f([3, 1, 2])"
_EX_PROBE_TRACE = """[Step 1] Line 2: total = 0 | locals: {nums: [3, 1, 2], total: 0}
[Step 2] Line 3: for n in nums: (Iter 1: n=3) | locals: {nums: [3, 1, 2], total: 0, n: 3}
[Step 3] Line 4: if n > 1: (Iter 1: n=3) | locals: {nums: [3, 1, 2], total: 0, n: 3}
[Step 4] Line 5: total += n (Iter 1: n=3) | locals: {nums: [3, 1, 2], total: 3, n: 3}
[Step 5] Line 3: for n in nums: (Iter 2: n=1) | locals: {nums: [3, 1, 2], total: 3, n: 1}
[Step 6] Line 4: if n > 1: (Iter 2: n=1) | locals: {nums: [3, 1, 2], total: 3, n: 1}
[Step 7] Line 3: for n in nums: (Iter 3: n=2) | locals: {nums: [3, 1, 2], total: 3, n: 2}
[Step 8] Line 4: if n > 1: (Iter 3: n=2) | locals: {nums: [3, 1, 2], total: 3, n: 2}
[Step 9] Line 5: total += n (Iter 3: n=2) | locals: {nums: [3, 1, 2], total: 5, n: 2}
[Step 10] Line 3: for n in nums: (Iter 4: n=2) | locals: {nums: [3, 1, 2], total: 5, n: 2}
[Step 11] Line 6: return total | locals: {nums: [3, 1, 2], total: 5, n: 2}
[Return] 5"""
_PROBE_SHOTS = (  # (question, answer, thought): a value, True/False, a line number, a count
    (
        "What is `total` right after line 5 runs for the 2nd time?",
        "5",
        "Line 5 runs for 3 (total becomes 3), not for 1, then for 2: total becomes 5.",
    ),
    (
        "Is the condition on line 4 true the 2nd time line 4 runs?",
        "False",
        "The 2nd time line 4 runs, n is 1, and 1 > 1 is false.",
    ),
    (
        "Which line runs right after line 4 runs for the 2nd time?",
        "3",
        "The 2nd time line 4 runs, n is 1 and the test fails, so the loop goes on at line 3.",
    ),
    (
        "How many times does line 5 run?",
        "2",
        "Line 5 runs for each n greater than 1: for 3 and for 2, so 2 times.",
    ),
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

_ASSERT_SHOTS: dict[str, dict[Strategy, tuple[_Shot, ...]]] = {
    "output": {
        "direct": _OUTPUT_SHOTS,
        "cot": (_OUTPUT_COT_SHOT,),
        "trace": (
            _Shot(
                _EX_OUTPUT_CODE,
                f"assert {_EX_OUTPUT_CALL} == ??",
                f"assert {_EX_OUTPUT_CALL} == {_EX_OUTPUT_VALUE}",
                trace=_EX_OUTPUT_TRACE,
            ),
        ),
    },
    "input": {
        "direct": _INPUT_SHOTS,
        "cot": (_INPUT_COT_SHOT,),
        "trace": (
            _Shot(
                _EX_INPUT_CODE,
                f"assert f(??) == {_EX_INPUT_OUTPUT}",
                f"assert {_EX_INPUT_CALL} == {_EX_INPUT_OUTPUT}",
                trace=_EX_INPUT_TRACE,
            ),
        ),
    },
}
"""The worked examples of the output and input tasks, per strategy."""

EXAMPLE_TRACES: tuple[tuple[str, str, str], ...] = (
    (_EX_OUTPUT_CODE, _EX_OUTPUT_CALL, _EX_OUTPUT_TRACE),
    (_EX_INPUT_CODE, _EX_INPUT_CALL, _EX_INPUT_TRACE),
    (_EX_PROBE_CODE, _EX_PROBE_CALL, _EX_PROBE_TRACE),
    (_EX_TRACE_CODE, _EX_TRACE_CALL, _EX_TRACE_TRACE),
)
"""(code, call, trace) of every worked example's trace, to check them against the tracer."""

PROBE_EXAMPLES: tuple[tuple[str, str], ...] = tuple((q, a) for q, a, _ in _PROBE_SHOTS)
"""(question, answer) of the probe prompt's worked examples, on `f([3, 1, 2])`."""


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
def _code(code: str, line_numbers: bool) -> str:
    return numbered(code) if line_numbers else code.rstrip("\n")


def _assert_block(code: str, assertion: str, numbers: bool) -> str:
    """CRUXEval's question: the function and the assertion, together between [PYTHON] tags."""
    return f"[PYTHON]\n{_code(code, numbers)}\n{assertion}\n[/PYTHON]\n"


def _probe_block(code: str, call: str, question: str) -> str:
    return f"[PYTHON]\n{_code(code, True)}\n[/PYTHON]\nCall: {call}\nQuestion: {question}\n"


def _worked(query: str, strategy: Strategy, answer: str, thought: str, trace: str) -> str:
    return query + answer_block(strategy, answer, thought=thought, trace=trace)


@functools.lru_cache(maxsize=64)
def _examples(task: TaskKind, strategy: Strategy) -> str:
    """The worked examples of a task kind in the strategy's form, each ending in its answer,
    separated by blank lines."""
    if task == "output" or task == "input":
        numbers = strategy == "trace"  # its example's trace names lines
        return "\n\n".join(
            _worked(_assert_block(s.code, s.query, numbers), strategy, s.answer, s.thought, s.trace)
            for s in _ASSERT_SHOTS[task][strategy]
        )
    if task == "probe":
        return "\n\n".join(
            _worked(
                _probe_block(_EX_PROBE_CODE, _EX_PROBE_CALL, question),
                strategy,
                answer,
                thought,
                _EX_PROBE_TRACE,
            )
            for question, answer, thought in _PROBE_SHOTS
        )
    query = _probe_block(_EX_TRACE_CODE, _EX_TRACE_CALL, _EX_TRACE_QUESTION)
    return _worked(query, strategy, _EX_TRACE_ANSWER, _EX_TRACE_THOUGHT, _EX_TRACE_TRACE)


def render_user(task: Task) -> str:
    """The user message of a task: instructions, the worked examples, the question, and the
    opening tag of the expected response."""
    kind, strategy = task.kind, task.strategy
    # Line numbers matter where the question or the trace names lines.
    numbers = task.probe is not None or strategy == "trace"
    if kind == "output":
        intro = INTRO[("output", strategy)]
        query = _assert_block(task.code, f"assert {task.call} == ??", numbers)
    elif kind == "input":
        intro = INTRO[("input", strategy)]
        query = _assert_block(task.code, f"assert {task.entry}(??) == {task.output}", numbers)
    else:
        assert task.probe is not None
        intro = (_PROBE_INTRO if kind == "probe" else _FULL_TRACE_INTRO) + _VALUE_RULES[strategy]
        query = _probe_block(task.code, task.call, task.probe.question)
    return f"{intro}\n\n{_examples(kind, strategy)}\n\n{query}{PRIMERS[strategy]}"


@dataclass(frozen=True, slots=True)
class Prompt:
    """A rendered prompt, for the chat API (`messages`) and the completions API (`text`).

    Attributes:
        messages: the chat messages (an optional system message, then the user message).
        text: the same as one string for a base model (both end with `primer`).
        primer: the opening of the answer the prompt ends with; it is put back in front of a
            completion before grading.
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
    head = f"{system_prompt}\n\n" if system_prompt else ""
    return Prompt(tuple(messages), f"{head}{user}", PRIMERS[task.strategy], messages_hash(messages))


def messages_hash(messages: list[dict[str, str]]) -> str:
    """sha256 of a message list: each message's role and content, separated by control
    characters that prompts do not contain (cheaper than hashing its JSON, just as exact)."""
    joined = "\x1e".join(f"{m['role']}\x1f{m['content']}" for m in messages)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()


# -- authoring reimplementations (`core-bench build --authors`) -----------------------------

AUTHOR_INSTRUCTIONS = (
    "Below is a Python function and some calls of it with the values they return. Write "
    "another implementation of the same function, as a different programmer would write it "
    "from scratch: a different algorithm or a different structure, not a renaming, "
    "reformatting or small edit of this code. It must keep the same name and parameters, "
    "return equal values and leave its arguments in the same state for every input, and "
    "raise the same kind of exception where this one raises. Do not print, read files or "
    "use the network; use only the standard library, and keep any helper functions in the "
    "same code. Answer with the complete code in one ```python fenced block and nothing "
    "after it."
)
"""What an author model is asked (the function and its calls follow)."""

AUTHOR_PRIMER = "```python\n"
"""What a completions-API authoring prompt ends with: the opening of the code block."""

AUTHOR_MAX_CALLS = 8
"""Calls shown with their results in an authoring prompt, at most."""


def render_author(
    code: str, calls: list[tuple[str, str]], *, system_prompt: str | None = None
) -> Prompt:
    """The prompt asking a model for an independent implementation of `code`.

    Args:
        code: the function's source.
        calls: (call expression, repr of the returned value) pairs; the first
            `AUTHOR_MAX_CALLS` are shown as assertions.
        system_prompt: a system message before the prompt, or None.
    """
    shown = "\n".join(f"assert {call} == {output}" for call, output in calls[:AUTHOR_MAX_CALLS])
    user = (
        f"{AUTHOR_INSTRUCTIONS}\n\n```python\n{code.rstrip()}\n```\n\n"
        f"Calls and their results:\n```python\n{shown}\n```"
    )
    messages: list[dict[str, str]] = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": user})
    head = f"{system_prompt}\n\n" if system_prompt else ""
    text = f"{head}{user}\n\n{AUTHOR_PRIMER}"
    return Prompt(tuple(messages), text, AUTHOR_PRIMER, messages_hash(messages))
