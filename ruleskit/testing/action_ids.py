"""Mistakes in an action id that no position could make legal: a misspelt name, a wrong number of values, a value
its parameter can never take.

A test that lists an id as refused passes whenever the id is refused, and a misspelt one always is: so an id is
checked against what the pack says of its actions, with no position. Only what holds in every position counts
(a parameter of an item kind only ever takes that kind's items), so an id legal somewhere is never reported.
"""

from __future__ import annotations

from ..errors import did_you_mean
from ..game import CompiledAction, Game, Param

# Value ids that never hold a comma (the separator of an id's values): seats, numbers, truths (and the items
# of a kind whose ids hold none). A text option may hold one, so an id with more values than its action has
# parameters may still be legal.
_NO_COMMA = ("player", "int", "bool")


def id_mistake(game: Game, action_id: str, players: int) -> tuple[str, str | None] | None:
    """Why `action_id` is never a legal action of `game` with `players` seats, and a hint (the closest name or
    value); None when some position might offer it. A trailing `*` (a pattern) has its name checked only."""
    if action_id.endswith("*"):
        name = action_id.rstrip("*").partition(":")[0]
        return _unknown(game, name) if name not in game.actions else None
    name, colon, text = action_id.partition(":")
    action = game.actions.get(name)
    if action is None:
        return _unknown(game, name, len(text.split(",")) if colon else 0)
    params = action.params
    if not params:
        return (f"action '{name}' takes no values, so its id is '{name}'", None) if colon else None
    values = text.split(",") if colon else []
    comma_free = all(_comma_free(game, p) for p in params)
    if len(values) < len(params) or (len(values) > len(params) and comma_free):
        given = "no values" if not values else "1 value" if len(values) == 1 else f"{len(values)} values"
        return f"'{action_id}' gives {given}, but action '{name}' takes {_takes(action)}", None
    if len(values) > len(params):
        return None  # a text value holding a comma: which value is which cannot be told
    for param, value in zip(params, values, strict=True):
        if not _may_take(game, param, value, players):
            shown = [v for v in static_options(game, param, players) or [] if v != "none"]
            return (f"'{value}' is never a value of action '{name}' parameter '{param.name}' (a {param.type}: "
                    f"{_some(shown)})", did_you_mean(value, shown))
    return None


def static_options(game: Game, param: Param, players: int) -> list[str] | None:
    """The ids of every value a parameter could take in any position, when its type tells them; None otherwise.

    A parameter of an item kind takes that kind's items, one of `player` a seat (the engine refuses anything
    else in a var or zone of those types); either may be none.
    """
    if param.type in game.model.kinds:
        return game.model.items_of(param.type, players) + ["none"]
    if param.type == "player":
        return [str(seat) for seat in range(players)] + ["none"]
    return None


def _may_take(game: Game, param: Param, value: str, players: int) -> bool:
    """Whether `value` is among `static_options` (looked up, not listed: a kind may have 100,000 items)."""
    model = game.model
    if value == "none":
        return True
    if param.type in model.kinds:
        if model.item_kind.get(value) != param.type:
            return False
        if not model.kinds[param.type].per_player:
            return True  # its `owner` is a field of the pack's, if any: the item is in every game
        owner = model.item_data[value]["owner"]
        return owner is None or owner < players
    if param.type == "player":
        return value in {str(seat) for seat in range(players)}
    return True


def _unknown(game: Game, name: str, values: int | None = None) -> tuple[str, str | None]:
    """A name the pack lacks, with the closest action taking as many values as the id gives (`stpe:x` is more
    likely a one-value `step` than a no-value `stop`), else the closest of all."""
    fitting = [a.name for a in game.actions.values() if len(a.params) == values]
    return f"the pack has no action '{name}'", did_you_mean(name, fitting) or did_you_mean(name, game.actions)


def _comma_free(game: Game, param: Param) -> bool:
    if param.type in game.model.kinds:
        return not any("," in item for item in game.model.items_of(param.type))
    return param.type in _NO_COMMA


def _takes(action: CompiledAction) -> str:
    return f"{len(action.params)}: '{action.name}:{','.join(p.name.upper() for p in action.params)}'"


def _some(ids: list[str], most: int = 8) -> str:
    return ", ".join(ids[:most]) + (" ..." if len(ids) > most else "")
