"""Looking again only at what a line can change, and reusing or patching the reprs of values
that did not change, gives exactly the fresh snapshots of every local at every step."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from tracer._trace import record

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")

CASES = {
    "alias mutated through another name": (
        """
        def f(a):
            b = a
            c = 0
            b.append(1)
            c += 1
            b[0] = 'x'
            return a
        """,
        "f([5, 6])",
    ),
    "augmented list is a mutation": (
        """
        def f(a):
            b = a
            n = 1
            b += [n]
            n += 1
            return a, n
        """,
        "f([0])",
    ),
    "helper mutates a caller's list": (
        """
        def push(xs, v):
            xs.append(v)

        def f(xs):
            k = 3
            push(xs, k)
            k = 4
            return xs
        """,
        "f([])",
    ),
    "nested list element changes": (
        """
        def f(grid):
            row = grid[0]
            row[0] = 9
            total = 0
            total += row[0]
            return grid
        """,
        "f([[1, 2], [3]])",
    ),
    "except name disappears": (
        """
        def f(x):
            try:
                y = 1 // x
            except ZeroDivisionError as e:
                y = -1
            z = y
            return z
        """,
        "f(0)",
    ),
    "names deleted": (
        """
        def f(x):
            y = x
            del y
            y = 2
            return y
        """,
        "f(1)",
    ),
    "dict reordered with the same items": (
        """
        def f(d):
            v = d.pop('a')
            d['a'] = v
            n = len(d)
            return d
        """,
        "f({'a': 1, 'b': 2})",
    ),
    "generator resumed after the consumer mutated its list": (
        """
        def gen(xs):
            for x in xs:
                yield len(xs)

        def f(xs):
            out = []
            for n in gen(xs):
                xs.append(n)
                if len(xs) > 4:
                    break
            return out, xs
        """,
        "f([1])",
    ),
    "dict values replaced by equal objects of other types": (
        """
        def f(d):
            d['a'] = True
            d['a'] = 1.0
            d['a'] = -0.0
            d['a'] = 0.0
            d['b'] = 10**30
            d['b'] += 1
            return d
        """,
        "f({'a': 1, 'b': 2})",
    ),
    "dict key re-inserted as an equal key of another type": (
        """
        def f(d):
            d[0] = 'x'
            v = d.pop(1); d[True] = v
            n = 0
            d[True] = 'z'
            v = d.pop(0); d[0] = v
            return d
        """,
        "f({0: 'a', 1: 'b'})",
    ),
    "container values that are not literals come and go": (
        """
        def f(xs, d):
            xs[0] = float('nan')
            d['k'] = float('inf')
            xs[1] = 2j
            xs[0] = 1.5
            d['k'] = 3
            xs[1] = 2
            return xs, d
        """,
        "f([1, 2, 3], {'k': 1, 'j': 0.5})",
    ),
    "flat list turns nested and back": (
        """
        def f(xs):
            inner = [1]
            xs[0] = inner
            inner.append(2)
            xs[0] = 2
            xs[1] = 'b'
            xs[0] = (3, 4)
            xs[0] = None
            return xs
        """,
        "f([0, 'a'])",
    ),
    "same length after pop and append": (
        """
        def f(xs, d):
            xs.pop(0)
            xs.append(5)
            d.popitem()
            d['z'] = 1
            s = {1, 2}
            s.discard(1)
            s.add(3)
            return xs, d, s
        """,
        "f([1, 2, 3], {'a': 1, 'b': 2})",
    ),
    "one container behind two names": (
        """
        def f(xs):
            ys = xs
            n = 0
            ys[0] = 7
            n += 1
            xs[1] = 8
            return xs, ys
        """,
        "f([1, 2])",
    ),
    "element change crosses the repr bound": (
        """
        def f(xs):
            xs[0] = 'x' * 990
            xs[0] = 'y'
            xs[1] = 'z' * 2000
            xs[1] = 'w'
            return len(xs)
        """,
        "f(['a', 'b', 'c'])",
    ),
    "dict loop of the benchmark": (
        """
        def f(n):
            counts = {}
            total = 0
            for i in range(n):
                key = i % 3
                counts[key] = counts.get(key, 0) + i
                total += key
            return total, len(counts)
        """,
        "f(12)",
    ),
    "class instances": (
        """
        class Counter:
            def __init__(self):
                self.n = 0

            def bump(self):
                self.n += 1
                return self

        def f(k):
            c = Counter()
            for _ in range(k):
                c.bump()
            return c.n
        """,
        "f(3)",
    ),
}


def same_traces(code: str, call: str) -> None:
    fast = record(code, call, max_steps=20_000, repr_limit=1000, incremental=True)
    full = record(code, call, max_steps=20_000, repr_limit=1000, incremental=False)
    assert json.dumps(fast.to_json()) == json.dumps(full.to_json())


@pytest.mark.parametrize("name", sorted(CASES))
def test_incremental_snapshots_equal_full_snapshots(name: str) -> None:
    code, call = CASES[name]
    same_traces(textwrap.dedent(code).lstrip("\n"), call)


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_incremental_snapshots_equal_full_snapshots_on_cruxeval() -> None:
    for line in Path(str(CRUXEVAL)).read_text().splitlines():
        row = json.loads(line)
        same_traces(row["code"], f"f({row['input']})")
