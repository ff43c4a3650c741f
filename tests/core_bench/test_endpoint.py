"""`Endpoint`: the one description of a model server that runs and author builds share."""

from __future__ import annotations

from pathlib import Path

from core_bench.build import AuthorOptions, BuildOptions
from core_bench.endpoint import Endpoint
from core_bench.runs import RunConfig, default_out

ENDPOINT = Endpoint(
    api="completions",
    base_urls=("http://x/v1",),
    api_key="sk-secret",
    system_prompt="Be exact.",
    concurrency=3,
)


def test_public_settings_leave_out_the_key() -> None:
    public = ENDPOINT.public()
    assert "api_key" not in public
    assert "sk-secret" not in repr(public) and "sk-secret" not in repr(ENDPOINT)
    assert public["base_urls"] == ["http://x/v1"] and public["concurrency"] == 3


def test_a_run_config_writes_its_endpoint_flat_as_manifests_always_held_it() -> None:
    config = RunConfig(model="openai:m", bench=Path("b"), out=Path("o"), endpoint=ENDPOINT)
    public = config.public()
    assert sorted(public) == [
        "api",
        "backoff_s",
        "base_urls",
        "bench",
        "cache",
        "concurrency",
        "float_tolerance",
        "limit",
        "model",
        "out",
        "retries",
        "samples",
        "sampling",
        "stop",
        "strategies",
        "stream",
        "suite",
        "suite_seed",
        "system_prompt",
        "tasks",
        "timeout_s",
    ]
    assert public["system_prompt"] == "Be exact." and "sk-secret" not in repr(public)


def test_the_run_directory_name_is_the_one_runs_had_before_the_endpoint_type() -> None:
    # Pinned from the code before `Endpoint` (flat fields on RunConfig): rerunning the same
    # command after the refactor resumes the same directory.
    config = RunConfig(model="openai:m", bench=Path("b"), out=Path("o"), endpoint=ENDPOINT)
    assert default_out(config, "abc") == Path("runs/openai-m-7405b1cb36")


def test_a_build_manifest_never_holds_an_authors_key() -> None:
    options = BuildOptions(authors=AuthorOptions(models=("openai:m",), endpoint=ENDPOINT))
    authors = options.as_dict()["authors"]
    assert isinstance(authors, dict)
    assert authors["endpoint"]["base_urls"] == ["http://x/v1"]
    assert "api_key" not in authors["endpoint"] and "sk-secret" not in repr(options.as_dict())
