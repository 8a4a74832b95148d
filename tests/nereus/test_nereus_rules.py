"""Waters of Nereus rules one at a time, each pinned by a scenario or a seeded setup."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from nereus_helpers import ids, item, play, pool, pv, scenario, ship, var, zone

import ruleskit
from ruleskit import IllegalAction

BOARD = Path(__file__).resolve().parents[2] / "games" / "nereus" / "board_data.toml"
CARDS = tomllib.loads(BOARD.read_text())["kinds"]["discovery"]["items"]


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("nereus")


def finish_setup(state: ruleskit.State) -> ruleskit.State:
    while state.pending is not None:
        play(state, ids(state)[0])
    return state


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize("players, spaces", [(2, 25), (3, 25), (4, 30)])
def test_setup(game: ruleskit.Game, players: int, spaces: int) -> None:
    state = finish_setup(game.new_game(players=players, seed=7))
    corners = {"w00", "w40", "w04", "w44"} if players < 4 else {"w00", "w50", "w04", "w54"}
    ships = [ship(state, p) for p in range(players)]
    assert len(set(ships)) == players and set(ships) <= corners  # step 5
    for p in range(players):
        assert pool(state, f"storage@{p}") == {"white": 1}  # step 6
        assert pv(state, p, "gold") == 3 and pv(state, p, "power") == 0  # steps 3, 11
        assert len(zone(state, f"science_hand@{p}")) == 3  # step 12: keep 3 of 5
    width = 6 if players == 4 else 5
    at_sea = {f"w{x}{y}": sum(pool(state, f"treasures@w{x}{y}").values()) for x in range(width) for y in range(5)}
    assert len(at_sea) == spaces
    # Step 8, then day 1's Phase I: one treasure on every space without a ship, one more on checked spaces.
    checked = CARDS[zone(state, "discovery_up")[0]]["spaces"]
    assert all(n == (0 if w in ships else 1 + (w in checked)) for w, n in at_sea.items())
    assert all(sum(pool(state, f"treasures@w5{y}").values()) == 0 for y in range(5)) or players == 4
    deck = zone(state, "discovery_deck") + zone(state, "discovery_up")
    assert len(deck) == 4 and all(("large" in d) == (players == 4) for d in deck)  # step 9
    assert len(zone(state, "science_deck")) == 22 - 3 * players
    assert var(state, "sun") == var(state, "hourglass")  # step 13
    assert state.stage == "pick"


def test_setup_corners_are_chosen_in_turn_and_differ(game: ruleskit.Game) -> None:
    state = game.new_game(players=4, seed=3)
    first = state.pending["player"]
    assert sorted(ids(state)) == ["w00", "w04", "w50", "w54"]
    play(state, "w50")
    assert state.pending["player"] == (first + 1) % 4 and "w50" not in ids(state)


def test_setup_keeps_3_of_5_science_cards_secretly(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=4)
    play(state, ids(state)[0])  # corners
    play(state, ids(state)[0])
    # One decision: the 10 ways to keep 3 of the 5 cards dealt, in the hand's order.
    dealt = list(zone(state, "science_hand@0"))
    assert state.pending["player"] == 0 and len(ids(state)) == 10
    assert ids(state)[0] == "+".join(dealt[:3]) and ids(state)[-1] == "+".join(dealt[2:])
    assert state.view(1)["zones"]["science_hand@0"] == {"hidden": True, "count": 5}
    assert "options" not in state.view(1)["pending"] and len(state.view(0)["pending"]["options"]) == 10
    play(state, f"{dealt[0]}+{dealt[2]}+{dealt[4]}")
    assert zone(state, "science_hand@0") == [dealt[0], dealt[2], dealt[4]] and state.pending["player"] == 1
    assert dealt[1] in zone(state, "science_deck") and dealt[3] in zone(state, "science_deck")


# ------------------------------------------------------------------ movement

def test_passing_a_ship_pays_its_owner_and_ships_block_stops() -> None:
    state = scenario("toll")  # P1's ship at w10, P2's at w30; P0 (1 gold) at w00, pilot
    play(state, "place:pilot_1")
    sails = [a for a in ids(state) if a.startswith("sail:")]
    assert "sail:w10" not in sails and "sail:w30" not in sails  # may not stop on a ship
    assert "sail:w20" in sails and "sail:w40" not in sails  # passing two ships needs 2 gold
    play(state, "sail:w20")
    assert pv(state, 0, "gold") == 0 and pv(state, 1, "gold") == 4


def test_diagonal_space_moves_only_diagonally() -> None:
    state = scenario("captain_gold")
    assert "place:captain_4" not in ids(state)  # 3 spaces a row on the 2-3 player side (ruling N2)
    play(state, "place:captain_3")  # move 0-2 diagonally, +1 for 2 gold (w44 holds a ship)
    assert sorted(a for a in ids(state) if a.startswith("sail:")) == ["sail:w11", "sail:w22", "sail:w33"]


def test_captain_gold_is_one_gold_action_per_turn() -> None:
    state = scenario("captain_gold")
    play(state, "place:captain_2", "sail:w20")  # +1 space for 2 gold
    assert pv(state, 0, "gold") == 1 and var(state, "gold_done") is True
    assert not any(a.startswith("sail:") for a in ids(state))  # the basic action is done


def test_pilot_moves_orthogonally_and_the_leg_must_turn() -> None:
    state = scenario("pilot_turns")
    play(state, "place:pilot_3")  # 0-2 orthogonally
    assert sorted(a for a in ids(state) if a.startswith("sail:")) == ["sail:w01", "sail:w02", "sail:w10", "sail:w20"]
    state = scenario("pilot_turns")
    play(state, "place:pilot_1", "sail:w20")
    assert "leg:w30" not in ids(state) and "leg:w22" in ids(state)  # a leg changes direction
    play(state, "anchor")
    assert state.stage == "act" and pv(state, 0, "gold") == 3  # no turn taken, nothing paid


def test_enhanced_captain_moves_one_more() -> None:
    state = scenario("enhanced_captain")
    play(state, "place:captain_2")  # 'move 0-1' reaches 2 spaces with no gold
    sails = [a for a in ids(state) if a.startswith("sail:")]
    assert "sail:w20" in sails and "sail:w22" in sails and "sail:w30" not in sails


def test_enhanced_pilot_changes_direction_free() -> None:
    state = scenario("enhanced_pilot")
    play(state, "place:pilot_3", "sail:w10", "leg:w11")
    assert ship(state, 0) == "w11" and pv(state, 0, "gold") == 0 and state.stage == "act"


def test_enhanced_explorer_picks_any_colour() -> None:
    state = scenario("enhanced_explorer")
    play(state, "place:explorer_1")  # white or yellow only, but enhanced
    assert "explore:w10,red" in ids(state)


# ------------------------------------------------------------------ the cabin

def test_hold_colour_requirements() -> None:
    state = scenario("holds")  # purser's hold: red, green; merchant's: black; captain's: purple, green
    holds = {a.split(":")[1] for a in ids(state) if a.startswith("to_hold:")}
    assert {"purser_hold_0,black", "purser_hold_0,white"} <= holds and "purser_hold_0,red" not in holds  # all different
    assert "merchant_hold_0,black" in holds and "merchant_hold_0,red" not in holds  # all the same colour
    assert "captain_hold_0,red" in holds and "captain_hold_0,white" not in holds  # its icons only
    assert all(f"{h}_hold_0,gem" in holds for h in ("captain", "pilot", "purser", "merchant", "scientist"))  # wild
    with pytest.raises(IllegalAction):
        state.apply("to_hold:captain_hold_0,white")


def test_completing_a_hold_with_a_gem_returns_treasures_and_scores() -> None:
    state = scenario("holds")
    bag = dict(zone(state, "bag"))
    gems = zone(state, "gem_supply")["gem"]  # the scenario's gems came out of the supply
    play(state, "to_hold:captain_hold_0,red", "to_hold:captain_hold_0,gem")
    assert item(state, "captain_hold_0")["done"] is True and pv(state, 0, "vp") == 12
    assert pool(state, "contents@captain_hold_0") == {}
    assert zone(state, "bag")["purple"] == bag["purple"] + 1 and zone(state, "bag")["red"] == bag["red"] + 1
    assert zone(state, "gem_supply")["gem"] == gems + 1  # the gem goes back to the supply
    assert not any(a.startswith("to_hold:captain_hold_0") for a in ids(state))  # the token covers it


def test_storage_pair_limits_and_gems() -> None:
    state = scenario("storage")  # storage: black, red, red, gem, gem; in hand: purple, green, gem
    assert "to_storage:purple" in ids(state) and "to_storage:green" not in ids(state)  # red/green pair is full
    play(state, "to_storage:gem")
    assert "to_storage:purple" in ids(state)
    play(state, "to_storage:purple")
    assert pool(state, "storage@0") == {"black": 1, "purple": 1, "red": 2, "gem": 3}
    assert not any(a.startswith("exchange") for a in ids(state))  # 3 gems already


def test_exchange_and_sell_from_storage() -> None:
    state = scenario("storage")
    gems = zone(state, "gem_supply")["gem"]  # the scenario's gems came out of the supply
    play(state, "exchange:red")
    assert pool(state, "storage@0") == {"black": 1, "gem": 3}
    play(state, "sell:gem,5", "sell:black,2")
    assert pv(state, 0, "gold") == 7 and pool(state, "storage@0") == {"gem": 2}
    assert zone(state, "gem_supply")["gem"] == gems - 1 + 1


def test_chest_fills_in_order_and_a_gem_takes_the_colour_it_replaces() -> None:
    state = scenario("chest")  # chest: white, yellow, green; in hand: red, purple, gem
    assert "to_chest:purple" not in ids(state) and "to_chest:red" in ids(state)
    play(state, "to_chest:gem")  # in red's place: red's reward
    assert pv(state, 0, "vp") == 3 and zone(state, "chest@0")[-1] == "gem"
    assert "to_chest:purple" in ids(state) and "to_chest:red" not in ids(state)
    play(state, "to_chest:purple")
    assert pv(state, 0, "vp") == 7


def test_treasures_not_placed_by_the_end_of_the_turn_are_lost() -> None:
    state = scenario("chest")
    bag = dict(zone(state, "bag"))
    gems = zone(state, "gem_supply")["gem"]  # the scenario's gems came out of the supply
    play(state, "to_chest:red", "done")
    assert pool(state, "loose@0") == {}
    assert zone(state, "bag")["purple"] == bag["purple"] + 1 and zone(state, "gem_supply")["gem"] == gems + 1


def test_enhanced_action_not_on_the_turn_the_hold_is_completed() -> None:
    state = scenario("enhanced")  # merchant's hold holds 2 reds; a red in hand
    play(state, "to_hold:merchant_hold_0,red")
    assert item(state, "merchant_hold_0")["done"] is True and pv(state, 0, "vp") == 5
    assert "enhanced" not in ids(state)
    play(state, "basic", "done")
    assert pv(state, 0, "vp") == 10


def test_one_gold_action_per_turn() -> None:
    state = scenario("merchant")
    play(state, "place:merchant_1", "gold:2")
    assert not any(a.startswith("gold") for a in ids(state))


def test_purser_gold_action_draws_a_treasure() -> None:
    state = scenario("purser")
    play(state, "place:purser_2", "gold:3")
    assert pv(state, 0, "gold") == 0 and sum(pool(state, "loose@0").values()) == 1


def test_scientist_enhanced_draws_then_discards() -> None:
    assert "enhanced" not in ids(play(scenario("scientist"), "place:scientist_1"))  # hold not complete
    state = scenario("scientist_enhanced")
    play(state, "place:scientist_1", "enhanced")
    assert zone(state, "science_hand@0") == ["sci_draw_1", "sci_store_red_1"] and state.pending is not None
    play(state, "sci_store_red_1")  # the card just drawn may be the one discarded
    assert zone(state, "science_hand@0") == ["sci_draw_1"] and "sci_store_red_1" in zone(state, "science_used")
    play(state, "basic")
    assert pv(state, 0, "power") == 2


def test_scientist_third_space_on_the_small_side_is_advance_or_draw() -> None:
    state = scenario("scientist")
    play(state, "place:scientist_3", "basic")
    assert state.pending is not None and sorted(ids(state)) == ["false", "true"]
    play(state, "true")
    assert pv(state, 0, "power") == 0 and zone(state, "science_hand@0") == ["sci_draw_1", "sci_store_red_1"]


def test_scientist_gold_action_power_is_capped_at_5() -> None:
    state = scenario("scientist")
    play(state, "place:scientist_1", "basic", "gold_science:power")
    assert pv(state, 0, "power") == 3 and pv(state, 0, "gold") == 0


# ------------------------------------------------------------------ science cards

def test_science_card_pick_up_from_any_water_space() -> None:
    state = scenario("science_cards")
    play(state, "science:sci_fish_1")
    assert state.pending is not None and "w33" in ids(state)
    play(state, "w11")
    assert sorted(ids(state)) == ["black", "red"]
    play(state, "black")
    assert pool(state, "loose@0") == {"black": 1} and pv(state, 0, "power") == 1
    assert pool(state, "treasures@w11") == {"red": 1}


def test_science_card_sail_one_space_for_3_gold() -> None:
    state = scenario("science_cards")
    play(state, "science:sci_sail_1")
    assert "w10" not in ids(state) and sorted(ids(state)) == ["w01", "w11"]  # w10 holds a ship
    play(state, "w01")
    assert ship(state, 0) == "w01" and pv(state, 0, "gold") == 0 and pool(state, "loose@0") == {"yellow": 1}


def test_game_end_cards_are_not_playable_during_the_game() -> None:
    state = scenario("science_cards")
    assert "science:sci_store_red_1" not in ids(state)


# ------------------------------------------------------------------ bag, turn order, days, end

def test_empty_bag_gets_an_extra_set_whose_treasures_leave_the_game() -> None:
    state = scenario("empty_bag")  # the purser's gold action drew from an empty bag
    assert var(state, "extra_sets") == 1 and sum(pool(state, "loose@0").values()) == 1
    assert sum(pool(state, "bag").values()) == 7
    play(state, "sell:white,2")
    assert pool(state, "removed") == {"white": 1} and pool(state, "extra_owed")["white"] == 1


def test_turn_order_from_the_hourglass_and_it_passes_each_cycle(game: ruleskit.Game) -> None:
    state = finish_setup(game.new_game(players=3, seed=1))
    glass = var(state, "hourglass")
    turns = []
    for cycle in range(4):
        for p in state.players_to_decide():
            state.apply(state.legal_actions(p)[0], player=p)
        for _ in range(3):
            turns.append(state.current_player)
            play(state, next(a for a in ids(state) if a.startswith("place:")), "done")
        if cycle < 3:
            assert var(state, "hourglass") == (glass + cycle + 1) % 3
    assert turns == [(glass + c + k) % 3 for c in range(4) for k in range(3)]


def test_crew_choice_is_secret_until_all_have_chosen(game: ruleskit.Game) -> None:
    state = finish_setup(game.new_game(players=3, seed=2))
    assert sorted(state.players_to_decide()) == [0, 1, 2]
    state.apply("crew:merchant", player=1)
    assert state.players_to_decide() == [0, 2]
    for viewer in (0, 2):
        assert "merchant" not in str(state.view(viewer)["flow"]) and "merchant" in str(state.view(1)["flow"])
        assert len(state.view(viewer)["zones"]["crew_hand@1"]) == 7
    state.apply("crew:captain", player=0)
    state.apply("crew:purser", player=2)
    assert [pv(state, p, "crew_now") for p in range(3)] == ["captain", "merchant", "purser"]
    assert state.view(0)["zones"]["crew_played@1"] == ["merchant"]


def test_game_end_science_cards_and_final_scoring() -> None:
    state = scenario("game_end")  # the last turn of day 4 ended
    assert state.pending["player"] == 0
    play(state, "sci_store_red_1", "sci_store_red_2")  # the red, then the gem: once each
    assert state.pending["player"] == 1  # player 1's power is spent: no more cards
    play(state, "sci_chest_red_2")
    assert state.is_terminal
    result = state.result
    # P0: 10 + 6 + 6 + (3 gold + red 2 + gem 5 + white 2) // 5 = 24; P1: 20 + 3 + 5 // 5 = 24; P2: 24.
    assert result["scores"] == [24, 24, 24]
    # Ties: completed holds (P1, P2 one each), then treasures in incomplete holds (P2 two).
    assert result["ranking"] == [2, 1, 0] and result["winners"] == [2]
    assert pool(state, "storage@0") == {}


def test_game_end_card_needs_power(game: ruleskit.Game) -> None:
    state = scenario("game_end")
    play(state, "none")  # player 0 plays no card
    play(state, "sci_chest_red_2")
    assert state.result["scores"][0] == 10 + (3 + 9) // 5


def test_four_days(game: ruleskit.Game) -> None:
    import random

    state = game.new_game(players=2, seed=5)
    chooser = random.Random(5)
    days = set()
    while not state.is_terminal:
        days.add(var(state, "day"))
        state.apply(chooser.choice(state.legal_actions()))
    assert days == {1, 2, 3, 4} and state.result["reason"] == "four days played"
    assert len(zone(state, "discovery_out")) == 12
