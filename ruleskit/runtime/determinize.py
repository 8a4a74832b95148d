"""Replacing what one player cannot know with a guess, for search without peeking.

A bot that looks ahead on a copy of the real state would see the true deck
order, the other players' hidden hands and counters, and the outcomes the
random stream will produce next. `determinize` makes a copy fair: the random
stream is re-seeded from the bot's own seed, the items in zones hidden from
the viewer are shuffled among those zones (each keeps its size), and hidden
counters of other players are reset to their start values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import rng
from .engine import start_value

if TYPE_CHECKING:
    from ..model import Model


def _hidden(visibility: str, owner: int | None, viewer: int) -> bool:
    if visibility == "all":
        return False
    if visibility == "owner":
        return owner is None or owner != viewer
    return True


def determinize(model: Model, data: dict[str, Any], viewer: int, seed: int) -> None:
    """Re-seed the stream and redraw everything hidden from `viewer`, in place."""
    data["rng"] = rng.seed_state(seed)
    _redeal_hidden_zones(model, data, viewer)
    for p, values in enumerate(data["pv"]):
        if p == viewer:
            continue
        for name, var in model.player_vars.items():
            if _hidden(var.visible, p, viewer) and name in values:
                values[name] = start_value(var)


def _redeal_hidden_zones(model: Model, data: dict[str, Any], viewer: int) -> None:
    # Zones are grouped by the kind they hold: a hidden card may be in any hidden zone of its kind.
    groups: dict[str, list[str]] = {}
    for key in sorted(data["z"]):
        name, _, owner_text = key.partition("@")
        zone = model.zones[name]
        owner = int(owner_text) if owner_text else None
        if zone.type != "pool" and _hidden(zone.visible, owner, viewer):
            groups.setdefault(zone.of, []).append(key)
    for keys in groups.values():
        pooled = [item for key in keys for item in data["z"][key] if item is not None]
        if len(pooled) < 2:
            continue
        # Sorted first, so the copy depends only on what the viewer knows, not on the hidden order.
        pooled = rng.shuffled(data, sorted(pooled))
        for key in keys:
            content = data["z"][key]
            for i, item in enumerate(content):
                if item is not None:
                    content[i] = pooled.pop()

