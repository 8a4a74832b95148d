"""Items shown by their face only: zones with a `shows` expression.

An item's id names all of its static fields, so a view that lists the id of a
two-sided card shows both sides. A zone with `shows` (an expression over `it`,
the item) lists the items a viewer is shown as anonymous tokens
`{"shows": value}` instead: the top of a `top` stack, or every item of an
`all` zone. Only the owner of an `owner` zone still sees ids. The vars of an
item of such a kind are left out of a view wherever its id is not shown, so
they cannot tie a token to an id either.

A determinized copy may then exchange the item behind a token for any hidden
item of its group that shows the same token there; a zone with
`redraw = "self"` keeps its hidden items to itself (a card never crosses into
a pile it could not be in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import rng
from .context import Ctx
from .data import copy_data
from .visibility import sees, zone_owner

if TYPE_CHECKING:
    from ..model import Model
    from .program import Program

TOKEN = "shows"


def uses_faces(model: Model) -> bool:
    """Whether any zone shows faces or redraws by itself (the plain paths serve every other pack)."""
    return any(zone.shows is not None or zone.redraw != "kind" for zone in model.zones.values())


def faces_context(program: Program, data: dict[str, Any]) -> Ctx:
    """The context the `shows` expressions of one view or one redraw run on: one step budget for all of them
    (3,000 cards face up, each with a fresh budget, took a view 20 s)."""
    return Ctx(program, data, data["flow"]["active"])


def token(program: Program, data: dict[str, Any], zone_name: str, item: str, ctx: Ctx | None = None
          ) -> dict[str, Any]:
    """What a viewer who may not see `item`'s id sees of it in zone `zone_name` (on `ctx`, if given)."""
    if ctx is None:
        ctx = faces_context(program, data)
    ctx.env = {"it": item}
    return {TOKEN: copy_data(program.shows[zone_name](ctx))}


