"""Consistent renaming of locals, parameters and nested functions, in four styles.

A name is renamed only when every occurrence of it as a variable, anywhere in the module,
refers to a local of some function, lambda or comprehension; then all of its occurrences are
renamed together, so closures and comprehensions stay consistent and the rename map is exact.
Never renamed: globals (so the entry function `f`; the one exception is a module-level
helper whose name spells a renamed variable, `choose_occ` with `occ`, renamed with it when
the calls show it is not what they run), builtins, imported names, names in
`global`/`nonlocal` statements, class bodies (a class, its methods and its attributes keep
their names; a method's locals and parameters other than `self` are renamed like a
function's), keyword-only parameters, parameters that some call passes by keyword,
attribute names and keyword-argument names. Modules that
reach variables by name (`locals()`, `eval`, frames, `f"{x=}"`) or use `match` are declined.
New names collide with no identifier of the module, no builtin and no keyword.

The default styles give names a person would write for the variable's role
(`transforms._roles`: what it is assigned, the methods called on it, its place in loops and
subscripts, whether it is returned, and the types of the arguments the calls pass, which
`generate_variants` hands over); a name is never of a role the use contradicts, and a
variable whose role nothing tells gets a neutral name (`value`, `seq`), not a confident
wrong one; no new name is a respelling of another (`v` beside `val`), and when a neutral
role's names run out, plain names of no role follow (`y`, `z`; `other` in the long styles).
`input_...` names are for parameters only, names of what a function builds
(`result`, `running_total`) for locals only. Styles: short (the role's conventional
`i`, `s`, `xs`, `d`, `k`/`v`, else the name's initials), descriptive (`text`/`s`/`string`,
`items`/`arr`, `i`/`idx`, `ch`/`c`, `result`/`out`), abbreviated (`txt`, `lst`, `cnt`) and
verbose (`input_string`, `current_index`). Misleading names (a list called `count`) and
obfuscated ones (`lI1lI1`) are distractors, off by default.
"""

from __future__ import annotations

import functools
import keyword
import random
import re
from collections.abc import Sequence
from typing import ClassVar, cast

import libcst as cst
from libcst.metadata import Assignment, GlobalScope, MetadataWrapper

from tracer import Call, TraceError
from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    comment_mentions,
    resolves_locally,
)
from transforms._base import Family, Transform
from transforms._helper_names import ROLE_WORDS
from transforms._roles import argument_types, infer_roles, unambiguous_hints

# Names a person would write for a variable of each role (the usual short and long ones).
_DESCRIPTIVE: dict[str, list[str]] = {
    "index": ["i", "idx", "j", "pos", "index"],
    "counter": ["count", "n", "cnt"],
    "total": ["total", "amount"],
    "text": ["text", "s", "string", "word"],
    "list": ["items", "arr", "values", "lst", "elements"],
    "keys": ["keys", "key_list"],
    "largest": ["largest", "biggest", "max_val"],
    "smallest": ["smallest", "lowest", "min_val"],
    "dict": ["d", "mapping", "table", "lookup"],
    "set": ["seen", "unique", "visited", "members"],
    "number": ["n", "num", "x", "value", "k"],
    "length": ["n", "length", "size"],
    "item": ["item", "x", "elem", "e", "v"],
    "char": ["ch", "c", "char", "letter"],
    "key": ["k", "key"],
    "entry": ["v", "val", "value"],
    "function": ["helper", "check", "process", "apply"],
    "flag": ["found", "ok", "flag", "done"],
    "sequence": ["seq", "data", "sequence"],
    "value": ["x", "val", "value", "arg", "v"],
    "result": ["result", "res", "out", "ans", "output"],
}

# Abbreviations, as in quickly written code.
_ABBREVIATED: dict[str, list[str]] = {
    "index": ["idx", "ix", "pos"],
    "counter": ["cnt", "num", "n"],
    "total": ["tot", "acc"],
    "text": ["txt", "s", "t"],
    "list": ["lst", "arr", "vals"],
    "keys": ["ks", "keys"],
    "largest": ["mx", "max_val"],
    "smallest": ["mn", "min_val"],
    "dict": ["dct", "mp", "tbl"],
    "set": ["seen", "uniq", "vis"],
    "number": ["num", "val", "amt"],
    "length": ["n", "sz", "size"],
    "item": ["elem", "el", "it"],
    "char": ["ch", "c"],
    "key": ["k", "key"],
    "entry": ["val", "v"],
    "function": ["fn", "func", "helper"],
    "flag": ["ok", "flg", "done"],
    "sequence": ["seq", "data"],
    "value": ["val", "arg", "v"],
    "result": ["res", "ret", "out"],
}

