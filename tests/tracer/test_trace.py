"""The in-process tracer: steps, states, loops, branches, frames and limits."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap

import pytest

from tracer import CUT_MARK, Step, Trace, TraceError, trace


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def lines_of(t: Trace, func: str | None = None) -> list[int]:
    return [s.line for s in t.steps if s.event == "line" and (func is None or s.func == func)]


def after(t: Trace, step: Step) -> dict[str, str]:
    """Locals of the next step of the same frame: the state once `step` ran."""
    for later in t.steps[step.index + 1 :]:
        if later.frame == step.frame:
            return later.locals
    raise AssertionError(f"step {step.index} is the last of its frame")


UPDATE_ARR = src(
    """
    def update_arr(arr, factor):
        for i in range(len(arr)):
            if i > 0:
                arr[i] = (arr[i] * factor + arr[i-1]) % 10
        return arr
    """
)


def test_core_paper_example_states() -> None:
    t = trace(UPDATE_ARR, "update_arr([1, 5, 9], 2)")
    assert t.result == "[1, 1, 9]"
    assert t.exception is None and not t.truncated
    assignments = [s for s in t.steps if s.event == "line" and s.line == 4]
    assert [s.iterations[2] for s in assignments] == [2, 3]
    assert after(t, assignments[0])["arr"] == "[1, 1, 9]"
    assert assignments[0].locals["arr"] == "[1, 5, 9]"  # before the line ran
    rendered = t.render("core")
    assert (
        "Line 4: arr[i] = (arr[i] * factor + arr[i-1]) % 10 (Iter 2: i=1)"
        " | locals: {arr: [1, 1, 9], factor: 2, i: 1}"
    ) in rendered
    assert rendered.splitlines()[-1] == "[Return] [1, 1, 9]"


def test_step_fields_and_events() -> None:
    t = trace(UPDATE_ARR, "update_arr([1, 5, 9], 2)")
    assert [s.index for s in t.steps] == list(range(len(t.steps)))
    assert t.steps[0].event == "call" and t.steps[0].line == 1
    assert t.steps[0].locals == {"arr": "[1, 5, 9]", "factor": "2"}
    assert t.steps[-1].event == "return" and t.steps[-1].value == "[1, 1, 9]"
    assert {s.func for s in t.steps} == {"update_arr"}
    assert {s.depth for s in t.steps} == {0}
    assert lines_of(t) == [2, 3, 2, 3, 4, 2, 3, 4, 2, 5]
    assert t.args_after == ["[1, 1, 9]", "2"]


def test_branch_outcomes_if_elif_else() -> None:
    code = src(
        """
        def f(n):
            if n > 10:
                r = 'big'
            elif n > 5 and n % 2 == 0:
                r = 'even'
            else:
                r = 'other'
            return r
        """
    )
    branches = {
        n: {s.line: s.branch for s in trace(code, f"f({n})").steps if s.event == "line"}
        for n in (11, 6, 7)
    }
    assert branches[11][2] is True and 4 not in branches[11]
    assert branches[6][2] is False and branches[6][4] is True
    assert branches[7][2] is False and branches[7][4] is False
    assert branches[7][8] is None


def test_branch_of_same_line_if_and_conditional_expression() -> None:
    code = src(
        """
        def f(n):
            if n > 1: n = n * 10
            z = 'a' if n > 15 else 'b'
            return z
        """
    )
    hi = {s.line: s.branch for s in trace(code, "f(2)").steps if s.event == "line"}
    lo = {s.line: s.branch for s in trace(code, "f(1)").steps if s.event == "line"}
    assert hi[2] is True and hi[3] is True
    assert lo[2] is False and lo[3] is False


def test_while_else_iterations_and_branch() -> None:
    code = src(
        """
        def f(n):
            i = 0
            while i < n:
                i += 2
            else:
                i = -i
            return i
        """
    )
    t = trace(code, "f(5)")
    headers = [s for s in t.steps if s.event == "line" and s.line == 3]
    assert [s.branch for s in headers] == [True, True, True, False]
    assert [s.iterations[3] for s in headers] == [1, 2, 3, 4]
    body = [s.iterations for s in t.steps if s.event == "line" and s.line == 4]
    assert body == [{3: 1}, {3: 2}, {3: 3}]
    else_step = next(s for s in t.steps if s.event == "line" and s.line == 6)
    assert else_step.iterations == {}  # the else clause is not inside the loop
    assert t.result == "-6"


def test_for_else_break_continue_and_nested_iterations() -> None:
    code = src(
        """
        def f(grid):
            hits = []
            for r, row in enumerate(grid):
                for c in row:
                    if c < 0:
                        continue
                    if c > 50:
                        break
                    hits.append((r, c))
                else:
                    hits.append('done')
            return hits
        """
    )
    t = trace(code, "f([[1, -2, 3], [60, 4], [5]])")
    assert ast.literal_eval(t.result or "") == [(0, 1), (0, 3), "done", (2, 5), "done"]
    appends = [s for s in t.steps if s.event == "line" and s.line == 9]
    assert [s.iterations for s in appends] == [{3: 1, 4: 1}, {3: 1, 4: 3}, {3: 3, 4: 1}]
    continues = [s for s in t.steps if s.event == "line" and s.line == 6]
    assert len(continues) == 1 and continues[0].iterations == {3: 1, 4: 2}
    breaks = [s for s in t.steps if s.event == "line" and s.line == 8]
    assert len(breaks) == 1 and breaks[0].iterations == {3: 2, 4: 1}


def test_nested_function_lambda_and_depth() -> None:
    code = src(
        """
        def f(xs):
            def double(v):
                return v * 2
            key = lambda v: -v
            return sorted(map(double, xs), key=key)
        """
    )
    t = trace(code, "f([3, 1, 2])")
    assert t.result == "[6, 4, 2]"
    funcs = {s.func for s in t.steps}
    assert funcs == {"f", "double", "<lambda>"}
    assert {s.depth for s in t.steps if s.func != "f"} == {1}
    assert len({s.frame for s in t.steps if s.func == "double"}) == 3
    ret = [s.value for s in t.steps if s.func == "double" and s.event == "return"]
    assert ret == ["6", "2", "4"]


def test_recursion_depths_and_frames() -> None:
    code = src(
        """
        def f(n):
            if n <= 1:
                return 1
            return n * f(n - 1)
        """
    )
    t = trace(code, "f(4)")
    assert t.result == "24"
    calls = [s for s in t.steps if s.event == "call"]
    assert [s.depth for s in calls] == [0, 1, 2, 3]
    assert [s.locals["n"] for s in calls] == ["4", "3", "2", "1"]
    assert len({s.frame for s in calls}) == 4
    returns = [s.value for s in t.steps if s.event == "return"]
    assert returns == ["1", "2", "6", "24"]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="comprehensions are inlined from 3.12")
def test_comprehension_is_its_own_frame_with_iterations() -> None:
    code = src(
        """
        def f(xs):
            ys = [x * x for x in xs if x % 2]
            return ys
        """
    )
    t = trace(code, "f([1, 2, 3])")
    comp = [s for s in t.steps if s.func == "<listcomp>"]
    assert comp and {s.depth for s in comp} == {1}
    assert all(".0" not in s.locals for s in comp)
    comp_lines = [s for s in comp if s.event == "line"]
    assert [s.iterations[2] for s in comp_lines] == [1, 2, 3, 4]
    assert t.result == "[1, 9]"


def test_generator_keeps_one_frame_across_resumptions() -> None:
    code = src(
        """
        def gen(n):
            for i in range(n):
                yield i * 10

        def f(n):
            total = 0
            for v in gen(n):
                total += v
            return total
        """
    )
    t = trace(code, "f(3)")
    assert t.result == "30"
    gen_steps = [s for s in t.steps if s.func == "gen"]
    assert len({s.frame for s in gen_steps}) == 1
    yields = [s.value for s in gen_steps if s.event == "return"]
    assert yields == ["0", "10", "20", "None"]


def test_try_except_finally_and_exception_steps() -> None:
    code = src(
        """
        def f(xs):
            out = []
            for x in xs:
                try:
                    out.append(10 // x)
                except ZeroDivisionError:
                    out.append('inf')
                finally:
                    out.append('|')
            return out
        """
    )
    t = trace(code, "f([2, 0])")
    assert ast.literal_eval(t.result or "") == [5, "|", "inf", "|"]
    exc = [s for s in t.steps if s.event == "exception"]
    assert len(exc) == 1 and exc[0].value == "ZeroDivisionError: integer division or modulo by zero"
    assert exc[0].line == 5


def test_uncaught_exception_ends_trace_with_exception() -> None:
    code = src(
        """
        def g(x):
            return {}[x]

        def f(x):
            return g(x) + 1
        """
    )
    t = trace(code, "f('k')")
    assert t.result is None and t.exception == "KeyError: 'k'"
    assert [s.event for s in t.steps if s.func == "g"][-1] == "exception"
    assert t.steps[-1].event == "exception" and t.steps[-1].func == "f"


def test_snapshots_survive_mutation_and_aliasing() -> None:
    code = src(
        """
        def f(a):
            b = a
            b.append(4)
            a[0] = 'x'
            return len(a)
        """
    )
    t = trace(code, "f([1, 2, 3])")
    states = [s.locals for s in t.steps if s.event == "line"]
    assert states[0] == {"a": "[1, 2, 3]"}
    assert states[1] == {"a": "[1, 2, 3]", "b": "[1, 2, 3]"}
    assert states[2] == {"a": "[1, 2, 3, 4]", "b": "[1, 2, 3, 4]"}
    assert states[3] == {"a": "['x', 2, 3, 4]", "b": "['x', 2, 3, 4]"}
    assert t.args_after == ["['x', 2, 3, 4]"]


def test_module_level_name_as_argument() -> None:
    # CRUXEval sample_258 passes a module-level list as an argument.
    code = src(
        """
        thigh_o_one = [1, 2, 7, 8, 9]
        thigh_o_two = [1, 2, 7, 9]
        def f(L, m, start, step):
            L.insert(start, m)
            for x in range(start-1, 0, -(step+1)):
                start -= 1
                L.insert(start, L.pop(L.index(m)-1))
            return L
        """
    )
    t = trace(code, "f(thigh_o_two, 3, 3, 2)")
    assert t.result == "[1, 2, 7, 3, 9]"


def test_keyword_arguments() -> None:
    code = "def f(a, b=2, *, c=3):\n    return a * 100 + b * 10 + c\n"
    t = trace(code, "f(1, c=5, b=0)")
    assert t.result == "105"
    assert t.steps[0].locals == {"a": "1", "b": "0", "c": "5"}
    assert t.args_after == ["1", "c=5", "b=0"]


def test_huge_values_are_cut_and_marked() -> None:
    code = "def f(n):\n    xs = list(range(n))\n    return len(xs)\n"
    t = trace(code, "f(100000)")
    last = t.steps[-1]
    assert last.locals["xs"].endswith(CUT_MARK)
    assert len(last.locals["xs"]) <= 1000 + len(CUT_MARK)
    assert "xs" in last.opaque and "n" not in last.opaque
    assert t.result == "100000"


def test_values_that_cannot_round_trip_are_marked() -> None:
    code = src(
        """
        class Box:
            pass

        def f(x):
            b = Box()
            it = iter([1])
            nan = float('nan')
            fs = frozenset({1})
            return x
        """
    )
    t = trace(code, "f(1)")
    final = t.steps[-1]
    assert set(final.opaque) == {"b", "it", "nan", "fs"}
    assert final.locals["b"] == "<Box object>"  # no memory address: stable across runs
    assert " at 0x" not in final.locals["it"]
    for name, text in final.locals.items():
        if name not in final.opaque:
            ast.literal_eval(text)


def test_object_result_is_marked_opaque() -> None:
    t = trace("def f():\n    return object()\n", "f()")
    assert t.result == "<object object>" and t.result_opaque


def test_non_terminating_code_is_truncated() -> None:
    t = trace("def f():\n    while True:\n        pass\n", "f()", max_steps=500)
    assert t.truncated and len(t.steps) == 500
    assert t.result is None and t.exception is None


def test_step_limit_is_not_swallowed_by_except_exception() -> None:
    code = src(
        """
        def f():
            n = 0
            while True:
                try:
                    n += 1
                except Exception:
                    pass
        """
    )
    t = trace(code, "f()", max_steps=200)
    assert t.truncated and len(t.steps) == 200


def test_code_that_does_not_parse_names_the_line() -> None:
    with pytest.raises(TraceError) as info:
        trace("def f(x):\n    return x +\n", "f(1)")
    assert info.value.line == 2
    assert "line 2" in str(info.value)


@pytest.mark.parametrize("call", ["f(", "1 + 2", "g(1)"])
def test_bad_calls_raise_trace_error(call: str) -> None:
    with pytest.raises(TraceError):
        trace("def f(x):\n    return x\n", call)


def test_only_dataset_code_is_traced() -> None:
    code = src(
        """
        import textwrap
        import json

        def f(s):
            t = textwrap.dedent(s)
            return json.loads(json.dumps({'k': t}))['k']
        """
    )
    t = trace(code, "f('  a')")
    assert t.result == "'a'"
    assert {s.func for s in t.steps} == {"f"}
    assert lines_of(t) == [5, 6]


def test_tracer_restores_previous_trace_function() -> None:
    def outer(frame: object, event: str, arg: object) -> None:
        return None

    previous = sys.gettrace()
    sys.settrace(outer)
    try:
        trace(UPDATE_ARR, "update_arr([1], 2)")
        assert sys.gettrace() is outer
    finally:
        sys.settrace(previous)


def test_json_round_trip() -> None:
    t = trace(UPDATE_ARR, "update_arr([1, 5, 9], 2)")
    data = json.loads(json.dumps(t.to_json()))
    again = Trace.from_json(data)
    assert again == t
    assert again.to_json() == t.to_json()


def test_sets_are_deterministic_under_a_fixed_hash_seed() -> None:
    code = "def f(ws):\n    s = set(ws)\n    return sorted(s) + list(s)\n"
    script = (
        "from tracer import trace; "
        f"t = trace({code!r}, \"f(['pear', 'fig', 'kiwi', 'apple', 'plum'])\"); "
        "print(t.result, t.steps[-1].locals['s'])"
    )
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    runs = {
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1


def test_render_formats() -> None:
    t = trace(UPDATE_ARR, "update_arr([1, 5, 9], 2)")
    frames = [json.loads(line) for line in t.render("cwm").splitlines()]
    assert [f["event"] for f in frames] == [s.event for s in t.steps]
    assert frames[1]["locals"] == {"arr": "..", "factor": ".."}
    changed = [f for f in frames if f["locals"].get("arr") == "[1, 1, 9]"]
    assert len(changed) == 1 and changed[0]["line"] == 2
    assert frames[-1]["value"] == "[1, 1, 9]"
    text = t.render("text")
    assert "branch=True" in text and "-> arr=[1, 1, 9]" in text
    with pytest.raises(ValueError):
        t.render("yaml")  # type: ignore[arg-type]
