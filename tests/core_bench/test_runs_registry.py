"""Backends and reference agents are registries keyed by the spec's scheme and the agent's
name: a new one is one registration, and the run, the spec parser and the endpoint resolution
all find it there."""

from __future__ import annotations

import random
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest
from shared_builds import small_benchmark

import core_bench.runs.agents
import core_bench.runs.backends
from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.runs import (
    AGENTS,
    BACKENDS,
    Backend,
    Completion,
    ReferenceAgent,
    Request,
    RunConfig,
    Task,
    make_backend,
    parse_model,
    register_agent,
    register_backend,
    resolve_endpoint,
    run,
)


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return load_benchmark(small_benchmark(tmp_path_factory.getbasetemp()))


def modules(package: object) -> set[str]:
    folder = Path(package.__file__).parent  # type: ignore[attr-defined]
    return {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}


def test_the_registries_hold_one_entry_per_module_of_their_package() -> None:
    assert {name.replace("-", "_") for name in AGENTS} == modules(core_bench.runs.agents)
    assert {"oracle", "superficial", "style-biased", "echo", "blind"} <= set(AGENTS)
    assert set(BACKENDS) == modules(core_bench.runs.backends)
    assert {"openai", "ref"} <= set(BACKENDS)
    assert parse_model("ref:blind") == ("ref", "blind")
    assert parse_model("openai:gpt-4o") == ("openai", "gpt-4o")


class Wrong:
    """A test agent: answers `None` to everything."""

    name = "always-none"
    traced = False

    def answer(self, task: Task, rng: random.Random, trace: str) -> tuple[str, str]:
        value = "None" if task.kind != "output" else f"assert {task.call} == None"
        return value, "[Return] None"


def test_a_registered_agent_runs_like_the_others(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(AGENTS, "_entries", dict(AGENTS))  # restored after the test
    register_agent(Wrong)
    assert parse_model("ref:always-none") == ("ref", "always-none")
    with pytest.raises(ValueError, match="always-none"):
        parse_model("ref:nobody")
    config = RunConfig(
        model="ref:always-none", bench=bench.root, out=tmp_path / "r", tasks=("output",)
    )
    result = run(config, benchmark=bench, progress=False)
    assert result.samples and {s.answer for s in result.samples} == {"None"}
    assert {s.verdict for s in result.samples} <= {"correct", "wrong"}
    assert isinstance(make_backend(config), ReferenceAgent)


class Constant:
    """A test backend answering every request with the text after `const:`."""

    api = "chat"
    durable = False

    def __init__(self, text: str) -> None:
        self.spec = f"const:{text}"
        self.text = text
        self.base_urls: tuple[str, ...] = ()
        self.retries = 0
        self.closed = False

    def params(self, sample_index: int) -> dict[str, object]:
        return {}

    def task_key(self, task: Task) -> str | None:
        return None

    async def prepare(self, requests: object, pool: object, timeout_s: float) -> None:
        pass

    async def complete(self, request: Request) -> Completion:
        call = request.task.call
        return Completion(f"[ANSWER]\nassert {call} == {self.text}\n[/ANSWER]", "stop")

    async def aclose(self) -> None:
        self.closed = True


class ConstantKind:
    scheme = "const"
    usage = "const:<python literal>"

    def accepts(self, name: str) -> bool:
        return bool(name)

    def resolve(self, config: RunConfig) -> RunConfig:
        return replace(config, endpoint=replace(config.endpoint, base_urls=("here",)))

    def make(self, name: str, config: RunConfig) -> Backend:
        return Constant(name)


def test_a_registered_backend_is_found_by_its_scheme(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(BACKENDS, "_entries", dict(BACKENDS))
    with pytest.raises(ValueError, match="expected openai:<name> or ref:<agent>"):
        parse_model("const:1")
    register_backend(ConstantKind)
    assert parse_model("const:1") == ("const", "1")
    with pytest.raises(ValueError, match="or const:<python literal>"):
        parse_model("nothing:1")
    config = RunConfig(model="const:1", bench=bench.root, out=tmp_path / "r", tasks=("output",))
    assert resolve_endpoint(config).endpoint.base_urls == ("here",)
    result = run(config, benchmark=bench, progress=False)
    assert result.samples and {s.answer for s in result.samples} == {"1"}
    assert result.manifest.model == "const:1"


def test_registering_a_taken_name_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Impostor(Wrong):
        name = "oracle"

    monkeypatch.setattr(AGENTS, "_entries", dict(AGENTS))
    with pytest.raises(ValueError, match="reference agent 'oracle' is registered twice"):
        register_agent(Impostor)


def test_a_registry_reads_its_package_and_a_broken_module_fails_every_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core_bench.runs._registry import Registry

    package = tmp_path / "plugins_for_test"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text("from host_for_test import THINGS\nTHINGS.register('a')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    things: Registry[str] = Registry("thing", "plugins_for_test", lambda name: name)
    host = types.ModuleType("host_for_test")
    host.THINGS = things  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "host_for_test", host)
    assert list(things) == ["a"] and things["a"] == "a" and len(things) == 1

    (package / "two.py").write_text("raise RuntimeError('broken plugin')\n")
    broken: Registry[str] = Registry("thing", "plugins_for_test", lambda name: name)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="broken plugin"):
            list(broken)
