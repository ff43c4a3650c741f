"""Reference agents (`ref:<name>`): programs, not language models, with known behaviour.

Each answers from the benchmark's ground truth (outputs read off execution, probe answers read
off traces) in the text format the prompt asks for, deterministically from the run's seed, the
task and the sample index. They validate the metrics: each must show the signature it was
built for.

The agents are `AGENTS`, a registry by name: each is one module of `core_bench.runs.agents`
(`oracle`, `superficial`, `style-biased`, `echo`, `blind`: the floor) implementing `Agent`.
`ReferenceAgent` is the backend that answers a run's requests with one of them; the helpers
below (right answers, plausible wrong values) are what the agents are made of.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from core_bench.runs._client import Completion, Request
from core_bench.runs._prompts import answer_block
from core_bench.runs._registry import Registry
from core_bench.runs._tasks import Task, code_call_key
from tracer import Call, SandboxPool, TraceError

STYLE_BIAS_ERROR_RATE = 0.5
"""How often `style-biased` is wrong on an equivalent variant."""

_THOUGHT = "I run the call line by line, keeping track of every variable, and read off the result."


class Agent(Protocol):
    """How one reference agent answers (registered in `AGENTS` by its module in
    `core_bench.runs.agents`).

    Attributes:
        name: the agent's name, as in `ref:<name>`.
        traced: its `trace`-strategy answers show the call's real trace (traced in the sandbox
            before the run asks).
    """

    @property
    def name(self) -> str: ...

    @property
    def traced(self) -> bool: ...

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        """The answer to `task` and the trace shown with it (for the `trace` strategy).

        Args:
            task: the task asked.
            rng: the random source of this task and sample (from the run's seed).
            trace: the call's real trace when `traced` (else its return line).
        """
        ...


AGENTS: Registry[Agent] = Registry("reference agent", "core_bench.runs.agents", lambda a: a.name)
"""The reference agents by name (`ref:<name>`); each module of `core_bench.runs.agents` adds one."""


def register_agent(cls: type[Agent]) -> type[Agent]:
    """Class decorator: register an instance of `cls` in `AGENTS` under its `name`."""
    AGENTS.register(cls())
    return cls


class ReferenceAgent:
    """A reference agent as a backend; the run treats it like a model (cache, grading, run
    directory).

    Args:
        name: one of `AGENTS`.
        seed: every random choice derives from it.
    """

    durable = False
    """Answers are free to recompute: the cache is committed in batches, not per answer."""
    api = "chat"
    base_urls: tuple[str, ...] = ()

    def __init__(self, name: str, *, seed: int = 0) -> None:
        if name not in AGENTS:
            raise ValueError(
                f"unknown reference agent {name!r}; expected one of {', '.join(AGENTS)}"
            )
        self.name = name
        self.agent = AGENTS[name]
        self.spec = f"ref:{name}"
        self.seed = seed
        self.retries = 0
        self._traces: dict[str, str] = {}

    def params(self, sample_index: int) -> dict[str, Any]:
        """What the answers depend on besides the prompt (part of each cache key)."""
        return {"seed": self.seed}

    def task_key(self, task: Task) -> str | None:
        """The task's id: an agent's answer depends on the task, not only on the prompt (two
        input tasks with equal outputs share a prompt but not an answer)."""
        return task.id

    async def prepare(
        self, requests: Sequence[Request], pool: Callable[[], SandboxPool], timeout_s: float
    ) -> None:
        """Trace, in the sandbox, the calls whose `trace`-strategy answers need a real trace."""
        if not self.agent.traced:
            return
        wanted: dict[str, tuple[str, str]] = {}
        for request in requests:
            task = request.task
            if task.strategy == "trace":
                key = code_call_key(task.code, task.call)
                if key not in self._traces:
                    wanted[key] = (task.code, task.call)
        if not wanted:
            return
        by_code: dict[str, list[str]] = {}
        for code, call in wanted.values():
            by_code.setdefault(code, []).append(call)
        jobs = list(by_code.items())
        outcomes = await asyncio.to_thread(pool().map, jobs, timeout_s=timeout_s, trace=True)
        for (code, calls), batch in zip(jobs, outcomes, strict=True):
            for call, outcome in zip(calls, batch, strict=True):
                rendered = outcome.trace.render("core") if outcome.trace is not None else ""
                self._traces[code_call_key(code, call)] = rendered

    async def complete(self, request: Request) -> Completion:
        """The agent's answer to one request."""
        return Completion(self.answer(request.task, request.sample_index), "stop")

    async def aclose(self) -> None:
        """Nothing to close."""

    def answer(self, task: Task, sample_index: int) -> str:
        """The response text for one sample of `task`."""
        rng = random.Random(_seed(self.seed, self.name, task.id, sample_index))
        known = self._traces.get(code_call_key(task.code, task.call))
        value, trace = self.agent.answer(task, rng, known or f"[Return] {task.output}")
        return answer_block(task.strategy, value, thought=_THOUGHT, trace=trace)


def right_answer(task: Task) -> str:
    """The right answer to `task`, as the prompt asks for it."""
    if task.kind == "input":
        return f"assert {task.call} == {task.output}"
    return formatted(task, task.expected)


def echo_answer(task: Task) -> str:
    """The input echoed: the first argument (input tasks: the output as the argument)."""
    if task.kind == "input":
        return f"assert {task.entry}({task.output}) == {task.output}"
    return formatted(task, first_argument(task.call))


def formatted(task: Task, value: str) -> str:
    """`value` as the answer to `task` (an output task: the completed assertion)."""
    if task.kind == "output":
        return f"assert {task.call} == {value}"
    return value


def _seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _read(call: str) -> Call | None:
    try:
        return Call.read(call)
    except TraceError:
        return None


def first_argument(call: str) -> str:
    """The source text of the call's first argument ("None" when it has none)."""
    read = _read(call)
    return read.args[0].text if read is not None and read.args else "None"


def wrong_call(task: Task, rng: random.Random) -> str:
    """The task's call with its first argument changed: a plausible wrong input."""
    read = _read(task.call)
    args = read.args if read is not None else ()
    positional = [a.text for a in args if a.keyword is None and not a.text.startswith("**")]
    if not positional:
        return f"assert {task.entry}() == {task.output}"
    positional[0] = perturb(positional[0], rng)
    keywords = [f"{a.keyword}={a.text}" for a in args if a.keyword is not None]
    return f"assert {task.entry}({', '.join(positional + keywords)}) == {task.output}"


def perturb(text: str, rng: random.Random) -> str:
    """A plausible wrong value of the same type as the literal `text`, as source text.

    Numbers move by a small step, booleans flip, strings change one character, containers
    change one element (or gain one when empty). Text that is not a literal (e.g. `return` as
    a next-line answer) becomes 0.
    """
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return "0" if text.strip() != "0" else "1"
    changed = _wrong(value, rng)
    if _same(changed, value):
        changed = [value] if not isinstance(value, list) else [*value, 0]
    return repr(changed)


def _same(a: object, b: object) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _wrong(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, -1, 2))
    if isinstance(value, float):
        return 0.0 if value != value else value + rng.choice((0.5, 1.0, -1.0))
    if isinstance(value, complex):
        return value + 1
    if isinstance(value, str):
        return _wrong_str(value, rng)
    if isinstance(value, bytes):
        return value + b"x"
    if isinstance(value, list | tuple):
        if not value:
            return type(value)([0])
        items = list(value)
        at = rng.randrange(len(items))
        items[at] = _wrong(items[at], rng)
        return type(value)(items)
    if isinstance(value, dict):
        if not value:
            return {0: 0}
        key = rng.choice(list(value))
        return {**value, key: _wrong(value[key], rng)}
    if isinstance(value, set | frozenset):
        if not value:
            return type(value)({0})
        items = sorted(value, key=repr)
        return type(value)(items[:-1])
    if value is None:
        return 0
    return None


def _wrong_str(value: str, rng: random.Random) -> str:
    if not value:
        return "a"
    at = rng.randrange(len(value))
    old = value[at]
    pool = "abcdefghijklmnopqrstuvwxyz0123456789 "
    new = rng.choice([c for c in pool if c != old.lower() and c != old])
    return value[:at] + new + value[at + 1 :]
