"""Ophir's rules and rulings R1-R14, edge cases included, each pinned by a scenario or a seeded setup."""

from __future__ import annotations

import random

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
    # Yellow bought a hold, Green sailed, Yellow anchored and bought his second, Green sailed, Yellow anchored.
    state = scenario("hold_twice")
    assert state.data["flow"]["active"] == 0 and state.stage == "act"
    assert pv(state, 0, "holds") == 4 and pv(state, 0, "hold_buys") == 2
    assert pv(state, 0, "coins") == 2 and pv(state, 0, "favor") == 0
    assert "buy_hold" not in ids(state)  # 2 coins in hand, but a third purchase is never allowed


def test_hold_purchase_once_a_turn() -> None:
    state = scenario("cargo_hold")
    assert pv(state, 0, "coins") == 2 and pv(state, 0, "holds") == 3
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply("buy_hold")  # 2 coins and a free token, but not a second hold this turn
    assert state.to_json() == before


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


# ------------------------------------------------------------------ audit: navigation

def test_r3_influence_move_after_one_failed_check_bypasses_the_second() -> None:
    state = scenario("influence_failure")
    play(state, "influence_move", "sail:h0")
    assert ship(state, 0)["at"] == "h0" and pv(state, 0, "favor") == 1
    assert ship(state, 1)["influence"] == 4  # no second check, no second lowering
    assert rolls(state) == [3] and state.stage == "act"


def test_r3_anchor_after_one_failed_check() -> None:
    state = scenario("influence_failure")
    play(state, "anchor")
    assert ship(state, 0)["at"] == "h3" and state.stage == "act" and pv(state, 0, "favor") == 1
    assert "acquire:gems" in ids(state)


def test_r3_no_anchor_after_an_influence_move() -> None:
    state = scenario("influence_failure")
    play(state, "influence_move")
    assert "anchor" not in ids(state) and "influence_move" not in ids(state)  # README ruling 3


def test_r3_r11_priest_after_two_failed_checks() -> None:
    state = scenario("priest_two_failures")
    play(state, "sail:h0")
    assert {"anchor", "influence_move"} <= set(ids(state))  # after exactly one failure
    play(state, "sail:h0")
    # R2: navigation ended with no actions; R3: no anchor after two failures; R11: no favor for the temple.
    assert state.data["flow"]["active"] == 1 and state.stage == "navigate"
    assert ship(state, 0)["at"] == "h1" and pv(state, 0, "favor") == 2
    assert rolls(state) == [1, 2]


def test_r4_sailing_back_to_the_starting_hex_is_refused() -> None:
    state = scenario("influence_success")
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply("sail:h3")
    assert state.to_json() == before


def test_r4_r10_harbormaster_never_sails_on_to_his_starting_hex() -> None:
    state = scenario("harbormaster_first_hex")
    assert state.stage == "act" and pv(state, 0, "favor") == 1
    assert sorted(a for a in ids(state) if a.startswith("sail_on")) == ["sail_on:h0", "sail_on:h1"]
    play(state, "acquire:wood", "sail_on:h0")
    assert "acquire:cloth" in ids(state)  # R10: one good at each hex
    assert rolls(state) == []  # the Influence Move covers the whole turn


def test_navigator_needs_a_check_over_an_open_edge() -> None:
    state = scenario("navigator_plain_edge")
    assert rolls(state) == [2] and ship(state, 0)["at"] == "h1"
    assert ship(state, 1)["influence"] == 5


def test_temple_guard_bonus_is_capped_at_six() -> None:
    state = scenario("temple_guard_six")
    assert ship(state, 0)["influence"] == 6 and ship(state, 0)["at"] == "h1"
    assert ship(state, 1)["influence"] == 6


# ------------------------------------------------------------------ audit: actions

def test_acquire_discards_a_good_of_the_players_choice() -> None:
    state = scenario("acquire_full_cargo")
    play(state, "acquire:stone")
    assert state.prompt == "Discard a good to make room" and sorted(ids(state)) == ["cloth", "wood"]
    play(state, "wood")
    assert cargo(state, 0) == {"cloth": 1, "stone": 1}
    assert zone(state, "supply")["wood"] == 5 and zone(state, "supply")["stone"] == 4


def test_basic_goods_are_limited_by_the_supply() -> None:
    state = scenario("acquire_empty_supply")
    assert "acquire:stone" not in ids(state)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply("acquire:stone")
    assert state.to_json() == before


def test_the_future_card_is_never_traded() -> None:
    state = scenario("market_trade")
    # b08 (stone) is the Future card: Yellow's stone matches it, but only Current cards trade.
    assert [a for a in ids(state) if a.startswith("trade")] == ["trade:a15"]


