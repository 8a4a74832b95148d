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
    assert state.pending["player"] == 0 and len(ids(state)) == 5
    assert state.view(1)["zones"]["science_hand@0"] == {"hidden": True, "count": 5}
    assert "options" not in state.view(1)["pending"] and len(state.view(0)["pending"]["options"]) == 5
    play(state, ids(state)[0])
    play(state, ids(state)[0])
    assert len(zone(state, "science_hand@0")) == 3 and state.pending["player"] == 1


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
