"""Tables of transform test cases: a test module lists its cases in one table,
`CASES = cases(name=Rewrite(...), ...)`, each case one of `Rewrite` (or `Rewrites`, one source
with several seeds), `Declines`, `KeepsLines` and `Equivalent`, and checks them all with
(the conftest parametrizes `case` by the module's `CASES`)

    def test_case(case: Case) -> None:
        case.check()

Each case's `check()` is one of `transform_testing`'s assertions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pytest
from transform_testing import (
    TransformSpec,
    assert_declines,
    assert_equivalent,
    assert_equivalent_over_seeds,
    assert_keeps_lines,
    assert_transform,
)

from transforms._base import TransformResult

Calls = Sequence[Sequence[Any] | str]


@dataclass(frozen=True)
class Rewrite:
    """`spec` turns `before` into exactly `after` (with `seed` and `options`); with `calls`,
    `before` and `after` also behave the same on each of them; with `back_seed`, `spec` also
    turns `after` back into exactly `before` (with that seed)."""

    spec: TransformSpec
    before: str
    after: str
    calls: Calls = ()
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    back_seed: int | None = None

    def check(self) -> TransformResult:
        """Check the case; the transform's result, for a test to check more of it."""
        result = assert_transform(
            self.spec, self.before, self.after, seed=self.seed, **self.options
        )
        if self.back_seed is not None:
            assert_transform(
                self.spec, self.after, self.before, seed=self.back_seed, **self.options
            )
        if self.calls:
            assert_equivalent(self.before, self.after, self.calls)
        return result


@dataclass(frozen=True)
class Rewrites:
    """`spec` turns `before` into exactly `afters[seed]` with each seed; with `calls`, each
    output also behaves like `before` on each of them."""

    spec: TransformSpec
    before: str
    afters: Mapping[int, str]
    calls: Calls = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        for seed, after in self.afters.items():
            Rewrite(self.spec, self.before, after, self.calls, seed, self.options).check()


@dataclass(frozen=True)
class Declines:
    """`spec` returns None on `source`, whatever the seed."""

    spec: TransformSpec
    source: str
    seeds: Iterable[int] = range(5)

    def check(self) -> None:
        assert_declines(self.spec, self.source, seeds=self.seeds)


@dataclass(frozen=True)
class KeepsLines:
    """`spec` applies to `source` and keeps each line of `kept` as it was, whatever the seed."""

    spec: TransformSpec
    source: str
    kept: Sequence[str]
    seeds: Iterable[int] = range(5)

    def check(self) -> None:
        assert_keeps_lines(self.spec, self.source, self.kept, seeds=self.seeds)


@dataclass(frozen=True)
class Equivalent:
    """Every output of `spec` on `source` over `seeds` behaves like `source` on `calls`."""

    spec: TransformSpec
    source: str
    calls: Calls
    seeds: Iterable[int] = range(8)

    def check(self) -> None:
        assert_equivalent_over_seeds(self.spec, self.source, self.calls, seeds=self.seeds)


def declines(spec: TransformSpec, *sources: str, seeds: Iterable[int] = range(5)) -> list[Declines]:
    """One `Declines` case per source."""
    return [Declines(spec, source, seeds) for source in sources]


class Case(Protocol):
    """A row of a table: `check()` asserts it (a test module may add its own kinds)."""

    def check(self) -> object: ...


def cases(**named: Case | Sequence[Case]) -> list[Any]:
    """The parameters of a table of cases, each with its name as the test id; a name given a
    sequence of cases numbers them (`name-0`, `name-1`, ...)."""
    params = []
    for name, found in named.items():
        if isinstance(found, Sequence):
            params += [pytest.param(c, id=f"{name}-{i}") for i, c in enumerate(found)]
        else:
            params.append(pytest.param(found, id=name))
    return params
