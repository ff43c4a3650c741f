"""Ctrl-C or SIGTERM at any moment of a run: it stops, its manifest says so with counts, and
it resumes.

Each test sends SIGINT or SIGTERM at one chosen point of an in-process run, from the main
thread, where Python handles it at once (as a terminal's Ctrl-C, or `kill`): where it lands
is chosen, not timed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import core_bench.runs._grader as grader
import core_bench.runs._runner as runner
import core_bench.runs._samplefile as samplefile
import core_bench.runs._session as session
from core_bench.benchmark import Benchmark
from core_bench.fake_openai import FakeOpenAI
from core_bench.runs import Completion, Endpoint, OpenAIBackend, Request, RunConfig, run
from core_bench.stopping import Terminated, sigterm_stops
from tracer import SandboxPool

# (the signal, what the run raises): Ctrl-C, and SIGTERM as `core-bench` handles it
STOPS = [
    pytest.param(signal.SIGINT, KeyboardInterrupt, id="SIGINT"),
    pytest.param(signal.SIGTERM, Terminated, id="SIGTERM"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """SIGINT handled as at a terminal (`asyncio.run` then cancels the run's main task), also
    when pytest inherited it ignored, as a background job of a non-interactive shell does."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    with sigterm_stops():  # and SIGTERM as the command line handles it
        yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def config(bench: Benchmark, server: FakeOpenAI, tmp_path: Path) -> RunConfig:
    """One problem's input tasks (graded in the sandbox, in batches: `InputGrader`), two
    requests at a time, against the fake server, written to `tmp_path`."""
    return RunConfig(
        model="openai:m",
        bench=bench.root,
        out=tmp_path,
        tasks=("input",),
        limit=1,
        endpoint=Endpoint(base_urls=(server.url,), api_key="sk-test", concurrency=2),
    )


def ctrl_c_before(
    function: Callable[..., Any], nth: int = 1, signum: int = signal.SIGINT
) -> Callable[..., Any]:
    """`function` (plain or async) that first sends `signum` (SIGINT) on its `nth` call."""
    calls = 0

    def count() -> None:
        nonlocal calls
        calls += 1
        if calls == nth:
            signal.raise_signal(signum)

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def hooked_async(*args: Any, **kwargs: Any) -> Any:
            count()
            return await function(*args, **kwargs)

        return hooked_async

    @functools.wraps(function)
    def hooked(*args: Any, **kwargs: Any) -> Any:
        count()
        return function(*args, **kwargs)

    return hooked


# (where SIGINT is sent, whether every sample was made by then)
WINDOWS = [
    pytest.param(session, "plan_requests", 1, False, id="planning"),
    pytest.param(OpenAIBackend, "complete", 3, False, id="request-in-flight"),
    pytest.param(samplefile.SampleWriter, "finish", 1, True, id="request-loop-end"),
    pytest.param(grader.InputGrader, "aclose", 1, True, id="input-grader-close"),
    pytest.param(session.Session, "traces", 1, True, id="traces"),
    pytest.param(session.Session, "aclose", 1, True, id="session-close"),
    pytest.param(runner, "summary_rows", 1, True, id="metrics"),
]


@pytest.mark.parametrize(("signum", "stop"), STOPS)
@pytest.mark.parametrize(("owner", "name", "nth", "all_made"), WINDOWS)
def test_ctrl_c_or_sigterm_stops_the_run_with_an_interrupted_manifest_and_it_resumes(
    signum: int,
    stop: type[KeyboardInterrupt],
    owner: object,
    name: str,
    nth: int,
    all_made: bool,
    config: RunConfig,
    bench: Benchmark,
    pool: SandboxPool,
    server: FakeOpenAI,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ctrl_c: None,
) -> None:
    server.reset_counts()
    with monkeypatch.context() as patch:
        patch.setattr(owner, name, ctrl_c_before(getattr(owner, name), nth, signum))
        with pytest.raises(stop):
            run(config, benchmark=bench, pool=pool, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "interrupted" and manifest["finished_at"]
    counts = manifest["counts"]
    samples = tmp_path / "samples.jsonl"
    kept = samples.read_text(encoding="utf-8").splitlines() if samples.exists() else []
    assert counts["tasks"] > 0 and counts["requested"] >= max(server.total, len(kept))
    if name == "plan_requests":
        assert counts["requested"] == server.total == 0  # stopped before sending anything

    again = run(config, benchmark=bench, pool=pool, progress=False)  # resumes
    assert again.manifest.status == "complete"
    # Nothing made before the Ctrl-C is lost: each sample comes back from the cache.
    assert again.counts["cached"] >= len(kept)
    assert set(kept) <= set((tmp_path / "samples.jsonl").read_text(encoding="utf-8").splitlines())
    if all_made:
        assert len(kept) == again.counts["samples"] and again.counts["requested"] == 0


@pytest.mark.parametrize(("signum", "stop"), STOPS)
def test_a_cancellation_a_library_loses_still_stops_the_request_loop(
    signum: int,
    stop: type[KeyboardInterrupt],
    config: RunConfig,
    bench: Benchmark,
    pool: SandboxPool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ctrl_c: None,
) -> None:
    complete = OpenAIBackend.complete
    calls = 0

    async def losing(self: OpenAIBackend, request: Request) -> Completion:
        nonlocal calls
        calls += 1
        if calls == 3:
            signal.raise_signal(signum)
            # Lost, as asyncio.wait_for lost one arriving with the response on 3.11 (the
            # sleep is cancelled at once; its length is a hang guard only).
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(600)
        return await complete(self, request)

    monkeypatch.setattr(OpenAIBackend, "complete", losing)
    with pytest.raises(stop):
        run(config, benchmark=bench, pool=pool, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "interrupted"
    # The requests begun before the Ctrl-C, not every request of the run (40 here).
    assert manifest["counts"]["requested"] <= calls <= 3 + config.endpoint.concurrency
