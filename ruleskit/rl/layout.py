"""A fixed-length numeric observation for any pack, built from `State.view(player)`.

The layout depends only on the pack's model and the number of players, so
every state of every game with that many players gives a vector of the same
length with the same meaning at each position. Seats are counted from the
observer: "seat +0" is the observer, "+1" the next player, and so on, so one
policy can play any seat. Anything the view hides reads as 0.

Sections, in order:

1. game vars, one number each;
2. player vars, for each seat from the observer, one number each;
3. item vars, for each item that has vars, one number each;
4. zones (player-owned zones by seat from the observer): the number of items,
   then either one one-hot block per position (stacks and rows with a
   capacity or slots, whose order matters, such as a Connect Four column) or
   one count per item of the zone's kind;
5. flow: one-hot phase, one-hot stage, one-hot active seat, the turn and the
   round, whether the observer has a pick to make and whether a choice is
   pending for the observer.

A value is encoded as: a number as itself, a bool as 0/1, nothing as 0, an
item as 1 + its index among the pack's items, a player as 1 + its seat from
the observer, a list by its length, any other text as 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import PackError
from ..game import Game

MAX_POSITIONAL = 2048
"""Positional blocks larger than this (capacity x items) fall back to counts per item."""
MAX_OBSERVATION = 1_000_000
"""The most numbers an observation holds: 5,000 spaces each owning a zone of a 5,000-card kind made 25 million
(a gigabyte, and seconds, for each one)."""


class ObservationLayout:
    """Where each part of a view goes in the observation vector."""

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        model = game.model
        start = game.new_game(players=players, seed=0)
        self.items = list(model.item_kind)
        self.item_index = {item: i for i, item in enumerate(self.items)}
        self.game_vars = list(model.game_vars)
        self.player_vars = list(model.player_vars)
        self.item_vars = [(item, name) for item, values in start.data["ev"].items() for name in values]
        self.zones: list[tuple[str, str, int | None, list[str], int]] = []
        for key in start.data["z"]:
            name, _, owner = key.partition("@")
            zone = model.zones[name]
            kind_items = model.items_of(zone.of, players)
            # A capacity the pack works out (an expression, a text here) has no fixed length: counts per item.
            length = (zone.capacity if type(zone.capacity) is int else 0) or zone.slots or 0
            positional = zone.type != "pool" and 0 < length and length * len(kind_items) <= MAX_POSITIONAL
            seat = int(owner) if zone.owner == "player" else None
            self.zones.append((key, name, seat, kind_items, length if positional else 0))
        self.phases = list(game.phases)
        self.stages = list(game.stages)
        self.size = (len(self.game_vars) + players * len(self.player_vars) + len(self.item_vars)
                     + sum(1 + (length * len(items) if length else len(items)) for _, _, _, items, length in self.zones)
                     + len(self.phases) + len(self.stages) + players + 4)
        if self.size > MAX_OBSERVATION:
            widest = max(self.zones, key=lambda z: z[4] * len(z[3]) if z[4] else len(z[3]), default=None)
            raise PackError(f"an observation of {game.name} for {players} players would hold {self.size} numbers, "
                            f"more than {MAX_OBSERVATION}" + (f" (its {len(self.zones)} zones count their kinds' "
                                                              f"items: zone '{widest[1]}' {len(widest[3])} of them)"
                                                              if widest else ""))

    def encode(self, view: dict[str, Any], observer: int, pending_for_me: bool) -> np.ndarray:
        model = self.game.model
        n = self.players
        out: list[float] = []
        for name in self.game_vars:
            out.append(self.scalar(view["vars"].get(name), model.game_vars[name].type, observer))
        for r in range(n):
            values = view["player_vars"][(observer + r) % n]
            for name in self.player_vars:
                out.append(self.scalar(values.get(name), model.player_vars[name].type, observer))
        for item, name in self.item_vars:
            kind = model.kinds[model.item_kind[item]]
            out.append(self.scalar(view["items"].get(item, {}).get(name), kind.vars[name].type, observer))
        for key, _name, _seat, kind_items, length in self.zone_order(observer):
            out.extend(self.zone(view["zones"][key], kind_items, length))
        flow = view["flow"]
        out.extend(1.0 if phase == flow.get("phase") else 0.0 for phase in self.phases)
        out.extend(1.0 if stage == flow.get("stage") else 0.0 for stage in self.stages)
        active = flow.get("active")
        out.extend(1.0 if active is not None and (active - observer) % n == r else 0.0 for r in range(n))
        out.append(float(flow.get("turn") or 0))
        out.append(float(flow.get("round") or 0))
        simultaneous = flow.get("simultaneous")
        out.append(1.0 if simultaneous and observer in simultaneous["players"]
                   and observer not in simultaneous["decided"] else 0.0)
        out.append(1.0 if pending_for_me else 0.0)
        return np.asarray(out, dtype=np.float32)

    def zone_order(self, observer: int) -> list[tuple[str, str, int | None, list[str], int]]:
        """Zones in layout order, a player's zones put at the observer-relative seat."""
        n = self.players
        shared = [z for z in self.zones if z[2] is None]
        owned = sorted((z for z in self.zones if z[2] is not None),
                       key=lambda z: (z[1], (z[2] - observer) % n))  # type: ignore[operator]
        return shared + owned

    def zone(self, content: Any, kind_items: list[str], length: int) -> list[float]:
        width = length * len(kind_items) if length else len(kind_items)
        if isinstance(content, dict) and content.get("hidden"):
            return [float(content.get("count", 0))] + [0.0] * width
        if isinstance(content, dict):  # a pool: counts by item
            return [float(sum(content.values()))] + [float(content.get(item, 0)) for item in kind_items]
        block = [0.0] * width
        where = {item: i for i, item in enumerate(kind_items)}
        present = [item for item in content if item is not None]
        if length:
            for position, item in enumerate(content[:length]):
                if isinstance(item, str) and item in where:  # an item shown by its face only is not named
                    block[position * len(kind_items) + where[item]] = 1.0
        else:
            for item in present:
                if isinstance(item, str) and item in where:
                    block[where[item]] += 1.0
        return [float(len(present))] + block

    def scalar(self, value: Any, type_name: str, observer: int) -> float:
        if value is None:
            return 0.0
        if type_name == "player" and isinstance(value, int):
            return float(1 + (value - observer) % self.players)
        if isinstance(value, bool):
            return 1.0 if value else 0.0
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, str):
            return float(1 + self.item_index[value]) if value in self.item_index else 0.0
        if isinstance(value, list | dict):
            return float(len(value))
        return 0.0
