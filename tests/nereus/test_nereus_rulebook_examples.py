"""Every worked example of the Waters of Nereus rulebook, replayed from a scenario in scenarios/."""

from __future__ import annotations

import pytest
from nereus_helpers import ids, item, play, pool, pv, scenario, ship, var, zone

import ruleskit


def test_stage2_captain_moves_one_space_for_the_black_treasure() -> None:
    state = scenario("captain_move")  # place:captain_1, sail:w10
    assert ship(state, 0) == "w10"
    assert pool(state, "loose@0") == {"black": 1} and pool(state, "treasures@w10") == {}
    assert item(state, "captain_1")["marker"] == 0
    play(state, "to_storage:black", "done")
    assert pool(state, "storage@0") == {"white": 1, "black": 1}


def test_captain_pays_3_gold_to_move_2_more_spaces() -> None:
    state = scenario("captain_gold")
    play(state, "place:captain_2")
    # 'Move 0-1' plus the gold action reaches 3 spaces in any straight line, never 4.
    assert "sail:w30" in ids(state) and "sail:w33" in ids(state) and "sail:w40" not in ids(state)
    play(state, "sail:w30")
    assert ship(state, 0) == "w30" and pv(state, 0, "gold") == 0
    assert pool(state, "loose@0") == {"yellow": 1, "green": 1, "red": 1}


def test_pilot_changes_direction_for_2_gold() -> None:
    state = scenario("pilot_turns")
    play(state, "place:pilot_1", "sail:w10")  # 1 east
    assert state.stage == "steer" and pv(state, 0, "gold") == 3
    play(state, "leg:w12")  # 2 south: the change of direction costs 2 gold, once
    assert pv(state, 0, "gold") == 1 and state.stage == "steer"
    play(state, "leg:w22")  # 1 east: the 4 spaces are used up
    assert state.stage == "act" and ship(state, 0) == "w22" and pv(state, 0, "gold") == 1
    assert pool(state, "loose@0") == {"purple": 1, "white": 1}
    assert pool(state, "treasures@w12") == pool(scenario("pilot_turns"), "treasures@w12")  # passed spaces keep theirs


def test_boatswain_moves_treasures_to_chest_and_completes_the_scientist_hold() -> None:
    state = scenario("boatswain")
    play(state, "place:boatswain_1", "basic")
    assert pv(state, 0, "vp") == 3 and var(state, "shifts") == 4
    play(state, "shift_storage:yellow", "to_chest:yellow")
    assert pv(state, 0, "gold") == 3 and pv(state, 0, "vp") == 5
    play(state, "shift_hold:boatswain_hold_0,green", "to_chest:green")
    assert zone(state, "chest@0") == ["white", "yellow", "green"]
    assert pool(state, "loose@0") == {"red": 1}  # the green's reward: a random treasure (the bag holds only red)
    play(state, "shift_storage:white", "to_hold:scientist_hold_0,white")
    assert item(state, "scientist_hold_0")["done"] is True and pv(state, 0, "vp") == 10
    assert pool(state, "contents@scientist_hold_0") == {}  # the treasures go back to the bag
    assert var(state, "shifts") == 1  # she chooses not to move a fourth treasure
    play(state, "to_storage:red", "done")


def test_purser_second_space_and_enhanced_action() -> None:
    state = scenario("purser")
    assert "place:purser_1" not in ids(state)  # taken by another player's marker
    play(state, "place:purser_2", "basic", "enhanced")
    assert pv(state, 0, "gold") == 3 + 5 + 2


@pytest.mark.parametrize("space, paid, vp", [("merchant_1", 2, 5), ("merchant_3", 3, 4)])
def test_merchant_converts_gold_to_vp(space: str, paid: int, vp: int) -> None:
    state = scenario("merchant")
    play(state, f"place:{space}", "basic")
    assert pv(state, 0, "gold") == 5 - paid and pv(state, 0, "vp") == vp
    play(state, "gold:2")  # gold action: 2 gold for 1 more VP
    assert pv(state, 0, "gold") == 3 - paid and pv(state, 0, "vp") == vp + 1


def test_scientist_then_science_card() -> None:
    state = scenario("scientist")
    assert not any(a.startswith("science:") for a in ids(state))  # power 0: no card may be played
    play(state, "place:scientist_2", "basic")
    assert pv(state, 0, "power") == 1 and zone(state, "science_hand@0") == ["sci_draw_1", "sci_store_red_1"]
    play(state, "science:sci_draw_1")
    assert pv(state, 0, "power") == 0 and pool(state, "loose@0") == {"green": 2}
    assert "sci_draw_1" in zone(state, "science_used")


