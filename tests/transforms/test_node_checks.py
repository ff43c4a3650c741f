"""LibCST node classes answer `isinstance`/`issubclass` as their ABCs would, without the ABC
machinery (`transforms._node_checks`)."""

from __future__ import annotations

import abc
from collections.abc import Iterator

import libcst as cst
import pytest
from transform_testing import code

import transforms  # noqa: F401  (importing the package makes the checks plain)
from transforms._node_checks import PlainChecksMeta, node_classes, plain_node_checks

SOURCE = code(
    """
    import re

    class Box:
        def put(self, items, *rest, key=None, **extra):
            return sorted(items, key=lambda x: -x)

    def f(text, n):
        out = ''
        for i, c in enumerate(text):
            if c.isalpha() and not c.isdigit() or i in (1, 2):
                out += c.upper() if c.islower() else f"{c!r}"
            elif c == ' ':
                continue
            while n > 0:
                n -= 1
                del text[0]
        total = sum([x * 2 for x in range(n) if x % 3], start=0)
        pairs = {k: v for k, v in zip('ab', b'cd')}
        try:
            out = out[::-1] + re.sub('a', 'b', out)
        except (ValueError, TypeError) as err:
            raise RuntimeError(str(err)) from err
        finally:
            print(total, pairs, *out, sep='')
        with open('x') as fh, open('y'):
            yield from fh
        return {*out}, [*text], (n := 3), not n, -n, ~n, await n, ...
    """
)


def test_every_node_class_has_plain_checks() -> None:
    classes = node_classes()
    assert len(classes) > 300
    assert all(type(cls) is PlainChecksMeta for cls in classes)
    assert plain_node_checks() == 0  # idempotent: nothing left to change


def test_subclass_checks_agree_with_abc_on_every_pair_of_node_classes() -> None:
    classes = node_classes()
    for parent in classes:
        for child in classes:
            assert type.__subclasscheck__(parent, child) == abc.ABCMeta.__subclasscheck__(
                parent, child
            ), (parent, child)
            assert issubclass(child, parent) == abc.ABCMeta.__subclasscheck__(parent, child)


def _subtree(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _subtree(child)


def test_instance_checks_agree_with_abc_on_every_node_of_a_module() -> None:
    nodes = list(_subtree(cst.parse_module(SOURCE)))
    assert len({type(n) for n in nodes}) > 60
    classes = node_classes()
    unions = [cst.Assign | cst.AugAssign, cst.BaseExpression | cst.BaseStatement]
    for node in nodes:
        for cls in classes:
            assert isinstance(node, cls) == abc.ABCMeta.__instancecheck__(cls, node), (node, cls)
        for union in unions:
            expected = any(abc.ABCMeta.__instancecheck__(c, node) for c in union.__args__)
            assert isinstance(node, union) == expected


def test_abstract_classes_stay_abstract_and_new_subclasses_are_abcs() -> None:
    with pytest.raises(TypeError, match="abstract"):
        cst.BaseExpression()  # type: ignore[abstract]

    class Partial(cst.BaseSmallStatement):
        pass

    assert isinstance(Partial, abc.ABCMeta)
    with pytest.raises(TypeError, match="abstract"):
        Partial()  # type: ignore[abstract]
    assert issubclass(Partial, cst.CSTNode) and not issubclass(Partial, cst.BaseExpression)
