"""The only names generated code may call.

Code generated from a pack (`lang/codegen.py`) runs in a namespace that holds
these names, the pack's constants and nothing else: no Python builtins, no
modules, no attributes of Python objects beyond the context's fields. Each
helper raises the same located errors as the closure backend, so both
backends fail alike.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from ..errors import BudgetExceeded, IllegalAction, ProgramError, RuleViolation
from ..limits import MAX_ZONE_ITEMS
from ..model import ZoneRef
from ..runtime import zones as zone_ops
from ..runtime.context import Ctx, GameOver, Return, Suspend
from .builtins import adjacent, charge, missing
from .builtins import count as count_of
from .expressions import equal_values, joined, not_a_player, not_in_game, number_value, plus, same_lists
from .values import as_list, checked_int, label_of, option_id, options_collide, same_value, zone_items

# The closure backend's own checks, under the names the generated code calls.
need_int = number_value
checked = checked_int


def add(a: Any, b: Any, where: str) -> int:
    """`a + b` where one side is surely a number (or `x += n`): numbers only."""
    return checked(need_int(a, where) + need_int(b, where), where)


def add_numbers(a: Any, b: Any, where: str) -> int:
    """`x += n`: numbers only (never two lists joined)."""
    return checked(need_int(a, where) + need_int(b, where), where)


def subtract(a: Any, b: Any, where: str) -> int:
    return checked(need_int(a, where) - need_int(b, where), where)


def multiply(a: Any, b: Any, where: str) -> int:
    return checked(need_int(a, where) * need_int(b, where), where)


def floor_divide(a: Any, b: Any, where: str) -> int:
    a, b = need_int(a, where), need_int(b, where)
    if b == 0:
        raise ProgramError(f"division by zero in {where}")
    return a // b


def modulo(a: Any, b: Any, where: str) -> int:
    a, b = need_int(a, where), need_int(b, where)
    if b == 0:
        raise ProgramError(f"division by zero in {where}")
    return a % b


def negate(a: Any, where: str) -> int:
    return -need_int(a, where)


def _numbers(a: Any, b: Any, op: str, where: str) -> None:
    if not (isinstance(a, int) and isinstance(b, int)):
        raise ProgramError(f"'{op}' compares numbers only, got {a!r} and {b!r} in {where}")


def less(a: Any, b: Any, where: str) -> bool:
    _numbers(a, b, "<", where)
    return bool(a < b)


def less_equal(a: Any, b: Any, where: str) -> bool:
    _numbers(a, b, "<=", where)
    return bool(a <= b)


def greater(a: Any, b: Any, where: str) -> bool:
    _numbers(a, b, ">", where)
    return bool(a > b)


def greater_equal(a: Any, b: Any, where: str) -> bool:
    _numbers(a, b, ">=", where)
    return bool(a >= b)


def not_none(value: Any, message: str) -> Any:
    if value is None:
        raise ProgramError(message)
    return value


def player_owner(model: Any, owner: Any, field: str, where: str) -> int:
    if isinstance(owner, int) and not isinstance(owner, bool):
        return owner
    raise ProgramError(f"{label_of(model, owner)} has no variable '{field}' in {where}")


def any_field(ctx: Ctx, value: Any, field: str, by_kind: dict[str, str], for_player: str | None, none_message: str,
              where: str) -> Any:
    """A field of a value whose type is known only at run time: a player, or an item of some kind."""
    kind_of_value = type(value)
    if kind_of_value is str:
        how = by_kind.get(ctx.model.item_kind.get(value, ""))
        if how == "var":
            return ctx.data["ev"][value][field]
        if how == "fixed":
            return ctx.model.item_data[value][field]
        if how == "owner":
            return ctx.model.item_data[value]["owner"]
        if how == "zone":
            return zone_ref(field, value)
        raise ProgramError(f"'{value}' has no field '{field}' in {where}")
    if kind_of_value is int:
        if (for_player == "var" or for_player == "zone" or for_player == "kind") and not 0 <= value < ctx.data["n"]:
            raise not_a_player(value, ctx.data["n"], where)
        if for_player == "var":
            return ctx.data["pv"][value][field]
        if for_player == "zone":
            return zone_ref(field, value)
        if for_player == "kind":
            return f"{field}_{value}"
        if for_player == "index":
            return value
        if for_player == "name":
            return f"Player {value + 1}"
        raise ProgramError(f"a player has no field '{field}' in {where}")
    if value is None:
        raise ProgramError(none_message)
    if kind_of_value is bool:
        raise ProgramError(f"a truth value has no field '{field}' in {where}")
    raise ProgramError(f"{label_of(ctx.model, value)} has no field '{field}' in {where}")


_ZONE_REFS: dict[tuple[str, type, Any], ZoneRef] = {}


def zone_ref(name: str, owner: Any) -> ZoneRef:
    """The zone `name` of `owner`: one shared value per zone, since zones are named far more often than made."""
    key = (name, type(owner), owner)  # the type too: True and 1 are equal keys, but not the same owner
    try:
        return _ZONE_REFS[key]
    except KeyError:
        ref = _ZONE_REFS[key] = ZoneRef(name, owner)
        return ref
    except TypeError:  # an owner that is not a plain value: make a fresh one, which then fails as before
        return ZoneRef(name, owner)


def fail(message: str) -> Any:
    raise ProgramError(message)


def index(ctx: Ctx, value: Any, i: Any, where: str) -> Any:
    if isinstance(value, ZoneRef):
        if ctx.model.zones[value.name].type == "pool":
            raise ProgramError(f"a pool cannot be indexed in {where}")
        value = ctx.data["z"][value.key]
    if not isinstance(value, list):
        raise ProgramError(f"only lists and zones can be indexed in {where}")
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(value):
        raise ProgramError(f"index {i!r} out of range 0..{len(value) - 1} in {where}")
    return value[i]


def list_index(value: list[Any], i: Any, where: str) -> Any:
    """`index` of a value the generated code knows to be a list."""
    if type(i) is not int or not 0 <= i < len(value):
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(value):
            raise ProgramError(f"index {i!r} out of range 0..{len(value) - 1} in {where}")
    return value[i]


def zone_index(data: dict[str, Any], ref: ZoneRef, i: Any, where: str) -> Any:
    """`index` of a zone the generated code knows to be a stack or a row."""
    return list_index(data["z"][ref.key], i, where)


def call_builtin(impl: Callable[..., Any], name: str, ctx: Ctx, where: str, *args: Any) -> Any:
    charge(ctx, where, args)
    try:
        return impl(ctx, where, *args)
    except (TypeError, ValueError):
        # A value of the wrong kind (a text where a number belongs, a list for a node).
        shown = ", ".join(label_of(ctx.model, a) for a in args)
        raise ProgramError(f"{name}() cannot take ({shown}) in {where}") from None


def _charge_list(ctx: Ctx, value: list[Any], where: str) -> None:
    """A list given to a builtin costs its length in steps (as `builtins.charge`)."""
    if value:
        ctx.steps += len(value)
        if ctx.steps > ctx.budget:
            over_budget(ctx, where)


def _cannot_take(ctx: Ctx, name: str, where: str, args: tuple[Any, ...]) -> ProgramError:
    shown = ", ".join(label_of(ctx.model, a) for a in args)
    return ProgramError(f"{name}() cannot take ({shown}) in {where}")


def call_builtin0(impl: Callable[..., Any], name: str, ctx: Ctx, where: str) -> Any:
    try:
        return impl(ctx, where)
    except (TypeError, ValueError):
        raise _cannot_take(ctx, name, where, ()) from None


def call_builtin1(impl: Callable[..., Any], name: str, ctx: Ctx, where: str, a: Any) -> Any:
    if type(a) is list:
        _charge_list(ctx, a, where)
    try:
        return impl(ctx, where, a)
    except (TypeError, ValueError):
        raise _cannot_take(ctx, name, where, (a,)) from None


def seated_item(data: dict[str, Any], item: str, seat: int, where: str) -> str:
    """An item of a per-player kind named in the pack, if its seat is one of this game's (`pawn_3` with two
    players is not)."""
    if seat >= data["n"]:
        raise not_in_game(item, seat, data["n"], where)
    return item


def zone_pieces(ctx: Ctx, where: str, ref: ZoneRef) -> list[Any]:
    """`items(zone)` of a zone the code names (so surely a zone), with `call_builtin1`'s errors. (`free(zone)` of
    such a zone is `zones.free` itself, called as `zone_room(ctx, ref, where)`: it gives the builtin's errors.)"""
    try:
        return zone_items(ctx.model, ctx.data, ref, where)
    except (TypeError, ValueError):
        raise _cannot_take(ctx, "items", where, (ref,)) from None


