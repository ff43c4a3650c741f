"""An independent reader of probe answers, for tests: re-traces the code and follows each
kind's definition from the step list directly (loop entries by the previous line of the frame,
body runs by header-to-body transitions, next steps by scanning the frame), written apart from
`core_bench.probes` so that a bug in the generator's indexes shows up as a disagreement. It also
checks what each question claims: the line's number and source, the occurrence, the iteration
values, and that those single the run out.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field

from core_bench.schemas import Probe
from tracer import Step, Trace, trace

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
    "run_count": {"Boundary", "Logic"},
    "change_count": {"State"},
    "first_true": {"Logic", "Boundary"},
    "return_line": {"Logic"},
    "exception_line": {"Logic", "State"},
    "call_count": {"Logic", "Boundary"},
}


def nth(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


@dataclass
class Reread:
    """A fresh trace of one call, read without the generator's code.

    The trace is taken in this process unless `fresh` is given: a build traces in the sandbox,
    whose fixed PYTHONHASHSEED decides the order of sets of strings, so its probes are re-read
    from a sandboxed trace taken again.
    """

    code: str
    call: str
    fresh: Trace | None = None
    steps: list[Step] = field(init=False)
    source: list[str] = field(init=False)
    tree: ast.Module = field(init=False)
    previous_line: dict[int, Step | None] = field(init=False)

    def __post_init__(self) -> None:
        self.steps = (self.fresh or trace(self.code, self.call)).steps
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
        if kind == "run_count":
            assert k == 1
            return repr(len(self.runs(line)))
        if kind == "change_count":
            return self.change_count(line, var)
        if kind == "first_true":
            return self.first_true(line)
        if kind == "return_line":
            return self.return_line(line)
        if kind == "exception_line":
            first = next(s for s in self.steps if s.event == "exception")
            assert first.value is not None
            return repr((first.value.split(":")[0], first.line))
        if kind == "call_count":
            return repr(sum(1 for s in self.steps if s.event == "call" and s.func == var))
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

    def entry_frame(self, def_line: int) -> list[Step]:
        entry = self.steps[0]
        assert entry.event == "call" and entry.line == def_line
        frame = [s for s in self.steps if s.frame == entry.frame]
        assert frame[-1].event == "return"
        return frame

    def change_count(self, def_line: int, var: str | None) -> str:
        """Value changes of `var` in the entry frame: pairs of successive defined values that
        differ."""
        assert var is not None
        values = [s.locals[var] for s in self.entry_frame(def_line) if var in s.locals]
        changes = sum(1 for a, b in itertools.pairwise(values) if a != b)
        assert changes >= 1
        return repr(changes)

    def innermost_loop(self, line: int) -> int:
        loops = [
            n
            for n in ast.walk(self.tree)
            if isinstance(n, ast.For | ast.While)
            and n.lineno < line <= max(s.end_lineno or s.lineno for s in n.body)
        ]
        assert loops, f"line {line} is in no loop"
        return max(n.lineno for n in loops)

    def first_true(self, line: int) -> str:
        """Header runs from the loop's only entry up to the first run of `line` whose branch
        held."""
        header = self.innermost_loop(line)
        entries = self.entries(header)
        assert len(entries) == 1
        entry = entries[0]
        passes = 0
        for s in self.steps[entry.index :]:
            if s.frame != entry.frame or s.event != "line":
                continue
            if s.line == header:
                passes += 1
            elif s.line == line and s.branch:
                return repr(passes)
        raise AssertionError(f"the condition on line {line} never holds")

    def return_statements(self, def_line: int) -> list[int]:
        node = next(
            n
            for n in ast.walk(self.tree)
            if isinstance(n, ast.FunctionDef) and n.lineno == def_line
        )
        found: list[int] = []
        stack: list[ast.AST] = list(node.body)
        while stack:
            sub = stack.pop()
            if isinstance(sub, ast.Return):
                found.append(sub.lineno)
            if not isinstance(sub, ast.FunctionDef | ast.Lambda | ast.ClassDef):
                stack.extend(ast.iter_child_nodes(sub))
        return sorted(found)

    def return_line(self, def_line: int) -> str:
        lines = [s for s in self.entry_frame(def_line) if s.event == "line"]
        assert lines[-1].line in self.return_statements(def_line)
        return repr(lines[-1].line)

    def full_trace(self, def_line: int) -> str:
        entry = self.steps[0]
        assert entry.event == "call" and entry.line == def_line
        pairs = []
        for s in self.steps:
            if s.frame != entry.frame or s.event != "line":
                continue
            after = self.next_in_frame(s)
            assert after is not None
            changed = ", ".join(
                f"{name!r}: {value}"
                for name, value in after.locals.items()
                if s.locals.get(name) != value
            )
            pairs.append(f"[{s.line}, {{{changed}}}]")
        text = "[" + ", ".join(pairs) + "]"
        ast.literal_eval(text)  # every value the answer shows is a literal
        return text

    def is_header(self, line: int) -> bool:
        return any(
            isinstance(n, ast.For | ast.While) and n.lineno == line for n in ast.walk(self.tree)
        )

    def check_question(self, probe: Probe) -> None:
        """What the question says about the anchor is true and singles it out."""
        q, anchor = probe.question, probe.anchor
        line, k = anchor.line, anchor.occurrence
        note = f"The final check of line {line}, which ends the loop, counts as a run."
        if probe.kind in ("full_trace", "change_count", "return_line", "exception_line"):
            name = next(
                n.name
                for n in ast.walk(self.tree)
                if isinstance(n, ast.FunctionDef) and n.lineno == line
            )
            assert f"`{name}`" in q, q
            if probe.kind == "full_trace":
                assert f"defined on line {line}" in q
            elif probe.kind == "change_count":
                assert f"value of `{anchor.variable}` change" in q, q
            elif probe.kind == "exception_line":
                assert "Which exception is raised first, and on which line" in q, q
            else:
                listed = [str(n) for n in self.return_statements(line)]
                assert ", ".join(listed[:-1]) + " or " + listed[-1] + "?" in q, q
            return
        if probe.kind == "call_count":
            callee = next(
                n
                for n in ast.walk(self.tree)
                if isinstance(n, ast.FunctionDef) and n.name == anchor.variable
            )
            assert f"how many times is `{callee.name}` (defined on line {callee.lineno})" in q
            return
        assert f"line {line} (`{self.text(line)}`)" in q, q
        if probe.kind == "coverage":
            return
        if probe.kind == "run_count":
            assert f"How many times does line {line} (`{self.text(line)}`) run" in q, q
            assert (note in q) == self.is_header(line), q
            return
        if probe.kind == "first_true":
            header = self.innermost_loop(line)
            assert f"The loop on line {header} (`{self.text(header)}`) starts once" in q, q
            return
        if probe.kind == "call_return":
            assert f"the {nth(k)} call of `{anchor.variable}`" in q, q
            self.check_call_arguments(probe)
            return
        run = self.runs(line)[k - 1]
        if probe.kind in ("loop_iterations", "loop_exit_state"):
            entries = self.entries(line)
            ordinal = [e.index for e in entries].index(run.index) + 1
            if len(entries) == 1:
                assert f"Take the loop on line {line} (`{self.text(line)}`)." in q, q
            else:
                assert (
                    f"Take the {nth(ordinal)} start of the loop on line {line} "
                    f"(`{self.text(line)}`), at the {nth(k)} run of line {line}" in q
                ), q
                assert note in q, q
            others = [e for e in entries if e.index != run.index]
        else:
            ref = f"line {line} (`{self.text(line)}`) runs"
            if len(self.runs(line)) == 1:
                assert k == 1 and ref in q and "runs for the" not in q, q
            else:
                assert f"{ref} for the {nth(k)} time" in q, q
            if self.is_header(line):
                assert note in q, q
            others = [r for r in self.runs(line) if r.index != run.index]
        if "(when `" in q:
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
    if probe.kind in ("next_line", "return_line"):
        assert probe.answer_type == "line"
    elif probe.kind == "full_trace":
        assert probe.answer_type == "trace"
    else:
        value = ast.literal_eval(probe.answer)
        assert probe.answer_type == ("none" if value is None else type(value).__name__)
    dims = set(probe.dimensions)
    expected = DIMENSIONS[probe.kind]
    assert dims == expected or (probe.kind == "state_after" and dims == expected | {"Arithmetic"})
    if "Arithmetic" in dims and probe.kind == "state_after":
        assert probe.features.operators >= 2
    reread.check_question(probe)
