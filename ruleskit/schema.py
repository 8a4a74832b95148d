"""The declarative vocabulary of a pack, as attrs classes.

Each TOML section maps names to definitions. Definitions are structured with
cattrs (unknown keys forbidden) and keep the file and line they came from, so
later stages can point back at them.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

# A value written in TOML that may be a literal or a rule-language expression string.
Expr = Any


@attrs.define
class Source:
    """Where a definition was written."""

    file: str
    line: int | None = None
    pack: str = ""
    # The parsed file and key path, so a value inside the definition can be located exactly.
    doc: Any = attrs.field(default=None, eq=False, repr=False)
    keypath: tuple[str, ...] = attrs.field(default=(), eq=False, repr=False)
    # The (doc, keypath) of the tables an update was merged over, oldest first: a key the update leaves
    # as it was is written there, not in `doc`.
    layers: tuple[tuple[Any, tuple[str, ...]], ...] = attrs.field(default=(), eq=False, repr=False)


@attrs.define
class PlayerRange:
    min: int
    max: int


@attrs.define
class Manifest:
    name: str
    version: str
    players: PlayerRange
    files: list[str] = attrs.Factory(list)
    extends: str | None = None
    description: str = ""
    # Paths where this pack is meant to differ from the one it is tested against (`ruleskit test --against`).
    expect_diff: list[str] = attrs.Factory(list)


@attrs.define
class VarDef:
    """A counter or variable owned by the game, each player, or the current turn."""

    type: str = "int"
    owner: Literal["game", "player", "turn"] = "game"
    start: Any = None
    min: int | None = None
    max: int | None = None
    above_max: Literal["clamp", "error"] = "clamp"
    below_min: Literal["error", "clamp"] = "error"
    visible: Literal["all", "owner", "none"] = "all"
    label: str = ""
    source: Source | None = None


@attrs.define
class KindDef:
    """A kind of component: its static fields, its mutable vars, and its items."""

    fields: dict[str, str] = attrs.Factory(dict)
    vars: dict[str, VarDef] = attrs.Factory(dict)
    items: dict[str, dict[str, Any]] = attrs.Factory(dict)
    per_player: bool = False
    label: str = ""
    source: Source | None = None
    item_lines: dict[str, Source] = attrs.Factory(dict)


@attrs.define
class ZoneDef:
    """An ordered stack, a fixed row of slots, or a pool of counted tokens."""

    type: Literal["stack", "row", "pool"] = "stack"
    of: str = ""
    owner: str = "game"  # "game", "player", or a kind: one zone per item of that kind
    capacity: Expr | None = None
    size: str | None = None
    slots: int = 0
    start: Any = None
    unlimited: bool = False
    visible: Literal["all", "owner", "none", "top"] = "all"
    label: str = ""
    # What a viewer sees of an item instead of its id (an expression over `it`), and where a
    # determinized copy may redraw the zone's hidden items from (any hidden zone of the kind, or itself).
    shows: str | None = None
    redraw: Literal["kind", "self"] = "kind"
    source: Source | None = None


@attrs.define
class BoardDef:
    nodes: str
    edges: list[list[str]] = attrs.Factory(list)
    source: Source | None = None


@attrs.define
class DieDef:
    faces: list[int]
    # Who is told a roll's value: every seat, the player who rolled it (`me` where it is rolled), or no seat.
    visible: Literal["all", "owner", "none"] = "all"
    source: Source | None = None


@attrs.define
class LimitDef:
    turn: int | None = None
    visit: int | None = None
    game: int | None = None


@attrs.define
class Requirement:
    check: str
    message: str


@attrs.define
class ActionDef:
    stage: Any = None
    effect: str = ""
    label: str = ""
    params: dict[str, str] = attrs.Factory(dict)
    when: str | None = None
    require: list[Requirement] = attrs.Factory(list)
    cost: dict[str, Expr] = attrs.Factory(dict)
    limit: LimitDef = attrs.Factory(LimitDef)
    anytime: bool = False
    source: Source | None = None


@attrs.define
class StageDef:
    on_enter: str = ""
    simultaneous: str | None = None
    resolve: str = ""
    label: str = ""
    source: Source | None = None


@attrs.define
class PhaseDef:
    stage: str
    order: str = "clockwise"
    first: str = "0"
    next: str | None = None
    end_when: str | None = None
    rounds: int | None = None
    on_enter: str = ""
    on_turn_start: str = ""
    on_turn_end: str = ""
    on_round_end: str = ""
    source: Source | None = None


@attrs.define
class FlowDef:
    start: str
    setup: str = ""
    max_turns: int = 10000
    source: Source | None = None


@attrs.define
class EndDef:
    when: str
    reason: str
    source: Source | None = None


@attrs.define
class ScoringDef:
    score: str
    tiebreak: list[str] = attrs.Factory(list)
    before: str = ""
    source: Source | None = None


@attrs.define
class InvariantDef:
    check: str
    message: str = ""
    source: Source | None = None


@attrs.define
class PropertyDef:
    """A property checked by `ruleskit test`: after an action, hook or procedure, or over the game."""

    check: str
    after: str | None = None  # "ACTION", "hook NAME" or "proc NAME"
    at: str | None = None  # "decision" (after every decision) or "end" (when the game ends)
    message: str = ""
    source: Source | None = None


@attrs.define
class ReportDef:
    """What simulations report: groupings of players and the bots' heuristic."""

    groups: dict[str, str] = attrs.Factory(dict)
    heuristic: str | None = None
    source: Source | None = None


# The sections of a pack, in the order they are listed by `diff` and docs.
SECTIONS: dict[str, type] = {
    "vars": VarDef,
    "counters": VarDef,
    "kinds": KindDef,
    "zones": ZoneDef,
    "dice": DieDef,
    "stages": StageDef,
    "phases": PhaseDef,
    "actions": ActionDef,
    "end": EndDef,
    "invariants": InvariantDef,
    "properties": PropertyDef,
}
# Sections holding a single definition rather than a table of named ones.
SINGLETONS: dict[str, type] = {
    "board": BoardDef,
    "flow": FlowDef,
    "scoring": ScoringDef,
    "report": ReportDef,
    "display": dict,
}
