"""Who may see what: the one place that reads the `visible` settings of vars, zones and dice.

`all` is seen by everyone, `owner` by the owning player only, `none` by no one,
and `top` (stacks only) shows the first item and how many lie under it. The
owner of a die's roll is the player who rolled it, recorded in the outcome.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model import Model

# A viewer who is no player: told only what every player sees.
NO_VIEWER = -1


def sees(visibility: str, owner: int | None, viewer: int) -> bool:
    """Whether `viewer` sees the whole of something with this visibility and owner."""
    return visibility == "all" or (visibility == "owner" and owner is not None and owner == viewer)


def zone_owner(model: Model, key: str) -> int | None:
    """The player who owns a zone (directly, or through the item it belongs to), or None."""
    return model.zone_owner_player(key)


def hidden_summary(visibility: str, content: Any) -> dict[str, Any]:
    """What a viewer who may not see a zone's content is shown of it."""
    if isinstance(content, dict):
        return {"hidden": True, "count": sum(content.values())}
    summary: dict[str, Any] = {"hidden": True, "count": sum(1 for x in content if x is not None)}
    if visibility == "top":
        summary["top"] = content[0] if content else None
    return summary


def hidden_from_index(visibility: str) -> int:
    """The first position of a hidden zone's content that the viewer cannot see."""
    return 1 if visibility == "top" else 0


def roller(outcome: dict[str, Any]) -> int | None:
    """The player recorded as rolling a die in a chance outcome (a die not seen by all), or None."""
    player = outcome.get("player")
    return player if type(player) is int else None


def roll_visibility(model: Model, outcome: dict[str, Any]) -> str:
    """The `visible` setting of the die a chance outcome rolled; `all` for any other outcome, and for a die the
    pack does not have (a save edited by hand)."""
    name = outcome.get("roll")
    die = model.dice.get(name) if isinstance(name, str) else None
    return die.visible if die is not None else "all"


def roll_seen(model: Model, outcome: dict[str, Any], viewer: int | None) -> bool:
    """Whether `viewer` (None: a reader who sees everything) is told the value of a chance outcome: always,
    but for the roll of a die the viewer may not see."""
    return viewer is None or sees(roll_visibility(model, outcome), roller(outcome), viewer)
