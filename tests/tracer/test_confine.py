"""`bare_fork`: a fork without the interpreter's at-fork work, for a single-threaded template."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tracer

PACKAGE_PARENT = str(Path(tracer.__file__).resolve().parent.parent)


def run_program(program: str) -> str:
    """Run `program` in a fresh interpreter (one thread, unlike pytest's); its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\nsys.path.insert(0, {PACKAGE_PARENT!r})\n{program}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_bare_child_runs_python_and_skips_at_fork_handlers() -> None:
    program = """
import os, random, signal, threading, time
from tracer._confine import bare_fork
fork = bare_fork()
assert fork is not None
ran = []
os.register_at_fork(after_in_child=lambda: ran.append(1))
random.seed(0)
read_end, write_end = os.pipe()
pid = fork()
if pid == 0:
    fired = []
    signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    signal.setitimer(signal.ITIMER_REAL, 0.01)
    time.sleep(0.2)
    import fractions  # the import lock works
    text = repr((
        random.random(),
        threading.current_thread() is threading.main_thread(),
        os.getppid() == int(os.environ["PARENT"]),
        fired,
        str(fractions.Fraction(2, 6)),
        ran,
    ))
    os.write(write_end, text.encode())
    os._exit(7)
os.close(write_end)
print(os.read(read_end, 1000).decode())
print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), pid != os.getpid())
"""
    out = run_program(f"import os\nos.environ['PARENT'] = str(os.getpid())\n{program}")
    assert out.splitlines() == [
        "(0.8444218515250481, True, True, [1], '1/3', [])",
        "7 True",
    ]


def test_no_bare_fork_with_a_second_thread() -> None:
    program = """
import threading
from tracer._confine import bare_fork
print(bare_fork() is not None)
stop = threading.Event()
thread = threading.Thread(target=stop.wait)
thread.start()
print(bare_fork() is None)
stop.set()
thread.join()
"""
    assert run_program(program).splitlines() == ["True", "True"]
