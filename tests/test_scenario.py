"""Scenario files: setup, overrides, scripted rolls and located errors."""

from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError

PACK = Path(__file__).parent / "packs" / "dice_race"


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
