"""The backends of `core-bench run --model <scheme>:<name>`, one module per scheme.

Each module registers a `core_bench.runs.BackendKind` with `@register_backend`;
`core_bench.runs.BACKENDS` imports every module here when first read, so a new backend is one
new module in this package.
"""
