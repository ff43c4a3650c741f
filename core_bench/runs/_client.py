"""The model behind `openai:<name>`: any OpenAI-compatible server, through the `openai` package.

One `openai.AsyncOpenAI` per replica (base URL), `max_retries=0` (the run's own policy in
`_retry` retries), a per-request timeout, and the least-loaded replica for each attempt.
Chat completions by default; the completions API (`api="completions"`) for base models.

Stop sequences (`[/ANSWER]`, and per strategy the tags that end an answer, see
`_prompts.stop_sequences`) are sent with both APIs, as CRUXEval's own script sends them; a
server that rejects them (an HTTP 400 naming `stop`) is asked again without them, and the
backend stops sending them (`stop_supported` turns False, `meta["stop_sent"]` records it).
Streamed requests ask for the token counts in the last chunk (`stream_options`), likewise
dropped for a server that rejects them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openai

from core_bench.endpoint import Api
from core_bench.runs._prompts import PRIMERS, STOP, Prompt, render
from core_bench.runs._retry import Failure, MalformedResponse, RetryPolicy, with_retries
from core_bench.runs._tasks import Task
from tracer import SandboxPool

OPENAI_BASE_URL = "https://api.openai.com/v1"

_CONNECTIONS_PER_CLIENT = 16
"""Requests in flight per `AsyncOpenAI` instance: the HTTP pool scans its connections on
every request, so a few small pools per replica serve high concurrency with less CPU than one
big pool."""


@dataclass(frozen=True, slots=True)
class Sampling:
    """Sampling parameters of a run (all of them are part of every cache key).

    Attributes:
        temperature: sampling temperature.
        max_tokens: most tokens a response may have.
        seed: the run's seed; each request sends a seed derived from it and the sample index,
            so repeated samples of a task differ where the server honours seeds.
        top_p: nucleus sampling, or None to leave it to the server.
    """

    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int = 0
    top_p: float | None = None

    def request_seed(self, sample_index: int) -> int:
        """The seed sent with sample `sample_index`."""
        return (self.seed * 1_000_003 + sample_index) % 2**31


@dataclass(frozen=True, slots=True)
class Request:
    """One request: a task, the sample index, and the parameters sent.

    The prompt is rendered when it is sent (`prompt`), not kept: a run plans all its requests
    up front, and their rendered prompts would be most of its memory.

    Attributes:
        task: the task asked.
        sample_index: 0.. for repeated samples of the task.
        params: the parameters sent (shared between requests).
        key: the cache key.
        prompt_hash: the rendered prompt's `Prompt.hash` (the samples' `prompt_hash`).
        system_prompt: the system message the prompt is rendered with, or None.
    """

    task: Task
    sample_index: int
    params: dict[str, Any]
    key: str
    prompt_hash: str
    system_prompt: str | None = None

    @property
    def prompt(self) -> Prompt:
        """The prompt, rendered now."""
        return render(self.task, system_prompt=self.system_prompt)

    @property
    def primer(self) -> str:
        """What the prompt ends with (`Prompt.primer`), without rendering it."""
        return PRIMERS[self.task.strategy]


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's answer to one request.

    Attributes:
        text: the raw text returned (for the completions API, without the prompt's primer).
        finish_reason: as the server reported it ("stop", "length", ...), or None.
        meta: where and how it was obtained (replica, attempts, seconds, usage).
    """

    text: str
    finish_reason: str | None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class _Replica:
    url: str
    clients: list[openai.AsyncOpenAI]
    inflight: int = 0
    served: int = 0
    turn: itertools.cycle[int] = field(default_factory=lambda: itertools.cycle([0]))


