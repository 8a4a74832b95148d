"""Reading Waters of Nereus states in tests: scenario files, player vars, ships, the cabin and the sea."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ruleskit
from ruleskit import State

SCENARIOS = Path(__file__).parent / "scenarios"
NEUTRAL = Path(__file__).resolve().parents[2] / "examples" / "variants" / "nereus-neutral"


def scenario(name: str) -> State:
    # The neutral-ship scenarios belong to the variant's folder, which a scenario file cannot choose itself.
    pack = str(NEUTRAL) if name.startswith("neutral") else None
    return ruleskit.scenario(str(SCENARIOS / f"{name}.toml"), pack)


def play(state: State, *decisions: str) -> State:
    for decision in decisions:
        state.apply(decision)
    return state


def pv(state: State, player: int, var: str) -> Any:
    return state.data["pv"][player][var]


def var(state: State, name: str) -> Any:
    return state.data["v"][name]


def ship(state: State, player: int | str) -> Any:
    item = player if isinstance(player, str) else f"ship_{player}"
    return state.data["ev"][item]["at"]


def pool(state: State, key: str) -> dict[str, int]:
    """A pool's non-zero counts, e.g. pool(state, "storage@0") or pool(state, "treasures@w10")."""
    return {item: n for item, n in state.data["z"][key].items() if n}


def zone(state: State, key: str) -> Any:
    return state.data["z"][key]


def item(state: State, name: str) -> dict[str, Any]:
    return state.data["ev"][name]


def ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]
