"""Names for extracted helpers that say what they compute, as a person naming a helper
would: a predicate reads as a question (`is_vowel`, `has_name`, `differs_from_limit`), a
computation as a verb phrase (`split_words`, `count_items`, `combine_text`); generic names
(`compute`, `check`) only when the expression tells nothing. `value_names` gives the noun
for a variable that holds the value (`length_of_items`)."""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping

import libcst as cst

from transforms._analysis import strip_parens, walk

_BUILTIN_NOUNS = {
    "len": "length",
    "sum": "total",
    "max": "largest",
    "min": "smallest",
    "sorted": "sorted",
    "abs": "magnitude",
    "str": "as_text",
    "int": "as_int",
    "float": "as_float",
    "list": "as_list",
    "set": "unique",
    "tuple": "as_tuple",
    "dict": "as_dict",
    "ord": "code_of",
    "chr": "char_of",
    "reversed": "reversed",
    "round": "rounded",
    "enumerate": "numbered",
    "zip": "paired",
    "any": "any_match",
    "all": "all_match",
}
_METHOD_VERBS = {
    "split": "split",
    "rsplit": "split",
    "join": "join",
    "replace": "replace_in",
    "strip": "strip",
    "lstrip": "strip",
    "rstrip": "strip",
    "upper": "upper",
    "lower": "lower",
    "count": "count_in",
    "find": "find_in",
    "rfind": "find_in",
    "index": "position_in",
    "get": "lookup",
    "startswith": "starts_with",
    "endswith": "ends_with",
    "format": "format",
    "title": "title",
    "capitalize": "capitalize",
    "swapcase": "swapcase",
    "center": "pad",
    "ljust": "pad",
    "rjust": "pad",
    "zfill": "pad",
    "partition": "partition",
    "rpartition": "partition",
    "pop": "pop_from",
    "keys": "keys_of",
    "values": "values_of",
    "items": "items_of",
}
# What a method call on an unnamed value gives (`p.strip()` in a comprehension).
_PARTICIPLES = {
    "strip": "stripped",
    "lstrip": "stripped",
    "rstrip": "stripped",
    "upper": "uppercased",
    "lower": "lowercased",
    "split": "split_parts",
    "replace": "replaced",
    "title": "titled",
    "capitalize": "capitalized",
    "swapcase": "swapped_case",
    "join": "joined",
    "count": "count_of",
    "find": "position_of",
    "index": "position_of",
    "get": "looked_up",
}
_BINARY_NOUNS: dict[type[cst.BaseBinaryOp], str] = {
    cst.Add: "combined",
    cst.Subtract: "difference",
    cst.Multiply: "product",
    cst.Divide: "ratio",
    cst.FloorDivide: "quotient",
    cst.Modulo: "remainder",
    cst.Power: "power",
}
_COMPARE_WORDS: dict[type[cst.BaseCompOp], str] = {
    cst.Equal: "equals",
    cst.NotEqual: "differs_from",
    cst.LessThan: "below",
    cst.LessThanEqual: "at_most",
    cst.GreaterThan: "above",
    cst.GreaterThanEqual: "at_least",
    cst.In: "in",
    cst.NotIn: "not_in",
    cst.Is: "is",
    cst.IsNot: "is_not",
}
# Verb phrases for helpers that compute a value (a helper is named for what it does).
_BUILTIN_VERBS = {
    "len": "count",
    "sum": "sum",
    "max": "find_largest",
    "min": "find_smallest",
    "sorted": "sort",
    "reversed": "reverse",
    "round": "round",
    "enumerate": "number",
    "zip": "pair",
    "set": "dedupe",
}
_CONVERSIONS = {
    "str": "text",
    "int": "int",
    "float": "float",
    "list": "list",
    "tuple": "tuple",
    "dict": "dict",
}
_BINARY_VERBS: dict[type[cst.BaseBinaryOp], str] = {
    cst.Add: "combine",
    cst.Subtract: "subtract_from",
    cst.Multiply: "multiply",
    cst.Divide: "divide",
    cst.FloorDivide: "divide",
    cst.Power: "raise",
}
# What a computation returns: the value's noun, except that an addition computes a sum.
_BINARY_RESULTS: dict[type[cst.BaseBinaryOp], str] = {**_BINARY_NOUNS, cst.Add: "sum"}
# A negated predicate, by how the name starts: `not is_x` is `is_not_x`, `not has_x` is
# `is_missing_x`, `not differs_from_x` is `equals_x`.
_NEGATED_PREFIXES = (
    ("is_missing_", "has_"),
    ("is_not_", "is_"),
    ("is_", "is_not_"),
    ("has_", "is_missing_"),
    ("starts_with", "does_not_start_with"),
    ("ends_with", "does_not_end_with"),
)
# Methods whose result is still the value they are called on (`text.strip()` is the text;
# `text.count(c)` is not).
_SAME_VALUE = frozenset(
    {"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize",
     "swapcase", "replace", "copy"}
)  # fmt: skip
# What a variable of each role (`transforms._roles`) is called in a helper's name: the kind
# of value, which stays true whatever the variable is renamed to (no word for a "value",
# a "function" or a "flag": nothing a name could say of them).
ROLE_WORDS: dict[str, str] = {
    "text": "text", "char": "char", "list": "items", "dict": "mapping", "set": "set",
    "number": "number", "index": "index", "counter": "count", "total": "total",
    "length": "length",
    "sequence": "seq", "key": "key", "entry": "value", "item": "item", "result": "result",
    "keys": "keys", "largest": "largest", "smallest": "smallest",
}  # fmt: skip
# What an element of a container of each word is (`text[i]` is a char).
_ELEMENT_WORDS = {
    "text": "char", "items": "item", "mapping": "value", "seq": "item", "keys": "key",
}  # fmt: skip
Words = Mapping[str, str] | None
"""Variable -> word for it (`role_words`); None: the variable's own name (for a local
variable's name, `value_names`, which renaming renames as a variable)."""
_CHAR_CLASSES = {
    "aeiou": "vowel",
    "aeiouAEIOU": "vowel",
    "AEIOU": "vowel",
    "0123456789": "digit",
}


