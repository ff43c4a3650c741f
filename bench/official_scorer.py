"""CRUXEval's official way of checking one program, the baseline the bench scripts beat.

After human-eval's `check_correctness`: per program, a `multiprocessing.Manager` holds the
result and a fresh `multiprocessing.Process` runs it in a temporary directory with its output
swallowed, under a wall-clock alarm. `cruxeval_score.py` and `sandbox.py` time our sandbox
against it.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import signal
import tempfile
from typing import Any


class _Alarm(Exception):
    pass


def _execute(program: str, box: Any, seconds: float) -> None:
    def ring(signum: int, frame: Any) -> None:
        raise _Alarm

    with tempfile.TemporaryDirectory() as where:
        os.chdir(where)
        sink = io.StringIO()
        try:
            signal.signal(signal.SIGALRM, ring)
            signal.setitimer(signal.ITIMER_REAL, seconds)
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                exec(program, {})
            signal.setitimer(signal.ITIMER_REAL, 0)
            box.append("passed")
        except BaseException as exc:  # everything the program raises is a failure
            signal.setitimer(signal.ITIMER_REAL, 0)
            box.append(f"failed: {type(exc).__name__}")


def check_correctness(program: str, seconds: float = 3.0) -> bool:
    """Whether `program` runs to the end without raising within `seconds`, checked the
    official way: a Manager and a forked Process for this program alone."""
    manager = multiprocessing.Manager()
    box = manager.list()
    process = multiprocessing.Process(target=_execute, args=(program, box, seconds))
    process.start()
    process.join(timeout=seconds + 1)
    if process.is_alive():
        process.kill()
    passed = len(box) > 0 and box[0] == "passed"
    manager.shutdown()
    return passed
