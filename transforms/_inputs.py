"""More calls for a problem, by type-preserving mutation of the calls it already has.

A problem's own calls (CRUXEval gives one) are too few to show that a variant behaves like its
original. `generate_calls` derives new ones: it parses each call, mutates the literal arguments
without changing their types (an int stays an int, a list of strings stays a list of strings,
a tuple keeps its length), renders them back as literals, and keeps the calls on which the
original function finishes within the limits.

Which calls are kept:

- A call on which the original returns ("ok") is kept.
- A call on which the original raises is kept only up to `max_raising` per problem (two by
  default): equivalence checks also compare exception types, and a raising call exercises the
  error paths of a variant, but a problem's calls should mostly say what the function computes.
- A call that times out, exceeds the memory limit, crashes the worker, or whose result is not
  a plain literal of bounded size is dropped: it cannot be compared reliably.

Candidates are run traced, so that the step limit (`max_steps`) stops a call that runs too
long at the same point on every run, where a wall-clock timeout would depend on the machine's
load; a call whose trace is cut at the limit is dropped. This also guarantees that every kept
call can be traced in full, which probes need. The result is deterministic: the random choices
come from `seed` and the problem's code, and the outcomes of traced calls do not depend on
timing (the timeout remains only as a safety net).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from tracer import Call, Outcome, SandboxPool, TraceError

__all__ = [
    "candidate_calls",
    "generate_call_outcomes",
    "generate_calls",
    "parse_call",
    "render_literal",
]

_DEFAULT_ALPHABET = "abc"
_SMALL_ALPHABET = 6
_CLASSES = ("0123456789", "abcxyz", "ABCXYZ")
_MAX_RESULT_CHARS = 2_000
_MAX_STR_LEN = 60
_MAX_CONTAINER_LEN = 20
_NOTHING = object()


def parse_call(call: str) -> Call:
    """Read a call expression into `tracer.Call`, for deriving new calls from it.

    An argument counts as a literal only when `render_literal` can write it back (a finite
    float, builtin containers of such values): others are copied unchanged into every
    derived call, as are module-level names and `*`/`**` unpacking.

    Raises:
        TraceError: `call` is not a call expression.
    """
    parsed = Call.read(call)
    args = tuple(
        a if not a.literal or _renderable(a.value) else replace(a, literal=False, value=None)
        for a in parsed.args
    )
    return replace(parsed, args=args)


def _renderable(value: Any) -> bool:
    t = type(value)
    if t is float:
        return math.isfinite(value)
    if t in (list, tuple, set, frozenset):
        return all(_renderable(v) for v in value)
    if t is dict:
        return all(_renderable(k) and _renderable(v) for k, v in value.items())
    return t in (int, bool, str, bytes, complex, type(None))


def render_literal(value: Any) -> str:
    """Render a literal value as Python source that `ast.literal_eval` reads back.

    Unlike `repr`, the text does not depend on hash randomisation: set elements are written in
    the sorted order of their renderings.

    Args:
        value: An int, bool, float, complex, str, bytes, None, or a list, tuple, set or dict
            of those.

    Returns:
        The source text.
    """
    t = type(value)
    if t is list:
        return "[" + ", ".join(render_literal(v) for v in value) + "]"
    if t is tuple:
        inner = ", ".join(render_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if t is dict:
        items = (f"{render_literal(k)}: {render_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if t in (set, frozenset):
        if not value:
            return "set()"
        return "{" + ", ".join(sorted(render_literal(v) for v in value)) + "}"
    return repr(value)


@dataclass(slots=True)
class _Context:
    """What the mutator knows about a problem's inputs: its characters and its atoms."""

    rng: random.Random
    alphabet: str
    ints: list[int] = field(default_factory=list)
    elements: dict[int, list[Any]] = field(default_factory=dict)


