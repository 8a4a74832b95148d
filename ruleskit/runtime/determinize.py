"""Replacing what one player cannot know with a guess, for search without peeking.

A bot that looks ahead on a copy of the real state would see the true deck
order, the other players' hidden hands and counters, and the outcomes the
random stream will produce next. `determinize` makes a copy fair: the random
stream is re-seeded from the bot's own seed, the items in zones hidden from
the viewer are shuffled among those zones (each keeps its size), and every var
the viewer may not see (a game's, a player's, its own `visible = "none"` ones
included, or an item's) is reset to its start value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..limits import MAX_ZONE_ITEMS
from . import rng
from .engine import start_value
from .faces import redeal, uses_faces
from .visibility import hidden_from_index, sees, zone_owner

if TYPE_CHECKING:
    from ..model import Model
    from .program import Program


def determinize(model: Model, data: dict[str, Any], viewer: int, seed: int, program: Program | None = None) -> int:
    """Re-seed the stream and redraw everything hidden from `viewer`, in place; the work it took, in steps (a
    search counts it as its copies' work: a redraw of 99,999 hidden pieces is not one step)."""
    data["rng"] = rng.seed_state(seed)
    if program is not None and uses_faces(model):
        work = redeal(program, data, viewer)  # tokens shown stay shown; `redraw = "self"` zones keep to themselves
    else:
        work = _redeal_hidden_zones(model, data, viewer)
    work += _redeal_hidden_pools(model, data, viewer)
    simul = data["flow"].get("simul")
    if simul is not None:  # others' secret picks are unknown to the viewer: in the copy they have not picked yet
        simul["picks"] = {seat: pick for seat, pick in simul["picks"].items() if seat == str(viewer)}
    return work + _reset_hidden_vars(model, data, viewer)


def _redeal_hidden_pools(model: Model, data: dict[str, Any], viewer: int) -> int:
    """Redraw the tokens of the pools hidden from `viewer` among the hidden pools of their kind, each keeping
    its count (a copy kept every hidden bag's true tokens); the tokens handled. A group of more tokens than a
    zone may hold is left as it is: its tokens would not fit in a list to shuffle."""
    groups: dict[str, list[str]] = {}
    for key in sorted(data["z"]):
        zone = model.zones[key.partition("@")[0]]
        if zone.type == "pool" and not zone.unlimited and not sees(zone.visible, zone_owner(model, key), viewer):
            groups.setdefault(key if zone.redraw == "self" else zone.of, []).append(key)
    work = 0
    for keys in groups.values():
        if len(keys) < 2:
            continue  # one pool's tokens have nowhere else to go
        pools = [data["z"][key] for key in keys]
        total = sum(count for pool in pools for count in pool.values())
        work += len(keys)
        if total > MAX_ZONE_ITEMS:
            continue
        work += total
        # Sorted first, so the copy depends only on what the viewer knows, not on which pool holds what.
        tokens = rng.shuffled(data, sorted(item for pool in pools for item, count in pool.items()
                                           for _ in range(count)))
        for key, pool in zip(keys, pools, strict=True):
            size = sum(pool.values())
            redrawn = {item: 0 for item in pool}
            for _ in range(size):
                item = tokens.pop()
                redrawn[item] = redrawn.get(item, 0) + 1
            data["z"][key] = redrawn
    return work


def _reset_hidden_vars(model: Model, data: dict[str, Any], viewer: int) -> int:
    """Reset every var `viewer` may not see to its start value; the item vars it looked at (a copy kept a hidden
    game var, an item's hidden var and the viewer's own `visible = "none"` var as they truly were)."""
    for name, var in model.game_vars.items():
        if not sees(var.visible, None, viewer) and name in data["v"]:
            data["v"][name] = start_value(var)
    for p, values in enumerate(data["pv"]):
        for name, var in model.player_vars.items():
            if not sees(var.visible, p, viewer) and name in values:
                values[name] = start_value(var)
    hiding = {kind_name for kind_name, kind in model.kinds.items()
              if any(var.visible != "all" for var in kind.vars.values())}
    if not hiding:
        return 0
    work = 0
    for item, values in data["ev"].items():
        kind_name = model.item_kind[item]
        if kind_name not in hiding:
            continue
        owner = model.item_data[item].get("owner")
        for name, var in model.kinds[kind_name].vars.items():
            work += 1
            if not sees(var.visible, owner if isinstance(owner, int) else None, viewer) and name in values:
                values[name] = start_value(var)
    return work


def _redeal_hidden_zones(model: Model, data: dict[str, Any], viewer: int) -> int:
    # Zones are grouped by the kind they hold: a hidden card may be in any hidden zone of its kind.
    # A zone that shows its top item keeps it: only what lies under it is redrawn.
    groups: dict[str, list[tuple[str, int]]] = {}
    for key in sorted(data["z"]):
        zone = model.zones[key.partition("@")[0]]
        if zone.type != "pool" and not sees(zone.visible, zone_owner(model, key), viewer):
            groups.setdefault(zone.of, []).append((key, hidden_from_index(zone.visible)))
    work = sum(len(content) for content in data["z"].values())  # the pieces copied and looked at
    for keys in groups.values():
        pooled = [item for key, start in keys for item in data["z"][key][start:] if item is not None]
        work += len(pooled)
        if len(pooled) < 2:
            continue
        # Sorted first, so the copy depends only on what the viewer knows, not on the hidden order.
        pooled = rng.shuffled(data, sorted(pooled))
        for key, start in keys:
            content = data["z"][key]
            for i in range(start, len(content)):
                if content[i] is not None:
                    content[i] = pooled.pop()
    return work