# Longer names that spell out what the variable holds.
_VERBOSE: dict[str, list[str]] = {
    "index": ["current_index", "position", "index"],
    "counter": ["counter", "count_so_far", "tally"],
    "total": ["running_total", "total_sum", "accumulated"],
    "text": ["input_string", "input_text", "source_text", "current_text"],
    "list": ["item_list", "values_list", "element_list"],
    "keys": ["key_list", "dict_keys", "all_keys"],
    "largest": ["largest_value", "maximum", "max_value"],
    "smallest": ["smallest_value", "minimum", "min_value"],
    "dict": ["lookup_table", "mapping", "key_to_value"],
    "set": ["seen_items", "unique_values", "visited"],
    "number": ["number", "amount", "input_number"],
    "length": ["length", "size", "item_count"],
    "item": ["current_item", "element", "entry"],
    "char": ["character", "current_char", "letter"],
    "key": ["key", "dict_key"],
    "entry": ["value", "dict_value"],
    "function": ["helper", "compute_value", "process"],
    "flag": ["is_found", "is_done", "found"],
    "sequence": ["sequence", "input_data", "data"],
    "value": ["value", "argument", "input_value", "current_value"],
    "result": ["result", "output", "answer"],
}

# Roles whose usual names suggest something the variable is not.
_CONTRARY: dict[str, list[str]] = {
    "index": ["text", "list", "dict"],
    "counter": ["text", "list", "flag"],
    "total": ["text", "list", "flag"],
    "text": ["counter", "number", "list", "dict"],
    "list": ["text", "counter", "flag", "dict"],
    "keys": ["text", "counter", "flag"],
    "largest": ["text", "list", "flag"],
    "smallest": ["text", "list", "flag"],
    "dict": ["list", "text", "counter"],
    "set": ["list", "counter", "text"],
    "number": ["text", "list", "flag"],
    "length": ["text", "list", "flag"],
    "item": ["counter", "list", "dict"],
    "char": ["list", "dict", "counter"],
    "key": ["list", "counter", "flag"],
    "entry": ["text", "flag", "index"],
    "function": ["list", "counter", "text"],
    "flag": ["text", "list", "counter"],
    "sequence": ["counter", "flag", "number"],
    "value": ["counter", "flag", "dict"],
    "result": ["flag", "counter", "index"],
}

# The role a name says its variable has, where the name says one thing only (`text`,
# `items`; not `value`, written for anything, nor single letters).
_NAME_HINTS: dict[str, str] = unambiguous_hints((_DESCRIPTIVE, _ABBREVIATED, _VERBOSE))

# Names that describe a parameter (what the function is given) or a local (what it
# builds): never the other (a list the caller passes is not a `result`).
_PARAM_ONLY = frozenset({"input_string", "input_text", "input_number", "input_data", "input_value",
                         "argument", "arg"})  # fmt: skip
_LOCAL_ONLY = frozenset({"running_total", "count_so_far", "accumulated", "result", "res",
                         "out", "output", "answer", "ans", "ret"})  # fmt: skip


_KIND_WORDS = frozenset(ROLE_WORDS.values())


def _is_static(function: cst.CSTNode) -> bool:
    decorators = getattr(function, "decorators", ())
    return any(
        isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
        for d in decorators
    )


