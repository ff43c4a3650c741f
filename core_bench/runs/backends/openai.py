"""`openai:<name>`: an OpenAI-compatible server (OpenAI, vLLM, llama.cpp, ...)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from core_bench.runs._backend import Backend, register_backend
from core_bench.runs._client import OPENAI_BASE_URL, OpenAIBackend
from core_bench.runs._retry import RetryPolicy

if TYPE_CHECKING:
    from core_bench.runs._config import RunConfig


@register_backend
class OpenAI:
    """Models served over the OpenAI API (chat or completions), by one or more replicas."""

    scheme = "openai"
    usage = "openai:<name>"

    def accepts(self, name: str) -> bool:
        """Any non-empty model name."""
        return bool(name)

    def resolve(self, config: RunConfig) -> RunConfig:
        """Base URLs and the key from `OPENAI_BASE_URL` / `OPENAI_API_KEY` when unset.

        Raises:
            ValueError: OpenAI's own API is used and no key is set.
        """
        endpoint = config.endpoint
        urls = endpoint.base_urls or (os.environ.get("OPENAI_BASE_URL") or OPENAI_BASE_URL,)
        urls = tuple(u.rstrip("/") for u in urls)
        key = endpoint.api_key or os.environ.get("OPENAI_API_KEY", "")
        if not key:
            if any("api.openai.com" in u for u in urls):
                raise ValueError("OPENAI_API_KEY is not set (needed for api.openai.com)")
            key = "EMPTY"  # local servers (vLLM, llama.cpp) accept any key
        return replace(config, endpoint=replace(endpoint, base_urls=urls, api_key=key))

    def make(self, name: str, config: RunConfig) -> Backend:
        """A client of `config`'s servers."""
        endpoint = config.endpoint
        return OpenAIBackend(
            name,
            endpoint.base_urls,
            api_key=endpoint.api_key,
            api=endpoint.api,
            sampling=config.sampling,
            timeout_s=endpoint.timeout_s,
            policy=RetryPolicy(retries=endpoint.retries, base_s=endpoint.backoff_s),
            concurrency=endpoint.concurrency,
            stream=endpoint.stream,
            stop=config.stop,
        )
