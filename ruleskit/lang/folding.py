"""Arithmetic on numbers known when the code is generated, worked out then.

A small rule written into its caller (`inlining.py`) often gets numbers for its parameters: a rule
`line(x, y, dx, dy)` called as `line(x, y, 1, 0)` makes `2 * dx` into `2 * 1`, and `0 - dx` into `0 - 1`.
Generated code checks each sum for the language's range at run time, unless it knows the operands' ranges
(`ranges.py`); with both operands known, the result is known too, and it is written in place of the sum
and its check. A copy's parameter bound to a number
(`N3_L_dx := -1`) is then read as that number, so that what it feeds folds in turn.

Only what gives the same value, the same steps and the same errors is folded: a sum out of range is left
to raise where it did, and a parameter is replaced only where the copy assigns it once, before its body
reads it (each copy's names are its own: `inlining.Inlined`).

A copy also often tests again what its caller's test has just settled: a rule that tests `i >= 0 and
i < 7` and then reads `row[i]` of a kind with seven items, whose generated code tests `0 <= i < 7` once more
to know it may read the item's zone straight from its table. Within the branch where the first test held,
the second is known to hold and is left out (`_Bounds`). Likewise a rule that tests `n < count(z)` and then
reads `z[n]` reads the zone's list twice and tests the position against its length twice: where the test
held, the second read is the list the first one found, and its position is known to be in it.
"""

from __future__ import annotations

import ast
import operator
import re
from collections import Counter
from typing import Any

from .values import MAX_INT

_ARITHMETIC: dict[type[ast.operator], Any] = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_ORDER: dict[type[ast.cmpop], Any] = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
                                      ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}
# A parameter of an inlined copy: `N<copy>_` before the pack's `L_name`, once per level of copies.
_COPY_PARAMETER = re.compile(r"(N\d+_)+L_\w+")
# Folding and reading parameters as numbers feed each other; a body settles in two or three rounds.
_MAX_ROUNDS = 8


def fold_constants(expr: ast.expr) -> ast.expr:
    """`expr` (a fresh tree, changed in place) with its arithmetic on known numbers worked out, and the
    comparisons that the tests around them have already decided."""
    for _ in range(_MAX_ROUNDS):
        expr = _Folder().visit(expr)
        known = _numbered_parameters(expr)
        if not known:
            break
        expr = _Substitute(known).visit(expr)
    return _Bounds(expr).visit(expr)  # type: ignore[no-any-return]


def _is_number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


class _Folder(ast.NodeTransformer):
    """Works out, children first, what depends on known numbers only."""

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        folded = _checked_arithmetic(node)
        if folded is not None:
            return folded
        if isinstance(node.test, ast.Constant):  # a test known to hold or not: evaluating it does nothing
            return node.body if node.test.value else node.orelse
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        # Generated code does arithmetic with no range check only on ints whose result it knows to be in range
        # (`ranges.py`), and inside a check (`_checked_arithmetic`), which keeps one that is not.
        self.generic_visit(node)
        apply = _ARITHMETIC.get(type(node.op))
        if apply is not None and _is_number(node.left) and _is_number(node.right):
            value = apply(node.left.value, node.right.value)  # type: ignore[attr-defined]
            if -MAX_INT <= value <= MAX_INT:
                return ast.Constant(value)
        if getattr(node, "int_bounds", None) is not None and isinstance(node.op, ast.Add | ast.Sub) \
                and isinstance(node.right, ast.Constant) and node.right.value == 0:
            return node.left  # an int plus or less nothing: the int itself
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.USub) and _is_number(node.operand):
            return ast.Constant(-node.operand.value)  # type: ignore[attr-defined]
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        if not all(_is_number(o) for o in operands) or not all(type(op) in _ORDER for op in node.ops):
            return node
        values = [o.value for o in operands]  # type: ignore[attr-defined]
        return ast.Constant(all(_ORDER[type(op)](values[i], values[i + 1]) for i, op in enumerate(node.ops)))


