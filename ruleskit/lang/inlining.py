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
from collections.abc import Iterable
from typing import Any

import attrs

from .folding import fold_constants

INLINED_STEPS = "inlined_steps"
# The count and the nesting depth as a body that counts steps of its own began (`guarded`).
INLINED_FROM = "inlined_from"
INLINED_DEPTH = "inlined_depth"
# The largest inlined body, in AST nodes, that a caller takes in place of a call (its own calls inlined);
# the most a caller's body may grow to with them; how deep inlined calls may nest in it. Beyond these a
# call stays a call: the limits keep the generated module small and within what Python compiles.
MAX_INLINED_NODES = 1500
MAX_CALLER_NODES = 6000
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
    """An inlinable rule's body with its own calls inlined, the calls that may count and how deep they nest,
    and the locals it assigns (renamed in each copy)."""

    params: tuple[str, ...]
    body: ast.expr
    steps: int
    depth: int
    assigned: frozenset[str]


def _passes_context(call: ast.Call, context: str) -> bool:
    return any(isinstance(a, ast.Name) and a.id == context for a in call.args)


def _assigned(body: ast.expr) -> frozenset[str]:
    return frozenset(n.target.id for n in ast.walk(body)
                     if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)) - {INLINED_STEPS}


def _count(steps: int) -> ast.NamedExpr:
    """`(inlined_steps := inlined_steps + steps)`: the steps of inlined calls, counted where they are made."""
    return ast.NamedExpr(ast.Name(INLINED_STEPS, ast.Store()),
                         ast.BinOp(ast.Name(INLINED_STEPS, ast.Load()), ast.Add(), ast.Constant(steps)))


def _counted(node: ast.AST) -> int | None:
    """The steps `node` counts, if it is a count (`_count`)."""
    if isinstance(node, ast.NamedExpr) and node.target.id == INLINED_STEPS and isinstance(node.value, ast.BinOp) \
            and isinstance(node.value.right, ast.Constant) and type(node.value.right.value) is int:
        return node.value.right.value
    return None


def take_counts(node: ast.expr) -> tuple[ast.expr, int]:
    """`node` (a fresh tree, changed in place) without the counts of inlined calls that run whenever it runs,
    and the steps they counted: the caller counts them together, in one place.

    The steps are only read once the whole inlined body has run, or stopped with an error (which ends the
    job, or the listing, whose steps no one reads again); so where in the body they are counted does not
    matter, only that each is counted exactly when its call would have run. A count runs whenever `node`
    runs when it is reached through parts that always run: both sides of an operation, a test, the
    first operand of `and`/`or` or of a comparison, a call's arguments, the elements of a tuple.
    """
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Tuple):  # a copy's `(bindings, body)[-1]`
        kept: list[ast.expr] = []
        total = 0
        for element in node.value.elts:
            steps = _counted(element)
            if steps is not None:
                total += steps
                continue
            element, inner = take_counts(element)
            total += inner
            kept.append(element)
        node.value.elts = kept
        if len(kept) == 1 and _is_minus_one(node.slice):
            return kept[0], total
        return node, total
    if isinstance(node, ast.IfExp):
        steps = _counted(node.test)
        if steps is not None:  # `body if (count) else None`: the count is at least 1, so the body always runs
            body, inner = take_counts(node.body)
            return body, steps + inner
        node.test, total = take_counts(node.test)
        return node, total
    total = 0
    for field in _ALWAYS_RUN.get(type(node), ()):
        value = getattr(node, field)
        if isinstance(value, list):
            if not value:
                continue
            first_only = type(node) in (ast.BoolOp, ast.Compare) and field in ("values", "comparators")
            for index in range(1 if first_only else len(value)):
                value[index], steps = take_counts(value[index])
                total += steps
        else:
            new, steps = take_counts(value)
            setattr(node, field, new)
            total += steps
    return node, total


