"""Every probe answer is re-derived by re-tracing the code and reading the anchor independently.

`Reread` below is written apart from `core_bench.probes`: it re-traces the code and follows each
kind's definition from the step list directly (loop entries by the previous line of the frame,
body runs by header-to-body transitions, next steps by scanning the frame), so a bug in the
generator's indexes shows up as a disagreement. It also checks what each question claims: the
line's number and source, the occurrence, the iteration values, and that those single the run
out.
"""

from __future__ import annotations

import ast
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from core_bench.probes import anchor_probes, candidate_probes, mark_anchored, probes_for_call
from core_bench.schemas import Probe
from tracer import Step, trace

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "data" / "bundled.jsonl"
CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")

INNER = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<lambda>"})
DIMENSIONS = {
    "state_after": {"State"},
    "branch": {"Logic"},
    "loop_iterations": {"Boundary"},
    "loop_exit_state": {"Boundary", "State"},
    "coverage": {"Logic"},
    "next_line": {"Logic"},
    "call_return": {"State"},
    "full_trace": {"Arithmetic", "Logic", "State", "Boundary"},
}
TYPES = {
    bool: "bool",
    int: "int",
    float: "float",
    str: "str",
    bytes: "bytes",
    list: "list",
    tuple: "tuple",
    dict: "dict",
    set: "set",
    type(None): "none",
    complex: "complex",
}


def nth(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


@dataclass
class Reread:
    """A fresh trace of one call, read without the generator's code."""

    code: str
    call: str
    steps: list[Step] = field(init=False)
    source: list[str] = field(init=False)
    tree: ast.Module = field(init=False)
    previous_line: dict[int, Step | None] = field(init=False)

    def __post_init__(self) -> None:
        self.steps = trace(self.code, self.call).steps
        self.source = self.code.splitlines()
        self.tree = ast.parse(self.code)
        last: dict[int, Step] = {}
        self.previous_line = {}
        for step in self.steps:
            if step.event == "line":
                self.previous_line[step.index] = last.get(step.frame)
                last[step.frame] = step

    def text(self, line: int) -> str:
        return self.source[line - 1].strip()

    def runs(self, line: int) -> list[Step]:
        return [
            s for s in self.steps if s.event == "line" and s.line == line and s.func not in INNER
        ]

    def next_in_frame(self, step: Step) -> Step | None:
        return next((s for s in self.steps[step.index + 1 :] if s.frame == step.frame), None)

    def loop_node(self, header: int) -> ast.For | ast.While:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.For | ast.While) and node.lineno == header:
                return node
        raise AssertionError(f"no loop on line {header}")

    def span(self, header: int) -> tuple[int, int]:
        node = self.loop_node(header)
        return header, max(s.end_lineno or s.lineno for s in node.body)

    def entries(self, header: int) -> list[Step]:
        first, last = self.span(header)
        out = []
        for run in self.runs(header):
            prev = self.previous_line[run.index]
            if prev is None or not first <= prev.line <= last:
                out.append(run)
        return out

    def walk_loop(self, entry: Step) -> tuple[int, Step | None]:
        """Body runs (header -> body transitions) and the step that leaves the loop."""
        first, last = self.span(entry.line)
        count, prev = 0, entry
        for s in self.steps[entry.index + 1 :]:
            if s.frame != entry.frame:
                continue
            if s.event == "return":
                return count, s
            if s.event != "line":
                continue
            if not first <= s.line <= last:
                return count, s
            if s.line != entry.line and prev.line == entry.line:
                count += 1
            prev = s
        return count, None

    def loop_values(self, step: Step) -> dict[str, str] | None:
        """Loop variables of the `for` loops around a step, as their headers last set them in
        the step's frame; None when one cannot be read."""
        values: dict[str, str] = {}
        loops = sorted(
            (n for n in ast.walk(self.tree) if isinstance(n, ast.For)), key=lambda n: n.lineno
        )
        for node in loops:
            end = max(s.end_lineno or s.lineno for s in node.body)
            if node.lineno == step.line or not node.lineno < step.line <= end:
                continue
            header = next(
                (
                    s
                    for s in reversed(self.steps[: step.index])
                    if s.frame == step.frame and s.event == "line" and s.line == node.lineno
                ),
                None,
            )
            if header is None:
                return None
            state = self.next_in_frame(header)
            assert state is not None
            for name in (n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)):
                if name not in state.locals:
                    return None
                values[name] = state.locals[name]
        return values

    def answer(self, probe: Probe) -> str | None:
        """The answer of the probe's kind at its anchor, read off the fresh trace."""
        kind, anchor = probe.kind, probe.anchor
        line, k, var = anchor.line, anchor.occurrence, anchor.variable
        if kind == "coverage":
            return repr(any(s.event == "line" and s.line == line for s in self.steps))
        if kind == "call_return":
            calls = [
                s for s in self.steps if s.event == "call" and s.func == var and s.line == line
            ]
            call = calls[k - 1]
            assert call.depth > 0
            end = [s for s in self.steps if s.frame == call.frame][-1]
            assert end.event == "return" and not end.value_opaque
            return end.value
        if kind == "full_trace":
            return self.full_trace(line)
        run = self.runs(line)[k - 1]
        if kind == "state_after":
            after = self.next_in_frame(run)
            assert after is not None and after.event in ("line", "return")
            assert var is not None and var not in after.opaque
            return after.locals[var]
        if kind == "branch":
            return repr(run.branch)
        if kind == "next_line":
            after = self.next_in_frame(run)
            assert after is not None
            return "'return'" if after.event == "return" else repr(after.line)
        assert run in self.entries(line), "a loop probe must anchor a loop entry"
        body_runs, leave = self.walk_loop(run)
        if kind == "loop_iterations":
            return repr(body_runs)
        assert kind == "loop_exit_state" and leave is not None and leave.event == "line"
        assert var is not None and var not in leave.opaque
        return leave.locals[var]

    def full_trace(self, def_line: int) -> str:
        entry = self.steps[0]
        assert entry.event == "call" and entry.line == def_line
        pairs = []
        for s in self.steps:
            if s.frame != entry.frame or s.event != "line":
                continue
            after = self.next_in_frame(s)
            assert after is not None
            changed = {
                name: ast.literal_eval(value)
                for name, value in after.locals.items()
                if s.locals.get(name) != value
            }
            pairs.append([s.line, changed])
        return repr(pairs)

    def check_question(self, probe: Probe) -> None:
        """What the question says about the anchor is true and singles it out."""
        q, anchor = probe.question, probe.anchor
        line, k = anchor.line, anchor.occurrence
        if probe.kind == "full_trace":
            assert f"defined on line {line}" in q
            return
        assert f"line {line} (`{self.text(line)}`)" in q, q
        if probe.kind == "coverage":
            return
        if probe.kind == "call_return":
            assert f"the {nth(k)} call of `{anchor.variable}`" in q, q
            self.check_call_arguments(probe)
            return
        run = self.runs(line)[k - 1]
        if probe.kind in ("loop_iterations", "loop_exit_state"):
            entries = self.entries(line)
            ordinal = [e.index for e in entries].index(run.index) + 1
            assert (
                f"entered for the {nth(ordinal)} time when line {line} runs for the {nth(k)} time"
                in q
            )
            others = [e for e in entries if e.index != run.index]
        else:
            assert f"line {line} (`{self.text(line)}`) runs for the {nth(k)} time" in q or (
                f"when line {line} runs for the {nth(k)} time" in q
            ), q
            others = [r for r in self.runs(line) if r.index != run.index]
        if "in the iteration where" in q:
            values = self.loop_values(run)
            assert values, q
            for name, value in values.items():
                assert f"`{name}` = {value}" in q, q
            assert all(self.loop_values(o) != values for o in others), f"not unique: {q}"

    def check_call_arguments(self, probe: Probe) -> None:
        q, anchor = probe.question, probe.anchor
        if "(the call where" not in q:
            return
        node = next(
            n
            for n in ast.walk(self.tree)
            if isinstance(n, ast.FunctionDef) and n.lineno == anchor.line
        )
        params = [a.arg for a in node.args.args]
        calls = [
            s
            for s in self.steps
            if s.event == "call" and s.func == anchor.variable and s.line == anchor.line
        ]

        def args(step: Step) -> list[str]:
            return [step.locals[p] for p in params]

        mine = calls[anchor.occurrence - 1]
        for p in params:
            assert f"`{p}` = {mine.locals[p]}" in q, q
        assert sum(args(c) == args(mine) for c in calls) == 1


