"""`ref:blind`: answers from the code text and the call alone, with the best cheap rules."""

from __future__ import annotations

from records import original_task

from core_bench.probes import candidate_probes
from core_bench.runs import BEST, CANDIDATES, ReferenceAgent, Seen, blind_answer
from core_bench.runs._tasks import Task
from tracer import trace

CODE = (
    "def f(text, n):\n"
    "    out = ''\n"
    "    for c in text:\n"
    "        if c.isdigit():\n"
    "            out += c * n\n"
    "            break\n"
    "    return out\n"
)
CALL = "f('ab3c', 2)"


def probe_of(kind: str):  # type: ignore[no-untyped-def]
    probes = candidate_probes("p", "p:original", CODE, 0, trace(CODE, CALL), kinds=[kind])
    return probes[0]


def task_of(kind: str, probe=None) -> Task:  # type: ignore[no-untyped-def]
    return original_task(
        CODE,
        CALL,
        "'33'",
        id=f"direct/{kind}/x",
        kind="probe" if probe is not None else kind,
        variant_id="p:original",
        probe=probe,
    )


def test_every_kind_has_candidate_rules_and_a_chosen_one() -> None:
    assert set(BEST) == set(CANDIDATES)
    assert all(BEST[kind] in CANDIDATES[kind] for kind in BEST)


def test_rules_read_the_code_and_the_call() -> None:
    seen = Seen(CODE, "f", CALL)
    assert CANDIDATES["output"]["first argument"](seen) == "'ab3c'"
    assert CANDIDATES["output"]["type default of the first argument"](seen) == "''"
    branch = Seen(CODE, "f", CALL, probe_of("branch"))
    assert CANDIDATES["next_line"]["next non-blank line"](branch) == "5"
    assert CANDIDATES["next_line"]["line after the block"](branch) == "7"
    iterations = Seen(CODE, "f", CALL, probe_of("loop_iterations"))
    assert CANDIDATES["loop_iterations"]["len of the first argument"](iterations) == "4"
    state = Seen(CODE, "f", CALL, probe_of("loop_exit_state"))
    assert state.probe is not None and state.probe.anchor.variable == "c"
    assert CANDIDATES["loop_exit_state"]["type default"](state) == "''"  # as `text`


def test_the_agent_never_reads_the_answer() -> None:
    agent = ReferenceAgent("blind")
    probe = probe_of("loop_iterations")
    twisted = probe.model_copy(update={"answer": "99"})
    assert agent.answer(task_of("probe", probe), 0) == agent.answer(task_of("probe", twisted), 0)
    output = agent.answer(task_of("output"), 0)
    assert "'ab3c'" in output and "'33'" not in output.split("==")[0]
    assert blind_answer("no such kind", Seen(CODE, "f", CALL)) == "None"
