"""The retry policy: jittered exponential backoff on transient failures only.

Retried: HTTP 429 (waiting at least its Retry-After), 5xx, connection errors, timeouts, and a
200 whose body cannot be read (a response cut short). Not retried: every other 4xx (a bad
request stays bad). After the last attempt the request fails with `RequestFailed`, which the
run records as a failed sample and goes on.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

import openai

T = TypeVar("T")

MAX_RETRY_AFTER_S = 120.0
"""Longest Retry-After honoured; a server asking for more gets this much."""


class MalformedResponse(Exception):
    """A 2xx response whose body is not the JSON the API promises (retried)."""


class RequestFailed(Exception):
    """A request that failed for good: not retryable, or out of attempts.

    Attributes:
        verdict: "timeout" when the last failure was a timeout, else "error".
        attempts: how many attempts were made.
    """

    def __init__(self, message: str, *, verdict: Literal["timeout", "error"], attempts: int):
        super().__init__(message)
        self.verdict: Literal["timeout", "error"] = verdict
        self.attempts = attempts


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait.

    Attributes:
        retries: retries after the first attempt (0: never retry).
        base_s: the first backoff; attempt n waits a uniform draw in [0, base_s * 2**n]
            ("full jitter"), capped at `cap_s`.
        cap_s: the longest backoff.
    """

    retries: int = 6
    base_s: float = 1.0
    cap_s: float = 60.0

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Seconds to wait before retry number `attempt` (0-based)."""
        return rng.uniform(0.0, min(self.cap_s, self.base_s * 2**attempt))


@dataclass(frozen=True, slots=True)
class Failure:
    """What went wrong with one attempt, as the policy sees it."""

    retryable: bool
    timeout: bool
    message: str
    retry_after: float | None = None


def classify(exc: BaseException) -> Failure:
    """Decide whether an exception from a request is worth another attempt."""
    if isinstance(exc, openai.APITimeoutError | asyncio.TimeoutError | TimeoutError):
        return Failure(True, True, "timed out")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        detail = f": {type(cause).__name__}: {cause}" if cause is not None else ""
        return Failure(True, False, f"connection error{detail}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        message = f"HTTP {status}: {_error_message(exc)}"
        if status == 429:
            return Failure(True, False, message, retry_after(exc.response.headers))
        return Failure(status >= 500, False, message)
    if isinstance(exc, MalformedResponse | openai.APIResponseValidationError):
        return Failure(True, False, f"malformed response: {exc}")
    return Failure(False, False, f"{type(exc).__name__}: {exc}")


def _error_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(body.get("message"), str):
            return str(body["message"])
    return str(exc.message)


def retry_after(headers: object) -> float | None:
    """Seconds a 429 asks to wait: `retry-after-ms`, or `Retry-After` in seconds or as a date."""
    get = getattr(headers, "get", None)
    if get is None:
        return None
    millis = get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


async def with_retries(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    rng: random.Random,
    *,
    on_retry: Callable[[Failure], None] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> tuple[T, int]:
    """Run `attempt` until it succeeds or the policy gives up.

    Returns:
        The result and the number of attempts it took.

    Raises:
        RequestFailed: a failure that is not retryable, or the last retryable one.
    """
    for number in range(policy.retries + 1):
        try:
            return await attempt(), number + 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            failure = classify(exc)
            last = number == policy.retries
            if not failure.retryable or last:
                verdict: Literal["timeout", "error"] = "timeout" if failure.timeout else "error"
                note = "" if not failure.retryable else f" (after {number + 1} attempts)"
                raise RequestFailed(
                    failure.message + note, verdict=verdict, attempts=number + 1
                ) from exc
            if on_retry is not None:
                on_retry(failure)
            wait = policy.backoff(number, rng)
            if failure.retry_after is not None:
                # Honour the server's wish, with a little jitter so replicas are not hit in step.
                wait = min(MAX_RETRY_AFTER_S, failure.retry_after) + rng.uniform(0, policy.base_s)
            await sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover
