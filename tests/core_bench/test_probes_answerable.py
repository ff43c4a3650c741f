"""Static answerability: probes whose answer the code text gives are never asked."""

from __future__ import annotations

import ast
from dataclasses import replace

from programs import COUNT_CODE, asked_variables, derived

from core_bench.datasets import load_dataset
from core_bench.probes import candidate_probes, static_answer
from core_bench.probes._answerable import _MUTATORS, _modified, for_call, static_facts
from core_bench.probes._context import CallContext
from core_bench.probes._registry import KINDS
from tracer import trace

CODE = (
    "def f(xs, k):\n"  # 1
    "    out = []\n"  # 2
    "    n, s = 0, ''\n"  # 3
    "    for x in xs:\n"  # 4
    "        if x > k:\n"  # 5
    "            out.append(x)\n"  # 6
    "            continue\n"  # 7
    "        n += 1\n"  # 8
    "    for c in 'abc':\n"  # 9
    "        s += c\n"  # 10
    "    if 'a' in 'abc':\n"  # 11
    "        n += 1\n"  # 12
    "    if n:\n"  # 13
    "        return out\n"  # 14
    "        n = 5\n"  # 15
    "    return s\n"  # 16
)
CALL = "f([1, 5, 2, 7], 3)"


def test_facts_of_straight_line_code_loops_and_literals() -> None:
    facts = static_facts(CODE)
    assert facts.always == {2, 3, 4, 9, 11, 13}  # line 13 may return: 16 may not run
    assert facts.dead == {15}
    # simple statements: the next statement, the loop header at a body's end, `continue`
    assert facts.successor == {2: "3", 3: "4", 6: "7", 7: "4", 8: "4", 10: "9", 12: "13"}
    assert facts.constants == {2: {"out": "[]"}, 3: {"n": "0", "s": "''"}}
    assert facts.literal_loops == {9: ("'a'", "'b'", "'c'")}
    assert facts.tests == {11: "True"}


def test_only_probes_the_code_cannot_tell_are_asked() -> None:
    probes = candidate_probes("p", "p:original", CODE, 0, trace(CODE, CALL))
    asked = {(p.kind, p.anchor.line) for p in probes}
    for line in (2, 3, 4, 9, 11, 13):  # always run
        assert ("coverage", line) not in asked
    assert ("coverage", 6) in asked and ("coverage", 14) in asked  # inside an `if`
    assert not {("next_line", line) for line in (2, 3, 6, 7, 8, 10, 12)} & asked
    assert ("next_line", 5) in asked and ("next_line", 4) in asked  # real branches
    assert ("state_after", 2) not in asked and ("state_after", 3) not in asked
    assert not [p for p in probes if p.kind == "state_after" and p.anchor.variable == "c"]
    assert ("loop_iterations", 9) not in asked and ("loop_iterations", 4) in asked
    assert ("branch", 11) not in asked and ("branch", 5) in asked
    assert ("run_count", 10) not in asked and ("run_count", 8) in asked
    state = [p for p in probes if p.kind == "state_after" and p.anchor.line == 8]
    assert state and all(static_answer(_ctx(), _reading(p)) is None for p in state)


def test_a_rule_that_derives_a_wrong_answer_keeps_the_probe() -> None:
    code = (
        "def g(x):\n"
        "    y = 10 // x\n"
        "    return y\n"
        "\n"
        "def f(x):\n"
        "    try:\n"
        "        return g(x)\n"
        "    except ZeroDivisionError:\n"
        "        return -1\n"
    )
    # line 3 runs whenever `g` runs, unless line 2 raises: here it does, so it is asked
    probes = candidate_probes("p", "p:original", code, 0, trace(code, "f(0)"))
    (line3,) = [p for p in probes if p.kind == "coverage" and p.anchor.line == 3]
    assert line3.answer == "False"
    ran = candidate_probes("p", "p:original", code, 0, trace(code, "f(2)"))
    assert not [p for p in ran if p.kind == "coverage" and p.anchor.line == 3]
    loop = (
        "def f(xs):\n    for x in [1, 2, 3]:\n        if x in xs:\n            break\n"
        "    return x\n"
    )
    kept = candidate_probes("p", "p:original", loop, 0, trace(loop, "f([2])"))
    # the loop can be left early: no literal-loop rule applies
    assert ("loop_iterations", 2) in {(p.kind, p.anchor.line) for p in kept}


