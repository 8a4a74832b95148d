"""The compiled logic of a pack as the runtime sees it: tables of callables the compiler filled in."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from .context import Ctx

if TYPE_CHECKING:
    from ..model import Model

Fn = Callable[[Ctx], Any]


@attrs.define
class Program:
    """The compiled logic of a pack, called by the runtime."""

    model: Model
    rules: dict[str, Callable[[Ctx, list[Any]], Any]] = attrs.Factory(dict)
    procs: dict[str, Callable[[Ctx, list[Any]], None]] = attrs.Factory(dict)
    hooks: dict[str, list[Callable[[Ctx, list[Any]], None]]] = attrs.Factory(dict)
    capacities: dict[str, Fn] = attrs.Factory(dict)
    # zone name -> where its capacity is written ("capacity of zone NAME (file:line)"), for its errors
    capacity_wheres: dict[str, str] = attrs.Factory(dict)
    shows: dict[str, Fn] = attrs.Factory(dict)  # zone name -> what a viewer sees of its items (see runtime.faces)
    stages: set[str] = attrs.Factory(set)

    def emit(self, ctx: Ctx, event: str, args: list[Any]) -> None:
        for hook in self.hooks.get(event, ()):
            hook(ctx, args)
