"""Anchored probes: the original's questions asked of hand-written variants."""

from __future__ import annotations

import pytest
from programs import EVEN_ODD, EVEN_ODD_SWAP_LINES, EVEN_ODD_SWAPPED, FIZZ

from core_bench.probes import (
    anchor_group,
    anchor_probes,
    candidate_probes,
    mark_anchored,
    probes_for_call,
)
from core_bench.schemas import Probe
from tracer import trace

# Renamed, and a comment line shifts every line of the body down by one.
FIZZ_RENAMED = (
    "def f(n):\n"
    "    # count the sevens in multiples of 11 or 13\n"
    "    total = 0\n"
    "    for value in range(n):\n"
    "        if value % 11 == 0 or value % 13 == 0:\n"
    "            total += str(value).count('7')\n"
    "    return total\n"
)
FIZZ_RENAMES = {"count": "total", "num": "value"}
# Same result, but the numbers are visited backwards: `count` goes 0, 1, 3 instead of 0, 2, 3.
FIZZ_REVERSED = (
    "def f(n):\n"
    "    count = 0\n"
    "    for num in reversed(range(n)):\n"
    "        if num % 11 == 0 or num % 13 == 0:\n"
    "            count += str(num).count('7')\n"
    "    return count\n"
)
CALL = "f(80)"


def counterparts(
    original: str,
    variant: str,
    call: str,
    renames: dict[str, str],
    line_map: dict[int, list[int]],
) -> tuple[list[Probe], dict[str, Probe]]:
    t_original, t_variant = trace(original, call), trace(variant, call)
    probes = candidate_probes("p", "p:original", original, 0, t_original)
    found = anchor_probes(probes, t_original, "p:v1", variant, t_variant, renames, line_map)
    return probes, {anchor_group(c): c for c in found}


@pytest.mark.parametrize(
    "line_map", [{}, {2: [3], 3: [4], 4: [5], 5: [6], 6: [7]}], ids=["by-history", "by-line-map"]
)
def test_a_renamed_variant_gets_every_question_with_mapped_names(
    line_map: dict[int, list[int]],
) -> None:
    probes, found = counterparts(FIZZ, FIZZ_RENAMED, CALL, FIZZ_RENAMES, line_map)
    for probe in probes:
        if probe.kind == "full_trace":
            assert probe.id not in found  # line numbers differ by construction
            continue
        twin = found[probe.id]
        assert twin.id == f"{probe.id}@p:v1"
        assert twin.variant_id == "p:v1" and twin.anchored
        assert twin.kind == probe.kind
        # kinds anchored on the `def` line keep it; every other line moved down by one
        shift = 0 if probe.kind in ("change_count", "return_line", "call_return") else 1
        assert twin.anchor.line == probe.anchor.line + shift
        assert twin.anchor.occurrence == probe.anchor.occurrence
        variable = probe.anchor.variable
        assert twin.anchor.variable == (FIZZ_RENAMES.get(variable, variable) if variable else None)
        if probe.kind == "next_line" and probe.answer != "'return'":
            assert int(twin.answer) == int(probe.answer) + 1
        else:
            assert twin.answer == probe.answer
        assert twin.dimensions == probe.dimensions


def test_counterpart_questions_are_written_from_the_variant() -> None:
    _, found = counterparts(FIZZ, FIZZ_RENAMED, CALL, FIZZ_RENAMES, {})
    twin = found["p:original:c0:state_after:5:13:count"]
    assert twin.question == (
        "What is `total` right after line 6 (`total += str(value).count('7')`) "
        "runs for the 13th time (when `value` = 77)?"
    )
    assert twin.answer == "2"
    assert twin.anchor.line == 6 and twin.anchor.variable == "total"


def test_a_different_value_history_gets_no_counterpart() -> None:
    same_lines = {line: [line] for line in range(2, 7)}
    probes, found = counterparts(FIZZ, FIZZ_REVERSED, CALL, {}, same_lines)
    exit_count = next(
        p for p in probes if p.kind == "loop_exit_state" and p.anchor.variable == "count"
    )
    # the loop ends with the same value in both, but `count` got there through other values
    reversed_exit = trace(FIZZ_REVERSED, CALL)
    assert exit_count.answer == "3" and reversed_exit.result == "3"
    assert exit_count.id not in found
    in_loop = {p.kind for p in probes if p.id in found and p.anchor.line in (3, 4, 5)}
    assert not in_loop & {"state_after", "loop_exit_state", "branch"}
    # before the loop the histories agree; the loop still runs 80 times; every line still runs
    assert "p:original:c0:state_after:2:1:count" not in found  # `count = 0`: not asked
    assert {"run_count"} <= {p.kind for p in probes if p.id in found}


def test_swapped_branches_keep_states_but_not_outcomes() -> None:
    original, swapped, line_map = EVEN_ODD, EVEN_ODD_SWAPPED, EVEN_ODD_SWAP_LINES
    probes, found = counterparts(original, swapped, "f([1, 2, 3, 4])", {}, line_map)
    assert not [p for p in probes if p.kind == "branch" and p.id in found]
    for probe in probes:
        if probe.kind == "state_after" and probe.anchor.line in (5, 7):
            twin = found[probe.id]
            assert twin.anchor.line == line_map[probe.anchor.line][0]
            assert twin.answer == probe.answer


def test_renamed_helper_gets_call_return_counterparts() -> None:
    original = (
        "def double(x):\n"
        "    return x * 2\n"
        "\n"
        "def f(xs):\n"
        "    out = []\n"
        "    for x in xs:\n"
        "        out.append(double(x))\n"
        "    return out\n"
    )
    variant = (
        "# the helper comes first\n"
        "def twice(x):\n"
        "    return x * 2\n"
        "\n"
        "def f(xs):\n"
        "    res = []\n"
        "    for x in xs:\n"
        "        res.append(twice(x))\n"
        "    return res\n"
    )
    renames = {"double": "twice", "out": "res"}
    probes, found = counterparts(original, variant, "f([3, 1, 2])", renames, {})
    calls = [p for p in probes if p.kind == "call_return"]
    assert len(calls) == 3
    for probe in calls:
        twin = found[probe.id]
        assert (twin.anchor.line, twin.anchor.variable) == (2, "twice")
        assert twin.answer == probe.answer
        assert "call of `twice`" in twin.question
    appended = [p for p in probes if p.kind == "state_after" and p.anchor.variable == "out"]
    assert appended and all(found[p.id].anchor.variable == "res" for p in appended)


def test_mark_anchored_flags_originals_with_a_counterpart() -> None:
    t_original, t_variant = trace(FIZZ, CALL), trace(FIZZ_REVERSED, CALL)
    probes = probes_for_call("p", "p:original", FIZZ, 0, t_original, count=8, seed=1)
    found = anchor_probes(probes, t_original, "p:v2", FIZZ_REVERSED, t_variant, {}, {})
    marked = mark_anchored(probes, found)
    groups = {anchor_group(c) for c in found}
    assert [p.anchored for p in marked] == [p.id in groups for p in probes]
    assert [p.model_copy(update={"anchored": False}) for p in marked] == probes


def test_probes_of_several_calls_are_refused() -> None:
    t = trace(FIZZ, CALL)
    a = probes_for_call("p", "p:original", FIZZ, 0, t, count=2)
    b = probes_for_call("p", "p:original", FIZZ, 1, t, count=2)
    with pytest.raises(ValueError, match="one call"):
        anchor_probes(a + b, t, "p:v1", FIZZ_RENAMED, trace(FIZZ_RENAMED, CALL), {}, {})
