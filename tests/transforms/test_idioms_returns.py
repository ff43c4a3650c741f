"""idiom rewrites: returned conditions and branches, f-strings, counters and swaps."""

from __future__ import annotations

from transform_cases import Case, Declines, Rewrite, cases, declines

from transforms._idioms_counters import CounterToEnumerate, SwapToTemp
from transforms._idioms_returns import BranchToReturnCondition, ReturnConditionToBranch
from transforms._idioms_strings import ConcatToFString

CASES = cases(
    returned_comparison_becomes_branch=[
        Rewrite(
            ReturnConditionToBranch,
            """
            def f(a, b):
                return a[::-1] == b
            """,
            """
            def f(a, b):
                if a[::-1] == b:
                    return True
                return False
            """,
            calls=[("ab", "ba"), ("ab", "ab"), ([1], [1])],
        ),
        # Reviewer's find: `if bool(s):` (and `if not bool(s):` once a guard turns it).
        Rewrite(
            ReturnConditionToBranch,
            "def f(text):\n    return bool(text)\n",
            "def f(text):\n    if text:\n        return True\n    return False\n",
            calls=[("",), ("a",), ([],), ([0],)],
        ),
        # `a and b` returns one of its operands, not a bool.
        Declines(
            ReturnConditionToBranch,
            "def f(a, b):\n    return a and b\n",
        ),
        # Issue 9 (reviewer's find): `if is_x(...): return True` + `return False` around a
        # helper of the module, whose own `return` gives the bool; a str predicate's branch
        # is how many people write it (CRUXEval's own sources have it).
        Rewrite(
            ReturnConditionToBranch,
            "def f(c):\n    return not c.isdigit()\n",
            "def f(c):\n    if not c.isdigit():\n        return True\n    return False\n",
            calls=[("1",), ("a",), ("",)],
        ),
        Declines(
            ReturnConditionToBranch,
            "def is_vowel(c):\n    found = c.lower() in 'aeiou'\n    return found\n\n"
            "def f(c):\n    return not is_vowel(c)\n",
        ),
    ],
    branch_becomes_returned_condition=[
        Rewrite(
            BranchToReturnCondition,
            """
            def f(text):
                if text.isupper():
                    return True
                else:
                    return False
            """,
            """
            def f(text):
                return text.isupper()
            """,
            calls=[("AB",), ("",), ("a",)],
        ),
        Rewrite(
            BranchToReturnCondition,
            """
            def f(xs):
                if xs:
                    return False
                return True
            """,
            """
            def f(xs):
                return not xs
            """,
            calls=[([],), ([0],), ("",)],
        ),
        Rewrite(
            BranchToReturnCondition,
            """
            def f(n):
                if n % 3:
                    return True
                return False
            """,
            """
            def f(n):
                return bool(n % 3)
            """,
            calls=[(3,), (4,)],
        ),
    ],
    branch_on_a_comparison_returns_the_inverted_comparison_never_not_before_it=[
        Rewrite(
            BranchToReturnCondition,
            """
            def f(nums, k):
                if len(nums) < k:
                    return False
                return True
            """,
            """
            def f(nums, k):
                return len(nums) >= k
            """,
            calls=[([1], 1), ([], 1)],
        ),
        # Operands of unknown type: before, `return not num < k`; the branch stays now.
        Declines(
            BranchToReturnCondition,
            """
            def f(num, k):
                if num < k:
                    return False
                return True
            """,
        ),
    ],
    concatenation_becomes_fstring=Rewrite(
        ConcatToFString,
        """
        def f(name, n):
            return 'hi ' + name.title() + ': ' + str(n) + " {x}"
        """,
        """
        def f(name, n):
            return f'hi {name.title()}: {n} {{x}}'
        """,
        calls=[("bob", 3), ("", [1, "a"]), ("x", None)],
    ),
    # Beside a str literal `x` is a str or the concatenation raises TypeError (which
    # verification sees: f'a{x}' would not raise).
    concatenation_with_a_literal_takes_an_untyped_operand_as_a_str=Rewrite(
        ConcatToFString,
        """
        def f(x, y):
            return x + ' and ' + y + '!'
        """,
        """
        def f(x, y):
            return f'{x} and {y}!'
        """,
        calls=[("a", "b"), ("", "")],
    ),
    # `x + y` is a str only when both are: `+ str(y)` after it pins them.
    concatenation_with_str_call_takes_the_other_operands_as_strs=Rewrite(
        ConcatToFString,
        """
        def f(x, y):
            return x + y + str(len(y))
        """,
        """
        def f(x, y):
            return f'{x}{y}{len(y)}'
        """,
        calls=[("a", "bc"), ("", "")],
    ),
    fstring_declines_operands_that_may_not_be_strings=declines(
        ConcatToFString,
        # `x` is shown to be an int: `'a' + x` raises TypeError, f'a{x}' would not.
        "def f(x):\n    n = len(x)\n    return 'a' + n\n",
        # `x` is shown to be a list.
        "def f(x):\n    x.append(1)\n    return x + '!'\n",
        # `n` is shown to be an int: the chain raises, the f-string would not.
        "def f(x, y):\n    n = len(x)\n    return y + n + str(n)\n",
        # `str(1)` would become a literal in braces.
        "def f():\n    return 'a' + str(1)\n",
    ),
    counter_becomes_enumerate=[
        Rewrite(
            CounterToEnumerate,
            """
            def f(text):
                lines = text.splitlines()
                i = 0
                for line in lines:
                    if not line:
                        return i
                    i += 1
                return -1
            """,
            """
            def f(text):
                lines = text.splitlines()
                for i, line in enumerate(lines):
                    if not line:
                        return i
                return -1
            """,
            calls=[("a\n\nb",), ("a",), ("",)],
        ),
        # The counter is read after the loop: enumerate would leave it one lower.
        Declines(
            CounterToEnumerate,
            """
            def f(xs):
                n = 0
                for x in xs:
                    print(x)
                    n += 1
                return n
            """,
        ),
    ],
    tuple_swap_becomes_temporary=[
        Rewrite(
            SwapToTemp,
            """
            def f(xs, i):
                xs[i], xs[i + 1] = xs[i + 1], xs[i]
                return xs
            """,
            """
            def f(xs, i):
                temp = xs[i]
                xs[i] = xs[i + 1]
                xs[i + 1] = temp
                return xs
            """,
            calls=[([1, 2, 3], 0), ([1, 2], 1), ({0: "a", 1: "b"}, 0)],
        ),
        # An index that reads the container being changed.
        Declines(
            SwapToTemp,
            "def f(xs):\n    xs[0], xs[xs[0]] = xs[xs[0]], xs[0]\n    return xs\n",
        ),
    ],
    # Bundled cb-203 had `f'{cur})'` beside `cur + '('`: every concatenation of the function
    # becomes an f-string.
    every_concatenation_of_the_function_becomes_an_fstring=Rewrite(
        ConcatToFString,
        """
        def f(words, sep):
            if not words:
                return '(' + sep + ')'
            return words[0] + sep + '...'
        """,
        """
        def f(words, sep):
            if not words:
                return f'({sep})'
            return f'{words[0]}{sep}...'
        """,
        calls=[([], "-"), (["a", "b"], ", ")],
    ),
    # A concatenation that cannot become an f-string (`str(1)` is a literal in disguise)
    # keeps the function's others as they are.
    concatenation_declines_where_another_of_the_function_cannot_change=declines(
        ConcatToFString,
        """
        def f(s):
            head = s + '-'
            return head + str(1)
        """,
    ),
)


def test_case(case: Case) -> None:
    case.check()
