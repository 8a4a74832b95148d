"""Explorers of Navoria's rules and the pack's rulings, one rule at a time, each pinned by a scenario or a
seeded game."""

from __future__ import annotations

import random

import pytest
from navoria_helpers import (
    BARB,
    DESERT,
    FOREST,
    GLACIER,
    GREG,
    PETE,
    YARA,
    crowns,
    dock,
    favoured,
    ids,
    play,
    pool,
    pv,
    scenario,
    zone,
)

import ruleskit
from ruleskit import IllegalAction, State

COLOURS = ("blue", "yellow", "red", "purple", "green")
PREFIX = {"blue": "mer", "yellow": "bld", "red": "sol", "purple": "adv", "green": "art"}


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("navoria")


def random_until(state: State, stop: str, chooser: random.Random) -> None:
    """Random decisions until the flow reaches phase `stop` (or the game ends)."""
    while not state.is_terminal and state.data["flow"]["phase"] != stop:
        state.apply(chooser.choice(state.legal_actions()))


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=4)
    for c in COLOURS:
        display = zone(state, f"display@{c}")
        assert len(display) == 3 and all(card.startswith(PREFIX[c]) for card in display)
        assert len(zone(state, f"deck@{c}")) == 9
    assert pool(state, "bag") == {c: 3 for c in COLOURS}
    tiles = [state.data["ev"][s]["tile"] for s in ("human", "goblin", "beast", "sprite")]
    assert len(set(tiles)) == 4 and None not in tiles
    order = state.data["v"]["turn_order"]
    assert order == [(order[0] + k) % players for k in range(players)]  # clockwise from the first player
    assert state.current_player == order[0] and state.data["flow"]["phase"] == "recruit"
    assert all(pv(state, p, "explorer") == [0, 0, 0] and pv(state, p, "posts") == [0, 0, 0] for p in range(players))
    assert crowns(state) == [0] * players
    assert zone(state, "supply") == {"weapon": 18, "mineral": 18, "food": 18}


def test_first_player_is_random(game: ruleskit.Game) -> None:
    firsts = {game.new_game(players=4, seed=s).data["v"]["turn_order"][0] for s in range(12)}
    assert firsts == {0, 1, 2, 3}


def test_favour_tiles_vary(game: ruleskit.Game) -> None:
    used = {game.new_game(players=2, seed=s).data["ev"]["human"]["tile"] for s in range(30)}
    assert len(used) > 4


# ------------------------------------------------------------------ recruit

@pytest.mark.parametrize("players, quota", [(2, 4), (3, 4), (4, 3)])
def test_recruit_phase_ends_at_the_quota(game: ruleskit.Game, players: int, quota: int) -> None:
    state = game.new_game(players=players, seed=7)
    chooser = random.Random(players)
    recruiters = []
    while state.data["flow"]["phase"] == "recruit":
        if state.pending is None:
            recruiters.append(state.current_player)
        state.apply(chooser.choice(state.legal_actions()))
    assert [len(zone(state, f"tableau@{p}")) for p in range(players)] == [quota] * players
    order = state.data["v"]["turn_order"]
    assert recruiters == order * quota  # one card a turn, along the turn-order compass
    assert sum(zone(state, "on_decks").values()) == players * quota  # one token on a deck per card


def test_town_centre_needs_a_token(game: ruleskit.Game) -> None:
    state = game.new_game(players=3, seed=1)
    assert ids(state) == ["from_bag"]  # the town centre is empty: take from the bag
    with pytest.raises(IllegalAction):
        state.apply("from_centre:blue")


def test_last_token_in_the_bag_is_kept() -> None:
    state = scenario("last_token_in_bag")
    play(state, "from_bag")
    assert state.prompt == "Recruit which card?"  # no token to choose between
    play(state, "adv01")
    assert pool(state, "on_decks") == {"purple": 1}
    assert pool(state, "town_centre") == {"blue": 2}
    assert ids(state) == ["from_centre:blue"]  # the bag is empty now


