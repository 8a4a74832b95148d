"""Checking properties while a game runs: `ensure`, and the pack's `[properties]`.

Properties are checked only by games of a Game made with `with_property_checks()` (what
`ruleskit test` plays). There a job's context carries `olds`, a stack of snapshots of the data:
each action, and each hook or procedure that has properties or reads `old(...)`, pushes the data as
it began (`Ctx.checkpoint`, which shares every container: the data is copied on write) and pops it
when it ends. In normal play `olds` is None and none of this runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import PropertyFailure, RulesError
from .context import Ctx

if TYPE_CHECKING:
    from ..game import Game

Fn = Callable[[Ctx], Any]
Definition = Callable[[Ctx, list[Any]], Any]


class Check:
    """One compiled condition: an `ensure` or a property's `check`."""

    __slots__ = ("name", "cond", "sides", "text", "message", "file", "line", "parts")

    def __init__(self, name: str, cond: Fn, sides: list[tuple[str, Fn]], text: str, message: str,
                 file: str, line: int | None, parts: list[Check] | None = None) -> None:
        self.name = name
        self.cond = cond
        self.sides = sides  # the two sides of a comparison, evaluated again to report a failure
        self.text = text
        self.message = message
        self.file = file
        self.line = line
        self.parts = parts or []  # the parts of a conjunction, to report the first false one

    def verify(self, ctx: Ctx) -> None:
        """Raise PropertyFailure unless the condition gives true."""
        try:
            held = self.cond(ctx)
        except RulesError as exc:
            raise PropertyFailure(self.name, f"{self._said()}could not be evaluated: {exc.message}"
                                  f"{self._bindings(ctx)}", file=self.file, line=self.line) from None
        if held is not True:
            for part in self.parts:
                part.verify(ctx)  # raises naming the first false part
            raise PropertyFailure(self.name, f"{self._said()}gave {_shown(held)}{self._values(ctx)}"
                                  f"{self._bindings(ctx)}", file=self.file, line=self.line)

    def _said(self) -> str:
        return (f"{self.message}: " if self.message else "") + f"{self.text} "

    def _values(self, ctx: Ctx) -> str:
        values = []
        for text, fn in self.sides:
            try:
                values.append(f"{text} = {_shown(fn(ctx))}")
            except RulesError as exc:
                values.append(f"{text}: {exc.message}")
        return f" ({'; '.join(values)})" if values else ""

    @staticmethod
    def _bindings(ctx: Ctx) -> str:
        shown = [f"me = Player {ctx.me + 1}"] if isinstance(ctx.me, int) else []
        shown += [f"{name} = {_shown(value)}" for name, value in sorted(ctx.env.items())]
        return f", with {', '.join(shown)}" if shown else ""


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def verify_all(ctx: Ctx, checks: list[Check], env: dict[str, Any], me: int) -> None:
    ctx.me = me
    for check in checks:
        ctx.env = dict(env)
        check.verify(ctx)


def run_checked_effect(ctx: Ctx, effect: Fn, checks: list[Check], old: dict[str, Any]) -> None:
    """An action's effect with its properties, `old` being the data before its costs were paid.

    The properties are checked when the effect ends; not when it ends the game (`finish`) part way,
    since what follows the `finish` never happens.
    """
    olds = ctx.olds
    assert olds is not None
    olds.append(old)
    depth = len(olds)
    env, me = dict(ctx.env), ctx.me
    try:
        effect(ctx)
        verify_all(ctx, checks, env, me)
        ctx.env = env
    finally:
        del olds[depth - 1:]


def checked_definition(call: Definition, checks: list[Check], names: list[str], when: Fn | None) -> Definition:
    """A hook or procedure that keeps a snapshot for old(...) and checks its properties as it ends.

    A hook whose `when` is false does nothing, and its properties are not checked; neither are they
    when the definition ends the game (`finish`) part way.
    """

    def run(ctx: Ctx, args: list[Any]) -> Any:
        olds = ctx.olds
        if olds is None:
            return call(ctx, args)
        env = dict(zip(names, args, strict=True))
        me = ctx.me
        if when is not None:
            saved = ctx.env
            ctx.env = dict(env)
            try:
                applies = when(ctx)
            finally:
                ctx.env = saved
            if not applies:
                return call(ctx, args)
        olds.append(ctx.checkpoint())
        depth = len(olds)
        saved = ctx.env
        try:
            call(ctx, args)
            verify_all(ctx, checks, env, me)
        finally:
            del olds[depth - 1:]
            ctx.env = saved
            ctx.me = me
        return None

    return run


def check_decision(game: Game, before: dict[str, Any], after: dict[str, Any], player: int) -> None:
    """The pack's properties `at = "decision"` (old(...) is the data before it) and, once the game has
    just ended, those `at = "end"`."""
    ctx = Ctx(game.program, after, player)
    ctx.olds = [before]
    result = after["result"]
    verify_all(ctx, game.decision_checks, {"over": result is not None}, player)
    if result is not None and before["result"] is None and game.end_checks:
        ctx.olds = []
        verify_all(ctx, game.end_checks, {"reason": result["reason"], "winners": list(result["winners"]),
                                          "scores": list(result["scores"])}, player)


def broken_invariant(game: Game, data: dict[str, Any], acting: int) -> tuple[str, str, str | None] | None:
    """The first of the pack's `[invariants]` that does not hold on `data` (each evaluated for the player
    `acting`): its name, what was wrong and where it is written (`file:line`); None if all hold. An invariant
    whose evaluation fails counts as broken, with the error as what was wrong."""
    for name, (check, message, source) in game.invariants.items():
        where = f"{source.file}:{source.line}" if source is not None else None
        try:
            held = check(Ctx(game.program, data, acting))
        except RulesError as exc:
            return name, f"could not be evaluated: {exc}", where
        if held is not True:
            return name, f"{message} (the check gave {held!r})", where
    return None
