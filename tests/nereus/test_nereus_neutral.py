"""The 2-player variant with the neutral ship (rulebook: Two-player variant), examples/variants/nereus-neutral."""

from __future__ import annotations

import pytest
from nereus_helpers import NEUTRAL, ids, item, play, pool, pv, scenario, ship, var, zone

import ruleskit


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load(str(NEUTRAL))


def picks(state: ruleskit.State) -> None:
    for p in list(state.players_to_decide()):
        state.apply(state.legal_actions(p)[0], player=p)


def test_only_two_players(game: ruleskit.Game) -> None:
    with pytest.raises(ruleskit.RulesError):
        game.new_game(players=3, seed=1)


def test_setup_neutral_ship_in_the_centre(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=3)
    while state.pending is not None:
        play(state, ids(state)[0])
    assert ship(state, "neutral_ship") == "w22" and var(state, "compass") == 0
    assert sorted(zone(state, "neutral_deck")) == sorted(
        ["captain", "pilot", "boatswain", "purser", "merchant", "scientist", "explorer"])
    checked = zone(state, "discovery_up")
    assert checked and sum(pool(state, "treasures@w22").values()) == 0  # no treasure under the neutral ship


def test_neutral_flips_first_each_cycle(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=3)
    while state.pending is not None:
        play(state, ids(state)[0])
    for cycle in range(1, 5):
        empty_before = [k for k, v in state.data["ev"].items() if v.get("marker") == -1]
        picks(state)
        assert len(zone(state, "neutral_played")) == cycle  # flipped before either player's turn
        crew = zone(state, "neutral_played")[0]
        row = [f"{crew}_{pos}" for pos in (1, 2, 3)]
        leftmost = next(s for s in row if s in empty_before)
        assert item(state, leftmost)["marker"] == 9
        for _ in range(2):
            play(state, next(a for a in ids(state) if a.startswith("place:")), "done")


def test_neutral_passes_free_and_lands_on_a_ship() -> None:
    state = scenario("neutral_onto_ship")
    bag = sum(zone(state, "bag").values())
    under = dict(pool(state, "treasures@w24"))
    picks(state)
    assert var(state, "compass") == 4  # north + 4 = south
    assert ship(state, "neutral_ship") == "w24" and ship(state, 1) == "w24"  # passed w23, landed on a ship
    assert pv(state, 0, "gold") == 3 and pv(state, 1, "gold") == 3
    assert item(state, "captain_1")["marker"] == 9
    assert sum(zone(state, "bag").values()) == bag + sum(under.values())


def test_a_player_passing_the_neutral_ship_pays_the_supply() -> None:
    state = scenario("neutral_toll")
    play(state, "place:pilot_1")
    assert "sail:w12" not in ids(state)  # never onto the neutral ship
    play(state, "sail:w32")
    assert pv(state, 0, "gold") == 2 and pv(state, 1, "gold") == 3


def test_neutral_explorer_fifth_card_and_reshuffle() -> None:
    state = scenario("neutral_explorer")  # the fourth cycle ended; Phase III begins
    assert state.data["flow"]["phase"] == "explorers"
    assert zone(state, "neutral_played")[0] == "purser" and len(zone(state, "neutral_played")) == 5
    assert item(state, "explorer_1")["marker"] == -1 and item(state, "purser_2")["marker"] == 9  # purser_1 taken
    assert state.current_player == 1  # then the players in the explorer row
    play(state, "decline")
    assert len(zone(state, "neutral_deck")) == 7 and zone(state, "neutral_played") == []
    assert all(v.get("marker", -1) == -1 for v in state.data["ev"].values())
