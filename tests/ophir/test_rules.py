"""Ophir rules a single position cannot show: setup (barriers, draft, tiers, supplies) over seeds, views, a whole market.

The rule-by-rule scenario tests are the pack's own, in games/ophir/tests/ (docs/SCENARIOS.md).
"""

from __future__ import annotations

import random

import pytest
from ophir_helpers import cargo, ids, play, pv, scenario, ship, zone

import ruleskit
from ruleskit import IllegalAction


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("ophir")


# ------------------------------------------------------------------ setup

def test_both_barriers_next_to_one_ring_hex_are_refused(game: ruleskit.Game) -> None:
    state = game.new_game(players=3, seed=5)
    assert state.prompt == "Place the first barrier" and len(ids(state)) == 12
    play(state, "h0+h1")  # h1 keeps 2 open edges: h1-h2 and h1-h6 must stay open
    second = ids(state)
    assert "h1+h2" not in second and "h1+h6" not in second and len(second) == 9
    before = state.data
    with pytest.raises(IllegalAction):
        state.apply("h1+h2")
    assert state.data is before and state.prompt == "Place the second barrier"
    state = game.new_game(players=3, seed=5)
    play(state, "h1+h2")
    assert len(ids(state)) == 7  # a ring edge closes off two ring hexes' other edges


def test_barriers_come_before_the_map_tokens(game: ruleskit.Game) -> None:
    state = game.new_game(players=4, seed=2)
    assert all(state.data["ev"][f"h{i}"]["site"] is None for i in range(7))  # still face-down
    while state.pending is not None:
        play(state, ids(state)[0])
    sites = sorted(state.data["ev"][f"h{i}"]["site"] for i in range(7))
    assert sites == sorted(["temple", "market", "metals", "wood_site", "cloth_site", "stone_site", "gems_site"])
    temple_hex = next(f"h{i}" for i in range(7) if state.data["ev"][f"h{i}"]["site"] == "temple")
    assert all(ship(state, p)["at"] == temple_hex and ship(state, p)["influence"] == 1 for p in range(4))


def test_setup_market_and_draft_order(game: ruleskit.Game) -> None:
    state = game.new_game(players=4, seed=11)
    play(state, ids(state)[0])
    play(state, ids(state)[0])
    starter = state.data["v"]["starter"]
    pickers = []
    while state.pending is not None:
        pickers.append(state.pending["player"])
        assert len(ids(state)) == 5 - len(pickers) + 1
        play(state, ids(state)[0])
    # The player to the starting player's right first, passing right; the starting player last.
    assert pickers == [(starter - k) % 4 for k in range(1, 5)]
    assert len(zone(state, "removed")) == 5 and len(zone(state, "market_deck")) == 35
    assert all(card is not None for card in zone(state, "market_row"))
    assert sorted(state.data["v"]["modifiers"]) == [-1, 0, 1]
    assert state.data["flow"]["active"] == starter
    assert zone(state, "tiers")[0] == "tier_2_1" and len(zone(state, "tiers")) == 6
    assert state.data["ev"]["rival"]["at"] is None


@pytest.mark.parametrize("players, tiers", [
    (2, ["tier_3_1", "tier_4_2", "tier_5_2", "tier_6_3"]),
    (3, ["tier_3_1", "tier_4_2", "tier_5_2", "tier_6_3", "tier_7_4"]),
])
def test_temple_tiers_by_player_count(game: ruleskit.Game, players: int, tiers: list[str]) -> None:
    state = game.new_game(players=players, seed=3)
    while state.pending is not None:
        play(state, ids(state)[0])
    assert zone(state, "tiers") == tiers
    if players == 2:
        market_hex = next(f"h{i}" for i in range(7) if state.data["ev"][f"h{i}"]["site"] == "market")
        assert ship(state, "rival") == {"at": market_hex, "influence": 4}


def test_views_hide_victory_points_and_the_deck_order(game: ruleskit.Game) -> None:
    state = scenario("temple_donation")
    view = state.view(1)
    assert "vp" not in view["player_vars"][0] and "vp" in view["player_vars"][1]
    assert state.view(0)["player_vars"][0]["vp"] == 3
    assert view["zones"]["market_deck"] == {"hidden": True, "count": 34}
    assert view["zones"]["removed"] == {"hidden": True, "count": 5}


# ------------------------------------------------------------------ audit: setup

