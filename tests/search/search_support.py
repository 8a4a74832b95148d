"""Paths of the packs the search tests use, and small helpers to reach positions."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import ruleskit

PACKS = Path(__file__).resolve().parent.parent / "packs"
DUEL = str(PACKS / "card_duel")
RACE = str(PACKS / "dice_race")
SHOWN = str(PACKS / "dice_race_shown")


def play_until(state: ruleskit.State, stop: Callable[[ruleskit.State], bool], seed: int,
               limit: int = 500) -> bool:
    """Random moves until `stop(state)` holds; False if the game ended (or ran long) first."""
    rng = random.Random(seed)
    for _ in range(limit):
        if stop(state):
            return True
        if state.is_terminal:
            return False
        player = state.players_to_decide()[0]
        state.apply(rng.choice(state.legal_actions(player)))
    return False