def test_donation_only_under_the_temple_merchant() -> None:
    state = scenario("temple_merchant_only")
    assert [a for a in ids(state) if a.startswith("donate")] == ["donate:a10"]
    assert not any(a.startswith("trade") for a in ids(state))  # no Market Trade at the temple
    play(state, "donate:a10")
    # The -1 modifier under a10 does not apply to a donation.
    assert pv(state, 0, "vp") == 3 and cargo(state, 0) == {}


def test_specialist_goods_sold_without_a_trade_do_not_cycle() -> None:
    state = scenario("specialty_sale")
    row = zone(state, "market_row")
    play(state, "sell_specialty:2")
    assert pv(state, 2, "coins") == 2 and cargo(state, 2) == {}
    assert zone(state, "market_row") == row and zone(state, "discards") == []
    assert zone(state, "supply")["stone"] == 5


def test_r5_several_goods_discarded_for_one_metal() -> None:
    state = scenario("metal_two_discards")
    play(state, "buy_metal:silver,coins")
    assert state.prompt == "Discard a good to make room" and sorted(ids(state)) == ["cloth", "wood"]
    play(state, "cloth")
    assert state.prompt == "Discard a good to make room" and ids(state) == ["wood"]
    play(state, "wood")
    assert cargo(state, 0) == {"silver": 1} and pv(state, 0, "coins") == 0
    assert zone(state, "supply")["wood"] == 5 and zone(state, "supply")["cloth"] == 5


def test_r5_metals_are_never_discarded_to_make_room() -> None:
    state = scenario("metal_room_beside_metal")
    play(state, "buy_metal:silver,coins")
    assert sorted(ids(state)) == ["cloth", "wood"]  # never the silver
    play(state, "wood")
    assert ids(state) == ["cloth"]
    play(state, "cloth")
    assert cargo(state, 0) == {"silver": 2} and pv(state, 0, "coins") == 4
    assert not any(a.startswith("buy_metal") for a in ids(state))  # 4 holds of metal: no room


def test_r14_each_metal_wholly_in_coins_or_in_favor() -> None:
    state = scenario("metal_payment")
    # 2 coins + 4 favor would cover a gold only by combining them (3 coins or 5 favor).
    assert sorted(a for a in ids(state) if a.startswith("buy_metal")) == [
        "buy_metal:silver,coins", "buy_metal:silver,favor"]
    before = state.to_json()
    for refused in ("buy_metal:gold,coins", "buy_metal:gold,favor"):
        with pytest.raises(IllegalAction):
            state.apply(refused)
        assert state.to_json() == before


def test_r14_two_metals_in_one_turn() -> None:
    state = scenario("metal_payment")
    play(state, "buy_metal:silver,coins", "buy_metal:silver,favor")
    assert cargo(state, 0) == {"silver": 2}
    assert pv(state, 0, "coins") == 1 and pv(state, 0, "favor") == 1
    assert zone(state, "supply")["silver"] == 3


def test_r12_moneychanger_no_trade_after_a_donation() -> None:
    state = scenario("moneychanger_at_temple")
    assert "trade:a06" in ids(state) and "donate:a10" in ids(state)
    play(state, "donate:a10")
    assert pv(state, 0, "vp") == 3 and cargo(state, 0) == {"gems": 1}
    assert not any(a.startswith("trade") for a in ids(state))
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply("trade:a06")
    assert state.to_json() == before


def test_r12_moneychanger_sells_specialist_goods_only_at_the_market() -> None:
    state = scenario("moneychanger_at_temple")
    assert not any(a.startswith("sell_specialty") for a in ids(state))
    play(state, "trade:a06")
    # No "how many to sell" question at the temple: the trade is done and her cloth stays aboard.
    assert state.pending is None and pv(state, 0, "coins") == 2
    assert cargo(state, 0) == {"stone": 1, "cloth": 1}
    assert not any(a.startswith("donate") for a in ids(state))
    # One Market Trade a turn: her stone matches a15 (now in slot 2), but no second trade.
    assert zone(state, "market_row")[2] == "a15" and not any(a.startswith("trade") for a in ids(state))


def test_r13_chancellor_favor_covers_only_what_it_can_pay() -> None:
    state = scenario("chancellor_short")
    trades = [a for a in ids(state) if a.startswith("trade")]
    assert trades == ["trade:a06", "trade:a10"]  # b22 lacks 2 goods, she has 1 favor
    play(state, "trade:a06")
    assert pv(state, 0, "favor") == 0 and pv(state, 0, "coins") == 3  # 2 + the +1 modifier
    assert cargo(state, 0) == {"cloth": 1}  # her cloth was not part of the card


def test_chancellor_favor_never_pays_a_donation() -> None:
    state = scenario("chancellor_at_temple")
    # a10 (stone+cloth) is under the Temple Merchant; she has a cloth and 3 favor, but favor is for trades only.
    assert not any(a.startswith("donate") for a in ids(state))
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply("donate:a10")
    assert state.to_json() == before


# ------------------------------------------------------------------ audit: end of the game