def renameable_names(info: ModuleInfo, *, rename_params: bool) -> dict[str, list[cst.Name]]:
    """Variable names that can be renamed, each with all of its occurrences (source order).

    Args:
        info: the module's metadata.
        rename_params: whether parameters of module-level functions and methods (the entry's
            signature) may be renamed; nested functions' parameters always may, unless a call
            passes them by keyword.
    """
    names = info.names
    if names.dynamic or names.has_match:
        return {}
    bad: set[str] = set(names.declared)
    groups: dict[str, list[cst.Name]] = {}
    for node in names.references:
        value = node.value
        groups.setdefault(value, []).append(node)
        if value in bad:
            continue
        if (
            value.startswith("__")
            or not value.strip("_")  # `_`: a value deliberately left unused
            or not resolves_locally(node, info.scopes.get(node))
            or info.in_class(node)
        ):
            bad.add(value)
    param_names: set[str] = set()
    for function in info.nodes:
        if not isinstance(function, cst.FunctionDef | cst.Lambda):
            continue
        params = function.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                every.append(star)
        param_names.update(p.name.value for p in every)
        bad.update(p.name.value for p in params.kwonly_params)
        module_level = isinstance(function, cst.FunctionDef) and isinstance(
            info.parent(function), cst.Module
        )
        method = isinstance(function, cst.FunctionDef) and info.in_class(function)
        if (module_level or method) and not rename_params:
            bad.update(p.name.value for p in every)
        if method and every and not _is_static(function):
            bad.add(every[0].name.value)  # `self` (or `cls`) stays what everyone writes
    for call in info.nodes:
        if not isinstance(call, cst.Call):
            continue
        if isinstance(call.func, cst.Name) and info.is_builtin(call.func.value):
            continue
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in param_names:
                bad.add(arg.keyword.value)
    return {name: nodes for name, nodes in groups.items() if name not in bad}


@functools.lru_cache(maxsize=256)
def _called_names(calls: tuple[str, ...]) -> frozenset[str]:
    """The module-level names the calls start from (`f` of `f(1)`, `Solution` of
    `Solution().solve(1)`); empty when a call cannot be read (kept per list of calls: every
    renaming of every code of a problem asks)."""
    names: set[str] = set()
    for text in calls:
        try:
            head = Call.read(text).func
        except TraceError:
            return frozenset()
        names.add(head.split("(", 1)[0].split(".", 1)[0].strip())
    return frozenset(names)


def _names_global(info: ModuleInfo, node: cst.Name) -> bool:
    """Whether `node` names a module-level binding only (no local of the same name)."""
    scope = info.scopes.get(node)
    if scope is None or info.in_class(node):
        return False
    referents = scope[node.value]
    return bool(referents) and all(
        isinstance(r, Assignment) and isinstance(r.scope, GlobalScope) for r in referents
    )


def guess_roles(module: cst.Module, names: set[str], calls: Sequence[str] = ()) -> dict[str, str]:
    """The role (`transforms._roles`) the renaming styles name each of `names` for: from the
    code, the names a person chose and the types of the arguments `calls` pass.

    Args:
        module: the code.
        names: the variables to rename.
        calls: the calls the code runs with (`f('abc', 3)`), if known.
    """
    return infer_roles(module, names, hints=_NAME_HINTS, arguments=argument_types(module, calls))


def _renameable(info: ModuleInfo, rename_params: bool) -> dict[str, list[cst.Name]]:
    return renameable_names(info, rename_params=rename_params)


def _roles(
    info: ModuleInfo, names_and_calls: tuple[tuple[str, ...], tuple[str, ...]]
) -> dict[str, str]:
    names, calls = names_and_calls
    return guess_roles(info.module, set(names), calls)


