"""Reading Navoria states in tests: scenario files, player vars, zones and the decisions offered.

Seats follow the rulebook's examples: Pete 0, Yara 1, Barb 2, Greg 3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ruleskit
from ruleskit import State
from ruleskit.scenarios import load_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
PETE, YARA, BARB, GREG = 0, 1, 2, 3
DESERT, FOREST, GLACIER = 0, 1, 2


_GAME: list[ruleskit.Game] = []


def scenario(name: str) -> State:
    """The scenario's state, with the pack loaded once for the whole session."""
    if not _GAME:
        _GAME.append(ruleskit.load("navoria"))
    return load_scenario(SCENARIOS / f"{name}.toml", _GAME[0])


def play(state: State, *decisions: str) -> State:
    for decision in decisions:
        state.apply(decision)
    return state


def pv(state: State, player: int, var: str) -> Any:
    return state.data["pv"][player][var]


def crowns(state: State) -> list[int]:
    return [pv(state, p, "crowns") for p in range(state.players)]


def zone(state: State, name: str) -> Any:
    return state.data["z"][name]


def pool(state: State, name: str) -> dict[str, int]:
    """A pool's non-zero counts."""
    return {item: n for item, n in zone(state, name).items() if n}


def dock(state: State, player: int, territory: str) -> dict[str, int]:
    return pool(state, f"{territory}_dock@{player}")


def favoured(state: State, species: str) -> list[int]:
    return list(state.data["ev"][species]["favoured"])


def ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]
