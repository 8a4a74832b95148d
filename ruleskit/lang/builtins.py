"""The functions a rule-language program may call.

Each builtin takes the running context, a description of where it is called
(for error messages), and its arguments. None of them reaches outside the
game data; all of them finish in time bounded by their inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..errors import ProgramError
from ..model import ZoneRef, edge_key
from ..runtime import zones as zone_ops
from ..runtime.context import Ctx
from .values import MAX_INT, as_list, option_id

MAX_RANGE = 10_000


@attrs.frozen
class Builtin:
    fn: Callable[..., Any]
    min_args: int
    max_args: int
    result: Callable[[list[str]], str]
    doc: str


def charge(ctx: Ctx, where: str, args: tuple[Any, ...] | list[Any]) -> None:
    """A builtin given lists costs their length in steps: counting 10,000 elements is not one step."""
    cost = 0
    for value in args:
        if type(value) is list:
            cost += len(value)
    ctx.tick_many(cost, where)


def _fixed(type_name: str) -> Callable[[list[str]], str]:
    return lambda types: type_name


def _element_of_first(types: list[str]) -> str:
    if types and (types[0].startswith("list:") or types[0].startswith("zone:")):
        return types[0][5:] or "any"
    return "any"


def _list_of_first(types: list[str]) -> str:
    if types and types[0].startswith("zone:"):
        return f"list:{types[0][5:] or 'any'}"
    return types[0] if types and types[0].startswith("list:") else "list:any"


def _items(ctx: Ctx, where: str, value: Any) -> list[Any]:
    """A list, or a zone's pieces listed: a step for each piece, as any list made costs its length."""
    if type(value) is list:
        return value
    listed = as_list(ctx.model, ctx.data, value, where)
    ctx.tick_many(len(listed), where)
    return listed


def listed_items(ctx: Ctx, where: str, value: Any) -> list[Any]:
    """`items(...)` as the source of a loop, a comprehension or a parameter's options: the loop costs a step
    for each element it takes, so listing a zone for it costs nothing more."""
    return as_list(ctx.model, ctx.data, value, where)


def _ints(ctx: Ctx, where: str, value: Any) -> list[int]:
    items = _items(ctx, where, value)
    for item in items:
        if not isinstance(item, int) or isinstance(item, bool):
            raise ProgramError(f"expected numbers, got {item!r} in {where}")
    return items


def _zone(where: str, value: Any) -> ZoneRef:
    if not isinstance(value, ZoneRef):
        raise ProgramError(f"expected a zone in {where}")
    return value


def count(ctx: Ctx, where: str, value: Any, item: Any = None) -> int:
    if item is not None:
        if isinstance(value, ZoneRef):
            return zone_ops.amount(ctx, value, item, where)
        items = _items(ctx, where, value)
        charge_search(ctx, where, items, item)
        return sum(1 for x in items if x == item)
    if isinstance(value, ZoneRef):  # counted where it is, not listed
        return zone_ops.held(ctx, value, where)
    return len(_items(ctx, where, value))


def total(ctx: Ctx, where: str, value: Any) -> int:
    result = sum(_ints(ctx, where, value))
    if abs(result) > MAX_INT:
        raise ProgramError(f"number out of range in {where}")
    return result


def minimum(ctx: Ctx, where: str, value: Any, default: Any = None) -> Any:
    items = _ints(ctx, where, value)
    if not items:
        if default is None:
            raise ProgramError(f"min() of an empty list (give a default) in {where}")
        return default
    return min(items)


def maximum(ctx: Ctx, where: str, value: Any, default: Any = None) -> Any:
    items = _ints(ctx, where, value)
    if not items:
        if default is None:
            raise ProgramError(f"max() of an empty list (give a default) in {where}")
        return default
    return max(items)


def charge_nested(ctx: Ctx, value: list[Any], where: str) -> int:
    """Count a step for each element of `value` and of the lists nested in it, each list before it is
    walked; the number of them. Comparing two lists compares what is nested in them too."""
    total, pending = 0, [value]
    while pending:
        items = pending.pop()
        ctx.tick_many(len(items), where)
        total += len(items)
        pending.extend(item for item in items if type(item) is list)
    return total


