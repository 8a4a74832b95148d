"""Tournaments: every pairing and seat, ratings from openskill that repeat, the command's table and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.simulate import GameRecord
from ruleskit.tournament import pairings, rate, tournament

pytest.importorskip("openskill")


def test_every_combination_of_bots_meets() -> None:
    assert pairings(["a", "b", "c"], 2) == [["a", "b"], ["a", "c"], ["b", "c"]]
    assert pairings(["a", "b", "c", "d"], 3) == [["a", "b", "c"], ["a", "b", "d"], ["a", "c", "d"], ["b", "c", "d"]]
    with pytest.raises(PackError, match="each bot once"):
        pairings(["a", "a"], 2)
    with pytest.raises(PackError, match="at least 3 bots"):
        pairings(["a", "b"], 3)


def test_more_groups_of_bots_than_a_tournament_plays_are_refused_before_any_is_made() -> None:
    """200 bots in groups of five are 2.5 billion groups: listing them ran out of memory."""
    bots = [f"mcts:{i}" for i in range(1, 201)]
    with pytest.raises(PackError, match=r"200 bots make 2535650040 groups of 5, more than a tournament plays"):
        pairings(bots, 5)
    assert len(pairings(bots[:141], 2)) == 9870  # within the bound


def _record(bots: list[str], places: list[int]) -> GameRecord:
    winners = [seat for seat, place in enumerate(places) if place == 1]
    return GameRecord(0, 0, bots, winners, "done", 1, 1, {}, None, places)


def test_ratings_follow_the_places_and_grow_surer() -> None:
    records = [_record(["strong", "weak"], [1, 2]), _record(["weak", "strong"], [2, 1])] * 5
    ratings = rate(records, ["strong", "weak"])
    assert ratings["strong"].mu > 25 > ratings["weak"].mu
    assert ratings["strong"].sigma < 25 / 3
    # A stopped game (no places) changes nothing.
    assert rate([_record(["strong", "weak"], [])], ["strong", "weak"])["strong"].mu == 25


def test_tournament_rotates_seats_and_repeats_from_its_seed() -> None:
    game = ruleskit.load("connect_four")
    first = tournament(game, ["random", "greedy", "mcts:4"], games=2, players=2, seed=3)
    again = tournament(game, ["random", "greedy", "mcts:4"], games=2, players=2, seed=3, workers=2)
    assert [m["bots"] for m in first["pairings"]] == [["random", "greedy"], ["random", "mcts:4"],
                                                    ["greedy", "mcts:4"]]
    assert first["games"] == 6 and all(row["games"] == 4 for row in first["ratings"])
    strip = ("seconds", "workers")
    assert {k: v for k, v in first.items() if k not in strip} == {k: v for k, v in again.items() if k not in strip}
    ordinals = [row["ordinal"] for row in first["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_tournament_command_prints_a_table_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    code = main(["tournament", "connect_four", "--bots", "random,greedy", "--games", "2", "-q", "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "greedy" in printed and "sigma" in printed
    result = json.loads(out.read_text())
    assert {row["bot"] for row in result["ratings"]} == {"random", "greedy"}
    assert result["games"] == 2 and result["rating_model"] == "openskill PlackettLuce"


def test_a_tournament_of_one_player_games_is_refused_before_any_game(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A bot alone in its game ranks against no other: openskill refused to rate such a game, a traceback
    after every game was played."""
    solo = tmp_path / "solo"
    solo.mkdir()
    take_turns = Path(__file__).resolve().parent.parent / "packs" / "take_turns"
    (solo / "game.toml").write_text((take_turns / "game.toml").read_text())
    (solo / "pack.toml").write_text('name = "solo"\nversion = "1"\nplayers = { min = 1, max = 2 }\n'
                                    'files = ["game.toml"]\n')
    with pytest.raises(PackError, match="at least 2 players, not 1"):
        tournament(ruleskit.load(str(solo)), ["random", "greedy"], games=2, players=1)
    assert main(["tournament", str(solo), "--bots", "random,greedy", "-p", "1", "-n", "2", "-q"]) == 1
    assert "at least 2 players" in capsys.readouterr().err
