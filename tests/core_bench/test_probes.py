"""Probe kinds on small hand-written functions, selection, determinism and skipped values."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from programs import FIZZ

from core_bench.probes import (
    KINDS,
    PROBE_KINDS,
    CallContext,
    Reading,
    answerable,
    candidate_probes,
    guessed,
    probes_for_call,
)
from core_bench.schemas import Probe
from tracer import trace

ROOT = Path(__file__).resolve().parents[2]

NESTED = (
    "def f(m):\n"
    "    total = 0\n"
    "    for i in range(m):\n"
    "        for j in range(i):\n"
    "            total += i * j\n"
    "    return total\n"
)
CAP = "def f(x):\n    y = x * 2\n    if y > 10:\n        y = 10\n"
FIB = (
    "def fib(n):\n"
    "    if n < 2:\n"
    "        return n\n"
    "    return fib(n - 1) + fib(n - 2)\n"
    "\n"
    "def f(n):\n"
    "    return fib(n)\n"
)
SHORT = "def f(a):\n    b = a + 1\n    c = [b] * 2\n    return c\n"
# Every kind has candidates here: a helper, loops, conditions, an unexecuted line.
RICH = (
    "def scale(v, k):\n"
    "    return v * k\n"
    "\n"
    "def f(xs, k):\n"
    "    out = []\n"
    "    best = None\n"
    "    for x in xs:\n"
    "        if x < 0 and k > 0:\n"
    "            continue\n"
    "        y = scale(x, k) + 1\n"
    "        out.append(y)\n"
    "        if best is None or y > best:\n"
    "            best = y\n"
    "    if best is None:\n"
    "        best = -1\n"
    "    return out, best\n"
)
RICH_CALL = "f([3, -1, 4, 1, -5, 9, 2, 6], 2)"


def probes_of(code: str, call: str, kinds: list[str] | None = None) -> list[Probe]:
    return candidate_probes("p", "p:original", code, 0, trace(code, call), kinds=kinds)


def find(probes: list[Probe], kind: str, line: int, occurrence: int, var: str | None) -> Probe:
    for p in probes:
        a = p.anchor
        if (p.kind, a.line, a.occurrence, a.variable) == (kind, line, occurrence, var):
            return p
    raise AssertionError(f"no {kind} probe at line {line}, occurrence {occurrence}, {var}")


# The question a probe asks (QUESTIONS) and the probe (ASKED: program, call, kind, line,
# occurrence, variable, answer), by the same name.
QUESTIONS = {
    "state_after-13th-run": (
        "What is `count` right after line 5 (`count += str(num).count('7')`) "
        "runs for the 13th time (when `num` = 77)?"
    ),
    "state_after-two-operators": (
        "What is `total` right after line 5 (`total += i * j`) runs for the 3rd "
        "time (when `i` = 2 and `j` = 1)?"
    ),
    "state_after-repeated-values": (
        "What is `j` right after line 4 (`for j in range(i):`) runs for the 5th time? "
        "The final check of line 4, which ends the loop, counts as a run."
    ),
    "branch-compound": (
        "When line 4 (`if num % 11 == 0 or num % 13 == 0:`) runs for the 78th time "
        "(when `num` = 77), is the condition `num % 11 == 0 or num % 13 == 0` true? "
        "Answer True or False."
    ),
    "loop_iterations-one-entry": (
        "Take the 3rd start of the loop on line 4 (`for j in range(i):`), at the 4th run of "
        "line 4 (when `i` = 2). How many times does its body run before the loop is left? "
        "Count a pass left by `break` or `return` too. "
        "The final check of line 4, which ends the loop, counts as a run."
    ),
    "loop_exit_state": (
        "Take the loop on line 3 (`for num in range(n):`). What is `count` right after the "
        "loop ends?"
    ),
}
ASKED = {
    "state_after-13th-run": (FIZZ, "f(80)", "state_after", 5, 13, "count", "2"),
    "state_after-two-operators": (NESTED, "f(4)", "state_after", 5, 3, "total", "2"),
    "state_after-repeated-values": (NESTED, "f(4)", "state_after", 4, 5, "j", "1"),
    "branch-compound": (FIZZ, "f(80)", "branch", 4, 78, None, "True"),
    "loop_iterations-one-entry": (NESTED, "f(4)", "loop_iterations", 4, 4, None, "2"),
    "loop_exit_state": (FIZZ, "f(80)", "loop_exit_state", 3, 1, "count", "3"),
}


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_question_and_answer(name: str) -> None:
    code, call, kind, line, occurrence, variable, answer = ASKED[name]
    probe = find(probes_of(code, call), kind, line, occurrence, variable)
    assert (probe.question, probe.answer) == (QUESTIONS[name], answer)


def test_state_after_names_line_occurrence_and_unique_iteration_value() -> None:
    probe = find(probes_of(FIZZ, "f(80)"), "state_after", 5, 13, "count")
    assert probe.answer_type == "int"
    assert probe.dimensions == ["State"]
    assert probe.id == "p:original:c0:state_after:5:13:count"
    assert probe.features.iteration == 78
    assert probe.features.nesting == 1


def test_state_after_on_a_line_with_two_operators_is_arithmetic_too() -> None:
    probe = find(probes_of(NESTED, "f(4)"), "state_after", 5, 3, "total")
    assert probe.dimensions == ["Arithmetic", "State"]
    assert probe.features.operators == 2
    assert probe.features.nesting == 2


def test_branch_on_a_compound_condition() -> None:
    probe = find(probes_of(FIZZ, "f(80)"), "branch", 4, 78, None)
    assert probe.answer_type == "bool"
    assert probe.dimensions == ["Logic"]
    assert probe.features.operators == 5
    assert find(probes_of(FIZZ, "f(80)"), "branch", 4, 2, None).answer == "False"


def test_loop_iterations_counts_the_body_runs_of_one_entry() -> None:
    probes = probes_of(NESTED, "f(4)")
    assert find(probes, "loop_iterations", 4, 4, None).dimensions == ["Boundary"]
    assert find(probes, "loop_iterations", 4, 1, None).answer == "0"
    # `for i in range(m)` with m = 4 and no early exit: the call tells, so it is not asked
    assert not [p for p in probes if p.kind == "loop_iterations" and p.anchor.line == 3]


def test_loop_exit_state_reads_the_first_step_after_the_loop() -> None:
    probes = probes_of(FIZZ, "f(80)")
    assert find(probes, "loop_exit_state", 3, 1, "count").dimensions == ["Boundary", "State"]
    # `num` ends as the last element of range(80): the call tells, so it is not asked
    assert not [p for p in probes if p.kind == "loop_exit_state" and p.anchor.variable == "num"]


def test_loop_exit_state_after_break_and_loop_iterations_with_return() -> None:
    code = (
        "def f(xs):\n"
        "    for i, x in enumerate(xs):\n"
        "        if x < 0:\n"
        "            break\n"
        "    for y in xs:\n"
        "        if y > 5:\n"
        "            return y\n"
        "    return None\n"
    )
    probes = probes_of(code, "f([4, 7, -2, 8])")
    assert find(probes, "loop_exit_state", 2, 1, "i").answer == "2"
    assert find(probes, "loop_iterations", 2, 1, None).answer == "3"
    assert find(probes, "loop_iterations", 5, 1, None).answer == "2"
    assert not [p for p in probes if p.kind == "loop_exit_state" and p.anchor.line == 5]


def test_coverage_asks_about_executed_and_unexecuted_lines() -> None:
    probes = probes_of(CAP, "f(3)", kinds=["coverage"])
    # lines 2 and 3 run whenever `f` runs: the code alone tells, so they are not asked
    assert {p.anchor.line: p.answer for p in probes} == {4: "False"}
    never = find(probes, "coverage", 4, 1, None)
    assert never.question == "Does line 4 (`y = 10`) run at all in this call? Answer True or False."
    assert never.features.step_index == len(trace(CAP, "f(3)").steps)
    assert never.features.iteration is None


def test_coverage_skips_lines_of_functions_the_call_never_ran() -> None:
    code = "def unused(x):\n    return x + 1\n\ndef f(x):\n    if x:\n        return x\n"
    assert [p.anchor.line for p in probes_of(code, "f(1)", kinds=["coverage"])] == [6]


def test_next_line_gives_the_line_or_the_return_marker() -> None:
    probes = probes_of(CAP, "f(3)", kinds=["next_line"])
    after_if = find(probes, "next_line", 3, 1, None)
    assert after_if.question == (
        "After line 3 (`if y > 10:`) runs, which line of `f` runs next? Lines inside functions "
        "it calls do not count. Answer with a line number, or 'return' if `f` returns."
    )
    assert after_if.answer == "'return'"
    assert after_if.answer_type == "line"
    assert not [p for p in probes if p.anchor.line == 2]  # straight-line: the code tells
    fizz = probes_of(FIZZ, "f(3)", kinds=["next_line"])
    assert find(fizz, "next_line", 4, 1, None).answer == "5"  # num = 0: both tests hold
    assert find(fizz, "next_line", 4, 2, None).answer == "3"  # the test fails: back to line 3
    assert not [p for p in fizz if p.anchor.line == 5]  # always back to the header


def test_call_return_counts_calls_in_start_order() -> None:
    probes = probes_of(FIB, "f(4)", kinds=["call_return"])
    second = find(probes, "call_return", 1, 2, "fib")
    assert second.question == (
        "What does the 2nd call of `fib` (the one where `n` = 3) return? `fib` is defined on "
        "line 1 (`def fib(n):`). Calls are counted in the order they start."
    )
    assert second.answer == "2"
    third = find(probes, "call_return", 1, 3, "fib")
    assert "(the one where" not in third.question  # fib(2) is called twice
    assert third.answer == "1"
    assert [p.answer for p in probes] == ["3", "2", "1", "1", "0", "1", "1", "1", "0"]


def test_call_return_of_a_recursive_entry_function_skips_the_entry_call() -> None:
    code = "def f(n):\n    if n == 0:\n        return []\n    return f(n - 1) + [n]\n"
    probes = probes_of(code, "f(2)", kinds=["call_return"])
    assert [(p.anchor.occurrence, p.answer) for p in probes] == [(2, "[1]"), (3, "[]")]
    assert "`f(2)` itself is the 1st" in probes[0].question


def test_full_trace_lists_runs_with_changed_values() -> None:
    (probe,) = probes_of(SHORT, "f(1)", kinds=["full_trace"])
    assert probe.answer == "[[2, {'b': 2}], [3, {'c': [2, 2]}], [4, {}]]"
    assert probe.answer_type == "trace"
    assert probe.anchor.line == 1 and probe.anchor.variable is None
    assert probe.dimensions == ["Arithmetic", "Logic", "State", "Boundary"]
    assert probe.question.startswith("Trace this call of `f` (defined on line 1): list every")


def test_full_trace_only_for_short_traces() -> None:
    assert probes_of(FIZZ, "f(3)", kinds=["full_trace"])
    assert not probes_of(FIZZ, "f(80)", kinds=["full_trace"])


def test_opaque_and_cut_values_are_never_asked() -> None:
    code = (
        "class P:\n"
        "    pass\n"
        "\n"
        "def f(n):\n"
        "    p = P()\n"
        "    s = 'ab' * 600\n"
        "    t = s[:n]\n"
        "    return t\n"
    )
    probes = probes_of(code, "f(3)")
    assert {p.anchor.variable for p in probes if p.kind == "state_after"} == {"t"}
    assert not [p for p in probes if p.kind == "full_trace"]
    assert all("<" not in p.answer for p in probes)


def test_multiline_statements_are_never_anchors() -> None:
    code = (
        "def f(n):\n    d = {\n        'a': n,\n    }\n    y = (n +\n         1)\n"
        "    if y > 2:\n        y = 0\n    return d, y\n"
    )
    probes = probes_of(code, "f(2)")
    kept = {p.anchor.line for p in probes if p.kind not in ("full_trace", "change_count")}
    assert probes and kept <= {7, 8, 9}


def test_runs_in_several_frames_are_counted_across_calls() -> None:
    probes = probes_of(FIB, "f(3)", kinds=["branch"])
    fourth = find(probes, "branch", 2, 4, None)
    assert "runs for the 4th time (runs counted over all calls of `fib`)" in fourth.question
    assert [p.answer for p in probes] == ["False", "False", "True", "True", "True"]


def test_truncated_traces_give_no_probes() -> None:
    code = "def f(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\n"
    cut = trace(code, "f(10000)", max_steps=50)
    assert cut.truncated
    assert probes_for_call("p", "v", code, 0, cut) == []


def test_selection_is_deterministic_from_the_seed() -> None:
    t = trace(RICH, RICH_CALL)
    first = probes_for_call("p", "p:original", RICH, 0, t, count=6, seed=7)
    again = probes_for_call("p", "p:original", RICH, 0, trace(RICH, RICH_CALL), count=6, seed=7)
    assert [p.model_dump() for p in first] == [p.model_dump() for p in again]
    selections = {
        tuple(p.id for p in probes_for_call("p", "p:original", RICH, 0, t, count=6, seed=s))
        for s in range(10)
    }
    assert len(selections) > 5
    other_variant = probes_for_call("p", "p:v1", RICH, 0, t, count=6, seed=7)
    assert [p.id.split(":", 2)[2] for p in other_variant] != [p.id.split(":", 2)[2] for p in first]


def test_selection_does_not_depend_on_the_hash_seed() -> None:
    script = (
        "import json, sys\n"
        "from tracer import trace\n"
        "from core_bench.probes import probes_for_call\n"
        "code, call = json.loads(sys.argv[1])\n"
        "t = trace(code, call)\n"
        "ps = [probes_for_call('p', 'v', code, 0, t, count=6, seed=s) for s in range(20)]\n"
        "print(json.dumps([[p.model_dump() for p in one] for one in ps]))\n"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script, json.dumps([RICH, RICH_CALL])],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].startswith("[[{")


def test_selection_is_stratified_over_kinds() -> None:
    t = trace(RICH, RICH_CALL)
    offered = {p.kind for p in candidate_probes("p", "v", RICH, 0, t)}
    # RICH's `f` has one `return` and raises nothing; full_trace only for short traces
    absent = {"full_trace", "return_line", "exception_line"}
    assert offered == set(PROBE_KINDS) - absent | ({"full_trace"} & offered)
    ctx = CallContext(RICH, t)
    # a kind whose every candidate a blind rule gets right takes part only by its coin
    unguessed = {
        kind
        for kind in offered
        if any(not answerable(ctx, r) and not guessed(ctx, r) for r in KINDS[kind].each(ctx))
    }
    heavy = {kind for kind in offered & unguessed if KINDS[kind].weight >= 1}
    light: Counter[str] = Counter()
    for seed in range(40):
        probes = probes_for_call("p", "v", RICH, 0, t, count=len(offered), seed=seed)
        per_kind = Counter(p.kind for p in probes)
        assert heavy <= set(per_kind)  # every kind of weight 1 or more takes part
        assert all(n <= (KINDS[kind].per_call or n) for kind, n in per_kind.items())
        light.update(set(per_kind) - heavy)
        six = probes_for_call("p", "v", RICH, 0, t, count=6, seed=seed)
        assert len({p.kind for p in six}) >= min(6, len(heavy))
    # a kind weighing less than 1 takes part in some calls, not all
    assert all(0 < light[kind] < 40 for kind in (offered & unguessed) - heavy), light


def test_selection_rarely_asks_what_a_blind_rule_answers() -> None:
    """A probe whose answer a code-blind rule of its kind gives is kept by a coin of the
    kind's `keep_guessed` probability per call; the others always stay candidates."""
    t = trace(RICH, RICH_CALL)
    ctx = CallContext(RICH, t)
    drawn = [p for s in range(60) for p in probes_for_call("p", "v", RICH, 0, t, seed=s)]
    offered = candidate_probes("p", "v", RICH, 0, t)

    def share(probes: list) -> float:  # type: ignore[type-arg]
        hits = [
            guessed(
                ctx,
                Reading(
                    p.kind, p.anchor.line, p.anchor.occurrence, p.anchor.variable, p.answer, 0, 1.0
                ),
            )
            for p in probes
        ]
        return sum(hits) / len(hits)

    bools = {k for k in KINDS if KINDS[k].answer == "bool"}
    assert share([p for p in drawn if p.kind not in bools]) < 0.5 * share(
        [p for p in offered if p.kind not in bools]
    )


