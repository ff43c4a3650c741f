"""Cyclomatic complexity, tokens and Jaccard similarity."""

from __future__ import annotations

import io
import textwrap
import tokenize

import pytest

from transforms._metrics import cyclomatic_complexity, generated_tokens, jaccard, tokens


def _cc(source: str) -> int:
    return cyclomatic_complexity(textwrap.dedent(source))


def test_straight_line_function_is_one() -> None:
    assert _cc("def f(x):\n    y = x + 1\n    return y\n") == 1


def test_if_elif_else_counts_each_test() -> None:
    source = """
    def f(x):
        if x > 0:
            return 1
        elif x < 0:
            return -1
        else:
            return 0
    """
    assert _cc(source) == 3


def test_loops_count_once_and_their_else_adds_nothing() -> None:
    source = """
    def f(xs):
        for x in xs:
            pass
        else:
            pass
        while xs:
            xs.pop()
    """
    assert _cc(source) == 3


def test_boolean_operators_count_each_extra_operand() -> None:
    assert _cc("def f(a, b, c):\n    return a and b and c or a\n") == 1 + 2 + 1


def test_comprehension_fors_and_ifs_and_conditional_expression() -> None:
    source = "def f(xs):\n    return [y if y else 0 for x in xs if x for y in x if y > 1]\n"
    assert _cc(source) == 1 + 2 + 2 + 1


def test_except_handlers_and_assert() -> None:
    source = """
    def f(x):
        assert x
        try:
            return 1 / x
        except ZeroDivisionError:
            return 0
        except TypeError:
            return -1
        finally:
            pass
    """
    assert _cc(source) == 1 + 1 + 2


def test_match_cases_except_plain_wildcard() -> None:
    source = """
    def f(x):
        match x:
            case 1:
                return "one"
            case [a, b] if a > b:
                return "pair"
            case _ if x:
                return "truthy"
            case _:
                return "other"
    """
    assert _cc(source) == 1 + 3


def test_whole_module_counts_one_base_for_all_functions() -> None:
    source = "def g(x):\n    return x if x else 0\n\ndef f(x):\n    if x:\n        return g(x)\n"
    assert _cc(source) == 3


def test_complexity_raises_on_bad_source() -> None:
    with pytest.raises(SyntaxError):
        cyclomatic_complexity("def f(:\n")


def test_tokens_drop_layout_and_split_comments() -> None:
    source = "def f(x):\n    # add one\n    return x + 1  # done\n"
    assert tokens(source) == [
        "def", "f", "(", "x", ")", ":", "#", "add", "one", "return", "x", "+", "1", "#", "done",
    ]  # fmt: skip


def test_tokens_keep_fstring_as_one_token() -> None:
    assert tokens('y = f"a{x:>{w}}b"\n') == ["y", "=", 'f"a{x:>{w}}b"']


def test_tokens_fall_back_on_untokenizable_text() -> None:
    assert tokens("x = '''open") == ["x", "=", "'", "'", "'", "open"]


def test_jaccard_identical_disjoint_and_partial() -> None:
    assert jaccard("x = 1", "x = 1\n") == 1.0
    assert jaccard("", "") == 1.0
    assert jaccard("a", "b") == 0.0
    # {def, f, (, x, ), :, return} vs {def, f, (, y, ), :, return}: 6 shared of 8.
    assert jaccard("def f(x): return x", "def f(y): return y") == pytest.approx(6 / 8)


def test_jaccard_is_set_based_and_symmetric() -> None:
    a = "x = x + x + x"
    b = "x = x + 1"
    assert jaccard(a, b) == jaccard(b, a) == pytest.approx(3 / 4)


def test_comment_changes_similarity() -> None:
    code = "def f(x):\n    return x\n"
    commented = "def f(x):\n    # returns the argument\n    return x\n"
    assert jaccard(code, commented) < 1.0


def _fresh_tokens(source: str) -> tuple[list[tokenize.TokenInfo], type | None]:
    out: list[tokenize.TokenInfo] = []
    try:
        out.extend(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        return out, type(exc)
    return out, None


def test_kept_tokens_are_what_tokenize_gives_each_time() -> None:
    """The tokens kept per code (shared by the metrics and the artifact counts) are those
    a fresh `generate_tokens` yields, and the same error stops them, on every read."""
    sources = [
        "def f(x):\n    # why\n    return x + 1\n",
        "s = 'unterminated\n",
        "def f(x):\n  return x\n    y = 1\n",  # an unindent to no level: IndentationError
        "x = (1,\n",  # EOF in a multi-line statement: TokenError
        "",
    ]
    for source in sources:
        expected, error = _fresh_tokens(source)
        for _ in range(2):
            got: list[tokenize.TokenInfo] = []
            raised: type | None = None
            try:
                got.extend(generated_tokens(source))
            except (tokenize.TokenError, SyntaxError) as exc:
                raised = type(exc)
            assert got == expected
            assert raised is error
    assert any(_fresh_tokens(s)[1] is not None for s in sources)
