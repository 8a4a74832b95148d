"""Dealing a baseline the same cards as a pack: the pack's card ids and ranks, and the deck order
its setup shuffled. Used by the benchmarks and the tests, not by the baselines themselves."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

GAMES = Path(__file__).resolve().parent.parent.parent / "games"


def card_ranks(pack: str, kind: str = "card", field: str = "rank") -> dict[str, int]:
    """Card id -> rank, read from the TOML files of a built-in pack's folder."""
    ranks: dict[str, int] = {}
    for path in sorted((GAMES / pack).glob("*.toml")):
        with open(path, "rb") as handle:
            items = tomllib.load(handle).get("kinds", {}).get(kind, {}).get("items", {})
        ranks.update({card: int(values[field]) for card, values in items.items()})
    return ranks


def deck_order(state: Any) -> list[str]:
    """The order (top card first) the pack's setup shuffled its deck into, read from the game's log."""
    from ruleskit.log import log_lines

    for line in log_lines(state):
        for outcome in line.get("chance", []):
            if isinstance(outcome, dict) and "shuffle" in outcome:
                return list(outcome["order"])
    raise ValueError("this game's setup shuffled nothing")
