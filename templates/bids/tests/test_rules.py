"""Tests of the pack's rules: run them with `python -m pytest tests` in the pack's folder."""

from pathlib import Path

import ruleskit

HERE = Path(__file__).resolve().parent.parent


def test_a_tie_takes_nothing() -> None:
    state = ruleskit.scenario(str(HERE / "scenarios" / "tie.toml"), str(HERE))
    # Both bid in secret; the bids are compared once both have picked.
    state.apply("play:five", player=0)
    state.apply("play:five", player=1)
    assert [state.data["pv"][p]["score"] for p in (0, 1)] == [0, 0]
    assert state.data["z"]["taken"] == ["prize4"]
    assert "a tie for the highest bid: nobody takes the prize" in state.messages


def test_the_highest_bid_takes_the_prize() -> None:
    game = ruleskit.load(str(HERE))
    state = game.new_game(players=2, seed=3)
    prize = state.data["z"]["offer"][0]
    points = game.model.item_data[prize]["points"]
    state.apply("play:five", player=0)
    state.apply("play:two", player=1)
    assert state.data["pv"][0]["score"] == points
    assert state.data["pv"][1]["score"] == 0
    # Each card is spent once: Red can no longer bid 5.
    assert "play:five" not in [a.id for a in state.legal_actions(0)]