def test_selection_prefers_error_prone_steps() -> None:
    """Late iterations and compound conditions are drawn more often than chance would."""
    t = trace(RICH, RICH_CALL)
    offered = candidate_probes("p", "v", RICH, 0, t, kinds=["state_after"])
    uniform = sum(p.features.iteration or 0 for p in offered) / len(offered)
    drawn = [  # state_after weighs less than 1: some calls do not ask it
        p
        for s in range(300)
        for p in probes_for_call("p", "v", RICH, 0, t, count=1, seed=s, kinds=["state_after"])
    ]
    assert sum(p.features.iteration or 0 for p in drawn) / len(drawn) > uniform + 0.5
    two = (
        "def f(xs):\n"
        "    n = 0\n"
        "    for x in xs:\n"
        "        if x > 2:\n"
        "            n += 1\n"
        "        if x > 0 and x % 2 == 0:\n"
        "            n += 2\n"
        "    return n\n"
    )
    t = trace(two, "f([1, 2, 3, 4, 5, 6])")
    branches = [
        p
        for s in range(600)
        for p in probes_for_call("p", "v", two, 0, t, count=1, seed=s, kinds=["branch"])
    ]
    expected = 600 * KINDS["branch"].weight  # branch takes part in that share of calls
    assert 0.6 * expected < len(branches) < 1.4 * expected
    # both conditions run equally often; the compound one is drawn far more than half the time
    assert sum(p.anchor.line == 6 for p in branches) / len(branches) > 0.65


def test_questions_of_one_call_are_unambiguous() -> None:
    for code, call in [(FIZZ, "f(80)"), (NESTED, "f(5)"), (FIB, "f(5)"), (RICH, RICH_CALL)]:
        seen: dict[str, str] = {}
        for probe in probes_of(code, call):
            assert seen.setdefault(probe.question, probe.answer) == probe.answer


def test_unknown_kinds_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown probe kind"):
        probes_for_call("p", "v", SHORT, 0, trace(SHORT, "f(1)"), kinds=["output"])