def test_explorer_picks_up_from_an_orthogonally_adjacent_space() -> None:
    state = scenario("explorer")
    play(state, "place:explorer_3")
    # Purple or black only, from orthogonal neighbours: not the white beside it, not the diagonal black.
    assert sorted(a for a in ids(state) if a.startswith("explore:")) == ["explore:w01,purple", "explore:w21,black"]
    play(state, "explore:w21,black")
    assert pool(state, "loose@0") == {"black": 1} and pool(state, "treasures@w21") == {"white": 1}


def test_explorer_phase_leftmost_first_paying_2_3_4() -> None:
    state = scenario("explorer_phase")  # Green (seat 1) leftmost, then Blue (seat 2), then Yellow (seat 0)
    assert state.current_player == 1
    assert all(a.startswith("extra_turn:2,") or not a.startswith("extra_turn") for a in ids(state))
    assert "extra_turn:2,scientist,scientist_1" not in ids(state)  # occupied
    play(state, "extra_turn:2,scientist,scientist_2", "basic", "done")
    assert pv(state, 1, "gold") == 3 and pv(state, 1, "power") == 1
    assert item(state, "explorer_1")["marker"] == -1 and item(state, "scientist_2")["marker"] == 1
    assert zone(state, "crew_played@1")[0] == "scientist"
    assert state.current_player == 2
    assert [a for a in ids(state) if a.startswith("extra_turn")] == []  # Blue has 2 gold, the turn costs 3
    play(state, "decline")
    assert state.current_player == 0
    assert all(a.split(",")[0] == "extra_turn:4" for a in ids(state) if a.startswith("extra_turn"))


def test_cabin_example_chest_storage_gem_and_merchant_hold() -> None:
    state = scenario("cabin_example")
    play(state, "to_chest:white")
    assert (pv(state, 0, "gold"), pv(state, 0, "vp")) == (1, 1)
    play(state, "to_chest:yellow")
    assert (pv(state, 0, "gold"), pv(state, 0, "vp")) == (4, 3)
    play(state, "to_chest:green")
    assert pool(state, "loose@0") == {"yellow": 1}  # drawn from the bag (only yellows in it)
    play(state, "to_storage:yellow", "exchange:yellow")
    assert pool(state, "storage@0") == {"gem": 1}
    play(state, "gem_to_hold:merchant_hold_0")
    assert item(state, "merchant_hold_0")["done"] is True and pv(state, 0, "vp") == 8


def test_day_end_conclude_and_discovery() -> None:
    state = scenario("day_end")
    play(state, "done")
    # Phase IV: markers back, crew cards back to hand, sun to the left, hourglass with the sun.
    assert all(item(state, s)["marker"] == -1 for s in ("merchant_1", "captain_1", "pilot_2"))
    assert all(len(zone(state, f"crew_hand@{p}")) == 7 for p in range(3))
    assert var(state, "sun") == 1 and var(state, "hourglass") == 1 and var(state, "day") == 2
    assert "discovery_small_3" in zone(state, "discovery_out")
    # Phase I: discovery_small_1 checks w40 w01 w21 w31 w41 w43 w14 w24.
    assert zone(state, "discovery_up") == ["discovery_small_1"]
    assert pool(state, "treasures@w40") == {} and pool(state, "treasures@w21") == {}  # ships there
    assert pool(state, "treasures@w31") == {"red": 3}  # already 3
    assert sum(pool(state, "treasures@w41").values()) == 2
    for w in ("w01", "w43", "w14", "w24"):
        assert sum(pool(state, f"treasures@{w}").values()) == 1
    # Stage 1 again: a secret choice for everyone.
    assert state.stage == "pick" and sorted(state.players_to_decide()) == [0, 1, 2]


def test_two_player_variant_neutral_ship_example() -> None:
    state = scenario("neutral_pilot")
    white_in_bag = zone(state, "bag")["white"]
    play_picks(state)
    # The compass disc went from north-west 3 spaces to east (blocked), then 2 more to south.
    assert var(state, "compass") == 4
    assert ship(state, "neutral_ship") == "w44"  # 2 spaces south, stopped by the edge instead of 3
    assert pool(state, "treasures@w44") == {} and zone(state, "bag")["white"] == white_in_bag + 1
    assert item(state, "pilot_2")["marker"] == 9  # the leftmost available pilot space
    assert state.current_player == var(state, "hourglass")  # then the players' turns, from the hourglass


def play_picks(state: ruleskit.State) -> None:
    for p in list(state.players_to_decide()):
        state.apply(state.legal_actions(p)[0], player=p)