def _is_minus_one(node: ast.expr) -> bool:
    """Whether `node` is -1 (as generated, or as parsed from text)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant) and node.operand.value == 1
    return isinstance(node, ast.Constant) and node.value == -1


# The parts of an expression that run whenever it runs (of `and`/`or` and of a comparison, the first only).
_ALWAYS_RUN: dict[type, tuple[str, ...]] = {
    ast.BinOp: ("left", "right"), ast.UnaryOp: ("operand",), ast.Compare: ("left", "comparators"),
    ast.BoolOp: ("values",), ast.Call: ("func", "args"), ast.Subscript: ("value", "slice"),
    ast.Tuple: ("elts",), ast.List: ("elts",), ast.NamedExpr: ("value",), ast.Attribute: ("value",),
}


# The marks generated code puts on nodes that a copy keeps.
_KEPT_MARKS = ("int_bounds", "sure_int")


class _TooLarge(Exception):
    """An expansion grew past its limit: it is given up at once, not finished and then dropped."""


class _Expansion:
    """One body with its calls to inlinable rules replaced by copies of theirs: built node by node (copying
    with `copy.deepcopy` took seconds on a pack whose checks nest a few rules), counting as it goes."""

    def __init__(self, inliner: Inliner, limit: int) -> None:
        self.inliner = inliner
        self.limit = limit
        self.steps = 0
        self.depth = 0
        self.size = 0

    def expand(self, node: ast.AST) -> Any:
        inlinable = self.inliner.inlinable
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in inlinable:
            args = [self.expand(a) for a in node.args[1:]]  # the arguments first: their calls are inlined too
            callee = inlinable[node.func.id]
            self.steps += 1 + callee.steps
            self.depth = max(self.depth, 1 + callee.depth)
            return self.copy(callee, args)
        if isinstance(node, _NOT_INLINABLE):
            return self.clone(node, {}, {})  # names bound inside a comprehension cannot be assigned in it
        return self._rebuild(node, self.expand)

    def copy(self, callee: Inlined, args: list[ast.expr]) -> ast.expr:
        """One copy of `callee`'s body for these arguments, its locals renamed for this copy alone."""
        self.inliner.copies += 1
        # A prefix no other name in generated code has: pack locals are `L_...`, and a pack local named
        # `b_10` must not meet a copy's `L_b` renamed `L_b_10`.
        prefix = f"N{self.inliner.copies}_"
        renamed = {name: prefix + name for name in callee.assigned | set(callee.params)}
        given: dict[str, ast.expr] = {}
        bindings: list[ast.expr] = []
        for param, arg in zip(callee.params, args, strict=True):
            if isinstance(arg, ast.Constant | ast.Name):
                given[param] = arg  # a plain load: read where the body reads it
            else:
                bindings.append(ast.NamedExpr(ast.Name(renamed[param], ast.Store()), arg))
        body, counted = take_counts(self.clone(callee.body, renamed, given))
        count = _count(1 + counted)
        if not bindings:  # the count is at least 1, so true: the body follows it
            return ast.IfExp(count, body, ast.Constant(None))
        # The arguments in order, then the step the call would take, then the body.
        elements: list[ast.expr] = [*bindings, count, body]
        return ast.Subscript(ast.Tuple(elements, ast.Load()), ast.Constant(-1), ast.Load())

    def clone(self, node: ast.AST, renamed: dict[str, str], given: dict[str, ast.expr]) -> Any:
        if isinstance(node, ast.Name):
            self.size += 1
            if isinstance(node.ctx, ast.Load) and node.id in given:
                return self.clone(given[node.id], {}, {})
            return ast.Name(renamed.get(node.id, node.id), node.ctx)
        return self._rebuild(node, lambda child: self.clone(child, renamed, given))

    def _rebuild(self, node: ast.AST, visit: Any) -> Any:
        self.size += 1
        if self.size > self.limit:
            raise _TooLarge
        new = node.__class__.__new__(node.__class__)
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                value = [visit(v) if isinstance(v, ast.AST) else v for v in value]
            elif isinstance(value, ast.AST) and not isinstance(value, ast.expr_context):
                value = visit(value)
            setattr(new, field, value)
        for known in _KEPT_MARKS:  # what the generator knew of the node's value (`ranges.py`)
            if hasattr(node, known):
                setattr(new, known, getattr(node, known))
        return new


class Inliner:
    """Finds the inlinable rules among `rules` (keyed by the names generated code calls them by) and
    writes them into callers' bodies."""

    def __init__(self, rules: dict[str, RuleBody], context: str, not_inlinable: Iterable[str] = ()) -> None:
        self.context = context
        self.rules = rules
        self.copies = 0
        self.inlinable: dict[str, Inlined] = {}
        excluded = set(not_inlinable)
        # Rules cannot call themselves, even through others: taken callees first, each rule is decided once.
        for name in self._callees_first():
            rule = rules[name]
            if name in excluded or not self._pure(rule.body):
                continue
            expansion = _Expansion(self, MAX_INLINED_NODES)
            try:
                body = expansion.expand(rule.body)
            except (_TooLarge, RecursionError):  # the expansion recurses once per level of the body
                continue
            if expansion.depth < MAX_INLINED_DEPTH:
                self.inlinable[name] = Inlined(rule.params, body, expansion.steps, expansion.depth,
                                               _assigned(body))

    def _callees_first(self) -> list[str]:
        """The rules, each after every rule it calls (walked without recursion: a chain of rules may be long)."""
        calls = {name: sorted({n.func.id for n in ast.walk(rule.body) if isinstance(n, ast.Call)
                               and isinstance(n.func, ast.Name) and n.func.id in self.rules and n.func.id != name})
                 for name, rule in self.rules.items()}
        order: list[str] = []
        placed: set[str] = set()
        for root in self.rules:
            stack = [(root, iter(calls[root]))]
            on_stack = {root}
            while stack:
                name, pending = stack[-1]
                callee = next((c for c in pending if c not in placed and c not in on_stack), None)
                if callee is not None:
                    stack.append((callee, iter(calls[callee])))
                    on_stack.add(callee)
                    continue
                stack.pop()
                on_stack.discard(name)
                if name not in placed:
                    placed.add(name)
                    order.append(name)
        return order

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

    def inline(self, body: ast.expr) -> tuple[ast.expr, int, int, int] | None:
        """`body` with its calls to inlinable rules written in place, the most steps those may count, the
        deepest they nest and the steps they count whenever the body runs (counted before it starts); None
        if it calls none (outside comprehensions, which are left as they are) or would grow too large."""
        if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in self.inlinable
                   for n in ast.walk(body)):
            return None
        expansion = _Expansion(self, MAX_CALLER_NODES)
        try:
            expanded = expansion.expand(body)
        except (_TooLarge, RecursionError):  # too deep a body to copy is left as it is written
            return None
        if not expansion.steps:
            return None
        try:
            folded, counted = take_counts(fold_constants(expanded))
        except RecursionError:  # folding walks the tree recursively too: a body too deep for it stays calls
            return None
        return folded, expansion.steps, expansion.depth, counted


