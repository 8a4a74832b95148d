"""Small rules written into the rules that call them, in generated code.

A call to a rule costs a Python call and the rule's entry (a step of the budget, the nesting limit),
which for a rule like "the disc at column c, row r" is most of its work. A rule is *inlinable* when its
body is a plain expression that cannot touch the step budget or the nesting depth except through calls to
other inlinable rules: no list built by a comprehension (which charges a step per element), no builtin
or closure given the context, no call to a rule that is not inlinable itself (so no recursion), no
`modify` hook on it. A caller then evaluates the body in place: its arguments bound to fresh Python
locals, each inlined call counted in a local (`INLINED_STEPS`), every local it assigns renamed for that
copy so that no two copies share one.

Exactness is kept by a guard on the caller's entry: the inlined body runs only when the budget has room
for every inlined call and the nesting limit for the deepest, so neither can run out inside it;
otherwise the caller runs the body as written, with its calls, and the error comes from where it always
did. The steps counted are added to `ctx.steps` however the body ends, so the budget stands where the
calls would have left it.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterable
from typing import Any

import attrs

INLINED_STEPS = "inlined_steps"
# The largest inlined body, in AST nodes, that a caller takes in place of a call (its own calls inlined);
# the most a caller's body may grow to with them; how deep inlined calls may nest in it. Beyond these a
# call stays a call: the limits keep the generated module small and within what Python compiles.
MAX_INLINED_NODES = 4000
MAX_CALLER_NODES = 20000
MAX_INLINED_DEPTH = 4
# Helpers given the context that only read from it: never the step budget or the nesting depth.
READ_ONLY_HELPERS = frozenset({"any_field"})
_NOT_INLINABLE = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda, ast.Yield,
                  ast.YieldFrom, ast.Await)


@attrs.define
class RuleBody:
    """A generated rule body: its parameters as Python locals (`L_name`) and the expression."""

    params: tuple[str, ...]
    body: ast.expr


@attrs.define
class Inlined:
    """An inlinable rule's body with its own calls inlined, the calls that may count and how deep they nest."""

    params: tuple[str, ...]
    body: ast.expr
    steps: int
    depth: int


def _size(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))


def _passes_context(call: ast.Call, context: str) -> bool:
    return any(isinstance(a, ast.Name) and a.id == context for a in call.args)