def test_favour_only_for_the_first_two_and_once() -> None:
    state = scenario("favour_full")
    assert favoured(state, "beast") == [GREG, PETE]  # Barb reached 6 icons, Greg 8: unchanged


def test_builder_with_every_post_built() -> None:
    state = scenario("builder_all_posts")
    assert pv(state, YARA, "posts") == [0, 0, 3]
    assert crowns(state)[YARA] == 2


def test_adventurer_moves_any_marker() -> None:
    state = scenario("any_marker")
    assert state.prompt == "Move which exploration marker one step?"
    assert sorted(ids(state)) == ["desert", "forest", "glacier"]
    play(state, "glacier")
    assert pv(state, PETE, "explorer") == [0, 0, 1] and crowns(state)[PETE] == 1


def test_treasure_again_from_the_treasure_space() -> None:
    state = scenario("treasure_again")
    assert pv(state, BARB, "explorer")[FOREST] == 6
    assert crowns(state)[BARB] == 5


# ------------------------------------------------------------------ goods and docks

def test_each_good_goes_to_a_different_dock() -> None:
    state = scenario("docks")
    play(state, "from_centre:green", "art01")
    assert state.prompt == "Place the weapon on which dock?" and sorted(ids(state)) == ["desert", "forest", "glacier"]
    play(state, "glacier")
    assert state.prompt == "Place the food on which dock?" and sorted(ids(state)) == ["desert", "forest"]
    with pytest.raises(IllegalAction):
        state.apply("glacier")
    play(state, "desert")
    assert dock(state, PETE, "glacier") == {"weapon": 1} and dock(state, PETE, "desert") == {"food": 1}
    assert zone(state, "tableau@0") == ["art01"] and crowns(state)[PETE] == 2


def test_three_goods_fill_the_three_docks() -> None:
    state = scenario("docks")
    play(state, "from_centre:green", "art10", "forest", "glacier")
    # The food goes to the one dock left, without a question.
    assert dock(state, PETE, "forest") == {"weapon": 1}
    assert dock(state, PETE, "glacier") == {"mineral": 1}
    assert dock(state, PETE, "desert") == {"food": 1}
    assert state.current_player == YARA


def test_two_goods_of_one_type_go_to_two_docks() -> None:
    state = scenario("docks")
    play(state, "from_centre:green", "art11", "forest", "desert")
    assert dock(state, PETE, "forest") == {"weapon": 1}  # 2 weapons: forest and desert
    assert dock(state, PETE, "desert") == {"weapon": 1}


def test_orders_of_every_dock() -> None:
    state = scenario("order_forest")
    assert dock(state, PETE, "forest") == {"weapon": 1}  # one weapon left over
    # Forest basic rewards: 1 step, 1 crown per artisan (none yet: the new card is not in the tableau);
    # then the card's 2 crowns.
    assert pv(state, PETE, "explorer")[FOREST] == 1
    assert crowns(state)[PETE] == 2
    state = scenario("order_desert")
    assert dock(state, PETE, "desert") == {}
    # Desert: 1 step and 1 crown, post 1: 1 crown, post 2: 1 per artisan (1), post 3: 2; card: 3.
    assert pv(state, PETE, "explorer")[DESERT] == 1
    assert crowns(state)[PETE] == 3 + 1 + 1 + 1 + 2
    state = scenario("order_glacier")
    assert dock(state, PETE, "glacier") == {"weapon": 2}  # the 3 food are discarded, the weapons stay
    assert pv(state, PETE, "explorer")[GLACIER] == 1
    assert crowns(state)[PETE] == 3  # the card's crowns; no artisan in the tableau, no post built


def test_empty_supply() -> None:
    state = scenario("empty_supply")
    play(state, "gather:green")
    assert state.prompt == "Collect which good?" and sorted(ids(state)) == ["mineral", "weapon"]
    play(state, "weapon", "glacier")
    assert dock(state, PETE, "glacier") == {"weapon": 1}
    assert sum(dock(state, PETE, t).get("food", 0) for t in ("desert", "forest", "glacier")) == 0
    assert state.current_player == YARA


