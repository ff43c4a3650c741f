"""Tasks and prompts of runs: which tasks a benchmark makes, their ids, the prompt forms."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from records import original_task

from core_bench.benchmark import Benchmark
from core_bench.fake_openai import tasks_of
from core_bench.grading import extract_answer, grade_response
from core_bench.runs import STRATEGIES, ReferenceAgent, Task, make_tasks, prompts, render
from tracer import trace


@pytest.fixture(scope="module")
def tasks(bench: Benchmark) -> list[Task]:
    return tasks_of(bench, strategies=STRATEGIES)


def test_every_variant_and_call_gets_output_and_input_tasks(
    bench: Benchmark, tasks: list[Task]
) -> None:
    pairs = Counter((t.kind, t.variant_id, t.call_index, t.strategy) for t in tasks)
    calls = {p.id: len(p.calls) for p in bench.problems}
    for variant in bench.variants:
        for index in range(calls[variant.problem_id]):
            for strategy in STRATEGIES:
                for kind in ("output", "input"):
                    key = (kind, variant.id, index, strategy)
                    if variant.kind != "mutant":
                        assert pairs[key] == 1, key
    mutant_outputs = [t for t in tasks if t.variant_kind == "mutant" and t.kind == "output"]
    assert mutant_outputs, "mutants are asked too, with their own outputs"
    assert any(t.output != t.original_output for t in mutant_outputs)


def test_every_probe_is_a_task_and_full_trace_probes_are_full_trace_tasks(
    bench: Benchmark, tasks: list[Task]
) -> None:
    by_probe = Counter((t.probe_id, t.kind) for t in tasks if t.probe_id is not None)
    for probe in bench.probes:
        kind = "full_trace" if probe.kind == "full_trace" else "probe"
        assert by_probe[(probe.id, kind)] == len(STRATEGIES)


def test_task_ids_are_unique_readable_and_stable(bench: Benchmark, tasks: list[Task]) -> None:
    ids = [t.id for t in tasks]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    again = [t.id for t in tasks_of(bench, strategies=STRATEGIES)]
    assert again == ids
    first = next(t for t in tasks if t.kind == "output" and t.strategy == "cot")
    assert first.id == f"cot/output/{first.variant_id}:c{first.call_index}"


def test_limit_kinds_and_strategies_select_tasks(bench: Benchmark) -> None:
    few = make_tasks(bench, kinds=("probe",), strategies=("trace",), limit=1)
    assert few
    assert {t.kind for t in few} == {"probe"}
    assert {t.strategy for t in few} == {"trace"}
    assert {t.problem_id for t in few} == {bench.problems[0].id}


def test_mutants_get_output_tasks_from_stored_outputs_or_none_without_them(
    bench: Benchmark,
) -> None:
    stored = make_tasks(bench, kinds=("output",))  # the build stores every variant's outputs
    assert [t for t in stored if t.variant_kind == "mutant"]
    bare = dataclasses.replace(
        bench, variants=[v.model_copy(update={"outputs": []}) for v in bench.variants]
    )
    plain = make_tasks(bare, kinds=("output",))
    assert not [t for t in plain if t.variant_kind == "mutant"]


@pytest.mark.parametrize("code, call, expected", prompts.EXAMPLE_TRACES)
def test_worked_example_traces_are_what_the_tracer_renders(
    code: str, call: str, expected: str
) -> None:
    assert trace(code, call).render("core") == expected


# sha256 of CRUXEval's official prompts (prompts.py of github.com/facebookresearch/cruxeval at
# commit c7c787365a9a448f4a07058fb57b19fee7d4c471, MIT) for the function `def f(x): return x`
# with input (output prompts) or output (input prompts) `'abc'`: our rendering must be equal
# to theirs to the byte.
CRUXEVAL_SHA256 = {
    ("output", "direct"): "3e20fffae0572f300c4e19292e800c3a3d242a9f0d85a6a9e03c10ea978e5c7c",
    ("output", "cot"): "2f73b321d8fea1ec41d4469b84a8699658f55b9800d14c8c786b5f6e249bf547",
    ("input", "direct"): "95b7b7ce940ed1d1bcdd46a178e31a688c599f6dcd73f3429a5be6dc4abff947",
    ("input", "cot"): "7156efa47e01183ab19847b9bc27f8a898a399547e80dc446ed7ee66c9c0caac",
}


def identity_task(kind: str, strategy: str) -> Task:
    code = "def f(x):\n    return x\n"
    return original_task(code, "f('abc')", "'abc'", kind=kind, strategy=strategy, variant_id="v")


@pytest.mark.parametrize(("kind", "strategy"), list(CRUXEVAL_SHA256))
def test_output_and_input_prompts_are_cruxevals_to_the_byte(kind: str, strategy: str) -> None:
    user = render(identity_task(kind, strategy)).messages[-1]["content"]
    assert hashlib.sha256(user.encode()).hexdigest() == CRUXEVAL_SHA256[(kind, strategy)]


SHOT = re.compile(
    r"\[PYTHON\]\n(?P<code>.+?)\n(?P<assert>assert [^\n]+ == [^\n]+)\n\[/PYTHON\]\n"
    r"(?:\[THOUGHT\]\n(?P<thought>.+?)\n\[/THOUGHT\]\n)?\[ANSWER\]\n(?P<answer>[^\n]+)\n\[/ANSWER\]",
    re.S,
)


@pytest.mark.parametrize("kind", ["output", "input"])
@pytest.mark.parametrize("strategy", ["direct", "cot"])
def test_prompt_has_cruxevals_structure(tasks: list[Task], kind: str, strategy: str) -> None:
    task = next(t for t in tasks if t.kind == kind and t.strategy == strategy)
    user = render(task).messages[-1]["content"]
    intro, *blocks = user.split("\n\n[PYTHON]\n")
    blocks = ["[PYTHON]\n" + b for b in blocks]
    *shots, query = blocks
    # CRUXEval's shots: two worked examples for direct prompts, one for chain of thought
    assert len(shots) == (2 if strategy == "direct" else 1)
    for shot in shots:
        match = SHOT.fullmatch(shot.rstrip("\n"))
        assert match is not None, shot
        assert (match.group("thought") is not None) == (strategy == "cot")
        question, answer = match.group("assert"), match.group("answer")
        if kind == "output":  # the answer completes the question's assertion
            assert question.endswith(" == ??") and answer.startswith(question[: -len("??")])
        else:
            assert question.startswith("assert f(??) == ")
            assert answer.endswith(question.split(" == ", 1)[1])
    # the question: the function and the assertion together inside [PYTHON], then the primer
    assertion = (
        f"assert {task.call} == ??"
        if kind == "output"
        else f"assert {task.entry}(??) == {task.output}"
    )
    primer = "[ANSWER]\n" if strategy == "direct" else "[THOUGHT]\n"
    assert query == f"[PYTHON]\n{task.code.rstrip()}\n{assertion}\n[/PYTHON]\n{primer}"
    assert "[ANSWER] and [/ANSWER] tags" in intro
    assert ("think step by step" in intro or "step by step before" in intro) == (strategy == "cot")
    if kind == "input":
        assert task.call not in query  # the input is not given away


def test_probe_prompt_numbers_lines_and_states_call_and_question(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.kind == "probe" and t.strategy == "direct")
    assert task.probe is not None
    user = render(task).messages[-1]["content"]
    first_line = task.code.splitlines()[0]
    assert f"1 | {first_line}" in user
    assert user.endswith(f"Call: {task.call}\nQuestion: {task.probe.question}\n[ANSWER]\n")


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_probe_prompt_has_one_worked_example_per_answer_type(
    tasks: list[Task], strategy: str
) -> None:
    task = next(t for t in tasks if t.kind == "probe" and t.strategy == strategy)
    user = render(task).messages[-1]["content"]
    answers = re.findall(r"\[ANSWER\]\n(.+?)\n\[/ANSWER\]", user)
    assert len(answers) == 4 == len(prompts.PROBE_EXAMPLES)
    kinds = [type(ast.literal_eval(a)).__name__ for a in answers]
    assert kinds == ["int", "bool", "int", "int"]  # a value, True/False, a line, a count
    assert all(len(q.split()) <= 14 for q, _ in prompts.PROBE_EXAMPLES)  # short, plain


def test_probe_examples_are_true_of_the_traced_call() -> None:
    code, call, _ = prompts.EXAMPLE_TRACES[2]
    steps = [s for s in trace(code, call).steps if s.event == "line"]
    lines = [s.line for s in steps]
    fives = [i for i, line in enumerate(lines) if line == 5]
    fours = [i for i, line in enumerate(lines) if line == 4]
    after_second_five = steps[fives[1] + 1].locals  # a line event's locals: before it runs
    (_, value), (_, truth), (_, after), (_, count) = prompts.PROBE_EXAMPLES
    assert after_second_five["total"] == value
    assert steps[fours[1]].locals["n"] == "1" and truth == "False"  # 1 > 1 is false
    assert str(lines[fours[1] + 1]) == after
    assert str(len(fives)) == count


def test_trace_strategy_states_the_trace_format(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.kind == "output" and t.strategy == "trace")
    user = render(task).messages[-1]["content"]
    assert "[TRACE]" in user and "[Step n] Line k:" in user and "[Return]" in user
    assert "[Step 1] Line 2: kept = []" in user  # the worked example's trace


def test_each_strategy_example_answer_is_gradable() -> None:
    for strategy in STRATEGIES:
        block = prompts.answer_block(strategy, "assert f(1) == [1, 2]", thought="t", trace="x")
        answer, verdict, _ = grade_response(block, task="output", expected="[1, 2]", call="f(1)")
        assert (answer, verdict) == ("[1, 2]", "correct"), strategy


def test_system_prompt_and_completion_text(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.kind == "output" and t.strategy == "cot")
    plain = render(task)
    with_system = render(task, system_prompt="Be exact.")
    assert [m["role"] for m in plain.messages] == ["user"]
    assert with_system.messages[0] == {"role": "system", "content": "Be exact."}
    assert with_system.hash != plain.hash
    assert with_system.text.startswith("Be exact.\n\n")
    assert plain.text.endswith("\n[THOUGHT]\n") and plain.primer == "[THOUGHT]\n"


def test_agent_answers_parse_as_the_prompt_asks(tasks: list[Task]) -> None:
    oracle = ReferenceAgent("oracle")
    for task in tasks[:: max(1, len(tasks) // 60)]:
        text = oracle.answer(task, 0)
        if task.kind == "input":
            found = extract_answer(text, task="input", call=f"{task.entry}(??)")
            assert found.answer == task.call
        else:
            _, verdict, reason = grade_response(
                text, task=task.kind, expected=task.expected, call=task.call
            )
            assert verdict == "correct", (task.id, reason)


def test_numbered_aligns_line_numbers() -> None:
    code = "\n".join(f"x{i} = {i}" for i in range(1, 12)) + "\n"
    lines = prompts.numbered(code).splitlines()
    assert lines[0] == " 1 | x1 = 1" and lines[10] == "11 | x11 = 11"


def test_prompt_module_holds_the_templates() -> None:
    source = Path(prompts.__file__).read_text(encoding="utf-8")
    for marker in ("[PYTHON]", "[ANSWER]", "[THOUGHT]", "[TRACE]", "?? "):
        assert marker in source


@pytest.mark.slow
def test_every_cruxeval_question_is_asked_as_cruxeval_asks_it() -> None:
    # Every CRUXEval problem, as core-bench loads it, gives the question block CRUXEval's own
    # prompt ends with: the dataset's code and input (or output) text unchanged.
    path = os.environ.get("CORE_BENCH_CRUXEVAL")
    if not path:
        pytest.skip("CORE_BENCH_CRUXEVAL is not set")
    from core_bench.datasets import load_dataset

    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    loaded = load_dataset(path).rows
    assert len(loaded) == len(rows) == 800
    for sourced, row in zip(loaded, rows, strict=True):
        problem = sourced.problem
        for kind, strategy in CRUXEVAL_SHA256:
            task = replace(
                identity_task(kind, strategy),
                code=problem.code,
                entry=problem.entry,
                call=problem.calls[0],
                output=problem.outputs[0],
            )
            user = render(task).messages[-1]["content"]
            assertion = (
                f"assert f({row['input']}) == ??"
                if kind == "output"
                else f"assert f(??) == {row['output']}"
            )
            primer = "[ANSWER]\n" if strategy == "direct" else "[THOUGHT]\n"
            assert user.endswith(
                f"\n\n[PYTHON]\n{row['code']}\n{assertion}\n[/PYTHON]\n{primer}"
            ), row["id"]


def test_prompt_command_prints_the_completion_prompt(
    bench: Benchmark, tasks: list[Task], capsys: pytest.CaptureFixture[str]
) -> None:
    from core_bench.cli import main

    task = next(t for t in tasks if t.kind == "probe" and t.strategy == "cot")
    assert main(["prompt", str(bench.root), task.id, "--api", "completions"]) == 0
    assert capsys.readouterr().out == render(task).text
    assert render(task).text.endswith("\n[THOUGHT]\n")
