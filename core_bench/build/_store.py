"""Writing a build: per-problem work files as it goes (for resume), then the final files."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from core_bench.benchmark import FILES
from core_bench.build._problem import ProblemBuild
from core_bench.schemas import Manifest, Probe, Problem, SkippedRow, Variant

WORK_DIR = ".work"


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers (and a resumed run) never see half of it."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


class WorkStore:
    """One file per finished problem under `DIR/.work/`, so a killed build resumes."""

    def __init__(self, out: Path, fingerprint: str) -> None:
        self.root = out / WORK_DIR
        key = self.root / "key"
        if self.root.exists() and (not key.exists() or key.read_text() != fingerprint):
            shutil.rmtree(self.root)  # work of a build started with other options
        self.root.mkdir(parents=True, exist_ok=True)
        write_atomic(key, fingerprint)

    def _path(self, index: int) -> Path:
        return self.root / f"{index:06d}.json"

    def load(self, index: int) -> ProblemBuild | None:
        """The finished work of problem number `index`, if a previous run left it."""
        path = self._path(index)
        if not path.exists():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return ProblemBuild(
            problem=Problem.model_validate(data["problem"]),
            variants=[Variant.model_validate(v) for v in data["variants"]],
            probes=[Probe.model_validate(p) for p in data["probes"]],
            failure=data["failure"],
            counts=Counter(data.get("counts", {})),
            skipped=[SkippedRow.model_validate(s) for s in data.get("skipped", [])],
            dropped=data.get("dropped", {}),
        )

    def save(self, index: int, built: ProblemBuild) -> None:
        """Keep the finished work of problem number `index`."""
        data = {
            "problem": built.problem.model_dump(mode="json"),
            "variants": [v.model_dump(mode="json") for v in built.variants],
            "probes": [p.model_dump(mode="json") for p in built.probes],
            "failure": built.failure,
            "counts": dict(built.counts),
            "skipped": [s.model_dump(mode="json") for s in built.skipped],
            "dropped": built.dropped,
        }
        write_atomic(self._path(index), json.dumps(data))

    def discard(self) -> None:
        """Remove the work files once the final files are written."""
        shutil.rmtree(self.root, ignore_errors=True)


def write_benchmark(out: Path, store: WorkStore, count: int, manifest: Manifest) -> None:
    """Write problems.jsonl, variants.jsonl, probes.jsonl and manifest.json into `out`.

    Problems are read back from the work store one at a time, in order, so memory holds one
    problem's records at most; each file is written under a temporary name and renamed.
    """
    paths = {name: out / name for name in FILES}
    partial = {name: path.with_name(path.name + ".partial") for name, path in paths.items()}
    with ExitStack() as stack:
        files = {
            name: stack.enter_context(path.open("w", encoding="utf-8"))
            for name, path in partial.items()
        }
        for index in range(count):
            built = store.load(index)
            if built is None or built.failure is not None:
                continue
            files["problems.jsonl"].write(built.problem.model_dump_json() + "\n")
            files["variants.jsonl"].writelines(v.model_dump_json() + "\n" for v in built.variants)
            files["probes.jsonl"].writelines(p.model_dump_json() + "\n" for p in built.probes)
    for name, path in paths.items():
        os.replace(partial[name], path)
    write_atomic(out / "manifest.json", manifest.model_dump_json(indent=2) + "\n")
