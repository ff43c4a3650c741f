"""Reordering of two adjacent independent statements.

Two statements may swap when each is an assignment to local names (no attribute or subscript
stores, which could alias), their values have no side effects (only builtins and
non-mutating methods are called), neither writes a name the other reads or writes, neither
iterates an object the other uses (an iterator would be consumed), at most one of them can
raise (so the same exception surfaces), they are not inside a `try`/`with` (where a partial
effect could be observed), and no nested function reads the names they write.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from transforms._analysis import (
    BUILTIN_NAMES,
    ModuleInfo,
    all_target_names,
    bound_before,
    definitely_assigned,
    function_members,
    is_pure,
    leading_lines,
    may_raise,
    name_values,
    touched_names,
)
from transforms._base import Transform


@dataclass
class _Effects:
    reads: set[str]
    writes: set[str]
    raises: bool


def _effects(stmt: cst.BaseStatement, info: ModuleInfo, bound: set[str]) -> _Effects | None:
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Assign):
        writes = all_target_names(target.target for target in small.targets)
        if writes is None:
            return None
        value = small.value
        unpacks = any(not isinstance(t.target, cst.Name) for t in small.targets)
    elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
        writes = {small.target.value}
        value = small.value
        unpacks = True  # the operator itself may raise
    else:
        return None
    if not is_pure(value, info):
        return None
    reads = name_values(small)
    writes |= touched_names(value)
    # Reading a local that may be unbound raises too (UnboundLocalError).
    unbound = bool(name_values(value) - bound - BUILTIN_NAMES)
    return _Effects(reads=reads, writes=writes, raises=unpacks or unbound or may_raise(value, info))


def _independent(a: _Effects, b: _Effects) -> bool:
    if a.writes & (b.reads | b.writes) or b.writes & (a.reads | a.writes):
        return False
    return not (a.raises and b.raises)


@dataclass
class _Pair:
    block: cst.IndentedBlock
    index: int


class ReorderStatements(Transform):
    """Swap two adjacent statements that do not depend on each other."""

    name = "reorder_statements"
    kind = "equivalent"
    description = "swap two adjacent assignments that neither read nor write each other's names"

    site: _Pair

    def find_sites(self, info: ModuleInfo) -> list[_Pair]:
        """Adjacent independent assignments."""
        pairs: list[_Pair] = []
        for block, func in function_members(info, cst.IndentedBlock):
            if any(isinstance(a, cst.Try | cst.TryStar | cst.With) for a in info.ancestors(block)):
                continue
            if info.has_global_or_nonlocal(func):
                continue
            captured = info.captured_names(func)
            bound = bound_before(block.body[0], func, info) if block.body else set()
            effects: list[_Effects | None] = []
            for stmt in block.body:
                effects.append(_effects(stmt, info, bound))
                bound |= definitely_assigned(stmt)
            for i in range(len(block.body) - 1):
                a, b = effects[i], effects[i + 1]
                if a is None or b is None or (a.writes | b.writes) & captured:
                    continue
                if _independent(a, b):
                    pairs.append(_Pair(block, i))
        return pairs

    def rewrite_block(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock, i: int
    ) -> cst.IndentedBlock:
        """Swap the chosen statements; each keeps the comments above it."""
        body = list(updated_node.body)
        first, second = body[i], body[i + 1]
        if i == 0:
            # Blank lines right after the block header belong to the position, not the line.
            first_lines, second_lines = leading_lines(first), leading_lines(second)
            new_first = second.with_changes(leading_lines=first_lines)
            new_second = first.with_changes(leading_lines=second_lines)
            if any(line.comment for line in (*first_lines, *second_lines)):
                new_first, new_second = second, first
            else:
                self.carry_origin(second, new_first)
                self.carry_origin(first, new_second)
            body[i], body[i + 1] = new_first, new_second
        else:
            body[i], body[i + 1] = second, first
        return updated_node.with_changes(body=body)


TRANSFORMS: tuple[type[Transform], ...] = (ReorderStatements,)
