"""Run-time helpers for statements the code generator emits as calls (see codegen.py).

Each does what the closure backend's statement does (statements.py), with the
same errors; they live here, not in closures, so that generated code refers
only to plain functions of ruleskit and a compiled pack can be stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..errors import ProgramError
from ..model import Model, ZoneRef
from ..runtime import zones as zone_ops
from ..runtime.context import Ctx
from ..runtime.values import as_list, label_of
from .decisions import DecisionCompiler, unique_options


def shuffle_zone(ctx: Ctx, ref: Any, zone_where: str, where: str) -> None:
    """`shuffle ZONE`: a stack's items in a new order drawn from the game's generator."""
    if not isinstance(ref, ZoneRef):
        raise ProgramError(f"expected a zone, got {label_of(ctx.model, ref)!r} in {zone_where}")
    zone_ops.shuffle(ctx, ref, where)


def zone_checker(fn: Callable[[Ctx], Any], model: Model, where: str) -> Callable[[Ctx], ZoneRef]:
    """A zone operand of a statement: the value of `fn`, which must be a zone (statements._zone)."""

    def zone(ctx: Ctx) -> ZoneRef:
        value = fn(ctx)
        if not isinstance(value, ZoneRef):
            raise ProgramError(f"expected a zone, got {label_of(model, value)!r} in {where}")
        return value

    return zone


def choice_options(model: Model, source: Callable[[Ctx], Any], where: str,
                   players: bool) -> Callable[[Ctx], list[tuple[str, str, Any]]]:
    """The options of `choose one of LIST` (decisions.c_choose_one)."""

    def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
        return unique_options(model, as_list(model, ctx.data, source(ctx), where), players, where)

    return options


@attrs.define
class CompilerView:
    """What a closure of the reference backend still uses of the compiler that made it once the game runs:
    the model, and the listing of a choice's options (decisions.py). A stored compiled pack keeps this
    in place of the compiler, for the closures listed in VIEW_USERS only."""

    model: Model

    _unique = DecisionCompiler._unique
    _one_at_a_time = DecisionCompiler._one_at_a_time


# The closures whose reference to the compiler is only to the members of CompilerView.
VIEW_USERS = frozenset({"DecisionCompiler.c_choose_count.<locals>.run"})
