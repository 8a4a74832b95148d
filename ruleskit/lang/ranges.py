"""The ranges of ints that generated code can tell before it runs.

Every addition, subtraction and multiplication the language does is checked against the range of its
numbers (`values.MAX_INT`), so an overflow is an error where it happens. Generated code can leave the
check out when it knows both operands lie in ranges whose result cannot leave it: a number written in
the pack, a zone's count, an item's fixed field whose every value is a number, a rule whose body gives
only such numbers, or a rule's parameter whose entry tested it against `PARAM_BOUND`.

A range is `(low, high)`, both included. It is kept on the generated node (`int_bounds`) or, for a
Python local, in the generator's table; a node with a range surely gives an int (`sure_int`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .values import MAX_INT

Bounds = tuple[int, int]

# No list can hold more items than this (memory runs out long before), so no count exceeds it.
COUNT_BOUND = 2**40
# A rule's parameters that its body does arithmetic on are tested against this bound on entry, with
# their type: within it, sums of a few of them, or of counts, cannot leave the language's range, and a
# count less one passes the test.
PARAM_BOUND = COUNT_BOUND


def bounded(node: ast.expr, bounds: Bounds) -> ast.expr:
    """Mark `node` as code that gives an int within `bounds` whenever it gives a value."""
    node.int_bounds = bounds  # type: ignore[attr-defined]
    node.sure_int = True  # type: ignore[attr-defined]
    return node


def node_bounds(node: ast.expr) -> Bounds | None:
    """The range a node is marked with, or of the number it writes; None if neither."""
    if isinstance(node, ast.Constant):
        return (node.value, node.value) if type(node.value) is int else None
    found: Bounds | None = getattr(node, "int_bounds", None)
    return found


def arithmetic(op: ast.operator, left: Bounds, right: Bounds) -> Bounds | None:
    """The range of `left op right` for +, - and *, if it stays within the language's; else None."""
    if isinstance(op, ast.Add):
        low, high = left[0] + right[0], left[1] + right[1]
    elif isinstance(op, ast.Sub):
        low, high = left[0] - right[1], left[1] - right[0]
    elif isinstance(op, ast.Mult):
        corners = [a * b for a in left for b in right]
        low, high = min(corners), max(corners)
    else:
        return None
    return (low, high) if -MAX_INT <= low and high <= MAX_INT else None


def negated(bounds: Bounds) -> Bounds:
    return -bounds[1], -bounds[0]


def union(ranges: Iterable[Bounds | None]) -> Bounds | None:
    """The smallest range holding all of `ranges`; None if any is unknown (or there are none)."""
    low = high = None
    for bounds in ranges:
        if bounds is None:
            return None
        low = bounds[0] if low is None else min(low, bounds[0])
        high = bounds[1] if high is None else max(high, bounds[1])
    return None if low is None or high is None else (low, high)


def of_values(values: Iterable[object]) -> Bounds | None:
    """The range of some fixed values, if they are all ints (never bools); else None."""
    numbers = list(values)
    ints = [v for v in numbers if type(v) is int and isinstance(v, int)]
    if not numbers or len(ints) != len(numbers):
        return None
    return (min(ints), max(ints)) if -MAX_INT <= min(ints) and max(ints) <= MAX_INT else None


def within(bounds: Bounds | None, limit: int) -> bool:
    return bounds is not None and -limit <= bounds[0] and bounds[1] <= limit
