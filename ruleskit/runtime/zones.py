"""Moving items between zones: stacks, rows of slots and pools of tokens.

Capacities and piece sizes are enforced here, so no effect can overfill a
zone whatever the pack's rules say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ProgramError, RuleViolation
from ..model import ZoneRef
from . import rng
from .context import MAX_DEPTH
from .values import INFINITE, MAX_ZONE_ITEMS, label_of

if TYPE_CHECKING:
    from .context import Ctx


def item_size(ctx: Ctx, ref: ZoneRef, item: str) -> int:
    size_field = ctx.model.zones[ref.name].size
    if size_field is None:
        return 1
    return int(ctx.model.item_data[item].get(size_field) or 0)


# Reading a zone whole (a stack's or a row's pieces compared one by one, a row's slots, a pool's table)
# costs a step per entry read: counting a stack of 30,000 cards for one step, in a loop, took minutes.
# A stack's count is its length, read at once.


def amount(ctx: Ctx, ref: ZoneRef, item: Any, where: str) -> int:
    """How many of `item` the zone holds."""
    zone = ctx.model.zones[ref.name]
    content = ctx.data["z"][ref.key]
    if zone.type == "pool":
        return INFINITE if zone.unlimited else int(content.get(item, 0))
    ctx.tick_many(len(content), where)
    return content.count(item)


def held(ctx: Ctx, ref: ZoneRef, where: str) -> int:
    """How many pieces the zone holds (`count(zone)`)."""
    zone = ctx.model.zones[ref.name]
    content = ctx.data["z"][ref.key]
    if zone.type == "stack":
        return len(content)
    ctx.tick_many(len(content), where)
    if zone.type == "pool":
        return sum(content.values())
    return len(content) - content.count(None)


def used(ctx: Ctx, ref: ZoneRef, where: str) -> int:
    return _used(ctx, ctx.model.zones[ref.name], ref, where)


def _used(ctx: Ctx, zone: Any, ref: ZoneRef, where: str) -> int:
    content = ctx.data["z"][ref.key]
    if zone.type == "stack" and zone.size is None:
        return len(content)
    if zone.type == "pool" and zone.unlimited:
        return 0
    ctx.tick_many(len(content), where)
    if zone.type == "pool":
        if zone.size is None:
            return sum(content.values())
        try:
            sizes = ctx.model.item_sizes(zone.size)
            total = 0
            for item, count in content.items():  # a loop, not a list made to be summed: asked at every listing
                total += count * sizes[item]
            return total
        except KeyError:  # a size that is not a plain int: worked out, and refused, as it always was
            items = ctx.model.item_data
            return sum(count * _size(items, item, zone.size) for item, count in content.items())
    if zone.size is None:  # every piece takes one place
        return len(content) - content.count(None)
    # Asked for each place a listing tries: the sizes are looked up in a table made once per pack.
    try:
        sizes = ctx.model.item_sizes(zone.size)
        return sum([sizes[item] for item in content if item is not None])
    except KeyError:
        items = ctx.model.item_data
        return sum(_size(items, item, zone.size) for item in content if item is not None)


def _size(items: dict[str, Any], item: str, field: str) -> int:
    return int(items[item].get(field) or 0)


def capacity(ctx: Ctx, ref: ZoneRef) -> int | None:
    return _capacity(ctx, ctx.model.zones[ref.name], ref)


def _capacity(ctx: Ctx, zone: Any, ref: ZoneRef) -> int | None:
    if zone.type == "row":
        return zone.slots if zone.capacity is None else _capacity_value(ctx, zone, ref)
    if zone.capacity is None:
        return None
    return _capacity_value(ctx, zone, ref)


def _capacity_value(ctx: Ctx, zone: Any, ref: ZoneRef) -> int:
    fixed = zone.capacity
    if type(fixed) is int:  # a number in the pack: nothing to evaluate
        return fixed
    fn = ctx.program.capacities[ref.name]
    saved = ctx.me
    owner = ref.owner  # a player's zone names its seat; an item's zone, the item, whose owner is looked up
    if type(owner) is not int:
        owner = ctx.model.zone_owner_player(ref.key) if owner is not None else None
    if owner is not None:  # a capacity like "me.holds" reads the owning player
        ctx.me = owner
    # A capacity that asks for its own zone's room (`free(z)` in z's capacity, or through rules) nests as
    # calls do, to the same limit, and the error names the capacity.
    ctx.depth += 1
    try:
        if ctx.depth > MAX_DEPTH:
            ctx.too_deep(_capacity_where(ctx, ref))
        value = fn(ctx)
    finally:
        ctx.me = saved
        ctx.depth -= 1
    if not isinstance(value, int):  # as the pack's own check at load says it (a truth value counts as 0 or 1)
        raise ProgramError(f"{_capacity_where(ctx, ref)} should give a number, not {label_of(ctx.model, value)}")
    return int(value)


def _capacity_where(ctx: Ctx, ref: ZoneRef) -> str:
    return ctx.program.capacity_wheres.get(ref.name, f"capacity of zone {ref.name}")


def free(ctx: Ctx, ref: ZoneRef, where: str) -> int:
    """`free(zone)`: the room left. Asked for each place a listing tries, so the room a pool whose pieces have
    sizes takes is written out here rather than called: `_used` works it out the same way, with the same steps
    and errors."""
    try:
        zone = ctx.model.zones[ref.name]
        cap = zone.capacity
        if type(cap) is not int:  # a number in the pack is the capacity itself
            if cap is None:
                if zone.type != "row":
                    return INFINITE
                cap = zone.slots
            else:
                cap = _capacity_value(ctx, zone, ref)
        if zone.type == "pool" and not zone.unlimited and zone.size is not None:  # `_used` of such a pool
            content = ctx.data["z"][ref.key]
            if content:  # `ctx.tick_many`, written out
                ctx.steps += len(content)
                if ctx.steps > ctx.budget:
                    ctx.steps -= 1
                    ctx.tick(where)
            try:
                sizes = ctx.model.item_sizes(zone.size)
                total = 0
                for item, count in content.items():
                    total += count * sizes[item]
                return cap - total
            except KeyError:
                items = ctx.model.item_data
                return cap - sum(count * _size(items, item, zone.size) for item, count in content.items())
        return cap - _used(ctx, zone, ref, where)
    except (TypeError, ValueError):  # a capacity worked out to a value of the wrong kind, say
        raise ProgramError(f"free() cannot take ({label_of(ctx.model, ref)}) in {where}") from None


def remove(ctx: Ctx, ref: ZoneRef, item: Any, count: int, where: str) -> None:
    zone = ctx.model.zones[ref.name]
    if count < 0:
        raise ProgramError(f"cannot move a negative number of items in {where}")
    if zone.type == "pool" and zone.unlimited:
        return
    content = ctx.own("z", ref.key)
    if zone.type == "pool":
        have = content.get(item, 0)
        if have < count:
            # A refusal may be told to everyone (a simultaneous pick's): a pool not all may see keeps its count.
            held = f"{have} {label_of(ctx.model, item)}, not {count}" if zone.visible == "all" else \
                f"fewer than {count} {label_of(ctx.model, item)}"
            raise RuleViolation(f"{_label(ctx, ref)} holds {held}")
        content[item] = have - count
        return
    for _ in range(count):
        try:
            index = content.index(item)
        except ValueError:
            raise RuleViolation(f"{label_of(ctx.model, item)} is not in {_label(ctx, ref)}") from None
        if index:  # read down to the item: a step for each piece or slot above it (80,000 moves out from under
            ctx.tick_many(index, where)  # 99,999 pieces took 83 s within the budget)
        if zone.type == "row":
            content[index] = None
        else:
            del content[index]


def add(ctx: Ctx, ref: ZoneRef, item: Any, count: int, top: bool, where: str) -> None:
    zone = ctx.model.zones[ref.name]
    if item is None:
        raise ProgramError(f"cannot put none into a zone in {where}")
    if zone.of and ctx.model.item_kind.get(item) != zone.of:
        raise ProgramError(f"{label_of(ctx.model, item)} is not a {zone.of} and cannot go into {_label(ctx, ref)}"
                           f" in {where}")
    content = ctx.data["z"][ref.key] if zone.type == "pool" and zone.unlimited else ctx.own("z", ref.key)
    if zone.type == "pool":
        if not zone.unlimited:
            content[item] = content.get(item, 0) + count
    elif zone.type == "row":
        for _ in range(count):
            if None not in content:
                raise RuleViolation(f"{_label(ctx, ref)} has no empty slot")
            index = content.index(None)
            if index:  # the slots read before the first empty one
                ctx.tick_many(index, where)
            content[index] = item
    elif count > 0:
        # Refused before the pieces are put, not after: a count written in a pack may be far too great to put.
        fixed = zone.capacity
        if type(fixed) is int and zone.size is None and len(content) + count > fixed:  # a stack holds no none
            raise _full(ctx, ref, fixed)
        if len(content) + count > MAX_ZONE_ITEMS:
            raise _past_limit(ctx, ref, where)
        for _ in range(count):
            if top:
                content.insert(0, item)
            else:
                content.append(item)
    if zone.capacity is not None or zone.type == "row":  # else nothing limits what the zone holds
        check_room(ctx, ref, where)


def draws(ctx: Ctx, src: ZoneRef, dst: ZoneRef, count: int, where: str) -> int:
    """How many times `draw count from src to dst` takes the front piece of `src`, to the same effect; the
    pieces it will draw are counted as steps, the statement's own the first.

    A draw into the stack it takes from turns the stack (or, onto its top, leaves it as it is): every
    `len` draws bring it back, so only `count % len` are made, however great the count a pack wrote.
    Between two stacks, drawing stops once the source is empty.
    """
    held = len(ctx.data["z"][src.key])
    if src.key == dst.key and count > 0:
        count = count % held if held else 0
    ctx.tick_many(min(count, held) - 1, where)
    return count


def shuffle(ctx: Ctx, ref: ZoneRef, where: str) -> None:
    """`shuffle ZONE`: a stack's pieces in a new order drawn from the game's stream, a step for each piece (the
    statement's own the first), and the order in the job's chance outcomes."""
    if ctx.model.zones[ref.name].type != "stack":
        raise ProgramError(f"only stacks can be shuffled in {where}")
    ctx.tick_many(len(ctx.data["z"][ref.key]) - 1, where)
    content = ctx.own("z", ref.key)
    content[:] = rng.shuffled(ctx.data, content)
    ctx.chance.append({"shuffle": ref.key, "order": list(content)})


def check_fill(ctx: Ctx, ref: ZoneRef, where: str) -> None:
    """Refuse a stack just put on past its capacity or past the most pieces a stack holds."""
    check_room(ctx, ref, where)
    if len(ctx.data["z"][ref.key]) > MAX_ZONE_ITEMS:
        raise _past_limit(ctx, ref, where)


def check_room(ctx: Ctx, ref: ZoneRef, where: str) -> None:
    """Refuse what has just overfilled the zone (the job's data is then dropped, as after any refusal)."""
    zone = ctx.model.zones[ref.name]
    cap = _capacity(ctx, zone, ref)
    if cap is not None and _used(ctx, zone, ref, where) > cap:
        raise _full(ctx, ref, cap)


def _full(ctx: Ctx, ref: ZoneRef, cap: int) -> RuleViolation:
    return RuleViolation(f"{_label(ctx, ref)} is full (capacity {cap})")


def _past_limit(ctx: Ctx, ref: ZoneRef, where: str) -> ProgramError:
    return ProgramError(f"{_label(ctx, ref)} cannot hold more than {MAX_ZONE_ITEMS} pieces, in {where}")


def move(ctx: Ctx, src: ZoneRef, dst: ZoneRef, what: Any, count: int | None, top: bool, where: str) -> None:
    """`move [count of] what from src to dst`: `count` of one kind of token, else each item of `what`."""
    if count is not None:
        if count == 0:
            return
        remove(ctx, src, what, count, where)
        add(ctx, dst, what, count, top, where)
        return
    if isinstance(what, list):
        # A piece moved is a step (the statement's own is the first): a thousand cards are not moved for one.
        ctx.tick_many(len(what) - 1, where)
    else:
        what = [what]
    for item in what:
        remove(ctx, src, item, 1, where)
        add(ctx, dst, item, 1, top, where)


def _label(ctx: Ctx, ref: ZoneRef) -> str:
    zone = ctx.model.zones[ref.name]
    name = zone.label or ref.name
    if ref.owner is None:
        return name
    if isinstance(ref.owner, int):
        return f"Player {ref.owner + 1}'s {name}"
    return f"{ctx.model.item_data[ref.owner]['name']}'s {name}"


def initial_content(ctx_model: Any, zone_name: str) -> Any:
    """The content a zone starts a game with."""
    zone = ctx_model.zones[zone_name]
    if zone.type == "pool":
        counts = {item: 0 for item in ctx_model.items_of(zone.of)} if zone.of else {}
        if isinstance(zone.start, dict):
            counts.update(zone.start)
        return counts
    if zone.type == "row":
        slots: list[Any] = [None] * zone.slots
        for i, item in enumerate(zone.start or []):
            slots[i] = item
        return slots
    return list(zone.start or [])