def _builtin_noun(call: cst.Call, func: str) -> str:
    """What the builtin `func` called as `call` gives: a `zip` of three or more is no pair."""
    if func == "zip" and len(call.args) > 2:
        return "triples" if len(call.args) == 3 else "groups"
    return _BUILTIN_NOUNS[func]


def _word(expr: cst.BaseExpression, words: Words) -> str | None:
    """A short word for an operand: what its variable holds (`words`, else its name), the
    attribute or call it is."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.Name) and expr.value not in ("True", "False", "None"):
        if words is not None:
            return words.get(expr.value)
        word = expr.value.strip("_").lower()
        return word if len(word) > 2 else None  # `strip_p` says nothing more than `strip`
    if isinstance(expr, cst.Attribute):
        return expr.attr.value.lower()
    if isinstance(expr, cst.Subscript):
        container = _word(expr.value, words)
        if words is None or any(isinstance(e.slice, cst.Slice) for e in expr.slice):
            return container
        return _ELEMENT_WORDS.get(container or "")  # `text[i]` is a char, not the text
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Name) and expr.func.value in _BUILTIN_NOUNS and expr.args:
            inner = _word(expr.args[0].value, words) if words is None else None
            noun = _builtin_noun(expr, expr.func.value)
            return f"{noun}_{inner}" if inner and noun == "length" else noun
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _SAME_VALUE:
            return _word(expr.func.value, words)  # `text.strip()` is still the text
    return None


def role_words(roles: Mapping[str, str]) -> dict[str, str]:
    """Variable -> the word a helper's name uses for it: what it holds (`ROLE_WORDS`), none
    for a variable whose role says nothing ("value")."""
    return {name: ROLE_WORDS[role] for name, role in roles.items() if role in ROLE_WORDS}


def _names(expr: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(expr) if isinstance(n, cst.Name)}


def _join(*parts: str | None) -> str | None:
    kept = [p for p in parts if p]
    if not kept:
        return None
    name = re.sub(r"[^0-9a-z_]", "", "_".join(kept).lower())
    name = re.sub(r"_+", "_", name).strip("_")
    if keyword.iskeyword(name) or name in ("is", "not"):
        return None
    return name if name.isidentifier() and len(name) <= 30 else None


def _negated(name: str | None) -> str | None:
    """The predicate name for `not <name>` (`is_even` -> `is_not_even`)."""
    for prefix, replacement in _NEGATED_PREFIXES if name else ():
        if name and name.startswith(prefix):
            return _join(replacement + name[len(prefix) :])
    if name and "_differs_from_" in f"_{name}":
        return _join(name.replace("differs_from", "equals"))
    return None


def _operand(expr: cst.BaseExpression, words: Words) -> str | None:
    """A word for the right operand of a comparison: its word, or a small integer."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.Integer) and len(expr.value) <= 4:
        return expr.value
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = _operand(expr.expression, words)
        return _join("minus", inner) if inner and inner.isdigit() else None
    return _word(expr, words)


