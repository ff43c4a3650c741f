"""Which way a condition went, told from the instructions that run after its test.

An outcome is decided by the first instruction, once the test has started, that lies inside
the body (True), inside the `else` part (False) or, for a statement, starts outside the
statement (False: control jumped past it, e.g. to the next line or back to a loop header).
Instructions of the test itself decide nothing, nor do those whose position covers more than
one part (a jump placed on the whole statement, the `return` around a conditional expression).

Conditions whose body starts on a later line than their test are decided by the next line
event instead (see `_Recorder` in `_trace`); this module serves the rest: same-line bodies and
conditional expressions. Python 3.11 reports each instruction (opcode events), and each is
classified as it runs. From 3.12 `sys.settrace` reports no instructions, so the recorder
listens to `sys.monitoring` BRANCH events of the tests' jumps instead, and from a jump's
destination follows the instructions control reaches without a further choice until one
decides (`CodeBranches.follow`).
"""

from __future__ import annotations

import dis
import sys
from types import CodeType
from typing import Any

from tracer._static import Condition, inside

Position = tuple[int | None, int | None, int | None, int | None]

TEST = 2
"""`classify`: the instruction belongs to the test."""
NEUTRAL = 3
"""`classify`: the instruction tells nothing (around the condition, or without a position)."""

MONITORING = sys.version_info >= (3, 12)
"""Outcomes come from `sys.monitoring` BRANCH events (no opcode events from `sys.settrace`)."""
_monitoring: Any = getattr(sys, "monitoring", None)
DISABLE: Any = getattr(_monitoring, "DISABLE", None)
"""What a `sys.monitoring` callback returns to stop the event at that instruction."""

_UNCONDITIONAL = frozenset(
    {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT"}
)
_RETURNS = frozenset({"RETURN_VALUE", "RETURN_CONST"})
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)
_FALLS, _GOES, _STOPS, _RETURN = 0, 1, 2, 3
_MAX_FOLLOW = 256


def classify(condition: Condition, position: Position) -> int:
    """What running an instruction at `position` says about `condition`.

    Returns:
        True or False (as 1 or 0) when it decides the outcome, else `TEST` or `NEUTRAL`.
    """
    line, end_line, col, end_col = position
    if line is None or col is None or (line == end_line and col == end_col):
        return NEUTRAL  # no position, or an empty one (RESUME, an implicit return)
    if inside(position, condition.test):
        return TEST
    if inside(position, condition.body):
        return True
    if condition.orelse is not None and inside(position, condition.orelse):
        return False
    if condition.kind != "ifexp":
        outer = condition.outer
        if not outer[0] <= (line, col) < outer[1]:
            return False
    return NEUTRAL


class CodeBranches:
    """What deciding outcomes needs about one code object.

    Attributes:
        conditions: line -> condition, for the conditions this code evaluates (so a
            comprehension or lambda on an `if` line does not take the `if` for its own).
        positions: `co_positions()`, one entry per code unit (index = offset // 2); empty
            when `by_opcode` is False.
        by_opcode: some condition here needs instruction-level outcomes.
        branch_lines: offset of an instruction inside a test -> that condition's line (3.12+).
    """

    __slots__ = ("branch_lines", "by_opcode", "conditions", "flow", "positions")

    def __init__(self, code: CodeType, conditions: dict[int, Condition]) -> None:
        scope = (code.co_name, code.co_firstlineno)
        own = {line: c for line, c in conditions.items() if c.scope == scope}
        self.conditions = own
        self.by_opcode = any(c.by_opcode for c in own.values())
        self.branch_lines: dict[int, int] = {}
        self.flow: dict[int, tuple[int, int]] = {}
        # only conditions decided by instructions look at positions
        positions: list[Position] = list(code.co_positions()) if self.by_opcode else []
        self.positions = positions
        if MONITORING and self.by_opcode:
            tests = [c for c in own.values() if c.by_opcode]
            for index, position in enumerate(positions):
                for condition in tests:
                    if inside(position, condition.test):
                        self.branch_lines[index * 2] = condition.line
            self.flow = _flow(code)

    def follow(self, condition: Condition, offset: int) -> bool | None:
        """The outcome told by running on from `offset`, or None when a further choice (or a
        raise) comes first.

        A `return` reached before any body instruction means a statement's body was skipped.
        """
        for _ in range(_MAX_FOLLOW):
            index = offset // 2
            if index >= len(self.positions):
                return None
            verdict = classify(condition, self.positions[index])
            if verdict in (TEST, NEUTRAL):
                step = self.flow.get(offset)
                if step is None:
                    return None
                kind, target = step
                if kind == _RETURN:
                    return False if condition.kind != "ifexp" else None
                if kind == _STOPS:
                    return None
                offset = target
                continue
            return bool(verdict)
        return None


def _flow(code: CodeType) -> dict[int, tuple[int, int]]:
    """offset -> (how control leaves the instruction, where to) for the instructions of `code`."""
    instructions = list(dis.get_instructions(code))
    flow: dict[int, tuple[int, int]] = {}
    for ins, nxt in zip(instructions, [*instructions[1:], None], strict=True):
        name = ins.opname
        if name in _UNCONDITIONAL:
            target: Any = getattr(ins, "jump_target", None)
            if target is None:
                target = ins.argval
            flow[ins.offset] = (_GOES, int(target))
        elif name in _RETURNS:
            flow[ins.offset] = (_RETURN, 0)
        elif ins.opcode in _JUMPS or nxt is None or name.startswith(("RAISE", "RERAISE", "YIELD")):
            flow[ins.offset] = (_STOPS, 0)
        else:
            flow[ins.offset] = (_FALLS, nxt.offset)
    return flow


class BranchEvents:
    """A `sys.monitoring` tool that hands BRANCH events of chosen code objects to a callback.

    Holds a free tool id from `use()` until `close()`; without a free id it does nothing and
    outcomes that need it stay None.
    """

    def __init__(self, callback: Any) -> None:
        self.callback = callback
        self.tool: int | None = None
        self.codes: list[CodeType] = []

    def use(self) -> None:
        """Take a free tool id and register the callback."""
        monitoring = _monitoring
        for tool in (4, 3, 5, 0, 2, 1):  # ids that debuggers, coverage and profilers favour last
            try:
                if monitoring.get_tool(tool) is None:
                    monitoring.use_tool_id(tool, "core-bench tracer")
                    monitoring.register_callback(tool, monitoring.events.BRANCH, self.callback)
                    self.tool = tool
                    return
            except ValueError:  # taken in the meantime
                continue

    def watch(self, code: CodeType) -> None:
        """Report BRANCH events of `code`."""
        if self.tool is not None:
            try:
                _monitoring.set_local_events(self.tool, code, _monitoring.events.BRANCH)
            except ValueError:  # traced code freed the tool id
                return
            self.codes.append(code)

    def close(self) -> None:
        """Stop every event and give the tool id back."""
        if self.tool is None:
            return
        monitoring = _monitoring
        tool, self.tool = self.tool, None
        try:
            if monitoring.get_tool(tool) == "core-bench tracer":  # traced code may have freed it
                for code in self.codes:
                    monitoring.set_local_events(tool, code, 0)
                monitoring.register_callback(tool, monitoring.events.BRANCH, None)
                monitoring.free_tool_id(tool)
        except ValueError:
            pass
        self.codes.clear()
