"""Grading: reading answers out of responses, judging them, and the official CRUXEval scorer.

    from core_bench.grading import extract_answer, grade_value, grade_inputs, grade_response

    found = extract_answer(response, task="output", call="f([1, 2])")  # Extracted(answer, how)
    verdict, reason = grade_value(found.answer, "[2, 1]")             # one value grader
    answer, verdict, reason = grade_response(response, task="output", expected="[2, 1]")
    graded = grade_inputs([(code, "f([2, 1])", "[1, 2]")], pool)      # run in the sandbox
    scored = score_cruxeval(generations, "output", rows, pool)        # the official numbers

Verdicts are `core_bench.schemas.Verdict`: "correct", "wrong", "unparseable" (no answer, or
not a literal: counted, never dropped), "timeout" and "error".
"""

from __future__ import annotations

from core_bench.grading._cruxeval import (
    MODES,
    OFFICIAL_TIMEOUT_S,
    CruxRow,
    check_program,
    cruxeval_row,
    pass_at_k,
    score_cruxeval,
    skipped,
)
from core_bench.grading._extract import TASKS, Extracted, extract_answer
from core_bench.grading._free_text import is_free_text, matches_free_text
from core_bench.grading._inputs import grade_inputs
from core_bench.grading._trace import grade_trace, parse_trace
from core_bench.grading._values import grade_value
from core_bench.schemas import Verdict


def grade_response(
    text: str,
    *,
    task: str,
    expected: str,
    call: str | None = None,
    float_tolerance: float = 0.0,
    truncated: bool = False,
) -> tuple[str | None, Verdict, str]:
    """Extract the answer from a response and grade it against the expected repr.

    Args:
        text: the model's raw response.
        task: "output", "probe" or "full_trace" (input tasks run code: use `extract_answer`
            and `grade_inputs`).
        expected: the expected value's repr; for full_trace the repr of the list of
            `[line, {name: value}]` pairs.
        call: the call the task asks about (see `extract_answer`).
        float_tolerance: relative and absolute tolerance for floats (default 0: exact).
        truncated: the response was cut at the token limit (see `extract_answer`).

    Returns:
        `(answer, verdict, reason)`: the extracted answer (None when none was found) and the
        value grader's verdict and reason; a full trace is compared pair by pair. An
        `expected` that is free text, not a literal (a question imported as written), is also
        met by an answer tag or answer saying that text (`matches_free_text`).

    Raises:
        ValueError: `task` is "input" or unknown, or a full_trace `expected` is not a trace.
    """
    if task == "input":
        raise ValueError("input predictions are graded by running them: use grade_inputs")
    found = extract_answer(text, task=task, call=call, truncated=truncated)
    if task == "full_trace":
        verdict, reason = grade_trace(found.answer, expected, float_tolerance=float_tolerance)
    else:
        verdict, reason = grade_value(found.answer, expected, float_tolerance=float_tolerance)
        # Questions imported as written may expect free text (CoRE's "else", "i=0, j=1").
        free = verdict != "correct" and is_free_text(expected)
        if free and matches_free_text(text, found.answer, expected):
            verdict, reason = "correct", ""
    return found.answer, verdict, reason


__all__ = [
    "MODES",
    "OFFICIAL_TIMEOUT_S",
    "TASKS",
    "CruxRow",
    "Extracted",
    "check_program",
    "cruxeval_row",
    "extract_answer",
    "grade_inputs",
    "grade_response",
    "grade_trace",
    "grade_value",
    "parse_trace",
    "pass_at_k",
    "score_cruxeval",
    "skipped",
]
