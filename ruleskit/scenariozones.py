"""Where the pieces a scenario places in zones come from.

A scenario writes the contents of some zones over what the pack's setup left in them. A piece it adds to a
zone is taken out of the zone setup put it in, as a player's move would take it, unless the scenario writes
that zone too (then its list stands as written); what a zone gives up takes the place of what it gained. So
a card written in a hand is no longer also in the deck, and goods written in a player's pool leave the supply.
An unlimited pool gives and takes any number, its counts unchanged, as in play.

The work is linear in the pieces of all zones: a zone may hold 100,000 pieces, and finding each piece taken
by a scan of its zone took minutes for a hand written with half of a big deck.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any, NamedTuple

from .model import Model


class Note(NamedTuple):
    """A piece a written zone gained or lost that could not be balanced against the zones left to setup;
    `lost` counts the pieces it left in no zone."""
    zone: str
    text: str
    lost: int = 0


def held(content: Any, item: str) -> int:
    """How many of `item` a zone's content holds: the counts of a pool, the occurrences in a stack or row."""
    if isinstance(content, dict):
        return int(content.get(item, 0))
    return sum(1 for piece in content if piece == item)


def counts(content: Any) -> dict[str, int]:
    """How many of each piece a zone's content holds (counts of 0 included for a pool)."""
    if isinstance(content, dict):
        return content
    return Counter(piece for piece in content if piece is not None)


_HOLE = object()  # a place a piece was taken from, until a piece the scenario displaced fills it
_ENDLESS = float("inf")  # what an unlimited pool holds of any piece of its kind


class _Vacated:
    """The places a written zone's gained pieces were taken from, in the order taken, by the kind their zone
    holds ("": any): a piece the zone lost fills the first place of a zone that may hold it."""

    def __init__(self) -> None:
        self.by_kind: dict[str, deque[tuple[int, str, int]]] = {}
        self.taken = 0

    def add(self, of: str, source: str, index: int) -> None:
        self.by_kind.setdefault(of, deque()).append((self.taken, source, index))
        self.taken += 1

    def take(self, kind: str) -> tuple[str, int] | None:
        heads = [queue for queue in (self.by_kind.get(""), self.by_kind.get(kind)) if queue]
        if not heads:
            return None
        _, source, index = min(heads, key=lambda queue: queue[0][0]).popleft()
        return source, index


