"""Every worked example of the Ophir rulebook, replayed decision by decision from a scenario file.

Dice are scripted in the scenarios ([rolls]); the asserted outcomes are the ones the rulebook states.
"""

from __future__ import annotations

from ophir_helpers import cargo, ids, play, pv, rolls, scenario, ship, zone


def test_successful_influence_check() -> None:
    state = scenario("influence_success")
    assert ship(state, 0)["at"] == "h0"
    assert ship(state, 0)["influence"] == 5  # Yellow's new influence is the roll
    assert ship(state, 1)["influence"] == 5  # Green is unchanged on a success
    assert state.data["v"]["moves"] == 1
    # He may sail again with his second movement or end navigation.
    assert "stop" in ids(state) and "sail:h1" in ids(state)


def test_failed_influence_check() -> None:
    state = scenario("influence_failure")
    assert ship(state, 0)["at"] == "h3"  # did not move
    assert ship(state, 0)["influence"] == 3
    assert ship(state, 1)["influence"] == 4  # Green lowers her die by 1
    assert state.data["v"]["moves"] == 1
    # A: try again, B: another hex, C: Influence Move, D: Anchor; but not stop (R4).
    legal = ids(state)
    assert {"sail:h0", "sail:h2", "influence_move", "anchor"} <= set(legal)
    assert "stop" not in legal


def test_influence_move_bypasses_every_check() -> None:
    state = scenario("influence_move")
    assert ship(state, 2)["at"] == "h2"
    assert pv(state, 2, "favor") == 0
    assert rolls(state) == []  # no die rolled or adjusted
    assert ship(state, 0)["influence"] == 6 and ship(state, 1)["influence"] == 6
    assert state.stage == "act" and "acquire:wood" in ids(state)


def test_anchor_then_acquire_stone() -> None:
    state = scenario("anchor_and_acquire_stone")
    assert state.stage == "act" and ship(state, 0)["at"] == "h5"
    assert pv(state, 0, "favor") == 0
    play(state, "acquire:stone")
    assert cargo(state, 0) == {"stone": 1}
    assert zone(state, "supply")["stone"] == 4
    assert "acquire:stone" not in ids(state)  # one basic good a turn


def test_market_trade_and_cycle() -> None:
    state = scenario("market_trade")
    assert state.stage == "act"
    play(state, "trade:a15")
    assert pv(state, 0, "coins") == 2  # 1 base + 1 for the +1 modifier
    assert cargo(state, 0) == {}
    # The rightmost card is discarded, the rest move right, a new Future card is revealed.
    assert zone(state, "discards") == ["a10"]
    row = zone(state, "market_row")
    assert row[1:] == ["b08", "a15", "a06"]
    assert row[0] is not None and len(zone(state, "market_deck")) == 34


def test_buy_gold_and_silver_with_coins_and_favor() -> None:
    state = scenario("buy_gold_and_silver")
    # The gold needs a second free hold: Green chooses to discard her wood (R5).
    assert state.prompt == "Discard a good to make room" and ids(state) == ["wood"]
    play(state, "wood")
    assert cargo(state, 1) == {"gold": 1, "silver": 1}
    assert pv(state, 1, "coins") == 0 and pv(state, 1, "favor") == 1
    assert zone(state, "supply")["wood"] == 5


def test_contribute_metals_across_a_tier() -> None:
    state = scenario("contribute_across_tier")
    assert zone(state, "tiers")[0] == "tier_4_2"  # the 3/1 tier was completed
    assert zone(state, "built_tiers") == ["tier_3_1"]
    assert state.data["v"]["tier_filled"] == 1
    assert zone(state, "tier_metals") == {"wood": 0, "cloth": 0, "stone": 0, "gems": 0, "gold": 1, "silver": 0}
    assert zone(state, "supply")["gold"] == 4 and zone(state, "supply")["silver"] == 5
    assert pv(state, 1, "vp") == 15


def test_temple_donation() -> None:
    state = scenario("temple_donation")
    assert pv(state, 0, "vp") == 3
    assert pv(state, 0, "favor") == 4
    assert cargo(state, 0) == {}
    assert zone(state, "discards") == ["a10"]  # the cards cycled
    assert "donate:a15" not in ids(state)


def test_purchase_cargo_hold() -> None:
    state = scenario("cargo_hold")
    assert pv(state, 0, "coins") == 2 and pv(state, 0, "holds") == 3 and pv(state, 0, "hold_buys") == 1
    assert "buy_hold" not in ids(state)  # not twice in one turn


def test_specialist_good_sale_during_a_trade() -> None:
    state = scenario("specialist_good_sale")
    assert pv(state, 2, "coins") == 3
    assert cargo(state, 2) == {}
    assert zone(state, "supply")["stone"] == 5
    assert zone(state, "discards") == ["a10"]


def test_advisor_donates_any_current_card() -> None:
    state = scenario("advisor")
    assert pv(state, 0, "vp") == 3 and pv(state, 0, "favor") == 4
    assert cargo(state, 0) == {}


def test_chancellor_pays_missing_goods_with_favor() -> None:
    state = scenario("chancellor")
    assert pv(state, 0, "favor") == 1
    assert cargo(state, 0) == {}
    assert pv(state, 0, "coins") == 6  # b22 pays 6, slot 2 has the 0 modifier


def test_ambassador_starts_with_four_holds() -> None:
    state = scenario("ambassador")
    assert state.data["v"]["starter"] == 1
    assert pv(state, 0, "specialist") == "ambassador"
    assert pv(state, 0, "holds") == 4 and pv(state, 0, "favor") == 0
    assert pv(state, 1, "holds") == 2


def test_harbormaster_acts_at_both_hexes() -> None:
    state = scenario("harbormaster")
    assert ship(state, 0)["at"] == "h1"
    assert cargo(state, 0) == {"wood": 1}  # the wood from the first hex; the cloth donated
    assert pv(state, 0, "vp") == 1 and pv(state, 0, "favor") == 2  # 2 - 1 (Influence Move) + 1
    assert pv(state, 0, "holds") == 4 and pv(state, 0, "coins") == 0
    assert rolls(state) == []


def test_moneychanger_trades_at_the_temple() -> None:
    state = scenario("moneychanger")
    assert pv(state, 0, "coins") == 0  # 2 from the trade, 2 spent on the hold
    assert pv(state, 0, "vp") == 10 and pv(state, 0, "holds") == 4
    assert zone(state, "discards") == ["a10"]
    assert not any(a.startswith("donate") for a in ids(state))  # R12


def test_priest_gains_favor_at_the_temple() -> None:
    state = scenario("priest")
    assert ship(state, 0)["at"] == "h1" and state.stage == "act"
    assert pv(state, 0, "favor") == 5


def test_navigator_crosses_a_barrier_into_an_occupied_hex() -> None:
    state = scenario("navigator")
    assert ship(state, 0)["at"] == "h2"
    assert rolls(state) == []
    assert cargo(state, 0) == {"wood": 1}


def test_temple_guard_adds_one_to_his_roll() -> None:
    state = scenario("temple_guard")
    assert ship(state, 0)["at"] == "h1"
    assert ship(state, 0)["influence"] == 3
    assert ship(state, 1)["influence"] == 3


def test_rival_ship_interaction() -> None:
    state = scenario("rival_interaction")
    assert ship(state, "rival")["at"] == "h6"
    assert ship(state, "rival")["influence"] == 1
    assert zone(state, "discards") == ["a10"]  # the rival's optional market cycle
    assert ship(state, 0)["at"] == "h5" and cargo(state, 0) == {"stone": 1}
    assert rolls(state) == [4, 1]
