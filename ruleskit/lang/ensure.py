"""Compiling `ensure` statements, `old(...)` and pack properties: checks that only `ruleskit test` runs.

`ensure COND [, "message"]` states what must hold at that point of an effect. In normal play it
does nothing (one test of `ctx.olds`, which is None there). While properties are checked the
context carries a stack of snapshots (`ctx.olds`): the game data as each running action, hook or
procedure that reads `old(...)` began. `old(EXPR)` evaluates EXPR over the innermost snapshot, with
the locals as they are now. A failed check raises PropertyFailure naming where it is written, its
text, the values of both sides of a comparison, and the locals it saw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import LanguageError, ProgramError
from ..runtime.checks import Check
from ..runtime.context import Ctx
from .decisions import DecisionCompiler
from .expressions import unquote
from .parser import Origin, parse, position
from .scope import ANY, Fn, Scope

if TYPE_CHECKING:  # lark is imported when something is parsed (lang/parser.py)
    from lark import Token, Tree

# The kinds of definition that keep a snapshot of the data as they begin, for old(...).
_OLD_FRAMES = ("action", "proc", "hook")


class EnsureCompiler(DecisionCompiler):
    """Adds `ensure`, `old(...)` and compiled property checks to the compilers."""

    discard_code = False  # True while compiling only for the errors (properties a game will not check)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checking_depth = 0  # > 0 while compiling the condition of an ensure or a property
        self.property_old: bool | None = None  # whether the property being compiled may read old(...)
        self.old_users: set[str] = set()  # "proc NAME", "hook NAME", "action NAME" reading old(...)
        if "old" in self.rule_defs:
            definition = self.rule_defs["old"]
            raise LanguageError("'old' is a built-in name (old(...) in an ensure) and cannot name a rule",
                                file=definition.origin.file, line=definition.line)

    def procedure_replaced(self, name: str, call: Callable[[Ctx, list[Any]], Any]) -> None:
        """Procedure `name` now runs as `call` (wrapped for its properties); closures look it up each call."""

    # ------------------------------------------------------------- ensure

    def compile_stmt(self, node: Tree, scope: Scope) -> Fn:
        if node.data == "ensure_stmt":
            return self.s_ensure_stmt(node, scope)  # no step of the budget: it costs nothing in normal play
        return super().compile_stmt(node, scope)

    def s_ensure_stmt(self, node: Tree, scope: Scope) -> Fn:
        cond_node, message_token = node.children
        message = unquote(str(message_token)) if message_token is not None else ""
        line, _ = self.origin.at(position(node)[0])
        check = self.compile_check(cond_node, scope, "ensure", message, self.origin.file, line)

        def run(ctx: Ctx) -> None:
            if ctx.olds is not None:
                check.verify(ctx)

        return run

    def compile_check(self, node: Tree, scope: Scope, name: str, message: str, file: str,
                      line: int | None) -> Check:
        """A condition as a Check: the condition, and both sides of a comparison for the report."""
        self.checking_depth += 1
        try:
            cond, cond_type = self.compile_expr(node, scope)
            sides: list[tuple[str, Fn]] = []
            if node.data == "compare":
                for side in (node.children[0], node.children[2]):
                    sides.append((unparse(side), self.compile_expr(side, scope)[0]))
            # A conjunction is reported by its first false part, with that part's sides.
            parts = [self.compile_check(part, scope, name, message, file, line)
                     for part in _conjuncts(node)] if node.data == "and_op" else []
        finally:
            self.checking_depth -= 1
        if cond_type not in ("bool", ANY):
            raise self.error(node, f"{name} needs a condition (true or false), not a value of type {cond_type}")
        return Check(name, cond, sides, unparse(node), message, file, line, parts)

    def compile_property(self, text: str, origin: Origin, names: dict[str, str], what: str, name: str,
                         message: str, old: bool) -> Check:
        """Compile a property's `check` written in TOML; `old` says whether it may read old(...)."""
        self.origin = origin
        self.current = what
        self.property_old = old
        try:
            tree = parse(text, "expr", origin)
            check = self.compile_check(tree, Scope(names), name, message, origin.file, origin.line)
        finally:
            self.property_old = None
        self._note_calls(what)
        return check

    # ------------------------------------------------------------- old(...)

    def e_call(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        name_token, args_node = node.children
        if str(name_token) != "old":
            return super().e_call(node, scope)
        args = args_node.children if args_node is not None else []
        if len(args) != 1:
            raise self.error(node, f"old() takes 1 argument, not {len(args)}")
        if not self.checking_depth:
            raise self.error(node, "old(...) may only be used inside an ensure or a property's check")
        available = self.property_old if self.property_old is not None else \
            self.current.split(" ", 1)[0] in _OLD_FRAMES
        if not available:
            raise self.error(node, f"old(...) reads the data as an action, hook or procedure began, and "
                                   f"{self.current} is none of these")
        self.old_users.add(self.current)
        inner, inner_type = self.compile_expr(args[0], scope)
        where = self.where(node)

        def read_old(ctx: Ctx) -> Any:
            olds = ctx.olds
            if not olds:
                raise ProgramError(f"old(...) has no earlier data to read in {where}")
            now = ctx.data
            ctx.data = olds[-1]
            try:
                return inner(ctx)
            finally:
                ctx.data = now

        return read_old, inner_type


def _conjuncts(node: Tree) -> list[Tree]:
    """The parts of `a and b and c`."""
    from lark import Tree

    if isinstance(node, Tree) and node.data == "and_op":
        return _conjuncts(node.children[0]) + _conjuncts(node.children[1])
    return [node]


# ---------------------------------------------------------------- the text of a condition, for reports

_INFIX = {"or_op": "or", "and_op": "and", "in_op": "in", "not_in_op": "not in"}
_COMPOUND = {"binop", "compare", "or_op", "and_op", "in_op", "not_in_op", "not_op", "cond_expr", "neg"}


def unparse(node: Tree | Token | None) -> str:
    """Rule-language text for a parsed expression (compound operands in parentheses)."""
    from lark import Token, Tree

    if node is None:
        return ""
    if isinstance(node, Token):
        return str(node)
    data, children = node.data, node.children

    def operand(child: Tree | Token) -> str:
        text = unparse(child)
        return f"({text})" if isinstance(child, Tree) and child.data in _COMPOUND else text

    def listed(args: Tree | None) -> str:
        return ", ".join(unparse(a) for a in args.children) if args is not None else ""

    if data in ("int_lit", "str_lit", "name"):
        return str(children[0])
    if data in ("true_lit", "false_lit", "none_lit"):
        return data[:-4]
    if data == "field":
        return f"{operand(children[0])}.{children[1]}"
    if data == "index":
        return f"{operand(children[0])}[{unparse(children[1])}]"
    if data == "call":
        return f"{children[0]}({listed(children[1])})"
    if data == "list_lit":
        return f"[{listed(children[0])}]"
    if data == "comprehension":
        body, var, source, cond = children
        return f"[{unparse(body)} for {var} in {unparse(source)}" + (f" if {unparse(cond)}" if cond else "") + "]"
    if data == "neg":
        return f"-{operand(children[0])}"
    if data == "not_op":
        return f"not {operand(children[0])}"
    if data in ("binop", "compare"):
        return f"{operand(children[0])} {children[1]} {operand(children[2])}"
    if data in _INFIX:
        return f"{operand(children[0])} {_INFIX[data]} {operand(children[1])}"
    if data == "cond_expr":
        return f"if {unparse(children[0])} then {unparse(children[1])} else {unparse(children[2])}"
    return " ".join(unparse(c) for c in children if c is not None)