def check_probe(reread: Reread, probe: Probe) -> None:
    """The probe's answer, type, dimensions and question agree with a fresh reading."""
    assert reread.answer(probe) == probe.answer, probe
    if probe.kind == "next_line":
        assert probe.answer_type == "line"
    elif probe.kind == "full_trace":
        assert probe.answer_type == "trace"
    else:
        assert probe.answer_type == TYPES[type(ast.literal_eval(probe.answer))]
    dims = set(probe.dimensions)
    expected = DIMENSIONS[probe.kind]
    assert dims == expected or (probe.kind == "state_after" and dims == expected | {"Arithmetic"})
    if "Arithmetic" in dims and probe.kind == "state_after":
        assert probe.features.operators >= 2
    reread.check_question(probe)


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


@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_every_cruxeval_probe_answer_is_rederived() -> None:
    rows = rows_of(Path(str(CRUXEVAL)))
    assert len(rows) == 800
    counts: Counter[str] = Counter()
    for row in rows:
        rederive(str(row["id"]), str(row["code"]), [f"f({row['input']})"], counts)
    print("\nprobes per kind over the 800 CRUXEval originals (count=6):", dict(counts))
    assert set(counts) == set(DIMENSIONS)
    assert sum(counts.values()) > 4000


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
    assert total > 15_000


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
        "def f(xs):\n"
        "    s = 0\n"
        "    for x in xs:\n"
        "        if x % 2 == 0:\n"
        "            s += x\n"
        "        else:\n"
        "            s -= 1\n"
        "    return s\n",
        "def f(xs):\n"
        "    s = 0\n"
        "    for x in xs:\n"
        "        if x % 2 != 0:\n"
        "            s -= 1\n"
        "        else:\n"
        "            s += x\n"
        "    return s\n",
        {},
        {2: [2], 3: [3], 4: [4], 5: [7], 7: [5], 8: [8]},
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
