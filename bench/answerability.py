"""Share of probe candidates that the static answerability check drops, per kind.

    .venv/bin/python bench/answerability.py CRUXEVAL_JSONL [--limit N]

Traces each problem's own call (in this process), reads every candidate of every kind, and
counts those whose answer the code text (and the call) gives (`core_bench.probes.answerable`).
It also draws 6 probes per call as the build would if the check were off, and counts how many
of those the check would drop: the share of asked probes that needed no execution.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

# bench/tracer.py would shadow the tracer package: the repository root goes first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.probes import KINDS, CallContext, answerable, rng_for, select
from tracer import trace


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.dataset.read_text().splitlines() if line.strip()]
    rows = rows[: args.limit]
    total: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    picked: Counter[str] = Counter()
    picked_dropped: Counter[str] = Counter()
    for row in rows:
        t = trace(row["code"], f"f({row['input']})")
        if t.truncated or not t.steps:
            continue
        ctx = CallContext(row["code"], t)
        readings = {kind: list(spec.each(ctx)) for kind, spec in KINDS.items()}
        for kind, found in readings.items():
            total[kind] += len(found)
            dropped[kind] += sum(answerable(ctx, r) for r in found)
        order = list(KINDS)
        chosen = select(readings, order, 6, rng_for(0, row["id"], 0), lambda r: r)
        for r in chosen:
            picked[r.kind] += 1
            picked_dropped[r.kind] += answerable(ctx, r)
    print(f"{'kind':<16} {'candidates':>10} {'answerable':>10}  {'drawn':>6} {'answerable':>10}")
    for kind in KINDS:
        n, d = total[kind], dropped[kind]
        p, pd = picked[kind], picked_dropped[kind]
        print(
            f"{kind:<16} {n:>10} {100 * d / max(n, 1):>9.1f}%  {p:>6} {100 * pd / max(p, 1):>9.1f}%"
        )
    n, d = sum(total.values()), sum(dropped.values())
    p, pd = sum(picked.values()), sum(picked_dropped.values())
    print(f"{'all':<16} {n:>10} {100 * d / n:>9.1f}%  {p:>6} {100 * pd / p:>9.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
