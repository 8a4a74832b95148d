"""Helpers on rule-language values: ids and labels for decisions, and zone reads (used by the runtime and the compiler)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ProgramError
from ..limits import MAX_ZONE_ITEMS
from ..model import ZoneRef

if TYPE_CHECKING:
    from ..model import Model

INFINITE = 10**9
MAX_INT = 2**62


def option_id(value: Any) -> str:
    """A stable, readable id for an option value."""
    kind = type(value)
    if kind is str:  # most options are items or names: their id is themselves
        return value  # type: ignore[no-any-return]
    if kind is int:  # not a bool, whose type is bool
        return str(value)
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, list):
        _check_id_size(value)
        return "+".join(option_id(v) for v in value) if value else "-"
    if isinstance(value, ZoneRef):
        return value.key
    return str(value)


# The most elements, nested lists' included, in a list that names an option or an action: each id is made
# at every listing, and an id of 80,000 numbers a thousand times over took seconds for one step each.
MAX_ID_ELEMENTS = 1000


def _check_id_size(value: list[Any]) -> None:
    """Refuse a list too big to be an id, looking at no more than `MAX_ID_ELEMENTS` elements (the error is
    located where it is reported, from the pack code that was running: `state.reported`)."""
    seen, pending = 0, [value]
    while pending:
        items = pending.pop()
        seen += len(items)
        if seen > MAX_ID_ELEMENTS:
            raise ProgramError(f"a list of more than {MAX_ID_ELEMENTS} elements cannot be an option or an id")
        pending.extend(item for item in items if isinstance(item, list))


def label_of(model: Model, value: Any, player_type: bool = False) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"Player {value + 1}" if player_type else str(value)
    if isinstance(value, str):
        data = model.item_data.get(value)
        return str(data["name"]) if data else value
    if isinstance(value, list):
        return _list_label(model, value, player_type, MAX_LABEL) if value else "nothing"
    if isinstance(value, ZoneRef):
        return value.key
    return str(value)


# The longest label of a list, about: a list of 80,000 numbers said in a loop would otherwise make
# megabytes of text a step.
MAX_LABEL = 2000


def _list_label(model: Model, value: list[Any], player_type: bool, room: int) -> str:
    """The elements' labels joined, stopping (with a count of the rest) once `room` characters are used."""
    parts: list[str] = []
    used = 0
    for index, element in enumerate(value):
        if isinstance(element, list):
            text = _list_label(model, element, player_type, room - used) if element else "nothing"
        else:
            text = label_of(model, element, player_type)
        parts.append(text)
        used += len(text) + 2
        if used > room and index + 1 < len(value):
            return ", ".join(parts) + f", ... ({len(value) - index - 1} more)"
    return ", ".join(parts)


def same_value(a: Any, b: Any) -> bool:
    """Equal, and of one type throughout (1 and true are equal in Python, not here)."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def options_collide(model: Model, what: str, a: Any, b: Any, key: str, where: str) -> ProgramError:
    """The error for two different values of a choice or a parameter with the same id: neither could be
    told apart from the other when answered or applied."""
    def shown(value: Any) -> str:
        return f'"{value}"' if type(value) is str else label_of(model, value)

    return ProgramError(f"two options of {what}, {shown(a)} and {shown(b)}, are both named '{key}' in {where}")


def checked_int(value: int, where: str) -> int:
    if value > MAX_INT or value < -MAX_INT:
        raise ProgramError(f"number out of range in {where}")
    return value


def zone_items(model: Model, data: dict[str, Any], ref: ZoneRef, where: str) -> list[Any]:
    """The contents of a zone as a list; a pool lists each token once per copy."""
    zone = model.zones[ref.name]
    content = data["z"][ref.key]
    if zone.type == "pool":
        if zone.unlimited:
            return [item for item in content]
        held = sum(content.values())
        if held > MAX_ZONE_ITEMS:
            raise ProgramError(f"the {held} pieces of '{ref.key}' cannot be listed (a list holds at most "
                               f"{MAX_ZONE_ITEMS}) in {where}")
        result: list[str] = []
        for item, count in content.items():
            if count:  # most of a pool's kinds may be absent: no empty list to make and add
                result += [item] * count
        return result
    if zone.type == "row":
        return [item for item in content if item is not None]
    return list(content)


def as_list(model: Model, data: dict[str, Any], value: Any, where: str) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, ZoneRef):
        return zone_items(model, data, value, where)
    raise ProgramError(f"expected a list or a zone, got {label_of(model, value)!r} in {where}")
