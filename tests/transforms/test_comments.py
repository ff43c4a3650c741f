"""Misleading comments: false claims, code untouched."""

from __future__ import annotations

from transform_cases import Case, KeepsLines, Rewrite, cases, declines
from transform_testing import code, same_ast_ignoring_comments, transform

from transforms._comments import MisleadingComment

PROGRAM = """
def f(nums, k):
    total = 0
    for n in nums:
        total += n
    while total > k:
        total -= k
    if total:
        nums.append(total)
    return nums
"""


CASES = cases(
    declines_without_statements_to_lie_about=declines(
        MisleadingComment,
        "def f(x):\n    return x\n",
        "x = []\nx.append(1)\n",
    ),
    keeps_existing_comments_and_formatting=KeepsLines(
        MisleadingComment,
        """
        def f(xs):
            # header
            acc  =  []   # existing
            for x in reversed(xs):
                acc.append(x)
            return acc
        """,
        ["    # header", "    acc  =  []   # existing", "    return acc"],
    ),
)


def commented(line: str, comment: str, *, own_line: bool = False) -> str:
    """PROGRAM with `# comment` at the end of its line `line`, or on a line of its own above."""
    lines = code(PROGRAM).splitlines(keepends=True)
    (at,) = [i for i, text in enumerate(lines) if text.strip() == line]
    if own_line:
        indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
        lines.insert(at, f"{indent}# {comment}\n")
    else:
        lines[at] = f"{lines[at].rstrip()}  # {comment}\n"
    return "".join(lines)


def test_trailing_comment() -> None:
    after = commented("nums.append(total)", "insert total at the front of nums")
    result = Rewrite(MisleadingComment, PROGRAM, after).check()
    assert result.provenance.line_map == {i: [i] for i in range(1, 10)}


def test_own_line_comment_shifts_the_line_map() -> None:
    comment = "visit nums from its last element to its first"
    after = commented("for n in nums:", comment, own_line=True)
    result = Rewrite(MisleadingComment, PROGRAM, after, seed=4).check()
    assert result.provenance.line_map[3] == [4]
    assert result.provenance.line_map[9] == [10]


def test_only_comments_change_and_every_claim_is_a_known_lie() -> None:
    source = code(PROGRAM)
    texts = set()
    for seed in range(40):
        result = transform(MisleadingComment, source, seed=seed)
        assert result is not None
        assert same_ast_ignoring_comments(source, result.code)
        (added,) = [line for line in result.code.splitlines() if "#" in line]
        texts.add(added.split("# ", 1)[1])
    assert texts <= {
        "total starts at 1",
        "iterate over nums in reverse order",
        "visit nums from its last element to its first",
        "n skips the first element of nums",
        "subtract n from total",
        "keep looping until total > k",
        "stops as soon as total > k holds",
        "add k to total",
        "this branch runs only when total is false",
        "skipped whenever total",
        "insert total at the front of nums",
    }
    assert len(texts) >= 6


def test_case(case: Case) -> None:
    case.check()