def adjacent_nodes(ctx: Ctx, where: str, node: Any, edge_keys: dict[str, tuple[tuple[str, str], ...]]) -> Any:
    """`adjacent(node)`, given each node's neighbours with the keys of the edges to them (made from the pack's
    board when the code was generated): the same list and steps as `builtins.adjacent`, without making each
    edge's key again. Anything but a node of the board goes to the builtin."""
    if type(node) is str:
        pairs = edge_keys.get(node)
        if pairs is not None:
            if pairs:  # a step per neighbour looked at (`ctx.tick_many`, written out)
                ctx.steps += len(pairs)
                if ctx.steps > ctx.budget:
                    ctx.steps -= 1
                    ctx.tick(where)
            blocked = ctx.data["blocked"]
            if not blocked:
                return [n for n, _ in pairs]
            return [n for n, key in pairs if key not in blocked]
    return call_builtin1(adjacent, "adjacent", ctx, where, node)


def call_builtin2(impl: Callable[..., Any], name: str, ctx: Ctx, where: str, a: Any, b: Any) -> Any:
    if type(a) is list or type(b) is list:
        charge(ctx, where, (a, b))
    try:
        return impl(ctx, where, a, b)
    except (TypeError, ValueError):
        raise _cannot_take(ctx, name, where, (a, b)) from None