class _Rename(Transform):
    """Renames every renameable variable; subclasses choose the new names."""

    kind = "equivalent"
    family: ClassVar[Family] = "rename"
    keeps_lines = True

    uses_calls: ClassVar[bool] = True
    """The variant generator passes the problem's calls (`calls`): their argument types
    tell what the parameters hold."""

    def __init__(
        self, rng: random.Random, *, rename_params: bool = True, calls: Sequence[str] = ()
    ) -> None:
        """Create the transform.

        Args:
            rng: chooses the new names.
            rename_params: also rename the parameters of module-level functions (CRUXEval
                calls are positional, so this is safe there); False keeps signatures intact.
            calls: the calls the code is run with (`f('abc', 3)`); a parameter is never
                given a name its arguments' types contradict (`amount` for a string).
        """
        super().__init__(rng)
        self.rename_params = rename_params
        self.calls = tuple(calls)
        self.params: set[str] = set()
        self.locals: set[str] = set()
        self._targets: dict[int, str] = {}
        self._given: list[tuple[str, str]] = []  # the new names given so far, with roles

    def prepare(self, wrapper: MetadataWrapper) -> bool:
        """Find the renameable names and choose a new name for each."""
        info = ModuleInfo.of(wrapper)
        # Every renaming style tried on a code reads the same names and roles.
        groups = info.derived_with(_renameable, self.rename_params)
        if not groups:
            return False
        roles = info.derived_with(_roles, (tuple(groups), self.calls))
        fresh = FreshNames(info.names.identifiers)
        self.params = {cast(cst.Param, n).name.value for n in info.of_types((cst.Param,))}
        self.locals = {old for old, nodes in groups.items() if _local_somewhere(info, nodes)}
        self._given = []
        self.begin(fresh)
        for old in groups:
            new = self.new_name(old, roles[old], fresh)
            if new != old:
                self.renames[old] = new
        if not self.renames:
            return False
        groups = {old: nodes for old, nodes in groups.items() if old in self.renames}
        groups.update(self._rename_helpers(info, fresh))
        self._targets = {id(n): self.renames[n.value] for ns in groups.values() for n in ns}
        # Only the renamed names and the comments change: the visit enters those and their
        # ancestors, and keeps every other subtree as it is (LibCST would rebuild each of
        # its nodes unchanged).
        changed = [n for ns in groups.values() for n in ns]
        self.limit_visit([*changed, *info.of_types((cst.Comment,))], info)
        return True

    def _rename_helpers(self, info: ModuleInfo, fresh: FreshNames) -> dict[str, list[cst.Name]]:
        """Rename the module-level helpers whose names spell a renamed variable (`choose_occ`
        becomes `choose_mapping` when `occ` becomes `mapping`): a helper named after the old
        variable would leak the original's names back. The functions the calls run keep
        their names, and without calls (the entry unknown) no function is renamed.

        Returns:
            The occurrences of each renamed helper; `self.renames` records the new names.
        """
        entries = _called_names(self.calls)
        if not entries:
            return {}
        defs = {s.name.value for s in info.module.body if isinstance(s, cst.FunctionDef)}
        found: dict[str, list[cst.Name]] = {}
        for node in info.names.references:
            if node.value in defs - entries:
                found.setdefault(node.value, []).append(node)
        renamed: dict[str, list[cst.Name]] = {}
        for helper, nodes in found.items():
            words = helper.split("_")
            # A word for a kind of value (`slice_text`, as extracted helpers are named)
            # stays true whatever the variable of that kind is called now.
            spelled = [w for w in words if w in self.renames and w not in _KIND_WORDS]
            if not spelled or helper.startswith("__"):
                continue
            if helper in info.names.declared or not all(_names_global(info, n) for n in nodes):
                continue
            new = "_".join(self.renames.get(w, w) if w in spelled else w for w in words)
            if fresh.is_free(new):
                self.renames[helper] = fresh.take(new)
                renamed[helper] = nodes
        return renamed

    def begin(self, fresh: FreshNames) -> None:
        """Hook called once before names are chosen."""

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """The new name of `old` (whose guessed role is `role`); must come from `fresh`."""
        raise NotImplementedError

    def from_pool(self, pool: list[str], fresh: FreshNames, old: str, role: str) -> str:
        """A free name from `pool` (in a random order), else one of the role's names in the
        other styles, else, for a role that says little (`value`, `number`, `item`,
        `entry`), a plain name of no role (`a`, `b`, `other`), else the old name kept: never
        a numbered `items_2`, nor a name of another role, nor a respelling of a name
        already given (`v` beside `val`, `current_value` beside `value`: two variables read
        as two names, not one misspelt)."""
        order = list(pool)
        self.rng.shuffle(order)
        spare = [w for style in _STYLES for w in style[role] if w not in order]
        neutral = _NEUTRAL_ROLES.get(role, ())
        if min(map(len, pool)) > 3:  # a long name's style stays long
            spare.sort(key=len, reverse=True)
            longer = [w for w in spare if len(w) > 3]
            spare = [*longer, *(w for w in neutral if len(w) > 3), *spare[len(longer) :]]
        else:
            spare += [w for w in neutral if len(w) <= 3]
        # A name both (a helper's parameter and its caller's local, after helper extraction)
        # is unfit for either: `arg` is no name for what the caller builds.
        unfit = (_LOCAL_ONLY if old in self.params else set()) | (
            _PARAM_ONLY if old in self.locals or old not in self.params else set()
        )
        for candidate in [*order, *spare]:
            if (
                candidate != old
                and candidate not in unfit
                and fresh.is_free(candidate)
                and not any(self._confused(candidate, role, *given) for given in self._given)
            ):
                self._given.append((candidate, role))
                return fresh.take(candidate)
        return old

    @staticmethod
    def _confused(name: str, role: str, given: str, given_role: str) -> bool:
        """Whether `name` would read as a respelling of a name `given` already: of any
        role (`value` and `current_value`), but a one-letter name only of its own role or of
        another neutral one (`c` for a character beside `cnt` is two names; `v` beside `val`
        or `value` is one misspelt)."""
        if not _respells(name, given):
            return False
        neutral = role in _NEUTRAL_ROLES and given_role in _NEUTRAL_ROLES
        return role == given_role or neutral or min(len(name), len(given)) > 1

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        """Rename one occurrence."""
        new = self._targets.get(id(original_node))
        return updated_node.with_changes(value=new) if new is not None else updated_node

    def leave_Comment(self, original_node: cst.Comment, updated_node: cst.Comment) -> cst.Comment:
        """Rename the renamed names in comments too, as a person renaming would (a comment
        left naming the old names would leak them back)."""
        if not self.renames:
            return updated_node
        text = updated_node.value
        for match in reversed(comment_mentions(text, self.renames)):
            text = text[: match.start()] + self.renames[match[0]] + text[match.end() :]
        return updated_node.with_changes(value=text)


