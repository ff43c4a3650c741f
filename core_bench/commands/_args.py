"""Flag parsers shared by the subcommands: each names what it expected when it refuses."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def number(kind: type[int] | type[float], low: float, what: str) -> Callable[[str], int | float]:
    """An argparse `type=` that reads an int or float of at least `low`."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


def add_endpoint_flags(
    parser: argparse.ArgumentParser,
    *,
    timeout_flag: str = "--timeout",
    max_tokens: int = 1024,
    title: str = "model endpoint (openai:<name>)",
) -> argparse._ArgumentGroup:
    """The flags of an OpenAI-compatible endpoint, as `core-bench run` has them: --base-url,
    --api, --temperature, --top-p, --max-tokens, --concurrency, the request timeout (named
    `timeout_flag`: `build` keeps --timeout for sandboxed calls), --retries, --backoff,
    --stream. Returns the group, for a command's own endpoint flags."""
    group = parser.add_argument_group(title)
    group.add_argument(
        "--base-url",
        action="append",
        default=[],
        metavar="URL",
        help="server base URL, e.g. http://localhost:8000/v1; repeat for replicas (requests "
        "go to the least loaded); default $OPENAI_BASE_URL, else OpenAI's API. The key is "
        "read from $OPENAI_API_KEY",
    )
    group.add_argument(
        "--api",
        choices=("chat", "completions"),
        default="chat",
        help="chat completions (default) or the completions API for base models",
    )
    group.add_argument(
        "--temperature",
        type=number(float, 0.0, "a number >= 0"),
        default=0.0,
        help="sampling temperature (default 0)",
    )
    group.add_argument(
        "--top-p", type=number(float, 0.0, "a number in (0, 1]"), help="nucleus sampling"
    )
    group.add_argument(
        "--max-tokens",
        type=number(int, 1, "a positive whole number"),
        default=max_tokens,
        help=f"most tokens per response (default {max_tokens})",
    )
    group.add_argument(
        "--concurrency",
        type=number(int, 1, "a positive whole number"),
        default=16,
        help="requests in flight at most (default 16)",
    )
    group.add_argument(
        timeout_flag,
        dest="request_timeout",
        metavar="SECONDS",
        type=number(float, 0.001, "a positive number of seconds"),
        default=120.0,
        help="seconds per request attempt (default 120)",
    )
    group.add_argument(
        "--retries",
        type=number(int, 0, "a whole number >= 0"),
        default=6,
        help="retries on 429, 5xx, connection errors and timeouts (default 6)",
    )
    group.add_argument(
        "--backoff",
        type=number(float, 0.0, "a number of seconds >= 0"),
        default=1.0,
        help="first retry's backoff in seconds, doubled per retry, jittered (default 1)",
    )
    group.add_argument("--stream", action="store_true", help="ask for streamed responses")
    return group