def call_builtin3(impl: Callable[..., Any], name: str, ctx: Ctx, where: str, a: Any, b: Any, c: Any) -> Any:
    if type(a) is list or type(b) is list or type(c) is list:
        charge(ctx, where, (a, b, c))
    try:
        return impl(ctx, where, a, b, c)
    except (TypeError, ValueError):
        raise _cannot_take(ctx, name, where, (a, b, c)) from None


# Builtins on zones that the generated code knows to be stacks or rows (their layout checked when
# the code was made), and on lists it has just built: the same results and steps as the builtins.

def zone_count(data: dict[str, Any], ref: ZoneRef) -> int:
    """`count` of a stack: its length (a stack holds no none)."""
    return len(data["z"][ref.key])


def zone_amount(ctx: Ctx, ref: ZoneRef, item: Any, where: str) -> int:
    """`count(zone, item)` of a stack or a row: a step for each piece compared, as `zones.amount`."""
    if type(item) is list:
        _charge_list(ctx, item, where)
    content = ctx.data["z"][ref.key]
    if item is None:
        return zone_ops.held(ctx, ref, where)
    ctx.tick_many(len(content), where)
    return content.count(item)


# A pool the generated code knows to be one, and not unlimited: its table of counts read at once, with the
# builtins' results, steps and errors (anything but the usual arguments goes to the builtin).

def pool_amount(ctx: Ctx, where: str, ref: ZoneRef, item: Any) -> int:
    """`count(pool, item)`: a text's count in the pool's table, as `zones.amount` reads it."""
    if type(item) is str:
        return int(ctx.data["z"][ref.key].get(item, 0))
    return call_builtin2(count_of, "count", ctx, where, ref, item)


