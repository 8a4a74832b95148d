"""Reading Valdora states in tests: scenario files, player vars, zones, card loads and invariants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ruleskit
from ruleskit import State
from ruleskit.testing import InvariantFailure, check_pack_invariants

SCENARIOS = Path(__file__).parent / "scenarios"


def scenario(name: str) -> State:
    return ruleskit.scenario(str(SCENARIOS / f"{name}.toml"))


def play(state: State, *decisions: str) -> State:
    for decision in decisions:
        state.apply(decision)
    return state


def pv(state: State, player: int, var: str) -> Any:
    return state.data["pv"][player][var]


def item(state: State, name: str) -> dict[str, Any]:
    return state.data["ev"][name]


def zone(state: State, name: str) -> Any:
    return state.data["z"][name]


def pool(state: State, name: str) -> dict[str, int]:
    """A pool's non-zero counts."""
    return {k: n for k, n in zone(state, name).items() if n}


def ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def at(state: State, player: int) -> str:
    return item(state, f"pawn_{player}")["at"]


def broken_invariants(state: State) -> list[str]:
    """The pack invariant that does not hold (empty when all hold)."""
    try:
        check_pack_invariants(state)
    except InvariantFailure as failure:
        return [str(failure)]
    return []