def contains(ctx: Ctx, where: str, container: Any, item: Any) -> bool:
    if isinstance(container, ZoneRef):
        return zone_ops.amount(ctx, container, item, where) > 0
    if isinstance(container, list):
        ctx.tick_many(len(container), where)  # compared element by element
        charge_search(ctx, where, container, item)
        return item in container
    raise ProgramError(f"'in' needs a list or a zone in {where}")


def charge_search(ctx: Ctx, where: str, items: list[Any], item: Any) -> None:
    """Looking for a list among `items` compares it with each list there as deep as it goes: a step for each
    element compared (the step per element of `items` is counted by the caller)."""
    if type(item) is list and item:
        size = charge_nested(ctx, item, where)
        ctx.tick_many(size * sum(1 for element in items if type(element) is list), where)


def charge_lists_in(ctx: Ctx, where: str, items: list[Any], times: int = 1) -> None:
    """Work that walks each list among `items` (its id made, or compared with others `times` over): a step for
    each element nested in them."""
    for element in items:
        if type(element) is list:
            size = charge_nested(ctx, element, where)
            ctx.tick_many((times - 1) * size, where)


def _multiset(ctx: Ctx, where: str, value: Any) -> dict[Any, int]:
    counts: dict[Any, int] = {}
    for item in _items(ctx, where, value):
        counts[item] = counts.get(item, 0) + 1
    return counts


def missing(ctx: Ctx, where: str, have: Any, need: Any) -> list[Any]:
    """The elements of `need` that `have` lacks, counting repeats."""
    available = _multiset(ctx, where, have)
    result = []
    for item in _items(ctx, where, need):
        if available.get(item, 0) > 0:
            available[item] -= 1
        else:
            result.append(item)
    return result


def common(ctx: Ctx, where: str, have: Any, need: Any) -> list[Any]:
    """The elements of `need` that `have` holds, counting repeats."""
    available = _multiset(ctx, where, have)
    result = []
    for item in _items(ctx, where, need):
        if available.get(item, 0) > 0:
            available[item] -= 1
            result.append(item)
    return result


def contains_all(ctx: Ctx, where: str, have: Any, need: Any) -> bool:
    return not missing(ctx, where, have, need)


def make_range(ctx: Ctx, where: str, a: int, b: int | None = None) -> list[int]:
    low, high = (0, a) if b is None else (a, b)
    if high - low > MAX_RANGE:
        raise ProgramError(f"range() longer than {MAX_RANGE} in {where}")
    ctx.tick_many(high - low, where)  # a list made costs its length, as one given does
    return list(range(low, high))


# The arguments of the board's builtins that name a node, by position: a call whose argument's static type no
# node has is refused at load (`ExpressionCompiler.expect_nodes`).
NODE_ARGUMENTS: dict[str, tuple[int, ...]] = {"adjacent": (0,), "neighbours": (0,), "blocked": (0, 1)}


def adjacent(ctx: Ctx, where: str, node: Any) -> list[str]:
    joined = ctx.model.adjacency.get(node, ())
    ctx.tick_many(len(joined), where)  # a step per neighbour looked at
    blocked = ctx.data["blocked"]
    if not blocked:
        return list(joined)
    # edge_key(node, n), written out: this runs for every neighbour of every step of a search
    return [n for n in joined if (f"{node}|{n}" if node <= n else f"{n}|{node}") not in blocked]


def neighbours(ctx: Ctx, where: str, node: Any) -> list[str]:
    found = ctx.model.adjacency.get(node, ())
    ctx.tick_many(len(found), where)
    return list(found)


def edges(ctx: Ctx, where: str) -> list[list[str]]:
    ctx.tick_many(len(ctx.model.edges), where)
    return [[a, b] for a, b in ctx.model.edges]


def is_blocked(ctx: Ctx, where: str, a: Any, b: Any) -> bool:
    return edge_key(a, b) in ctx.data["blocked"]


def blocked_edges(ctx: Ctx, where: str) -> list[list[str]]:
    ctx.tick_many(len(ctx.data["blocked"]), where)
    return [key.split("|") for key in ctx.data["blocked"]]


def _player(ctx: Ctx, where: str, p: Any) -> int:
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < ctx.data["n"]:
        raise ProgramError(f"{p!r} is not a player in {where}")
    return p


def next_player(ctx: Ctx, where: str, p: Any, steps: int = 1) -> int:
    return (_player(ctx, where, p) + steps) % ctx.data["n"]