def pool_missing(ctx: Ctx, where: str, ref: ZoneRef, need: Any) -> Any:
    """`missing(pool, need)` of a list: the elements of `need` the pool lacks, counting repeats. As the builtin
    counts them: a step for each element of `need`, then one for each piece the pool holds (its pieces listed,
    of which the builtin makes a table of counts: the pool's own table, copied)."""
    if type(need) is not list:
        return call_builtin2(missing, "missing", ctx, where, ref, need)
    if need:  # `charge`
        ctx.tick_many(len(need), where)
    content = ctx.data["z"][ref.key]
    held = sum(content.values())
    if held > MAX_ZONE_ITEMS:  # refused as the pieces' list is (`zone_items`)
        zone_items(ctx.model, ctx.data, ref, where)
    if held:
        ctx.tick_many(held, where)
    available = content.copy()
    result = []
    try:
        for item in need:
            if available.get(item, 0) > 0:
                available[item] -= 1
            else:
                result.append(item)
    except TypeError:  # an element that cannot be looked up (a list)
        raise _cannot_take(ctx, "missing", where, (ref, need)) from None
    return result


def zone_list(data: dict[str, Any], ref: ZoneRef) -> list[Any]:
    return list(data["z"][ref.key])


def zone_content(data: dict[str, Any], ref: ZoneRef) -> list[Any]:
    """The zone's own list, for code that only reads it at once (a comprehension's source)."""
    return data["z"][ref.key]  # type: ignore[no-any-return]


def zone_first(data: dict[str, Any], ref: ZoneRef) -> Any:
    content = data["z"][ref.key]
    return content[0] if content else None


def zone_free(data: dict[str, Any], ref: ZoneRef, capacity: int) -> int:
    """`free` of a stack whose pieces take one place each."""
    return capacity - len(data["z"][ref.key])


# The same reads of a zone named as `owner.zone`, given the zone's table of keys by owner (made when
# the code was generated): one lookup instead of making the zone's value; any owner not in the table
# goes the way of `zone_ref`, with the same errors.

def owned_key(keys: dict[Any, str], name: str, owner: Any, message: str | None) -> str:
    try:
        return keys[owner]
    except (KeyError, TypeError):
        return zone_ref(name, owner if message is None else not_none(owner, message)).key


def owned_count(data: dict[str, Any], keys: dict[Any, str], name: str, owner: Any, message: str | None) -> int:
    try:
        content = data["z"][keys[owner]]
    except (KeyError, TypeError):
        content = data["z"][owned_key(keys, name, owner, message)]
    return len(content)


def owned_list(data: dict[str, Any], keys: dict[Any, str], name: str, owner: Any, message: str | None) -> list[Any]:
    return list(data["z"][owned_key(keys, name, owner, message)])


def owned_first(data: dict[str, Any], keys: dict[Any, str], name: str, owner: Any, message: str | None) -> Any:
    content = data["z"][owned_key(keys, name, owner, message)]
    return content[0] if content else None


def owned_free(data: dict[str, Any], keys: dict[Any, str], name: str, owner: Any, message: str | None,
               capacity: int) -> int:
    try:
        content = data["z"][keys[owner]]
    except (KeyError, TypeError):
        content = data["z"][owned_key(keys, name, owner, message)]
    return capacity - len(content)


def owned_index(data: dict[str, Any], keys: dict[Any, str], name: str, owner: Any, message: str | None, i: Any,
                where: str) -> Any:
    try:
        content = data["z"][keys[owner]]
    except (KeyError, TypeError):
        content = data["z"][owned_key(keys, name, owner, message)]
    if type(i) is int and 0 <= i < len(content):
        return content[i]
    return list_index(content, i, where)


# These charge the list's length as `_charge_list` does, written out: they run in the innermost loops.

def list_count(ctx: Ctx, value: list[Any], where: str) -> int:
    if value:
        ctx.steps += len(value)
        if ctx.steps > ctx.budget:
            over_budget(ctx, where)
    return len(value)


def list_any(ctx: Ctx, value: list[Any], where: str) -> bool:
    if value:
        ctx.steps += len(value)
        if ctx.steps > ctx.budget:
            over_budget(ctx, where)
    return any(value)


def charge_at_once(ctx: Ctx, steps: int) -> bool:
    """Count `steps` at once if the budget has room for them all (True); else count none (False)."""
    if ctx.steps + steps <= ctx.budget:
        ctx.steps += steps
        return True
    return False