def _predicate(expr: cst.BaseExpression, words: Words) -> str | None:
    expr = strip_parens(expr)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return _negated(_predicate(expr.expression, words))
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        method = expr.func.attr.value
        if method.startswith("is") and len(method) > 2:
            return _join("is", method[2:])
        if method in ("startswith", "endswith"):
            return _join(_METHOD_VERBS[method])
    if isinstance(expr, cst.BooleanOperation):
        parts = []
        node: cst.BaseExpression = expr
        while isinstance(node, cst.BooleanOperation):
            parts.append(node.right)
            node = strip_parens(node.left)
        parts.append(node)
        asked = [_predicate(p, words) for p in reversed(parts)]
        if any(w and w.count("_") > 1 for w in asked):
            return None  # `is_number_above_1_or_digit` reads as no question a person asks
        if all(w and w.startswith("is_") for w in asked[:2]):
            glue = "and" if isinstance(expr.operator, cst.And) else "or"
            first, second = (w[3:] for w in asked[:2] if w)
            return _join("is", first, glue, second)
        if all(asked[:2]):
            joined = _join(
                asked[0], "and" if isinstance(expr.operator, cst.And) else "or", asked[1]
            )
            if joined and len(asked) == 2:
                return joined  # `has_name_and_is_even`
        return None  # `check_x` says nothing of what is checked
    if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
        target = expr.comparisons[0]
        left, right = strip_parens(expr.left), strip_parens(target.comparator)
        op = type(target.operator)
        if isinstance(right, cst.SimpleString) and op in (cst.In, cst.NotIn):
            value = right.evaluated_value
            kind = _CHAR_CLASSES.get(value) if isinstance(value, str) else None
            if kind is not None:
                return _join("is" if op is cst.In else "is_not", kind)
        if isinstance(right, cst.Integer) and right.value == "0" and _zero_test(left, op, words):
            return _zero_test(left, op, words)
        if isinstance(right, cst.Name) and right.value == "None":
            return _join("is_missing" if op is cst.Is else "has", _word(left, words))
        if op in (cst.In, cst.NotIn):
            return _join("is" if op is cst.In else "is_not", "in", _word(right, words))
        if words is not None and not _literal(right):
            # Two variables: their kinds would say `is_number_above_number`; a length
            # against a bound says what it asks.
            if _is_len(left) and op in (cst.GreaterThan, cst.LessThan):
                return "is_longer_than" if op is cst.GreaterThan else "is_shorter_than"
            return None
        subject, other = _word(left, words), _operand(right, words)
        if op is cst.Equal:
            if isinstance(right, cst.SimpleString) and subject:
                value = right.evaluated_value
                if (
                    isinstance(value, str)
                    and value.isidentifier()
                    and value.islower()
                    and len(value) > 2
                ):
                    return _join("is", value)  # `mode == 'fast'`: `is_fast`
                return None
            return _join(subject, "equals", other) if subject and other else None
        if op is cst.NotEqual:
            return _join(subject, "differs_from", other) if other else None
        if op in (cst.Is, cst.IsNot):
            word = "same_as" if op is cst.Is else "not_same_as"
            return _join("is", subject, word, other) if subject and other else None
        if subject is None:
            return None  # `is_below_limit` for `a + b < c` would say nothing true
        return _join("is", subject, _COMPARE_WORDS.get(op), other or "limit")
    return None