def _collect(value: Any, chars: set[str], ints: set[int], depth: int = 0) -> None:
    t = type(value)
    if t is str:
        chars.update(value)
    elif t is int:
        ints.add(value)
    elif t is dict and depth < 8:
        for k, v in value.items():
            _collect(k, chars, ints, depth + 1)
            _collect(v, chars, ints, depth + 1)
    elif t in (list, tuple, set) and depth < 8:
        for v in value:
            _collect(v, chars, ints, depth + 1)


def _sorted_values(values: Any) -> list[Any]:
    """Set elements in a hash-independent order."""
    return sorted(values, key=render_literal)


def _make_context(parsed: Sequence[Call], rng: random.Random) -> _Context:
    chars: set[str] = set()
    ints: set[int] = set()
    elements: dict[int, list[Any]] = {}
    for call in parsed:
        for i, arg in enumerate(call.args):
            if not arg.literal:
                continue
            _collect(arg.value, chars, ints)
            if type(arg.value) in (list, tuple, set):
                items = arg.value if type(arg.value) is not set else _sorted_values(arg.value)
                elements.setdefault(i, []).extend(items)
    if len(chars) < _SMALL_ALPHABET:
        # Too few characters to vary on: add characters of the same classes (digits for
        # digits, letters of the same case for letters), so a digit string stays a digit
        # string and `isdigit`-like tests keep their outcome class.
        chars |= {c for cls in _CLASSES if any(ch in cls for ch in chars) for c in cls}
    alphabet = "".join(sorted(chars)) or _DEFAULT_ALPHABET
    return _Context(rng, alphabet, sorted(ints)[:50], elements)


def _mutate_int(value: int, ctx: _Context) -> int:
    rng = ctx.rng
    options: list[Callable[[], int]] = [
        lambda: value + 1,
        lambda: value - 1,
        lambda: value + rng.randint(2, 10),
        lambda: value - rng.randint(2, 10),
        lambda: 0,
        lambda: -value,
        lambda: value * 2,
        lambda: value // 2,
    ]
    if ctx.ints:
        options.append(lambda: rng.choice(ctx.ints))
    return rng.choice(options)()


def _mutate_float(value: float, ctx: _Context) -> float:
    rng = ctx.rng
    options: list[Callable[[], float]] = [
        lambda: value + rng.choice((-1.0, 1.0, 0.5, -0.5)),
        lambda: -value,
        lambda: 0.0,
        lambda: value * 2,
        lambda: round(value / 2, 3),
    ]
    result = rng.choice(options)()
    return result if math.isfinite(result) else value


def _mutate_str(value: str, ctx: _Context) -> str:
    rng = ctx.rng
    if len(value) == 1 and rng.random() < 0.7:
        # A one-character string is usually a character parameter (a separator, a letter to
        # find): mostly keep it one character long.
        return rng.choice((rng.choice(ctx.alphabet), value.swapcase()))
    ops: list[Callable[[str], str]] = [
        lambda s: _insert(s, rng.choice(ctx.alphabet), rng),
        lambda s: _delete(s, rng),
        lambda s: _replace(s, rng.choice(ctx.alphabet), rng),
        lambda s: _swap(s, rng),
        lambda s: _swapcase_one(s, rng),
        lambda s: s + s[: rng.randint(1, 3)],
    ]
    if rng.random() < 0.08:
        return ""
    result = value
    for _ in range(rng.randint(1, 2)):
        result = rng.choice(ops)(result)
    return result[:_MAX_STR_LEN]


def _insert(s: str, ch: str, rng: random.Random) -> str:
    i = rng.randint(0, len(s))
    return s[:i] + ch + s[i:]


def _delete(s: str, rng: random.Random) -> str:
    if not s:
        return s
    i = rng.randrange(len(s))
    return s[:i] + s[i + 1 :]


def _replace(s: str, ch: str, rng: random.Random) -> str:
    if not s:
        return ch
    i = rng.randrange(len(s))
    return s[:i] + ch + s[i + 1 :]


def _swap(s: str, rng: random.Random) -> str:
    if len(s) < 2:
        return s
    i = rng.randrange(len(s) - 1)
    return s[:i] + s[i + 1] + s[i] + s[i + 2 :]


