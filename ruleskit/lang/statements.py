"""Compiling rule-language statements: effects on the game data.

Each statement compiles to `fn(ctx) -> None` that counts a step of the
budget before it runs. Writes go through the pack's bounds (a cap that
discards the excess, a floor that forbids) and zone moves through
`runtime/zones.py`, which enforces capacities.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import LanguageError, ProgramError, RuleViolation, did_you_mean
from ..model import RESERVED, ZoneRef, edge_key
from ..runtime import zones as zone_ops
from ..runtime.context import Ctx, GameOver, Return
from . import builtins, coverage
from .expressions import SPECIALS, ExpressionCompiler, not_a_player, number_value, unquote
from .parser import position
from .scope import ANY, Fn, Scope, element_type, may_hold, written_type
from .support import fits_type
from .support import index as element_at
from .values import as_list, checked_int, label_of

if TYPE_CHECKING:  # lark is imported when something is parsed (lang/parser.py)
    from lark import Token, Tree

_CHANCE = {"roll", "random_pick", "shuffled", "sample"}
_CHOICES = {"choose_one", "choose_number", "choose_subset", "choose_order", "choose_count"}


class StatementCompiler(ExpressionCompiler):
    """Compiles blocks and statements."""

    # ------------------------------------------------------------- statements

    def compile_block(self, node: Tree, scope: Scope) -> Fn:
        stmts_node = node.children[0]
        inner = scope.child()
        compiled = [self.compile_stmt(stmt, inner) for stmt in stmts_node.children]

        def run(ctx: Ctx) -> None:
            for stmt in compiled:
                stmt(ctx)

        return run

    def compile_stmt(self, node: Tree, scope: Scope) -> Fn:
        method = getattr(self, f"s_{node.data}", None)
        if method is None:
            raise self.error(node, f"'{node.data}' is not a statement")
        body = method(node, scope)
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            ctx.tick(where)
            body(ctx)

        return run

    def s_let_stmt(self, node: Tree, scope: Scope) -> Fn:
        name_token, value_node = node.children
        name = str(name_token)
        self._check_local_name(name, name_token)
        if value_node.data in _CHANCE or value_node.data in _CHOICES:
            value, value_type = getattr(self, f"c_{value_node.data}")(value_node, scope)
        else:
            value, value_type = self.compile_expr(value_node, scope)
        scope.names[name] = value_type

        def run(ctx: Ctx) -> None:
            ctx.env[name] = value(ctx)

        return run

    def _check_local_name(self, name: str, node: Tree | Token) -> None:
        model = self.model
        if name in SPECIALS or name == "base":
            raise self.error(node, f"'{name}' is a built-in name and cannot be redefined")
        if name in RESERVED:
            raise self.error(node, f"'{name}' is a reserved word and cannot name a variable")
        if name in model.game_vars or name in model.item_kind or name in model.kinds or name in model.zones:
            raise self.error(node, f"'{name}' already names something in the pack; choose another local name")

    def s_set_stmt(self, node: Tree, scope: Scope) -> Fn:
        target_node, value_node = node.children
        write, _ = self.compile_target(target_node, scope)
        declared = self.target_types
        value, value_type = self.compile_expr(value_node, scope)
        self.expect_written(declared, value_type, value_node, self.target_label)
        return lambda ctx: write(ctx, value(ctx))

    # The types the variable written by the last target compiled may hold (None: a local, a list's element, or
    # no variable known): one for a game var, or for a field of a player or an item of one kind; several for
    # a field of a value whose type only the run time knows.
    target_types: list[str] | None = None
    target_label = ""

    def expect_written(self, declared: list[str] | None, value_type: str, node: Tree, label: str) -> None:
        """A `set` whose value has a static type that no variable it may write could hold (an item of one kind
        for a var of another, a number for a var of a kind) is refused at load: the write refused it only when
        it first ran, and a variant that gives an action's parameter another type had the base's effect fail
        in play."""
        if not declared or any(may_hold(self.model.kinds, var_type, value_type) for var_type in declared):
            return
        shown = " or ".join(sorted({written_type(var_type) for var_type in declared}))
        raise self.error(node, f"{label} holds a value of type {shown}, not one of type {written_type(value_type)}")

    def s_add_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._update(node, scope, 1)

    def s_sub_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._update(node, scope, -1)

    def _update(self, node: Tree, scope: Scope, sign: int) -> Fn:
        target_node, value_node = node.children
        write, read = self.compile_target(target_node, scope)
        value, value_type = self.compile_expr(value_node, scope)
        self._expect_int(value_type, value_node, "+=" if sign > 0 else "-=")
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            current = read(ctx)
            write(ctx, checked_int(number_value(current, where) + sign * number_value(value(ctx), where), where))

        return run

    def compile_target(self, node: Tree, scope: Scope) -> tuple[Callable[[Ctx, Any], None], Fn]:
        """A writer and a reader for the place named by a `set`/`+=` target."""
        return self._target(list(node.children), scope, self.where(node))

    def _target(self, parts: list[Any], scope: Scope, where: str) -> tuple[Callable[[Ctx, Any], None], Fn]:
        from lark import Token

        first = str(parts[0])
        model = self.model
        self.target_types = None
        if len(parts) == 1:
            if scope.lookup(first) is not None:
                def write_local(ctx: Ctx, value: Any) -> None:
                    ctx.env[first] = value
                return write_local, lambda ctx: ctx.env[first]
            if first in model.game_vars:
                var = model.game_vars[first]
                self.target_types, self.target_label = [var.type], f"'{first}'"
                bound = bounds_of(var, f"'{first}'", model.item_kind)
                return ((lambda ctx, value: ctx.data["v"].__setitem__(first, bound(value, where, ctx))),
                        (lambda ctx: ctx.data["v"][first]))
            raise self.error(parts[0], f"cannot set '{first}': not a local or a game variable",
                             did_you_mean(first, scope.all_names() + list(model.game_vars)))
        base_fn, base_type = self._path(parts[:-1], scope)
        last = parts[-1]
        if isinstance(last, Token):
            found = self._field_writer(base_fn, base_type, str(last), last, where)
            self.target_types, self.target_label = self._field_types(base_type, str(last)), f"'{last}'"
            return found
        self.target_types = None
        index_fn, _ = self.compile_expr(last, scope)
        # The container may itself be a variable holding a list: an element is written by writing a new
        # list back to it, since lists are values and other copies must not change.
        try:
            write_container: Callable[[Ctx, Any], None] | None = self._target(parts[:-1], scope, where)[0]
        except LanguageError:
            write_container = None  # a zone, or something else that is not a variable
        self.target_types = None  # an element: of any type, whatever the list's (`_target` above set it)

        def write_element(ctx: Ctx, value: Any) -> None:
            container = base_fn(ctx)
            i = index_fn(ctx)
            if isinstance(container, ZoneRef):
                zone = model.zones[container.name]
                if zone.type != "row":
                    raise ProgramError(f"only the slots of a row can be set in {where}")
                slots = ctx.own("z", container.key)
                if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(slots):
                    raise ProgramError(f"slot {i!r} out of range in {where}")
                if value is not None and zone.of and model.item_kind.get(value) != zone.of:
                    raise ProgramError(f"{label_of(model, value)} cannot go into {container.name} in {where}")
                slots[i] = value
                return
            if not isinstance(container, list) or write_container is None:
                raise ProgramError(f"only row slots and list variables can be set by index in {where}")
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(container):
                raise ProgramError(f"index {i!r} out of range in {where}")
            replaced = list(container)
            replaced[i] = value
            write_container(ctx, replaced)

        def read_element(ctx: Ctx) -> Any:  # for `+=` and `-=`: the element as `l[i]` reads it
            return element_at(ctx, base_fn(ctx), index_fn(ctx), where)

        return write_element, read_element

    def _path(self, parts: list[Any], scope: Scope) -> tuple[Fn, str]:
        """The value named by a target's leading parts, for reading."""
        base_fn, base_type = self.resolve_name(str(parts[0]), parts[0], scope)
        for part in parts[1:]:
            base_fn, base_type = self._step(base_fn, base_type, part, scope)
        return base_fn, base_type

    def _step(self, base_fn: Fn, base_type: str, part: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        from lark import Token

        if isinstance(part, Token):
            field = str(part)
            reader, result_type = self.field_reader(base_type, field, part)
            at = self.where(part)

            def read_field(ctx: Ctx) -> Any:  # as `e_field` reads it, none refused
                value = base_fn(ctx)
                if value is None:
                    raise ProgramError(f"cannot read '.{field}' of none in {at}")
                return reader(ctx, value)

            return read_field, result_type
        index_fn, _ = self.compile_expr(part, scope)
        where = self.where(part)

        def read(ctx: Ctx) -> Any:
            return element_at(ctx, base_fn(ctx), index_fn(ctx), where)

        return read, ANY

    def _field_types(self, base_type: str, field: str) -> list[str]:
        """The declared types of the variables `field` of a value of `base_type` may name."""
        model = self.model
        player_var = model.player_vars.get(field)
        if base_type == "player":
            return [player_var.type] if player_var is not None else []
        if base_type in model.kinds:
            var = model.kinds[base_type].vars.get(field)
            return [var.type] if var is not None else []
        return ([player_var.type] if player_var is not None else []) + \
            [kind.vars[field].type for kind in model.kinds.values() if field in kind.vars]

    def _field_writer(self, base_fn: Fn, base_type: str, field: str, node: Token,
                      where: str) -> tuple[Callable[[Ctx, Any], None], Fn]:
        model = self.model
        player_var = model.player_vars.get(field)
        kinds_with_var = {k: d.vars[field] for k, d in model.kinds.items() if field in d.vars}
        if base_type == "player" and player_var is None:
            raise self.error(node, f"players have no variable '{field}'", did_you_mean(field, model.player_vars))
        if base_type in model.kinds and base_type not in kinds_with_var:
            static = field in model.kinds[base_type].fields
            reason = "is a fixed field" if static else "is not a variable"
            raise self.error(node, f"'{field}' of kind '{base_type}' {reason} and cannot be set",
                             did_you_mean(field, model.kinds[base_type].vars))
        if player_var is None and not kinds_with_var:
            raise self.error(node, f"no player or item has a variable '{field}'")
        player_bound = bounds_of(player_var, f"'{field}'", model.item_kind) if player_var else None
        item_bounds = {k: bounds_of(v, f"'{field}'", model.item_kind) for k, v in kinds_with_var.items()}

        def write(ctx: Ctx, value: Any) -> None:
            owner = base_fn(ctx)
            if isinstance(owner, int) and not isinstance(owner, bool) and player_bound is not None:
                if not 0 <= owner < ctx.data["n"]:
                    raise not_a_player(owner, ctx.data["n"], where)
                ctx.own("pv", owner)[field] = player_bound(value, where, ctx)
                return
            if isinstance(owner, str) and model.item_kind.get(owner) in item_bounds:
                bound = item_bounds[model.item_kind[owner]]
                ctx.own("ev", owner)[field] = bound(value, where, ctx)
                return
            raise ProgramError(f"{label_of(model, owner)} has no variable '{field}' in {where}")

        def read(ctx: Ctx) -> Any:
            owner = base_fn(ctx)
            if isinstance(owner, int) and not isinstance(owner, bool) and player_bound is not None:
                if not 0 <= owner < ctx.data["n"]:
                    raise not_a_player(owner, ctx.data["n"], where)
                return ctx.data["pv"][owner][field]
            if isinstance(owner, str) and model.item_kind.get(owner) in item_bounds:
                return ctx.data["ev"][owner][field]
            raise ProgramError(f"{label_of(model, owner)} has no variable '{field}' in {where}")

        return write, read

    def s_if_stmt(self, node: Tree, scope: Scope) -> Fn:
        children = node.children
        branches: list[tuple[Fn, Fn]] = []
        cond, _ = self.compile_expr(children[0], scope)
        branches.append((cond, self.compile_block(children[1], scope)))
        otherwise: Fn | None = None
        for part in children[2:]:
            if part is None:
                continue
            if part.data == "elif_part":
                c, _ = self.compile_expr(part.children[0], scope)
                branches.append((c, self.compile_block(part.children[1], scope)))
            else:
                otherwise = self.compile_block(part.children[0], scope)
        probe = coverage.active()
        if probe is not None:  # `ruleskit test --coverage`: count each arm, and the pass with no arm taken
            branches, otherwise = self._counted_arms(probe, node, branches, otherwise)

        def run(ctx: Ctx) -> None:
            for c, body in branches:
                if c(ctx):
                    body(ctx)
                    return
            if otherwise is not None:
                otherwise(ctx)

        return run

    def _counted_arms(self, probe: coverage.Probe, node: Tree, branches: list[tuple[Fn, Fn]],
                      otherwise: Fn | None) -> tuple[list[tuple[Fn, Fn]], Fn]:
        arms = [node] + [part for part in node.children[2:] if part is not None]
        names = ["if"] + ["elif" if part.data == "elif_part" else "else" for part in arms[1:]]
        counted = []
        for index, (cond, body) in enumerate(branches):
            line = self.origin.at(position(arms[index])[0])[0]
            counted.append((cond, probe.wrap(body, "branch", f"{self.current}: {names[index]} arm",
                                             self.origin.file, line)))
        last = arms[-1] if otherwise is not None else node
        line = self.origin.at(position(last)[0])[0]
        name = f"{self.current}: else arm" if otherwise is not None else f"{self.current}: if with no arm taken"
        return counted, probe.wrap(otherwise or (lambda ctx: None), "branch", name, self.origin.file, line)

    def s_for_stmt(self, node: Tree, scope: Scope) -> Fn:
        var_token, source_node, body_node = node.children
        var = str(var_token)
        self._check_local_name(var, var_token)
        source, source_type = self.compile_listed(source_node, scope)
        inner = scope.child()
        inner.names[var] = element_type(source_type)
        body = self.compile_block(body_node, inner)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            items = list(as_list(model, ctx.data, source(ctx), where))
            for item in items:
                ctx.tick(where)
                ctx.env[var] = item
                body(ctx)

        return run

    def _zone(self, node: Tree, scope: Scope) -> Fn:
        fn, type_name = self.compile_expr(node, scope)
        if type_name != ANY and not type_name.startswith("zone:"):
            raise self.error(node, f"expected a zone here, not a value of type {type_name}")
        where = self.where(node)

        def zone(ctx: Ctx) -> ZoneRef:
            value = fn(ctx)
            if not isinstance(value, ZoneRef):
                raise ProgramError(f"expected a zone, got {label_of(self.model, value)!r} in {where}")
            return value

        return zone

    def s_move_stmt(self, node: Tree, scope: Scope) -> Fn:
        first, count_of, source_node, dest_node, position_node = node.children
        if count_of is not None:
            count_fn, _ = self.compile_expr(first, scope)
            what_fn, _ = self.compile_expr(count_of.children[0], scope)
        else:
            count_fn = None
            what_fn, _ = self.compile_expr(first, scope)
        source = self._zone(source_node, scope)
        dest = self._zone(dest_node, scope)
        top = position_node is not None and str(position_node.children[0]) == "top"
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            what = what_fn(ctx)
            src, dst = source(ctx), dest(ctx)
            count = number_value(count_fn(ctx), where) if count_fn is not None else None
            zone_ops.move(ctx, src, dst, what, count, top, where)

        return run

    def s_draw_stmt(self, node: Tree, scope: Scope) -> Fn:
        count_node, source_node, dest_node, position_node = node.children
        count_fn, _ = self.compile_expr(count_node, scope)
        source = self._zone(source_node, scope)
        dest = self._zone(dest_node, scope)
        top = position_node is not None and str(position_node.children[0]) == "top"
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            src, dst = source(ctx), dest(ctx)
            if model.zones[src.name].type != "stack":
                raise ProgramError(f"draw takes from a stack, and '{src.name}' is a {model.zones[src.name].type}"
                                   f" in {where}")
            for _ in range(zone_ops.draws(ctx, src, dst, number_value(count_fn(ctx), where), where)):
                if not ctx.data["z"][src.key]:
                    return
                item = ctx.own("z", src.key).pop(0)
                zone_ops.add(ctx, dst, item, 1, top, where)

        return run

    def s_shuffle_stmt(self, node: Tree, scope: Scope) -> Fn:
        zone = self._zone(node.children[0], scope)
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            zone_ops.shuffle(ctx, zone(ctx), where)

        return run

    def s_slide_stmt(self, node: Tree, scope: Scope) -> Fn:
        row = self._zone(node.children[0], scope)
        discard = self._zone(node.children[1], scope)
        source = self._zone(node.children[2], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            ref = row(ctx)
            if model.zones[ref.name].type != "row":
                raise ProgramError(f"slide moves along a row, and '{ref.name}' is not one in {where}")
            slots = ctx.own("z", ref.key)
            leaving = slots[-1]
            slots[1:] = slots[:-1]
            slots[0] = None
            if leaving is not None:
                zone_ops.add(ctx, discard(ctx), leaving, 1, True, where)
            deck_key = source(ctx).key
            if ctx.data["z"][deck_key]:
                slots[0] = ctx.own("z", deck_key).pop(0)

        return run

    def s_block_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._edge_change(node, scope, True)

    def s_unblock_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._edge_change(node, scope, False)

    def _edge_change(self, node: Tree, scope: Scope, blocked: bool) -> Fn:
        if self.model.board is None:
            raise self.error(node, "this pack has no board")
        a_fn, _ = self.compile_expr(node.children[0], scope)
        b_fn, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        adjacency = self.model.adjacency

        def run(ctx: Ctx) -> None:
            a, b = a_fn(ctx), b_fn(ctx)
            if a not in adjacency or b not in adjacency.get(a, ()):
                raise ProgramError(f"there is no edge between {a!r} and {b!r} in {where}")
            key = edge_key(a, b)
            current = ctx.data["blocked"]
            if blocked and key not in current:
                current = ctx.own_top("blocked")
                current.append(key)
                current.sort()
            elif not blocked and key in current:
                ctx.own_top("blocked").remove(key)

        return run

    def s_require_stmt(self, node: Tree, scope: Scope) -> Fn:
        cond, _ = self.compile_expr(node.children[0], scope)
        message = unquote(str(node.children[1]))

        def run(ctx: Ctx) -> None:
            if not cond(ctx):
                raise RuleViolation(message)

        return run

    def s_emit_stmt(self, node: Tree, scope: Scope) -> Fn:
        name_token, args_node = node.children
        event = str(name_token)
        fns = [self.compile_expr(a, scope)[0] for a in (args_node.children if args_node is not None else [])]
        self._note_event(event, len(fns), self.origin, node)
        self._call(f"event:{event}")
        program = self.program

        def run(ctx: Ctx) -> None:
            program.emit(ctx, event, [f(ctx) for f in fns])

        return run

    def s_finish_stmt(self, node: Tree, scope: Scope) -> Fn:
        reason = unquote(str(node.children[0]))

        def run(ctx: Ctx) -> None:
            raise GameOver(reason)

        probe = coverage.active()
        if probe is not None:  # an end condition written as a statement, counted by `ruleskit test --coverage`
            return probe.wrap(run, "end", f'finish "{reason}"', self.origin.file, self.origin.at(position(node)[0])[0])
        return run

    def s_goto_stmt(self, node: Tree, scope: Scope) -> Fn:
        stage = str(node.children[0])
        if stage not in self.program.stages:
            raise self.error(node, f"unknown stage '{stage}'", did_you_mean(stage, self.program.stages))

        def run(ctx: Ctx) -> None:
            flow = ctx.data["flow"]
            flow["stage"] = stage
            flow["usage"]["visit"] = {}
            flow["entered"] = True

        return run

    def s_end_turn_stmt(self, node: Tree, scope: Scope) -> Fn:
        def run(ctx: Ctx) -> None:
            ctx.data["flow"]["end_turn"] = True

        return run

    def s_return_stmt(self, node: Tree, scope: Scope) -> Fn:
        def run(ctx: Ctx) -> None:
            raise Return()

        return run

    def s_call_stmt(self, node: Tree, scope: Scope) -> Fn:
        name_token, args_node = node.children
        name = str(name_token)
        arg_nodes = args_node.children if args_node is not None else []
        compiled = [self.compile_expr(a, scope) for a in arg_nodes]
        fns = [f for f, _ in compiled]
        if name not in self.proc_defs:
            if name in self.rule_defs or name in builtins.BUILTINS:
                raise self.error(node, f"'{name}' gives a value and has no effect; use it in an expression")
            raise self.error(node, f"unknown procedure '{name}'", did_you_mean(name, self.proc_defs))
        definition = self.proc_defs[name]
        if len(fns) != len(definition.params):
            raise self.error(node, f"procedure '{name}' takes {len(definition.params)} argument(s), not {len(fns)}")
        self.expect_arguments(definition, [t for _, t in compiled], arg_nodes)
        self._call(f"proc:{name}")
        procs = self.program.procs

        def run(ctx: Ctx) -> None:
            procs[name](ctx, [f(ctx) for f in fns])

        return run

    def s_log_stmt(self, node: Tree, scope: Scope) -> Fn:
        value, _ = self.compile_expr(node.children[0], scope)
        model = self.model
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            shown = value(ctx)
            ctx.say(label_of(model, shown), where)  # an item by its name, as `support.shown` shows it

        return run


def bounds_of(var: Any, what: str, item_kind: dict[str, str] | None = None) -> Callable[[Any, str, Ctx], Any]:
    """Check a value written to a var against its type, and apply its bounds: the cap may discard, the floor
    may forbid. A value of the wrong type is an error where it is written, not a surprise later. Called as
    `bound(value, where, ctx)`: a list written costs a step for each element its check walks."""
    if var is None:
        return lambda value, where, ctx: value
    if var.type != "int":
        return _type_check(var.type, what, item_kind or {})
    low, high = var.min, var.max

    def bound(value: Any, where: str, ctx: Ctx) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProgramError(f"{what} takes numbers, not {value!r} in {where}")
        if high is not None and value > high:
            if var.above_max == "error":
                raise RuleViolation(f"{what} cannot exceed {high}")
            value = high
        if low is not None and value < low:
            if var.below_min == "error":
                raise RuleViolation(f"{what} cannot go below {low}")
            value = low
        return value

    return bound


MAX_VALUE_DEPTH = 16
MAX_VALUE_SIZE = 100_000


def _small_enough(value: list[Any], ctx: Ctx, where: str) -> bool:
    """A list kept in a var: at most 16 lists deep and 100,000 elements in all, so copies stay cheap and safe.
    Each list's elements walked cost a step each, before they are walked: writing a long list in a loop
    would otherwise be one step for a walk of thousands."""
    size, pending = 0, [(value, 1)]
    while pending:
        items, depth = pending.pop()
        if depth > MAX_VALUE_DEPTH:
            return False
        size += len(items)
        if size > MAX_VALUE_SIZE:
            return False
        ctx.tick_many(len(items), where)
        pending.extend((item, depth + 1) for item in items if isinstance(item, list))
    return True


def _type_check(type_name: str, what: str, item_kind: dict[str, str]) -> Callable[[Any, str, Ctx], Any]:
    is_kind = type_name in set(item_kind.values())

    def refuse(value: Any, where: str) -> Any:
        if isinstance(value, list):
            raise ProgramError(f"{what} cannot hold a list more than {MAX_VALUE_DEPTH} deep or of more than "
                               f"{MAX_VALUE_SIZE} elements in all, in {where}")
        raise ProgramError(f"{what} holds a value of type {type_name}, not {value!r} in {where}")

    # One check per type, its test written in it: a var is written far more often than it is declared.
    if type_name == "bool":
        def check(value: Any, where: str, ctx: Ctx) -> Any:
            return value if isinstance(value, bool) else refuse(value, where)
    elif type_name == "player":
        def check(value: Any, where: str, ctx: Ctx) -> Any:
            if value is None or (type(value) is int and 0 <= value < ctx.data["n"]):
                return value
            if type(value) is int:  # read from it later, a number past the seats would be another's (or none)
                raise not_a_player(value, ctx.data["n"], where)
            return refuse(value, where)
    elif type_name == "str":
        def check(value: Any, where: str, ctx: Ctx) -> Any:
            return value if value is None or isinstance(value, str) else refuse(value, where)
    elif type_name.startswith("list[") and (type_name[5:-1] == "player" or type_name[5:-1] in item_kind.values()):
        inner = type_name[5:-1]

        def check(value: Any, where: str, ctx: Ctx) -> Any:
            # Its elements are read as `player`s or items without a test: each must be one (or none).
            if not (isinstance(value, list) and _small_enough(value, ctx, where)):
                return refuse(value, where)
            for element in value:
                if not fits_type(ctx, element, inner, where):
                    raise ProgramError(f"{what} holds a list of {inner}, not one holding {reprlib.repr(element)} "
                                       f"in {where}")
            return value
    elif type_name.startswith("list"):
        def check(value: Any, where: str, ctx: Ctx) -> Any:
            return value if isinstance(value, list) and _small_enough(value, ctx, where) else refuse(value, where)
    elif is_kind:
        def check(value: Any, where: str, ctx: Ctx) -> Any:
            if value is None or (isinstance(value, str) and item_kind.get(value) == type_name):
                return value
            return refuse(value, where)
    else:  # any value; a list within the limits of a list var's (a tree of 2**40 leaves made of shared halves)
        def check(value: Any, where: str, ctx: Ctx) -> Any:
            return value if type(value) is not list or _small_enough(value, ctx, where) else refuse(value, where)

    return check
