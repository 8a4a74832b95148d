"""A die declared `visible = "owner"` is told with its value to the player who rolled it alone, and one declared
`visible = "none"` to no seat; every other seat reads only that the die was rolled. An ordinary die is told to
everyone, as before. Logs keep every value, and a reader who sees everything reads it.

`tests/packs/cup_dice`: each turn starts with the `cup` die rolled for the player whose turn it is (in the
stage's `on_enter`, so within the decision of the player who ended the last turn); `throw` rolls the open
`d6`, `hide` the `blind` die nobody sees. `tests/web/test_secret_dice_web.py` checks `serve` and its replay.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit.cli import main
from ruleskit.display import Display
from ruleskit.errors import PackError
from ruleskit.log import replay, write_log
from ruleskit.story import outcome_events

CUP = "tests/packs/cup_dice"


def played(actions: list[str], seed: int = 1) -> Any:
    state = ruleskit.load(CUP).new_game(players=2, seed=seed)
    for action in actions:
        state.apply(action)
    return state


def test_a_secret_roll_records_its_roller_and_an_ordinary_one_is_recorded_as_before() -> None:
    state = played(["throw", "hide"])
    setup, throw, hide = state.history
    [cup] = setup["chance"]
    assert cup == {"roll": "cup", "value": cup["value"], "player": 0}  # the first stage's `on_enter`, Player 1's turn
    d6, cup = throw["chance"]
    assert d6 == {"roll": "d6", "value": state.raw["pv"][0]["thrown"]}  # no roller: logs of public dice unchanged
    assert cup["roll"] == "cup" and cup["player"] == 1  # rolled as Player 2's turn started, in Player 1's decision
    assert hide["chance"][0]["roll"] == "blind" and hide["chance"][0]["player"] == 1


def test_the_story_tells_a_secret_roll_with_its_value_to_its_roller_alone() -> None:
    state = played(["throw"])
    display = Display(state.game)
    entry = state.history[-1]
    d6, cup = (c["value"] for c in entry["chance"])

    def told(seat: int | None) -> list[str]:
        return [line.plain.strip() for line in outcome_events(display, entry, None, seat)]

    assert told(0) == [f"⚄ Player 1 rolls d6: {d6}", "⚄ Player 2 rolls cup"]
    assert told(1) == [f"⚄ Player 1 rolls d6: {d6}", f"⚄ Player 2 rolls cup: {cup} (secret)"]
    assert told(None) == told(1)  # a reader who sees everything


def test_a_die_nobody_sees_is_told_without_its_value_to_every_seat() -> None:
    state = played(["throw", "hide"])
    display = Display(state.game)
    entry = state.history[-1]
    blind = entry["chance"][0]["value"]
    for seat in (0, 1):
        assert outcome_events(display, entry, None, seat)[0].plain.strip() == "⚄ Player 2 rolls blind"
    assert outcome_events(display, entry)[0].plain.strip() == f"⚄ Player 2 rolls blind: {blind} (secret)"


def test_the_log_keeps_every_value_and_replays(tmp_path: Path) -> None:
    state = played(["throw", "hide", "pass"])
    path = tmp_path / "cup.jsonl"
    write_log(state, path)
    assert replay(path, CUP).history == state.history
    assert '"roll":"cup"' in path.read_text().replace(" ", "")


def test_a_wrong_visible_value_is_an_error_at_its_line(tmp_path: Path) -> None:
    pack = tmp_path / "cup"
    shutil.copytree(CUP, pack)
    text = (pack / "game.toml").read_text()
    (pack / "game.toml").write_text(text.replace('visible = "none"\n\n[dice.d6]', 'visible = "roller"\n\n[dice.d6]'))
    with pytest.raises(PackError) as caught:
        ruleskit.load(pack, cache=False)
    line = text.splitlines().index('visible = "none"') + 1
    assert caught.value.line == line and "[dice.blind]" in caught.value.message
    # The choices are named: cattrs' own words were "unknown error (roller not in literal typing.Literal[...])".
    assert caught.value.message == "[dice.blind]: 'visible' is 'roller', not one of 'all', 'owner', 'none'"


def test_a_misspelt_choice_of_any_key_is_named_with_the_nearest(tmp_path: Path) -> None:
    pack = tmp_path / "cup"
    shutil.copytree(CUP, pack)
    text = (pack / "game.toml").read_text()
    (pack / "game.toml").write_text(text.replace('owner = "player"\nvisible = "owner"', 'owner = "Player"\nvisible = "owner"', 1))
    with pytest.raises(PackError) as caught:
        ruleskit.load(pack, cache=False)
    assert "'owner' is 'Player', not one of 'game', 'player', 'turn'" in caught.value.message
    assert caught.value.hint is not None and "player" in caught.value.hint


def screens(out: str) -> list[str]:
    """The output of a hot-seat game cut at each hand-over: what each player read at the screen."""
    return re.split(r"Pass the screen to Player \d, then press Enter\.", out)


def test_play_at_one_screen_tells_each_human_their_own_cup(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    answers = iter(["", "1", "", "2", "", "log", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", CUP, "--seats", "human,human", "--seed", "1", "--layout", "compact"]) == 0
    state = played(["throw", "hide"])
    first_cup = state.history[0]["chance"][0]["value"]
    d6, second_cup = (c["value"] for c in state.history[1]["chance"])
    blind, third_cup = (c["value"] for c in state.history[2]["chance"])
    _, first, second, third = screens(capsys.readouterr().out)
    assert f"⚄ Player 1 rolls cup: {first_cup} (secret)" in first
    assert f"⚄ Player 1 rolls d6: {d6}" in second  # an ordinary die: its value for everyone
    assert f"⚄ Player 2 rolls cup: {second_cup} (secret)" in second
    assert "⚄ Player 2 rolls blind\n" in third and f"rolls blind: {blind}" not in third
    assert f"⚄ Player 1 rolls cup: {third_cup} (secret)" in third
    # `log` at Player 1's screen retells both decisions: Player 2's cup without its value, their own with it.
    assert f"⚄ Player 1 rolls d6: {d6}" in third
    assert "⚄ Player 2 rolls cup\n" in third and "Player 2 rolls cup:" not in third
    assert third.count(f"⚄ Player 1 rolls cup: {third_cup} (secret)") == 2


def test_play_against_a_bot_never_shows_the_bots_cup(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    answers = iter(["1", "log", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", CUP, "--seats", "human,random", "--seed", "2", "--layout", "compact"]) == 0
    out = capsys.readouterr().out
    assert "⚄ Player 2 rolls cup\n" in out and "Player 2 rolls cup:" not in out
    assert re.search(r"⚄ Player 1 rolls cup: \d \(secret\)", out)
    assert re.search(r"⚄ Player 1 rolls d6: \d\n", out)


def test_replay_show_tells_a_seat_only_its_own_cup(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    state = played(["throw", "hide", "pass"])
    path = tmp_path / "cup.jsonl"
    write_log(state, path)
    d6, cup = (c["value"] for c in state.history[1]["chance"])
    answers = iter(["g 1", "seat 1", "seat 2", "all", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["replay", str(path), CUP, "--show", "--quiet"]) == 0
    shown = capsys.readouterr().out.split("step 1/3")[1:]
    in_full, as_first, as_second, in_full_again = shown
    for told in shown:
        assert f"⚄ Player 1 rolls d6: {d6}" in told
    assert "⚄ Player 2 rolls cup\n" in as_first and "Player 2 rolls cup:" not in as_first
    for told in (in_full, as_second, in_full_again):
        assert f"⚄ Player 2 rolls cup: {cup} (secret)" in told


def test_a_secret_roll_in_the_setup_is_told_to_no_seat(tmp_path: Path) -> None:
    """`me` is the first seat in `flow.setup`: a setup rolling the cup for every player told the first player
    every value."""
    pack = tmp_path / "cup"
    shutil.copytree(CUP, pack)
    game_file = pack / "game.toml"
    game_file.write_text(game_file.read_text().replace(
        '[flow]\n', '[flow]\nsetup = "for p in players { let r = roll cup\\n set p.under_cup = r }"\n'))
    state = ruleskit.load(str(pack)).new_game(players=2, seed=3)
    setup = state.history[0]["chance"]
    assert [(c["roll"], c["player"]) for c in setup] == [("cup", None), ("cup", None), ("cup", 0)]
    display = Display(state.game)
    for seat in (0, 1):
        told = [line.plain.strip() for line in outcome_events(display, state.history[0], None, seat)]
        assert told[:2] == ["⚄ rolls cup", "⚄ rolls cup"]  # no roller, no value
        assert told[2].startswith("⚄ Player 1 rolls cup") and told[2].endswith("(secret)") == (seat == 0)