class Inliner:
    """Finds the inlinable rules among `rules` (keyed by the names generated code calls them by) and
    writes them into callers' bodies."""

    def __init__(self, rules: dict[str, RuleBody], context: str, not_inlinable: Iterable[str] = ()) -> None:
        self.context = context
        self.rules = rules
        self.copies = 0
        self.inlinable: dict[str, Inlined] = {}
        excluded = set(not_inlinable)
        candidates = {name: rule for name, rule in rules.items() if name not in excluded}
        grew = True
        while grew:  # a rule whose calls are all to inlinable rules is inlinable: none reaches itself
            grew = False
            for name, rule in candidates.items():
                if name in self.inlinable or not self._pure(rule.body):
                    continue
                body, steps, depth = self._expand(rule.body)
                if depth < MAX_INLINED_DEPTH and _size(body) <= MAX_INLINED_NODES:
                    self.inlinable[name] = Inlined(rule.params, body, steps, depth)
                    grew = True
            candidates = {n: r for n, r in candidates.items() if n not in self.inlinable}

    def _pure(self, body: ast.expr) -> bool:
        """Whether `body` touches the budget and the nesting depth only through calls to inlinable rules."""
        for node in ast.walk(body):
            if isinstance(node, _NOT_INLINABLE):
                return False
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) and func.id in self.inlinable:
                    continue
                if isinstance(func, ast.Name) and func.id in self.rules:
                    return False
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                        and func.value.id == self.context:
                    return False
                if _passes_context(node, self.context) and not (isinstance(func, ast.Name)
                                                                 and func.id in READ_ONLY_HELPERS):
                    return False
        return True

    def inline(self, body: ast.expr) -> tuple[ast.expr, int, int] | None:
        """`body` with its calls to inlinable rules written in place, the most steps those may count and
        the deepest they nest; None if it calls none (outside comprehensions, which are left as they are)."""
        expanded, steps, depth = self._expand(body)
        if not steps or _size(expanded) > MAX_CALLER_NODES:
            return None
        return expanded, steps, depth

    def _expand(self, body: ast.expr) -> tuple[ast.expr, int, int]:
        inliner = self
        totals = {"steps": 0, "depth": 0}

        class Replace(ast.NodeTransformer):
            def visit_Call(self, node: ast.Call) -> ast.AST:
                self.generic_visit(node)  # the arguments first: their calls are inlined too
                func = node.func
                if not (isinstance(func, ast.Name) and func.id in inliner.inlinable):
                    return node
                callee = inliner.inlinable[func.id]
                totals["steps"] += 1 + callee.steps
                totals["depth"] = max(totals["depth"], 1 + callee.depth)
                return inliner._copy(callee, node.args[1:])

            def generic_visit(self, node: ast.AST) -> ast.AST:
                if isinstance(node, _NOT_INLINABLE):
                    return node  # names bound inside a comprehension cannot be assigned in it
                return super().generic_visit(node)

        result = Replace().visit(copy.deepcopy(body))
        assert isinstance(result, ast.expr)
        return result, totals["steps"], totals["depth"]

    def _copy(self, callee: Inlined, args: list[ast.expr]) -> ast.expr:
        """One copy of `callee`'s body for these arguments, its locals renamed for this copy alone."""
        self.copies += 1
        suffix = f"_{self.copies}"
        body = copy.deepcopy(callee.body)
        assigned = {n.target.id for n in ast.walk(body)
                    if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)} - {INLINED_STEPS}
        renamed = {name: name + suffix for name in assigned | set(callee.params)}
        given: dict[str, ast.expr] = {}
        bindings: list[ast.expr] = []
        for param, arg in zip(callee.params, args, strict=True):
            if isinstance(arg, ast.Constant | ast.Name):
                given[param] = arg  # a plain load: read where the body reads it
            else:
                bindings.append(ast.NamedExpr(ast.Name(renamed[param], ast.Store()), arg))

        class Rename(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                if isinstance(node.ctx, ast.Load) and node.id in given:
                    return copy.deepcopy(given[node.id])
                if node.id in renamed:
                    return ast.Name(renamed[node.id], node.ctx)
                return node

        body = Rename().visit(body)
        count = ast.NamedExpr(ast.Name(INLINED_STEPS, ast.Store()),
                              ast.BinOp(ast.Name(INLINED_STEPS, ast.Load()), ast.Add(), ast.Constant(1)))
        if not bindings:  # the count is at least 1, so true: the body follows it
            return ast.IfExp(count, body, ast.Constant(None))
        # The arguments in order, then the step the call would take, then the body.
        elements: list[ast.expr] = [*bindings, count, body]
        return ast.Subscript(ast.Tuple(elements, ast.Load()), ast.Constant(-1), ast.Load())


def guarded(inlined: ast.expr, original: ast.expr, steps: int, depth: int, context: str, max_depth: int,
            target: str) -> list[ast.stmt]:
    """`target = inlined` when neither the budget nor the nesting limit can run out in it, with the steps it
    counted added to the budget however it ends; otherwise `target = original`."""
    ctx: Any = ast.Name(context, ast.Load())
    room = ast.Compare(ast.Attribute(ctx, "steps", ast.Load()), [ast.LtE()],
                       [ast.BinOp(ast.Attribute(ctx, "budget", ast.Load()), ast.Sub(), ast.Constant(steps))])
    shallow = ast.Compare(ast.Attribute(ctx, "depth", ast.Load()), [ast.LtE()], [ast.Constant(max_depth - depth)])
    count = ast.Name(INLINED_STEPS, ast.Store())
    fast = [ast.Assign([count], ast.Constant(0)),
            ast.Try([ast.Assign([ast.Name(target, ast.Store())], inlined)], [], [],
                    [ast.AugAssign(ast.Attribute(ast.Name(context, ast.Load()), "steps", ast.Store()), ast.Add(),
                                   ast.Name(INLINED_STEPS, ast.Load()))])]
    return [ast.If(ast.BoolOp(ast.And(), [room, shallow]), fast, [ast.Assign([ast.Name(target, ast.Store())],
                                                                               original)])]
