"""Answer extraction: real-world response shapes, each reading path, and what is skipped."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from core_bench.grading import Extracted, extract_answer, grade_value
from tracer import read_literal

CALL = "f([1, 2, 3])"

# (id, task, response, expected answer, expected how)
SHAPES: list[tuple[str, str, str, str | None, str]] = [
    # -- CRUXEval's own form and what harnesses get wrong about it
    (
        "tag-assert",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == [3, 2, 1][/ANSWER]",
        "[3, 2, 1]",
        "answer_tag",
    ),
    (
        "tag-lines",
        "output",
        "[ANSWER]\nassert f([1, 2, 3]) == [3, 2, 1]\n[/ANSWER]",
        "[3, 2, 1]",
        "answer_tag",
    ),
    (
        "tag-unclosed-stop-sequence",
        "output",
        "[ANSWER]\nassert f([1, 2, 3]) == 6\n",
        "6",
        "answer_tag",
    ),
    ("tag-bare-value", "output", "[ANSWER][3, 2, 1][/ANSWER]", "[3, 2, 1]", "answer_tag"),
    (
        "tag-hash-in-string",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == 'a#b'[/ANSWER]",
        "'a#b'",
        "answer_tag",
    ),
    (
        "tag-hash-and-comment",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == '#x'  # a comment[/ANSWER]",
        "'#x'",
        "answer_tag",
    ),
    (
        "tag-eq-in-string",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == 'a == b'[/ANSWER]",
        "'a == b'",
        "answer_tag",
    ),
    (
        "tag-call-on-right",
        "output",
        "[ANSWER]assert [3, 2, 1] == f([1, 2, 3])[/ANSWER]",
        "[3, 2, 1]",
        "answer_tag",
    ),
    (
        "tag-no-assert-keyword",
        "output",
        "[ANSWER] f([1, 2, 3]) == 'abc' [/ANSWER]",
        "'abc'",
        "answer_tag",
    ),
    (
        "tag-assert-message",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == 3, 'sum'[/ANSWER]",
        "3",
        "answer_tag",
    ),
    (
        "tag-fence-inside",
        "output",
        "[ANSWER]\n```python\nassert f([1, 2, 3]) == {'a': 1}\n```\n[/ANSWER]",
        "{'a': 1}",
        "answer_tag",
    ),
    (
        "tag-prose-inside",
        "output",
        "[ANSWER]\nThe output is 'xyz'.\n[/ANSWER]",
        "'xyz'",
        "answer_tag",
    ),
    (
        "tag-then-continued-fewshot",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == 1[/ANSWER]\n[PYTHON]\ndef f(x):\n    return x\n"
        "assert f(2) == ??\n[/PYTHON]\n[ANSWER]assert f(2) == 2[/ANSWER]",
        "1",
        "answer_tag",
    ),
    (
        "tag-trailing-commentary",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == True[/ANSWER]\n\n"
        "This holds because every element is positive.",
        "True",
        "answer_tag",
    ),
    (
        "tag-value-then-prose",
        "output",
        "[ANSWER]5 (the loop runs five times)[/ANSWER]",
        "5",
        "answer_tag",
    ),
    (
        "tag-multiline-dict",
        "output",
        "[ANSWER]\nassert f([1, 2, 3]) == {\n    'a': [1, 2],\n    'b': None,\n}\n[/ANSWER]",
        "{\n    'a': [1, 2],\n    'b': None,\n}",
        "answer_tag",
    ),
    (
        "tag-lowercase-answer-xml",
        "output",
        "<answer>\n[3, 2, 1]\n</answer>",
        "[3, 2, 1]",
        "answer_tag",
    ),
    ("tag-is-none", "output", "[ANSWER]assert f([1, 2, 3]) is None[/ANSWER]", "None", "answer_tag"),
    (
        "tag-f-in-string",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == 'f(1)'[/ANSWER]",
        "'f(1)'",
        "answer_tag",
    ),
    (
        "tag-unparseable-kept",
        "output",
        "[ANSWER]assert f([1, 2, 3]) == ??[/ANSWER]",
        "assert f([1, 2, 3]) == ??",
        "answer_tag",
    ),
    # -- chat models: preambles, fences, reasoning blocks
    (
        "chat-preamble-tag",
        "output",
        "Sure! Let's execute the code step by step.\n1. nums = [1, 2, 3]\n2. reversed\n"
        "[ANSWER]\nassert f([1, 2, 3]) == [3, 2, 1]\n[/ANSWER]",
        "[3, 2, 1]",
        "answer_tag",
    ),
    (
        "think-skipped",
        "output",
        "<think>Maybe assert f([1, 2, 3]) == 4? No.</think>\n"
        "[ANSWER]assert f([1, 2, 3]) == 5[/ANSWER]",
        "5",
        "answer_tag",
    ),
    (
        "think-open-tag-in-prompt",
        "output",
        "so the answer is 4... wait, 5.\n</think>\n\nThe answer is 5.",
        "5",
        "final_line",
    ),
    (
        "think-unclosed-truncated",
        "output",
        "<think>Let me trace. The answer is 4 because",
        None,
        "none",
    ),
    (
        "think-then-final",
        "output",
        "<think>The answer is 4</think>The answer is 5.",
        "5",
        "final_line",
    ),
    (
        "fence-assert",
        "output",
        "Here is the completed assertion:\n```python\nassert f([1, 2, 3]) == [3, 2, 1]\n```",
        "[3, 2, 1]",
        "fence",
    ),
    ("fence-unclosed", "output", "```python\nassert f([1, 2, 3]) == 'abc'\n", "'abc'", "fence"),
    (
        "fence-bare-no-language",
        "output",
        "The function returns:\n```\n[3, 2, 1]\n```",
        "[3, 2, 1]",
        "fence",
    ),
    (
        "fence-indented-assert",
        "output",
        "```python\n    assert f([1, 2, 3]) == 6  # noqa\n```",
        "6",
        "fence",
    ),
    (
        "fence-code-then-assert",
        "output",
        "```python\ndef f(nums):\n    return nums[::-1]\n\nassert f([1, 2, 3]) == [3, 2, 1]\n```",
        "[3, 2, 1]",
        "fence",
    ),
    ("fence-repl", "output", "```\n>>> f([1, 2, 3])\n[3, 2, 1]\n```", "[3, 2, 1]", "fence"),
    (
        "fence-output-assignment",
        "output",
        "```python\noutput = 'hello world'\n```",
        "'hello world'",
        "fence",
    ),
    (
        "fence-then-final-answer-wins",
        "output",
        "```python\nassert f([1, 2, 3]) == 3\n```\nWait, I made an error.\n**Final Answer:** `4`",
        "4",
        "final_line",
    ),
    (
        "final-after-code-fence",
        "output",
        "Final answer: 7\n```python\nprint(f([1, 2, 3]))  # prints 7\n```",
        "7",
        "final_line",
    ),
    (
        "fence-of-the-call-is-no-answer",
        "output",
        "Let's run\n```python\nf([1, 2, 3])\n```\nThe output is 6.",
        "6",
        "final_line",
    ),
    (
        "fence-of-an-intermediate-state",
        "output",
        "```python\ntotal = 3\n```\nSo f([1, 2, 3]) returns 6.",
        "6",
        "final_line",
    ),
    ("empty-tag-then-prose", "output", "[ANSWER][/ANSWER]\nFinal answer: 3", "3", "final_line"),
    # -- asserts in prose
    (
        "prose-assert-inline-code",
        "output",
        "So `assert f([1, 2, 3]) == 'ok'` holds.",
        "'ok'",
        "assert",
    ),
    (
        "prose-last-assert-wins",
        "output",
        "First guess: assert f([1, 2, 3]) == 1\nOn reflection:\nassert f([1, 2, 3]) == 2",
        "2",
        "assert",
    ),
    (
        "prose-assert-for-the-asked-call",
        "output",
        "assert f([1, 2, 3]) == 9\nFor comparison, assert f([]) == 0",
        "9",
        "assert",
    ),
    (
        "prose-assert-double-quotes",
        "output",
        'Therefore: assert f([1, 2, 3]) == "it\'s"',
        '"it\'s"',
        "assert",
    ),
    # -- final-answer lines
    ("final-answer-colon", "output", "Tracing...\nFinal answer: 'hello'", "'hello'", "final_line"),
    (
        "final-answer-bold-backticks",
        "output",
        "Some reasoning.\n\n**Final Answer:** `[1, 2]`",
        "[1, 2]",
        "final_line",
    ),
    ("answer-is-period", "output", "Step 1...\nThe answer is 'abc'.", "'abc'", "final_line"),
    (
        "output-of-call-is",
        "output",
        "Therefore, the output of f([1, 2, 3]) is [3, 2, 1].",
        "[3, 2, 1]",
        "final_line",
    ),
    ("returns-value", "output", "After the loop, so f([1, 2, 3]) returns 6.", "6", "final_line"),
    ("value-comma-because", "output", "The result is True, because 3 > 2.", "True", "final_line"),
    (
        "answer-on-next-line",
        "output",
        "The output is:\n\n{'a': 1, 'b': 2}",
        "{'a': 1, 'b': 2}",
        "final_line",
    ),
    ("boxed", "output", "Thus the result is $\\boxed{[1, 2]}$", "[1, 2]", "final_line"),
    (
        "output-colon-line",
        "output",
        "Input: [1, 2, 3]\nOutput: [3, 2, 1]",
        "[3, 2, 1]",
        "final_line",
    ),
    ("windows-newlines", "output", "Reasoning\r\nFinal answer: 42\r\n", "42", "final_line"),
    ("final-answer-sentence", "output", "Final answer: the output is 'q'.", "'q'", "final_line"),
    # -- last line, none
    ("last-line-value", "output", "Let me think about it.\n[3, 2, 1]", "[3, 2, 1]", "last_line"),
    ("prose-only", "output", "I am not sure what this function does.", None, "none"),
    ("empty", "output", "", None, "none"),
    # -- input prediction: the answer is the call
    (
        "input-tag-assert",
        "input",
        "[ANSWER]assert f('abc', 2) == 'ab'[/ANSWER]",
        "f('abc', 2)",
        "answer_tag",
    ),
    (
        "input-tag-call-on-right",
        "input",
        "[ANSWER]assert 'ab' == f('abc', 2)[/ANSWER]",
        "f('abc', 2)",
        "answer_tag",
    ),
    ("input-tag-bare-call", "input", "[ANSWER]f([3, 1])[/ANSWER]", "f([3, 1])", "answer_tag"),
    ("input-tag-bare-arguments", "input", "[ANSWER]'abc', 2[/ANSWER]", "f('abc', 2)", "answer_tag"),
    (
        "input-hash-in-string",
        "input",
        "[ANSWER]assert f('#a') == 1  # comment[/ANSWER]",
        "f('#a')",
        "answer_tag",
    ),
    (
        "input-keyword-argument",
        "input",
        "```python\nassert f(text='x', n=2) == 'xx'\n```",
        "f(text='x', n=2)",
        "fence",
    ),
    (
        "input-placeholder-unparseable",
        "input",
        "[ANSWER]assert f(??) == 'ab'[/ANSWER]",
        "assert f(??) == 'ab'",
        "answer_tag",
    ),
    ("input-final-line", "input", "So the input is f([1, 2]).", "f([1, 2])", "final_line"),
    (
        "input-think-skipped",
        "input",
        "<think>assert f(0) == 1</think>\nassert f(1) == 1",
        "f(1)",
        "assert",
    ),
    # -- probes
    ("probe-bare", "probe", "7", "7", "last_line"),
    (
        "probe-last-line-word",
        "probe",
        "Line 3 runs for the second time.\nYes.",
        "True",
        "last_line",
    ),
    ("probe-yes", "probe", "[ANSWER]Yes[/ANSWER]", "True", "answer_tag"),
    (
        "probe-assignment",
        "probe",
        "After line 4 runs:\n```python\nx = [1, 2]\n```",
        "[1, 2]",
        "fence",
    ),
    ("probe-value-of-is", "probe", "The value of `total` after line 5 is 12.", "12", "final_line"),
    ("probe-return-word", "probe", "Answer: return", "'return'", "final_line"),
    ("probe-backticked-then-stop", "probe", "So x is `[1, 2]`.", "[1, 2]", "final_line"),
    ("probe-equals", "probe", "After its 2nd run, `count` equals 3.", "3", "final_line"),
    ("probe-value-said-last", "probe", "The loop is over, so `s` is 'ab'.", "'ab'", "final_line"),
]


@pytest.mark.parametrize(
    ("task", "response", "answer", "how"),
    [pytest.param(task, text, answer, how, id=name) for name, task, text, answer, how in SHAPES],
)
def test_real_world_shapes(task: str, response: str, answer: str | None, how: str) -> None:
    call = CALL if task == "output" else ("f(??)" if task == "input" else None)
    assert extract_answer(response, task=task, call=call) == Extracted(answer, how)


def test_table_has_at_least_forty_shapes() -> None:
    assert len(SHAPES) >= 40
    assert {how for *_, how in SHAPES} >= {
        "answer_tag",
        "assert",
        "fence",
        "final_line",
        "last_line",
        "none",
    }


def test_bare_arguments_take_the_function_name_of_the_call() -> None:
    found = extract_answer("[ANSWER][1], 2[/ANSWER]", task="input", call="solve(??)")
    assert found == Extracted("solve([1], 2)", "answer_tag")


@pytest.mark.parametrize(
    ("call", "entry"),
    [
        ("# the call of the task, not f(x)\ng(??)", "g"),  # a name in a comment
        ("(g)('f(')", "g"),  # the callee in parentheses, "f(" inside a string
        ("g('f(', 1)", "g"),
        ("mod.g(??)", "mod.g"),
    ],
)
def test_the_function_name_is_the_parsed_callee(call: str, entry: str) -> None:
    found = extract_answer("[ANSWER][1], 2[/ANSWER]", task="input", call=call)
    assert found == Extracted(f"{entry}([1], 2)", "answer_tag")


def test_full_trace_reads_the_list_of_pairs() -> None:
    text = 'Here is the trace:\n```json\n[[2, {"x": 1}], [3, {"y": true}]]\n```\nDone.'
    assert extract_answer(text, task="full_trace") == Extracted(
        '[[2, {"x": 1}], [3, {"y": true}]]', "fence"
    )
    tagged = "[ANSWER]\n[[2, {'x': 1}], [3, {}]]\n[/ANSWER]"
    assert extract_answer(tagged, task="full_trace").answer == "[[2, {'x': 1}], [3, {}]]"


def test_unknown_task_is_refused() -> None:
    with pytest.raises(ValueError, match="task must be one of"):
        extract_answer("5", task="guess")


def test_full_trace_in_plain_prose_is_the_latest_list_of_pairs() -> None:
    text = (
        "First I tried [] and [1, 2].\n"
        "The trace is\n"
        "[\n    [2, {'x': 1}],\n    [3, {}],\n]\n"
        "That is all."
    )
    found = extract_answer(text, task="full_trace")
    assert found.how == "last_line"
    assert found.answer == "[\n    [2, {'x': 1}],\n    [3, {}],\n]"
    assert extract_answer("No idea. []", task="full_trace") == Extracted(None, "none")


# -- a corpus of real-looking responses, each with the answer a person would take ----------------

CORPUS = Path(__file__).parent / "data" / "extraction_corpus.jsonl"
"""Responses in the shapes small and large models give (ids name the shape), each with the
answer a person reading it would take ("person", null for none) and the right answer
("expected"). Entries whose code or reasoning holds the right value but state no answer are
traps: taking that value is a false correct. The `held-*` entries were written after the
extractor was tuned on the others; run as written they gave 1 false correct and 4 misses of
25, which the extractor then fixed (an inline `return None` in prose, a JSON answer, "ends up
as", "the return value is therefore")."""

KNOWN_MISSES: dict[str, str] = {
    # The first answer tag is the answer (CRUXEval's rule: what follows it is continued
    # few-shot text, and stop sequences cut it there), even when the model corrects itself.
    "more-self-correction": "'5'",
}
"""Corpus entries where extraction does not take what a person would (id -> what it takes)."""


def _corpus() -> list[dict[str, Any]]:
    with CORPUS.open() as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _call_dump(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    return ast.dump(node) if isinstance(node, ast.Call) else None


def _key(task: str, answer: str | None) -> object:
    """What an answer means for grading: the call (input tasks) or the value; None when it
    is no answer or does not read (graded unparseable either way)."""
    if task == "input":
        return _call_dump(answer)
    if answer is None:
        return None
    ok, value = read_literal(answer)
    if not ok:
        return None
    return (
        "literal",
        repr(value)
        if not isinstance(value, set | dict)
        else sorted(map(repr, value.items() if isinstance(value, dict) else value)),
    )


def _correct(task: str, answer: str | None, expected: str) -> bool:
    if task == "input":
        return answer is not None and _call_dump(answer) == _call_dump(expected)
    return answer is not None and grade_value(answer, expected)[0] == "correct"


def _read_corpus() -> tuple[list[dict[str, Any]], list[str], dict[str, str]]:
    rows = _corpus()
    false_correct: list[str] = []
    misses: dict[str, str] = {}
    for row in rows:
        task = row["task"]
        got = extract_answer(
            row["response"], task=task, call=row["call"], truncated=row["truncated"]
        ).answer
        if _correct(task, got, row["expected"]) and not _correct(
            task, row["person"], row["expected"]
        ):
            false_correct.append(row["id"])
        if _key(task, got) != _key(task, row["person"]):
            misses[row["id"]] = repr(got)
    return rows, false_correct, misses


def test_corpus_has_no_false_corrects_and_only_the_listed_misses() -> None:
    rows, false_correct, misses = _read_corpus()
    assert len(rows) >= 150
    assert len({row["id"] for row in rows}) == len(rows)
    assert false_correct == []
    assert misses == KNOWN_MISSES


def test_corpus_covers_the_shapes_of_issue_14() -> None:
    ids = " ".join(row["id"] for row in _corpus())
    for shape in (
        "close-only",
        "open-then",
        "times-",
        "before-thought",
        "code-",
        "think-",
        "md-",
        "answer-is",
        "trail-",
        "several-",
        "cut-",
        "in-print",
        "in-other",
    ):
        assert shape in ids
    # the traps: responses whose code holds the expected value, which a person does not take
    traps = [row for row in _corpus() if row["person"] is None]
    assert len(traps) >= 30


def test_a_truncated_response_gives_only_explicit_answers() -> None:
    cut = "Okay so first x is 3. Then the loop runs and x is 4, then x is 5, and then"
    assert extract_answer(cut, task="probe").answer == "5"  # read as a finished sentence
    assert extract_answer(cut, task="probe", truncated=True) == Extracted(None, "none")
    stated = "The loop runs twice. So the answer is 2. Let me double check: the first"
    assert extract_answer(stated, task="probe", truncated=True).answer == "2"
    tagged = "[ANSWER]\n7\n"
    assert extract_answer(tagged, task="probe", truncated=True).answer == "7"


def test_every_corpus_response_without_the_truncation_flag_is_still_read() -> None:
    # Without knowing a response was cut, reading its last words is a guess: these are the
    # corpus entries where the guess would be a false correct (the runner passes the flag).
    wrong = []
    for row in _corpus():
        got = extract_answer(row["response"], task=row["task"], call=row["call"]).answer
        if _correct(row["task"], got, row["expected"]) and not _correct(
            row["task"], row["person"], row["expected"]
        ):
            wrong.append(row["id"])
    assert wrong == ["cut-rambling-prose", "cut-cot-becomes"]
