"""Who may see what: the one place that reads the `visible` settings of vars and zones.

`all` is seen by everyone, `owner` by the owning player only, `none` by no one,
and `top` (stacks only) shows the first item and how many lie under it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model import Model


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