def charged_twice(ctx: Ctx, items: list[Any]) -> list[Any] | None:
    """`items`, with two steps counted for each (a loop over them, then `any` or `all` of what it made) if
    the budget has room for them all; else None, and nothing counted."""
    steps = ctx.steps + 2 * len(items)
    if steps <= ctx.budget:
        ctx.steps = steps
        return items
    return None


def list_all(ctx: Ctx, value: list[Any], where: str) -> bool:
    if value:
        ctx.steps += len(value)
        if ctx.steps > ctx.budget:
            over_budget(ctx, where)
    return all(value)


# Statements the generated code runs through a helper: the same steps, checks and errors as the
# closures of `statements.py`, given values the generated code has already worked out.

def zone_value(model: Any, value: Any, where: str) -> ZoneRef:
    if not isinstance(value, ZoneRef):
        raise ProgramError(f"expected a zone, got {label_of(model, value)!r} in {where}")
    return value


def move_items(ctx: Ctx, what: Any, src: Any, dst: Any, count: Any, counted: bool, top: bool, where: str) -> None:
    """`move [count of] what from src to dst`: `count` is read only when `counted`."""
    if type(src) is not ZoneRef or type(dst) is not ZoneRef:
        src, dst = zone_value(ctx.model, src, where), zone_value(ctx.model, dst, where)
    zone_ops.move(ctx, src, dst, what, need_int(count, where) if counted else None, top, where)


def draw_items(ctx: Ctx, src: Any, dst: Any, count: Any, top: bool, where: str) -> None:
    """`draw count from src to dst`: `count` is worked out after the zones, as the closure does."""
    model = ctx.model
    src, dst = zone_value(model, src, where), zone_value(model, dst, where)
    if model.zones[src.name].type != "stack":
        raise ProgramError(f"draw takes from a stack, and '{src.name}' is a {model.zones[src.name].type} in {where}")
    for _ in range(zone_ops.draws(ctx, src, dst, need_int(count, where), where)):
        if not ctx.data["z"][src.key]:
            return
        item = ctx.own("z", src.key).pop(0)
        zone_ops.add(ctx, dst, item, 1, top, where)


# Typed parameters and results. The code compiled for a value typed `player` or a kind reads it without a test
# (`p.score` is the seat's counter): a value that gets such a type from a caller must be one.

def checked_types(type_names: list[str], kinds: Any) -> list[tuple[int, str]]:
    """The positions and types among `type_names` that a value must be checked for: `player`, item kinds and
    lists of either (`list:player`)."""
    return [(i, t) for i, t in enumerate(type_names) if (t[5:] if t.startswith("list:") else t) in ("player", *kinds)]


def fits_type(ctx: Ctx, value: Any, type_name: str, where: str) -> bool:
    """Whether `value` is none or of `type_name` (`player`: a seat of this game; a kind: one of its items; a
    list of them: a list of such values, a step for each)."""
    if value is None:
        return True
    if type_name == "player":
        return type(value) is int and 0 <= value < ctx.data["n"]
    if type_name.startswith("list:"):
        if type(value) is not list:
            return False
        if value:
            ctx.tick_many(len(value), where)
        inner = type_name[5:]
        return all(fits_type(ctx, element, inner, where) for element in value)
    return type(value) is str and ctx.model.item_kind.get(value) == type_name


def wrong_type(ctx: Ctx, value: Any, type_name: str, what: str, where: str) -> NoReturn:
    """The error for `value` given where `type_name` is declared: as a parameter's (`what` "parameter 'p'")
    or as a rule's result (`what` "its result")."""
    shown = reprlib.repr(value)
    if type_name.startswith("list:"):
        raise ProgramError(f"{what} is a list of {type_name[5:]}, not {shown} in {where}")
    if type_name == "player":
        seats = f" (the players are 0 to {ctx.data['n'] - 1})" if type(value) is int else ""
        raise ProgramError(f"{what} is a player, not {shown}{seats} in {where}")
    raise ProgramError(f"{what} is an item of kind '{type_name}', not {shown} in {where}")