def _literal(expr: cst.BaseExpression) -> bool:
    """A number or a string written out (`3`, `-1`, `'a'`)."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Integer | cst.Float | cst.SimpleString)


def _is_len(expr: cst.BaseExpression) -> bool:
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and expr.func.value == "len"
        and len(expr.args) == 1
    )


_SEQUENCE_WORDS = frozenset({"text", "char", "items", "seq"})
_NUMBER_WORDS = frozenset({"number", "count", "length", "index"})
_TEXT_METHODS = (_SAME_VALUE - {"copy"}) | {"join", "format", "center", "ljust", "rjust", "zfill"}
_SEQUENCE_CALLS = frozenset({"list", "str", "sorted", "tuple", "reversed"})
_NUMBER_CALLS = frozenset({"len", "sum", "int", "float", "ord", "abs", "round", "max", "min"})


def _sequence(expr: cst.BaseExpression, words: Words) -> bool:
    """Whether `expr` is surely a str, list or tuple (a slice, a literal, `list(...)`, a
    variable whose role is one)."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.Subscript):
        return any(isinstance(e.slice, cst.Slice) for e in expr.slice)
    if isinstance(
        expr,
        cst.List
        | cst.ListComp
        | cst.Tuple
        | cst.SimpleString
        | cst.FormattedString
        | cst.ConcatenatedString,
    ):
        return True
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        return expr.func.value in _SEQUENCE_CALLS
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        return expr.func.attr.value in _TEXT_METHODS  # `t.title()`: a str
    return (
        isinstance(expr, cst.Name)
        and words is not None
        and words.get(expr.value) in (_SEQUENCE_WORDS)
    )


