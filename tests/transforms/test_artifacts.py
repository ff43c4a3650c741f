"""The machine-artifact detectors and the identifier-normalised similarity, on real snippets."""

from __future__ import annotations

import ast

import pytest

from core_bench.datasets import load_dataset
from transforms import _artifacts, all_transforms, apply_transform, find_artifacts
from transforms._artifacts import ArtifactBaseline, ast_nodes, count_artifacts
from transforms._metrics import cosmetic_only, normalized_jaccard, normalized_tokens

ORIGINAL = """\
def f(text, n):
    out = []
    for ch in text:
        if ch.isdigit():
            out.append(ch * n)
    return ''.join(out)
"""


@pytest.mark.parametrize(
    "variant, kind",
    [
        (
            ORIGINAL.replace("    return", "    if 0:\n        out = None\n    return"),
            "constant test",
        ),
        (
            ORIGINAL.replace("    return", "    if 8 < 3:\n        out = None\n    return"),
            "constant test+literal arithmetic",
        ),
        (ORIGINAL.replace("''.join(out)", "''.join(out) if not True else out"), "constant test"),
        (ORIGINAL.replace("out = []", "out = []\n    while 0:\n        pass"), "constant test"),
        (ORIGINAL.replace("''.join", "('' + '').join"), "literal arithmetic"),
        (ORIGINAL.replace("ch * n", "ch * n * (9 - 8)"), "literal arithmetic"),
        (ORIGINAL.replace("out = []", "out = []  # text is split into ch"), None),
        (
            ORIGINAL.replace("out = []", "out = []  # collect the digits of s").replace(
                "text", "s"
            ),
            None,
        ),
        (
            ORIGINAL.replace("out = []", "out = []  # collect the digits of `text`")
            .replace("(text, n)", "(s, n)")
            .replace("in text", "in s"),
            "orphan comment",
        ),
        (
            ORIGINAL.replace(
                "    for ch in text:\n",
                "    it = iter(text)\n    while True:\n        try:\n            ch = next(it)\n"
                "        except StopIteration:\n            break\n",
            ),
            "next desugaring",
        ),
        (ORIGINAL.replace("ch.isdigit()", "not (not ch.isdigit() or not n)"), "double negation"),
        (ORIGINAL.replace("ch.isdigit()", "not not ch.isdigit()"), "double negation"),
        (ORIGINAL.replace("ch.isdigit()", "not (ch.isdigit() or not n)"), None),
        (ORIGINAL.replace("ch.isdigit()", "not (ch not in '0123' or n > 0)"), "double negation"),
        (ORIGINAL.replace("ch.isdigit()", "not (ch is not None and n > 0)"), "double negation"),
        (ORIGINAL.replace("ch.isdigit()", "not (ch in '0123' or n > 0)"), None),
        (ORIGINAL.replace("ch.isdigit()", "not ch < n"), "negated comparison"),
        (ORIGINAL.replace("ch.isdigit()", "ch >= n"), None),
        (
            "def is_in(y, n):\n    return y in n\n\n"
            + ORIGINAL.replace("ch.isdigit()", "is_in(ch, '0123456789')"),
            "one-operation helper",
        ),
        (
            "def add_digit(ch, n, out):\n    out.append(ch * n)\n    return out\n\n"
            + ORIGINAL.replace("out.append(ch * n)", "out = add_digit(ch, n, out)"),
            None,
        ),
        # Issue 9: a helper named for the arguments it reads, or for a renamed variable.
        (
            "def update_out(ch, n, out):\n    out.append(ch * n)\n    return out\n\n"
            + ORIGINAL.replace("out.append(ch * n)", "out = update_out(ch, n, out)"),
            "argument-named helper",
        ),
        (
            "def update_out(ch, n, digits):\n    digits.append(ch * n)\n    return digits\n\n"
            + ORIGINAL.replace("out", "digits").replace(
                "digits.append(ch * n)", "digits = update_out(ch, n, digits)"
            ),
            "argument-named helper",
        ),
        (
            "def repeat_char(ch, n):\n    return ch * n + ch\n\n"
            + ORIGINAL.replace("ch * n", "repeat_char(ch, n)").replace("ch", "char"),
            None,  # `char` is a kind of value, no argument's name
        ),
        (
            ORIGINAL.replace("ch.isdigit()", "not (len(ch) <= n or ch == 'a')"),
            "negated comparisons",
        ),
        (ORIGINAL.replace("ch.isdigit()", "not (len(ch) <= n or ch in 'ab')"), None),
        (
            ORIGINAL.replace(
                "        if ch.isdigit():\n            out.append(ch * n)",
                "        if not ch.isdigit():\n            continue\n"
                "        else:\n            out.append(ch * n)",
            ),
            "else after continue",
        ),
        (
            ORIGINAL.replace(
                "        if ch.isdigit():\n            out.append(ch * n)",
                "        if not ch.isdigit():\n            break\n"
                "        else:\n            out.append(ch * n)",
            ),
            None,
        ),
        (
            ORIGINAL.replace(
                "        if ch.isdigit():\n            out.append(ch * n)",
                "        if not ch.isdigit():\n            continue\n        out.append(ch * n)",
            ),
            None,
        ),
        (
            "def add_digit(ch, out):\n    out.append(ch)\n\n"
            + ORIGINAL.replace("out.append(ch * n)", "add_digit(ch * n, out)"),
            "one-operation helper",
        ),
        (
            ORIGINAL.replace("out = []", "out = []\n    out_2 = out"),
            "clash suffix",
        ),
        # Reviewer's finds, each a kind of its own.
        (ORIGINAL.replace("ch.isdigit()", "(ch.isdigit())"), "parenthesized call"),
        (ORIGINAL.replace("''.join(out)", "''.join([c for c in out])"), "identity comprehension"),
        (ORIGINAL.replace("''.join(out)", "''.join(list(out))"), None),
        # The bundled cb-074: `sorted((...), key=k)` made `list((...))`.
        (
            ORIGINAL.replace("''.join(out)", "''.join((c for c in out if c))"),
            "parenthesized generator",
        ),
        (ORIGINAL.replace("''.join(out)", "''.join(c for c in out if c)"), None),
        # The bundled cb-234: `filter(lambda el: is_prime(el), arr)`.
        (
            ORIGINAL.replace("''.join(out)", "''.join(filter(lambda c: bool(c), out))"),
            "lambda wrapper",
        ),
        (ORIGINAL.replace("''.join(out)", "''.join(filter(bool, out))"), None),
        # The bundled cb-203 and cb-027: one statement rewritten, its siblings not.
        (
            ORIGINAL.replace(
                "            out.append(ch * n)", "            out += [ch * n]"
            ).replace("    return", "    out.extend(text)\n    return"),
            "mixed spelling",
        ),
        (ORIGINAL.replace("    return", "    out.extend(text)\n    return"), None),
        (
            ORIGINAL.replace("    return", "    n += 1\n    n = n * 2\n    return"),
            "mixed spelling",
        ),
        (ORIGINAL.replace("    return", "    n += 1\n    n *= 2\n    return"), None),
        (ORIGINAL.replace("    return", "    n = n + 1\n    n = n * 2\n    return"), None),
        (ORIGINAL.replace("''.join(out)", "''.join(sorted(out, key=lambda c: c.lower()))"), None),
        (ORIGINAL.replace("''.join(out)", "sorted((c for c in out if c), key=len)"), None),
        (
            ORIGINAL.replace(
                "    return ''.join(out)", "    digits = out\n    return ''.join(digits)"
            ),
            "alias assignment",
        ),
        (ORIGINAL.replace("ch.isdigit()", "not (ch >= n or n <= 0)"), "negated condition"),
        (ORIGINAL.replace("ch.isdigit()", "ch < 'a' and n > 0"), None),
        # Comparisons that invert exactly are no "negated condition"; negated all the same,
        # they read machine-made (issue 9: de_morgan no longer writes them).
        (
            ORIGINAL.replace("ch.isdigit()", "not (ch >= ch.lower() or n <= 0)"),
            "negated comparisons",
        ),
        (
            "def compute(ch, n):\n    return ch * n + ch\n\n"
            + ORIGINAL.replace("ch * n", "compute(ch, n)"),
            "generic helper name",
        ),
        (
            "def repeat_char(ch, n):\n    return ch * n + ch\n\n"
            + ORIGINAL.replace("ch * n", "repeat_char(ch, n)"),
            None,
        ),
        (ORIGINAL.replace("out", "out_2"), "clash suffix"),  # `out` was in the original
        (ORIGINAL.replace("ch * n", "ch * n % 42").replace("out", "digits_mod_42"), None),
        (ORIGINAL.replace("out", "digits"), None),
        (ORIGINAL.replace("out", "lI1lI1"), "obfuscated name"),
        (ORIGINAL.replace("text", "_0x3fa2"), "obfuscated name"),
        (ORIGINAL.replace("text", "O0oO0"), "obfuscated name"),
        (ORIGINAL.replace("text", "I11l1l"), "obfuscated name"),
        (ORIGINAL.replace("ch.isdigit()", "1 < len(ch)"), "literal-first comparison"),
        (ORIGINAL.replace("ch.isdigit()", "-1 != text.find(ch)"), "literal-first comparison"),
        (ORIGINAL.replace("ch.isdigit()", "None is not ch"), "literal-first comparison"),
        (ORIGINAL.replace("ch.isdigit()", "len(ch) > 1"), None),
        (ORIGINAL.replace("ch.isdigit()", "0 < n < 10"), None),
        (ORIGINAL.replace("ch.isdigit()", "'0' in ch"), None),
    ],
)
def test_each_artifact_kind_is_found_and_natural_code_has_none(
    variant: str, kind: str | None
) -> None:
    compile(variant, "<variant>", "exec")
    assert find_artifacts(ORIGINAL, variant) == ([] if kind is None else kind.split("+"))


