"""Tests of the pack's rules: run them with `python -m pytest tests` in the pack's folder."""

from pathlib import Path

import ruleskit

HERE = Path(__file__).resolve().parent.parent


def test_rolling_a_one_loses_the_pot_and_passes_the_turn() -> None:
    state = ruleskit.scenario(str(HERE / "scenarios" / "rolled_one.toml"), str(HERE))
    assert state.data["pv"][0]["score"] == 12       # nothing banked
    assert state.players_to_decide() == [1]         # Blue's turn now
    assert "a 1: the turn's points are lost" in state.messages


def test_holding_banks_the_pot() -> None:
    game = ruleskit.load(str(HERE))
    state = game.new_game(players=2, seed=3)
    while not any(action.id == "hold" for action in state.legal_actions()):
        state.apply("roll")
    pot = state.data["v"]["pot"]
    player = state.current_player
    state.apply("hold")
    assert state.data["pv"][player]["score"] == pot