def _finish_barriers(state: ruleskit.State) -> None:
    while state.prompt in ("Place the first barrier", "Place the second barrier"):
        play(state, ids(state)[0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draft_order_and_size_by_player_count(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=20 + players)
    _finish_barriers(state)
    starter = state.data["v"]["starter"]
    pickers, offered = [], []
    while state.pending is not None:
        pickers.append(state.pending["player"])
        offered.append(ids(state))
        play(state, ids(state)[-1])
    # players + 1 drawn; the player to the starting player's right first, passing right (counterclockwise).
    assert [len(o) for o in offered] == list(range(players + 1, 1, -1))
    assert pickers == [(starter - k) % players for k in range(1, players + 1)]
    assert pickers[-1] == starter  # the starting player picks from the final two
    for before, after in zip(offered, offered[1:], strict=False):
        assert set(after) < set(before) and len(set(before) - set(after)) == 1
    taken = [pv(state, p, "specialist") for p in range(players)]
    assert len(set(taken)) == players and set(taken) < set(offered[0])  # one card leaves the game
    assert state.data["flow"]["active"] == starter


SPECIALIST_TABLE = {  # ophir-data.md, Specialists: starting favor and holds after setup
    "advisor": (1, 2), "chancellor": (1, 2), "ambassador": (0, 4), "harbormaster": (2, 2),
    "moneychanger": (2, 2), "priest": (2, 2), "navigator": (1, 2), "temple_guard": (2, 2),
}


@pytest.mark.parametrize("specialist", sorted(SPECIALIST_TABLE))
def test_starting_favor_of_each_specialist(game: ruleskit.Game, specialist: str) -> None:
    for seed in range(50):
        state = game.new_game(players=4, seed=seed)
        _finish_barriers(state)
        first_picker = state.pending["player"]
        if specialist in ids(state):
            break
    else:
        pytest.fail(f"{specialist} never offered to the first picker")
    play(state, specialist)
    while state.pending is not None:
        play(state, ids(state)[0])
    assert pv(state, first_picker, "specialist") == specialist
    for p in range(4):
        favor, holds = SPECIALIST_TABLE[pv(state, p, "specialist")]
        assert (pv(state, p, "favor"), pv(state, p, "holds"), pv(state, p, "hold_buys")) == (favor, holds, 0)


def test_rival_setup_only_with_two_players(game: ruleskit.Game) -> None:
    for players in (3, 4):
        state = game.new_game(players=players, seed=4)
        while state.pending is not None:
            play(state, ids(state)[0])
        assert ship(state, "rival")["at"] is None
        assert all(ship(state, p)["influence"] == 1 for p in range(players))
        assert all(pv(state, p, "coins") == 0 and cargo(state, p) == {} for p in range(players))


def test_starting_player_merchant_and_barriers_at_random(game: ruleskit.Game) -> None:
    starters, merchants = set(), set()
    for seed in range(12):
        state = game.new_game(players=3, seed=seed)
        starter = state.data["v"]["starter"]
        assert state.pending["player"] == starter  # the starting player places the barriers
        play(state, ids(state)[0])
        assert state.pending["player"] == starter
        while state.pending is not None:
            play(state, ids(state)[0])
        starters.add(starter)
        merchants.add(state.data["v"]["merchant_slot"])
    assert starters == {0, 1, 2} and merchants == {1, 2, 3}


def test_legal_barrier_pairs_match_the_map_data(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=0)
    firsts = ids(state)
    pairs = set()
    for first in firsts:
        after = play(state.clone(), first)
        pairs |= {frozenset((first, second)) for second in ids(after)}
    assert len(firsts) == 12 and len(pairs) == 48  # ophir-data.md, Map: 48 of the 66 pairs


def test_market_deck_is_a_on_b_and_supplies_are_full(game: ruleskit.Game) -> None:
    state = game.new_game(players=4, seed=9)
    while state.pending is not None:
        play(state, ids(state)[0])
    row, deck = zone(state, "market_row"), zone(state, "market_deck")
    removed = zone(state, "removed")
    assert all(card.startswith("a") for card in row + deck[:11] + removed)
    assert all(card.startswith("b") for card in deck[11:]) and len(deck[11:]) == 24
    assert len({*row, *deck, *removed}) == len(row + deck + removed) == 44  # every card once
    assert zone(state, "supply") == {g: 5 for g in ["wood", "cloth", "stone", "gems", "gold", "silver"]}
    assert pv(state, 0, "vp") == 0 and state.data["v"]["tier_filled"] == 0


# ------------------------------------------------------------------ a whole market


def _cycles_first(state: ruleskit.State, chooser: random.Random) -> str:
    """A legal decision, preferring the ones that cycle the market (trades, donations, the rival's cycle)."""
    legal = ids(state)
    cycling = [a for a in legal if a.startswith(("trade:", "donate:")) or a == "true"]
    return chooser.choice(cycling or legal)


def test_r6_market_ends_on_the_37th_cycle_from_a_full_deck(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=3)
    while state.pending is not None:  # barriers and draft
        play(state, ids(state)[0])
    assert len(zone(state, "market_deck")) == 35 and zone(state, "discards") == []
    chooser = random.Random(3)
    while not state.is_terminal:
        cycles = len(zone(state, "discards"))  # each cycle discards exactly one card
        assert cycles < 37
        assert all(card is not None for card in zone(state, "market_row")[1:])
        play(state, _cycles_first(state, chooser))
    assert state.result["reason"] == "the market cannot be refilled"
    assert len(zone(state, "discards")) == 37 and zone(state, "market_deck") == []
    assert zone(state, "market_row")[0] is None and zone(state, "market_row")[1] is None
