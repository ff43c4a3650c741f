"""How natural and how different the variants of a CRUXEval build are.

For a build directory (its variants.jsonl) or for variants generated here for the first N
CRUXEval problems with the build's default settings, prints:

- the share of variants per family (and how many are single-transform variants);
- per family, the share of variants with each machine artifact (`transforms.find_artifacts`:
  orphan comment, constant test, literal arithmetic, next desugaring); the target is 0%
  outside `distractor`;
- the identifier-normalised token Jaccard to the original (`transforms.normalized_jaccard`:
  names replaced, comments dropped), mean and deciles, overall and per family; the target
  mean is at most 0.8;
- how many variants differ from their original only cosmetically (names, comments, layout),
  how many composed variants repeat another variant's structure, and the mean Jaccard with
  each problem's distinct structures counted once;
- the share of problems with a variant of each family.

Usage: .venv/bin/python bench/naturalness.py --build DIR
       .venv/bin/python bench/naturalness.py [--data PATH] [--limit N] [--processes N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from transforms import ARTIFACT_KINDS, find_artifacts
from transforms._generate import Problem, generate_variants_many
from transforms._metrics import cosmetic_only, normalized_jaccard

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared/data/cruxeval/cruxeval.jsonl"


@dataclass(frozen=True, slots=True)
class Row:
    problem: str
    original: str
    code: str
    family: str
    single: bool
    chain: tuple[str, ...] = ()


def from_build(directory: Path) -> list[Row]:
    """The variants of a build directory, each with its original's code."""
    records = [
        json.loads(line)
        for line in (directory / "variants.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    originals = {r["problem_id"]: r["code"] for r in records if r["kind"] == "original"}
    return [
        Row(
            r["problem_id"],
            originals[r["problem_id"]],
            r["code"],
            r["family"],
            r["single"],
            tuple(r.get("chain", ())),
        )
        for r in records
        if r["kind"] != "original"
    ]


def generated(data: Path, limit: int | None, processes: int, seed: int) -> list[Row]:
    """Variants generated for the first `limit` problems with the build's default settings."""
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    rows = rows[:limit] if limit else rows
    problems = [Problem(row["code"], (f"f({row['input']})",)) for row in rows]
    reports = generate_variants_many(
        problems, processes=processes, k=4, singles=4, mutants=2, extra_calls=4, seed=seed
    )
    return [
        Row(row["id"], row["code"], v.code, v.family, v.single, tuple(v.chain))
        for row, report in zip(rows, reports, strict=True)
        for v in report.variants
    ]


def _deciles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    cuts = statistics.quantiles(values, n=10)
    return " ".join(f"{c:.2f}" for c in cuts)


def _similarity_by_kind(rows: list[Row]) -> None:
    """Normalised Jaccard of the equivalent variants split by single/composed, without the
    rename singles, and per transform of the singles."""
    equivalent = [r for r in rows if r.family not in ("mutant", "distractor")]
    if not equivalent:
        return
    score = {id(r): normalized_jaccard(r.original, r.code) for r in equivalent}
    groups = {
        "singles": [r for r in equivalent if r.single],
        "composed": [r for r in equivalent if not r.single],
        "all but rename singles": [
            r for r in equivalent if not (r.single and r.family == "rename")
        ],
    }
    for label, members in groups.items():
        values = [score[id(r)] for r in members]
        if values:
            print(f"  {label:<22} mean {statistics.fmean(values):.3f}  n={len(values)}")
            print(f"    deciles            {_deciles(values)}")
    per_transform: dict[str, list[float]] = defaultdict(list)
    for r in groups["singles"]:
        per_transform[r.chain[0] if r.chain else r.family].append(score[id(r)])
    print("  singles per transform (mean, n)")
    for name, values in sorted(per_transform.items(), key=lambda kv: -statistics.fmean(kv[1])):
        print(f"    {name:<36} {statistics.fmean(values):.3f}  {len(values)}")
    lengths = Counter(len(r.chain) for r in groups["composed"])
    print(f"  composed chain lengths (with renaming): {dict(sorted(lengths.items()))}")
    _composed_spread(groups["composed"], groups["singles"])
    _distinct_structures(equivalent, score)


def _distinct_structures(equivalent: list[Row], score: dict[int, float]) -> None:
    """Variants of one problem that differ only in names, comments and layout
    (`cosmetic_only`) are one structure: how many composed variants repeat a single's or an
    earlier sibling's, and the mean Jaccard with each problem's structures counted once."""
    by_problem: dict[str, list[Row]] = defaultdict(list)
    for r in equivalent:
        by_problem[r.problem].append(r)
    repeats: Counter[str] = Counter()
    distinct: list[float] = []
    for members in by_problem.values():
        kept: list[Row] = []
        for r in sorted(members, key=lambda r: not r.single):  # singles first
            same = next((k for k in kept if cosmetic_only(k.code, r.code)), None)
            if same is None:
                kept.append(r)
                distinct.append(score[id(r)])
            elif not r.single:
                repeats["a single" if same.single else "a composed sibling"] += 1
    composed = sum(not r.single for r in equivalent)
    print(
        f"  composed variants that repeat the structure of another variant of their problem: "
        f"{sum(repeats.values())}/{composed} ({dict(repeats)})"
    )
    if distinct:
        print(
            f"  each structure once      mean {statistics.fmean(distinct):.3f}  n={len(distinct)}"
        )


def _composed_spread(composed: list[Row], singles: list[Row]) -> None:
    """How distinct a problem's composed variants are from one another (normalised Jaccard
    of each pair), and how many lack an idiom step where the problem has an idiom single."""
    by_problem: dict[str, list[Row]] = defaultdict(list)
    for r in composed:
        by_problem[r.problem].append(r)
    pairs = [
        normalized_jaccard(a.code, b.code)
        for members in by_problem.values()
        for i, a in enumerate(members)
        for b in members[i + 1 :]
    ]
    if pairs:
        print(f"  composed siblings (pairs of one problem) mean {statistics.fmean(pairs):.3f}")
        print(f"    deciles            {_deciles(pairs)}")
    with_idiom = {r.problem for r in singles if r.family == "idiom"}
    lacking = [
        r
        for r in composed
        if r.problem in with_idiom and not any(name.startswith("idiom_") for name in r.chain)
    ]
    print(
        f"  composed without an idiom step where the problem has an idiom single: "
        f"{len(lacking)}/{sum(r.problem in with_idiom for r in composed)}"
    )


def summarize(rows: list[Row]) -> None:
    """Print the figures (see the module docstring)."""
    problems = {r.problem for r in rows}
    families = Counter(r.family for r in rows)
    print(f"{len(rows)} variants of {len(problems)} problems")
    print("families (share of variants; singles)")
    for family, count in families.most_common():
        singles = sum(r.single for r in rows if r.family == family)
        print(f"  {family:<16} {count:6d}  {count / len(rows):6.1%}  singles {singles}")
    artifacts: dict[str, Counter[str]] = defaultdict(Counter)
    similarity: dict[str, list[float]] = defaultdict(list)
    cosmetic: Counter[str] = Counter()
    with_family: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        for kind in find_artifacts(r.original, r.code):
            artifacts[r.family][kind] += 1
        if r.family != "mutant":
            similarity[r.family].append(normalized_jaccard(r.original, r.code))
            cosmetic[r.family] += cosmetic_only(r.original, r.code)
        with_family[r.family].add(r.problem)
    print("artifacts (share of the family's variants)")
    print(f"  {'family':<16} " + "  ".join(f"{k:>18}" for k in ARTIFACT_KINDS))
    outside = 0
    for family in families:
        counts = artifacts[family]
        if family != "distractor":
            outside += sum(counts.values())
        cells = "  ".join(f"{counts[k] / families[family]:18.1%}" for k in ARTIFACT_KINDS)
        print(f"  {family:<16} {cells}")
    non_distractor = sum(n for f, n in families.items() if f != "distractor")
    flagged = sum(
        1 for r in rows if r.family != "distractor" and find_artifacts(r.original, r.code)
    )
    print(
        f"  variants outside distractor with an artifact: {flagged}/{non_distractor} "
        f"({flagged / max(1, non_distractor):.1%}; {outside} artifact kinds in all)"
    )
    equivalent = [x for f, xs in similarity.items() if f != "distractor" for x in xs]
    print("identifier-normalised token Jaccard to the original (equivalent variants)")
    if equivalent:
        print(f"  all (no distractor)  mean {statistics.fmean(equivalent):.4f}")
        print(f"    deciles            {_deciles(equivalent)}")
    for family, values in sorted(similarity.items()):
        print(f"  {family:<20} mean {statistics.fmean(values):.3f}  n={len(values)}")
        print(f"    deciles            {_deciles(values)}")
    _similarity_by_kind(rows)
    total_cosmetic = sum(cosmetic.values())
    print(
        f"cosmetic-only variants (names, comments, layout): {total_cosmetic} "
        f"({dict(cosmetic.most_common())})"
    )
    print("problems with a variant of each family")
    for family, seen in sorted(with_family.items()):
        print(f"  {family:<16} {len(seen):5d}/{len(problems)} ({len(seen) / len(problems):.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("CORE_BENCH_CRUXEVAL") or str(DEFAULT_DATA)
    parser.add_argument("--build", type=Path, default=None, help="a build directory")
    parser.add_argument("--data", type=Path, default=Path(default), help="cruxeval.jsonl")
    parser.add_argument("--limit", type=int, default=None, help="only the first N problems")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.build is not None:
        rows = from_build(args.build)
        print(f"build {args.build}")
    else:
        rows = generated(args.data, args.limit, args.processes, args.seed)
        print(f"generated from {args.data} in {time.perf_counter() - start:.0f} s")
    summarize(rows)


if __name__ == "__main__":
    main()
