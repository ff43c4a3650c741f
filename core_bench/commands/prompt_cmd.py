"""`core-bench prompt BENCH TASK_ID`: print what a model is sent for one task."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from core_bench.benchmark import load_benchmark
from core_bench.errors import UsageError
from core_bench.runs import STRATEGIES, TASK_KINDS, Task, make_tasks, render
from core_bench.schemas import Strategy, TaskKind
from tracer import SandboxPool


def register(subparsers: Any) -> None:
    """Add the `prompt` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "prompt",
        help="print the prompt a model is sent for one task",
        description=(
            "Print the prompt of one task of a benchmark, exactly as `core-bench run` sends "
            "it: the chat messages (the user message, after a system message if one is "
            "given), or with --api completions the completion prompt. TASK_ID is a task id "
            "as samples.jsonl holds it (direct/output/<variant id>:c<call>, "
            "cot/probe/<probe id>, ...) or the same without its strategy, which --strategy "
            "then gives."
        ),
    )
    parser.add_argument("bench", type=Path, help="the benchmark directory")
    parser.add_argument("task_id", help="the task id, e.g. direct/output/cb-001:eq1:c0")
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default=None,
        help="the strategy, when TASK_ID does not start with one (default direct)",
    )
    parser.add_argument("--api", choices=("chat", "completions"), default="chat")
    parser.add_argument(
        "--system-prompt", default=None, help="a system message put first (as `run` takes it)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the messages as the JSON the request holds"
    )
    parser.set_defaults(handler=handle)


def split_task_id(task_id: str, strategy: str | None) -> tuple[Strategy, TaskKind, str]:
    """(strategy, kind, rest) of a task id, with or without its strategy prefix.

    Raises:
        UsageError: the id does not name a task kind, or names a strategy other than
            `strategy`.
    """
    parts = task_id.split("/", 2)
    if parts[0] in STRATEGIES:
        if strategy is not None and strategy != parts[0]:
            raise UsageError(f"task id {task_id!r} is a {parts[0]} task, not {strategy}")
        strategy, parts = parts[0], parts[1:]
    if len(parts) != 2 or parts[0] not in TASK_KINDS or not parts[1]:
        raise UsageError(
            f"bad task id {task_id!r}: expected [STRATEGY/]KIND/ID with KIND one of "
            + ", ".join(TASK_KINDS)
        )
    return strategy or "direct", parts[0], parts[1]  # type: ignore[return-value]


def find_task(bench: Path, task_id: str, strategy: str | None) -> Task:
    """The task `task_id` of the benchmark at `bench` (a mutant's output is found by running
    that mutant alone in the sandbox).

    Raises:
        UsageError: the benchmark cannot be read or has no such task.
    """
    chosen, kind, rest = split_task_id(task_id, strategy)
    try:
        benchmark = load_benchmark(bench)
    except ValueError as exc:
        raise UsageError(f"{bench}: {exc}") from None
    full_id = f"{chosen}/{kind}/{rest}"
    variant_id = rest.rsplit(":c", 1)[0] if kind in ("output", "input") else None
    code = next((v.code for v in benchmark.variants if v.id == variant_id), None)
    pool: SandboxPool | None = None

    def outputs(jobs: Any) -> list[list[str | None]]:
        nonlocal pool
        found: list[list[str | None]] = []
        for job_code, calls in jobs:
            if job_code != code:
                found.append([None] * len(calls))
                continue
            pool = pool or SandboxPool(workers=1)
            (batch,) = pool.map([(job_code, calls)])
            found.append(
                [o.result if o.status == "ok" and o.result_literal else None for o in batch]
            )
        return found

    try:
        tasks = make_tasks(benchmark, kinds=(kind,), strategies=(chosen,), mutant_outputs=outputs)
    finally:
        if pool is not None:
            pool.close()
    task = next((t for t in tasks if t.id == full_id), None)
    if task is None:
        near = [t.id for t in tasks if rest.split(":")[0] in t.id][:5]
        hint = f"; tasks of that problem: {', '.join(near)}" if near else ""
        raise UsageError(f"no task {full_id!r} in {bench}{hint}")
    return task


def handle(args: argparse.Namespace) -> int:
    """Print the prompt."""
    task = find_task(args.bench, args.task_id, args.strategy)
    prompt = render(task, system_prompt=args.system_prompt)
    if args.api == "completions":
        print(json.dumps({"prompt": prompt.text}) if args.json else prompt.text, end="")
        if args.json:
            print()
        return 0
    if args.json:
        print(json.dumps({"messages": list(prompt.messages)}, indent=2, ensure_ascii=False))
        return 0
    if len(prompt.messages) == 1:
        print(prompt.messages[0]["content"], end="")
        return 0
    for message in prompt.messages:
        print(f"--- {message['role']} ---\n{message['content']}")
    return 0
