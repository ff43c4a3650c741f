"""Runs of `openai:<name>` against a real HTTP server: answers, faults, retries, replicas, cache."""

from __future__ import annotations

import json
import sqlite3
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from core_bench.benchmark import Benchmark
from core_bench.cli import main
from core_bench.fake_openai import (
    RETRYABLE_FAULTS,
    FakeOpenAI,
    Fault,
    FaultKind,
    answers_for,
    tasks_of,
)
from core_bench.runs import (
    Endpoint,
    ResponseCache,
    RunConfig,
    RunResult,
    Sampling,
    Task,
    render,
    run,
)
from tracer import SandboxPool

MODEL = "openai:fake-model"
TIMEOUT_S, SLOW_S = 2.0, 4.0
"""The client's timeout in the tests of "slow" answers, and how late those come: with 0.2-0.5 s
an ordinary answer timed out too on a loaded machine (and was retried or failed)."""


@pytest.fixture(scope="module")
def tasks(bench: Benchmark) -> list[Task]:
    return tasks_of(bench, limit=1)


@pytest.fixture()
def server(tasks: list[Task]) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(answers_for(tasks), slow_s=SLOW_S) as fake:
        yield fake


def config(bench: Benchmark, out: Path, *urls: str, **changes: Any) -> RunConfig:
    """A one-problem run against `urls`; `changes` may name `RunConfig` or `Endpoint` fields."""
    endpoint = Endpoint(
        base_urls=urls, api_key="test-key", concurrency=8, timeout_s=5.0, retries=6, backoff_s=0.01
    )
    names = {f.name for f in fields(Endpoint)}
    endpoint = replace(endpoint, **{k: v for k, v in changes.items() if k in names})
    rest = {"limit": 1, **{k: v for k, v in changes.items() if k not in names}}
    return RunConfig(model=MODEL, bench=bench.root, out=out, endpoint=endpoint, **rest)


def go(cfg: RunConfig, bench: Benchmark, pool: SandboxPool) -> RunResult:
    return run(cfg, benchmark=bench, pool=pool, progress=False)


def prompt_of(tasks: list[Task], kind: str = "output", index: int = 0) -> str:
    chosen = [t for t in tasks if t.kind == kind][index]
    return render(chosen).messages[-1]["content"]


def failing(server: FakeOpenAI, tasks: list[Task], *faults: Fault | FaultKind) -> str:
    """The prompt of the first output task, which `server` answers with `faults` first."""
    prompt = prompt_of(tasks)
    server.fail_prompt(prompt, *faults)
    return prompt


def sample_of(result: RunResult, prompt: str, tasks: list[Task]) -> Any:
    ids = {t.id for t in tasks if render(t).messages[-1]["content"] == prompt}
    return next(s for s in result.samples if s.task_id in ids)


