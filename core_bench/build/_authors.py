"""`core-bench build --authors openai:MODEL`: models write reimplementations of each problem.

Each author is asked, per problem, for an independent implementation of the function given
its code and calls (the prompt is `render_author` in `core_bench/runs/_prompts.py`), through
the same client, retry policy and sqlite cache as `core-bench run` (`core_bench.runs`): a
response in the cache is never requested again, so a rebuild or a resumed build asks nothing
twice. The answer is read by parsing (`extract_code`); what comes out is only a candidate:
the problem build keeps it only when it passes the verification and CoRE's filters of
`core_bench.build._reimplement`. Every request and every rejection is counted for the manifest
under "authors.<model spec>.".
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core_bench.build._authored_code import Rejected, extract_code
from core_bench.datasets import Implementation
from core_bench.endpoint import Endpoint
from core_bench.progress import Progress
from core_bench.schemas import Problem
from core_bench.stopping import run_stoppable

if TYPE_CHECKING:
    from core_bench.runs import Prompt, ResponseCache

CACHE_FILE = "authors.sqlite"
"""The cache of authoring requests in a benchmark directory, unless told otherwise."""


@dataclass(frozen=True, slots=True)
class AuthorOptions:
    """Which models write reimplementations, and how they are asked (`run`'s flags).

    Attributes:
        models: model specs, each "openai:<name>".
        samples: requests per (problem, model); sample i sends a seed derived from the
            build's seed and i.
        temperature: sampling temperature.
        top_p: nucleus sampling, or None.
        max_tokens: most tokens per answer.
        endpoint: the server and how it is asked, as for `core-bench run`.
    """

    models: tuple[str, ...]
    samples: int = 1
    temperature: float = 0.0
    top_p: float | None = None
    max_tokens: int = 2048
    endpoint: Endpoint = field(default_factory=Endpoint)


@dataclass(slots=True)
class Authored:
    """What the authors gave: candidate implementations per problem id, and counts."""

    implementations: dict[str, list[Implementation]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)


def check_authors(models: Sequence[str]) -> None:
    """Refuse author specs that are not `openai:<name>`.

    Raises:
        ValueError: naming the bad spec.
    """
    for spec in models:
        kind, _, name = spec.partition(":")
        if kind != "openai" or not name:
            raise ValueError(
                f"bad author {spec!r}: expected openai:<name> (reference agents cannot write code)"
            )


def ask_authors(
    problems: Sequence[Problem],
    options: AuthorOptions,
    *,
    seed: int,
    cache: Path,
) -> Authored:
    """Ask every author for reimplementations of every problem; read the code out of each
    answer.

    Args:
        problems: the problems (their dataset calls and outputs go into the prompt).
        options: the authors and how to ask them.
        seed: the build's seed (each request's seed derives from it).
        cache: the sqlite cache file (created when missing).

    Raises:
        ValueError: a bad author spec, or no API key for OpenAI's own API.
    """
    check_authors(options.models)
    return run_stoppable(_ask_all(problems, options, seed, cache))


async def _ask_all(
    problems: Sequence[Problem],
    options: AuthorOptions,
    seed: int,
    cache_path: Path,
) -> Authored:
    # core_bench.runs reads benchmarks (it imports this package), so it is imported here.
    from core_bench.runs import ResponseCache

    authored = Authored()
    with ResponseCache(cache_path) as cache:
        for spec in options.models:
            await _ask_one(spec, problems, options, seed, cache, authored)
    return authored


async def _ask_one(
    spec: str,
    problems: Sequence[Problem],
    options: AuthorOptions,
    seed: int,
    cache: ResponseCache,
    authored: Authored,
) -> None:
    from core_bench.runs import (
        OpenAIBackend,
        RequestFailed,
        RunConfig,
        Sampling,
        make_backend,
        prompts,
        request_key,
        resolve_endpoint,
    )

    config = resolve_endpoint(
        RunConfig(
            model=spec,
            bench=cache.path.parent,
            out=cache.path.parent,
            sampling=Sampling(
                temperature=options.temperature,
                max_tokens=options.max_tokens,
                seed=seed,
                top_p=options.top_p,
            ),
            endpoint=options.endpoint,
        )
    )
    backend = make_backend(config)
    assert isinstance(backend, OpenAIBackend)
    counts = authored.counts
    asked: list[tuple[Problem, Prompt, dict[str, Any], str, int]] = []
    for problem in problems:
        prompt = prompts.render_author(
            problem.code,
            list(zip(problem.calls, problem.outputs, strict=True)),
            system_prompt=options.endpoint.system_prompt,
        )
        sent = prompt.hash if backend.api == "chat" else prompt.text_hash
        for index in range(options.samples):
            params = backend.params(index)
            key = request_key(
                model=backend.spec,
                base_urls=backend.base_urls,
                api=backend.api,
                prompt_sha256=sent,
                params=params,
                sample_index=index,
            )
            asked.append((problem, prompt, params, key, index))
    found = cache.lookup((item[3] for item in asked), grader="authors")
    texts: dict[str, str] = {key: hit.text for key, hit in found.items()}
    pending = [item for item in asked if item[3] not in texts]
    counts[f"authors.{spec}.asked"] += len(asked)
    counts[f"authors.{spec}.cached"] += len(asked) - len(pending)
    limit = asyncio.Semaphore(options.endpoint.concurrency)

    async def one(item: tuple[Problem, Prompt, dict[str, Any], str, int], bar: Progress) -> None:
        _, prompt, params, key, index = item
        async with limit:
            try:
                completion = await backend.complete_prompt(prompt, params)
            except RequestFailed:
                counts[f"authors.{spec}.failed"] += 1
                bar.advance()
                return
        cache.put(
            key,
            model=backend.spec,
            prompt_hash=prompt.hash,
            sample_index=index,
            text=completion.text,
            finish_reason=completion.finish_reason,
            meta=completion.meta,
        )
        texts[key] = completion.text
        bar.advance()

    try:
        with Progress(f"authors {spec}", total=len(pending), unit="request") as bar:
            async with asyncio.TaskGroup() as group:
                for item in pending:
                    group.create_task(one(item, bar))
    finally:
        await backend.aclose()
    counts[f"authors.{spec}.requested"] += len(pending)
    primer = prompts.AUTHOR_PRIMER if backend.api == "completions" else ""
    for problem, _, _, key, _ in asked:
        if key not in texts:
            continue
        try:
            code = extract_code(primer + texts[key], problem.entry)
        except Rejected as rejected:
            counts[f"authors.{spec}.rejected.{rejected.key}"] += 1
            continue
        authored.implementations.setdefault(problem.id, []).append(
            Implementation(variant_id="", code=code, origin=spec, trusted=False)
        )