def _swapcase_one(s: str, rng: random.Random) -> str:
    if not s:
        return s
    i = rng.randrange(len(s))
    return s[:i] + s[i].swapcase() + s[i + 1 :]


def _mutate_bytes(value: bytes, ctx: _Context) -> bytes:
    mutated = _mutate_str(value.decode("latin-1"), ctx)
    return mutated.encode("latin-1", errors="replace")


def _new_element(items: list[Any], ctx: _Context, position: int | None, depth: int) -> Any:
    """An element of the same kind as the container's own (or as its position's peers).

    Returns `_NOTHING` when there is no element to model the new one on.
    """
    pool = items or (ctx.elements.get(position, []) if position is not None else [])
    if pool:
        return _mutate(ctx.rng.choice(pool), ctx, depth + 1)
    if depth > 0:
        return _NOTHING
    # An empty top-level container says nothing about its elements: try a small int or a
    # character of the problem's alphabet, and let running the original decide.
    return _small_atom(ctx)


def _small_atom(ctx: _Context) -> int | str:
    rng = ctx.rng
    return rng.choice((rng.randint(-3, 9), rng.choice(ctx.alphabet)))


def _mutate_list(value: list[Any], ctx: _Context, position: int | None, depth: int) -> list[Any]:
    rng = ctx.rng
    items = list(value)
    op = rng.randrange(7) if items else 6
    if op == 0:
        i = rng.randrange(len(items))
        items[i] = _mutate(items[i], ctx, depth + 1)
    elif op == 1:
        items = [_mutate(v, ctx, depth + 1) if rng.random() < 0.5 else v for v in items]
    elif op == 2:
        rng.shuffle(items)
    elif op == 3:
        del items[rng.randrange(len(items))]
    elif op == 4:
        items.reverse()
    elif op == 5 and rng.random() < 0.25:
        items = []
    else:
        new = _new_element(value, ctx, position, depth)
        if new is not _NOTHING:
            items.insert(rng.randint(0, len(items)), new)
    return items[:_MAX_CONTAINER_LEN]


def _mutate_tuple(value: tuple[Any, ...], ctx: _Context, depth: int) -> tuple[Any, ...]:
    # A tuple is often a record (a pair, a range): keep its length and mutate its elements.
    if not value:
        return value
    rng = ctx.rng
    items = list(value)
    i = rng.randrange(len(items))
    items[i] = _mutate(items[i], ctx, depth + 1)
    return tuple(items)


def _mutate_dict(value: dict[Any, Any], ctx: _Context, depth: int) -> dict[Any, Any]:
    rng = ctx.rng
    items = list(value.items())
    if not items and depth == 0:
        # As for empty lists: nothing to model a new entry on, so try small atoms.
        return {_small_atom(ctx): _small_atom(ctx) for _ in range(rng.randint(1, 3))}
    op = rng.randrange(5) if items else 4
    if op == 0:
        i = rng.randrange(len(items))
        items[i] = (items[i][0], _mutate(items[i][1], ctx, depth + 1))
    elif op == 1:
        del items[rng.randrange(len(items))]
    elif op == 2:
        i = rng.randrange(len(items))
        items[i] = (_mutate(items[i][0], ctx, depth + 1), items[i][1])
    elif op == 3 and rng.random() < 0.25:
        items = []
    elif items:
        key, val = rng.choice(items)
        items.append((_mutate(key, ctx, depth + 1), _mutate(val, ctx, depth + 1)))
    result: dict[Any, Any] = {}
    for k, v in items[:_MAX_CONTAINER_LEN]:
        try:
            result[k] = v
        except TypeError:  # a mutated key can never become unhashable, but stay safe
            continue
    return result


def _mutate_set(value: set[Any], ctx: _Context, position: int | None, depth: int) -> set[Any]:
    rng = ctx.rng
    items = _sorted_values(value)
    op = rng.randrange(3) if items else 0
    if op == 0:
        new = _new_element(items, ctx, position, depth)
        if new is not _NOTHING:
            items.append(new)
    elif op == 1:
        del items[rng.randrange(len(items))]
    else:
        i = rng.randrange(len(items))
        items[i] = _mutate(items[i], ctx, depth + 1)
    return set(items[:_MAX_CONTAINER_LEN])


