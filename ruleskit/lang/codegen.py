"""Compiling rule-language programs to Python code, as Jinja2 compiles templates.

The closure compiler (`compiler.py` and the modules below it) turns each
expression into a tree of Python closures: one call per node at run time.
This compiler checks the same trees with the same code and errors, but emits
Python syntax trees (`ast`) for each entry point (a rule's body, a hook, an
action's condition or effect), compiled once with `compile()`: an expression
such as `me.coins >= cost(c) and c in hand` becomes one Python expression.

Safety: nothing from the pack reaches the generated code as code. Names from
the pack appear only as string constants (dictionary keys); identifiers are
made here from counters; numbers and strings are `ast.Constant`s. The code
runs in a namespace holding the names of `support.py`, the pack's tables and
constants, and an empty `__builtins__`, so no Python builtin, module or
attribute of a Python object but the context's fields is reachable. Step
ticks, call nesting and value limits are enforced as in the closure backend.

Node kinds without an emitter here fall back to the closure backend for that
node (its children are still generated): locals live in `ctx.env` in both
backends, so the two mix freely.
"""

from __future__ import annotations

import ast
import copy
import inspect
import re
import types
import unicodedata
from collections.abc import Callable
from functools import partial
from typing import Any

from lark import Token, Tree

from ..errors import LanguageError
from ..limits import MAX_GENERATED_NODES
from ..model import ZoneRef, edge_key
from ..runtime.context import FRAME_LOCAL, MAX_DEPTH, nothing
from ..runtime.values import MAX_ZONE_ITEMS
from . import builtins, emitted, support
from .compiler import Compiler
from .definitions import Definition
from .expressions import SPECIALS, seat_of_item, unquote
from .inlining import Inliner, RuleBody, guarded
from .nesting import SHALLOW, longest_chain, strip_nesting_counts
from .parser import Origin, parse
from .quiet import is_quiet
from .ranges import (
    COUNT_BOUND,
    PARAM_BOUND,
    Bounds,
    arithmetic,
    bounded,
    negated,
    node_bounds,
    of_values,
    union,
    within,
)
from .scope import ANY, Fn, Scope, element_type, joined_type, type_of
from .statements import bounds_of
from .values import MAX_INT

_CHANCE = {"roll", "random_pick", "shuffled", "sample"}
_CHOICES = {"choose_one", "choose_number", "choose_subset", "choose_order", "choose_count"}
# The choices that take one answer (a `choose ... subset K of` may take one per element).
_ONE_ANSWER = {"choose_one", "choose_number", "choose_subset", "choose_order"}
_ORDERED = {"<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal"}
_ARITHMETIC = {"-": "subtract", "*": "multiply", "//": "floor_divide", "%": "modulo"}
# Helpers that never count a step of the budget nor call code that does.
_STEPLESS = {"owned_count", "owned_free", "owned_index", "owned_first", "owned_list", "zone_count", "zone_free",
             "zone_index", "zone_list", "zone_content", "zone_first", "zone_ref", "not_none", "list_index", "per_player_item",
             "player_name", "type", "fail", "checked", "add", "subtract", "multiply", "floor_divide", "modulo",
             "negate", "add_numbers", "less", "less_equal", "greater", "greater_equal", "need_int", "player_owner", "index",
             "any_field", "copy_list", "kind_items", "player_list", "seat_list", "len"}
# Helpers that run no pack code (whatever steps they count): a definition that calls only these, and
# `get` and `count` of tables and lists, never reads the nesting depth while it runs.
_RUNS_NO_PACK_CODE = _STEPLESS | {"made", "plus", "joined", "same_lists", "equal_values", "charged", "charged_any",
                                  "charged_twice", "charge_at_once", "ticked", "list_any", "list_all", "list_count",
                                  "all", "any", "over_budget", "str", "int", "adjacent_nodes", "pool_amount", "pool_missing"}
# How deep in an expression code is generated; below, the closure backend's code is called (Python's compiler
# fails on code nested some thousand levels deep, and each level of some operators makes several).
MAX_GENERATED_DEPTH = 100
_FLOW_SPECIALS = {"active": "active", "turn_number": "turn", "round_number": "round", "stage": "stage",
                  "phase": "phase"}


def _name(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Load())


def _const(value: Any) -> ast.Constant:
    return ast.Constant(value)


def _sub(value: ast.expr, key: Any) -> ast.Subscript:
    return ast.Subscript(value, key if isinstance(key, ast.expr) else _const(key), ast.Load())


def _type_test(value: ast.expr, type_name: str, what: str, where: str) -> ast.stmt:
    """`if not fits_type(ctx, value, type_name, where): wrong_type(...)`: a value given a declared `player` or kind
    type (a parameter, a rule's result) must be one (`support.fits_type`)."""
    wrong = _call("wrong_type", _name(CTX), value, _const(type_name), _const(what), _const(where))
    fits = _call("fits_type", _name(CTX), value, _const(type_name), _const(where))
    return ast.If(ast.UnaryOp(ast.Not(), fits), [ast.Expr(wrong)], [])


def _call(function: str | ast.expr, *args: ast.expr) -> ast.Call:
    target = _name(function) if isinstance(function, str) else function
    return ast.Call(target, list(args), [])


def _attr(value: ast.expr, attr: str) -> ast.Attribute:
    return ast.Attribute(value, attr, ast.Load())


def _store(target: ast.expr) -> ast.Name | ast.Attribute | ast.Subscript:
    target = ast.fix_missing_locations(target)
    if isinstance(target, ast.Subscript):
        return ast.Subscript(target.value, target.slice, ast.Store())
    if isinstance(target, ast.Attribute):
        return ast.Attribute(target.value, target.attr, ast.Store())
    assert isinstance(target, ast.Name)
    return ast.Name(target.id, ast.Store())


def _int(node: ast.expr) -> ast.expr:
    """Mark `node` as code that gives an int whenever it gives a value (see `_is_int`)."""
    node.sure_int = True  # type: ignore[attr-defined]
    return node


def _var_read(read: ast.expr, var: Any) -> ast.expr:
    """A read of a var, marked as an int for an int var (every write, start value, option and saved state is
    checked to be one), within its `min`..`max` when it declares both (each is checked against them too)."""
    if var.type != "int":
        return read
    if var.min is not None and var.max is not None:
        return bounded(read, (var.min, var.max))
    return _int(read)


def _item_field(how: str, item: ast.expr, field: str, none_message: ast.expr) -> ast.expr:
    """`item.field` of an item surely of a kind with that field: a table lookup that finds nothing for none
    (then `fail` raises the message), so the check costs nothing when it passes."""
    table = _data("ev") if how == "var" else _name("ITEMS")
    return _sub(ast.BoolOp(ast.Or(), [_call(_attr(table, "get"), item), _call("fail", none_message)]), field)


def _seat_test(subject: ast.expr, value: ast.expr) -> ast.expr:
    """`type(subject) is int and 0 <= value < D['n']` (`subject` works `value` out): a seat of this game."""
    return ast.BoolOp(ast.And(), [ast.Compare(_call("type", subject), [ast.Is()], [_name("int")]),
                                  ast.Compare(_const(0), [ast.LtE(), ast.Lt()], [value, _data("n")])])


def _seat_tests(code: list[ast.stmt]) -> dict[str, int]:
    """How many times `code` tests each Python local for a seat of this game (`_seat_test`)."""
    counts: dict[str, int] = {}
    for stmt in code:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and node.left.value == 0 \
                    and len(node.ops) == 2 and isinstance(node.ops[0], ast.LtE) and isinstance(node.ops[1], ast.Lt) \
                    and isinstance(node.comparators[0], ast.Name) and ast.dump(node.comparators[1]) == _SEATS_DUMP:
                counts[node.comparators[0].id] = counts.get(node.comparators[0].id, 0) + 1
    return counts


def _bool(node: ast.expr) -> ast.expr:
    """Mark `node` as code that gives True or False whenever it gives a value."""
    node.sure_bool = True  # type: ignore[attr-defined]
    return node


def _comment(text: str) -> str:
    """Pack text (a name, a version, a file's name) for one comment line of the source: a line break in an
    action's name or the pack's version ended the comment, and the rest was read as Python code."""
    return "".join(repr(char)[1:-1] if unicodedata.category(char)[0] in "CZ" and char != " " else char
                   for char in text)


def _readable(definition: ast.FunctionDef) -> str:
    """A generated function as Python source; one nested too deeply for `ast.unparse` (which recurses once per
    level) is shown by its signature alone: it was compiled, and runs, all the same."""
    try:
        return ast.unparse(definition)
    except RecursionError:
        params = ", ".join(a.arg for a in definition.args.args)
        return f"def {definition.name}({params}):\n    ...  # nested too deeply to print as Python source"


def _assigned(pairs: tuple[tuple[str, ast.expr], ...]) -> list[ast.stmt]:
    """`name = value` for each pair, in order: operands worked out once, in the order the closures take them."""
    return [ast.Assign([ast.Name(name, ast.Store())], value) for name, value in pairs]


def _simple_read(value: ast.expr) -> bool:
    """Whether reading `value` twice costs less than a call and gives the same value: a Python local, or a
    local in ctx.env."""
    return (isinstance(value, ast.Name) and isinstance(value.ctx, ast.Load)) or (
        isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == ENV
        and isinstance(value.slice, ast.Constant))


def _none_tested(call: ast.Call) -> ast.expr | None:
    """`not_none(x, message)` of a local as `x if x is not None else fail(message)`: the same value and
    error, with no call where the value is there (13.8 calls a decision in a pack measured)."""
    if not _simple_read(call.args[0]):
        return None
    value, message = call.args
    return ast.IfExp(ast.Compare(value, [ast.IsNot()], [_const(None)]), value, _call("fail", message))


def _free_names(body: list[ast.stmt]) -> set[str]:
    """The names `body` reads or writes outside the comprehensions that bind them (walked without recursion)."""
    found: set[str] = set()
    stack: list[tuple[ast.AST, frozenset[str]]] = [(stmt, frozenset()) for stmt in body]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, ast.Name):
            if node.id not in bound:
                found.add(node.id)
            continue
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            inner = bound | {n.id for loop in node.generators for n in ast.walk(loop.target)
                             if isinstance(n, ast.Name)}
            first, *rest = node.generators
            stack.append((first.iter, bound))  # the first source is worked out outside the comprehension
            stack.extend((part, inner) for part in [first.target, *first.ifs, *rest])
            stack.extend((part, inner) for part in ([node.key, node.value] if isinstance(node, ast.DictComp)
                                                     else [node.elt]))
            continue
        stack.extend((child, bound) for child in ast.iter_child_nodes(node))
    return found


