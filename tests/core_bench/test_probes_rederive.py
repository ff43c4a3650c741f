"""Every probe answer is re-derived by re-tracing the code and reading the anchor independently.

`Reread` below is written apart from `core_bench.probes`: it re-traces the code and follows each
kind's definition from the step list directly (loop entries by the previous line of the frame,
body runs by header-to-body transitions, next steps by scanning the frame), so a bug in the
generator's indexes shows up as a disagreement. It also checks what each question claims: the
line's number and source, the occurrence, the iteration values, and that those single the run
out.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from probe_reader import DIMENSIONS, Reread, check_probe
from programs import EVEN_ODD, EVEN_ODD_SWAP_LINES, EVEN_ODD_SWAPPED

from core_bench.probes import anchor_probes, candidate_probes, mark_anchored, probes_for_call
from tracer import trace

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "data" / "bundled.jsonl"
CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")


def rows_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rederive(problem_id: str, code: str, calls: list[str], counts: Counter[str]) -> None:
    for index, call in enumerate(calls):
        original = trace(code, call)
        probes = probes_for_call(
            problem_id, f"{problem_id}:original", code, index, original, count=6, seed=0
        )
        questions: dict[str, str] = {}
        for probe in probes:
            assert questions.setdefault(probe.question, probe.answer) == probe.answer
        reread = Reread(code, call)
        for probe in probes:
            check_probe(reread, probe)
            counts[probe.kind] += 1


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_every_cruxeval_probe_answer_is_rederived() -> None:
    rows = rows_of(Path(str(CRUXEVAL)))
    assert len(rows) == 800
    counts: Counter[str] = Counter()
    for row in rows:
        rederive(str(row["id"]), str(row["code"]), [f"f({row['input']})"], counts)
    print("\nprobes per kind over the 800 CRUXEval originals (count=6):", dict(counts))
    # CRUXEval's calls raise nothing, so no exception_line; the guess filter and light
    # True/False kinds leave about 2.4 probes per call (3000+ before them)
    assert set(counts) == set(DIMENSIONS) - {"exception_line"}
    assert sum(counts.values()) > 1500  # statically answerable probes are never asked


@pytest.mark.skipif(not BUNDLED.exists(), reason="data/bundled.jsonl is not there yet")
def test_every_bundled_probe_answer_is_rederived() -> None:
    counts: Counter[str] = Counter()
    rows = rows_of(BUNDLED)
    for row in rows:
        calls = row["calls"]
        assert isinstance(calls, list)
        rederive(str(row["id"]), str(row["code"]), [str(c) for c in calls], counts)
    print(f"\nprobes per kind over {len(rows)} bundled problems (count=6):", dict(counts))
    assert {"state_after", "branch", "loop_iterations", "loop_exit_state"} <= set(counts)


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_no_two_cruxeval_candidates_share_a_question_with_different_answers() -> None:
    """Over every candidate (not only those selected), a question text means one answer."""
    total = 0
    for row in rows_of(Path(str(CRUXEVAL))):
        code = str(row["code"])
        t = trace(code, f"f({row['input']})")
        seen: dict[str, str] = {}
        for probe in candidate_probes(str(row["id"]), "v", code, 0, t):
            assert seen.setdefault(probe.question, probe.answer) == probe.answer, probe
            total += 1
    assert total > 12_000  # statically answerable candidates are never offered


HAND_VARIANT_CASES = [
    (  # renamed, with a comment line that shifts the body; no line map
        "def f(nums):\n"
        "    count = 0\n"
        "    for num in nums:\n"
        "        if num % 11 == 0 or num % 13 == 0:\n"
        "            count += str(num).count('7')\n"
        "    return count\n",
        "def f(nums):\n"
        "    # the same, renamed\n"
        "    total = 0\n"
        "    for value in nums:\n"
        "        if value % 11 == 0 or value % 13 == 0:\n"
        "            total += str(value).count('7')\n"
        "    return total\n",
        {"count": "total", "num": "value"},
        {},
        "f([77, 78, 143, 1001, 7007, 12])",
    ),
    (  # branches swapped, with the line map a transform would record
        EVEN_ODD,
        EVEN_ODD_SWAPPED,
        {},
        EVEN_ODD_SWAP_LINES,
        "f([1, 2, 3, 4])",
    ),
    (  # a renamed recursive helper
        "def walk(n, acc):\n"
        "    if n == 0:\n"
        "        return acc\n"
        "    return walk(n - 1, acc + [n % 3])\n"
        "\n"
        "def f(n):\n"
        "    return walk(n, [])\n",
        "def go(k, acc):\n"
        "    if k == 0:\n"
        "        return acc\n"
        "    return go(k - 1, acc + [k % 3])\n"
        "\n"
        "def f(n):\n"
        "    return go(n, [])\n",
        {"walk": "go", "n": "k"},
        {},
        "f(5)",
    ),
]


@pytest.mark.parametrize(("original", "variant", "renames", "line_map", "call"), HAND_VARIANT_CASES)
def test_anchored_counterparts_are_rederived_on_the_variant(
    original: str, variant: str, renames: dict[str, str], line_map: dict[int, list[int]], call: str
) -> None:
    t_original, t_variant = trace(original, call), trace(variant, call)
    probes = candidate_probes("p", "p:original", original, 0, t_original)
    counterparts = anchor_probes(probes, t_original, "p:v1", variant, t_variant, renames, line_map)
    assert len(counterparts) >= len(probes) // 2
    reread = Reread(variant, call)
    for probe in counterparts:
        check_probe(reread, probe)
    marked = mark_anchored(probes, counterparts)
    assert sum(p.anchored for p in marked) == len(counterparts)