def balance_zones(model: Model, before: dict[str, Any], zones: dict[str, Any],
                  written: dict[str, set[str] | None]) -> list[Note]:
    """Balance the pieces the `written` zones gained and lost against the other zones, changed in place.
    `before` is each zone's content after setup, `zones` the contents with the scenario's written over it;
    `written` names each zone the scenario writes, with the pieces it lists for a pool (None: the whole zone).

    A piece a written zone gains is taken from the other zone that held the most of it after setup (for a
    piece with an id, the one zone that held it), or from an unlimited pool of its kind, which gives any number,
    when no other zone held it. A piece it loses, and no written zone gains, fills a place its own gained
    pieces were taken from (it is swapped with them), or else goes back to the one other pool that held it, or
    to an unlimited pool of its kind. Returns what could not be balanced so, one note a piece."""
    change: Counter[str] = Counter()
    gainer: dict[str, str] = {}
    loser: dict[str, str] = {}
    for key, listed in written.items():
        old, new = counts(before[key]), counts(zones[key])
        pieces = {item for item, count in old.items() if count} | {item for item, count in new.items() if count}
        for item in sorted(pieces if listed is None else listed):
            delta = new.get(item, 0) - old.get(item, 0)
            change[item] += delta
            if delta:
                (gainer if delta > 0 else loser).setdefault(item, key)

    holders: dict[str, list[tuple[str, float]]] = {}  # each piece's zones after setup, in the zones' order
    endless: dict[str, list[str]] = {}  # the unlimited pools of each kind ("": of any kind)
    for key, content in before.items():
        defined = model.zones[key.partition("@")[0]]
        if defined.type == "pool" and defined.unlimited:
            endless.setdefault(defined.of, []).append(key)
            continue
        for item, count in counts(content).items():
            if count:
                holders.setdefault(item, []).append((key, count))

    def left_to_setup(key: str, item: str) -> bool:
        if key not in written:
            return True
        listed = written[key]  # a pool's listed pieces (even none) are written, the others left to setup
        return listed is not None and item not in listed

    def others(item: str) -> list[tuple[str, float]]:  # the zones left to setup for this piece that hold it
        kind = model.item_kind.get(item, "")
        pools = [(key, _ENDLESS) for of in ("", kind) for key in endless.get(of, ())]
        return [(key, count) for key, count in sorted(pools) + holders.get(item, []) if left_to_setup(key, item)]

    positions: dict[str, dict[str, deque[int]]] = {}  # a source stack's or row's places of each piece
    vacated: dict[str, _Vacated] = {}
    notes = []
    for item, delta in change.items():
        if delta <= 0:
            continue
        where = f"zone '{gainer[item]}'"
        # The zone that holds the most of it after setup; an unlimited pool only when no other zone holds it:
        # it is where extra pieces come from, not where setup put them (a game's reserve beside its supply).
        homes = others(item)
        sources = sorted((home for home in homes if home[1] != _ENDLESS), key=lambda home: -home[1]) or homes
        if not sources:
            notes.append(Note(gainer[item], f"{where} gains {delta} '{item}', which setup left in no zone the "
                                            "scenario does not write"))
            continue
        source = sources[0][0]
        content = zones[source]
        if sources[0][1] == _ENDLESS:
            continue  # taking from an unlimited pool leaves its counts as they are
        if isinstance(content, dict):
            if held(content, item) < delta:
                notes.append(Note(gainer[item], f"{where} gains {delta} '{item}', more than '{source}', where "
                                                "setup put it, holds"))
            else:
                content[item] -= delta
            continue
        if source not in positions:
            positions[source] = {}
            for index, piece in enumerate(content):
                positions[source].setdefault(piece, deque()).append(index)
        places = positions[source].get(item, deque())
        if len(places) < delta:
            notes.append(Note(gainer[item], f"{where} gains {delta} '{item}', more than '{source}', where setup "
                                            "put it, holds"))
            continue
        of = model.zones[source.partition("@")[0]].of
        for _ in range(delta):
            index = places.popleft()
            content[index] = _HOLE
            vacated.setdefault(gainer[item], _Vacated()).add(of, source, index)
    for item, delta in change.items():
        if delta >= 0:
            continue
        zone = loser[item]
        room = vacated.get(zone, _Vacated())
        kind = model.item_kind.get(item, "")
        homes = others(item)
        discard = any(count == _ENDLESS for _, count in homes)
        pools = [key for key, count in homes if count != _ENDLESS and isinstance(zones[key], dict)]
        for placed in range(-delta):
            place = room.take(kind)
            if place is not None:
                zones[place[0]][place[1]] = item
            elif len(pools) == 1:
                zones[pools[0]][item] += 1
            elif discard:
                break  # putting into an unlimited pool leaves its counts as they are
            else:
                notes.append(Note(zone, f"zone '{zone}' loses {-delta} '{item}', which the scenario puts in no "
                                        "other zone", lost=-delta - placed))
                break
    for key in positions:
        if model.zones[key.partition("@")[0]].type == "row":
            zones[key] = [None if piece is _HOLE else piece for piece in zones[key]]
        else:
            zones[key] = [piece for piece in zones[key] if piece is not _HOLE]
    return notes


def extra_pieces(model: Model, before: dict[str, Any], zones: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The pieces the zones hold more of than they did after setup, as (item, now, after setup): a game
    moves pieces and never copies them, save out of an unlimited pool of their kind."""
    endless = {model.zones[key.partition("@")[0]].of for key in zones
               if model.zones[key.partition("@")[0]].type == "pool" and model.zones[key.partition("@")[0]].unlimited}
    had: Counter[str] = Counter()
    now: Counter[str] = Counter()
    for total, contents in ((had, before), (now, zones)):
        for key, content in contents.items():
            zone = model.zones[key.partition("@")[0]]
            if not (zone.type == "pool" and zone.unlimited):
                total.update(counts(content))
    return [(item, count, had[item]) for item, count in now.items()
            if count > had[item] and "" not in endless and model.item_kind.get(item) not in endless]