def test_r7_three_player_temple_ends_with_the_7_4_tier() -> None:
    state = scenario("temple_end_three_players")
    assert state.is_terminal and state.result["reason"] == "the temple is complete"
    assert state.legal_actions() == []  # nothing else is taken that turn
    assert zone(state, "built_tiers")[-1] == "tier_7_4" and zone(state, "tiers") == []
    # 20 + 5 for the silver, + 5 for the gold still in cargo (R8); the others unchanged.
    assert state.result["scores"] == [12, 25, 30] and state.result["winners"] == [2]
    assert cargo(state, 2) == {"gold": 1}


def test_r6_market_end_takes_nothing_more() -> None:
    state = scenario("market_end")
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.apply("end_turn")


def test_r6_r9_rival_cycle_ends_the_game_mid_navigation() -> None:
    state = scenario("rival_cycle_ends_game")
    assert state.is_terminal and state.result["reason"] == "the market cannot be refilled"
    assert ship(state, "rival") == {"at": "h6", "influence": 5}
    assert state.result["scores"] == [5, 4] and state.legal_actions() == []


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


# ------------------------------------------------------------------ audit: the rival ship

def test_r9_influence_move_into_the_rivals_hex_still_moves_it() -> None:
    state = scenario("rival_influence_move")
    assert ship(state, 0)["at"] == "h0" and ship(state, 0)["influence"] == 1
    assert rolls(state) == []  # no influence check
    play(state, "h1")
    assert ids(state)[0] == "none" and "h0" not in ids(state)  # never back to its own start
    play(state, "none")
    assert ship(state, "rival") == {"at": "h1", "influence": 3}
    assert rolls(state) == [3]  # the rival's die is rolled after it moves
    assert state.stage == "navigate" and "sail:h1" not in ids(state)  # once per turn


def test_r9_rival_market_cycle_is_optional() -> None:
    state = scenario("rival_to_market")
    assert state.prompt == "Cycle the market for the rival ship?" and ids(state) == ["true", "false"]
    row = zone(state, "market_row")
    declined = play(state.clone(), "false")
    assert zone(declined, "market_row") == row and zone(declined, "discards") == []
    accepted = play(state, "true")
    assert zone(accepted, "discards") == ["a10"] and zone(accepted, "market_row")[1:] == ["b08", "a15", "a06"]
    for after in (declined, accepted):
        assert ship(after, "rival") == {"at": "h6", "influence": 5}
        assert ship(after, 0)["at"] == "h0" and after.stage == "navigate"


def test_r9_a_failed_check_against_the_rival_may_be_retried() -> None:
    state = scenario("rival_check_fails")
    assert "sail:h0" in ids(state)  # the rival's hex was not entered yet


def test_r3_influence_move_never_crosses_a_barrier_nor_adds_movement() -> None:
    state = scenario("influence_move_barrier")
    assert sorted(ids(state)) == ["sail:h0", "sail:h6"]  # not h2, behind the barrier
    play(state, "sail:h0", "sail:h3")
    assert state.stage == "act" and ship(state, 0)["at"] == "h3"  # two movements, then the actions
    assert rolls(state) == [] and not any(a.startswith(("sail", "sail_on")) for a in ids(state))


def test_navigator_over_a_barrier_into_the_rivals_hex_still_moves_it() -> None:
    state = scenario("navigator_into_rival")
    assert rolls(state) == [] and ship(state, 0)["at"] == "h2"
    assert sorted(ids(state)) == ["h0", "h3"]  # the rival itself never crosses the barrier
    play(state, "h3", "none")
    assert ship(state, "rival") == {"at": "h3", "influence": 4}


def test_temple_guard_bonus_is_not_added_to_the_rivals_die() -> None:
    state = scenario("rival_temple_guard")
    assert rolls(state) == [3, 2]
    assert ship(state, 0) == {"at": "h0", "influence": 4}
    assert ship(state, "rival") == {"at": "h1", "influence": 2}


# ------------------------------------------------------------------ README rulings 5 and 7

def test_minus_one_modifier_on_a_one_coin_card_pays_nothing() -> None:
    state = scenario("minus_one_modifier")
    assert state.data["v"]["modifiers"][0] == -1 and zone(state, "market_row")[1] == "a15"
    play(state, "trade:a15")
    assert pv(state, 0, "coins") == 0  # 1 coin - 1, never negative
    assert cargo(state, 0).get("stone", 0) == 0
    assert zone(state, "market_row")[1] == "b08"  # the trade still cycled the market


def test_the_ambassador_has_no_hold_to_buy() -> None:
    state = scenario("ambassador_no_holds")
    assert pv(state, 0, "holds") == 4 and pv(state, 0, "coins") == 6
    assert "buy_hold" not in ids(state)
    before = state.dumps()
    with pytest.raises(IllegalAction):
        state.apply("buy_hold")
    assert state.dumps() == before
