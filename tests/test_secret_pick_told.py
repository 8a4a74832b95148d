"""At a simultaneous stage a player's pick is told to the others only as a secret choice, until its effects show;
an `anytime` action taken there runs at once and is told as any decision is (toy pack street_market: a secret
all-pay auction closes the game, and anyone may trade 3 coins for a point at any time)."""

from __future__ import annotations

from pathlib import Path

import ruleskit
from ruleskit.runtime.state import State
from ruleskit.story import is_secret_pick
from ruleskit.tableau import Tableau
from ruleskit.web.events import decision_events

MARKET = Path(__file__).parent / "packs" / "street_market"


def at_the_auction() -> State:
    """Two players who worked three rounds each (6 coins), at the secret auction."""
    state = ruleskit.load(MARKET).new_game(players=2, seed=0)
    while state.raw["flow"]["stage"] != "auction":
        state.apply("work")
    assert state.raw["flow"]["simul"] is not None
    return state


def told(state: State, action_id: str, player: int) -> list[list[str]]:
    chosen = next(a for a in state.legal_actions(player) if a.id == action_id)
    after = state.clone()
    after.apply(chosen)
    return [texts for kind, texts, _ in decision_events(Tableau(state.game), state, after, chosen)
            if kind == "decision"]


def test_a_bid_is_told_to_the_other_seat_as_a_secret_choice() -> None:
    state = at_the_auction()
    assert is_secret_pick(state, "bid:4")
    assert told(state, "bid:4", 0) == [["Player 1: Bid 4", "Player 1 makes a secret choice"]]


def test_an_anytime_trade_at_the_auction_is_told_as_it_is() -> None:
    """It was told as "makes a secret choice": the point and the coins it moved showed at once."""
    state = at_the_auction()
    assert not is_secret_pick(state, "trade")
    assert told(state, "trade", 1) == [["Player 2: Trade 3 coins for a point"] * 2]


def test_outside_a_simultaneous_stage_nothing_is_a_secret_pick() -> None:
    state = ruleskit.load(MARKET).new_game(players=2, seed=0)
    assert not is_secret_pick(state, "work")
    assert not is_secret_pick(state, "trade")
