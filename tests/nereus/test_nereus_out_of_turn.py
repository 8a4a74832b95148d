"""Storage "at any time" (rulebook: Storage area; ruling N1): exchanging, moving a gem and selling, in
another player's turn too, as out-of-turn (`anytime`) actions."""

from __future__ import annotations

from nereus_helpers import ids, item, play, pool, pv, scenario, zone

import ruleskit
from ruleskit import IllegalAction


def outside(state: ruleskit.State, player: int) -> list[str]:
    return [a.id for a in state.out_of_turn_actions(player)]


def test_storage_actions_are_offered_in_another_players_turn() -> None:
    state = scenario("out_of_turn")  # P0's turn; P1 storage: black, red, red, gem; P2 storage: white
    assert state.players_to_decide() == [0]
    assert sorted(outside(state, 1)) == sorted(
        ["gem_to_chest", "exchange:red", "sell:red,2", "sell:black,2", "sell:gem,5"]
        + [f"gem_to_hold:{c}_hold_1" for c in
           ("captain", "pilot", "boatswain", "purser", "merchant", "scientist", "explorer")])
    assert outside(state, 2) == ["sell:white,2"] and outside(state, 0) == []
    # The player in turn has them in their own list, after the crew actions.
    assert ids(state) == ["done", "sell:white,2"]


def test_selling_and_exchanging_out_of_turn() -> None:
    state = scenario("out_of_turn")
    state.apply("sell:black,2", player=1)
    assert pv(state, 1, "gold") == 2 and state.players_to_decide() == [0]
    assert state.history[-1]["player"] == 1 and state.history[-1]["action"] == "sell:black,2"
    state.apply("exchange:red", player=1)
    assert pool(state, "storage@1") == {"gem": 2}
    state.apply("sell:gem,5", player=1)
    assert pv(state, 1, "gold") == 7 and pool(state, "storage@1") == {"gem": 1}
    # Player 1's turn goes on: its end passes the turn as usual.
    turn = state.raw["flow"]["turn"]
    assert ids(state) == ["done", "sell:white,2"]
    play(state, "done")
    assert state.raw["flow"]["turn"] == turn + 1


def test_a_gem_completes_a_hold_out_of_turn() -> None:
    state = scenario("out_of_turn")  # P1's merchant hold: white, white
    turn = state.raw["flow"]["turn"]
    state.apply("gem_to_hold:merchant_hold_1", player=1)
    hold = item(state, "merchant_hold_1")
    assert hold["done"] is True and hold["done_turn"] == turn and pv(state, 1, "vp") == 5
    assert pool(state, "contents@merchant_hold_1") == {} and pool(state, "storage@1") == {"black": 1, "red": 2}
    # Completed in player 1's turn (its number is kept): player 2's own later turns have other numbers, so the
    # enhanced action is open to them then (rulebook: not on the turn the hold is completed).
    assert "gem_to_hold:merchant_hold_1" not in outside(state, 1)


def test_a_treasure_drawn_out_of_turn_is_placed_out_of_turn_or_lost_at_the_turn_end() -> None:
    state = scenario("out_of_turn")  # P1's chest: white, yellow; next is green: a random treasure
    bag_before = sum(zone(state, "bag").values())
    state.apply("gem_to_chest", player=1)
    assert zone(state, "chest@1") == ["white", "yellow", "gem"]
    drawn = pool(state, "loose@1")
    assert sum(drawn.values()) == 1 and sum(zone(state, "bag").values()) == bag_before - 1
    (colour,) = drawn
    assert f"to_storage:{colour}" in outside(state, 1) or f"to_hold:merchant_hold_1,{colour}" in outside(state, 1)
    # Player 1 ends their turn: player 2's unplaced treasure is lost back to the bag.
    play(state, "done")
    assert pool(state, "loose@1") == {} and sum(zone(state, "bag").values()) == bag_before


def test_placing_out_of_turn_is_only_for_a_treasure_in_hand() -> None:
    state = scenario("out_of_turn")
    assert not any(a.startswith(("to_chest", "to_storage", "to_hold")) for a in outside(state, 1))
    try:
        state.apply("to_storage:red", player=1)
    except IllegalAction:
        pass
    else:  # pragma: no cover - the assertion below explains
        raise AssertionError("a treasure in storage was placed again out of turn")


def test_selling_during_the_secret_crew_choice() -> None:
    game = ruleskit.load("nereus")
    state = game.new_game(players=3, seed=2)
    while state.pending is not None:  # corners and science cards
        state.apply(state.legal_actions()[0].id)
    assert state.stage == "pick" and sorted(state.players_to_decide()) == [0, 1, 2]
    # Each player to choose a crew card also has the sale of their white in their list.
    assert "sell:white,2" in [a.id for a in state.legal_actions(1)]
    crew = [a.id for a in state.legal_actions(1) if a.id.startswith("crew:")][0]
    state.apply(crew, player=1)
    # Player 2 has chosen in secret; selling now runs at once and is not their pick.
    assert outside(state, 1) == ["sell:white,2"]
    gold = pv(state, 1, "gold")
    state.apply("sell:white,2", player=1)
    assert pv(state, 1, "gold") == gold + 2 and 1 not in state.players_to_decide()
    assert crew.split(":")[1] not in str(state.view(0)["flow"])
