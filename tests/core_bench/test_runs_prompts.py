"""Tasks and prompts of runs: which tasks a benchmark makes, their ids, the prompt forms."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from fake_openai import small_benchmark, tasks_of

from core_bench.build import Benchmark, load_benchmark
from core_bench.grading import extract_answer, grade_response
from core_bench.runs import STRATEGIES, ReferenceAgent, Task, make_tasks, prompts, render
from tracer import trace


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return load_benchmark(small_benchmark(tmp_path_factory.getbasetemp()))


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


def test_without_mutant_outputs_mutants_get_no_output_tasks(bench: Benchmark) -> None:
    plain = make_tasks(bench, kinds=("output",))
    assert not [t for t in plain if t.variant_kind == "mutant"]


@pytest.mark.parametrize("code, call, expected", prompts.EXAMPLE_TRACES)
def test_worked_example_traces_are_what_the_tracer_renders(
    code: str, call: str, expected: str
) -> None:
    assert trace(code, call).render("core") == expected


def test_output_prompt_has_cruxeval_form(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.kind == "output" and t.strategy == "direct")
    user = render(task).messages[-1]["content"]
    assert f"[PYTHON]\n{task.code.rstrip()}\n[/PYTHON]\nassert {task.call} == ??" in user
    assert user.count("[PYTHON]") == 2  # one worked example, then the question
    assert user.endswith(f"assert {task.call} == ??")
    assert "[ANSWER]" in user and "[THOUGHT]" not in user


def test_input_prompt_asks_for_the_input(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.kind == "input" and t.strategy == "cot")
    user = render(task).messages[-1]["content"]
    assert user.endswith(f"assert {task.entry}(??) == {task.output}")
    assert task.call not in user.split("[PYTHON]")[-1]  # the input is not given away
    assert "[THOUGHT]" in user


def test_probe_prompt_numbers_lines_and_states_call_and_question(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.kind == "probe" and t.strategy == "direct")
    assert task.probe is not None
    user = render(task).messages[-1]["content"]
    first_line = task.code.splitlines()[0]
    assert f"1 | {first_line}" in user
    assert f"Call: {task.call}\nQuestion: {task.probe.question}" in user


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