def test_a_helper_may_say_a_method_the_variant_no_longer_calls() -> None:
    # Found on all of CRUXEval: `strip_text(t)` for `t.lstrip().rstrip()` (idiom_str_methods
    # replaced `t.strip()`); `strip` was a method's name, never a variable of the original.
    original = "def f(text):\n    return [t.strip() for t in text.split()]\n"
    variant = (
        "def strip_text(t):\n    return t.lstrip().rstrip()\n\n"
        "def f(text):\n    return [strip_text(t) for t in text.split()]\n"
    )
    assert find_artifacts(original, variant) == []
    leaking = original.replace("t.strip() for t", "word.strip() for word")
    assert find_artifacts(leaking, variant.replace("strip_text", "strip_word")) == [
        "argument-named helper"
    ]


def test_a_branch_around_a_call_that_gives_the_bool_is_an_artifact() -> None:
    # Issue 9: `if is_x(...): return True` + `return False` (idiom_return_branch) around a
    # helper of the module; around a str predicate it is a beginner's form, not a machine's.
    helper = "def is_number(s):\n    return s.isdigit() and len(s) > 1\n\n"
    original = "def f(s):\n    return s.isdigit() or s > 'a'\n"
    around_call = (
        helper + "def f(s):\n    if is_number(s):\n        return True\n    return False\n"
    )
    negated = helper + (
        "def f(s):\n    if not is_number(s):\n        return False\n"
        "    else:\n        return True\n"
    )
    around_method = "def f(s):\n    if s.isdigit():\n        return True\n    return False\n"
    assert find_artifacts(original, around_method) == []
    around_test = "def f(s):\n    if s > 'a':\n        return True\n    return False\n"
    in_loop = (
        "def f(s):\n    for c in s:\n        if c.isdigit():\n            return True\n"
        "    return False\n"
    )
    assert find_artifacts(original, around_call) == ["bool branch on a call"]
    assert find_artifacts(original, negated) == ["bool branch on a call"]
    assert find_artifacts(original, around_test) == []
    assert find_artifacts(original, in_loop) == []