def test_every_kind_has_a_rule_or_says_none() -> None:
    with_rules = {kind for kind, row in KINDS.items() if row.static is not None}
    assert with_rules >= {"coverage", "next_line", "state_after", "branch", "change_count"}
    assert {"first_true", "full_trace"}.isdisjoint(with_rules)


def test_names_bound_once_in_straight_line_code_change_a_known_number_of_times() -> None:
    code = (
        "def f(text, xs):\n"
        "    text = text.strip()\n"
        "    out = text.upper()\n"
        "    out = out + '!'\n"
        "    total = 0\n"
        "    for x in xs:\n"
        "        total += x\n"
        "    xs.append(total)\n"
        "    return out, xs\n"
    )
    probes = candidate_probes("p", "p:original", code, 0, trace(code, "f(' ab ', [1, 2])"))
    asked = {p.anchor.variable for p in probes if p.kind == "change_count"}
    # `text` and `out`: one rebinding each, always run; `total` changes in a loop, `xs` in place
    assert "text" not in asked and "out" not in asked
    assert {"total", "xs"} <= asked


def _ctx(code: str = CODE, call: str = CALL) -> CallContext:
    return CallContext(code, trace(code, call))


def _reading(probe):  # type: ignore[no-untyped-def]
    return KINDS[probe.kind].read(
        _ctx(), probe.anchor.line, probe.anchor.occurrence, probe.anchor.variable
    )


def test_loops_over_arguments_the_function_never_changes_are_read_from_the_call() -> None:
    code = (
        "def f(text, n):\n"  # 1
        "    out = ''\n"  # 2
        "    for c in text:\n"  # 3
        "        out += c * 2\n"  # 4
        "    for i in range(n):\n"  # 5
        "        if i % 2:\n"  # 6
        "            break\n"  # 7
        "    return out\n"  # 8
    )
    probes = candidate_probes("p", "p:original", code, 0, trace(code, "f('abc', 5)"))
    asked = {(p.kind, p.anchor.line) for p in probes}
    assert ("loop_iterations", 3) not in asked and ("run_count", 4) not in asked
    assert ("run_count", 3) not in asked and ("coverage", 4) not in asked
    assert not [p for p in probes if p.kind == "state_after" and p.anchor.variable == "c"]
    assert not [p for p in probes if p.kind == "next_line" and p.anchor.line == 3]
    assert ("loop_iterations", 5) in asked  # `break`: the passes are not in the call
    assert [p for p in probes if p.kind == "state_after" and p.anchor.line == 4]
    changed = "def f(xs):\n    xs.append(1)\n    for x in xs:\n        pass\n    return xs\n"
    kept = candidate_probes("p", "p:original", changed, 0, trace(changed, "f([1])"))
    assert ("loop_iterations", 3) in {(p.kind, p.anchor.line) for p in kept}  # xs changed


def test_a_while_test_tells_the_value_it_ends_on() -> None:
    call = "f('banana', 'an')"
    found = derived(COUNT_CODE, call, "loop_exit_state")
    assert found["start"] == ("-1", "-1")  # the test's literal tells, not a trace
    assert found["count"] == ("2", None)  # that needs running
    assert asked_variables(COUNT_CODE, call, "loop_exit_state") == {"count"}


def test_a_while_left_by_break_or_joined_by_and_tells_nothing() -> None:
    for header in ("while start != -1 and count < 5:", "while -1 != start:\n        break"):
        code = COUNT_CODE.replace("while start != -1:", header)
        assert static_facts(code).while_exits == {}
    either = COUNT_CODE.replace("while start != -1:", "while start != -1 or count != 2:")
    assert static_facts(either).while_exits == {6: {"start": "-1", "count": "2"}}
    reversed_ = COUNT_CODE.replace("while start != -1:", "while -1 != start:")
    assert static_facts(reversed_).while_exits == {6: {"start": "-1"}}


def _modified_reference(node: ast.FunctionDef, *, rebinding: bool) -> frozenset[str]:
    """The two-walk definition `_modified` replaced: one walk per name set."""
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del):
            if rebinding:
                names.add(sub.id)
        elif isinstance(sub, ast.Subscript | ast.Attribute) and isinstance(
            sub.ctx, ast.Store | ast.Del
        ):
            base = sub.value
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Attribute)
            and sub.func.attr in _MUTATORS
            and isinstance(sub.func.value, ast.Name)
        ):
            names.add(sub.func.value.id)
        elif isinstance(sub, ast.Global | ast.Nonlocal):
            names.update(sub.names)
    return frozenset(names)