def _mutate(value: Any, ctx: _Context, depth: int = 0, position: int | None = None) -> Any:
    """A value of the same type as `value`, usually different from it."""
    if depth > 6:
        return value
    t = type(value)
    if t is bool:
        return not value if ctx.rng.random() < 0.7 else value
    if t is int:
        return _mutate_int(value, ctx)
    if t is float:
        return _mutate_float(value, ctx)
    if t is str:
        return _mutate_str(value, ctx)
    if t is bytes:
        return _mutate_bytes(value, ctx)
    if t is list:
        return _mutate_list(value, ctx, position, depth)
    if t is tuple:
        return _mutate_tuple(value, ctx, depth)
    if t is dict:
        return _mutate_dict(value, ctx, depth)
    if t is set:
        return _mutate_set(value, ctx, position, depth)
    return value


def _mutate_call(call: Call, ctx: _Context) -> str:
    """One derived call: a random non-empty subset of the literal arguments is mutated.

    The result may equal the original; the caller deduplicates.
    """
    rng = ctx.rng
    literal = [i for i, a in enumerate(call.args) if a.literal]
    if not literal:
        return call.render()
    chosen = {i for i in literal if rng.random() < 0.5} or {rng.choice(literal)}
    values = [
        _mutate(a.value, ctx, position=i) if i in chosen else a.value
        for i, a in enumerate(call.args)
    ]
    return call.render(values, write=render_literal)


def candidate_calls(calls: Sequence[str], *, count: int, seed: int, code: str = "") -> list[str]:
    """Derived calls not among `calls`, deterministic from `seed` and `code`, without running.

    Args:
        calls: The problem's own calls.
        count: How many distinct new calls to aim for (fewer when the arguments allow fewer).
        seed: Random seed.
        code: The problem's code; mixed into the seed so problems differ.

    Returns:
        Up to `count` new call expressions, in generation order. Calls that do not parse
        are left out of the derivation.
    """
    return list(_candidate_stream(calls, count=count, seed=seed, code=code))


def _candidate_stream(calls: Sequence[str], *, count: int, seed: int, code: str) -> Iterator[str]:
    """`candidate_calls`' calls one at a time, drawn only as they are asked for: a prefix of
    the stream is the same whatever is read of it."""
    parsed: list[Call] = []
    for call in calls:
        try:
            parsed.append(parse_call(call))
        except TraceError:  # not a call expression: nothing to derive from it
            continue
    if not parsed:
        return
    rng = random.Random(f"core-bench-inputs:{seed}:{code}")
    ctx = _make_context(parsed, rng)
    seen = {c.strip() for c in calls} | {p.render() for p in parsed}
    made = attempts = 0
    while made < count and attempts < count * 8:
        base = parsed[attempts % len(parsed)]
        attempts += 1
        new = _mutate_call(base, ctx)
        if new not in seen:
            seen.add(new)
            made += 1
            yield new


def _keep(outcome: Outcome) -> str | None:
    """'ok' or 'raise' for an outcome worth keeping, None for one to drop."""
    if outcome.trace is None or outcome.trace.truncated:
        return None
    if outcome.status == "ok":
        text = outcome.result or ""
        if len(text) > _MAX_RESULT_CHARS or not outcome.result_literal:
            return None
        return "ok"
    if outcome.status == "exception":
        return "raise"
    return None


