"""Records that the metrics tests build by hand."""

from __future__ import annotations

from core_bench.schemas import Sample


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
        problem_id=variant.split(":")[0],
        variant_id=variant,
        probe_id=probe_id,
        call_index=call,
        sample_index=index,
        prompt_hash="h",
        response="",
        answer=answer,
        verdict="correct" if right else "wrong",
    )