def _numeric(expr: cst.BaseExpression, words: Words) -> bool:
    """Whether `expr` is surely a number (a literal, `len(...)`, arithmetic on numbers, a
    variable whose role is a number)."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = strip_parens(expr.expression)
    if isinstance(expr, cst.Integer | cst.Float):
        return True
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        return expr.func.value in _NUMBER_CALLS
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, cst.Subtract | cst.Divide | cst.FloorDivide | cst.Power):
            return True  # no str or list takes these
        return _numeric(expr.left, words) or _numeric(expr.right, words)
    return (
        isinstance(expr, cst.Name)
        and words is not None
        and words.get(expr.value) in (_NUMBER_WORDS)
    )


def _rotates(left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
    """`xs[k:]` then `xs[:k]`: the two parts of one sequence, swapped (a rotation)."""
    left, right = strip_parens(left), strip_parens(right)
    if not (isinstance(left, cst.Subscript) and isinstance(right, cst.Subscript)):
        return False
    if not left.value.deep_equals(right.value) or len(left.slice) != 1 or len(right.slice) != 1:
        return False
    tail, head = left.slice[0].slice, right.slice[0].slice
    return (
        isinstance(tail, cst.Slice)
        and isinstance(head, cst.Slice)
        and tail.upper is None
        and tail.step is None
        and (
            head.lower is None or (isinstance(head.lower, cst.Integer) and head.lower.value == "0")
        )
        and head.step is None
        and tail.lower is not None
        and head.upper is not None
        and tail.lower.deep_equals(head.upper)
    )


def _zero_test(left: cst.BaseExpression, op: type[cst.BaseCompOp], words: Words) -> str | None:
    """A name for `left <op> 0`: what the test asks of the value, never `is_zero` for a
    test that asks something else (`i % a == 0` asks whether `i` is a multiple of `a`)."""
    if isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Modulo):
        if op not in (cst.Equal, cst.NotEqual):
            return None
        divisor = strip_parens(left.right)
        if isinstance(divisor, cst.Integer):
            if divisor.value == "2":
                return "is_even" if op is cst.Equal else "is_odd"
            word = "divisible" if op is cst.Equal else "not_divisible"
            return _join("is", word, "by", divisor.value)
        multiple = "is_multiple" if op is cst.Equal else "is_not_multiple"
        of = _word(divisor, words)
        return _join(multiple, "of", of) if of else multiple
    if (
        isinstance(left, cst.Call)
        and isinstance(left.func, cst.Name)
        and left.func.value == "len"
        and op in (cst.Equal, cst.GreaterThan, cst.NotEqual)
    ):
        return "is_empty" if op is cst.Equal else "is_not_empty"
    if not isinstance(left, cst.Name | cst.Attribute | cst.Subscript):
        return None  # `a - b == 0`: a name for the difference would be a guess
    sign = {
        cst.GreaterThan: "positive", cst.LessThan: "negative", cst.Equal: "zero",
        cst.NotEqual: "nonzero", cst.GreaterThanEqual: "non_negative",
        cst.LessThanEqual: "non_positive",
    }  # fmt: skip
    return _join("is", sign[op]) if op in sign else None


def _value(expr: cst.BaseExpression, words: Words) -> str | None:
    expr = strip_parens(expr)
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name) and func.value in _BUILTIN_NOUNS:
            arg = _word(expr.args[0].value, words) if expr.args else None
            if arg is None:
                return None  # `total` alone says too little
            noun = _builtin_noun(expr, func.value)
            return _join(noun, "of", arg) if noun != "sorted" else _join(noun, arg)
        if isinstance(func, cst.Attribute):
            verb = _METHOD_VERBS.get(func.attr.value)
            element = isinstance(func.value, cst.Subscript) and not any(
                isinstance(e.slice, cst.Slice) for e in func.value.slice
            )
            # `text[i].swapcase()` swaps one item's case, not the text's.
            receiver = None if element else _word(func.value, words)
            if receiver is None:
                return _PARTICIPLES.get(func.attr.value) or (_join(verb, "value") if verb else None)
            # An unknown method says nothing a name can (`maketrans_text`).
            return _join(verb, receiver) if verb else None
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, cst.Add) and _rotates(expr.left, expr.right):
            return "rotated"
        op_noun = _BINARY_NOUNS.get(type(expr.operator))
        right = strip_parens(expr.right)
        halved = isinstance(expr.operator, cst.FloorDivide | cst.Divide)
        if halved and isinstance(right, cst.Integer) and right.value == "2":
            return _join("half_of", _word(expr.left, words))
        if isinstance(expr.operator, cst.Modulo) and isinstance(right, cst.Integer):
            return _join(_word(expr.left, words), "mod", right.value)
        left = strip_parens(expr.left)
        if isinstance(expr.operator, cst.Add) and (
            isinstance(left, cst.SimpleString | cst.FormattedString)
            or isinstance(right, cst.SimpleString | cst.FormattedString)
        ):
            return _join("build", _word(left, words) or _word(right, words) or "text")
        return _join(op_noun, _word(expr.left, words)) if op_noun else None
    if isinstance(expr, cst.Subscript):
        inner = _word(expr.value, words)
        slice_ = expr.slice[0].slice if len(expr.slice) == 1 else None
        if isinstance(slice_, cst.Slice):
            if _reverses(slice_):
                return _join("reversed", inner or "copy")
            return _join("part_of", inner)
        return _join(inner, "at") if inner else None
    if isinstance(expr, cst.IfExp):
        return _join("pick", _word(expr.body, words) or _word(expr.orelse, words))
    return None


def _verb_phrase(expr: cst.BaseExpression, words: Words) -> str | None:
    """What a helper returning `expr` does: `count_items`, `combine_text`, `slice_text`."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        func = expr.func.value
        arg = _word(expr.args[0].value, words) if expr.args else None
        if arg is None or func not in _BUILTIN_NOUNS:
            return None
        if func in _CONVERSIONS:
            return _join(arg, "to", _CONVERSIONS[func])
        noun = _builtin_noun(expr, func)
        verb = _BUILTIN_VERBS.get(func) if noun == _BUILTIN_NOUNS[func] else None
        return _join(verb, arg) if verb else _join("get", noun, "of", arg)
    if isinstance(expr, cst.BinaryOperation):
        right = strip_parens(expr.right)
        left = strip_parens(expr.left)
        halved = isinstance(expr.operator, cst.FloorDivide | cst.Divide)
        if halved and isinstance(right, cst.Integer) and right.value == "2":
            return _join("halve", _word(left, words) or "value")
        if isinstance(expr.operator, cst.Modulo):
            if isinstance(left, cst.SimpleString | cst.ConcatenatedString):
                return _join("format", _word(right, words) or "text")  # `'%s!' % name`
            if isinstance(right, cst.Integer) and _word(left, words):
                return _join(_word(left, words), "mod", right.value)
            return "compute_remainder"
        if isinstance(expr.operator, cst.Add) and (
            isinstance(left, cst.SimpleString | cst.FormattedString)
            or isinstance(right, cst.SimpleString | cst.FormattedString)
        ):
            return _join("build", _word(left, words) or _word(right, words) or "text")
        if (
            isinstance(expr.operator, cst.Subtract)
            and isinstance(right, cst.Integer)
            and right.value == "1"
            and isinstance(left, cst.Call)
            and isinstance(left.func, cst.Name)
            and left.func.value == "len"
        ):
            return "last_index"  # not `subtract_from_length_jumps`
        if _rotates(left, right) and isinstance(expr.operator, cst.Add):
            return "rotate"  # `a[k:] + a[:k]`: no sum
        subject = _word(left, words)
        sequences = [side for side in (left, right) if _sequence(side, words)]
        if sequences and isinstance(expr.operator, cst.Multiply):
            repeated = _word(sequences[0], words)  # `ch * n`, `[0] * n`: a repetition
            return _join("repeat", repeated) if repeated else None
        if sequences and isinstance(expr.operator, cst.Add):
            # `+` on sequences joins them: `combine_text`, never a `compute_sum`.
            return _join("combine", subject) if subject else None
        verb = _BINARY_VERBS.get(type(expr.operator))
        if verb is None:
            return None
        if isinstance(expr.operator, cst.Add) and isinstance(right, cst.Integer):
            # `count + 1` is the next count; `occ.get(k, 0) + 1` no sum worth the name.
            return _join("next", subject) if subject and right.value == "1" else None
        if subject is None:
            result = _BINARY_RESULTS.get(type(expr.operator))
            if not _numeric(expr, words):
                return None  # `a + b` of unknown values may join two lists: no `compute_sum`
            return _join("compute", result) if result else None
        return _join(verb, subject)
    if isinstance(expr, cst.Subscript):
        inner = _word(expr.value, words)
        slice_ = expr.slice[0].slice if len(expr.slice) == 1 else None
        if isinstance(slice_, cst.Slice):
            if _reverses(slice_):
                return _join("reverse", inner or "copy")
            return _join("slice", inner) if inner else None
        return _join("pick_from", inner) if inner else None
    if isinstance(expr, cst.IfExp):
        chosen = _word(expr.body, words) or _word(expr.orelse, words)
        return _join("choose", chosen) if chosen else None  # `choose` alone says nothing
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        method = expr.func.attr.value
        if method.startswith("is") and len(method) > 2 and method[2:].isalpha():
            return _join("is", method[2:])  # `text[a:b].isascii()`: `is_ascii`, a question
    return _value(expr, words)  # a method call: `split_text`, `replace_in_text`