def is_token(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {TOKEN}


def exposure(model: Model, key: str, viewer: int) -> str:
    """How `viewer` is shown zone `key`'s items.

    "ids": every item by id; "tokens": every item as a token; "top": the first
    item by id and the rest hidden; "top-token": the first as a token and the
    rest hidden; "hidden": none.
    """
    zone = model.zones[key.partition("@")[0]]
    owner = zone_owner(model, key)
    if sees(zone.visible, owner, viewer):
        return "tokens" if zone.shows is not None and zone.visible == "all" else "ids"
    if zone.visible == "top":
        return "top-token" if zone.shows is not None else "top"
    return "hidden"


def shown_kinds(model: Model) -> set[str]:
    return {zone.of for zone in model.zones.values() if zone.shows is not None}


def items_seen_by_id(model: Model, data: dict[str, Any], viewer: int) -> tuple[set[str], set[str]]:
    """(items in some zone, items of those the viewer sees by id), over stacks and rows."""
    placed: set[str] = set()
    seen: set[str] = set()
    for key, content in data["z"].items():
        if isinstance(content, dict):
            continue
        items = [item for item in content if item is not None]
        placed.update(items)
        mode = exposure(model, key, viewer)
        if mode == "ids":
            seen.update(items)
        elif mode == "top" and content:
            seen.add(content[0])
    return placed, seen


def hidden_items(model: Model, data: dict[str, Any], viewer: int) -> set[str]:
    """Items of a kind some zone shows by face that lie where `viewer` does not see their id."""
    kinds = shown_kinds(model)
    placed, seen = items_seen_by_id(model, data, viewer)
    return {item for item in placed - seen if model.item_kind.get(item) in kinds}


def shown_zone(program: Program, data: dict[str, Any], key: str, viewer: int, ctx: Ctx) -> Any:
    """A `shows` zone as `viewer` sees it, or None when the plain rules apply (ids, or nothing but a count);
    its faces worked out on `ctx` (`faces_context`)."""
    model = program.model
    name = key.partition("@")[0]
    if model.zones[name].shows is None:
        return None
    content = data["z"][key]
    mode = exposure(model, key, viewer)
    if mode == "tokens":
        return [token(program, data, name, item, ctx) if item is not None else None for item in content]
    if mode == "top-token":
        return {"hidden": True, "count": sum(1 for x in content if x is not None),
                "top": token(program, data, name, content[0], ctx) if content and content[0] is not None else None}
    return None


# ---------------------------------------------------------------- determinization


def redeal(program: Program, data: dict[str, Any], viewer: int) -> int:
    """Redraw what `viewer` cannot see, keeping every token the viewer is shown, in place; the work it took (the
    places looked at, the tokens compared and the steps of the `shows` expressions it ran)."""
    model = program.model
    ctx = faces_context(program, data)
    groups: dict[str, tuple[list[tuple[str, int]], list[tuple[str, int, Any]]]] = {}
    for key in sorted(data["z"]):
        name = key.partition("@")[0]
        zone = model.zones[name]
        content = data["z"][key]
        if zone.type == "pool":
            continue
        mode = exposure(model, key, viewer)
        if mode == "ids":
            continue
        hidden, shown = groups.setdefault(key if zone.redraw == "self" else zone.of, ([], []))
        first_hidden = 0
        if mode in ("top", "top-token"):
            first_hidden = 1
            if mode == "top-token" and content and content[0] is not None:
                shown.append((key, 0, token(program, data, name, content[0], ctx)))
        if mode == "tokens":
            shown += [(key, i, token(program, data, name, item, ctx)) for i, item in enumerate(content)
                      if item is not None]
            continue
        hidden += [(key, i) for i in range(first_hidden, len(content)) if content[i] is not None]
    work = sum(len(content) for content in data["z"].values())
    for hidden, shown in groups.values():
        work += _redeal_group(program, data, hidden, shown, ctx)
    return work + ctx.steps


def _redeal_group(program: Program, data: dict[str, Any], hidden: list[tuple[str, int]],
                  shown: list[tuple[str, int, Any]], ctx: Ctx) -> int:
    """Redraw one group of places; the tokens it compared."""
    zones = data["z"]
    places = [(key, i) for key, i in hidden] + [(key, i) for key, i, _ in shown]
    if len(places) < 2:
        return 0
    # Sorted first, so the copy depends only on what the viewer knows, not on the hidden order.
    pool = rng.shuffled(data, sorted(zones[key][i] for key, i in places))
    picked, compared = _match_tokens(program, data, pool, shown, ctx)
    if picked is None:  # no consistent exchange found this way: the shown items stay where they are
        picked = [zones[key][i] for key, i, _ in shown]
        for item in picked:
            pool.remove(item)
    for (key, i, _), item in zip(shown, picked, strict=True):
        zones[key][i] = item
    for key, i in hidden:
        zones[key][i] = pool.pop()
    return compared


def _match_tokens(program: Program, data: dict[str, Any], pool: list[str],
                  shown: list[tuple[str, int, Any]], ctx: Ctx) -> tuple[list[str] | None, int]:
    """For each shown place, the first item of `pool` that shows the same token there (removed from the pool),
    and the tokens compared (a search's copies count them as work: `State.work`)."""
    remaining = list(pool)
    picked = []
    compared = 0
    faces: dict[tuple[str, str], Any] = {}  # each item's token in each zone, worked out once

    def face(name: str, item: str) -> Any:
        if (name, item) not in faces:
            faces[name, item] = token(program, data, name, item, ctx)
        return faces[name, item]

    for key, _, wanted in shown:
        name = key.partition("@")[0]
        match = None
        for item in remaining:
            compared += 1
            if face(name, item) == wanted:
                match = item
                break
        if match is None:
            return None, compared
        remaining.remove(match)
        picked.append(match)
    pool[:] = remaining
    return picked, compared