def test_a_plain_english_word_that_was_a_name_is_not_an_orphan_mention() -> None:
    commented = ORIGINAL.replace("out = []", "out = []  # the digits of text, n times each")
    renamed = commented.replace("text", "s").replace("(s, n)", "(s, k)").replace("* n", "* k")
    renamed = renamed.replace("# the digits of s", "# the digits of text")
    assert find_artifacts(commented, renamed) == ["orphan comment"]  # "n" is code-like
    assert find_artifacts(commented, renamed.replace("n times", "k times")) == []


def test_parentheses_a_call_needs_are_no_artifact() -> None:
    # `return(f(x))` keeps the keyword apart; a call's own or a subscript's parentheses, a
    # tuple or an operand in an expression are no stray parentheses around a call.
    natural = (
        "def f(x, xs):\n"
        "    y = (abs(x) + 1) * 2\n"
        "    z = xs[(len(xs) - 1)] if xs else (min(x, 0), 1)\n"
        "    return(g(x))\n"
    )
    assert count_artifacts(natural)["parenthesized call"] == 0
    assert count_artifacts("def f(x):\n    return (g(x)) + (h.k(x))\n")["parenthesized call"] == 2


def test_an_artifact_already_in_the_original_is_not_the_variant_s() -> None:
    original = "def f(x):\n    while True:\n        return x * (60 * 60)\n"
    assert count_artifacts(original)["literal arithmetic"] == 1
    assert find_artifacts(original, original.replace("x", "y")) == []