def _local_somewhere(info: ModuleInfo, nodes: list[cst.Name]) -> bool:
    """Whether the name of `nodes` is a variable of a scope where it is no parameter."""
    for node in nodes:
        scope = info.scopes.get(node)
        if scope is None:
            continue
        bound = scope.assignments[node.value]
        if bound and not any(
            isinstance(a, Assignment) and isinstance(a.node, cst.Param) for a in bound
        ):
            return True
    return False


def _respells(a: str, b: str) -> bool:
    """Whether one of two different names is the other with letters left out (`ix` and
    `idx`, `v` and `val`); a one-letter name only respells a name it starts (`x` beside
    `index` is no respelling of it)."""
    short, long = sorted((a, b), key=len)
    if short == long:
        return False
    if len(short) == 1:
        return long.startswith(short)
    rest = iter(long)
    return all(letter in rest for letter in short)


def _initials(old: str) -> str:
    """The first letters of the words of a name (`prefix_length` -> `pl`, `newText` -> `nt`,
    `wrong` -> `w`), at most three; empty where they would read as something else: `l`, `o`
    (confusable with 1 and 0), `f` (the entry's own name), `i`/`j` (an index's)."""
    words = [w for w in re.split(r"_+|(?<=[a-z0-9])(?=[A-Z])", old) if w]
    letters = "".join(w[0] for w in words if w[0].isalpha()).lower()[:3]
    if not letters or letters in ("l", "o", "f", "i", "j") or keyword.iskeyword(letters):
        return ""
    return letters


class RenameShort(_Rename):
    """The short names people use: the conventional ones of the role (`i` for an index,
    `s` for a string, `xs` for a list, `d` for a dict, `k, v` for its keys and values),
    else the first letters of the name's words; a name that is already short stays."""

    name = "rename_short"
    description = "rename locals, parameters and nested functions to one- or two-letter names"

    # The conventional short names of each role, in the order a person reaches for them;
    # roles with no convention of their own take the old name's initials first.
    _PREFERRED: ClassVar[dict[str, list[str]]] = {
        "index": ["i", "j", "k"],
        "counter": ["n", "c", "k"],
        "total": ["t", "s", "n"],
        "text": ["s", "t"],
        "item": ["x", "y", "e"],
        "list": ["xs", "ys", "zs"],
        "keys": ["ks", "keys"],
        "largest": ["mx", "m"],
        "smallest": ["mn", "m"],
        "dict": ["d", "m"],
        "set": ["s", "u"],
        "number": ["n", "m", "k"],
        "length": ["n", "m"],
        "function": ["g", "h"],
        "flag": ["ok", "b"],
        "sequence": ["xs", "ys", "seq"],
        "value": ["x", "y", "v"],
        "char": ["c", "ch"],
        "key": ["k"],
        "entry": ["v"],
        "result": ["r", "res"],
    }
    # Roles whose conventional names come before the initials (`i`, `s`, `xs`, `d`, `c`).
    _CONVENTIONAL = frozenset({"index", "text", "list", "dict", "char", "key", "entry",
                               "length", "sequence"})  # fmt: skip

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """The first free of the role's conventional names and the old name's initials
        (`wrong, right` -> `s, t` as strings, `count` -> `c`), never a letter that says
        nothing of the variable; a name of two letters or fewer is already short."""
        if len(old) <= 2:
            return old
        preferred = self._PREFERRED[role]
        initials = [_initials(old)] if _initials(old) else []
        order = [*preferred, *initials] if role in self._CONVENTIONAL else [*initials, *preferred]
        for candidate in order:
            if candidate != old and fresh.is_free(candidate):
                return fresh.take(candidate)
        return old