def check_arguments(ctx: Ctx, checks: list[tuple[int, str]], names: list[str], args: Any, where: str) -> None:
    """Each argument at a checked position fits its declared type (the reference backend's entry test)."""
    for index, type_name in checks:
        if not fits_type(ctx, args[index], type_name, where):
            wrong_type(ctx, args[index], type_name, f"parameter '{names[index]}'", where)


def set_field(ctx: Ctx, value: Any, owner: Any, field: str, player_bound: Any, item_bounds: dict[str, Any],
              where: str) -> None:
    """`set owner.field = value` for a player's or an item's variable."""
    if isinstance(owner, int) and not isinstance(owner, bool) and player_bound is not None:
        if not 0 <= owner < ctx.data["n"]:
            raise not_a_player(owner, ctx.data["n"], where)
        ctx.own("pv", owner)[field] = player_bound(value, where, ctx)
        return
    model = ctx.model
    if isinstance(owner, str) and model.item_kind.get(owner) in item_bounds:
        bound = item_bounds[model.item_kind[owner]]
        ctx.own("ev", owner)[field] = bound(value, where, ctx)
        return
    raise ProgramError(f"{label_of(model, owner)} has no variable '{field}' in {where}")


def field_value(ctx: Ctx, owner: Any, field: str, players_have_it: bool, item_kinds: Any, where: str) -> Any:
    """The current value of `owner.field`, a player's or an item's variable, before it is changed; an owner
    that has no such variable (or a number that is no player's seat) is an error here."""
    if isinstance(owner, int) and not isinstance(owner, bool) and players_have_it:
        if not 0 <= owner < ctx.data["n"]:
            raise not_a_player(owner, ctx.data["n"], where)
        return ctx.data["pv"][owner][field]
    if isinstance(owner, str) and ctx.model.item_kind.get(owner) in item_kinds:
        return ctx.data["ev"][owner][field]
    raise ProgramError(f"{label_of(ctx.model, owner)} has no variable '{field}' in {where}")


def change_field(ctx: Ctx, owner: Any, current: int, value: Any, sign: int, field: str, player_bound: Any,
                 item_bounds: dict[str, Any], where: str) -> None:
    """`owner.field += value` (or `-=`, with `sign` -1), given the field's `current` value, read (with
    `field_value`) and checked to be a number before `value` was worked out."""
    changed = checked_int(current + sign * need_int(value, where), where)
    set_field(ctx, changed, owner, field, player_bound, item_bounds, where)


# `count`, `any` and `all` of a value that may be a list: a list is charged its length and answered here
# (what `list_count`, `list_any` and `list_all` do, written in place: no second call), anything else goes
# to the builtin.

def maybe_list_count(impl: Callable[..., Any], ctx: Ctx, value: Any, where: str) -> Any:
    if type(value) is list:
        if value:
            ctx.steps += len(value)
            if ctx.steps > ctx.budget:
                over_budget(ctx, where)
        return len(value)
    return call_builtin1(impl, "count", ctx, where, value)


def maybe_list_any(impl: Callable[..., Any], ctx: Ctx, value: Any, where: str) -> Any:
    if type(value) is list:
        if value:
            ctx.steps += len(value)
            if ctx.steps > ctx.budget:
                over_budget(ctx, where)
        return any(value)
    return call_builtin1(impl, "any", ctx, where, value)


def maybe_list_all(impl: Callable[..., Any], ctx: Ctx, value: Any, where: str) -> Any:
    if type(value) is list:
        if value:
            ctx.steps += len(value)
            if ctx.steps > ctx.budget:
                over_budget(ctx, where)
        return all(value)
    return call_builtin1(impl, "all", ctx, where, value)


def each(ctx: Ctx, env: dict[str, Any], var: str, source: Any, where: str) -> Iterator[Any]:
    """The elements of a comprehension's source, each bound to `var` in turn; the old binding comes back after."""
    items = as_list(ctx.model, ctx.data, source, where)
    had, old = var in env, env.get(var)
    try:
        for item in items:
            ctx.tick(where)
            env[var] = item
            yield item
    finally:
        if had:
            env[var] = old
        else:
            env.pop(var, None)


