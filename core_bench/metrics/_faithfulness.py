"""Trace faithfulness (strategy `trace`): the states a model claims against the real trace."""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter, defaultdict

from core_bench.metrics._data import Context, Metric
from core_bench.schemas import MetricRow

_BLOCK = re.compile(r"\[TRACE\](.*?)(?:\[/TRACE\]|\Z)", re.DOTALL)
_STEP = re.compile(r"^\s*\[Step \d+\]\s*(?:(\w+) )?Line (\d+):.*?\|\s*locals:\s*(\{.*\})\s*$")

_TASK = "trace"
"""The task column of faithfulness rows (they pool output and input samples)."""

State = tuple[str, int, str, str]
"""(function, line, variable, value text) claimed right after a step."""


def parse_steps(text: str) -> list[list[State]]:
    """The states of each `[Step n] Line k: ... | locals: {...}` line of a rendered trace.

    Values are compared as text with whitespace collapsed (the tracer's reprs are not always
    literals). A line that does not parse is no step.
    """
    steps: list[list[State]] = []
    for line in text.splitlines():
        found = _STEP.match(line)
        if found is None:
            continue
        func, number, body = found.group(1) or "", int(found.group(2)), found.group(3)
        pairs = _locals(body)
        if pairs is None:
            continue
        steps.append([(func, number, name, value) for name, value in pairs])
    return steps


def _locals(body: str) -> list[tuple[str, str]] | None:
    """`{a: 1, b: [2, 3]}` -> [("a", "1"), ("b", "[2, 3]")], or None when it does not parse."""
    inner = body.strip()[1:-1]
    parts: list[str] = []
    depth, start = 0, 0
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(inner).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    offsets = _line_offsets(inner)
    for token in tokens:
        if token.type != tokenize.OP:
            continue
        if token.string in "([{":
            depth += 1
        elif token.string in ")]}":
            depth -= 1
        elif token.string == "," and depth == 0:
            at = offsets[token.start[0] - 1] + token.start[1]
            parts.append(inner[start:at])
            start = at + 1
    parts.append(inner[start:])
    pairs = []
    for part in parts:
        if not part.strip():
            continue
        name, colon, value = part.partition(":")
        if not colon or not name.strip().isidentifier():
            return None
        pairs.append((name.strip(), " ".join(value.split())))
    return pairs


def _line_offsets(text: str) -> list[int]:
    offsets, total = [], 0
    for line in text.splitlines(keepends=True) or [""]:
        offsets.append(total)
        total += len(line)
    return offsets


def claimed_trace(response: str) -> str | None:
    """The text between [TRACE] and [/TRACE] of a response (the last such block), or None."""
    blocks = _BLOCK.findall(response)
    return blocks[-1] if blocks else None


def faithfulness_rows(ctx: Context) -> list[MetricRow]:
    """Trace faithfulness x100 of the `trace` strategy's output and input samples.

    Each sample's claimed trace (its last [TRACE] block) and the real trace of its (variant,
    call) are read as steps of states (function, line, variable, value text). Over the
    multisets of states: trace_precision is the percentage of claimed states that the real
    trace has, trace_recall the percentage of real states that are claimed (pooled per
    problem, bootstrap CI by problem; n = samples with a claimed state, resp. all samples).
    trace_faithful is the percentage of samples whose steps equal the real ones, in order;
    trace_first_divergence (not a percentage, no CI) is the mean 1-based step at which the
    claimed steps first differ, over samples that differ.
    """
    traces = ctx.traces
    if ctx.strategy != "trace" or traces is None:
        return []
    hits: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    divergences: list[int] = []
    for sample in ctx.samples:
        if sample.task not in ("output", "input"):
            continue
        real_text = traces.get((sample.variant_id, sample.call_index))
        if real_text is None:
            continue
        real = parse_steps(real_text)
        claimed = parse_steps(claimed_trace(sample.response) or "")
        mine = Counter(s for step in claimed for s in step)
        theirs = Counter(s for step in real for s in step)
        common = sum((mine & theirs).values())
        tally = hits[sample.problem_id]
        tally[0] += common
        tally[1] += sum(mine.values())
        tally[2] += common
        tally[3] += sum(theirs.values())
        same = [sorted(a) == sorted(b) for a, b in zip(claimed, real, strict=False)]
        faithful = all(same) and len(claimed) == len(real)
        tally[4] += faithful
        tally[5] += 1
        if not faithful:
            divergences.append(same.index(False) + 1 if False in same else len(same) + 1)
    rows: list[MetricRow] = []
    problems = sorted(hits.items())
    for metric, num, den in (
        ("trace_precision", 0, 1),
        ("trace_recall", 2, 3),
        ("trace_faithful", 4, 5),
    ):
        units = [(t[num], t[den]) for _, t in problems if t[den] > 0]
        row = ctx.ratio_row(_TASK, metric, "all", units)
        if row is not None:
            count = sum(int(t[5]) for _, t in problems if t[den] > 0)
            rows.append(row.model_copy(update={"n": count}))
    if divergences:
        mean = sum(divergences) / len(divergences)
        rows.append(ctx.row(_TASK, "trace_first_divergence", "all", mean, len(divergences)))
    return rows


METRIC = Metric(
    faithfulness_rows,
    {
        "trace_precision": "share of the states the model's trace claims that the real trace has",
        "trace_recall": "share of the real trace's states that the model's trace claims",
        "trace_faithful": "share of traces whose steps equal the real ones, in order",
        "trace_first_divergence": "mean step at which the model's trace first goes wrong (a count)",
    },
)