def _run_traced(
    pool: SandboxPool,
    code: str,
    calls: list[str],
    timeout_s: float,
    memory_mb: int,
    max_steps: int,
) -> list[Outcome]:
    """Run calls traced; calls that crashed the worker are run once more, so that a worker's
    trouble does not decide which calls are kept."""
    outcomes = pool.run_batch(
        code, calls, timeout_s=timeout_s, memory_mb=memory_mb, trace=True, max_steps=max_steps
    )
    crashed = [i for i, o in enumerate(outcomes) if o.status == "crashed"]
    if crashed:
        again = pool.run_batch(
            code,
            [calls[i] for i in crashed],
            timeout_s=timeout_s,
            memory_mb=memory_mb,
            trace=True,
            max_steps=max_steps,
        )
        for i, outcome in zip(crashed, again, strict=True):
            outcomes[i] = outcome
    return outcomes


def generate_calls(code: str, calls: Sequence[str], **options: Any) -> list[str]:
    """The problem's calls followed by up to `n` new calls on which the original behaves.

    See `generate_call_outcomes`, which this calls, for the procedure and the arguments
    (`options` are its keyword arguments).

    Returns:
        ``list(calls)`` plus the kept new calls, in generation order.
    """
    kept = generate_call_outcomes(code, calls, **options)
    return [*calls, *(call for call, _ in kept)]


def generate_call_outcomes(
    code: str,
    calls: Sequence[str],
    *,
    n: int = 8,
    seed: int = 0,
    pool: SandboxPool | None = None,
    max_raising: int = 2,
    timeout_s: float = 2.0,
    memory_mb: int = 512,
    max_steps: int = 10_000,
    rounds: int = 3,
) -> list[tuple[str, Outcome]]:
    """Up to `n` new calls on which the original behaves, with the original's (traced)
    outcome on each, so a caller needs not run them again.

    New calls are derived by type-preserving mutation (`candidate_calls`, `rounds` times
    `2 * n + 4` of them) and run on the original in the sandbox, traced, in generation order.
    Calls that return within `max_steps` steps are kept, raising ones up to `max_raising`; the
    rest are dropped (see the module docstring), until `n` are kept or the candidates ran out.
    Each candidate is run at most once, and only while calls are still wanted: a batch holds
    about as many candidates as are still wanted at the rate kept so far (nearly every
    candidate is kept on CRUXEval), so few are run only to be discarded. The kept calls are
    the first `n` keepable candidates whatever the batches.

    Args:
        code: The problem's code (defines the entry function).
        calls: The problem's own calls, e.g. ``["f([1, 2], 3)"]``; returned first, unchanged.
        n: How many new calls to add.
        seed: Random seed; the same seed, code and calls give the same list.
        pool: The sandbox pool to run in; a temporary one is made when None.
        max_raising: At most this many kept new calls may raise on the original.
        timeout_s: Wall-clock limit per call.
        memory_mb: Memory limit of the worker.
        max_steps: Step limit per call.
        rounds: How many times `2 * n + 4` candidates to try at most.

    Returns:
        (call, outcome) of every kept new call, in generation order.
    """
    # One stream of candidates for every batch, so a later batch never repeats an earlier one.
    stream = _candidate_stream(calls, count=(2 * n + 4) * rounds, seed=seed, code=code)
    kept: list[tuple[str, Outcome]] = []
    raising = tried = 0
    with ExitStack() as stack:
        if pool is None:
            pool = stack.enter_context(SandboxPool(workers=1))
        while len(kept) < n:
            batch = list(islice(stream, _batch_size(n - len(kept), len(kept), tried)))
            if not batch:
                break
            tried += len(batch)
            outcomes = _run_traced(pool, code, batch, timeout_s, memory_mb, max_steps)
            for call, outcome in zip(batch, outcomes, strict=True):
                verdict = _keep(outcome)
                if verdict is None or len(kept) >= n:
                    continue
                if verdict == "raise":
                    if raising >= max_raising:
                        continue
                    raising += 1
                kept.append((call, outcome))
    return kept


def _batch_size(wanted: int, kept: int, tried: int) -> int:
    """How many candidates to run next for `wanted` more calls: as many as the rate kept so
    far says (all of them before any ran), and one more, since a round trip to the sandbox
    costs more than one call that was not needed."""
    if tried == 0 or kept == tried:
        return wanted + 1
    return math.ceil(wanted * tried / max(kept, 1)) + 1
