"""How an OpenAI-compatible server is asked: the settings `core-bench run` and
`core-bench build --authors` share (`RunConfig.endpoint`, `AuthorOptions.endpoint`).

Its own module, below `runs` and `build`: `runs` reads benchmarks, so `build` cannot import
`runs` when it loads, yet both describe their endpoint with this one type.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Api = Literal["chat", "completions"]
"""Chat completions, or the completions API (base models)."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where requests go and how they are sent; none of it changes what a model is asked
    except `api` and `system_prompt`.

    Attributes:
        api: "chat" or "completions" (base models).
        base_urls: replicas of the server (empty: `OPENAI_BASE_URL`, else OpenAI's).
        api_key: the key (empty: `OPENAI_API_KEY`); never written to disk.
        system_prompt: a system message put before every prompt, or None.
        concurrency: requests in flight at most.
        timeout_s: the limit of one request attempt.
        retries: retries of a request after its first attempt (on 429, 5xx, connection
            errors and timeouts).
        backoff_s: the first retry's backoff (doubling per retry, jittered).
        stream: ask for streamed responses.
    """

    api: Api = "chat"
    base_urls: tuple[str, ...] = ()
    api_key: str = field(default="", repr=False)
    system_prompt: str | None = None
    concurrency: int = 16
    timeout_s: float = 120.0
    retries: int = 6
    backoff_s: float = 1.0
    stream: bool = False

    def public(self) -> dict[str, Any]:
        """The settings as JSON values, without the API key (for manifests)."""
        data = asdict(self)
        data.pop("api_key")
        data["base_urls"] = list(self.base_urls)
        return data


__all__ = ["Api", "Endpoint"]
