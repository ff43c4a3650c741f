"""Hash-seed stability: keep only calls and probes whose answers do not depend on the order
in which sets and dicts of strings iterate.

The build's sandbox runs every call under one `PYTHONHASHSEED`; a second pool runs them under
`ALT_HASH_SEED`. A call is kept only when both give an equal output (an equal value: a set of
strings may print in another order), and a probe only when the second trace of its (variant,
call) asks the same question at its anchor and gives an equal answer (`probe_holds`). A probe
that fails is dropped with every probe of its anchor group (the same semantic question on the
other variants). The build counts both in the manifest: `calls.hash_unstable` and
`probes.hash_unstable`.

Only code that can observe the seed is run again (`_hash_gate.observes_hash_order` on the code
and the calls): the rest would give the same traces. The manifest counts the problems and
variants checked and skipped (`hash_check.problems_checked`, `hash_check.variants_skipped`...).
"""

from __future__ import annotations

from core_bench.probes import CallContext, anchor_group, probe_holds
from core_bench.schemas import Probe, Problem, Variant
from tracer import SandboxPool, Trace, same_value

HASH_UNSTABLE = "no call gives an equal output under two hash seeds"
"""The failure of a problem whose every call depends on set or dict order."""

ALT_HASH_SEED = 1
"""The second pool's `PYTHONHASHSEED` (the sandbox's own is 0)."""


def stable_calls(
    problem: Problem, calls: list[str], outputs: list[str], pool: SandboxPool, timeout_s: float
) -> tuple[list[str], list[str], int]:
    """The calls (with their outputs) whose output is equal under the second hash seed.

    Args:
        problem: the problem (its code).
        calls: its calls.
        outputs: the output of each call under the first seed.
        pool: a pool whose workers run under another hash seed.
        timeout_s: wall-clock limit of one call.

    Returns:
        The kept calls, their outputs, and how many were dropped.
    """
    outcomes = pool.run_batch(problem.code, calls, timeout_s=timeout_s)
    kept_calls: list[str] = []
    kept_outputs: list[str] = []
    for call, output, outcome in zip(calls, outputs, outcomes, strict=True):
        result = outcome.result
        if (
            outcome.status == "ok"
            and result is not None
            and same_value(result, output, strictness="typed")
        ):
            kept_calls.append(call)
            kept_outputs.append(output)
    return kept_calls, kept_outputs, len(calls) - len(kept_calls)


def stable_probes(
    probes: list[Probe],
    variants: list[Variant],
    alt_traces: list[list[Trace | None] | None],
) -> tuple[list[Probe], int]:
    """The probes that hold on the second-seed traces, and how many were dropped.

    Args:
        probes: the problem's probes.
        variants: its variants, in the order of `alt_traces`.
        alt_traces: per variant, per call, the trace under the second seed (None: failed);
            None for a whole variant that was not traced again (`_hash_gate`: its answers
            cannot change with the seed), whose probes hold unless their anchor group falls.
    """
    position = {v.id: i for i, v in enumerate(variants)}
    unstable: set[str] = set()
    contexts: dict[tuple[int, int], CallContext] = {}  # one per traced (variant, call)
    for probe in probes:
        index = position[probe.variant_id]
        traces = alt_traces[index]
        if traces is None:
            continue
        trace = traces[probe.call_index]
        if trace is None:
            unstable.add(anchor_group(probe))
            continue
        code = variants[index].code
        key = (index, probe.call_index)
        if key not in contexts and not trace.truncated:
            contexts[key] = CallContext(code, trace)
        if not probe_holds(probe, code, trace, context=contexts.get(key)):
            unstable.add(anchor_group(probe))
    kept = [p for p in probes if anchor_group(p) not in unstable]
    return kept, len(probes) - len(kept)