def _checked_arithmetic(node: ast.IfExp) -> ast.Constant | None:
    """The value of `r if -MAX <= (r := a op b) <= MAX else checked(r, where)` with numbers a and b, when
    it is in range (out of range, the check stays and raises its error at run time)."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.comparators) == 2
            and all(isinstance(op, ast.LtE) for op in test.ops)):
        return None
    low, named, high = test.left, test.comparators[0], test.comparators[1]
    if not (isinstance(named, ast.NamedExpr) and isinstance(named.value, ast.BinOp | ast.Constant)
            and isinstance(node.body, ast.Name) and node.body.id == named.target.id
            and isinstance(low, ast.Constant) and low.value == -MAX_INT
            and isinstance(high, ast.Constant) and high.value == MAX_INT):
        return None
    computed = named.value
    if isinstance(computed, ast.Constant):  # worked out already (`visit_BinOp`), so in range
        return computed if _is_number(computed) else None
    apply = _ARITHMETIC.get(type(computed.op))
    if apply is None or not (_is_number(computed.left) and _is_number(computed.right)):
        return None
    value = apply(computed.left.value, computed.right.value)  # type: ignore[attr-defined]
    return ast.Constant(value) if -MAX_INT <= value <= MAX_INT else None


def _numbered_parameters(expr: ast.expr) -> dict[str, ast.Constant | ast.Name]:
    """The copies' parameters bound to a number, or to a local that nothing in `expr` assigns, as a copy
    binds them: once, in an element of a tuple (`(N1_L_d := -1, N1_L_x := L_x, ..., body)[-1]`), and read
    only in the elements after it, which run after the binding."""
    assigned = Counter(n.target.id for n in ast.walk(expr)
                       if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name))
    stored = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    loads = Counter(n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    known: dict[str, ast.Constant | ast.Name] = {}
    for node in ast.walk(expr):
        if not isinstance(node, ast.Tuple):
            continue
        for index, element in enumerate(node.elts):
            if not (isinstance(element, ast.NamedExpr) and assigned[element.target.id] == 1
                    and _COPY_PARAMETER.fullmatch(element.target.id)):
                continue
            value = element.value
            if not (_is_number(value) or isinstance(value, ast.Name) and value.id not in stored
                    and value.id not in assigned):
                continue
            name = element.target.id
            later = sum(1 for after in node.elts[index + 1:] for n in ast.walk(after)
                        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))
            if later == loads[name]:
                known[name] = value  # type: ignore[assignment]
    return known


class _Substitute(ast.NodeTransformer):
    """Reads each known parameter as its number or local; its binding is left out of the copy's tuple."""

    def __init__(self, known: dict[str, ast.Constant | ast.Name]) -> None:
        self.known = known

    def _value(self, name: str) -> ast.expr:
        value = self.known[name]
        return ast.Constant(value.value) if isinstance(value, ast.Constant) else ast.Name(value.id, ast.Load())

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.known:
            return self._value(node.id)
        return node

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.expr:
        if node.target.id in self.known:
            return self._value(node.target.id)
        self.generic_visit(node)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        # A copy's `(bindings, body)[-1]`: a binding now a plain number or local does nothing; with none
        # left, the body alone.
        self.generic_visit(node)
        if not (isinstance(node.value, ast.Tuple) and isinstance(node.slice, ast.Constant) and node.slice.value == -1):
            return node
        elements = node.value.elts
        kept = [e for e in elements[:-1] if not isinstance(e, ast.Constant | ast.Name)] + elements[-1:]
        if len(kept) == 1:
            return kept[0]
        node.value.elts = kept
        return node


# A bound known on a local: its value, and whether the local is strictly beyond it.
_Bound = tuple[int, bool]