def _assign_to(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign([ast.Name(name, ast.Store())], value)


def _with_loops(body: list[ast.stmt]) -> list[ast.stmt]:
    """`x = any(e for v in s)` and `return all(...)` (of one loop over a list, at the top of the value, or of a
    branch of it) as a `for` loop in the function itself, which stops where the builtin would: no generator
    is made and resumed for each element. The budget tests that `_short_circuit` puts before them
    (`charge_at_once`, `charged_twice`) are written out too. Only where the loop's variable is named nowhere
    else in the function (outside comprehensions of their own), so that the loop setting it changes nothing."""
    taken: set[str] | None = None  # the names used outside comprehensions, found when a loop is first made

    def rewrite(value: ast.expr, make: Callable[[ast.expr], ast.stmt], depth: int) -> list[ast.stmt] | None:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("any", "all") \
                and len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.GeneratorExp):
            lazy = value.args[0]
            if len(lazy.generators) != 1 or lazy.generators[0].is_async:
                return None
            loop = lazy.generators[0]
            nonlocal taken
            if taken is None:
                taken = _free_names(body)
            if not isinstance(loop.target, ast.Name) or loop.target.id in taken:
                return None
            wanted = value.func.id == "any"  # the element that settles it: a true one for any, a false for all
            settles = lazy.elt if wanted else ast.UnaryOp(ast.Not(), lazy.elt)
            test = ast.BoolOp(ast.And(), [*loop.ifs, settles]) if loop.ifs else settles
            settled = make(_const(wanted))
            leave: list[ast.stmt] = [settled] if isinstance(settled, ast.Return) else [settled, ast.Break()]
            return [ast.For(ast.Name(loop.target.id, ast.Store()), loop.iter, [ast.If(test, leave, [])],
                            [make(_const(not wanted))])]
        if not isinstance(value, ast.IfExp) or depth > 3:
            return None
        then, other = rewrite(value.body, make, depth + 1), rewrite(value.orelse, make, depth + 1)
        if then is None and other is None:
            return None
        before: list[ast.stmt] = []
        test, charge = value.test, []
        steps = _attr(_name(CTX), "steps")
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "charge_at_once":
            count = test.args[1]
        elif isinstance(test, ast.Compare) and isinstance(test.left, ast.NamedExpr) \
                and isinstance(test.left.value, ast.Call) and isinstance(test.left.value.func, ast.Name) \
                and test.left.value.func.id == "charged_twice":
            # `(s := charged_twice(ctx, items)) is not None`: the items named first, then two steps for each.
            before = [ast.Assign([ast.Name(test.left.target.id, ast.Store())], test.left.value.args[1])]
            count = ast.BinOp(_const(2), ast.Mult(), _call("len", _name(test.left.target.id)))
        else:
            count = None
        if count is not None:  # the budget has room for them all: charged at once (else none is)
            test = ast.Compare(ast.BinOp(steps, ast.Add(), count), [ast.LtE()], [_attr(_name(CTX), "budget")])
            charge = [ast.AugAssign(_store(steps), ast.Add(), count)]
        return [*before, ast.If(test, [*charge, *(then or [make(value.body)])], other or [make(value.orelse)])]

    def statements(block: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in block:
            made = None
            if isinstance(stmt, ast.Return) and stmt.value is not None:
                made = rewrite(stmt.value, ast.Return, 0)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                made = rewrite(stmt.value, partial(_assign_to, stmt.targets[0].id), 0)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(stmt, field, statements(inner))
            for handler in getattr(stmt, "handlers", ()):
                handler.body = statements(handler.body)
            out.extend(made if made is not None else [stmt])
        return out

    return statements(body)


def _locate(tree: ast.AST) -> None:
    """Give every node the location `compile()` needs (the code has no source lines of its own)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = 1  # type: ignore[attr-defined]
            node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))


def _calls_beyond(code: list[Any], helpers: set[str]) -> bool:
    """Whether `code` calls anything but `helpers` and the `get` and `count` of a table or list (a lookup, or
    counting the empty places of a zone's list)."""
    for tree in code:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in ("get", "count"):
                    continue
                if not (isinstance(func, ast.Name) and func.id in helpers):
                    return True
    return False


def _as_generator(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body`, made a generator's even where it has no `yield` (its choices went to reference closures,
    which raise `Suspend` as plain code does): `if False: yield` marks it one and never runs."""
    if any(isinstance(node, ast.Yield | ast.YieldFrom) for stmt in body for node in ast.walk(stmt)):
        return body
    return [*body, ast.If(_const(False), [ast.Expr(ast.Yield(None))], [])]


def _discarded(*args: Any) -> Any:
    raise AssertionError("code compiled only for its errors was called")


CTX = "ctx"
ENV = "E"
DATA = "D"


def _env(name: str) -> ast.Subscript:
    return _sub(_name(ENV), name)


# Constants that are closures of the closure backend: a function using one keeps its locals in ctx.env.
_FALLBACK_HINTS = {"closure", "decide", "read", "write", "field"}


# A stage's action for `stage_filter`: its name, its `when` (text, or None) and where that is written, and per
# seat its limits (scope, what the scope's usage counts, the most uses allowed): `CompiledAction.limit_checks`.
StageEntry = tuple[str, Any, Origin, list[list[tuple[str, str, int]]]]


def _data(*keys: Any) -> ast.expr:
    node: ast.expr = _name(DATA)
    for key in keys:
        node = _sub(node, key)
    return node


_SEATS_DUMP = ast.dump(_data("n"))  # the bound of `_seat_test`: a seat of this game is below D['n']


def _module_name(prefix: str, name: str, known: dict[str, str], taken: set[str]) -> str:
    """The Python name for definition `name` in generated code: its name mangled to a safe identifier,
    numbered if another definition already mangles to it; kept in `known`, and in `taken` (the names given,
    a set: a pack may have thousands of definitions)."""
    found = known.get(name)
    if found is None:
        base = f"{prefix}{re.sub(r'[^a-z0-9_]', '_', name.lower())[:40]}"
        found, n = base, 1
        while found in taken:
            n += 1
            found = f"{base}_{n}"
        known[name] = found
        taken.add(found)
    return found

def suspending_procedures(procedures: dict[str, Definition]) -> set[str]:
    """The procedures that may stop for a choice: those with a `let ... = choose`, and those that call one."""
    calls: dict[str, set[str]] = {}
    found: set[str] = set()
    for name, definition in procedures.items():
        calls[name] = set()
        if _chooses(definition.body):
            found.add(name)
        for node in definition.body.iter_subtrees():
            if node.data == "call_stmt":
                calls[name].add(str(node.children[0]))
    grown = True
    while grown:
        grown = False
        for name, callees in calls.items():
            if name not in found and callees & found:
                found.add(name)
                grown = True
    return found


def _chooses(tree: Tree) -> bool:
    return any(node.data == "let_stmt" and isinstance(node.children[1], Tree) and node.children[1].data in _CHOICES
               for node in tree.iter_subtrees())


def _may_stop(tree: Tree, suspending: set[str]) -> bool:
    """Whether a block may stop for a choice (a `choose`, or a call of a procedure that may)."""
    return _chooses(tree) or any(node.data == "call_stmt" and str(node.children[0]) in suspending
                                 for node in tree.iter_subtrees())


# What compiling a function costs beyond its nodes, counted as nodes against MAX_GENERATED_NODES: a pack of many
# small definitions takes its time in making and compiling functions, one at a time.
NODES_PER_FUNCTION = 50


class GeneratingCompiler(Compiler):
    """Checks like the closure compiler, and emits Python code for each entry point."""

    def __init__(self, model: Any, definitions: list[Definition], stages: set[str]) -> None:
        super().__init__(model, definitions, stages)
        self.namespace: dict[str, Any] = {"__builtins__": {}, **support.NAMES}
        self.namespace.update({"RULES": self.program.rules, "PROCS": self.program.procs, "PROGRAM": self.program,
                               "ITEMS": model.item_data})
        self._definitions: list[tuple[str, ast.FunctionDef]] = []
        self._constants: dict[int, str] = {}
        self._keep: list[Any] = []
        self._count = 0
        self._nodes = 0  # syntax-tree nodes generated so far, against MAX_GENERATED_NODES
        self._definition: Definition | None = None  # the definition being generated, if it is one
        self._in_iterable = 0  # > 0 while generating a comprehension's source
        # Where locals live in the function being generated: None, all in `ctx.env` (E); otherwise a
        # set of names kept in `ctx.env` (the entry point's inputs), every other local a Python local.
        self._env_names: set[str] | None = None
        self._fallbacks = 0  # closures of the closure backend used so far (they read locals from ctx.env)
        self._expr_depth = 0  # how deep in an expression `gen_expr` is
        self._closures_only = False  # while a subtree too deep to generate is compiled to closures
        self._generating = 0  # > 0 while a function is being generated
        self._env_reads: set[str] = set()  # the locals read from ctx.env, for `self_contained`
        # The module names by which generated code calls each rule directly: {rule name: "R_name"}.
        self._callees: dict[str, str] = {}
        # The same for procedures ("P_name"): a call statement calls the procedure's function directly.
        self._proc_callees: dict[str, str] = {}
        self._module_names: set[str] = set()  # every name in those tables (and `_gen_callees`)
        # The Python locals known to hold an int (`type(x) is int`) in the code being generated: a
        # rule's parameters in the body that runs once its entry has tested them (see `_compile_rule`).
        self._sure: set[str] = set()
        # The rules that have a body for int arguments, with the positions of the parameters it assumes
        # are ints: a call whose arguments there are surely ints calls that body directly.
        self._int_params: dict[str, list[int]] = {}
        # The Python locals known to hold a seat of the game (an int from 0 to n - 1, never a truth value):
        # a rule's, procedure's or hook's parameters in the body that runs once its entry has tested them,
        # a comprehension's variable over the players. A field or zone of one is read without a test.
        self._seats: set[str] = set()
        # The rules whose fast body (`_int_params`) assumes seats too, with those parameters' positions: a call
        # passing surely seats there (and surely ints at `_int_params`) calls that body directly.
        self._seat_positions: dict[str, list[int]] = {}
        # The Python locals known to hold an int within a range (`ranges.py`): a rule's parameters in its
        # body for ints, when its entry tested them against `PARAM_BOUND` too.
        self._ranges: dict[str, Bounds] = {}
        # The rules whose body for ints assumes its parameters within `PARAM_BOUND` (it does arithmetic on
        # them, or passes them on to such a rule), and the ranges of what rules give: {rule: range} for
        # any call, and for a call to the body for ints.
        self._ranged_rules: set[str] = set()
        self._rule_bounds: dict[str, Bounds] = {}
        self._rule_int_bounds: dict[str, Bounds] = {}
        self._zone_keys: dict[str, dict[Any, str]] = {}  # per owned zone: {owner: its key in the game data}
        self._edge_keys: dict[str, tuple[tuple[str, str], ...]] | None = None  # see `_direct_builtin`
        # Per zone each player or item has: its ZoneRefs, by seat (a list) or by item (a table).
        self._zone_tables: dict[str, Any] = {}
        # The lists of zone keys by position made so far, one per content: two reads of one zone through the
        # same position then read alike, and folding can tell that they read the same list.
        self._zone_key_lists: dict[tuple[str, ...], list[str]] = {}
        # Python locals known to hold one of some items (a comprehension's variable over a kind's items):
        # {local: those items}. A zone of such an owner is read straight from its key table.
        self._item_locals: dict[str, frozenset[Any]] = {}
        # Per fixed field of a kind, a table {item: its value} made once, for such locals (`_field_table`).
        self._field_tables: dict[tuple[str, str], ast.Name] = {}
        # True while generating the statements of a procedure's or hook's own function: `return` there
        # leaves it as Python does (after taking back its level of ctx.depth), raising nothing.
        self._own_body = False
        # Resumable code: an action's effect that may stop for a choice is also made as a generator
        # (`resumable_block`), which yields at a choice with no answer yet and goes on from there once
        # answered, instead of the whole job running again from its start. The procedures on its way
        # to a `choose` have a generator version too ("G_name"), which such code calls with `yield from`.
        self._suspending: set[str] = set()
        self._resumable = False  # True while generating a generator version
        self._gen_callees: dict[str, str] = {}

    # ------------------------------------------------------------- the generated module

    def constant(self, value: Any, hint: str) -> ast.Name:
        """A name in the generated module for a value made here (a closure, a zone, a bound)."""
        if hint in _FALLBACK_HINTS:
            self._fallbacks += 1
        known = self._constants.get(id(value))
        if known is not None:
            return _name(known)
        self._count += 1
        name = f"{re.sub(r'[^a-z_]', '', hint) or 'k'}_{self._count}"
        self.namespace[name] = value
        self._constants[id(value)] = name
        self._keep.append(value)
        return _name(name)

    def _tidied(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """A generated function's code, mended in one walk (its nodes listed once, without recursion, as deep
        as an expression goes; a mended node's own parts are reached all the same):

        - `(x := value)` as `value` where nothing reads `x` (a name kept for a read that folding made needless);
        - `zone_ref(NAME, x)` of a zone each player or item has, `x` a local, as a lookup in a table of its
          zones made at load (`_zone_lookup`);
        - `not_none(x, message)` of a local tested inline (`_none_tested`).
        """
        nodes = [n for stmt in body for n in ast.walk(stmt)]
        self._count_nodes(len(nodes) + NODES_PER_FUNCTION)
        read = {n.id for n in nodes if type(n) is ast.Name and type(n.ctx) is ast.Load}
        lookup = self._zone_lookup

        def mend(value: Any) -> Any:
            while type(value) is ast.NamedExpr and value.target.id not in read:
                value = value.value
            if type(value) is ast.Call and type(value.func) is ast.Name:
                called = value.func.id
                if called == "zone_ref":
                    return lookup(value) or value
                if called == "not_none":
                    return _none_tested(value) or value
            return value

        for node in nodes:
            for field, value in ast.iter_fields(node):
                kind = type(value)
                if kind is list:
                    if any(type(v) is ast.NamedExpr or type(v) is ast.Call for v in value):
                        value[:] = [mend(v) for v in value]
                elif kind is ast.NamedExpr or kind is ast.Call:
                    setattr(node, field, mend(value))
        return body

    def _count_nodes(self, nodes: int) -> None:
        """Count a generated function's nodes; refuse a pack whose code passes `MAX_GENERATED_NODES`, at the
        definition or snippet whose code passed it."""
        self._nodes += nodes
        if self._nodes <= MAX_GENERATED_NODES:
            return
        definition = self._definition
        line = definition.line if definition is not None and definition.origin is self.origin else self.origin.line
        raise LanguageError(f"the pack's programs are too large to compile: their generated code passed "
                            f"{MAX_GENERATED_NODES:,} syntax nodes here, in {self.current} (the largest built-in "
                            f"pack generates about 70,000)", file=self.origin.file, line=line,
                            hint="split long definitions, or write repeated statements as a loop")

    def _zone_lookup(self, call: ast.Call) -> ast.expr | None:
        """`zone_ref(NAME, owner)` of a zone each player or item has, its owner a local, as a lookup in a table
        of the zones made when the code is: `T[x]` for a seat in range, `T.get(x)` for an item's id; any other
        owner (none, a truth value, a number out of range) goes to `zone_ref`, with its errors."""
        zones, model = self.model.zones, self.model
        if not (len(call.args) == 2 and isinstance(call.args[0], ast.Constant) and call.args[0].value in zones):
            return None
        name, owner = call.args[0].value, call.args[1]
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "not_none":
            owner = owner.args[0]
        if not _simple_read(owner):
            return None
        zone = zones[name]
        table = self._zone_tables.get(name)
        if zone.owner == "player":
            if table is None:
                table = self._zone_tables[name] = [support.zone_ref(name, seat) for seat in range(model.max_players)]
            if getattr(call, "seat_owner", False):  # surely a seat of this game (`_zone_of`): in the table
                return _sub(self.constant(table, "zone_refs"), owner)
            in_range = ast.BoolOp(ast.And(), [
                ast.Compare(_call("type", owner), [ast.Is()], [_name("int")]),
                ast.Compare(_const(0), [ast.LtE(), ast.Lt()], [owner, _const(len(table))])])
            return ast.IfExp(in_range, _sub(self.constant(table, "zone_refs"), owner), call)
        if zone.owner in model.kinds:
            if table is None:
                table = self._zone_tables[name] = {item: support.zone_ref(name, item)
                                                   for item, kind in model.item_kind.items() if kind == zone.owner}
            found = ast.IfExp(ast.Compare(_call("type", owner), [ast.Is()], [_name("str")]),
                              _call(_attr(self.constant(table, "zone_refs"), "get"), owner), _const(None))
            return ast.BoolOp(ast.Or(), [found, call])
        return None

    def function(self, body: list[ast.stmt], params: tuple[str, ...] = (CTX,), prologue: bool = True,
                 resumable: bool = True) -> Any:
        """Compile statements into `def f(ctx)` (or other parameters) and return the function (`resumable`:
        a generator made is listed as an effect that stops at a choice)."""
        if self.discard_code:  # checked for its errors only: nothing will call it
            return _discarded
        self._count += 1
        name = f"{re.sub(r'[^a-z_]', '_', self.current.lower())[:40].strip('_') or 'code'}_{self._count}"
        body = _with_loops(self._tidied(body))
        # The locals for the context's tables, read once, where the body reads them at all.
        named = {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name)} if prologue else set()
        start: list[ast.stmt] = [ast.Assign([ast.Name(local, ast.Store())], _attr(_name(CTX), field))
                                 for local, field in ((ENV, "env"), (DATA, "data")) if local in named]
        definition = ast.FunctionDef(
            name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params], vararg=None,
                                          kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
            body=start + (body or [ast.Pass()]), decorator_list=[], returns=None, type_comment=None)
        code = self._module_code(definition)
        exec(code, self.namespace)  # the code is ours: user text only as constants (see the module doc)
        made = self.namespace[name]
        note = ", resumable (a generator: see `resumable_block`)" \
            if resumable and inspect.isgeneratorfunction(made) else ""
        self._definitions.append((f"{self.current} ({self.origin.file}){note}", definition))
        return made

    def _module_code(self, definition: ast.FunctionDef) -> types.CodeType:
        """The code of a module that defines the one generated function."""
        module = ast.Module([definition], type_ignores=[])
        _locate(module)
        return compile(module, f"<pack {self.model.name}>", "exec")

    def generate(self, make: Callable[[], Any], env_names: set[str] | list[str]) -> tuple[Any, bool]:
        """Run `make` (which generates code) with Python locals, or again with locals in ctx.env.

        A function is generated first with its own locals as Python locals and the names in
        `env_names` (its inputs) read from ctx.env. If it needed a closure of the closure backend
        anywhere, which reads and binds locals in ctx.env, it is generated again with every local
        there. Functions made for the children of such a closure keep their locals in ctx.env too.
        Returns the result and whether it uses Python locals.
        """
        saved = self._env_names
        if self._generating and saved is None:  # inside a closure's children
            self._generating += 1
            try:
                return make(), False
            finally:
                self._generating -= 1
        before, listed = self._fallbacks, len(self._definitions)
        self._generating += 1
        self._env_names = set(env_names)
        try:
            result = make()
        finally:
            self._env_names = saved
            self._generating -= 1
        if self._fallbacks == before:
            return result, True
        del self._definitions[listed:]  # the first try's nested functions are not part of the listing
        self._env_names = None
        self._generating += 1
        try:
            return make(), False
        finally:
            self._env_names = saved
            self._generating -= 1

    def self_contained(self, make: Callable[[], Any]) -> tuple[Any, bool]:
        """Run `make` (which builds a closure); and whether that closure needs none of this function's
        Python locals (it reads no local from ctx.env but the function's inputs, and holds no closure
        that could), so that the function may keep its own locals as Python locals."""
        outer = self._env_names
        fallbacks, reads = self._fallbacks, self._env_reads
        self._env_reads = set()
        try:
            result = make()
            alone = outer is not None and self._fallbacks == fallbacks and self._env_reads <= outer
        finally:
            self._env_reads = reads | self._env_reads
        return result, alone

    def local(self, name: str) -> ast.Name | ast.Subscript:
        """Where the local `name` lives in the function being generated."""
        if self._env_names is None or name in self._env_names:
            self._env_reads.add(name)
            return _env(name)
        return _name(f"L_{name}")

    def count_nesting_where_needed(self, helper_entries: list[Any]) -> None:
        """Take the nesting count out of every function generated so far when no chain of calls can come near
        the limit (`nesting.py`).

        `helper_entries` are the functions the engine's helpers call while pack code runs (the zones'
        capacities and `shows`): each must call nothing that runs pack code, or the pack keeps its counts.
        """
        if self.discard_code or longest_chain(self.calls) > SHALLOW:
            return
        generated = {definition.name: definition for _, definition in self._definitions}
        for entry in helper_entries:
            definition = generated.get(getattr(entry, "__name__", ""))
            if definition is None or self.namespace.get(definition.name) is not entry:
                if getattr(entry, "__qualname__", None) == "Compiler.expr.<locals>.<lambda>":
                    continue  # a number or truth value written in TOML: it runs nothing
                return
            if self._may_enter(definition.body):
                return
        for definition in generated.values():
            strip_nesting_counts(definition)
            code = self._module_code(definition)
            self.namespace[definition.name].__code__ = next(
                c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == definition.name)

    def module_source(self) -> str:
        """The generated code of the whole pack, for people to read (written out only when asked for)."""
        header = (f"# Code generated by ruleskit for the pack {_comment(self.model.name)} {_comment(self.model.version)}.\n"
                  "# Each function takes the running context; L_x is the pack's local x, D the game data, E the\n"
                  "# names in ctx.env (a snippet's inputs, and the locals of code that uses a reference closure).\n")
        return header + "\n\n".join(f"# {_comment(what)}\n{_readable(definition)}\n"
                                      for what, definition in self._definitions)

    # ------------------------------------------------------------- rules, procedures and hooks

    def compile_all(self) -> Any:
        self._rules: list[tuple[Definition, ast.expr, bool, ast.expr | None]] = []
        # Each rule's `modify` hooks: their parameters' names, `when`, value, the parameters to check and where.
        self._modifiers: dict[str, list[tuple[list[str], ast.expr | None, ast.expr, list[tuple[int, str]], str]]] = {}
        self._result_checks: dict[str, str | None] = {}
        self._suspending = suspending_procedures(self.proc_defs)
        program = super().compile_all()
        self._inliner = self._rule_inliner()
        for definition, body, local, fast in self._rules:
            program.rules[definition.name] = self._rule_function(definition, body, local, fast)
        return program

    def _rule_inliner(self) -> Inliner:
        """The rules' bodies by the names generated code calls them by; those with their locals in ctx.env, with
        `modify` hooks or with values to check (a parameter or a result typed `player` or a kind) are never
        written in place (their entry binds the one, runs the others or checks the values)."""
        bodies: dict[str, RuleBody] = {}
        excluded: list[str] = []
        for definition, body, local, fast in self._rules:
            params = tuple(f"L_{p}" for p, _ in definition.params)
            callee = self._callee(definition.name)
            bodies[callee] = RuleBody(params, body)
            if fast is not None:
                bodies[self._callee(definition.name, True)] = RuleBody(params, fast)
            checked = self.argument_checks(definition) or self._result_checks.get(definition.name)
            if not local or self._modifiers[definition.name] or checked:  # their entry or return checks types
                excluded += [callee, self._callee(definition.name, True)]
        return Inliner(bodies, CTX, excluded)

    def _compile_rule(self, definition: Definition) -> None:
        """A rule's body; when the body does arithmetic or comparisons on its parameters, two bodies:
        one for when those parameters are ints (tested once on entry), without a type test per
        operation, and the general one for any other call."""
        self.origin, self.current, self._definition = definition.origin, f"rule {definition.name}", definition
        scope = Scope({n: type_of(t) for n, t in definition.params})
        numeric = self._numeric_params(definition)
        ranged = bool(numeric) and self._does_arithmetic_on(definition, numeric)
        seats: list[str] = []

        def bodies() -> tuple[tuple[ast.expr, str], ast.expr | None]:
            general = self.gen_expr(definition.body, scope)
            if self._env_names is None:
                return general, None
            seats[:] = self._seat_params(definition, [ast.Expr(general[0])])  # its names
            if not numeric and not seats:
                return general, None
            self._sure, self._seats = {f"L_{n}" for n in numeric}, {f"L_{n}" for n in seats}
            if ranged:
                self._ranges = {f"L_{n}": (-PARAM_BOUND, PARAM_BOUND) for n in numeric}
            try:
                fast, _ = self.gen_expr(definition.body, scope)
            finally:
                self._sure, self._ranges, self._seats = set(), {}, set()
            return general, fast

        ((body, result_type), fast), local = self.generate(bodies, [])
        modified = any(h.kind == "modify" and h.target == definition.name for h in self.hook_defs)
        general_bounds = node_bounds(body)
        if general_bounds is not None and not modified:
            self._rule_bounds[definition.name] = general_bounds
        if fast is not None and local:
            tests: list[ast.expr] = [self._int_test(f"L_{n}", ranged) for n in numeric]
            tests += [_seat_test(_name(f"L_{n}"), _name(f"L_{n}")) for n in seats]
            fast_bounds = node_bounds(fast)
            body = ast.IfExp(tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests), fast, body)
            names = [p for p, _ in definition.params]
            self._int_params[definition.name] = [names.index(n) for n in numeric]
            if seats:
                self._seat_positions[definition.name] = [names.index(n) for n in seats]
            if ranged:
                self._ranged_rules.add(definition.name)
            if fast_bounds is not None and not modified:
                self._rule_int_bounds[definition.name] = fast_bounds
        else:
            fast = None
        self.settle_rule_type(definition, result_type)
        self._result_checks[definition.name] = self.result_check(definition, result_type)
        self._note_calls(f"rule:{definition.name}")
        self._rules.append((definition, body, local, fast))
        self._modifiers[definition.name] = []

    def _with_seat_body(self, definition: Definition, general: list[ast.stmt],
                        make: Callable[[], list[ast.stmt]]) -> list[ast.stmt]:
        """A procedure's or hook's `general` code (its parameters Python locals), run only when a parameter it
        reads as a player is no seat of this game: for seats, the same code made again by `make` with those
        parameters known to be seats (`_seats`), without the tests."""
        seats = self._seat_params(definition, general)
        if sum(seats.values()) < 2:
            return general  # one test at most: the entry's test would cost as much
        self._seats = {f"L_{n}" for n in seats}
        try:
            fast, local = self.generate(make, [])
        finally:
            self._seats = set()
        if not local:
            return general
        tests = [_seat_test(_name(f"L_{n}"), _name(f"L_{n}")) for n in seats]
        return [ast.If(tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests), fast or [ast.Pass()],
                       general or [ast.Pass()])]

    def _seat_params(self, definition: Definition, general: list[ast.stmt]) -> dict[str, int]:
        """The parameters of a definition that its `general` code tests for a seat (to read a player's field or
        zone), writes a field of, or passes on where a rule's fast body assumes a seat, and that nothing in it
        binds again (`let`, `for`, `set`), with how many such tests or calls each has: a body for seats reads
        them without a test, once its entry has tested them."""
        uses = {name[2:]: count for name, count in _seat_tests(general).items()}
        trees = [t for t in (definition.body, definition.when) if isinstance(t, Tree)]
        bound: set[str] = set()
        for tree in trees:
            for node in tree.iter_subtrees():
                if node.data in ("let_stmt", "for_stmt", "target") and isinstance(node.children[0], Token) \
                        and (node.data != "target" or len(node.children) == 1):
                    bound.add(str(node.children[0]))
                elif node.data == "set_stmt" and len(node.children[0].children) == 2 \
                        and str(node.children[0].children[1]) in self.model.player_vars:
                    name = str(node.children[0].children[0])  # `set p.var = ...`: written after a test
                    uses[name] = uses.get(name, 0) + 1
                elif node.data == "call" and str(node.children[0]) in self._seat_positions \
                        and node.children[1] is not None:
                    args = node.children[1].children
                    for position in self._seat_positions[str(node.children[0])]:
                        if position < len(args) and isinstance(args[position], Tree) \
                                and args[position].data == "name":
                            name = str(args[position].children[0])
                            uses[name] = uses.get(name, 0) + 1
        return {p: uses[p] for p, _ in definition.params if uses.get(p) and p not in bound}

    @staticmethod
    def _int_test(local: str, ranged: bool) -> ast.expr:
        """The entry's test that a parameter holds an int (within `PARAM_BOUND`, for a ranged body)."""
        is_int = ast.Compare(_call("type", _name(local)), [ast.Is()], [_name("int")])
        if not ranged:
            return is_int
        in_range = ast.Compare(_const(-PARAM_BOUND), [ast.LtE(), ast.LtE()], [_name(local), _const(PARAM_BOUND)])
        return ast.BoolOp(ast.And(), [is_int, in_range])

    def _does_arithmetic_on(self, definition: Definition, numeric: list[str]) -> bool:
        """Whether a rule's body adds, subtracts, multiplies or negates one of its `numeric` parameters, or
        passes one on to a rule whose body for ints does: then its own body for ints assumes them in range."""
        params = set(numeric)

        def is_param(child: Any) -> bool:
            return isinstance(child, Tree) and child.data == "name" and str(child.children[0]) in params

        for node in definition.body.iter_subtrees():
            if node.data == "neg" and is_param(node.children[0]):
                return True
            if node.data == "binop" and str(node.children[1]) in ("+", "-", "*") \
                    and (is_param(node.children[0]) or is_param(node.children[2])):
                return True
            if node.data == "call" and str(node.children[0]) in self._ranged_rules and node.children[1] is not None:
                args = node.children[1].children
                if any(position < len(args) and is_param(args[position])
                       for position in self._int_params[str(node.children[0])]):
                    return True
        return False

    def _numeric_params(self, definition: Definition) -> list[str]:
        """The parameters of a rule that its body adds, multiplies, negates or compares by order, or
        passes on where a rule already compiled has a body for ints."""
        params = {p for p, _ in definition.params}
        found: set[str] = set()

        def note(child: Any) -> None:
            if isinstance(child, Tree) and child.data == "name" and str(child.children[0]) in params:
                found.add(str(child.children[0]))

        for node in definition.body.iter_subtrees():
            if node.data in ("binop", "neg") or (node.data == "compare" and str(node.children[1]) in _ORDERED):
                for child in node.children:
                    note(child)
            elif node.data == "call" and str(node.children[0]) in self._int_params and node.children[1] is not None:
                args = node.children[1].children
                for position in self._int_params[str(node.children[0])]:
                    if position < len(args):
                        note(args[position])
        return sorted(found)

    def _frame(self, definition: Definition, what: str, names: list[str], body: list[ast.stmt],
               catch_return: bool, local: bool = False, keep_env: bool = False,
               result: ast.expr | None = None) -> tuple[list[ast.stmt], tuple[str, ...]]:
        """Enter the definition (a step, the nesting limit), bind its parameters, run `body`, leave.

        Returns the statements and the function's parameters after `ctx`: the definition's own
        parameters as Python locals with `local`, else positional values bound in a fresh ctx.env
        (saved and restored; with `keep_env` too: a rule's modifiers read theirs from it). Leaving
        takes one from `ctx.depth` on the way out only: an error passing through leaves it to the
        entry point or snippet that restores it (`support.entry_point`, `_restoring_depth`).
        """
        where = f"{what} {definition.name} ({definition.location})"
        handlers = [ast.ExceptHandler(_name("Return"), None, [ast.Pass()])] if catch_return else []
        depth = _attr(_name(CTX), "depth")
        params = tuple(f"L_{n}" for n in names) if local else tuple(f"A_{i}" for i in range(len(names)))
        enter: list[ast.stmt] = [
            *self._tick_at(where),  # every call is a step
            ast.Assign([ast.Name(FRAME_LOCAL, ast.Store())], _const(where)),  # begun: errors name it from here
        ]
        leaf = not self._may_enter(body)
        if leaf:
            # Nothing it runs reads the nesting depth (no call reaches pack code): only the limit is tested.
            enter.append(ast.If(ast.Compare(depth, [ast.GtE()], [_const(MAX_DEPTH)]), [
                ast.AugAssign(_store(depth), ast.Add(), _const(1)),
                ast.Expr(_call(_attr(_name(CTX), "too_deep"), _const(where)))], []))
        else:
            enter += [ast.AugAssign(_store(depth), ast.Add(), _const(1)),
                      ast.If(ast.Compare(depth, [ast.Gt()], [_const(MAX_DEPTH)]),
                             [ast.Expr(_call(_attr(_name(CTX), "too_deep"), _const(where)))], [])]
        for index, type_name in self.argument_checks(definition):
            # A value typed `player` or a kind is read without a test from here on: it must be one.
            enter.append(_type_test(_name(params[index]), type_name, f"parameter '{names[index]}'", where))
        restore_env = not local or keep_env
        if restore_env:
            enter.append(ast.Assign([ast.Name("saved", ast.Store())], _attr(_name(CTX), "env")))
        if not local:
            bind = ast.Dict(list[ast.expr | None]([_const(n) for n in names]), [_name(p) for p in params])
            enter.append(ast.Assign([_store(_attr(_name(CTX), "env")), ast.Name(ENV, ast.Store())], bind))
        if any(isinstance(n, ast.Name) and n.id == DATA for stmt in body for n in ast.walk(stmt)):
            enter.append(ast.Assign([ast.Name(DATA, ast.Store())], _attr(_name(CTX), "data")))
        body = body or [ast.Pass()]  # `proc nothing() { }`: Python has no empty block
        run: list[ast.stmt] = body
        if restore_env:
            run = [ast.Try(body, handlers, [], [ast.Assign([_store(_attr(_name(CTX), "env"))], _name("saved"))])]
        elif handlers:
            run = [ast.Try(body, handlers, [], [])]
        leave: list[ast.stmt] = [] if leaf else [ast.AugAssign(_store(depth), ast.Sub(), _const(1))]
        if result is not None:
            leave.append(ast.Return(result))
        return [*enter, *run, *leave], params

    def _callee(self, name: str, ints: bool = False) -> str:
        """The module name by which generated code calls rule `name` (bound once the rule is generated);
        with `ints`, its body for int arguments (`I_` instead of `R_`)."""
        if ints:
            return "I_" + self._callee(name)[2:]
        return _module_name("R_", name, self._callees, self._module_names)

    def _proc_callee(self, name: str) -> str:
        """The module name by which generated code calls procedure `name` (bound once it is generated)."""
        return _module_name("P_", name, self._proc_callees, self._module_names)

    def _gen_callee(self, name: str) -> str:
        """The module name of procedure `name`'s generator version (see `resumable_block`)."""
        return _module_name("G_", name, self._gen_callees, self._module_names)

    def procedure_replaced(self, name: str, call: Callable[[Any, list[Any]], Any]) -> None:
        """Procedure `name` now runs as `call` (wrapped for its properties): direct calls go through it.

        Its generator version is left alone: only resumable effects call it, and those run only
        while no properties are checked."""
        self.namespace[self._proc_callee(name)] = support.called_with_list(call)

    def _call_rule(self, name: str, args: list[ast.expr]) -> ast.expr:
        self._call(f"rule:{name}")
        positions = self._int_params.get(name)
        ints = positions is not None and all(self._is_int(args[i]) for i in positions) \
            and all(self._surely_seat(args[i]) for i in self._seat_positions.get(name, ()))
        if ints and name in self._ranged_rules:
            ints = all(within(self._bounds(args[i]), PARAM_BOUND) for i in positions or ())
        call = _call(self._callee(name, ints), _name(CTX), *args)
        known = (self._rule_int_bounds.get(name) if ints else None) or self._rule_bounds.get(name)
        return bounded(call, known) if known is not None else call

    def _calls_directly(self, code: list[ast.stmt]) -> bool:
        callees = set(self._callees.values()) | {self._callee(n, True) for n in self._int_params}
        callees.update(self._proc_callees.values())
        callees.update(self._gen_callees.values())
        return any(isinstance(n, ast.Name) and n.id in callees for stmt in code for n in ast.walk(stmt))

    @staticmethod
    def _may_enter(code: list[ast.stmt]) -> bool:
        """Whether `code` may run pack code (which reads the nesting depth): a call to anything but the
        helpers that run none, or a generator (it stops and goes on)."""
        if any(isinstance(node, ast.Yield | ast.YieldFrom) for stmt in code for node in ast.walk(stmt)):
            return True
        return _calls_beyond(code, _RUNS_NO_PACK_CODE)

    @staticmethod
    def _restoring_depth(body: list[ast.stmt]) -> list[ast.stmt]:
        """`body`, with `ctx.depth` put back however it ends: the snippet calls rules directly."""
        saved = ast.Assign([ast.Name("depth", ast.Store())], _attr(_name(CTX), "depth"))
        restore = ast.Assign([_store(_attr(_name(CTX), "depth"))], _name("depth"))
        return [saved, ast.Try(body, [], [], [restore])]

    def _tick_at(self, where: str) -> list[ast.stmt]:
        """`ctx.tick(where)` inline: one step of the budget, and the same error when it runs out."""
        steps = _attr(_name(CTX), "steps")
        over = ast.Compare(steps, [ast.Gt()], [_attr(_name(CTX), "budget")])
        return [ast.AugAssign(_store(steps), ast.Add(), _const(1)),
                ast.If(over, [ast.Expr(_call("over_budget", _name(CTX), _const(where)))], [])]

    def _rule_function(self, definition: Definition, body: ast.expr, local: bool, fast: ast.expr | None) -> Any:
        if fast is not None:  # the body for int arguments, called directly by code that knows they are
            self.namespace[self._callee(definition.name, True)] = self._rule_code(definition, fast, local)
        function = self._rule_code(definition, body, local)
        self.namespace[self._callee(definition.name)] = function
        return support.entry_point(function)

    def _rule_code(self, definition: Definition, body: ast.expr, local: bool) -> Any:
        self.origin, self.current, self._definition = definition.origin, f"rule {definition.name}", definition
        names = [p for p, _ in definition.params]
        modifiers = self._modifiers[definition.name]
        params = tuple(f"L_{n}" for n in names) if local else tuple(f"A_{i}" for i in range(len(names)))
        statements: list[ast.stmt] = [ast.Assign([ast.Name("value", ast.Store())], body)]
        inlined = self._inliner.inline(body) if local else None
        if inlined is not None:
            statements = guarded(inlined[0], body, inlined[1], inlined[2], CTX, MAX_DEPTH, "value", inlined[3])
        for mod_names, when, expr, checks, hook_where in modifiers:
            for index, type_name in checks:  # the hook's own types for the rule's arguments
                statements.append(_type_test(_name(params[index]), type_name, f"parameter '{mod_names[index]}'",
                                             hook_where))
            rebind = ast.Dict(list[ast.expr | None]([_const(n) for n in mod_names] + [_const("base")]),
                              list[ast.expr]([_name(p) for p in params] + [_name("value")]))
            statements.append(ast.Assign([_store(_attr(_name(CTX), "env")), ast.Name(ENV, ast.Store())], rebind))
            change: ast.stmt = ast.Assign([ast.Name("value", ast.Store())], expr)
            statements.append(ast.If(when, [change], []) if when is not None else change)
        checked = self._result_checks.get(definition.name)
        if checked is not None:
            statements.append(_type_test(_name("value"), checked, "its result",
                                         f"rule {definition.name} ({definition.location})"))
        frame, params = self._frame(definition, "rule", names, statements, False, local, keep_env=bool(modifiers),
                                    result=_name("value"))
        return self.function(frame, (CTX, *params), False)

    def _compile_proc(self, definition: Definition) -> None:
        self.origin, self.current, self._definition = definition.origin, f"proc {definition.name}", definition
        scope = Scope({n: type_of(t) for n, t in definition.params})
        self._own_body = True
        try:
            body, local = self.generate(lambda: self.gen_block(definition.body, scope), [])
            if local:
                body = self._with_seat_body(definition, body, lambda: self.gen_block(definition.body, scope))
        finally:
            self._own_body = False
        self._note_calls(f"proc:{definition.name}")
        names = [p for p, _ in definition.params]
        frame, params = self._frame(definition, "proc", names, body, True, local)
        function = self.function(frame, (CTX, *params), False)
        self.namespace[self._proc_callee(definition.name)] = function
        self.program.procs[definition.name] = support.entry_point(function)
        if definition.name in self._suspending:
            self._resumable, self._own_body = True, True
            try:
                body, local = self.generate(lambda: self.gen_block(definition.body, scope), [])
                if local:
                    body = self._with_seat_body(definition, body, lambda: self.gen_block(definition.body, scope))
                frame, params = self._frame(definition, "proc", names, _as_generator(body), True, local)
                self.namespace[self._gen_callee(definition.name)] = self.function(frame, (CTX, *params), False)
            finally:
                self._resumable, self._own_body = False, False
            self._note_calls(f"proc:{definition.name}")  # the same calls again

    def _compile_hook(self, definition: Definition) -> None:
        if definition.kind == "modify" and definition.target in self._modifiers:
            rule = self.rule_defs[definition.target]
            if len(rule.params) == len(definition.params):
                self.origin, self.current, self._definition = definition.origin, f"hook {definition.name}", definition
                scope = Scope({n: type_of(t) for n, t in definition.params})
                scope.names["base"] = self.rule_type(rule.name)

                def modifier() -> tuple[ast.expr | None, ast.expr, str]:
                    when = self.gen_expr(definition.when, scope)[0] if definition.when is not None else None
                    return (when, *self.gen_expr(definition.body, scope))

                # Read from ctx.env, which the rule sets for its modifiers: every name is an input.
                (when, expr, given), _ = self.generate(modifier, set(scope.all_names()))
                self.check_modifier_type(definition, rule, given)
                self._note_calls(f"hook:{definition.name}")
                self.calls.setdefault(f"rule:{rule.name}", set()).add(f"hook:{definition.name}")
                self._modifiers[rule.name].append(([p for p, _ in definition.params], when, expr,
                                                   self.argument_checks(definition),
                                                   f"hook {definition.name} ({definition.location})"))
                return
        if definition.kind == "modify":
            super()._compile_hook(definition)  # reports the error
            return
        self.origin, self.current, self._definition = definition.origin, f"hook {definition.name}", definition
        scope = Scope({n: type_of(t) for n, t in definition.params})

        def hook_code() -> tuple[ast.expr | None, list[ast.stmt]]:
            when = self.gen_expr(definition.when, scope)[0] if definition.when is not None else None
            return when, self.gen_block(definition.body, scope)

        def hook_body() -> list[ast.stmt]:
            when, body = hook_code()
            return [ast.If(when, body or [ast.Pass()], [])] if when is not None else body

        self._own_body = True
        try:
            body, local = self.generate(hook_body, [])
            if local:
                body = self._with_seat_body(definition, body, hook_body)
        finally:
            self._own_body = False
        self._note_calls(f"hook:{definition.name}")
        self.calls.setdefault(f"event:{definition.target}", set()).add(f"hook:{definition.name}")
        names = [p for p, _ in definition.params]
        frame, params = self._frame(definition, "hook", names, body, True, local)
        hook = support.entry_point(self.function(frame, (CTX, *params), False))
        self.program.hooks.setdefault(definition.target, []).append(hook)

    # ------------------------------------------------------------- entry points used by the closure compiler

    def compile_expr(self, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        if self._closures_only:  # the children of a closure made for a subtree too deep to generate
            return Compiler.compile_expr(self, node, scope)
        # A function of its own: `return` raises there, and it is never a generator.
        own, self._own_body = self._own_body, False
        resumable, self._resumable = self._resumable, False
        try:
            (value, value_type), _ = self.generate(lambda: self.gen_expr(node, scope), scope.all_names())
        finally:
            self._own_body, self._resumable = own, resumable
        code: list[ast.stmt] = [ast.Return(value)]
        return self.function(self._restoring_depth(code) if self._calls_directly(code) else code), value_type

    def block(self, text: str, origin: Origin, names: dict[str, str] | None = None, what: str = "effect") -> Fn:
        """A block of statements written inline in TOML, as one function that also ends at `return`."""
        self.origin = origin
        self.current = what
        if not text.strip():
            return nothing
        return self._block_function(parse(text, "block", origin), Scope(names), what)

    def resumable_block(self, text: str, origin: Origin, names: dict[str, str] | None = None,
                        what: str = "effect") -> Fn | None:
        """The block of `block` as a generator that yields (a `Suspend`) at each choice with no answer yet,
        and goes on from there when resumed; None for a block that cannot stop for a choice.

        It counts the same steps and raises the same errors as `block`'s function. Resumed at a choice of
        one answer, it takes the answer among the options it was asked with (`_asked_once`); at a choice
        that may take one answer per element, the steps, answers used and nesting asking took are taken
        back before it yields, and resumed it asks again (`_asked`). See `engine.resume_job`."""
        self.origin = origin
        self.current = what
        if not text.strip():
            return None
        tree = parse(text, "block", origin)
        if not _may_stop(tree, self._suspending):
            return None
        self._resumable = True
        try:
            return self._block_function(tree, Scope(names), what, resumable=True)
        finally:
            self._resumable = False

    def lister(self, action: str, param: str, checks: list[tuple[str, Origin]], names: dict[str, str], where: str,
               options: tuple[str, Origin] | None = None) -> Fn | None:
        """The bindings of an action's last parameter that pass its `require`s, listed by one function.

        `lister(ctx, options, table, room, make, prefix)` walks `options` as the engine's own listing does
        (an option seen before is skipped, each one tried is a step charged to `where`), with the parameter
        in a Python local and each check's expression written in the loop, so a binding costs no call; the
        parameters before it (`names` holds them all) are read from ctx.env, where the engine binds them.
        It returns the Actions in order: found in `table` by a str or int value (keyed by the value alone
        when `prefix` is None, else by the tuple of `prefix`'s values and it), else made by `make(value)`;
        None as soon as more than `room` pass (too many legal actions). Only when every check keeps its
        locals in Python (no closure of the reference backend) is one made.

        `options` is the parameter's own expression: when it is a kind's items (`column`), fixed when the
        code is made and each named once, the loop has no repeat to skip, and the checks read a zone of the
        parameter straight from the zone's table of keys, as for a comprehension's variable over them.
        """
        if self.discard_code:
            return None
        owner = f"action {action} require"
        value = f"L_{param}"
        param_where = f"action {action} parameter {param} ({options[1].file}:{options[1].line})" if options else where
        # Options each given once, and each a str or an int: a kind's items, or the numbers of a `range`.
        distinct_items, distinct = self._distinct_options(action, param, options, names)

        def tests() -> list[ast.expr]:
            saved = self._item_locals
            if distinct_items:
                self._item_locals = {**saved, value: frozenset(distinct_items)}
            made: list[ast.expr] = []
            try:
                for text, origin in checks:  # expressions as text (the pack schema admits nothing else)
                    self.origin, self.current = origin, owner
                    made.append(self.gen_expr(parse(text, "expr", origin), Scope(names))[0])
            finally:
                self._item_locals = saved
            return made

        # The earlier parameters from ctx.env, the last one a Python local.
        made, local = self.generate(tests, set(names) - {param})
        self._note_calls(owner)
        if not local:
            return None
        self.current = f"action {action} lister"
        kind, key, seen, out = (_name(n) for n in ("kind", "key", "seen", "out"))
        steps = _attr(_name(CTX), "steps")
        scalar = ast.BoolOp(ast.Or(), [ast.Compare(kind, [ast.Is()], [_name("str")]),
                                       ast.Compare(kind, [ast.Is()], [_name("int")])])
        keyed = _call(_attr(_name("table"), "get"), ast.IfExp(
            ast.Compare(_name("prefix"), [ast.Is()], [_const(None)]), _name(value),
            ast.Tuple([ast.Starred(_name("prefix"), ast.Load()), _name(value)], ast.Load())))
        # The engine lists an action's only parameter with no earlier values (`prefix` is None): the loop at
        # once, which takes that case alone, keys by the value.
        only = not set(names) - {param}
        by_value = _call(_attr(_name("table"), "get"), _name(value))
        room_left = ast.If(ast.Compare(_call("len", out), [ast.GtE()], [_name("room")]),
                           [ast.Return(_const(None))], [])
        # An Action is always true: one missing from the table is made.
        def taking(key: ast.expr) -> list[ast.stmt]:
            return [ast.Expr(_call(_attr(out, "append"), ast.BoolOp(ast.Or(), [
                key if distinct else ast.IfExp(scalar, key, _const(None)), _call("make", _name(value))])))]

        take = taking(keyed)

        def passing(statements: list[ast.stmt]) -> list[ast.stmt]:
            # One `if` over all the checks, in order and each until one fails (nested `if`s, one per check,
            # would nest as deep as a pack has checks).
            return statements if not made else [
                ast.If(made[0] if len(made) == 1 else ast.BoolOp(ast.And(), made), statements, [])]

        passes = passing([room_left, *take])
        repeats: list[ast.stmt] = [] if distinct else [
            ast.Assign([ast.Name("kind", ast.Store())], _call("type", _name(value))),
            ast.Assign([ast.Name("key", ast.Store())],
                       ast.IfExp(ast.Compare(kind, [ast.Is()], [_name("str")]), _name(value),
                                 ast.IfExp(ast.Compare(kind, [ast.Is()], [_name("int")]), _call("str", _name(value)),
                                           _call("option_id", _name(value))))),
            # A value seen before is skipped; a different value with the same id is `engine._bind`'s error.
            ast.If(ast.Compare(key, [ast.In()], [seen]), [
                ast.If(ast.UnaryOp(ast.Not(), ast.BoolOp(ast.Or(), [
                    ast.Compare(ast.Subscript(seen, key, ast.Load()), [ast.Is()], [_name(value)]),
                    _call("same_value", ast.Subscript(seen, key, ast.Load()), _name(value))])),
                    [ast.Raise(_call("options_collide", self.constant(self.model, "model"),
                                     _const(f"parameter '{param}'"), ast.Subscript(seen, key, ast.Load()),
                                     _name(value), key, _const(param_where)), None)], []),
                ast.Continue()], []),
            ast.Assign([ast.Subscript(seen, key, ast.Store())], _name(value)),
        ]
        loop = ast.For(ast.Name(value, ast.Store()), _name("options"), [
            *repeats,
            # each binding tried is a step of the listing's budget
            ast.AugAssign(_store(steps), ast.Add(), _const(1)),
            ast.If(ast.Compare(steps, [ast.Gt()], [_attr(_name(CTX), "budget")]),
                   [ast.Expr(_call("over_budget", _name(CTX), _const(where)))], []),
            *passes,
        ], [])
        body: list[ast.stmt] = [
            ast.Assign([ast.Name("out", ast.Store())], ast.List([], ast.Load())),
            *([] if distinct else [ast.Assign([ast.Name("seen", ast.Store())], ast.Dict([], []))]),
            *(self._lister_at_once(passing(taking(by_value) if only else take), value, only) if distinct and not any(
                isinstance(n, ast.Name) and n.id == CTX for check in made for n in ast.walk(check)) else []),
            loop,
            ast.Return(out),
        ]
        if self._calls_directly(body):
            body = self._restoring_depth(body)
        made = self.function(body, (CTX, "options", "table", "room", "make", "prefix"))
        # Options that are a kind's items are the same list at every decision: the engine passes this one
        # rather than running the parameter's code for a copy of it (`CompiledAction.fixed_options`).
        made.fixed_options = distinct_items if distinct_items and only else None
        return made  # type: ignore[no-any-return]

    def stage_filter(self, stage: str, entries: list[StageEntry]) -> Fn | None:
        """The actions of a stage that pass their limits and `when`, in order, by one generator.

        `filter(ctx, player, actions, usage)` yields each of `actions` (the stage's own, as `entries` lists
        them) whose usage counts are under its limits and whose `when` holds, in turn, as the engine's
        own loop tests them (`engine._passing`): the limits first, then the `when`, written in place, with
        the same steps and errors. A `when` that keeps no locals in ctx.env runs without the fresh table
        the engine's loop gives each; one that needs a closure of the reference backend means no filter.
        """
        if self.discard_code or not entries:
            return None
        usage, player = _name("usage"), _name("player")
        body: list[ast.stmt] = []
        for index, (name, when, origin, limit_checks) in enumerate(entries):
            limits: list[ast.expr] = []
            for position, (scope, key, most) in enumerate(limit_checks[0] if limit_checks else []):
                keys = [checks[position][1] for checks in limit_checks]
                counted = _const(key) if len(set(keys)) == 1 else _sub(self.constant(keys, "usage_keys"), player)
                limits.append(ast.Compare(_call(_attr(_sub(usage, scope), "get"), counted, _const(0)),
                                          [ast.Lt()], [_const(most)]))
            taken: list[ast.stmt] = [ast.Expr(ast.Yield(_sub(_name("actions"), index)))]
            if when is not None:
                if not isinstance(when, str):
                    return None
                self.origin, self.current = origin, f"action {name} when"
                (value, _), local = self.generate(partial(self._when_test, when, origin), set())
                self._note_calls(self.current)
                if not local:
                    return None
                # The engine's loop gives each `when` a fresh table of locals: here only one that keeps any.
                fresh = [ast.Assign([_store(_attr(_name(CTX), "env")), ast.Name(ENV, ast.Store())], ast.Dict([], []))] \
                    if any(isinstance(n, ast.Name) and n.id == ENV for n in ast.walk(value)) else []
                taken = [*fresh, ast.If(value, taken, [])]
            # The limits first: a `when` runs only for an action not used up.
            body.extend([ast.If(limits[0] if len(limits) == 1 else ast.BoolOp(ast.And(), limits), taken, [])]
                        if limits else taken)
        self.origin, self.current = entries[0][2], f"stage {stage} actions"
        # No `ctx.depth` put back if a `when` raises (as `compile_expr`'s functions do): the listing's context
        # goes with the listing then, and a rule that returns leaves the depth as it found it. A generator
        # that may be left unfinished (a replay takes the first action found) then needs no closing.
        return self.function(body, (CTX, "player", "actions", "usage"),  # type: ignore[no-any-return]
                             resumable=False)

    def _when_test(self, text: str, origin: Origin) -> tuple[ast.expr, str]:
        return self.gen_expr(parse(text, "expr", origin), Scope(None))

    @staticmethod
    def _lister_at_once(body: list[ast.stmt], value: str, unprefixed: bool) -> list[ast.stmt]:
        """A lister's loop with the step of every binding charged before it, when the budget has room for
        them all and no more than `room` can pass (so `body` takes a binding that passes with no test of
        the room), and, if `unprefixed`, no earlier values are given: for options each named once and checks
        that can charge no step (they do not reach the context), it stops where the loop one step at a time
        would, with the same errors, and the steps it leaves charged are the same."""
        steps = _attr(_name(CTX), "steps")
        count = _call("len", _name("options"))
        room = ast.BoolOp(ast.And(), [
            ast.Compare(ast.BinOp(steps, ast.Add(), count), [ast.LtE()], [_attr(_name(CTX), "budget")]),
            ast.Compare(count, [ast.LtE()], [_name("room")]),
            *([ast.Compare(_name("prefix"), [ast.Is()], [_const(None)])] if unprefixed else [])])
        return [ast.If(room, [
            ast.AugAssign(_store(steps), ast.Add(), count),
            ast.For(ast.Name(value, ast.Store()), _name("options"), body, []),
            ast.Return(_name("out")),
        ], [])]

    def _distinct_options(self, action: str, param: str, options: tuple[str, Origin] | None,
                          names: dict[str, str]) -> tuple[list[str], bool]:
        """The items a parameter's options always are, each once (a kind's items), or [] if not known; and
        whether the options are each given once and each a str or an int (those items, or a `range`)."""
        if options is None:
            return [], False
        text, origin = options
        self.origin, self.current = origin, f"action {action} parameter {param}"
        earlier = {name: kind for name, kind in names.items() if name != param}
        source, _ = self.gen_listed(parse(text, "expr", origin), Scope(earlier))
        self._note_calls(self.current)  # the calls the parameter's own code notes
        # `range` gives each whole number once, whatever it is given, or raises.
        numbers = isinstance(source, ast.Call) and isinstance(source.func, ast.Name) \
            and source.func.id in ("call_builtin1", "call_builtin2") and isinstance(source.args[0], ast.Name) \
            and self.namespace.get(source.args[0].id) is builtins.BUILTINS["range"].fn
        listed = self._listed(source)
        known = self.namespace.get(listed.id) if isinstance(listed, ast.Name) else None
        if isinstance(known, list) and known and all(type(i) is str for i in known) \
                and len(set(known)) == len(known):
            return list(known), True
        return [], numbers

    def _block_function(self, tree: Tree, scope: Scope, what: str, resumable: bool = False) -> Fn:
        body, _ = self.generate(lambda: self.gen_block(tree, scope), scope.all_names())
        if resumable:
            body = _as_generator(body)
        ends = [ast.ExceptHandler(_name("Return"), None, [ast.Pass()])]
        code: list[ast.stmt] = [ast.Try(body or [ast.Pass()], ends, [], [])]
        if self._calls_directly(body):  # as `_restoring_depth`, in the same `try`
            saved = ast.Assign([ast.Name("depth", ast.Store())], _attr(_name(CTX), "depth"))
            restore = ast.Assign([_store(_attr(_name(CTX), "depth"))], _name("depth"))
            code = [saved, ast.Try(body or [ast.Pass()], ends, [], [restore])]
        function = self.function(code)
        self._note_calls(what)
        return function  # type: ignore[no-any-return]

    def compile_block(self, node: Tree, scope: Scope) -> Fn:
        # A function of its own: `return` raises there, and it is never a generator.
        own, self._own_body = self._own_body, False
        resumable, self._resumable = self._resumable, False
        try:
            body, _ = self.generate(lambda: self.gen_block(node, scope), scope.all_names())
        finally:
            self._own_body, self._resumable = own, resumable
        return self.function(self._restoring_depth(body) if self._calls_directly(body) else body)

    # ------------------------------------------------------------- expressions

    def gen_listed(self, node: Tree | Token, scope: Scope) -> tuple[ast.expr, str]:
        """`gen_expr` of a list taken element by element, as `compile_listed` says."""
        saved, self.listing_source = self.listing_source, node
        try:
            return self.gen_expr(node, scope)
        finally:
            self.listing_source = saved

    def _made(self, node: Tree, value: ast.expr) -> ast.expr:
        """`value`, a list made from a zone or a kind, costing its length unless `node` is a listing's source."""
        if node is self.listing_source:
            return value
        return _call("made", _name(CTX), value, _const(self.where(node)))

    def gen_expr(self, node: Tree | Token, scope: Scope) -> tuple[ast.expr, str]:
        method = getattr(self, f"g_{node.data}", None) if isinstance(node, Tree) else None
        if method is None:
            return self._fallback(node, scope)
        if self._expr_depth >= MAX_GENERATED_DEPTH:
            # An expression so deep (a chain of 170 `//`) that Python could not compile the code made of it
            # is left to the closure backend below this depth, its children too.
            return self._fallback(node, scope, closures_only=True)
        self._expr_depth += 1
        try:
            result: tuple[ast.expr, str] = method(node, scope)
        finally:
            self._expr_depth -= 1
        return result

    def g_int_lit(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        value = int(str(node.children[0]))
        if value > 2**53:
            raise self.error(node, "number too large")
        return _const(value), "int"

    def g_str_lit(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        return _const(unquote(str(node.children[0]))), "str"

    def g_true_lit(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        return _const(True), "bool"

    def g_false_lit(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        return _const(False), "bool"

    def g_none_lit(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        return _const(None), "none"

    def g_name(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        name = str(node.children[0])
        model = self.model
        local = scope.lookup(name)
        if local is not None:
            return self.local(name), local
        if name in SPECIALS:
            value_type = SPECIALS[name][1]
            if name == "me":
                return _attr(_name(CTX), "me"), value_type
            if name == "players":
                return _call("player_list", _name(DATA)), value_type
            if name == "player_count":
                return _data("n"), value_type
            return _data("flow", _FLOW_SPECIALS[name]), value_type
        if name in model.game_vars:
            return _var_read(_data("v", name), model.game_vars[name]), type_of(model.game_vars[name].type)
        if name in model.zones and model.zones[name].owner == "game":
            return self.constant(ZoneRef(name), "zone"), f"zone:{model.zones[name].of}"
        if name in self.rule_defs and not self.rule_defs[name].params:
            return self._call_rule(name, []), self.rule_type(name)
        if name in model.item_kind:
            seat = seat_of_item(model, name)
            if seat is not None:  # a seat some games of this pack do not have: tested when the code runs
                return _call("seated_item", _name(DATA), _const(name), _const(seat), _const(self.where(node))), \
                    model.item_kind[name]
            return _const(name), model.item_kind[name]
        if name in model.kinds and not model.kinds[name].per_player:
            return self._made(node, _call("copy_list", self.constant(model.items_of(name), "items"))), f"list:{name}"
        if name in model.kinds:  # a per-player kind: its items for the players in this game
            if node is self.listing_source:
                # Only read: the list for this player count from a table made with the code, not a copy.
                table = [model.items_of(name, players) for players in range(model.max_players + 1)]
                listed = ast.Subscript(self.constant(table, "items"), _data("n"), ast.Load())
                listed.kind_table = True  # type: ignore[attr-defined]  # for `_listed`
                return listed, f"list:{name}"
            return self._made(node, _call("kind_items", self.constant(model, "model"), _const(name), _name(DATA))), \
                f"list:{name}"
        # Everything else (every error) is the closure compiler's.
        fn, value_type = self.resolve_name(name, node, scope)
        return _call(self.constant(fn, "closure"), _name(CTX)), value_type

    def g_field(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        base_node, field_token = node.children
        field = str(field_token)
        base, base_type = self.gen_expr(base_node, scope)
        reader, result_type = self.field_reader(base_type, field, field_token)  # checks, and the general reader
        model = self.model
        is_me = isinstance(base, ast.Attribute) and base.attr == "me"
        none_message = _const(f"cannot read '.{field}' of none in {self.where(node)}")
        seat = self._surely_seat(base)
        checked = base if is_me or seat else _call("not_none", base, none_message)
        if base_type == "player" or (seat and self._for_player(field) in ("var", "zone", "kind", "index")):
            how = self._for_player(field)
            if how == "var":
                return _var_read(_sub(_sub(_data("pv"), checked), field), model.player_vars[field]), result_type
            if how == "zone":
                return self._zone_of(field, checked, seat), result_type
            if how == "kind":
                return self._player_item(field, checked, is_me or seat), result_type
            if how == "index":
                return checked, result_type
            if how == "name":
                return _call("player_name", checked), result_type
        elif base_type in model.kinds:
            how = self._by_kind(field).get(base_type)
            if how in ("var", "fixed", "owner"):
                return self._item_read(_item_field(how, base, field, none_message), how, base_type, field), \
                    result_type
            if how == "zone":
                return _call("zone_ref", _const(field), checked), result_type
        elif isinstance(base, ast.Name) and base.id in self._item_locals:
            # A local that holds one of a few items (of a kind, or held by a stack of that kind): read as an
            # item of its kind is, when they are all of one kind that has the field.
            kinds = {model.item_kind.get(i) for i in self._item_locals[base.id]}
            kind = next(iter(kinds)) if len(kinds) == 1 else None
            how = self._by_kind(field).get(kind) if kind is not None else None
            if how == "fixed" and kind is not None and field != "owner":
                # Surely one of those items, never none: its value in a table of the field, one lookup.
                return self._item_read(_sub(self._field_table(kind, field), base), how, kind, field), result_type
            if how in ("var", "fixed", "owner"):
                return self._item_read(_item_field(how, base, field, none_message), how, kind, field), \
                    result_type
            return self._any_field(base, field, none_message, node), result_type
        else:  # known only at run time: one dispatch on the value
            return self._any_field(base, field, none_message, node), result_type
        return _call(self.constant(reader, "field"), _name(CTX), checked), result_type

    def _field_table(self, kind: str, field: str) -> ast.Name:
        """The name of a table {item: its `field`} of every item of `kind` (fixed fields never change)."""
        name = self._field_tables.get((kind, field))
        if name is None:
            item_data = self.model.item_data
            table = {item: item_data[item][field] for item in self.model.items_of(kind)}
            name = self._field_tables[(kind, field)] = self.constant(table, field)
        return name

    def _item_read(self, read: ast.expr, how: str | None, kind: Any, field: str) -> ast.expr:
        """`read`, an item's field, marked with what the code knows of its value: an int var's (`_var_read`),
        or the range of a fixed field when every item of the kind has a number there."""
        if how == "var":
            return _var_read(read, self.model.kinds[kind].vars[field])
        if how != "fixed" or field in ("id", "name"):
            return read
        item_data = self.model.item_data
        values = of_values(item_data[item].get(field) for item in self.model.items_of(kind))
        return bounded(read, values) if values is not None else read

    def _any_field(self, base: ast.expr, field: str, none_message: ast.expr, node: Tree) -> ast.expr:
        """A field of a value whose type only the run time knows.

        The code tests inline for the meanings the pack gives the field that a test can tell apart
        (a player's var, zone or item, for a number; an item's var or fixed field, for a text) and
        dispatches anything else to `any_field`, which also raises every error.
        """
        by_kind = self._by_kind(field)
        for_player = self._for_player(field)
        if for_player in ("var", "zone", "kind", "index") and self._surely_seat(base):
            # Surely a seat: the player's var, zone or item, as for a value typed `player`.
            if for_player == "var":
                return _var_read(_sub(_sub(_data("pv"), base), field), self.model.player_vars[field])
            if for_player == "zone":
                return self._zone_of(field, base, True)
            if for_player == "kind":
                return self._player_item(field, base, True)
            return base
        fast: list[tuple[Callable[[ast.expr], ast.expr], ast.expr]] = []
        named = isinstance(base, ast.Name)  # a Python local, read as often as needed
        self._count += 1
        value = base.id if isinstance(base, ast.Name) else f"v_{self._count}"
        if not self._in_iterable or named:
            # Inside a comprehension's source Python allows no assignment: there, a local only, and the
            # paths that need no table.
            fast = self._field_fast_paths(value, field, by_kind, for_player, tables=not self._in_iterable)
        general: ast.expr = _call("any_field", _name(CTX), _name(value) if fast else base, _const(field),
                                  self.constant(by_kind, "fields"), _const(for_player), none_message,
                                  _const(self.where(node)))
        for position, (test, read) in reversed(list(enumerate(fast))):
            # The first test works the value out, once; the others read it.
            subject = ast.NamedExpr(ast.Name(value, ast.Store()), base) if position == 0 and not named \
                else _name(value)
            general = ast.IfExp(test(subject), read, general)
        return general

    def _field_fast_paths(self, value: str, field: str, by_kind: dict[str, str], for_player: str | None,
                          tables: bool = True) -> list[tuple[Callable[[ast.expr], ast.expr], ast.expr]]:
        def is_type(kind: str) -> Callable[[ast.expr], ast.expr]:
            return lambda subject: ast.Compare(_call("type", subject), [ast.Is()], [_name(kind)])

        def is_seat(subject: ast.expr) -> ast.expr:
            # A number that is no seat of the game (past the last, or negative) is `any_field`'s error where it
            # would stand for a player (a var, a zone, an item); its index is only a number.
            return _seat_test(subject, _name(value))

        paths: list[tuple[Callable[[ast.expr], ast.expr], ast.expr]] = []
        if for_player == "var":
            paths.append((is_seat, _sub(_sub(_data("pv"), _name(value)), field)))
        elif for_player == "zone":
            paths.append((is_seat, _call("zone_ref", _const(field), _name(value))))
        elif for_player == "kind":
            paths.append((is_seat, self._player_item(field, _name(value), True)))
        elif for_player == "index":
            paths.append((is_type("int"), _name(value)))
        kinds_give = set(by_kind.values())
        table: ast.expr | None = None
        if not tables:
            pass
        elif "var" in kinds_give:
            # An item of a kind with this variable has it among its variables (vars come before fields).
            table = _call(_attr(_data("ev"), "get"), _name(value), _name("NO_FIELDS"))
        elif field != "owner" and kinds_give == {"fixed"}:
            # An item of a kind with this fixed field has it in its table; anything else goes the long way.
            table = _call(_attr(_name("ITEMS"), "get"), _name(value), _name("NO_FIELDS"))
        if table is not None:
            found = f"t_{self._count}"
            held = ast.NamedExpr(ast.Name(found, ast.Store()), table)

            def test(subject: ast.expr) -> ast.expr:
                return ast.BoolOp(ast.And(), [is_type("str")(subject), ast.Compare(_const(field), [ast.In()], [held])])

            paths.append((test, _sub(_name(found), field)))
        return paths

    def _player_item(self, kind: str, seat: ast.expr, surely_seat: bool) -> ast.expr:
        """The item of a per-player kind that the player `seat` has: from a table when `seat` is surely
        a seat number (never a truth value, which would find 1's item) and reading it twice costs nothing."""
        made = _call("per_player_item", _const(kind), seat)
        if not surely_seat or not isinstance(seat, ast.Name | ast.Attribute):
            return made
        table = self._zone_keys.get(f"item:{kind}")
        if table is None:
            table = self._zone_keys[f"item:{kind}"] = {p: f"{kind}_{p}" for p in range(self.model.max_players)}
        if self._surely_seat(seat):  # a seat of this game: in the table
            return _sub(self.constant(table, "seats"), seat)
        return ast.BoolOp(ast.Or(), [_call(_attr(self.constant(table, "seats"), "get"), seat), made])

    def _surely_seat(self, value: ast.expr) -> bool:
        """Whether `value` is surely a seat of this game (an int from 0 to n - 1, never a truth value): `ctx.me`,
        or a local the code knows holds one (`_seats`)."""
        if isinstance(value, ast.Attribute):
            return value.attr == "me" and isinstance(value.value, ast.Name) and value.value.id == CTX
        return isinstance(value, ast.Name) and value.id in self._seats

    def _zone_of(self, field: str, owner: ast.expr, seat: bool) -> ast.Call:
        """`zone_ref(field, owner)`, marked when `owner` is surely a seat: `_zone_lookup` then reads it from its
        table by seat without a test, `_zone_content` its list."""
        ref = _call("zone_ref", _const(field), owner)
        if seat:
            ref.seat_owner = True  # type: ignore[attr-defined]
        return ref

    def _by_kind(self, field: str) -> dict[str, str]:
        """How each kind of item gives `field`, as the closure compiler's item readers do."""
        model = self.model
        table = {}
        for kind_name, kind in model.kinds.items():
            if field in kind.vars:
                table[kind_name] = "var"
            elif field in kind.fields or field in ("id", "name"):
                table[kind_name] = "fixed"
            elif field == "owner":
                table[kind_name] = "owner"
            elif field in model.zones and model.zones[field].owner == kind_name:
                table[kind_name] = "zone"
        return table

    def _for_player(self, field: str) -> str | None:
        model = self.model
        if field in model.player_vars:
            return "var"
        if field in model.zones and model.zones[field].owner == "player":
            return "zone"
        if field in model.kinds and model.kinds[field].per_player:
            return "kind"
        if field in ("index", "name"):
            return field
        return None

    def g_index(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        base, base_type = self.gen_listed(node.children[0], scope)
        position, _ = self.gen_expr(node.children[1], scope)
        element = base_type[5:] if base_type.startswith("list:") or base_type.startswith("zone:") else ANY
        where = _const(self.where(node))
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "copy_list":
            # A kind's items, only read here: no copy needed, and certainly a list.
            items = base.args[0]
            slow = _call("list_index", items, position, where)
            known = self.namespace.get(items.id) if isinstance(items, ast.Name) else None
            if isinstance(position, ast.Name) and self._is_int(position) and isinstance(known, list):
                # An int local: in range, a plain read of the pack's fixed list of items.
                in_range = ast.Compare(_const(0), [ast.LtE(), ast.Lt()], [position, _const(len(known))])
                return ast.IfExp(in_range, _sub(items, position), slow), element or ANY
            return slow, element or ANY
        zone = self._static_zone(base)
        if zone is not None and zone.type != "pool":
            owned = self._owned_zone(base)
            if owned is not None:
                general = _call("owned_index", _name(DATA), *owned, position, where)
                return self._owned_read(owned, general, "index", position, where), element or ANY
            return _call("zone_index", _name(DATA), base, position, where), element or ANY
        return _call("index", _name(CTX), base, position, _const(self.where(node))), element or ANY

    def g_call(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        name_token, args_node = node.children
        name = str(name_token)
        arg_nodes = args_node.children if args_node is not None else []
        spec = builtins.BUILTINS.get(name)
        if name in self.rule_defs or name in self.proc_defs or spec is None \
                or not spec.min_args <= len(arg_nodes) <= spec.max_args:
            if name in self.rule_defs and len(arg_nodes) == len(self.rule_defs[name].params):
                generated = [self.gen_expr(a, scope) for a in arg_nodes]
                self.expect_arguments(self.rule_defs[name], [t for _, t in generated], arg_nodes)
                return self._call_rule(name, [a for a, _ in generated]), self.rule_type(name)
            return self._fallback(node, scope)  # the closure compiler reports the error
        compiled = [self.gen_expr(a, scope) for a in arg_nodes]
        self.expect_nodes(name, [t for _, t in compiled], arg_nodes)
        result_type = spec.result([t for _, t in compiled])
        where = _const(self.where(node))
        values = [value for value, _ in compiled]
        direct = self._direct_builtin(name, values, where)
        listing = name == "items" and node is self.listing_source
        if direct is not None:
            return (self._made(node, direct) if name == "items" else direct), result_type
        impl = self.constant(builtins.listed_items if listing else spec.fn, "listed_items" if listing else name)
        if len(values) <= 3:  # no tuple of arguments to build and walk
            return _call(f"call_builtin{len(values)}", impl, _const(name), _name(CTX), where, *values), result_type
        return _call("call_builtin", impl, _const(name), _name(CTX), where, *values), result_type

    def _static_zone(self, value: ast.expr) -> Any:
        """The zone definition `value` always names (`x.hand`, a game zone), if the code says so."""
        name = None
        if isinstance(value, ast.IfExp):  # a field tested inline: both ways must give the same zone
            then, other = self._static_zone(value.body), self._static_zone(value.orelse)
            return then if then is not None and then is other else None
        args = value.args if isinstance(value, ast.Call) else []
        called = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
        if called == "zone_ref" and isinstance(args[0], ast.Constant):
            name = args[0].value
        elif called == "any_field" and isinstance(args[2], ast.Constant):
            # A field that is a zone of whatever has it (or an error): that zone.
            field = args[2].value
            if isinstance(field, str) and set(self._by_kind(field).values()) <= {"zone"} \
                    and self._for_player(field) in ("zone", None):
                name = field
        elif isinstance(value, ast.Name) and isinstance(self.namespace.get(value.id), ZoneRef):
            name = self.namespace[value.id].name
        return self.model.zones.get(name) if isinstance(name, str) else None

    def _owned_zone(self, value: ast.expr) -> list[ast.expr] | None:
        """For `x.zone` (an item's zone, or `me.zone`): the zone's key table, name, owner and none message.

        The helpers given these find the zone's key with one table lookup; an owner missing from the
        table (or none) makes its key as `zone_ref` would, with the same errors.
        """
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "zone_ref"):
            return None
        name_node, owner_node = value.args
        zone_name = name_node.value if isinstance(name_node, ast.Constant) else None
        zone = self.model.zones.get(zone_name) if isinstance(zone_name, str) else None
        if zone is None or not isinstance(zone_name, str):
            return None
        owner: ast.expr = owner_node
        message: ast.expr = _const(None)
        if isinstance(owner_node, ast.Call) and isinstance(owner_node.func, ast.Name) \
                and owner_node.func.id == "not_none":
            owner, message = owner_node.args
        if zone.owner in self.model.kinds:
            owners: list[Any] = [i for i, k in self.model.item_kind.items() if k == zone.owner]
        elif zone.owner == "player" and isinstance(owner, ast.Attribute) and owner.attr == "me":
            owners = list(range(self.model.max_players))  # ctx.me: a seat, never a truth value
        else:
            return None
        keys = self._zone_keys.get(zone_name)
        if keys is None:
            keys = self._zone_keys[zone_name] = {o: ZoneRef(zone_name, o).key for o in owners}
        return [self.constant(keys, "keys"), _const(zone_name), owner, message]

    def _owned_read(self, owned: list[ast.expr], general: ast.expr, how: str, arg: ast.expr | None = None,
                    where: ast.expr | None = None) -> ast.expr:
        """`general` (an `owned_*` helper's call), read inline where the owner is surely in the zone's key
        table: a local over a kind's items, or `items[i]` of a kind's items once `i` is tested in range.
        The helper still runs whenever that is not so, with its errors."""
        keys_node, _, owner, _ = owned
        keys = self.namespace.get(keys_node.id) if isinstance(keys_node, ast.Name) else None
        if self._in_iterable or not isinstance(keys, dict):  # no `:=` in a comprehension's source
            return general
        test: ast.expr | None = None
        if isinstance(owner, ast.Name) and owner.id in self._item_locals \
                and all(o in keys for o in self._item_locals[owner.id]):
            key: ast.expr = _sub(keys_node, owner)
        elif isinstance(owner, ast.IfExp) and isinstance(owner.body, ast.Subscript) \
                and isinstance(owner.body.value, ast.Name) and isinstance(owner.body.slice, ast.Name):
            listed, test = self.namespace.get(owner.body.value.id), owner.test
            if not (isinstance(listed, list) and all(type(o) is str and o in keys for o in listed)):
                return general
            if ast.dump(test) != ast.dump(ast.Compare(_const(0), [ast.LtE(), ast.Lt()],
                                                      [owner.body.slice, _const(len(listed))])):
                return general  # not the test of `g_index` that keeps the position in range
            by_position = tuple(keys[o] for o in listed)
            key_list = self._zone_key_lists.setdefault(by_position, list(by_position))
            key = _sub(self.constant(key_list, "zone_keys"), owner.body.slice)
        else:
            return general
        self._count += 1
        content = f"c_{self._count}"
        placed = ast.NamedExpr(ast.Name(content, ast.Store()), _data("z", key))
        # The content is named for what reads it again: an index, and a later read at a position this length
        # is tested against (folding.py, `_known_item`). Counts and room are read here of stacks only, whose
        # count is their length (only a row keeps its empty slots, as none).
        filled: ast.expr = _call("len", placed)
        if how == "count":
            fast: ast.expr = filled
        elif how == "free":
            assert arg is not None
            fast = ast.BinOp(arg, ast.Sub(), filled)
        else:  # index: a simple position only (read twice on the rare path)
            assert arg is not None and where is not None
            if not isinstance(arg, ast.Name | ast.Constant):
                return general
            in_range: ast.expr = ast.Compare(_const(0), [ast.LtE(), ast.Lt()], [arg, _call("len", placed)])
            if not self._is_int(arg):
                in_range = ast.BoolOp(ast.And(), [ast.Compare(_call("type", arg), [ast.Is()], [_name("int")]),
                                                  in_range])
            fast = ast.IfExp(in_range, _sub(_name(content), arg), _call("list_index", _data("z", key), arg, where))
        return fast if test is None else ast.IfExp(test, fast, general)

    def _direct_builtin(self, name: str, values: list[ast.expr], where: ast.expr) -> ast.expr | None:
        """A builtin on a zone whose kind the code fixes, or on a list the code builds, as a direct read.

        Each helper returns what the builtin returns and charges the same steps; the zone's layout
        (a stack or a row, its capacity, its pieces' sizes) is read from the pack here, once.
        """
        if not values:
            return None
        zone = self._static_zone(values[0])
        data = _name(DATA)
        if zone is not None and zone.type in ("stack", "row"):
            # A stack's count is its length; a row's slots are read one by one, and so counted as steps
            # (`zones.held`): a row goes to the builtin, but for `count(row, item)`, which counts alike.
            owned = self._owned_zone(values[0])
            prefix, zone_args = ("owned", owned) if owned is not None else ("zone", [values[0]])
            if name == "count" and len(values) == 1 and zone.type == "stack":
                general = _call(f"{prefix}_count", data, *zone_args)
                return bounded(self._owned_read(owned, general, "count") if owned is not None else general,
                               (0, COUNT_BOUND))
            if name == "count" and len(values) == 2:
                return bounded(_call("zone_amount", _name(CTX), values[0], values[1], where), (0, COUNT_BOUND))
            if name == "items" and zone.type == "stack":
                return _call(f"{prefix}_list", data, *zone_args)
            if name == "first" and zone.type == "stack":
                return _call(f"{prefix}_first", data, *zone_args)
            if name == "free" and zone.size is None and zone.type == "stack":
                capacity = zone.capacity
                if type(capacity) is int:
                    general = _call(f"{prefix}_free", data, *zone_args, _const(capacity))
                    return bounded(self._owned_read(owned, general, "free", _const(capacity))
                                   if owned is not None else general, (capacity - COUNT_BOUND, capacity))
        if zone is not None and zone.type == "pool" and not zone.unlimited and len(values) == 2 \
                and name in ("count", "missing"):
            # How many of one kind a pool holds, and what a list needs that it lacks: read from the pool's table
            # of counts at once (`pool_amount`, `pool_missing`). No bound on a count: a pool's are not limited
            # as a stack's pieces are.
            return _call(f"pool_{'amount' if name == 'count' else name}", _name(CTX), where, values[0], values[1])
        if name == "adjacent" and len(values) == 1 and self.model.adjacency:
            # Each node's neighbours with the keys of the edges to them, made once here: `adjacent` is asked at
            # every step of a search, and a blocked edge is looked for by its key.
            if self._edge_keys is None:
                self._edge_keys = {node: tuple((n, edge_key(node, n)) for n in joined)
                                    for node, joined in self.model.adjacency.items()}
            return _call("adjacent_nodes", _name(CTX), where, values[0], self.constant(self._edge_keys, "edge_keys"))
        if zone is not None and name in ("free", "items") and len(values) == 1:
            # Any other zone the code names (a pool, a capacity worked out by pack code, pieces with sizes):
            # the room left, or the pieces, straight from the runtime, without the builtin's dispatch.
            if name == "free":  # `zones.free`, which gives the builtin's errors itself
                return _call("zone_room", _name(CTX), values[0], where)
            return _call("zone_pieces", _name(CTX), where, values[0])
        if len(values) == 1 and name in ("count", "any", "all"):
            if isinstance(values[0], ast.List | ast.ListComp):  # a list made here: no check of its kind needed
                made = _call(f"list_{name}", _name(CTX), values[0], where)
                if name == "count":
                    return bounded(made, (0, COUNT_BOUND))
                return self._short_circuit(name, values[0], made) or made
            # Most often a list (a rule's result, say): read at once; anything else goes the long way.
            impl = self.constant(builtins.BUILTINS[name].fn, name)
            return _call(f"maybe_list_{name}", impl, _name(CTX), values[0], where)
        return None

    def _short_circuit(self, name: str, made: ast.expr, general: ast.expr) -> ast.expr | None:
        """`any`/`all` of a comprehension over items the code knows (`made`) that stops at the first element
        that settles it, when no element can raise or count a step (`quiet.py`): what `general` gives, the
        steps it charges (one per item for the loop and one per element for the builtin) charged at once.
        When the budget has no room for them all, `general` runs, to stop at the same place as always."""
        held = getattr(made, "held_items", None)
        if not (isinstance(made, ast.ListComp) and len(made.generators) == 1 and held):
            return None
        loop = made.generators[0]
        source = loop.iter
        if loop.ifs or not isinstance(loop.target, ast.Name) or not (
                isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "charged"):
            return None
        if not is_quiet(made.elt, {loop.target.id: held}, self.namespace, DATA,
                        {name.id for name in self._field_tables.values()}):
            return None
        listed = source.args[1]
        items = self.namespace.get(listed.id) if isinstance(listed, ast.Name) else None
        element = copy.deepcopy(made.elt)
        if isinstance(items, list):  # a kind's items: their number is known now
            lazy = ast.GeneratorExp(element, [ast.comprehension(ast.Name(loop.target.id, ast.Store()), listed, [],
                                                                is_async=0)])
            charged: ast.expr = _call("charge_at_once", _name(CTX), _const(2 * len(items)))
        else:
            # A stack's content, read again by `general` when the budget has no room: the read must be the
            # same each time, and a `:=` cannot stand in a comprehension's source.
            if self._in_iterable or self._may_step([listed]):
                return None
            self._count += 1
            content = f"s_{self._count}"
            lazy = ast.GeneratorExp(element, [ast.comprehension(ast.Name(loop.target.id, ast.Store()),
                                                                _name(content), [], is_async=0)])
            charged = ast.Compare(ast.NamedExpr(ast.Name(content, ast.Store()),
                                                _call("charged_twice", _name(CTX), copy.deepcopy(listed))),
                                  [ast.IsNot()], [_const(None)])
        return _bool(ast.IfExp(charged, _call(name, lazy), general))

    def _fallback(self, node: Tree | Token, scope: Scope, closures_only: bool = False) -> tuple[ast.expr, str]:
        """The closure backend's code for `node`, called from generated code (`closures_only`: its children's
        too, rather than functions generated for them)."""
        closures_only, self._closures_only = self._closures_only, self._closures_only or closures_only
        try:
            fn, value_type = Compiler.compile_expr(self, node, scope)
        finally:
            self._closures_only = closures_only
        return _call(self.constant(fn, "closure"), _name(CTX)), value_type

    def g_list_lit(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        args = node.children[0]
        if args is None:
            return ast.List([], ast.Load()), "list:any"
        compiled = [self.gen_expr(a, scope) for a in args.children]
        types = {t for _, t in compiled}
        element = types.pop() if len(types) == 1 else ANY
        return ast.List([value for value, _ in compiled], ast.Load()), f"list:{element}"

    def g_comprehension(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        body_node, var_token, source_node, cond_node = node.children
        self._in_iterable += 1
        try:
            source, source_type = self.gen_listed(source_node, scope)
        finally:
            self._in_iterable -= 1
        inner = scope.child()
        var = str(var_token)
        inner.names[var] = element_type(source_type)
        sure, item_locals, seats = self._sure, self._item_locals, self._seats
        self._sure = sure - {f"L_{var}"}  # the comprehension's variable hides a parameter of that name
        self._seats = seats - {f"L_{var}"}
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) \
                and source.func.id in ("player_list", "seat_list") and isinstance(self.local(var), ast.Name):
            self._seats = self._seats | {f"L_{var}"}  # over the players: each a seat of this game
        self._item_locals = {n: v for n, v in item_locals.items() if n != f"L_{var}"}
        listed_items = self._listed(source)
        known = self.namespace.get(listed_items.id) if isinstance(listed_items, ast.Name) else None
        # The items the variable may hold, when the code knows them: a kind's items, fixed when the code is
        # made, or what a stack of one kind holds.
        held_items = frozenset(known) if isinstance(known, list) and all(type(i) is str for i in known) \
            else self._held_kind(source)
        if held_items is not None:
            self._item_locals[f"L_{var}"] = held_items
        try:
            body, body_type = self.gen_expr(body_node, inner)
            conditions = [self._truth(self.gen_expr(cond_node, inner)[0])] if cond_node is not None else []
        finally:
            self._sure, self._item_locals, self._seats = sure, item_locals, seats
        target = self.local(var)
        if isinstance(target, ast.Name):  # a Python local: the comprehension's own variable
            listed = self._listed(source)
            if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "zone_list":
                source = listed = self._zone_content(source.args[1])  # only read by the loop: no copy
            elif isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "player_list":
                source = listed = _call("seat_list", *source.args)
            items = _call("ticked", _name(CTX), source, _const(self.where(node)))
            if not self._may_step([body, *conditions]):
                # Nothing in the loop counts steps: charge them all at once when the budget allows
                # (a source not made here, only once it is seen to be a list).
                helper = "charged" if listed is not None else "charged_any"
                items = _call(helper, _name(CTX), listed if listed is not None else source,
                              _const(self.where(node)))
            loop = ast.comprehension(ast.Name(target.id, ast.Store()), items, conditions, is_async=0)
            made = ast.ListComp(body, [loop])
            if held_items is not None:
                made.held_items = held_items  # type: ignore[attr-defined]  # for `_short_circuit`
            return made, f"list:{body_type}"
        items = _call("each", _name(CTX), _name(ENV), _const(var), source, _const(self.where(node)))
        loop = ast.comprehension(ast.Name("_", ast.Store()), items, conditions, is_async=0)
        return ast.ListComp(body, [loop]), f"list:{body_type}"

    def _held_kind(self, source: ast.expr) -> frozenset[str] | None:
        """The items a stack's content may hold, for a comprehension over `zone_list(data, ref)` of a stack
        the code fixes: a stack that says what it holds holds only items of that kind (zones.add refuses
        others, and a saved state is checked to hold no others)."""
        if not (isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "zone_list"):
            return None
        zone = self._static_zone(source.args[1])
        if zone is None or zone.type != "stack" or not zone.of or zone.of not in self.model.kinds:
            return None
        return frozenset(i for i, k in self.model.item_kind.items() if k == zone.of)

    def _zone_content(self, ref: ast.expr) -> ast.expr:
        """The list in the game data of the zone `ref` names (a stack or a row, `zone_list` without the
        copy); a player's zone named by a seat is found in a table of keys by seat made with the code."""
        general = _call("zone_content", _name(DATA), ref)
        if isinstance(ref, ast.Call) and getattr(ref, "seat_owner", False) and isinstance(ref.args[0], ast.Constant) \
                and isinstance(ref.args[1], ast.Name | ast.Attribute):
            keys = self._player_zone_keys(ref.args[0].value)
            return general if keys is None else _data("z", _sub(keys, ref.args[1]))
        if not (isinstance(ref, ast.IfExp) and isinstance(ref.body, ast.Call) and isinstance(ref.body.func, ast.Name)
                and ref.body.func.id == "zone_ref" and isinstance(ref.body.args[0], ast.Constant)
                and isinstance(ref.body.args[1], ast.Name)):
            return general
        seat = ref.body.args[1]
        is_seat = _seat_test(seat, seat)  # as `_field_fast_paths` tests it: a seat of this game
        if ast.dump(ref.test) != ast.dump(is_seat):
            return general
        keys = self._player_zone_keys(ref.body.args[0].value)
        return general if keys is None else ast.IfExp(is_seat, _data("z", _sub(keys, seat)), general)

    def _player_zone_keys(self, name: Any) -> ast.expr | None:
        """The table made with the code of a player's zone's keys in the game data by seat; None if `name` is
        no player's zone."""
        zone = self.model.zones.get(name) if isinstance(name, str) else None
        if zone is None or zone.owner != "player":
            return None
        keys = self._zone_keys.get(name)
        if keys is None:
            keys = self._zone_keys[name] = {p: ZoneRef(name, p).key for p in range(self.model.max_players)}
        return self.constant(keys, "keys")

    @staticmethod
    def _listed(source: ast.expr) -> ast.expr | None:
        """A comprehension's source that is a list only the loop reads: a kind's items (not copied), the
        players, a list written in place."""
        if isinstance(source, ast.List) or getattr(source, "kind_table", False):
            return source
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Name):
            if source.func.id == "copy_list":
                return source.args[0]
            if source.func.id in ("player_list", "kind_items", "zone_list", "owned_list"):  # fresh lists
                return source
        return None

    def _may_step(self, code: list[ast.expr]) -> bool:
        """Whether `code` may count a step of the budget (or reach code that does)."""
        if self._in_iterable and any(isinstance(node, ast.ListComp | ast.NamedExpr)
                                     for tree in code for node in ast.walk(tree)):
            return True
        return _calls_beyond(code, _STEPLESS)

    def g_neg(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        operand, operand_type = self.gen_expr(node.children[0], scope)
        self._expect_int(operand_type, node.children[0], "-")
        if isinstance(operand, ast.Constant) and type(operand.value) is int:
            return _const(-operand.value), "int"  # a negative number written in the pack
        if self._is_int(operand):
            operand_bounds = self._bounds(operand)
            negation = ast.UnaryOp(ast.USub(), operand)
            return (bounded(negation, negated(operand_bounds)) if operand_bounds else _int(negation)), "int"
        return _int(_call("negate", operand, _const(self.where(node)))), "int"

    def g_binop(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        left, left_type = self.gen_expr(node.children[0], scope)
        op = str(node.children[1])
        right, right_type = self.gen_expr(node.children[2], scope)
        where = _const(self.where(node))
        if op == "+" and (left_type.startswith("list") or right_type.startswith("list")):
            model = self.constant(self.model, "model")
            as_lists = [_call("as_list", model, _name(DATA), side, where) for side in (left, right)]
            return _call("joined", _name(CTX), *as_lists, where), joined_type(left_type, right_type)
        self._expect_int(left_type, node.children[0], op)
        self._expect_int(right_type, node.children[2], op)
        if op == "+":
            # Two lists are joined, at a step per element (`plus`, given the context); a side that is surely a
            # number leaves only numbers to add, with no step to count (`add`).
            if self._is_int(left) or self._is_int(right):
                fast = self._on_numbers(left, right, ast.Add(), "add", where, checked=True)
            else:
                fast = self._on_numbers(left, right, ast.Add(), "plus", where, checked=True, with_context=True)
            return fast, "int" if left_type == "int" and right_type == "int" else ANY
        if op in ("-", "*"):  # an int, or an error: the helper takes numbers only
            return _int(self._on_numbers(left, right, ast.Sub() if op == "-" else ast.Mult(), _ARITHMETIC[op], where,
                                         checked=True)), "int"
        return _int(self._dividing(left, right, ast.FloorDiv() if op == "//" else ast.Mod(), _ARITHMETIC[op],
                                   where)), "int"

    def _dividing(self, left: ast.expr, right: ast.expr, op: ast.operator, helper: str, where: ast.expr) -> ast.expr:
        """`left // right` or `left % right` done inline when both are plain numbers and `right` is not 0;
        anything else goes to the helper, which raises the errors. Neither can leave the language's range."""
        if self._in_iterable:
            return _call(helper, left, right, where)
        self._count += 1
        operands: list[ast.expr] = []
        tests: list[ast.expr] = []
        for side, value in (("a", left), ("b", right)):
            if isinstance(value, ast.Constant | ast.Name) and self._is_int(value):
                operands.append(value)
                continue
            temp = f"{side}_{self._count}"
            held: ast.expr = ast.NamedExpr(ast.Name(temp, ast.Store()), value)
            # Both operands are worked out, in order, whatever the first one's test gives (`&`, not `and`).
            tests.append(ast.Compare(_call("type", held), [ast.Is()], [_name("int")]))
            operands.append(_name(temp))
        both = tests[0] if len(tests) == 1 else ast.BinOp(tests[0], ast.BitAnd(), tests[1]) if tests else None
        divisor = operands[1]
        nonzero = None if isinstance(divisor, ast.Constant) and divisor.value != 0 \
            else ast.Compare(divisor, [ast.NotEq()], [_const(0)])
        checks = [t for t in (both, nonzero) if t is not None]
        fast = ast.BinOp(operands[0], op, divisor)
        if not checks:
            return fast
        test = checks[0] if len(checks) == 1 else ast.BoolOp(ast.And(), checks)
        return ast.IfExp(test, fast, _call(helper, operands[0], divisor, where))

    def _maybe_list(self, value: ast.expr, value_type: str) -> bool:
        """Whether the code `value`, of type `value_type`, may give a list: not a number, a text, a truth value,
        an item or a player the code or its type says it is (a zone is never a list either)."""
        if isinstance(value, ast.Constant) or self._is_int(value) or getattr(value, "sure_bool", False) is True:
            return False
        return value_type == ANY or value_type.startswith("list")

    def _is_int(self, value: ast.expr) -> bool:
        """Whether the code `value` surely gives an int (never a bool) when it gives anything."""
        if isinstance(value, ast.Constant):
            return type(value.value) is int
        if isinstance(value, ast.Name):
            return value.id in self._sure or value.id in self._ranges
        return getattr(value, "sure_int", False) is True

    def _bounds(self, value: ast.expr) -> Bounds | None:
        """The range the code `value` surely gives an int in, if the code tells (`ranges.py`)."""
        if isinstance(value, ast.Name):
            return self._ranges.get(value.id)
        return node_bounds(value)

    def _on_numbers(self, left: ast.expr, right: ast.expr, op: ast.operator | ast.cmpop, helper: str,
                    where: ast.expr, checked: bool, with_context: bool = False) -> ast.expr:
        """`left op right` done inline when both are plain numbers; anything else goes to the checked helper.

        Both sides are evaluated once, in order, into temporaries; the helper then sees the same values
        and raises the same errors as the closure backend (given the context first, `with_context`, when
        it may count steps). Inside a comprehension's source Python allows no assignment expressions, so
        there the helper is called directly.
        """
        lead = [_name(CTX)] if with_context else []
        if isinstance(op, ast.operator):
            left_bounds, right_bounds = self._bounds(left), self._bounds(right)
            result_bounds = arithmetic(op, left_bounds, right_bounds) if left_bounds and right_bounds else None
            if result_bounds is not None:  # ints whose result cannot leave the language's range: no test
                return bounded(ast.BinOp(left, op, right), result_bounds)
        both_ints = self._is_int(left) and self._is_int(right)
        if both_ints and (isinstance(op, ast.cmpop) or not checked):
            # Both ints: what the helper would do, without the tests.
            if isinstance(op, ast.cmpop):
                if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Sub) and self._bounds(left) \
                        and isinstance(right, ast.Constant) and type(right.value) is int and right.value == 0:
                    # A plain subtraction of two ints (it has a range only then): `a - b > 0` is `a > b`.
                    return _bool(ast.Compare(left.left, [op], [left.right]))
                return _bool(ast.Compare(left, [op], [right]))
            return ast.BinOp(left, op, right)
        # Arithmetic on two ints gives an int (or raises the range error).
        gives_int = both_ints and isinstance(op, ast.operator)
        if self._in_iterable:
            call = _call(helper, *lead, left, right, where)
            return _int(call) if gives_int else call
        self._count += 1
        tests: list[ast.expr] = []
        operands: list[ast.expr] = []
        if self._is_int(left) and self._is_int(right):
            operands = [left, right]  # worked out in order, no test needed
        for side, value in () if operands else (("a", left), ("b", right)):
            if self._is_int(value) and isinstance(value, ast.Constant | ast.Name):
                operands.append(value)  # a number written in the pack, or a tested local, needs no test
                continue
            if self._is_int(value) and (side == "b" or self._is_int(right)):
                # Needs no test, and is worked out after any operand that does, in whichever way runs.
                operands.append(ast.NamedExpr(ast.Name(f"{side}_{self._count}", ast.Store()), value))
                continue
            temp = f"{side}_{self._count}"
            tests.append(ast.Compare(_call("type", ast.NamedExpr(ast.Name(temp, ast.Store()), value)), [ast.Is()],
                                     [_name("int")]))
            operands.append(_name(temp))
        if isinstance(op, ast.cmpop):
            fast: ast.expr = ast.Compare(operands[0], [op], [operands[1]])
        else:
            result = f"r_{self._count}"
            computed = ast.NamedExpr(ast.Name(result, ast.Store()), ast.BinOp(operands[0], op, operands[1]))
            in_range = ast.Compare(_const(-MAX_INT), [ast.LtE(), ast.LtE()], [computed, _const(MAX_INT)])
            fast = ast.IfExp(in_range, _name(result), _call("checked", _name(result), where)) if checked else computed
        if not tests:
            return _int(fast) if gives_int else fast
        both_numbers = tests[0] if len(tests) == 1 else ast.BinOp(tests[0], ast.BitAnd(), tests[1])
        return ast.IfExp(both_numbers, fast, _call(helper, *lead, *operands, where))

    def g_compare(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        left, left_type = self.gen_expr(node.children[0], scope)
        op = str(node.children[1])
        right, right_type = self.gen_expr(node.children[2], scope)
        if op in ("==", "!="):  # between the language's values (numbers, texts, lists, zones...): a bool
            compare: ast.cmpop = ast.Eq() if op == "==" else ast.NotEq()
            if not (self._maybe_list(left, left_type) and self._maybe_list(right, right_type)):
                return _bool(ast.Compare(left, [compare], [right])), "bool"
            # Two lists are compared element by element, a step each (`same_lists`).
            where = _const(self.where(node))
            if self._in_iterable:  # no assignment expression allowed here: the helper decides
                equal: ast.expr = _call("equal_values", _name(CTX), left, right, where)
                return _bool(equal if op == "==" else ast.UnaryOp(ast.Not(), equal)), "bool"
            self._count += 1
            a, b = f"a_{self._count}", f"b_{self._count}"
            both_lists = ast.BinOp(
                ast.Compare(_call("type", ast.NamedExpr(ast.Name(a, ast.Store()), left)), [ast.Is()], [_name("list")]),
                ast.BitAnd(),
                ast.Compare(_call("type", ast.NamedExpr(ast.Name(b, ast.Store()), right)), [ast.Is()], [_name("list")]))
            listed: ast.expr = _call("same_lists", _name(CTX), _name(a), _name(b), where)
            if op == "!=":
                listed = ast.UnaryOp(ast.Not(), listed)
            return _bool(ast.IfExp(both_lists, listed, ast.Compare(_name(a), [compare], [_name(b)]))), "bool"
        compare = {"<": ast.Lt(), "<=": ast.LtE(), ">": ast.Gt(), ">=": ast.GtE()}[op]
        ordered = self._on_numbers(left, right, compare, _ORDERED[op], _const(self.where(node)), checked=False)
        return _bool(ordered), "bool"

    def g_in_op(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        left, _ = self.gen_expr(node.children[0], scope)
        right, _ = self.gen_expr(node.children[1], scope)
        contains = self.constant(builtins.contains, "contains")
        return _call(contains, _name(CTX), _const(self.where(node)), right, left), "bool"

    def g_not_in_op(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        test, _ = self.g_in_op(node, scope)
        return ast.UnaryOp(ast.Not(), test), "bool"

    @staticmethod
    def _truth(value: ast.expr) -> ast.expr:
        if getattr(value, "sure_bool", False) is True:
            return value
        return ast.IfExp(value, _const(True), _const(False))

    def g_and_op(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        left, _ = self.gen_expr(node.children[0], scope)
        right, _ = self.gen_expr(node.children[1], scope)
        return _bool(ast.BoolOp(ast.And(), [self._truth(left), self._truth(right)])), "bool"

    def g_or_op(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        left, _ = self.gen_expr(node.children[0], scope)
        right, _ = self.gen_expr(node.children[1], scope)
        return _bool(ast.BoolOp(ast.Or(), [self._truth(left), self._truth(right)])), "bool"

    def g_not_op(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        operand, _ = self.gen_expr(node.children[0], scope)
        return _bool(ast.UnaryOp(ast.Not(), operand)), "bool"

    def g_cond_expr(self, node: Tree, scope: Scope) -> tuple[ast.expr, str]:
        cond, _ = self.gen_expr(node.children[0], scope)
        then, then_type = self.gen_expr(node.children[1], scope)
        other, other_type = self.gen_expr(node.children[2], scope)
        result_type = then_type if then_type == other_type or other_type == "none" else ANY
        chosen = ast.IfExp(cond, then, other)
        either = union([self._bounds(then), self._bounds(other)])
        return (bounded(chosen, either) if either is not None else chosen), result_type

    # ------------------------------------------------------------- statements

    def gen_block(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        inner = scope.child()
        body: list[ast.stmt] = []
        for stmt in node.children[0].children:
            body.extend(self.gen_stmt(stmt, inner))
        return body

    def _tick(self, node: Tree) -> list[ast.stmt]:
        """Count one step of the budget, as the closure backend does before each statement."""
        steps = _attr(_name(CTX), "steps")
        over = ast.Compare(steps, [ast.Gt()], [_attr(_name(CTX), "budget")])
        return [ast.AugAssign(_store(steps), ast.Add(), _const(1)),
                ast.If(over, [ast.Expr(_call("over_budget", _name(CTX), _const(self.where(node))))], [])]

    def gen_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        method: Callable[[Tree, Scope], list[ast.stmt]] | None = getattr(self, f"t_{node.data}", None)
        if method is None:
            fn = Compiler.compile_stmt(self, node, scope)  # ticks inside
            return [ast.Expr(_call(self.constant(fn, "closure"), _name(CTX)))]
        return self._tick(node) + method(node, scope)

    def t_let_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        name_token, value_node = node.children
        name = str(name_token)
        self._check_local_name(name, name_token)
        if value_node.data in _CHANCE or value_node.data in _CHOICES:
            (fn, value_type), alone = self.self_contained(lambda: getattr(self, f"c_{value_node.data}")(value_node, scope))
            value: ast.expr = _call(self.constant(fn, "chance" if alone else "decide"), _name(CTX))
        else:
            value, value_type = self.gen_expr(value_node, scope)
        scope.names[name] = value_type
        assign = ast.Assign([_store(self.local(name))], value)
        if self._resumable and value_node.data in _ONE_ANSWER:
            return self._asked_once(name, assign)
        if self._resumable and value_node.data in _CHOICES:
            return self._asked(assign)
        return [assign]

    def _asked_once(self, name: str, assign: ast.stmt) -> list[ast.stmt]:
        """`let x = choose ...` of one answer, in a generator: with no answer yet, yield the `Suspend`;
        resumed, take the answer among the options it was asked with (not worked out again)::

            try:
                x = decide_M(ctx)
            except Suspend as waiting_N:
                stopped_N = waiting_N
            else:
                stopped_N = None
            if stopped_N is not None:
                yield stopped_N
                x = answered(ctx, stopped_N)
        """
        self._count += 1
        waiting, stopped = f"waiting_{self._count}", f"stopped_{self._count}"
        handler = ast.ExceptHandler(_name("Suspend"), waiting, [ast.Assign([ast.Name(stopped, ast.Store())],
                                                                           _name(waiting))])
        ask = ast.Try([assign], [handler], [ast.Assign([ast.Name(stopped, ast.Store())], _const(None))], [])
        resume = ast.If(ast.Compare(_name(stopped), [ast.IsNot()], [_const(None)]), [
            ast.Expr(ast.Yield(_name(stopped))),
            ast.Assign([_store(self.local(name))], _call("answered", _name(CTX), _name(stopped))),
        ], [])
        return [ask, resume]

    def _asked(self, assign: ast.stmt) -> list[ast.stmt]:
        """`let x = choose ...` in a generator: with no answer yet, take back what asking took and yield
        the `Suspend`; resumed, ask again (an answer is there now)::

            asked_N = (ctx.steps, ctx.pos, ctx.depth)
            while True:
                try:
                    x = decide_M(ctx)
                    break
                except Suspend as waiting_N:
                    ctx.steps, ctx.pos, ctx.depth = asked_N
                    stopped_N = waiting_N
                yield stopped_N
        """
        self._count += 1
        asked, waiting, stopped = f"asked_{self._count}", f"waiting_{self._count}", f"stopped_{self._count}"
        fields = ("steps", "pos", "depth")
        save = ast.Assign([ast.Name(asked, ast.Store())],
                          ast.Tuple([_attr(_name(CTX), f) for f in fields], ast.Load()))
        restore = ast.Assign([ast.Tuple([_store(_attr(_name(CTX), f)) for f in fields], ast.Store())], _name(asked))
        handler = ast.ExceptHandler(_name("Suspend"), waiting,
                                    [restore, ast.Assign([ast.Name(stopped, ast.Store())], _name(waiting))])
        ask = ast.Try([assign, ast.Break()], [handler], [], [])
        return [save, ast.While(_const(True), [ask, ast.Expr(ast.Yield(_name(stopped)))], [])]

    def _simple_target(self, node: Tree, scope: Scope) -> tuple[ast.expr, ast.expr, Any] | None:
        """For `x`, `game_var` and `p.var` (p a player): where to read, where to write, and the bound."""
        parts = list(node.children)
        first = str(parts[0])
        model = self.model
        if len(parts) == 1:
            if scope.lookup(first) is not None:
                return self.local(first), self.local(first), None
            if first in model.game_vars:
                return _var_read(_data("v", first), model.game_vars[first]), _data("v", first), model.game_vars[first]
            return None
        if len(parts) == 2 and isinstance(parts[1], Token):
            field = str(parts[1])
            base, base_type = self.gen_expr(Tree("name", [parts[0]]), scope) if (
                scope.lookup(first) is not None or first in SPECIALS) else (None, "")
            if base is not None and base_type == "player" and field in model.player_vars:
                if not self._surely_seat(base):
                    # A local of type player may still hold something else at run time.
                    base = _call("player_owner", self.constant(model, "model"), base, _const(field),
                                 _const(self.where(node)))
                read = _var_read(_sub(_sub(_data("pv"), base), field), model.player_vars[field])
                write = _sub(_call(_attr(_name(CTX), "own"), _const("pv"), base), field)
                return read, write, model.player_vars[field]
        return None

    def _assign(self, node: Tree, scope: Scope, value_node: Tree, sign: int) -> list[ast.stmt]:
        target_node = node.children[0]
        where = self.where(node)
        simple = self._simple_target(target_node, scope)
        value, value_type = self.gen_expr(value_node, scope)
        if sign:
            self._expect_int(value_type, value_node, "+=" if sign > 0 else "-=")
        if simple is None:
            writer, reader = self.compile_target(target_node, scope)  # every check, and its errors
            if not sign:
                self.expect_written(self.target_types, value_type, value_node, self.target_label)
            target = self._field_target(target_node, scope)
            if target is not None:
                owner, field, player_bound, item_bounds = target
                bounds = (_const(field), self.constant(player_bound, "bound"), self.constant(item_bounds, "bounds"),
                          _const(where))
                if sign:
                    # The current value is read and checked before `value` is worked out, as the reference
                    # does: an owner with no such variable is the error, whatever `value` would raise.
                    self._count += 1
                    held = f"o_{self._count}"
                    current = _call("need_int", _call("field_value", _name(CTX), _name(held), _const(field),
                                                      _const(player_bound is not None),
                                                      self.constant(item_bounds, "bounds"), _const(where)),
                                    _const(where))
                    return [ast.Expr(_call("change_field", _name(CTX), ast.NamedExpr(ast.Name(held, ast.Store()), owner),
                                           current, value, _const(sign), *bounds))]
                return self._set_field(value, owner, field, player_bound, item_bounds, bounds)
            if sign:
                op = "add" if sign > 0 else "subtract"
                current = _call(self.constant(reader, "read"), _name(CTX))
                value = _call(op, _call("need_int", current, _const(where)), _call("need_int", value, _const(where)),
                              _const(where))
            return [ast.Expr(_call(self.constant(writer, "write"), _name(CTX), value))]
        read, write_target, var = simple
        if not sign and var is not None:
            self.expect_written([var.type], value_type, value_node, f"'{self._target_name(target_node)}'")
        if sign and isinstance(value, ast.Constant | ast.Name):
            # The change is worked out without effects: both sides tested inline, the current value first.
            value = self._on_numbers(read, value, ast.Add() if sign > 0 else ast.Sub(),
                                     "add_numbers" if sign > 0 else "subtract", _const(where), checked=True)
        elif sign:
            op = "add" if sign > 0 else "subtract"
            value = _call(op, _call("need_int", read, _const(where)), _call("need_int", value, _const(where)),
                          _const(where))
        if var is not None:
            bound = bounds_of(var, f"'{self._target_name(target_node)}'", self.model.item_kind)
            value = self._bounded_write(value, var, self.constant(bound, "bound"), _const(where))
        return [ast.Assign([_store(write_target)], value)]

    def _bounded_write(self, value: ast.expr, var: Any, bound: ast.expr, where: ast.expr) -> ast.expr:
        """`value` as var `var` takes it: through `bound` (its type checked, kept within its min..max), which an
        int already within them does not need."""
        if var.type != "int" or not self._is_int(value):
            return _call(bound, value, where, _name(CTX))
        tests: list[tuple[ast.cmpop, int]] = [(op, limit) for op, limit in ((ast.GtE(), var.min), (ast.LtE(), var.max))
                                              if limit is not None]
        known = self._bounds(value)
        if known is not None:
            tests = [(op, limit) for op, limit in tests
                     if not (limit <= known[0] if isinstance(op, ast.GtE) else known[1] <= limit)]
        if not tests:
            return value
        self._count += 1
        held = f"w_{self._count}"
        first: ast.expr = ast.NamedExpr(ast.Name(held, ast.Store()), value)
        checks: list[ast.expr] = [ast.Compare(first if i == 0 else _name(held), [op], [_const(limit)])
                                  for i, (op, limit) in enumerate(tests)]
        within = checks[0] if len(checks) == 1 else ast.BoolOp(ast.And(), checks)
        return ast.IfExp(within, _name(held), _call(bound, _name(held), where, _name(CTX)))

    def _set_field(self, value: ast.expr, owner: ast.expr, field: str, player_bound: Any, item_bounds: dict[str, Any],
                   bounds: tuple[ast.expr, ...]) -> list[ast.stmt]:
        """`set owner.field = value`: written inline when the owner is a seat, or an item of the one kind
        with that variable; anything else goes through `set_field`, with its checks and errors."""
        self._count += 1
        value_name, owner_name = f"v_{self._count}", f"o_{self._count}"
        where = bounds[-1]
        general: list[ast.stmt] = [ast.Expr(_call("set_field", _name(CTX), _name(value_name), _name(owner_name),
                                                  *bounds))]
        branches: list[tuple[ast.expr, str, ast.expr]] = []
        if player_bound is not None and self._surely_seat(owner):
            # Surely a seat of this game: the player's var, written without a test.
            owned = _call(_attr(_name(CTX), "own"), _const("pv"), owner)
            write = ast.Assign([ast.Subscript(owned, _const(field), ast.Store())],
                               _call(bounds[1], _name(value_name), where, _name(CTX)))
            return [ast.Assign([ast.Name(value_name, ast.Store())], value), write]
        if player_bound is not None:
            # A number that is no seat of the game (past the last, or negative) is `set_field`'s error.
            is_seat = _seat_test(_name(owner_name), _name(owner_name))
            branches.append((is_seat, "pv", bounds[1]))
        if len(item_bounds) == 1:
            (kind, bound), = item_bounds.items()
            is_item = ast.BoolOp(ast.And(), [
                ast.Compare(_call("type", _name(owner_name)), [ast.Is()], [_name("str")]),
                ast.Compare(_call(_attr(self.constant(self.model.item_kind, "kinds"), "get"), _name(owner_name)),
                            [ast.Eq()], [_const(kind)])])
            branches.append((is_item, "ev", self.constant(bound, "bound")))
        code = general
        for test, table, bound_name in reversed(branches):
            owned = _call(_attr(_name(CTX), "own"), _const(table), _name(owner_name))
            write = ast.Assign([ast.Subscript(owned, _const(field), ast.Store())],
                               _call(bound_name, _name(value_name), where, _name(CTX)))
            code = [ast.If(test, [write], code)]
        return [ast.Assign([ast.Name(value_name, ast.Store())], value),
                ast.Assign([ast.Name(owner_name, ast.Store())], owner), *code]

    @staticmethod
    def _target_name(node: Tree) -> str:
        return str(node.children[-1])

    def t_set_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        return self._assign(node, scope, node.children[1], 0)

    def t_add_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        return self._assign(node, scope, node.children[1], 1)

    def t_sub_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        return self._assign(node, scope, node.children[1], -1)

    def t_if_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        children = node.children
        branches: list[tuple[ast.expr, list[ast.stmt]]] = [
            (self.gen_expr(children[0], scope)[0], self.gen_block(children[1], scope))]
        otherwise: list[ast.stmt] = []
        for part in children[2:]:
            if part is None:
                continue
            if part.data == "elif_part":
                branches.append((self.gen_expr(part.children[0], scope)[0], self.gen_block(part.children[1], scope)))
            else:
                otherwise = self.gen_block(part.children[0], scope)
        result = otherwise
        for cond, body in reversed(branches):
            result = [ast.If(cond, body or [ast.Pass()], result)]
        return result

    def t_for_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        var_token, source_node, body_node = node.children
        var = str(var_token)
        self._check_local_name(var, var_token)
        source, source_type = self.gen_listed(source_node, scope)
        inner = scope.child()
        inner.names[var] = element_type(source_type)
        body = self.gen_block(body_node, inner)
        where = self.where(node)
        self._count += 1
        item = f"item_{self._count}"
        items = _call("loop_items", _name(CTX), source, _const(where))
        steps = [*self._tick_at(where), ast.Assign([_store(self.local(var))], _name(item))]
        return [ast.For(ast.Name(item, ast.Store()), items, steps + body, [])]

    def t_require_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        cond, _ = self.gen_expr(node.children[0], scope)
        message = unquote(str(node.children[1]))
        return [ast.If(ast.UnaryOp(ast.Not(), cond),
                       [ast.Raise(_call("RuleViolation", _const(message)), None)], [])]

    def t_emit_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        name_token, args_node = node.children
        event = str(name_token)
        args = [self.gen_expr(a, scope)[0] for a in (args_node.children if args_node is not None else [])]
        self._note_event(event, len(args), self.origin, node)
        self._call(f"event:{event}")
        emit = _attr(_name("PROGRAM"), "emit")
        return [ast.Expr(_call(emit, _name(CTX), _const(event), ast.List(args, ast.Load())))]

    def t_finish_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        return [ast.Raise(_call("GameOver", _const(unquote(str(node.children[0])))), None)]

    def t_goto_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        stage = str(node.children[0])
        if stage not in self.program.stages:
            return [ast.Expr(_call(self.constant(self.s_goto_stmt(node, scope), "closure"), _name(CTX)))]
        flow = _data("flow")
        return [ast.Assign([_store(_sub(flow, "stage"))], _const(stage)),
                ast.Assign([_store(_sub(_sub(flow, "usage"), "visit"))], ast.Dict([], [])),
                ast.Assign([_store(_sub(flow, "entered"))], _const(True))]

    def t_end_turn_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        return [ast.Assign([_store(_data("flow", "end_turn"))], _const(True))]

    def t_return_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        if self._own_body and self._env_names is not None:  # no ctx.env to restore on the way out
            return [ast.AugAssign(_store(_attr(_name(CTX), "depth")), ast.Sub(), _const(1)), ast.Return(None)]
        return [ast.Raise(_call("Return"), None)]

    def t_call_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        name_token, args_node = node.children
        name = str(name_token)
        arg_nodes = args_node.children if args_node is not None else []
        definition = self.proc_defs.get(name)
        if definition is None or len(arg_nodes) != len(definition.params):
            return [ast.Expr(_call(self.constant(self.s_call_stmt(node, scope), "closure"), _name(CTX)))]
        generated = [self.gen_expr(a, scope) for a in arg_nodes]
        self.expect_arguments(definition, [t for _, t in generated], arg_nodes)
        args = [a for a, _ in generated]
        self._call(f"proc:{name}")
        if self._resumable and name in self._suspending:
            return [ast.Expr(ast.YieldFrom(_call(self._gen_callee(name), _name(CTX), *args)))]
        return [ast.Expr(_call(self._proc_callee(name), _name(CTX), *args))]

    def _gen_zone(self, node: Tree, scope: Scope) -> ast.expr:
        """A zone operand of a statement, refused at compile time as `statements._zone` refuses it."""
        value, type_name = self.gen_expr(node, scope)
        if type_name != ANY and not type_name.startswith("zone:"):
            raise self.error(node, f"expected a zone here, not a value of type {type_name}")
        return value

    def t_move_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        first, count_of, source_node, dest_node, position_node = node.children
        count: ast.expr = _const(None)
        if count_of is not None:
            count = self.gen_expr(first, scope)[0]
            what = self.gen_expr(count_of.children[0], scope)[0]
        else:
            what = self.gen_expr(first, scope)[0]
        source = self._gen_zone(source_node, scope)
        dest = self._gen_zone(dest_node, scope)
        top = position_node is not None and str(position_node.children[0]) == "top"
        if count_of is not None:  # the count is worked out after the zones, as in the closure
            self._count += 1
            names = [f"w_{self._count}", f"s_{self._count}", f"d_{self._count}"]
            assign = _assigned(tuple(zip(names, (what, source, dest), strict=True)))
            call = _call("move_items", _name(CTX), *[_name(n) for n in names], count, _const(True), _const(top),
                         _const(self.where(node)))
            return [*assign, ast.Expr(call)]
        where = _const(self.where(node))
        return self._move_one(what, source, dest, top, where) or [
            ast.Expr(_call("move_items", _name(CTX), what, source, dest, count, _const(False), _const(top), where))]

    def _move_one(self, what: ast.expr, source: ast.expr, dest: ast.expr, top: bool,
                  where: ast.expr) -> list[ast.stmt] | None:
        """`move ITEM from A to B` between zones the code names, written out for one item into a stack: the
        item taken from an endless pool (nothing to take) or from a stack that holds it, put on the stack and
        the stack's room checked, as `zones.move` does it. Anything else (a list, an item of another kind,
        one the source does not hold) runs `move_items`, with its errors."""
        src_zone, dst_zone = self._zone_named(source), self._zone_named(dest)
        if src_zone is None or dst_zone is None or dst_zone.type != "stack" or dst_zone.size is not None:
            return None
        endless = src_zone.type == "pool" and src_zone.unlimited
        if not endless and src_zone.type != "stack":
            return None
        self._count += 1
        number = self._count
        item, src, dst, held = (f"{prefix}_{number}" for prefix in ("w", "s", "d", "c"))
        taken = _assigned(((item, what), (src, source), (dst, dest)))
        # A piece of another kind goes the long way, to its error.
        tests = [ast.Compare(_call("type", _name(item)), [ast.Is()], [_name("str")]), *self._of_kind(item, dst_zone)]
        fast: list[ast.stmt] = []
        if not endless:
            tests.append(ast.Compare(_name(item), [ast.In()], [_data("z", _attr(_name(src), "key"))]))
            # The stack is read down to the item: a step for each piece above it, as `zones.remove` counts.
            position = f"i_{number}"
            fast += [ast.Assign([ast.Name(held, ast.Store())], _call(_attr(_name(CTX), "own"), _const("z"),
                                                                      _attr(_name(src), "key"))),
                     ast.Assign([ast.Name(position, ast.Store())], _call(_attr(_name(held), "index"), _name(item))),
                     ast.If(_name(position), [ast.Expr(_call(_attr(_name(CTX), "tick_many"), _name(position), where))],
                            []),
                     ast.Delete([ast.Subscript(_name(held), _name(position), ast.Del())])]
        fast += self._put_on_stack(item, dst, dst_zone, top, number, where)
        slow = ast.Expr(_call("move_items", _name(CTX), _name(item), _name(src), _name(dst), _const(None),
                              _const(False), _const(top), where))
        test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
        return [*taken, ast.If(test, fast, [slow])]

    def _zone_named(self, value: ast.expr) -> Any:
        """The zone definition of a zone operand that is surely a zone (`x.zone` or a zone's name), if any: also
        `x.zone` of an `x` known only at run time (`p.hand` of a seat tested inline, `s.pocket` of an item), which
        gives that zone or an error."""
        called = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
        if called in ("zone_ref", "any_field") or isinstance(value, ast.IfExp) \
                or (isinstance(value, ast.Name) and isinstance(self.namespace.get(value.id), ZoneRef)):
            return self._static_zone(value)
        return None

    def t_draw_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        count_node, source_node, dest_node, position_node = node.children
        count = self.gen_expr(count_node, scope)[0]
        source = self._gen_zone(source_node, scope)
        dest = self._gen_zone(dest_node, scope)
        top = position_node is not None and str(position_node.children[0]) == "top"
        where = _const(self.where(node))
        return self._draw_into_stack(source, dest, count, top, where) or [
            ast.Expr(_call("draw_items", _name(CTX), source, dest, count, _const(top), where))]

    def _put_on_stack(self, item: str, dst: str, zone: Any, top: bool, number: int,
                      where: ast.expr) -> list[ast.stmt]:
        """Put `item` (a local, of the zone's kind) on the stack `dst` (a local ZoneRef), and refuse what
        overfills it, as `zones.add` does (`zones.check_fill`)."""
        content = f"t_{number}"
        put = _call(_attr(_name(content), "insert"), _const(0), _name(item)) if top \
            else _call(_attr(_name(content), "append"), _name(item))
        done: list[ast.stmt] = [
            ast.Assign([ast.Name(content, ast.Store())], _call(_attr(_name(CTX), "own"), _const("z"),
                                                                _attr(_name(dst), "key"))),
            ast.Expr(put)]
        # No more pieces than places, nor than a stack may hold: the exact count (and its error) only when
        # the stack's length says it may be over.
        capacity = zone.capacity
        check = ast.Expr(_call("check_fill", _name(CTX), _name(dst), where))
        if capacity is None or type(capacity) is int:
            bound = MAX_ZONE_ITEMS if capacity is None else min(capacity, MAX_ZONE_ITEMS)
            done.append(ast.If(ast.Compare(_call("len", _name(content)), [ast.Gt()], [_const(bound)]), [check], []))
        else:
            done.append(check)
        return done

    def _of_kind(self, item: str, zone: Any) -> list[ast.expr]:
        """The test that `item` (a local) is a piece the zone takes; none when it takes anything."""
        if not zone.of:
            return []
        kinds = _attr(self.constant(self.model.item_kind, "kinds"), "get")
        return [ast.Compare(_call(kinds, _name(item)), [ast.Eq()], [_const(zone.of)])]

    def _draw_into_stack(self, source: ast.expr, dest: ast.expr, count: ast.expr, top: bool,
                         where: ast.expr) -> list[ast.stmt] | None:
        """`draw N from A to B` between two stacks the code names, written out: one item at a time from the
        front of A onto B, stopping when A is empty, as `draw_items` does. A count that is not a number runs
        `draw_items`, with its errors; a drawn item that B does not take is put by `zones.add`, to its error."""
        src_zone, dst_zone = self._zone_named(source), self._zone_named(dest)
        if src_zone is None or dst_zone is None or src_zone.type != "stack" or dst_zone.type != "stack" \
                or dst_zone.size is not None:
            return None
        self._count += 1
        number = self._count
        src, dst, many, item = (f"{prefix}_{number}" for prefix in ("s", "d", "n", "w"))
        taken = _assigned(((src, source), (dst, dest), (many, count)))
        held = _data("z", _attr(_name(src), "key"))
        take = ast.Assign([ast.Name(item, ast.Store())],
                          _call(_attr(_call(_attr(_name(CTX), "own"), _const("z"), _attr(_name(src), "key")), "pop"),
                                _const(0)))
        put = self._put_on_stack(item, dst, dst_zone, top, number, where)
        kind_tests = self._of_kind(item, dst_zone)
        if kind_tests:
            wrong = _call("zone_add", _name(CTX), _name(dst), _name(item), _const(1), _const(top), where)
            put = [ast.If(kind_tests[0], put, [ast.Expr(wrong)])]
        written = isinstance(count, ast.Constant) and type(count.value) is int  # a number written in the pack
        if written and count.value == 1 and src_zone is not dst_zone:  # type: ignore[attr-defined]
            # One piece, into another stack: into the stack it came from, a draw of one piece from a stack of
            # one turns it no times (`zones.draws`), and is left to the loop below.
            return [*taken[:2], ast.If(held, [take, *put], [])]
        # Into the stack it takes from, a draw turns it: `zones.draws` says how many times to take.
        times = _call("range", _call("zone_draws", _name(CTX), _name(src), _name(dst), _name(many), where))
        loop = ast.For(ast.Name("_", ast.Store()), times,
                       [ast.If(ast.UnaryOp(ast.Not(), held), [ast.Break()], []), take, *put], [])
        if written:
            return [*taken, loop]
        slow = ast.Expr(_call("draw_items", _name(CTX), _name(src), _name(dst), _name(many), _const(top), where))
        is_number = ast.Compare(_call("type", _name(many)), [ast.Is()], [_name("int")])
        return [*taken, ast.If(is_number, [loop], [slow])]

    def _field_target(self, node: Tree, scope: Scope) -> tuple[ast.expr, str, Any, Any] | None:
        """For `x.field` and `x.y.field` (a player's or an item's variable): the owner, the field, the bounds."""
        parts = list(node.children)
        if len(parts) < 2 or not all(isinstance(p, Token) for p in parts[1:]):
            return None
        base_node: Tree | Token = Tree("name", [parts[0]])
        for part in parts[1:-1]:
            base_node = Tree("field", [base_node, part])
        base, _ = self.gen_expr(base_node, scope)
        if self._calls_directly([ast.Expr(base)]):
            return None  # a rule call steps the budget: the closure reads the owner twice, so must we
        model = self.model
        field = str(parts[-1])
        player_var = model.player_vars.get(field)
        player_bound = bounds_of(player_var, f"'{field}'", model.item_kind) if player_var else None
        item_bounds = {k: bounds_of(d.vars[field], f"'{field}'", model.item_kind)
                       for k, d in model.kinds.items() if field in d.vars}
        return base, field, player_bound, item_bounds

    def t_shuffle_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        zone_node = node.children[0]
        zone = self._gen_zone(zone_node, scope)
        shuffle = self.constant(emitted.shuffle_zone, "shuffle")
        return [ast.Expr(_call(shuffle, _name(CTX), zone, _const(self.where(zone_node)), _const(self.where(node))))]

    # Closures of the reference backend that the generated code calls, made without a reference to this
    # compiler so that a compiled pack can be stored (ruleskit/programcache.py).

    def _zone(self, node: Tree, scope: Scope) -> Fn:
        fn, type_name = self.compile_expr(node, scope)
        if type_name != ANY and not type_name.startswith("zone:"):
            raise self.error(node, f"expected a zone here, not a value of type {type_name}")
        return emitted.zone_checker(fn, self.model, self.where(node))

    def c_choose_one(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        source, source_type = self.compile_expr(node.children[1], scope)
        prompt = self._prompt(node.children[2], "Choose one")
        where = self.where(node)
        options = emitted.choice_options(self.model, source, where, source_type == "list:player")
        return self._decide(who, prompt, options, where), element_type(source_type)

    def t_log_stmt(self, node: Tree, scope: Scope) -> list[ast.stmt]:
        value, _ = self.gen_expr(node.children[0], scope)
        say = _attr(_name(CTX), "say")
        return [ast.Expr(_call(say, _call("shown", _name(CTX), value), _const(self.where(node))))]