def expression_helper_names(
    expr: cst.BaseExpression, predicate: bool, roles: Mapping[str, str]
) -> list[str]:
    """Candidate names for a helper that returns `expr`, best first (may be empty): a
    question for a predicate, a verb phrase for a computation.

    Args:
        expr: the expression the helper returns.
        predicate: whether it is a test (named as a question).
        roles: variable -> its role (`transforms._roles`); a variable is named by what it
            holds (`ROLE_WORDS`), never by its own name, which the helper's name would spell
            as the argument it reads (`is_xs_above_c`) and leak or contradict after renaming.
    """
    words = role_words(roles)
    found = _predicate(expr, words) if predicate else _verb_phrase(expr, words)
    return [found] if found else []


def value_names(expr: cst.BaseExpression) -> list[str]:
    """Candidate names for a variable holding the value of `expr` (`length_of_items`,
    `split_text`), best first (may be empty)."""
    found = _value(expr, None)
    return [found] if found else []


def loop_helper_names(
    loop: cst.For | cst.While, returns: list[str], roles: Mapping[str, str]
) -> list[str]:
    """Candidate names for a helper holding a loop body: what it updates (`update_count`,
    `add_to_result`), or the loop variable it handles (`handle_char`), each variable named
    by its role (`roles`, as in `expression_helper_names`)."""
    words = role_words(roles)
    appended: list[str] = []
    for node in walk(loop.body):
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("append", "extend", "add", "insert")
        ):
            word = _word(node.func.value, words)
            if word:
                appended.append(word)
    names: list[str] = []
    if appended:
        names.append(_join("add_to", appended[0]) or "")
    # Accumulators: updated from their own value (`total = total * 10 + d`), not a step
    # (`i += 1` of a `while i < n` loop); a counter of a `for` loop is an accumulator.
    tested = _names(loop.test) if isinstance(loop, cst.While) else set()
    stepped = {
        n.target.value
        for n in walk(loop.body)
        if isinstance(n, cst.AugAssign)
        and isinstance(n.target, cst.Name)
        and isinstance(n.value, cst.Integer)
        and n.target.value in tested
    }
    read_back = {
        n.targets[0].target.value
        for n in walk(loop.body)
        if isinstance(n, cst.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0].target, cst.Name)
        and n.targets[0].target.value in _names(n.value)
    } | {
        n.target.value
        for n in walk(loop.body)
        if isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name)
    }
    kept = [r for r in returns if r not in stepped and (len(returns) <= 2 or r in read_back)]
    said = [_word(cst.Name(r), words) for r in kept]  # not `update_i` or `update_a_and_b`
    if len(kept) == 1 and said[0]:
        names.append(_join("update", said[0]) or "")
    elif len(kept) == 2 and all(said) and said[0] != said[1]:
        names.append(_join("update", said[0], "and", said[1]) or "")
    if (
        isinstance(loop, cst.For)
        and isinstance(loop.target, cst.Name)
        and loop.target.value in _names(loop.body)  # not `handle_index` of an unused `i`
    ):
        handled = _word(loop.target, words)  # not `handle_i`
        names.append(_join("handle", handled) or "" if handled else "")
    return [n for n in names if n]


def _reverses(slice_: cst.Slice) -> bool:
    """Whether a slice is a whole-sequence slice with a negative step (`[::-1]`)."""
    return (
        slice_.step is not None
        and isinstance(slice_.step, cst.UnaryOperation)
        and slice_.lower is None
        and slice_.upper is None
    )