class OpenAIBackend:
    """Sends requests to one or more replicas of an OpenAI-compatible server.

    Args:
        model: the model name sent with each request.
        base_urls: one or more base URLs (replicas serving the same model).
        api_key: the API key ("EMPTY" suits servers that ignore keys).
        api: "chat" (chat completions) or "completions" (base models).
        sampling: the sampling parameters.
        timeout_s: the limit of one attempt, end to end.
        policy: the retry policy.
        concurrency: requests in flight at most (sizes the connection pools).
        stream: ask for streamed responses.
        stop: send stop sequences (False: never, for servers that mishandle them).
    """

    durable = True
    """Responses are costly: commit each to the cache as it arrives."""

    def __init__(
        self,
        model: str,
        base_urls: Sequence[str],
        *,
        api_key: str,
        api: Api = "chat",
        sampling: Sampling | None = None,
        timeout_s: float = 120.0,
        policy: RetryPolicy | None = None,
        concurrency: int = 16,
        stream: bool = False,
        stop: bool = True,
    ) -> None:
        if not base_urls:
            raise ValueError("at least one base URL is needed")
        self.spec = f"openai:{model}"
        self.model = model
        self.base_urls = tuple(u.rstrip("/") for u in base_urls)
        self.api: str = api
        self.sampling = sampling = sampling or Sampling()
        self.timeout_s = timeout_s
        self.policy = policy or RetryPolicy()
        self.stream = stream
        self.stop = stop
        self.stop_supported = True
        self._stream_usage = True
        """False once the server rejected stop sequences: they are not sent any more."""
        self.retries = 0
        """Attempts retried so far (all requests)."""
        per_replica = max(1, -(-concurrency // len(self.base_urls)))
        shards = max(1, -(-per_replica // _CONNECTIONS_PER_CLIENT))
        self._replicas = [
            _Replica(
                url,
                [
                    openai.AsyncOpenAI(
                        base_url=url, api_key=api_key, max_retries=0, timeout=timeout_s
                    )
                    for _ in range(shards)
                ],
                turn=itertools.cycle(range(shards)),
            )
            for url in self.base_urls
        ]
        self._next = itertools.count()
        self._rng = random.Random(sampling.seed)

    @property
    def served(self) -> dict[str, int]:
        """Successful attempts per replica."""
        return {r.url: r.served for r in self._replicas}

    def params(self, sample_index: int) -> dict[str, Any]:
        """The sampling parameters sent with sample `sample_index` (part of its cache key)."""
        s = self.sampling
        params: dict[str, Any] = {
            "temperature": s.temperature,
            "max_tokens": s.max_tokens,
            "seed": s.request_seed(sample_index),
        }
        if s.top_p is not None:
            params["top_p"] = s.top_p
        if self.stop:
            params["stop"] = [STOP]  # the runner widens it per strategy
        return params

    def task_key(self, task: Task) -> str | None:
        """None: a model's answer depends on the prompt alone."""
        return None

    async def prepare(
        self, requests: Sequence[Request], pool: Callable[[], SandboxPool], timeout_s: float
    ) -> None:
        """Nothing to prepare: the server answers every request as it comes."""

    def _pick(self) -> _Replica:
        turn = next(self._next)
        count = len(self._replicas)
        # Least loaded; ties go round-robin so idle replicas share the work evenly.
        return min(
            (self._replicas[(turn + i) % count] for i in range(count)), key=lambda r: r.inflight
        )

    async def complete(self, request: Request) -> Completion:
        """Ask for one response, retrying per the policy.

        Raises:
            RequestFailed: the request failed for good.
        """
        return await self.complete_prompt(request.prompt, request.params)

    async def complete_prompt(self, prompt: Prompt, params: dict[str, Any]) -> Completion:
        """Ask for one response to a prompt that is no task of a run (a build's requests for
        reimplementations), with `params` as `params()` gives them; retried per the policy.

        Raises:
            RequestFailed: the request failed for good.
        """
        started = time.perf_counter()
        replica_used: list[str] = []

        async def attempt() -> tuple[str, str | None, dict[str, Any]]:
            replica = self._pick()
            replica.inflight += 1
            replica_used.append(replica.url)
            try:
                client = replica.clients[next(replica.turn)]
                # asyncio.timeout, not wait_for: on 3.11 wait_for loses a cancellation that
                # arrives as the response does, and Ctrl-C then no longer stops the run.
                async with asyncio.timeout(self.timeout_s):
                    result = await self._send(client, prompt, params)
            finally:
                replica.inflight -= 1
            replica.served += 1
            return result

        def count_retry(failure: Failure) -> None:
            self.retries += 1

        (text, finish, usage), attempts = await with_retries(
            attempt, self.policy, self._rng, on_retry=count_retry
        )
        meta = {
            "replica": replica_used[-1],
            "attempts": attempts,
            "seconds": round(time.perf_counter() - started, 4),
        }
        if usage:
            meta["usage"] = usage
        if "stop" in params and not self.stop_supported:
            meta["stop_sent"] = False
        return Completion(text, finish, meta)

    async def _send(
        self, client: openai.AsyncOpenAI, prompt: Prompt, params: dict[str, Any]
    ) -> tuple[str, str | None, dict[str, Any]]:
        body: dict[str, Any] = {"model": self.model, **params}
        chat = self.api == "chat"
        if chat:
            body["messages"] = list(prompt.messages)
        else:
            body["prompt"] = prompt.text
        if not self.stop_supported:
            body.pop("stop", None)
        if self.stream and self._stream_usage:
            body["stream_options"] = {"include_usage": True}
        try:
            return await self._post(client, body)
        except openai.BadRequestError as exc:
            message = str(exc).lower()
            optional = [k for k in ("stream_options", "stop") if k in body and k in message]
            if not optional:
                raise
            body.pop(optional[0])
            result = await self._post(client, body)  # a 400 again: not about it, raised
            if optional[0] == "stop":
                self.stop_supported = False  # a server without stop sequences: ask without
            else:
                self._stream_usage = False
            return result

    async def _post(
        self, client: openai.AsyncOpenAI, body: dict[str, Any]
    ) -> tuple[str, str | None, dict[str, Any]]:
        chat = self.api == "chat"
        if self.stream:
            return await self._send_stream(client, body, chat)
        # A raw POST through the client (auth, base URL, timeouts and errors as usual) skips
        # building typed models for every response; the run needs three fields of it.
        path = "/chat/completions" if chat else "/completions"
        raw = await client.post(path, body=body, cast_to=bytes)
        return _read_body(raw, chat)

    async def _send_stream(
        self, client: openai.AsyncOpenAI, body: dict[str, Any], chat: bool
    ) -> tuple[str, str | None, dict[str, Any]]:
        parts: list[str] = []
        finish: str | None = None
        usage: dict[str, Any] = {}
        if chat:
            chat_stream = await client.chat.completions.create(**body, stream=True)
            async for chunk in chat_stream:
                for choice in chunk.choices[:1]:
                    if choice.delta is not None and choice.delta.content:
                        parts.append(choice.delta.content)
                    finish = choice.finish_reason or finish
                if chunk.usage is not None:
                    usage = chunk.usage.model_dump(exclude_none=True)
        else:
            text_stream = await client.completions.create(**body, stream=True)
            async for piece in text_stream:
                for option in piece.choices[:1]:
                    parts.append(option.text or "")
                    finish = option.finish_reason or finish
                if piece.usage is not None:
                    usage = piece.usage.model_dump(exclude_none=True)
        return "".join(parts), finish, usage

    async def aclose(self) -> None:
        """Close every HTTP connection."""
        for replica in self._replicas:
            for client in replica.clients:
                await client.close()


def _read_body(raw: bytes, chat: bool) -> tuple[str, str | None, dict[str, Any]]:
    try:
        data = json.loads(raw)
        choice = data["choices"][0]
        if chat:
            message = choice.get("message") or {}
            text = message.get("content")
        else:
            text = choice.get("text")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        snippet = raw[:80].decode("utf-8", "replace")
        raise MalformedResponse(f"{type(exc).__name__} reading {snippet!r}") from None
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return str(text or ""), choice.get("finish_reason"), usage or {}
