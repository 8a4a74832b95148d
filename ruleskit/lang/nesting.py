"""Leaving out the count of nested calls where no chain of calls can reach the limit.

Generated code counts how deep calls nest (`ctx.depth`) so that a chain of rules calling each other stops
at `MAX_DEPTH` with a located error rather than exhausting Python's stack. Recursion is refused when a
pack is compiled (`Compiler._check_recursion`), so the calls form a graph without cycles, and the deepest
nesting any run can reach is its longest chain of definitions. When that chain is well short of the
limit, the error can never be raised: the counting (an increment, a test and a decrement per call, a
save and a restore per entry point) is work with no effect, and is taken out of the generated code.

Only pack code called through a helper could nest without a call the graph records: a zone's capacity
that asks for a zone's room (`free`), for one. Such a pack keeps its counts (see
`GeneratingCompiler.count_nesting_where_needed`).
"""

from __future__ import annotations

import ast

from ..runtime.context import MAX_DEPTH

# A chain of definitions this long or shorter leaves room under the limit for what nests outside them
# (a capacity worked out inside a procedure, an expression compiled after the pack).
SHALLOW = MAX_DEPTH // 2
_COUNTED = ("rule:", "proc:", "hook:")  # a call of these enters a level; an event or a snippet does not


def longest_chain(calls: dict[str, set[str]]) -> int:
    """The most definitions any chain of calls in `calls` (caller -> callees, without cycles) nests."""
    deepest: dict[str, int] = {}
    for root in sorted(calls):
        # Depth first without recursion (a hostile chain may be thousands long): a node is worked out
        # once all its callees are.
        stack: list[tuple[str, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if node in deepest:
                continue
            callees = sorted(calls.get(node, ()))
            if not ready:
                stack.append((node, True))
                stack.extend((callee, False) for callee in callees if callee not in deepest)
                continue
            below = max((deepest.get(callee, 0) for callee in callees), default=0)
            deepest[node] = below + (1 if node.startswith(_COUNTED) else 0)
    return max(deepest.values(), default=0)


def _is_depth(node: ast.expr) -> bool:
    """`ctx.depth`: the context's count (generated code names its context `ctx`)."""
    return isinstance(node, ast.Attribute) and node.attr == "depth" and isinstance(node.value, ast.Name) \
        and node.value.id == "ctx"


def _counts_nesting(statement: ast.stmt) -> bool:
    """A statement of the nesting count: `ctx.depth += 1` or `-= 1`, `depth = ctx.depth`, `ctx.depth = depth`,
    or the test against the limit."""
    if isinstance(statement, ast.AugAssign):
        return _is_depth(statement.target)
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
        return (isinstance(target, ast.Name) and target.id == "depth" and _is_depth(value)) or \
            (_is_depth(target) and isinstance(value, ast.Name) and value.id == "depth")
    if isinstance(statement, ast.If) and isinstance(statement.test, ast.Compare):
        test = statement.test
        return _is_depth(test.left) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Gt | ast.GtE) and \
            isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == MAX_DEPTH
    return False


def _is_depth_test(test: ast.expr) -> bool:
    """`ctx.depth <= N`: an inlined rule's test that its calls would fit under the limit (`inlining.guarded`)."""
    return isinstance(test, ast.Compare) and _is_depth(test.left) and len(test.ops) == 1 and \
        isinstance(test.ops[0], ast.LtE) and isinstance(test.comparators[0], ast.Constant)


def _without_counts(body: list[ast.stmt]) -> list[ast.stmt]:
    kept: list[ast.stmt] = []
    for statement in body:
        if _counts_nesting(statement):
            continue
        if isinstance(statement, ast.If) and isinstance(statement.test, ast.BoolOp) and \
                isinstance(statement.test.op, ast.And) and any(_is_depth_test(v) for v in statement.test.values):
            # No call nests here: the inlined body always fits, and runs as the calls would have.
            values = [v for v in statement.test.values if not _is_depth_test(v)]
            statement.test = values[0] if len(values) == 1 else ast.BoolOp(ast.And(), values)
        if isinstance(statement, ast.Try) and statement.finalbody:
            statement.finalbody = _without_counts(statement.finalbody)
            if not statement.finalbody and not statement.handlers and not statement.orelse:
                kept.extend(_without_counts(statement.body))  # a `try` only to put the depth back
                continue
        kept.append(statement)
    return kept


def strip_nesting_counts(function: ast.FunctionDef) -> None:
    """Take the nesting count out of a generated function (in place), at every level of its statements."""
    blocks: list[ast.AST] = [function]
    while blocks:
        node = blocks.pop()
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if isinstance(statements, list) and statements and isinstance(statements[0], ast.stmt):
                setattr(node, field, _without_counts(statements) or [ast.Pass()])
        for field in ("body", "orelse", "finalbody", "handlers"):
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                blocks.extend(s for s in statements if isinstance(s, ast.stmt | ast.excepthandler))
