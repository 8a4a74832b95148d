"""Where the pieces a scenario places in zones come from.

A scenario writes the contents of some zones over what the pack's setup left in them. A piece it adds to a
zone is taken out of the zone setup put it in, as a player's move would take it, unless the scenario writes
that zone too (then its list stands as written); what a zone gives up takes the place of what it gained. So
a card written in a hand is no longer also in the deck, and goods written in a player's pool leave the supply.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .model import Model


def held(content: Any, item: str) -> int:
    """How many of `item` a zone's content holds: the counts of a pool, the occurrences in a stack or row."""
    if isinstance(content, dict):
        return int(content.get(item, 0))
    return sum(1 for piece in content if piece == item)


def _pieces(content: Any) -> set[str]:
    if isinstance(content, dict):
        return {item for item, count in content.items() if count}
    return {piece for piece in content if piece is not None}


_HOLE = object()  # a place a piece was taken from, until a piece the scenario displaced fills it


def _fits(model: Model, key: str, item: str) -> bool:
    kind = model.zones[key.partition("@")[0]].of
    return not kind or model.item_kind.get(item) == kind


def balance_zones(model: Model, before: dict[str, Any], zones: dict[str, Any],
                  written: dict[str, set[str] | None]) -> list[str]:
    """Balance the pieces the `written` zones gained and lost against the other zones, changed in place.
    `before` is each zone's content after setup, `zones` the contents with the scenario's written over it;
    `written` names each zone the scenario writes, with the pieces it lists for a pool (None: the whole zone).

    A piece a written zone gains is taken from the other zone that held the most of it after setup (for a
    piece with an id, the one zone that held it). A piece it loses, and no written zone gains, fills a place
    its own gained pieces were taken from (it is swapped with them), or else goes back to the one other pool
    that held it. Returns what could not be balanced so, one note a piece."""
    change: Counter[str] = Counter()
    gainer: dict[str, str] = {}
    loser: dict[str, str] = {}
    for key, listed in written.items():
        for item in sorted(_pieces(before[key]) | _pieces(zones[key]) if listed is None else listed):
            delta = held(zones[key], item) - held(before[key], item)
            change[item] += delta
            if delta:
                (gainer if delta > 0 else loser).setdefault(item, key)

    def others(item: str) -> list[str]:  # the zones the scenario leaves to setup for this piece
        return [key for key in zones if key not in written or item not in (written[key] or (item,))]

    vacated: dict[str, list[tuple[str, int]]] = {}
    notes = []
    for item, delta in change.items():
        if delta <= 0:
            continue
        where = f"zone '{gainer[item]}'"
        sources = sorted((key for key in others(item) if held(before[key], item)), key=lambda k: -held(before[k], item))
        if not sources:
            notes.append(f"{where} gains {delta} '{item}', which setup left in no zone the scenario does not write")
            continue
        source = sources[0]
        content = zones[source]
        if held(content, item) < delta:
            notes.append(f"{where} gains {delta} '{item}', more than '{source}', where setup put it, holds")
        elif isinstance(content, dict):
            content[item] -= delta
        else:
            for _ in range(delta):
                index = content.index(item)
                content[index] = _HOLE
                vacated.setdefault(gainer[item], []).append((source, index))
    for item, delta in change.items():
        if delta >= 0:
            continue
        zone = loser[item]
        for _ in range(-delta):
            places = vacated.get(zone, [])
            place = next((p for p in places if _fits(model, p[0], item)), None)
            pools = [key for key in others(item) if isinstance(zones[key], dict) and held(before[key], item)]
            if place is not None:
                places.remove(place)
                zones[place[0]][place[1]] = item
            elif len(pools) == 1:
                zones[pools[0]][item] += 1
            else:
                notes.append(f"zone '{zone}' loses {-delta} '{item}', which the scenario puts in no other zone")
                break
    for key in {source for places in vacated.values() for source, _ in places}:
        if model.zones[key.partition("@")[0]].type == "row":
            zones[key] = [None if piece is _HOLE else piece for piece in zones[key]]
        else:
            zones[key] = [piece for piece in zones[key] if piece is not _HOLE]
    return notes
