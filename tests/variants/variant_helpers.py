"""Where the Ophir variants and their scenarios live, and small readers of a State."""

from __future__ import annotations

import tomllib
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
BASE_SCENARIOS = ROOT / "games" / "ophir" / "tests"


def scenario(name: str, pack: Path | str | None = None, folder: Path = SCENARIOS) -> State:
    """A scenario, played in `pack`, else in the pack it names (a folder relative to the scenario file)."""
    path = folder / f"{name}.toml"
    if pack is None:
        named = tomllib.loads(path.read_text(encoding="utf-8"))["pack"]
        pack = folder / named if (folder / named / "pack.toml").is_file() else named
    return ruleskit.scenario(str(path), str(pack))


def ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def pv(state: State, player: int, var: str) -> Any:
    return state.data["pv"][player][var]


def cargo(state: State, player: int) -> dict[str, int]:
    return {good: n for good, n in state.data["z"][f"cargo@{player}"].items() if n}
