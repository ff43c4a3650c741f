"""samples.jsonl written as a run grades, and read back compactly for its metrics.

A run keeps no graded sample in memory: each is written to the file as it is made (the bytes
of its line are all that is kept, on disk) with its place in the run's sorted order, and the
metrics read the file back into `GradedSample`s, which keep only what the metrics and the
usage counts read (a 100,000-sample run would otherwise hold every response, reason and
prompt hash as pydantic models).

While requests are being made the file is appended to and flushed line by line, so a killed
run leaves the samples it graded; at the end it is rewritten in sorted order (task id, sample
index) unless it is in that order already, so a resumed run ends with the same file as an
uninterrupted one.
"""

from __future__ import annotations

import os
from array import array
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TypeVar, cast

from core_bench.metrics import GradedSample
from core_bench.schemas import Sample, read_records

_MISSING = -1
_S = TypeVar("_S", bound=str)


class SampleWriter:
    """samples.jsonl while a run goes on.

    Samples are written to a hidden part file first; `publish` makes it samples.jsonl (from
    then on every line is flushed as it is written), `finish` puts it in order and in place.

    Args:
        path: samples.jsonl.
        total: the number of samples the run makes (their orders are 0..total-1).
    """

    def __init__(self, path: Path, total: int) -> None:
        self.path = path
        self._part = path.with_name(f".{path.name}.part")
        self._handle: IO[bytes] = self._part.open("wb")
        self._offsets = array("q", [_MISSING]) * total
        self._lengths = array("q", [0]) * total
        self._size = 0
        self._last = _MISSING
        self._in_order = True
        self._published = False
        self.verdicts: Counter[str] = Counter()
        """How many samples got each verdict."""

    def append(self, order: int, sample: Sample) -> None:
        """Write one graded sample; `order` is its place in the sorted file."""
        line = sample.model_dump_json().encode() + b"\n"
        self._offsets[order] = self._size
        self._lengths[order] = len(line)
        self._size += len(line)
        self._in_order = self._in_order and order > self._last
        self._last = order
        self.verdicts[sample.verdict] += 1
        self._handle.write(line)
        if self._published:
            self._handle.flush()  # a killed run leaves whole lines

    def publish(self) -> None:
        """Make what is written so far samples.jsonl (atomically), and flush every sample
        written after it."""
        _sync(self._handle)
        os.replace(self._part, self.path)
        self._published = True

    def finish(self) -> None:
        """Put samples.jsonl in sorted order (task id, sample index), synced, atomically."""
        _sync(self._handle)
        self._handle.close()
        written = self.path if self._published else self._part
        complete = _MISSING not in self._offsets
        if self._in_order and complete:
            if not self._published:
                os.replace(self._part, self.path)
            return
        tmp = self.path.with_name(f".{self.path.name}.sorted")
        with written.open("rb") as source, tmp.open("wb") as target:
            for offset, length in zip(self._offsets, self._lengths, strict=True):
                if offset != _MISSING:
                    target.write(os.pread(source.fileno(), length, offset))
            _sync(target)
        os.replace(tmp, self.path)
        if not self._published:
            self._part.unlink(missing_ok=True)

    def close(self) -> None:
        """Close the file without putting it in order (a run that stops midway)."""
        if not self._handle.closed:
            self._handle.close()
        if not self._published:
            self._part.unlink(missing_ok=True)


def _sync(handle: IO[bytes]) -> None:
    handle.flush()
    os.fsync(handle.fileno())


def read_graded(path: Path) -> Iterator[GradedSample]:
    """Read a samples.jsonl back one line at a time (each validated as a `Sample`), as
    `GradedSample`s.

    Raises:
        ValueError: a line is not a valid sample, e.g. a task kind, strategy or verdict that
            is not one of the schema's (the file, line and field named).
    """
    shared: dict[str, str] = {}

    def same(text: _S) -> _S:  # ids and labels repeat across samples: keep one copy of each
        return cast(_S, shared.setdefault(text, text))

    for sample in read_records(path, Sample):
        keep = sample.strategy == "trace" and sample.task in ("output", "input")
        yield GradedSample(
            task_id=sample.task_id,
            task=same(sample.task),
            strategy=same(sample.strategy),
            problem_id=same(sample.problem_id),
            variant_id=same(sample.variant_id),
            probe_id=sample.probe_id,
            call_index=sample.call_index,
            sample_index=sample.sample_index,
            answer=sample.answer if sample.task == "output" else None,
            verdict=same(sample.verdict),
            response=sample.response if keep else "",
            finish_reason=sample.finish_reason,
            truncated=sample.truncated,
            prompt_tokens=sample.prompt_tokens,
            completion_tokens=sample.completion_tokens,
        )


__all__ = ["GradedSample", "SampleWriter", "read_graded"]
