"""Model answers that try to set their own verdict: two-phase grading gives each the verdict
that writing its literal arguments (or its literal value) directly would get."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_modes import HANG_GUARD, MODES

from core_bench.grading import grade_inputs, score_cruxeval
from tracer import SandboxPool

pytestmark = HANG_GUARD

REPO = Path(__file__).resolve().parents[2]

PATCH = (
    "import sys\n"
    "sys.modules['tracer._call'].BoundCall.invoke = lambda self: None\n"
    "sys.modules['tracer._worker'].snapshot = lambda v, l=0: (\"'abc'\", True)\n"
    "sys.modules['tracer._worker'].literal_text = lambda v, l=0: \"'abc'\"\n"
)
"""The issue's attack: patch, in the process that reports the result, what reports it."""

FORGE = (
    "import os, sys\n"
    "frame = sys._getframe()\n"
    "while frame is not None and 'write_end' not in frame.f_locals:\n"
    "    frame = frame.f_back\n"
    'data = b\'{"status": "ok", "result": "\\\'abc\\\'", "result_literal": true, '
    '"result_plain": true}\'\n'
    "os.write(frame.f_locals['write_end'], len(data).to_bytes(4, 'big') + data)\n"
    "os._exit(0)\n"
)
"""Writing a well-formed reply of its own and exiting."""

REPR_FORGER = "type('A', (), {'__repr__': lambda s: \"'abc'\", '__eq__': lambda s, o: True})()"


@pytest.fixture(scope="module", params=MODES)
def pool(request: pytest.FixtureRequest) -> Iterator[SandboxPool]:
    with SandboxPool(workers=2, use_bwrap=request.param) as shared:
        yield shared


@pytest.fixture(autouse=True)
def untouched_checkout() -> Iterator[None]:
    before = {p: p.stat().st_mtime_ns for p in (REPO / "tracer").glob("*.py")}
    yield
    assert {p: p.stat().st_mtime_ns for p in (REPO / "tracer").glob("*.py")} == before


ADD_ONE = "def f(x):\n    return x + 1"
IDENTITY = "def f(x):\n    return x"


@pytest.mark.parametrize(
    ("code", "call"),
    [
        (ADD_ONE, f"f(exec({PATCH!r}))"),
        (ADD_ONE, f"f(exec({FORGE!r}))"),
        (IDENTITY, f"f({REPR_FORGER})"),
        (IDENTITY, "f(type('S', (str,), {'__eq__': lambda s, o: True})('zzz'))"),
        (ADD_ONE, "f(__import__('os')._exit(0))"),
        (ADD_ONE, "f(__import__('os').kill(__import__('os').getppid(), 9))"),
    ],
    ids=["patch-reporting", "forge-reply", "repr-forger", "str-subclass", "exit", "kill-parent"],
)
def test_an_answer_cannot_grade_itself(pool: SandboxPool, code: str, call: str) -> None:
    [(verdict, reason)] = grade_inputs([(code, call, "'abc'")], pool)
    assert verdict == "wrong", reason
    # the next answers are graded as they deserve, on the same pool
    assert grade_inputs([(IDENTITY, "f('abc')", "'abc'")], pool) == [("correct", "")]
    assert grade_inputs([(ADD_ONE, "f(1)", "'abc'")], pool)[0][0] == "wrong"


def test_a_forged_literal_gets_what_that_literal_gets(pool: SandboxPool) -> None:
    # The forger sends back arguments of its choosing: the verdict is that of writing them.
    forged = "f(exec(" + repr(FORGE.replace("\\'abc\\'", "((\\'abc\\',), {})")) + "))"
    [(verdict, _)] = grade_inputs([(IDENTITY, forged, "'abc'")], pool)
    assert verdict == grade_inputs([(IDENTITY, "f('abc')", "'abc'")], pool)[0][0] == "correct"


def test_a_result_whose_repr_is_not_its_own_is_wrong(pool: SandboxPool) -> None:
    code = "class A:\n    def __repr__(self):\n        return \"'abc'\"\ndef f(x):\n    return A()"
    [(verdict, reason)] = grade_inputs([(code, "f(1)", "'abc'")], pool)
    assert verdict == "wrong" and "not a plain literal" in reason


def test_module_level_names_still_serve_as_arguments(pool: SandboxPool) -> None:
    code = "DATA = [3, 1, 2]\ndef f(xs):\n    return sorted(xs)"
    assert grade_inputs([(code, "f(DATA)", "[1, 2, 3]")], pool) == [("correct", "")]
    assert grade_inputs([(code, "f(*[DATA])", "[1, 2, 3]")], pool) == [("correct", "")]
    assert grade_inputs([(code, "f(xs=list(range(3)))", "[0, 1, 2]")], pool) == [("correct", "")]


ROWS = [{"code": ADD_ONE, "input": "1", "output": "'abc'", "id": "sample_0"}]


