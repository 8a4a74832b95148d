"""Which generated expressions can neither raise nor count a step: those may be left unevaluated.

`all([...])` and `any([...])` over a list the code builds evaluate every element, then charge a step
per element and look at them. When nothing in an element can raise or count a step, stopping at the
first element that settles the answer gives the same answer, and charging the same steps at once
keeps the budget where it was (`CodeGen._short_circuit`). This module says when that is so, from the
generated code alone, conservatively: anything it does not know is taken to be able to raise.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from typing import Any

# Comparisons that never raise on the language's values (numbers, strings, lists, tables, none).
_EQUALITY = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)
_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def is_quiet(node: ast.expr, item_locals: Mapping[str, frozenset[Any]], namespace: Mapping[str, Any],
             data: str, field_tables: Collection[str] = ()) -> bool:
    """Whether evaluating `node` surely raises nothing and counts no step.

    `item_locals` are the locals that hold one of a kind's items (a comprehension's variable over them);
    `namespace` is the generated module's (its tables of zone keys); `data` is the local of the game data.
    A zone's list read as `data['z'][keys[item]]`, with `item` among the keys, its length, and numbers and
    comparisons made of those and of constants are quiet. `field_tables` names the module's tables of an
    item field ({item: value}, never changed), read as `table[item]`.
    """
    return _Quiet(item_locals, namespace, data, field_tables).quiet(node)


class _Quiet:
    def __init__(self, item_locals: Mapping[str, frozenset[Any]], namespace: Mapping[str, Any], data: str,
                 field_tables: Collection[str]) -> None:
        self.item_locals = item_locals
        self.field_tables = field_tables
        self.namespace = namespace
        self.data = data
        self.lists: set[str] = set()  # locals the expression binds to a zone's list
        self.ints: set[str] = set()  # locals the expression binds to a whole number

    def quiet(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant | ast.Name):
            return True  # generated code reads only locals it has bound
        if isinstance(node, ast.NamedExpr):  # a zone's list kept in a local, or any quiet value
            return self.a_list(node) or self.quiet(node.value)
        if isinstance(node, ast.BoolOp):
            if not self.quiet(node.values[0]):
                return False
            bound = set(self.lists)  # what the later operands bind may not happen
            quiet = all(self.quiet(v) for v in node.values[1:])
            self.lists = bound
            return quiet
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.Not) and self.quiet(node.operand) \
                or isinstance(node.op, ast.USub) and self.number(node.operand)
        if isinstance(node, ast.Subscript):
            return self.item_field(node) is not None
        if isinstance(node, ast.IfExp):
            tested = self.int_test(node.test)
            if tested is not None:  # `x if type((a := n)) is int else general(...)` with n surely a number
                saved = set(self.ints)
                self.ints |= tested
                quiet = self.quiet(node.body)
                self.ints = saved
                return quiet
            if not self.quiet(node.test):
                return False
            bound = set(self.lists)  # each branch sees what the test bound, not what the other branch binds
            quiet = self.quiet(node.body)
            self.lists = set(bound)
            quiet = quiet and self.quiet(node.orelse)
            self.lists = bound
            return quiet
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if not all(self.quiet(o) for o in operands):
                return False
            return all(isinstance(op, _EQUALITY) or isinstance(op, _ORDER) and self.number(left) and self.number(right)
                       for op, left, right in zip(node.ops, operands, operands[1:], strict=False))
        return self.number(node)

    def int_test(self, test: ast.expr) -> set[str] | None:
        """The locals `test` binds when it is `type((a := n)) is int` (or several such joined by `&`) with each
        `n` surely a number: it always holds. None for any other test."""
        if isinstance(test, ast.BinOp) and isinstance(test.op, ast.BitAnd):
            left, right = self.int_test(test.left), self.int_test(test.right)
            return None if left is None or right is None else left | right
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
                and isinstance(test.comparators[0], ast.Name) and test.comparators[0].id == "int"):
            return None
        typed = test.left
        if not (isinstance(typed, ast.Call) and isinstance(typed.func, ast.Name) and typed.func.id == "type"
                and len(typed.args) == 1 and not typed.keywords):
            return None
        placed = typed.args[0]
        if isinstance(placed, ast.NamedExpr) and isinstance(placed.target, ast.Name) and self.number(placed.value):
            return {placed.target.id}
        return None

    def number(self, node: ast.expr) -> bool:
        """Whether `node` is quiet and surely gives a whole number."""
        if isinstance(node, ast.Constant):
            return type(node.value) is int
        if isinstance(node, ast.Name):
            return node.id in self.ints
        if isinstance(node, ast.Subscript):
            values = self.item_field(node)
            return values is not None and all(type(v) is int for v in values)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, ast.Add | ast.Sub | ast.Mult) and self.number(node.left) \
                and self.number(node.right)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.USub) and self.number(node.operand)
        if isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1:
            arg = node.args[0]
            if isinstance(node.func, ast.Name) and node.func.id == "len":  # a zone's length
                return self.a_list(arg)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "count":  # a row's empty slots
                return isinstance(arg, ast.Constant) and arg.value is None and self.a_list(node.func.value)
        return False

    def a_list(self, node: ast.expr) -> bool:
        """Whether `node` is quiet and surely gives a zone's list."""
        if isinstance(node, ast.NamedExpr):
            if self.zone_read(node.value):
                self.lists.add(node.target.id)
                return True
            return False
        if isinstance(node, ast.Name):
            return node.id in self.lists
        return self.zone_read(node)

    def item_field(self, node: ast.Subscript) -> list[Any] | None:
        """For `(ITEMS.get(item) or fail(...))['field']` with `item` a local over items that all have the
        field, or `table[item]` with `table` one of the module's tables of a field (`GeneratingCompiler._field_table`)
        that has them all: the values it may give; None for anything else."""
        table, field = node.value, node.slice
        if isinstance(table, ast.Name) and isinstance(field, ast.Name) and table.id in self.field_tables:
            known, items = self.namespace.get(table.id), self.item_locals.get(field.id)
            if not isinstance(known, dict) or items is None or not all(item in known for item in items):
                return None
            return [known[item] for item in items]
        if not (isinstance(field, ast.Constant) and isinstance(table, ast.BoolOp) and isinstance(table.op, ast.Or)
                and len(table.values) == 2):
            return None
        found = table.values[0]
        if not (isinstance(found, ast.Call) and isinstance(found.func, ast.Attribute) and found.func.attr == "get"
                and isinstance(found.func.value, ast.Name) and found.func.value.id == "ITEMS"
                and len(found.args) == 1 and not found.keywords and isinstance(found.args[0], ast.Name)):
            return None
        fields, items = self.namespace.get("ITEMS"), self.item_locals.get(found.args[0].id)
        if not isinstance(fields, dict) or items is None:
            return None
        values = []
        for item in items:
            known = fields.get(item)
            if not isinstance(known, dict) or field.value not in known:
                return None
            values.append(known[field.value])
        return values

    def zone_read(self, node: ast.expr) -> bool:
        """`data['z'][keys[item]]` with `item` a local over items that are all in `keys`."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript)
                and isinstance(node.value.value, ast.Name) and node.value.value.id == self.data
                and isinstance(node.value.slice, ast.Constant) and node.value.slice.value == "z"):
            return False
        key = node.slice
        if not (isinstance(key, ast.Subscript) and isinstance(key.value, ast.Name) and isinstance(key.slice, ast.Name)):
            return False
        keys, items = self.namespace.get(key.value.id), self.item_locals.get(key.slice.id)
        return isinstance(keys, dict) and items is not None and all(i in keys for i in items)
