"""Sandboxed execution and the sys.settrace tracer.

    from tracer import trace, run_call, Trace, Step, TraceError

`trace` records every step of one call in this process; `run_call` runs a call (optionally
traced) in a sandboxed worker process and always returns an `Outcome`; `SandboxPool` is the
pool behind it, for batches and for control over workers.
"""

from tracer._call import Argument, Call, parse_call
from tracer._codec import CUT_MARK, literal_text, literal_value, snapshot
from tracer._confine import die_with_parent
from tracer._model import Step, Trace, TraceError
from tracer._outcome import Outcome
from tracer._sandbox import Isolation, SandboxPool, default_isolation, run_call
from tracer._static import Loop, build_code_map
from tracer._trace import trace
from tracer._values import (
    COMPARISONS,
    MAX_LITERAL_CHARS,
    Strictness,
    read_literal,
    same_value,
    values_equal,
)

__all__ = [
    "COMPARISONS",
    "CUT_MARK",
    "MAX_LITERAL_CHARS",
    "Argument",
    "Call",
    "Isolation",
    "Loop",
    "Outcome",
    "SandboxPool",
    "Step",
    "Strictness",
    "Trace",
    "TraceError",
    "build_code_map",
    "default_isolation",
    "die_with_parent",
    "literal_text",
    "literal_value",
    "parse_call",
    "read_literal",
    "run_call",
    "same_value",
    "snapshot",
    "trace",
    "values_equal",
]
