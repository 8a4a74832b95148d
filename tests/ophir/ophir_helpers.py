"""Reading Ophir states in tests: scenario files, player vars, ships, cargo and the market."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ruleskit
from ruleskit import State

SCENARIOS = Path(__file__).resolve().parents[2] / "games" / "ophir" / "tests"


def scenario(name: str) -> State:
    return ruleskit.scenario(str(SCENARIOS / f"{name}.toml"))


def play(state: State, *decisions: str) -> State:
    for decision in decisions:
        state.apply(decision)
    return state


def pv(state: State, player: int, var: str) -> Any:
    return state.data["pv"][player][var]


def ship(state: State, player: int | str) -> dict[str, Any]:
    item = player if isinstance(player, str) else f"ship_{player}"
    return state.data["ev"][item]


def cargo(state: State, player: int) -> dict[str, int]:
    return {good: n for good, n in state.data["z"][f"cargo@{player}"].items() if n}


def zone(state: State, name: str) -> Any:
    return state.data["z"][name]


def ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def rolls(state: State) -> list[int]:
    """Every die value rolled in the game so far."""
    return [c["value"] for entry in state.history for c in entry.get("chance", []) if "roll" in c]
