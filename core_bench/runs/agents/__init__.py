"""The reference agents (`ref:<name>`), one module each.

Each module defines one agent (the `core_bench.runs.Agent` protocol) and registers it with
`@register_agent`; `core_bench.runs.AGENTS` imports every module here when first read, so a
new agent is one new module in this package.
"""
