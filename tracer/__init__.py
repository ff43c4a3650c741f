"""Sandboxed execution and the sys.settrace tracer.

    from tracer import trace, run_call, Trace, Step, TraceError

`trace` records every step of one call in this process; `run_call` runs a call (optionally
traced) in a sandboxed worker process and always returns an `Outcome`.
"""

from tracer._codec import CUT_MARK, snapshot
from tracer._model import Step, Trace, TraceError
from tracer._trace import trace

__all__ = ["CUT_MARK", "Step", "Trace", "TraceError", "snapshot", "trace"]