class RenameDescriptive(_Rename):
    """Longer names that describe what the variable holds, guessed from its use."""

    name = "rename_descriptive"
    description = "rename locals, parameters and nested functions to descriptive names"

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """A name a person would give a variable of the role (`s`/`text`/`string`,
        `items`/`arr`, `i`/`idx`, `ch`/`c`...), never the old name."""
        return self.from_pool(_DESCRIPTIVE[role], fresh, old, role)


class RenameAbbreviated(_Rename):
    """Abbreviated names (`txt`, `lst`, `idx`, `cnt`, `res`), guessed from the variable's use."""

    name = "rename_abbreviated"
    description = "rename locals, parameters and nested functions to abbreviated names"

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """An abbreviation for the role, never the old name."""
        return self.from_pool(_ABBREVIATED[role], fresh, old, role)


class RenameVerbose(_Rename):
    """Long names that spell out the content (`input_string`, `current_index`)."""

    name = "rename_verbose"
    description = "rename locals, parameters and nested functions to long explicit names"

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """A long name for the role, never the old name."""
        return self.from_pool(_VERBOSE[role], fresh, old, role)


class RenameMisleading(_Rename):
    """Names that suggest the wrong content (a string called `count`, a list called `flag`).

    Like a misleading comment, a deliberately wrong name is a distractor (off by default).
    """

    name = "rename_misleading"
    family = "distractor"
    description = "rename locals, parameters and nested functions to names suggesting other roles"

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """A name usual for a contrary role."""
        contrary = self.rng.choice(_CONTRARY[role])
        return self.from_pool(_DESCRIPTIVE[contrary], fresh, old, contrary)


class RenameObfuscated(_Rename):
    """Meaningless names: `_0x3fa2`, `lI1lI1`, `O0oO0`.

    No person writes these, so the style is a distractor (off by default), not a renaming
    style of the default build.
    """

    name = "rename_obfuscated"
    family = "distractor"
    description = "rename locals, parameters and nested functions to meaningless identifiers"

    def begin(self, fresh: FreshNames) -> None:
        """Pick one obfuscation style for the whole module."""
        self._style = self.rng.choice(["hex", "confusable", "zeros"])

    def new_name(self, old: str, role: str, fresh: FreshNames) -> str:
        """A random identifier in the module's style."""
        while True:
            if self._style == "hex":
                candidate = f"_0x{self.rng.randrange(16**4):04x}"
            elif self._style == "confusable":
                length = self.rng.randint(5, 8)
                candidate = self.rng.choice("lI") + "".join(
                    self.rng.choice("lI1") for _ in range(length - 1)
                )
            else:
                length = self.rng.randint(4, 7)
                candidate = "O" + "".join(self.rng.choice("O0o") for _ in range(length - 1))
            if fresh.is_free(candidate):
                return fresh.take(candidate)


_STYLES = (_DESCRIPTIVE, _ABBREVIATED, _VERBOSE)

#: Roles that say little of a variable; when their names run out (four values in one
#: function), plain names of no role follow, as a person names the two of a pair `a, b`
#: (the short ones for the short styles, the others for the long).
_NEUTRAL = ("a", "b", "y", "z", "p", "q", "other", "operand", "quantity")
_NEUTRAL_ROLES = {role: _NEUTRAL for role in ("value", "number", "item", "entry")}


def role_names(style: str, role: str, old: str) -> set[str]:
    """The names a default renaming style may give a variable of `role` called `old`: the
    role's names (of any style, where the style's own run out), for a neutral role the
    plain names that follow them, the short style's names for the role and the old name's
    initials.

    Args:
        style: "rename_short", "rename_descriptive", "rename_abbreviated" or "rename_verbose".
        role: a role of `infer_roles`.
        old: the variable's name in the original.
    """
    if style == RenameShort.name:
        return {*RenameShort._PREFERRED[role], _initials(old), old} - {""}
    return {name for pools in _STYLES for name in pools[role]} | set(_NEUTRAL_ROLES.get(role, ()))


TRANSFORMS: tuple[type[Transform], ...] = (
    RenameShort,
    RenameDescriptive,
    RenameAbbreviated,
    RenameVerbose,
    RenameMisleading,
    RenameObfuscated,
)