def previous_player(ctx: Ctx, where: str, p: Any, steps: int = 1) -> int:
    return (_player(ctx, where, p) - steps) % ctx.data["n"]


def players_from(ctx: Ctx, where: str, p: Any, direction: str = "clockwise") -> list[int]:
    start, n = _player(ctx, where, p), ctx.data["n"]
    if direction == "clockwise":
        return [(start + i) % n for i in range(n)]
    if direction == "counterclockwise":
        return [(start - i) % n for i in range(n)]
    raise ProgramError(f"direction must be \"clockwise\" or \"counterclockwise\" in {where}")


def first(ctx: Ctx, where: str, value: Any) -> Any:
    if isinstance(value, ZoneRef) and ctx.model.zones[value.name].type == "stack":  # read where it is
        content = ctx.data["z"][value.key]
        return content[0] if content else None
    items = _items(ctx, where, value)
    return items[0] if items else None


def last(ctx: Ctx, where: str, value: Any) -> Any:
    if isinstance(value, ZoneRef) and ctx.model.zones[value.name].type == "stack":
        content = ctx.data["z"][value.key]
        return content[-1] if content else None
    items = _items(ctx, where, value)
    return items[-1] if items else None


def reverse(ctx: Ctx, where: str, value: Any) -> list[Any]:
    return list(reversed(_items(ctx, where, value)))


def distinct(ctx: Ctx, where: str, value: Any) -> list[Any]:
    """The elements, each once, in order: two are repeats when `==` says so (1 and "1", or [1, 2] and
    "1+2", are not, though their ids are alike; 1 and true are, as `true == 1`)."""
    seen: set[Any] = set()
    result = []
    items = _items(ctx, where, value)
    charge_lists_in(ctx, where, items)  # each list's key made
    for item in items:
        key = _same_key(item)
        if key not in seen:
            seen.add(key)
            result.append(item)
    return result


def _same_key(value: Any) -> Any:
    """A key equal for two values exactly when `==` says they are equal (a list's, its elements' keys: the
    language has no tuples to confuse with it)."""
    if type(value) is list:
        return tuple(_same_key(element) for element in value)
    return value


def without(ctx: Ctx, where: str, value: Any, item: Any) -> list[Any]:
    """The list with the first occurrence of `item` removed."""
    items = list(_items(ctx, where, value))
    charge_search(ctx, where, items, item)
    if item in items:
        items.remove(item)
    return items


def flatten(ctx: Ctx, where: str, value: Any) -> list[Any]:
    """The elements of each inner list (or zone) in turn: one level of nesting removed."""
    result: list[Any] = []
    for inner in _items(ctx, where, value):
        result.extend(_items(ctx, where, inner))
    if len(result) > MAX_RANGE:
        raise ProgramError(f"flatten() longer than {MAX_RANGE} in {where}")
    ctx.tick_many(len(result), where)  # the inner lists' elements, which the outer list's length left out
    return result


def _flattened_type(types: list[str]) -> str:
    if types and types[0].startswith("list:list:"):
        return types[0][5:]
    return "list:any"


def index_of(ctx: Ctx, where: str, value: Any, item: Any) -> int:
    items = _items(ctx, where, value)
    charge_search(ctx, where, items, item)
    if item not in items:
        raise ProgramError(f"{item!r} is not in the list in {where}")
    return items.index(item)


def sort(ctx: Ctx, where: str, value: Any) -> list[Any]:
    items = _items(ctx, where, value)
    charge_lists_in(ctx, where, items, max(1, len(items).bit_length()))  # lists compared, about log n times each
    try:
        return sorted(items)
    except TypeError:
        raise ProgramError(f"sort() needs values of one kind in {where}") from None


def sort_by(ctx: Ctx, where: str, value: Any, keys: Any) -> list[Any]:
    """The list ordered by matching number keys; equal keys keep their order (a stable sort)."""
    elements = _items(ctx, where, value)
    numbers = _ints(ctx, where, keys)
    if len(numbers) != len(elements):
        raise ProgramError(f"sort_by() needs one key per element ({len(elements)} elements, {len(numbers)} keys)"
                           f" in {where}")
    order = sorted(range(len(elements)), key=lambda i: numbers[i])
    return [elements[i] for i in order]


def items(ctx: Ctx, where: str, value: Any) -> list[Any]:
    return _items(ctx, where, value)