def guarded(inlined: ast.expr, original: ast.expr, steps: int, depth: int, context: str, max_depth: int,
            target: str, counted: int = 0) -> list[ast.stmt]:
    """`target = inlined` when neither the budget nor the nesting limit can run out in it, with the steps it
    counted (from `counted`, those it always counts) added to the budget however it ends; otherwise
    `target = original`.

    A body that also counts steps of its own (a call given the context, a builtin charging a list) tests the
    budget while the inlined calls' steps are held back, so it could end past the budget where the calls
    would have run out. Such a body's count is checked once it ends: past the budget (or failing on the way
    with the budget short), the steps are put back and the body runs as written, raising where the calls
    do. Rules change nothing but the count, so running one again is safe."""
    ctx: Any = ast.Name(context, ast.Load())
    room = ast.Compare(ast.Attribute(ctx, "steps", ast.Load()), [ast.LtE()],
                       [ast.BinOp(ast.Attribute(ctx, "budget", ast.Load()), ast.Sub(), ast.Constant(steps))])
    shallow = ast.Compare(ast.Attribute(ctx, "depth", ast.Load()), [ast.LtE()], [ast.Constant(max_depth - depth)])
    count = ast.Name(INLINED_STEPS, ast.Store())
    add_count = ast.AugAssign(_context_attr(context, "steps", ast.Store()), ast.Add(),
                              ast.Name(INLINED_STEPS, ast.Load()))
    run_inlined = ast.Assign([ast.Name(target, ast.Store())], inlined)
    run_original = ast.Assign([ast.Name(target, ast.Store())], original)
    if not _counts_on_its_own(inlined, context):
        fast: list[ast.stmt] = [ast.Assign([count], ast.Constant(counted)), ast.Try([run_inlined], [], [], [add_count])]
        return [ast.If(ast.BoolOp(ast.And(), [room, shallow]), fast, [run_original])]
    put_back: list[ast.stmt] = [
                ast.Assign([_context_attr(context, "steps", ast.Store())], ast.Name(INLINED_FROM, ast.Load())),
                ast.Assign([_context_attr(context, "depth", ast.Store())], ast.Name(INLINED_DEPTH, ast.Load())),
                run_original]
    over = ast.Compare(ast.BinOp(_context_attr(context, "steps", ast.Load()), ast.Add(),
                                 ast.Name(INLINED_STEPS, ast.Load())),
                       [ast.Gt()], [_context_attr(context, "budget", ast.Load())])
    failed = ast.ExceptHandler(ast.Name("Exception", ast.Load()), None,
                               [ast.If(over, put_back, [add_count, ast.Raise(None, None)])])
    ended = [add_count, ast.If(ast.Compare(_context_attr(context, "steps", ast.Load()), [ast.Gt()],
                                           [_context_attr(context, "budget", ast.Load())]), put_back, [])]
    careful: list[ast.stmt] = [
        ast.Assign([ast.Name(INLINED_FROM, ast.Store())], _context_attr(context, "steps", ast.Load())),
        ast.Assign([ast.Name(INLINED_DEPTH, ast.Store())], _context_attr(context, "depth", ast.Load())),
        ast.Assign([count], ast.Constant(counted)),
        ast.Try([run_inlined], [failed], ended, [])]
    return [ast.If(ast.BoolOp(ast.And(), [room, shallow]), careful, [run_original])]


def _context_attr(context: str, name: str, ctx: ast.expr_context) -> ast.Attribute:
    return ast.Attribute(ast.Name(context, ast.Load()), name, ctx)


# What generated code reads off the context without counting a step.
_READ_ONLY_CONTEXT = frozenset({"data", "me", "env", "model", "program"})


def _counts_on_its_own(expression: ast.expr, context: str) -> bool:
    """Whether `expression` may count steps other than its inlined calls' (held in `INLINED_STEPS`): a call
    given the context (but a read-only helper), or anything of the context but what code only reads. Inlined
    bodies never do (see `Inliner`): what this finds is the caller's own."""
    for node in ast.walk(expression):
        if isinstance(node, ast.Call) and _passes_context(node, context) \
                and not (isinstance(node.func, ast.Name) and node.func.id in READ_ONLY_HELPERS):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == context \
                and node.attr not in _READ_ONLY_CONTEXT:
            return True
    return False
