"""How many CRUXEval problems get a kept `idiom` variant from `generate_variants`.

    CORE_BENCH_CRUXEVAL=... python bench/idioms.py --limit 100 [--samples 5]
    CORE_BENCH_CRUXEVAL=... python bench/idioms.py --applicable [--limit 800]

Runs the default generation (k=4, seed 0) on the first `--limit` problems and prints how
many problems have at least one kept equivalent variant whose chain holds an idiom rewrite,
the count of each idiom rewrite among kept variants, and a few before/after pairs.

With `--applicable`, prints instead how many functions each idiom rewrite applies to (seed:
the problem's index, as the CRUXEval-wide equivalence test does) and how many functions at
least one applies to; nothing runs, so the equivalence is that test's job.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

# The repository root first: bench/tracer.py would shadow the tracer package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from transforms import all_transforms, apply_transform
from transforms._generate import Problem, generate_variants_many


def main() -> int:
    """Print the idiom coverage of a default variant generation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--applicable", action="store_true")
    args = parser.parse_args()
    path = os.environ.get("CORE_BENCH_CRUXEVAL")
    if not path:
        print("set CORE_BENCH_CRUXEVAL to CRUXEval's cruxeval.jsonl", file=sys.stderr)
        return 2
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    rows = rows[: args.limit]
    idioms = {t.name for t in all_transforms() if getattr(t, "family", None) == "idiom"}
    if args.applicable:
        return _applicable(rows, sorted(idioms))
    problems = [Problem(row["code"], (f"f({row['input']})",)) for row in rows]
    reports = generate_variants_many(problems, k=4, seed=0)
    with_idiom = 0
    used: Counter[str] = Counter()
    samples: list[tuple[str, str, str, list[str]]] = []
    for row, report in zip(rows, reports, strict=True):
        kept = [v for v in report.variants if v.kind == "equivalent"]
        hits = [v for v in kept if idioms & set(v.chain)]
        if hits:
            with_idiom += 1
        for variant in hits:
            used.update(n for n in variant.chain if n in idioms)
        if hits and len(samples) < args.samples:
            samples.append((row["id"], row["code"], hits[0].code, hits[0].chain))
    share = with_idiom / len(rows) if rows else 0.0
    print(f"problems with a kept idiom variant: {with_idiom}/{len(rows)} ({share:.1%})")
    for name, count in used.most_common():
        print(f"  {name}: {count} kept variants")
    for ident, before, after, chain in samples:
        print(f"\n--- {ident} ({' -> '.join(chain)})\n{before}\n+++\n{after}")
    return 0


def _applicable(rows: list[dict[str, str]], idioms: list[str]) -> int:
    applied: Counter[str] = Counter()
    covered = 0
    for index, row in enumerate(rows):
        hits = [n for n in idioms if apply_transform(n, row["code"], seed=index) is not None]
        applied.update(hits)
        covered += bool(hits)
    share = covered / len(rows) if rows else 0.0
    print(f"functions an idiom rewrite applies to: {covered}/{len(rows)} ({share:.1%})")
    for name in idioms:
        print(f"  {name}: {applied[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
