"""CoRE's `core_qa.json`: its implementations of one task as variants of one problem.

CoRE asks its questions of several independently written implementations of each task; rows
of one task share an id prefix ("Fine/36_11" and "Fine/36_0" are both task "Fine/36", possibly
of different code). A task becomes one problem, "core-qa/<prefix>":

- its original is the implementation of the task's first row in the file (the rule: file
  order); every other distinct implementation becomes an `Implementation` that the build
  verifies against the original and keeps as an equivalent variant "<pid>:re<k>" of family
  "reimplementation" (k numbers the implementations in the order they first appear);
- its calls are the distinct inputs of all the task's rows, in file order, with the outputs
  CoRE states for them;
- each question is a probe of kind "imported", kept as written (question, answer, CoRE's
  `answer_type`), on the variant of the implementation it was asked of, for the call of its
  input; its anchor is CoRE's target line (occurrence 1: CoRE does not state one).

Rows that cannot be used are listed in `LoadedDataset.skipped` with their position and id.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import libcst as cst

from core_bench.datasets._load import DatasetError, LoadedDataset, SourcedProblem, entry_of
from core_bench.schemas import Anchor, Probe, ProbeFeatures, Problem, SkippedRow
from tracer import same_value


@dataclass(frozen=True, slots=True)
class Implementation:
    """Another implementation of a problem's function, written independently of it.

    The build keeps it as an equivalent variant (family "reimplementation") only when it
    behaves like the original on every call of the problem.

    Attributes:
        variant_id: the id its variant gets, "<problem id>:re<k>".
        code: its source; it defines the problem's entry.
        origin: where it comes from: "core-qa:<id of its first row>" or "openai:<model>".
        trusted: dataset code (run in the build's sandbox workers) rather than model text
            (run only in sandbox workers of its own, and held to CoRE's filters too).
        file: the file it was read from, for reports; None for model text.
        line: its first row's position in that file (1-based), or None.
    """

    variant_id: str
    code: str
    origin: str
    trusted: bool = True
    file: str | None = None
    line: int | None = None


@dataclass(slots=True)
class _Task:
    """A CoRE task while its rows are read."""

    problem_id: str
    entry: str
    line: int
    codes: list[str]
    origins: list[tuple[str, int]]
    calls: list[str]
    outputs: list[str]


def load_core_qa(path: Path, loaded: LoadedDataset) -> LoadedDataset:
    """Fill `loaded` (empty, with its dataset info) from CoRE's `core_qa.json` at `path`.

    Raises:
        DatasetError: the file is not readable JSON, or not a list.
    """
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read CoRE's JSON: {exc}") from None
    if not isinstance(rows, list):
        raise DatasetError(f"{path}: expected a JSON list of questions")
    tasks: dict[str, _Task] = {}
    for index, row in enumerate(rows):
        reason = _read_row(row, index, tasks, loaded)
        if reason is not None:
            row_id = str(row.get("id", index)) if isinstance(row, dict) else str(index)
            loaded.skipped.append(
                SkippedRow(file=str(path), line=index + 1, id=row_id, reason=reason)
            )
    for task in tasks.values():
        problem = Problem(
            id=task.problem_id,
            source="core-qa",
            code=task.codes[0],
            entry=task.entry,
            calls=task.calls,
            outputs=task.outputs,
        )
        loaded.rows.append(SourcedProblem(problem, str(path), task.line))
        loaded.implementations[task.problem_id] = [
            Implementation(
                variant_id=_variant_id(task.problem_id, k),
                code=code,
                origin=f"core-qa:{origin}",
                file=str(path),
                line=line,
            )
            for k, (code, (origin, line)) in enumerate(zip(task.codes, task.origins, strict=True))
            if k > 0
        ]
    return loaded


def _variant_id(problem_id: str, number: int) -> str:
    return f"{problem_id}:original" if number == 0 else f"{problem_id}:re{number}"


def _read_row(row: Any, index: int, tasks: dict[str, _Task], loaded: LoadedDataset) -> str | None:
    """Add one row to its task; the reason it cannot be used, or None."""
    needed = ("id", "source_code", "input", "question")
    if not isinstance(row, dict) or any(not isinstance(row.get(k), str) for k in needed):
        return "missing id, source_code, input or question"
    func = str((row.get("meta_data") or {}).get("func_name") or "")
    try:
        entry = entry_of(row["source_code"], func or "f")
    except ValueError as exc:
        return str(exc)
    code = _without_typing_annotations(row["source_code"])
    prefix = row["id"].rsplit("_", 1)[0]
    problem_id = f"core-qa/{prefix}"
    task = tasks.get(problem_id)
    if task is None:
        task = _Task(problem_id, entry, index + 1, [], [], [], [])
    elif entry != task.entry:
        return (
            f"its function is called as {entry}, the task's first implementation as "
            f"{task.entry}: the calls cannot be shared"
        )
    call = f"{entry}({row['input']})"
    output = _core_literal(str(row.get("output", "")))
    if call in task.calls:
        stated = task.outputs[task.calls.index(call)]
        if not same_value(stated, output):
            return f"states output {output} for {call}, an earlier row of its task {stated}"
    tasks[problem_id] = task
    if code not in task.codes:
        task.codes.append(code)
        task.origins.append((row["id"], index + 1))
    if call not in task.calls:
        task.calls.append(call)
        task.outputs.append(output)
    variant = _variant_id(problem_id, task.codes.index(code))
    loaded.probes.append(_core_probe(row, index, problem_id, variant, task.calls.index(call)))
    return None


_TYPING_NAMES = frozenset({"List", "Dict", "Set", "Tuple", "Optional", "Union", "Any"})


class _DropAnnotations(cst.CSTTransformer):
    def leave_Param(self, original_node: cst.Param, updated_node: cst.Param) -> cst.Param:
        return updated_node.with_changes(annotation=None)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        return updated_node.with_changes(returns=None)


def _without_typing_annotations(code: str) -> str:
    """LeetCode-style code uses `List` etc. without importing them (LeetCode's environment
    does); dropping the annotations makes it run and keeps every line where it was."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    imported = {
        a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
    }
    if not (loaded & _TYPING_NAMES) - imported:
        return code
    return cst.parse_module(code).visit(_DropAnnotations()).code


def _core_literal(text: str) -> str:
    """CoRE writes some outputs JSON-style ("false", "null"); give the Python repr."""
    try:
        ast.literal_eval(text)
        return text
    except (ValueError, SyntaxError):
        pass
    try:
        return repr(json.loads(text))
    except (json.JSONDecodeError, ValueError):
        return text


def _core_probe(
    row: dict[str, Any], index: int, problem_id: str, variant_id: str, call_index: int
) -> Probe:
    """One of CoRE's questions; its id keeps CoRE's own id and the row's position, since
    CoRE's ids are not unique."""
    line = row.get("target_line_number")
    step = row.get("target_step_index")
    return Probe(
        id=f"{problem_id}:{row['id']}:{index}",
        problem_id=problem_id,
        variant_id=variant_id,
        call_index=call_index,
        kind="imported",
        dimensions=_core_dimensions(str(row.get("complexity_type") or "")),
        question=row["question"],
        anchor=Anchor(line=int(line) if isinstance(line, int) else 0, occurrence=1),
        answer=str(row.get("ground_truth", "")),
        answer_type=str(row.get("answer_type") or "unknown"),
        features=ProbeFeatures(step_index=int(step) if isinstance(step, int) else -1),
        anchored=False,
    )


def _core_dimensions(complexity: str) -> list[Any]:
    text = complexity.lower()
    found = []
    if "arithmetic" in text:
        found.append("Arithmetic")
    if "condition" in text or "logic" in text:
        found.append("Logic")
    if "state" in text:
        found.append("State")
    if "boundar" in text or "loop" in text:
        found.append("Boundary")
    return found
