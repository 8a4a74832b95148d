"""Every worked example of the Explorers of Navoria rulebook, replayed decision by decision from a scenario.

Seats: Pete 0, Yara 1, Barb 2, Greg 3. The asserted outcomes are the ones the rulebook states; where the
example depends on a card or board face the rulebook does not print, the scenario uses the provisional
face of DATA.md that matches the example's text.
"""

from __future__ import annotations

from navoria_helpers import (
    BARB,
    FOREST,
    GLACIER,
    GREG,
    PETE,
    YARA,
    crowns,
    dock,
    favoured,
    ids,
    pool,
    pv,
    scenario,
    zone,
)


def test_take_from_the_bag() -> None:
    state = scenario("recruit_from_bag")
    assert zone(state, "tableau@0") == ["sol01"]
    assert pool(state, "on_decks") == {"red": 1}  # the kept token sits on the soldier deck
    assert pool(state, "town_centre") == {"blue": 1}  # the other goes to the town centre
    assert pool(state, "bag") == {}
    assert crowns(state) == [0, 0]  # soldiers have no immediate effect
    assert zone(state, "display@red") == [None, "sol05", "sol09"]  # the display is not refilled
    assert state.current_player == YARA and pv(state, PETE, "recruited") == 1


def test_take_from_the_town_centre() -> None:
    state = scenario("recruit_from_centre")
    assert zone(state, "tableau@1") == ["mer07"]
    assert pool(state, "on_decks") == {"blue": 1} and pool(state, "town_centre") == {}
    assert pool(state, "bag") == {"blue": 2, "yellow": 3, "red": 3, "purple": 3, "green": 3}  # nothing drawn
    assert crowns(state) == [0, 0]  # this merchant has no immediate effect
    assert zone(state, "display@blue") == [None, "mer01", "mer02"]


def test_favour_second_space() -> None:
    state = scenario("favour_second")
    # 2 (soldier) + 1 + 1 (merchants) + 1 (the new adventurer) = 5 beast icons.
    assert favoured(state, "beast") == [GREG, BARB]


def test_builder_builds_the_next_trading_post() -> None:
    state = scenario("builder")
    assert crowns(state)[YARA] == 2
    assert pv(state, YARA, "posts") == [0, 0, 2]  # the second glacier post
    assert pv(state, YARA, "explorer") == [0, 0, 0]  # built without having reached the space


def test_treasure_pays_again_for_the_extra_step() -> None:
    state = scenario("treasure")
    assert pv(state, BARB, "explorer")[FOREST] == 6  # the marker stops at the end of the track
    assert crowns(state)[BARB] == 10  # 5 for reaching the treasure, 5 again for the second step


def test_adventurer_immediate_effect() -> None:
    state = scenario("adventurer_immediate")
    assert crowns(state)[PETE] == 1
    assert pv(state, PETE, "explorer") == [0, 2, 0]


def test_artisan_fills_the_glacier_order() -> None:
    state = scenario("artisan_order")
    # 2 crowns from the card, then the order: 1 step, 2 (per artisan), 1, 2 (per artisan) = 5.
    assert crowns(state)[PETE] == 2 + 5
    assert pv(state, PETE, "explorer")[GLACIER] == 1
    assert dock(state, PETE, "glacier") == {}  # the 3 weapons are discarded to the supply
    assert zone(state, "supply")["weapon"] == 18
    assert dock(state, PETE, "forest") == {"food": 1}
    assert zone(state, "tableau@0") == ["art05", "art06", "art01"]


def test_gather_in_reverse_turn_order() -> None:
    state = scenario("gather_example")
    # Greg: 2 food and 1 good (a mineral): food on forest and desert, the mineral on glacier.
    assert dock(state, GREG, "forest") == {"food": 1}
    assert dock(state, GREG, "desert") == {"food": 1}
    assert dock(state, GREG, "glacier") == {"mineral": 1}
    # Pete: 6 crowns. Yara: a trading post on the desert track.
    assert crowns(state) == [6, 0, 0, 0]
    assert pv(state, YARA, "posts") == [1, 0, 0]
    # Barb: a weapon on her desert and glacier docks, one forest step.
    assert dock(state, BARB, "desert") == {"weapon": 1} and dock(state, BARB, "glacier") == {"weapon": 1}
    assert pv(state, BARB, "explorer") == [0, 1, 0]
    # Each token took the first space of its area; the phase goes on while tokens remain on the decks.
    assert pool(state, "town") == {"green": 1, "blue": 1, "purple": 1, "red": 1}
    assert state.data["flow"]["phase"] == "gather" and state.current_player == GREG


def test_merchant_income() -> None:
    state = scenario("merchant_income")
    assert crowns(state)[GREG] == 10  # two merchants, 5 beast icons each
    assert crowns(state)[PETE] == 6  # the last token, on the merchant area's first space


def test_adventurer_income() -> None:
    state = scenario("adventurer_income")
    # Yara: 2 flags x 2 adventurers = 4, then forest 1st (3) and glacier 2nd (2).
    assert crowns(state)[YARA] == 4 + 3 + 2
    # Barb: 3 flags x 1 adventurer = 3, then desert 1st (4) and glacier 1st (3).
    assert crowns(state)[BARB] == 3 + 4 + 3


def test_exploration_rewards_with_a_tie() -> None:
    state = scenario("exploration_rewards")
    assert crowns(state)[BARB] == 3
    assert crowns(state)[PETE] == 2 and crowns(state)[GREG] == 2  # tied second: both score, 3rd skipped
    assert crowns(state)[YARA] == 6  # only the gather space's 6: fourth scores nothing


def test_return_phase() -> None:
    state = scenario("return_markers")
    glacier = [pv(state, p, "explorer")[GLACIER] for p in range(4)]
    # Pete back to post space 1 (space 2), Yara forward to post space 2 (space 3), Barb back to post
    # space 2 (space 3), Greg back to the start.
    assert glacier == [2, 3, 3, 0]
    assert pool(state, "bag") == {c: 3 for c in ("blue", "yellow", "red", "purple", "green")}
    assert all(len([c for c in zone(state, f"display@{c}") if c]) == 3 for c in ("blue", "red", "green"))
    assert len(zone(state, "discard")) == 15  # the old displays
    # Crowns after income: Pete 8, Yara 9, Barb 8, Greg 10; Pete and Barb tied keep their order.
    assert crowns(state) == [8, 9, 8, 10]
    assert state.data["v"]["turn_order"] == [GREG, YARA, PETE, BARB]
    assert state.data["v"]["round"] == 2 and state.data["flow"]["phase"] == "recruit"
    assert state.current_player == GREG and all(pv(state, p, "recruited") == 0 for p in range(4))


def test_final_scoring_soldiers_and_favour() -> None:
    state = scenario("final_scoring")
    assert state.is_terminal and state.result["reason"] == "the third round is over"
    assert pv(state, BARB, "soldier_crowns") == 4  # 2 per desert post, 2 posts
    assert pv(state, BARB, "favour_crowns") == 6 + 2  # beasts first: 3 x 2 adventurers; humans second: 1 x 2
    # Pete: forest soldier 2 x 3 posts; humans first (2 x artisan, merchant), goblins first (2 x 2
    # builders and an artisan): the two-colour tiles score each card of either colour.
    assert pv(state, PETE, "soldier_crowns") == 6
    assert pv(state, PETE, "favour_crowns") == 4 + 6
    assert pv(state, YARA, "favour_crowns") == 0  # second with the beasts, but no adventurer
    assert state.result["scores"] == crowns(state)
    assert ids(state) == []