def test_happy_path_every_task_answered_once_and_graded(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    result = go(config(bench, tmp_path, server.url), bench, pool)
    assert len(result.samples) == len(tasks)
    assert {s.verdict for s in result.samples} == {"correct"}
    assert set(server.counts.values()) == {1}  # one request per distinct prompt
    assert result.counts["requested"] == server.total == len(server.counts)
    body = server.bodies[0]
    assert body["model"] == "fake-model"
    assert (body["temperature"], body["max_tokens"]) == (0.0, 1024)
    assert "seed" in body and "stream" not in body
    assert server.paths == {"/v1/chat/completions": server.total}
    manifest = result.manifest
    assert manifest.base_urls == [server.url] and manifest.status == "complete"
    assert "test-key" not in (tmp_path / "manifest.json").read_text()
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == server.total


def test_rerun_asks_nothing_and_writes_the_same_samples(
    bench: Benchmark, pool: SandboxPool, server: FakeOpenAI, tmp_path: Path
) -> None:
    cfg = config(bench, tmp_path, server.url)
    go(cfg, bench, pool)
    first = (tmp_path / "samples.jsonl").read_bytes()
    asked = server.total
    again = go(cfg, bench, pool)
    assert server.total == asked
    assert again.counts["cached"] == len(again.samples) and again.counts["requested"] == 0
    assert (tmp_path / "samples.jsonl").read_bytes() == first


def test_completions_api_for_base_models(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    with FakeOpenAI(answers_for(tasks, api="completions")) as fake:
        result = go(config(bench, tmp_path, fake.url, api="completions"), bench, pool)
    assert {s.verdict for s in result.samples} == {"correct"}
    assert fake.paths == {"/v1/completions": fake.total}
    body = fake.bodies[0]
    assert body["stop"][0] == "[/ANSWER]" and body["prompt"].endswith("[ANSWER]\n")
    assert all(s.response.startswith("[ANSWER]\n") for s in result.samples)


def test_streamed_answers(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    result = go(config(bench, tmp_path, server.url, stream=True), bench, pool)
    assert {s.verdict for s in result.samples} == {"correct"}
    assert server.statuses == {"stream": server.total}
    assert {s.finish_reason for s in result.samples} == {"stop"}
    assert all(s.prompt_tokens and s.completion_tokens for s in result.samples)  # last chunk
    assert all(b["stream_options"] == {"include_usage": True} for b in server.bodies)


def test_streamed_completions(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    with FakeOpenAI(answers_for(tasks, api="completions")) as fake:
        cfg = config(bench, tmp_path, fake.url, api="completions", stream=True)
        result = go(cfg, bench, pool)
    assert {s.verdict for s in result.samples} == {"correct"}
    assert all(s.prompt_tokens and s.completion_tokens for s in result.samples)


def test_each_transient_fault_is_retried(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    faults = ("429", "500", "503", "drop", "malformed", "slow")
    prompt = failing(server, tasks, *faults)
    result = go(config(bench, tmp_path, server.url, timeout_s=TIMEOUT_S), bench, pool)
    assert [status for p, status in server.log if p == prompt] == [*faults, "200"]
    assert sample_of(result, prompt, tasks).verdict == "correct"
    assert result.counts["retries"] == len(faults) and result.counts["failed"] == 0


def test_retry_after_is_honoured(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    prompt = failing(server, tasks, Fault("429", retry_after=1))
    started = time.perf_counter()
    result = go(config(bench, tmp_path, server.url), bench, pool)
    assert time.perf_counter() - started >= 1.0
    assert server.counts[prompt] == 2
    assert sample_of(result, prompt, tasks).verdict == "correct"


def test_no_retry_on_400_and_a_rerun_asks_again(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    prompt = failing(server, tasks, "400")
    cfg = config(bench, tmp_path, server.url)
    result = go(cfg, bench, pool)
    assert server.counts[prompt] == 1
    failed = sample_of(result, prompt, tasks)
    assert failed.verdict == "error" and "HTTP 400" in failed.reason and failed.response == ""
    assert result.counts["failed"] == 1 and result.manifest.status == "incomplete"
    assert len(result.samples) == len(tasks)
    others = server.total - 1
    again = go(cfg, bench, pool)
    assert server.counts[prompt] == 2 and server.total == others + 2
    assert sample_of(again, prompt, tasks).verdict == "correct"
    assert again.manifest.status == "complete"


def test_out_of_retries_is_recorded_and_the_run_goes_on(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    broken, slow = prompt_of(tasks, index=0), prompt_of(tasks, index=1)
    server.fail_prompt(broken, *["500"] * 3)
    server.fail_prompt(slow, *["slow"] * 3)
    cfg = config(bench, tmp_path, server.url, retries=2, timeout_s=TIMEOUT_S)
    result = go(cfg, bench, pool)
    assert server.counts[broken] == 3 and server.counts[slow] == 3
    assert sample_of(result, broken, tasks).verdict == "error"
    assert sample_of(result, slow, tasks).verdict == "timeout"
    assert "after 3 attempts" in sample_of(result, slow, tasks).reason
    rest = [s for s in result.samples if s.verdict not in ("error", "timeout")]
    assert len(rest) == len(tasks) - 2 and {s.verdict for s in rest} == {"correct"}


def test_empty_content_is_an_unparseable_answer_not_a_failure(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    prompt = failing(server, tasks, "empty")
    cfg = config(bench, tmp_path, server.url)
    sample = sample_of(go(cfg, bench, pool), prompt, tasks)
    assert (sample.verdict, sample.response) == ("unparseable", "")
    go(cfg, bench, pool)
    assert server.counts[prompt] == 1  # an answer, cached like any other


def test_twenty_percent_faults_end_with_every_task_answered_or_failed(
    bench: Benchmark, pool: SandboxPool, tmp_path: Path
) -> None:
    tasks = tasks_of(bench, limit=2)
    kinds = (*RETRYABLE_FAULTS, "400")
    with FakeOpenAI(
        answers_for(tasks), fault_rate=0.2, fault_kinds=kinds, seed=3, slow_s=SLOW_S
    ) as fake:
        retries = 3
        cfg = config(bench, tmp_path, fake.url, limit=2, retries=retries, timeout_s=TIMEOUT_S)
        result = go(cfg, bench, pool)
        log = list(fake.log)
    assert len(result.samples) == len(tasks)
    assert len({(s.task_id, s.sample_index) for s in result.samples}) == len(tasks)
    verdicts = {s.verdict for s in result.samples}
    assert verdicts <= {"correct", "error", "timeout"} and "correct" in verdicts
    per_prompt: dict[str, list[str]] = defaultdict(list)
    for prompt, status in log:
        per_prompt[prompt].append(status)
    retried = 0
    for statuses in per_prompt.values():
        *before, last = statuses
        assert all(s in RETRYABLE_FAULTS for s in before), statuses  # never after a 400
        assert last in ("200", "400") or len(statuses) == retries + 1, statuses
        retried += len(before)
    assert any("400" in s for s in per_prompt.values())
    assert result.counts["retries"] == retried
    assert result.counts["requested"] == len(per_prompt)
    failed = [s for s in result.samples if s.verdict != "correct"]
    assert result.counts["failed"] == len(failed)
    assert all(s.reason for s in failed)


def test_replicas_share_the_load(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], tmp_path: Path
) -> None:
    answers = answers_for(tasks)
    with (
        FakeOpenAI(answers, latency_s=0.01) as one,
        FakeOpenAI(answers, latency_s=0.01) as two,
    ):
        result = go(config(bench, tmp_path, one.url, two.url), bench, pool)
    assert {s.verdict for s in result.samples} == {"correct"}
    total = one.total + two.total
    assert total == result.counts["requested"]
    assert min(one.total, two.total) >= total // 4
    assert result.manifest.base_urls == [one.url, two.url]


def test_cache_is_keyed_on_every_sampling_parameter(
    bench: Benchmark, pool: SandboxPool, server: FakeOpenAI, tmp_path: Path
) -> None:
    cfg = config(bench, tmp_path, server.url)
    first = go(cfg, bench, pool).counts["requested"]
    assert first == server.total
    changes: dict[str, Any] = {
        "same": {},
        "temperature": {"sampling": Sampling(temperature=0.7)},
        "max_tokens": {"sampling": Sampling(max_tokens=64)},
        "seed": {"sampling": Sampling(seed=1)},
        "top_p": {"sampling": Sampling(top_p=0.9)},
        "system prompt": {"endpoint": replace(cfg.endpoint, system_prompt="Be exact.")},
        "second sample": {"samples": 2},
    }
    asked = {}
    for name, change in changes.items():
        before = server.total
        go(replace(cfg, **change), bench, pool)
        asked[name] = server.total - before
    assert asked == {name: 0 if name == "same" else first for name in changes}
    seeds = {b["seed"] for b in server.bodies[-first:]}
    assert len(seeds) == 1 and seeds != {server.bodies[0]["seed"]}


def test_failed_request_samples_are_not_cached(
    bench: Benchmark, pool: SandboxPool, tasks: list[Task], server: FakeOpenAI, tmp_path: Path
) -> None:
    failing(server, tasks, "400")
    go(config(bench, tmp_path, server.url), bench, pool)
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        rows = db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert rows == server.total - 1


def test_cache_holds_the_messages_sent_and_the_prompt_command_prints_them(
    bench: Benchmark,
    pool: SandboxPool,
    server: FakeOpenAI,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = go(config(bench, tmp_path, server.url, system_prompt="Be exact."), bench, pool)
    sent = {json.dumps(body["messages"]) for body in server.bodies}
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        stored = {json.dumps(cache.prompt(s.prompt_hash)) for s in result.samples}
    assert stored == sent
    chosen = [next(s for s in result.samples if s.task == kind) for kind in ("output", "probe")]
    for sample in chosen:
        assert (
            main(
                [
                    "prompt",
                    str(bench.root),
                    sample.task_id,
                    "--system-prompt",
                    "Be exact.",
                    "--json",
                ]
            )
            == 0
        )
        printed = json.loads(capsys.readouterr().out)["messages"]
        with ResponseCache(tmp_path / "cache.sqlite") as cache:
            assert printed == cache.prompt(sample.prompt_hash)
    output = chosen[0]
    assert main(["prompt", str(bench.root), output.task_id]) == 0
    user = capsys.readouterr().out
    assert user.endswith("[/PYTHON]\n[ANSWER]\n") and "Be exact." not in user
    bare = output.task_id.split("/", 1)[1]
    assert main(["prompt", str(bench.root), bare, "--strategy", "direct"]) == 0
    assert capsys.readouterr().out == user
    assert main(["prompt", str(bench.root), "cot/" + bare, "--strategy", "direct"]) == 2
    assert main(["prompt", str(bench.root), "direct/output/no-such:c0"]) == 2