def test_one_walk_reads_the_names_of_both_walks_on_the_bundled_functions() -> None:
    """Differential: `_modified`'s single walk against the two walks it replaced, and
    `for_call` (which returns the code's facts when a call adds no loop count) against the
    facts rebuilt with the call's counts, on every bundled problem."""
    functions = 0
    for row in load_dataset("bundled").rows:
        code = row.problem.code
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.FunctionDef):
                functions += 1
                assert _modified(node) == (
                    _modified_reference(node, rebinding=True),
                    _modified_reference(node, rebinding=False),
                )
        facts = static_facts(code)
        for call in row.problem.calls:
            found = for_call(code, call)
            assert found.loop_counts.items() >= facts.loop_counts.items()
            expected = replace(
                facts, loop_counts=found.loop_counts, literal_loops=found.literal_loops
            )
            assert found == expected
    assert functions >= 239


def test_a_counter_after_its_k_th_step_is_told_by_the_code() -> None:
    # `count = 0` then only `count += 1`: the k-th run leaves k, no execution needed.
    call = "f('banana', 'an')"
    assert static_facts(COUNT_CODE).counters == {7: {"count": (0, 1)}}
    found = derived(COUNT_CODE, call, "state_after")
    assert found["count"] == ("2", "2")
    assert "count" not in asked_variables(COUNT_CODE, call, "state_after")
    stepped = COUNT_CODE.replace("count = 0", "count = 10").replace(
        "count += 1", "count = count - 3"
    )
    assert static_facts(stepped).counters == {7: {"count": (10, -3)}}
    assert derived(stepped, call, "state_after")["count"] == ("4", "4")
    chained = COUNT_CODE.replace("count = 0", "count = hits = 0")
    assert static_facts(chained).counters == {7: {"count": (0, 1)}}


def test_what_is_not_a_counter_stays_a_question() -> None:
    not_counters = [
        COUNT_CODE.replace("        count += 1\n", "        count += 1\n        count *= 2\n"),
        COUNT_CODE.replace("        count += 1\n", "        count += len(pat)\n"),
        COUNT_CODE.replace("    count = 0\n", "    count = 0\n    count = 1\n"),
        COUNT_CODE.replace("    count = 0\n", "    count = 0.0\n"),
        COUNT_CODE.replace("    count = 0\n", "    count = True\n"),
        COUNT_CODE.replace(  # a nested function changes it unseen
            "    count = 0\n",
            "    count = 0\n    def bump():\n        nonlocal count\n        count += 5\n",
        ),
    ]
    for code in not_counters:
        assert static_facts(code).counters == {}, code
    # A function that runs twice in the call: the k-th run of the line spans both runs.
    twice = (
        "def g(n):\n"
        "    hits = 0\n"
        "    for _ in range(n):\n"
        "        hits += 1\n"
        "    return hits + (g(n - 1) if n > 1 else 0)\n"
    )
    assert static_facts(twice).counters == {4: {"hits": (0, 1)}}
    runs = derived(twice, "g(2)", "state_after")
    assert runs["hits"][1] is None


def test_a_top_level_range_target_at_its_k_th_pass_is_told_by_the_code() -> None:
    code = (
        "def f(parts):\n"  # 1
        "    out = []\n"  # 2
        "    for k in range(1, len(parts), 2):\n"  # 3
        "        out.append(parts[k])\n"  # 4
        "    for i in range(len(out)):\n"  # 5
        "        for j in range(i):\n"  # 6: one entry per pass of line 5
        "            out[i] += out[j]\n"  # 7
        "    return out\n"  # 8
    )
    facts = static_facts(code)
    assert facts.range_loops == {3: ("k", 1, 2), 5: ("i", 0, 1), 6: ("j", 0, 1)}
    ctx = CallContext(code, trace(code, "f([5, 6, 7, 8, 9, 10, 11])"))
    readings = [r for r in KINDS["state_after"].each(ctx) if r.line == 3]
    passes = [r for r in readings if r.occurrence <= 3]
    assert [r.answer for r in passes] == ["1", "3", "5"]
    assert [static_answer(ctx, r) for r in passes] == ["1", "3", "5"]
    # the run that ends the loop leaves k at 5: the rule says 7, so that probe is asked
    (last,) = [r for r in readings if r.occurrence == 4]
    assert (last.answer, static_answer(ctx, last)) == ("5", "7")
    inner = [r for r in KINDS["state_after"].each(ctx) if r.line == 6 and r.variable == "j"]
    assert inner and all(static_answer(ctx, r) is None for r in inner)  # many entries