# ------------------------------------------------------------------ gather

def test_gather_second_space() -> None:
    state = scenario("gather_second_space")
    assert dock(state, PETE, "desert") == {"food": 1}
    assert pv(state, PETE, "explorer") == [0, 0, 1]
    assert pool(state, "town") == {"blue": 2}


@pytest.mark.parametrize("pick, then, check", [
    ("good", ["mineral", "forest"], lambda s: dock(s, PETE, "forest") == {"mineral": 1}),
    ("step", ["desert"], lambda s: pv(s, PETE, "explorer") == [1, 0, 0]),
])
def test_gather_good_or_step(pick: str, then: list[str], check: object) -> None:
    state = scenario("gather_good_or_step")
    play(state, "gather:red")
    assert sorted(ids(state)) == ["good", "step"]
    play(state, pick, *then)
    assert check(state)  # type: ignore[operator]
    assert pool(state, "town") == {"red": 3}


def test_build_with_every_post_built() -> None:
    state = scenario("build_everything_built")
    assert pv(state, PETE, "posts") == [3, 3, 3]
    assert state.current_player == YARA and state.pending is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gather_reverse_order_until_every_token_is_placed(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=3)
    chooser = random.Random(10 + players)
    random_until(state, "gather", chooser)
    order = state.data["v"]["turn_order"]
    tokens = sum(zone(state, "on_decks").values())
    gatherers = []
    while state.data["flow"]["phase"] == "gather":
        if state.pending is None:
            gatherers.append(state.current_player)
        state.apply(chooser.choice(state.legal_actions()))
    assert gatherers == (list(reversed(order)) * 4)[:tokens]
    assert sum(zone(state, "town").values()) == 0  # back in the bag after the return phase
    assert sum(zone(state, "bag").values()) == 15


# ------------------------------------------------------------------ income

@pytest.mark.parametrize("players, expected", [
    (2, [6 + 4, 0]),
    (3, [6 + 4, 2, 0]),
    (4, [6 + 4, 2, 1, 0]),
])
def test_exploration_places_by_player_count(players: int, expected: list[int]) -> None:
    assert crowns(scenario(f"rewards_{players}p")) == expected


def test_exploration_ties_and_the_compass() -> None:
    state = scenario("rewards_ties")
    # Pete: 6 (gather) + forest 3 (3 tied first) + glacier 3 (2 tied first).
    assert crowns(state)[PETE] == 6 + 3 + 3
    assert crowns(state)[YARA] == 3 + 3
    # Barb: forest 3 (tied first), desert 4 (the others are on the compass), glacier 4th: nothing.
    assert crowns(state)[BARB] == 3 + 4
    # Greg: forest 4th after 3 tied (2nd and 3rd skipped): nothing; glacier 3rd after 2 tied: 1.
    assert crowns(state)[GREG] == 1


# ------------------------------------------------------------------ game end

def test_game_ends_after_the_third_income_phase() -> None:
    state = scenario("third_round_end")
    assert state.is_terminal and state.result["reason"] == "the third round is over"
    assert pv(state, YARA, "explorer") == [3, 0, 0]  # no return phase
    assert crowns(state)[YARA] == 4  # desert first place


def test_shared_victory() -> None:
    state = scenario("shared_victory")
    assert state.is_terminal
    assert state.result["scores"] == [20, 20]
    assert sorted(state.result["winners"]) == [PETE, YARA]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_three_rounds(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=5)
    chooser = random.Random(players)
    while not state.is_terminal:
        state.apply(chooser.choice(state.legal_actions()))
    quota = 3 if players == 4 else 4
    assert state.data["v"]["round"] == 3
    assert all(len(zone(state, f"tableau@{p}")) == 3 * quota for p in range(players))
    assert len(state.result["scores"]) == players and state.result["winners"]
    assert state.result["scores"] == crowns(state)