def test_one_patch_does_not_carry_into_the_next_generations(pool: SandboxPool) -> None:
    # The issue: one such answer and 39 wrong ones gave pass@1 97.5 instead of 0.0.
    rows = [{**ROWS[0], "id": f"sample_{i}"} for i in range(40)]
    generations = {"sample_0": [f"f(exec({PATCH!r}))"]}
    generations.update({f"sample_{i}": ["f(1)"] for i in range(1, 40)})
    scored = score_cruxeval(generations, "input", rows, pool)
    assert scored["pass_at_1"] == 0.0


@pytest.mark.parametrize(
    "generation",
    [
        f"f(exec({PATCH!r}))",
        f"f(exec({FORGE!r}))",
        f"f({REPR_FORGER})",
    ],
    ids=["patch", "forge", "repr-forger"],
)
def test_cruxeval_generations_cannot_grade_themselves(pool: SandboxPool, generation: str) -> None:
    scored = score_cruxeval({"sample_0": [generation]}, "input", ROWS, pool)
    assert scored["raw_scored_generations"] == {"sample_0": [False]}
    right = {"code": IDENTITY, "input": "'abc'", "output": "'abc'", "id": "sample_0"}
    assert score_cruxeval({"sample_0": ["f('abc')"]}, "input", [right], pool)["pass_at_1"] == 100.0


def test_a_forged_value_gets_what_writing_it_gets(pool: SandboxPool) -> None:
    # Not a call of f: the expression's value is compared, and forging it is writing it (the
    # official scorer passes "'abc'  # f(" in input mode too).
    forged = f"[f(1), exec({FORGE!r})][0]"
    literal = "'abc'  # f("
    scored = score_cruxeval({"sample_0": [forged, literal, "f(2)"]}, "input", ROWS, pool)
    assert scored["raw_scored_generations"] == {"sample_0": [True, True, False]}


def test_output_mode_objects_that_equal_everything_fail(pool: SandboxPool) -> None:
    scored = score_cruxeval({"sample_0": [REPR_FORGER, "'abc'"]}, "output", ROWS, pool)
    assert scored["raw_scored_generations"] == {"sample_0": [False, True]}


def test_nothing_outside_the_temporary_directories_changed(tmp_path: Path) -> None:
    assert not (REPO / "SANDBOX_PWNED").exists()
    assert os.listdir(tmp_path) == []


MALFORMED = (
    "import os, sys\n"
    "frame = sys._getframe()\n"
    "while frame is not None and 'write_end' not in frame.f_locals:\n"
    "    frame = frame.f_back\n"
    "data = b'{\"status\": \"ok\", \"duration_s\": 1' + b'0' * 400 + b'}'\n"
    "os.write(frame.f_locals['write_end'], len(data).to_bytes(4, 'big') + data)\n"
    "os._exit(0)\n"
)
"""A forged reply whose duration overflows a float (10**400)."""


def test_malformed_replies_never_abort_grading(pool: SandboxPool) -> None:
    assert MALFORMED != FORGE
    graded = grade_inputs([(ADD_ONE, f"f(exec({MALFORMED!r}))", "2")], pool)
    assert graded[0][0] == "wrong"
    generations = {
        "sample_0": [
            f"[f(1), exec({MALFORMED!r})][0]",  # evaluated in a fresh process
            f"f(exec({MALFORMED!r}) or 1) or True",  # the whole program in a fresh process
            "f(1)",
        ]
    }
    rows = [{"code": ADD_ONE, "input": "1", "output": "2", "id": "sample_0"}]
    scored = score_cruxeval(generations, "input", rows, pool)
    assert scored["raw_scored_generations"] == {"sample_0": [False, False, True]}


FORGE_TRUE = (
    "import os, sys\n"
    "frame = sys._getframe()\n"
    "while frame is not None and 'write_end' not in frame.f_locals:\n"
    "    frame = frame.f_back\n"
    'data = b\'{"status": "ok", "result": "True", "result_literal": true}\'\n'
    "os.write(frame.f_locals['write_end'], len(data).to_bytes(4, 'big') + data)\n"
    "os._exit(0)\n"
)
"""A process that claims its program passed."""


@pytest.mark.parametrize(
    ("generation", "as_if"),
    [
        (f"f(2) if exec({FORGE_TRUE!r}) else 0", "f(2) if True else 0"),
        (f"f(2) == exec({FORGE_TRUE!r})", "f(2) == True"),
        (f"f(2) or exec({FORGE_TRUE!r})", "f(2) or True"),
        (f"f(1)\nexec({FORGE_TRUE!r})\nassert False", "f(1)"),
    ],
    ids=["if-else", "chained", "or", "statements"],
)
def test_quirky_generations_get_what_their_forged_literal_gets(
    pool: SandboxPool, generation: str, as_if: str
) -> None:
    # A piece of model text evaluated in its own process may claim any literal value (here
    # True); the verdict is then that of the generation with that literal written in its
    # place (statements after the assert can only claim they raised nothing).
    rows = [{"code": ADD_ONE, "input": "1", "output": "2", "id": "sample_0"}]
    forged = score_cruxeval({"sample_0": [generation]}, "input", rows, pool)
    written = score_cruxeval({"sample_0": [as_if]}, "input", rows, pool)
    assert forged["raw_scored_generations"] == written["raw_scored_generations"]
