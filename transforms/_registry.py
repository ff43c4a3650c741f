"""The registered transforms, in a stable order: equivalent families first, then mutants."""

from __future__ import annotations

from transforms import (
    _augassign,
    _booleans,
    _comments,
    _comprehensions,
    _conditionals,
    _constants,
    _deadcode,
    _guards,
    _helpers,
    _idioms_builtins,
    _idioms_counters,
    _idioms_loops,
    _idioms_methods,
    _idioms_returns,
    _idioms_strings,
    _idioms_text,
    _loops,
    _mutants,
    _rename,
    _reorder,
    _variables,
)
from transforms._base import Transform

ALL_TRANSFORMS: tuple[type[Transform], ...] = (
    *_rename.TRANSFORMS,
    *_loops.TRANSFORMS,
    *_comprehensions.TRANSFORMS,
    *_conditionals.TRANSFORMS,
    *_booleans.TRANSFORMS,
    *_augassign.TRANSFORMS,
    *_deadcode.TRANSFORMS,
    *_helpers.TRANSFORMS,
    *_constants.TRANSFORMS,
    *_guards.TRANSFORMS,
    *_reorder.TRANSFORMS,
    *_variables.TRANSFORMS,
    *_comments.TRANSFORMS,
    *_idioms_loops.TRANSFORMS,
    *_idioms_counters.TRANSFORMS,
    *_idioms_methods.TRANSFORMS,
    *_idioms_returns.TRANSFORMS,
    *_idioms_strings.TRANSFORMS,
    *_idioms_text.TRANSFORMS,
    *_idioms_builtins.TRANSFORMS,
    *_mutants.TRANSFORMS,
)
