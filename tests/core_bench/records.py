"""Records that the tests build by hand."""

from __future__ import annotations

from typing import Any

from core_bench.runs import Task
from core_bench.schemas import DatasetInfo, Manifest, Sample


def manifest(
    dataset: str = "test", sha256: str = "0", *, seed: int = 0, built_at: str = ""
) -> Manifest:
    """The manifest of a benchmark built by hand from `dataset` (no options, no counts)."""
    return Manifest(
        dataset=DatasetInfo(name=dataset, sha256=sha256),
        seed=seed,
        options={},
        package_versions={},
        counts={},
        skipped=[],
        built_at=built_at,
    )


def located(variant: str, call: int) -> dict[str, object]:
    """The fields that place a record on `variant`'s call `call` (its problem is the part of
    the variant id before the first colon)."""
    return {"problem_id": variant.split(":")[0], "variant_id": variant, "call_index": call}


def sample(
    task: str,
    variant: str,
    call: int,
    right: bool,
    probe_id: str | None = None,
    *,
    index: int = 0,
    answer: str | None = None,
) -> Sample:
    """One direct-strategy answer to `task` on `variant`'s call `call`, right or wrong."""
    base = probe_id if probe_id is not None else f"{variant}:c{call}"
    return Sample(
        task_id=f"direct/{task}/{base}",
        task=task,  # type: ignore[arg-type]
        strategy="direct",
        **located(variant, call),  # type: ignore[arg-type]
        probe_id=probe_id,
        sample_index=index,
        prompt_hash="h",
        response="",
        answer=answer,
        verdict="correct" if right else "wrong",
    )


def original_task(code: str, call: str, output: str, **fields: Any) -> Task:
    """A direct-strategy output task on the original of problem `p` (its call 0, entry `f`),
    with `fields` changed."""
    task: dict[str, Any] = {
        "id": "t",
        "kind": "output",
        "strategy": "direct",
        "problem_id": "p",
        "variant_id": "p",
        "variant_kind": "original",
        "call_index": 0,
        "code": code,
        "entry": "f",
        "call": call,
        "output": output,
        "original_output": output,
    }
    return Task(**{**task, **fields})
