"""Checking and compiling rule-language expressions into closures.

Each expression compiles to `fn(ctx) -> value`. Names, fields, arities and
simple types are checked while compiling, against the pack's model, so a pack
that compiles cannot meet an unknown name at run time. Nothing here hands user
text to `eval` or `exec`: the closures reach only the game data and the
builtins in `builtins.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import LanguageError, ProgramError, did_you_mean
from ..limits import MAX_LIST
from ..model import Model, ZoneRef
from ..runtime.context import Ctx
from . import builtins
from .definitions import Definition
from .parser import Origin, position
from .scope import ANY, Fn, Program, Scope, element_type, joined_type, may_take, type_of, written_type
from .values import as_list, checked_int, label_of

if TYPE_CHECKING:  # lark is imported when something is parsed (lang/parser.py)
    from lark import Token, Tree

BUILTIN_EVENTS = {"game_start": 0, "turn_start": 1, "turn_end": 1, "round_end": 0}



def seat_of_item(model: Model, item: str) -> int | None:
    """The seat an item of a per-player kind belongs to, when some games of the pack have no such seat (it
    is past the fewest players); None for any other item."""
    kind = model.kinds[model.item_kind[item]]
    seat = model.item_data[item].get("owner") if kind.per_player else None
    return seat if isinstance(seat, int) and seat >= model.min_players else None


def not_in_game(item: str, seat: int, players: int, where: str) -> ProgramError:
    """The error for naming the item of a seat that this game does not have (`pawn_3` with two players)."""
    return ProgramError(f"{item} belongs to player {seat}, who is not in this {players}-player game, in {where}")


def not_a_player(value: int, players: int, where: str) -> ProgramError:
    """The error for a number read as a player (a value whose type only the run time knows) that is no
    seat of the game: a seat past the last, or a negative one, which Python would read from the end."""
    return ProgramError(f"{value} is not a player (the players are 0 to {players - 1}) in {where}")


class ExpressionCompiler:
    """The compiler's state, its error helpers, and the compiling of expressions."""

    def __init__(self, model: Model, definitions: list[Definition], stages: set[str]) -> None:
        self.model = model
        self.program = Program(model, stages=set(stages))
        self.rule_defs = {d.name: d for d in definitions if d.kind == "rule"}
        self.proc_defs = {d.name: d for d in definitions if d.kind == "proc"}
        self.hook_defs = [d for d in definitions if d.kind in ("on", "modify")]
        for definition in definitions:
            if definition.kind in ("rule", "proc") and definition.name in SPECIALS:
                # The bare name reads the built-in first, so only a call `players()` reached such a rule.
                raise LanguageError(f"'{definition.name}' is a built-in name and cannot name a "
                                    f"{'rule' if definition.kind == 'rule' else 'procedure'}",
                                    file=definition.origin.file, line=definition.line)
        self.event_arity: dict[str, tuple[int, str]] = {k: (v, "built-in") for k, v in BUILTIN_EVENTS.items()}
        self.origin = Origin("<pack>")
        self.calls: dict[str, set[str]] = {}
        self.current = ""
        self.last_type = ANY
        self.rule_types: dict[str, str] = {}  # a rule's result type, once its body is compiled
        # The expression being compiled as a list taken element by element (`compile_listed`), if any.
        self.listing_source: Tree | Token | None = None

    def rule_type(self, name: str) -> str:
        """The result type of rule `name`: declared, or inferred from its body ("any" until it is compiled)."""
        return self.rule_types.get(name, ANY)

    # ------------------------------------------------------------- errors

    def error(self, node: Tree | Token | None, message: str, hint: str | None = None,
              origin: Origin | None = None) -> LanguageError:
        origin = origin or self.origin
        line, column = position(node) if node is not None else (None, None)
        real_line, real_column = origin.at(line, column)
        return LanguageError(message, file=origin.file, line=real_line, column=real_column, hint=hint)

    def where(self, node: Tree | Token) -> str:
        line, _ = position(node)
        real_line, _ = self.origin.at(line)
        return f"{self.current} ({self.origin.file}:{real_line})"

    # ------------------------------------------------------------- calls, for the recursion check

    def _call(self, target: str) -> None:
        if not hasattr(self, "_pending_calls"):
            self._pending_calls = set()
        self._pending_calls.add(target)

    def _note_calls(self, owner: str) -> None:
        self.calls.setdefault(owner, set()).update(getattr(self, "_pending_calls", set()))
        self._pending_calls = set()

    def _note_event(self, event: str, arity: int, origin: Origin, node: Tree | Token) -> None:
        known = self.event_arity.get(event)
        if known is None:
            self.event_arity[event] = (arity, f"{origin.file}")
        elif known[0] != arity:
            raise self.error(node, f"event '{event}' takes {known[0]} argument(s) ({known[1]}), not {arity}",
                             origin=origin)

    # ------------------------------------------------------------- expressions

    def compile_listed(self, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        """An expression whose list is only taken element by element (a loop's or a comprehension's source, an
        index's base, a parameter's options): `items(...)` and a kind's name give their list there without the
        step per element that making a list costs elsewhere, since each element taken costs its own."""
        saved, self.listing_source = self.listing_source, node
        try:
            return self.compile_expr(node, scope)
        finally:
            self.listing_source = saved

    def compile_expr(self, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        from lark import Token

        if isinstance(node, Token):  # pragma: no cover - grammar wraps tokens
            raise self.error(node, f"unexpected {node!r}")
        method = getattr(self, f"e_{node.data}", None)
        if method is None:
            raise self.error(node, f"'{node.data}' cannot be used as a value here")
        return method(node, scope)

    def e_int_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        value = int(str(node.children[0]))
        if value > 2**53:
            raise self.error(node, "number too large")
        return (lambda ctx: value), "int"

    def e_str_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        value = unquote(str(node.children[0]))
        return (lambda ctx: value), "str"

    def e_true_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return (lambda ctx: True), "bool"

    def e_false_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return (lambda ctx: False), "bool"

    def e_none_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return (lambda ctx: None), "none"

    def e_name(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        name = str(node.children[0])
        return self.resolve_name(name, node, scope)

    def resolve_name(self, name: str, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        model = self.model
        local = scope.lookup(name)
        if local is not None:
            where = self.where(node)

            def read_local(ctx: Ctx) -> Any:
                try:
                    return ctx.env[name]
                except KeyError:
                    raise ProgramError(f"'{name}' has no value yet in {where}") from None

            return read_local, local
        special = SPECIALS.get(name)
        if special is not None:
            return special
        if name in model.game_vars:
            var_type = model.game_vars[name].type
            return (lambda ctx: ctx.data["v"][name]), type_of(var_type)
        if name in model.zones and model.zones[name].owner == "game":
            ref = ZoneRef(name)
            return (lambda ctx: ref), f"zone:{model.zones[name].of}"
        if name in self.rule_defs:
            definition = self.rule_defs[name]
            if definition.params:
                raise self.error(node, f"rule '{name}' takes {len(definition.params)} argument(s); call it as {name}(...)")
            self._call(f"rule:{name}")
            rules = self.program.rules
            return (lambda ctx: rules[name](ctx, [])), self.rule_type(name)
        if name in model.item_kind:
            kind = model.item_kind[name]
            seat = seat_of_item(model, name)
            if seat is not None:  # a seat some games of this pack do not have
                where = self.where(node)

                def seated(ctx: Ctx) -> Any:
                    if seat >= ctx.data["n"]:
                        raise not_in_game(name, seat, ctx.data["n"], where)
                    return name

                return seated, kind
            return (lambda ctx: name), kind
        if name in model.kinds:
            items, per_player = model.items_of(name), model.kinds[name].per_player

            def listed(ctx: Ctx) -> list[Any]:  # a per-player kind's items are those of the game's players
                return model.items_of(name, ctx.data["n"]) if per_player else list(items)

            if node is self.listing_source:
                return listed, f"list:{name}"
            where = self.where(node)

            def made(ctx: Ctx) -> list[Any]:
                kind_items: list[Any] = listed(ctx)
                ctx.tick_many(len(kind_items), where)  # a list made costs its length
                return kind_items

            return made, f"list:{name}"
        if name in model.player_vars or (name in model.zones and model.zones[name].owner == "player"):
            raise self.error(node, f"'{name}' belongs to each player; write me.{name} or p.{name}")
        if name in model.zones:
            owner = model.zones[name].owner
            raise self.error(node, f"'{name}' belongs to each {owner}; write x.{name} for a {owner} x")
        candidates = (scope.all_names() + list(SPECIALS) + list(model.game_vars) + list(model.zones)
                      + list(self.rule_defs) + list(model.item_kind) + list(model.kinds))
        raise self.error(node, f"unknown name '{name}'", did_you_mean(name, candidates))

    def e_field(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        base_node, field_token = node.children
        field = str(field_token)
        base, base_type = self.compile_expr(base_node, scope)
        reader, result_type = self.field_reader(base_type, field, field_token)
        where = self.where(node)

        def read(ctx: Ctx) -> Any:
            value = base(ctx)
            if value is None:
                raise ProgramError(f"cannot read '.{field}' of none in {where}")
            return reader(ctx, value)

        return read, result_type

    def field_reader(self, base_type: str, field: str, node: Tree | Token) -> tuple[Callable[[Ctx, Any], Any], str]:
        model = self.model
        if field.startswith("_"):
            raise self.error(node, f"unknown field '{field}'")
        if base_type == "player":
            return self._player_field(field, node)
        if base_type in model.kinds:
            return self._item_field(base_type, field, node)
        if base_type.startswith("zone:"):
            raise self.error(node, f"a zone has no field '{field}'; use count(...), free(...) or items(...)")
        if base_type in ("int", "bool", "str", "none") or base_type.startswith("list:"):
            raise self.error(node, f"a value of type {base_type} has no field '{field}'")
        # Unknown static type: the field must exist somewhere, and is found at run time.
        known = self._all_fields()
        if field not in known:
            raise self.error(node, f"unknown field '{field}'", did_you_mean(field, known))
        readers: dict[str, Callable[[Ctx, Any], Any]] = {}
        player_reader = None
        if field in model.player_vars or field in model.zones or field in model.kinds or field in ("index", "name"):
            try:
                player_reader = self._player_field(field, node)[0]
            except LanguageError:
                player_reader = None
        for kind in model.kinds:
            owned_zone = field in model.zones and model.zones[field].owner == kind
            if (field in model.kinds[kind].fields or field in model.kinds[kind].vars or owned_zone
                    or field in ("id", "name", "owner")):
                readers[kind] = self._item_field(kind, field, node)[0]
        where = self.where(node)
        # A player's var, zone or item is the player's seat's, which must be one of the game's; a player's
        # index is only a number (`any_field` does the same).
        reads_seat = field in model.player_vars or (field in model.zones and model.zones[field].owner == "player") \
            or (field in model.kinds and model.kinds[field].per_player)

        def read(ctx: Ctx, value: Any) -> Any:
            if isinstance(value, bool):
                raise ProgramError(f"a truth value has no field '{field}' in {where}")
            if isinstance(value, int):
                if player_reader is None:
                    raise ProgramError(f"a player has no field '{field}' in {where}")
                if reads_seat and not 0 <= value < ctx.data["n"]:
                    raise not_a_player(value, ctx.data["n"], where)
                return player_reader(ctx, value)
            if isinstance(value, str):
                kind = model.item_kind.get(value)
                reader = readers.get(kind) if kind else None
                if reader is None:
                    raise ProgramError(f"'{value}' has no field '{field}' in {where}")
                return reader(ctx, value)
            raise ProgramError(f"{label_of(model, value)} has no field '{field}' in {where}")

        return read, ANY

    def _all_fields(self) -> list[str]:
        model = self.model
        names = set(model.player_vars) | set(model.zones) | {"index", "name", "id", "owner"}
        names |= set(model.per_player_kinds())
        for kind in model.kinds.values():
            names |= set(kind.fields) | set(kind.vars)
        return sorted(names)

    def _player_field(self, field: str, node: Tree | Token) -> tuple[Callable[[Ctx, Any], Any], str]:
        model = self.model
        if field in model.player_vars:
            return (lambda ctx, p: ctx.data["pv"][p][field]), type_of(model.player_vars[field].type)
        if field in model.zones and model.zones[field].owner == "player":
            return (lambda ctx, p: ZoneRef(field, p)), f"zone:{model.zones[field].of}"
        if field in model.kinds and model.kinds[field].per_player:
            return (lambda ctx, p: f"{field}_{p}"), field
        if field == "index":
            return (lambda ctx, p: p), "int"
        if field == "name":
            return (lambda ctx, p: f"Player {p + 1}"), "str"
        candidates = list(model.player_vars) + [z for z, d in model.zones.items() if d.owner == "player"]
        candidates += model.per_player_kinds() + ["index", "name"]
        raise self.error(node, f"players have no field '{field}'", did_you_mean(field, candidates))

    def _item_field(self, kind: str, field: str, node: Tree | Token) -> tuple[Callable[[Ctx, Any], Any], str]:
        model = self.model
        definition = model.kinds[kind]
        item_data = model.item_data
        if field in definition.vars:
            return (lambda ctx, i: ctx.data["ev"][i][field]), type_of(definition.vars[field].type)
        if field in definition.fields or field in ("id", "name"):
            ftype = definition.fields.get(field, "str")
            return (lambda ctx, i: item_data[i][field]), type_of(ftype)
        if field == "owner":
            return (lambda ctx, i: item_data[i]["owner"]), "player"
        zone = model.zones.get(field)
        if zone is not None and zone.owner == kind:
            return (lambda ctx, i: ZoneRef(field, i)), f"zone:{zone.of}"
        candidates = list(definition.fields) + list(definition.vars) + ["id", "name", "owner"]
        candidates += [z for z, d in model.zones.items() if d.owner == kind]
        raise self.error(node, f"kind '{kind}' has no field '{field}'", did_you_mean(field, candidates))

    def e_index(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        base, base_type = self.compile_listed(node.children[0], scope)
        index, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        model = self.model
        element = base_type[5:] if base_type.startswith("list:") else (
            base_type[5:] if base_type.startswith("zone:") and base_type[5:] else ANY)

        def read(ctx: Ctx) -> Any:
            value = base(ctx)
            i = index(ctx)
            if isinstance(value, ZoneRef):
                if model.zones[value.name].type == "pool":
                    raise ProgramError(f"a pool cannot be indexed in {where}")
                value = ctx.data["z"][value.key]
            if not isinstance(value, list):
                raise ProgramError(f"only lists and zones can be indexed in {where}")
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(value):
                raise ProgramError(f"index {i!r} out of range 0..{len(value) - 1} in {where}")
            return value[i]

        return read, element or ANY

    def expect_arguments(self, definition: Any, types: list[str], nodes: list[Any]) -> None:
        """Arguments whose static types a rule's or procedure's declared parameter types cannot take (an `int`
        for `to: space`) are refused at load; the entry checked only `player` and kind parameters, in play."""
        for (param, declared), given, node in zip(definition.params, types, nodes, strict=True):
            wanted = type_of(declared) if declared else ANY
            if not may_take(self.model.kinds, wanted, given):
                raise self.error(node, f"{'procedure' if definition.kind == 'proc' else 'rule'} "
                                 f"'{definition.name}' takes {param}: {written_type(wanted)}, not a value of type "
                                 f"{written_type(given)}")

    def expect_nodes(self, name: str, types: list[str], nodes: list[Any]) -> None:
        """A board builtin's node argument whose static type no node has (a number, a seat, a list, an item of
        another kind than the board's nodes) is refused at load: in play such a call finds no node and answers
        an empty list or false, and the action or move it feeds is silently never offered."""
        board = self.model.board
        for index in builtins.NODE_ARGUMENTS.get(name, ()):
            if index >= len(types):
                continue
            given = types[index]
            if given in (ANY, "none", "str") or (board is not None and given == board.nodes):
                continue
            wanted = f"a node of the board (an item of '{board.nodes}')" if board is not None else "a node of a board"
            hint = "the pack has no board" if board is None else None
            raise self.error(nodes[index], f"{name}() takes {wanted}, not a value of type {written_type(given)}",
                             hint)

    def e_call(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        name_token, args_node = node.children
        name = str(name_token)
        arg_nodes = args_node.children if args_node is not None else []
        compiled = [self.compile_expr(a, scope) for a in arg_nodes]
        fns = [f for f, _ in compiled]
        types = [t for _, t in compiled]
        if name in self.rule_defs:
            definition = self.rule_defs[name]
            if len(fns) != len(definition.params):
                raise self.error(node, f"rule '{name}' takes {len(definition.params)} argument(s), not {len(fns)}")
            self.expect_arguments(definition, types, arg_nodes)
            self._call(f"rule:{name}")
            rules = self.program.rules
            return (lambda ctx: rules[name](ctx, [f(ctx) for f in fns])), self.rule_type(name)
        if name in self.proc_defs:
            raise self.error(node, f"procedure '{name}' has effects and gives no value; call it as a statement")
        spec = builtins.BUILTINS.get(name)
        if spec is None:
            candidates = list(builtins.BUILTINS) + list(self.rule_defs)
            raise self.error(node, f"unknown function '{name}'", did_you_mean(name, candidates))
        if not spec.min_args <= len(fns) <= spec.max_args:
            expected = str(spec.min_args) if spec.min_args == spec.max_args else f"{spec.min_args}-{spec.max_args}"
            raise self.error(node, f"{name}() takes {expected} argument(s), not {len(fns)}")
        self.expect_nodes(name, types, arg_nodes)
        impl = builtins.listed_items if name == "items" and node is self.listing_source else spec.fn
        where = self.where(node)
        result_type = spec.result(types)

        model = self.model

        def call(ctx: Ctx) -> Any:
            args = [f(ctx) for f in fns]
            builtins.charge(ctx, where, args)
            try:
                return impl(ctx, where, *args)
            except (TypeError, ValueError):
                # A value of the wrong kind (a text where a number belongs, a list for a node).
                shown = ", ".join(label_of(model, a) for a in args)
                raise ProgramError(f"{name}() cannot take ({shown}) in {where}") from None

        return call, result_type

    def e_list_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        args = node.children[0]
        if args is None:
            return (lambda ctx: []), "list:any"
        compiled = [self.compile_expr(a, scope) for a in args.children]
        fns = [f for f, _ in compiled]
        types = {t for _, t in compiled}
        element = types.pop() if len(types) == 1 else ANY
        return (lambda ctx: [f(ctx) for f in fns]), f"list:{element}"

    def e_comprehension(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        body_node, var_token, source_node, cond_node = node.children
        source, source_type = self.compile_listed(source_node, scope)
        inner = scope.child()
        var = str(var_token)
        inner.names[var] = element_type(source_type)
        body, body_type = self.compile_expr(body_node, inner)
        cond = self.compile_expr(cond_node, inner)[0] if cond_node is not None else None
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> list[Any]:
            items = as_list(model, ctx.data, source(ctx), where)
            had, old = var in ctx.env, ctx.env.get(var)
            result = []
            try:
                for item in items:
                    ctx.tick(where)
                    ctx.env[var] = item
                    if cond is None or cond(ctx):
                        result.append(body(ctx))
            finally:
                if had:
                    ctx.env[var] = old
                else:
                    ctx.env.pop(var, None)
            return result

        return run, f"list:{body_type}"

    def e_neg(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        operand, operand_type = self.compile_expr(node.children[0], scope)
        self._expect_int(operand_type, node.children[0], "-")
        where = self.where(node)
        return (lambda ctx: -number_value(operand(ctx), where)), "int"

    def e_binop(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, left_type = self.compile_expr(node.children[0], scope)
        op = str(node.children[1])
        right, right_type = self.compile_expr(node.children[2], scope)
        where = self.where(node)
        if op == "+" and (left_type.startswith("list") or right_type.startswith("list")):
            model = self.model
            return (lambda ctx: joined(ctx, as_list(model, ctx.data, left(ctx), where),
                                        as_list(model, ctx.data, right(ctx), where), where)), joined_type(left_type, right_type)
        self._expect_int(left_type, node.children[0], op)
        self._expect_int(right_type, node.children[2], op)
        if op == "+":
            return (lambda ctx: plus(ctx, left(ctx), right(ctx), where)), \
                "int" if left_type == "int" and right_type == "int" else ANY
        # Both operands are worked out before either is checked, as for `+` and in the generated code: an
        # error in the right operand comes before "expected a number" about the left.
        if op == "-":
            def minus(ctx: Ctx) -> int:
                a, b = left(ctx), right(ctx)
                return checked_int(number_value(a, where) - number_value(b, where), where)

            return minus, "int"
        if op == "*":
            def times(ctx: Ctx) -> int:
                a, b = left(ctx), right(ctx)
                return checked_int(number_value(a, where) * number_value(b, where), where)

            return times, "int"

        def divide(ctx: Ctx) -> int:
            a, b = left(ctx), right(ctx)
            a, b = number_value(a, where), number_value(b, where)
            if b == 0:
                raise ProgramError(f"division by zero in {where}")
            return a // b if op == "//" else a % b

        return divide, "int"

    def _expect_int(self, type_name: str, node: Tree, op: str) -> None:
        if type_name in ("bool", "str", "none", "player") or type_name in self.model.kinds or type_name.startswith("zone:"):
            raise self.error(node, f"'{op}' needs numbers, not a value of type {type_name}")

    def e_compare(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        op = str(node.children[1])
        right, _ = self.compile_expr(node.children[2], scope)
        where = self.where(node)
        if op in ("==", "!="):
            negated = op == "!="

            return (lambda ctx: equal_values(ctx, left(ctx), right(ctx), where) != negated), "bool"
        compare = _ORDERINGS[op]

        def ordered(ctx: Ctx) -> bool:
            a, b = left(ctx), right(ctx)
            if not (isinstance(a, int) and isinstance(b, int)):
                raise ProgramError(f"'{op}' compares numbers only, got {a!r} and {b!r} in {where}")
            return compare(a, b)

        return ordered, "bool"

    def e_in_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        right, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        return (lambda ctx: builtins.contains(ctx, where, right(ctx), left(ctx))), "bool"

    def e_not_in_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        test, _ = self.e_in_op(node, scope)
        return (lambda ctx: not test(ctx)), "bool"

    def e_and_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        right, _ = self.compile_expr(node.children[1], scope)
        return (lambda ctx: bool(left(ctx)) and bool(right(ctx))), "bool"

    def e_or_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        right, _ = self.compile_expr(node.children[1], scope)
        return (lambda ctx: bool(left(ctx)) or bool(right(ctx))), "bool"

    def e_not_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        operand, _ = self.compile_expr(node.children[0], scope)
        return (lambda ctx: not operand(ctx)), "bool"

    def e_cond_expr(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        cond, _ = self.compile_expr(node.children[0], scope)
        then, then_type = self.compile_expr(node.children[1], scope)
        other, other_type = self.compile_expr(node.children[2], scope)
        result_type = then_type if then_type == other_type or other_type == "none" else ANY
        return (lambda ctx: then(ctx) if cond(ctx) else other(ctx)), result_type


_ORDERINGS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}

SPECIALS: dict[str, tuple[Fn, str]] = {
    "me": (lambda ctx: ctx.me, "player"),
    "active": (lambda ctx: ctx.data["flow"]["active"], "player"),
    "players": (lambda ctx: list(range(ctx.data["n"])), "list:player"),
    "player_count": (lambda ctx: ctx.data["n"], "int"),
    "turn_number": (lambda ctx: ctx.data["flow"]["turn"], "int"),
    "round_number": (lambda ctx: ctx.data["flow"]["round"], "int"),
    "stage": (lambda ctx: ctx.data["flow"]["stage"], "str"),
    "phase": (lambda ctx: ctx.data["flow"]["phase"], "str"),
}


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unquote(text: str) -> str:
    """The value of a string literal; escapes are decoded in one pass (\\n, \\t, \\", \\\\)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text[1:-1])


def number_value(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProgramError(f"expected a number, got {value!r} in {where}")
    return value


def equal_values(ctx: Ctx, a: Any, b: Any, where: str) -> bool:
    """`a == b`: two lists compared element by element, a step each (`same_lists`)."""
    if type(a) is list and type(b) is list:
        return same_lists(ctx, a, b, where)
    return bool(a == b)


def plus(ctx: Ctx, a: Any, b: Any, where: str) -> Any:
    """`a + b` of values the code does not know to be numbers: two lists joined, or two numbers added."""
    if isinstance(a, list) and isinstance(b, list):
        return joined(ctx, a, b, where)
    return checked_int(number_value(a, where) + number_value(b, where), where)


def same_lists(ctx: Ctx, a: list[Any], b: list[Any], where: str) -> bool:
    """`a == b` of two lists: lists of one length are compared element by element (and the lists nested in
    them in turn), a step each."""
    if len(a) == len(b):
        builtins.charge_nested(ctx, a, where)
    return a == b


def joined(ctx: Ctx, a: list[Any], b: list[Any], where: str) -> list[Any]:
    # Doubling a list in a loop would exhaust memory long before the step budget stops it.
    if len(a) + len(b) > MAX_LIST:
        raise ProgramError(f"list too long (more than {MAX_LIST} elements) in {where}")
    ctx.tick_many(len(a) + len(b), where)  # a list made costs its length
    return a + b