class _Bounds(ast.NodeTransformer):
    """Leaves out comparisons of a local with numbers that an enclosing test has already settled.

    Within `a if test else b`'s `a`, and within the later operands of `x and y and ...`, what the test (or
    the earlier operands) compared holds: a local `n` found `>= 0` and `< 7` there is still so when `0 <= n
    < 7` is compared again, unless the node assigns `n` itself. Bounds are reasoned about as numbers on a
    line, so they hold for whatever numbers the local holds.
    """

    def __init__(self, whole: ast.expr) -> None:
        self.low: dict[str, list[_Bound]] = {}
        self.high: dict[str, list[_Bound]] = {}
        # Per local `n`: the lists `c` found `len(c) > n` where it holds, as (c, the dump of what `c := ...`
        # read), for a later read of the same list at `n` (`_known_item`).
        self.lengths: dict[str, list[tuple[str, str]]] = {}
        self.reads = Counter(n.id for n in ast.walk(whole) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node.test = self.visit(node.test)
        if isinstance(node.test, ast.Constant):
            return self.visit(node.body if node.test.value else node.orelse)  # type: ignore[no-any-return]
        known = self._known_item(node)
        if known is not None:
            return known
        added = self._assume(node.test, _assigned_in(node))
        node.body = self.visit(node.body)
        self._forget(added)
        node.orelse = self.visit(node.orelse)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        if not isinstance(node.op, ast.And):
            self.generic_visit(node)
            return node
        assigned = _assigned_in(node)
        added: list[tuple[dict[str, list[Any]], str]] = []
        values: list[ast.expr] = []
        for index, value in enumerate(node.values):
            value = self.visit(value)
            if isinstance(value, ast.Constant) and value.value is True and index < len(node.values) - 1:
                continue  # `True and y` is `y`
            values.append(value)
            added += self._assume(value, assigned)
        self._forget(added)
        if len(values) == 1:
            return values[0]
        node.values = values
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        settled = 0  # leading comparisons that hold: `0 <= n < len(x)` with n >= 0 known is `n < len(x)`
        while settled < len(node.ops) and isinstance(operands[settled], ast.Name | ast.Constant) \
                and self._holds(operands[settled], node.ops[settled], operands[settled + 1]):
            settled += 1
        if settled == len(node.ops):
            return ast.Constant(True)
        node.left, node.ops, node.comparators = operands[settled], node.ops[settled:], operands[settled + 1:]
        return node

    def _assume(self, test: ast.expr, assigned: Counter[str]) -> list[tuple[dict[str, list[Any]], str]]:
        """Records the bounds `test` puts on locals not assigned in the node, when it holds."""
        added: list[tuple[dict[str, list[Any]], str]] = []
        for one in _conjuncts(test):
            if not isinstance(one, ast.Compare):
                continue
            length = _length_test(one)
            if length is not None:
                index, content, read = length
                # `c` is assigned here alone, and nothing the read or the position reads is assigned in the node.
                if index not in assigned and assigned[content] == 1 \
                        and not any(name in assigned for name in _names_of(read)):
                    self.lengths.setdefault(index, []).append((content, ast.dump(read)))
                    added.append((self.lengths, index))
                continue
            operands = [one.left, *one.comparators]
            for i, op in enumerate(one.ops):
                left, right = operands[i], operands[i + 1]
                if isinstance(right, ast.Name) and _is_number(left):  # `k < n` is `n > k`
                    left, right, op = right, left, _MIRRORED.get(type(op), ast.Eq)()
                if not (isinstance(left, ast.Name) and _is_number(right)) or left.id in assigned:
                    continue
                number = right.value  # type: ignore[attr-defined]
                if isinstance(op, ast.Gt | ast.GtE):
                    table = self.low
                elif isinstance(op, ast.Lt | ast.LtE):
                    table = self.high
                else:
                    continue
                table.setdefault(left.id, []).append((number, isinstance(op, ast.Gt | ast.Lt)))
                added.append((table, left.id))
        return added

    def _forget(self, added: list[tuple[dict[str, list[Any]], str]]) -> None:
        for table, name in reversed(added):
            table[name].pop()

    def _known_item(self, node: ast.IfExp) -> ast.expr | None:
        """`c[n]` for `c2[n] if n < len((c2 := read)) else ...` where `n >= 0` holds and an enclosing test found
        `n < len(c)` of a list `c` read the same way: `c2` is that list, and its item `n` is there."""
        body, length = node.body, _length_test(node.test) if isinstance(node.test, ast.Compare) else None
        if length is None or not (isinstance(body, ast.Subscript) and isinstance(body.value, ast.Name)
                                  and isinstance(body.slice, ast.Name)):
            return None
        index, content, read = length
        if body.value.id != content or body.slice.id != index or self.reads[content] != 1 \
                or not self._holds(body.slice, ast.GtE(), ast.Constant(0)):
            return None
        dumped = ast.dump(read)
        for known, known_read in reversed(self.lengths.get(index, ())):
            if known_read == dumped:
                return ast.Subscript(ast.Name(known, ast.Load()), ast.Name(index, ast.Load()), ast.Load())
        return None

    def _holds(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> bool:
        """Whether `left op right` surely holds where it is evaluated."""
        if isinstance(right, ast.Name) and _is_number(left):
            left, right, op = right, left, _MIRRORED.get(type(op), ast.Eq)()
        if not (isinstance(left, ast.Name) and _is_number(right)):
            return False
        number = right.value  # type: ignore[attr-defined]
        if isinstance(op, ast.Gt | ast.GtE):  # some known low bound at or above the number
            return any(low > number or low == number and (strict or isinstance(op, ast.GtE))
                       for low, strict in self.low.get(left.id, ()))
        if isinstance(op, ast.Lt | ast.LtE):
            return any(high < number or high == number and (strict or isinstance(op, ast.LtE))
                       for high, strict in self.high.get(left.id, ()))
        return False


_MIRRORED: dict[type[ast.cmpop], type[ast.cmpop]] = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt,
                                                     ast.GtE: ast.LtE}


def _assigned_in(node: ast.AST) -> Counter[str]:
    """The locals `node` assigns (`:=`), each with how many places assign it."""
    return Counter(n.target.id for n in ast.walk(node)
                   if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name))


def _length_test(test: ast.Compare) -> tuple[str, str, ast.expr] | None:
    """For `n < len((c := read))`, with `read` a lookup of locals and known tables (`D['z'][keys[i]]`):
    n, c and read."""
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Lt) or not isinstance(test.left, ast.Name):
        return None
    call = test.comparators[0]
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "len"
            and len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.NamedExpr)):
        return None
    placed = call.args[0]
    if not isinstance(placed.target, ast.Name) or not _is_lookup(placed.value):
        return None
    return test.left.id, placed.target.id, placed.value


def _is_lookup(node: ast.expr) -> bool:
    """Whether `node` only reads locals and constants through subscripts: the same value each time it runs
    within an expression, which changes no data."""
    if isinstance(node, ast.Name | ast.Constant):
        return True
    return isinstance(node, ast.Subscript) and _is_lookup(node.value) and _is_lookup(node.slice)


def _names_of(node: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _conjuncts(test: ast.expr) -> list[ast.expr]:
    """The tests that all hold when `test` does: `a and (b and c)` gives a, b and c."""
    found: list[ast.expr] = []
    pending = [test]
    while pending:
        one = pending.pop()
        if isinstance(one, ast.BoolOp) and isinstance(one.op, ast.And):
            pending.extend(reversed(one.values))
        else:
            found.append(one)
    return found
