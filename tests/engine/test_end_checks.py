"""The end conditions after a turn passes: run again unless nothing they read can have changed.

A condition that reads no flow value, after a turn change that ran no pack
code, is not evaluated a second time (lang/reads.py); every game must still end
at the same decision as when it always is. Each pack below would end one
decision late if the second check were wrongly skipped.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from engine_support import PACKS, TINY_GAME, TINY_RULES, play_random, write_pack

import ruleskit
from ruleskit import Game, State

GAMES = Path(__file__).resolve().parents[2] / "games"


def _tiny(tmp_path: Path, end: str, rules: str = TINY_RULES) -> Game:
    old = 'when = "any([p.points >= 4 for p in players])"'
    assert old in TINY_GAME
    game = TINY_GAME.replace(old, f'when = "{end}"')
    return ruleskit.load(write_pack(tmp_path / "tiny", game=game, rules=rules))


def _decisions(state: State) -> int:
    return len(state.history) - 1  # the first entry is the setup


def _always_checked(game: Game) -> Game:
    return attrs.evolve(game, ends_read_flow=True)


def test_a_condition_on_the_players_counters_is_not_run_again(tmp_path: Path) -> None:
    game = _tiny(tmp_path, "any([p.points >= 4 for p in players])")
    assert game.ends and not game.ends_read_flow
    state = play_random(game, 2, seed=1)
    # Each turn scores 2 (double(1)): player 1 reaches 4 points on their second turn, the game's third.
    assert _decisions(state) == 3 and state.result["reason"] == "four points"


@pytest.mark.parametrize("end, rules, decisions", [
    # Turn 4 begins after three decisions: the game ends before anyone acts in it.
    ("turn_number > 3", TINY_RULES, 3),
    ("late()", TINY_RULES + "rule late() = turn_number > 3\n", 3),  # read through a rule
    # Round 2 begins after two decisions; read through a hook that modifies the rule.
    ("late(1)", TINY_RULES + "rule late(x) = x > 5\nhook later modify late(x) when round_number > 1 = true\n", 2),
])
def test_a_condition_on_the_turn_ends_the_game_as_the_turn_begins(tmp_path: Path, end: str, rules: str,
                                                                  decisions: int) -> None:
    game = _tiny(tmp_path, end, rules)
    assert game.ends_read_flow
    state = play_random(game, 2, seed=1)
    assert _decisions(state) == decisions and state.result["reason"] == "four points"
    assert _decisions(state) == _decisions(play_random(_always_checked(game), 2, seed=1))


def test_a_condition_on_the_active_player_reads_the_flow(tmp_path: Path) -> None:
    game = _tiny(tmp_path, "active == 1 and any([p.points >= 2 for p in players])")
    assert game.ends_read_flow
    state = play_random(game, 2, seed=1)
    # Player 1 scores 2 in turn 1; the game ends when player 2 becomes active, before their decision.
    assert _decisions(state) == 1


def test_a_turn_start_hook_that_scores_makes_the_condition_run_again(tmp_path: Path) -> None:
    rules = TINY_RULES + "hook bonus on turn_start(p) when turn_number == 3 {\n    p.points += 2\n}\n"
    game = _tiny(tmp_path, "any([p.points >= 4 for p in players])", rules)
    assert not game.ends_read_flow  # the condition reads no flow value; the hook is pack code between checks
    state = play_random(game, 2, seed=1)
    # Player 1 has 2 points after turn 1; turn 3 begins with their bonus of 2: the game ends before they act.
    assert _decisions(state) == 2


def test_a_var_reset_each_turn_counts_as_a_flow_value() -> None:
    from ruleskit.lang.reads import reads_flow

    assert reads_flow(["moves_left > 0"], [], ["moves_left"])
    assert not reads_flow(["moves_left > 0"], [], ["other"])
    assert reads_flow(["count(p.hand) > me"], [], [])


@pytest.mark.parametrize("pack, players", [(GAMES / "connect_four", 2), (PACKS / "take_turns", 2)])
def test_games_are_the_same_with_the_end_conditions_always_run(pack: Path, players: int) -> None:
    game = ruleskit.load(pack)
    assert game.ends and not game.ends_read_flow
    checked = _always_checked(game)
    for seed in range(4):
        skipped, always = play_random(game, players, seed), play_random(checked, players, seed)
        assert skipped.history == always.history and skipped.result == always.result
        assert skipped.raw == always.raw
