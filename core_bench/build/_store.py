"""Writing a build: per-problem work files as it goes (for resume), then the final files
(the work files' lines, in problem order)."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from core_bench.benchmark import FILES
from core_bench.build._finished import Done, Finished
from core_bench.schemas import Manifest, SkippedRow

WORK_DIR = ".work"


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers (and a resumed run) never see half of it."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


class WorkStore:
    """One file per finished problem under `DIR/.work/`, so a killed build resumes.

    A work file is one JSON line (the tallies, and the length of each file's text) followed by
    the problem's lines of problems.jsonl, variants.jsonl and probes.jsonl, as they are written.
    """

    def __init__(self, out: Path, fingerprint: str) -> None:
        self.root = out / WORK_DIR
        key = self.root / "key"
        if self.root.exists() and (not key.exists() or key.read_text() != fingerprint):
            shutil.rmtree(self.root)  # work of a build started with other options
        self.root.mkdir(parents=True, exist_ok=True)
        write_atomic(key, fingerprint)

    def _path(self, index: int) -> Path:
        return self.root / f"{index:06d}.json"

    def load(self, index: int) -> Finished | None:
        """The finished work of problem number `index`, if a previous run left it."""
        path = self._path(index)
        if not path.exists():
            return None
        head, _, body = path.read_text(encoding="utf-8").partition("\n")
        data = json.loads(head)
        texts: dict[str, str] = {}
        start = 0
        for name in FILES:
            size = data["sizes"][name]
            texts[name] = body[start : start + size]
            start += size
        done = Done(
            failure=data["failure"],
            tally=Counter(data["tally"]),
            seconds={},
            skipped=[SkippedRow.model_validate(s) for s in data["skipped"]],
        )
        return Finished(done, texts)

    def save(self, index: int, finished: Finished) -> None:
        """Keep the finished work of problem number `index`."""
        done = finished.done
        head = {
            "failure": done.failure,
            "tally": dict(done.tally),
            "skipped": [s.model_dump(mode="json") for s in done.skipped],
            "sizes": {name: len(finished.texts[name]) for name in FILES},
        }
        body = "".join(finished.texts[name] for name in FILES)
        write_atomic(self._path(index), json.dumps(head) + "\n" + body)

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
            finished = store.load(index)
            if finished is None or finished.done.failure is not None:
                continue
            for name, text in finished.texts.items():
                files[name].write(text)
    for name, path in paths.items():
        os.replace(partial[name], path)
    write_atomic(out / "manifest.json", manifest.model_dump_json(indent=2) + "\n")
