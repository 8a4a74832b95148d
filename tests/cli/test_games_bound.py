"""`--games` of simulate, compare, tournament and test: 1 to MAX_GAMES, refused by the parser outside it.

simulate, compare and tournament keep each game's record until the summary: ten million games ran for hours and
then out of memory. test took 0 and negative counts at the parser and refused them only later.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
import ruleskit.simulate
import ruleskit.tournament
from ruleskit.cli import build_parser, main
from ruleskit.errors import PackError
from ruleskit.limits import MAX_GAMES
from ruleskit.simulate import run_games
from ruleskit.tournament import tournament

DICE = str(Path(__file__).resolve().parents[1] / "packs" / "dice_race")
COMMANDS = {"simulate": [DICE], "compare": [DICE, DICE], "tournament": [DICE, "--bots", "random,greedy"],
            "test": [DICE]}


def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played is a failure: the runs here are refused before any (played, they would take hours)."""
    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(ruleskit.simulate, "play_game", played)
    monkeypatch.setattr(ruleskit.tournament, "run_games", played)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("value", ["0", "-1", str(MAX_GAMES + 1), "10000000000"])
def test_a_number_of_games_out_of_range_is_refused_by_the_parser(command: str, value: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([command, *COMMANDS[command], "--games", value])
    assert exited.value.code == 2
    assert f"argument --games{'/-n' if command != 'test' else ''}: expected a number of games from 1 to " \
           f"1,000,000, not {value}" in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_range_ends_are_taken_and_the_help_says_the_range(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    for value in (1, MAX_GAMES):
        assert build_parser().parse_args([command, *COMMANDS[command], "--games", str(value)]).games == value
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "1 to 1,000,000" in " ".join(capsys.readouterr().out.split())


def test_a_number_of_games_that_is_not_a_whole_number_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["test", DICE, "--games", "1e3"])
    assert "argument --games: expected a whole number from 1 to 1,000,000, not '1e3'" in capsys.readouterr().err


def test_the_library_refuses_more_games_than_a_run_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    no_games(monkeypatch)
    game = ruleskit.load(DICE)
    with pytest.raises(PackError, match="from 1 to 1,000,000, not 1000001"):
        run_games(game, MAX_GAMES + 1, 2, ["random"])


def test_a_tournament_past_the_bound_in_all_its_pairings_is_refused_before_any_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Each pairing within the bound, but three of them past it: every record is kept for the ratings."""
    no_games(monkeypatch)
    game = ruleskit.load(DICE)
    with pytest.raises(PackError, match="400,000 games for each of 3 pairings are 1,200,000 games, more than a "
                                        "tournament plays"):
        tournament(game, ["random", "greedy", "mcts:5"], games=400_000, players=2)
    assert main(["tournament", DICE, "--bots", "random,greedy,mcts:5", "--games", "400000", "-q"]) == 1
    assert "1,200,000 games" in capsys.readouterr().err
