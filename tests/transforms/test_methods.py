"""Transforms inside methods: LeetCode-style `class Solution: def solve(self, ...)` code, as
in CoRE's data, is rewritten in the method the calls exercise, and verified through them.

Before, every transform declined on such code: the whole class, methods included, counted as
a class body, where nothing is a function's local.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
import pytest
from transform_cases import Case, Declines, Rewrite, cases
from transform_testing import code, transform

from tracer import SandboxPool
from transforms import all_transforms, generate_variants_report, verify_equivalent

COUNT = """
class Solution:
    limit = 2

    def countSmall(self, nums, k):
        count = 0
        for n in nums:
            if n < k * self.limit:
                count += 1
        return count
"""
CALLS = ["Solution().countSmall([1, 5, 2], 2)", "Solution().countSmall([], 3)"]

EVEN = """
class Solution:
    def countEven(self, nums, k):
        count = 0
        for n in nums:
            if n % 2 == 0 and n < k:
                count += 1
        return count
"""
EVEN_CALLS = ["Solution().countEven([1, 2, 4, 6], 5)", "Solution().countEven([3], 9)"]
COUNT_SELF = """
class Solution:
    limit = 3

    def countSmall(self, nums, k):
        count = 0
        for n in nums:
            if n < k * self.limit + 1:
                count += 1
        return count
"""

CASES = cases(
    for_to_while_in_a_method=Rewrite(
        "for_to_while",
        COUNT,
        """
        class Solution:
            limit = 2

            def countSmall(self, nums, k):
                count = 0
                items = list(nums)
                pos = 0
                while pos < len(items):
                    n = items[pos]
                    pos += 1
                    if n < k * self.limit:
                        count += 1
                return count
        """,
    ),
    idiom_loop_sum_in_a_method=Rewrite(
        "idiom_loop_sum",
        COUNT,
        """
        class Solution:
            limit = 2

            def countSmall(self, nums, k):
                count = sum(1 for n in nums if n < k * self.limit)
                return count
        """,
    ),
    augassign_expand_in_a_method=Rewrite(
        "augassign_expand",
        COUNT,
        """
        class Solution:
            limit = 2

            def countSmall(self, nums, k):
                count = 0
                for n in nums:
                    if n < k * self.limit:
                        count = count + 1
                return count
        """,
    ),
    # A helper goes before the class, as a plain function of what it needs.
    helper_of_a_method_goes_before_the_class=Rewrite(
        "extract_helper_expr",
        EVEN,
        """
        def is_even(n):
            return n % 2 == 0

        class Solution:
            def countEven(self, nums, k):
                count = 0
                for n in nums:
                    if is_even(n) and n < k:
                        count += 1
                return count
        """,
    ),
    loop_body_of_a_method=Rewrite(
        "extract_loop_body",
        EVEN,
        """
        def handle_item(n, k, count):
            if n % 2 == 0 and n < k:
                count += 1
            return count

        class Solution:
            def countEven(self, nums, k):
                count = 0
                for n in nums:
                    count = handle_item(n, k, count)
                return count
        """,
    ),
    # Code that needs the instance stays in the method (a module-level `def helper(self)`
    # is no code a person writes).
    code_using_self_stays_in_the_method=[
        Declines("extract_helper_expr", COUNT_SELF),
        Declines("extract_loop_body", COUNT_SELF),
    ],
    # The class body itself stays out of reach: an attribute is no local.
    class_attributes_are_not_renamed=Declines(
        "rename_short", "class C:\n    x = 1\n    def m(self):\n        return self.x\n"
    ),
)


def test_case(case: Case) -> None:
    case.check()


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(workers=1) as p:
        yield p


def _names(source: str) -> tuple[set[str], set[str]]:
    """(class and method names, attribute names) of `source`."""
    module = cst.parse_module(source)
    defined: set[str] = set()
    for node in module.body:
        if isinstance(node, cst.ClassDef):
            defined.add(node.name.value)
            defined |= {s.name.value for s in node.body.body if isinstance(s, cst.FunctionDef)}
    attributes = {n.attr.value for n in _walk(module) if isinstance(n, cst.Attribute)}
    return defined, attributes


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


@pytest.mark.parametrize(
    ("source", "calls", "expected"),
    [
        (COUNT, CALLS, {"for_to_while", "flip_comparison", "rename_verbose", "idiom_loop_sum"}),
        (EVEN, EVEN_CALLS, {"extract_helper_expr", "extract_loop_body", "rename_short"}),
    ],
)
def test_every_equivalent_transform_that_applies_in_a_method_is_equivalent_on_the_calls(
    pool: SandboxPool, source: str, calls: list[str], expected: set[str]
) -> None:
    source = code(source)
    applied = []
    for cls in all_transforms("equivalent"):
        options = {"calls": calls} if cls.uses_calls else {}
        for seed in range(3):
            result = transform(cls, source, seed=seed, **options)
            if result is None:
                continue
            applied.append(cls.name)
            assert verify_equivalent(source, result.code, calls, pool=pool).kept, result.code
            # The class, its method, `self` and the attributes keep their names.
            defined, attributes = _names(result.code)
            assert defined >= _names(source)[0] and attributes == _names(source)[1]
            assert "(self, " in result.code
    assert expected <= set(applied)


def test_variants_of_a_class_based_function_are_generated_and_verified(pool: SandboxPool) -> None:
    source = code(COUNT)
    report = generate_variants_report(source, CALLS, k=4, singles=4, seed=3, pool=pool)
    families = {v.family for v in report.variants if v.kind == "equivalent"}
    assert {"rewrite", "rename"} <= families, report.rejected
    for v in report.variants:
        if v.kind != "equivalent":
            continue
        assert verify_equivalent(source, v.code, report.calls, pool=pool).kept
        assert "class Solution:" in v.code and "def countSmall(self, " in v.code
        assert "self" not in v.provenance.renames


def test_renaming_keeps_self_the_class_and_the_method() -> None:
    result = transform("rename_verbose", code(COUNT), seed=0, calls=CALLS)
    assert result is not None
    assert result.provenance.renames == {
        "nums": "item_list",
        "k": "input_number",
        "count": "counter",
        "n": "current_item",
    }
    assert result.code == code(
        """
        class Solution:
            limit = 2

            def countSmall(self, item_list, input_number):
                counter = 0
                for current_item in item_list:
                    if current_item < input_number * self.limit:
                        counter += 1
                return counter
        """
    )


def test_rename_params_false_keeps_a_method_signature() -> None:
    result = transform("rename_short", code(COUNT), seed=0, rename_params=False)
    assert result is not None
    assert set(result.provenance.renames) == {"count"}  # `n` is short already


def test_a_static_method_has_no_self() -> None:
    source = "class C:\n    @staticmethod\n    def m(items):\n        return len(items)\n"
    result = transform("rename_short", source, seed=0, calls=["C().m([1])"])
    assert result is not None and result.provenance.renames == {"items": "xs"}