def free(ctx: Ctx, where: str, zone: Any) -> int:
    return zone_ops.free(ctx, _zone(where, zone), where)


def used(ctx: Ctx, where: str, zone: Any) -> int:
    return zone_ops.used(ctx, _zone(where, zone), where)


def capacity(ctx: Ctx, where: str, zone: Any) -> int:
    cap = zone_ops.capacity(ctx, _zone(where, zone))
    return -1 if cap is None else cap


def size_of(ctx: Ctx, where: str, zone: Any, item: Any) -> int:
    return zone_ops.item_size(ctx, _zone(where, zone), item)


def slots(ctx: Ctx, where: str, zone: Any) -> list[Any]:
    ref = _zone(where, zone)
    if ctx.model.zones[ref.name].type != "row":
        raise ProgramError(f"slots() needs a row in {where}")
    ctx.tick_many(len(ctx.data["z"][ref.key]), where)
    return list(ctx.data["z"][ref.key])


def absolute(ctx: Ctx, where: str, value: int) -> int:
    return abs(value)


def any_of(ctx: Ctx, where: str, value: Any) -> bool:
    return any(_items(ctx, where, value))


def all_of(ctx: Ctx, where: str, value: Any) -> bool:
    return all(_items(ctx, where, value))


def clamp(ctx: Ctx, where: str, value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def smaller(ctx: Ctx, where: str, a: int, b: int) -> int:
    return min(a, b)


def larger(ctx: Ctx, where: str, a: int, b: int) -> int:
    return max(a, b)


def reachable(ctx: Ctx, where: str, start: Any, steps: int, stops: Any = None, avoid: Any = None) -> list[Any]:
    """The nodes at 1..`steps` open edges from `start` (a node or a list of nodes), nearest first.

    A path may end on a node of `stops` but not go on from it (a start always
    goes on); it never enters a node of `avoid`. A start is listed only if a
    path leads back to it. Each node visited costs a step, and a step for each
    neighbour it looks at, so the walk is bounded by the board and the budget
    whatever `steps` is.
    """
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
        raise ProgramError(f"reachable() needs a number of steps >= 0 in {where}")
    starts = _items(ctx, where, start) if isinstance(start, list | ZoneRef) else [start]
    halts = {option_id(n) for n in _items(ctx, where, stops)} if stops is not None else set()
    barred = {option_id(n) for n in _items(ctx, where, avoid)} if avoid is not None else set()
    blocked = ctx.data["blocked"]
    adjacency = ctx.model.adjacency
    found: list[Any] = []
    seen: set[Any] = set()
    frontier = list(dict.fromkeys(starts))
    expanded = set(frontier)
    for _ in range(steps):
        following = []
        for node in frontier:
            joined = adjacency.get(node, ())
            ctx.tick_many(1 + len(joined), where)  # the node, and each neighbour looked at (a hub's thousands)
            for n in joined:
                if n in seen or option_id(n) in barred or edge_key(node, n) in blocked:
                    continue
                seen.add(n)
                found.append(n)
                if n not in expanded and option_id(n) not in halts:
                    expanded.add(n)
                    following.append(n)
        if not following:
            break
        frontier = following
    return found


def _nodes_of_first(types: list[str]) -> str:
    if types and types[0].startswith("list:"):
        return types[0]
    return f"list:{types[0]}" if types else "list:any"


def uses(ctx: Ctx, where: str, action: Any, scope: Any = "turn") -> int:
    """How often an action was taken this turn, this visit of the stage, or in the game by `me` (for
    properties of limits: the engine counts every action, limited or not); an `anytime` action's uses
    this turn or visit are `me`'s own."""
    usage = ctx.data["flow"]["usage"]
    if scope == "game":
        return int(usage["game"].get(f"{action}@{ctx.me}", 0))
    if scope not in ("turn", "visit"):
        raise ProgramError(f"uses() counts per \"turn\", \"visit\" or \"game\", not {scope!r} in {where}")
    # The engine counts an `anytime` action per player (runtime.engine.usage_key), any other per turn or visit.
    return int(usage[scope].get(action, 0) + usage[scope].get(f"{action}@{ctx.me}", 0))


BUILTINS: dict[str, Builtin] = {
    "count": Builtin(count, 1, 2, _fixed("int"), "number of elements (of one item, if given)"),
    "sum": Builtin(total, 1, 1, _fixed("int"), "sum of a list of numbers"),
    "min": Builtin(minimum, 1, 2, _fixed("int"), "smallest number, or the default for an empty list"),
    "max": Builtin(maximum, 1, 2, _fixed("int"), "largest number, or the default for an empty list"),
    "lesser": Builtin(smaller, 2, 2, _fixed("int"), "the smaller of two numbers"),
    "greater": Builtin(larger, 2, 2, _fixed("int"), "the larger of two numbers"),
    "clamp": Builtin(clamp, 3, 3, _fixed("int"), "a number held within low..high"),
    "abs": Builtin(absolute, 1, 1, _fixed("int"), "absolute value"),
    "any": Builtin(any_of, 1, 1, _fixed("bool"), "whether any element is true"),
    "all": Builtin(all_of, 1, 1, _fixed("bool"), "whether every element is true"),
    "range": Builtin(make_range, 1, 2, _fixed("list:int"), "the numbers a..b-1 (or 0..a-1)"),
    "first": Builtin(first, 1, 1, _element_of_first, "the first element, or none"),
    "last": Builtin(last, 1, 1, _element_of_first, "the last element, or none"),
    "reverse": Builtin(reverse, 1, 1, _list_of_first, "the list backwards"),
    "distinct": Builtin(distinct, 1, 1, _list_of_first, "the list without repeats (as `==` tells them), in order"),
    "without": Builtin(without, 2, 2, _list_of_first, "the list less the first occurrence of an element"),
    "flatten": Builtin(flatten, 1, 1, _flattened_type, "the elements of a list of lists, in order"),
    "index_of": Builtin(index_of, 2, 2, _fixed("int"), "position of an element"),
    "sort": Builtin(sort, 1, 1, _list_of_first, "the list in increasing order"),
    "sort_by": Builtin(sort_by, 2, 2, _list_of_first, "the list ordered by a matching list of number keys"),
    "items": Builtin(items, 1, 1, _list_of_first, "the contents of a zone as a list"),
    "missing": Builtin(missing, 2, 2, _fixed("list:any"), "what a list needs that a zone lacks, with repeats"),
    "common": Builtin(common, 2, 2, _fixed("list:any"), "what a list needs that a zone holds, with repeats"),
    "contains_all": Builtin(contains_all, 2, 2, _fixed("bool"), "whether a zone holds every element of a list"),
    "free": Builtin(free, 1, 1, _fixed("int"), "capacity left in a zone"),
    "used": Builtin(used, 1, 1, _fixed("int"), "capacity used in a zone"),
    "capacity": Builtin(capacity, 1, 1, _fixed("int"), "capacity of a zone (-1 when unlimited)"),
    "size_of": Builtin(size_of, 2, 2, _fixed("int"), "room an item takes in a zone"),
    "slots": Builtin(slots, 1, 1, _fixed("list:any"), "the slots of a row, none where empty"),
    "adjacent": Builtin(adjacent, 1, 1, _same_as_first_list := (lambda t: f"list:{t[0]}" if t else "list:any"),
                        "nodes joined to a node by an open edge"),
    "neighbours": Builtin(neighbours, 1, 1, _same_as_first_list, "nodes joined to a node, blocked or not"),
    "reachable": Builtin(reachable, 2, 4, _nodes_of_first,
                         "nodes within `steps` open edges of a node (or nodes), nearest first; a path stops at "
                         "a node of `stops` and never enters one of `avoid`"),
    "edges": Builtin(edges, 0, 0, _fixed("list:list:any"), "every edge of the board as [a, b]"),
    "blocked": Builtin(is_blocked, 2, 2, _fixed("bool"), "whether the edge between two nodes is blocked"),
    "blocked_edges": Builtin(blocked_edges, 0, 0, _fixed("list:list:any"), "the blocked edges as [a, b]"),
    "next_player": Builtin(next_player, 1, 2, _fixed("player"), "the player `steps` seats clockwise (default 1)"),
    "previous_player": Builtin(previous_player, 1, 2, _fixed("player"), "the player `steps` seats counterclockwise (default 1)"),
    "players_from": Builtin(players_from, 1, 2, _fixed("list:player"),
                            "all players starting at one, \"clockwise\" or \"counterclockwise\""),
    "uses": Builtin(uses, 1, 2, _fixed("int"), "times an action was taken this \"turn\", \"visit\" or \"game\" (by me)"),
}
