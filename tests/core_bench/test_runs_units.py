"""Small parts of runs: the retry policy, cache keys and file, basic metrics."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import openai
import pytest

from core_bench.runs import (
    RequestFailed,
    ResponseCache,
    RetryPolicy,
    classify,
    request_key,
    retry_after,
)
from core_bench.runs._retry import MalformedResponse, with_retries

try:  # the HTTP library the installed openai package uses
    import httpx2 as httpx
except ImportError:  # openai before 3.x
    import httpx  # type: ignore[no-redef]

REQUEST = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")


def status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    response = httpx.Response(status, headers=headers or {}, request=REQUEST)
    cls = {400: openai.BadRequestError, 429: openai.RateLimitError}.get(
        status, openai.InternalServerError if status >= 500 else openai.APIStatusError
    )
    return cls("failed", response=response, body={"error": {"message": "nope"}})


@pytest.mark.parametrize(
    "exc, retryable, timeout",
    [
        (status_error(429), True, False),
        (status_error(500), True, False),
        (status_error(503), True, False),
        (status_error(400), False, False),
        (status_error(401), False, False),
        (status_error(404), False, False),
        (status_error(408), False, False),
        (openai.APIConnectionError(request=REQUEST), True, False),
        (openai.APITimeoutError(request=REQUEST), True, True),
        (TimeoutError(), True, True),
        (MalformedResponse("cut short"), True, False),
        (ValueError("a bug"), False, False),
    ],
)
def test_classify_retries_only_transient_failures(
    exc: BaseException, retryable: bool, timeout: bool
) -> None:
    failure = classify(exc)
    assert (failure.retryable, failure.timeout) == (retryable, timeout)


def test_error_message_names_the_status_and_the_servers_message() -> None:
    assert classify(status_error(400)).message == "HTTP 400: nope"


def test_retry_after_forms() -> None:
    assert retry_after({"retry-after-ms": "1500"}) == 1.5
    assert retry_after({"retry-after": "3"}) == 3.0
    later = datetime.now(UTC) + timedelta(seconds=30)
    assert 25 < (retry_after({"retry-after": format_datetime(later, usegmt=True)}) or 0) <= 30
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None
    assert classify(status_error(429, {"retry-after": "2"})).retry_after == 2.0


def test_backoff_is_jittered_exponential_and_capped() -> None:
    policy = RetryPolicy(retries=10, base_s=1.0, cap_s=8.0)
    rng = random.Random(0)
    for attempt in range(10):
        waits = [policy.backoff(attempt, rng) for _ in range(200)]
        bound = min(8.0, 2.0**attempt)
        assert all(0 <= w <= bound for w in waits)
        assert max(waits) > bound * 0.8  # full jitter spreads over the whole range


def run_retries(errors: list[BaseException], policy: RetryPolicy) -> tuple[Any, list[float]]:
    slept: list[float] = []
    queue = list(errors)

    async def attempt() -> str:
        if queue:
            raise queue.pop(0)
        return "ok"

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def main() -> Any:
        return await with_retries(attempt, policy, random.Random(0), sleep=sleep)

    return asyncio.run(main()), slept


def test_with_retries_waits_and_honours_retry_after() -> None:
    errors: list[BaseException] = [status_error(500), status_error(429, {"retry-after": "5"})]
    (result, attempts), slept = run_retries(errors, RetryPolicy(retries=3, base_s=0.1))
    assert (result, attempts) == ("ok", 3)
    assert slept[0] <= 0.1 and 5.0 <= slept[1] <= 5.1


def test_with_retries_gives_up_after_the_budget_and_at_once_on_4xx() -> None:
    with pytest.raises(RequestFailed) as failed:
        run_retries([status_error(502)] * 5, RetryPolicy(retries=2, base_s=0.0))
    assert failed.value.attempts == 3 and failed.value.verdict == "error"
    with pytest.raises(RequestFailed) as timed_out:
        run_retries([TimeoutError()] * 5, RetryPolicy(retries=1, base_s=0.0))
    assert timed_out.value.verdict == "timeout"
    with pytest.raises(RequestFailed) as bad:
        run_retries([status_error(400), status_error(500)], RetryPolicy(retries=5))
    assert bad.value.attempts == 1 and "HTTP 400" in str(bad.value)


def test_request_key_covers_every_part() -> None:
    base: dict[str, Any] = {
        "model": "openai:m",
        "base_urls": ["http://a/v1", "http://b/v1"],
        "api": "chat",
        "prompt_sha256": "p" * 64,
        "params": {"temperature": 0.0, "max_tokens": 10, "seed": 1},
        "sample_index": 0,
    }
    key = request_key(**base)
    assert request_key(**{**base, "base_urls": ["http://b/v1", "http://a/v1"]}) == key
    for change in (
        {"model": "openai:n"},
        {"base_urls": ["http://a/v1"]},
        {"api": "completions"},
        {"prompt_sha256": "q" * 64},
        {"params": {"temperature": 0.5, "max_tokens": 10, "seed": 1}},
        {"params": {"temperature": 0.0, "max_tokens": 11, "seed": 1}},
        {"params": {"temperature": 0.0, "max_tokens": 10, "seed": 2}},
        {"sample_index": 1},
        {"task": "direct/output/x:c0"},
    ):
        assert request_key(**{**base, **change}) != key, change


def test_cache_roundtrip_with_grades_and_outputs(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with ResponseCache(path) as cache:
        cache.put(
            "k1",
            model="m",
            prompt_hash="h",
            sample_index=0,
            text="hi",
            finish_reason="stop",
            meta={"replica": "r"},
        )
        cache.put_grade("k1", "g1", "1", "correct", "")
        cache.put_outputs({"o1": "[1]", "o2": None})
    with ResponseCache(path) as cache:
        found = cache.lookup(["k1", "k2"], "g1")
        assert list(found) == ["k1"]
        assert (found["k1"].text, found["k1"].verdict) == ("hi", "correct")
        assert cache.lookup(["k1"], "g2")["k1"].verdict is None  # another grader grades anew
        assert cache.outputs(["o1", "o2", "o3"]) == {"o1": "[1]", "o2": None}
        assert cache.count() == 1
