"""Where the Ophir variants and their scenarios live, and small readers of a State."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ruleskit
from ruleskit import State

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"
ONLINE = VARIANTS / "ophir-online"
PROMO = VARIANTS / "ophir-promo-specialists"
CALM = VARIANTS / "ophir-calm-seas"
ALL = [ONLINE, PROMO, CALM]
SCENARIOS = Path(__file__).parent / "scenarios"
BASE_SCENARIOS = ROOT / "tests" / "ophir" / "scenarios"


def scenario(name: str, pack: Path | str | None = None, folder: Path = SCENARIOS) -> State:
    """A scenario, played in the pack it names or in `pack` instead."""
    return ruleskit.scenario(str(folder / f"{name}.toml"), str(pack) if pack is not None else None)


def ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def pv(state: State, player: int, var: str) -> Any:
    return state.data["pv"][player][var]


def cargo(state: State, player: int) -> dict[str, int]:
    return {good: n for good, n in state.data["z"][f"cargo@{player}"].items() if n}