def ticked(ctx: Ctx, source: Any, where: str) -> Iterator[Any]:
    """The elements of a comprehension's source, one step of the budget each (its variable a Python local)."""
    for item in as_list(ctx.model, ctx.data, source, where):
        ctx.steps += 1
        if ctx.steps > ctx.budget:
            over_budget(ctx, where)
        yield item


def charged(ctx: Ctx, items: list[Any], where: str) -> Any:
    """A list for a comprehension whose body counts no steps: one step per item, all charged at once
    when the budget has room for them (else one at a time, to stop at the same item as always)."""
    if ctx.steps + len(items) <= ctx.budget:
        ctx.steps += len(items)
        return items
    return ticked(ctx, items, where)


def charged_any(ctx: Ctx, source: Any, where: str) -> Any:
    """`charged` for a source that may be a list (a rule's result, a local) or a zone: a zone, or a
    list the budget has no room for, is ticked one element at a time."""
    if type(source) is list and ctx.steps + len(source) <= ctx.budget:
        ctx.steps += len(source)
        return source
    return ticked(ctx, source, where)


def loop_items(ctx: Ctx, source: Any, where: str) -> list[Any]:
    return list(as_list(ctx.model, ctx.data, source, where))


def entry_point(definition: Callable[..., Any]) -> Callable[[Ctx, list[Any]], Any]:
    """A generated rule, procedure or hook as the rest of the engine calls it: `(ctx, args)`.

    Generated definitions call each other directly with positional arguments and count their
    nesting in `ctx.depth` without restoring it when an error passes through them; an entry point
    restores it, so code that catches the error (the engine, a hook catching `return`) goes on at
    the right depth.
    """
    def call(ctx: Ctx, args: list[Any]) -> Any:
        depth = ctx.depth
        try:
            return definition(ctx, *args)
        finally:
            ctx.depth = depth

    return call


_ENTRY_CODE = entry_point(lambda ctx: None).__code__


def entry_definition(call: Any) -> Callable[..., Any] | None:
    """The generated definition an entry point (`entry_point`) calls with positional arguments, or None for any
    other callable (a closure of the reference backend, a definition wrapped to check its properties)."""
    if getattr(call, "__code__", None) is _ENTRY_CODE and call.__closure__:
        return call.__closure__[0].cell_contents  # type: ignore[no-any-return]
    return None


def called_with_list(call: Callable[[Ctx, list[Any]], Any]) -> Callable[..., Any]:
    """An entry point `(ctx, args)` under the positional signature generated code calls."""
    def positional(ctx: Ctx, *args: Any) -> Any:
        return call(ctx, list(args))

    return positional


def over_budget(ctx: Ctx, where: str) -> None:
    ctx.steps -= 1
    ctx.tick(where)


def player_list(data: dict[str, Any]) -> list[int]:
    return list(range(data["n"]))


_SEATS = [list(range(n)) for n in range(33)]


def seat_list(data: dict[str, Any]) -> list[int]:
    """The players, as a list shared by every caller: for code that only reads it at once (a loop's source)."""
    n = data["n"]
    return _SEATS[n] if 0 <= n < len(_SEATS) else list(range(n))


def made(ctx: Ctx, items: list[Any], where: str) -> list[Any]:
    """A list made from a zone or a kind (`items(...)`, a kind's name) as a value: a step for each element,
    as `builtins.items` and the closures of a kind's name count them."""
    ctx.tick_many(len(items), where)
    return items


def copy_list(items: list[Any]) -> list[Any]:
    return list(items)


def kind_items(model: Any, kind: str, data: dict[str, Any]) -> list[str]:
    return model.items_of(kind, data["n"])  # type: ignore[no-any-return]


def player_name(p: int) -> str:
    return f"Player {p + 1}"


def per_player_item(kind: str, p: int) -> str:
    return f"{kind}_{p}"


