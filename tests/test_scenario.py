"""Scenario files: setup, overrides, scripted rolls and located errors."""

from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError, State

PACK = Path(__file__).parent / "packs" / "dice_race"
ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text("# the pack is named by the caller: a scenario names only built-in packs\n" + text)
    return path


def test_overrides_and_scripted_roll_apply(tmp_path: Path) -> None:
    path = write(tmp_path, """
players = 2
seed = 3
then = ["roll"]
[players_vars.1]
score = 4
[items.pawn_0]
at = "c"
[flow]
active = 0
stage = "roll"
[rolls]
d6 = [2]
""")
    state = ruleskit.scenario(str(path), str(PACK))
    assert state.data["pv"][1]["score"] == 4
    assert state.data["ev"]["pawn_0"]["at"] == "c"
    # The first player's hook adds 1 to the scripted 2.
    assert state.data["v"]["steps"] == 3
    assert state.history[-1]["chance"] == [{"roll": "d6", "value": 2, "scripted": True}]
    assert sorted(a.id for a in state.legal_actions()) == ["step:a", "step:d", "step:goal", "stop"]


def test_scripted_rolls_survive_json_round_trip(tmp_path: Path) -> None:
    path = write(tmp_path, "players = 2\n[rolls]\nd6 = [6, 1]\n")
    state = ruleskit.scenario(str(path), str(PACK))
    copy = ruleskit.State.from_json(state.game, state.dumps())
    state.apply("roll")
    copy.apply("roll")
    assert state == copy
    assert state.history[-1]["chance"][0]["value"] == 6


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("players = 2\n[items.pawn_0]\natt = \"c\"\n", 4, "no var 'att' (did you mean 'at'?)"),
    ("players = 2\n[items.pawn_0]\nat = \"nowhere\"\n", 4, "must be an item of kind 'space'"),
    ("players = 2\n[flow]\nstage = \"wlak\"\n", 4, "unknown stage 'wlak' (did you mean 'walk'?)"),
    ("players = 2\n[rolls]\nd6 = [7]\n", 4, "rolls of 'd6' must be a list of its faces"),
    ("players = 2\nthen = [\"fly\"]\n", 3, "'fly' is not a legal action"),
    ("players = 9\n", 2, "for 2-4 players, not 9"),
    ("players = 2\ncolour = 1\n", 3, "unknown scenario key 'colour'"),
])
def test_scenario_errors_are_located(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(PackError) as caught:
        ruleskit.scenario(str(path), str(PACK))
    error = caught.value
    assert error.file == str(path)
    assert error.line == line
    assert fragment in str(error)


def test_a_game_set_up_at_a_scenario_is_saved_not_logged(tmp_path: Path) -> None:
    # A log replays from the pack's setup, which does not lead to a scenario's position: such a log never
    # replayed. The game says so, and still saves and resumes, marked, from its JSON.
    from ruleskit.log import write_log

    state = ruleskit.scenario(ROOT / "examples" / "scenarios" / "ophir-failed-check.toml")
    assert state.from_scenario
    state.apply(state.legal_actions()[0])
    with pytest.raises(PackError, match="scenario's position cannot be written as a log"):
        write_log(state, tmp_path / "game.jsonl")
    assert not (tmp_path / "game.jsonl").exists()
    again = State.from_json(state.game, state.to_json())
    assert again.from_scenario and again == state
    assert not state.game.new_game(players=3, seed=1).from_scenario


def test_play_refuses_to_log_a_scenario_game_before_it_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.cli import main

    log = tmp_path / "game.jsonl"
    code = main(["play", "--scenario", str(ROOT / "examples" / "scenarios" / "ophir-failed-check.toml"),
                 "--seats", "random,random,random", "--log", str(log)])
    assert code != 0
    assert "--log: a game set up at a scenario's position cannot be written as a log" in capsys.readouterr().err
    assert not log.exists()


def test_a_save_whose_setup_claims_a_scenario_wrongly_is_refused() -> None:
    state = ruleskit.load("ophir").new_game(players=2, seed=1)
    saved = state.to_json()
    saved["history"][0]["scenario"] = "yes"
    with pytest.raises(PackError, match=r"history\[0\]\.scenario"):
        State.from_json(state.game, saved)
