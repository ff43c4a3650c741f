"""Flag parsers shared by the subcommands: each names what it expected when it refuses."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from core_bench.endpoint import Endpoint
from core_bench.errors import UsageError
from core_bench.runs import STRATEGIES, TASK_KINDS
from core_bench.suites import SUITES


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


POSITIVE = number(int, 1, "a positive whole number")
"""An argparse `type=`: a whole number >= 1."""
WHOLE = number(int, 0, "a whole number >= 0")
"""An argparse `type=`: a whole number >= 0."""
NON_NEGATIVE = number(float, 0.0, "a number >= 0")
"""An argparse `type=`: a number >= 0."""


def comma_list(allowed: tuple[str, ...]) -> Callable[[str], tuple[str, ...]]:
    """An argparse `type=` that reads a comma-separated list of `allowed` names (no repeats)."""

    def parse(text: str) -> tuple[str, ...]:
        items = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
        if not items or any(x not in allowed for x in items):
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {', '.join(allowed)}, got {text!r}"
            )
        return items

    return parse


def add_task_flags(parser: argparse.ArgumentParser, *, prefix: str = "") -> None:
    """--tasks and --strategies: the task kinds and prompting strategies to ask."""
    parser.add_argument(
        "--tasks",
        type=comma_list(TASK_KINDS),
        default=TASK_KINDS,
        help=f"{prefix}task kinds, comma-separated (default {','.join(TASK_KINDS)})",
    )
    parser.add_argument(
        "--strategies",
        type=comma_list(STRATEGIES),
        default=("direct",),
        help=f"{prefix}prompting strategies, comma-separated, of {','.join(STRATEGIES)} "
        "(default direct)",
    )


def add_suite_flags(parser: argparse.ArgumentParser, *, default: str | None, help: str) -> None:
    """--suite and --suite-seed: the seeded subset of the benchmark (`core_bench.suites`)."""
    parser.add_argument("--suite", choices=SUITES, default=default, help=help)
    parser.add_argument(
        "--suite-seed",
        type=WHOLE,
        default=0,
        help="seed of the suite's selection of problems, variants and probes (default 0)",
    )


def read_system_prompt(value: str | None) -> str | None:
    """--system-prompt's text: the value itself, or with `@FILE` the file's text.

    Raises:
        UsageError: the file cannot be read.
    """
    if value is None or not value.startswith("@"):
        return value
    try:
        return Path(value[1:]).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise UsageError(f"--system-prompt {value}: cannot read: {exc.strerror or exc}") from None


def check_top_p(top_p: float | None) -> None:
    """Refuse a --top-p outside (0, 1] (argparse's `number` has no upper bound)."""
    if top_p is not None and not 0 < top_p <= 1:
        raise UsageError(f"--top-p: expected a number in (0, 1], got {top_p}")


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
        type=NON_NEGATIVE,
        default=0.0,
        help="sampling temperature (default 0)",
    )
    group.add_argument(
        "--top-p", type=number(float, 0.0, "a number in (0, 1]"), help="nucleus sampling"
    )
    group.add_argument(
        "--max-tokens",
        type=POSITIVE,
        default=max_tokens,
        help=f"most tokens per response (default {max_tokens})",
    )
    group.add_argument(
        "--concurrency",
        type=POSITIVE,
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
        type=WHOLE,
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


def endpoint_settings(args: argparse.Namespace) -> Endpoint:
    """What the endpoint flags (`add_endpoint_flags`) and --system-prompt ask: the `Endpoint`
    of `RunConfig` and `AuthorOptions` (each command reads the sampling flags into its own
    shape; the key comes from the environment).

    Raises:
        UsageError: --top-p out of range, or an unreadable --system-prompt file.
    """
    check_top_p(args.top_p)
    return Endpoint(
        api=args.api,
        base_urls=tuple(args.base_url),
        system_prompt=read_system_prompt(args.system_prompt),
        concurrency=args.concurrency,
        timeout_s=args.request_timeout,
        retries=args.retries,
        backoff_s=args.backoff,
        stream=args.stream,
    )