def test_distractor_transforms_make_artifacts_and_renaming_keeps_comments_true() -> None:
    dead = apply_transform("dead_branch", ORIGINAL, seed=0)
    with_constant = ORIGINAL.replace("ch * n", "ch * (n + 2)")
    unfolded = apply_transform("constant_unfold", with_constant, seed=1)
    assert dead is not None and unfolded is not None
    assert "constant test" in find_artifacts(ORIGINAL, dead.code)
    assert "literal arithmetic" in find_artifacts(with_constant, unfolded.code)
    commented = ORIGINAL.replace("out = []", "out = []  # the digits of text, n times each")
    for seed in range(5):
        renamed = apply_transform("rename_descriptive", commented, seed=seed)
        assert renamed is not None and "text" in renamed.provenance.renames
        assert find_artifacts(commented, renamed.code) == [], renamed.code


def test_normalised_similarity_ignores_names_and_comments_only() -> None:
    renamed = ORIGINAL.replace("text", "s").replace("out", "acc") + "# done\n"
    assert cosmetic_only(ORIGINAL, renamed)
    assert normalized_jaccard(ORIGINAL, renamed) == 1.0
    assert normalized_tokens("x.append(len(y))") == [
        "ID",
        ".",
        "append",
        "(",
        "len",
        "(",
        "ID",
        ")",
        ")",
    ]
    loop = apply_transform("for_to_while", ORIGINAL, seed=0)
    assert loop is not None
    assert not cosmetic_only(ORIGINAL, loop.code)
    assert normalized_jaccard(ORIGINAL, loop.code) < 1.0


def test_one_baseline_checks_many_variants_as_find_artifacts_does() -> None:
    original = (
        "def f(text):\n    # count the vowels in `text`\n"
        "    return sum(c in 'aeiou' for c in text)\n"
    )
    variants = [
        "def f(s):\n    # count the vowels in `text`\n    return sum(c in 'aeiou' for c in s)\n",
        "def f(text):\n    if True:\n        return sum(c in 'aeiou' for c in text)\n",
        "def f(text):\n    return sum(not not c in 'aeiou' for c in text)\n",
        original,
    ]
    baseline = ArtifactBaseline(original)
    found = [baseline.new_in(v) for v in variants]
    assert found == [find_artifacts(original, v) for v in variants]
    assert found[0] and found[1] and found[2] and not found[3]


def test_ast_nodes_are_those_of_ast_walk_in_its_order() -> None:
    codes = [ORIGINAL, *(row.problem.code for row in load_dataset("bundled").rows)]
    codes.append("async def g(x):\n    async for y in x:\n        yield [z async for z in y]\n")
    for code in codes:
        tree = ast.parse(code)
        assert [id(n) for n in ast_nodes(tree)] == [id(n) for n in ast.walk(tree)]


def test_the_node_types_counted_are_every_type_an_artifact_kind_names() -> None:
    """`count_artifacts` asks `_kind` only of the node types in `_KIND_TYPES`: no node of
    another type is an artifact (bundled problems, their variants, and snippets with every
    kind)."""
    codes = [ORIGINAL, *(row.problem.code for row in load_dataset("bundled").rows)]
    for source in codes[:40]:
        for t in all_transforms():
            result = apply_transform(t, source, seed=0)
            if result is not None:
                codes.append(result.code)
    codes += [
        "def f(x):\n    if 1 + 2 == 3:\n        return not not x\n    while 0:\n        pass\n",
        "def f(ll1111, xs):\n    y = next(iter(xs))\n"
        "    return [c for c in xs], list((c for c in xs))\n",
        "def f(x):\n    if 2 < x:\n        raise StopIteration\n    return not (x == 1 or x > 2)\n",
    ]
    kinds = set()
    for code in codes:
        for node in ast_nodes(ast.parse(code)):
            kind = _artifacts._kind(node)
            if kind is not None:
                kinds.add(kind)
                assert type(node) in _artifacts._KIND_TYPES, (kind, type(node).__name__)
    assert len(kinds) >= 8
