"""Random legal games of Valdora: they end, keep every invariant and leak no hidden information."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from valdora_helpers import broken_invariants

import ruleskit
from ruleskit.bots import make_bot
from ruleskit.testing.invariants import check_views

PACK = Path(__file__).resolve().parents[2] / "games" / "valdora"


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("valdora")


def test_short_random_games_hold_every_check(ruleskit_check: Callable[..., Any]) -> None:
    # Invariants after every decision; copies, views and every listed action every 10 decisions.
    ruleskit_check("valdora", games=6, players=[3, 4, 5], max_decisions=120, thorough_every=10)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_random_game_ends_by_the_craftsmen_running_out(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=players)
    chooser = random.Random(players)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"stuck with no legal action in stage {state.stage}"
        state.apply(chooser.choice(legal))
        steps += 1
        if steps % 200 == 0:
            assert broken_invariants(state) == []
            check_views(state)
    assert broken_invariants(state) == []
    result = state.result
    assert result is not None and result["reason"] == "only one colour of craftsman tiles is left"
    assert len(result["scores"]) == players and result["winners"]
    # Every player had as many turns: the game ended at the end of a round.
    assert state.data["flow"]["turn"] % players == 0


@pytest.mark.skipif(os.environ.get("RULESKIT_SLOW") != "1", reason="set RULESKIT_SLOW=1 for a whole greedy game")
def test_a_greedy_game_ends_by_the_craftsmen_running_out(game: ruleskit.Game) -> None:
    # The greedy bot (the pack's [report] heuristic, on determinized copies) completes commissions
    # and ends the game far sooner than random play.
    state = game.new_game(players=3, seed=7)
    bots = [make_bot("greedy", game, seed) for seed in range(3)]
    while not state.is_terminal:
        player = state.current_player
        assert player is not None
        state.apply(bots[player].choose(state, player))
    result = state.result
    assert result is not None and result["reason"] == "only one colour of craftsman tiles is left"
    assert state.data["flow"]["turn"] < 1000
    assert any(state.data["z"][f"done@{p}"] for p in range(3))


def test_pack_holds_no_python() -> None:
    assert {p.suffix for p in PACK.rglob("*") if p.is_file()} <= {".toml", ".rk", ".md"}


def test_pack_checks_clean() -> None:
    from ruleskit.cli import main

    assert main(["check", "valdora"]) == 0


VARIANT_DATA = """
[replace.kinds.colour]
label = "Colour"
fields = { need = "int", points = "int", seat = "int" }
items.violet = { name = "violet", need = 2, points = 5, seat = 0 }
items.red = { name = "red", need = 2, points = 5, seat = 1 }
items.blue = { name = "blue", need = 2, points = 5, seat = 2 }
items.green = { name = "green", need = 2, points = 5, seat = 3 }
items.yellow = { name = "yellow", need = 3, points = 4, seat = 4 }
items.grey = { name = "silver-grey", need = 3, points = 4, seat = 5 }
items.white = { name = "white", need = 3, points = 12, seat = 6 }

[update.kinds.face.items.horse]
load_cost = 2
"""


def test_provisional_data_is_replaced_by_a_data_only_variant(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text(
        'name = "valdora-data"\nversion = "1.0"\nplayers = { min = 3, max = 5 }\n'
        'extends = "valdora"\nfiles = ["data.toml"]\n')
    (tmp_path / "data.toml").write_text(VARIANT_DATA)
    variant = ruleskit.load(str(tmp_path))
    assert variant.model.item_data["horse"]["load_cost"] == 2
    assert variant.model.item_data["white"]["need"] == 3
    state = variant.new_game(players=3, seed=2)
    chooser = random.Random(2)
    for _ in range(300):
        state.apply(chooser.choice(state.legal_actions()))
    assert broken_invariants(state) == []


LONG_ROAD = """
# The top of the ring, A to C, one stretch of 7 spaces; C and B joined directly.
[replace.board]
nodes = "space"
edges = [
    ["hub", "road_1"], ["road_1", "mine_1"], ["mine_1", "road_2"], ["road_2", "city_a"],
    ["hub", "road_3"], ["road_3", "house_c"], ["house_c", "road_4"], ["road_4", "city_c"],
    ["hub", "road_5"], ["road_5", "mine_2"], ["mine_2", "road_6"], ["road_6", "city_b"],
    ["hub", "road_7"], ["road_7", "house_g"], ["house_g", "road_8"], ["road_8", "city_d"],
    ["city_a", "house_a"], ["house_a", "road_9"], ["road_9", "harbor_1"], ["harbor_1", "house_b"],
    ["house_b", "road_10"], ["road_10", "house_d"], ["house_d", "mine_3"], ["mine_3", "city_c"],
    ["city_c", "city_b"],
    ["city_b", "house_e"], ["house_e", "road_11"], ["road_11", "harbor_2"], ["harbor_2", "road_12"], ["road_12", "city_d"],
    ["city_d", "road_13"], ["road_13", "house_f"], ["house_f", "city_a"],
]
"""


def test_a_board_with_a_longer_road_moves_to_its_end(tmp_path: Path) -> None:
    # Moves walk the roads as far as they go: a data-only board with a stretch of 7 spaces between two
    # cities lets a move from one city reach the other (rulebook: "as far as you want between two cities").
    (tmp_path / "pack.toml").write_text(
        'name = "valdora-long"\nversion = "1.0"\nplayers = { min = 3, max = 5 }\n'
        'extends = "valdora"\nfiles = ["board.toml"]\n')
    (tmp_path / "board.toml").write_text(LONG_ROAD)
    state = ruleskit.load(str(tmp_path)).new_game(players=3, seed=1)
    near = state.data["ev"]["city_a"]["near"]
    assert {"house_a", "road_9", "harbor_1", "house_b", "road_10", "house_d", "mine_3", "city_c"} <= set(near)
    assert "city_b" not in near  # beyond city_c only with provisions
    assert "city_b" in state.data["ev"]["city_a"]["far"]
