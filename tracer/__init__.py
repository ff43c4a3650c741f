"""Sandboxed execution and the sys.settrace tracer."""
