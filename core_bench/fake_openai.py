"""A small OpenAI-compatible HTTP server for tests and benchmarks (standard library only).

    with FakeOpenAI(answers={"prompt text": "[ANSWER]\\n3\\n[/ANSWER]"}) as server:
        client = openai.OpenAI(base_url=server.url, api_key="x")

It serves POST /v1/chat/completions (plain and streamed) and POST /v1/completions on
127.0.0.1 with a free port, answers from a dictionary keyed on the prompt (the last user message
of a chat request, or the completion prompt), counts requests per prompt, and injects faults on
demand: scripted for the next requests or for one prompt, or drawn with a seeded probability.

Like a real model that goes on past its answer, it can `ramble`: append text after the answer
up to the request's `max_tokens` (finish_reason "length"), unless `honour_stop` is on and the
request sends a stop sequence that occurs in the text (cut there, finish_reason "stop"). A
token is `TOKEN_CHARS` characters; `usage` counts the prompt and completion that way.

It ships in the package so that the tests and the `bench/` scripts share it (`bench/` never
imports `tests/`).
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from core_bench.schemas import Strategy

__all__ = [
    "DEFAULT_ANSWER",
    "FEWSHOT_RAMBLE",
    "RETRYABLE_FAULTS",
    "TOKEN_CHARS",
    "FakeOpenAI",
    "Fault",
    "FaultKind",
    "answers_for",
    "tasks_of",
]

FaultKind = Literal["429", "500", "503", "400", "drop", "slow", "malformed", "empty"]
RETRYABLE_FAULTS: tuple[FaultKind, ...] = ("429", "500", "503", "drop", "slow", "malformed")
DEFAULT_ANSWER = "[ANSWER]\nNone\n[/ANSWER]"
TOKEN_CHARS = 4
"""Characters per token, for `max_tokens` and `usage`."""
FEWSHOT_RAMBLE = (
    "\n\n[PYTHON]\ndef f(x):\n    return x + 1\nassert f(1) == ??\n[/PYTHON]\n[ANSWER]\n"
)
"""What a base model writes after its answer when nothing stops it: the next example."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One injected failure.

    Attributes:
        kind: "429" (with Retry-After), "500", "503", "400", "drop" (close the connection
            without answering), "slow" (answer after `slow_s`), "malformed" (a 200 whose body is
            not JSON) or "empty" (a 200 whose message content is empty).
        retry_after: the Retry-After header of a 429, in seconds.
    """

    kind: FaultKind
    retry_after: float = 0.0


def _fault(item: Fault | str) -> Fault:
    return item if isinstance(item, Fault) else Fault(item)  # type: ignore[arg-type]


class FakeOpenAI:
    """The server; start it with `with FakeOpenAI(...) as server:` or `start()`/`close()`.

    Args:
        answers: prompt -> response text, or a function of the prompt; unknown prompts get
            `default`.
        default: the answer to a prompt `answers` does not know.
        fault_rate: probability that a request (not otherwise scripted) gets a random fault.
        fault_kinds: the faults drawn when `fault_rate` > 0.
        seed: seed of those draws.
        slow_s: how long a "slow" answer takes.
        latency_s: delay before every answer.
        retry_after: Retry-After seconds sent with random 429s.
        honour_stop: cut each answer at the first stop sequence the request sends.
        ramble: text repeated after each answer up to the request's `max_tokens` (None: the
            answer alone, whatever its length).
        reject_stop: answer HTTP 400 to any request that sends stop sequences (as some
            reasoning-model APIs do).
        reject_params: more request parameters answered with HTTP 400 naming them (e.g.
            "stream_options", which older servers do not know).
    """

    def __init__(
        self,
        answers: Mapping[str, str] | Callable[[str], str] | None = None,
        *,
        default: str = DEFAULT_ANSWER,
        fault_rate: float = 0.0,
        fault_kinds: Iterable[FaultKind] = RETRYABLE_FAULTS,
        seed: int = 0,
        slow_s: float = 2.0,
        latency_s: float = 0.0,
        retry_after: float = 0.0,
        honour_stop: bool = False,
        ramble: str | None = None,
        reject_stop: bool = False,
        reject_params: Iterable[str] = (),
    ) -> None:
        self.answers = answers if answers is not None else {}
        self.default = default
        self.fault_rate = fault_rate
        self.fault_kinds = tuple(fault_kinds)
        self.slow_s = slow_s
        self.latency_s = latency_s
        self.retry_after = retry_after
        self.honour_stop = honour_stop
        self.ramble = ramble
        self.reject_stop = reject_stop
        self.reject_params = tuple(reject_params) + (("stop",) if reject_stop else ())
        self.counts: Counter[str] = Counter()
        """Requests per prompt (faulty ones included)."""
        self.statuses: Counter[str] = Counter()
        """How requests ended: "200", "429", "drop", ... ("stream" for streamed answers)."""
        self.bodies: list[dict[str, Any]] = []
        """Every request body, in arrival order."""
        self.paths: Counter[str] = Counter()
        self.keys: Counter[str] = Counter()
        """The Authorization headers seen."""
        self.log: list[tuple[str, str]] = []
        """(prompt, how the request ended) of every request, in the order they ended."""
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._script: list[Fault] = []
        self._per_prompt: dict[str, list[Fault]] = {}
        self._server: ThreadingHTTPServer | None = None
        self._port: int | None = None
        self._thread: threading.Thread | None = None

    # -- control -------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port the server listens (or listened) on."""
        if self._port is None:
            raise RuntimeError("the server is not started")
        return self._port

    @property
    def url(self) -> str:
        """The base URL, as `--base-url` takes it: http://127.0.0.1:PORT/v1."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def total(self) -> int:
        """Number of requests received."""
        with self._lock:
            return sum(self.counts.values())

    def script(self, *faults: Fault | FaultKind) -> None:
        """The next requests (any prompt), in arrival order, get these faults."""
        with self._lock:
            self._script.extend(_fault(f) for f in faults)

    def fail_prompt(self, prompt: str, *faults: Fault | FaultKind) -> None:
        """The next requests for `prompt` get these faults, in order."""
        with self._lock:
            self._per_prompt.setdefault(prompt, []).extend(_fault(f) for f in faults)

    def reset_counts(self) -> None:
        """Forget the counts and bodies seen so far."""
        with self._lock:
            self.counts.clear()
            self.statuses.clear()
            self.bodies.clear()
            self.paths.clear()
            self.log.clear()

    def start(self) -> FakeOpenAI:
        """Listen on 127.0.0.1 with a free port and serve in a daemon thread."""
        handler = type("Handler", (_Handler,), {"fake": self})
        server = _Server(("127.0.0.1", 0), handler)
        self._server = server
        self._port = int(server.server_address[1])
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- what a request gets ---------------------------------------------------------------

    def _decide(self, prompt: str, body: dict[str, Any], path: str, auth: str) -> Fault | None:
        with self._lock:
            self.keys[auth] += 1
            self.counts[prompt] += 1
            self.bodies.append(body)
            self.paths[path] += 1
            queued = self._per_prompt.get(prompt)
            if queued:
                return queued.pop(0)
            if self._script:
                return self._script.pop(0)
            if self.fault_rate and self._rng.random() < self.fault_rate:
                kind = self._rng.choice(self.fault_kinds)
                return Fault(kind, self.retry_after if kind == "429" else 0.0)
        return None

    def answer(self, prompt: str) -> str:
        """The text the server answers `prompt` with."""
        if callable(self.answers):
            return self.answers(prompt)
        return self.answers.get(prompt, self.default)

    def generate(self, prompt: str, body: Mapping[str, Any]) -> tuple[str, str]:
        """(text, finish_reason) of a request: the answer, rambling on to `max_tokens` when
        `ramble` is set, cut at the first stop sequence when `honour_stop` is on."""
        text = self.answer(prompt)
        limit = body.get("max_tokens")
        if self.ramble and isinstance(limit, int) and limit > 0:
            room = limit * TOKEN_CHARS
            while len(text) < room:
                text += self.ramble
        stops = body.get("stop") or []
        if isinstance(stops, str):
            stops = [stops]
        if self.honour_stop and stops:
            cuts = [text.find(s) for s in stops if s and s in text]
            if cuts:
                text = text[: min(cuts)]
                limit = limit if isinstance(limit, int) else None
                if limit is None or len(text) <= limit * TOKEN_CHARS:
                    return text, "stop"
        if self.ramble and isinstance(limit, int) and len(text) >= limit * TOKEN_CHARS:
            return text[: limit * TOKEN_CHARS], "length"
        return text, "stop"

    def _note(self, prompt: str, status: str) -> None:
        with self._lock:
            self.statuses[status] += 1
            self.log.append((prompt, status))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512  # many clients connect at once; the default backlog (5) resets them

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up (timeouts, drops) are expected here


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers do
    fake: FakeOpenAI

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._json(400, {"error": {"message": "body is not JSON", "type": "invalid_request"}})
            return
        path = self.path.rstrip("/")
        if path.endswith("/chat/completions"):
            chat = True
            messages = body.get("messages") or []
            users = [m.get("content", "") for m in messages if m.get("role") == "user"]
            prompt = users[-1] if users else ""
        elif path.endswith("/completions"):
            chat = False
            prompt = str(body.get("prompt", ""))
        else:
            self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        fake = self.fake
        fault = fake._decide(prompt, body, path, self.headers.get("Authorization", ""))
        rejected = [name for name in fake.reject_params if body.get(name)]
        if rejected:
            fake._note(prompt, "400")
            message = f"Unsupported parameter: '{rejected[0]}' is not supported with this model."
            self._json(400, _error(message, "invalid_request_error"))
            return
        if fake.latency_s:
            time.sleep(fake.latency_s)
        text, finish = fake.generate(prompt, body)
        if fault is not None:
            kind = fault.kind
            fake._note(prompt, kind)
            if kind == "429":
                headers = {"Retry-After": _seconds(fault.retry_after)}
                self._json(429, _error("rate limited", "rate_limit_exceeded"), headers)
                return
            if kind in ("500", "503"):
                self._json(int(kind), _error("server error", "server_error"))
                return
            if kind == "400":
                self._json(400, _error("bad request", "invalid_request_error"))
                return
            if kind == "drop":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if kind == "malformed":
                self._raw(200, b'{"id": "x", "choices": [ {"message": ', "application/json")
                return
            if kind == "slow":
                time.sleep(fake.slow_s)
            if kind == "empty":
                text = ""
        else:
            fake._note(prompt, "stream" if body.get("stream") else "200")
        model = str(body.get("model", "fake"))
        if body.get("stream"):
            options = body.get("stream_options") or {}
            usage = _usage(prompt, text) if options.get("include_usage") else None
            self._stream(chat, model, text, finish, usage)
        elif chat:
            self._json(200, _chat_body(model, text, finish, prompt))
        else:
            self._json(200, _completion_body(model, text, finish, prompt))

    def _json(self, status: int, payload: object, headers: Mapping[str, str] = {}) -> None:
        self._raw(status, json.dumps(payload).encode(), "application/json", headers)

    def _raw(self, status: int, data: bytes, ctype: str, headers: Mapping[str, str] = {}) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (a "slow" answer past its timeout)
            self.close_connection = True

    def _stream(
        self,
        chat: bool,
        model: str,
        text: str,
        finish: str = "stop",
        usage: dict[str, int] | None = None,
    ) -> None:
        pieces = [text[i : i + 7] for i in range(0, len(text), 7)] or [""]
        events: list[dict[str, Any]] = []
        for piece in pieces:
            if chat:
                choice = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
                events.append(_envelope("chat.completion.chunk", model, [choice]))
            else:
                choice = {"index": 0, "text": piece, "finish_reason": None, "logprobs": None}
                events.append(_envelope("text_completion", model, [choice]))
        last: dict[str, Any] = {"index": 0, "finish_reason": finish}
        end: dict[str, Any] = {"delta": {}} if chat else {"text": "", "logprobs": None}
        last.update(end)
        kind = "chat.completion.chunk" if chat else "text_completion"
        events.append(_envelope(kind, model, [last]))
        if usage is not None:  # as OpenAI sends it: a last chunk with no choices
            events.append({**_envelope(kind, model, []), "usage": usage})
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for event in events:
                self._chunk(f"data: {json.dumps(event)}\n\n".encode())
            self._chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            self.close_connection = True

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _error(message: str, code: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": code, "code": code, "param": None}}


def _envelope(kind: str, model: str, choices: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "fake-1", "object": kind, "created": 0, "model": model, "choices": choices}


def _usage(prompt: str, text: str) -> dict[str, int]:
    given, made = -(-len(prompt) // TOKEN_CHARS), -(-len(text) // TOKEN_CHARS)
    return {"prompt_tokens": given, "completion_tokens": made, "total_tokens": given + made}


def _chat_body(model: str, text: str, finish: str = "stop", prompt: str = "") -> dict[str, Any]:
    message = {"role": "assistant", "content": text}
    body = _envelope(
        "chat.completion",
        model,
        [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
    )
    body["usage"] = _usage(prompt, text)
    return body


def _completion_body(
    model: str, text: str, finish: str = "stop", prompt: str = ""
) -> dict[str, Any]:
    choice = {"index": 0, "text": text, "finish_reason": finish, "logprobs": None}
    body = _envelope("text_completion", model, [choice])
    body["usage"] = _usage(prompt, text)
    return body


# -- answers for a benchmark (core-bench test support) ------------------------------------------


def tasks_of(
    benchmark: Any, *, strategies: tuple[Strategy, ...] = ("direct",), **options: Any
) -> Any:
    """The tasks a run makes of `benchmark` (mutant outputs found in a sandbox, as runs do)."""
    from core_bench.runs import make_tasks
    from tracer import SandboxPool

    def outputs(jobs: Any) -> list[list[str | None]]:
        return [
            [o.result if o.status == "ok" and o.result_literal else None for o in batch]
            for batch in pool.map(jobs)
        ]

    with SandboxPool(workers=1) as pool:
        return make_tasks(benchmark, strategies=strategies, mutant_outputs=outputs, **options)


def answers_for(
    tasks: Iterable[Any],
    *,
    agent: str = "oracle",
    api: str = "chat",
    system_prompt: str | None = None,
) -> dict[str, str]:
    """prompt -> what a reference agent answers, for every task: a server that answers like it.

    For the completions API the answer is what a base model would generate after the prompt's
    primer, up to the stop sequence.
    """
    from core_bench.runs import ReferenceAgent, prompts, render

    answerer = ReferenceAgent(agent)
    answers: dict[str, str] = {}
    for task in tasks:
        prompt = render(task, system_prompt=system_prompt)
        text = answerer.answer(task, 0)
        if api == "chat":
            answers[prompt.messages[-1]["content"]] = text
        else:
            answers[prompt.text] = text.removeprefix(prompt.primer).removesuffix(prompts.STOP)
    return answers