def shown(ctx: Ctx, value: Any) -> str:
    """What `say` shows of a value: an item by its name (a text that is no item's id as itself)."""
    return label_of(ctx.model, value)


def take_answer(ctx: Ctx, prompt: str, options: list[tuple[str, str, Any]]) -> str:
    """The next of the job's answers, which must be the id of one of `options` (a choice's, asked now)."""
    answer = _next_answer(ctx)
    for key, _, _ in options:  # loops, not generators: an answer is taken at every choice of a replay
        if key == answer:
            return answer
    raise IllegalAction(f"'{answer}' is not one of the options: {prompt}")


def answered(ctx: Ctx, asked: Suspend) -> Any:
    """The value a resumed choice takes: the option its answer names, among those it was asked with."""
    answer = _next_answer(ctx)
    for key, _, value in asked.options:
        if key == answer:
            return value
    raise IllegalAction(f"'{answer}' is not one of the options: {asked.prompt}")


def _next_answer(ctx: Ctx) -> str:
    answer = ctx.answers[ctx.pos]
    ctx.pos += 1
    if ctx.reseed is not None and ctx.pos == ctx.reseed["after"]:
        ctx.apply_reseed()
    return answer


NAMES: dict[str, Any] = {
    "need_int": need_int, "checked": checked, "joined": joined, "same_lists": same_lists, "equal_values": equal_values, "plus": plus, "add": add, "add_numbers": add_numbers, "subtract": subtract,
    "multiply": multiply, "floor_divide": floor_divide, "modulo": modulo, "negate": negate, "less": less,
    "less_equal": less_equal, "greater": greater, "greater_equal": greater_equal, "not_none": not_none, "zone_ref": zone_ref, "zone_room": zone_ops.free, "seated_item": seated_item, "zone_pieces": zone_pieces, "type": type, "int": int, "str": str, "list": list, "len": len, "range": range, "any_field": any_field, "fail": fail, "player_owner": player_owner,
    "index": index, "call_builtin": call_builtin, "call_builtin0": call_builtin0,
    "call_builtin1": call_builtin1, "adjacent_nodes": adjacent_nodes, "call_builtin2": call_builtin2, "call_builtin3": call_builtin3,
    "zone_count": zone_count, "zone_amount": zone_amount, "pool_amount": pool_amount, "pool_missing": pool_missing, "zone_list": zone_list, "zone_content": zone_content, "zone_first": zone_first,
    "zone_free": zone_free, "owned_count": owned_count, "owned_list": owned_list, "owned_first": owned_first,
    "owned_free": owned_free, "owned_index": owned_index, "list_index": list_index, "zone_index": zone_index, "list_count": list_count, "list_any": list_any, "list_all": list_all, "charge_at_once": charge_at_once, "charged_twice": charged_twice, "all": all, "any": any, "maybe_list_count": maybe_list_count,
    "maybe_list_any": maybe_list_any, "maybe_list_all": maybe_list_all,
    "each": each, "ticked": ticked, "charged": charged, "charged_any": charged_any, "loop_items": loop_items,
    "over_budget": over_budget, "player_list": player_list, "seat_list": seat_list, "made": made, "copy_list": copy_list, "kind_items": kind_items, "player_name": player_name,
    "per_player_item": per_player_item, "shown": shown, "as_list": as_list, "ZoneRef": ZoneRef,
    "RuleViolation": RuleViolation, "GameOver": GameOver, "Return": Return, "Suspend": Suspend, "answered": answered, "ProgramError": ProgramError,
    "BudgetExceeded": BudgetExceeded, "Exception": Exception, "NO_FIELDS": {}, "move_items": move_items, "draw_items": draw_items, "check_fill": zone_ops.check_fill,
    "zone_add": zone_ops.add, "zone_draws": zone_ops.draws,
    "set_field": set_field, "change_field": change_field, "fits_type": fits_type, "wrong_type": wrong_type, "field_value": field_value, "option_id": option_id, "options_collide": options_collide, "same_value": same_value,
}
