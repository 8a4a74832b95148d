"""Random legal games of Valdora: they end, keep every invariant and leak no hidden information."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from valdora_helpers import broken_invariants

import ruleskit
from ruleskit.testing.invariants import check_views

PACK = Path(__file__).resolve().parents[2] / "games" / "valdora"


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("valdora")


def test_short_random_games_hold_every_check(ruleskit_check: Callable[..., Any]) -> None:
    # Invariants after every decision; copies, views and every listed action every 10 decisions.
    ruleskit_check("valdora", games=6, players=[3, 4, 5], max_decisions=120, thorough_every=10)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_random_game_ends_by_the_craftsmen_running_out(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=players)
    chooser = random.Random(players)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"stuck with no legal action in stage {state.stage}"
        state.apply(chooser.choice(legal))
        steps += 1
        if steps % 200 == 0:
            assert broken_invariants(state) == []
            check_views(state)
    assert broken_invariants(state) == []
    result = state.result
    assert result is not None and result["reason"] == "only one colour of craftsman tiles is left"
    assert len(result["scores"]) == players and result["winners"]
    # Every player had as many turns: the game ended at the end of a round.
    assert state.data["flow"]["turn"] % players == 0


def test_pack_holds_no_python() -> None:
    assert {p.suffix for p in PACK.iterdir()} <= {".toml", ".rk", ".md"}


def test_pack_checks_clean() -> None:
    from ruleskit.cli import main

    assert main(["check", "valdora"]) == 0
