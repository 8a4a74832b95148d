"""Ophir's rules and rulings R1-R14, edge cases included, each pinned by a scenario or a seeded setup."""

from __future__ import annotations

import pytest
from ophir_helpers import cargo, ids, play, pv, rolls, scenario, ship, zone

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


# ------------------------------------------------------------------ navigation

def test_r1_failure_lowers_every_ship_with_the_highest_value() -> None:
    state = scenario("failed_check_lowers_all_highest")
    assert [ship(state, p)["influence"] for p in range(4)] == [4, 4, 3, 4]
    assert ship(state, 0)["at"] == "h3"


def test_r2_two_failed_checks_lose_the_actions() -> None:
    state = scenario("two_failures")
    assert ship(state, 0)["at"] == "h3" and ship(state, 0)["influence"] == 2
    assert state.data["flow"]["active"] != 0 and state.stage == "navigate"
    assert ship(state, 1)["influence"] == 4  # lowered by both failures


def test_r2_success_then_failure_still_acts() -> None:
    state = scenario("success_then_failure")
    assert ship(state, 0)["at"] == "h2" and state.stage == "act"
    assert "acquire:wood" in ids(state)


def test_r3_r4_must_move_without_favor() -> None:
    state = scenario("must_move")
    legal = ids(state)
    assert all(a.startswith("sail:") for a in legal)
    assert "sail:h3" not in legal  # never back to the starting hex


def test_r3_no_favor_moves_after_a_successful_sail() -> None:
    state = scenario("influence_success")
    assert "anchor" not in ids(state) and "influence_move" not in ids(state)
    assert "sail:h3" not in ids(state)  # R4


def test_r11_priest_gains_favor_when_anchoring_at_the_temple() -> None:
    state = scenario("priest_anchor")
    assert pv(state, 0, "favor") == 3 and state.stage == "act"


# ------------------------------------------------------------------ actions

def test_favor_above_six_is_lost() -> None:
    state = scenario("favor_cap")
    assert pv(state, 0, "favor") == 6 and pv(state, 0, "vp") == 3


def test_r5_r14_buying_a_metal_with_one_free_hold() -> None:
    state = scenario("metal_discard_choice")
    assert state.prompt == "Discard a good to make room"
    assert sorted(ids(state)) == ["cloth", "wood"]
    play(state, "cloth")
    assert cargo(state, 0) == {"wood": 1, "silver": 1} and pv(state, 0, "coins") == 0
    assert zone(state, "supply")["cloth"] == 5


def test_r14_coins_and_favor_never_combine() -> None:
    state = scenario("metal_discard_choice")
    play(state, "wood")
    # 0 coins and 2 favor now: neither metal can be paid for (gold 3 coins or 5 favor, silver 1 or 3).
    assert not any(a.startswith("buy_metal") for a in ids(state))


def test_r5_metals_are_never_discarded() -> None:
    state = scenario("full_of_metal")
    assert "acquire:wood" not in ids(state)
    with pytest.raises(IllegalAction):
        state.apply("acquire:wood")
    assert cargo(state, 0) == {"silver": 1}


def test_hold_purchases_twice_a_game_on_separate_turns() -> None:
    state = scenario("cargo_hold")
    assert "buy_hold" not in ids(state)
    state.data["pv"][0]["hold_buys"] = 2
    state.data["flow"]["usage"]["turn"] = {}
    state._legal = None
    assert "buy_hold" not in ids(state)


def test_r12_moneychanger_no_donation_after_a_temple_trade() -> None:
    state = scenario("moneychanger")
    assert pv(state, 0, "coins") == 0 and not any(a.startswith("donate") for a in ids(state))


# ------------------------------------------------------------------ end of the game

def test_r7_temple_end_mid_turn_keeps_unplaced_metals() -> None:
    state = scenario("temple_end")
    assert state.is_terminal and state.result["reason"] == "the temple is complete"
    assert state.result["scores"] == [33, 30]  # 20 + 10 gold + 3 for the silver still in cargo (R8)
    assert cargo(state, 0) == {"silver": 1}


def test_r6_market_end_mid_turn_keeps_the_trade() -> None:
    state = scenario("market_end")
    assert state.is_terminal and state.result["reason"] == "the market cannot be refilled"
    assert pv(state, 0, "coins") == 3  # 2 for the trade, 1 for the stone sold in it


def test_r6_last_future_card_refills_the_market() -> None:
    state = scenario("market_last_future")
    assert not state.is_terminal
    assert zone(state, "market_row") == [None, "b08", "a15", "a06"]


@pytest.mark.parametrize("name, winners", [
    ("tiebreak_favor", [0]), ("tiebreak_coins", [1]), ("tiebreak_goods", [0]), ("tiebreak_shared", [0, 1]),
])
def test_r8_tie_breaks(name: str, winners: list[int]) -> None:
    state = scenario(name)
    assert state.is_terminal and state.result["scores"] == [30, 30]
    assert state.result["winners"] == winners


# ------------------------------------------------------------------ two players: the rival ship

def test_r9_rival_never_enters_the_other_players_hex() -> None:
    state = scenario("rival_avoids_other_player")
    assert state.prompt == "Sail the rival ship"
    assert "h6" not in ids(state) and "h0" not in ids(state)
    assert sorted(ids(state)) == ["h1", "h2", "h3", "h4", "h5"]
    play(state, "h5")
    assert ids(state) == ["none", "h4"]  # not Green's market hex, not back to the centre
    play(state, "none")
    assert ship(state, "rival") == {"at": "h5", "influence": 2}
    assert state.stage == "navigate" and "sail:h5" not in ids(state)  # once per turn
    assert rolls(state) == [6, 2]


def test_r9_failed_check_lowers_the_rival() -> None:
    state = scenario("rival_check_fails")
    assert ship(state, "rival")["influence"] == 3 and ship(state, 0)["at"] == "h3"
