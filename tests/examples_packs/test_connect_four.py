"""The Connect Four pack (games/connect_four), one rule at a time, and against its hand-written baseline."""

from __future__ import annotations

import random
from typing import Any

import pytest
from packs_support import baseline, ids

import ruleskit
from ruleskit import IllegalAction

ALL_COLUMNS = [f"drop:col{c}" for c in range(1, 8)]


def drops(game: ruleskit.Game, columns: str) -> ruleskit.State:
    """A new game with discs dropped in the given columns (digits 1-7), players alternating."""
    state = game.new_game(players=2, seed=0)
    for column in columns:
        state.apply(f"drop:col{column}")
    return state


def column(state: ruleskit.State, number: int) -> list[str]:
    return state.view(0)["zones"][f"discs@col{number}"]


def test_only_two_players_can_play(connect_four: ruleskit.Game) -> None:
    assert (connect_four.min_players, connect_four.max_players) == (2, 2)


def test_a_new_game_offers_every_column_to_the_first_player(connect_four: ruleskit.Game) -> None:
    state = connect_four.new_game(players=2, seed=0)
    assert state.current_player == 0
    assert ids(state) == ALL_COLUMNS
    assert [a.label for a in state.legal_actions()][:2] == ["Drop in column 1", "Drop in column 2"]


def test_discs_fall_to_the_lowest_free_cell(connect_four: ruleskit.Game) -> None:
    state = drops(connect_four, "33")
    assert column(state, 3) == ["disc_0", "disc_1"]  # red at the bottom, yellow on top of it
    assert column(state, 2) == []


def test_players_alternate(connect_four: ruleskit.Game) -> None:
    state = connect_four.new_game(players=2, seed=0)
    seen = []
    for col in "1234":
        seen.append(state.current_player)
        state.apply(f"drop:col{col}")
    assert seen == [0, 1, 0, 1]


def test_a_full_column_takes_no_more_discs(connect_four: ruleskit.Game) -> None:
    state = drops(connect_four, "111111")
    assert len(column(state, 1)) == 6
    assert "drop:col1" not in ids(state)
    assert len(ids(state)) == 6
    with pytest.raises(IllegalAction):
        state.apply("drop:col1")
    assert len(column(state, 1)) == 6


@pytest.mark.parametrize(("columns", "line"), [
    ("1122334", "across"),
    ("1212121", "up"),
    ("12237334444", "rising diagonal"),
    ("76651554444", "falling diagonal"),
])
def test_four_in_a_row_wins(connect_four: ruleskit.Game, columns: str, line: str) -> None:
    state = drops(connect_four, columns)
    assert state.is_terminal, line
    assert state.result is not None
    assert state.result["reason"] == "four in a row"
    assert state.result["winners"] == [0]
    assert state.result["scores"] == [1, 0]


def test_three_in_a_row_or_four_with_a_gap_do_not_win(connect_four: ruleskit.Game) -> None:
    three = drops(connect_four, "172737")  # red three across the bottom, yellow three up column 7
    assert not three.is_terminal
    assert column(three, 7) == ["disc_1"] * 3
    gap = drops(connect_four, "1727465")  # red on columns 1, 2, 4 and 5: column 3 is empty
    assert not gap.is_terminal
    gap.apply("drop:col7")                 # yellow elsewhere; red fills the gap and wins
    gap.apply("drop:col3")
    assert gap.result is not None and gap.result["winners"] == [0]


def test_a_full_grid_without_four_is_a_draw(connect_four: ruleskit.Game) -> None:
    # Found by a seeded random search with the baseline: 42 discs and no line of four.
    state = drops(connect_four, "441365675334466335442232661515577771217122")
    assert state.result is not None
    assert state.result["reason"] == "the grid is full"
    assert state.result["winners"] == [0, 1]
    assert ids(state) == []


def test_a_four_made_by_the_last_disc_is_a_win_not_a_draw(connect_four: ruleskit.Game) -> None:
    state = drops(connect_four, "733651575511722656534266327317322716144444")
    assert sum(len(column(state, c)) for c in range(1, 8)) == 42
    assert state.result is not None
    assert state.result["reason"] == "four in a row"
    assert state.result["winners"] == [1]


def test_random_games_end_and_keep_every_invariant(ruleskit_check: Any) -> None:
    report = ruleskit_check("connect_four", games=12, seed=3)
    assert report.ok


@pytest.mark.parametrize("seed", range(40))
def test_the_baseline_agrees_with_the_pack_along_random_games(connect_four: ruleskit.Game, seed: int) -> None:
    plain = baseline("connect_four")
    state = connect_four.new_game(players=2, seed=seed)
    hand_written = plain.new_game(2, seed)
    chooser = random.Random(seed)
    while not state.is_terminal:
        assert ids(state) == [f"drop:col{c + 1}" for c in plain.legal_actions(hand_written)]
        assert not plain.is_terminal(hand_written)
        choice = chooser.randrange(len(ids(state)))
        state.apply(state.legal_actions()[choice])
        plain.apply(hand_written, plain.legal_actions(hand_written)[choice])
    assert plain.is_terminal(hand_written)
    assert plain.legal_actions(hand_written) == []
    assert state.result is not None
    assert state.result["winners"] == plain.winners(hand_written)


def test_the_baseline_refuses_what_the_pack_refuses() -> None:
    plain = baseline("connect_four")
    game = plain.new_game(2, 0)
    for col in [0] * 6:
        plain.apply(game, col)
    with pytest.raises(ValueError):
        plain.apply(game, 0)
    copy = plain.clone(game)
    plain.apply(copy, 1)
    assert len(game.columns[1]) == 0  # a clone is independent
